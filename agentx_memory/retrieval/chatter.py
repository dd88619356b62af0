"""Whether a recalled turn says anything: acknowledgements and pleasantries ("Noted.", "Will do.",
"You got this!") never earn context tokens. Pure.

Decided by substance, not by a list of phrases: a turn is chatter when extraction's small-talk gate
says so (:func:`~agentx_memory.extraction.gates.is_small_talk`, every word a greeting or thanks word),
or when it is short and, once the words below are set aside, nothing is left: pronouns, auxiliaries,
particles and the light words of discourse ("thing", "go", "know"), which name nothing. A number, or
any other word (a noun, a name, a verb with a meaning of its own), keeps the turn.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from ..extraction.gates import is_small_talk

__all__ = ["is_chatter"]

#: Longer turns say something even when they are mostly function words.
_MAX_WORDS: Final = 8
_WORD: Final = re.compile(r"[a-z]+(?:'[a-z]+)?")
#: Words that name nothing: with only these, a short turn acknowledges, agrees or encourages.
_EMPTY: Final = frozenset(
    _WORD.findall(
        """
    i me my mine we us our you your yours he him his she her it its they them their this that these
    those there here what so too also just really very totally quite pretty all some any more again
    will would shall should can could may might must do does did done doing be been being am is are
    was were have has had having get got gets getting go going goes gone know knew see let lets let's
    make made keep kept mean think guess hope bet feel
    i'll i'm i've i'd you'll you're you've you'd we'll we're we've it's that's there's he's she's
    they're don't doesn't didn't won't can't isn't aren't wasn't
    a an the of to in on at for with up out off by and or but if then now well yes yeah yep no not
    nope ok okay sure thing things course deal anyway anyways right fine good great nice cool
    awesome please thanks thank lol haha oh ah hmm wow like sounds sound happy glad sorry luck help
    """
    )
)


#: Texts whose answer is kept: get_context asks it of the same recalled turns call after call.
_KEPT_ANSWERS: Final = 4096


# Pure, so each text's answer is kept (bounded): the small-talk gate alone runs a dozen patterns.
@lru_cache(maxsize=_KEPT_ANSWERS)
def is_chatter(text: str) -> bool:
    """Whether ``text`` is an acknowledgement or pleasantry with nothing in it worth recalling."""
    if is_small_talk(text):
        return True
    if any(map(str.isdigit, text)):
        return False
    words = _WORD.findall(text.casefold().replace("\u2019", "'"))
    return len(words) <= _MAX_WORDS and all(word in _EMPTY for word in words)
