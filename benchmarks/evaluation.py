"""How the harness evaluates one dimension's scores on a labelled file: the protocol
(:class:`Protocol`: seeded half-splits or a test file, bootstrap intervals) and the
measures of a result row, balanced accuracy, ROC-AUC, the share predicted consistent,
FRANK's error-type rates and the system- and summary-level correlations
(docs/benchmarks.md, "How these numbers are made")."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks._common import Dataset
from benchmarks.measures import (
    error_type_rates,
    half_split_balanced_accuracy,
    held_out_predictions,
    roc_auc,
    summary_level_correlation,
    system_level_correlation,
    transfer_balanced_accuracy,
    tune_threshold,
    undefined_as_top,
)
from benchmarks.pseudo_systems import document_ids


@dataclass
class Protocol:
    """How thresholds are tuned and intervals drawn. Without a test split: ``splits``
    seeded half-splits (seeds ``seed`` .. ``seed+splits-1``), each tuned on one half and
    tested on the other in both directions, averaged."""

    splits: int = 10
    seed: int = 0
    resamples: int = 1000
    bootstrap_seed: int = 0

    def describe(self, has_test: bool) -> dict[str, Any]:
        threshold = (
            "tuned on the validation file, applied to the test file"
            if has_test
            else f"half-split: tuned on one seeded half, applied to the other, both directions, "
            f"averaged over {self.splits} splits (random.Random(seed), seeds {self.seed}.."
            f"{self.seed + self.splits - 1})"
        )
        return {
            "threshold": threshold,
            "prediction": "consistent iff score >= threshold",
            "undefined_score": "consistent (ranked above every defined score)",
            "splits": 0 if has_test else self.splits,
            "seed": self.seed,
            "bootstrap": {
                "unit": "document",
                "resamples": self.resamples,
                "seed": self.bootstrap_seed,
                "confidence": 0.95,
            },
        }


def evaluate_dimension(
    scores: Sequence[float],
    data: Dataset,
    protocol: Protocol,
    test_scores: Sequence[float] | None = None,
    test: Dataset | None = None,
) -> dict[str, Any]:
    """Balanced accuracy and ROC-AUC (%), the share of summaries predicted consistent
    (%, held out), error-type rates (%) when the evaluated file
    has ``has_<T>`` flags, and system- and summary-level correlations when it has
    systems and human scores. Evaluated file: ``test`` when given (threshold tuned on
    ``data``), else ``data`` with the half-split protocol."""
    evaluated, evaluated_scores = (test, test_scores) if test is not None else (data, scores)
    outcome: dict[str, Any] = {
        "defined": sum(not math.isnan(s) for s in evaluated_scores),
        "roc_auc_pct": 100 * roc_auc(evaluated_scores, evaluated.labels),
    }
    if test is not None:
        value, threshold = transfer_balanced_accuracy(scores, data.labels, test_scores, test.labels)
        outcome.update(balanced_accuracy_pct=100 * value, threshold=threshold, balanced_accuracy_splits_pct=None)
        predictions_per_split = [[s >= threshold for s in undefined_as_top(test_scores)]]
    else:
        seeds = range(protocol.seed, protocol.seed + protocol.splits)
        per_split = [100 * half_split_balanced_accuracy(scores, data.labels, seed) for seed in seeds]
        outcome.update(
            balanced_accuracy_pct=sum(per_split) / len(per_split),
            balanced_accuracy_splits_pct=per_split,
            threshold_all_rows=tune_threshold(scores, data.labels),
        )
        predictions_per_split = [held_out_predictions(scores, data.labels, seed) for seed in seeds]
    outcome["predicted_consistent_pct"] = (
        100 * sum(sum(p) / len(p) for p in predictions_per_split) / len(predictions_per_split)
    )
    if evaluated.error_flags:
        rates_per_split = [error_type_rates(p, evaluated.error_flags) for p in predictions_per_split]
        outcome["error_rates"] = {
            error: {
                "n": rates_per_split[0][error]["n"],
                "fp_mean": sum(r[error]["fp"] for r in rates_per_split) / len(rates_per_split),
                "rate_pct": 100 * sum(r[error]["rate"] for r in rates_per_split) / len(rates_per_split),
            }
            for error in evaluated.error_flags
        }
    if evaluated.systems is not None and evaluated.human_scores is not None:
        outcome["system_level"] = system_level_correlation(
            evaluated_scores,
            evaluated.human_scores,
            evaluated.systems,
            document_ids(evaluated.sources),
            resamples=protocol.resamples,
            seed=protocol.bootstrap_seed,
        )
        outcome["system_level"]["human_column"] = evaluated.human_column
        outcome["system_level"]["system_column"] = evaluated.system_column
        outcome["summary_level"] = summary_level_correlation(evaluated_scores, evaluated.human_scores)
    return outcome
