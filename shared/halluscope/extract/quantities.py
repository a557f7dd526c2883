"""Quantity extraction for QHI (CHI paper, 004 §3.4.1).

``extract_quantities(doc)`` returns the distinct quantities of a parsed text as
``QuantityUnit`` (kind, unit, value), each anchored to its governing noun phrase.
The hybrid of §3.4.1, and who does what:

* **spaCy numeric NER** (CARDINAL, MONEY, PERCENT, QUANTITY, DATE, TIME, ORDINAL)
  proposes the mentions;
* **regex** adds what spaCy sm cuts off or misses: currency symbols outside the
  entity ("£" + "137,000"; CNN/DailyMail's lower-cased "# 200million" for £),
  multiplier suffixes ("2.5K", "£3bn", "£3.5m", "1.2B"), "%", and digit tokens
  outside any entity (numbers, "12.30pm", "10km");
* **quantulum3** supplies the vocabularies: its unit lexicon (``units.json``:
  surfaces, symbols, SI prefixes and the dimension of every physical unit) for
  QUANTITY mentions ("10 km", "6ft", "4,300 pounds" -> pound-mass) and its
  English number words and fractions. Its parser is not called: its first call
  costs 8-10 s (it imports ``inflect`` and scikit-learn) and each call about
  1 ms, against ~3 ms for a whole 2,000-character document here, and it
  misreads "2.5K" as kibibytes and "£3bn" as "pound sterling barn newton";
* **dateparser** reads dates into inclusive calendar intervals (results cached per
  string). Bare years, decades and season ranges ("2015-16") are read by regex.

Normalisation (``qkind``, ``unit``, ``value``): ``number`` (unit ""), ``money``
(ISO currency code, value in whole currency units with the scale kept: "$5
million" -> USD 5e6), ``percent`` (value in percent: "4.5 per cent" -> 4.5),
``measure`` (quantulum's unit name, or a time unit for durations: "five-year
deal" -> year 5; ages are numbers: "the 19-year-old" -> 19 = "Ella, 19"), ``ordinal``, ``date`` (``interval`` = ISO start/end,
``unit`` = granularity) and ``time`` (clock time, value in hours: "5pm" -> 17.0).
Approximation words set ``approximate`` ("About 5 million" -> 5e6, approximate)
and bounds set ``bound`` ("more than 150" -> 150, bound "lower"). Verbs of
multiplication ("doubled", "tripled", "halved") are percent changes (100, 200,
50) so that derived matching can relate them to source values (004 §3.4.2).
Relative dates ("last Tuesday", "two weeks ago", "March 3") keep their
expression in ``relative`` and are resolved only at matching time, against the
example's publication date: never against today's date.

Deliberately not quantities: vague plurals ("hundreds of", "millions of pounds"),
times of day without a number ("night"), and temporal phrases that no calendar
interval can be given to ("this summer", "next season").
"""
from __future__ import annotations

import datetime as _dt
import math
import re
from functools import lru_cache
from typing import Iterable, List, Optional, Tuple

from quantulum3._lang.en_US import regex as _QUANTULUM_WORDS

from ..units import QuantityUnit, dedupe

NUMERIC_LABELS = frozenset({"CARDINAL", "MONEY", "PERCENT", "QUANTITY", "DATE", "TIME", "ORDINAL"})

# ----------------------------------------------------------------------- lexicons

CURRENCY_SYMBOLS = {
    "US$": "USD", "A$": "AUD", "AU$": "AUD", "C$": "CAD", "CA$": "CAD", "HK$": "HKD",
    "NZ$": "NZD", "S$": "SGD", "R$": "BRL", "$": "USD", "£": "GBP", "€": "EUR",
    "¥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB", "₺": "TRY",
}
CURRENCY_CODES = frozenset({
    "USD", "GBP", "EUR", "JPY", "CNY", "INR", "AUD", "CAD", "CHF", "HKD", "SGD", "NZD",
    "RUB", "KRW", "BRL", "ZAR", "SEK", "NOK", "DKK", "MXN", "TRY",
})
CURRENCY_WORDS = {
    "dollar": "USD", "dollars": "USD", "euro": "EUR", "euros": "EUR", "yen": "JPY",
    "yuan": "CNY", "renminbi": "CNY", "rupee": "INR", "rupees": "INR", "franc": "CHF",
    "francs": "CHF", "rouble": "RUB", "roubles": "RUB", "ruble": "RUB", "rubles": "RUB",
    "rand": "ZAR", "peso": "MXN", "pesos": "MXN", "sterling": "GBP",
    # "pound(s)" is also a unit of mass: a currency only inside a MONEY mention
}
SUBUNIT_WORDS = {"cent": ("USD", 0.01), "cents": ("USD", 0.01), "pence": ("GBP", 0.01), "p": ("GBP", 0.01)}
SCALE_WORDS = {
    "hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12,
    "k": 1e3, "mn": 1e6, "mln": 1e6, "bn": 1e9, "bln": 1e9, "b": 1e9, "tn": 1e12,
    "m": 1e6,  # only next to a currency: "100m" alone is metres
}
# number words: quantulum3's own English lists (its language module only: importing
# it loads neither quantulum's parser nor inflect nor scikit-learn)
SMALL_NUMBERS = {
    **{word: i for i, word in enumerate(_QUANTULUM_WORDS.UNITS)},
    **{word: 10 * i for i, word in enumerate(_QUANTULUM_WORDS.TENS) if word},
    "dozen": 12,
}
ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50,
    "sixtieth": 60, "seventieth": 70, "eightieth": 80, "ninetieth": 90, "hundredth": 100,
    "thousandth": 1000, "millionth": 1e6,
}
VAGUE_PLURALS = frozenset({"hundreds", "thousands", "millions", "billions", "dozens", "tens", "scores"})
# approximation / bound words (looked for inside the mention and just before it)
LOWER_BOUND = ("more than", "greater than", "over", "at least", "upwards of", "in excess of", "no fewer than",
               "no less than", "just over", "a minimum of")
