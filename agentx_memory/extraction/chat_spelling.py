"""Chat spelling as written English, so one grammar reads both: "i'm" and "im" are "I'm", "My car's a
Clio" is "My car is a Clio", "my other half" is "my partner". Pure."""

from __future__ import annotations

import re
from typing import Final

from .given_names import known_first_name

__all__ = ["normalise_first_person"]

#: Chat's words for the speaker's people.
_KIN: Final = {
    "sis": "sister",
    "bro": "brother",
    "hubby": "husband",
    "wifey": "wife",
    "missus": "wife",
    "gf": "girlfriend",
    "bf": "boyfriend",
}


_DAYS: Final = {
    "mon": "Monday", "tue": "Tuesday", "wed": "Wednesday", "thu": "Thursday", "fri": "Friday",
    "sat": "Saturday", "sun": "Sunday",
}  # fmt: skip
_FIRST_PERSON: Final = {
    "lives": "live",
    "works": "work",
    "drives": "drive",
    "has": "have",
    "owns": "own",
    "is": "am",
}
#: Words after "that's me" that make it no "I'm": "that's me and Tom", "that's me btw".
_NOT_AFTER_ME: Final = r"(?:and|who|with|on|btw|by|lol|haha|tho|though)\b"
_LOWER_I: Final = (
    (re.compile(r"\bi(?=(?:'m|'ve|'d|'ll)?\b)"), "I"),
    (re.compile(r"\bim\b(?=\s+[a-z])"), "I'm"),
    (re.compile(r"\bive\b(?=\s+[a-z])"), "I've"),
    (re.compile(r"(?<=\bI)['’](?=m|ve|d|ll)"), "'"),
    (re.compile(r"\bdont\b"), "don't"),
    (re.compile(r"\bcant\b"), "can't"),
    # "My car's a Renault Clio": a possessive never comes before "a"/"an", so this "'s" is "is" (the
    # parser reads it as a possessive and loses the clause); not before "now": "I'm at Sainsbury's now"
    (re.compile(r"(?<=[A-Za-z])['’]s(?=\s+(?:a|an)\b)"), " is"),
    # "new fave band alert: Wet Leg": chat's words for a favourite, in the words the reader knows
    (re.compile(r"\b([Ff])av(?:e|ou?rite)?(s?)\b"), r"\1avourite\2"),
    (re.compile(r"\b(favourite\s+[a-z]+)\s+alert\b", re.IGNORECASE), r"\1"),
    # "New job title: engineering manager", "Diet: vegan now": a heading and its value, as a statement
    (
        re.compile(
            r"(^|[.!?]\s+)(?:[Mm]y\s+)?([Nn]ew\s+|[Cc]urrent\s+)?((?:job\s+)?title|role|position|job|diet|favourite\s+[a-z]+)"
            r"\s*:\s+(?=\w)",
            re.IGNORECASE,
        ),
        # "Current favourite snack: …" is the favourite now ("current" adds nothing the reader needs)
        lambda said: f"{said[1]}My {(said[2] or '').lower().replace('current ', '')}{said[3].lower()} is ",
    ),
    # "keto's out", "the Micra's history": the "'s" is "is"
    (re.compile(r"(?<=[A-Za-z])['’]s(?=\s+(?:out|over|history|old news|ancient history|off to)\b)"), " is"),
    # "Canberra's my home", "Dublin's been home since I was born": no possessive comes before "my" or
    # "been"; the "'s" is "is" / "has"
    (re.compile(r"(?<=[A-Za-z])['’]s(?=\s+been\b)"), " has"),
    # "Noah's gone vegan", "Priya's moved to Leeds", "Dad's retired": before a participle no possessive
    # stands either (not "left", "Noah's left foot")
    (
        re.compile(
            r"(?<=[A-Za-z])['’]s(?=\s+(?:just\s+|finally\s+|now\s+)?(?:gone|moved|started|become|joined|"
            r"retired|quit|switched|split|taken|finished|bought|sold|adopted|decided|got\s+(?:a|an|engaged|"
            r"married|promoted|the)\b)\b)"
        ),
        " has",
    ),
    (re.compile(r"(?<=[A-Za-z])['’]s(?=\s+(?:my|our|home)\b)"), " is"),
    # "so that's me fully vegan now", "that's me a Leeds resident": British chat's "I'm" (not "that's me
    # and Tom in the photo", "that's me who booked it")
    (re.compile(rf"\b[Tt]hat['’]s me\b(?=\s+(?!{_NOT_AFTER_ME})[a-z])"), "I'm"),
    # "tomorrow's the big pitch": a day owns nothing before "the"
    (re.compile(r"\b([Tt]omorrow|[Tt]oday|[Tt]onight)['’]s(?=\s+(?:the|my|our)\b)"), r"\1 is"),
    # "My diet's pescatarian now", "my day job's lifeguarding": a slot's noun owns nothing, its "'s" is "is"
    (re.compile(r"\b(diet|job|name|number|address|email|title|role|favourite|favorite)['’]s\b"), r"\1 is"),
    # "so I've gotten super into sourdough baking?? my starter …": chat's "??" after the speaker's own
    # statement is surprise, not a question
    (
        re.compile(r"(^|[.!]\s+)((?:[Ss]o |[Oo]k |[Aa]nd |[Bb]ut )?(?:I|I'[a-z]+|[Ww]e)\b[^.!?\n]*?)\?{2,}"),
        r"\1\2!",
    ),
    # "guess who's living in Bristol now??", "So guess who lives in Portland now? This guy.": the speaker's
    # news asked as a riddle; told as a statement
    (re.compile(r"\b[Gg]uess who(?:'s|’s| is)\b([^.!?\n]*)\?+"), r"I'm\1!"),
    (
        re.compile(r"\b[Gg]uess who (just |finally |now )?(lives|works|drives|has|owns|is)\b([^.!?\n]*)\?+"),
        lambda said: f"I {said[1] or ''}{_FIRST_PERSON.get(said[2], said[2])}{said[3]}!",
    ),
    (
        re.compile(r"\b[Gg]uess who (just |finally )?(\w+ed|got|bought|became|left|quit)\b([^.!?\n]*)\?+"),
        r"I \1\2\3!",
    ),
    # "my other half, Gareth": the partner, in the words the reader knows
    (re.compile(r"\b([Mm]y|[Oo]ur) (?:other|better) half\b"), r"\1 partner"),
    # "my bloke Mitch", "my fella": Australian and British chat's partner
    (re.compile(r"\b([Mm]y) (?:bloke|fella|feller)\b"), r"\1 partner"),
    # "the missus wants a dog", "the other half is away": the speaker's own, said with "the" (not "the
    # wife of the owner")
    (
        re.compile(
            r"(^|[.!?;:(—–-]\s*|\band\s+)([Tt])he (missus|wifey|hubby|other half|better half)\b(?!\s+of\b)"
        ),
        lambda said: (
            f"{said[1]}{'M' if said[2] == 'T' else 'm'}y "
            + {"missus": "wife", "wifey": "wife", "hubby": "husband"}.get(said[3], "partner")
        ),
    ),
    # "The wife, Rhiannon, says I snore": "the wife" named beside it opens the sentence
    (re.compile(r"(^|[.!?]\s+)The (wife|husband)(?=\s*[,—–-]\s*[A-Z][a-z]+)"), r"\1My \2"),
    # "my sis just moved to dubai", "my bro", "my hubby": chat's words for the speaker's people, in the
    # words the reader knows (only after "my"/"our": "bro, I moved" addresses someone)
    (
        re.compile(
            r"\b([Mm]y|[Oo]ur)((?:\s+(?:big|little|lil|older|younger|baby|twin|new))?)\s+"
            r"(sis|bro|hubby|wifey|missus|gf|bf)\b"
        ),
        lambda said: f"{said[1]}{said[2]} {_KIN[said[3]]}",
    ),
    # "a magic is where it's at", "SOS is the GOAT now": chat's words for one's favourite
    (
        re.compile(
            r"\b(is|are)\s+(?:now\s+|honestly\s+|officially\s+)?(?:where\s+it['’]?s\s+at|the\s+goat)\b", re.I
        ),
        r"\1 my favourite",
    ),
    # "physio appt monday 12 feb 9am", "hair appt update: fri 13/9": a note's shorthand for an appointment
    # and its day, in the words the date reader and the model know (a short day only before a date)
    (re.compile(r"\b([Aa])ppt(s?)\b\.?"), r"\1ppointment\2"),
    (
        re.compile(
            r"(^|[,:;(]\s*|\b(?:on|next|this|until|till|to|from|by|appointment|is|now|update:?)\s+)"
            r"(mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day)?\b(?=\.?\s+(?:the\s+)?\d)",
            re.IGNORECASE,
        ),
        lambda said: said[1] + _DAYS[said[2].casefold()[:3]],
    ),
    (
        re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"),
        lambda said: said[1].capitalize(),
    ),
    # "Jake and I called it a day after four years": a couple split up (said of one, "I called it a day
    # at 5", it ends a day's work)
    (re.compile(r"\b((?:[A-Z][\w'’-]+ and I|[Mm]e and [A-Z][\w'’-]+) )called it a day\b"), r"\1broke up"),
    # "my go-to drink these days is cold brew": the parse takes "go" for a verb; it is the favourite
    (re.compile(r"\b([Mm]y|[Oo]ur)\s+go-?to\b"), r"\1 favourite"),
    # "me and Dominika called it quits": a couple split up, in the words the reader knows
    (
        re.compile(r"\bcall(ed|ing|s)? it quits\b", re.IGNORECASE),
        # "broke up" for the past: "split" reads as a present too ("Dom and I split up in June" became
        # "… splits up in June", a plan)
        lambda said: {"ed": "broke up", "ing": "splitting up", "s": "splits up"}.get(
            said[1] or "", "split up"
        ),
    ),
    # "got rid of the car": an ending, in the one verb the reader knows for it
    (re.compile(r"\b(?:got|gotten) rid of\b"), "ditched"),
    (re.compile(r"\bgetting rid of\b"), "ditching"),
    (re.compile(r"\bget rid of\b"), "ditch"),
)


