"""Balanced accuracy and ROC-AUC of reference-free chi and each dimension on
SummaC-format files, beside the unigram-precision baseline: a thin wrapper over
``harness.py run`` (results in benchmarks/results/, tag ``quality-chi``).

    python -m benchmarks.quality_chi ../shared/data/summac/*_val.jsonl --limit 300
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from benchmarks import harness


def harness_arguments(argv: Sequence[str] | None = None) -> list[str]:
    """This script's options as ``harness.py run`` arguments."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--limit", type=int, default=None, help="first N rows of each file")
    parser.add_argument("--normalize", default="paper", choices=["paper", "minmax"])
    parser.add_argument("--relation-matching", default="slots", choices=["slots", "sentence", "exact"])
    parser.add_argument("--out", default=os.path.join(harness.REPOSITORY, "benchmarks", "results"))
    args = parser.parse_args(argv)
    config = (
        f"chi-norm_{args.normalize}-rel_{args.relation_matching}=chi:normalize={args.normalize},"
        f"relation_matching={args.relation_matching}"
    )
    arguments = ["run", "--summac", *args.files, "--config", config, "--tag", "quality-chi", "--out", args.out]
    return arguments + (["--limit", str(args.limit)] if args.limit else [])


if __name__ == "__main__":
    sys.exit(harness.main(harness_arguments()))