UPPER_BOUND = ("less than", "fewer than", "under", "up to", "at most", "just under", "no more than", "below",
               "a maximum of", "as many as", "as much as")
APPROXIMATE = ("about", "around", "approximately", "roughly", "nearly", "almost", "some", "close to",
               "an estimated", "estimated", "circa", "c.", "approx", "approx.", "or so", "-odd", "just about")
MULTIPLY_VERBS = {"double": 100.0, "triple": 200.0, "treble": 200.0, "quadruple": 300.0, "halve": 50.0}

# time units: name -> seconds (durations are measures of dimension "time")
TIME_UNITS = {
    "second": 1.0, "minute": 60.0, "hour": 3600.0, "day": 86400.0, "week": 604800.0,
    "fortnight": 1209600.0, "month": 2629746.0, "year": 31556952.0, "decade": 315569520.0,
    "century": 3155695200.0,
}
_TIME_UNIT_FORMS = {
    **{u: u for u in TIME_UNITS}, **{u + "s": u for u in TIME_UNITS}, "centuries": "century",
    "secs": "second", "sec": "second", "mins": "minute", "min": "minute", "hrs": "hour",
    "hr": "hour", "yrs": "year", "yr": "year",
}

# quantulum unit name -> (dimension, factor to the SI-ish base of that dimension).
# Measures of one dimension compare through these factors; other units compare only
# with themselves (see match.quantities).
UNIT_SCALE = {
    **{name: ("time", s) for name, s in TIME_UNITS.items()},
    "millimetre": ("length", 1e-3), "centimetre": ("length", 1e-2), "metre": ("length", 1.0),
    "kilometre": ("length", 1e3), "inch": ("length", 0.0254), "foot": ("length", 0.3048),
    "yard": ("length", 0.9144), "mile": ("length", 1609.344), "nautical mile": ("length", 1852.0),
    "milligram": ("mass", 1e-6), "gram": ("mass", 1e-3), "kilogram": ("mass", 1.0),
    "tonne": ("mass", 1e3), "pound-mass": ("mass", 0.45359237), "ounce": ("mass", 0.028349523125),
    "stone": ("mass", 6.35029318), "short ton": ("mass", 907.18474), "long ton": ("mass", 1016.0469088),
    "millilitre": ("volume", 1e-6), "litre": ("volume", 1e-3), "cubic metre": ("volume", 1.0),
    "gallon": ("volume", 3.785411784), "pint": ("volume", 4.73176473e-4),
    "square metre": ("area", 1.0), "square kilometre": ("area", 1e6), "hectare": ("area", 1e4),
    "acre": ("area", 4046.8564224), "square mile": ("area", 2589988.110336), "square foot": ("area", 0.09290304),
    "metre per second": ("speed", 1.0), "kilometre per hour": ("speed", 1 / 3.6),
    "mile per hour": ("speed", 0.44704), "knot": ("speed", 1852 / 3600),
}

# ------------------------------------------------------------------------- regexes

_NUM = r"\d+(?:,\d{3})*(?:\.\d+)?"
_SYM = "|".join(re.escape(s) for s in sorted(CURRENCY_SYMBOLS, key=len, reverse=True))
# what spaCy sm leaves out of (or never makes) a numeric entity
_SUPPLEMENT = re.compile(
    rf"(?P<cur>{_SYM})\s?{_NUM}(?:\s?(?:thousand|million|billion|trillion|bn|mn|mln|bln|tn|k|m|b)\b)?"
    # CNN/DailyMail's lower-cased text writes "£" as "#": "# 200million", "#32,000"
    rf"|(?P<hash>#)\s?(?:{_NUM}\s?(?:million|billion|bn|m|k)\b|\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?)"
    rf"|(?<![\w.,]){_NUM}\s?(?:k|bn|mn|b)\b(?P<mult>)"
    rf"|(?<![\w.,]){_NUM}\s?(?:%|per ?cent\b)(?P<pct>)",
    re.IGNORECASE,
)
_LITERAL = re.compile(
    rf"(?<![\w.])(?P<num>{_NUM}|\.\d+)(?P<ord>st|nd|rd|th)?"
    rf"(?:\s?-?(?P<scale>hundred|thousand|million|billion|trillion|bn|mn|mln|bln|tn|k|m|b)\b)?",
    re.IGNORECASE,
)
_YEAR = re.compile(r"^(?:the\s+)?(?:year\s+)?(1\d{3}|20\d{2})$", re.I)
_YEAR_IN = re.compile(r"(?<![\d,.])(1[5-9]\d{2}|20\d{2})(?![\d,])")
_YEAR_RANGE = re.compile(r"(?<!\d)(1[5-9]\d{2}|20\d{2})\s?[-–/]\s?(\d{2}|\d{4})(?!\d)")
_DECADE = re.compile(r"(?<!\d)(?:(1[5-9]\d|20\d)0|'?([0-9]0))'?s\b", re.I)
_CLOCK = re.compile(r"(?<!\d)(\d{1,2})(?:[:.](\d{2}))?\s?([ap])\.?m\b\.?|(?<!\d)(\d{1,2}):(\d{2})(?!\d)", re.I)
_DURATION = re.compile(
    r"(?P<num>\d+(?:\.\d+)?|[a-z]+(?:-[a-z]+)?|an?|half an?)\s*-?\s*(?P<unit>"
    + "|".join(sorted(_TIME_UNIT_FORMS, key=len, reverse=True)) + r")\b",
    re.I,
)
_RELATIVE_MARKERS = re.compile(
    r"\b(ago|last|next|this|past|previous|coming|yesterday|today|tomorrow|tonight|earlier|later|since)\b", re.I)
