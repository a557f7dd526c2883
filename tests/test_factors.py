"""Hand-computed factors and indices (docs/papers.md#venn-counts, docs/papers.md#softmax-index and
docs/papers.md#linear-rhi), both normalisations and RHI variants."""

import math
from types import SimpleNamespace

import pytest
from halluscope.factors import entity_factors, relation_linear_factors, relation_softmax_factors
from halluscope.fusion import fused_chi, harmonic_fusion, mean_index
from halluscope.indices import linear_rhi, normalized_rhi, softmax_bounds, softmax_index, support_share
from halluscope.venn import VennCounts, venn_counts

E = math.e
SAME = VennCounts(i=2, r=2, g=2, ig=2, rg=2, irg=2, ir=2)  # I = R = G
DISJOINT = VennCounts(i=1, r=1, g=1, ig=0, rg=0, irg=0, ir=0)
EMPTY = VennCounts(i=0, r=0, g=0, ig=0, rg=0, irg=0, ir=0)
# typical: 10 source, 4 reference, 5 generated units; 3 of G in I, 2 in R, 2 in both; 3 of R in I
TYPICAL = VennCounts(i=10, r=4, g=5, ig=3, rg=2, irg=2, ir=3)


def test_venn_counts_from_flags_is_g_centric():
    counts = venn_counts(4, 3, [True, True, False], [True, False, False], [True, False, True])
    assert counts == VennCounts(i=4, r=3, g=3, ig=2, rg=1, irg=1, ir=2)


def test_empty_sets_are_undefined_and_all_zero_ratios():
    assert EMPTY.undefined
    assert entity_factors(EMPTY) == {"EF": 0.0, "PH": 0.0, "OF": 0.0, "NH": 0.0, "LF": 0.0}
    assert not VennCounts(i=3, r=0, g=0, ig=0, rg=0, irg=0, ir=0).undefined


def test_entity_factors_identical_sets():
    assert entity_factors(SAME) == {"EF": 1.0, "PH": 1.0, "OF": 1.0, "NH": 0.0, "LF": 0.5}
    # 2e / (3e + 1 + e^0.5): a perfect summary scores about 0.50, not 1 (docs/papers.md#softmax-range)
    assert softmax_index(entity_factors(SAME)) == pytest.approx(0.5032193, abs=1e-7)


def test_entity_factors_disjoint_sets():
    assert entity_factors(DISJOINT) == {"EF": 0.0, "PH": 0.0, "OF": 0.0, "NH": 1.0, "LF": 0.5}
    assert softmax_index(entity_factors(DISJOINT)) == pytest.approx(2 / (3 + E + E**0.5))
    assert softmax_index(entity_factors(DISJOINT)) == pytest.approx(0.2714808, abs=1e-7)


def test_entity_factors_typical():
    f = entity_factors(TYPICAL)
    assert f["EF"] == pytest.approx(6 / 19)
    assert f["PH"] == pytest.approx(4 / 9)
    assert f["OF"] == pytest.approx(6 / 15)
    assert f["NH"] == pytest.approx(2 / 5)
    assert f["LF"] == pytest.approx(3 / 9)
    expected = (E ** (4 / 9) + E ** (6 / 19)) / (E ** (4 / 9) + E ** (6 / 19) + E**0.4 + E**0.4 + E ** (1 / 3))
    assert softmax_index(f) == pytest.approx(expected)


def test_linear_rhi_identical_sets_scores_1_875():
    f = relation_linear_factors(SAME)
    assert f == {"EF": 1.0, "PH": 1.0, "OF": 0.0, "NH": 0.0, "LF": 0.5, "LH": 0.0}
    assert linear_rhi(f) == 1.875
    assert normalized_rhi(linear_rhi(f)) == 0.9375


def test_linear_rhi_disjoint_and_typical():
    f = relation_linear_factors(DISJOINT)
    assert f == {"EF": 0.0, "PH": 0.0, "OF": 0.0, "NH": 1.0, "LF": 0.5, "LH": 0.5}
    assert linear_rhi(f) == 0.5
    t = relation_linear_factors(TYPICAL)
    assert t["OF"] == pytest.approx(2 / 15)
    assert t["NH"] == pytest.approx(2 / 5)
    assert t["LF"] == pytest.approx(3 / 9)
    assert t["LH"] == pytest.approx(7 / 15)
    assert linear_rhi(t) == pytest.approx(1 + (6 / 19 + 4 / 9) / 2 - (2 / 15 + 2 / 5 + 7 / 15 + 3 / 9) / 4)
    assert linear_rhi(t) == pytest.approx(1.0467836, abs=1e-7)


def test_softmax_rhi_factors_and_index():
    same = relation_softmax_factors(SAME)
    assert same == {"EF": 1.0, "PH": 1.0, "OF": 0.0, "NH": 0.0, "LF": 0.0, "LH": 0.0}
    assert softmax_index(same) == pytest.approx(2 * E / (2 * E + 4))  # 0.5761, the upper bound
    disjoint = relation_softmax_factors(DISJOINT)
    assert disjoint == {"EF": 0.0, "PH": 0.0, "OF": 0.0, "NH": 1.0, "LF": 0.0, "LH": 1.0}
    assert softmax_index(disjoint) == pytest.approx(0.2119416, abs=1e-7)
    t = relation_softmax_factors(TYPICAL)
    assert t["LF"] == pytest.approx(1 / 5)
    assert t["LH"] == pytest.approx(2 / 15)


