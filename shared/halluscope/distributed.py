"""Scoring one corpus with several processes (torchrun, accelerate launch, DDP).

Every process passes the *same, full* lists to :func:`score_distributed`; when a
``torch.distributed`` process group is initialised, each rank scores its contiguous
shard of the rows (rank 0 the first rows, and so on), the per-shard results are
gathered with ``torch.distributed.all_gather_object`` and merged by
:func:`merge_results` into the dict one process would have returned for all rows:
per-example lists in input order, means and ``<dim>_defined`` counts recomputed over
all rows, one ``signature``. Without a process group it simply calls ``score_fn``.

Merge rules (:func:`merge_results`): the results of ``halluscope.api.score_*`` are
:class:`halluscope.results.ScoreResult` objects, whose fields declare how they merge
(:data:`halluscope.results.MERGE`). Plain dicts (results saved to JSON and read back)
merge by the same rules read from their keys:

- ``<name>_scores``, ``labels`` and ``details``: per-example lists, concatenated.
- ``<name>`` next to ``<name>_scores``: the mean over the defined (non-NaN) rows.
- ``<name>_defined`` next to ``<name>_scores``: the number of defined rows.
- any other integer (``dlsd_acu``'s NLI-pair and decomposer-call counters): summed.
  These count the work done; each process deduplicates only its own shard, so
  they may exceed a single-process run's counts.
- anything else (``signature``, ``p_consistent_reason``): must be equal in every shard,
  else ``ValueError``; a differing ``signature`` is named in full, both of them
  (:func:`halluscope.results.differing_signatures`).

Each model is loaded once per process and device (``halluscope.registry``); under
CUDA, call ``torch.cuda.set_device(local_rank)`` first (accelerate and Trainer do)
or pass ``device=rank_device()``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .results import ScoreResult, differing_signatures, mean_defined
from .validation import validate_inputs

#: options of the score functions that hold one value per row; they are sharded
#: with the rows (all other options go to every rank unchanged)
PER_ROW_OPTIONS: tuple[str, ...] = ("publication_dates",)

#: result keys that hold one entry per row besides ``<name>_scores``
PER_ROW_KEYS: tuple[str, ...] = ("labels", "details")

ScoreFunction = Callable[..., dict[str, Any]]


def process_group_active() -> bool:
    """Whether a ``torch.distributed`` process group is initialised in this process."""
    try:
        import torch.distributed as dist
    except ImportError:  # pragma: no cover - torch is a dependency of sentence-transformers
        return False
    return dist.is_available() and dist.is_initialized()


def rank_and_world_size(group=None) -> tuple[int, int]:
    """``(rank, world_size)`` in ``group`` (the default group when None); ``(0, 1)``
    without a process group."""
    if not process_group_active():
        return 0, 1
    import torch.distributed as dist

    return dist.get_rank(group), dist.get_world_size(group)


def shard_bounds(num_rows: int, world_size: int, rank: int) -> tuple[int, int]:
    """``[start, end)`` of ``rank``'s contiguous shard: the first ``num_rows %
    world_size`` ranks get one row more than the others."""
    if world_size < 1 or not 0 <= rank < world_size:
        raise ValueError(f"rank {rank} is not in a world of size {world_size}")
    base, extra = divmod(num_rows, world_size)
    start = rank * base + min(rank, extra)
    return start, start + base + (1 if rank < extra else 0)


def rank_device() -> str:
    """The device for this process: ``cuda:<LOCAL_RANK>`` when CUDA is available
    (``LOCAL_RANK`` is set by torchrun and accelerate; 0 otherwise), else ``"cpu"``."""
    import torch

    if torch.cuda.is_available():
        return f"cuda:{int(os.environ.get('LOCAL_RANK', '0'))}"
    return "cpu"


def _is_per_row(key: str) -> bool:
    return key.endswith("_scores") or key in PER_ROW_KEYS


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def merge_results(shard_results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Merge the results of consecutive shards of one input (in row order) into the
    result of the whole input; see the module docstring for the rules. Also useful to
    merge shard results saved to disk (JSON keeps NaN as ``NaN``)."""
    if not shard_results:
        raise ValueError("merge_results needs at least one shard result")
    typed = [result for result in shard_results if isinstance(result, ScoreResult)]
    if len(typed) == len(shard_results):
        return ScoreResult.merge(typed)
    first = shard_results[0]
    for index, result in enumerate(shard_results[1:], start=1):
        if set(result) != set(first):
            raise ValueError(f"shard {index} has keys {sorted(result)}, shard 0 has {sorted(first)}")
    refused = differing_signatures([result.get("signature") for result in shard_results])
    if refused:
        raise ValueError(refused)
    merged: dict[str, Any] = {}
    for key in first:
        if _is_per_row(key):
            merged[key] = [value for result in shard_results for value in result[key]]
    for key in first:
        if key in merged:
            continue
        values = [result[key] for result in shard_results]
        if f"{key}_scores" in merged:
            merged[key] = mean_defined(merged[f"{key}_scores"])
        elif key.endswith("_defined") and f"{key[: -len('_defined')]}_scores" in merged:
            merged[key] = sum(not math.isnan(v) for v in merged[f"{key[: -len('_defined')]}_scores"])
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            merged[key] = sum(values)
        elif all(_same(v, values[0]) for v in values):
            merged[key] = values[0]
        else:
            raise ValueError(
                f"`{key}` differs between shards ({values!r}); were they scored with the same options and models?"
            )
    return {key: merged[key] for key in first}


