"""Verb forms told by their spelling, for the offline extractor: a past or a participle, an -ing form,
and the third-person present a first-person clause needs ("I love" → "Dana loves"). Pure; no tagger,
since the facts must not depend on whether spaCy is installed.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["PAST_FORMS", "conjugate", "gerund", "ing_form", "past_form"]

_MODALS: Final = frozenset(
    ["can", "could", "will", "would", "should", "might", "must", "may", "shall", "cannot"]
)
_IRREGULAR_PRESENT: Final = {
    "have": "has",
    "do": "does",
    "go": "goes",
    "be": "is",
    "am": "is",
    "are": "is",
    # "I really don't like": "I don't" alone is a contraction rule of :mod:`.english`.
    "don't": "does not",
    "dont": "does not",
}

_EE_VERBS: Final = frozenset(
    ["agree", "disagree", "free", "guarantee", "decree", "referee", "emcee", "tee", "knee", "pee", "squeegee"]
)  # fmt: skip
#: Base forms in -ed of more than one syllable ("embed"); a one-syllable one has no vowel before its
#: "-ed" ("shed", "wed", "shred") and is told by that.
_ED_BASE_FORMS: Final = frozenset(["embed", "imbed", "infrared"])
#: Words that follow a subject without being its verb: a conjunction ("I and my sister") or a word
#: that takes no -s ("I better go").
_NOT_CONJUGATED: Final = frozenset(["and", "or", "nor", "but", "better", "ought", "alone", "as", "who"])
_VOWEL: Final = re.compile(r"[aeiouy]")


def past_form(lower: str) -> bool:
    """Whether ``lower`` is a past or a participle by its form: "-ed" after a stem with a vowel (not
    "-eed" unless the verb ends in -ee: "agreed" but "need"), "-ought"/"-aught", "-ept" (not
    "-cept": "kept" but "accept"), or a listed irregular past."""
    if lower in PAST_FORMS:
        return True
    if lower.endswith("eed"):
        return lower[:-1] in _EE_VERBS
    if lower.endswith("ed"):
        return bool(_VOWEL.search(lower[:-2])) and lower not in _ED_BASE_FORMS
    return lower.endswith(("ought", "aught")) or (lower.endswith("ept") and not lower.endswith("cept"))


def ing_form(lower: str) -> bool:
    """An -ing form: "-ing" after a stem with a vowel ("going", "lying"); "bring", "sing", "spring"
    and "string" are base forms."""
    return lower.endswith("ing") and bool(_VOWEL.search(lower[:-3]))


def gerund(lemma: str) -> str:
    """ "smoke" → "smoking", "row" → "rowing", "run" → "running", "tie" → "tying"."""
    if lemma.endswith("ie"):
        return lemma[:-2] + "ying"
    if lemma.endswith("e") and not lemma.endswith(("ee", "ye", "oe")):
        return lemma[:-1] + "ing"
    vowels = "aeiou"
    # a short consonant-vowel-consonant stem doubles its last consonant ("run", "swim"; not "row", "fix")
    doubled = 3 <= len(lemma) <= 4 and (
        lemma[-1] not in vowels + "wxy" and lemma[-2] in vowels and lemma[-3] not in vowels
    )
    return lemma + lemma[-1] + "ing" if doubled else lemma + "ing"


def conjugate(verb: str) -> str:
    """The third-person singular present of a base-form verb ("love" → "loves", "teach" → "teaches",
    "need" → "needs", "sing" → "sings"); past forms, modals, -ing forms and words that are no verb
    ("and") are returned unchanged."""
    lower = verb.casefold()
    if lower in _IRREGULAR_PRESENT:
        return _IRREGULAR_PRESENT[lower]
    if (
        lower in _MODALS
        or lower in _NOT_CONJUGATED
        or lower.endswith("n't")
        or "'" in lower
        or past_form(lower)
        or ing_form(lower)
    ):
        return verb
    if lower.endswith(("s", "sh", "ch", "x", "z")) or (lower.endswith("o") and lower[-2:-1] not in "aeiou"):
        return verb + "es"
    if len(lower) > 2 and lower.endswith("y") and lower[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


PAST_FORMS: Final = frozenset(
    [
        "was",
        "were",
        "had",
        "did",
        "went",
        "got",
        "made",
        "took",
        "came",
        "saw",
        "knew",
        "thought",
        "told",
        "found",
        "gave",
        "felt",
        "left",
        "kept",
        "began",
        "ran",
        "brought",
        "bought",
        "caught",
        "taught",
        "sought",
        "fought",
        "built",
        "sent",
        "spent",
        "lent",
        "met",
        "read",
        "led",
        "fed",
        "fled",
        "held",
        "heard",
        "lost",
        "paid",
        "said",
        "sold",
        "stood",
        "understood",
        "won",
        "wrote",
        "rode",
        "drove",
        "drew",
        "grew",
        "threw",
        "flew",
        "chose",
        "broke",
        "spoke",
        "woke",
        "wore",
        "tore",
        "swam",
        "sang",
        "rang",
        "drank",
        "sank",
        "began",
        "forgot",
        "became",
        "ate",
        "fell",
        "hid",
        "bit",
        "lit",
        "slept",
        "wept",
        "put",
        "set",
        "cut",
        "hit",
        "let",
        "quit",
        "split",  # "I split up with Tom in June": rarely a habit, as "quit"
        "shut",
        "spread",
        "cost",
        "hurt",
        # Pasts the endings above do not tell (an -ed word with no vowel before it is a base form:
        # "shred"; these are pasts), and more irregular pasts and participles said without "have".
        "bled",
        "bred",
        "sped",
        "shed",
        "wed",
        "sat",
        "meant",
        "dealt",
        "knelt",
        "bent",
        "burnt",
        "learnt",
        "dreamt",
        "spelt",
        "spilt",
        "shot",
        "stuck",
        "struck",
        "hung",
        "dug",
        "swung",
        "spun",
        "stung",
        "clung",
        "flung",
        "shook",
        "stole",
        "swore",
        "froze",
        "forgave",
        "overcame",
        "withdrew",
        "mistook",
        "undertook",
        "underwent",
        "slid",
        "sprang",
        "shrank",
        "stank",
        "strove",
        "shone",
        "blew",
        "arose",
        "awoke",
        "been",
        "seen",
        "done",
        "gone",
    ]
)
