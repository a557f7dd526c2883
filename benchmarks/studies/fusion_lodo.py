"""One-off study (session 6): candidate CHI fusions and matching variants over dumped
features (``fusion_study.py dump``), compared by leave-one-dataset-out balanced accuracy
and ROC-AUC beside the word-overlap baseline, with the harness's own LODO
(:func:`lodo.lodo_evaluate`) and fold exclusions (:func:`_common.fold_exclusions`).

    python -m benchmarks.studies.fusion_lodo /tmp/feat.jsonl [/tmp/other.jsonl ...]
    python -m benchmarks.studies.fusion_lodo /tmp/feat-lockbox.jsonl --record docs/benchmarks/lodo-lockbox.json \
        --half lockbox --commit 12313bb

``--record`` (one dump) writes the per-fold LODO balanced accuracy and ROC-AUC of chi, its
dimensions and the baseline as JSON, with the half and the commit the dump was scored at
(the records the chi card quotes, docs/benchmarks/lodo-*.json).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from collections import defaultdict

import numpy as np

from benchmarks._common import DIMENSIONS, fold_exclusions
from benchmarks.lodo import lodo_evaluate
from benchmarks.measures import roc_auc

HERE = os.path.dirname(os.path.abspath(__file__))

FOLDS = ("cogensumm", "xsumfaith", "polytope", "factcc", "summeval", "summac-frank", "frank-cnndm", "frank-bbc")


@functools.lru_cache(maxsize=1)
def exclusions() -> dict:
    """The harness's exclusion rule on the validation folds (folds sharing summaries)."""
    from benchmarks.studies.fusion_study import folds

    return fold_exclusions(folds())


def load(path):
    by = defaultdict(list)
    for line in open(path):
        row = json.loads(line)
        by[row["fold"]].append(row)
    return by


def lodo_auc(cands, labels):
    """Per held-out fold: the candidate with the best mean ROC-AUC on the tuning folds,
    and its held-out AUC (the threshold-free reading of LODO)."""
    out = {}
    for held in FOLDS:
        tune = [f for f in FOLDS if f != held and f not in exclusions()[held]]
        best = max(cands, key=lambda c: np.mean([roc_auc(cands[c][f], labels[f]) for f in tune]))
        out[held] = roc_auc(cands[best][held], labels[held])
    return out


class Study:
    """Candidates scored by LODO balanced accuracy and LODO ROC-AUC, shown beside a baseline."""

    def __init__(self, path):
        self.by = load(path)
        self.labels = {f: [r["label"] for r in self.by[f]] for f in FOLDS}
        self.results = []

    def col(self, fn):
        return {f: [float(fn(r)) for r in self.by[f]] for f in FOLDS}

    def report(self, name, cands):
        """``cands``: fold -> scores (one candidate), or name -> fold -> scores (LODO chooses)."""
        if set(cands) == set(FOLDS):
            cands = {name: cands}
        result = lodo_evaluate(cands, self.labels, exclusions())
        self.results.append((name, {f: result.folds[f].ba for f in FOLDS}, lodo_auc(cands, self.labels)))

    def show(self, base="alnum"):
        _, base_ba, base_auc = next(r for r in self.results if r[0] == base)
        print("| candidate | " + " | ".join(FOLDS) + " | mean BA | min BA | folds > base | mean AUC | folds > base |")
        print("|" + "---|" * (len(FOLDS) + 6))
        for name, ba, auc in self.results:
            bas = [100 * ba[f] for f in FOLDS]
            aucs = [100 * auc[f] for f in FOLDS]
            wins_ba = sum(ba[f] > base_ba[f] + 1e-9 for f in FOLDS)
            wins_auc = sum(auc[f] > base_auc[f] + 1e-9 for f in FOLDS)
            print(
                f"| {name} | "
                + " | ".join(f"{x:.1f} ({y:.0f})" for x, y in zip(bas, aucs, strict=True))
                + f" | {np.mean(bas):.1f} | {min(bas):.1f} | {wins_ba} | {np.mean(aucs):.1f} | {wins_auc} |"
            )


def defined(v):
    return v is not None and v == v


def dimension_or_top(r, d):
    """A dimension's score, undefined counted as consistent (1.0)."""
    return r[d]["score"] if defined(r[d]["score"]) else 1.0


def _scored(path) -> Study:
    """A dump's baseline, chi and dimensions (undefined counted as consistent), by LODO."""
    study = Study(path)
    study.report("alnum", study.col(lambda r: r["alnum"]))
    study.report("chi", study.col(lambda r: r["chi"]))
    for d in DIMENSIONS:
        study.report(d, study.col(lambda r, d=d: dimension_or_top(r, d)))
    return study


def compare(paths):
    """chi and its dimensions of several feature dumps, beside the baseline."""
    for path in paths:
        study = _scored(path)
        print(f"\n{path}")
        study.show()


def record(path: str, half: str, commit: str) -> dict:
    """The LODO of one dump's chi, dimensions and baseline, per fold (%), as committed
    under docs/benchmarks/ (:func:`compare`'s table as data)."""
    study = _scored(path)
    return {
        "half": half,
        "commit": commit,
        "rows": {f: len(study.by[f]) for f in FOLDS},
        "lodo": {
            name: {f: {"ba": round(100 * ba[f], 3), "auc": round(100 * auc[f], 3)} for f in FOLDS}
            for name, ba, auc in study.results
        },
    }


def main(argv) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dumps", nargs="+")
    parser.add_argument("--record", metavar="OUT", help="write the first dump's LODO as JSON (record)")
    parser.add_argument("--half", choices=("all", "design", "lockbox"), help="the dump's half (with --record)")
    parser.add_argument("--commit", help="the commit the dump was scored at (with --record)")
    args = parser.parse_args(argv)
    if args.record:
        if not (args.half and args.commit):
            parser.error("--record needs --half and --commit")
        with open(args.record, "w", encoding="utf-8") as handle:
            json.dump(record(args.dumps[0], args.half, args.commit), handle, indent=1)
            handle.write("\n")
    compare(args.dumps)


if __name__ == "__main__":
    main(sys.argv[1:])