_DATE_WORDS = re.compile(
    r"\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|"
    r"nov(ember)?|dec(ember)?|mon(day)?|tue(s(day)?)?|wed(nesday)?|thu(rs(day)?)?|fri(day)?|sat(urday)?|"
    r"sun(day)?|today|yesterday|tomorrow|week|month|year|weekend|fortnight|ago)\b", re.I)
_DATE_NOISE = re.compile(
    r"^(?:(?:the|on|in|at|of|by|from|since|until|till|during|over|about|around|early|late|mid|"
    r"earlier|later)\b[\s-]*)+|'s$|’s$", re.I)
_AGE = re.compile(r"\bold\b|\baged?\b", re.I)
_DATE_RANGE_SPLIT = re.compile(r"\s+(?:to|and|until|till|through)\s+|\s*[–—]\s*|\s+-\s+", re.I)
_WEEKDAY = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b,?\s*", re.I)
_MONTH_NAME = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
               r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+({_MONTH_NAME})(?=\s|$|,)", re.I)
_MONTH_DAY = re.compile(rf"\b({_MONTH_NAME})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", re.I)
_MONTHS = {"jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june", "jul": "july",
           "aug": "august", "sep": "september", "sept": "september", "oct": "october", "nov": "november",
           "dec": "december"}
_MONTH_ABBREVIATION = re.compile(r"\b(jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b\.?")
_VAGUE_DATE = re.compile(r"(?:the\s+)?(?:early|late|mid|about|around|circa|the (?:start|end|middle|summer|"
                         r"spring|autumn|winter) of)\b", re.I)
_HASHTAG_BEFORE = re.compile(r"[#@]\s?$")
_GLUED_UNIT = re.compile(r"\d[\d,]*(?:\.\d+)?([a-zA-Z]+)")
_DIGIT_RUN = re.compile(r"\d+")
_MULTIPLY_RE = re.compile(r"\b(?:doubl|tripl|trebl|quadrupl|halv)(?:e|es|ed|ing)\b", re.I)
_HAS_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[a-z]+", re.I)

_FIXED_BASE = _dt.datetime(2001, 6, 13)  # only to check that a relative date parses


# ------------------------------------------------------------------ number reading

FRACTION_WORDS = {  # denominators, from quantulum3's DECIMALS ("fifth": 0.2 -> 5), singular and plural
    **{word: round(1 / value) for word, value in _QUANTULUM_WORDS.DECIMALS.items()},
    **{word + "s": round(1 / value) for word, value in _QUANTULUM_WORDS.DECIMALS.items() if word != "half"},
    "halves": 2, "tenth": 10, "tenths": 10,
}


def words_to_number(text: str) -> Optional[float]:
    """Value of plain English number words: "two", "twenty-five", "a dozen",
    "two million", "one point five", fractions ("a fifth", "three quarters",
    "one and a half million"); ``None`` for anything else, including ill-formed
    sequences ("one five"). The words are quantulum3's; its own reader
    (``parser.extract_spellout_values``) is not called: it knows no more words,
    and its first call costs 8-10 s (it imports ``inflect`` and scikit-learn)."""
    words = [w for w in re.split(r"[\s-]+", text.lower().strip()) if w and w != "and"]
    if "point" in words:
        cut = words.index("point")
        head = words_to_number(" ".join(words[:cut])) if cut else 0.0
        digits = [SMALL_NUMBERS.get(w) for w in words[cut + 1:]]
        if head is None or not digits or any(d is None or d > 9 for d in digits):
            return None
        return head + float("0." + "".join(str(d) for d in digits))
    if not words or all(w in ("a", "an") for w in words):
        return None
    total, current, last, seen = 0.0, 0.0, None, False
    for word in words:
        if word in ("a", "an"):
            current, last = current + 1.0, 1.0
        elif word == "dozen":
            current, last, seen = (current or 1.0) * 12, None, True
        elif word in SMALL_NUMBERS:
            n = SMALL_NUMBERS[word]
            after_tens = last is not None and last >= 20 and n < 10
            if current % 100 and not after_tens:
                return None  # "one five", "twenty thirty"
            current, last, seen = current + n, float(n), True
        elif word in FRACTION_WORDS:
            if last is None and word not in ("half", "halves"):
                return None  # a bare "eighth" is an ordinal, "a/one/three eighth(s)" a fraction
            numerator = last if last is not None else 1.0
            base = current - last if last is not None else current
            current, last, seen = base + numerator / FRACTION_WORDS[word], None, True
        elif word == "hundred":
            current, last, seen = (current or 1.0) * 100, None, True
        elif word in ("thousand", "million", "billion", "trillion"):
            total, current, last, seen = total + (current or 1.0) * SCALE_WORDS[word], 0.0, None, True
        else:
            return None
    return total + current if seen else None


def _ordinal_value(text: str) -> Optional[float]:
    """"83rd" -> 83, "third" -> 3, "twenty-first" -> 21."""
    match = re.search(r"(\d[\d,]*)\s?(?:st|nd|rd|th)\b", text, re.I)
    if match:
        return float(match.group(1).replace(",", ""))
    words = [w for w in re.split(r"[\s-]+", text.lower()) if w and w not in ("the", "a")]
    if not words or words[-1] not in ORDINAL_WORDS:
        return None
    head = words_to_number(" ".join(words[:-1])) if len(words) > 1 else 0.0
    return None if head is None else head + ORDINAL_WORDS[words[-1]]


def _literals(surface: str, scale_m: bool) -> List[Tuple[float, Tuple[int, int]]]:
    """Numeric literals in ``surface`` with their multiplier ("2.5K" -> 2500,
    "3bn" -> 3e9; "m" counts as million only when ``scale_m``)."""
    out = []
    for match in _LITERAL.finditer(surface):
        value = float(match.group("num").replace(",", ""))
        scale = (match.group("scale") or "").lower()
        if scale == "m" and not scale_m:
            scale = ""
        if scale:
            value *= SCALE_WORDS[scale]
        out.append((value, match.span()))
    return out


