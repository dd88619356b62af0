"""The parse reader: typed facts from a clause's dependency parse, through the frames of :mod:`.lexicon`.

For each predicate of a parsed turn (spaCy's small English model) the reader takes

- its **subject**, through possessive and appositive chains: "my husband Arjun" is Arjun, the speaker's
  husband; "I"/"we" is the speaker; "he"/"she" the last person named; anyone else is their own subject;
- its **frame**: the lemma and how it takes its value (a preposition's object, a direct object, a
  predicate noun or adjective), looked up in the lexicon's table of slots;
- its **tense, modality, negation and question form**: a question, a modal ("might", "should",
  "will"), a wish or plan ("want to", "going to", "thinking about"), a condition ("if"), a negation and
  the past of a state ("I lived in Lyon", "back in 2012") state nothing current and are not read.

What it reads it files under the right person; what it judged and refused it *vetoes*: the surface rules
may not read the same slot from that turn for the speaker (a friend's move is not the user's). Pure: the
caller parses (one batch per chunk). Read by :func:`agentx_memory.extraction.rules.extract_turns`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Final

from .antecedents import named_last, person_referent
from .atoms import FactAtom
from .clause_atoms import UNKNOWN_SPEAKER, TurnText
from .frame_appointments import appointment_atom, presumed, thing_key
from .frame_changes import (
    contact_atoms,
    ending_atom,
    my_card,
    relation_atom,
    wedded,
)
from .frame_couples import partner_gone, partners_together
from .frame_cues import cue_atoms, partners_told, work_told
from .frame_fits import SUBJECTS
from .frame_followups import (
    answer_given,
    appointment_asked,
    appointment_given,
    change_untold,
    name_answered,
    partner_named,
    speaks_of_contact,
)
from .frame_introductions import introduction, name_change
from .frame_lapses import apart, exes, handed_on, never_again, new_owner, used_to
from .frame_moods import CONDITIONS, denied, inverted, supposed, supposed_at, told_news
from .frame_pet_care import pets_cared_for
from .frame_pets import gone_pets, pet_atom, pet_said, pets_beside, pets_named, pets_near
from .frame_phrases import habit_atom, hired_by, sentence_atoms
from .frame_returns import given_back, gone_to_others, last_day
from .frame_rivals import favoured
from .frame_slot_nouns import slot_noun_atoms
from .frame_things import thing_atom
from .frame_values import frames_of, value_words
from .frame_vehicles import owned_vehicle
from .introductions import NOT_NAMES, identity_name, introduces
from .lexicon import (
    APPOINTMENTS,
    PARTNER_NOUNS,
    PET_KINDS,
    RELATION_NOUNS,
    SAME_PAST,
    SLOTS,
    WISH_HEADS,
    Frame,
)
from .parse_paths import (
    a_name,
    mine,
    misread_name,
    name_of,
    named_relations,
    not_now,
    only_weighed,
    others_doing,
    said_with_me,
)
from .slot_atoms import slot_atom
from .stored import value_tokens

__all__ = ["FRAME_KEYS", "Reading", "filed_under", "read_parsed"]

# spaCy objects are typed ``Any``: spaCy is an optional dependency, never imported here.

#: The keys the parse reader owns when it runs (the rules' reading of them is vetoed where it judged).
FRAME_KEYS: Final = frozenset(slot.key for slot in SLOTS.values()) | {"phone", "email"}


#: A household said as one: "our whole house", "our family".
_HOUSEHOLDS: Final = frozenset(["house", "household", "family", "home", "flat", "kitchen"])
_EMBEDDED: Final = ("relcl", "acl", "pcomp", "amod")


@dataclass
class Reading:
    """What the parse read of one turn."""

    atoms: list[FactAtom] = field(default_factory=list)
    #: ``(subject, key, value words)`` of the clauses the reader judged: the rules may not read them
    #: again (a friend's move is not the user's; "I lived in Lyon" is no home now).
    vetoes: set[tuple[str, str, frozenset[str]]] = field(default_factory=set)
    #: The name the speaker gave themself ("I'm Dana.", "Call me Bea."), if any.
    speaker_name: str | None = None
    #: Named people the speaker related themself to: name → relation ("Arjun" → "husband").
    people: dict[str, str] = field(default_factory=dict)
    #: The turn spoke of the speaker's number without giving it: the next may give it alone.
    contact_pending: bool = False
    #: The appointment the turn said changed without its new time ("the clinic rang, different slot").
    appointment_pending: str | None = None
    #: The slot whose change the turn told without its value (a move, someone new): the next may name it.
    untold: str | None = None


def read_parsed(
    doc: Any,
    turn: TurnText,
    speaker: str,
    correction: bool,
    number_asked: bool = False,
    appointment: str | None = None,
    answering: str | None = None,
) -> Reading:
    """The typed facts a parsed turn states, filed under their subjects. ``speaker`` is whose "I";
    ``number_asked``: the speaker's turn before spoke of their number without giving it;
    ``appointment``: the appointment the turn before said changed without its new time; ``answering``:
    the slot of the speaker's the listener just asked about ("Which company did you end up at?")."""
    reading = Reading()
    if appointment is not None and (given := appointment_given(doc, appointment, speaker, turn, speaker)):
        reading.atoms.append(given)
    if answering == "name" and (named := name_answered(doc)) and introduces(named, speaker, surely=True):
        reading.speaker_name = named  # "What should I call you?" … "oh, Marguerite is fine"
        reading.atoms.append(identity_name(turn, speaker, named))
        speaker = named if speaker == UNKNOWN_SPEAKER else speaker
    elif answering is not None and answering.startswith("pet:"):
        if (pet_name := name_answered(doc)) is not None and pet_name not in NOT_NAMES:
            reading.atoms.append(pet_said(speaker, answering.removeprefix("pet:"), pet_name, turn))
    elif answering is not None and (answer := answer_given(doc, answering, speaker, turn, speaker)):
        reading.atoms.append(answer)
    last_person: str | None = None
    last_thing: Any | None = None
    last_pet: str | None = None
    for sentence in doc.sents:
        if (name := introduction(sentence, speaker)) is not None:
            reading.speaker_name = name
            if speaker == UNKNOWN_SPEAKER or name != speaker:
                reading.atoms.append(identity_name(turn, speaker, name))
            if speaker == UNKNOWN_SPEAKER:
                speaker = name  # the turn's later sentences, and later turns, are filed under the name
            continue
        if (renamed := name_change(sentence, speaker)) is not None:  # "I go by Maggie these days"
            reading.atoms.append(identity_name(turn, speaker, renamed))
            continue
        lost = gone_pets(sentence)  # "we had to put my cat Tiger down": no cat of the speaker's now
        reading.vetoes |= {(speaker, kind, value_tokens(name)) for kind, name in lost}
        for name, relation in named_relations(sentence, speaker):
            if not any(name == pet for _, pet in lost):
                reading.people.setdefault(name, relation)  # "a gift for my wife Jo?": Jo is his wife
        asked = sentence.text.rstrip().endswith("?") or inverted(sentence)
        if asked and not supposed(sentence):  # "Where can I charge my Tesla?": the car is taken for granted
            reading.atoms += owned_vehicle(sentence, speaker, turn, asked=True)
            if my_card(sentence):  # "Can you lay out an email signature for me: …, 0433 987 210"
                reading.atoms += contact_atoms(sentence, speaker, turn, speaker, number_asked)
            reading.atoms += partners_together(
                sentence, speaker, turn, correction
            )  # "… anniversary with Iker?"
        atoms_before, vetoes_before = len(reading.atoms), set(reading.vetoes)
        if not (asked or supposed(sentence)):
            reading.atoms += contact_atoms(sentence, speaker, turn, speaker, number_asked)
            reading.contact_pending = reading.contact_pending or speaks_of_contact(sentence)
            reading.atoms += pets_named(sentence, speaker, turn)
            if not any(_used_to(t) for t in sentence):  # "I used to have a cat called Smudge": history
                reading.atoms += pets_near(sentence, speaker, turn) + pets_beside(sentence, speaker, turn)
            petted = {atom.value for atom in reading.atoms if atom.key in PET_KINDS}
            cared = pets_cared_for(sentence, speaker, turn, reading.people)  # "Rosie's first vet visit"
            reading.atoms += [pet for pet in cared if pet.value not in petted]
            reading.atoms += sentence_atoms(sentence, speaker, turn)
            reading.atoms += slot_noun_atoms(sentence, speaker, turn, correction)
            reading.atoms += exes(sentence, speaker, turn) + new_owner(sentence, speaker, turn)
            reading.atoms += partner_gone(sentence, speaker, turn)  # "Ollie's out of the picture"
            reading.atoms += never_again(sentence, speaker, turn)  # "not picking the guitar up again"
        if not (asked or supposed(sentence)) and not any(True for _ in _predicates(sentence)):
            last_thing = _appointment(reading, sentence.root, speaker, turn, last_person, last_thing)
        for predicate in _predicates(sentence):
            # "Can you suggest a cake, since I'm vegan these days?": the reason given is told, not asked
            questioned = (asked and not _told_in_passing(predicate)) or supposed_at(predicate)
            if not questioned:
                last_thing = _appointment(reading, predicate, speaker, turn, last_person, last_thing)
                if (thing := thing_atom(predicate, speaker, turn, last_person)) is not None:
                    reading.atoms.append(thing)
                pet, last_pet = pet_atom(predicate, speaker, turn, last_pet)
                if pet is not None and not _used_to(predicate):
                    reading.atoms.append(pet)
            if not questioned and _states_present(predicate, _ENDING):
                reading.atoms += [hired] if (hired := hired_by(predicate, speaker, turn)) else []
            if not questioned and (habit := habit_atom(predicate, speaker, turn)) is not None:
                reading.atoms.append(habit)
            if not questioned and (split := apart(predicate, speaker, turn)) is not None:
                reading.atoms.append(split)  # "Ravi and I are no longer together"
            if not questioned and (handed := handed_on(predicate, speaker, turn)) is not None:
                reading.atoms.append(handed)  # "the i30 went to my cousin"
            if not questioned and (back := given_back(predicate, speaker, turn)) is not None:
                reading.atoms.append(back)  # "handed back my laptop and pass at Accenture"
            if not questioned and (last := last_day(predicate, speaker, turn)) is not None:
                reading.atoms.append(last)  # "My last day at Tesco was Friday"
            if not questioned and (sold := gone_to_others(predicate, speaker, turn)) is not None:
                reading.atoms.append(sold)  # "the Fiesta's off to the scrappy", "the chap who bought my A3"
            if not questioned and (gone := used_to(predicate, speaker, turn)) is not None:
                reading.atoms.append(gone)  # "I used to live in Paris": no home there now
            found = _subject(predicate, speaker, person_referent(predicate, last_person), reading.people)
            if found is None:
                continue
            subject, is_person = found
            if is_person:
                last_person = subject
            elif with_me := [t.text for t in said_with_me(predicate) if a_name(t)]:
                last_person = with_me[0]  # "Henrik and I got married, so he's my husband now"
            owner = speaker if subject in {"we", speaker} else subject
            present = not questioned and _states_present(predicate, _ENDING) and not denied(predicate)
            if present and owner == speaker and (wed := wedded(predicate)) is not None:
                reading.people.setdefault(wed, "partner")  # "Sarah and I got married", "… got engaged"
            if present and is_person and _proposed(predicate):
                reading.people.setdefault(subject, "partner")  # "Diego proposed on the beach"
            if present and owner == speaker and (ending := ending_atom(predicate, owner, turn, speaker)):
                reading.atoms.append(ending)
            for frame, value, fits in frames_of(predicate):
                slot = SLOTS[frame.slot]
                if (
                    subject == "we"
                    and frame.slot not in {"residence", "vehicle"}
                    and not _me_included(sentence)
                    and value.lemma_.casefold() not in _HOUSEHOLDS  # "we're a vegan household now"
                ):
                    continue  # "we went vegan" may be the others; "…, me included" is the speaker too
                negated = denied(predicate)
                if not fits:
                    # A frame of its slot that the value does not fit judged it ("started at Leeds uni"
                    # is no employer); a copula only says the value is of another slot ("a paramedic",
                    # "lactose intolerant"): the rules may read it.
                    if frame.lemma != "be":
                        reading.vetoes.add((owner, slot.key, value_words(value)))
                    continue
                if predicate.dep_ == "acl" and not any(c.dep_ in SUBJECTS for c in predicate.children):
                    continue  # "a journalist based in Berlin": the parse cannot tell whose; the rules may
                if (
                    questioned
                    or not _states_present(predicate, frame)
                    or (negated and (frame.change or _not_yet(predicate)))
                ):
                    reading.vetoes.add((owner, slot.key, value_words(value)))
                    continue
                if owner.endswith("'s"):  # a relation without a name: "my sister got a job at …"
                    reading.vetoes.add((speaker, slot.key, value_words(value)))
                    continue
                reading.atoms.append(slot_atom(frame, value, owner, turn, correction, speaker, negated))
                reading.vetoes.add((owner, slot.key, value_words(value)))
                if owner != speaker:
                    reading.vetoes.add((speaker, slot.key, value_words(value)))
        if not supposed(sentence):
            dated = {atom.key for atom in reading.atoms[atoms_before:] if atom.key.startswith("appointment_")}
            for noun in presumed(sentence):  # "… plan the route for my visa interview on 17 February"
                if f"appointment_{thing_key(noun, loose=True)}" not in dated:
                    _appointment(reading, noun, speaker, turn, last_person, last_thing, note=True)
        if not (asked or supposed(sentence)):
            read = {atom.key for atom in reading.atoms[atoms_before:]} | {
                key for _, key, _ in reading.vetoes - vetoes_before
            }
            reading.atoms += cue_atoms(sentence, speaker, turn, correction, read)
            if not any(key in PARTNER_NOUNS for key in read):
                reading.atoms += partners_told(sentence, speaker, turn, correction)
                reading.atoms += partners_together(sentence, speaker, turn, correction)
            reading.atoms += work_told(sentence, speaker, turn, correction)
            last_person = named_last(sentence, last_person, reading.atoms[atoms_before:], speaker)
    reading.atoms += favoured(doc, speaker, turn, reading.atoms)  # "X is my new obsession; Y sounds tired"
    reading.appointment_pending = appointment_asked(doc, reading.atoms)
    reading.untold = change_untold(doc, reading.atoms)
    if reading.untold == "partner" and (partner := partner_named(doc, speaker, turn)) is not None:
        reading.atoms.append(partner)  # "I've got a girlfriend! Her name's Ines."
        reading.untold = None
    ended = {word for atom in reading.atoms for word in atom.ends_words}
    # "Our old collie Juno crossed the rainbow bridge": a pet the same turn ends is no current pet
    reading.atoms = [atom for atom in reading.atoms if not (atom.key in PET_KINDS and atom.value in ended)]
    for name, relation in reading.people.items():  # "Jo, my wife, is a doctor": Jo is the speaker's wife
        if name not in ended:  # "our cat Mittens passed away": no current cat named in the same breath
            reading.atoms.append(relation_atom(speaker, relation, name, turn))
    return reading


