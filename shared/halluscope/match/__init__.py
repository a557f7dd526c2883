"""Matchers: decide, for each query unit, whether and how it is found in a pool.

Every matcher has the same batch interface, so a whole ``compute`` call is matched
at once (one batched encode for the semantic relation matcher)::

    matcher.match_batch(jobs: Sequence[MatchJob]) -> list[list[Match | None]]

one list per job, one entry per query unit, ``None`` when unmatched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ..text.index import TextIndex


@dataclass(frozen=True)
class MatchJob:
    """Match each of ``queries`` against ``pool``. ``context`` holds per-example
    information a matcher may use (e.g. ``publication_date`` for relative dates).
    ``pool_index``: the :class:`~halluscope.text.index.TextIndex` of the pool's
    text, which the pipeline builds (from its resources) when the matcher grounds
    units in the text (``grounding="text"``); None: no text grounding for this job.
    Data flows one way: a matcher reads its jobs and returns matches, and never
    reaches back for parses or caches (docs/architecture.md#resources)."""

    queries: Sequence[Any]
    pool: Sequence[Any]
    context: dict[str, Any] = field(default_factory=dict)
    pool_index: TextIndex | None = None
