"""The one NLI engine: every entailment score in the project (docs/papers.md#models).

``NLIEngine.score(pairs)`` takes (premise, hypothesis) pairs and returns an
``(n, 3)`` float32 array of probabilities in the column order
``[ENTAILMENT, NEUTRAL, CONTRADICTION]``, rows in input order. A call is scored
at once: pairs are deduplicated, looked up in an LRU cache, the rest tokenized,
sorted by token length (longest first), batched, run under
``torch.inference_mode()``, and soft-maxed in float32.

Any transformers sequence-classification model loads (hub name or local folder,
never ``trust_remote_code``); columns are mapped from ``config.id2label`` by
name, never by index. Resolution: explicit > ``HALLUSCOPE_NLI_MODEL`` >
``tals/albert-xlarge-vitaminc-mnli``. An injected ``scorer`` replaces the model
and goes through the same dedup, cache and counters.

Truncation: only the premise is truncated (``truncation="only_first"``) so the
hypothesis is kept whole. When the hypothesis alone leaves no room for a
premise token within ``max_length``, that pair is truncated ``"longest_first"``
(the hypothesis loses its tail too) rather than raising.

Dtypes: ``float32`` (default), ``float16``, ``bfloat16``. On CPU, float16 runs
for common encoders in recent torch but is slow and some models' ops may lack
half kernels there; use ``bfloat16`` on CPU. Probabilities are always computed
from float32 logits.

CUDA out-of-memory: the failing batch is retried at half the batch size (kept
for the rest of the call); at batch size 1 the error is re-raised.
"""
from __future__ import annotations

import logging
import re
import threading
import time
from collections import deque
from itertools import chain
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from . import budget
from .lru import LRU
from .registry import NLI, REGISTRY, default_device, resolve

LOGGER = logging.getLogger("halluscope")

ENTAILMENT, NEUTRAL, CONTRADICTION = 0, 1, 2
CLASSES = ("entailment", "neutral", "contradiction")
DTYPES = ("float32", "float16", "bfloat16")

# Normalised label names (lower case, runs of space/_/- as one space) -> column.
_LABEL_SYNONYMS: Dict[str, int] = {
    **dict.fromkeys(("entailment", "entail", "entails", "entailed", "supports", "support",
                     "supported"), ENTAILMENT),
    **dict.fromkeys(("neutral", "not enough info", "not enough information", "nei",
                     "notenoughinfo"), NEUTRAL),
    **dict.fromkeys(("contradiction", "contradict", "contradicts", "contradicted",
                     "contradictory", "refutes", "refute", "refuted"), CONTRADICTION),
}

Pair = Tuple[str, str]


def _normalise_label(name: Any) -> str:
    return re.sub(r"[\s_\-]+", " ", str(name).strip().lower())


def label_columns(id2label: Mapping[Any, str],
                  label_map: Optional[Mapping[str, str]] = None) -> Tuple[int, ...]:
    """For each model output index (in order), the engine column it feeds.

    Names come from ``id2label`` (entailment/neutral/contradiction, VitaminC's
    SUPPORTS/NOT ENOUGH INFO/REFUTES and close variants, case-insensitive).
    ``label_map`` (model label name -> "entailment"/"neutral"/"contradiction")
    overrides or supplies names and is required for two-label models.
    """
    labels = [id2label[key] for key in sorted(id2label, key=int)]
    described = ", ".join(f"{i}: {name!r}" for i, name in enumerate(labels))
    overrides: Dict[str, int] = {}
    for key, value in (label_map or {}).items():
        target = _normalise_label(value)
        if target not in CLASSES:
            raise ValueError(f"label_map[{key!r}] = {value!r}: the target must be one of "
                             f"{', '.join(CLASSES)}")
        overrides[_normalise_label(key)] = CLASSES.index(target)
    unmatched = set(overrides) - {_normalise_label(name) for name in labels}
    if unmatched:
        raise ValueError(f"label_map names labels the model does not have: {sorted(unmatched)}; "
                         f"the model's labels are {{{described}}}")
    if len(labels) < 2 or len(labels) > 3:
        raise ValueError(f"an NLI model needs 2 or 3 labels; this one has {len(labels)}: "
                         f"{{{described}}}")
    if len(labels) == 2 and not label_map:
        raise ValueError(f"two-label model {{{described}}}: pass label_map (model label -> "
                         "entailment/neutral/contradiction); the missing class gets probability 0")
    columns: List[int] = []
    unknown = []
    for name in labels:
        key = _normalise_label(name)
        column = overrides.get(key, _LABEL_SYNONYMS.get(key))
        if column is None:
            unknown.append(name)
        columns.append(column)
    if unknown:
        raise ValueError(f"cannot tell which NLI class the labels {unknown} are (model labels "
                         f"{{{described}}}); pass label_map, e.g. {{{unknown[0]!r}: 'entailment'}}")
    if len(set(columns)) != len(columns):
        raise ValueError(f"two model labels map to the same NLI class: {{{described}}} -> "
                         f"{[CLASSES[c] for c in columns]}")
    return tuple(columns)


