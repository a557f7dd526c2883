"""The declared range of every per-example score the metrics return, in one place
(docs/cli.md#scores-the-report-refuses).

Every score lies in [0, 1] except

* the rhi metric's own ``rhi`` when it is the RHI paper's linear index under
  ``formula="paper"``: 1 + (EF+PH)/2 − (OF+NH+LH+LF)/4 with factors in [0, 1], so [0, 2]
  (metrics/rhi/README.md; its ``rhi_norm`` = RHI/2 is in [0, 1]);
* ``dlsd_acu`` when its units are aligned by a difference of NLI probabilities,
  P(ent) − P(neutral) (the ``fenice`` host) or P(ent) − P(contr): [−1, 1]; P(ent) alone
  (``fizz``, the default) is in [0, 1].

The softmax indices under ``formula="paper"`` lie inside [0, 1] (≈ [0.197, 0.644] for EHI
and QHI), and are declared [0, 1]. ``halluscope report`` refuses a score outside its
range, and charts each score over it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .option_types import METRIC_SPECS
from .signature import recorded_option

#: (lowest, highest) value of a score
Range = tuple[float, float]
UNIT_INTERVAL: Range = (0.0, 1.0)
#: the linear RHI under formula="paper" (RHI paper eq. 12)
LINEAR_RHI_RANGE: Range = (0.0, 2.0)
#: dlsd_acu aligned by a difference of two NLI probabilities (ent-neutral, ent-contr)
NLI_DIFFERENCE_RANGE: Range = (-1.0, 1.0)
#: how far past an end of its range a score may lie and still count as inside it: rounding
#: of sums that are exactly an end in real numbers (0.99 + 0.01), never a meaningful excess
RANGE_TOLERANCE = 1e-9
#: per-example scores a metric returns besides :attr:`halluscope.options.MetricSpec.outputs`:
#: chi's verdict (docs/benchmarks.md#p_consistent-and-the-shipped-labels)
_VERDICT_SCORES: dict[str, tuple[str, ...]] = {"chi": ("p_consistent",)}


def score_names(metric: str) -> tuple[str, ...]:
    """The per-example scores ``metric`` returns (``<name>_scores`` in the API's result,
    ``scores.<metric>.<name>`` in a record of ``halluscope score``)."""
    return METRIC_SPECS[metric].outputs + _VERDICT_SCORES.get(metric, ())


def _alignment(options: Mapping[str, Any]) -> str | None:
    """dlsd_acu's alignment: the option, else its host's (None: neither is known)."""
    if options.get("alignment"):
        return options["alignment"]
    if options.get("host"):
        from .acu.acu_options import HOSTS

        return HOSTS[options["host"]].alignment
    return None


def declared_range(metric: str, name: str, options: Mapping[str, Any] | None = None) -> Range:
    """The range of ``metric``'s score ``name`` under ``options`` (its ``formula`` and, for
    rhi, ``variant``; dlsd_acu's ``host`` and ``alignment``; as
    :func:`halluscope.options.resolve` gives them). An option that ``options`` lacks (or
    ``options=None``) is not known: the range is then the widest that the score has under
    any value of it. A name ``metric`` does not return is a ``KeyError``."""
    if metric not in METRIC_SPECS or name not in score_names(metric):
        raise KeyError(f"{metric}.{name}")
    known = options or {}
    if metric == "rhi" and name == "rhi":
        if known.get("formula", "paper") == "paper" and known.get("variant", "linear") == "linear":
            return LINEAR_RHI_RANGE
    if metric == "dlsd_acu" and _alignment(known) != "ent":
        return NLI_DIFFERENCE_RANGE
    return UNIT_INTERVAL


def within(value: float, bounds: Range) -> bool:
    """Whether ``value`` lies in ``bounds`` (give or take :data:`RANGE_TOLERANCE`)."""
    low, high = bounds
    return low - RANGE_TOLERANCE <= value <= high + RANGE_TOLERANCE


def options_in_signature(signature: str | None) -> dict[str, str]:
    """The options a metric's signature records that decide its ranges: ``formula``
    (``formula:paper``), the RHI ``variant`` (``rhi:linear``) and dlsd_acu's
    ``alignment`` (``align:ent``); those it does not name are left out (so
    :func:`declared_range` takes the widest range)."""
    found = {option: recorded_option(signature, option) for option in ("formula", "variant", "alignment")}
    return {option: value for option, value in found.items() if value}
