"""Hallucination factors from Venn counts, exactly as the papers print them.

EHI (CHI paper eq. 2–6) and QHI (CHI paper eq. 15–19) share five factors; the
linear RHI (RHI paper eq. 6–11) and the softmax RHI* (CHI paper eq. 8–13) have six,
with different OF/NH/LF/LH (docs/papers.md#ehi, #qhi, #linear-rhi, #softmax-rhi and
#two-versions-of-lf-and-lh). A ratio with a zero denominator is 0
(docs/papers.md#zero-denominators-and-undefined-dimensions).
"""

from __future__ import annotations

from .venn import VennCounts

Factors = dict[str, float]


def ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, 0 when the denominator is 0."""
    return numerator / denominator if denominator else 0.0


def entity_factors(c: VennCounts) -> Factors:
    """EHI/QHI factors (CHI paper eq. 2–6 and 15–19; docs/papers.md#ehi, #qhi):
    EF = 3|I∩R∩G|/(|I|+|R|+|G|); PH = 2|R∩G|/(|R|+|G|); OF = 2|I∩G|/(|I|+|G|);
    NH = (|G| − (|R∩G| + |I∩G| − |I∩R∩G|))/|G|; LF = (|R| − |I∩R| + |I∩R∩G|)/(|R|+|G|).
    """
    return {
        "EF": ratio(3 * c.irg, c.i + c.r + c.g),
        "PH": ratio(2 * c.rg, c.r + c.g),
        "OF": ratio(2 * c.ig, c.i + c.g),
        "NH": ratio(c.g - (c.rg + c.ig - c.irg), c.g),
        "LF": ratio(c.r - c.ir + c.irg, c.r + c.g),
    }


#: QHI uses EHI's five factors on quantities (CHI paper §3.4.3, docs/papers.md#qhi)
quantity_factors = entity_factors


def relation_linear_factors(c: VennCounts) -> Factors:
    """Linear RHI factors (RHI paper eq. 6–11; docs/papers.md#linear-rhi): EF, PH as EHI;
    OF = 2(|I∩G| − |I∩R∩G|)/(|I|+|G|); NH = ||G| − (|R∩G| + |I∩G| − |I∩R∩G|)|/|G|;
    LF = (|R| − (|I∩R| − |I∩R∩G|))/(|R|+|G|); LH = (|I| − |I∩G|)/(|I|+|G|).
    """
    return {
        "EF": ratio(3 * c.irg, c.i + c.r + c.g),
        "PH": ratio(2 * c.rg, c.r + c.g),
        "OF": ratio(2 * (c.ig - c.irg), c.i + c.g),
        "NH": ratio(abs(c.g - (c.rg + c.ig - c.irg)), c.g),
        "LF": ratio(c.r - (c.ir - c.irg), c.r + c.g),
        "LH": ratio(c.i - c.ig, c.i + c.g),
    }


def relation_softmax_factors(c: VennCounts) -> Factors:
    """RHI* factors (CHI paper eq. 8–13; docs/papers.md#softmax-rhi): EF, PH, OF, NH as the linear RHI;
    LF = (|I∩R| − |I∩R∩G|)/|G|; LH = 2(|R| − |I∩R| − (|R∩G| − |I∩R∩G|))/(|I|+|G|).
    """
    linear = relation_linear_factors(c)
    return {
        "EF": linear["EF"],
        "PH": linear["PH"],
        "OF": linear["OF"],
        "NH": linear["NH"],
        "LF": ratio(c.ir - c.irg, c.g),
        "LH": ratio(2 * (c.r - c.ir - (c.rg - c.irg)), c.i + c.g),
    }


def clip_factors(factors: Factors) -> Factors:
    """Each factor clipped to [0, 1] (``normalize="minmax"``)."""
    return {name: min(1.0, max(0.0, value)) for name, value in factors.items()}
