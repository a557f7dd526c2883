"""The unit edit: the unit after a number swapped for another one (km and miles, °C and
°F, million and billion, hours and minutes, ...), the number kept."""

from __future__ import annotations

import re

from benchmarks.perturbations.text import _replace, match_case

#: unit (lower case) -> (singular, plural) of the unit it becomes; "pounds" (money or
#: weight?) and "per cent" are never changed
UNITS = {
    "km": ("mile", "miles"),
    "kilometres": ("mile", "miles"),
    "kilometers": ("mile", "miles"),
    "kilometre": ("mile", "miles"),
    "kilometer": ("mile", "miles"),
    "miles": ("kilometre", "kilometres"),
    "mile": ("kilometre", "kilometres"),
    "mph": ("km/h", "km/h"),
    "km/h": ("mph", "mph"),
    "kg": ("lb", "lbs"),
    "kilograms": ("pound", "pounds"),
    "kilogram": ("pound", "pounds"),
    "lbs": ("kg", "kg"),
    "lb": ("kg", "kg"),
    "°c": ("°F", "°F"),
    "°f": ("°C", "°C"),
    "celsius": ("Fahrenheit", "Fahrenheit"),
    "fahrenheit": ("Celsius", "Celsius"),
    "million": ("billion", "billion"),
    "billion": ("million", "million"),
    "trillion": ("billion", "billion"),
    "bn": ("m", "m"),
    "metres": ("foot", "feet"),
    "meters": ("foot", "feet"),
    "metre": ("foot", "feet"),
    "meter": ("foot", "feet"),
    "feet": ("metre", "metres"),
    "foot": ("metre", "metres"),
    "ft": ("m", "m"),
    "cm": ("inch", "inches"),
    "inches": ("centimetre", "centimetres"),
    "inch": ("centimetre", "centimetres"),
    "litres": ("gallon", "gallons"),
    "liters": ("gallon", "gallons"),
    "gallons": ("litre", "litres"),
    "hours": ("minute", "minutes"),
    "hour": ("minute", "minutes"),
    "minutes": ("hour", "hours"),
    "minute": ("hour", "hours"),
    "days": ("week", "weeks"),
    "day": ("week", "weeks"),
    "weeks": ("day", "days"),
    "week": ("day", "days"),
    "months": ("year", "years"),
    "month": ("year", "years"),
    "years": ("month", "months"),
    "year": ("month", "months"),
    "acres": ("hectare", "hectares"),
    "hectares": ("acre", "acres"),
}
_UNIT = re.compile(
    r"(?<![\w.,])(?P<num>\d+(?:[.,]\d+)*)(?P<gap>\s?-?)(?P<unit>km/h|°[CcFf]|(?:degrees?\s)?(?:"
    + "|".join(sorted((re.escape(u) for u in UNITS if not u.startswith("°")), key=len, reverse=True))
    + r"))(?![\w/])",
    re.I,
)


def unit_change(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """The unit after a number swapped (:data:`UNITS`: km <-> miles, °C <-> °F, kg <->
    lbs, million <-> billion, metres <-> feet, hours <-> minutes, days <-> weeks, months
    <-> years, ...), the number kept; singular after 1, the unit's case kept."""
    options = []
    for match in _UNIT.finditer(summary):
        unit = match.group("unit")
        prefix = ""
        if unit.lower().startswith("degree"):
            prefix, unit = unit[: unit.index(" ") + 1], unit[unit.index(" ") + 1 :]
        key = unit.lower()
        if key not in UNITS or (prefix and key not in ("celsius", "fahrenheit", "c", "f")):
            continue
        singular, plural = UNITS[key]
        new = singular if match.group("num") == "1" or match.group("gap").endswith("-") else plural
        if key in ("celsius", "fahrenheit") or key.startswith("°"):
            new = singular
        elif unit[:1].isupper() and not unit.isupper():
            new = match_case(new, unit)
        start = match.start("unit") + len(prefix)
        options.append((start, match.end("unit"), new))
    if not options:
        return None
    start, end, new = rng.choice(options)
    return _replace(summary, start, end, new)