def check_dtype(dtype: Any) -> str:
    """The dtype's name if it is float32/float16/bfloat16 (string or torch dtype)."""
    name = str(dtype).replace("torch.", "")
    if name not in DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(DTYPES)}; got {dtype!r}")
    return name


def normalise_device(device: Optional[str]) -> str:
    """``"cpu"``, ``"cuda:<i>"`` (``"cuda"`` = the current device) or torch's name for others."""
    if device is None:
        return default_device()
    import torch

    try:
        parsed = torch.device(device)
    except (RuntimeError, TypeError) as error:
        raise ValueError(f"unknown device {device!r}: {error}") from error
    if parsed.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(f"device {device!r} requested but CUDA is not available")
        index = torch.cuda.current_device() if parsed.index is None else parsed.index
        if index >= torch.cuda.device_count():
            raise ValueError(f"device {device!r}: only {torch.cuda.device_count()} CUDA devices")
        return f"cuda:{index}"
    return str(parsed)


def is_out_of_memory(error: BaseException) -> bool:
    """True for CUDA out-of-memory errors (the typed one or a RuntimeError saying so)."""
    import torch

    oom_type = getattr(torch.cuda, "OutOfMemoryError", None)
    if oom_type is not None and isinstance(error, oom_type):
        return True
    return isinstance(error, RuntimeError) and "out of memory" in str(error).lower()


def _torch_dtype(name: str):
    import torch

    return {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}[name]


def _load(name: str, device: str, dtype: str):
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(name, trust_remote_code=False)
    model = AutoModelForSequenceClassification.from_pretrained(name, trust_remote_code=False)
    model.to(device=device, dtype=_torch_dtype(dtype))
    model.eval()
    return tokenizer, model


def _scorer_name(scorer: Callable) -> str:
    qualname = getattr(scorer, "__qualname__", None) or type(scorer).__qualname__
    return f"scorer:{qualname}"


