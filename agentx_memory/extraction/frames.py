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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import UNKNOWN_SPEAKER, Context, TurnText, build_atom
from .introductions import NOT_NAMES, identity_name, introduces
from .lexicon import (
    DIETS,
    DWELLINGS,
    FRAMES,
    OCCUPATIONS,
    RELATION_NOUNS,
    SCHOOLS,
    SLOTS,
    VEHICLE_NOUNS,
    WISH_HEADS,
    Frame,
)

__all__ = ["FRAME_KEYS", "Reading", "filed_under", "read_parsed"]

#: The keys the parse reader owns when it runs (the rules' reading of them is vetoed where it judged).
FRAME_KEYS: Final = frozenset(slot.key for slot in SLOTS.values())

Token = Any  # a spaCy Token (spaCy is an optional dependency: no import here)

_SUBJECTS: Final = ("nsubj", "nsubjpass", "csubj")
_OBJECTS: Final = ("dobj", "obj")
_PREDICATIVE: Final = ("attr", "acomp", "oprd")
_CONDITIONS: Final = frozenset(["if", "unless", "whether", "suppose", "supposing", "assuming", "once"])
_NOW: Final = frozenset(["now", "currently", "nowadays", "days", "anymore", "longer", "today"])
_EMBEDDED: Final = ("relcl", "acl", "csubj", "pcomp", "amod")
_CUT: Final = frozenset(["relcl", "advcl", "punct", "cc", "conj", "appos", "parataxis"])
_NOT_VALUES: Final = frozenset(
    ["it", "that", "this", "them", "there", "here", "home", "myself", "yourself", "one", "you", "work"]
)


@dataclass
class Reading:
    """What the parse read of one turn."""

    atoms: list[FactAtom] = field(default_factory=list)
    #: ``(subject, key)`` the reader judged and did not take as the speaker's current value.
    vetoes: set[tuple[str, str]] = field(default_factory=set)
    #: The name the speaker gave themself ("I'm Dana.", "Call me Bea."), if any.
    speaker_name: str | None = None
    #: Named people the speaker related themself to: name → relation ("Arjun" → "husband").
    people: dict[str, str] = field(default_factory=dict)


def read_parsed(doc: Any, turn: TurnText, speaker: str, correction: bool) -> Reading:
    """The typed facts a parsed turn states, filed under their subjects. ``speaker`` is whose "I"."""
    reading = Reading()
    last_person: str | None = None
    for sentence in doc.sents:
        if (name := _introduction(sentence, speaker)) is not None:
            reading.speaker_name = name
            if speaker == UNKNOWN_SPEAKER or name != speaker:
                reading.atoms.append(identity_name(turn, speaker, name))
            if speaker == UNKNOWN_SPEAKER:
                speaker = name  # the turn's later sentences, and later turns, are filed under the name
            continue
        questioned = sentence.text.rstrip().endswith("?") or _inverted(sentence)
        for predicate in _predicates(sentence):
            found = _subject(predicate, speaker, last_person, reading.people)
            if found is None:
                continue
            subject, is_person = found
            if is_person:
                last_person = subject
            for frame, value, fits in _frames(predicate):
                slot = SLOTS[frame.slot]
                owner = speaker if subject in {"we", speaker} else subject
                if subject == "we" and frame.slot not in {"residence", "vehicle"}:
                    continue
                negated = _negated(predicate)
                if (
                    not fits
                    or questioned
                    or not _states_present(predicate, frame)
                    or (negated and frame.change)
                ):
                    reading.vetoes.add((owner, slot.key))
                    continue
                if owner.endswith("'s") or owner.startswith("~"):  # a relation without a name
                    reading.vetoes.add((speaker, slot.key))
                    continue
                reading.atoms.append(_atom(frame, value, owner, turn, correction, speaker, negated))
                reading.vetoes.add((owner, slot.key))
                if owner != speaker:
                    reading.vetoes.add((speaker, slot.key))
    return reading


