"""The parse reader's pets: a pet and its name, a new name, a death. Pure helpers of :mod:`.frames`.

"Our rabbit is called Snowball", "my parrot's name is Kiwi", "adopted a greyhound called Ziggy",
"adopted a beagle, his name is Biscuit", "Meet Oscar, my new rescue dog", "two cats, Salt and Pepper",
"we're calling her Maple": the speaker's pet of a kind (``cat``, ``dog``: the key) is called a name (the
value); a speaker may have several. "We renamed the rabbit Pixel", "renamed Kiwi to Mango", "our dog
goes by Rocket now" end the old name; "Tiger passed away", "we lost Bruno" end what named the pet.
"""

from __future__ import annotations

from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .english import third_person
from .frame_fits import SUBJECTS
from .lexicon import DEATHS, PET_KIND, RELATION_NOUNS
from .parse_paths import whose
from .patterns import MADE_LIKE

__all__ = ["gone_pets", "pet_atom", "pet_said", "pets_beside", "pets_named", "pets_near"]


def pet_said(speaker: str, kind: str, name: str, turn: TurnText, **update: object) -> FactAtom:
    """ "Kim's dog is called Pickle": the speaker's pet of ``kind`` by its name."""
    ctx = Context(turn=turn, subject=speaker, correction=bool(update), is_speaker=True)
    statement = f"{speaker}'s {kind} is called {name}"
    atom = build_atom("relationship", kind, name, statement, ctx, [], False, "explicit")
    return atom.model_copy(update=update) if update else atom


