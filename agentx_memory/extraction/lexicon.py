"""The parse reader's lexicon: predicate frames and the slots they fill, as data.

A frame is a predicate lemma with the way it takes its value (a preposition's object, a direct object,
a predicate noun or adjective) and the slot it fills. ``change`` frames say a value *became* true
("moved to", "joined", "went vegan"), so their past tense is the present state; ``state`` frames in the
past tense are history ("I lived in Lyon"), not the present. A new phrasing of a known slot is a new row
here, not new code. Read by :mod:`.frames`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from .patterns import OCCUPATIONS, RELATIONS

__all__ = [
    "ABSTAINING",
    "ABSTRACTIONS",
    "ANY_APPOINTMENT",
    "APPOINTMENTS",
    "BUSINESSES",
    "DEATHS",
    "DIETS",
    "DWELLINGS",
    "ENDING_VERBS",
    "FIELDS",
    "FRAMES",
    "FREE_OF",
    "JUDGING",
    "LESSONS",
    "MEATS",
    "NOT_JOBS",
    "NOT_PASTIMES",
    "OCCUPATIONS",
    "PARTNER_NOUNS",
    "PASTIME_GROUPS",
    "PET_KIND",
    "PET_KINDS",
    "PET_NOUNS",
    "PLAN_DIETS",
    "REGIMES",
    "RELATION_NOUNS",
    "ROLES",
    "SAME_PAST",
    "SCHOOLS",
    "SLOTS",
    "SLOT_OF_THING",
    "UNITS",
    "VEHICLE_MAKES",
    "VEHICLE_MODELS",
    "VEHICLE_NOUNS",
    "WISH_HEADS",
    "Frame",
    "Slot",
]

Via = Literal["prep", "dobj", "attr", "xcomp"]


@dataclass(frozen=True)
class Slot:
    """A typed slot: its fact kind, key and how its statement reads (``{S}`` subject, ``{V}`` value)."""

    kind: str
    key: str
    template: str
    #: How its negation reads ("I'm not vegetarian anymore").
    negative: str


SLOTS: Final = {
    "residence": Slot("identity", "lives_in", "{S} lives in {V}", "{S} does not live in {V}"),
    "employer": Slot("identity", "works_at", "{S} works at {V}", "{S} does not work at {V}"),
    "occupation": Slot("identity", "works_as", "{S} works as {V}", "{S} does not work as {V}"),
    "diet": Slot("constraint", "diet", "{S} is {V}", "{S} is not {V}"),
    "partner": Slot("relationship", "partner", "{S}'s partner is {V}", "{S}'s partner is not {V}"),
    "vehicle": Slot("identity", "drives", "{S} drives {V}", "{S} does not drive {V}"),
    # many at once: a new one adds to the others; an ending ("gave up chess") ends the one it names
    "hobby": Slot("preference", "hobby", "{S} has taken up {V}", "{S} is not into {V}"),
}


@dataclass(frozen=True)
class Frame:
    """``lemma`` takes its value ``via`` a preposition in ``preps`` (or a direct object, or a predicate
    noun/adjective) and fills ``slot``; ``change`` frames tell a value that became true."""

    lemma: str
    via: Via
    slot: str
    change: bool = False
    preps: tuple[str, ...] = ()
    #: The direct object that must stand between the verb and the preposition ("got a job at").
    through: tuple[str, ...] = ()
    #: The particle a phrasal verb needs ("took up pottery"; "took the bus" is another verb).
    particle: str | None = None


_JOB: Final = ("job", "position", "role", "post", "offer", "gig", "place", "internship")
#: Work one does somewhere: "I do admin at the NHS trust", "doing nights at the Royal Free".
_WORK_DONE: Final = (
    "admin", "accounts", "account", "bookkeeping", "payroll", "hr", "it", "reception", "marketing", "sales",
    "support",
    "nights", "shifts", "night", "shift", "lates", "earlies", "overtime", "cleaning", "security",
    "deliveries", "recruitment", "research", "consulting", "compliance", "procurement", "finance",
)  # fmt: skip

FRAMES: Final = (
    # residence
    Frame("live", "prep", "residence", preps=("in",)),
    Frame("stay", "prep", "residence", preps=("in",)),  # Indian English "I stay in Pune" (present only)
    Frame("reside", "prep", "residence", preps=("in",)),
    Frame("rent", "prep", "residence", preps=("in",)),  # "I'm renting in Brooklyn now"
    Frame("base", "prep", "residence", preps=("in", "out")),
    Frame("settle", "prep", "residence", change=True, preps=("in", "into")),
    Frame("move", "prep", "residence", change=True, preps=("to", "into")),
    # "moved in with my girlfriend in Bath": the town hangs on whom one moved in with (the reader checks)
    Frame("move", "prep", "residence", change=True, preps=("in",), particle="in"),
    Frame("relocate", "prep", "residence", change=True, preps=("to",)),
    Frame("shift", "prep", "residence", change=True, preps=("to",)),  # Indian English: "shifted to Pune"
    Frame("emigrate", "prep", "residence", change=True, preps=("to",)),
    Frame("decamp", "prep", "residence", change=True, preps=("to",)),
    Frame("up", "prep", "residence", change=True, preps=("to",)),  # "we upped sticks to Whitstable"
    Frame("call", "dobj", "residence"),  # "I call Leeds home" (the reader checks for "home")
    Frame("be", "attr", "residence"),  # "home is Glasgow these days" (the subject must be "home")
    Frame(
        "be", "prep", "residence", preps=("in",)
    ),  # "I'm in Bristol, near the harbourside" (a city, to stay)
    # employer
    Frame("work", "prep", "employer", preps=("at", "for")),
    Frame("work", "prep", "employer", preps=("in",)),  # "working in TCS Chennai" (an organisation only)
    Frame("join", "dobj", "employer", change=True),
    Frame("start", "prep", "employer", change=True, preps=("at", "with")),
    Frame("employ", "prep", "employer", preps=("by",)),
    Frame("hire", "prep", "employer", change=True, preps=("by",)),
    # "got hired as a paralegal", "was appointed as head of year", "taken on as an apprentice"
    *(
        Frame(lemma, "prep", "occupation", change=True, preps=("as",))
        for lemma in ("hire", "appoint", "employ")
    ),
    Frame(
        "make", "dobj", "occupation", change=True
    ),  # "I was made a partner" (passive only: the reader checks)
    Frame("get", "prep", "employer", change=True, preps=("at", "with"), through=_JOB),
    Frame("take", "prep", "employer", change=True, preps=("at", "with"), through=_JOB),
    Frame("land", "prep", "employer", change=True, preps=("at", "with"), through=_JOB),
    Frame("accept", "prep", "employer", change=True, preps=("at", "with", "from"), through=_JOB),
    Frame("switch", "prep", "employer", change=True, preps=("to",)),
    # "moved to Deloitte", "transferred to the Leeds office of KPMG": to an organisation, not a place
    Frame("move", "prep", "employer", change=True, preps=("to",)),
    Frame("transfer", "prep", "employer", change=True, preps=("to",)),
    Frame("be", "prep", "employer", preps=("at", "with")),  # "I'm at Google now" (with "now")
    Frame("do", "prep", "employer", preps=("for",)),  # "I do IT support for Deutsche Bahn"
    # "I do admin at the NHS trust", "doing nights at Tesco": work done somewhere is work there
    Frame("do", "prep", "employer", preps=("at",), through=_WORK_DONE),
    # occupation
    Frame("work", "prep", "occupation", preps=("as",)),
    Frame("work", "prep", "occupation", preps=("in",)),  # "I work in marketing" (a field only: frame_fits)
    Frame("retrain", "prep", "occupation", change=True, preps=("as",)),
    Frame("train", "prep", "occupation", change=True, preps=("as",)),
    Frame("requalify", "prep", "occupation", change=True, preps=("as",)),
    Frame("qualify", "prep", "occupation", change=True, preps=("as",)),
    Frame("start", "prep", "occupation", change=True, preps=("as",)),
    Frame("become", "attr", "occupation", change=True),
    # "promoted to head of sales", "freelancing as a copywriter", "temping as a receptionist"
    Frame("promote", "prep", "occupation", change=True, preps=("to",)),
    Frame("freelance", "prep", "occupation", preps=("as",)),
    *(Frame(lemma, "prep", "occupation", preps=("as",)) for lemma in ("practise", "practice", "contract")),
    Frame("temp", "prep", "occupation", preps=("as",)),
    Frame("moonlight", "prep", "occupation", preps=("as",)),
    Frame("serve", "prep", "occupation", preps=("as",)),
    Frame("teach", "dobj", "occupation"),  # "I teach biology", "teaching maths these days": a teacher
    # "running a dog-grooming business from home now", "I own a café": the owner of a business
    *(Frame(lemma, "dobj", "occupation") for lemma in ("run", "own")),
    *(Frame(lemma, "dobj", "occupation", change=True) for lemma in ("open", "launch", "found")),
    Frame("start", "dobj", "occupation", change=True),
    Frame("set", "dobj", "occupation", change=True, particle="up"),
    Frame("be", "attr", "occupation"),
    # diet
    Frame("be", "attr", "diet"),
    Frame("go", "attr", "diet", change=True),
    Frame("go", "dobj", "diet", change=True),  # "went vegan" (parsed as an object)
    Frame("turn", "attr", "diet", change=True),
    Frame("become", "attr", "diet", change=True),
    Frame("switch", "prep", "diet", change=True, preps=("to",)),
    Frame("do", "dobj", "diet"),  # "I'm doing keto"
    Frame("eat", "attr", "diet"),  # "I eat vegan now"
    Frame("eat", "dobj", "diet"),
    # giving a food up is a diet free of it: "I've cut out dairy", "gave up gluten", "I avoid lactose"
    Frame("cut", "dobj", "diet", change=True, particle="out"),
    Frame("give", "dobj", "diet", change=True, particle="up"),
    Frame("avoid", "dobj", "diet"),
    Frame("be", "prep", "diet", preps=("off",)),  # "I'm off dairy for good now": dairy-free
    Frame("quit", "dobj", "diet", change=True),
    Frame("stop", "dobj", "diet", change=True),  # "stopped eating meat" (the food: frame_values)
    # partner
    Frame("date", "dobj", "partner"),
    Frame("see", "dobj", "partner"),  # only in the progressive: "I'm seeing Tom"
    # "got married to Ines in August", "I married Tom": a marriage said in the past holds now
    Frame("marry", "prep", "partner", change=True, preps=("to",)),
    Frame("marry", "dobj", "partner", change=True),
    Frame("engage", "prep", "partner", change=True, preps=("to",)),
    Frame("hitch", "prep", "partner", change=True, preps=("to",)),  # "got hitched to Ravi"
    Frame("be", "prep", "partner", preps=("with",)),  # "I'm with Nadia now" (a person, with "now")
    Frame("buy", "dobj", "residence", change=True),  # "bought a place in Margate" (a dwelling in a place)
    Frame("get", "dobj", "residence", change=True),
    Frame("rent", "dobj", "residence", change=True),
    Frame("find", "dobj", "residence", change=True),
    # vehicle
    Frame("drive", "dobj", "vehicle"),
    Frame("ride", "dobj", "vehicle"),  # "I ride a 2009 Yamaha MT-03 to uni"
    Frame("buy", "dobj", "vehicle", change=True),
    Frame("get", "dobj", "vehicle", change=True),
    Frame("trade", "prep", "vehicle", change=True, preps=("for",)),
    Frame("swap", "prep", "vehicle", change=True, preps=("for",)),
    Frame("lease", "dobj", "vehicle", change=True),
    Frame("take", "prep", "vehicle", change=True, preps=("of",), through=("delivery",)),
    # hobby: "took up archery", "I've been getting into birdwatching", "I'm really into climbing",
    # "started bouldering"
    Frame("take", "dobj", "hobby", change=True, particle="up"),
    Frame("pick", "dobj", "hobby", change=True, particle="up"),  # "picked up knitting again" (a doing only)
    Frame("get", "prep", "hobby", change=True, preps=("into",)),
    Frame("be", "prep", "hobby", preps=("into",)),
    Frame("start", "xcomp", "hobby", change=True),
    Frame("do", "dobj", "hobby"),  # "I do yoga most mornings" (an activity said bare, no "the", no "my")
    Frame("begin", "xcomp", "hobby", change=True),
    Frame("join", "dobj", "hobby", change=True),  # "joined a bouldering gym", "joined the choir"
    Frame("start", "dobj", "hobby", change=True),  # "started pottery classes" (lessons only: frame_values)
    Frame("go", "xcomp", "hobby"),  # "I go climbing every weekend" (a habit: frame_values._fits)
    Frame("take", "dobj", "hobby"),  # "I've been taking salsa lessons" (lessons only: frame_values)
)
#: Fields of work, said as what one works in: "switched from accounting to data science", "moved into
#: project management".
FIELDS: Final = frozenset(
    ["design", "science", "management", "development", "engineering", "marketing", "sales", "retail",
     "finance", "law", "medicine", "nursing", "teaching", "accounting", "accountancy", "consulting",
     "hospitality", "journalism", "tech", "hr", "admin", "education", "healthcare", "banking",
     "insurance", "logistics", "construction", "recruitment", "publishing", "advertising", "research",
     "analytics", "cybersecurity", "security", "policing", "social work", "care", "catering", "fintech"]
)  # fmt: skip
#: What one takes or does of a pastime: "taking salsa lessons", "doing pottery classes".
LESSONS: Final = frozenset(["lesson", "class", "classes", "workshop"])
#: What one joins for a pastime: "joined a running club", "joined the choir".
PASTIME_GROUPS: Final = frozenset(
    ["club", "gym", "class", "classes", "team", "league", "choir", "band", "society", "orchestra", "crew",
     "squad", "group"]
)  # fmt: skip

#: Nouns for what one is at a place that are no job: "I'm a member at PureGym".
NOT_JOBS: Final = frozenset(
    ["member", "customer", "client", "patient", "regular", "guest", "fan", "subscriber", "passenger",
     "user", "resident", "tenant", "visitor", "supporter", "donor", "follower", "shopper", "season"]
)  # fmt: skip
#: What one takes up or gets into that is no pastime: "took up the offer", "got into an argument".
NOT_PASTIMES: Final = frozenset(
    ["offer", "challenge", "space", "time", "room", "job", "position", "post", "role", "case", "issue",
     "matter", "invitation", "cause", "argument", "fight", "trouble", "debt", "habit", "car", "taxi",
     "uni", "university", "college", "school", "program", "programme", "course", "bed", "shape", "mess",
     "detail", "it", "that", "this", "work", "working", "crying", "laughing", "thinking", "feeling",
     "wondering", "worrying", "panicking", "looking", "getting", "going", "trying", "packing", "moving",
     "cry", "laugh", "think", "feel", "wonder", "worry", "panic", "look", "get", "go", "try", "pack",
     "move", "rain", "snow", "sweat", "shake", "freak", "stress", "lose", "make", "wait", "search", "apply",
     "plan", "save", "talk", "text", "call", "date", "see", "use", "notice", "realise", "realize",
     "morning", "afternoon", "evening", "night", "day", "week", "weekend", "month", "year", "eat", "eating",
     "drink", "drinking", "smoke", "smoking", "sleep", "sleeping", "research", "homework", "laundry",
     "chores", "paperwork", "admin", "taxes", "shopping", "dishes", "spot", "situation", "row", "routine"]
)  # fmt: skip

#: Diets of which one holds at a time (a later one replaces an earlier: "went vegan" after "I'm
#: vegetarian"); the others in :data:`DIETS` add to them ("gluten-free" and vegetarian).
REGIMES: Final = frozenset(
    [
        "vegan",
        "vegetarian",
        "veggie",
        "pescatarian",
        "pescetarian",
        "plant-based",
        "carnivore",
        "flexitarian",
        "omnivore",
        "meat-eater",
        # eating plans: one at a time too ("took me off keto and put me on a Mediterranean diet")
        "keto",
        "paleo",
        "mediterranean",
        "dash",
        "atkins",
        "whole30",
        "low-carb",
    ]
)
#: Diets named as a plan one is on ("a Mediterranean diet", "the DASH diet"), not as a kind of eater:
#: said only with "diet" ("a Mediterranean cruise" is none), stated as "is on a … diet".
PLAN_DIETS: Final = frozenset(["mediterranean", "dash", "atkins", "whole30", "low-carb"])
DIETS: Final = frozenset(
    [
        "vegan",
        "vegetarian",
        "veggie",
        "meat-free",
        "pescatarian",
        "pescetarian",
        "plant-based",
        "keto",
        "paleo",
        "gluten-free",
        "dairy-free",
        "lactose-free",
        "halal",
        "kosher",
        "carnivore",
        "flexitarian",
        "raw",
        "omnivore",
    ]
)

#: Meats whose eating is a diet with meat in it ("I eat a lot of red meat", "a meat and potatoes guy").
MEATS: Final = frozenset(
    ["meat", "steak", "beef", "lamb", "pork", "bacon", "burger", "sausage", "mince", "venison", "chicken",
     "brisket", "ribs", "rib", "veal", "mutton", "ham", "salami", "chorizo", "turkey", "duck"]
)  # fmt: skip
#: Foods whose giving up is a named diet ("cut out dairy": dairy-free).
FREE_OF: Final = {
    "dairy": "dairy-free",
    "gluten": "gluten-free",
    "lactose": "lactose-free",
    "wheat": "wheat-free",
    "sugar": "sugar-free",
    "meat": "vegetarian",  # "cut out meat completely": no meat is a vegetarian diet
}
#: The verbs of giving a food up.
ABSTAINING: Final = frozenset(["cut", "give", "avoid", "quit"])

#: Makers of cars and motorbikes: "bought a Tesla", "a Honda CB500" name a vehicle by its maker.
VEHICLE_MAKES: Final = frozenset(
    ["tesla", "toyota", "honda", "ford", "bmw", "audi", "volkswagen", "vw", "kia", "hyundai", "nissan",
     "mazda", "subaru", "volvo", "skoda", "renault", "peugeot", "fiat", "mini", "jeep", "chevy",
     "chevrolet", "mercedes", "porsche", "lexus", "jaguar", "vauxhall", "citroen", "citroën", "dacia",
     "seat", "cupra", "suzuki", "mitsubishi", "polestar", "rivian", "triumph", "ducati", "harley",
     "yamaha", "kawasaki", "vespa", "alfa", "lotus", "saab", "dodge", "ram", "gmc", "buick", "cadillac",
     "lincoln", "chrysler", "acura", "infiniti", "genesis", "byd", "mg", "smart", "lamborghini", "ferrari",
     "maserati", "bentley", "rover", "landrover", "ktm", "aprilia"]
)  # fmt: skip

#: Models that name a vehicle without their maker ("bought a secondhand Yaris", "from the Clio to a
#: Kuga"): read as a maker is, capitalised. Models that are also common words ("Focus", "Jazz",
#: "Discovery", "Swift", "Leaf") are left out: alone they name nothing for certain.
VEHICLE_MODELS: Final = frozenset(
    ["corolla", "camry", "yaris", "prius", "rav4", "civic", "cr-v", "hr-v", "fiesta", "kuga", "mondeo",
     "f-150", "golf", "passat", "tiguan", "t-roc", "clio", "megane", "captur", "twingo", "corsa", "astra",
     "mokka", "octavia", "fabia", "kodiaq", "karoq", "qashqai", "micra", "x-trail", "outback", "forester",
     "impreza", "crosstrek", "wrangler", "cherokee", "renegade", "cx-5", "cx-30", "mx-5", "miata",
     "ioniq", "kona", "tucson", "sportage", "niro", "picanto", "xc40", "xc60", "xc90", "sandero",
     "duster", "vitara", "jimny", "outlander", "ibiza", "arona", "ateca", "taycan", "cayenne", "macan",
     "silverado", "tacoma", "tundra", "highlander", "sierra", "bonneville", "ev6", "aygo", "c-hr",
     "rav-4", "zafira", "insignia", "berlingo", "kangoo", "transit", "sprinter", "vivaro", "hilux",
     "navara", "amarok", "defender", "evoque", "juke", "ceed", "stonic", "countryman", "enyaq", "elroq"]
)  # fmt: skip

VEHICLE_NOUNS: Final = frozenset(
    [
        "car",
        "truck",
        "van",
        "pickup",
        "suv",
        "motorbike",
        "motorcycle",
        "scooter",
        "moped",
        "hatchback",
        "sedan",
        "estate",
        "convertible",
        "ev",
        "camper",
        "campervan",
        "minivan",
        "jeep",
        "coupe",
        "wagon",
        "ute",  # Australian: "my new ute is a Ranger"
        "crossover",
        "roadster",
        "4x4",
    ]
)

#: Where one lives inside a place: "moved into a flat in Leith" is a home in Leith.
DWELLINGS: Final = frozenset(
    ["house", "flat", "apartment", "place", "room", "condo", "studio", "bungalow", "cottage", "townhouse"]
)
#: Parts of an employer one joins: "joined the data team at Spotify" is a job at Spotify.
UNITS: Final = frozenset(
    ["team", "department", "group", "division", "lab", "office", "unit", "squad", "branch"]
)
#: Places one studies at, not employers: "started at Leeds uni".
SCHOOLS: Final = frozenset(
    ["uni", "university", "school", "college", "course", "academy", "class", "program"]
)

PARTNER_NOUNS: Final = frozenset(
    [
        "husband",
        "wife",
        "partner",
        "spouse",
        "girlfriend",
        "boyfriend",
        "fiancé",
        "fiancée",
        "fiance",
        "fiancee",
    ]
)

PET_NOUNS: Final = frozenset(
    ["dog", "cat", "puppy", "kitten", "pet", "parrot", "rabbit", "horse", "hamster", "bunny", "tortoise"]
)

#: Relations a possessive names ("my husband Arjun", "my coworker"): one person who is not the speaker
#: (a collective, "my family, Caroline", names no relation of one person).
RELATION_NOUNS: Final = frozenset(
    {*RELATIONS.split("|"), "colleague", "workmate", "housemate", "landlord", "ex", "stepbrother"}
    | {"stepsister", "godson", "goddaughter", "in-law"}
    # more of the people one's own: "my auntie", "my bestie", "our landlady", "the twins", "my supervisor"
    | {"stepmum", "auntie", "aunty", "bestie", "landlady", "twin", "parent", "sibling", "supervisor"}
    | {"grandkid", "grandchild", "flatmate", "roommate"}
)

#: Verbs whose past is their base form: "quit chess completely" opens a clause with its past.
SAME_PAST: Final = frozenset(["quit", "split", "cut", "put", "set", "let", "shut", "hit", "read", "spread"])

#: Heads under which a clause is a wish, a plan or a thought, not a fact: "I want to move to Berlin".
WISH_HEADS: Final = frozenset(
    [
        "want",
        "hope",
        "plan",
        "consider",
        "think",
        "wish",
        "dream",
        "love",
        "like",
        "prefer",
        "need",
        "try",
        "intend",
        "aim",
        "wonder",
        "decide",
        "imagine",
        "use",  # "I used to live in Lyon": history
        "imagine",
        "expect",
        "mean",
        "tell",
        "say",
        "suggest",
        "ask",
        "go",  # "I'm going to move": a plan
    ]
)

#: Verbs that end something, with the particle they need ("give up", "drop out", "break up").
ENDING_VERBS: Final[dict[str, frozenset[str]]] = {
    "quit": frozenset(),
    "leave": frozenset(),
    "sell": frozenset(),
    "stop": frozenset(),
    "give": frozenset(["up"]),
    # a job ends without an object: "I retired", "I was laid off", "I got fired", "made redundant"
    "retire": frozenset(),
    "lay": frozenset(["off"]),
    "fire": frozenset(),
    "sack": frozenset(),
    "drop": frozenset(["out"]),
    "split": frozenset(),
    "break": frozenset(["up"]),
    "divorce": frozenset(),
    "separate": frozenset(),
    "part": frozenset(),  # "Hana and I parted on good terms", "parted ways"
    "end": frozenset(),
    "resign": frozenset(),
    # a role given up: "stepped down as chair of the council", "stood down as treasurer"
    "step": frozenset(["down"]),
    "stand": frozenset(["down"]),
    "ditch": frozenset(),
    "cancel": frozenset(),
    "scrap": frozenset(),
    "go": frozenset(["off"]),  # "I've gone off Catan": liking it ended
    "pack": frozenset(["in"]),  # "packed in the five-a-side"
    "flog": frozenset(),  # "finally flogged the Peugeot": sold, in British chat
    "offload": frozenset(),
    "walk": frozenset(["away"]),  # "walked away from accountancy"
}

#: The key of an appointment moved without saying which ("they've preponed it to 20th June", "the PSK
#: moved my appointment to Tuesday"): the speaker's one appointment to come (:mod:`.dedup`), whose key
#: the writer then files it under (:func:`.frame_appointments.as_appointment`).
ANY_APPOINTMENT: Final = "appointment_"

#: What a thing an ending names stands for: quitting "my job" ends the employer and the occupation.
SLOT_OF_THING: Final[dict[str, tuple[str, ...]]] = {
    "job": ("works_at", "works_as"),
    "work": ("works_at", "works_as"),
    "position": ("works_at", "works_as"),
    "role": ("works_at", "works_as"),
    "post": ("works_at", "works_as"),
    "career": ("works_as",),
    "car": ("drives",),
    "vehicle": ("drives",),
    "relationship": tuple(sorted(PARTNER_NOUNS)),
    **{partner: tuple(sorted(PARTNER_NOUNS)) for partner in PARTNER_NOUNS},
}

#: What one runs or owns as one's work: "running a dog-grooming business", "opened a bakery".
BUSINESSES: Final = frozenset(
    ["business", "company", "firm", "shop", "store", "café", "cafe", "bakery", "restaurant", "salon",
     "studio", "agency", "practice", "startup", "start-up", "consultancy", "pub", "bar", "clinic",
     "nursery", "brewery", "boutique", "gallery", "garage", "farm", "bistro", "deli", "barbershop"]
)  # fmt: skip

#: Things one has an appointment for: "the dentist on Tuesday", "my haircut is booked for the 8th".
APPOINTMENTS: Final = frozenset(
    [
        # specialists and checks booked like a dentist: "optician on the 9th", "MRI next Tuesday"
        "optician",
        "optometrist",
        "dermatologist",
        "orthodontist",
        "chiropractor",
        "osteopath",
        "podiatrist",
        "hygienist",
        "mri",
        "mammogram",
        "colonoscopy",
        "x-ray",
        "smear",
        "mot",
        "counselling",
        "counseling",
        "appointment",
        "dentist",
        "doctor",
        "gp",
        "physio",
        "physiotherapy",
        "haircut",
        "checkup",
        "check-up",
        "interview",
        "exam",
        "test",
        "surgery",
        "operation",
        "scan",
        "consultation",
        "viewing",
        "hearing",
        "audition",
        "therapy",
        "vet",
        "meeting",
        "ultrasound",
        "jab",
        "vaccination",
    ]
)

#: A pet word as the kind of animal it is: "my kitten Luna" is the speaker's cat.
PET_KIND: Final = {
    **{name: name for name in ("dog", "cat", "parrot", "rabbit", "horse", "hamster", "tortoise", "turtle")},
    **{name: "cat" for name in ("kitten", "kitty", "tabby")},
    **{name: "dog" for name in ("puppy", "pup", "beagle", "greyhound", "labrador", "terrier", "poodle")},
    **{name: "dog" for name in ("collie", "spaniel", "corgi", "husky", "dachshund", "retriever", "lab")},
    **{name: "rabbit" for name in ("bunny",)},
    **{name: "bird" for name in ("budgie", "bird", "cockatiel")},
    **{name: "dog" for name in ("lurcher", "pug", "cockapoo", "labradoodle", "whippet", "mutt")},
    **{name: "dog" for name in ("rottweiler", "alsatian", "collie", "beagle", "boxer")},
    **{name: "dog" for name in ("dalmatian", "schnauzer", "chihuahua", "sheepdog", "shepherd", "staffie")},
    **{name: "cat" for name in ("moggy", "siamese", "ragdoll", "persian")},
    **{name: name for name in ("ferret", "goldfish", "fish", "gecko", "lizard", "snake", "chinchilla")},
    **{name: name for name in ("pony", "donkey", "alpaca", "chicken", "hen", "duck", "goat", "pig")},
    **{name: "guinea pig" for name in ("cavy",)},
    **{name: "dragon" for name in ("dragon",)},  # a bearded dragon
    **{name: "dog" for name in ("cavapoo", "westie", "bulldog", "frenchie", "kelpie", "mongrel", "doggo")},
    **{name: "dog" for name in ("pomeranian", "maltese", "shih", "jack", "springer", "doberman", "akita")},
    **{name: "cat" for name in ("moggie", "tortie", "tomcat", "bengal", "sphynx")},
    **{
        name: "bird"
        for name in ("parakeet", "cockatoo", "macaw", "canary", "budgerigar", "lovebird", "conure")
    },
    **{name: name for name in ("rat", "mouse", "gerbil", "hedgehog", "axolotl", "iguana", "tarantula")},
}

#: The keys of the speaker's pets: the kinds, and "pet" for a pet of no kind said.
PET_KINDS: Final = frozenset([*PET_KIND.values(), "pet"])

#: Verbs that say a pet or a person died: "Tiger passed away", "we lost Bruno", "had to put Rex down".
DEATHS: Final = frozenset(["die", "pass", "lose", "put", "rehome"])

#: Roles one person holds for the speaker at a time: "my new roommate is Inès", "my editor is Jonas now"
#: replace the one before (a new friend or sister replaces no one).
ROLES: Final = frozenset(
    ["roommate", "flatmate", "housemate", "editor", "boss", "manager", "landlord", "landlady", "therapist",
     "doctor", "dentist", "coach", "mentor", "tutor", "agent", "lawyer", "accountant", "trainer", "gp",
     "supervisor", "advisor", "physio", "hairdresser", "barber", "nanny", "babysitter", "cleaner"]
)  # fmt: skip

#: Nouns that name no thing a memory could be about: a statement whose only nouns are these says
#: nothing lasting ("keep going and reach my dreams no matter what", "savor all the good vibes").
ABSTRACTIONS: Final = frozenset(
    ["dream", "goal", "success", "progress", "vibe", "journey", "way", "time", "life", "hope", "future",
     "effort",
     "motivation", "mind", "heart", "feeling", "mood", "moment", "day", "matter", "one", "strength",
     "confidence", "energy", "support", "love", "fun", "luck", "chance", "opportunity", "thing", "stuff",
     "something", "anything", "everything", "nothing", "best", "lot", "bit", "courage", "happiness", "joy",
     "peace", "positivity", "pride", "growth", "push", "boost", "step", "point", "deal", "sense", "reminder",
     "feel", "emotion", "blessing", "inspiration", "spirit", "attitude", "outlook", "perspective",
     "others", "folks", "guys", "kind", "sort", "challenge", "vision", "path", "self", "ton", "tons", "hunt",
     "few", "couple", "bunch", "idea", "option", "decision"]
)  # fmt: skip

#: Words that judge a role rather than name a job: "a natural teacher", "a useless cook".
JUDGING: Final = frozenset(
    ["such", "inspiring", "amazing", "great", "good", "talented", "awesome", "incredible", "fantastic",
     "brilliant", "terrible", "bad", "wonderful", "excellent", "natural", "born", "true", "real", "big",
     "huge", "total", "complete", "better", "best", "worst", "decent", "lousy", "gifted", "fabulous",
     "useless", "hopeless", "rubbish", "awful", "crap", "poor", "shocking", "horrible", "proper", "okay",
     "skilled", "skillful", "skilful", "expert"]
)  # fmt: skip