# ---------------------------------------------------------------- date reading

def _interval(day: _dt.date, period: str) -> Tuple[str, str]:
    """Inclusive ISO interval of the calendar ``period`` containing ``day``."""
    if period == "year":
        start, end = _dt.date(day.year, 1, 1), _dt.date(day.year, 12, 31)
    elif period == "month":
        start = day.replace(day=1)
        end = (start.replace(year=start.year + 1, month=1) if start.month == 12
               else start.replace(month=start.month + 1)) - _dt.timedelta(days=1)
    elif period == "week":
        start = day - _dt.timedelta(days=day.weekday())
        end = start + _dt.timedelta(days=6)
    else:
        start = end = day
    return start.isoformat(), end.isoformat()


def year_interval(first: int, last: Optional[int] = None) -> Tuple[str, str]:
    return f"{first:04d}-01-01", f"{(last or first):04d}-12-31"


@lru_cache(maxsize=16384)
def parse_date(expression: str, base: Optional[_dt.date] = None) -> Optional[Tuple[Tuple[str, str], str]]:
    """(interval, granularity) of a date expression via dateparser, relative parts
    resolved against ``base`` (a fixed placeholder when ``None``); cached per
    (expression, base). ``None`` when dateparser cannot read it as a day, week,
    month or year."""
    from dateparser.date import DateDataParser

    when = _dt.datetime.combine(base, _dt.time(12)) if base is not None else _FIXED_BASE
    parser = DateDataParser(languages=["en"], settings={
        "RELATIVE_BASE": when, "PREFER_DATES_FROM": "past", "RETURN_TIME_AS_PERIOD": True})
    try:
        data = parser.get_date_data(expression)
    except (ValueError, OverflowError, TypeError):
        return None
    if data is None or data.date_obj is None or data.period not in ("day", "week", "month", "year"):
        return None
    return _interval(data.date_obj.date(), data.period), data.period


def resolve_relative(expression: str, publication_date: Optional[_dt.date]) -> Optional[Tuple[str, str]]:
    """The calendar interval of a relative date expression given the publication
    date (004 §3.4.2 temporal mode); ``None`` without a publication date."""
    if publication_date is None:
        return None
    parsed = parse_date(expression, publication_date)
    return parsed[0] if parsed else None


# ------------------------------------------------------------------------- anchors

def _is_quantity_token(token) -> bool:
    low = token.lower_
    return (token.like_num or token.pos_ in ("NUM", "SYM") or low in SCALE_WORDS or low in CURRENCY_WORDS
            or low in _TIME_UNIT_FORMS or low in ("%", "percent", "cent", "per", "pounds", "pound")
            or bool(_HAS_DIGIT.search(token.text)) or (token.is_alpha and _lookup_unit(token.text) is not None))


def _subject_of(verb) -> str:
    for child in verb.children:
        if child.dep_ in ("nsubj", "nsubjpass") and child.pos_ in ("NOUN", "PROPN"):
            return child.lemma_.lower()
    return ""


def anchor_of(span, inside: bool = False) -> str:
    """Lemma of the head of the noun phrase a quantity belongs to (004 §3.4.1):
    the noun it modifies ("5 million people" -> people; "$4.2 billion acquisition
    price" -> price), the noun after "of" ("five of the players" -> player), the
    noun a preposition attaches it to ("revenue of $3.4 billion" -> revenue), or
    the subject of the verb it is an argument of ("Revenue grew 18%" -> revenue);
    "" when none. ``inside``: the mention's own head noun is what is counted
    ("400 migrants")."""
    root = span.root
    if inside and root.pos_ in ("NOUN", "PROPN") and not _is_quantity_token(root):
        return root.lemma_.lower()
    for child in root.children:
        if child.dep_ == "prep" and child.lower_ == "of":
            for pobj in child.children:
                if pobj.dep_ == "pobj" and pobj.pos_ in ("NOUN", "PROPN") and not _is_quantity_token(pobj):
                    return pobj.lemma_.lower()
    token = root
    while token.dep_ == "conj" and token.head is not token and token.head.pos_ in ("NUM", "NOUN", "SYM"):
        token = token.head  # "$2 billion in March and $3 billion in April": the first conjunct's anchor
    head = token.head
    if head is token:
        return ""
    if head.pos_ in ("NOUN", "PROPN") and token.dep_ != "pobj" and not _is_quantity_token(head):
        return head.lemma_.lower()
    if token.dep_ == "pobj" and head.dep_ in ("prep", "agent", "dative"):
        governor = head.head
        if governor.pos_ in ("NOUN", "PROPN") and not _is_quantity_token(governor):
            return governor.lemma_.lower()
        if governor.pos_ in ("VERB", "AUX"):
            return _subject_of(governor)
        return ""
    if head.pos_ in ("VERB", "AUX") and token.dep_ not in ("nsubj", "nsubjpass"):
        return _subject_of(head)
    return ""


# ------------------------------------------------------------------ normalisation

class _Reading:
    """One normalised reading of a mention (before anchoring)."""

    __slots__ = ("qkind", "unit", "value", "interval", "relative", "approx", "inside")

    def __init__(self, qkind, unit="", value=None, interval=None, relative="", approx=False, inside=False):
        self.qkind, self.unit, self.value = qkind, unit, value
        self.interval, self.relative, self.approx, self.inside = interval, relative, approx, inside


def _bound_and_approx(text: str) -> Tuple[str, bool]:
    low = " " + re.sub(r"\s+", " ", text.lower()) + " "
    for phrase in LOWER_BOUND:
        if f" {phrase} " in low:
            return "lower", True
    for phrase in UPPER_BOUND:
        if f" {phrase} " in low:
            return "upper", True
    if low.rstrip().endswith("+"):
        return "lower", True
    return "", any((f" {p} " in low) if p[0].isalpha() else (p in low) for p in APPROXIMATE)


