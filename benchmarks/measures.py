"""Agreement measures of a metric with human judgements (no model, no halluscope).

Conventions, used by every function here and by the leave-one-dataset-out protocol
(``benchmarks/lodo.py``):

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
