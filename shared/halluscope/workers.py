"""Scoring one call's rows with a pool of processes: ``workers=N`` (docs/scaling.md#workers).

The first row is scored in the calling process, which loads every model the call
needs (unless the caller's resources have scored the same call before, and so hold
them); the other rows are cut into consecutive shards (:func:`shard_bounds`). Each
worker is a fork of the calling process, so it starts with the caller's models and
caches as they are (copy-on-write: nothing is loaded again), scores its shards through the same
API function with ``workers=1``, and sends each shard's result back; the caller
merges them in row order with :meth:`halluscope.results.ScoreResult.merge`, whose
fields declare how they merge. A row's score does not depend on the rows scored with
it, so the merged result is the one process's, bit for bit (``tests/test_workers.py``).

The inputs are checked in the caller first, so a bad row is named by its row in the
whole call. The workers' caches go with them when the call ends; the caller's caches
are not filled by them. Where ``fork`` does not exist (Windows; macOS defaults to
``spawn``), and where the models run on a GPU (a fork of a process that holds CUDA
cannot use it), each worker is spawned and loads its own models first: slower to start,
same scores.
"""
from __future__ import annotations

import math
import multiprocessing
import os
import sys
import traceback
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from .results import ScoreResult

#: shards per worker: more than one, so a worker that drew the long documents does not
#: leave the others idle at the end
SHARDS_PER_WORKER = 4

#: what a forked worker scores with: the caller's Resources, set just before the fork
_INHERITED: Dict[str, Any] = {}


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worker_count(workers: int, rows: int) -> int:
    """How many processes score ``rows`` rows for ``workers`` (0: every core), never more
    than there are rows."""
    wanted = available_cores() if workers == 0 else workers
    return max(1, min(wanted, rows))


def shard_bounds(rows: int, workers: int, sources: Optional[Sequence[Any]] = None) -> List[Tuple[int, int]]:
    """Consecutive ``(start, end)`` row ranges, about :data:`SHARDS_PER_WORKER` per
    worker (fewer when there are fewer rows). With ``sources``, each cut moves forward
    to where the source changes, unless that is past the next cut, so that rows of one
    document stay in one shard and the document is parsed once (SummEval holds about
    ten summaries of each document in a row)."""
    if rows == 0:
        return []
    size = math.ceil(rows / min(rows, workers * SHARDS_PER_WORKER))
    cuts = list(range(size, rows, size))
    if sources is not None:
        moved = []
        for index, cut in enumerate(cuts):
            limit = cuts[index + 1] if index + 1 < len(cuts) else rows
            while cut < limit and sources[cut] == sources[cut - 1]:
                cut += 1
            if cut < limit and (not moved or cut > moved[-1]):
                moved.append(cut)
        cuts = moved
    starts = [0] + cuts
    return list(zip(starts, cuts + [rows]))


def _start_worker() -> None:
    """In each new worker: files of its own for the WordNet reader (a fork shares open
    files' offsets with the caller), and torch on one thread (the workers are the
    parallelism; more threads per worker would fight over the same cores)."""
    from .wordnet import reopen_files_after_fork

    reopen_files_after_fork()
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def _score_shard(score: Callable[..., ScoreResult], columns: Dict[str, Any], options: Dict[str, Any]):
    """One shard in a worker: ``("ok", result)`` or ``("error", text)``; errors travel
    as text, since not every exception survives pickling."""
    try:
        resources = _INHERITED.get("resources")
        return "ok", score(**columns, **options, resources=resources)
    except Exception as error:  # noqa: BLE001 - reported in the caller with the shard's rows
        return "error", f"{type(error).__name__}: {error}\n{traceback.format_exc(limit=6)}"


def _context(fork: bool = True):
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if fork and "fork" in methods else "spawn")


def score_in_workers(score: Callable[..., ScoreResult], workers: int, columns: Mapping[str, Optional[Sequence[Any]]],
                     options: Mapping[str, Any], resources: Any, loaded: bool = False,
                     fork: bool = True) -> ScoreResult:
    """``score(**columns, **options, resources=...)`` over consecutive shards of the
    rows in ``workers`` processes, merged in row order. ``columns`` holds the
    per-row lists (``predictions``, ``sources`` and, when given, ``references`` and
    ``publication_dates``); a column of None stays None in every shard. ``score``
    must be a module-level function (it is pickled by name). ``loaded``: the caller's
    resources already hold every model the call needs (they scored the same call
    before), so no row is scored here first and every row goes to the workers.
    ``fork=False``: the workers are spawned (a process holding CUDA cannot be forked
    into workers that use it) and load their own models; pass ``loaded=True`` with it."""
    rows = len(columns["predictions"])

    def rows_of(start: int, end: int) -> Dict[str, Any]:
        return {name: None if values is None else list(values[start:end]) for name, values in columns.items()}

    # unless loaded, the first row here: it loads every model and resource the call needs
    # into this process before the fork, so the workers share them instead of each
    # loading its own (a serial step: the other cores wait for it)
    head = 0 if loaded else 1
    results = [] if loaded else [score(**rows_of(0, 1), **options, resources=resources)]
    bounds = [(start + head, end + head) for start, end in shard_bounds(rows - head, workers, columns["sources"][head:])]
    shards = [rows_of(start, end) for start, end in bounds]
    _INHERITED["resources"] = resources
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=_context(fork), initializer=_start_worker) as pool:
            futures = [pool.submit(_score_shard, score, shard, dict(options)) for shard in shards]
            for (start, end), future in zip(bounds, futures):
                status, value = future.result()
                if status == "error":
                    raise RuntimeError(f"scoring failed in a worker (rows {start}-{end - 1}): {value}")
                results.append(value)
    except BrokenProcessPool as error:
        raise RuntimeError(f"a worker process ended without a result ({error}); it may have run out of "
                           "memory: use fewer workers (docs/scaling.md#workers)") from None
    finally:
        _INHERITED.clear()
    return ScoreResult.merge(results)