#: "I finished another pottery project - want to see a pic?": a question tagged on after a dash asks
#: its own thing; left joined, the "?" makes the statement before it a question too, and it is lost.
_TAGGED_QUESTION: Final = re.compile(r"(?<=[\w)'’])\s+[-–—]+\s+(?=[^.!?\n]*\?)")
#: A statement opens the piece before the dash; a question word there makes the dash part of one question.
_ASKS: Final = re.compile(
    r"^(?:who|what|when|where|why|how|which|whose|do|does|did|is|are|was|were|am|can|could|would|will|"
    r"should|shall|have|has|had|may|might|any|anyone|anybody)\b",
    re.IGNORECASE,
)
_PIECE_START: Final = re.compile(r"(?:^|[.!?]\s+|\n)(?=[^.!?\n]*$)")
#: "I'm officially retired - last week was my final one at GE": a clause of its own after a lone dash
#: (one whose subject opens it); joined, the parse hangs the first clause under the second's verb.
#: Not a dash of a pair ("my sister - the one in Leeds - moved") nor one before a phrase ("- on the 5th").
_DASHED_CLAUSE: Final = re.compile(
    r"(?<=[\w)'’])\s+[-–—]\s+(?=(?i:I|I'm|I've|we|we're|my|our|last|they|he|she)\b"
    r"[^-–—\n]*$)"
)


