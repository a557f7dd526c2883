"""Indices from factors: softmax EHI/QHI/RHI*, linear RHI, reference-free support.

Softmax index (CHI paper eq. 1, docs/papers.md#softmax-index):
Σ_{f∈rewarded} e^f / Σ_{all f} e^f, rewarded = {EF, PH}.
With ``g`` rewarded factors of ``k`` and each factor in [0, 1], the index lies in
[g/(g+(k−g)e), g·e/(g·e+(k−g))] (docs/papers.md#softmax-range): EHI/QHI ≈ [0.197, 0.644],
RHI* ≈ [0.155, 0.576]. ``normalize="minmax"`` clips the factors and rescales the
index by these bounds to [0, 1]; ``"paper"`` returns the formula as written.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .factors import Factors, clip_factors

REWARDED = ("EF", "PH")
NORMALIZATIONS = ("paper", "minmax")


def softmax_bounds(rewarded: int, total: int) -> tuple[float, float]:
    """Range of a softmax index with ``rewarded`` of ``total`` factors in [0, 1]."""
    penalised = total - rewarded
    low = rewarded / (rewarded + penalised * math.e)
    high = rewarded * math.e / (rewarded * math.e + penalised)
    return low, high


def softmax_index(factors: Factors, normalize: str = "paper") -> float:
    """(e^EF + e^PH) / Σ_f e^f over all factors (CHI paper eq. 1, 7, 14, 20)."""
    if normalize not in NORMALIZATIONS:
        raise ValueError(f"normalize must be one of {NORMALIZATIONS}, got {normalize!r}")
    if normalize == "minmax":
        factors = clip_factors(factors)
    numerator = sum(math.exp(factors[name]) for name in REWARDED)
    value = numerator / sum(math.exp(v) for v in factors.values())
    if normalize == "minmax":
        low, high = softmax_bounds(len(REWARDED), len(factors))
        value = min(1.0, max(0.0, (value - low) / (high - low)))
    return value


def linear_rhi(factors: Factors, normalize: str = "paper") -> float:
    """RHI = 1 + (EF+PH)/2 − (OF+NH+LH+LF)/4 (RHI paper eq. 12, docs/papers.md#linear-rhi),
    in [0, 2] for factors in [0, 1]."""
    if normalize not in NORMALIZATIONS:
        raise ValueError(f"normalize must be one of {NORMALIZATIONS}, got {normalize!r}")
    if normalize == "minmax":
        factors = clip_factors(factors)
    f = factors
    return 1 + (f["EF"] + f["PH"]) / 2 - (f["OF"] + f["NH"] + f["LH"] + f["LF"]) / 4


def normalized_rhi(rhi: float) -> float:
    """RHI_norm = (RHI − RHI_min)/(RHI_max − RHI_min) with the bounds [0, 2] implied by
    factors in [0, 1] (our reading of RHI paper eq. 13, which leaves them undefined;
    docs/papers.md#normalised-rhi): RHI/2."""
    return rhi / 2


#: how many unsupported units a unit the source contradicts counts as in a support
#: share under formula="support": a contradiction is evidence against the summary, not
#: a missing match ("How matching works" in metrics/chi/README.md)
CONTRADICTION_WEIGHT = 2


def support_share(supported: Sequence[float], contradicted: int = 0) -> float:
    """Share of the summary's units that are supported: the reference-free index
    (docs/papers.md#reference-free-scoring: 1 − NH with R = ∅, i.e. |I∩G|/|G|) and
    every row's index under ``formula="support"``. Each entry is a flag (True = 1) or, with attribution, a
    credit in [0, 1] (:mod:`halluscope.match.attribution`): the share is their mean,
    except that each of the ``contradicted`` units (unsupported entries the source
    contradicts) counts :data:`CONTRADICTION_WEIGHT` times in the denominator.
    NaN for a summary without units of this dimension."""
    if not len(supported):
        return math.nan
    return sum(float(s) for s in supported) / (len(supported) + (CONTRADICTION_WEIGHT - 1) * contradicted)
