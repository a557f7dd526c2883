"""CHI: harmonic fusion of the defined dimensions (004 eq. 21–22).

CHI = Σ w_d / Σ (w_d / d) over the defined dimensions d ∈ {EHI, RHI*, QHI}
(equal weights give eq. 21; dropping undefined ones is the adaptive eq. 22). A
defined dimension equal to 0 makes CHI 0; no defined dimension makes CHI NaN.
"""
from __future__ import annotations

import math
from typing import Mapping, Optional

DIMENSIONS = ("ehi", "rhi", "qhi")


def check_weights(weights: Optional[Mapping[str, float]]) -> Mapping[str, float]:
    """Validate user weights: keys among ehi/rhi/qhi, finite and positive values."""
    if weights is None:
        return {d: 1.0 for d in DIMENSIONS}
    if not isinstance(weights, Mapping):
        raise TypeError("`weights` must be a mapping such as {'ehi': 1, 'rhi': 1, 'qhi': 2}")
    unknown = set(weights) - set(DIMENSIONS)
    if unknown:
        raise ValueError(f"`weights` has unknown dimensions {sorted(unknown)}; use {DIMENSIONS}")
    out = {d: 1.0 for d in DIMENSIONS}
    for name, value in weights.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
            raise ValueError(f"`weights[{name!r}]` must be a positive finite number, got {value!r}")
        out[name] = float(value)
    return out


def harmonic_fusion(scores: Mapping[str, float], weights: Optional[Mapping[str, float]] = None) -> float:
    """Weighted harmonic mean of the defined (non-NaN) scores."""
    weights = check_weights(weights)
    defined = {d: s for d, s in scores.items() if not math.isnan(s)}
    if not defined:
        return math.nan
    if any(s <= 0 for s in defined.values()):
        return 0.0
    return sum(weights[d] for d in defined) / sum(weights[d] / s for d, s in defined.items())
