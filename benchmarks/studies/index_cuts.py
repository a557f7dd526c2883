"""Study of issue 27 item 2 (session 14): does leave-one-dataset-out give EHI, RHI and QHI a
useful shipped cut, as it gives chi's labels (docs/benchmarks.md#p_consistent-and-the-shipped-labels)?

Over a feature dump of the DESIGN half (``fusion_study.py dump --half design``): per
index, an undefined score ranked on top (as the harness ranks it), the cut that maximises
the mean balanced accuracy of the tuning folds (``lodo.lodo_threshold``, the
harness's exclusions), its balanced accuracy on the held-out fold beside that fold's own
best cut, and the cut chosen on every fold. The criterion is issue 27's for chi's labels:
the mean within 2 points of the mean in-fold optimum and no fold more than 5 below its own.

    python -m benchmarks.studies.index_cuts /tmp/feat-design.jsonl
"""

from __future__ import annotations

import math
import sys

import numpy as np

from benchmarks._common import DIMENSIONS
from benchmarks.lodo import lodo_threshold
from benchmarks.measures import balanced_accuracy, tune_threshold, undefined_as_top
from benchmarks.studies.fusion_lodo import FOLDS, exclusions, load


def score(row: dict, name: str) -> float:
    value = row[name]["score"] if isinstance(row[name], dict) else row[name]
    return math.nan if value is None else float(value)


def main(path: str) -> None:
    by = load(path)
    labels = {f: [r["label"] for r in by[f]] for f in FOLDS}
    print("| score | " + " | ".join(FOLDS) + " | mean | mean of fold bests | worst gap | cut on all folds |")
    print("|" + "---|" * (len(FOLDS) + 5))
    for name in (*DIMENSIONS, "chi"):
        scores = {f: undefined_as_top([score(r, name) for r in by[f]]) for f in FOLDS}
        at_cut, best = [], []
        for held in FOLDS:
            tune = [f for f in FOLDS if f != held and f not in exclusions()[held]]
            cut = lodo_threshold({f: scores[f] for f in tune}, {f: labels[f] for f in tune})
            at_cut.append(100 * balanced_accuracy(scores[held], labels[held], cut))
            best.append(100 * balanced_accuracy(scores[held], labels[held], tune_threshold(scores[held], labels[held])))
        gaps = [b - a for a, b in zip(at_cut, best, strict=True)]
        print(
            f"| {name} | "
            + " | ".join(f"{a:.1f} ({b:.1f})" for a, b in zip(at_cut, best, strict=True))
            + f" | {np.mean(at_cut):.1f} | {np.mean(best):.1f} | {max(gaps):.1f} ({FOLDS[int(np.argmax(gaps))]}) "
            f"| {lodo_threshold(scores, labels):.3f} |"
        )


if __name__ == "__main__":
    main(sys.argv[1])
