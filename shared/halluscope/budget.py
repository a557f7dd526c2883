"""The memory budget of the process's caches (docs/scaling.md#memory).

Every cache in halluscope is a :class:`halluscope.lru.LRU`; those that grow with the
data (parses, extracted units, text indexes, sentence embeddings, WordNet answers, NLI
scores) weigh their entries in estimated bytes and register here under a *kind*. One number, the
``cache_mb`` option (``HALLUSCOPE_CACHE_MB`` in the environment, ``--cache-mb`` on
the command line; default :data:`DEFAULT_MB`), bounds them all:

* each kind gets a fixed share of the budget, :data:`SHARES` (parses 43%, units 5%,
  text indexes 20%, embeddings 15%, NLI scores 5%, WordNet answers 10%, tables derived
  from whole texts 2%: :mod:`halluscope.text_tables`);
* a kind's share is split equally among its live caches (two spaCy models: two parse
  caches with half the parse share each; a Lexicon and its widened twin, one cache each, half each;
  two :class:`halluscope.resources.Resources`: two text-index caches);
* a cache over its bound evicts its least recent entries at once.

Caches are memoisation only, so a budget changes memory and time, never a score.
Entry weights are estimates measured with ``tracemalloc`` on validation texts
(``python -m benchmarks.memory --measure`` prints them): see :data:`DOC_BYTES_PER_TOKEN` and
the other constants below. The budget bounds the caches, not the process: models,
spaCy's vocabulary and the Python heap come on top (docs/scaling.md#memory).

A scoring call's transient memory (a batch's parses, MiniLM's attention over a batch of
long sentences: 64 x 12 heads x 256 x 256 floats = 200 MB) is freed when the call ends,
but glibc's allocator keeps freed heap pages, so without :func:`release_free_memory` a
long run's RSS holds the largest batch it has seen on top of the caches.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import threading
import weakref
from collections.abc import Hashable
from typing import Any

from .errors import OptionError

#: the budget, in MB (2**20 bytes), when neither the option nor the environment sets one
DEFAULT_MB = 96
#: environment variable read when the option is not given
ENV = "HALLUSCOPE_CACHE_MB"
#: each kind's share of the budget (they sum to 1). WordNet's answers had 5% and NLI scores
#: 10% until session 16: a Lexicon's supporter maps outgrew 5% within one call (400 FRANK
#: rows with references walked WordNet's hierarchy 1,932 times for 1,600 distinct answers,
#: and a warm second call 1,786 times), while chi, which uses no NLI, left the NLI share
#: idle; at 10% the call walks each answer once (cold 19.4-20.3 -> 18.8-19.3 s, a warm second
#: call 5.4-5.6 -> 3.3-3.4 s; docs/scaling.md#memory)
SHARES: dict[str, float] = {
    "parses": 0.43,
    "units": 0.05,
    "text_indexes": 0.20,
    "embeddings": 0.15,
    "nli": 0.05,
    "lexicon": 0.10,
    "derived": 0.02,
}
MB = 1 << 20

# -- entry weights (bytes), measured by python -m benchmarks.memory --measure ---------
#: a parsed text (spaCy Doc with en_core_web_sm's annotations; its tok2vec tensor is
#: dropped after parsing, halluscope.parsing.without_tensor) per token: 178 measured on
#: SummEval sources and summaries (454 while the tensor was kept)
DOC_BYTES_PER_TOKEN = 180
#: a parsed text's fixed part (Doc, ParsedText, dicts)
DOC_BYTES_FIXED = 2_000
#: a text index (halluscope.text.index.TextIndex) per character of its text:
#: 126 measured, and 14 more once its word-to-sentence lists are built (TextIndex.sharing
#: and holding_all, session 27: 60 SummEval sources); an index entry also keeps its Doc
#: alive, which is counted with it
INDEX_BYTES_PER_CHAR = 145
#: an extracted unit (halluscope.units: an entity, relation triple or quantity with its
#: strings): 461 measured on SummEval sources and summaries
UNIT_BYTES = 460
#: a unit-cache entry's fixed part (its key, list and weak reference)
UNIT_ENTRY_FIXED = 300
#: an array's object overhead besides its data
ARRAY_OVERHEAD = 112
#: one element of a cached container (a dict or set entry with its object)
ELEMENT_BYTES = 100


def _text_bytes(text: Any) -> int:
    return sys.getsizeof(text) if isinstance(text, str) else 64


def weigh_doc(key: Hashable, parsed: Any) -> int:
    """Bytes of a parse-cache entry: ``key`` (a text or an (analysed, shown) pair)
    and a :class:`halluscope.parsing.ParsedText` (or a bare ``Doc``)."""
    doc = getattr(parsed, "doc", parsed)
    keys = key if isinstance(key, tuple) else (key,)
    return DOC_BYTES_FIXED + DOC_BYTES_PER_TOKEN * len(doc) + sum(_text_bytes(k) for k in keys)


def weigh_index(key: Hashable, entry: Any) -> int:
    """Bytes of a text-index entry ``(doc, index)``: the index by its text's length,
    plus the ``Doc`` it keeps alive."""
    doc, index = entry
    return INDEX_BYTES_PER_CHAR * len(index.lowered) + weigh_doc(None, doc)


def weigh_units(key: Hashable, entry: Any) -> int:
    """Bytes of a unit-cache entry (:class:`halluscope.parsing.UnitCache`): ``entry``
    is (a weak reference to the parse, its units)."""
    return UNIT_ENTRY_FIXED + UNIT_BYTES * len(entry[1])


def weigh_array(key: Hashable, array: Any) -> int:
    """Bytes of a cached array (an embedding: 384 float32 = 1,536 bytes; an NLI row)
    and its key (a string, or a tuple of strings)."""
    keys = key if isinstance(key, tuple) else (key,)
    return int(array.nbytes) + ARRAY_OVERHEAD + 56 + sum(_text_bytes(k) for k in keys)


def _value_bytes(value: Any) -> int:
    """A derived table's estimated bytes: a string its size; a tuple its parts; a
    container its size plus :data:`ELEMENT_BYTES` per element."""
    if isinstance(value, str):
        return sys.getsizeof(value)
    if isinstance(value, tuple):
        return sys.getsizeof(value) + sum(_value_bytes(part) for part in value)
    try:
        count = len(value)
    except TypeError:
        count = 1
    return sys.getsizeof(value) + ELEMENT_BYTES * count


def weigh_derived(key: Hashable, value: Any) -> int:
    """Bytes of a text-table entry (:class:`halluscope.text_tables.TextTables`): its key's
    texts (a (build, text) pair, or a tuple naming a text) and its value
    (:func:`_value_bytes`)."""
    keys = key if isinstance(key, tuple) else (key,)
    return 56 + sum(_text_bytes(k) for k in keys) + _value_bytes(value)


def weigh_container(key: Hashable, value: Any) -> int:
    """Bytes of a cached container (WordNet answers: synset tuples, frozensets,
    supporter maps): its own size plus :data:`ELEMENT_BYTES` per element."""
    keys = key if isinstance(key, tuple) else (key,)
    try:
        count = len(value)
    except TypeError:
        count = 1
    return sys.getsizeof(value) + ELEMENT_BYTES * count + 56 + sum(_text_bytes(k) for k in keys)


# -- the registry ------------------------------------------------------------------------

_LOCK = threading.RLock()
#: kind -> [(weak reference to the LRU, its owner's lock or None)]; locks are held
#: strongly (they are small and cannot be weakly referenced), the caches weakly
_CACHES: dict[str, list[tuple[weakref.ref, Any]]] = {kind: [] for kind in SHARES}
#: the budget set by the last call that gave one (None: the environment or the default)
_SET_MB: int | None = None


#: the largest budget accepted, in MB (1 TiB): checked before any arithmetic, so that a
#: huge value is refused and leaves the budget in force unchanged
MAX_MB = 1 << 20


def check_mb(value: Any, option: str = "cache_mb") -> int:
    """``value`` if it is an integer in [0, :data:`MAX_MB`], else an :class:`OptionError`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_MB:
        raise OptionError(f"`{option}` must be an integer in [0, {MAX_MB}] (MB), got {value!r}", option=option)
    return value


