"""Which pairs of triples the relation matcher compares (the same polarity and arity) and
which verbs it must encode, the rest being decided by WordNet (docs/lexical.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..units import RelationUnit

if TYPE_CHECKING:
    pass


def _kind(unit: RelationUnit) -> tuple[bool, bool]:
    """(negated, is a subject-verb pair): only units of one kind can match."""
    return unit.negated, not unit.object


def _same_kind(queries: Sequence[RelationUnit], pool: Sequence[RelationUnit]) -> np.ndarray:
    """Boolean matrix: query r and pool unit c have the same :func:`_kind`."""
    q = np.array([_kind(u) for u in queries], dtype=bool).reshape(-1, 2)
    p = np.array([_kind(u) for u in pool], dtype=bool).reshape(-1, 2)
    return (q[:, None, :] == p[None, :, :]).all(axis=2)


@dataclass(frozen=True)
class _VerbPlan:
    """One job's verbs for the slots mode (:meth:`~halluscope.rhi.match.RelationMatcher._verb_plan`): the
    distinct query and pool verbs, each unit's index into them, and which (query verb,
    pool verb) pairs a MiniLM cosine compares."""

    query_verbs: list[str]
    query_index: np.ndarray
    pool_verbs: list[str]
    pool_index: np.ndarray
    equal: np.ndarray  # bool, (distinct query verbs, distinct pool verbs): the same verb
    cosine_pairs: np.ndarray  # bool, same shape: two different verbs a cosine compares

    def to_encode(self) -> list[str]:
        """The verbs some cosine pair needs, query verbs first."""
        pairs = self.cosine_pairs
        return [self.query_verbs[a] for a in np.nonzero(pairs.any(axis=1))[0]] + [
            self.pool_verbs[b] for b in np.nonzero(pairs.any(axis=0))[0]
        ]
