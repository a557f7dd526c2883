"""Fit chi's shipped ``p_consistent`` and report it by leave-one-dataset-out (issues 27 and
57; docs/benchmarks.md#p_consistent-and-the-shipped-labels).

Input: a feature dump of the validation folds scored with the default options
(``python -m benchmarks.studies.fusion_study dump --half design``, which ``--rescore``
runs first), one row per summary with its chi and its human label.

The model: an isotonic regression of "consistent" on chi (scikit-learn, here only; the
package evaluates the stored knots with ``numpy.interp``) in which every fold weighs the
same and, within a fold, the consistent and the inconsistent summaries weigh the same: p
is calibrated for even odds in every dataset, the prior the balanced accuracy of a cut
assumes. The weighted accuracy of a cut is then the sum of the folds' balanced
accuracies, and the isotonic fit's level 0.5 is where that sum is largest: the shipped
cut is p = 0.5. The fit's steps are centred (one knot per step at its rows' weighted mean
chi, the centred isotonic regression of Oron and Flournoy, 2017) and interpolated
linearly, so p keeps chi's ranking; a knot (the lowest chi of the first step at or above
0.5, 0.5) keeps the cut where the steps put it, and knots at chi 0 and 1 just outside the
end steps (:data:`END_SLOPE`) keep p strictly increasing on all of [0, 1]. The steps are
bounded to [0.002, 0.998]: no summary gets a probability of exactly 0 or 1.

Printed, all by LODO (the knots refitted without the held-out fold): per fold the BA at
p >= 0.5 beside the BA of the labels the previous (logistic) calibration shipped (its
model and cut refitted the same way), the fold's own best BA, ROC-AUC of p and of chi,
ECE (10 bins) of both; the pooled ECE and the reliability table; then the fit on every
fold, which ``--write`` stores as the package's calibration file with the commit it was
fitted at and the fingerprint of the scores it was fitted on (:mod:`benchmarks.fingerprint`).
The refit, in one command (after a change of chi's scores, when
tests/test_calibration_fingerprint.py fails; docs/benchmarks.md#refitting-p_consistent):

    python -m benchmarks.calibrate /tmp/feat-design.jsonl --rescore --write shared/halluscope/data/p_consistent.json
    python -m benchmarks.calibrate /tmp/feat-lockbox.jsonl --check shared/halluscope/data/p_consistent.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
from collections.abc import Sequence

import numpy as np

from benchmarks.lodo import lodo_threshold
from benchmarks.measures import balanced_accuracy, roc_auc, tune_threshold
from benchmarks.studies.calibration import ece, reliability
from benchmarks.studies.fusion_evidence import balanced_weights, fit_logistic
from benchmarks.studies.fusion_lodo import FOLDS, exclusions, load

#: the shipped cut: p_consistent >= 0.5 (even odds)
CUT = 0.5
#: how far below the first step and above the last the knots at chi 0 and 1 lie (in p)
END_SLOPE = 1e-3
#: a calibration's knots: (chi, p)
Knots = tuple[list[float], list[float]]


def chi_of(row: dict) -> float:
    """A dump row's chi; undefined (NaN, which the default options never give) ranks on
    top, as in the harness."""
    return row["chi"] if row["chi"] == row["chi"] else 1.0


#: a step of the fit: (p, lowest chi, highest chi, weight, weighted sum of chi)
Step = tuple[float, float, float, float, float]


def isotonic_steps(chi: np.ndarray, consistent: np.ndarray, weight: np.ndarray) -> list[Step]:
    """The steps of the isotonic regression of ``consistent`` on ``chi`` with ``weight``
    (scikit-learn), bounded to [2 END_SLOPE, 1 - 2 END_SLOPE], in increasing order."""
    from sklearn.isotonic import IsotonicRegression

    level = (
        IsotonicRegression(y_min=2 * END_SLOPE, y_max=1 - 2 * END_SLOPE)
        .fit(chi, consistent, sample_weight=weight)
        .predict(chi)
    )
    level = np.round(level, 12)  # steps equal but for the sums' rounding (0.5 and 0.5 + 1e-16) are one
    return [
        (
            float(y),
            float(chi[level == y].min()),
            float(chi[level == y].max()),
            float(weight[level == y].sum()),
            float(np.dot(chi[level == y], weight[level == y])),
        )
        for y in np.unique(level)
    ]


def centred_isotonic(chi: np.ndarray, consistent: np.ndarray, weight: np.ndarray) -> Knots:
    """The knots (chi strictly increasing from 0 to 1, p strictly increasing) of the
    centred isotonic regression of ``consistent`` on ``chi`` with ``weight``, with the
    cut's knot and the end knots of the module's docstring."""
    xs, ys = [], []
    for y, low, high, total, moment in isotonic_steps(chi, consistent, weight):
        centre = min(max(moment / total, low), high)  # within the step despite rounding
        if y >= CUT and (not ys or ys[-1] < CUT):  # the first step at or above the cut
            if not xs or low > xs[-1]:
                xs.append(low)
                ys.append(CUT)
            if centre == low or y == CUT:
                continue
        xs.append(centre)
        ys.append(float(y))
    if xs[0] > 0.0:
        xs.insert(0, 0.0)
        ys.insert(0, ys[0] - END_SLOPE)
    if xs[-1] < 1.0:
        xs.append(1.0)
        ys.append(ys[-1] + (END_SLOPE if ys[-1] >= CUT else min(END_SLOPE, (CUT - ys[-1]) / 2)))  # same side of the cut
    if not (np.all(np.diff(xs) > 0) and np.all(np.diff(ys) > 0)):
        raise ValueError(f"the centred isotonic fit is not strictly increasing: knots {list(zip(xs, ys, strict=True))}")
    return xs, ys


def interpolate(knots: Knots, chi: Sequence[float]) -> list[float]:
    """p at each chi: the knots' linear interpolation, as :func:`halluscope.verdict.p_consistent`."""
    return np.interp(np.asarray(chi, dtype=float), knots[0], knots[1]).tolist()