def _last_piece(before: str) -> str:
    """The sentence ``before`` ends with: from its last stop, or the whole of it when a stop is only part
    of a word ("oskar.nowak@uni.example.edu, can you …")."""
    start = _PIECE_START.search(before)
    return before[start.end() if start else 0 :].strip()


def _tagged_apart(text: str) -> str:
    def split(found: re.Match[str]) -> str:
        piece = _last_piece(text[: found.start()])
        return found.group(0) if _ASKS.match(piece) else ". "

    return _TAGGED_QUESTION.sub(split, text)


#: "I'm in a Toyota Yaris now, how do I use the hybrid mode?", "just moved to Leeds... any tips?", "fully
#: vegan now 🌱 what do I swap halloumi for?": news told before a question after a comma, an ellipsis or
#: an emoji; left joined, the "?" makes the news a question
#: too, and it is lost.
_COMMA_QUESTION: Final = re.compile(
    r"(?<=[\w)'’])\s*(?:,|\.{2,}|…|[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]+)\s+(?=(?i:who|what|what's|when|where|why|how|which|do|does|did|"
    r"is|are|can|could|would|will|should|any|anyone|anything|thoughts|ideas|tips|advice|suggestions|"
    r"recommendations|"
    # "…, good second date ideas in Bristol?", "…, cheap dinner recs?": a request that is its noun
    r"(?:[a-z][\w'-]*\s+){1,4}(?:ideas|tips|advice|suggestions|recommendations|recs|options))\b[^.!?\n,]*\?)"
)
#: A piece that opens with these is no news of its own: "if I move to Leeds, what should I pack?"
_NOT_NEWS: Final = re.compile(
    r"^(?:if|when|whenever|once|before|after|since|because|as(?!\s+an?\b)|although|though|while|"
    r"unless|until|say|suppose|assuming|given|hypothetically|imagine|what|so if|and if|but if)\b",
    re.IGNORECASE,
)


