"""The perturbation suite's edit types: each type's edit function and the index meant
to catch it."""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.perturbations.names import entity_swap_other, entity_swap_source, role_swap
from benchmarks.perturbations.numbers import (
    amount_shift,
    amount_x0_5,
    amount_x2,
    number_swap_source,
    ordinal_change,
    year_shift,
)
from benchmarks.perturbations.units import unit_change
from benchmarks.perturbations.words import antonym, negation

#: edit type -> edit function
EDITS: dict[str, Callable[..., str | None]] = {
    "amount_x2": amount_x2,
    "amount_x0.5": amount_x0_5,
    "amount_shift": amount_shift,
    "year_shift": year_shift,
    "number_swap_source": number_swap_source,
    "entity_swap_other": entity_swap_other,
    "entity_swap_source": entity_swap_source,
    "antonym": antonym,
    "negation": negation,
    "unit_change": unit_change,
    "ordinal_change": ordinal_change,
    "role_swap": role_swap,
}
#: edit type -> the index meant to catch it
OWN_INDEX = {
    **{
        name: "qhi"
        for name in (
            "amount_x2",
            "amount_x0.5",
            "amount_shift",
            "year_shift",
            "number_swap_source",
            "unit_change",
            "ordinal_change",
        )
    },
    "entity_swap_other": "ehi",
    "entity_swap_source": "ehi",
    "antonym": "rhi",
    "negation": "rhi",
    "role_swap": "rhi",
}