def _currency(surface: str, label: str) -> Tuple[str, float]:
    """(ISO code, factor) named in a money mention, ("", 1) when none."""
    stripped = surface.strip()
    if stripped.startswith("#"):  # CNN/DailyMail's "#" for "£" (see _SUPPLEMENT)
        return "GBP", 1.0
    for symbol in sorted(CURRENCY_SYMBOLS, key=len, reverse=True):
        if symbol in stripped:
            return CURRENCY_SYMBOLS[symbol], 1.0
    words = [w.lower() for w in _WORD.findall(stripped)]
    for word in re.findall(r"\b[A-Z]{3}\b", stripped):
        if word in CURRENCY_CODES:
            return word, 1.0
    for word in words:
        if word in CURRENCY_WORDS:
            return CURRENCY_WORDS[word], 1.0
    if label == "MONEY":
        if "pound" in words or "pounds" in words or "quid" in words:
            return "GBP", 1.0
        for word in words:
            if word in SUBUNIT_WORDS:
                return SUBUNIT_WORDS[word]
        if re.search(r"\d\s?p\b", stripped):
            return "GBP", 0.01
    return "", 1.0


def _is_percent(surface: str) -> bool:
    low = surface.lower()
    return "%" in low or bool(re.search(r"\b(per ?cent|pc|percentage points?)\b", low))


_NOT_NUMBER_WORDS = frozenset(
    {"about", "around", "approximately", "roughly", "nearly", "almost", "some", "more", "than", "over", "at",
     "least", "up", "to", "less", "fewer", "under", "just", "only", "the", "per", "cent", "percent", "close",
     "estimated", "of", "most", "upwards", "excess", "in", "no", "as", "many", "much", "pc", "odd", "or", "so",
     "sterling", "pounds", "pound", "quid", "circa", "approx", "percentage", "points", "k", "m", "bn",
     "mn", "b", "tn"} | set(CURRENCY_WORDS) | set(SUBUNIT_WORDS) | set(CURRENCY_CODES))


def _number_readings(surface: str, scale_m: bool) -> List[float]:
    """Values of the numbers in a mention: digit literals (with multipliers), else
    number words (quantulum3's words, read by ``words_to_number``)."""
    values = [value for value, _ in _literals(surface, scale_m)]
    if values:
        return values
    words = re.findall(r"[a-z]+(?:-[a-z]+)*", surface.lower())
    if any(w in VAGUE_PLURALS for w in words):
        return []
    # the number words in order, one group per alternative ("two or three", "five to ten")
    groups, current = [], []
    for word in words:
        if word in ("or", "to"):
            groups.append(current)
            current = []
        elif word not in _NOT_NUMBER_WORDS:
            current.append(word)
    groups.append(current)
    values = [words_to_number(" ".join(group)) for group in groups if group]
    return [value for value in values if value is not None]


def _money_or_number(surface: str, label: str) -> List[_Reading]:
    if _is_percent(surface):
        return [_Reading("percent", "", v) for v in _number_readings(surface, scale_m=False)]
    code, factor = _currency(surface, label)
    if code:
        return [_Reading("money", code, v * factor) for v in _number_readings(surface, scale_m=True)]
    return [_Reading("number", "", v) for v in _number_readings(surface, scale_m=False)]


_SI_PREFIXES = {"E": "exa", "P": "peta", "T": "tera", "G": "giga", "M": "mega", "k": "kilo", "h": "hecto",
                "d": "deci", "c": "centi", "m": "milli", "µ": "micro", "n": "nano", "p": "pico", "f": "femto",
                "a": "atto", "z": "zepto", "y": "yocto"}
_SHORT_SYMBOLS = frozenset({"m", "g", "l", "L", "t"})  # the one-letter symbols trusted after a number
_IRREGULAR_PLURALS = {"foot": "feet", "inch": "inches", "century": "centuries", "stone": "stone"}


def _plural(surface: str) -> str:
    words = surface.split(" ")
    i = words.index("per") - 1 if "per" in words[1:] else len(words) - 1
    word = words[i]
    if word in _IRREGULAR_PLURALS:
        plural = _IRREGULAR_PLURALS[word]
    elif word.endswith(("s", "x", "ch", "sh")):
        plural = word + "es"
    elif word.endswith("y") and word[-2:-1] not in "aeiou":
        plural = word[:-1] + "ies"
    else:
        plural = word + "s"
    return " ".join(words[:i] + [plural] + words[i + 1:])


@lru_cache(maxsize=1)
def unit_lexicon() -> Tuple[dict, dict]:
    """quantulum3's unit lexicon (its ``units.json``: names, surfaces, symbols,
    SI prefixes, entity = dimension), read directly: ``(surfaces, symbols)``
    mapping a lower-cased surface (singular and plural) or an exact symbol to
    ``[(unit name, entity), ...]``. Reading the JSON avoids quantulum's parser,
    whose first call costs seconds (it imports ``inflect`` and scikit-learn).
    Currencies, percentages and dimensionless units are left out (read
    elsewhere); "stone" is added (absent from quantulum)."""
    import json
    from importlib import resources

    raw = json.loads(resources.files("quantulum3").joinpath("units.json").read_text(encoding="utf-8"))
    raw["stone"] = {"surfaces": ["stone"], "entity": "mass", "symbols": ["st"]}
    surfaces: dict = {}
    symbols: dict = {}

    def add(table, key, value):
        bucket = table.setdefault(key, [])
        if value not in bucket:
            bucket.append(value)

    for name, info in raw.items():
        entity = info.get("entity", "")
        if entity in ("currency", "dimensionless") or "currency_code" in info:
            continue
        forms = {name, *info.get("surfaces", [])}
        for form in forms:
            add(surfaces, form.lower(), (name, entity))
            add(surfaces, _plural(form.lower()), (name, entity))
        syms = [sym for sym in info.get("symbols", []) if len(sym) > 1 or sym in _SHORT_SYMBOLS]
        for sym in syms:
            add(symbols, sym, (name, entity))
        for prefix in info.get("prefixes", []):
            if prefix not in _SI_PREFIXES:
                continue
            prefixed = _SI_PREFIXES[prefix] + name
            add(surfaces, prefixed, (prefixed, entity))
            add(surfaces, _plural(prefixed), (prefixed, entity))
            for sym in info.get("symbols", []):
                add(symbols, prefix + sym, (prefixed, entity))
    return surfaces, symbols