def filed_under(reading: Reading, old: str, new: str) -> Reading:
    """The reading with the speaker's facts filed under the name they gave (found by the rules: "I'm
    Nadia, freelance journalist …")."""
    atoms = [
        atom.model_copy(update={"subject": new, "statement": atom.statement.replace(old, new, 1)})
        if atom.subject == old
        else atom
        for atom in reading.atoms
    ]
    vetoes = {(new if subject == old else subject, key) for subject, key in reading.vetoes}
    return Reading(atoms, vetoes, reading.speaker_name, reading.people)


def _introduction(sentence: Any, speaker: str) -> str | None:
    """ "I'm Dana.", "Dana here.", "Call me Bea.", "Everyone calls me Jo.": the name, else None. A
    sentence of one clause that does nothing but name; adjectives and states are no names."""
    words = [token for token in sentence if not token.is_punct and token.pos_ != "INTJ"]
    names = [token for token in words if token.pos_ == "PROPN" and token.text[:1].isupper()]
    if not names or len(words) > 5 or any(token.ent_type_ in {"NORP", "GPE", "ORG"} for token in names):
        return None
    name = " ".join(token.text for token in names)
    first = names[0]
    lemmas = [token.lemma_.casefold() for token in words]
    said = (
        # "I'm Dana", "I am Dana Reyes"
        (first.dep_ == "attr" and first.head.lemma_ == "be" and lemmas[0] == "i")
        # "Dana here"
        or (len(words) == len(names) + 1 and lemmas[-1] == "here")
        # "call me Bea", "everyone calls me Jo", "people call me Jo", "I go by Jo"
        or ("call" in lemmas and "i" in lemmas and first.dep_ in {"oprd", "dobj", "npadvmod", "attr"})
        or (lemmas[:3] == ["i", "go", "by"])
    )
    if not said or first.text in NOT_NAMES or not introduces(name, speaker):
        return None
    # "Hi, I'm Marco": words before the clause are greetings only ("hi", "hey", "hello", "oh").
    return name


def _inverted(sentence: Any) -> bool:
    """A question without its mark: "do you know…", "where do I…", "should I move…"."""
    first = next((token for token in sentence if not token.is_punct and token.pos_ != "INTJ"), None)
    if first is None:
        return False
    return first.tag_ in {"WP", "WRB", "WDT"} or (
        first.pos_ == "AUX"
        and any(child.dep_ in _SUBJECTS for child in first.head.children)
        and first.i < min((c.i for c in first.head.children if c.dep_ in _SUBJECTS), default=first.i)
    )


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
    head = predicate
    while True:
        subjects = [child for child in head.children if child.dep_ in _SUBJECTS]
        if subjects or head.dep_ not in {"conj", "xcomp", "acomp", "oprd"} or head.head is head:
            break
        head = head.head  # "I moved to Leeds and joined Arup": the second verb shares the subject
    if not subjects:
        return None
    token = subjects[0]
    lower = token.lower_
    if lower == "i" or any(c.dep_ == "conj" and c.lower_ == "i" for c in token.children):
        return speaker, False  # "Dev and I live in Round Rock": the speaker too
    if lower == "we":
        return "we", False
    if lower == "home" and not any(c.dep_ == "det" for c in token.children):
        return speaker, False  # "home is Glasgow now"
    if lower in {"he", "she"}:
        return (last_person, True) if last_person else None
    if token.pos_ == "PROPN":
        name = _name(token)
        related = _relation_of(token)
        if related is not None:
            people[name] = related
        return (speaker, False) if name == speaker else (name, True)
    if token.pos_ == "NOUN" and token.lemma_.casefold() in RELATION_NOUNS:
        if not _mine(token):
            return None
        relation = token.lemma_.casefold()
        named = [c for c in token.children if c.dep_ in {"appos", "compound"} and c.pos_ == "PROPN"]
        if named:
            name = _name(named[0])
            people[name] = relation
            return name, True
        return f"{speaker}'s", False  # "my sister got a job at Deloitte": hers, not the speaker's
    return None


def _mine(token: Any) -> bool:
    return any(child.dep_ == "poss" and child.lower_ in {"my", "our"} for child in token.children)


