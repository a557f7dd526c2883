"""Study of issue 27 (session 12): a calibrated ``p_consistent`` over chi's own signals,
and one shipped cut on it, compared by leave-one-dataset-out over a feature dump of the
DESIGN half (``fusion_study.py dump --half design``). The lockbox is scored once, with
the candidate chosen here.

    python -m benchmarks.studies.calibration /tmp/feat-design.jsonl [--show CANDIDATE] [--balanced]

Per candidate (a set of features, every one of them computed by a scoring call itself),
for every held-out fold: a logistic model fitted on its tuning folds only (the harness's
exclusions; each tuning fold weighing the same, its rows at their own label balance),
the cut on p chosen on the tuning folds (:func:`benchmarks.lodo.lodo_threshold`),
and on the held-out fold: BA at that cut, the fold's own best BA (its in-fold optimum,
the cut tuned on the fold itself), ROC-AUC and the expected calibration error (10 equal
bins of p). Printed: per fold and the means, with ECE pooled over every held-out row.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence

import numpy as np
from halluscope.report.stats import calibration_error, reliability_bins

from benchmarks._common import DIMENSIONS
from benchmarks.lodo import lodo_threshold
from benchmarks.measures import balanced_accuracy, roc_auc, tune_threshold
from benchmarks.studies.fusion_evidence import fit_logistic, logit
from benchmarks.studies.fusion_lodo import FOLDS, exclusions, load

DIMS = DIMENSIONS


def _missing(r, d) -> float:
    return max(0.0, r[d]["g"] - r[d]["credit"])


def _contradicted(r) -> float:
    return float(sum(r[d]["contra"] for d in DIMS) + r["flips"] > 0)


def _chi(r) -> float:
    return r["chi"] if r["chi"] == r["chi"] else 1.0


def candidates() -> dict[str, Callable[[dict], list[float]]]:
    """Feature sets; each feature is one a scoring call has (no alnum: the package does not
    compute it; ``cwp`` is the words' written share, ``n_alnum`` the summary's length)."""

    def chi(r):
        return [logit(_chi(r), 0.005)]

    def chi_words(r):
        return [logit(_chi(r), 0.005), logit(r["w"])]

    def chi_words_len(r):
        return [logit(_chi(r), 0.005), logit(r["w"]), math.log(1 + r["n_alnum"])]

    def chi_words_written_len(r):
        return [logit(_chi(r), 0.005), logit(r["w"]), logit(r["cwp"]), math.log(1 + r["n_alnum"])]

    def style(r):
        # what the summary's style says: its length, how much of it is written as in the
        # source, and which dimensions it has at all
        return [
            logit(_chi(r), 0.005),
            logit(r["w"]),
            logit(r["cwp"]),
            math.log(1 + r["n_alnum"]),
            *[float(r[d]["g"] > 0) for d in DIMS],
            _contradicted(r),
        ]

    def counts(r):
        return [
            logit(r["w"]),
            logit(r["cwp"]),
            math.log(1 + r["n_alnum"]),
            *[min(_missing(r, d), 3.0) for d in DIMS],
            *[float(r[d]["g"] > 0) for d in DIMS],
            _contradicted(r),
        ]

    def style_counts(r):
        return [
            logit(_chi(r), 0.005),
            logit(r["w"]),
            logit(r["cwp"]),
            math.log(1 + r["n_alnum"]),
            *[min(_missing(r, d), 3.0) for d in DIMS],
            *[float(r[d]["g"] > 0) for d in DIMS],
            _contradicted(r),
        ]

    return {
        "chi": chi,
        "chi+w": chi_words,
        "chi+w+len": chi_words_len,
        "chi+w+written+len": chi_words_written_len,
        "style": style,
        "counts": counts,
        "style+counts": style_counts,
    }


def fold_weights(folds: Sequence[str], labels: dict[str, Sequence[int]]) -> np.ndarray:
    """Each fold weighs the same; within a fold the rows keep their own label balance."""
    return np.concatenate([np.full(len(labels[f]), 1.0 / len(labels[f])) for f in folds])


def balanced_weights(folds: Sequence[str], labels: dict[str, Sequence[int]]) -> np.ndarray:
    """Each fold weighs the same, and within a fold each label weighs the same (as the
    shipped calibration is fitted, ``benchmarks/calibrate.py``): a style feature can then
    not learn a dataset's share of consistent summaries (session 17)."""
    out = []
    for f in folds:
        consistent = np.asarray(labels[f]) == 1
        out.append(np.where(consistent, 0.5 / max(1, consistent.sum()), 0.5 / max(1, (~consistent).sum())))
    return np.concatenate(out)