def current_mb() -> int:
    """The budget in force: the last one set (:func:`apply`), else ``$HALLUSCOPE_CACHE_MB``,
    else :data:`DEFAULT_MB`."""
    if _SET_MB is not None:
        return _SET_MB
    text = os.environ.get(ENV, "").strip()
    if not text:
        return DEFAULT_MB
    try:
        value = int(text)
    except ValueError:
        raise OptionError(f"{ENV} must be an integer number of MB >= 0, got {text!r}", option=ENV) from None
    return check_mb(value, ENV)


def shares(total_mb: int, counts: dict[str, int] | None = None) -> dict[str, int]:
    """Bytes per cache of each kind under a budget of ``total_mb``: the kind's share of
    the budget divided by ``counts[kind]`` (its live caches; at least 1)."""
    counts = counts or {}
    return {kind: int(total_mb * MB * share) // max(1, counts.get(kind, 1)) for kind, share in SHARES.items()}


def _live(kind: str) -> list[tuple[Any, Any]]:
    """The live caches of ``kind`` with their locks (dead references dropped)."""
    alive = [(ref(), lock) for ref, lock in _CACHES[kind]]
    alive = [(lru, lock) for lru, lock in alive if lru is not None]
    _CACHES[kind] = [(weakref.ref(lru), lock) for lru, lock in alive]
    return alive


def _bound(plan: list[tuple[Any, Any, int]]) -> None:
    """Resize each (cache, lock, bound), under the cache's own lock; called without
    :data:`_LOCK`, so that an owner creating a cache under its lock cannot deadlock
    with a budget being applied."""
    for lru, lock, bound in plan:
        if lock is None:
            lru.resize(max_weight=bound)
        else:
            with lock:
                lru.resize(max_weight=bound)


def _plan(kinds: Any, total_mb: int) -> list[tuple[Any, Any, int]]:
    plan: list[tuple[Any, Any, int]] = []
    for kind in kinds:
        live = _live(kind)
        bound = shares(total_mb, {kind: len(live)})[kind]
        plan.extend((lru, lock, bound) for lru, lock in live)
    return plan


def register(kind: str, lru: Any, lock: Any = None) -> Any:
    """Put ``lru`` (weighted: it has a ``weigh``) under the budget as a cache of
    ``kind`` (a key of :data:`SHARES`); ``lock``: the lock its owner holds around it,
    taken while it is resized. Bounds it and the other caches of its kind now.
    Returns ``lru``."""
    if kind not in SHARES:
        raise ValueError(f"unknown cache kind {kind!r}; kinds: {', '.join(SHARES)}")
    with _LOCK:
        _CACHES[kind].append((weakref.ref(lru), lock))
        plan = _plan((kind,), current_mb())
    _bound(plan)
    return lru


def apply(cache_mb: int | None = None) -> int:
    """Bound every registered cache by ``cache_mb`` (None: keep the budget in force,
    :func:`current_mb`) and return the budget now in force. The caches are shared by
    the process, so the budget is too: a value given to one call stays until another
    call gives one. Shrinking evicts at once."""
    global _SET_MB
    with _LOCK:
        if cache_mb is not None:
            _SET_MB = check_mb(cache_mb)
        total = current_mb()
        plan = _plan(SHARES, total)
    _bound(plan)
    return total


def reset() -> int:
    """Forget the budget set by calls (back to the environment or the default) and
    re-apply it; returns it."""
    global _SET_MB
    with _LOCK:
        _SET_MB = None
    return apply(None)


def usage() -> dict[str, dict[str, int]]:
    """Per kind: live caches, entries, estimated bytes held and the byte bound of each."""
    with _LOCK:
        total = current_mb()
        result = {}
        for kind in SHARES:
            live = _live(kind)
            result[kind] = {
                "caches": len(live),
                "entries": sum(len(lru) for lru, _ in live),
                "bytes": sum(lru.weight for lru, _ in live),
                "bound": shares(total, {kind: len(live)})[kind],
            }
        return result


# -- returning freed memory ---------------------------------------------------------------


def _malloc_trim() -> Any:
    """glibc's ``malloc_trim``, or None where the C library has none (macOS, musl)."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


_TRIM = _malloc_trim()


def release_free_memory() -> bool:
    """Hand the heap pages freed by the last scoring call back to the operating system
    (glibc ``malloc_trim(0)``, well under a millisecond after a call); called by every
    ``halluscope.score_*`` before it returns. Changes memory only, never a score.
    Returns whether anything could be released (False without glibc)."""
    return bool(_TRIM(0)) if _TRIM is not None else False
