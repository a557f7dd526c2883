"""The report's inline SVG charts (halluscope.report.charts): the points they draw,
checked by hand, and text that stays text."""

from __future__ import annotations

import math
import re

import pytest
from halluscope.report.charts import (
    bars_svg,
    histogram,
    histogram_svg,
    reliability_bins,
    reliability_svg,
    roc_points,
    roc_svg,
)
from halluscope.report.page import build_report
from halluscope.report.stats import roc_auc


def test_histogram_counts_defined_values_in_equal_bins():
    # bins of 0.25 over [0, 1]: 0.1 | 0.3, 0.49 | 0.5 | 1.0 in the closed last bin; NaN left out
    assert histogram([0.1, 0.3, 0.49, 0.5, 1.0, math.nan], 0.0, 1.0, bins=4) == [1, 2, 1, 1]
    assert histogram([-1.0, 2.0], 0.0, 1.0, bins=2) == [1, 1]  # outside: clipped into the end bins


def test_roc_points_step_through_every_distinct_score():
    # scores 0.9 (1), 0.8 (0), 0.3 (1): at >= 0.9 one of two positives, no negative; at >= 0.8
    # the negative too; at >= 0.3 everything
    assert roc_points([0.9, 0.8, 0.3], [1, 0, 1]) == [(0.0, 0.0), (0.0, 0.5), (1.0, 0.5), (1.0, 1.0)]
    assert roc_auc([0.9, 0.8, 0.3], [1, 0, 1]) == 0.5
    # a tie moves both rates at once; an undefined score counts as consistent (+inf)
    assert roc_points([0.5, 0.5, math.nan], [1, 0, 0]) == [(0.0, 0.0), (0.5, 0.0), (1.0, 1.0)]
    assert roc_points([0.5, 0.7], [1, 1]) == []  # one class: no curve


def test_reliability_bins_average_p_and_labels_per_bin():
    bins = reliability_bins([0.05, 0.15, 0.12, 0.95, math.nan], [0, 1, 0, 1, 1])
    assert bins == [(0.05, 0.0, 1), (pytest.approx(0.135), 0.5, 2), (0.95, 1.0, 1)]


def test_svg_text_is_escaped_and_holds_no_script():
    evil = '<script>alert(1)</script> & "x"'
    charts = [
        histogram_svg(evil, {evil: [0.2, 0.4]}),
        roc_svg({evil: ([(0, 0), (1, 1)], 0.5)}),
        reliability_svg([(0.2, 0.1, 3)], 0.1),
        bars_svg(evil, {evil: 0.5}),
    ]
    for svg in charts:
        assert "<script" not in svg and svg.startswith('<svg class="hs-chart"') and svg.endswith("</svg>")
    for svg in (charts[0], charts[1], charts[3]):  # the charts that name a score
        assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;" in svg


def test_a_report_without_labels_draws_distributions_and_means():
    records = [
        {
            "line": 1,
            "id": "a",
            "prediction": "x",
            "source": "x",
            "scores": {"chi": {"chi": 0.5, "ehi": 1.0, "rhi": math.nan, "qhi": 0.25}},
        }
    ]
    document = build_report(records)
    assert re.findall(r'data-chart="(\w+)"', document) == ["histogram"] * 4 + ["bars"]
    # the means: one bar per defined score (rhi has none)
    assert re.findall(r'<rect class="hs-bar" data-series="([^"]+)"', document) == ["chi", "chi.ehi", "chi.qhi"]


def test_a_histogram_spans_its_scores_declared_range_and_refuses_values_outside():
    ticks = r'text-anchor="middle">(-?[\d.]+)</text>'
    assert re.findall(ticks, histogram_svg("chi", {"all": [0.2, 0.9]})) == ["0", "0.5", "1"]
    assert re.findall(ticks, histogram_svg("rhi", {"all": [0.2, 1.9]}, span=(0.0, 2.0))) == ["0", "1", "2"]
    assert re.findall(ticks, histogram_svg("dlsd_acu", {"all": [-0.5]}, span=(-1.0, 1.0))) == ["-1", "0", "1"]
    for value in (1.5, -3.0, math.inf, -math.inf):  # what the report refuses before it draws
        with pytest.raises(ValueError, match="is outside the chart's range"):
            histogram_svg("chi", {"all": [0.5, value]})
    histogram_svg("chi", {"all": [0.5, math.nan, 1 + 1e-12]})  # NaN is undefined; rounding is inside