def ece(p: Sequence[float], y: Sequence[int], bins: int = 10) -> float:
    """Expected calibration error, as the report computes it (:func:`halluscope.report.stats.calibration_error`)."""
    return calibration_error(list(p), list(y), bins)


def reliability(p: Sequence[float], y: Sequence[int], bins: int = 10) -> list[tuple]:
    """(bin, rows, mean p, share consistent) per non-empty bin (the report's
    :func:`halluscope.report.stats.reliability_bins`, with each bin's range)."""
    out = []
    for mean_p, share, rows in reliability_bins(list(p), list(y), bins):
        b = min(int(mean_p * bins), bins - 1)
        out.append((f"{b / bins:.1f}-{(b + 1) / bins:.1f}", rows, mean_p, share))
    return out


def run(path: str, show: str = "", balanced: bool = False) -> None:
    weights = balanced_weights if balanced else fold_weights
    by = load(path)
    labels = {f: [r["label"] for r in by[f]] for f in FOLDS}
    print(f"{path}\n")
    print("| candidate | " + " | ".join(FOLDS) + " | mean BA | mean in-fold | worst gap | mean AUC | ECE pooled |")
    print("|" + "---|" * (len(FOLDS) + 6))
    for name, features in candidates().items():
        x = {f: np.array([features(r) for r in by[f]], dtype=float) for f in FOLDS}
        cells, bas, optima, aucs, pooled_p, pooled_y = [], [], [], [], [], []
        betas = []
        for held in FOLDS:
            tune = [f for f in FOLDS if f != held and f not in exclusions()[held]]
            beta = fit_logistic(
                np.vstack([x[f] for f in tune]),
                np.concatenate([np.asarray(labels[f]) == 1 for f in tune]).astype(float),
                weights(tune, labels),
            )
            betas.append(beta)
            p = {f: 1 / (1 + np.exp(-(beta[0] + x[f] @ beta[1:]))) for f in FOLDS}
            cut = lodo_threshold({f: list(p[f]) for f in tune}, {f: labels[f] for f in tune})
            ba = balanced_accuracy(list(p[held]), labels[held], cut)
            best = balanced_accuracy(list(p[held]), labels[held], tune_threshold(list(p[held]), labels[held]))
            bas.append(ba)
            optima.append(best)
            aucs.append(roc_auc(list(p[held]), labels[held]))
            pooled_p += list(p[held])
            pooled_y += list(labels[held])
            cells.append(f"{100 * ba:.1f} / {100 * best:.1f} ({cut:.2f})")
        gap = max(100 * (o - b) for o, b in zip(optima, bas, strict=True))
        print(
            f"| {name} | " + " | ".join(cells) + f" | {100 * np.mean(bas):.1f} | {100 * np.mean(optima):.1f} | "
            f"{gap:.1f} | {100 * np.mean(aucs):.1f} | {ece(pooled_p, pooled_y):.3f} |"
        )
        if name == show:
            print("\ncoefficients (mean over held-out folds):", np.round(np.mean(betas, axis=0), 3))
            for bin_range, rows, mean_p, share in reliability(pooled_p, pooled_y):
                print(f"  bin {bin_range}: {rows:d} rows, mean p {mean_p:.3f}, consistent {share:.3f}")
            print()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("dump")
    parser.add_argument("--show", default="")
    parser.add_argument(
        "--balanced",
        action="store_true",
        help="each label weighs the same within a fold (default: the fold's own balance)",
    )
    args = parser.parse_args()
    run(args.dump, args.show, args.balanced)