def _relation_of(name: Any) -> str | None:
    """ "Arjun, my husband, …" → "husband"."""
    for child in name.children:
        if child.dep_ == "appos" and child.lemma_.casefold() in RELATION_NOUNS and _mine(child):
            return str(child.lemma_.casefold())
    return None


def _name(token: Any) -> str:
    parts = [c for c in token.children if c.dep_ == "compound" and c.pos_ == "PROPN" and c.i < token.i]
    return " ".join(t.text for t in [*parts, token])


def _frames(predicate: Any) -> Iterator[tuple[Frame, Any, bool]]:
    """The lexicon frames the predicate has, with the token heading the value and whether it fits the
    slot (a frame whose value does not fit is judged too: "started at Leeds uni" is no employer)."""
    lemma = predicate.lemma_.casefold()
    children = list(predicate.children)
    objects = [c for c in children if c.dep_ in _OBJECTS]
    preps = [c for c in children if c.dep_ in {"prep", "agent", "prt"}]
    for frame in FRAMES:
        if frame.lemma != lemma:
            continue
        if frame.via == "dobj":
            for obj in objects:
                if frame.slot == "residence" and not any(
                    c.dep_ == "oprd" and c.lower_ == "home" for c in children
                ):
                    continue
                yield frame, obj, _fits(frame.slot, obj, predicate)
        elif frame.via == "attr":
            for attr in (c for c in children if c.dep_ in _PREDICATIVE):
                fits = _fits(frame.slot, attr, predicate)
                yield frame, attr, fits
                if fits and frame.slot == "occupation":  # "a sous chef at Osteria Rossa"
                    for prep in (c for c in attr.children if c.dep_ == "prep" and c.lower_ in _AT_WORK.preps):
                        for place in (c for c in prep.children if c.dep_ == "pobj"):
                            yield _AT_WORK, place, _fits("employer", place, attr)
        else:
            if frame.through and not any(o.lemma_.casefold() in frame.through for o in objects):
                continue
            if lemma in {"move", "relocate"} and objects:
                continue  # "moved the meeting to Friday": something else moved
            holders = [*preps, *(p for o in objects for p in o.children if p.dep_ == "prep")]
            for prep in holders:
                if prep.lower_ not in frame.preps:
                    continue
                for value in (c for c in prep.children if c.dep_ == "pobj"):
                    if frame.slot == "residence":
                        value = _dwelling_place(value, predicate)
                    yield frame, value, _fits(frame.slot, value, predicate)


#: Where a predicate noun works: "a nurse at St Mary's".
_AT_WORK: Final = Frame("work", "prep", "employer", preps=("at", "for", "with"))


def _dwelling_place(value: Any, predicate: Any) -> Any:
    """ "a house in Pflugerville" → "Pflugerville": the place of a dwelling (the parse may hang the
    place on the verb: "moved into a flat in Leith"), else the value itself."""
    if value.lemma_.casefold() not in DWELLINGS:
        return value
    held = [*value.children, *predicate.children]
    for prep in (c for c in held if c.dep_ == "prep" and c.lower_ in {"in", "near"}):
        for place in (c for c in prep.children if c.dep_ == "pobj" and c.pos_ == "PROPN"):
            return place
    return value


def _named(value: Any) -> bool:
    """ "a fintech startup called Lumo": a thing with its name said."""
    return any(
        c.dep_ == "acl" and c.lemma_ in {"call", "name"} and any(g.pos_ == "PROPN" for g in c.subtree)
        for c in value.children
    )