def _lookup_unit(phrase: str) -> Optional[str]:
    surfaces, symbols = unit_lexicon()
    found = symbols.get(phrase) or surfaces.get(phrase.lower())
    if not found and len(phrase) > 2:
        found = symbols.get(phrase.lower())
    return found[0][0] if found else None


_NUMBER_UNIT_GLUE = re.compile(r"(?<=\d)(?=[^\d\s,.%\-/x])")


def _measure_readings(surface: str) -> List[_Reading]:
    """Number + physical unit pairs in a QUANTITY mention ("10 km", "6ft 2in",
    "more than 4,300 pounds" -> pound-mass); units from quantulum3's lexicon.
    A mention without a known unit counts things ("400 migrants"): a number
    anchored to its own noun."""
    tokens = _NUMBER_UNIT_GLUE.sub(" ", surface).replace("-", " ").split()
    out: List[_Reading] = []
    i = last = 0
    while i < len(tokens):
        found = None
        for j in range(min(len(tokens), i + 3), i, -1):
            unit = _lookup_unit(" ".join(tokens[i:j]))
            if unit is not None:
                found = (j, unit)
                break
        if found is not None and i > last:
            values = _number_readings(" ".join(tokens[last:i]), scale_m=False)
            if values:
                unit = found[1]
                out.append(_Reading("measure", _TIME_UNIT_FORMS.get(unit, unit), values[-1]))
                last = i = found[0]
                continue
        i += 1
    if out:
        return out
    return [_Reading(r.qkind, r.unit, r.value, inside=r.qkind == "number")
            for r in _money_or_number(surface, "CARDINAL")]


def _duration(surface: str) -> Optional[_Reading]:
    """"22-year-old" / "five-year" / "90 minutes" -> measure in a time unit."""
    match = _DURATION.search(surface)
    if match is None:
        return None
    raw = match.group("num").lower()
    if raw in ("a", "an"):
        value = 1.0
    elif raw.startswith("half"):
        value = 0.5
    elif _HAS_DIGIT.search(raw):
        value = float(raw)
    else:
        value = words_to_number(raw)
        if value is None:
            return None
    return _Reading("measure", _TIME_UNIT_FORMS[match.group("unit").lower()], value)