#: An ending, as a frame: a change ("I quit" holds now; "I'm quitting next month" is a plan).
_ENDING: Final = Frame("end", "dobj", "ending", change=True)


def _appointment(
    reading: Reading,
    predicate: Any,
    speaker: str,
    turn: TurnText,
    last_person: str | None,
    last: Any,
    note: bool = False,
) -> Any:
    """Read an appointment the predicate states (whose: a possessive's, else the speaker's); returns
    the thing last named, for "it's on the 19th now". ``note``: a noun taken for granted with its time
    ("… before my root canal on Friday?")."""
    if not note and (not _states_present(predicate, _ENDING) or denied(predicate)):
        return last
    atom, thing = appointment_atom(predicate, speaker, turn, speaker, last, note)
    if atom is None or thing is None:
        return thing if thing is not None else last
    # "Milo's vet appointment" is Milo's; "Tuesday's car service" is the speaker's, on a Tuesday
    # ("my doctor's appointment": the one it is with, no owner)
    owners = [
        c
        for c in thing.children
        if c.dep_ == "poss"
        and c.ent_type_ not in {"DATE", "TIME"}
        and c.lemma_.casefold() not in APPOINTMENTS
    ]
    if owners and owners[0].lower_ not in {"my", "our"}:
        owner = name_of(owners[0]) if owners[0].pos_ == "PROPN" else last_person
        if owner is None:
            return thing
        atom = atom.model_copy(
            update={"subject": owner, "statement": atom.statement.replace(f"{speaker}'s", f"{owner}'s", 1)}
        )
    reading.atoms.append(atom)
    return thing