class NLIEngine:
    """Batched, cached NLI scoring with a transformers model or an injected scorer.

    Counters (reset with ``reset_counters``): ``requested`` pairs asked for,
    ``scored`` pairs run through the model/scorer, ``cached`` pairs answered
    from the cache or as duplicates within a call, ``forward_seconds`` wall time
    in forward passes (or the scorer), ``oom_retries`` batch halvings.
    An injected ``scorer(premises, hypotheses)`` is called once per ``score``
    call with the unique uncached pairs (it batches for itself).
    """

    def __init__(self, model: Optional[str] = None, *, device: Optional[str] = None,
                 dtype: str = "float32", batch_size: int = 32, max_length: int = 512,
                 label_map: Optional[Mapping[str, str]] = None,
                 scorer: Optional[Callable[[List[str], List[str]], Any]] = None,
                 cache_size: int = 1_000_000) -> None:
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int; got {batch_size!r}")
        if not isinstance(max_length, int) or max_length < 4:
            raise ValueError(f"max_length must be an int >= 4; got {max_length!r}")
        if not isinstance(cache_size, int) or cache_size < 0:
            raise ValueError(f"cache_size must be an int >= 0; got {cache_size!r}")
        self.dtype = check_dtype(dtype)
        self.batch_size = batch_size
        self.max_length = max_length
        self.cache_size = cache_size
        self.label_map = dict(label_map) if label_map else None
        self._scorer = scorer
        self._tokenizer = None
        self._model = None
        if scorer is not None:
            if model is not None:
                raise ValueError("pass either model or scorer, not both")
            if not callable(scorer):
                raise TypeError(f"scorer must be callable; got {type(scorer).__name__}")
            self.name = _scorer_name(scorer)
            self.device = device
            self._columns: Tuple[int, ...] = (ENTAILMENT, NEUTRAL, CONTRADICTION)
        else:
            self.name = resolve(NLI, model)
            self.device = normalise_device(device)
            dtype_name = self.dtype
            self._tokenizer, self._model = REGISTRY.get(
                NLI, self.name, f"{self.device}|{self.dtype}",
                lambda name, _key: _load(name, self.device, dtype_name))
            self._columns = label_columns(self._model.config.id2label, self.label_map)
            model_max = getattr(self._tokenizer, "model_max_length", None)
            if isinstance(model_max, int) and 4 <= model_max < 1_000_000:
                self.max_length = min(self.max_length, model_max)
        # at most cache_size pairs within the NLI share of the memory budget (halluscope.budget)
        self._cache: "LRU[np.ndarray]" = LRU(self.cache_size, weigh=budget.weigh_array)
        self._lock = threading.RLock()
        budget.register("nli", self._cache, self._lock)
        self._pair_builder: Any = None  # the Rust tokenizer used to build pairs (lazily)
        self._encodings: Dict[str, Any] = {}  # text -> its tokens without special tokens
        self._template: Optional[tuple] = None  # the pair template (see _pair_template)
        self.reset_counters()

    def __repr__(self) -> str:
        return (f"NLIEngine({self.name!r}, device={self.device!r}, dtype={self.dtype!r}, "
                f"batch_size={self.batch_size}, max_length={self.max_length})")

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

    def score(self, pairs: Sequence[Tuple[str, str]]) -> np.ndarray:
        """``(n, 3)`` float32 probabilities [ent, neu, con] for (premise, hypothesis) pairs."""
        checked = _check_pairs(pairs)
        with self._lock:
            positions: Dict[Pair, int] = {}
            rows = np.fromiter((positions.setdefault(pair, len(positions)) for pair in checked),
                               dtype=np.int64, count=len(checked))
            uniques = list(positions)
            results = np.zeros((len(uniques), 3), dtype=np.float32)
            todo: List[int] = []
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
                for u, row in zip(todo, fresh):
                    self._cache.put((self.name,) + uniques[u], row.copy())
            self.requested += len(checked)
            self.scored += len(todo)
            self.cached += len(checked) - len(todo)
            return results[rows]

    # -- scoring internals -------------------------------------------------------------

    def _run(self, pairs: List[Pair]) -> np.ndarray:
        if self._scorer is not None:
            return self._run_scorer(pairs)
        return self._run_model(pairs)

    def _run_scorer(self, pairs: List[Pair]) -> np.ndarray:
        premises = [p for p, _ in pairs]
        hypotheses = [h for _, h in pairs]
        start = time.perf_counter()
        try:
            raw = self._scorer(premises, hypotheses)
        finally:
            self.forward_seconds += time.perf_counter() - start
        try:
            probs = np.asarray(raw, dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{self.name} returned something that is not a numeric array: "
                             f"{error}") from error
        if probs.shape != (len(pairs), 3):
            raise ValueError(f"{self.name} must return shape ({len(pairs)}, 3) "
                             f"[ent, neu, con]; got {probs.shape}")
        if not np.all(np.isfinite(probs)) or probs.min() < -1e-6 or probs.max() > 1 + 1e-6:
            raise ValueError(f"{self.name} returned values outside [0, 1] or not finite")
        return probs.astype(np.float32)

    def _encode(self, pairs: List[Pair]) -> List[Dict[str, List[int]]]:
        """Token features per pair: premise-only truncation where the hypothesis fits."""
        tokenizer = self._tokenizer
        hypotheses = [h for _, h in pairs]
        special = tokenizer.num_special_tokens_to_add(pair=True)
        hyp_lengths = [len(ids) for ids in
                       tokenizer(hypotheses, add_special_tokens=False)["input_ids"]]
        # at least one premise token must survive for "only_first" to succeed
        fits = [length + special + 1 <= self.max_length for length in hyp_lengths]
        features: List[Optional[Dict[str, List[int]]]] = [None] * len(pairs)
        for strategy, wanted in (("only_first", True), ("longest_first", False)):
            chosen = [i for i, fit in enumerate(fits) if fit == wanted]
            if not chosen:
                continue
            premises = [pairs[i][0] for i in chosen]
            hyps = [pairs[i][1] for i in chosen]
            try:
                encoded = tokenizer(premises, hyps, truncation=strategy, max_length=self.max_length)
                flat = [{key: encoded[key][j] for key in encoded.keys()} for j in range(len(chosen))]
            except Exception as error:  # a tokenizer whose pair tokens differ from the lone count
                LOGGER.debug("NLI: batch tokenisation (%s) failed (%s: %s); encoding pair by pair",
                             strategy, type(error).__name__, error)
                flat = [self._encode_one(premise, hyp) for premise, hyp in zip(premises, hyps)]
            for i, feature in zip(chosen, flat):
                features[i] = feature
        return features  # type: ignore[return-value]

    def _encode_one(self, premise: str, hypothesis: str) -> Dict[str, List[int]]:
        try:
            return dict(self._tokenizer(premise, hypothesis, truncation="only_first",
                                        max_length=self.max_length))
        except Exception as error:  # the premise alone cannot make room: cut both
            LOGGER.debug("NLI: only_first truncation failed (%s: %s); truncating longest_first",
                         type(error).__name__, error)
            return dict(self._tokenizer(premise, hypothesis, truncation="longest_first",
                                        max_length=self.max_length))

    def _forward(self, batch: Dict[str, Any]):
        """Logits for one padded batch (a seam: tests replace it to simulate OOM)."""
        return self._model(**batch).logits

    _MAX_ENCODINGS = 200_000
    _BATCHES_AHEAD = 32  # batches whose tensors are built before their forward passes

    def _builder(self):
        """A copy of the fast tokenizer's Rust backend without truncation or padding, or
        ``None`` where pairs cannot be built from cached encodings (slow tokenizer, left
        padding or truncation)."""
        if self._pair_builder is None:
            import copy

            backend = getattr(self._tokenizer, "backend_tokenizer", None)
            usable = (backend is not None and getattr(self._tokenizer, "padding_side", "right") == "right"
                      and getattr(self._tokenizer, "truncation_side", "right") == "right"
                      and self._tokenizer.pad_token_id is not None)
            if usable:
                backend = copy.deepcopy(backend)
                backend.no_truncation()
                backend.no_padding()
                self._template = _pair_template(backend)
                self._special_tokens = self._tokenizer.num_special_tokens_to_add(pair=True)
            self._pair_builder = backend if usable else False
        return self._pair_builder or None

    def _encode_texts(self, pairs: Sequence[Pair], builder) -> None:
        """Tokenise (once per engine, in one batch) every text of ``pairs`` not seen yet:
        its token ids (an int64 array) where the pair template is known, else its ``Encoding``."""
        missing = [t for t in dict.fromkeys(t for pair in pairs for t in pair) if t not in self._encodings]
        if not missing:
            return
        if len(self._encodings) + len(missing) > self._MAX_ENCODINGS:
            self._encodings.clear()
        if self._template is not None:  # ids only: the batch call that skips offsets, where there is one
            encode = getattr(builder, "encode_batch_fast", builder.encode_batch)
            encoded = encode(missing, add_special_tokens=False)
            self._encodings.update((text, np.array(encoding.ids, dtype=np.int64))
                                   for text, encoding in zip(missing, encoded))
        else:
            self._encodings.update(zip(missing, builder.encode_batch(missing, add_special_tokens=False)))

    def _features_from_cached_encodings(self, chunk: List[Pair], builder):
        """Each distinct text is tokenised once per engine (document sentences recur
        across every unit); a pair is its premise's tokens, cut to the room the whole
        hypothesis leaves (premise-only truncation), joined by the model's own special
        tokens, then right-padded. The special tokens come from the pair template read
        off the backend's post-processor once (:func:`_pair_template`), or, where no
        template could be read, from the post-processor itself, pair by pair. ``None``
        when a hypothesis leaves no room for the premise."""
        import torch

        self._encode_texts(chunk, builder)
        if self._template is not None:
            arrays = self._features_from_template(chunk)
        else:
            arrays = self._features_from_post_processor(chunk, builder)
        if arrays is None:
            return None
        ids, types, mask = arrays
        features = {"input_ids": torch.from_numpy(ids), "attention_mask": torch.from_numpy(mask)}
        if "token_type_ids" in getattr(self._tokenizer, "model_input_names", ()):
            features["token_type_ids"] = torch.from_numpy(types)
        return features

    def _features_from_template(self, chunk: List[Pair]):
        """(ids, type ids, mask) of a batch, with the pair template, a few array
        operations per batch: prefix, then the premise's tokens (cut to the room the
        hypothesis leaves), middle, the hypothesis's tokens, suffix, then padding."""
        prefix, middle, suffix, prefix_types, middle_types, suffix_types, type_a, type_b = self._template
        encodings = self._encodings
        premises = [encodings[p] for p, _ in chunk]
        hypotheses = [encodings[h] for _, h in chunk]
        n = len(chunk)
        hypothesis_lengths = np.fromiter(map(len, hypotheses), dtype=np.int64, count=n)
        room = self.max_length - self._special_tokens - hypothesis_lengths
        if int(room.min()) < 1:
            return None
        premise_lengths = np.minimum(np.fromiter(map(len, premises), dtype=np.int64, count=n), room)
        a_start = len(prefix)
        a_end = a_start + premise_lengths
        b_start = a_end + len(middle)
        b_end = b_start + hypothesis_lengths
        lengths = b_end + len(suffix)
        columns = np.arange(int(lengths.max()))
        ids = np.full((n, columns.size), self._tokenizer.pad_token_id, dtype=np.int64)
        types = np.zeros((n, columns.size), dtype=np.int64)
        rows = np.arange(n)
        for starts, tokens, token_types in ((0, prefix, prefix_types), (a_end, middle, middle_types),
                                            (b_end, suffix, suffix_types)):
            for j, (token, token_type) in enumerate(zip(tokens, token_types)):
                ids[rows, starts + j] = token
                types[rows, starts + j] = token_type
        in_a = (columns >= a_start) & (columns < a_end[:, None])  # row-major: row by row, in order
        in_b = (columns >= b_start[:, None]) & (columns < b_end[:, None])
        ids[in_a] = np.concatenate([p[:m] for p, m in zip(premises, premise_lengths.tolist())])
        ids[in_b] = np.concatenate(hypotheses)
        types[in_a] = type_a
        types[in_b] = type_b
        mask = (columns < lengths[:, None]).astype(np.int64)
        return ids, types, mask

    def _features_from_post_processor(self, chunk: List[Pair], builder):
        """(ids, type ids, mask) of a batch, each pair from the backend's post-processor."""
        import tokenizers

        encodings = self._encodings
        id_rows, type_rows = [], []
        for premise, hypothesis in chunk:
            p, h = encodings[premise], encodings[hypothesis]
            room = self.max_length - self._special_tokens - len(h.ids)
            if room < 1:
                return None
            if len(p.ids) > room:
                p = tokenizers.Encoding.merge([p], growing_offsets=True)  # a copy to cut
                p.truncate(room)
            row = builder.post_process(p, h, add_special_tokens=True)
            id_rows.append(row.ids)
            type_rows.append(row.type_ids)
        # right padding: the cells of row k before its length, filled in row order
        lengths = np.fromiter(map(len, id_rows), dtype=np.int64, count=len(id_rows))
        filled = np.arange(int(lengths.max())) < lengths[:, None]
        total = int(lengths.sum())
        ids = np.full(filled.shape, self._tokenizer.pad_token_id, dtype=np.int64)
        ids[filled] = np.fromiter(chain.from_iterable(id_rows), dtype=np.int64, count=total)
        types = np.zeros(filled.shape, dtype=np.int64)
        types[filled] = np.fromiter(chain.from_iterable(type_rows), dtype=np.int64, count=total)
        return ids, types, filled.astype(np.int64)

    def _batch_features(self, chunk: List[Pair]):
        """Padded tensors for one batch: pairs built from cached per-text encodings
        where the tokenizer allows; otherwise one tokenizer call with premise-only
        truncation; if the tokenizer refuses (a hypothesis that leaves no room for the
        premise), the per-pair path of :meth:`_encode` and a pad."""
        builder = self._builder()
        if builder is not None:
            features = self._features_from_cached_encodings(chunk, builder)
            if features is not None:
                return features
        premises = [p for p, _ in chunk]
        hypotheses = [h for _, h in chunk]
        try:
            return self._tokenizer(premises, hypotheses, truncation="only_first", max_length=self.max_length,
                                   padding=True, return_tensors="pt")
        except Exception as error:  # some pair needs the per-pair truncation
            LOGGER.debug("NLI: padded batch tokenisation failed (%s: %s); per-pair encoding",
                         type(error).__name__, error)
            return self._tokenizer.pad(self._encode(chunk), return_tensors="pt")

    def _run_model(self, pairs: List[Pair]) -> np.ndarray:
        import torch

        # longest first by characters (a cheap proxy for tokens) so batches pad little
        # and an out-of-memory error, if any, comes on the first batch
        order = sorted(range(len(pairs)), key=lambda i: -(len(pairs[i][0]) + len(pairs[i][1])))
        builder = self._builder()
        if builder is not None:  # every new text of the call in one tokenizer batch
            self._encode_texts(pairs, builder)
        width = len(self._columns)
        probs = np.zeros((len(pairs), width), dtype=np.float32)
        batch_size = self.batch_size
        start = 0
        ready: "deque[Tuple[List[int], Dict[str, Any]]]" = deque()
        while start < len(order):
            if not ready:
                # the next batches' tensors, built back to back: between forward passes
                # (which evict its data from the CPU caches) the same work is slower
                ahead = start
                while ahead < len(order) and len(ready) < self._BATCHES_AHEAD:
                    chunk = order[ahead:ahead + batch_size]
                    ready.append((chunk, self._batch_features([pairs[i] for i in chunk])))
                    ahead += len(chunk)
            chunk, padded = ready.popleft()
            batch = {key: value.to(self.device) for key, value in padded.items()}
            began = time.perf_counter()
            try:
                with torch.inference_mode():
                    logits = self._forward(batch)
                    batch_probs = torch.softmax(logits.float(), dim=-1).cpu().numpy()
            except RuntimeError as error:
                if not is_out_of_memory(error) or batch_size == 1:
                    raise
                del batch
                ready.clear()  # built for the old batch size
                batch_size = max(1, batch_size // 2)
                self.oom_retries += 1
                LOGGER.warning("NLI: out of memory on %s; retrying with batch size %d", self.device, batch_size)
                if torch.cuda.is_available():
                    torch.cuda.empty_cache()
                continue
            finally:
                self.forward_seconds += time.perf_counter() - began
            if batch_probs.shape != (len(chunk), width):
                raise ValueError(f"model {self.name!r} returned logits of shape "
                                 f"{tuple(logits.shape)}; expected ({len(chunk)}, {width})")
            probs[chunk] = batch_probs
            start += len(chunk)
        out = np.zeros((len(pairs), 3), dtype=np.float32)
        for index, column in enumerate(self._columns):
            out[:, column] = probs[:, index]
        return out


#: Texts whose token ids probe a post-processor's pair template (any tokenizer gives
#: them some tokens; their lengths differ so the template is checked at several offsets).
_PROBES = (("a", "b c"), ("d e f g", "h"), ("i j", "k l m n o"))


def _pair_template(backend) -> Optional[tuple]:
    """The pair template of a Rust tokenizer's post-processor, read off probe pairs:
    ``(prefix, middle, suffix, prefix_types, middle_types, suffix_types, type_a,
    type_b)`` such that the pair (A, B) is ``prefix + A + middle + B + suffix`` with
    type ids ``prefix_types + [type_a] * len(A) + middle_types + [type_b] * len(B) +
    suffix_types`` (BERT's ``[CLS] A [SEP] B [SEP]``, RoBERTa's ``<s> A </s></s> B
    </s>``, ...). ``None`` when no such template reproduces every probe exactly: the
    engine then asks the post-processor for each pair."""
    try:
        probes = []
        for first, second in _PROBES:
            a, b = (backend.encode(text, add_special_tokens=False) for text in (first, second))
            out = backend.post_process(a, b, add_special_tokens=True)
            probes.append((a.ids, b.ids, out.ids, out.type_ids))
    except Exception as error:  # a backend without this API: the engine asks per pair
        LOGGER.debug("NLI: no pair template from the tokenizer backend (%s: %s)", type(error).__name__, error)
        return None
    a_ids, b_ids, out_ids, out_types = probes[0]
    if not a_ids or not b_ids:
        return None
    n_special = len(out_ids) - len(a_ids) - len(b_ids)
    for start_a in range(n_special + 1):
        for middle_length in range(n_special - start_a + 1):
            start_b = start_a + len(a_ids) + middle_length
            end_b = start_b + len(b_ids)
            template = (out_ids[:start_a], out_ids[start_a + len(a_ids):start_b], out_ids[end_b:],
                        out_types[:start_a], out_types[start_a + len(a_ids):start_b], out_types[end_b:],
                        out_types[start_a] if start_a < len(out_types) else 0,
                        out_types[start_b] if start_b < len(out_types) else 0)
            prefix, middle, suffix, prefix_types, middle_types, suffix_types, type_a, type_b = template
            if all(ids == prefix + a + middle + b + suffix
                   and types == (prefix_types + [type_a] * len(a) + middle_types + [type_b] * len(b)
                                 + suffix_types)
                   for a, b, ids, types in probes):
                return template
    return None


def _check_pairs(pairs: Sequence[Tuple[str, str]]) -> List[Pair]:
    if isinstance(pairs, (str, bytes)):
        raise TypeError("pairs must be a sequence of (premise, hypothesis) tuples, not a string")
    checked: List[Pair] = []
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


_ENGINES: Dict[tuple, NLIEngine] = {}
_ENGINES_LOCK = threading.Lock()


def get_nli_engine(model: Optional[str] = None, *, device: Optional[str] = None,
                   dtype: str = "float32", batch_size: int = 32, max_length: int = 512,
                   label_map: Optional[Mapping[str, str]] = None) -> NLIEngine:
    """The process-wide engine for (resolved model, device, dtype, max_length, label_map).

    ``batch_size`` does not change scores, so it is not part of the key: the
    engine keeps the batch size it was created with (set ``engine.batch_size``
    to change it).
    """
    name = resolve(NLI, model)
    key = (name, normalise_device(device), check_dtype(dtype), max_length,
           tuple(sorted(label_map.items())) if label_map else None)
    with _ENGINES_LOCK:
        if key not in _ENGINES:
            _ENGINES[key] = NLIEngine(name, device=key[1], dtype=key[2], batch_size=batch_size,
                                      max_length=max_length, label_map=label_map)
        return _ENGINES[key]
