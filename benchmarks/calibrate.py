"""Fit chi's shipped ``p_consistent`` and its cut, and report them by leave-one-dataset-out
(issue 27; docs/benchmarks.md#p_consistent-and-the-shipped-labels).

Input: a feature dump of the validation folds scored with the default options
(``python -m benchmarks.studies.fusion_study dump --half design``), one row per summary
with its chi and its human label.

The model (chosen in ``benchmarks/studies/calibration.py`` and here): p_consistent =
sigmoid(b0 + b1 chi) (:mod:`halluscope.verdict`), a logistic
regression in which every fold weighs the same and, within a fold, the consistent and
the inconsistent summaries weigh the same: p is calibrated for even odds in every
dataset, the prior the balanced accuracy of a cut assumes. The cut is the one that
maximises the mean balanced accuracy over the folds. Printed, all by LODO (the model
and the cut refitted without the held-out fold): per fold the BA at the cut, the fold's
own best BA, ROC-AUC and ECE (10 bins), the pooled ECE and the reliability table; then
the fit on every fold, which ``--write`` stores as the package's calibration file.

    python -m benchmarks.calibrate /tmp/feat-design.jsonl [--write shared/halluscope/data/p_consistent.json]
    python -m benchmarks.calibrate /tmp/feat-lockbox.jsonl --check shared/halluscope/data/p_consistent.json
"""
from __future__ import annotations

import argparse
import datetime
import json
import subprocess
from typing import Dict, List

import numpy as np

from benchmarks.measures import balanced_accuracy, lodo_threshold, roc_auc, tune_threshold
from benchmarks.studies.calibration import ece, reliability
from benchmarks.studies.fusion_evidence import balanced_weights, fit_logistic
from benchmarks.studies.fusion_lodo import FOLDS, exclusions, load


def features(row: dict) -> List[float]:
    """The model's inputs, as :func:`halluscope.verdict.p_consistent` computes them."""
    from halluscope.verdict import model_inputs

    return model_inputs(row["chi"] if row["chi"] == row["chi"] else 1.0)  # undefined ranks on top, as in the harness


def _p(beta: np.ndarray, x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-(beta[0] + x @ beta[1:])))


def lodo(by: Dict[str, list], labels: Dict[str, List[int]]) -> dict:
    x = {f: np.array([features(r) for r in by[f]], dtype=float) for f in FOLDS}
    out, pooled_p, pooled_y = {}, [], []
    for held in FOLDS:
        tune = [f for f in FOLDS if f != held and f not in exclusions()[held]]
        beta = fit_logistic(np.vstack([x[f] for f in tune]),
                            np.concatenate([np.asarray(labels[f]) == 1 for f in tune]).astype(float),
                            balanced_weights(tune, labels))
        p = {f: list(_p(beta, x[f])) for f in FOLDS}
        cut = lodo_threshold({f: p[f] for f in tune}, {f: labels[f] for f in tune})
        out[held] = {"rows": len(labels[held]), "cut": cut, "ba": balanced_accuracy(p[held], labels[held], cut),
                     "best_ba": balanced_accuracy(p[held], labels[held], tune_threshold(p[held], labels[held])),
                     "auc": roc_auc(p[held], labels[held]), "ece": ece(p[held], labels[held])}
        pooled_p += p[held]
        pooled_y += labels[held]
    return {"folds": out, "ece_pooled": ece(pooled_p, pooled_y), "reliability": reliability(pooled_p, pooled_y)}


def fit_all(by: Dict[str, list], labels: Dict[str, List[int]]) -> dict:
    x = {f: np.array([features(r) for r in by[f]], dtype=float) for f in FOLDS}
    beta = fit_logistic(np.vstack([x[f] for f in FOLDS]),
                        np.concatenate([np.asarray(labels[f]) == 1 for f in FOLDS]).astype(float),
                        balanced_weights(FOLDS, labels))
    p = {f: list(_p(beta, x[f])) for f in FOLDS}
    cut = lodo_threshold(p, labels)
    return {"coefficients": {"intercept": float(beta[0]), "chi": float(beta[1])},
            "cut": round(float(cut), 4)}