def filed_under(reading: Reading, old: str, new: str) -> Reading:
    """The reading with the speaker's facts filed under the name they gave (found by the rules: "I'm
    Nadia, freelance journalist …")."""
    atoms = [
        atom.model_copy(update={"subject": new, "statement": atom.statement.replace(old, new, 1)})
        if atom.subject == old
        else atom
        for atom in reading.atoms
    ]
    vetoes = {(new if subject == old else subject, key, words) for subject, key, words in reading.vetoes}
    return Reading(atoms, vetoes, reading.speaker_name, reading.people)


def _predicates(sentence: Any) -> Iterator[Any]:
    for token in sentence:
        if token.pos_ in {"VERB", "AUX"} and token.dep_ not in {"aux", "auxpass"}:
            yield token


def _subject(
    predicate: Any, speaker: str, last_person: str | None, people: dict[str, str]
) -> tuple[str, bool] | None:
    """``(subject, names a person)``: the speaker, ``"we"``, a named person (related to the speaker
    through a possessive, recorded in ``people``), ``"<speaker>'s <relation>"`` for a relation without a
    name, or None (things, other pronouns)."""
    if _me_being(predicate):
        return speaker, False  # "a plan that works with me being pescatarian now"
    if predicate.lemma_ in _SENDING and any(
        c.dep_ == "dobj" and c.lower_ == "me" for c in predicate.children
    ):
        return speaker, False  # "Work relocated me to Bangalore": the speaker moved
    head = predicate
    while True:
        subjects = [child for child in head.children if child.dep_ in SUBJECTS]
        # "I gave up hurling, doing a bit of sea swimming now instead": a participle after its clause
        # shares the clause's subject
        trailing = head.dep_ == "advcl" and head.tag_ == "VBG" and head.i > head.head.i
        trailing = trailing and not any(c.dep_ == "mark" for c in head.children)
        if subjects or (head.dep_ not in {"conj", "xcomp", "acomp", "oprd"} and not trailing):
            break
        if head.head.i == head.i:
            break
        head = head.head  # "I moved to Leeds and joined Arup": the second verb shares the subject
    if not subjects and predicate.dep_ == "csubj" and predicate.tag_ == "VBG":
        return speaker, False  # "Living in Lisbon has been amazing": the speaker's living
    misread = [t for t in head.children if t.i < head.i and t.dep_ in {"advmod", "npadvmod", "dep"}]
    if not subjects and misread and misread[0].i == predicate.sent.start and misread_name(misread[0]):
        return misread[0].text, True  # "Raj has taken up cricket": a name the model took for an adverb
    if not subjects and others_doing(head):
        return None  # "Taking in kids in need - you're so kind": the listener's doing
    if not subjects:
        # Chat drops the "I" of a clause that opens with its verb: "sold the clio last month", "quit
        # chess completely", "driving a Kia Niro these days".
        opening = next(
            (t for t in predicate.sent if not (t.is_punct or t.pos_ in {"INTJ", "ADV", "CCONJ"})), None
        )
        past = head.tag_ in {"VBD", "VBG", "VBN"} or head.lower_ in SAME_PAST
        # "sold the clio and bought a …"; "Got engaged to Ailsa" (opened by the verb's auxiliary)
        opens = opening is not None and (
            opening.i == head.i or (opening.head.i == head.i and opening.dep_ in {"aux", "auxpass"})
        )
        if opens and past:
            return speaker, False
        # "Sold the BMW, bought a Volvo": a root with no subject anywhere before it, opened by a verb
        opened = opening is not None and opening.pos_ == "VERB" and opening.tag_ in {"VBD", "VBN", "VBG"}
        unsaid = not any(t.dep_ in SUBJECTS for t in predicate.sent if t.i < head.i)
        if head.dep_ == "ROOT" and past and opened and unsaid:
            return speaker, False
        return None
    token = subjects[0]
    lower = token.lower_
    conjoined = [c for c in token.children if c.dep_ == "conj"]
    if (
        lower == "i"
        or (lower == "me" and conjoined)  # chat's "me and Jas broke up"
        or any(c.lower_ in {"i", "me"} for c in conjoined)
    ):
        return speaker, False  # "Dev and I live in Round Rock": the speaker too
    if lower == "we" or (lower in _HOUSEHOLDS and any(c.lower_ == "our" for c in token.children)):
        return "we", False  # "our whole house has gone veggie"
    if lower == "it" and predicate.lemma_ == "be" and _for_me(predicate):
        return speaker, False  # "it's vegan across the board for me now": what the speaker is
    if lower == "home" and not any(c.dep_ == "det" for c in token.children):
        return speaker, False  # "home is Glasgow now"
    if predicate.lemma_ == "be" and any(
        c.dep_ in {"attr", "advmod"} and c.lower_ == "home" for c in predicate.children
    ):  # "Swansea is home now", "Dublin has been home since I was born"; not "home for my sister"
        whose = [g for t in predicate.subtree if t.lower_ == "for" for g in t.children if g.dep_ == "pobj"]
        return None if any(g.lower_ not in {"me", "us"} for g in whose) else (speaker, False)
    if lower in {"he", "she"}:
        return (last_person, True) if last_person else None
    if token.pos_ == "PROPN" and not (token.is_lower and token.lower_ in RELATION_NOUNS):  # "my nan Edith"
        name = name_of(token)
        if "." in name:  # "J.K. Rowling": a statement would end at its first stop
            return None
        related = _relation_of(token)
        if related is not None:
            people[name] = related
        return (speaker, False) if name == speaker else (name, True)
    if (
        token.pos_ in {"NOUN", "PROPN"}
        and token.lower_ in RELATION_NOUNS | {token.lemma_.casefold()} & RELATION_NOUNS
    ):
        if not mine(token):
            return None
        relation = token.lemma_.casefold()
        # "my sister Ana", "my best mate Dan" (hung as a modifier of the noun)
        named = [
            c
            for c in token.children
            if c.dep_ in {"appos", "compound", "npadvmod"} and (c.pos_ == "PROPN" or misread_name(c))
        ]
        after = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
        # "My uncle Raj has moved back to Delhi": a capitalised word right after the relation, tagged an
        # adverb of the verb, is its name
        if not named and after is not None and after.head.i == predicate.i and _capitalised(after):
            named = [after]
        if named:
            name = name_of(named[0])
            if not not_now(token):  # "my future wife Anna would love this": not (yet) his wife
                people[name] = relation
            return name, True
        return f"{speaker}'s", False  # "my sister got a job at Deloitte": hers, not the speaker's
    return None


