"""Study of issue 27 (session 17): a style-aware cut on chi, compared by
leave-one-dataset-out over a feature dump of the DESIGN half (``fusion_study.py dump
--half design``).

    python -m benchmarks.studies.style_cuts /tmp/feat-design.jsonl

Each candidate splits the rows into two styles by a rule on signals a scoring call has
(or on the word-overlap baseline, ``alnum``, to see whether even that would do) and gives
each style its own cut on chi. For every held-out fold, the two cuts are the pair that
maximises the mean balanced accuracy over its tuning folds (the harness's exclusions).
The mean BA over folds is separable in the two cuts (each fold's true-positive and
true-negative counts are sums over the two styles), so each cut is the argmax of its own
sum, over every distinct chi value. Printed per candidate: BA on each held-out fold, the
mean, the mean of the folds' own best single cut (their in-fold optimum) and the worst gap
between a fold's optimum and its BA.

Result (session 17, design dump of 7f3b47e): no split closes the XSum-style folds' gap.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np

from benchmarks.studies.fusion_lodo import FOLDS, exclusions, load


def _chi(row: dict) -> float:
    return row["chi"] if row["chi"] == row["chi"] else 1.0


#: the two-style splits tried (True: the abstractive, XSum-like style)
SPLITS: dict[str, Callable[[dict], bool]] = {
    "one style": lambda r: False,
    "written share < 0.80": lambda r: r["cwp"] < 0.80,
    "written share < 0.85": lambda r: r["cwp"] < 0.85,
    "word support < 0.80": lambda r: r["w"] < 0.80,
    "< 30 words and written share < 0.90": lambda r: r["n_alnum"] < 30 and r["cwp"] < 0.90,
    "< 35 words and written share < 0.85": lambda r: r["n_alnum"] < 35 and r["cwp"] < 0.85,
    "word overlap < 0.80 (alnum, not a package signal)": lambda r: r["alnum"] < 0.80,
}


def _halves(
    chi: np.ndarray, consistent: np.ndarray, mask: np.ndarray, cuts: np.ndarray, positives: int, negatives: int
) -> np.ndarray:
    """Per cut: this style's share of the fold's consistent rows at or above it plus its
    share of the fold's inconsistent rows below it (twice its part of the fold's BA)."""
    ranked_pos = np.sort(chi[mask & consistent])
    ranked_neg = np.sort(chi[mask & ~consistent])
    at_or_above = len(ranked_pos) - np.searchsorted(ranked_pos, cuts, side="left")
    below = np.searchsorted(ranked_neg, cuts, side="left")
    return at_or_above / positives + below / negatives


def run(path: str) -> None:
    by = load(path)
    every = np.unique([_chi(r) for f in FOLDS for r in by[f]])
    cuts = np.concatenate([[-1.0], every, [1.01]])
    print(f"{path}\n")
    print("| split | " + " | ".join(FOLDS) + " | mean BA | mean in-fold best | worst gap |")
    print("|" + "---|" * (len(FOLDS) + 4))
    for name, split in SPLITS.items():
        parts = {}
        for fold in FOLDS:
            chi = np.array([_chi(r) for r in by[fold]])
            consistent = np.array([r["label"] == 1 for r in by[fold]])
            mask = np.array([split(r) for r in by[fold]], dtype=bool)
            positives, negatives = max(1, int(consistent.sum())), max(1, int((~consistent).sum()))
            parts[fold] = (
                _halves(chi, consistent, mask, cuts, positives, negatives),
                _halves(chi, consistent, ~mask, cuts, positives, negatives),
                _halves(chi, consistent, np.ones_like(mask), cuts, positives, negatives),
            )
        scores, optima = [], []
        for held in FOLDS:
            tune = [f for f in FOLDS if f != held and f not in exclusions()[held]]
            style_cut = int(np.argmax(sum(parts[f][0] for f in tune)))
            other_cut = int(np.argmax(sum(parts[f][1] for f in tune)))
            scores.append(0.5 * (parts[held][0][style_cut] + parts[held][1][other_cut]))
            optima.append(0.5 * parts[held][2].max())
        gap = max(o - s for o, s in zip(optima, scores, strict=True))
        print(
            f"| {name} | "
            + " | ".join(f"{100 * s:.1f}" for s in scores)
            + f" | {100 * np.mean(scores):.1f} | {100 * np.mean(optima):.1f} | {100 * gap:.1f} |"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("dump")
    run(parser.parse_args().dump)
