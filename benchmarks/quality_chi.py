"""Balanced accuracy of reference-free chi and each dimension on SummaC-format files.

For each file the threshold is tuned on one half (a fixed, seeded split) and applied
to the other half, in both directions; the two balanced accuracies are averaged. An
undefined score (no unit in the summary) counts as "consistent": there is no evidence
of a hallucination. The baseline is unigram precision: the share of the summary's
lower-cased whitespace tokens found in the source's.

    python benchmarks/quality_chi.py ../shared/data/summac/*_val.jsonl --limit 300
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Dict

sys.path.insert(0, os.path.dirname(__file__))
from _common import half_split_ba, read_jsonl, triples, unigram_precision  # noqa: E402

from halluscope import score_chi  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--limit", type=int, default=None, help="first N rows of each file")
    parser.add_argument("--normalize", default="paper", choices=["paper", "minmax"])
    parser.add_argument("--relation-matching", default="slots", choices=["slots", "sentence", "exact"])
    args = parser.parse_args()

    columns = ["baseline", "chi", "ehi", "rhi", "qhi"]
    table: Dict[str, Dict[str, float]] = {}
    signature = ""
    for path in args.files:
        sources, predictions, _, labels = triples(read_jsonl(path, args.limit))
        result = score_chi(predictions, sources, None, normalize=args.normalize,
                           relation_matching=args.relation_matching)
        signature = result["signature"]
        scores = {
            "baseline": [unigram_precision(p, s) for p, s in zip(predictions, sources)],
            **{d: result[f"{d}_scores"] for d in ("chi", "ehi", "rhi", "qhi")},
        }
        name = os.path.basename(path).replace("_val.jsonl", "")
        table[name] = {c: half_split_ba(scores[c], labels) for c in columns}
        print(f"{name:<12}" + "".join(f"{table[name][c]:>10.1f}" for c in columns), flush=True)

    print(f"\n{'file':<12}" + "".join(f"{c:>10}" for c in columns))
    for name, row in table.items():
        print(f"{name:<12}" + "".join(f"{row[c]:>10.1f}" for c in columns))
    means = {c: sum(row[c] for row in table.values()) / len(table) for c in columns}
    print(f"{'mean':<12}" + "".join(f"{means[c]:>10.1f}" for c in columns))
    print(f"\nbalanced accuracy (%), reference-free, half-split thresholds; signature: {signature}")


if __name__ == "__main__":
    main()