def _capitalised(token: Any) -> bool:
    return token.pos_ in {"ADV", "ADJ", "INTJ"} and token.is_title and token.is_alpha and not token.ent_type_


def _a_wish(head: Any) -> bool:
    """A head under which a clause is a wish or a plan ("want", "hope"); by its form too, since the small
    model lemmatises "hoping" as "hop"."""
    lower = head.lower_
    forms = {head.lemma_.casefold(), lower.removesuffix("ing") + "e", lower.removesuffix("ed") + "e"}
    return bool(forms & WISH_HEADS)


def _not_yet(predicate: Any) -> bool:
    """ "I haven't done pottery yet", "I've never tried sushi": not done so far, which is no stance
    ("I don't do yoga" is one)."""
    perfect = any(c.dep_ == "aux" and c.lemma_ == "have" for c in predicate.children)
    return perfect or any(c.lower_ == "yet" for c in predicate.children)


def _proposed(predicate: Any) -> bool:
    """ "Diego proposed (to me)", "Sam popped the question": said by the speaker, a proposal to them; not
    "Ana proposed a toast"."""
    popped = predicate.lemma_ == "pop" and any(
        c.dep_ == "dobj" and c.lower_ == "question" for c in predicate.children
    )
    if not popped and (predicate.lemma_ != "propose" or any(c.dep_ == "dobj" for c in predicate.children)):
        return False
    to = [g for c in predicate.children if c.lower_ == "to" for g in c.children if g.dep_ == "pobj"]
    return all(g.lower_ == "me" for g in to)


