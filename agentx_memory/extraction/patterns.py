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

__all__ = ["MADE_LIKE", "OCCUPATIONS", "PATTERNS", "RELATIONS", "Pattern", "compiled"]

#: Kinship and social relations a "my <relation> <Name>" phrase may name.
RELATIONS: Final = (
    "best friend|boyfriend|girlfriend|fiancée|fiancee|fiancé|fiance|husband|wife|partner|spouse|"
    "friend|sister|brother|sibling|mom|mum|mother|dad|father|son|daughter|kid|child|baby|cousin|aunt|"
    "uncle|niece|nephew|grandma|grandmother|grandpa|grandfather|grandson|granddaughter|colleague|"
    "coworker|co-worker|boss|manager|mentor|roommate|flatmate|neighbour|neighbor|teacher|coach|"
    "therapist|doctor|classmate|teammate|stepmom|stepdad|stepson|stepdaughter|bff|buddy|pal|best mate|mate|"
    "grandad|granddad|gran|granny|nan|nana|"
    "dog|cat|puppy|kitten|pet|parrot|rabbit|horse|hamster"
)

#: Words that make a pet's noun a thing made like one: a toy, a figure, a machine ("that stuffed animal
#: dog you gave me", "a robot dog called Sparky").
MADE_LIKE: Final = frozenset(
    ["stuffed", "toy", "plush", "cuddly", "soft", "robot", "robotic", "wooden", "plastic", "inflatable",
     "fake", "paper", "origami", "lego", "cardboard", "porcelain", "ceramic", "glass", "clay", "knitted",
     "crocheted", "animatronic", "virtual", "digital", "balloon", "chocolate", "rubber", "cartoon"]
)  # fmt: skip
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
        "physio",
        "radiographer",
        "sonographer",
        "postman",
        "postwoman",
        "courier",
        "groomer",
        "optometrist",
        "optician",
        "solicitor",
        "barrister",
        "joiner",
        "roofer",
        "stylist",
        "surveyor",
        "underwriter",
        "actuary",
        "tester",
        "recruiter",
        # more jobs by their usual names (found lacking by fresh sentences: 'I'm an attorney now', 'a supervisor',
        # 'a carer'); not words that as often name a pastime or a trait ('planner', 'drummer', 'sailor')
        *["adjuster", "admiral", "adviser", "advisor", "anaesthetist", "anesthesiologist", "announcer",
         "appraiser", "apprentice", "archaeologist", "archivist", "assessor", "attendant", "attorney",
         "audiologist", "auditor", "aviator", "babysitter", "beautician", "bookkeeper", "botanist",
         "bouncer", "brewer", "bricklayer", "broadcaster", "broker", "butcher", "cabbie", "cameraman",
         "campaigner", "cardiologist", "caregiver", "carer", "caretaker", "caseworker", "ceramicist",
         "cfo", "chaplain", "chauffeur", "childminder", "chiropractor", "choreographer", "clinician",
         "colonel", "concierge", "conservator", "constable", "contractor", "coo", "coordinator",
         "copywriter", "corporal", "correspondent", "councillor", "cricketer", "curator", "custodian",
         "dean", "deckhand", "decorator", "dermatologist", "detective", "diplomat", "dispatcher",
         "distiller", "doorman", "doula", "draftsman", "draughtsman", "dressmaker", "ecologist", "emt",
         "estimator", "farmhand", "filmmaker", "fireman", "fisherman", "fitter", "florist", "footballer",
         "foreman", "forester", "fundraiser", "glazier", "handyman", "headhunter", "headmaster",
         "headmistress", "headteacher", "housekeeper", "hygienist", "influencer", "inspector", "installer",
         "investigator", "jeweler", "jeweller", "jockey", "laborer", "labourer", "landscaper",
         "lieutenant", "lobbyist", "locksmith", "machinist", "magistrate", "mailman", "marketer",
         "masseur", "masseuse", "mathematician", "merchandiser", "neurologist", "oncologist",
         "orthodontist", "osteopath", "paediatrician", "pediatrician", "phlebotomist", "podcaster",
         "podiatrist", "porter", "postdoc", "practitioner", "proprietor", "psychotherapist", "radiologist",
         "rancher", "referee", "registrar", "salesperson", "scaffolder", "seafarer", "seamstress",
         "sergeant", "skipper", "sommelier", "statistician", "steward", "stewardess", "strategist",
         "supervisor", "sysadmin", "technologist", "teller", "tiler", "trader", "trainee", "trucker",
         "umpire", "usher", "valet", "valuer", "vicar", "videographer", "vlogger", "warden", "zoologist"],
    ]
)  # fmt: skip

