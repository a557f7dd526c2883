"""Leave-one-dataset-out (LODO), the lead measure of docs/benchmarks.md: thresholds and
choices tuned on the other folds, the held-out fold's balanced accuracy and ROC-AUC,
and the per-fold margin of one result over another.

Every tuned quantity (a threshold, a weight, a mode) is chosen on the OTHER datasets
and scored on the held-out one. A fold is one dataset (SummaC file, FRANK part);
tuning maximises the MEAN over the tuning folds of each fold's balanced accuracy, so
every dataset weighs the same whatever its size. Folds are passed as mappings
``fold name -> per-row values`` (or as parallel sequences of per-fold lists). The
conventions of scores, labels and undefined scores are :mod:`benchmarks.measures`'.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from benchmarks.measures import balanced_accuracy, roc_auc, tune_threshold

#: two mean balanced accuracies closer than this are equal (ties -> lowest threshold / first candidate)
TIE_TOLERANCE = 1e-12


class _FoldCurve:
    """One fold's scores prepared for threshold sweeps: sorted consistent and
    inconsistent scores (NaN -> +inf) and the fold's distinct scores."""

    __slots__ = ("positives", "negatives", "values")

    def __init__(self, scores: Sequence[float], labels: Sequence[int]):
        import numpy as np

        filled = np.asarray(scores, dtype=float)
        filled = np.where(np.isnan(filled), np.inf, filled)
        classes = np.asarray(labels, dtype=int)
        if filled.shape != classes.shape:
            raise ValueError(f"{filled.shape[0]} scores but {classes.shape[0]} labels")
        self.positives = np.sort(filled[classes == 1])
        self.negatives = np.sort(filled[classes != 1])
        self.values = np.unique(filled)

    def balanced_accuracy(self, thresholds):
        """BA at every threshold of the array ``thresholds`` (NaN for an empty fold)."""
        import numpy as np

        total = np.zeros(len(thresholds))
        parts = 0
        if len(self.positives):  # consistent rows predicted consistent: score >= t
            total += 1.0 - np.searchsorted(self.positives, thresholds, side="left") / len(self.positives)
            parts += 1
        if len(self.negatives):  # inconsistent rows predicted inconsistent: score < t
            total += np.searchsorted(self.negatives, thresholds, side="left") / len(self.negatives)
            parts += 1
        return total / parts if parts else np.full(len(thresholds), np.nan)


def _fold_items(scores_by_fold, labels_by_fold) -> list[tuple[Sequence[float], Sequence[int]]]:
    if isinstance(scores_by_fold, Mapping):
        return [(scores_by_fold[fold], labels_by_fold[fold]) for fold in scores_by_fold]
    if len(scores_by_fold) != len(labels_by_fold):
        raise ValueError(f"{len(scores_by_fold)} score folds but {len(labels_by_fold)} label folds")
    return list(zip(scores_by_fold, labels_by_fold, strict=True))


def _best_threshold(curves: Sequence[_FoldCurve]) -> tuple[float, float]:
    """(threshold, mean BA over the folds) maximising the mean BA. Candidates: every
    distinct score of any fold and +inf; ties -> the lowest. No fold with rows:
    (+inf, NaN)."""
    import numpy as np

    curves = [c for c in curves if len(c.positives) or len(c.negatives)]
    if not curves:
        return math.inf, math.nan
    candidates = np.unique(np.concatenate([c.values for c in curves] + [np.array([np.inf])]))
    mean = sum(c.balanced_accuracy(candidates) for c in curves) / len(curves)
    best = int(np.argmax(mean >= mean.max() - TIE_TOLERANCE))
    return float(candidates[best]), float(mean[best])


def lodo_threshold(scores_by_fold, labels_by_fold) -> float:
    """The threshold that maximises the MEAN over the given folds of each fold's
    balanced accuracy (every fold weighs the same, whatever its size).

    ``scores_by_fold``/``labels_by_fold``: mappings fold -> per-row values (same keys)
    or parallel sequences of per-fold lists. Conventions of :func:`tune_threshold`:
    predicted consistent iff score >= t; NaN ranks on top (+inf); candidates are every
    distinct score and +inf; ties -> the lowest threshold (one fold: the same threshold
    as :func:`tune_threshold`). Folds without rows are skipped; none left: +inf.
    One sort per fold and a ``searchsorted`` of the candidates in each: O(n log n)."""
    return _best_threshold([_FoldCurve(s, y) for s, y in _fold_items(scores_by_fold, labels_by_fold)])[0]


