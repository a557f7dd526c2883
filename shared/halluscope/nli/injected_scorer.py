"""The injected-scorer path: a ``scorer(premises, hypotheses)`` callable that
stands in for the model (tests, benchmarks, custom models), called once per
``NLIEngine.score`` call with the unique uncached pairs (it batches for itself)
and checked to return ``(n, 3)`` probabilities [ent, neu, con].
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .features import Pair
from .forward import Counters

Scorer = Callable[[list[str], list[str]], Any]


def scorer_name(scorer: Callable) -> str:
    """The engine name of an injected scorer (and so its cache key): ``scorer:<qualname>``."""
    qualname = getattr(scorer, "__qualname__", None) or type(scorer).__qualname__
    return f"scorer:{qualname}"


def run_scorer(scorer: Scorer, name: str, pairs: Sequence[Pair], counters: Counters) -> np.ndarray:
    """``(n, 3)`` float32 [ent, neu, con] from one call of ``scorer``, its wall time
    added to ``counters.forward_seconds``; ``ValueError`` when the answer is not a
    finite ``(n, 3)`` array within [0, 1]."""
    premises = [p for p, _ in pairs]
    hypotheses = [h for _, h in pairs]
    start = time.perf_counter()
    try:
        raw = scorer(premises, hypotheses)
    finally:
        counters.forward_seconds += time.perf_counter() - start
    try:
        probs = np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{name} returned something that is not a numeric array: {error}") from error
    if probs.shape != (len(pairs), 3):
        raise ValueError(f"{name} must return shape ({len(pairs)}, 3) [ent, neu, con]; got {probs.shape}")
    if not np.all(np.isfinite(probs)) or probs.min() < -1e-6 or probs.max() > 1 + 1e-6:
        raise ValueError(f"{name} returned values outside [0, 1] or not finite")
    return probs.astype(np.float32)
