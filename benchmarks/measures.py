"""Agreement measures of a metric with human judgements (no model, no halluscope).

Conventions, used by every function here:

* a score is higher for a more consistent summary; ``label`` 1 = consistent;
* a summary is predicted consistent iff ``score >= threshold``;
* an undefined score (NaN: the summary has no unit the metric checks) counts as
  consistent, ranked above every defined score (no evidence of a hallucination):
  :func:`undefined_as_top` maps it to ``+inf``; means over systems, which need a
  finite number, use :func:`undefined_as_max` (the largest defined score instead);
* balanced accuracy is the mean recall over the classes present.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from halluscope.report.stats import roc_auc as package_roc_auc

# ----------------------------------------------------------------------- undefined scores


def undefined_as_top(scores: Sequence[float]) -> list[float]:
    """NaN -> +inf: an undefined score ranks above (more consistent than) every score."""
    return [math.inf if math.isnan(s) else float(s) for s in scores]


def undefined_as_max(scores: Sequence[float]) -> list[float]:
    """NaN -> the largest defined score (0.0 when none is defined): a finite stand-in
    for "most consistent", for means."""
    defined = [s for s in scores if not math.isnan(s)]
    top = max(defined) if defined else 0.0
    return [top if math.isnan(s) else float(s) for s in scores]


# ------------------------------------------------------------------------ classification


def balanced_accuracy(scores: Sequence[float], labels: Sequence[int], threshold: float) -> float:
    """BA = mean over the classes present of their recall, with prediction
    "consistent" iff score >= threshold (NaN scores: see :func:`undefined_as_top`).
    NaN when ``labels`` is empty."""
    filled = undefined_as_top(scores)
    recalls = []
    for cls in (1, 0):
        members = [s for s, y in zip(filled, labels, strict=True) if int(y) == cls]
        if members:
            hits = sum((s >= threshold) == (cls == 1) for s in members)
            recalls.append(hits / len(members))
    return sum(recalls) / len(recalls) if recalls else math.nan


def tune_threshold(scores: Sequence[float], labels: Sequence[int]) -> float:
    """The threshold that maximises :func:`balanced_accuracy` on (scores, labels).

    Candidates: every distinct score (after NaN -> +inf) and +inf (all predicted
    inconsistent); among equally good candidates the lowest wins. One sort and a
    running count: O(n log n)."""
    filled = undefined_as_top(scores)
    positives = sum(1 for y in labels if int(y) == 1)
    negatives = len(filled) - positives
    pairs = sorted(zip(filled, (int(y) for y in labels), strict=True))
    # below threshold t (predicted inconsistent): rows with score < t
    best_value, best_threshold = -1.0, math.inf
    below_pos = below_neg = 0
    index = 0
    candidates = sorted(set(filled))
    if not candidates or candidates[-1] != math.inf:
        candidates.append(math.inf)
    for threshold in candidates:
        while index < len(pairs) and pairs[index][0] < threshold:
            below_pos += pairs[index][1] == 1
            below_neg += pairs[index][1] == 0
            index += 1
        recalls = []
        if positives:
            recalls.append((positives - below_pos) / positives)
        if negatives:
            recalls.append(below_neg / negatives)
        value = sum(recalls) / len(recalls) if recalls else 0.0
        if value > best_value + 1e-12:
            best_value, best_threshold = value, threshold
    return best_threshold


def half_split(n_rows: int, seed: int) -> tuple[list[int], list[int]]:
    """Row indices shuffled by ``random.Random(seed)`` and cut in two: the first
    ``n_rows // 2`` and the rest."""
    order = list(range(n_rows))
    random.Random(seed).shuffle(order)
    return order[: n_rows // 2], order[n_rows // 2 :]


def _take(values: Sequence, indices: Sequence[int]) -> list:
    return [values[i] for i in indices]


def transfer_balanced_accuracy(
    tune_scores: Sequence[float], tune_labels: Sequence[int], test_scores: Sequence[float], test_labels: Sequence[int]
) -> tuple[float, float]:
    """(BA on the test rows, threshold): threshold tuned on the tuning rows
    (:func:`tune_threshold`), applied unchanged to the test rows."""
    threshold = tune_threshold(tune_scores, tune_labels)
    return balanced_accuracy(test_scores, test_labels, threshold), threshold


def half_split_balanced_accuracy(scores: Sequence[float], labels: Sequence[int], seed: int = 0) -> float:
    """Tune on one half of :func:`half_split`, test on the other, both directions;
    the mean of the two balanced accuracies."""
    first, second = half_split(len(scores), seed)
    values = [
        transfer_balanced_accuracy(_take(scores, tune), _take(labels, tune), _take(scores, test), _take(labels, test))[
            0
        ]
        for tune, test in ((first, second), (second, first))
    ]
    return sum(values) / 2


def held_out_predictions(scores: Sequence[float], labels: Sequence[int], seed: int = 0) -> list[bool]:
    """Per row, "predicted consistent" at the threshold tuned on the other half of
    :func:`half_split` (every row is predicted once, out of sample)."""
    first, second = half_split(len(scores), seed)
    filled = undefined_as_top(scores)
    predicted = [False] * len(scores)
    for tune, test in ((first, second), (second, first)):
        threshold = tune_threshold(_take(scores, tune), _take(labels, tune))
        for i in test:
            predicted[i] = filled[i] >= threshold
    return predicted


def roc_auc(scores: Sequence[float], labels: Sequence[int]) -> float:
    """AUC = P(score of a consistent summary > score of an inconsistent one), ties
    counting 1/2 (Mann–Whitney U, undefined scores ranked as +inf); NaN when a class is
    missing. The package's own (:func:`halluscope.report.stats.roc_auc`), so that a report and
    a benchmark read one definition."""
    return package_roc_auc(scores, labels)


# ----------------------------------------------------------------------- FRANK error types


def error_type_rates(
    predicted_consistent: Sequence[bool], error_flags: Mapping[str, Sequence[int]]
) -> dict[str, dict[str, float]]:
    """ErrorRate_T = FP_T / N_T per error type T: N_T summaries have error T
    (``has_<T>`` = 1), FP_T of them are predicted consistent. Lower is better;
    NaN when N_T = 0."""
    rates: dict[str, dict[str, float]] = {}
    for error, flags in error_flags.items():
        having = [p for p, flag in zip(predicted_consistent, flags, strict=True) if int(flag) == 1]
        false_positives = sum(bool(p) for p in having)
        rates[error] = {
            "n": len(having),
            "fp": false_positives,
            "rate": false_positives / len(having) if having else math.nan,
        }
    return rates


# ---------------------------------------------------------------------------- correlation


def _rank_correlations(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float]:
    """(Spearman ρ, Kendall τ-b), NaN when fewer than 3 points or either side is constant."""
    import warnings

    from scipy.stats import kendalltau, spearmanr

    if len(xs) < 3 or len(set(xs)) < 2 or len(set(ys)) < 2:
        return math.nan, math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(spearmanr(xs, ys).statistic), float(kendalltau(xs, ys).statistic)


def system_means(values: Sequence[float], systems: Sequence[Hashable]) -> dict[Hashable, float]:
    """Per system, the mean of its rows' values (in first-seen system order)."""
    sums: dict[Hashable, list[float]] = {}
    for value, system in zip(values, systems, strict=True):
        sums.setdefault(system, [0.0, 0])
        sums[system][0] += value
        sums[system][1] += 1
    return {system: total / count for system, (total, count) in sums.items()}


def system_level_correlation(
    metric_scores: Sequence[float],
    human_scores: Sequence[float],
    systems: Sequence[Hashable],
    documents: Sequence[Hashable],
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> dict[str, object]:
    """Spearman and Kendall correlation between per-system mean metric score and
    per-system mean human score, with percentile bootstrap intervals.

    Bootstrap unit: the document. Each resample draws as many documents as there are,
    with replacement (``numpy.random.default_rng(seed)``), keeps every summary of each
    drawn document (as often as it was drawn), recomputes both system means and the
    correlations over the systems present; the interval is the (1−c)/2 and (1+c)/2
    percentiles of the defined resampled values. Undefined metric scores: see
    :func:`undefined_as_max`."""
    import numpy as np

    filled = undefined_as_max(metric_scores)
    system_names = list(dict.fromkeys(systems))
    document_names = list(dict.fromkeys(documents))
    system_index = {s: i for i, s in enumerate(system_names)}
    document_index = {d: i for i, d in enumerate(document_names)}
    n_docs, n_sys = len(document_names), len(system_names)
    metric_sum = np.zeros((n_docs, n_sys))
    human_sum = np.zeros((n_docs, n_sys))
    count = np.zeros((n_docs, n_sys))
    for value, human, system, document in zip(filled, human_scores, systems, documents, strict=True):
        d, s = document_index[document], system_index[system]
        metric_sum[d, s] += value
        human_sum[d, s] += float(human)
        count[d, s] += 1

    def correlations(weights: np.ndarray) -> tuple[float, float]:
        n = weights @ count
        present = n > 0
        metric_mean = (weights @ metric_sum)[present] / n[present]
        human_mean = (weights @ human_sum)[present] / n[present]
        return _rank_correlations(metric_mean.tolist(), human_mean.tolist())

    spearman, kendall = correlations(np.ones(n_docs))
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n_docs, size=(resamples, n_docs))
    resampled = [correlations(np.bincount(row, minlength=n_docs).astype(float)) for row in draws]
    low, high = 100 * (1 - confidence) / 2, 100 * (1 + confidence) / 2

    def interval(values: list[float]) -> list[float]:
        defined = [v for v in values if not math.isnan(v)]
        if not defined:
            return [math.nan, math.nan]
        return [float(np.percentile(defined, low)), float(np.percentile(defined, high))]

    return {
        "systems": n_sys,
        "documents": n_docs,
        "spearman": spearman,
        "spearman_ci": interval([r[0] for r in resampled]),
        "kendall": kendall,
        "kendall_ci": interval([r[1] for r in resampled]),
        "bootstrap": {"unit": "document", "resamples": resamples, "seed": seed, "confidence": confidence},
        "system_metric_means": {str(k): v for k, v in system_means(filled, systems).items()},
        "system_human_means": {str(k): v for k, v in system_means([float(h) for h in human_scores], systems).items()},
    }


def summary_level_correlation(metric_scores: Sequence[float], human_scores: Sequence[float]) -> dict[str, float]:
    """Spearman and Kendall τ-b over all summaries (undefined metric scores rank top)."""
    spearman, kendall = _rank_correlations(undefined_as_top(metric_scores), [float(h) for h in human_scores])
    return {"spearman": spearman, "kendall": kendall, "summaries": len(metric_scores)}


# ------------------------------------------------------------------- pseudo-system ranking


def rank_pseudo_systems(
    real_scores: Sequence[float],
    systems: Sequence[Hashable] | None,
    documents: Sequence[Hashable],
    pseudo_scores: Mapping[str, Mapping[Hashable, float]],
) -> dict[str, dict[str, object]]:
    """Where a pseudo-system (one fixed summary per document, e.g. the empty one)
    ranks among the real systems by mean score.

    Per pseudo-system: ``rank`` = 1 + number of real systems with a strictly higher
    mean (1 = best), ``above`` = number of real systems with a strictly lower mean,
    ``of`` = real systems + 1 (each pseudo-system is ranked alone among the real
    ones); without ``systems`` only ``win_rate``: the mean over documents of the share
    of that document's real summaries scoring below the pseudo summary (ties 1/2).
    Undefined scores count as the largest defined score in the check for means
    (:func:`undefined_as_max`) and as +inf for the win rate; ``defined_share`` says
    how many pseudo summaries had a defined score."""
    everything = list(real_scores) + [v for scores in pseudo_scores.values() for v in scores.values()]
    defined = [v for v in everything if not math.isnan(v)]
    top = max(defined) if defined else 0.0

    def fill(value: float) -> float:
        return top if math.isnan(value) else value

    real_means = system_means([fill(v) for v in real_scores], systems) if systems is not None else {}
    by_document: dict[Hashable, list[float]] = {}
    for value, document in zip(undefined_as_top(real_scores), documents, strict=True):
        by_document.setdefault(document, []).append(value)

    report: dict[str, dict[str, object]] = {}
    for name, per_document in pseudo_scores.items():
        values = list(per_document.values())
        entry: dict[str, object] = {
            "documents": len(values),
            "defined_share": sum(not math.isnan(v) for v in values) / len(values) if values else math.nan,
            "mean": sum(fill(v) for v in values) / len(values) if values else math.nan,
        }
        if real_means:
            mean = entry["mean"]
            entry["rank"] = 1 + sum(m > mean for m in real_means.values())
            entry["above"] = sum(m < mean for m in real_means.values())
            entry["of"] = len(real_means) + 1
        wins = []
        for document, pseudo in per_document.items():
            reals = by_document.get(document, [])
            if reals:
                p = math.inf if math.isnan(pseudo) else pseudo
                wins.append(sum(1.0 if r < p else 0.5 if r == p else 0.0 for r in reals) / len(reals))
        entry["win_rate"] = sum(wins) / len(wins) if wins else math.nan
        report[name] = entry
    if real_means:
        report["_systems"] = {"means": {str(k): v for k, v in real_means.items()}}
    return report


# ------------------------------------------------------------ leave-one-dataset-out (LODO)
#
# Every tuned quantity (a threshold, a weight, a mode) is chosen on the OTHER datasets
# and scored on the held-out one. A fold is one dataset (SummaC file, FRANK part);
# tuning maximises the MEAN over the tuning folds of each fold's balanced accuracy, so
# every dataset weighs the same whatever its size. Folds are passed as mappings
# ``fold name -> per-row values`` (or as parallel sequences of per-fold lists).

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
