"""How QHI compares and shows values: a quantity's kind class and base value, which operations
derive one number from others, and the text a match's detail writes (docs/papers.md#qhi)."""

from __future__ import annotations

import datetime as _dt
import math

from ..text.number_words import TEMPERATURE_SCALES, UNIT_SCALE
from ..units import QuantityUnit

SMALL_MULTIPLES = ((2.0, "x2"), (3.0, "x3"), (4.0, "x4"), (0.5, "x0.5"))


NUMERIC_CLASSES = frozenset({"number", "money", "percent", "measure"})


def kind_class(unit: QuantityUnit) -> tuple[tuple[str, str], float]:
    """(compatibility class, factor to that class's base unit) of a quantity; a
    temperature's conversion also has an offset (:func:`base_value`)."""
    if unit.qkind == "money":
        return ("money", unit.unit), 1.0
    if unit.qkind == "measure" and unit.unit in TEMPERATURE_SCALES:
        return ("measure", "temperature"), TEMPERATURE_SCALES[unit.unit][0]
    if unit.qkind == "measure":
        scale = UNIT_SCALE.get(unit.unit)
        if scale is not None:
            return ("measure", scale[0]), scale[1]
        return ("measure", "unit:" + unit.unit), 1.0
    return (unit.qkind, ""), 1.0


def base_value(unit: QuantityUnit) -> tuple[tuple[str, str], float]:
    """(compatibility class, value in that class's base unit): "10 km" -> 10,000 metres,
    "80 °F" -> 26.7 degrees Celsius (a conversion with an offset)."""
    cls, factor = kind_class(unit)
    offset = TEMPERATURE_SCALES[unit.unit][1] if cls == ("measure", "temperature") else 0.0
    assert unit.value is not None, "an amount's value (callers leave out units without one)"
    return cls, unit.value * factor + offset


def opposed(query: QuantityUnit, other: QuantityUnit) -> str:
    """Why two mentions of one amount contradict each other ("" when they do not): opposite
    directions ("rose 5%" against "fell 5%") or opposite bounds ("more than 150" against
    "fewer than 150"), each side stating its own (extract.quantities.context)."""
    if query.direction and other.direction and query.direction != other.direction:
        return f"direction {query.direction} vs {other.direction}"
    if query.bound and other.bound and query.bound != other.bound:
        return f"bound {query.bound} vs {other.bound}"
    return ""


#: the derivation family (extract.quantities.context.FAMILIES) each operation needs the
#: query's own words to state; a sum or difference of percentages also counts as "points"
OPERATION_FAMILY = {
    "+": "sum",
    "-": "difference",
    "x2": "multiple",
    "x3": "multiple",
    "x4": "multiple",
    "x0.5": "multiple",
    "/": "ratio",
    "change": "change",
    "share": "share",
}


def stated(query: QuantityUnit, operation: str, family: str) -> bool:
    """Whether the query's words state ``operation`` (of the derived table ``family``)."""
    if family == "points" and "points" in query.derivations:
        return True
    return OPERATION_FAMILY[operation] in query.derivations


def fmt(value: float) -> str:
    """Compact number: 2500 -> "2500", 1.2e9 -> "1.2e9", 0.5 -> "0.5"; a value
    beyond floating point: "inf" / "-inf"."""
    if not math.isfinite(value):
        return str(value)
    if value == int(value) and abs(value) < 1e6:
        return str(int(value))
    text = f"{value:.6g}"
    return text.replace("e+0", "e").replace("e+", "e").replace("e-0", "e-")


def show(unit: QuantityUnit) -> str:
    """A quantity as written in diagnostics: "USD 2.5e9", "4.5%", "10 kilometre"."""
    assert unit.value is not None, "an amount's value (fmt could not write None)"
    if unit.qkind == "money":
        return f"{unit.unit} {fmt(unit.value)}"
    if unit.qkind == "percent":
        return f"{fmt(unit.value)}%"
    if unit.qkind == "measure":
        return f"{fmt(unit.value)} {unit.unit}"
    if (
        unit.qkind == "ordinal"
        and unit.value is not None
        and math.isfinite(unit.value)
        and unit.value == int(unit.value)
    ):
        number = int(unit.value)
        suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
        return f"{number}{suffix}"
    return fmt(unit.value)


def _rel(a: float, b: float) -> float:
    scale = max(abs(a), abs(b))
    return 0.0 if scale == 0 else abs(a - b) / scale


def _is_count(unit: QuantityUnit, value: float, exact_below: float) -> bool:
    return unit.qkind == "number" and value == int(value) and abs(value) < exact_below


def _operand(unit: QuantityUnit) -> str:
    """An operand in a derivation: with its unit when it is a measure."""
    assert unit.value is not None, "an operand's value (derived_table holds amounts only)"
    return show(unit) if unit.qkind in ("measure", "percent") else fmt(unit.value)


def _result(query: QuantityUnit, base_value: float) -> str:
    """A derived value (in the class's base unit) in the query's own unit."""
    if query.qkind == "measure":
        return show(QuantityUnit("measure", query.unit, base_value / kind_class(query)[1], "", (0, 0)))
    if query.qkind == "percent":
        return f"{fmt(base_value)}%"
    return fmt(base_value)


def _days(start: str, end: str) -> int:
    return (_dt.date.fromisoformat(end) - _dt.date.fromisoformat(start)).days