#: "I'm based in Manchester now, so for the trip what's the easiest train?": the speaker's news, then "so"
#: and a question
_SO_ASKED: Final = re.compile(r"(?<=[\w)'’])\s*,\s+(?=(?:so|and|but)\s+[^.!?\n]*\?)", re.IGNORECASE)
#: "gig at the O2 on thurs 16 jan, whats the best way home": chat's question with no mark
_COMMA_WH: Final = re.compile(r"(?<=[\w)'’])\s*,\s+(?=(?i:whats|hows|wheres|whos|whens|wats)\b)")
#: What opens the speaker's own news
_MINE: Final = re.compile(r"^(?:I|I'm|I've|we|we're|we've|my|our)\b", re.IGNORECASE)


def _asked_apart(text: str) -> str:
    def split(found: re.Match[str]) -> str:
        piece = _last_piece(text[: found.start()])
        return found.group(0) if _ASKS.match(piece) or _NOT_NEWS.match(piece) else ". "

    def news(found: re.Match[str]) -> str:
        piece = _last_piece(text[: found.start()]).rsplit(": ", 1)[-1]  # "Quick one: I'm based in …"
        return ". " if _MINE.match(piece) and not _NOT_NEWS.match(piece) else found.group(0)

    text = _COMMA_QUESTION.sub(split, text)
    text = _COMMA_WH.sub(". ", text)
    return _SO_ASKED.sub(news, text)


#: "I just wanted to let you know I did a charity event", "Thought I'd tell you we got engaged": the
#: telling is a frame around what is told; left on, a wish ("wanted to") governs the news and a reader
#: takes it for something only wished. Only before a first-person clause ("wanted to tell you about my
#: trip" tells nothing yet).
_TELLING: Final = re.compile(
    r"(^|[.!?]\s+)(?i:(?:I\s*)?(?:just\s+|really\s+)?(?:(?:wanted|want|had|have|needed)\s+to|thought\s+I'?d|"
    r"(?:am|'m)\s+(?:happy|excited|glad|thrilled)\s+to|just)\s+(?:let\s+(?:you|ya)\s+know|tell\s+(?:you|ya)|"
    r"say|share|update\s+you|mention|report|letting\s+(?:you|ya)\s+know)(?:\s+that)?[\s,:]+)"
    r"(?=(?:I|I'm|I've|I'd|I'll|my|My|we|We|we're|We're|our|Our)\b)"
)