def mean_fold_balanced_accuracy(scores_by_fold, labels_by_fold, threshold: float) -> float:
    """The mean over folds (those with rows) of each fold's balanced accuracy at ``threshold``."""
    import numpy as np

    values = [
        c.balanced_accuracy(np.array([threshold], dtype=float))[0]
        for c in (_FoldCurve(s, y) for s, y in _fold_items(scores_by_fold, labels_by_fold))
    ]
    defined = [v for v in values if not math.isnan(v)]
    return sum(defined) / len(defined) if defined else math.nan


@dataclass(frozen=True)
class LodoFold:
    """One held-out fold: the candidate and threshold chosen on its tuning folds and
    how they score on it. BA values are fractions (0..1)."""

    fold: str
    rows: int
    candidate: Hashable
    threshold: float
    tuning_folds: tuple[str, ...]
    excluded_folds: tuple[str, ...]
    #: the chosen candidate's mean BA over the tuning folds at ``threshold``
    tuning_ba: float
    #: held-out BA of the chosen candidate at ``threshold``
    ba: float
    #: held-out ROC-AUC of the chosen candidate (threshold-free)
    auc: float
    #: the chosen candidate's BA with the threshold tuned on the held-out fold itself
    in_sample_ba: float
    in_sample_threshold: float


def _mean_defined(values: Sequence[float]) -> float:
    defined = [v for v in values if not math.isnan(v)]
    return sum(defined) / len(defined) if defined else math.nan


@dataclass(frozen=True)
class LodoResult:
    """Leave-one-dataset-out over every fold (in ``labels_by_fold`` order). Means skip
    undefined (NaN) fold values (a fold with one class has no AUC)."""

    folds: dict[str, LodoFold]
    candidates: tuple[Hashable, ...]

    @property
    def mean_ba(self) -> float:
        return _mean_defined([f.ba for f in self.folds.values()])

    @property
    def mean_auc(self) -> float:
        return _mean_defined([f.auc for f in self.folds.values()])

    @property
    def mean_in_sample_ba(self) -> float:
        return _mean_defined([f.in_sample_ba for f in self.folds.values()])

    @property
    def mean_threshold(self) -> float:
        return _mean_defined([f.threshold for f in self.folds.values() if math.isfinite(f.threshold)])

    @property
    def gap(self) -> float:
        """Mean in-sample BA − mean LODO BA: what tuning on the scored data itself overstates."""
        return self.mean_in_sample_ba - self.mean_ba

    @property
    def min_ba(self) -> float:
        defined = [f.ba for f in self.folds.values() if not math.isnan(f.ba)]
        return min(defined) if defined else math.nan

    @property
    def min_fold(self) -> str | None:
        defined = [f for f in self.folds.values() if not math.isnan(f.ba)]
        return min(defined, key=lambda f: f.ba).fold if defined else None

    def ba_by_fold(self) -> dict[str, float]:
        return {name: f.ba for name, f in self.folds.items()}

    def summary(self) -> dict[str, object]:
        """Plain dict (JSON-ready) of the means and every fold."""
        return {
            "mean_ba": self.mean_ba,
            "mean_auc": self.mean_auc,
            "mean_in_sample_ba": self.mean_in_sample_ba,
            "gap": self.gap,
            "min_ba": self.min_ba,
            "min_fold": self.min_fold,
            "candidates": [str(c) for c in self.candidates],
            "folds": {
                name: {
                    **f.__dict__,
                    "candidate": str(f.candidate),
                    "tuning_folds": list(f.tuning_folds),
                    "excluded_folds": list(f.excluded_folds),
                }
                for name, f in self.folds.items()
            },
        }


