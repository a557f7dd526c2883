"""dlsd_acu against human labels, host / +SD-ACU / +DL-ACU / +both: a thin wrapper over
``harness.py run --config dlsd`` (balanced accuracy, ROC-AUC, FRANK error-type rates
FP_T/N_T; results in benchmarks/results/, tag ``quality-dlsd``).

    # the paper's setting (needs the Hub models or local copies of them):
    python -m benchmarks.quality_dlsd ../shared/data/summac/*_val.jsonl \\
        --frank ../shared/data/frank/frank_val.jsonl --host fizz \\
        --nli-model tals/albert-xlarge-vitaminc-mnli \\
        --decomposer-model Babelscape/t5-base-summarization-claim-extractor
    # offline harness check: --decomposer rules --nli-model tiny --limit 30
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
    parser.add_argument("files", nargs="*", help="SummaC-format jsonl files")
    parser.add_argument("--frank", help="FRANK jsonl with has_<Type> flags")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--host", default="fizz", choices=["fizz", "fenice"])
    parser.add_argument(
        "--nli-model",
        required=True,
        help='hub name or folder; "tiny" builds a random tiny model (proves the harness only)',
    )
    parser.add_argument("--decomposer", default="seq2seq", choices=["seq2seq", "rules"])
    parser.add_argument("--decomposer-model")
    parser.add_argument("--coref", default="rules")
    parser.add_argument("--top-k", type=int, default=1)
    parser.add_argument(
        "--dl-acu",
        default="auto",
        choices=["auto", "amr", "dep"],
        help="discourse-link backend of the +DL configurations",
    )
    parser.add_argument("--device")
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--out", default=os.path.join(harness.REPOSITORY, "benchmarks", "results"))
    args = parser.parse_args(argv)
    arguments = [
        "run",
        "--summac",
        *args.files,
        "--config",
        "dlsd",
        "--host",
        args.host,
        "--nli-model",
        args.nli_model,
        "--decomposer",
        args.decomposer,
        "--coref",
        args.coref,
        "--top-k",
        str(args.top_k),
        "--dl-acu",
        args.dl_acu,
        "--dtype",
        args.dtype,
        "--batch-size",
        str(args.batch_size),
        "--tag",
        "quality-dlsd",
        "--out",
        args.out,
    ]
    for flag, value in (
        ("--frank", args.frank),
        ("--limit", args.limit),
        ("--decomposer-model", args.decomposer_model),
        ("--device", args.device),
    ):
        if value is not None:
            arguments += [flag, str(value)]
    return arguments


if __name__ == "__main__":
    sys.exit(harness.main(harness_arguments()))