def fit_knots(chi: dict[str, np.ndarray], labels: dict[str, list[int]], folds: Sequence[str]) -> Knots:
    """The knots fitted on ``folds`` at even odds (:func:`balanced_weights`)."""
    return centred_isotonic(
        np.concatenate([chi[f] for f in folds]),
        np.concatenate([np.asarray(labels[f]) == 1 for f in folds]).astype(float),
        balanced_weights(folds, labels),
    )


def logistic_lodo(chi: dict[str, np.ndarray], labels: dict[str, list[int]], held: str, tune: Sequence[str]) -> dict:
    """The previous calibration on one held-out fold: sigmoid(b0 + b1 chi) fitted the same
    way, its labels at the cut that maximised the tuning folds' mean BA (chi-20261205)."""
    beta = fit_logistic(
        np.concatenate([chi[f] for f in tune])[:, None],
        np.concatenate([np.asarray(labels[f]) == 1 for f in tune]).astype(float),
        balanced_weights(tune, labels),
    )
    p = {f: list(1 / (1 + np.exp(-(beta[0] + beta[1] * chi[f])))) for f in FOLDS}
    cut = lodo_threshold({f: p[f] for f in tune}, {f: labels[f] for f in tune})
    return {"ba": balanced_accuracy(p[held], labels[held], cut), "ece": ece(p[held], labels[held]), "p": p[held]}


def lodo(by: dict[str, list], labels: dict[str, list[int]]) -> dict:
    chi = {f: np.array([chi_of(r) for r in by[f]], dtype=float) for f in FOLDS}
    out, pooled = {}, {"p": [], "logistic": [], "y": []}
    for held in FOLDS:
        tune = [f for f in FOLDS if f != held and f not in exclusions()[held]]
        p = interpolate(fit_knots(chi, labels, tune), chi[held])
        before = logistic_lodo(chi, labels, held, tune)
        out[held] = {
            "rows": len(labels[held]),
            "ba": balanced_accuracy(p, labels[held], CUT),
            "ba_before": before["ba"],
            "best_ba": balanced_accuracy(p, labels[held], tune_threshold(p, labels[held])),
            "auc": roc_auc(p, labels[held]),
            "auc_chi": roc_auc(list(chi[held]), labels[held]),
            "ece": ece(p, labels[held]),
            "ece_before": before["ece"],
        }
        pooled["p"] += p
        pooled["logistic"] += before["p"]
        pooled["y"] += labels[held]
    return {
        "folds": out,
        "ece_pooled": ece(pooled["p"], pooled["y"]),
        "ece_pooled_before": ece(pooled["logistic"], pooled["y"]),
        "reliability": reliability(pooled["p"], pooled["y"]),
    }


