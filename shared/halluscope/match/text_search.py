"""The last step of a matcher under ``grounding="text"``: each query no pool unit matched,
looked for in the pool's text by the index's own finder (docs/architecture.md#layers)."""

from __future__ import annotations

from ..text.index import TextIndex
from ..units import Match


def ground_unmatched(row: list[Match | None], queries, index: TextIndex, finder) -> None:
    """Fill each ``None`` of ``row`` (one entry per query) with ``finder(query, index)``."""
    for position, (match, unit) in enumerate(zip(row, queries, strict=True)):
        if match is None:
            row[position] = finder(unit, index)
