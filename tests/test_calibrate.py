"""The fit of chi's p_consistent (benchmarks/calibrate.py): a centred isotonic regression
at even odds whose label p >= 0.5 is, by construction, the cut of the best mean balanced
accuracy over the folds it was fitted on (docs/benchmarks.md#p_consistent-and-the-shipped-labels)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("sklearn", reason="the fit uses scikit-learn (pip install scikit-learn); the package does not")

from benchmarks.calibrate import CUT, END_SLOPE, centred_isotonic, fit_knots, interpolate  # noqa: E402
from benchmarks.lodo import lodo_threshold, mean_fold_balanced_accuracy  # noqa: E402
from benchmarks.measures import roc_auc  # noqa: E402
from benchmarks.studies.fusion_evidence import balanced_weights  # noqa: E402


def test_the_knots_of_a_small_fit_by_hand():
    """Pool-adjacent-violators on 0 | 1 0 0 | 1 0 | 1 1 (chi 0.1 ... 0.9): steps 0, 1/3,
    1/2, 1, bounded to [0.002, 0.998]; the first step at 0.5 (chi 0.6, 0.7) becomes the
    cut's knot at its lowest chi; knots at chi 0 and 1 just outside the ends."""
    chi = np.array([0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9])
    consistent = np.array([0, 1, 0, 0, 1, 0, 1, 1], dtype=float)
    xs, ys = centred_isotonic(chi, consistent, np.ones(8))
    assert xs == pytest.approx([0.0, 0.1, 0.3, 0.6, 0.85, 1.0], abs=1e-15)
    assert ys == pytest.approx([0.001, 0.002, 1 / 3, 0.5, 0.998, 0.999], abs=1e-12)  # steps rounded to 12 places
    assert interpolate((xs, ys), [0.45, 0.6, 0.7]) == pytest.approx([1 / 3 + (0.5 - 1 / 3) / 2, 0.5, 0.5 + 0.498 * 0.4])


def test_weights_move_the_steps():
    """Even odds: a step's value is the weighted share of its consistent rows. One
    consistent row weighing 3 below two inconsistent ones weighing 1 pool into one step of
    3/5 centred at chi (3 x 0.2 + 0.4 + 0.6) / 5 = 0.32; it is the first step at or above
    0.5, so the cut's knot (0.2, 0.5) precedes it and the knot at chi 0 lies just below."""
    xs, ys = centred_isotonic(np.array([0.2, 0.4, 0.6]), np.array([1.0, 0.0, 0.0]), np.array([3.0, 1.0, 1.0]))
    assert xs == pytest.approx([0.0, 0.2, 0.32, 1.0], abs=1e-15)
    assert ys == pytest.approx([0.499, 0.5, 0.6, 0.601], abs=1e-15)


folds_strategy = st.lists(
    st.lists(st.tuples(st.integers(0, 40).map(lambda k: k / 40), st.booleans()), min_size=2, max_size=40).filter(
        lambda rows: len({y for _, y in rows}) == 2
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=150, deadline=None)
@given(folds_strategy)
def test_label_at_one_half_is_the_cut_of_the_best_mean_balanced_accuracy(rows_by_fold):
    """For any folds: p is strictly increasing in chi on [0, 1] (ROC-AUC of p is chi's, on
    every fold), in (0, 1), and labelling p >= 0.5 reaches the largest mean balanced
    accuracy over the folds any cut on chi reaches (lodo_threshold's)."""
    folds = [f"f{k}" for k in range(len(rows_by_fold))]
    chi = {f: np.array([c for c, _ in rows]) for f, rows in zip(folds, rows_by_fold, strict=True)}
    labels = {f: [int(y) for _, y in rows] for f, rows in zip(folds, rows_by_fold, strict=True)}
    assert len(balanced_weights(folds, labels)) == sum(len(v) for v in labels.values())
    xs, ys = fit_knots(chi, labels, folds)
    assert xs[0] == 0.0 and xs[-1] == 1.0 and np.all(np.diff(xs) > 0) and np.all(np.diff(ys) > 0)
    assert END_SLOPE / 2 < ys[0] and ys[-1] < 1 - END_SLOPE / 2
    p = {f: interpolate((xs, ys), chi[f]) for f in folds}
    for f in folds:
        assert roc_auc(p[f], labels[f]) == roc_auc(list(chi[f]), labels[f])
    best = mean_fold_balanced_accuracy(
        {f: list(chi[f]) for f in folds}, labels, lodo_threshold({f: list(chi[f]) for f in folds}, labels)
    )
    assert mean_fold_balanced_accuracy(p, labels, CUT) == pytest.approx(best, abs=1e-9)