def fit_all(by: dict[str, list], labels: dict[str, list[int]]) -> dict:
    chi = {f: np.array([chi_of(r) for r in by[f]], dtype=float) for f in FOLDS}
    xs, ys = fit_knots(chi, labels, FOLDS)
    return {"knots": {"chi": xs, "p": ys}, "cut": CUT}


def check(by: dict[str, list], labels: dict[str, list[int]], path: str) -> None:
    """The shipped model and cut on other rows (the lockbox): per fold BA at the shipped
    cut beside the fold's own best, ROC-AUC, ECE."""
    from halluscope.verdict import load_calibration, p_consistent_of

    shipped = load_calibration(path)
    print("| fold | rows | BA at the shipped cut | fold's best BA | ROC-AUC | ECE |\n|---|---|---|---|---|---|")
    bas, bests, pooled_p, pooled_y = [], [], [], []
    for f in FOLDS:
        p = p_consistent_of([chi_of(r) for r in by[f]], shipped)
        ba = balanced_accuracy(p, labels[f], shipped.cut)
        best = balanced_accuracy(p, labels[f], tune_threshold(p, labels[f]))
        bas.append(ba)
        bests.append(best)
        pooled_p += p
        pooled_y += labels[f]
        print(
            f"| {f} | {len(p)} | {100 * ba:.1f} | {100 * best:.1f} | {100 * roc_auc(p, labels[f]):.1f} | "
            f"{ece(p, labels[f]):.3f} |"
        )
    print(
        f"| mean | | {100 * np.mean(bas):.1f} | {100 * np.mean(bests):.1f} | | pooled {ece(pooled_p, pooled_y):.3f} |"
    )
    print("\nreliability (pooled rows): bin | rows | mean p | share consistent")
    for bin_range, rows, mean_p, share in reliability(pooled_p, pooled_y):
        print(f"  {bin_range} | {rows:d} | {mean_p:.3f} | {share:.3f}")


def default_signature() -> str:
    """The signature of chi's scores under the default options, without the package
    version and the verdict's own fields, at float32: what the calibration holds for
    (:func:`halluscope.verdict.calibrated_signature`)."""
    from halluscope import score_chi
    from halluscope.verdict import calibrated_signature

    return calibrated_signature(score_chi(["A."], ["A."], threshold=None)["signature"])


def new_version(path: str) -> str:
    """``chi-<today>``, with ``.2``, ``.3``, ... when the file at ``path`` already holds a
    calibration of today: two calibrations never share a version (it is in the signature)."""
    version = f"chi-{datetime.date.today():%Y%m%d}"
    try:
        with open(path) as handle:
            previous = json.load(handle)["version"]
    except (OSError, ValueError, KeyError):
        return version
    if previous != version and not previous.startswith(version + "."):
        return version
    count = int(previous.rsplit(".", 1)[1]) if previous != version else 1
    return f"{version}.{count + 1}"


def rescore(dump: str) -> None:
    """Write the design half's dump anew with today's code (minutes)."""
    from benchmarks.studies.fusion_study import dump as write_dump

    write_dump(None, dump, {}, half="design")


def fingerprint(by: dict[str, list]) -> dict:
    """chi of the fingerprint's rows (:mod:`benchmarks.fingerprint`) by today's code; a
    ``ValueError`` when the dump's chi of the validation rows is not today's (rescore)."""
    from benchmarks.fingerprint import TOLERANCE, drifted, shipped_rows_chi, validation_rows_chi

    validation = validation_rows_chi()
    dumped = {name: by[name.split("/")[0]][int(name.split("/")[1])]["chi"] for name in validation}
    moved = drifted(dumped, validation)
    if moved:
        raise ValueError(f"the dump was not scored by today's code ({'; '.join(moved[:5])}): run with --rescore")
    return {"tolerance": TOLERANCE, "shipped_rows": shipped_rows_chi(), "validation_rows": validation}


