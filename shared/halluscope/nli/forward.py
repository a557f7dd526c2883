"""The batched forward pass: pairs sorted by length, batched, run under
``torch.inference_mode()`` and soft-maxed in float32, with the CUDA
out-of-memory back-off (docs/architecture.md#dlsd_acu-acu-nli).

Out of memory: the failing batch is retried at half the batch size (kept for the
rest of the call; each halving is logged as a warning on the ``halluscope``
logger and counted in ``oom_retries``); at batch size 1 the error is re-raised.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from .features import Pair

LOGGER = logging.getLogger("halluscope")

#: batches whose tensors are built back to back before their forward passes
BATCHES_AHEAD = 32


class Counters(Protocol):
    """Where :func:`run_batches` adds its time and halvings (the engine itself)."""

    forward_seconds: float
    oom_retries: int


def is_out_of_memory(error: BaseException) -> bool:
    """True for CUDA out-of-memory errors (the typed one or a RuntimeError saying so)."""
    import torch

    oom_type = getattr(torch.cuda, "OutOfMemoryError", None)
    if oom_type is not None and isinstance(error, oom_type):
        return True
    return isinstance(error, RuntimeError) and "out of memory" in str(error).lower()


def run_batches(
    pairs: Sequence[Pair],
    *,
    build: Callable[[list[Pair]], dict[str, Any]],
    forward: Callable[[dict[str, Any]], Any],
    batch_size: int,
    width: int,
    device: str,
    name: str,
    counters: Counters,
    batches_ahead: int = BATCHES_AHEAD,
) -> np.ndarray:
    """``(n, width)`` float32 probabilities of ``pairs`` in the model's label order,
    rows in input order. ``build(pairs)`` gives a batch's tensors, ``forward(batch)``
    its logits. Wall time in forward passes (the model call, the softmax and the copy
    to the host) goes to ``counters.forward_seconds``, halvings to
    ``counters.oom_retries``."""
    import torch

    # longest first by characters (a cheap proxy for tokens) so batches pad little
    # and an out-of-memory error, if any, comes on the first batch
    order = sorted(range(len(pairs)), key=lambda i: -(len(pairs[i][0]) + len(pairs[i][1])))
    probs = np.zeros((len(pairs), width), dtype=np.float32)
    start = 0
    ready: deque[tuple[list[int], dict[str, Any]]] = deque()
    while start < len(order):
        if not ready:
            # the next batches' tensors, built back to back: between forward passes
            # (which evict its data from the CPU caches) the same work is slower
            ahead = start
            while ahead < len(order) and len(ready) < batches_ahead:
                chunk = order[ahead : ahead + batch_size]
                ready.append((chunk, build([pairs[i] for i in chunk])))
                ahead += len(chunk)
        chunk, padded = ready.popleft()
        batch = {key: value.to(device) for key, value in padded.items()}
        began = time.perf_counter()
        try:
            with torch.inference_mode():
                logits = forward(batch)
                batch_probs = torch.softmax(logits.float(), dim=-1).cpu().numpy()
        except RuntimeError as error:
            if not is_out_of_memory(error) or batch_size == 1:
                raise
            del batch
            ready.clear()  # built for the old batch size
            batch_size = max(1, batch_size // 2)
            counters.oom_retries += 1
            LOGGER.warning("NLI: out of memory on %s; retrying with batch size %d", device, batch_size)
            if torch.cuda.is_available():
                torch.cuda.empty_cache()
            continue
        finally:
            counters.forward_seconds += time.perf_counter() - began
        if batch_probs.shape != (len(chunk), width):
            raise ValueError(
                f"model {name!r} returned logits of shape {tuple(logits.shape)}; expected ({len(chunk)}, {width})"
            )
        probs[chunk] = batch_probs
        start += len(chunk)
    return probs
