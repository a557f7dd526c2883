"""Score a JSONL file with CHI on several processes (one per GPU, or CPU processes).

    torchrun --nproc_per_node 2 examples/distributed_chi.py --data file.jsonl
    torchrun --nproc_per_node 2 examples/distributed_chi.py --data summeval_val.jsonl \\
        --source-field document --prediction-field claim --output scores.jsonl

Every process reads the whole file; each scores its contiguous share of the rows
(halluscope.distributed.score_distributed) on its own device (``cuda:<LOCAL_RANK>``
when CUDA is available); rank 0 prints the means and the signature and writes one
JSON line per row (row number and per-example scores, ``null`` when undefined), in
file order. Run with plain ``python`` it scores everything in one process. Any
``score_chi`` option can be passed as JSON with ``--options '{"normalize": "minmax"}'``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, help="JSONL file, one example per line")
    parser.add_argument("--source-field", default="source")
    parser.add_argument("--prediction-field", default="prediction")
    parser.add_argument(
        "--reference-field", default=None, help="column of reference summaries; omitted: reference-free"
    )
    parser.add_argument("--output", default=None, help="per-row scores as JSONL (written by rank 0)")
    parser.add_argument("--options", default="{}", help="score_chi options as a JSON object")
    return parser.parse_args(argv)


def read_rows(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def strict_json(score: float) -> float | None:
    """An undefined score (NaN) as ``null``, so the output is strict JSON."""
    return None if math.isnan(score) else score


def init_process_group() -> None:
    """Join the group torchrun / accelerate launch describe in the environment (NCCL
    on GPUs, gloo on CPUs) and pin this process to its GPU."""
    import torch
    import torch.distributed as dist

    if int(os.environ.get("WORLD_SIZE", "1")) < 2 or dist.is_initialized():
        return
    if torch.cuda.is_available():
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
        dist.init_process_group("nccl")
    else:
        dist.init_process_group("gloo")


def main(argv: Sequence[str] | None = None) -> int:
    from halluscope import score_chi
    from halluscope.distributed import rank_device, score_distributed

    args = parse_args(argv)
    options = json.loads(args.options)
    options.setdefault("device", rank_device())
    rows = read_rows(args.data)
    sources = [row[args.source_field] for row in rows]
    predictions = [row[args.prediction_field] for row in rows]
    references = None if args.reference_field is None else [row[args.reference_field] for row in rows]

    init_process_group()
    result = score_distributed(score_chi, predictions, sources, references, **options)
    if result is None:  # ranks other than 0
        return 0
    print(
        json.dumps(
            {key: result[key] for key in ("chi", "ehi", "rhi", "qhi", "ehi_defined", "rhi_defined", "qhi_defined")}
        )
    )
    print(result["signature"])
    if args.output:
        per_row = [key for key in result if key.endswith("_scores")]
        with open(args.output, "w", encoding="utf-8") as handle:
            for row in range(len(rows)):
                record = {"row": row, **{key[: -len("_scores")]: strict_json(result[key][row]) for key in per_row}}
                handle.write(json.dumps(record) + "\n")
    return 0


if __name__ == "__main__":
    status = main()
    import torch.distributed as dist

    if dist.is_initialized():
        dist.destroy_process_group()
    sys.exit(status)