def commit(written: str) -> str:
    """The commit the fit is made at (``+dirty`` when the work tree differs from it
    elsewhere than in the calibration file being ``written``)."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no", "--", ".", f":!{written}"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return head + ("+dirty" if dirty else "")


def print_lodo(result: dict) -> None:
    print(
        "| fold | rows | BA at p >= 0.5 | BA before (logistic, its cut) | fold's best BA | ROC-AUC of p | "
        "of chi | ECE | ECE before |\n|---|---|---|---|---|---|---|---|---|"
    )
    folds = result["folds"]
    for f, r in folds.items():
        print(
            f"| {f} | {r['rows']} | {100 * r['ba']:.1f} | {100 * r['ba_before']:.1f} | {100 * r['best_ba']:.1f} | "
            f"{100 * r['auc']:.1f} | {100 * r['auc_chi']:.1f} | {r['ece']:.3f} | {r['ece_before']:.3f} |"
        )
    mean = {k: np.mean([r[k] for r in folds.values()]) for k in ("ba", "ba_before", "best_ba", "auc", "auc_chi")}
    print(
        f"| mean | | {100 * mean['ba']:.1f} | {100 * mean['ba_before']:.1f} | {100 * mean['best_ba']:.1f} | "
        f"{100 * mean['auc']:.1f} | {100 * mean['auc_chi']:.1f} | pooled {result['ece_pooled']:.3f} | "
        f"pooled {result['ece_pooled_before']:.3f} |"
    )
    worse = [f for f, r in folds.items() if r["ba"] < r["ba_before"] - 1e-12]
    print(
        f"folds where BA at 0.5 is below the logistic labels': {worse or 'none'}; largest |AUC p - AUC chi|: "
        f"{max(abs(r['auc'] - r['auc_chi']) for r in folds.values()):.4f}"
    )
    print("\nreliability (pooled held-out rows): bin | rows | mean p | share consistent")
    for bin_range, rows, mean_p, share in result["reliability"]:
        print(f"  {bin_range} | {rows:d} | {mean_p:.3f} | {share:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dump", help="fusion_study dump of the validation folds (default options)")
    parser.add_argument("--rescore", action="store_true", help="write the design half's dump anew first (minutes)")
    parser.add_argument("--write", metavar="JSON", help="store the fit on every fold as the package's calibration")
    parser.add_argument("--check", metavar="JSON", help="score a shipped calibration on these rows instead")
    args = parser.parse_args()
    if args.rescore:
        rescore(args.dump)
    by = load(args.dump)
    labels = {f: [r["label"] for r in by[f]] for f in FOLDS}
    if args.check:
        check(by, labels, args.check)
        return
    result = lodo(by, labels)
    print_lodo(result)
    fitted = fit_all(by, labels)
    print("\nfit on every fold:", fitted)
    if args.write:
        folds = result["folds"].values()
        record = {
            "version": new_version(args.write),
            "model": "linear interpolation of the knots (centred isotonic regression of consistent on chi)",
            "signature": default_signature(),
            **fitted,
            "fitted_on": {
                "folds": {f: len(labels[f]) for f in FOLDS},
                "half": "design",
                "commit": commit(args.write),
                "dump": args.dump.rsplit("/", 1)[-1],
            },
            "lodo": {
                "mean_ba": float(np.mean([r["ba"] for r in folds])),
                "mean_best_ba": float(np.mean([r["best_ba"] for r in folds])),
                "ece_pooled": result["ece_pooled"],
            },
            "fingerprint": fingerprint(by),
        }
        with open(args.write, "w") as handle:
            json.dump(record, handle, indent=1)
            handle.write("\n")
        print(f"wrote {args.write}")


if __name__ == "__main__":
    main()
