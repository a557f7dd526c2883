"""Study of issue 25 item 5 (session 12): fusions in which every piece of index evidence
adds to the word evidence, compared by leave-one-dataset-out over a feature dump of the
DESIGN half (``fusion_study.py dump --half design``), beside ``alnum-types`` and the dump's
own chi. The lockbox is scored once, at the end, with the candidate chosen here.

    python -m benchmarks.studies.fusion_evidence /tmp/feat-design.jsonl

A fitted candidate is refitted for every held-out fold on its tuning folds only (the
harness's exclusions), each tuning fold and each label within it weighing the same
(the objective LODO's thresholds maximise), so no held-out row ever informs its own
score; its LODO threshold is then chosen on the tuning folds' fitted scores as for any
other score.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence

import numpy as np

from benchmarks._common import DIMENSIONS
from benchmarks.lodo import lodo_threshold
from benchmarks.measures import balanced_accuracy, roc_auc
from benchmarks.studies.fusion_lodo import FOLDS, Study, exclusions

DIMS = DIMENSIONS


def logit(p: float, eps: float = 0.02) -> float:
    p = min(max(p, eps), 1 - eps)
    return math.log(p / (1 - p))


def defined(v) -> bool:
    return v is not None and not (isinstance(v, float) and math.isnan(v))


def missing(r, d) -> float:
    """Units of dimension d not supported, attribution-weighted (g - credit)."""
    return max(0.0, r[d]["g"] - r[d]["credit"])


def feature_sets() -> dict[str, Callable[[dict], list[float]]]:
    def words(r):
        return [logit(r["w"])]

    def words_alnum(r):
        return [logit(r["w"]), logit(r["alnum"])]

    def counts(r):
        return [logit(r["w"])] + [missing(r, d) for d in DIMS] + [sum(r[d]["contra"] for d in DIMS) + r["flips"]]

    def counts_capped(r):
        return (
            [logit(r["w"])]
            + [min(missing(r, d), 3.0) for d in DIMS]
            + [min(1.0, sum(r[d]["contra"] for d in DIMS) + r["flips"])]
        )

    def shares(r):
        out = [logit(r["w"])]
        for d in DIMS:
            g = r[d]["g"]
            out.append(logit((r[d]["credit"] + 0.5) / (g + 1.0)) if g else 0.0)
        out.append(min(1.0, sum(r[d]["contra"] for d in DIMS) + r["flips"]))
        return out

    def any_missing(r):
        return (
            [logit(r["w"])]
            + [float(missing(r, d) > 0.25) for d in DIMS]
            + [min(1.0, sum(r[d]["contra"] for d in DIMS) + r["flips"])]
        )

    def chi_words(r):
        return [logit(r["chi"], 0.005), logit(r["w"])]

    def chi_words_contra(r):
        return [logit(r["chi"], 0.005), logit(r["w"]), min(1.0, sum(r[d]["contra"] for d in DIMS) + r["flips"])]

    def chi_alnum(r):
        return [logit(r["chi"], 0.005), logit(r["alnum"])]

    return {
        "chi+words": chi_words,
        "chi+words+contra": chi_words_contra,
        "chi+alnum": chi_alnum,
        "words": words,
        "words+alnum": words_alnum,
        "counts": counts,
        "counts-capped": counts_capped,
        "shares": shares,
        "any-missing": any_missing,
    }


def fit_logistic(x: np.ndarray, y: np.ndarray, weight: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Weighted L2-regularised logistic regression by Newton's method (intercept first)."""
    X = np.hstack([np.ones((x.shape[0], 1)), x])
    beta = np.zeros(X.shape[1])
    penalty = np.full(X.shape[1], ridge)
    penalty[0] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-X @ beta))
        grad = X.T @ (weight * (y - p)) - penalty * beta
        hess = (X * (weight * p * (1 - p))[:, None]).T @ X + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.max(np.abs(step)) < 1e-8:
            break
    return beta


def balanced_weights(folds: Sequence[str], labels: dict[str, Sequence[int]]) -> np.ndarray:
    out = []
    for f in folds:
        y = np.asarray(labels[f])
        n1, n0 = max(1, (y == 1).sum()), max(1, (y != 1).sum())
        out.append(np.where(y == 1, 0.5 / n1, 0.5 / n0))
    return np.concatenate(out)


class LodoFit:
    """LODO of a fitted candidate: per held-out fold, fit on its tuning folds, threshold
    on their fitted scores, BA and ROC-AUC on the held-out fold."""

    def __init__(self, study: Study):
        self.study = study

    def run(self, name: str, features: Callable[[dict], list[float]], show_coef: bool = False):
        by, labels = self.study.by, self.study.labels
        x = {f: np.array([features(r) for r in by[f]], dtype=float) for f in FOLDS}
        ba, auc, coefs = {}, {}, {}
        for held in FOLDS:
            tune = [f for f in FOLDS if f != held and f not in exclusions()[held]]
            X = np.vstack([x[f] for f in tune])
            y = np.concatenate([np.asarray(labels[f]) == 1 for f in tune]).astype(float)
            beta = fit_logistic(X, y, balanced_weights(tune, labels))
            coefs[held] = beta
            score = {f: 1 / (1 + np.exp(-(beta[0] + x[f] @ beta[1:]))) for f in FOLDS}
            t = lodo_threshold({f: score[f] for f in tune}, {f: labels[f] for f in tune})
            ba[held] = balanced_accuracy(list(score[held]), labels[held], t)
            auc[held] = roc_auc(list(score[held]), labels[held])
        self.study.results.append((name, ba, auc))
        if show_coef:
            print(name, "coefficients (mean over folds):", np.round(np.mean(list(coefs.values()), axis=0), 3))


def main(paths):
    for path in paths:
        study = Study(path)
        study.report("alnum", study.col(lambda r: r["alnum"]))
        study.report("chi", study.col(lambda r: r["chi"]))
        study.report("w", study.col(lambda r: r["w"]))
        for a in (0.25, 0.5, 1.0):
            study.report(f"chi*w^{a}", study.col(lambda r, a=a: r["chi"] * r["w"] ** a))
            study.report(f"chi*alnum^{a}", study.col(lambda r, a=a: r["chi"] * r["alnum"] ** a))
        fit = LodoFit(study)
        for name, fn in feature_sets().items():
            fit.run(f"logit[{name}]", fn, show_coef=True)
        print(f"\n{path}")
        study.show()


if __name__ == "__main__":
    main(sys.argv[1:])