def test_softmax_bounds_match_the_design_brief():
    assert softmax_bounds(2, 5) == pytest.approx((0.1969503, 0.6444050), abs=1e-7)
    assert softmax_bounds(2, 6) == pytest.approx((0.1553624, 0.5761169), abs=1e-7)


def test_minmax_rescales_into_unit_interval():
    assert softmax_index(entity_factors(SAME), "minmax") == pytest.approx(0.6844694, abs=1e-7)
    assert softmax_index(relation_softmax_factors(SAME), "minmax") == pytest.approx(1.0)
    # the worst profile reaches exactly 0
    worst = {"EF": 0.0, "PH": 0.0, "OF": 1.0, "NH": 1.0, "LF": 1.0}
    assert softmax_index(worst, "minmax") == pytest.approx(0.0, abs=1e-12)
    # factors outside [0, 1] are clipped before rescaling
    assert softmax_index({"EF": 2.0, "PH": 1.0, "OF": -1.0, "NH": 0.0, "LF": 0.0}, "minmax") == pytest.approx(1.0)
    assert linear_rhi({"EF": 1, "PH": 1, "OF": -3, "NH": 0, "LF": 0, "LH": 0}, "minmax") == 2.0
    with pytest.raises(ValueError, match="normalize"):
        softmax_index(entity_factors(SAME), "zscore")


def test_support_share():
    assert support_share([True, True, False, True]) == 0.75
    assert math.isnan(support_share([]))
    # 3 supported of 4, the unsupported one contradicted: it counts twice, 3 / 5
    assert support_share([True, True, False, True], contradicted=1) == 0.6
    # attribution credits: (0.5 + 1) / (3 + 1)
    assert support_share([0.5, 1.0, 0.0], contradicted=1) == 0.375


def _dimension(score, contradicted=False):
    """What :func:`fused_chi` reads of a dimension's result: its score, unit count and
    whether a unit was contradicted."""
    return SimpleNamespace(
        score=score, counts=SimpleNamespace(g=0 if math.isnan(score) else 1), contradicted=contradicted
    )


def test_fused_chi_keeps_counting_the_indices_when_one_is_zero():
    words = SimpleNamespace(score=0.8, contradicted=False)
    # H = 0 (every relation unsupported); the lexical term λ w (0.9 + 0.1 M), M = (1 + 0 + 0.5) / 3
    one_wrong = fused_chi({"ehi": _dimension(1.0), "rhi": _dimension(0.0), "qhi": _dimension(0.5)}, words, None, 0.01)
    assert one_wrong == pytest.approx(0.01 * 0.8 * (0.9 + 0.1 * 0.5))
    # a wrong name besides: M = (0.5 + 0 + 0.5) / 3, so CHI is lower, not tied
    two_wrong = fused_chi({"ehi": _dimension(0.5), "rhi": _dimension(0.0), "qhi": _dimension(0.5)}, words, None, 0.01)
    assert two_wrong == pytest.approx(0.01 * 0.8 * (0.9 + 0.1 / 3)) and two_wrong < one_wrong
    # every defined dimension 1: M = 1, the lexical term is λ w as before
    assert fused_chi(
        {"ehi": _dimension(1.0), "rhi": _dimension(1.0), "qhi": _dimension(math.nan)}, words, None, 0.01
    ) == pytest.approx(0.99 + 0.008)
    # a contradiction halves the whole; weights weigh M as they weigh H (qhi twice: M = 0.5 / 4)
    contradicted = fused_chi(
        {"ehi": _dimension(0.0, contradicted=True), "rhi": _dimension(1.0), "qhi": _dimension(0.0)},
        words,
        {"qhi": 2},
        0.01,
    )
    assert contradicted == pytest.approx(0.5 * 0.01 * 0.8 * (0.9 + 0.1 * 0.25))
    assert mean_index({"ehi": 0.5, "rhi": math.nan, "qhi": 1.0}, {"qhi": 3}) == pytest.approx((0.5 + 3) / 4)
    assert math.isnan(mean_index({"ehi": math.nan}))
    # formula="paper" (no words) fuses the indices alone: eq. 21's zero stays 0
    assert fused_chi({"ehi": _dimension(1.0), "rhi": _dimension(0.0)}, None, None, 0.0) == 0.0


def test_harmonic_fusion_adaptive_zero_and_weights():
    assert harmonic_fusion({"ehi": 0.5, "rhi": 0.25, "qhi": 0.5}) == pytest.approx(3 / (2 + 4 + 2))
    assert harmonic_fusion({"ehi": 0.5, "rhi": 0.25, "qhi": math.nan}) == pytest.approx(2 / (2 + 4))
    assert harmonic_fusion({"ehi": 0.5, "rhi": 0.0, "qhi": 0.9}) == 0.0
    assert math.isnan(harmonic_fusion({"ehi": math.nan, "rhi": math.nan, "qhi": math.nan}))
    weighted = harmonic_fusion({"ehi": 0.5, "rhi": 0.25, "qhi": 0.5}, {"qhi": 2})
    assert weighted == pytest.approx(4 / (1 / 0.5 + 1 / 0.25 + 2 / 0.5))
    with pytest.raises(ValueError, match="unknown dimensions"):
        harmonic_fusion({"ehi": 0.5}, {"xhi": 1})
    with pytest.raises(ValueError, match="positive"):
        harmonic_fusion({"ehi": 0.5}, {"ehi": -1})