def _me_included(sentence: Any) -> bool:
    """ "We've all gone pescatarian, me included", "including me", "… as a family"."""
    words = [t.lower_ for t in sentence]
    together = {("me", "included"), ("including", "me"), ("a", "family"), ("a", "household")}
    return any((a, b) in together for a, b in pairwise(words))  # "… as a family"


#: Verbs whose object goes somewhere: "they moved me to Leeds", "work relocated me to Bangalore".
_SENDING: Final = frozenset(["move", "relocate", "transfer", "post", "send", "station", "second"])


def _for_me(predicate: Any) -> bool:
    """ "… for me": the speaker is who the clause is about ("it's veggie all the way for me")."""
    return any(
        child.dep_ == "prep" and child.lower_ == "for" and any(c.lower_ == "me" for c in child.children)
        for node in (predicate, *(c for c in predicate.children if c.dep_ in {"attr", "acomp"}))
        for child in node.children
    )


def _relation_of(name: Any) -> str | None:
    """ "Arjun, my husband, …" → "husband"."""
    for child in name.children:
        if child.dep_ == "appos" and child.lemma_.casefold() in RELATION_NOUNS and mine(child):
            return str(child.lemma_.casefold())
    return None


#: Words that open a clause told as so whatever its head says: a result or a cause.
_OWN_CLAUSE: Final = frozenset(["so", "because", "cause", "cos"])


