"""What the report computes from the records: score columns and their statistics,
agreement with 0/1 labels (ROC-AUC, balanced accuracy), units per dimension
(docs/cli.md, "halluscope report")."""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..dimensions import names
from ..option_types import CHI_FAMILY, METRIC_SPECS
from ..ranges import Range, declared_range, options_in_signature, score_names, within

#: a score column: (metric, score name), e.g. ("chi", "ehi") for ``scores.chi.ehi``
Column = tuple[str, str]


def load_records(path: str) -> list[dict[str, Any]]:
    """The records of a scores JSONL file (blank lines ignored)."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def run_options(summary: Mapping[str, Any] | None) -> dict[str, dict[str, str]]:
    """Per metric, the options its signature in the run's summary records that decide
    its scores' ranges (:func:`halluscope.ranges.options_in_signature`); empty without a
    summary, where each score gets the widest range it has (docs/cli.md#scores-the-report-refuses)."""
    metrics = summary.get("metrics") if isinstance(summary, Mapping) else None
    if not isinstance(metrics, Mapping):
        return {}
    return {
        metric: options_in_signature(entry.get("signature"))
        for metric, entry in metrics.items()
        if isinstance(entry, Mapping)
    }


def score_range(column: Column, options: Mapping[str, Mapping[str, str]]) -> Range:
    """The declared range of a score column under the run's ``options`` (:func:`run_options`)."""
    metric, name = column
    return declared_range(metric, name, options.get(metric))


def _score_problem(metric: str, name: str, value: Any, options: Mapping[str, Mapping[str, str]]) -> str | None:
    """What makes ``value`` no score of ``scores.<metric>.<name>`` (None: nothing): not a
    number, infinite, or outside the score's declared range. NaN is undefined, as null."""
    where = f"scores.{metric}.{name}"
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"{where} must be a number or null, got {json.dumps(value, default=repr)[:40]}"
    if isinstance(value, float) and math.isnan(value):
        return None
    low, high = score_range((metric, name), options)
    if isinstance(value, float) and math.isinf(value):
        return f"{where} is {json.dumps(value)}, not a score (a number in [{low:g}, {high:g}], or null when undefined)"
    if not within(value, (low, high)):
        return f"{where} is {json.dumps(value)[:40]}, outside its range [{low:g}, {high:g}]"
    return None


def record_problem(record: Any, options: Mapping[str, Mapping[str, str]] | None = None) -> str | None:
    """What makes ``record`` unreadable as a scores record (None: nothing): the shapes
    ``halluscope score`` writes, checked before the report reads any of them, so that a
    hand-edited file is refused with its line instead of failing half-way. Each score
    must be one the metric returns and lie in its declared range under the run's
    ``options`` (:func:`run_options`; :mod:`halluscope.ranges`), or be null or NaN
    (undefined)."""
    options = options or {}
    if not isinstance(record, dict):
        return f"expected a JSON object, got {type(record).__name__}"
    scores = record.get("scores")
    if not isinstance(scores, dict) or not scores:
        return "no scores (not a record written by `halluscope score`)"
    for metric, values in scores.items():
        if metric not in METRIC_SPECS:
            return f"scores.{metric}: not a metric of halluscope ({', '.join(METRIC_SPECS)})"
        if not isinstance(values, dict):
            return f"scores.{metric} must be an object of scores, got {type(values).__name__}"
        for name, value in values.items():
            if name not in score_names(metric):
                return f"scores.{metric}.{name}: not a score of {metric} (its scores: {', '.join(score_names(metric))})"
            problem = _score_problem(metric, name, value, options)
            if problem is not None:
                return problem
    for field in ("prediction", "source"):
        if field in record and not isinstance(record[field], str):
            return f"{field} must be a string, got {type(record[field]).__name__}"
    reference = record.get("reference")
    if (
        reference is not None
        and not isinstance(reference, str)
        and not (isinstance(reference, list) and all(isinstance(r, str) for r in reference))
    ):
        return "reference must be a string or a list of strings"
    details = record.get("details")
    if details is not None:
        if not isinstance(details, dict) or not all(isinstance(d, dict) for d in details.values()):
            return "details must be an object of objects, one per metric"
        for metric, row in details.items():
            for dimension, part in row.items():
                units = part.get("units") if isinstance(part, dict) else None
                if units is None:
                    continue
                if not isinstance(units, list):
                    return f"details.{metric}.{dimension}.units must be a list"
                for unit in units:
                    span = unit.get("span") if isinstance(unit, dict) else None
                    if not (
                        isinstance(span, list)
                        and len(span) == 2
                        and all(isinstance(p, int) and not isinstance(p, bool) for p in span)
                    ):
                        return f"details.{metric}.{dimension}: a unit without a [start, end] span"
    return None


def reliability_bins(p: Sequence[float], labels: Sequence[int], bins: int = 10) -> list[tuple[float, float, int]]:
    """(mean p, share consistent, rows) of each non-empty bin of ``bins`` equal bins of p."""
    grouped: dict[int, list[tuple[float, int]]] = {}
    for value, label in zip(p, labels, strict=True):
        if math.isnan(value):
            continue
        grouped.setdefault(min(int(value * bins), bins - 1), []).append((value, int(label)))
    return [
        (sum(v for v, _ in rows) / len(rows), sum(y for _, y in rows) / len(rows), len(rows))
        for _, rows in sorted(grouped.items())
    ]


def calibration_error(p: Sequence[float], labels: Sequence[int], bins: int = 10) -> float:
    """Expected calibration error: over :func:`reliability_bins`, the row-weighted mean of
    |mean p - share consistent| (NaN without a defined p)."""
    found = reliability_bins(p, labels, bins)
    rows = sum(n for _, _, n in found)
    return sum(n * abs(mean_p - share) for mean_p, share, n in found) / rows if rows else math.nan


def column_label(metric: str, name: str) -> str:
    """``chi`` for the metric's own score, ``chi.ehi`` for a component (its JSON path)."""
    return metric if name == metric else f"{metric}.{name}"


def score_columns(records: Sequence[Mapping[str, Any]]) -> list[Column]:
    """Every (metric, score) in the records, in order of first appearance."""
    seen: dict[Column, None] = {}
    for record in records:
        for metric, scores in record.get("scores", {}).items():
            for name in scores:
                seen.setdefault((metric, name), None)
    return list(seen)


def column_values(records: Sequence[Mapping[str, Any]], column: Column) -> list[float]:
    """One float per record; NaN where the score is undefined (``null``) or absent."""
    metric, name = column
    values = []
    for record in records:
        value = record.get("scores", {}).get(metric, {}).get(name)
        values.append(math.nan if value is None else float(value))
    return values


@dataclass(frozen=True)
class ColumnStats:
    """Statistics over the defined values of one score (``None`` when none is defined)."""

    total: int
    defined: int
    mean: float | None
    median: float | None
    cut: float
    share_below_cut: float | None


def column_stats(values: Sequence[float], cut: float = 0.5) -> ColumnStats:
    """Mean (as the API computes it: sum of the defined values over their count),
    median, defined count and the share of defined values below ``cut``."""
    defined = [v for v in values if v is not None and not math.isnan(v)]
    if not defined:
        return ColumnStats(len(values), 0, None, None, cut, None)
    return ColumnStats(
        len(values),
        len(defined),
        sum(defined) / len(defined),
        statistics.median(defined),
        cut,
        sum(v < cut for v in defined) / len(defined),
    )


# ------------------------------------------------------------------- agreement with labels


def record_label(record: Mapping[str, Any], field: str = "label") -> Any:
    """The record's ``field`` as kept from the input (``fields.<field>``, or a top-level
    key of that name); None when absent."""
    kept = record.get("fields")
    if isinstance(kept, Mapping) and field in kept:
        return kept[field]
    return record.get(field)


# False and True are the keys 0 and 1 (equal and of equal hash), so they need no entry of their own
_BINARY = {0: 0, 1: 1, "0": 0, "1": 1, "false": 0, "true": 1, "0.0": 0, "1.0": 1}
#: the label forms the report accepts (docs/cli.md#labels-the-report-accepts): 1 = consistent
LABEL_FORMS = '0/1, 0.0/1.0, true/false, or those as text ("0"/"1", "0.0"/"1.0", "true"/"false", any case)'


def binary_label(value: Any) -> int | None:
    """0 or 1 for a binary label (0/1, booleans, "0"/"1", "true"/"false"); None otherwise."""
    if isinstance(value, str):
        value = value.strip().lower()
    if isinstance(value, float) and value in (0.0, 1.0):
        value = int(value)
    try:
        return _BINARY.get(value)
    except TypeError:  # an unhashable value (a list, a dict)
        return None


def is_no_label(value: Any) -> bool:
    """A row without a label: the field absent or null, or an empty (or blank) text, as an
    empty CSV cell is; left out of the agreement and counted."""
    return value is None or (isinstance(value, str) and not value.strip())


def label_problem(value: Any, field: str = "label") -> str | None:
    """What makes ``value`` neither a label (:data:`LABEL_FORMS`) nor no label
    (:func:`is_no_label`); None when it is one of them."""
    if is_no_label(value) or binary_label(value) is not None:
        return None
    return (
        f"the label field {field!r} holds {json.dumps(value, ensure_ascii=False, default=repr)[:40]}, not a label "
        f'({LABEL_FORMS}; null or "": no label)'
    )


def undefined_as_top(values: Sequence[float]) -> np.ndarray:
    """The scores with undefined (NaN) ones as +inf: a summary with nothing checkable
    counts as consistent, as in the project's benchmarks (docs/benchmarks.md)."""
    array = np.asarray(values, dtype=float)
    return np.where(np.isnan(array), np.inf, array)


def roc_auc(scores: Sequence[float], labels: Sequence[int]) -> float:
    """P(a consistent summary (label 1) scores above an inconsistent one), ties counting
    1/2: (R₁ − n₁(n₁+1)/2) / (n₁·n₀), R₁ the sum of the label-1 rows' average ranks
    (Mann–Whitney U); undefined scores rank as +inf. NaN when a class is missing."""
    from scipy.stats import rankdata

    filled, y = undefined_as_top(scores), np.asarray(labels, dtype=int)
    positives, negatives = int((y == 1).sum()), int((y == 0).sum())
    if not positives or not negatives:
        return math.nan
    ranks = rankdata(filled)  # average ranks; +inf ties with +inf
    return float((ranks[y == 1].sum() - positives * (positives + 1) / 2) / (positives * negatives))


@dataclass(frozen=True)
class Agreement:
    """One score against binary labels: ``auc``; ``threshold``, the lowest threshold
    with the best balanced accuracy ``balanced_accuracy`` (predicted consistent when
    score >= threshold); the confusion counts there (``tp``: consistent predicted
    consistent, ``fn``, ``fp``: inconsistent predicted consistent, ``tn``);
    ``undefined``: labelled rows whose score is undefined (counted as +inf)."""

    n: int
    positives: int
    auc: float
    threshold: float
    balanced_accuracy: float
    tp: int
    fn: int
    fp: int
    tn: int
    undefined: int
    #: why ROC-AUC, balanced accuracy and the threshold are undefined (NaN), None when they are not
    undefined_because: str | None = None


def one_class_reason(positives: int, negatives: int) -> str | None:
    """Why the agreement is undefined with these label counts (None: both classes are there)."""
    if positives and negatives:
        return None
    if not positives and not negatives:
        return "no example has a label"
    present, label = ("consistent", 1) if positives else ("inconsistent", 0)
    return (
        f"every labelled example is {present} (label {label}); ROC-AUC and balanced accuracy need "
        "examples of both classes"
    )


def agreement(scores: Sequence[float], labels: Sequence[int]) -> Agreement:
    """ROC-AUC, best-threshold balanced accuracy and its confusion counts. Candidate
    thresholds: every distinct score and +inf (everything predicted inconsistent);
    among equally good ones the lowest wins. Balanced accuracy is the mean of the
    recalls of the two classes. With one class (or none) all three are undefined (NaN,
    the reason in ``undefined_because``), and the confusion counts are 0: one class has
    no recall to balance, and any threshold below every score would look perfect."""
    filled, y = undefined_as_top(scores), np.asarray(labels, dtype=int)
    positives, negatives = filled[y == 1], filled[y == 0]
    reason = one_class_reason(len(positives), len(negatives))
    if reason is not None:
        return Agreement(
            len(filled), len(positives), math.nan, math.nan, math.nan, 0, 0, 0, 0, int(np.isinf(filled).sum()), reason
        )
    candidates = np.unique(np.append(filled, np.inf))
    # consistent rows predicted consistent (score >= t); inconsistent ones predicted inconsistent (score < t)
    recalls = [
        1.0 - np.searchsorted(np.sort(positives), candidates, side="left") / len(positives),
        np.searchsorted(np.sort(negatives), candidates, side="left") / len(negatives),
    ]
    balanced = np.mean(recalls, axis=0)
    best = int(np.argmax(balanced))  # the first maximum: the lowest threshold
    threshold, value = float(candidates[best]), float(balanced[best])
    tp = int((positives >= threshold).sum())
    tn = int((negatives < threshold).sum())
    return Agreement(
        len(filled),
        len(positives),
        roc_auc(scores, labels),
        threshold,
        value,
        tp,
        len(positives) - tp,
        len(negatives) - tn,
        tn,
        int(np.isinf(filled).sum()),
    )


# ------------------------------------------------------------------- units per dimension


def highlight_details(record: Mapping[str, Any]) -> dict[str, Any]:
    """One details row with each CHI-family dimension, taken from the first metric of
    the record that has it (``chi`` before ``ehi``/``rhi``/``qhi``: same units)."""
    details = record.get("details", {})
    merged: dict[str, Any] = {}
    for metric in CHI_FAMILY:
        row = details.get(metric) or {}
        for dimension in names():
            if row.get(dimension) is not None:
                merged.setdefault(dimension, row[dimension])
        if "reference_free" in row:
            merged.setdefault("reference_free", row["reference_free"])
    return merged


@dataclass(frozen=True)
class DimensionCounts:
    """One CHI-family dimension over the records: ``examples`` with at least one unit,
    the ``units`` by status, and ``flagged``: examples with an unsupported or
    contradicted unit."""

    dimension: str
    examples: int
    units: int
    supported: int
    unsupported: int
    contradicted: int
    flagged: int


def dimension_breakdown(records: Sequence[Mapping[str, Any]]) -> list[DimensionCounts]:
    """Per dimension (ehi, rhi, qhi) present in the records' details, the units counted
    by status (from :func:`highlight_details`: chi's units before those of ehi/rhi/qhi)."""
    counts: dict[str, dict[str, int]] = {}
    for record in records:
        merged = highlight_details(record)
        for dimension in names():
            if merged.get(dimension) is None:
                continue
            entry = counts.setdefault(
                dimension,
                dict.fromkeys(("examples", "units", "supported", "unsupported", "contradicted", "flagged"), 0),
            )
            statuses = [unit.get("status") for unit in merged[dimension].get("units", [])]
            entry["examples"] += bool(statuses)
            entry["units"] += len(statuses)
            for status in ("supported", "unsupported", "contradicted"):
                entry[status] += statuses.count(status)
            entry["flagged"] += any(s in ("unsupported", "contradicted") for s in statuses)
    return [DimensionCounts(d, **counts[d]) for d in names() if d in counts]


def shown_indices(total: int, limit: int) -> list[int]:
    """The records the page shows: all when ``total <= limit``, else ``limit`` evenly
    spaced ones (the first included)."""
    if total <= limit:
        return list(range(total))
    return [k * total // limit for k in range(limit)]
