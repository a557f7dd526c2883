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


if __name__ == "__main__":
    by = load(sys.argv[1])
    labels = {f: np.array([r["label"] for r in by[f]]) for f in FOLDS}
    def col(fn):
        return {f: np.array([fn(r) for r in by[f]], dtype=float) for f in FOLDS}
    base = lodo({"alnum": col(lambda r: r["alnum"])}, labels)
    results = {"alnum": base, "chi": lodo({"chi": col(lambda r: r["chi"])}, labels)}
    table(results, base)
