"""The offline extractor's fact patterns, as data: each reads a canonical third-person clause
("Dana lives in Toronto") and names the fact kind, key and value it states.

Patterns are tried in order and the first match wins, so the specific ones (an allergy, a favourite)
come before the general ones (likes, did). ``{S}`` stands for the escaped subject name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Final

__all__ = ["OCCUPATIONS", "PATTERNS", "RELATIONS", "Pattern", "compiled"]

#: Kinship and social relations a "my <relation> <Name>" phrase may name.
RELATIONS: Final = (
    "best friend|boyfriend|girlfriend|fiancée|fiancee|fiancé|fiance|husband|wife|partner|spouse|"
    "friend|sister|brother|sibling|mom|mum|mother|dad|father|son|daughter|kid|child|baby|cousin|aunt|"
    "uncle|niece|nephew|grandma|grandmother|grandpa|grandfather|grandson|granddaughter|colleague|"
    "coworker|co-worker|boss|manager|mentor|roommate|flatmate|neighbour|neighbor|teacher|coach|"
    "therapist|doctor|classmate|teammate|stepmom|stepdad|stepson|stepdaughter|bff|buddy|pal|"
    "dog|cat|puppy|kitten|pet|parrot|rabbit|horse|hamster"
)

OCCUPATIONS: Final = frozenset(
    [
        "accountant",
        "actor",
        "actress",
        "architect",
        "artist",
        "assistant",
        "baker",
        "banker",
        "barber",
        "barista",
        "bartender",
        "biologist",
        "carpenter",
        "cashier",
        "chef",
        "chemist",
        "cleaner",
        "clerk",
        "coach",
        "consultant",
        "cook",
        "counselor",
        "counsellor",
        "dancer",
        "dentist",
        "designer",
        "developer",
        "dietitian",
        "doctor",
        "driver",
        "economist",
        "editor",
        "electrician",
        "engineer",
        "entrepreneur",
        "farmer",
        "firefighter",
        "freelancer",
        "gardener",
        "geologist",
        "hairdresser",
        "historian",
        "illustrator",
        "instructor",
        "interpreter",
        "investor",
        "janitor",
        "journalist",
        "judge",
        "lawyer",
        "lecturer",
        "librarian",
        "lifeguard",
        "manager",
        "mechanic",
        "midwife",
        "musician",
        "nanny",
        "nurse",
        "nutritionist",
        "officer",
        "painter",
        "paralegal",
        "paramedic",
        "pharmacist",
        "photographer",
        "physician",
        "physicist",
        "physiotherapist",
        "pilot",
        "plumber",
        "poet",
        "police",
        "policeman",
        "policewoman",
        "politician",
        "professor",
        "programmer",
        "psychiatrist",
        "psychologist",
        "realtor",
        "receptionist",
        "reporter",
        "researcher",
        "retiree",
        "salesman",
        "saleswoman",
        "scientist",
        "secretary",
        "singer",
        "soldier",
        "student",
        "surgeon",
        "tailor",
        "teacher",
        "technician",
        "therapist",
        "trainer",
        "translator",
        "tutor",
        "veterinarian",
        "vet",
        "waiter",
        "waitress",
        "welder",
        "writer",
        "youtuber",
        "streamer",
        "analyst",
        "administrator",
        "coder",
        "cto",
        "ceo",
        "founder",
        "cofounder",
        "co-founder",
        "intern",
        "resident",
        "paramedic",
        "pastor",
        "priest",
        "rabbi",
        "imam",
        "volunteer",
        "sculptor",
        "novelist",
        "composer",
        "producer",
        "director",
        "animator",
        "blogger",
    ]
)

_DIETS: Final = (
    r"vegan|vegetarian|pescatarian|pescetarian|gluten[- ]free|lactose[- ]intolerant|dairy[- ]free|"
    r"diabetic|celiac|coeliac|sober|teetotal|kosher|halal|keto|on a diet|on a low[- ]\w+ diet"
)
_INSTRUMENTS: Final = (
    r"piano|guitar|violin|drums|cello|bass|flute|saxophone|sax|trumpet|ukulele|harp|clarinet|banjo|"
    r"keyboard|organ|accordion|harmonica|trombone"
)
_EVENTS: Final = (
    r"appointment|meeting|interview|wedding|birthday|flight|party|exam|surgery|concert|trip|vacation|"
    r"holiday|conference|deadline|game|match|recital|graduation|reunion|check-?up|ceremony|presentation|"
    r"performance|show|gig|race|marathon|tournament|funeral|shower|anniversary|date night|class|lesson"
)
_ADV: Final = (
    r"(?:(?:really|also|just|usually|always|still|absolutely|totally|definitely|now|currently|"
    r"actually|recently|finally|kinda|truly|genuinely|especially|mostly|even|already|seriously)\s+)*"
)


@dataclass(frozen=True)
class Pattern:
    kind: str
    #: The fact's key; ``{group}`` names are filled from the match (``favourite_{cat}``).
    key: str
    regex: str
    negated: bool = False
    #: How sure the phrasing is: explicit statements 0.95, implied ones 0.85.
    certainty: str = "explicit"


PATTERNS: Final = (
    # -- identity
    Pattern("identity", "age", r"^{S} is (?P<v>\d{1,3})(?: years? old| yo| y/o)?$"),
    Pattern("identity", "age", r"^{S} (?:just )?turned (?P<v>\d{1,3})\b"),
    Pattern("identity", "works_as", r"^{S} " + _ADV + r"works? as (?:an? |the )?(?P<v>.+)"),
    Pattern(
        "identity", "works_at", r"^{S} " + _ADV + r"(?:works?|is working|has a job) (?:at|for) (?P<v>.+)"
    ),
    Pattern(
        "identity",
        "works_as",
        r"^{S} is " + _ADV + r"(?:an? )(?P<v>(?:[\w-]+ ){0,2}(?:OCC))(?: at (?P<org>.+))?$",
    ),
    Pattern(
        "identity",
        "lives_in",
        r"^{S} " + _ADV + r"(?:lives|is living|is based|resides|has lived) in (?P<v>.+)",
    ),
    Pattern(
        "identity",
        "lives_in",
        r"^{S} " + _ADV + r"(?:moved|has moved|relocated|is moving|will move) to (?P<v>.+)",
    ),
    Pattern("identity", "hometown", r"^{S} is (?:originally )?from (?P<v>.+)"),
    Pattern("identity", "hometown", r"^{S} (?:grew up|was born|was raised) in (?P<v>.+)"),
    # -- constraint (before preference: "does not eat meat" is a constraint, not a dislike)
    Pattern("constraint", "diet", r"^{S} is " + _ADV + r"(?P<v>" + _DIETS + r")\b"),
    Pattern(
        "constraint", "allergy", r"^{S} is " + _ADV + r"(?:severely |very |super )?allergic to (?P<v>.+)"
    ),
    Pattern(
        "constraint", "allergy", r"^{S} has an? (?:severe |bad |mild )?(?P<v>[\w-]+(?: [\w-]+)?) allergy"
    ),
    Pattern(
        "constraint",
        "avoids",
        r"^{S} (?:does not|never|will not) "
        + _ADV
        + r"(?P<verb>eat|drink|smoke|fly|drive|consume|touch|take|use) (?P<v>.+)",
        negated=True,
    ),
    Pattern(
        "constraint",
        "cannot",
        r"^{S} (?:cannot|is not allowed to|is unable to) (?P<v>(?:work|do|make|meet|"
        r"travel|attend|eat|drink|have|take|lift|walk|run|drive|stand|be)\b.+)",
        negated=True,
    ),
    Pattern(
        "constraint",
        "avoids",
        r"^{S} (?:has to|must|needs to|should) (?:avoid|stay away from|skip) (?P<v>.+)",
    ),
    # -- relationship
    Pattern(
        "relationship",
        "{rel}",
        r"^{S}'s (?P<rel>" + RELATIONS + r")(?:'s name)? is (?:called |named )?"
        r"(?P<v>[A-Z][\w'-]+(?: [A-Z][\w'-]+)?)",
    ),
    Pattern(
        "relationship", "partner", r"^{S} is (?:married|engaged) to (?P<v>[A-Z][\w'-]+(?: [A-Z][\w'-]+)?)"
    ),
    Pattern(
        "relationship", "partner", r"^{S} is (?:dating|seeing|in a relationship with) (?P<v>[A-Z][\w'-]+)"
    ),
    Pattern(
        "relationship",
        "{rel}",
        r"^{S} (?:has|adopted|got) an? (?:new )?(?:\w+ )?(?P<rel>"
        + RELATIONS
        + r") (?:named|called) (?P<v>[A-Z][\w'-]+)",
    ),
    Pattern(
        "relationship",
        "has_{rel}",
        r"^{S} has (?P<v>(?:an?|one|two|three|four|five|six|\d+) (?:\w+ )?"
        r"(?P<rel>kids?|children|sons?|daughters?|brothers?|sisters?|siblings?|dogs?|cats?|pets?|"
        r"grandkids?|grandchildren))\b",
    ),
    # -- skill
    Pattern("skill", "speaks", r"^{S} " + _ADV + r"(?:speaks|is fluent in|can speak) (?P<v>.+)"),
    Pattern(
        "skill",
        "plays",
        r"^{S} " + _ADV + r"(?:plays|can play|has played) (?:the )?(?P<v>" + _INSTRUMENTS + r")\b.*",
    ),
    Pattern(
        "skill",
        "can",
        r"^{S} (?:can|knows how to) (?P<v>(?:play|speak|cook|bake|code|program|drive|swim|"
        r"ski|sew|knit|paint|draw|sing|dance|fix|build|write|read|juggle|surf|climb|ride|skate|type)\b.+)",
    ),
    Pattern(
        "skill",
        "uses",
        r"^{S} (?:has been|is|was) (?:coding|programming|developing|writing code|working) "
        r"(?:in|with) (?P<v>.+)",
    ),
    Pattern(
        "skill",
        "expert_in",
        r"^{S} is " + _ADV + r"(?:very |really |pretty |quite )?(?:good|great|skilled|"
        r"proficient|an expert|experienced|certified|fluent|handy|trained) (?:at|in|with|as) (?P<v>.+)",
    ),
    Pattern(
        "skill",
        "has_skill",
        r"^{S} (?:has|holds) an? (?P<v>(?:[\w-]+ )*(?:degree|certificate|"
        r"certification|license|licence|diploma|black belt|phd|master's|bachelor's)\b.*)",
    ),
    # -- goal
    Pattern(
        "goal",
        "wants_to",
        r"^{S} (?:really )?(?:wants|hopes|plans|intends|aims|is planning|is hoping|"
        r"is aiming|dreams|is dreaming|is trying|is saving up|has decided|decided|is determined|"
        r"would (?:really )?(?:like|love)|is going) to (?P<v>(?!the\b|a\b|an\b|my\b|bed\b|work\b|"
        r"school\b)\w.+)",
    ),
    Pattern(
        "goal",
        "wants_to",
        r"^{S}'s (?:goal|dream|plan|aim|resolution|ambition|hope) (?:for [\w ]+ )?is to "
        r"(?P<v>.+)",
    ),
    Pattern(
        "goal", "working_towards", r"^{S} is (?:working|saving|studying|training) (?:towards?|for) (?P<v>.+)"
    ),
    # -- event (a dated thing ahead or behind)
    Pattern("event", "{what}", r"^{S}'s (?P<what>(?:[\w-]+ ){0,2}(?:" + _EVENTS + r")) is (?P<v>.+)"),
    Pattern(
        "event",
        "{what}",
        r"^{S} (?:has|had|is having) (?:an?|the|their|another) (?P<what>(?:[\w-]+ ){0,2}"
        r"(?:" + _EVENTS + r"))(?P<v> (?:on|at|in|next|this|tomorrow|tonight|later|coming).*)",
    ),
    # -- preference
    Pattern(
        "preference",
        "favourite_{cat}",
        r"^{S}'s (?:all[- ]time )?favou?rite (?P<cat>[\w-]+(?: [\w-]+)?) "
        r"(?:is|are) (?P<v>.+)",
    ),
    Pattern(
        "preference",
        "dislikes",
        r"^{S} (?:does not|doesn't) " + _ADV + r"(?:like|enjoy|love|care for) "
        r"(?P<v>.+)",
        negated=True,
    ),
    Pattern(
        "preference",
        "dislikes",
        r"^{S} " + _ADV + r"(?:hates|dislikes|detests|loathes|cannot stand|"
        r"can't stand|is not a fan of|is not into|is sick of|is tired of) (?P<v>.+)",
    ),
    Pattern(
        "preference",
        "likes",
        r"^{S} " + _ADV + r"(?:loves|likes|enjoys|adores|is into|is obsessed with|"
        r"is (?:a )?(?:big |huge )?fan of|is passionate about|is crazy about|is addicted to|prefers|"
        r"is (?:really )?(?:into|keen on)) (?P<v>.+)",
    ),
    Pattern(
        "preference",
        "likes",
        r"^{S} (?:plays|watches|listens to|reads|collects|goes) (?P<v>.+) "
        r"(?:every|each|most|on) (?:day|week|weekend|morning|evening|night|sunday|saturday|summer|winter)",
        certainty="implied",
    ),
)

#: Experience: anything else the subject did or has been doing, told in the past or the perfect.
EXPERIENCE: Final = re.compile(
    r"^{S}(?: and others)? "
    + _ADV
    + r"(?P<verb>(?:has (?:been \w+ing|\w+(?:ed|en|t)\b|been)|had|did|went|got|made|took|"
    r"came|saw|met|ran|won|lost|bought|built|wrote|read|tried|visited|finished|started|joined|adopted|"
    r"attended|traveled|travelled|moved|learned|learnt|graduated|completed|painted|cooked|baked|hiked|"
    r"volunteered|signed up|gave|found|left|quit|began|spent|flew|drove|watched|played|received|"
    r"celebrated|organized|organised|hosted|launched|published|created|designed|opened|picked up|"
    r"took up|taught|studied|passed|failed|broke|fixed|ate|cooked|danced|sang|performed|competed|"
    r"raised|donated|planted|grew|climbed|swam|camped|explored|discovered|applied|got into|was \w+ed)\b)"
    r"(?P<v>.+)"
)


@cache
def compiled(subject: str) -> tuple[tuple[Pattern, re.Pattern[str]], ...]:
    """The patterns with ``{S}`` bound to ``subject`` (cached: a conversation has a few subjects)."""
    occupations = "|".join(sorted(OCCUPATIONS, key=len, reverse=True))
    name = re.escape(subject)
    return tuple(
        (pattern, re.compile(pattern.regex.replace("{S}", name).replace("OCC", occupations), re.IGNORECASE))
        for pattern in PATTERNS
    )


@cache
def experience(subject: str) -> re.Pattern[str]:
    return re.compile(EXPERIENCE.pattern.replace("{S}", re.escape(subject)), re.IGNORECASE)