def _me_being(predicate: Any) -> bool:
    """ "with me being pescatarian", "for me being fully vegan": what the speaker is, taken as so."""
    return bool(
        predicate.lower_ == "being" and predicate.i > 0 and predicate.doc[predicate.i - 1].lower_ == "me"
    )


def _states_present(predicate: Any, frame: Frame) -> bool:
    """Whether the predicate says the value holds now: not asked, wished, planned, conditional,
    negated, modal, or over (a state in the past tense; a change "back in 2012")."""
    children = list(predicate.children)
    if any(c.tag_ == "MD" for c in children):  # might, could, would, should, will, can
        return False
    if _me_being(predicate):  # "a plan that works with me being pescatarian now": taken as so
        return not any(c.dep_ == "neg" for c in children)
    if any(c.dep_ == "mark" and c.lower_ in CONDITIONS for c in children):
        return False
    node = predicate
    while node.dep_ in {"xcomp", "ccomp", "advcl", "conj", "csubj", *_EMBEDDED} and node.head.i != node.i:
        if _hung_main_clause(node):
            break
        if node.dep_ in _EMBEDDED and not (
            node.dep_ == "acl" and any(c.dep_ in SUBJECTS for c in node.children)
        ):
            return False  # "the firm I joined"; but "Big news: I relocated …" is a clause of its own
        parent = node.head
        # "I want to move", "I hope we move"; but a clause before its head is one of its own ("we moved
        # to Bristol, the kids love it" parses as the complement of "love")
        if (
            node.dep_ in {"xcomp", "ccomp"}
            and _a_wish(parent)
            and node.i > parent.i
            and not told_news(node)
            and not _decided_so(node, parent)
        ):
            return False
        if _an_aim(node, parent):
            return False
        if node.dep_ == "csubj" and node.tag_ == "VBG" and only_weighed(parent):
            return False  # "Moving to Denver is on the cards", "… is the plan", "… makes sense"
        if node.dep_ == "xcomp" and _ends(parent):
            return False  # "I stopped eating meat", "quit working at Tesco": ended, an ending says so
        if node.dep_ == "advcl" and any(c.dep_ == "mark" and c.lower_ in CONDITIONS for c in node.children):
            return False
        if (
            node.dep_ == "advcl"
            and any(c.dep_ in {"mark", "advmod"} and c.lower_ in _OWN_CLAUSE for c in node.children)
        ) or _told_in_passing(node):
            break  # "they couldn't do Friday so the interview's swapped to the 21st": told as so
        # "I don't think I'm moving"; but "I'm in Bristol, so fish is never far away" (a clause said
        # before its head is one of its own)
        denied_head = any(c.dep_ == "neg" or c.tag_ == "MD" for c in parent.children)
        # "I'm not sure I live in the right area": the doubt is on the copula over "sure"
        denied_head = denied_head or (
            parent.dep_ == "acomp" and any(c.dep_ == "neg" for c in parent.head.children)
        )
        if denied_head and node.dep_ != "conj" and not (node.dep_ == "ccomp" and node.i < parent.i):
            return False
        # "I should just quit and become a barista": a verb joined to a modal one without a subject of
        # its own shares the modal
        if (
            node.dep_ == "conj"
            and any(c.tag_ == "MD" for c in parent.children)
            and not any(c.dep_ in SUBJECTS for c in node.children)
        ):
            return False
        node = parent
    # "moved to Seattle five years ago", "started dating Maya a few weeks ago": a change, or a state
    # begun, long ago still holds
    # ("back in 2012 I started at Tesco" tells history)
    begun = (
        predicate.dep_ == "xcomp"
        and predicate.head.lemma_ in {"start", "begin"}
        and not any(t.lower_ == "back" for t in predicate.head.subtree)
    )
    if _looks_back(predicate) and not (frame.change or begun):
        return False
    aux = {c.lower_ for c in children if c.dep_ in {"aux", "auxpass"}}
    past = predicate.tag_ == "VBD" or bool(aux & {"was", "were", "had", "did"})
    progressive = predicate.tag_ == "VBG" and bool(aux & {"am", "'m", "are", "'re", "is", "'s"})
    if frame.change:
        # "I'm moving to Berlin": a plan; "I moved to Berlin", "I've moved": the state now.
        return not progressive and not (aux & {"will", "'ll", "gonna"})
    if past and not bool(aux & {"has", "have", "'ve", "'s"}):
        return predicate.lemma_ == "base" and "was" not in aux and "were" not in aux
    return True