def score_distributed(
    score_fn: ScoreFunction,
    predictions: Sequence[str],
    sources: Sequence[str],
    references: Sequence[Any] | None = None,
    *,
    all_ranks: bool = False,
    group=None,
    **options: Any,
) -> dict[str, Any] | None:
    """Score all rows with ``score_fn`` (e.g. ``halluscope.api.score_chi``) split over
    the ranks of ``group``, each rank scoring its contiguous shard.

    Every rank must call it with the same full lists and options. Returns the merged
    result (as one process would compute it for all rows) on rank 0, and on every
    rank when ``all_ranks`` is true; ``None`` on the other ranks. Without a process
    group: ``score_fn(predictions, sources, references, **options)``.

    Inputs are validated on every rank before any communication, so a bad row is
    reported with its row number in the full input by every rank. When ``score_fn``
    fails on some rank, every rank raises ``RuntimeError`` naming the rank, its rows
    and the error (row numbers inside that message count from the shard's first row).
    """
    if not process_group_active():
        return score_fn(predictions, sources, references, **options)
    import torch.distributed as dist

    rank, world_size = rank_and_world_size(group)
    num_rows = len(validate_inputs(predictions, sources, references))
    for name in PER_ROW_OPTIONS:
        value = options.get(name)
        if value is not None and len(value) != num_rows:
            raise ValueError(f"`{name}` has {len(value)} rows but `predictions` has {num_rows}")
    start, end = shard_bounds(num_rows, world_size, rank)

    payload: tuple[str, int, Any]
    local_error: BaseException | None = None
    if start == end:
        payload = ("ok", num_rows, None)
    else:
        shard_options = {
            name: (value[start:end] if name in PER_ROW_OPTIONS and value is not None else value)
            for name, value in options.items()
        }
        try:
            payload = (
                "ok",
                num_rows,
                score_fn(
                    list(predictions[start:end]),
                    list(sources[start:end]),
                    None if references is None else list(references[start:end]),
                    **shard_options,
                ),
            )
        except Exception as error:  # reported on every rank below, so no rank waits forever
            local_error = error
            payload = ("error", num_rows, f"{type(error).__name__}: {error}")

    gathered: list[Any] = [None] * world_size
    dist.all_gather_object(gathered, payload, group=group)

    row_counts = sorted({rows for _, rows, _ in gathered})
    if len(row_counts) > 1:
        raise ValueError(
            f"ranks passed inputs of different lengths {row_counts}; every rank must pass the same full lists"
        )
    failures = []
    for other_rank, (status, _, content) in enumerate(gathered):
        if status == "error":
            other_start, other_end = shard_bounds(num_rows, world_size, other_rank)
            failures.append(f"rank {other_rank} (rows {other_start}-{other_end - 1}): {content}")
    if failures:
        raise RuntimeError("scoring failed on " + "; ".join(failures)) from local_error

    if rank != 0 and not all_ranks:
        return None
    shard_results = [content for _, _, content in gathered if content is not None]
    if not shard_results:  # no rows at all: the empty result, computed locally
        return score_fn(predictions, sources, references, **options)
    return merge_results(shard_results)
