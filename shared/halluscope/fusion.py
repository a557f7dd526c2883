"""CHI: harmonic fusion of the defined dimensions (CHI paper eq. 21–22; docs/papers.md#chi-fusion,
#chi-fusion-edge-cases).

CHI = Σ w_d / Σ (w_d / d) over the defined dimensions d ∈ {EHI, RHI*, QHI}
(equal weights give eq. 21; dropping undefined ones is the adaptive eq. 22). A
defined dimension equal to 0 makes CHI 0; no defined dimension makes CHI NaN.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .dimension_registry import names

#: CHI is multiplied by this under formula="support" when the source contradicts a unit
#: or a verb of the summary (:func:`fused_chi`)
CONTRADICTION_FACTOR = 0.5


#: under formula="support", the share of the lexical term that the indices decide
#: (:func:`fused_chi`): λ w ((1 - INDEX_SHARE) + INDEX_SHARE x their weighted mean)
INDEX_SHARE = 0.1


#: weights are relative: the smallest may be at most this many times smaller than the
#: largest (beyond it the small one no longer counts in a float sum)
MAX_WEIGHT_RATIO = 1e12


def check_weights(weights: Mapping[str, float] | None) -> Mapping[str, float]:
    """Validate user weights: a non-empty mapping, keys among the registered dimensions
    (ehi/rhi/qhi), finite positive numbers at most ``MAX_WEIGHT_RATIO`` apart (an
    :class:`halluscope.errors.OptionError` naming ``weights`` otherwise: an empty, NaN,
    negative or non-numeric weight is a mistake, not equal weights; docs/api.md#signatures).
    Weights are relative, so they are returned divided by the power of two at or below
    the largest: 1e308 weighs like 1 and the fusion's sums cannot overflow, while
    dividing by a power of two changes no bit of CHI."""
    from .errors import OptionError

    dimensions = names()
    if weights is None:
        return {d: 1.0 for d in dimensions}
    if not isinstance(weights, Mapping):
        raise OptionError(
            f"`weights` must be a mapping such as {{'ehi': 1, 'rhi': 1, 'qhi': 2}}, got {type(weights).__name__}",
            option="weights",
        )
    if not weights:
        raise OptionError(
            "`weights` is empty; give a weight per dimension to change, such as {'qhi': 2}, or None for equal weights",
            option="weights",
        )
    unknown = [name for name in weights if name not in dimensions]
    if unknown:
        raise OptionError(
            f"`weights` has unknown dimensions {sorted(map(str, unknown))}; use {dimensions}", option="weights"
        )
    out = {d: 1.0 for d in dimensions}
    for name, value in weights.items():
        number = None
        if not isinstance(value, bool) and isinstance(value, (int, float)):
            try:
                number = float(value)
            except OverflowError:  # an int beyond the float range
                number = None
        if number is None or not math.isfinite(number) or number <= 0:
            raise OptionError(
                f"`weights[{name!r}]` must be a positive finite number, got {value!r} "
                "(weights are relative: every defined dimension counts)",
                option="weights",
            )
        out[name] = number
    largest, smallest = max(out.values()), min(out.values())
    if largest / smallest > MAX_WEIGHT_RATIO:
        raise OptionError(
            f"`weights` {dict(weights)!r} differ by more than {MAX_WEIGHT_RATIO:g} times; "
            "weights are relative, so give them on one scale",
            option="weights",
        )
    if largest > 1.0:
        _, exponent = math.frexp(largest)  # largest = m * 2**exponent with 0.5 <= m < 1
        out = {d: math.ldexp(w, 1 - exponent) for d, w in out.items()}
    return out


def harmonic_fusion(scores: Mapping[str, float], weights: Mapping[str, float] | None = None) -> float:
    """Weighted harmonic mean of the defined (non-NaN) scores."""
    return _harmonic(_defined(scores), check_weights(weights))


def mean_index(scores: Mapping[str, float], weights: Mapping[str, float] | None = None) -> float:
    """Weighted arithmetic mean of the defined (non-NaN) scores (NaN when none is)."""
    return _mean(_defined(scores), check_weights(weights))


def _defined(scores: Mapping[str, float]) -> dict[str, float]:
    return {d: s for d, s in scores.items() if not math.isnan(s)}


def _harmonic(defined: Mapping[str, float], weights: Mapping[str, float]) -> float:
    """:func:`harmonic_fusion` of defined scores, under weights :func:`check_weights` gave."""
    if not defined:
        return math.nan
    if any(s <= 0 for s in defined.values()):
        return 0.0
    return sum(weights[d] for d in defined) / sum(weights[d] / s for d, s in defined.items())


def _mean(defined: Mapping[str, float], weights: Mapping[str, float]) -> float:
    """:func:`mean_index` of defined scores, under weights :func:`check_weights` gave."""
    if not defined:
        return math.nan
    return sum(weights[d] * s for d, s in defined.items()) / sum(weights[d] for d in defined)


def fused_chi(
    results: Mapping[str, Any], words: Any | None, weights: Mapping[str, float] | None, lexical_weight: float
) -> float:
    """CHI of one row from its dimensions' results (:class:`halluscope.pipeline.DimensionResult`)
    and, under ``formula="support"``, its word-level support w
    (:class:`halluscope.words.support.WordResult`; None under ``formula="paper"``,
    which fuses the papers' indices as they are, CHI paper eq. 21-22).

    Under ``formula="support"``: CHI = (1 - λ) H + λ w (1 - δ + δ M), H the harmonic
    fusion (eq. 21-22), λ ``lexical_weight`` (the option)
    (:data:`halluscope.scoring_options.LEXICAL_WEIGHT`), M the weighted arithmetic mean of
    the defined dimensions (:func:`mean_index`) and δ :data:`INDEX_SHARE`: the units
    decide, and among summaries they tie (every unit supported, or none) the one whose
    words the source holds ranks first. H is 0 as soon as one dimension is (every
    relation unsupported, say); M keeps the other dimensions counting there, so that a
    further wrong name or number still lowers CHI (docs/papers.md#chi-fusion-edge-cases).
    A summary with no unit in any dimension
    scores w itself: 0 for an empty or content-free one (it states nothing the source
    can support, and must never outscore a real summary), 1 for a source sentence
    copied or paraphrased without a name, relation or number; eq. 22 leaves such a row
    undefined. When the source contradicts a unit of any dimension or one of the
    summary's verbs (a WordNet antonym, or the same verb under the other polarity), or its
    aligned source sentence negates a word of it or has its opposite
    (:mod:`halluscope.match.polarity`), CHI is multiplied by :data:`CONTRADICTION_FACTOR`:
    a contradiction is evidence against
    the summary, not a missing match (adjective antonyms do not count: "old" against
    "new" fires on faithful summaries, "the 72-year-old")."""
    defined = _defined({dimension: r.score for dimension, r in results.items()})
    weights = check_weights(weights)  # once per row, for both means
    fused = _harmonic(defined, weights)
    if words is None:
        return fused
    w = words.score
    if all(r.counts is not None and r.counts.g == 0 for r in results.values()):
        value = w
    else:
        value = (1 - lexical_weight) * fused + lexical_weight * w * (
            1 - INDEX_SHARE + INDEX_SHARE * _mean(defined, weights)
        )
    if words.contradicted or any(r.contradicted for r in results.values()):
        value *= CONTRADICTION_FACTOR
    return value