def _date_readings(surface: str) -> List[_Reading]:
    """Rules for a DATE mention, in order: bare year, season range, decade;
    duration or age; dateparser (absolute when a year is written, else relative);
    a year inside an unreadable phrase ("mid-2015"); a plain number ("64")."""
    text = re.sub(r"\s+", " ", surface.strip())
    low = text.lower()
    year = _YEAR.match(low)
    if year:
        return [_Reading("date", "year", interval=year_interval(int(year.group(1))))]
    span = _YEAR_RANGE.search(low)
    if span:
        first, second = int(span.group(1)), span.group(2)
        last = int(second) if len(second) == 4 else (first // 100) * 100 + int(second)
        if last > first and last - first < 100:
            return [_Reading("date", "year", interval=year_interval(first, last), approx=low != span.group(0))]
    decade = _DECADE.search(low)
    if decade and not _RELATIVE_MARKERS.search(low):
        start = int(decade.group(1)) * 10 if decade.group(1) else 1900 + int(decade.group(2))
        return [_Reading("date", "decade", interval=year_interval(start, start + 9), approx=decade.group(2) is not None)]
    if _CLOCK.search(low):  # "11.30am every day"
        return _time_readings(low)
    relative_marked = bool(_RELATIVE_MARKERS.search(low))
    if not relative_marked:
        duration = _duration(low)
        if duration is not None:
            if duration.unit == "year" and _AGE.search(low):  # "the 19-year-old" = "Ella, 19"
                return [_Reading("number", "", duration.value, inside=False)]
            return [duration]
    if re.fullmatch(r"[\d\s,.]+", low):  # "64", "34 56": ages and scores, not dates
        return [_Reading("number", "", float(v.replace(",", ""))) for v in re.findall(r"\d[\d,]*(?:\.\d+)?", low)]
    expression = canonical_date_expression(low)
    has_year = _YEAR_IN.search(expression)
    approx = bool(_VAGUE_DATE.match(low))
    if expression and (has_year or _DATE_WORDS.search(expression)):
        parsed = parse_date(expression)
        if parsed is not None:
            interval, period = parsed
            if has_year:  # a written year makes the date absolute
                return [_Reading("date", period, interval=interval, approx=approx)]
            return [_Reading("date", period, relative=expression, approx=approx)]
    parts = [p for p in _DATE_RANGE_SPLIT.split(low) if p.strip()]
    if len(parts) > 1:  # "Friday to Monday", "March and April 2015": each end is a date
        readings = [r for part in parts for r in _date_readings(part) if r.qkind == "date"]
        if len(readings) == len(parts):
            return readings
    if has_year:
        y = int(has_year.group(1))
        return [_Reading("date", "year", interval=year_interval(y), approx=True)]
    duration = _duration(low)
    if duration is not None and not re.search(r"\bago\b", low):
        return [duration]
    if _HAS_DIGIT.search(low):
        return [_Reading("number", "", v) for v, _ in _literals(low, False)]
    return []


def canonical_date_expression(text: str) -> str:
    """The form a date expression is parsed and, when relative, keyed by:
    lower case, leading prepositions/articles/"early"... dropped, month names in
    full ("Jan." -> "january"), "19th" -> "19",
    "19 April" -> "april 19", and the weekday dropped when a day of the month is
    written ("Friday, April 19" -> "april 19")."""
    low = re.sub(r"\s+", " ", text.lower()).strip()
    low = _DATE_NOISE.sub("", low).strip(" ,.")
    low = _MONTH_ABBREVIATION.sub(lambda m: _MONTHS[m.group(1)], low)
    low = _DAY_MONTH.sub(lambda m: f"{m.group(2).rstrip('.')} {m.group(1)}", low)
    low = _MONTH_DAY.sub(lambda m: f"{m.group(1).rstrip('.')} {m.group(2)}", low)
    if _MONTH_DAY.search(low):
        low = _WEEKDAY.sub("", low)
    return re.sub(r"\s*,\s*", " ", low).strip(" ,.")


def _time_readings(surface: str) -> List[_Reading]:
    """TIME mentions: ordinal minutes ("the 83rd minute"), clock times ("5pm" ->
    17.0), durations ("half an hour" -> 0.5 hour); others ("night") are dropped."""
    low = surface.lower()
    ordinal = _ordinal_value(re.sub(r"\b(minute|hour|second)s?\b", "", low).strip()) \
        if re.search(r"\d(st|nd|rd|th)\b|\b(" + "|".join(ORDINAL_WORDS) + r")\b", low) else None
    if ordinal is not None:
        return [_Reading("ordinal", "", ordinal)]
    clock = _CLOCK.search(low)
    if clock:
        if clock.group(1):
            hour, minute = int(clock.group(1)) % 12, int(clock.group(2) or 0)
            hour += 12 if clock.group(3).lower() == "p" else 0
        else:
            hour, minute = int(clock.group(4)), int(clock.group(5))
        if hour < 24 and minute < 60:
            return [_Reading("time", "", hour + minute / 60.0)]
        return []
    if re.search(r"\bmidnight\b", low):
        return [_Reading("time", "", 0.0)]
    if re.search(r"\b(noon|midday)\b", low):
        return [_Reading("time", "", 12.0)]
    duration = _duration(low)
    return [duration] if duration is not None else []


def _readings(surface: str, label: str) -> List[_Reading]:
    if label == "DATE":
        return _date_readings(surface)
    if label == "TIME":
        return _time_readings(surface)
    if label == "ORDINAL":
        value = _ordinal_value(surface)
        return [] if value is None else [_Reading("ordinal", "", value)]
    if label == "CARDINAL" and not _HAS_DIGIT.search(surface):
        value = _ordinal_value(surface)  # spaCy sm sometimes calls "eighth" CARDINAL
        if value is not None and words_to_number(surface) is None:
            return [_Reading("ordinal", "", value)]
    if label == "QUANTITY" and not _currency(surface, label)[0] and not _is_percent(surface):
        return _measure_readings(surface)
    return _money_or_number(surface, label)


# --------------------------------------------------------------------- candidates

_PREP_YEAR = frozenset({"in", "since", "until", "till", "by", "from", "during", "before", "after"})
_RIGHT_EXTEND = frozenset(set(CURRENCY_WORDS) | {"million", "billion", "trillion", "thousand", "bn", "mn", "k",
                                                 "%", "percent", "pc"})


def _candidates(doc, text: str) -> List[Tuple[int, int, str]]:
    """Character spans and labels of the numeric mentions: spaCy's numeric
    entities widened by the regex supplement, plus what only the regex (or a
    stray digit token) finds. ``text`` is ``doc.text`` (built token by token by
    spaCy on every access, so it is computed once)."""
    spans: List[List] = []
    for ent in doc.ents:
        if ent.label_ in NUMERIC_LABELS:
            spans.append([ent.start_char, ent.end_char, ent.label_])
    for match in _SUPPLEMENT.finditer(text):
        start, end = match.span()
        label = "MONEY" if (match.group("cur") or match.group("hash")) else ("PERCENT" if match.group("pct") is not None else "CARDINAL")
        merged = False
        for item in spans:
            if item[0] < end and start < item[1]:
                item[0], item[1] = min(item[0], start), max(item[1], end)
                if label != "CARDINAL" and item[2] in ("CARDINAL", "MONEY", "QUANTITY", "DATE"):
                    item[2] = label
                merged = True
        if not merged:
            spans.append([start, end, label])
    # right extension by tokens: "3.2 million euros", "4.5 per cent", "6" + "ft"
    for item in spans:
        if item[2] not in ("CARDINAL", "MONEY", "PERCENT", "QUANTITY"):
            continue
        span = doc.char_span(item[0], item[1], alignment_mode="expand")
        if span is None:
            continue
        i = span.end
        if item[2] in ("CARDINAL", "QUANTITY") and i < len(doc) and _unit_token(doc[i]):
            item[1], item[2] = doc[i].idx + len(doc[i].text), "QUANTITY"
            continue
        if item[2] == "QUANTITY":
            continue
        while i < len(doc):
            low = doc[i].lower_
            if low in _RIGHT_EXTEND or doc[i].text in CURRENCY_CODES or (
                    low == "per" and i + 1 < len(doc) and doc[i + 1].lower_ == "cent"):
                i += 2 if low == "per" else 1
            elif low in ("pounds", "pound", "m") and item[2] == "MONEY":
                i += 1
            else:
                break
        if i > span.end:
            item[1] = doc[i - 1].idx + len(doc[i - 1].text)
    covered = set()
    for start, end, _ in spans:
        covered.update(range(start, end))
    done = set()
    for match in _DIGIT_RUN.finditer(text):  # digit tokens outside every mention
        if match.start() in covered:
            continue
        found = doc.char_span(match.start(), match.end(), alignment_mode="expand")
        if found is None or found[0].i in done:
            continue
        token = found[0]
        done.add(token.i)
        if token.idx in covered:
            continue
        label = "CARDINAL"
        if not token.like_num:
            glued = _GLUED_UNIT.fullmatch(token.text)
            if _CLOCK.fullmatch(token.text):
                label = "TIME"  # "12.30pm" outside any entity
            elif glued and _lookup_unit(glued.group(1)) is not None:
                label = "QUANTITY"  # "10km"
            else:
                continue
        if token.ent_type_ and token.ent_type_ not in NUMERIC_LABELS:  # "Apollo 11", "Boeing 747"
            continue
        if token.like_url or token.like_email or (token.i > 0 and doc[token.i - 1].text in ("#", "@")):
            continue
        spans.append([token.idx, token.idx + len(token.text), label])
    # merge overlaps produced by the widening, keep text order
    spans.sort(key=lambda s: (s[0], -s[1]))
    out: List[Tuple[int, int, str]] = []
    for start, end, label in spans:
        if out and start < out[-1][1]:
            last = out[-1]
            out[-1] = (last[0], max(last[1], end), last[2])
            continue
        if _HASHTAG_BEFORE.search(text, max(0, start - 2), start):  # hashtags, handles ("#7minutes")
            continue
        out.append((start, end, label))
    return out


def _unit_token(token) -> bool:
    """A token right after a number that names a physical unit ("ft", "stone",
    "miles"), not a function word ("5 in 10")."""
    if token.is_stop or token.pos_ in ("ADP", "DET", "PRON", "CCONJ", "VERB", "AUX") or not token.is_alpha:
        return False
    return _lookup_unit(token.text) is not None


def _year_like_cardinal(span) -> bool:
    """A CARDINAL "2015" after "in"/"since"/... that modifies no noun is a year."""
    if len(span) != 1 or not re.fullmatch(r"1[5-9]\d\d|20\d\d", span.text):
        return False
    token = span[0]
    prev = token.doc[token.i - 1].lower_ if token.i > 0 else ""
    return prev in _PREP_YEAR and not (token.dep_ == "nummod" and token.head.pos_ == "NOUN")


def _modifiers_before(span) -> str:
    """Up to three tokens just before a mention that modify it ("about", "more
    than" when spaCy left them out); "talked about 5 players" gives ""."""
    doc, inside = span.doc, set(range(span.start, span.end))
    first = span.start
    for i in range(span.start - 1, max(-1, span.start - 4), -1):
        if doc[i].head.i in inside:
            inside.add(i)
            first = i
        else:
            break
    return doc[first:span.start].text


def _multiplication_verbs(doc, text: str) -> Iterable[QuantityUnit]:
    """"doubled" / "tripled" / "halved" as percent changes (100 / 200 / 50)."""
    for match in _MULTIPLY_RE.finditer(text):
        found = doc.char_span(match.start(), match.end(), alignment_mode="expand")
        if found is None or len(found) != 1:
            continue
        token = found[0]
        if token.pos_ == "VERB" and token.lemma_.lower() in MULTIPLY_VERBS:
            yield QuantityUnit(
                qkind="percent", unit="", value=MULTIPLY_VERBS[token.lemma_.lower()], text=token.text,
                span=(token.idx, token.idx + len(token.text)), anchor=_subject_of(token), approximate=False)


def extract_quantities(doc) -> List[QuantityUnit]:
    """The distinct quantities of a parsed text (004 §3.4.1), in text order; the
    same quantity mentioned twice is one unit (first mention kept)."""
    units: List[QuantityUnit] = []
    text = doc.text
    for start, end, label in _candidates(doc, text):
        surface = text[start:end]
        span = doc.char_span(start, end, alignment_mode="expand")
        if span is None or not surface.strip():
            continue
        if label == "CARDINAL" and _year_like_cardinal(span):
            label = "DATE"
        elif label == "ORDINAL" and len(span) == 1 and span[0].dep_ == "advmod" and span[0].head.pos_ == "VERB":
            continue  # "was first arrested", "first met": an adverb, not a rank
        elif label == "ORDINAL" and span.start > 0 and surface.lower() in FRACTION_WORDS and \
                doc[span.start - 1].lower_ in ("a", "an", "one"):  # "a third of" is a fraction
            start = doc[span.start - 1].idx
            surface, label = text[start:end], "CARDINAL"
            span = doc[span.start - 1:span.end]
        try:
            readings = _readings(surface, label)
        except (ValueError, OverflowError, ArithmeticError):
            readings = []
        if not readings:
            continue
        bound, approx = _bound_and_approx(_modifiers_before(span) + " " + surface)
        anchor_plain = anchor_inside = None
        for reading in readings:
            if reading.value is not None and not math.isfinite(reading.value):
                continue
            if reading.inside:
                anchor_inside = anchor_inside if anchor_inside is not None else anchor_of(span, inside=True)
                anchor = anchor_inside
            else:
                anchor_plain = anchor_plain if anchor_plain is not None else anchor_of(span)
                anchor = anchor_plain
            units.append(QuantityUnit(
                qkind=reading.qkind, unit=reading.unit, value=reading.value, text=surface, span=(start, end),
                anchor=anchor, interval=reading.interval, relative=reading.relative,
                approximate=bool(reading.approx or approx), bound="" if reading.qkind == "date" else bound))
    units.extend(_multiplication_verbs(doc, text))
    units.sort(key=lambda u: u.span)
    return dedupe(units)


__all__ = [
    "extract_quantities", "anchor_of", "parse_date", "resolve_relative", "words_to_number", "UNIT_SCALE",
    "TIME_UNITS", "NUMERIC_LABELS",
]
