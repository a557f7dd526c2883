"""Decomposers: text -> atomic content units (ACUs), cached per text.

Mind the Link (DL-ACU/SD-ACU, docs/papers.md#sd-acu) decomposes every summary
sentence and, for SD-ACU, only the top-k document sentences of each summary ACU, each
sentence at most once; FIZZ (docs/papers.md#hosts-fizz-and-fenice) decomposes the
summary into short atomic facts. Two decomposers
share one protocol (:class:`Decomposer`):

* :class:`~halluscope.acu.seq2seq_decomposer.Seq2SeqDecomposer`: any Hugging Face
  seq2seq model; the default is the claim extractor of FENICE,
  ``Babelscape/t5-base-summarization-claim-extractor`` (the T5-base decomposer named
  in Mind the Link §2.2). Its output is one string of claims, each a sentence;
  :func:`~halluscope.acu.seq2seq_decomposer.split_claims` cuts it into units.
* :class:`~halluscope.acu.rule_decomposer.RuleDecomposer`: an offline proposition
  splitter over the spaCy dependency parse (see its docstring for the rules), so the
  metric runs where no seq2seq model is available. It is a stand-in, not the papers'
  decomposer.

This module holds what they share: the protocol, the caching base class, the
decomposition caches, the in-context parses lent to a call (:class:`context_parses`)
and the deduplication of units (:func:`dedupe_units`).

Caching: every decomposer configuration (kind, model, generation settings) has
one process-wide bounded LRU of text -> units, shared by all instances with that
configuration, so a document sentence is decomposed at most once per process.
``calls`` counts the texts an instance actually decomposed (cache misses), the
"LM calls" of Mind the Link's cost claim (docs/papers.md#selective-decomposition-details).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..lru import LRU

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc

DEFAULT_CACHE_SIZE = 16384


@runtime_checkable
class Decomposer(Protocol):
    """What the ACU pipeline needs from a decomposer."""

    name: str
    calls: int  # texts actually decomposed (cache hits not counted)

    def decompose(self, texts: Sequence[str]) -> list[list[str]]:
        """One list of ACU strings per text: deduplicated, in text order."""
        ...


# -- cache ---------------------------------------------------------------------


class _LRU(LRU[tuple[str, ...]]):
    """A text -> units map with the lock its users take (halluscope.lru.LRU)."""

    __slots__ = ("lock",)

    def __init__(self, maxsize: int) -> None:
        super().__init__(maxsize)
        self.lock = threading.Lock()

    def put(self, text: Hashable, units: Sequence[str]) -> tuple[str, ...]:
        return super().put(text, tuple(units))


_CACHES: dict[tuple, _LRU] = {}
_CACHES_LOCK = threading.Lock()


def _cache_for(key: tuple, maxsize: int) -> _LRU:
    with _CACHES_LOCK:
        cache = _CACHES.get(key)
        if cache is None:
            cache = _CACHES[key] = _LRU(maxsize)
        return cache


#: in-context parses lent to the rule decomposer for the duration of one call
#: (:func:`context_parses`), per thread: text -> a function building its ``Doc``
_CONTEXT = threading.local()


class context_parses:
    """``with context_parses({text: build_doc, ...}): decomposer.decompose(texts)``: a
    :class:`~halluscope.acu.rule_decomposer.RuleDecomposer` parses a text listed here
    with ``build_doc()`` (the sentence as parsed inside its document) instead of parsing
    it alone. The parses live only for the ``with`` block, in this thread: they never
    enter the shared parse cache, where another metric would read a sentence's
    in-context parse as the parse of the same text on its own."""

    def __init__(self, builders: Mapping[str, Callable[[], Doc]]) -> None:
        self.builders = builders

    def __enter__(self) -> context_parses:
        self.previous = getattr(_CONTEXT, "builders", None)
        _CONTEXT.builders = self.builders
        return self

    def __exit__(self, *exc) -> None:
        _CONTEXT.builders = self.previous


def clear_decomposer_caches() -> None:
    """Forget every cached decomposition (tests, or to free memory)."""
    with _CACHES_LOCK:
        _CACHES.clear()


class _CachedDecomposer:
    """Shared caching: subclasses implement ``_decompose_uncached``."""

    name: str = "decomposer"

    def __init__(self, cache_key: tuple, cache_size: int) -> None:
        self.calls = 0
        self._cache = _cache_for(cache_key, cache_size)

    def decompose(self, texts: Sequence[str]) -> list[list[str]]:
        """Units of each text; each distinct uncached text is decomposed once, in one batch."""
        if isinstance(texts, str):
            raise TypeError("decompose() takes a sequence of texts, not one string")
        texts = list(texts)
        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError(f"texts[{i}] must be a string, got {type(text).__name__}")
        with self._cache.lock:
            cached = {t: self._cache.get(t) for t in dict.fromkeys(texts)}
        found = {t: units for t, units in cached.items() if units is not None}
        missing = [t for t, units in cached.items() if units is None]
        if missing:
            produced = self._decompose_uncached(missing)
            with self._cache.lock:
                for text, units in zip(missing, produced, strict=True):
                    found[text] = tuple(dedupe_units(units))
                    self._cache.put(text, found[text])
            self.calls += len(missing)
        return [list(found[t]) for t in texts]

    def _decompose_uncached(self, texts: list[str]) -> list[list[str]]:  # pragma: no cover
        raise NotImplementedError


def _unit_key(unit: str) -> str:
    return re.sub(r"\s+", " ", unit.strip().rstrip(".!?;:,").strip()).casefold()


def dedupe_units(units: Iterable[str]) -> list[str]:
    """Stripped, non-empty units, first of each kept; two units are the same when
    they differ only in case, spacing or final punctuation."""
    seen = set()
    out = []
    for unit in units:
        unit = re.sub(r"\s+", " ", unit).strip()
        key = _unit_key(unit)
        if not key or key in seen:
            continue
        seen.add(key)
        out.append(unit)
    return out