def _fits(slot: str, value: Any, predicate: Any) -> bool:
    """Whether ``value`` can fill ``slot``: a place is a name or a determined noun phrase, an
    occupation a known one, a diet a known one, a partner a name, a vehicle a vehicle."""
    head = value.lemma_.casefold()
    if value.lower_ in _NOT_VALUES or value.pos_ == "PRON":
        return False
    determined = any(c.dep_ in {"det", "poss"} for c in value.children)
    if slot == "residence":
        if predicate.lemma_ == "be" and not any(
            c.dep_ in _SUBJECTS and c.lower_ == "home" for c in predicate.children
        ):
            return False
        return value.pos_ == "PROPN" or (value.pos_ == "NOUN" and determined)
    if slot == "employer":
        after = value.doc[value.right_edge.i + 1] if value.right_edge.i + 1 < len(value.doc) else None
        if any(t.lower_ in SCHOOLS for t in value.subtree) or (after is not None and after.lower_ in SCHOOLS):
            return False  # "started at Leeds uni": a student, not an employee
        if predicate.lemma_ == "be":  # "I'm at Google now", not "I'm at the gym"
            return (value.pos_ == "PROPN" or _named(value)) and _now(predicate)
        return value.pos_ == "PROPN" or value.ent_type_ == "ORG" or (value.pos_ == "NOUN" and determined)
    if slot == "occupation":
        if predicate.lemma_ in {"be", "become"} and not any(c.lower_ in {"a", "an"} for c in value.children):
            # "I'm head chef now": a known occupation needs no article; "I'm the one" is none
            if not any(c.dep_ in {"compound", "amod"} for c in value.children) or head not in OCCUPATIONS:
                return False
        occupational = predicate.lemma_ not in {"be", "become", "start"}
        return value.pos_ == "NOUN" and (
            occupational or head in OCCUPATIONS or head.rstrip("s") in OCCUPATIONS
        )
    if slot == "diet":
        return _phrase(value).casefold().replace(" - ", "-") in DIETS or head in DIETS
    if slot == "partner":
        if predicate.lemma_ == "see" and predicate.tag_ != "VBG":
            return False
        if predicate.lemma_ in {"see", "date"} and (
            value.ent_type_ in {"ORG", "GPE", "FAC", "EVENT", "WORK_OF_ART", "PRODUCT", "LOC"}
            or _on_occasion(predicate)
        ):
            return False  # "seeing Muse on the 22nd": a band on a night out, not a partner
        return bool(value.pos_ == "PROPN")
    if slot == "vehicle":
        if predicate.lemma_ == "drive":
            return value.pos_ in {"PROPN", "NOUN"} and head not in {"crazy", "nut", "wall"}
        return head in VEHICLE_NOUNS or (value.pos_ == "PROPN" and predicate.lemma_ in {"trade", "swap"})
    return False


def _now(predicate: Any) -> bool:
    return any(token.lower_ in _NOW and token.head.i == predicate.i for token in predicate.subtree)


def _negated(predicate: Any) -> bool:
    """ "I'm not vegetarian (anymore)", "I no longer live in Leeds", "I don't drive the Golf"."""
    return any(c.dep_ == "neg" or (c.lower_ == "longer" and c.dep_ == "advmod") for c in predicate.children)


def _states_present(predicate: Any, frame: Frame) -> bool:
    """Whether the predicate says the value holds now: not asked, wished, planned, conditional,
    negated, modal, or over (a state in the past tense; a change "back in 2012")."""
    children = list(predicate.children)
    if any(c.tag_ == "MD" for c in children):  # might, could, would, should, will, can
        return False
    if any(c.dep_ == "mark" and c.lower_ in _CONDITIONS for c in children):
        return False
    node = predicate
    while node.dep_ in {"xcomp", "ccomp", "advcl", "conj", *_EMBEDDED} and node.head is not node:
        if node.dep_ in _EMBEDDED and not (
            node.dep_ == "acl" and any(c.dep_ in _SUBJECTS for c in node.children)
        ):
            return False  # "the firm I joined"; but "Big news: I relocated …" is a clause of its own
        parent = node.head
        # "I want to move", "I hope we move"; but a clause before its head is one of its own ("we moved
        # to Bristol, the kids love it" parses as the complement of "love")
        if node.dep_ in {"xcomp", "ccomp"} and parent.lemma_.casefold() in WISH_HEADS and node.i > parent.i:
            return False
        if node.dep_ == "advcl" and any(c.dep_ == "mark" and c.lower_ in _CONDITIONS for c in node.children):
            return False
        if any(c.dep_ == "neg" or c.tag_ == "MD" for c in parent.children) and node.dep_ != "conj":
            return False
        node = parent
    if _looks_back(predicate):
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