def _hung_main_clause(node: Any) -> bool:
    """ "After months of searching we've finally settled in Hoboken": the small model found no main verb,
    rooted the sentence at the fronted phrase and hung the clause under it; a clause with its own
    subject there is the sentence's own."""
    return (
        node.sent.root.pos_ not in {"VERB", "AUX"}
        and node.dep_ in {"ccomp", "advcl", "conj"}
        and any(c.dep_ in SUBJECTS for c in node.children)
    )


#: Heads whose "to" clause happened: "started to teach", "managed to get a job at Arup".
_DONE_HEADS: Final = frozenset(["start", "begin", "continue", "manage", "get", "happen", "come"])


#: Verbs whose clause is a doing that ceased, with the particle they need: "stopped eating meat", "gave up
#: drinking" (not "ended up moving to Croydon", which happened).
_CEASING: Final = {"stop": "", "quit": "", "cease": "", "give": "up", "pack": "in"}


def _ends(head: Any) -> bool:
    """ "stopped", "quit", "gave up": a head that ends what its clause does."""
    particle = _CEASING.get(head.lemma_.casefold())
    if particle is None:
        return False
    return not particle or any(c.dep_ == "prt" and c.lower_ == particle for c in head.children)


def _an_aim(node: Any, parent: Any) -> bool:
    """ "saving up to open my own shop", "studying to become a nurse", "going to move": a "to" clause is
    what the head aims at, not what holds, unless the head says it came about."""
    infinitive = any(c.dep_ == "aux" and c.tag_ == "TO" for c in node.children)
    obliged = parent.lemma_ == "have" and parent.tag_ in {"VBD", "VBN"}  # "had to move the MOT": it was
    return infinitive and node.dep_ in {"xcomp", "advcl"} and parent.lemma_ not in _DONE_HEADS and not obliged