_DIETS: Final = (
    r"vegan|vegetarian|pescatarian|pescetarian|gluten[- ]free|lactose[- ]intolerant|dairy[- ]free|"
    r"diabetic|celiac|coeliac|sober|teetotal|kosher|halal|keto|on a diet|on a low[- ]\w+ diet"
)
_INSTRUMENTS: Final = (
    r"piano|guitar|violin|drums|cello|bass|flute|saxophone|sax|trumpet|ukulele|harp|clarinet|banjo|"
    r"keyboard|organ|accordion|harmonica|trombone"
)
_SPORTS: Final = (
    r"basketball|football|soccer|tennis|golf|hockey|baseball|softball|volleyball|rugby|cricket|badminton|"
    r"squash|netball|lacrosse|handball|water polo|table tennis|ping pong|pickleball|padel|chess|poker|bridge"
)
_EVENTS: Final = (
    r"appointment|meeting|interview|wedding|birthday|flight|party|exam|surgery|concert|trip|vacation|"
    r"holiday|conference|deadline|game|match|recital|graduation|reunion|check-?up|ceremony|presentation|"
    r"performance|show|gig|race|marathon|tournament|funeral|shower|anniversary|date night|class|lesson|"
    r"root canal|procedure|operation|check-?up|scan|vaccination|haircut|audition|hearing|visit|viewing|"
    r"confirmation|christening|baptism|bar mitzvah|bat mitzvah|defen[cs]e|test|party"
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
    #: The phrasing itself says the value is a job ("promoted to …"): no known job name is needed.
    any_post: bool = False


# fmt: off
_NAME: Final = r"(?P<v>(?-i:[A-Z])[\w'-]+(?: (?-i:[A-Z])[\w'-]+)?)"
_FOR_YEARS: Final = r" for (?:\w+ ){0,2}(?:years|decades|yrs)\b"
_NOT_MADE_LIKE: Final = r"(?!(?:" + "|".join(sorted(MADE_LIKE)) + r")\b)"
_NOT_DIET: Final = r"(?:meat|red meat|pork|beef|dairy|gluten|alcohol|fish|seafood|shellfish|eggs|sugar|animal products)"
PATTERNS: Final = (
    # -- identity
    Pattern("identity", "age", r"^{S} is " + _ADV + r"(?P<v>\d{1,3})(?: years? old| yo| y/o)?"
            r"(?=\s*(?:$|[,.;!]|and\b|but\b|btw|lol|now\b|this\b|next\b|today\b|haha))"),
    Pattern("identity", "age", r"^{S} (?:just )?turned (?P<v>\d{1,3})\b"),
    Pattern("identity", "works_as", r"^{S} " + _ADV + r"works? (?:nights |days |weekends |part[- ]time )?as "
            r"(?:an? |the )?(?P<v>.+)"),
    Pattern("identity", "works_at", r"^{S} " + _ADV + r"(?:works?|is working|has a job) (?:at|for) (?P<v>.+)"),
    Pattern("identity", "works_as", r"^{S} is " + _ADV + r"(?:an? )(?P<v>(?:[\w-]+ ){0,2}(?:OCC))\b"),
    # "got promoted to ward sister last week": whatever one is promoted to is a post (the parse often takes
    # "to ward", "to store", "to head" for a verb)
    Pattern("identity", "works_as", r"^{S} (?:has |had |just |finally |was |is |got |has been |has got )*"
            r"(?:got |been )?promoted to (?:be |become )?(?:an? |the )?(?P<v>[\w-]+(?: [\w-]+){0,3}?)"
            r"(?= last| this| on| at| in| after| yesterday| today| recently|[,.!;(]|$)", any_post=True),
    # A title needs no article before where one holds it: "is head chef now at Osteria Rossa".
    Pattern("identity", "works_as", r"^{S} is " + _ADV + r"(?P<v>(?:[\w-]+ ){0,2}(?:OCC))(?: now)? (?:at|for) "),
    # What one teaches is a subject, not an occupation ("teaches biology"), so it has a key of its own.
    Pattern("identity", "teaches", r"^{S} " + _ADV + r"(?:teaches|lectures(?: in)?) (?P<v>(?!(?:me|you|him|her|us|them)\b).+)"),
    # "writes for Der Spiegel": a publication, named ("writes for fun" is no employer).
    Pattern("identity", "works_at", r"^{S} " + _ADV + r"(?:writes|reports|freelances) for (?P<v>(?-i:[A-Z]).+)"),
    # A vehicle one drives, by its make ("drives a Ford Transit"; "drives to work" is no vehicle).
    Pattern("identity", "drives", r"^{S} " + _ADV + r"(?:drives|rides) (?:an? |the )?(?P<v>(?-i:[A-Z])[\w-]*(?: [\w-]+){0,3})"),
    Pattern("identity", "lives_in", r"^{S} " + _ADV + r"(?:lives|is living|is based|resides|has lived) in (?P<v>.+)"),
    Pattern("identity", "lives_in", r"^{S}(?: and others)? " + _ADV + r"(?:moved|has moved|have moved|relocated|"
            r"has relocated) to (?P<v>.+)"),
    Pattern("identity", "phone", r"^{S}'s (?:new )?(?:phone|mobile|cell)(?: number)? is (?P<v>\+?\d[\d ()-]{4,}\d)"),
    Pattern("identity", "email", r"^{S}'s (?:new )?e-?mail(?: address)? is (?P<v>[\w.+-]+@[\w-]+\.[\w.-]+)"),
    Pattern("identity", "hometown", r"^{S} is (?:originally )?from (?P<v>.+)"),
    Pattern("identity", "hometown", r"^{S} (?:grew up|was born|was raised|was born and raised) in (?P<v>.+)"),
    Pattern("identity", "studies", r"^{S} (?:studies|is studying|is doing a (?:degree|phd|masters?|ba|bsc) in) (?P<v>.+)"),
    # -- constraint (before preference: "is allergic to" is a constraint, not a dislike)
    Pattern("constraint", "diet", r"^{S} (?:is|went|became|turned|has been|is now) " + _ADV + r"(?P<v>" + _DIETS + r")\b"),
    # What follows a second verb with its own object is no allergen ("to peanuts and carry an EpiPen";
    # "to peanuts and tree nuts" has no word between "and" and a determiner).
    Pattern("constraint", "allergy", r"^{S} is " + _ADV + r"(?:severely |very |super |mildly |badly |extremely |"
            r"highly |deathly )?allergic to (?P<v>.+?)"
            r"(?:\s+and\s+[a-z]+\s+(?:an?|the|my|his|her|their|our|some|this|that)\s.*)?$"),
    Pattern("constraint", "allergy", r"^{S} has an? (?:severe |bad |mild )?(?P<v>[\w-]+(?: [\w-]+)?) allergy"),
    Pattern("constraint", "avoids", r"^{S} " + _ADV + r"(?:does not|never|will not|cannot) " + _ADV
            + r"(?:eat|drink|have|consume|touch) (?P<v>" + _NOT_DIET + r")\b", negated=True),
    # "I can't drive." says all it says with the verb alone (a later "I can drive now" replaces it)
    Pattern("constraint", "cannot", r"^{S} (?:cannot|is not allowed to|is unable to) (?P<v>(?:work|do|make|meet|"
            r"travel|attend|eat|drink|take|lift|walk|run|drive|be|fly|sit|climb|swim|cook|ski|skate|ride|"
            r"read|type|sing|dance|knit|sew|use)\b.*?)(?:,? (?:honestly|really|though|tbh|lol|haha))?\.?$",
            negated=True),
    Pattern("constraint", "avoids", r"^{S} (?:has to|must|needs to|should) (?:avoid|stay away from|skip) (?P<v>.+)"),
    # The emphatic "do", or a habit said with "now", says the opposite of "does not eat": "actually I do
    # eat eggs now", "I drink coffee now".
    Pattern("preference", "avoids", r"^{S} " + _ADV + r"(?:eats|drinks) (?P<v>(?!it\b|that\b)(?![\w -]*\bdiet\b)[\w -]+?) now\b"),
    Pattern("constraint", "avoids", r"^{S} " + _ADV + r"(?:does|do) " + _ADV + r"(?:eat|drink|have) (?P<v>"
            + _NOT_DIET + r")\b"),
    Pattern("constraint", "health", r"^{S} has (?:got )?(?:an? )?(?P<v>(?:bad|weak|broken|injured|sore|dodgy|"
            r"chronic|torn|herniated|slipped) [\w ]+|(?:asthma|diabetes|migraines|arthritis|adhd|anxiety|"
            r"celiac disease|a heart condition|high blood pressure|insomnia)\b.*)"),
    Pattern("constraint", "schedule", r"^{S} (?:only works|never works|does not work|cannot work|is not available) "
            r"(?P<v>(?:on|in|before|after|during|at) .+)"),
    # -- relationship
    # "my (new) boyfriend's name is Kwame": "new" or "current" tells the relation changed, not who it is
    Pattern("relationship", "{rel}", r"^{S}'s (?:(?:new|current) )?(?P<rel>" + RELATIONS + r")(?:'s name)? is "
            r"(?:called |named )?" + _NAME),
    Pattern("relationship", "partner", r"^{S} is (?:married|engaged) to " + _NAME),
    Pattern("relationship", "partner", r"^{S} is (?:dating|in a relationship with) " + _NAME),
    Pattern("relationship", "{rel}", r"^{S} (?:has|adopted|got) an? (?:new )?" + _NOT_MADE_LIKE + r"(?:\w+ )?(?P<rel>" + RELATIONS
            + r") (?:named|called) " + _NAME),
    Pattern("relationship", "has_{rel}", r"^{S} has (?P<v>(?:an?|one|two|three|four|five|six|\d+) (?:\w+ )?"
            r"(?P<rel>kids?|children|sons?|daughters?|brothers?|sisters?|siblings?|dogs?|cats?|pets?|"
            r"grandkids?|grandchildren))\b"),
    # -- skill
    Pattern("skill", "speaks", r"^{S} " + _ADV + r"(?:speaks|is fluent in|can speak) (?P<v>.+)"),
    Pattern("skill", "plays", r"^{S} " + _ADV + r"(?:plays|can play|has played) (?:the )?(?P<v>" + _INSTRUMENTS
            + r")\b.*"),
    # A sport, said as a habit ("plays JV basketball", "plays tennis"); one word may qualify it.
    Pattern("skill", "plays", r"^{S} " + _ADV + r"(?:plays|has played) (?P<v>(?:[\w-]+ )?(?:" + _SPORTS + r"))\b"),
    Pattern("skill", "can", r"^{S} (?:can|knows how to) (?P<v>(?:play|speak|cook|bake|code|program|drive|swim|"
            r"ski|sew|knit|paint|draw|sing|dance|fix|build|write|read|juggle|surf|climb|ride|skate|type|use)"
            r"\b.*?)(?: now)?\.?$"),
    # "working in TCS Chennai" is where one works (the parse reads it), "working with React" what one uses
    Pattern("skill", "uses", r"^{S} (?:has been|is|was) (?:(?:coding|programming|developing|writing code) "
            r"(?:in|with)|working with) (?P<v>.+)"),
    Pattern("skill", "experience_in", r"^{S} has been (?P<v>\w+ing\b.+?)" + _FOR_YEARS),
    Pattern("skill", "experience_in", r"^{S} has (?:used|worked with|done|practised|practiced) (?P<v>.+?)" + _FOR_YEARS),
    Pattern("skill", "experience_in", r"^{S} (?:taught|worked as|has worked as|coached|practised|practiced|"
            r"played|has played|has taught) (?P<v>.+?)" + _FOR_YEARS),
    Pattern("skill", "expert_in", r"^{S} is " + _ADV + r"(?:very |really |pretty |quite )?(?:good|great|skilled|"
            r"proficient|an expert|experienced|certified|fluent|handy|trained) (?:at|in|with|as) (?P<v>.+)"),
    Pattern("skill", "has_skill", r"^{S} (?:has|holds) an? (?P<v>(?:[\w-]+ )*(?:degree|certificate|"
            r"certification|license|licence|diploma|black belt|phd|master's|bachelor's)\b.*)"),
    # -- goal
    Pattern("goal", "wants_to", r"^{S} (?:really )?(?:wants|hopes|plans|intends|aims|is planning|is hoping|"
            r"is aiming|dreams|is dreaming|is trying|is saving up|has decided|decided|is determined|"
            r"would (?:really )?(?:like|love)) to (?P<v>(?!the\b|a\b|an\b|bed\b|work\b|school\b)\w.+)"),
    Pattern("goal", "wants_to", r"^{S}'s (?:goal|dream|plan|aim|resolution|ambition|hope) (?:for [\w ]+ )?is to "
            r"(?P<v>.+)"),
    Pattern("goal", "working_towards", r"^{S} is (?:working|saving|studying|training) (?:towards?|for) (?P<v>.+)"),
    Pattern("goal", "learning", r"^{S} (?:is learning|is teaching themself|is trying to learn|started learning|"
            r"has started learning|began learning|just started learning) (?P<v>.+)"),
    # -- event (a dated thing ahead)
    Pattern("event", "{what}", r"^{S}'s (?P<what>(?:[\w-]+ ){0,2}(?:" + _EVENTS + r"))(?: is|'s)(?: now| currently)?(?: on| at)? (?P<v>.+)"),
    # A start or an end with its date: "my new job starts on November 3rd", "my last day at the bank is
    # October 10th" (what one starts or ends is no event by itself: "my job is great" is none).
    Pattern("event", "{what}", r"^{S}'s (?P<what>(?:new |next )?(?:job|role|position|contract|lease|course|semester|"
            r"term|school year|internship|apprenticeship)) (?:starts|begins|ends|finishes) (?P<v>(?:on|in) .+)"),
    Pattern("event", "{what}", r"^{S}'s (?P<what>first day|last day)(?: at (?:the |{S}'s )?[\w'&-]+(?: [\w'&-]+){0,2})? "
            r"(?:is|will be) (?:on )?(?P<v>.+)"),
    Pattern("event", "{what}", r"^{S} (?:has|had|is having|has got) (?:an?|the|their|another|{S}'s) (?P<what>(?:[\w-]+ )"
            r"{0,2}(?:" + _EVENTS + r"))(?P<v> (?:on|at|in|next|this|tomorrow|tonight|later|coming|with).*)"),
    # -- preference
    Pattern("preference", "favourite_{cat}", r"^{S}'s (?:all[- ]time |new |current )?favou?rite (?P<cat>[\w-]+(?: [\w-]+)?) "
            r"(?:is|are) (?:now |currently |still |these days )?(?P<v>.+)"),
    Pattern("preference", "dislikes", r"^{S} " + _ADV + r"(?:does not|doesn't) " + _ADV + r"(?:like|enjoy|love|care for) "
            r"(?P<v>.+)", negated=True),
    Pattern("preference", "avoids", r"^{S} " + _ADV + r"(?:does not|never) " + _ADV + r"(?:eat|drink) (?P<v>.+)", negated=True),
    Pattern("preference", "dislikes", r"^{S} " + _ADV + r"(?:hates|dislikes|detests|loathes|cannot stand|"
            r"can't stand|is not a fan of|is not into|is sick of|is tired of) (?P<v>.+)"),
    Pattern("preference", "likes", r"^{S} " + _ADV + r"(?:loves|likes|enjoys|adores|is into|is obsessed with|"
            r"is (?:a )?(?:big |huge )?fan of|is passionate about|is crazy about|is addicted to|is (?:really )?drawn to|prefers|"
            r"is (?:really )?(?:into|keen on)) (?P<v>.+?)"
            # "prefers Redbreast to Jameson", "likes Virat more than Sachin": the one liked, not the other
            r"(?: (?:to|over|more than|rather than|instead of) (?!do\b|go\b|be\b|have\b|get\b).*)?$"),
    Pattern("preference", "likes", r"^{S} (?:plays|watches|listens to|reads|collects|goes) (?P<v>.+) "
            r"(?:every|each|most|on) (?:day|week|weekend|morning|evening|night|sunday|saturday|summer|winter)",
            certainty="implied"),
)
# fmt: on

#: Turns in a life, complete in two words ("Tom and I got engaged", "Dana retired"): experiences that
#: need no object, so the experience's least length does not apply to them.
LIFE_EVENT: Final = (
    r"got (?:engaged|married|divorced|promoted|hired|fired|laid off)|separated|divorced|split up|broke up|"
    r"retired|graduated|proposed|eloped|had a baby|gave birth|"
    # a habit ended: "quit smoking", "stopped drinking", "gave up vaping"
    r"quit \w+ing|stopped \w+ing|gave up \w+ing"
)
#: A value that is a turn in a life and nothing more.
LIFE_EVENT_ALONE: Final = re.compile(f"(?:{LIFE_EVENT})", re.IGNORECASE)
#: Experience: anything else the subject did or has been doing, told in the past or the perfect.
EXPERIENCE: Final = re.compile(
    r"^{S}(?: and (?:others|\w+|{S}'s \w+))? "
    + _ADV
    + r"(?P<verb>(?:has (?:been (?!married)\w+ing|(?!got\b|been\b)\w+(?:ed|en|t)\b)|did|went|made|took|"
    r"came|saw|met|ran|won|lost|bought|built|wrote|read|tried|visited|finished|started|joined|adopted|"
    r"attended|traveled|travelled|moved|learned|learnt|graduated|completed|painted|cooked|baked|hiked|"
    r"volunteered|signed up|gave|found|left|quit|began|spent|flew|drove|watched|played|received|"
    r"celebrated|organized|organised|hosted|launched|published|created|designed|opened|picked up|"
    r"took up|taught|studied|passed|failed|broke|fixed|ate|cooked|danced|sang|performed|competed|"
    r"raised|donated|planted|grew|climbed|swam|camped|explored|discovered|applied|got into|was \w+ed|"
    + LIFE_EVENT
    + r")\b)"
    r"(?P<v>.*)"
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