def check(by: Dict[str, list], labels: Dict[str, List[int]], path: str) -> None:
    """The shipped model and cut on other rows (the lockbox): per fold BA at the shipped
    cut beside the fold's own best, ROC-AUC, ECE."""
    from halluscope.verdict import load_calibration, p_consistent

    shipped = load_calibration(path)
    print("| fold | rows | BA at the shipped cut | fold's best BA | ROC-AUC | ECE |\n|---|---|---|---|---|---|")
    bas, bests, pooled_p, pooled_y = [], [], [], []
    for f in FOLDS:
        p = [p_consistent(r["chi"], shipped) for r in by[f]]
        ba = balanced_accuracy(p, labels[f], shipped.cut)
        best = balanced_accuracy(p, labels[f], tune_threshold(p, labels[f]))
        bas.append(ba)
        bests.append(best)
        pooled_p += p
        pooled_y += labels[f]
        print(f"| {f} | {len(p)} | {100 * ba:.1f} | {100 * best:.1f} | {100 * roc_auc(p, labels[f]):.1f} | "
              f"{ece(p, labels[f]):.3f} |")
    print(f"| mean | | {100 * np.mean(bas):.1f} | {100 * np.mean(bests):.1f} | | pooled {ece(pooled_p, pooled_y):.3f} |")


def default_signature() -> str:
    """The signature of chi's scores under the default options, without the package
    version and the verdict's own fields: what the calibration holds for."""
    from halluscope import score_chi
    from halluscope.verdict import SAME_SCORES_AT, scored_signature, unversioned

    fields = scored_signature(unversioned(score_chi(["A."], ["A."], threshold=None)["signature"])).split("|")
    # stored at float32, the precision the other one(s) of SAME_SCORES_AT stand for
    for k, field in enumerate(fields):
        for suffix in SAME_SCORES_AT:
            if field.startswith("enc:") and field.endswith(suffix):
                fields[k] = field[:-len(suffix)]
    return "|".join(fields)


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dump", help="fusion_study dump of the validation folds (default options)")
    parser.add_argument("--write", metavar="JSON", help="store the fit on every fold as the package's calibration")
    parser.add_argument("--check", metavar="JSON", help="score a shipped calibration on these rows instead")
    args = parser.parse_args()
    by = load(args.dump)
    labels = {f: [r["label"] for r in by[f]] for f in FOLDS}
    if args.check:
        check(by, labels, args.check)
        return
    result = lodo(by, labels)
    print("| fold | rows | BA at the LODO cut | fold's best BA | gap | ROC-AUC | ECE | cut |\n|---|---|---|---|---|---|---|---|")
    for f, r in result["folds"].items():
        print(f"| {f} | {r['rows']} | {100 * r['ba']:.1f} | {100 * r['best_ba']:.1f} | "
              f"{100 * (r['best_ba'] - r['ba']):.1f} | {100 * r['auc']:.1f} | {r['ece']:.3f} | {r['cut']:.3f} |")
    folds = result["folds"].values()
    print(f"| mean | | {100 * np.mean([r['ba'] for r in folds]):.1f} | {100 * np.mean([r['best_ba'] for r in folds]):.1f} | "
          f"| {100 * np.mean([r['auc'] for r in folds]):.1f} | pooled {result['ece_pooled']:.3f} | |")
    print("\nreliability (pooled held-out rows): bin | rows | mean p | share consistent")
    for row in result["reliability"]:
        print("  %s | %d | %.3f | %.3f" % row)
    fitted = fit_all(by, labels)
    print("\nfit on every fold:", fitted)
    if args.write:
        signature = default_signature()
        rows = {f: len(labels[f]) for f in FOLDS}
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        record = {"version": new_version(args.write),
                  "model": "sigmoid(intercept + chi_coefficient * chi)",
                  "signature": signature,
                  **fitted, "fitted_on": {"folds": rows, "half": "design", "commit": commit,
                                           "dump": args.dump.rsplit("/", 1)[-1]},
                  "lodo": {"mean_ba": float(np.mean([r["ba"] for r in folds])),
                           "mean_best_ba": float(np.mean([r["best_ba"] for r in folds])),
                           "ece_pooled": result["ece_pooled"]}}
        with open(args.write, "w") as handle:
            json.dump(record, handle, indent=1)
            handle.write("\n")
        print(f"wrote {args.write}")


if __name__ == "__main__":
    main()