def _looks_back(predicate: Any) -> bool:
    """ "Back in 2012", "when I was a kid", "years ago": the clause tells history."""
    for token in predicate.subtree:
        if token.lower_ in {"ago", "formerly", "previously", "once"} and token.head.i == predicate.i:
            return True
        if token.lower_ == "back" and token.head.i == predicate.i:
            return True
        if token.ent_type_ == "DATE" and token.like_num and len(token.text) == 4:
            return True
    return False


def _phrase(value: Any, places: bool = True) -> str:
    """The value's words: its subtree without clauses, coordination, punctuation or time phrases (nor,
    without ``places``, where it is: "a nurse at St Mary's" is a nurse)."""
    dropped: set[int] = set()
    for child in value.children:
        where = not places and child.dep_ == "prep" and child.lower_ in {"at", "for", "with", "in", "on"}
        # a clause on the value ("based in Berlin", "covering tech") is not it; its name is ("called Lumo")
        described = child.dep_ == "acl" and child.lemma_ not in {"call", "name"}
        timed = child.dep_ == "prep" and _is_time(child)
        if child.dep_ in _CUT or where or described or timed or _set_off(value, child):
            dropped.update(t.i for t in child.subtree)
    words = [t for t in value.subtree if (t.i not in dropped and t.ent_type_ != "DATE") or t.i == value.i]
    while words and (words[0].is_punct or words[0].dep_ in {"cc", "advmod"}):
        words.pop(0)
    while words and (words[-1].is_punct or words[-1].dep_ == "cc"):
        words.pop()
    text = ""
    for before, word in zip([None, *words], words, strict=False):
        gap = before is not None and word.i != before.i + 1 and not text.endswith(" ")
        text += (" " if gap else "") + word.text_with_ws
    return " ".join(text.split())


def _set_off(head: Any, child: Any) -> bool:
    """Whether punctuation stands between a word and its dependent: "Nadia, freelance journalist",
    "an electrician, self-employed" (an aside, not the value)."""
    lo, hi = (child.i + 1, head.i) if child.i < head.i else (head.i + 1, child.i)
    return any(t.is_punct and t.text not in {"-", "'", "’"} for t in head.doc[lo:hi])


def _on_occasion(predicate: Any) -> bool:
    """ "on the 22nd", "at 8", "tonight", "tomorrow": one occasion, not a standing state ("for a few
    weeks now" is one)."""
    for child in predicate.children:
        if child.dep_ == "prep" and child.lower_ in {"on", "at"} and _is_time(child):
            return True
        if child.lower_ in {"tonight", "tomorrow", "today"} or (
            child.dep_ == "npadvmod" and child.ent_type_ in {"DATE", "TIME"}
        ):
            return True
    return False


def _is_time(prep: Any) -> bool:
    return any(t.ent_type_ in {"DATE", "TIME"} for t in prep.subtree)


def _atom(
    frame: Frame, value: Any, subject: str, turn: TurnText, correction: bool, speaker: str, negated: bool
) -> FactAtom:
    slot = SLOTS[frame.slot]
    said = _phrase(value, places=frame.slot != "occupation")
    if frame.slot == "occupation" and said.split()[0].casefold() not in {"a", "an", "the"}:
        said = ("an " if said[:1].casefold() in "aeiou" else "a ") + said
    if frame.slot in {"employer", "residence"} and said.split()[0].casefold() in {"my", "our"}:
        said = f"{subject}'s {said.split(' ', 1)[1]}" if " " in said else said
    text = (slot.negative if negated else slot.template).format(S=subject, V=said)
    if frame.slot == "residence" and frame.change:
        text = f"{subject} moved to {said}"  # build_atom words a move as the home it made
    key_value = said.split(" ", 1)[1] if frame.slot == "occupation" else said
    ctx = Context(turn=turn, subject=subject, correction=correction, is_speaker=subject == speaker)
    persons: Sequence[str] = [value.text] if frame.slot == "partner" else []
    atom = build_atom(slot.kind, slot.key, key_value, text, ctx, persons, negated, "explicit")
    return atom.model_copy(update={"temporal": "current", "event_time": None})