#: "nah UPS since november", "yeah I moved in May": an interjection opening a message set apart from
#: what follows, or the parse makes it part of the name after it ("nah UPS"). Not "no" ("no meat for me").
_OPENING_INTERJECTION: Final = re.compile(
    r"^(\s*(?i:nah|nope|yeah|yep|yup|yes|ok|okay|oh|lol|haha|ngl|tbh|imo|fr|lowkey|honestly))(?=\s+[\w'])",
    re.MULTILINE,
)


#: "matcha won me over 🍵 it's my favourite drink now": an emoji between two clauses ends the first; left
#: joined, the parse takes the emoji for the second clause's subject or value.
_EMOJI_STOP: Final = re.compile(
    r"(?<=[\w)'’!])\s*[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]+\s+"
    r"(?=(?i:I|I'm|I've|it|it's|it is|we|we're|my|our|he|she|they|that|this|so)\b)"
)


#: "physio appt monday 12 feb 9am, remind me sunday night", "Hair appt Sat 10:00 — can u remind me": a
#: request after a comma or a dash is a sentence of its own (the note before it has no verb to hang on)
_COMMA_REQUEST: Final = re.compile(
    r"(?<=[\w)'’])\s*(?:,|\s[-–—])\s+(?=(?i:remind|tell|let|send|add|put|text|email|pls|please|recommend|suggest|"
    r"can\s+u|can\s+you|could\s+you|"
    # a question typed on without its mark: "flying to tokyo jan 5th, what should i pack"
    r"(?:what|where|when|how|who)\s+(?:should|shall|can|could|do|does|would|will|to)\b|"
    r"(?:should|shall|can|could|do|would)\s+(?:I|we|u|you)\b|any\s+(?:tips|ideas|advice|recs|suggestions)\b)\b)"
)
#: "can u remind me i have a doctors appt tues 9th", "remind me that my MOT is due": what the speaker
#: asks to be reminded of is said of them all the same
_REMIND_ME: Final = re.compile(
    r"(^|[.!?]\s+)(?i:(?:(?:can|could|would|will)\s+(?:u|you)\s+)?(?:pls\s+|please\s+)?"
    r"(?:remind\s+me|don't\s+let\s+me\s+forget)\s+(?:that\s+)?)(?=(?:I|I'm|I've|[Mm]y|[Oo]ur|[Ww]e)\b)"
)
#: "hair appt update: fri 13/9", "physio: thu 15th 14:30 now": a note's heading and the new time
#: (not a heading before a clause of its own: "Quick update: I go by Dani now")
_UPDATE_HEADING: Final = re.compile(
    r"(^|[.!?]\s+)([A-Za-z][\w -]{0,30}?)\s+update\s*:\s+(?!(?i:i|i'm|i've|we|we're|my|our|so|it's|they)\b)",
    re.IGNORECASE,
)
_TIME_HEADING: Final = re.compile(
    r"(^|[.!?]\s+)([A-Za-z][\w-]*(?: [a-z][\w-]*)?)\s*:\s+(?=(?:on\s+|next\s+)?(?:Monday|Tuesday|Wednesday|"
    r"Thursday|Friday|Saturday|Sunday|the\s+\d|\d{1,2}(?:st|nd|rd|th)?\s+"
    r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec))\b)"
)


#: "I'm with Mia now (long story, Josh and I split over winter) and …": an aside in brackets of a clause's
#: length is a sentence of its own; left in, the parse hangs the clause's words on it ("now" on "story").
#: A short one stays ("Alex (my flatmate) moved to Leeds").
#: Nor one that says who or what the name before it is ("Bean (our new puppy) chewed my shoes").
_ASIDE: Final = re.compile(
    r"\s*\((?!(?i:my|our)\s+(?:[^()\s]+\s+){0,2}[^()\s]+\))((?:[^()\s]+\s+){2,}[^()\s]+)\)\s*,?\s*"
)


