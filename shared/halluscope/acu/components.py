"""Process-wide ACU components: one decomposer per (kind, model, device, dtype), so a
document sentence is decomposed at most once per process (the decomposer's cache),
and the coreference step by backend name."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ..text_tables import TextTables

_DECOMPOSERS: dict[tuple, object] = {}
_LOCK = threading.Lock()
DECOMPOSER_KINDS = ("seq2seq", "rules")


def get_decomposer(
    decomposer="seq2seq",
    *,
    model: str | None = None,
    device: str | None = None,
    dtype: str = "float32",
    batch_size: int = 16,
):
    """``"seq2seq"`` (the paper's claim extractor, or ``model``), ``"rules"`` (offline
    proposition splitter), or any object with ``name``, ``calls`` and ``decompose``."""
    if not isinstance(decomposer, str):
        for attribute in ("name", "calls", "decompose"):
            if not hasattr(decomposer, attribute):
                raise TypeError(f"a decomposer object needs `{attribute}` (see halluscope.acu.decompose.Decomposer)")
        return decomposer
    if decomposer not in DECOMPOSER_KINDS:
        raise ValueError(f"`decomposer` must be one of {DECOMPOSER_KINDS} or a Decomposer object, got {decomposer!r}")
    key = (decomposer, model, device, dtype)
    with _LOCK:
        if key not in _DECOMPOSERS:
            from .rule_decomposer import RuleDecomposer
            from .seq2seq_decomposer import Seq2SeqDecomposer

            if decomposer == "rules":
                _DECOMPOSERS[key] = RuleDecomposer()
            else:
                _DECOMPOSERS[key] = Seq2SeqDecomposer(model, device=device, dtype=dtype, batch_size=batch_size)
        return _DECOMPOSERS[key]


def coreference_step(backend: str, tables: TextTables | None = None) -> Callable[[Sequence[str]], list[str]]:
    """A function resolving pronouns in a list of texts with ``backend``, its results
    cached in ``tables`` (a :class:`halluscope.resources.Resources`' text tables; None:
    the default resources')."""
    from .coref import resolve_coreference

    def resolve(texts: Sequence[str]) -> list[str]:
        return resolve_coreference(texts, backend=backend, tables=tables)

    resolve_coreference([], backend=backend)  # unknown backends and missing packages fail here, early
    return resolve
