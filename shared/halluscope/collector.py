"""Fewer passes of Python's garbage collector while a batch scores.

A scoring call makes hundreds of thousands of small objects that live until it ends
(word sets of each sentence, units, matches). Python counts them, and every 700 new
container objects it runs a collection; every tenth of those also scans older objects,
and a process with models and caches loaded holds over a million of them. On 400
FRANK rows with references that took 0.5 s of chi's 4.2 s after parsing
(docs/scaling.md, "Where the time goes").

:func:`fewer_collections` raises the first threshold to :data:`GEN0_THRESHOLD` for the
duration of a call (the pipeline's ``score`` and ``dlsd_acu``'s ``score_batch`` run
under it) and puts back what it found when the last concurrent call ends. Nothing is
switched off: cycles are still collected, in fewer, larger passes. A threshold the
process already set higher, or 0 (automatic collection off), is left as it is.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

#: new container objects between two collections of the youngest generation while
#: scoring (Python's default is 700)
GEN0_THRESHOLD = 50_000

_lock = threading.Lock()
_active = 0
_saved: tuple[int, ...] | None = None


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the block with the youngest generation's threshold at :data:`GEN0_THRESHOLD`
    at least; nested and concurrent blocks share one setting, restored by the last to end."""
    global _active, _saved
    with _lock:
        if _active == 0:
            _saved = gc.get_threshold()
            if 0 < _saved[0] < GEN0_THRESHOLD:
                gc.set_threshold(GEN0_THRESHOLD, *_saved[1:])
        _active += 1
    try:
        yield
    finally:
        with _lock:
            _active -= 1
            if _active == 0 and _saved is not None:
                gc.set_threshold(*_saved)
                _saved = None