#: Words that open a reason: "since I'm vegan", "as I live in Leeds now", "because I moved".
_REASONS: Final = frozenset(["since", "because", "as", "cos", "cause", "coz"])


def _told_in_passing(predicate: Any) -> bool:
    """A reason the speaker gives inside a question or a request: a clause of theirs opened by "since",
    "as" or "because" ("what should I cook tonight, as I'm vegetarian now?")."""
    children = list(predicate.children)
    marks = {c.lower_ for c in children if c.dep_ == "mark"}
    # "as" and "since" are reasons in the present ("as I'm vegetarian now"), times in the past ("as I was
    # leaving", "since I moved")
    present = predicate.tag_ in {"VBP", "VBZ"} or any(
        c.dep_ in {"aux", "auxpass"} and c.tag_ in {"VBP", "VBZ"} for c in children
    )
    # "now that I'm vegetarian": the reason given as a time
    now_that = "that" in marks and (
        predicate.head.lower_ == "now" or any(c.dep_ == "advmod" and c.lower_ == "now" for c in children)
    )
    return bool(
        (predicate.dep_ == "advcl" or (now_that and predicate.dep_ == "ccomp"))
        and (marks & _REASONS or now_that)
        and (present or marks & {"because", "cos", "cause", "coz"})
        and any(c.dep_ in {"nsubj", "nsubjpass"} and c.lower_ in {"i", "we"} for c in children)
        and not any(c.tag_ == "MD" for c in children)
    )


def _decided_so(node: Any, parent: Any) -> bool:
    """ "has decided she's vegetarian", "decided I'm done with dating apps": a decision about what is so
    now (a finite clause in the present), not one to do something ("decided to move")."""
    return (
        parent.lemma_ == "decide"
        and node.dep_ == "ccomp"
        and any(c.dep_ in {"nsubj", "nsubjpass"} for c in node.children)
        and (
            node.tag_ in {"VBP", "VBZ"}
            or any(c.tag_ in {"VBP", "VBZ"} for c in node.children if c.dep_ == "aux")
        )
    )


def _used_to(token: Any) -> bool:
    """ "(I) used to have …": a habit or a state of the past."""
    return bool(token.dep_ == "xcomp" and token.head.lemma_ == "use" and token.head.tag_ == "VBD")


def _looks_back(predicate: Any) -> bool:
    """ "Back in 2012", "when I was a kid", "years ago": the clause tells history."""
    for token in predicate.subtree:
        if token.lower_ in {"ago", "formerly", "previously", "once"} and token.head.i == predicate.i:
            return True
        # "back in 2012", "back then", "back when I was a kid"; not "moved back to Cork"
        after = token.nbor(1).lower_ if token.i + 1 < len(token.doc) else ""
        if token.lower_ == "back" and token.head.i == predicate.i and after in {"in", "then", "when"}:
            return True
        if token.ent_type_ == "DATE" and token.text.isdigit() and len(token.text) == 4:
            if token.dep_ in {"nummod", "compound", "amod"} and token.head.pos_ in {"NOUN", "PROPN"}:
                continue  # a model year: "I ride a 2009 Yamaha", "drive a 2015 Civic"
            return True  # a year: "in 2012 I lived in Lyon" (a plan's year is no state either)
    return False