#: "long story, Josh and I split", "Long story short, we moved": an opener, no subject of what follows
_STORY: Final = re.compile(r"(^|[.!?]\s+)(?i:long story(?: short)?)\s*[,:-]?\s+")


#: "my girlfriend jasmine", "my names jake", "call me sam": a first name typed in lowercase where a name
#: stands, after the speaker's person or their own introduction. Only a first name of the census list
#: (given_names), and none of the short words it holds too ("an", "so", "will", "may").
_NAME_SPOT: Final = re.compile(
    r"\b(?:(?:[Mm]y|[Oo]ur)\s+(?:new\s+|best\s+|little\s+|big\s+|older\s+|younger\s+)?"
    r"(?:girlfriend|boyfriend|wife|husband|partner|fiance|fiancee|fiancé|fiancée|sister|brother|mum|mom|"
    r"dad|son|daughter|friend|mate|colleague|coworker|boss|flatmate|roommate|housemate|cousin|aunt|"
    r"uncle|niece|nephew|neighbour|neighbor|manager)|[Mm]y\s+name(?:'s|’s|s|\s+is)|[Cc]all\s+me|"
    r"[Nn]ame(?:'s|’s))\s+(?P<name>[A-Za-z][a-z'-]+)\b"
)
_NOT_LOWER_NAMES: Final = frozenset(
    ["an", "in", "so", "my", "will", "may", "can", "is", "was", "and", "the", "a", "to", "at", "on", "i",
     "me", "he", "she", "it", "we", "you", "they", "just", "got", "has", "had", "all", "also", "not", "no",
     "yes", "who", "jan", "june", "april", "august", "mark", "bill", "art", "guy", "page", "lane", "chase",
     "wade"]
)  # fmt: skip


#: "new favorite coffee is the iced brown sugar one lol", "Fave band rn is Wet Leg": chat leaves the "my"
#: off a favourite that opens the sentence
_BARE_FAVOURITE: Final = re.compile(
    r"(^|[.!?]\s+)((?i:new\s+|current\s+|all[- ]time\s+)?(?i:favou?rite|fave|fav)\s+[a-z][\w-]*"
    r"(?:\s+[a-z][\w-]*)?\s+(?i:is|are|'s|rn is|right now is|at the moment is)\b)"
)


#: "Got myself a Hilux", "treated ourselves to a new sofa": what was got, for oneself
_FOR_MYSELF: Final = re.compile(
    r"\b(?P<verb>(?i:got|get|getting|bought|buy|buying|found|picked up))\s+(?i:myself|ourselves)\s+"
    r"(?=(?i:a|an|the|some)\s)"
)
#: "Me and Sam are driving up …", "me and my sister went": the speaker and their company as a subject
_ME_AND: Final = re.compile(
    r"(^|[.!?]\s+)(?i:me)\s+and\s+(?P<who>(?i:my|our)\s+[a-z]+|[A-Z][a-z'-]+)\s+"
    r"(?=(?:are|were|have|had|will|'re|’re|went|got|just|both|finally|\w+ed)\b)"
)


def _lower_name(found: re.Match[str]) -> str:
    name = found["name"]
    if name.casefold() in _NOT_LOWER_NAMES or not known_first_name(name):
        return found[0]
    before = found[0][: found.start("name") - found.start()]
    before = re.sub(r"\b([Mm]y\s+)names\b", r"\1name's", before)  # "my names jake"
    return before + (name.capitalize() if name.islower() else name)


#: "Succession is hands down my favourite show", "easily my favourite": praise before a favourite, which
#: the parse takes for its value ("hands")
_PRAISE: Final = re.compile(
    r"\b(?:hands down|by far|without a doubt|no doubt|easily|officially|definitely|honestly)\s+"
    r"(?=(?:my|our)\s+(?:all[- ]time\s+|absolute\s+|new\s+)?(?:favou?rite|fave|fav|go-to)\b)",
    re.IGNORECASE,
)


