"""Units: quantulum3's unit lexicon (read directly from its ``units.json``), the
number + unit pairs of QUANTITY mentions, and durations in time units."""

from __future__ import annotations

import math
import re
from functools import lru_cache

from ..text.number_words import _TIME_UNIT_FORMS, TIME_UNITS
from .numbers import _HAS_DIGIT, _SIGN_BEFORE, _money_or_number, _number_readings, _Reading, words_to_number

# Linear time: a number or word starts only where a run of digits / letters starts
# (a start inside a run finds nothing its run's start would not find first), and the
# separator "\s*-?\s*" is written "(?:\s*-)?\s*" (the same strings, without trying
# every split of a whitespace run between its two halves).
_DURATION = re.compile(
    r"(?P<num>(?<!\d)\d+(?:\.\d+)?|(?<![a-z])[a-z]+(?:-[a-z]+)?|an?|half an?)(?:\s*-)?\s*(?P<unit>"
    + "|".join(sorted(_TIME_UNIT_FORMS, key=len, reverse=True))
    + r")\b",
    re.I,
)


_SI_PREFIXES = {
    "E": "exa",
    "P": "peta",
    "T": "tera",
    "G": "giga",
    "M": "mega",
    "k": "kilo",
    "h": "hecto",
    "d": "deci",
    "c": "centi",
    "m": "milli",
    "µ": "micro",
    "n": "nano",
    "p": "pico",
    "f": "femto",
    "a": "atto",
    "z": "zepto",
    "y": "yocto",
}


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
    return " ".join(words[:i] + [plural] + words[i + 1 :])


@lru_cache(maxsize=1)
def unit_lexicon() -> tuple[dict, dict]:
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


def _lookup_unit(phrase: str) -> str | None:
    surfaces, symbols = unit_lexicon()
    found = symbols.get(phrase) or surfaces.get(phrase.lower())
    if not found and len(phrase) > 2:
        found = symbols.get(phrase.lower())
    return found[0][0] if found else None


_NUMBER_TOKENS = 16


_NUMBER_UNIT_GLUE = re.compile(
    r"(?<=\d)(?=[^\d\s,.%\-/x])"
    # not inside a written exponent: "1e9", "10^9", "3×10⁹"
    r"(?![eE][-+\u2212]?\d)(?![\^×\u00b2\u00b3\u00b9\u2070-\u207b])"
)


# hyphens between words and numbers ("10-foot", "five-year") are spaces; a minus sign
# ("-40", see numbers._SIGN) and an exponent's sign ("1e-3", "10^-3") are kept
_HYPHEN = re.compile(rf"(?P<keep>{_SIGN_BEFORE}-(?=\d)|(?<=\d[eE^])-(?=\d))|-")


def _measure_readings(surface: str, decimal_comma: bool = False) -> list[_Reading]:
    """Number + physical unit pairs in a QUANTITY mention ("10 km", "6ft 2in",
    "more than 4,300 pounds" -> pound-mass); units from quantulum3's lexicon.
    A mention without a known unit counts things ("400 migrants"): a number
    anchored to its own noun."""
    glued = _NUMBER_UNIT_GLUE.sub(" ", surface)
    tokens = _HYPHEN.sub(lambda m: m.group() if m.group("keep") else " ", glued).split()
    out: list[_Reading] = []
    i = last = 0
    while i < len(tokens):
        found = None
        for j in range(min(len(tokens), i + 3), i, -1):
            unit = _lookup_unit(" ".join(tokens[i:j]))
            if unit is not None:
                found = (j, unit)
                break
        if found is not None and i > last:
            # the number is read from at most the last _NUMBER_TOKENS tokens before the unit
            # ("one hundred and twenty-five thousand" is 6), so that a mention of many
            # unit words and no number costs linear time
            values = _number_readings(" ".join(tokens[max(last, i - _NUMBER_TOKENS) : i]), False, decimal_comma)
            if values:
                unit = found[1]
                out.append(_Reading("measure", _TIME_UNIT_FORMS.get(unit, unit), values[-1]))
                last = i = found[0]
                continue
        i += 1
    if out:
        return out
    return [
        _Reading(r.qkind, r.unit, r.value, inside=r.qkind == "number")
        for r in _money_or_number(surface, "CARDINAL", decimal_comma)
    ]


