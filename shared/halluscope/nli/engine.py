"""The NLI engine: the cache, the counters and the order of the steps; each step
is its own module of :mod:`halluscope.nli` (docs/architecture.md#dlsd_acu-acu-nli).

``NLIEngine.score(pairs)``: pairs are checked (:func:`check_pairs`),
deduplicated, looked up in an LRU cache (:class:`halluscope.lru.LRU`, bounded by
the NLI share of :mod:`halluscope.budget`), and the rest scored by an injected
scorer (:mod:`.injected_scorer`) or the model: tokenised (:mod:`.features`), run in
batches (:mod:`.forward`) and put in engine column order (:mod:`.labels`).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .. import budget
from ..lru import LRU
from ..registry import NLI, resolve
from .features import (
    MAX_ENCODINGS,
    Pair,
    cached_features,
    encode_texts,
    pair_backend,
    pair_template,
    tokenizer_features,
)
from .forward import BATCHES_AHEAD, run_batches
from .injected_scorer import Scorer, run_scorer, scorer_name
from .labels import CONTRADICTION, ENTAILMENT, NEUTRAL, label_columns, to_engine_columns
from .loading import capped_max_length, check_dtype, load_registered, normalise_device


class NLIEngine:
    """Batched, cached NLI scoring with a transformers model or an injected scorer.

    Counters (reset with ``reset_counters``): ``requested`` pairs asked for,
    ``scored`` pairs run through the model/scorer, ``cached`` pairs answered
    from the cache or as duplicates within a call, ``forward_seconds`` wall time
    in forward passes (or the scorer), ``oom_retries`` batch halvings.
    An injected ``scorer(premises, hypotheses)`` is called once per ``score``
    call with the unique uncached pairs (it batches for itself).
    """

    _MAX_ENCODINGS = MAX_ENCODINGS
    _BATCHES_AHEAD = BATCHES_AHEAD

    def __init__(
        self,
        model: str | None = None,
        *,
        device: str | None = None,
        dtype: str = "float32",
        batch_size: int = 32,
        max_length: int = 512,
        label_map: Mapping[str, str] | None = None,
        scorer: Scorer | None = None,
        cache_size: int = 1_000_000,
    ) -> None:
        _check_settings(batch_size, max_length, cache_size)
        self.dtype = check_dtype(dtype)
        self.batch_size = batch_size
        self.max_length = max_length
        self.cache_size = cache_size
        self.label_map = dict(label_map) if label_map else None
        self._scorer = scorer
        self._tokenizer: Any = None  # transformers' tokenizer and model, loaded below unless a scorer is given
        self._model: Any = None
        if scorer is not None:
            if model is not None:
                raise ValueError("pass either model or scorer, not both")
            if not callable(scorer):
                raise TypeError(f"scorer must be callable; got {type(scorer).__name__}")
            self.name = scorer_name(scorer)
            self.device = device
            self._columns: tuple[int, ...] = (ENTAILMENT, NEUTRAL, CONTRADICTION)
        else:
            self.name = resolve(NLI, model)
            self.device = normalise_device(device)
            self._tokenizer, self._model = load_registered(self.name, self.device, self.dtype)
            self._columns = label_columns(self._model.config.id2label, self.label_map)
            self.max_length = capped_max_length(self._tokenizer, self.max_length)
        # at most cache_size pairs within the NLI share of the memory budget (halluscope.budget)
        self._cache: LRU[np.ndarray] = LRU(self.cache_size, weigh=budget.weigh_array)
        self._lock = threading.RLock()
        budget.register("nli", self._cache, self._lock)
        self._pair_builder: Any = None  # the Rust tokenizer used to build pairs (lazily)
        self._encodings: dict[str, Any] = {}  # text -> its tokens without special tokens
        self._template: tuple | None = None  # the pair template (see features.pair_template)
        self.reset_counters()

    def __repr__(self) -> str:
        return (
            f"NLIEngine({self.name!r}, device={self.device!r}, dtype={self.dtype!r}, "
            f"batch_size={self.batch_size}, max_length={self.max_length})"
        )

    @property
    def model(self):
        """The transformers model (None with an injected scorer)."""
        return self._model

    @property
    def tokenizer(self):
        """The tokenizer (None with an injected scorer)."""
        return self._tokenizer

    def reset_counters(self) -> None:
        """Zero ``requested``, ``scored``, ``cached``, ``forward_seconds``, ``oom_retries``."""
        self.requested = 0
        self.scored = 0
        self.cached = 0
        self.forward_seconds = 0.0
        self.oom_retries = 0

    def clear_cache(self) -> None:
        """Forget every cached score."""
        with self._lock:
            self._cache.clear()

    def score(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """``(n, 3)`` float32 probabilities [ent, neu, con] for (premise, hypothesis) pairs."""
        checked = check_pairs(pairs)
        with self._lock:
            positions: dict[Pair, int] = {}
            rows = np.fromiter(
                (positions.setdefault(pair, len(positions)) for pair in checked), dtype=np.int64, count=len(checked)
            )
            uniques = list(positions)
            results = np.zeros((len(uniques), 3), dtype=np.float32)
            todo: list[int] = []
            for u, (premise, hypothesis) in enumerate(uniques):
                key = (self.name, premise, hypothesis)
                hit = self._cache.get(key)
                if hit is None:
                    todo.append(u)
                else:
                    results[u] = hit
            if todo:
                fresh = self._run([uniques[u] for u in todo])
                results[todo] = fresh
                for u, row in zip(todo, fresh, strict=True):
                    self._cache.put((self.name,) + uniques[u], row.copy())
            self.requested += len(checked)
            self.scored += len(todo)
            self.cached += len(checked) - len(todo)
            return results[rows]

    # -- the steps of a call -----------------------------------------------------------

    def _run(self, pairs: list[Pair]) -> np.ndarray:
        """``(n, 3)`` [ent, neu, con] of uncached unique pairs, from the scorer or the model."""
        if self._scorer is not None:
            return run_scorer(self._scorer, self.name, pairs, self)
        builder = self._builder()
        if builder is not None:  # every new text of the call in one tokenizer batch
            self._encode_texts(pairs, builder)
        assert self.device is not None, "an engine without a scorer has its device from normalise_device"
        probs = run_batches(
            pairs,
            build=self._batch_features,
            forward=lambda batch: self._forward(batch),  # looked up per batch
            batch_size=self.batch_size,
            width=len(self._columns),
            device=self.device,
            name=self.name,
            counters=self,
            batches_ahead=self._BATCHES_AHEAD,
        )
        return to_engine_columns(probs, self._columns)

    def _forward(self, batch: dict[str, Any]):
        """Logits for one padded batch (a seam: tests replace it to simulate OOM)."""
        return self._model(**batch).logits

    def _builder(self):
        """The backend pairs are built with (:func:`~.features.pair_backend`), made on
        first use with its pair template and special-token count, or ``None`` where
        pairs cannot be built from cached encodings."""
        if self._pair_builder is None:
            backend = pair_backend(self._tokenizer)
            if backend is not None:
                self._template = pair_template(backend)
                self._special_tokens = self._tokenizer.num_special_tokens_to_add(pair=True)
            self._pair_builder = backend if backend is not None else False
        return self._pair_builder or None

    def _encode_texts(self, pairs: Sequence[Pair], builder) -> None:
        """Tokenise once per engine every text of ``pairs`` not seen yet (:func:`~.features.encode_texts`)."""
        encode_texts(self._encodings, pairs, builder, ids_only=self._template is not None, limit=self._MAX_ENCODINGS)

    def _batch_features(self, chunk: list[Pair]):
        """Padded tensors for one batch: from cached per-text encodings where the
        tokenizer allows and every hypothesis leaves room; else from the tokenizer."""
        builder = self._builder()
        if builder is not None:
            self._encode_texts(chunk, builder)
            features = cached_features(
                chunk,
                self._encodings,
                builder,
                self._template,
                self._tokenizer,
                max_length=self.max_length,
                special_tokens=self._special_tokens,
            )
            if features is not None:
                return features
        return tokenizer_features(self._tokenizer, chunk, self.max_length)


def _check_settings(batch_size: Any, max_length: Any, cache_size: Any) -> None:
    """``ValueError`` unless batch_size >= 1, max_length >= 4 and cache_size >= 0 are ints."""
    if not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive int; got {batch_size!r}")
    if not isinstance(max_length, int) or max_length < 4:
        raise ValueError(f"max_length must be an int >= 4; got {max_length!r}")
    if not isinstance(cache_size, int) or cache_size < 0:
        raise ValueError(f"cache_size must be an int >= 0; got {cache_size!r}")


def check_pairs(pairs: Sequence[tuple[str, str]]) -> list[Pair]:
    """``pairs`` as a list of (str, str) tuples; ``TypeError``/``ValueError`` naming the
    first pair that is not a (premise, hypothesis) of strings."""
    if isinstance(pairs, (str, bytes)):
        raise TypeError("pairs must be a sequence of (premise, hypothesis) tuples, not a string")
    checked: list[Pair] = []
    for i, pair in enumerate(pairs):
        if type(pair) is tuple and len(pair) == 2 and type(pair[0]) is str and type(pair[1]) is str:
            checked.append(pair)  # the common case, already a (str, str) tuple
            continue
        if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise ValueError(f"pair {i}: expected (premise, hypothesis); got {pair!r:.80}")
        premise, hypothesis = pair
        for field, value in (("premise", premise), ("hypothesis", hypothesis)):
            if not isinstance(value, str):
                raise TypeError(f"pair {i}: {field} must be str; got {type(value).__name__}")
        checked.append((str(premise), str(hypothesis)))
    return checked
