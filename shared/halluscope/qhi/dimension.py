"""QHI, the quantity dimension (CHI paper eq. 15-20; docs/papers.md): numbers, amounts,
dates and ranks of the summary found in the source exactly, within epsilon, by a
derivation the summary states or a relative date; a number in another's place
contradicted (docs/papers.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..dimensions.base import Dimension, copied_units, swapped_units, written_units
from ..factors import quantity_factors
from ..signature_text import Field, number


class Quantities(Dimension):
    name = "qhi"
    units = "quantities"
    equations = "CHI paper eq. 15-20"
    attributed = True

    def extractor(self, options) -> Callable[[Any], list]:
        from .extract import extract_quantities

        return extract_quantities

    def matcher(self, options, resources):
        from .match import QuantityMatcher

        return QuantityMatcher(
            epsilon=options.epsilon, derived=options.derived_quantities, temporal=options.temporal_quantities
        )

    def refine(self, jobs, found, plan, parsed, options, contradictions):
        """Under formula="support", the swaps (:mod:`halluscope.ehi.swaps`); then, under
        grounding="text" (as for entities and relations), the numbers the source writes with
        the summary's word next to them (:func:`~halluscope.qhi.grounding.quantity_in_text`)
        and then those of the passages the summary copies
        (:func:`~halluscope.qhi.match.quantity_copied`)."""
        if options.formula == "support":
            from .swaps import replaced_quantity, swapped_quantity

            found = swapped_units(jobs, found, plan, parsed, swapped_quantity, replaced_quantity)
        if options.grounding == "text":
            from .grounding import quantity_in_text
            from .match import quantity_copied

            found = written_units(jobs, found, plan, parsed, quantity_in_text)
            # then a quantity of a sentence the source writes word for word, which the
            # copy's parse reads otherwise (another direction: docs/papers.md#attribution)
            found = copied_units(jobs, found, plan, parsed, quantity_copied)
        return jobs, found

    def nearest(self, unit, pool):
        """The source quantity of the same kind (and unit, where one is) nearest in value."""
        if unit.value is None:
            return None
        same = [
            q for q in pool if q.qkind == unit.qkind and q.value is not None and (q.unit == unit.unit or not unit.unit)
        ]
        if not same:
            return None

        def apart(q) -> float:
            scale = max(abs(q.value), abs(unit.value))
            return abs(q.value - unit.value) / scale if scale else 0.0

        best = min(same, key=lambda q: (apart(q), q.span))
        if best.value == unit.value:
            return best, "the same value said of something else in the source"
        return best, f"{apart(best):.0%} apart, and no derivation of it is stated"

    def factors(self, counts) -> dict[str, float]:
        return quantity_factors(counts)

    @property
    def signature_fields(self) -> tuple[Field, ...]:
        return (Field("qty", ("epsilon", "derived", "temporal"), _quantity_modes),)


def _quantity_modes(call) -> str:
    """The ``qty`` field: the matching modes on in ``call``, then the tolerance."""
    options = call.options
    modes = (
        "exact+eps"
        + ("+derived" if options.derived_quantities else "")
        + ("+temporal" if options.temporal_quantities else "")
    )
    return f"{modes}@{number(options.epsilon)}"


QUANTITIES = Quantities()
