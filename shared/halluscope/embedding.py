"""Sentence embeddings with a cache: each distinct string encoded once while cached.

A :class:`halluscope.resources.Resources` holds one :class:`Embedder` per (model,
device, precision); the model itself is loaded once per process and precision by the
registry and shared.

Matchers first resolve what they can exactly, then hand every string still needed
to ``Embedder.prepare`` (one batched ``encode`` per ``compute``), then read
vectors with ``Embedder.vector``.

The encoder runs at the ``encoder_dtype`` option's precision (:func:`encoder_dtype`):
"auto" computes its matrix products in bfloat16 where the device does so natively (a
CPU with AVX-512 BF16 or AMX, a CUDA device with bfloat16) and in float32 elsewhere.
On the design half of the validation folds bfloat16 changed no chi score of 3,147, and
it encodes in about 0.6 of the time on this project's CPUs (docs/scaling.md#encoder-precision);
the signature names the precision used when it is not float32.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import Any

import numpy as np

from . import budget
from .lru import LRU
from .option_types import ENCODER_DTYPES
from .registry import MODELS, SENTENCE_ENCODER, ModelRegistry, default_device, load_sentence_encoder, resolve

#: torch's CPU capability probes for native bfloat16 (private names: a torch without
#: them gets float32 under "auto")
_CPU_BFLOAT16_PROBES = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")


@functools.cache
def native_bfloat16(device: str) -> bool:
    """Whether ``device`` ("cpu", "cuda:0", ...) computes bfloat16 matrix products
    natively: a CUDA device that supports bfloat16, a CPU with AVX-512 BF16 or AMX tiles
    (:data:`_CPU_BFLOAT16_PROBES`); probed once per device and process."""
    import torch

    if device.startswith("cuda"):
        return bool(torch.cuda.is_available() and torch.cuda.is_bf16_supported())
    if device != "cpu":
        return False
    probes = (getattr(torch.cpu, name, None) for name in _CPU_BFLOAT16_PROBES)
    return any(bool(probe()) for probe in probes if probe is not None)


def encoder_dtype(dtype: str, device: str | None) -> str:
    """The precision the encoder runs at on ``device`` (None: :func:`default_device`, as
    the embedder itself resolves it) for the option value ``dtype``
    (:data:`ENCODER_DTYPES`): "auto" is "bfloat16" where :func:`native_bfloat16`, else
    "float32"; a named precision is itself (a ValueError for any other value)."""
    if dtype not in ENCODER_DTYPES:
        raise ValueError(f"encoder_dtype must be one of {', '.join(ENCODER_DTYPES)}; got {dtype!r}")
    if dtype == "auto":
        return "bfloat16" if native_bfloat16(device or default_device()) else "float32"
    return dtype


class Embedder:
    """Unit-normalised embeddings from a sentence-transformers model, cached (LRU of
    at most ``maxsize`` strings within the embeddings' share of the memory budget,
    :mod:`halluscope.budget`: a MiniLM vector weighs 1,536 bytes plus its key).

    ``registry``: where the model is loaded (default: the process's
    :data:`halluscope.registry.MODELS`, so embedders of several resources share it).

    ``dtype``: the ``encoder_dtype`` option's value; :attr:`dtype` holds the precision it
    resolves to on ``device`` (:func:`encoder_dtype`), under which the model's matrix
    products run (``torch.autocast``, over a model whose linear layers hold their weights
    at that precision, :attr:`model`; the vectors are float32).

    Counters: ``encoded`` (strings run through the model), ``encode_calls``.
    """

    def __init__(
        self,
        model: str | None = None,
        device: str | None = None,
        batch_size: int = 64,
        maxsize: int = 200_000,
        registry: ModelRegistry | None = None,
        dtype: str = "auto",
    ) -> None:
        self.model_name = resolve(SENTENCE_ENCODER, model)
        self.device = device or default_device()
        self.dtype = encoder_dtype(dtype, self.device)
        self.batch_size = batch_size
        self.registry = MODELS if registry is None else registry
        self._vectors: LRU[np.ndarray] = LRU(maxsize, weigh=budget.weigh_array)
        self._lock = threading.Lock()
        budget.register("embeddings", self._vectors, self._lock)
        # each thread's last prepare's vectors (a thread's pins are its own: another
        # thread's prepare never takes away the vectors this one is reading)
        self._local = threading.local()
        self.encoded = 0
        self.encode_calls = 0

    @property
    def model(self):
        """The registry's model for this embedder's name, device and precision: a
        precision other than float32 has its own copy, whose linear layers hold their
        weights at that precision (:func:`~halluscope.registry.load_sentence_encoder`)."""
        if self.dtype == "float32":
            return self.registry.get(SENTENCE_ENCODER, self.model_name, self.device, load_sentence_encoder)
        return self.registry.get(
            SENTENCE_ENCODER,
            self.model_name,
            f"{self.device}|{self.dtype}",
            lambda name, _key: load_sentence_encoder(name, self.device, self.dtype),
        )

    @property
    def maxsize(self) -> int:
        return self._vectors.maxsize

    def prepare(self, strings: Iterable[str], batch_size: int | None = None) -> None:
        """Encode, in one batched call (``batch_size``: this call's, default the
        embedder's), every string not yet cached."""
        with self._lock:
            wanted = list(dict.fromkeys(strings))
            # this call's vectors stay readable until the next prepare even when the
            # memory budget evicts them from the cache meanwhile (a small budget
            # changes time, never a vector)
            pinned = {s: v for s in wanted for v in (self._vectors.get(s),) if v is not None}
            todo = [s for s in wanted if s not in pinned]
            if todo:
                model = self.model
                with self._precision():
                    vectors = model.encode(
                        todo,
                        batch_size=batch_size or self.batch_size,
                        normalize_embeddings=True,
                        convert_to_numpy=True,
                        show_progress_bar=False,
                    )
                for text, vector in zip(todo, vectors, strict=True):
                    pinned[text] = self._vectors.put(text, np.asarray(vector, dtype=np.float32))
                self.encoded += len(todo)
                self.encode_calls += 1
            self._local.pinned = pinned

    def _precision(self) -> AbstractContextManager:
        """The context the model encodes in: none for float32, else torch's autocast to
        :attr:`dtype` on the device's type."""
        if self.dtype == "float32":
            return contextlib.nullcontext()
        import torch

        return torch.autocast(self.device.split(":")[0], dtype=getattr(torch, self.dtype))

    def _pinned(self) -> dict[str, np.ndarray]:
        return getattr(self._local, "pinned", {})

    def vector(self, text: str) -> np.ndarray:
        """The cached vector of ``text`` (encoding it alone if it was not prepared)."""
        with self._lock:
            found = self._vectors.get(text)
            if found is None:
                found = self._pinned().get(text)
        if found is None:
            self.prepare([text])
            found = self._pinned()[text]  # this thread's own pins: no other thread replaces them
        return found

    def clear(self) -> None:
        """Forget every cached vector (and every thread's pins)."""
        with self._lock:
            self._vectors.clear()
            self._local = threading.local()

    def with_batch_size(self, batch_size: int) -> BatchSized:
        """This embedder (its model and cache) encoding with ``batch_size``, without
        changing the shared embedder's own setting."""
        return BatchSized(self, batch_size)

    def cosine(self, a: str, b: str) -> float:
        if a == b:
            return 1.0
        return float(np.dot(self.vector(a), self.vector(b)))


class BatchSized:
    """A shared :class:`Embedder` seen with one call's batch size: the same model,
    cache and counters; only ``prepare`` encodes with ``batch_size``."""

    def __init__(self, embedder: Embedder, batch_size: int) -> None:
        self._embedder = embedder
        self.batch_size = batch_size

    def prepare(self, strings: Iterable[str]) -> None:
        self._embedder.prepare(strings, batch_size=self.batch_size)

    def vector(self, text: str) -> np.ndarray:
        return self._embedder.vector(text)

    def cosine(self, a: str, b: str) -> float:
        return self._embedder.cosine(a, b)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._embedder, name)
