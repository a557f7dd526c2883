"""Word lists and unit tables of quantity extraction: currencies, scale and number
words (quantulum3's English lists), ordinals, bound and approximation phrases,
time units and the unit scale used to compare measures of one dimension."""

from __future__ import annotations

import re

from quantulum3._lang.en_US import regex as _QUANTULUM_WORDS

NUMERIC_LABELS = frozenset({"CARDINAL", "MONEY", "PERCENT", "QUANTITY", "DATE", "TIME", "ORDINAL"})


CURRENCY_SYMBOLS = {
    "US$": "USD",
    "A$": "AUD",
    "AU$": "AUD",
    "C$": "CAD",
    "CA$": "CAD",
    "HK$": "HKD",
    "NZ$": "NZD",
    "S$": "SGD",
    "R$": "BRL",
    "$": "USD",
    "£": "GBP",
    "€": "EUR",
    "¥": "JPY",
    "₹": "INR",
    "₩": "KRW",
    "₽": "RUB",
    "₺": "TRY",
}


CURRENCY_CODES = frozenset(
    {
        "USD",
        "GBP",
        "EUR",
        "JPY",
        "CNY",
        "INR",
        "AUD",
        "CAD",
        "CHF",
        "HKD",
        "SGD",
        "NZD",
        "RUB",
        "KRW",
        "BRL",
        "ZAR",
        "SEK",
        "NOK",
        "DKK",
        "MXN",
        "TRY",
    }
)


CURRENCY_WORDS = {
    "dollar": "USD",
    "dollars": "USD",
    "euro": "EUR",
    "euros": "EUR",
    "yen": "JPY",
    "yuan": "CNY",
    "renminbi": "CNY",
    "rupee": "INR",
    "rupees": "INR",
    "franc": "CHF",
    "francs": "CHF",
    "rouble": "RUB",
    "roubles": "RUB",
    "ruble": "RUB",
    "rubles": "RUB",
    "rand": "ZAR",
    "peso": "MXN",
    "pesos": "MXN",
    "sterling": "GBP",
    # currencies quantulum3's list lacks, written after the number in news ("950m kroner");
    # Danish and Norwegian kroner share one code here: the word cannot tell them apart
    "krone": "NOK",
    "kroner": "NOK",
    "krona": "SEK",
    "kronor": "SEK",
    "zloty": "PLN",
    "zlotys": "PLN",
    "forint": "HUF",
    "forints": "HUF",
    "lira": "TRY",
    "liras": "TRY",
    "shekel": "ILS",
    "shekels": "ILS",
    "dirham": "AED",
    "dirhams": "AED",
    "riyal": "SAR",
    "riyals": "SAR",
    "naira": "NGN",
    "ringgit": "MYR",
    "baht": "THB",
    "rupiah": "IDR",
    # "pound(s)" is also a unit of mass, "real"/"won" are English words: a currency
    # only inside a MONEY mention
}


SUBUNIT_WORDS = {"cent": ("USD", 0.01), "cents": ("USD", 0.01), "pence": ("GBP", 0.01), "p": ("GBP", 0.01)}


SCALE_WORDS = {
    "hundred": 1e2,
    "thousand": 1e3,
    "million": 1e6,
    "billion": 1e9,
    "trillion": 1e12,
    "k": 1e3,
    "mn": 1e6,
    "mln": 1e6,
    "bn": 1e9,
    "bln": 1e9,
    "b": 1e9,
    "tn": 1e12,
    "m": 1e6,  # only next to a currency: "100m" alone is metres
}


#: a number with a short scale word glued on, as one token: "12bn", "1.2bn", "750m", "10k"
SCALED_NUMBER = re.compile(
    r"\d[\d,]*(?:\.\d+)?(?:"
    + "|".join(sorted((w for w in SCALE_WORDS if w.isalpha() and len(w) <= 3), key=len, reverse=True))
    + r")",
    re.I,
)


# number words: quantulum3's own English lists (its language module only: importing
# it loads neither quantulum's parser nor inflect nor scikit-learn)
SMALL_NUMBERS = {
    **{word: i for i, word in enumerate(_QUANTULUM_WORDS.UNITS)},
    **{word: 10 * i for i, word in enumerate(_QUANTULUM_WORDS.TENS) if word},
    "dozen": 12,
}


#: a year as written, 1500-2099 ("2014"; not "747" or "2,014"), for dates and mentions
YEAR_DIGITS = r"1[5-9]\d\d|20\d\d"


ORDINAL_WORDS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
    "thirtieth": 30,
    "fortieth": 40,
    "fiftieth": 50,
    "sixtieth": 60,
    "seventieth": 70,
    "eightieth": 80,
    "ninetieth": 90,
    "hundredth": 100,
    "thousandth": 1000,
    "millionth": 1e6,
}


VAGUE_PLURALS = frozenset({"hundreds", "thousands", "millions", "billions", "dozens", "tens", "scores"})


# approximation / bound words (looked for inside the mention and just before it)
LOWER_BOUND = (
    "more than",
    "greater than",
    "over",
    "at least",
    "upwards of",
    "in excess of",
    "no fewer than",
    "no less than",
    "just over",
    "a minimum of",
)


UPPER_BOUND = (
    "less than",
    "fewer than",
    "under",
    "up to",
    "at most",
    "just under",
    "no more than",
    "below",
    "a maximum of",
    "as many as",
    "as much as",
)


