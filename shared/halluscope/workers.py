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

Every way a call can end ends its workers (docs/scaling.md#how-a-call-with-workers-ends):
a normal end shuts the pool down; an error in a worker, Ctrl-C or SIGTERM kills the
others at once and cancels the shards not started (nothing waits for them); and a
worker whose parent is gone, even by ``kill -9``, ends itself (Linux's parent-death
signal, else a thread that watches ``os.getppid``). Workers ignore SIGINT and take
SIGTERM's default action instead of inheriting the caller's handlers (a terminal's
Ctrl-C reaches the whole process group: the caller decides), and they close the file
descriptors the caller marked as its own (:func:`keep_from_workers`: the CLI's output
lock and partial file), so a lock never outlives the run that took it. A count above
the usable cores is capped, with a warning.

The inputs are checked in the caller first, so a bad row is named by its row in the
whole call. The workers' caches go with them when the call ends; the caller's caches
are not filled by them. Where ``fork`` does not exist (Windows; macOS defaults to
``spawn``), and where the models run on a GPU (a fork of a process that holds CUDA
cannot use it), each worker is spawned and loads its own models first: slower to start,
same scores.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .results import ScoreResult

#: shards per worker: more than one, so a worker that drew the long documents does not
#: leave the others idle at the end
SHARDS_PER_WORKER = 4

#: what a forked worker scores with: the caller's Resources, set just before the fork
_INHERITED: dict[str, Any] = {}
#: file descriptors of the caller that its workers close when they start
_CALLERS_OWN_FDS: set[int] = set()
#: Linux's prctl option that sends a signal to a process when its parent ends
_PR_SET_PDEATHSIG = 1
#: seconds between two looks at the parent where there is no parent-death signal
_PARENT_POLL_S = 0.5
#: seconds the caller waits for killed workers to be gone
_KILL_WAIT_S = 5.0
#: the signals a caller may be stopped by, which its workers must not handle as it does
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def capped_workers(workers: int) -> int:
    """``workers`` processes, at most the usable cores (0: every core); more would only
    compete for the same cores and cost seconds to start (a warning says so)."""
    cores = available_cores()
    if workers > cores:
        warnings.warn(
            f"workers={workers} is more than the {cores} usable cores (os.sched_getaffinity): "
            f"{cores} processes score instead",
            stacklevel=3,
        )
        return cores
    return cores if workers == 0 else workers


def worker_count(workers: int, rows: int) -> int:
    """How many processes score ``rows`` rows for ``workers`` (0: every core), never more
    than there are rows or usable cores (:func:`capped_workers`)."""
    return max(1, min(capped_workers(workers), rows))


@contextlib.contextmanager
def keep_from_workers(fd: int) -> Iterator[int]:
    """Within the block, workers started by this process close ``fd`` when they start
    (a fork shares it otherwise: a lock held through it would outlive this process)."""
    _CALLERS_OWN_FDS.add(fd)
    try:
        yield fd
    finally:
        _CALLERS_OWN_FDS.discard(fd)


def shard_bounds(rows: int, workers: int, sources: Sequence[Any] | None = None) -> list[tuple[int, int]]:
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
        moved: list[int] = []
        for index, cut in enumerate(cuts):
            limit = cuts[index + 1] if index + 1 < len(cuts) else rows
            while cut < limit and sources[cut] == sources[cut - 1]:
                cut += 1
            if cut < limit and (not moved or cut > moved[-1]):
                moved.append(cut)
        cuts = moved
    starts = [0] + cuts
    return list(zip(starts, cuts + [rows], strict=True))


def _end_with_parent(parent: int) -> None:
    """This worker ends when ``parent`` does: Linux's parent-death signal (SIGKILL),
    else a daemon thread that looks at ``os.getppid`` every :data:`_PARENT_POLL_S`."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        watched = libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux
        watched = False
    if not watched:

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(_PARENT_POLL_S)
            os._exit(1)

        threading.Thread(target=watch, name="halluscope-parent-watch", daemon=True).start()
    if os.getppid() != parent:  # the parent ended before the signal was set
        os._exit(1)


def _start_worker(parent: int, callers_fds: tuple[int, ...]) -> None:
    """In each new worker: end with the parent (:func:`_end_with_parent`); SIGINT
    ignored and SIGTERM's default action (the caller's handlers are not inherited;
    the caller stops its workers itself); the caller's own descriptors closed
    (:func:`keep_from_workers`); files of its own for the WordNet reader (a fork shares
    open files' offsets with the caller); torch on one thread (the workers are the
    parallelism; more threads per worker would fight over the same cores)."""
    from .lexicon.wordnet import reopen_files_after_fork

    _end_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    for fd in callers_fds:
        with contextlib.suppress(OSError):
            os.close(fd)
    reopen_files_after_fork()
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def _score_shard(score: Callable[..., ScoreResult], columns: dict[str, Any], options: dict[str, Any]):
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


def score_in_workers(
    score: Callable[..., ScoreResult],
    workers: int,
    columns: Mapping[str, Sequence[Any] | None],
    options: Mapping[str, Any],
    resources: Any,
    loaded: bool = False,
    fork: bool = True,
) -> ScoreResult:
    """``score(**columns, **options, resources=...)`` over consecutive shards of the
    rows in ``workers`` processes, merged in row order. ``columns`` holds the
    per-row lists (``predictions``, ``sources`` and, when given, ``references`` and
    ``publication_dates``); a column of None stays None in every shard. ``score``
    must be a module-level function (it is pickled by name). ``loaded``: the caller's
    resources already hold every model the call needs (they scored the same call
    before), so no row is scored here first and every row goes to the workers.
    ``fork=False``: the workers are spawned (a process holding CUDA cannot be forked
    into workers that use it) and load their own models; pass ``loaded=True`` with it."""
    predictions, sources = columns["predictions"], columns["sources"]
    if predictions is None or sources is None:  # the two columns every call has
        raise TypeError("score_in_workers needs the predictions and sources columns")
    rows = len(predictions)

    def rows_of(start: int, end: int) -> dict[str, Any]:
        return {name: None if values is None else list(values[start:end]) for name, values in columns.items()}

    # unless loaded, the first row here: it loads every model and resource the call needs
    # into this process before the fork, so the workers share them instead of each
    # loading its own (a serial step: the other cores wait for it)
    head = 0 if loaded else 1
    results = [] if loaded else [score(**rows_of(0, 1), **options, resources=resources)]
    bounds = [(start + head, end + head) for start, end in shard_bounds(rows - head, workers, sources[head:])]
    shards = [rows_of(start, end) for start, end in bounds]
    _INHERITED["resources"] = resources
    try:
        pool, futures = _start_pool(workers, fork, [(score, shard, dict(options)) for shard in shards])
        try:
            for (start, end), future in zip(bounds, futures, strict=True):
                status, value = future.result()
                if status == "error":
                    raise RuntimeError(f"scoring failed in a worker (rows {start}-{end - 1}): {value}")
                results.append(value)
        except BaseException:  # an error, Ctrl-C, SIGTERM: nothing waits for the other shards
            stop_pool(pool)
            raise
        pool.shutdown(wait=True)
    except BrokenProcessPool as error:
        raise RuntimeError(
            f"a worker process ended without a result ({error}); it may have run out of "
            "memory: use fewer workers (docs/scaling.md#workers)"
        ) from None
    finally:
        _INHERITED.clear()
    return ScoreResult.merge(results)


def _start_pool(workers: int, fork: bool, tasks: Sequence[tuple[Any, ...]]):
    """A pool of ``workers`` processes (:func:`_start_worker` in each) with ``tasks``
    (``_score_shard``'s arguments) submitted. SIGINT and SIGTERM are blocked in this
    thread while the workers are made, so none arrives in a worker before it has set
    its own handlers; one that arrives meanwhile is delivered here right after."""
    blocked = threading.current_thread() is threading.main_thread()
    if blocked:
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        context = _context(fork)
        # a spawned worker inherits no descriptor: the numbers would name others there
        own_fds = tuple(sorted(_CALLERS_OWN_FDS)) if context.get_start_method() == "fork" else ()
        pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_start_worker, initargs=(os.getpid(), own_fds)
        )
        try:
            futures = [pool.submit(_score_shard, *task) for task in tasks]
        except BaseException:
            stop_pool(pool)
            raise
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    return pool, futures


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Kill ``pool``'s workers now, cancel what they have not started and wait (at most
    :data:`_KILL_WAIT_S`) until they are gone."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + _KILL_WAIT_S
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            process.join(max(0.0, deadline - time.monotonic()))
