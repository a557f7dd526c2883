"""DL-ACU post-processing filters (Mind the Link, Algorithm 1 lines 18 and 22; docs/papers.md#dl-acu)."""

import numpy as np
import pytest
from halluscope.acu.dl_filters import bertscore_f1, nli_filter, overlap_filter
from halluscope.nli import NLIEngine

SUMMARY = "Engineers shut the plant after noticing the leak."


def test_nli_filter_threshold_and_one_call():
    calls = []
    table = {
        "Engineers shut the plant after noticing the leak.": 0.9,
        "Engineers shut the plant before noticing the leak.": 0.05,
        "Engineers noticed the leak.": 0.4,
    }

    def scorer(premises, hypotheses):
        calls.append(len(premises))
        assert set(premises) == {SUMMARY}
        return np.array([[table[h], (1 - table[h]) / 2, (1 - table[h]) / 2] for h in hypotheses])

    engine = NLIEngine(scorer=scorer)
    units = list(table)
    out = nli_filter(units, SUMMARY, engine)
    assert [(u, round(p, 6), k) for u, p, k in out] == [
        (units[0], 0.9, True),
        (units[1], 0.05, False),
        (units[2], 0.4, True),
    ]
    assert calls == [3]
    assert [k for _, _, k in nli_filter(units, SUMMARY, engine, tau=0.5)] == [True, False, False]
    assert nli_filter([], SUMMARY, engine) == []


def test_overlap_filter_max_over_hosts_exact():
    f1 = {("a", "x"): 0.2, ("a", "y"): 0.69, ("b", "x"): 0.7, ("b", "y"): 0.1, ("c", "x"): 0.0, ("c", "y"): 0.95}
    seen = []

    def scorer(cands, refs):
        seen.append((list(cands), list(refs)))
        return [f1[(c, r)] for c, r in zip(cands, refs, strict=True)]

    out = overlap_filter(["a", "b", "c"], ["x", "y"], scorer=scorer)
    assert out == [("a", 0.69, True), ("b", 0.7, False), ("c", 0.95, False)]
    assert seen == [(["a", "a", "b", "b", "c", "c"], ["x", "y", "x", "y", "x", "y"])]
    assert overlap_filter(["a"], [], scorer=scorer) == [("a", 0.0, True)]
    assert overlap_filter([], ["x"], scorer=scorer) == []
    with pytest.raises(ValueError):
        overlap_filter(["a"], ["x"], scorer=lambda c, r: [0.1, 0.2])


def test_overlap_filter_real_minilm_bertscore():
    unit = "The shooter fired at the guard."
    f1 = bertscore_f1([unit, unit, unit], [unit, "The gunman shot at the guard.", "Banks in Delhi were shut down."])
    assert f1[0] == pytest.approx(1.0, abs=1e-4)
    assert f1[2] < f1[1] < f1[0]
    out = overlap_filter(
        [unit, "Banks in Delhi were shut down because of corruption."], ["The gunman shot at the guard.", unit]
    )
    assert out[0][1] == pytest.approx(1.0, abs=1e-4) and out[0][2] is False