APPROXIMATE = (
    "about",
    "around",
    "approximately",
    "roughly",
    "nearly",
    "almost",
    "some",
    "close to",
    "an estimated",
    "estimated",
    "circa",
    "c.",
    "approx",
    "approx.",
    "or so",
    "-odd",
    "just about",
)


MULTIPLY_VERBS = {"double": 100.0, "triple": 200.0, "treble": 200.0, "quadruple": 300.0, "halve": 50.0}


# time units: name -> seconds (durations are measures of dimension "time")
TIME_UNITS = {
    "second": 1.0,
    "minute": 60.0,
    "hour": 3600.0,
    "day": 86400.0,
    "week": 604800.0,
    "fortnight": 1209600.0,
    "month": 2629746.0,
    "year": 31556952.0,
    "decade": 315569520.0,
    "century": 3155695200.0,
}


_TIME_UNIT_FORMS = {
    **{u: u for u in TIME_UNITS},
    **{u + "s": u for u in TIME_UNITS},
    "centuries": "century",
    "secs": "second",
    "sec": "second",
    "mins": "minute",
    "min": "minute",
    "hrs": "hour",
    "hr": "hour",
    "yrs": "year",
    "yr": "year",
}


# quantulum unit name -> (dimension, factor to the SI-ish base of that dimension).
# Measures of one dimension compare through these factors; other units compare only
# with themselves (see match.quantities).
UNIT_SCALE = {
    **{name: ("time", s) for name, s in TIME_UNITS.items()},
    "millimetre": ("length", 1e-3),
    "centimetre": ("length", 1e-2),
    "metre": ("length", 1.0),
    "kilometre": ("length", 1e3),
    "inch": ("length", 0.0254),
    "foot": ("length", 0.3048),
    "yard": ("length", 0.9144),
    "mile": ("length", 1609.344),
    "nautical mile": ("length", 1852.0),
    "milligram": ("mass", 1e-6),
    "gram": ("mass", 1e-3),
    "kilogram": ("mass", 1.0),
    "tonne": ("mass", 1e3),
    "pound-mass": ("mass", 0.45359237),
    "ounce": ("mass", 0.028349523125),
    "stone": ("mass", 6.35029318),
    "short ton": ("mass", 907.18474),
    "long ton": ("mass", 1016.0469088),
    "millilitre": ("volume", 1e-6),
    "litre": ("volume", 1e-3),
    "cubic metre": ("volume", 1.0),
    "gallon": ("volume", 3.785411784),
    "pint": ("volume", 4.73176473e-4),
    "square metre": ("area", 1.0),
    "square kilometre": ("area", 1e6),
    "hectare": ("area", 1e4),
    "acre": ("area", 4046.8564224),
    "square mile": ("area", 2589988.110336),
    "square foot": ("area", 0.09290304),
    "metre per second": ("speed", 1.0),
    "kilometre per hour": ("speed", 1 / 3.6),
    "mile per hour": ("speed", 0.44704),
    "knot": ("speed", 1852 / 3600),
}


#: temperature scales: name -> (factor, offset) to degrees Celsius (an affine conversion,
#: not a factor: 80 °F is 26.7 °C, and never 80 °C)
TEMPERATURE_SCALES = {"celsius": (1.0, 0.0), "fahrenheit": (5.0 / 9.0, -160.0 / 9.0), "kelvin": (1.0, -273.15)}


#: a temperature scale's capital letter glued to its number, as British news writes it
#: ("30C", "-3C", "86F"; not "K", which is thousands: "£300K"), in any pattern's case mode
GLUED_SCALE = r"(?-i:[CF])"


#: a temperature's unit after its number: "°F", " °C", "º C", " degrees Celsius", "K" only
#: after "°", or a glued scale letter (:data:`GLUED_SCALE`)
TEMPERATURE_PATTERN = (
    r"(?:\s?(?:(?:°|º|˚)\s?(?:C|F|K)\b|(?:°|º|˚|degrees?\s|deg\s)\s?"
    rf"(?:celsius|centigrade|fahrenheit|kelvin)\b)|{GLUED_SCALE}(?!\w))"
)


_TEMPERATURE_UNIT = re.compile(
    r"(celsius|centigrade|fahrenheit|kelvin|(?<=[°º˚])\s?[CFK]|(?<=[°º˚]\s)[CFK]"
    rf"|(?<=\d){GLUED_SCALE})\.?\s*$",
    re.I,
)


def temperature_scale(surface: str):
    """The temperature scale a mention ends with ("80 °F" -> "fahrenheit"), None when none."""
    found = _TEMPERATURE_UNIT.search(surface)
    if found is None:
        return None
    letter = found.group(1).strip()[:1].upper()
    return {"C": "celsius", "F": "fahrenheit", "K": "kelvin"}[letter]


FRACTION_WORDS = {  # denominators, from quantulum3's DECIMALS ("fifth": 0.2 -> 5), singular and plural
    **{word: round(1 / value) for word, value in _QUANTULUM_WORDS.DECIMALS.items()},
    **{word + "s": round(1 / value) for word, value in _QUANTULUM_WORDS.DECIMALS.items() if word != "half"},
    "halves": 2,
    "tenth": 10,
    "tenths": 10,
}