def _aside_apart(found: re.Match[str]) -> str:
    return f". {found[1].rstrip('.!?')}. "


#: A message the speaker got, quoted: "Got this text: 'your MRI is now Mon 10 Feb'", "the garage emailed
#: me: "we've moved you to Friday"". Its "you" is the speaker, its "we" the sender.
_RECEIVED: Final = re.compile(
    r"(?P<cue>\b(?:got|received|had|get)\s+(?:this|a|an|the)\s+(?:\w+\s+)?(?:text|message|email|e-mail|"
    r"letter|sms|reminder|voicemail|notification|dm)\b[^:'\"‘“]{0,40}|\b(?:texted|emailed|messaged|"
    r"wrote(?:\s+to)?|replied(?:\s+to)?)\s+me\b[^:'\"‘“]{0,20}):\s*['\"‘“](?P<quote>.+?)['\"’”](?=\s|$|[.,;!?])",
    re.IGNORECASE,
)
#: The quote's people as the speaker tells them: its reader is the speaker, its writer someone else.
_QUOTED_PEOPLE: Final = {
    "you're": "I'm", "you are": "I am", "your": "my", "yours": "mine", "you": "me",
    "i'm": "they're", "i am": "they are", "i've": "they've", "i'll": "they'll", "i'd": "they'd", "i": "they",
    "my": "their", "mine": "theirs", "me": "them",
    "we're": "they're", "we are": "they are", "we've": "they've", "we'll": "they'll", "we": "they",
    "our": "their", "ours": "theirs", "us": "them",
}  # fmt: skip
_QUOTED_PERSON: Final = re.compile(
    r"\b(?:" + "|".join(sorted((re.escape(w) for w in _QUOTED_PEOPLE), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)


def _received_as_mine(found: re.Match[str]) -> str:
    """The quoted message said as the speaker would, in one pass (so "your" is not made "my" and then
    "their"): "your MRI appointment is now Mon 10 Feb" → "my MRI appointment is now Mon 10 Feb"; the
    sender's "I'm moving to Leeds" → "they're moving to Leeds"."""
    quote = _QUOTED_PERSON.sub(lambda word: _QUOTED_PEOPLE[word.group(0).casefold()], found["quote"])
    return f'{found["cue"]}: "{quote}"'


def normalise_first_person(text: str) -> str:
    """Chat spelling of the first person ("i'm", "im", "i") as written English, so one grammar reads both;
    a question tagged on after a dash or a comma set apart from the statement before it."""
    for pattern, replacement in _LOWER_I:
        text = pattern.sub(replacement, text)
    text = _RECEIVED.sub(_received_as_mine, text)
    text = _OPENING_INTERJECTION.sub(r"\1,", text)
    text = _EMOJI_STOP.sub(". ", text)
    text = _COMMA_REQUEST.sub(". ", text)
    text = _REMIND_ME.sub(r"\1", text)
    text = _FOR_MYSELF.sub(lambda said: f"{said['verb']} ", text)
    text = _ME_AND.sub(lambda said: f"{said[1]}{said['who']} and I ", text)
    text = _ASIDE.sub(_aside_apart, text).strip()
    text = _STORY.sub(r"\1", text)
    text = _PRAISE.sub("", text)
    text = _NAME_SPOT.sub(_lower_name, text)
    text = _BARE_FAVOURITE.sub(lambda said: f"{said[1]}my {said[2][:1].lower()}{said[2][1:]}", text)
    text = _UPDATE_HEADING.sub(lambda said: f"{said[1]}{said[2]} is now ", text)
    text = _TIME_HEADING.sub(lambda said: f"{said[1]}{said[2]} is ", text)
    text = _DASHED_CLAUSE.sub(". ", _asked_apart(_tagged_apart(text)))
    return _TELLING.sub(lambda found: found.group(1), text)
