"""One-off study: candidate CHI fusions over dumped features (fusion_study.py dump),
compared by leave-one-dataset-out balanced accuracy beside the word-overlap baseline.

    python benchmarks/studies/fusion_lodo.py /tmp/feat.jsonl
"""
from __future__ import annotations

import json
import math
import sys
from collections import defaultdict

import numpy as np

FOLDS = ("cogensumm", "xsumfaith", "polytope", "factcc", "summeval", "summac-frank", "frank-cnndm", "frank-bbc")
#: folds sharing summaries: never tune on one while the other is held out
SHARED = {"summac-frank": {"frank-cnndm", "frank-bbc"}, "frank-cnndm": {"summac-frank"},
          "frank-bbc": {"summac-frank"}}


def ba_curve(scores, labels, thresholds):
    """BA at each threshold (predicted consistent iff score >= t); NaN -> +inf."""
    s = np.where(np.isnan(scores), np.inf, scores)
    pos = np.sort(s[labels == 1])
    neg = np.sort(s[labels == 0])
    tpr = 1 - np.searchsorted(pos, thresholds, side="left") / max(len(pos), 1)
    tnr = np.searchsorted(neg, thresholds, side="left") / max(len(neg), 1)
    return (tpr + tnr) / 2


def auc(scores, labels):
    from scipy.stats import rankdata
    s = np.where(np.isnan(scores), np.inf, scores)
    r = rankdata(s)
    n1 = (labels == 1).sum(); n0 = len(labels) - n1
    return (r[labels == 1].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)


def lodo(candidates, labels):
    """candidates: name -> {fold: scores}. Per held-out fold: chosen candidate (best
    mean tuning BA), its threshold and held-out BA; returns dict fold -> (name, t, ba, auc)."""
    out = {}
    for held in FOLDS:
        tune = [f for f in FOLDS if f != held and f not in SHARED.get(held, ())]
        best = None
        for name, by_fold in candidates.items():
            cands = np.unique(np.concatenate([np.where(np.isnan(by_fold[f]), np.inf, by_fold[f]) for f in tune]))
            cands = np.append(cands, np.inf)
            mean = np.mean([ba_curve(by_fold[f], labels[f], cands) for f in tune], axis=0)
            k = int(np.argmax(mean))
            if best is None or mean[k] > best[1] + 1e-12:
                best = (name, mean[k], cands[k])
        name, _, t = best
        s = candidates[name][held]
        out[held] = (name, t, float(ba_curve(s, labels[held], np.array([t]))[0]), auc(s, labels[held]))
    return out


def table(results: dict, baseline: dict):
    head = "| candidate | " + " | ".join(f[:8] for f in FOLDS) + " | mean | min | >base |"
    print(head)
    print("|" + "---|" * (len(FOLDS) + 4))
    for name, res in results.items():
        bas = [100 * res[f][2] for f in FOLDS]
        wins = sum(res[f][2] > baseline[f][2] + 1e-9 for f in FOLDS)
        print(f"| {name} | " + " | ".join(f"{b:.1f}" for b in bas) + f" | {np.mean(bas):.1f} | {min(bas):.1f} | {wins} |")


def load(path):
    rows = [json.loads(l) for l in open(path)]
    by = defaultdict(list)
    for r in rows:
        by[r["fold"]].append(r)
    return by


def _main_single():
    by = load(sys.argv[1])
    labels = {f: np.array([r["label"] for r in by[f]]) for f in FOLDS}
    def col(fn):
        return {f: np.array([fn(r) for r in by[f]], dtype=float) for f in FOLDS}
    base = lodo({"alnum": col(lambda r: r["alnum"])}, labels)
    results = {"alnum": base, "chi": lodo({"chi": col(lambda r: r["chi"])}, labels)}
    table(results, base)


# ---------------------------------------------------------------- study helpers
def lodo_auc(cands, labels):
    """Per held-out fold: the candidate with the best mean ROC-AUC on the tuning folds,
    and its held-out AUC (the threshold-free reading of LODO)."""
    out = {}
    for held in FOLDS:
        tune = [f for f in FOLDS if f != held and f not in SHARED.get(held, ())]
        best = max(cands, key=lambda c: np.mean([auc(cands[c][f], labels[f]) for f in tune]))
        out[held] = (best, auc(cands[best][held], labels[held]))
    return out


class Study:
    """Candidates scored by LODO balanced accuracy and LODO ROC-AUC, shown beside a baseline."""

    def __init__(self, path):
        self.by = load(path)
        self.labels = {f: np.array([r["label"] for r in self.by[f]]) for f in FOLDS}
        self.results = []

    def col(self, fn):
        return {f: np.array([fn(r) for r in self.by[f]], dtype=float) for f in FOLDS}

    def report(self, name, cands):
        if set(cands) == set(FOLDS):
            cands = {name: cands}
        self.results.append((name, lodo(cands, self.labels), lodo_auc(cands, self.labels)))

    def show(self, base="alnum"):
        bb = {n: (b, a) for n, b, a in self.results}[base]
        print("| candidate | " + " | ".join(FOLDS) + " | mean BA | min BA | folds > base | mean AUC | folds > base |")
        print("|" + "---|" * (len(FOLDS) + 6))
        for n, b, a in self.results:
            bas = [100 * b[f][2] for f in FOLDS]
            aus = [100 * a[f][1] for f in FOLDS]
            wb = sum(b[f][2] > bb[0][f][2] + 1e-9 for f in FOLDS)
            wa = sum(a[f][1] > bb[1][f][1] + 1e-9 for f in FOLDS)
            print(f"| {n} | " + " | ".join(f"{x:.1f} ({y:.0f})" for x, y in zip(bas, aus))
                  + f" | {np.mean(bas):.1f} | {min(bas):.1f} | {wb} | {np.mean(aus):.1f} | {wa} |")


def defined(v):
    return v is not None and v == v


def dimension_or_top(r, d):
    """A dimension's score, undefined counted as consistent (1.0)."""
    return r[d]["score"] if defined(r[d]["score"]) else 1.0


def compare(paths):
    """chi and its dimensions of several feature dumps, beside the baseline."""
    for path in paths:
        study = Study(path)
        study.report("alnum", study.col(lambda r: r["alnum"]))
        for d in ("chi",):
            study.report(d, study.col(lambda r: r["chi"]))
        for d in ("ehi", "rhi", "qhi"):
            study.report(d, study.col(lambda r, d=d: dimension_or_top(r, d)))
        print(f"\n{path}")
        study.show()


if __name__ == "__main__":
    compare(sys.argv[1:])
