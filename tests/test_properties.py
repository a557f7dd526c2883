"""Property tests (hypothesis) of the indices over every valid Venn count."""
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from halluscope.factors import entity_factors, relation_linear_factors, relation_softmax_factors
from halluscope.fusion import harmonic_fusion
from halluscope.indices import linear_rhi, softmax_bounds, softmax_index, support_share
from halluscope.venn import VennCounts


@st.composite
def venn(draw):
    """Counts that some matching can produce: G-centric intersections within their sets."""
    i, r, g = (draw(st.integers(0, 12)) for _ in range(3))
    ig = draw(st.integers(0, min(i, g)))
    rg = draw(st.integers(0, min(r, g)))
    irg = draw(st.integers(max(0, ig + rg - g), min(ig, rg)))  # |I∩G| + |R∩G| − |I∩R∩G| <= |G|
    ir = draw(st.integers(0, min(i, r)))
    return VennCounts(i=i, r=r, g=g, ig=ig, rg=rg, irg=irg, ir=ir)


@settings(max_examples=300, deadline=None)
@given(venn())
def test_entity_and_quantity_index_within_theoretical_bounds(c):
    factors = entity_factors(c)
    assert all(0.0 <= v <= 1.0 for v in factors.values())
    low, high = softmax_bounds(2, 5)
    assert low - 1e-12 <= softmax_index(factors) <= high + 1e-12
    assert 0.0 <= softmax_index(factors, "minmax") <= 1.0


@settings(max_examples=300, deadline=None)
@given(venn())
def test_rhi_variants_ranges(c):
    linear = relation_linear_factors(c)
    assert all(0.0 <= v <= 1.0 for v in linear.values())
    assert 0.0 <= linear_rhi(linear) <= 2.0
    assert 0.0 <= softmax_index(relation_softmax_factors(c), "minmax") <= 1.0
    assert 0.0 <= linear_rhi(relation_linear_factors(c), "minmax") <= 2.0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=20), st.integers(1, 5))
def test_support_share_monotonicity(supported, extra):
    """Adding unsupported units lowers the supported share; adding supported ones never
    lowers it (DESIGN §4.6, and every row under formula="support")."""
    base = support_share(supported)
    worse = support_share(supported + [False] * extra)
    better = support_share(supported + [True] * extra)
    assert worse < base or base == 0.0
    assert better >= base


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.01, 1.0), min_size=1, max_size=3))
def test_harmonic_fusion_between_min_and_max(values):
    scores = dict(zip(("ehi", "rhi", "qhi"), values))
    fused = harmonic_fusion(scores)
    assert min(values) - 1e-12 <= fused <= max(values) + 1e-12
    assert not math.isnan(fused)