#: what may stand between the parts of one compound duration ("two hours, eight minutes
#: and 44 seconds", "2 hours 8 minutes")
_DURATION_JOIN = re.compile(r"\s*,?\s*(?:and\s+)?")


def _duration(surface: str) -> _Reading | None:
    """ "22-year-old" / "five-year" / "90 minutes" -> measure in a time unit. A compound
    duration, parts joined by nothing but commas and "and" ("eight minutes and 44
    seconds", "5 years and 3 months"), is their sum in its smallest unit (524 seconds,
    63 months): its first part alone let any other seconds pass
    (docs/papers.md#qhi-compound-durations)."""
    parts: list[tuple[re.Match[str], float]] = []
    joins: list[str] = []
    for match in _DURATION.finditer(surface):
        if parts and _DURATION_JOIN.fullmatch(surface, parts[-1][0].end(), match.start()) is None:
            break
        value = _duration_value(match)
        if value is None:
            break
        if parts:
            joins.append(surface[parts[-1][0].end() : match.start()])
        parts.append((match, value))
    if not parts:
        return None
    units = [_TIME_UNIT_FORMS[match.group("unit").lower()] for match, _ in parts]
    if len(parts) == 1 or not compound_duration(units, joins):
        return _Reading("measure", units[0], parts[0][1])
    smallest = min(units, key=TIME_UNITS.__getitem__)
    seconds = math.fsum(value * TIME_UNITS[unit] for (_, value), unit in zip(parts, units, strict=True))
    return _Reading("measure", smallest, seconds / TIME_UNITS[smallest], precise=True)


def compound_duration(units: list[str], joins: list[str]) -> bool:
    """Whether duration parts in these time ``units`` (in text order), with these texts
    between them, are one duration: units from the largest to the smallest, and commas
    only in a list that "and" ends ("two hours, eight minutes and 44 seconds"; not "four
    weeks, a day after the race", two facts)."""
    scales = [TIME_UNITS[unit] for unit in units]
    # strict=False: each scale with the next
    if any(later >= earlier for earlier, later in zip(scales, scales[1:], strict=False)):
        return False
    return not any("," in join for join in joins) or "and" in joins[-1].split()


#: a race time: hours, minutes and seconds ("2:08:44", "1:59:40.2") or minutes and
#: seconds with tenths ("3:45.6"); a clock time has no seconds ("10:30")
_RACE_TIME = re.compile(r"(?:(\d{1,2}):)?([0-5]?\d):([0-5]\d(?:\.\d+)?)")


def race_time(surface: str) -> _Reading | None:
    """A race time written with colons as a duration in seconds ("2:08:44" = 7,724 s, the
    source's "two hours, eight minutes and 44 seconds"), else None. Two parts only with
    a decimal ("3:45.6"): "10:30" is a clock time."""
    match = _RACE_TIME.fullmatch(surface.strip())
    if match is None or (match.group(1) is None and "." not in match.group(3)):
        return None
    hours = int(match.group(1) or 0)
    return _Reading("measure", "second", hours * 3600 + int(match.group(2)) * 60 + float(match.group(3)), precise=True)


def _duration_value(match) -> float | None:
    """The number of one :data:`_DURATION` match ("a" and "an" are 1, "half" 0.5)."""
    raw = match.group("num").lower()
    if raw in ("a", "an"):
        return 1.0
    if raw.startswith("half"):
        return 0.5
    if _HAS_DIGIT.search(raw):
        return float(raw)
    return words_to_number(raw)
