"""Matchers: decide, for each query unit, whether and how it is found in a pool.

Every matcher has the same batch interface, so a whole ``compute`` call is matched
at once (one batched encode for the semantic relation matcher)::

    matcher.match_batch(jobs: Sequence[MatchJob]) -> list[list[Match | None]]

one list per job, one entry per query unit, ``None`` when unmatched.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Sequence


@dataclass(frozen=True)
class MatchJob:
    """Match each of ``queries`` against ``pool``. ``context`` holds per-example
    information a matcher may use (e.g. ``publication_date`` for relative dates)."""

    queries: Sequence[Any]
    pool: Sequence[Any]
    context: Dict[str, Any] = field(default_factory=dict)
