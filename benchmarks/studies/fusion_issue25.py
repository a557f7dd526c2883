"""Study of issue 25 (session 11): candidate CHI fusions over a feature dump of the
DESIGN half (``fusion_study.py dump --half design``), compared by leave-one-dataset-out
beside the ``alnum-types`` baseline. The lockbox half is scored once, at the end, with
the candidate chosen here.

    python -m benchmarks.studies.fusion_issue25 /tmp/feat-design.jsonl

Candidates (few, each a rule rather than a weight; ``mix`` lets LODO choose λ per
held-out fold from the tuning folds):

* ``chi``: the dump's own chi (the default at dump time);
* ``w``: word support alone, (support share + as-written share) / 2;
* ``product``: w x the product of the defined dimensions' supported shares, halved on a
  contradiction: every piece of evidence multiplies in, none is averaged away;
* ``pooled``: one pool of evidence, every content word and every unit one item, a
  contradicted item counting twice in the denominator;
* ``mix``: (1 - λ) H + λ w, λ in {0.01, 0.1, 0.25, 0.5, 0.75}, chosen by LODO.
"""

from __future__ import annotations

import math
import sys

from benchmarks._common import DIMENSIONS
from benchmarks.studies.fusion_lodo import Study

DIMS = DIMENSIONS
CONTRADICTION_FACTOR = 0.5


def defined(v) -> bool:
    return v is not None and not (isinstance(v, float) and math.isnan(v))


def word_counts(r):
    words = r["words"]
    against = sum(m == "antonym" for _, _, m in words)
    supported = sum(m is not None and m != "antonym" for _, _, m in words)
    return len(words), supported, against


def w_of(r) -> float:
    n, supported, against = word_counts(r)
    share = supported / (n + against) if n else 0.0
    return (share + (r["cwp"] or 0.0)) / 2


def contradicted(r) -> bool:
    return word_counts(r)[2] > 0 or any(r[d]["contra"] for d in DIMS)


def harmonic(r) -> float:
    scores = [r[d]["score"] for d in DIMS if defined(r[d]["score"])]
    if not scores:
        return w_of(r)
    if min(scores) <= 0:
        return 0.0
    return len(scores) / sum(1 / s for s in scores)


def product(r) -> float:
    value = w_of(r)
    for d in DIMS:
        if defined(r[d]["score"]):
            value *= r[d]["score"]
    return value * (CONTRADICTION_FACTOR if contradicted(r) else 1.0)


def pooled(r) -> float:
    n, supported, against = word_counts(r)
    g = n + sum(r[d]["g"] for d in DIMS)
    credit = supported + sum(r[d]["credit"] for d in DIMS)
    contra = against + sum(r[d]["contra"] for d in DIMS)
    share = credit / (g + contra) if g else 0.0
    return (share + (r["cwp"] or 0.0)) / 2


def mix(lam: float):
    def score(r) -> float:
        value = (1 - lam) * harmonic(r) + lam * w_of(r)
        return value * (CONTRADICTION_FACTOR if contradicted(r) else 1.0)

    return score


def main(paths):
    for path in paths:
        study = Study(path)
        study.report("alnum", study.col(lambda r: r["alnum"]))
        study.report("chi", study.col(lambda r: r["chi"]))
        study.report("w", study.col(w_of))
        study.report("product", study.col(product))
        study.report("pooled", study.col(pooled))
        for lam in (0.01, 0.25, 0.5):
            study.report(f"mix {lam:g}", study.col(mix(lam)))
        study.report("mix (LODO λ)", {f"{lam:g}": study.col(mix(lam)) for lam in (0.01, 0.1, 0.25, 0.5, 0.75)})
        print(f"\n{path}")
        study.show()


if __name__ == "__main__":
    main(sys.argv[1:])
