"""The word tables of coreference (docs/papers.md#hosts-fizz-and-fenice): the pronouns
that are resolved with their features, the entity labels and titles an antecedent is
read from, the nouns that name people, and the words that make an "it" empty. Data
only; the rules that read them are :mod:`halluscope.acu.coref_rules`' (and
:mod:`halluscope.acu.coref`'s, for the pronouns)."""

from __future__ import annotations

#: Third-person pronouns that are resolved: pronoun -> (gender, number, possessive).
#: gender: "m", "f", "n" (it) or None (they); number "sg" / "pl". ``her`` is
#: possessive only when tagged ``PRP$``.
PRONOUNS: dict[str, tuple[str | None, str, bool]] = {
    "he": ("m", "sg", False),
    "him": ("m", "sg", False),
    "his": ("m", "sg", True),
    "she": ("f", "sg", False),
    "her": ("f", "sg", False),
    "hers": ("f", "sg", True),
    "it": ("n", "sg", False),
    "its": ("n", "sg", True),
    "they": (None, "pl", False),
    "them": (None, "pl", False),
    "their": (None, "pl", True),
    "theirs": (None, "pl", True),
}

#: Entity labels an "it" can refer to.
IT_LABELS: frozenset[str] = frozenset(
    {
        "ORG",
        "GPE",
        "PRODUCT",
        "FAC",
        "LOC",
        "WORK_OF_ART",
        "EVENT",
        "LAW",
    }
)
#: Entity labels a "they" can refer to.
THEY_LABELS: frozenset[str] = frozenset({"ORG", "NORP", "GPE"})

TITLES: dict[str, str | None] = {
    "mr": "m",
    "mister": "m",
    "sir": "m",
    "lord": "m",
    "king": "m",
    "prince": "m",
    "mrs": "f",
    "ms": "f",
    "miss": "f",
    "madam": "f",
    "lady": "f",
    "dame": "f",
    "queen": "f",
    "princess": "f",
    "dr": None,
    "prof": None,
    "professor": None,
    "president": None,
    "senator": None,
    "sen": None,
    "gov": None,
    "governor": None,
    "gen": None,
    "general": None,
}

#: Common nouns that are people of known gender ("The man ... He ...").
MALE_NOUNS: frozenset[str] = frozenset(
    {
        "man",
        "boy",
        "father",
        "son",
        "brother",
        "husband",
        "king",
        "uncle",
        "grandfather",
        "gentleman",
        "actor",
        "nephew",
        "boyfriend",
        "dad",
        "prince",
        "businessman",
        "chairman",
        "spokesman",
        "sportsman",
        "policeman",
    }
)
FEMALE_NOUNS: frozenset[str] = frozenset(
    {
        "woman",
        "girl",
        "mother",
        "daughter",
        "sister",
        "wife",
        "queen",
        "aunt",
        "grandmother",
        "lady",
        "actress",
        "niece",
        "girlfriend",
        "mum",
        "mom",
        "princess",
        "businesswoman",
        "chairwoman",
        "spokeswoman",
        "sportswoman",
        "policewoman",
    }
)
#: People of unknown gender: never "it", not resolved by he/she either.
PERSON_NOUNS: frozenset[str] = frozenset(
    {
        "person",
        "official",
        "spokesperson",
        "player",
        "minister",
        "president",
        "leader",
        "teacher",
        "student",
        "doctor",
        "patient",
        "child",
        "victim",
        "suspect",
        "driver",
        "worker",
        "officer",
        "resident",
        "author",
        "chief",
        "executive",
        "director",
        "manager",
        "coach",
        "judge",
        "lawyer",
        "friend",
        "member",
        "fan",
        "user",
        "customer",
        "owner",
        "citizen",
        "scientist",
        "researcher",
        "journalist",
        "reporter",
        "candidate",
        "winner",
    }
)

#: Verbs of weather with an empty "it" ("it is raining").
WEATHER_VERBS: frozenset[str] = frozenset(
    {
        "rain",
        "snow",
        "hail",
        "drizzle",
        "pour",
        "thunder",
        "sleet",
        "storm",
        "freeze",
        "shower",
    }
)
#: Copular complements of an empty "it" ("it is sunny", "it was late").
WEATHER_TIME_WORDS: frozenset[str] = frozenset(
    {
        "sunny",
        "rainy",
        "cloudy",
        "windy",
        "foggy",
        "stormy",
        "snowy",
        "hot",
        "cold",
        "warm",
        "cool",
        "dark",
        "light",
        "late",
        "early",
        "noon",
        "midnight",
        "humid",
        "chilly",
        "freezing",
    }
)
#: Governors that take an extraposed clause with an empty "it" ("it seems that").
RAISING_VERBS: frozenset[str] = frozenset(
    {
        "be",
        "seem",
        "appear",
        "happen",
        "turn",
        "remain",
        "become",
        "matter",
        "look",
        "sound",
    }
)