def lodo_evaluate(
    candidates: Mapping[Hashable, Mapping[str, Sequence[float]]],
    labels_by_fold: Mapping[str, Sequence[int]],
    exclusions: Mapping[str, Sequence[str]] | None = None,
) -> LodoResult:
    """Leave-one-dataset-out with a choice among ``candidates`` (name -> fold -> scores;
    e.g. the weights of a fusion being tuned; one candidate = the plain LODO of one metric).

    For each held-out fold H (every fold of ``labels_by_fold``): the tuning folds are
    all other folds except ``exclusions[H]`` (folds sharing data with H). Each
    candidate gets its :func:`lodo_threshold` over the tuning folds; the candidate with
    the highest mean tuning-fold BA at its threshold wins (ties: the first in
    ``candidates`` order) and scores H at that threshold (BA, ROC-AUC). In-sample BA:
    the chosen candidate with the threshold :func:`tune_threshold` picks on H itself.
    A fold without any tuning fold gets threshold and BA NaN (the first candidate)."""
    exclusions = exclusions or {}
    names = list(candidates)
    if not names:
        raise ValueError("no candidates")
    folds = list(labels_by_fold)
    for name in names:
        missing = [f for f in folds if f not in candidates[name]]
        if missing:
            raise ValueError(f"candidate {name!r} has no scores for folds {missing}")
    curves = {
        (name, fold): _FoldCurve(candidates[name][fold], labels_by_fold[fold]) for name in names for fold in folds
    }
    results: dict[str, LodoFold] = {}
    for held_out in folds:
        excluded = tuple(f for f in folds if f != held_out and f in set(exclusions.get(held_out, ())))
        tuning = tuple(f for f in folds if f != held_out and f not in excluded)
        chosen, threshold, tuning_ba = names[0], math.nan, math.nan
        if tuning:
            best_value = -math.inf
            for name in names:
                t, value = _best_threshold([curves[(name, f)] for f in tuning])
                if not math.isnan(value) and value > best_value + TIE_TOLERANCE:
                    chosen, threshold, tuning_ba, best_value = name, t, value, value
        scores, labels = candidates[chosen][held_out], labels_by_fold[held_out]
        in_sample_threshold = tune_threshold(scores, labels)
        results[held_out] = LodoFold(
            fold=held_out,
            rows=len(labels),
            candidate=chosen,
            threshold=threshold,
            tuning_folds=tuning,
            excluded_folds=excluded,
            tuning_ba=tuning_ba,
            ba=math.nan if math.isnan(threshold) else balanced_accuracy(scores, labels, threshold),
            auc=roc_auc(scores, labels),
            in_sample_ba=balanced_accuracy(scores, labels, in_sample_threshold),
            in_sample_threshold=in_sample_threshold,
        )
    return LodoResult(folds=results, candidates=tuple(names))


@dataclass(frozen=True)
class FoldMargin:
    """Per-fold held-out BA differences a − b over the folds both results have."""

    differences: dict[str, float]
    wins: int
    losses: int
    ties: int

    @property
    def folds(self) -> int:
        return len(self.differences)

    @property
    def mean_difference(self) -> float:
        return _mean_defined(list(self.differences.values()))

    @property
    def min_difference(self) -> float:
        defined = [d for d in self.differences.values() if not math.isnan(d)]
        return min(defined) if defined else math.nan

    @property
    def every_fold(self) -> bool:
        """a beats b on every fold (a change that helps everywhere, not only on the mean)."""
        return self.folds > 0 and self.wins == self.folds


def fold_margin(result_a: LodoResult, result_b: LodoResult, tolerance: float = TIE_TOLERANCE) -> FoldMargin:
    """How ``result_a`` compares with ``result_b`` fold by fold: BA differences a − b
    (folds of a that b also has, NaN where either is undefined), and on how many folds
    a beats b (difference > ``tolerance``), loses, or ties."""
    differences = {fold: a.ba - result_b.folds[fold].ba for fold, a in result_a.folds.items() if fold in result_b.folds}
    defined = [d for d in differences.values() if not math.isnan(d)]
    return FoldMargin(
        differences=differences,
        wins=sum(d > tolerance for d in defined),
        losses=sum(d < -tolerance for d in defined),
        ties=sum(abs(d) <= tolerance for d in defined),
    )