def pets_named(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """Pets named beside their kind: "Meet Oscar, my new rescue dog", "Say hi to Nugget, our new
    hamster", "I've got two cats, Salt and Pepper"."""
    found: list[FactAtom] = []
    for token in sentence:
        kind = _kind(token)  # "Oscar, my guinea pig": a guinea pig, no pig
        named = [c for c in token.children if c.dep_ == "appos" and c.pos_ == "PROPN"]
        if kind is not None and named and _kept(token):  # "the greyhound we were fostering, Arlo"
            found.append(pet_said(speaker, kind, named[0].text, turn))
            continue
        if kind is None or token.dep_ not in {"appos", "dobj", "amod", "compound"}:
            continue
        if _lost(token) or _gone(token, token.head):
            continue  # "We lost our dog Bailey in the spring": an ending (read by pet_atom), no pet now
        if token.dep_ == "appos" and token.head.pos_ == "PROPN" and whose(token) in {"my", "our"}:
            found.append(pet_said(speaker, kind, token.head.text, turn))
        elif token.dep_ in {"amod", "compound"} and token.head.pos_ == "PROPN" and _ours(token):
            found.append(pet_said(speaker, kind, token.head.text, turn))  # "Our puppy Biscuit chewed …"
        elif token.dep_ == "dobj" and token.head.lemma_ in {"have", "get", "adopt", "rescue"}:
            named = [c for c in token.children if c.dep_ == "appos" and c.pos_ == "PROPN"]
            names = [n for first in named for n in (first, *first.conjuncts) if n.pos_ == "PROPN"]
            found += [pet_said(speaker, kind, name.text, turn) for name in names]
    return found


def _lost(kind: Any) -> bool:
    """The pet the kind names is the object of a verb of losing it: "lost our dog Bailey", "had to put
    our cat Smudge down", "rehomed the rabbit Thumper"."""
    named = kind.head if kind.dep_ in {"amod", "compound"} else kind
    verb = named.head if named.dep_ in {"dobj", "appos"} else None
    while verb is not None and verb.dep_ == "appos":
        verb = verb.head.head if verb.head.dep_ == "dobj" else None
    return verb is not None and verb.pos_ == "VERB" and verb.lemma_.casefold() in DEATHS - {"pass"}


def pets_near(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """A pet's name near its kind in the speaker's news, whatever the verb: "a cockapoo called Moose"
    (a fragment), "Rescued a lurcher from the Dogs Trust — Juniper", "we collected Hazel from the breeder
    — a Maine Coon kitten"; not someone else's ("my sister's dog called Rex")."""
    found: list[FactAtom] = []
    # a kind the tagger took for a name ("a little ginger kitten") is still a kind when lower-case
    kinds = [t for t in sentence if _kind(t) is not None and (t.pos_ == "NOUN" or t.is_lower)]
    for kind in kinds:
        owner = whose(kind)
        handed = _handed_to_me(kind)  # "the neighbours gave us their tortoise", "inherited my aunt's cat"
        if owner and owner not in {"my", "our"} and not handed:
            continue
        called = [
            g for c in kind.children if c.dep_ == "acl" and c.lemma_ in {"call", "name"} for g in c.children
        ]
        # a name the tagger took for a plural ("a tabby called Pickles") is a name all the same
        named = [g for g in called if g.pos_ in {"PROPN", "NOUN"} and g.text[:1].isupper()]
        # "a kitten, Marmalade": the name set beside the kind
        named += [c for c in kind.children if c.dep_ == "appos" and c.pos_ == "PROPN" and c.i > kind.i]
        # "bought two guinea pigs today, Salt and Pepper": the names the parse hung on the verb
        named += [
            c
            for c in kind.head.children
            if kind.dep_ == "dobj" and c.dep_ in {"npadvmod", "appos"} and c.pos_ == "PROPN" and c.i > kind.i
        ]
        if named and (kind.dep_ == "ROOT" or _got_by_me(kind) or _the_speakers_news(kind) or handed):
            names = [n for n in (named[0], *named[0].conjuncts) if n.pos_ == "PROPN" or n.text[:1].isupper()]
            found += [pet_said(speaker, _kind(kind) or "pet", name.text, turn) for name in names]
            continue
        if not _got_by_me(kind):
            continue
        after_dash = [
            t
            for t in sentence
            if t.i > kind.i and t.pos_ == "PROPN" and t.dep_ == "appos" and t.nbor(-1).text in {"—", "-", "–"}
        ]
        if after_dash:  # "Rescued a lurcher from the Dogs Trust — Juniper"
            found.append(pet_said(speaker, _kind(kind) or "pet", after_dash[0].text, turn))
    return found


def pets_beside(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The speaker's pet named right after its kind, whatever the sentence says of it: "my labrador
    Biscuit is obsessed with tennis balls", "my tortoise Gerald is about forty", "My old greyhound Bramble
    sleeps all day" (the parse hangs the name as an apposition, a second subject, an adjective, or the
    kind as its compound). Not a pet gone (:func:`gone_pets`), nor someone else's."""
    return [
        pet_said(speaker, _kind(kind) or "pet", name.text, turn)
        for kind, name in _beside(sentence)
        if not _gone(kind, name)
    ]


def gone_pets(sentence: Any) -> list[tuple[str, str]]:
    """``(kind, name)`` of the speaker's pets a sentence names beside their kind as gone: lost, dead,
    missed, late, or told of in the past tense ("my dog Rex was the best", "we had to put my cat Tiger
    down"): no pet of the speaker's now, whatever a surface rule reads in "my cat Tiger"."""
    return [(_kind(kind) or "pet", name.text) for kind, name in _beside(sentence) if _gone(kind, name)]


def _beside(sentence: Any) -> list[tuple[Any, Any]]:
    """``(kind, name)``: a pet kind of the speaker's with a name right after it."""
    found = []
    for kind in sentence:
        if _kind(kind) is None or kind.pos_ != "NOUN" or kind.i + 1 >= sentence.end:
            continue
        name = kind.doc[kind.i + 1]
        if {whose(kind), whose(name)}.isdisjoint({"my", "our"}) or whose(kind) not in {"", "my", "our"}:
            continue
        beside = (
            (name.dep_ == "appos" and name.head.i == kind.i)  # "my labrador Biscuit"
            or (kind.dep_ == "compound" and kind.head.i == name.i)  # "my dog Rex" as one name
            or name.head.i == kind.head.i  # "my tortoise Gerald is …": two subjects
        )
        if beside and name.text[:1].isupper() and name.text.isalpha() and name.pos_ in _NAMELIKE:
            found.append((kind, name))
    return found


def _gone(kind: Any, name: Any) -> bool:
    if _lost(kind) or any(c.lower_ in _FORMER for c in (*kind.children, *name.children)):
        return True
    if any(t.lemma_.casefold() in _GONE for t in kind.sent if t.pos_ in {"VERB", "ADJ", "NOUN"}):
        return True
    head = name.head if kind.head.i == name.i else kind.head
    return bool(head.lemma_ == "be" and head.tag_ == "VBD")  # "my dog Rex was the best"


#: Words that a pet named beside them is gone: "we had to put my dog Rex down", "my cat Tom passed".
_GONE: Final = DEATHS | frozenset(["miss", "bury", "mourn", "dead", "late", "rip"])
#: A pet that was: "my late cat Tom", "my childhood dog Rex".
_FORMER: Final = frozenset(["late", "former", "childhood", "first", "previous", "ex"])
#: What the tagger calls a pet's name: a name, or a word it took for a noun or an adjective ("Bramble").
_NAMELIKE: Final = frozenset(["PROPN", "NOUN", "ADJ"])


def _the_speakers_news(kind: Any) -> bool:
    """A named pet the speaker's own clause tells of, whatever its verb: "the newest member of the family
    is a rescue greyhound called Pickle", "we've brought home a little ginger kitten, Marmalade"; not one
    whose clause is about someone else ("my sister has a dog called Rex", "Tom's got a cat called Ash"),
    not a pet that is the subject ("a dog called Rex bit me"), lost or gone, or a clause denied or only
    wished for."""
    if kind.dep_ in SUBJECTS:
        return False
    verb = kind.head
    while verb.pos_ not in {"VERB", "AUX"} and verb.head.i != verb.i:
        verb = verb.head
    # a verb of having or coming to have ("got", "brought home", "is", "welcomed"); not one of minding
    # someone's pet ("looking after a dog called Rex", "walking a spaniel named Bo for my neighbour")
    if verb.pos_ not in {"VERB", "AUX"} or verb.lemma_.casefold() not in _GETTING_PETS | _HAVING_PETS:
        return False
    if verb.dep_ in {"xcomp", "ccomp", "advcl", "relcl", "acl", "pcomp", "csubj"} or verb.tag_ == "VB":
        return False  # a clause inside another ("one day I want to own a dog called …") or not told as so
    said = [c for c in verb.children if c.dep_ not in {"conj", "advcl", "ccomp"}]
    if any(c.dep_ == "neg" or c.tag_ == "MD" or c.lower_ in {"if", "when"} for c in said):
        return False
    subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
    if not subjects:  # chat's dropped "I" tells news in the past ("Adopted a …"); a bare "own a …" is a to-do
        return verb.tag_ in {"VBD", "VBN"}
    if subjects[0].lower_ in {"i", "we"}:
        return True
    subject = subjects[0]
    if subject.pos_ in {"PRON", "PROPN"} or subject.ent_type_ == "PERSON":
        return False  # "she", "Tom", "they"
    # not "my sister", "the neighbours' kid"; "the newest member of the family", "the latest addition"
    return subject.lemma_.casefold() not in RELATION_NOUNS and whose(subject) in {"", "my", "our"}


#: Verbs a name is heard by, with their preposition.
_HEARD_BY: Final = {"go": "by", "answer": "to", "respond": "to", "come": "to"}
#: Verbs besides those of getting by which a pet is the speaker's: "the newest member is a greyhound
#: called Pickle", "we welcomed a kitten, Miso".
_HAVING_PETS: Final = frozenset(["be", "welcome", "add", "name", "call"])


def _keeper(verb: Any, speaker: str) -> str | None:
    """Whose the pet ``verb`` got is: the speaker's ("I", "we", or no subject), a named person's ("Frank
    adopted …", "our neighbour Carol has got …"), or None (someone unnamed: "my sister got a cat")."""
    subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
    if not subjects or subjects[0].lower_ in {"i", "we"}:
        return speaker
    names = [t for t in (subjects[0], *subjects[0].children) if t.pos_ == "PROPN" and t.dep_ != "poss"]
    return names[0].text if names else None


def _kind(token: Any) -> str | None:
    """The kind of pet a noun names: "kitten" a cat, "guinea pigs" a guinea pig, "African grey" a parrot."""
    lemma = token.lemma_.casefold()
    modifiers = {c.lower_ for c in token.children if c.dep_ in {"compound", "amod"}}
    # "that stuffed animal dog you gave me", "a robot dog called Sparky": a thing made like a pet
    made = {word.lower_ for left in token.lefts if left.dep_ in {"compound", "amod"} for word in left.subtree}
    if made & MADE_LIKE:
        return None
    if lemma == "grey" and "african" in modifiers:
        return "parrot"
    if lemma == "pig" and "guinea" in modifiers:
        return "guinea pig"
    return PET_KIND.get(lemma)


def _handed_to_me(kind: Any) -> bool:
    """A pet handed to the speaker: "gave us their tortoise", "I've inherited my late sister's parrot"."""
    verb = kind.head
    if kind.dep_ != "dobj" or verb.tag_ not in {"VBD", "VBN"}:
        return False
    if verb.lemma_ in {"give", "hand", "leave"}:
        return any(c.dep_ == "dative" and c.lower_ in {"me", "us"} for c in verb.children)
    subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
    return verb.lemma_ == "inherit" and all(c.lower_ in {"i", "we"} for c in subjects)


def _got_by_me(kind: Any) -> bool:
    """The pet was got by the speaker: the object of a verb of getting whose subject is "I"/"we" or
    dropped ("Rescued a lurcher …")."""
    verb = kind.head
    if kind.dep_ != "dobj" or verb.lemma_ not in _GETTING_PETS:
        return False
    subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
    return all(c.lower_ in {"i", "we"} for c in subjects)


#: Clauses of their own under a predicate.
_OTHER_CLAUSES: Final = frozenset(["ccomp", "conj", "advcl", "parataxis"])
#: Verbs of getting a pet.
_GETTING_PETS = frozenset(
    ["get", "adopt", "rescue", "collect", "bring", "pick", "buy", "have", "take", "inherit", "win"]
)


def pet_atom(
    predicate: Any, speaker: str, turn: TurnText, last_pet: str | None
) -> tuple[FactAtom | None, str | None]:
    """The speaker's pet and its name ("our rabbit is called Snowball", "my parrot's name is Kiwi",
    "adopted a greyhound called Ziggy", "adopted a beagle, his name is Biscuit"), a new name ("we
    renamed the rabbit Pixel", "renamed Kiwi to Mango": it ends the old one), a pet's death ("Tiger
    passed away", "we lost Bruno": it ends what named it); and the kind of pet last spoken of."""
    lemma = predicate.lemma_.casefold()
    children = list(predicate.children)
    # the kinds of its own clause: "I bought a betta fish, he's blue" parses the purchase under "'s"
    own = [t for c in children if c.dep_ not in _OTHER_CLAUSES for t in c.subtree]
    kinds = [kind for t in own if (kind := _kind(t)) is not None]
    pet = kinds[0] if kinds else last_pet
    named = next((c for c in children if c.dep_ in {"oprd", "attr"} and c.pos_ == "PROPN"), None)
    if lemma in {"call", "name"} and named is not None and pet is not None:
        owner = next((c for c in predicate.children if c.dep_ in SUBJECTS), None)
        if owner is not None and kinds and _speakers(owner):  # "our rabbit is called Snowball"
            return pet_said(speaker, kinds[0], named.text, turn), pet
        if owner is not None and not kinds and owner.lower_ in {"he", "she", "it"}:
            return pet_said(speaker, pet, named.text, turn), pet  # "We got a greyhound. She's called Pepper."
    if lemma == "be" and named is not None and pet is not None:  # "my parrot's name is Kiwi", "his name is …"
        subject = next((c for c in children if c.dep_ in SUBJECTS), None)
        if (
            subject is not None
            and subject.lemma_ == "name"
            and (kinds or whose(subject) in {"his", "her", "its"})
        ):
            return pet_said(speaker, pet, named.text, turn), pet
    for obj in (c for c in children if c.dep_ == "dobj"):
        kind = _kind(obj)
        called = [
            g for c in obj.children if c.dep_ == "acl" and c.lemma_ in {"call", "name"} for g in c.children
        ]
        names = [g for g in called if g.pos_ == "PROPN"]
        if kind is not None and names and lemma in {"adopt", "get", "have", "rescue", "buy"}:
            keeper = _keeper(predicate, speaker)  # "our neighbour Carol has got herself a parrot called Kiwi"
            return (pet_said(keeper, kind, names[0].text, turn), kind) if keeper else (None, kind)
    if (
        lemma in {"call", "name"}
        and pet is not None
        # the subject, or the subject of the verb it is coordinated with ("… and named him Ginger")
        and any(
            c.dep_ in SUBJECTS and (c.lower_ in {"i", "we"} or _household(c))
            for c in [*children, *(predicate.head.children if predicate.dep_ == "conj" else ())]
        )
    ):  # "we're calling her Maple", "and named him Ginger", "the kids named her Olive": a pet told before
        # a name the tagger took for a plural ("named her Miso", Miso a noun) is a name all the same
        given = next(
            (
                t
                for t in predicate.subtree
                if t.i > predicate.i
                and (t.pos_ == "PROPN" or (t.pos_ == "NOUN" and t.dep_ == "dobj" and t.text[:1].isupper()))
            ),
            None,
        )
        if given is not None:
            return pet_said(speaker, pet, given.text, turn), pet
    # the verbs a name is heard by: "goes by Rocket now", "answers to Nugget now", "responds to Kiwi"
    by = _HEARD_BY.get(lemma)
    # "she never answered to Flash anyway": a name not heard by is no name
    heard = not any(c.dep_ == "neg" or c.lower_ == "never" for c in children)
    if by is not None and heard and pet is not None and any(c.lower_ == by for c in children):
        owner = next((c for c in children if c.dep_ in SUBJECTS), None)
        new = [g for c in children if c.lower_ == by for g in c.children if g.pos_ == "PROPN"]
        # "our dog goes by Rocket now"; "the hamster answers to Nugget now": the household's own
        the_pet = (
            owner is not None and owner.lemma_.casefold() in PET_KIND and _det(owner) and not whose(owner)
        )
        if owner is not None and new and (_speakers(owner) or the_pet or owner.lower_ in {"he", "she", "it"}):
            return pet_said(speaker, pet, new[0].text, turn, ends=[pet]), pet
    if by == "to" and heard and pet is None and lemma == "answer":
        # "We started calling Max 'Captain' and it stuck, he only answers to Captain now": of a kind not said,
        # a new name for the name before it (only a pet answers to a name; it ends only what named it)
        new = [g for c in children if c.lower_ == by for g in c.children if g.pos_ == "PROPN"]
        before = predicate.doc[: predicate.i]
        told = [t.text for t in before if t.pos_ == "PROPN" and new and t.text != new[0].text]
        if new and told and any(c.dep_ in SUBJECTS and c.lower_ in {"he", "she", "it"} for c in children):
            return pet_said(speaker, "pet", new[0].text, turn, ends_words=told[-1:]), None
    if lemma == "rename":
        old = next((c for c in children if c.dep_ == "dobj"), None)
        new = [g for c in children if c.dep_ == "prep" and c.lower_ in {"to", "as"} for g in c.children]
        # "renamed the dog Bruno" (an apposition to the object), "renamed him Bruno" (the verb's)
        new += [c for c in (old.children if old is not None else ()) if c.dep_ in {"oprd", "appos"}]
        new += [c for c in children if c.dep_ == "oprd"]
        if old is not None and old.pos_ == "PROPN" and not new and kinds:
            new, old = [old], None  # "renamed the rabbit Pixel": parsed with Pixel as the object
        fresh = next((t for t in new if t.pos_ == "PROPN"), None)
        pet = pet or "pet"  # "we renamed Kiwi to Mango": whatever Kiwi is, it is called Mango now
        if fresh is not None:
            words = [old.text] if old is not None and old.pos_ == "PROPN" else []
            return pet_said(
                speaker, pet, fresh.text, turn, ends=[] if words else [pet], ends_words=words
            ), pet
    # "Clover didn't make it through the summer", "Bramble went peacefully in November": a death told gently
    gently = (
        lemma == "make"
        and any(c.dep_ == "neg" for c in children)
        and any(c.dep_ == "dobj" and c.lower_ == "it" for c in children)
    ) or (lemma == "go" and any(c.lower_ == "peacefully" for c in children))
    # "Oreo went over / crossed the rainbow bridge": the pet's death told as it is told to children
    gently = gently or (
        lemma in {"go", "cross"}
        and any(t.lower_ == "bridge" for t in predicate.subtree)
        and any(t.lower_ == "rainbow" for t in predicate.subtree)
    )
    if gently and any(c.dep_ in SUBJECTS and c.pos_ == "PROPN" for c in children):
        lemma = "die"
    # "Sunny flew off during harmattan and never came back", "Biscuit ran away", "Pip went missing": a pet
    # gone; it ends only a pet fact naming it (a person who "ran off" is no pet)
    strayed = _strayed(predicate)
    # (a name the tagger took for an adjective is a name: no adjective is a subject, "Sunny flew off")
    named = [
        c
        for c in children
        if c.dep_ in SUBJECTS
        and (c.pos_ == "PROPN" or c.lemma_ in PET_KIND or (c.pos_ == "ADJ" and c.is_title))
    ]
    if strayed and named and not any(c.dep_ == "neg" or c.lower_ == "with" for c in children):
        ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
        said = "".join(t.text_with_ws for t in predicate.subtree if not t.is_punct).strip()
        said = _theirs(said, speaker)  # "our dog ran away": the speaker's dog
        name = named[0].text if named[0].lemma_ not in PET_KIND else None
        atom = build_atom("statement", "ended", said, third_person(said, speaker), ctx, [], False, "explicit")
        # a name ends the pet of that name, of whatever kind; "our dog" the dog
        kinds = sorted({*PET_KIND.values(), "pet"}) if name else [PET_KIND[named[0].lemma_.casefold()]]
        return atom.model_copy(
            update={"ends": kinds, "ends_words": [name] if name else [], "temporal": "past"}
        ), pet
    if lemma in DEATHS and (lemma != "pass" or any(c.lower_ == "away" for c in children)):
        held = [c for c in children if c.dep_ in {"nsubj", "dobj"}]
        # "Tiger passed away", "our cat Mittens passed away" (the name in apposition), "Mittens died"
        # (a name the tagger took for a plural noun: capitalised all the same)
        gone = [c for c in held if c.pos_ == "PROPN" or (c.pos_ == "NOUN" and c.is_title and not _det(c))]
        gone += [a for c in held for a in c.children if a.dep_ == "appos" and a.pos_ == "PROPN"]
        # "I had to rehome Loki": the subject of the verb "rehome" hangs on
        doers = [*children, *(predicate.head.children if predicate.dep_ == "xcomp" else ())]
        if gone and (lemma in {"die", "pass"} or any(c.dep_ in SUBJECTS and _speakers(c) for c in doers)):
            ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
            told = predicate.head if predicate.dep_ == "xcomp" else predicate  # "had to rehome Loki"
            # up to a comma after it: "our cat Smudge passed away last week, so sad"
            stop = next((t.i for t in told.subtree if t.i > told.i and t.text in {",", ";", "—", "-"}), None)
            kept = [t for t in told.subtree if stop is None or t.i < stop]
            said = "".join(t.text_with_ws for t in kept if not t.is_punct and t.lower_ != "sadly").strip()
            said = _theirs(said, speaker)  # "our cat Mittens passed away": the speaker's cat
            statement = third_person(said, speaker)
            atom = build_atom("statement", "ended", said, statement, ctx, [gone[0].text], False, "explicit")
            return atom.model_copy(update={"ends_words": [gone[0].text], "temporal": "past"}), pet
    subject = next((c for c in children if c.dep_ in SUBJECTS), None)
    if kinds and subject is not None and not _speakers(subject):
        return None, None  # "My sister got a greyhound. She's called Pepper.": her dog, not the speaker's
    return None, pet


#: Verbs of taking an animal in: "the cat we adopted", "the greyhound we were fostering".
_TAKING_IN: Final = frozenset(["adopt", "foster", "rescue", "get", "bring", "take", "buy", "have"])


def _kept(kind: Any) -> bool:
    """ "the greyhound we were fostering", "The cat we adopted": a pet the speaker's household took in
    (not "the dog we were walking", nor someone else's)."""
    return any(
        c.dep_ == "relcl"
        and c.lemma_.casefold() in _TAKING_IN
        and any(g.dep_ in SUBJECTS and g.lower_ in {"i", "we"} for g in c.children)
        and not any(g.dep_ == "neg" for g in c.children)
        for c in kind.children
    )


#: Who in a household names its pet: "the kids named her Olive", "my daughter called him Bean".
_NAMERS: Final = frozenset(
    ["kids", "children", "son", "daughter", "boys", "girls", "wife", "husband", "partner", "family"]
)


def _household(subject: Any) -> bool:
    """The speaker's household: "the kids", "my daughter", "our son" (not "my neighbour's kids")."""
    if subject.lower_ not in _NAMERS:
        return False
    owners = [c.lower_ for c in subject.children if c.dep_ in {"poss", "det"}]
    return bool(owners) and owners[0] in {"my", "our", "the"}


def _theirs(said: str, speaker: str) -> str:
    """ "our cat Mittens passed away" as "<speaker>'s cat Mittens passed away"."""
    for ours in ("Our ", "our ", "My ", "my "):
        if said.startswith(ours):
            return f"{speaker}'s {said.removeprefix(ours)}"
    return said


#: Ways a pet goes: the verb and the word it needs ("ran away", "flew off", "went missing").
_STRAYING: Final = {
    "run": {"away", "off"},
    "fly": {"away", "off"},
    "go": {"missing", "astray"},
    "escape": set(),
}


def _strayed(predicate: Any) -> bool:
    words = _STRAYING.get(predicate.lemma_.casefold())
    if words is None:
        return False
    return not words or any(c.lower_ in words for c in predicate.children)


def _speakers(token: Any) -> bool:
    """ "we", "I", or a thing of theirs ("our rabbit", "my cat"); not a person of theirs ("my sister")."""
    lemma = token.lemma_.casefold()
    if (lemma in RELATION_NOUNS and lemma not in PET_KIND) or token.ent_type_ == "PERSON":
        return False
    return token.lower_ in {"i", "we"} or whose(token) in {"my", "our"}


def _ours(kind: Any) -> bool:
    """ "our puppy Biscuit": the possessive hangs on the kind or on the name it modifies."""
    return whose(kind) in {"my", "our"} or whose(kind.head) in {"my", "our"}


def _det(token: Any) -> bool:
    """ "The Queen": a title with its article, no pet's name."""
    return any(c.dep_ == "det" for c in token.children)
