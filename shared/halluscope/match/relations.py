"""Relation-triple matcher: exact, then semantic by slots or by sentence.

For each query triple, in order:

1. **exact**: a pool triple with the identical key ``(subject, verb, object)``
   (the first in pool order) -> ``Match("exact", (unit,), 1.0)``.
2. if ``mode`` is not ``"exact"``, a semantic match among pool triples of the
   **same polarity** (a ``not_`` triple never matches a plain one, in any mode):

   * ``"sentence"`` (CHI paper, seed 004 §3.3): cosine >= ``threshold`` between the
     ``as_sentence()`` strings ("police arrest suspect"). Blind to swapped roles:
     "police arrest suspect" vs "suspect arrest police" scores 0.97 with MiniLM.
   * ``"slots"`` (our default): subject~subject, verb~verb (lemmas, polarity
     compared separately), object~object, each 1.0 when the strings are equal,
     else the cosine of the slot strings; the triple matches when every slot
     reaches its threshold; score = the minimum of the three. The verb slot uses
     ``verb_threshold`` (default: ``threshold``). Single-word MiniLM cosines do not
     separate synonyms from antonyms (buy/purchase 0.87, arrest/detain 0.61,
     buy/sell 0.76, win/lose 0.69), so a lower verb threshold would admit
     antonyms before it admitted most synonyms: we keep the same 0.85.

   The best score wins; ties go to the first pool triple in pool order.

Performance: exact matching runs first; the strings of every query still
unresolved in *all* jobs, and of the pool triples they can match, are encoded in
one ``Embedder.prepare`` call per ``match_batch``; similarities are numpy matrix
products over each job's distinct strings. Slots mode prunes by verb first (only
pairs whose verb passes have their subjects and objects compared), which gives
the same result as comparing all three slots of every pair.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..units import Match, RelationUnit
from . import MatchJob

MODES = ("slots", "sentence", "exact")


class RelationMatcher:
    """Match relation triples (``RelationUnit``) of queries against pools.

    ``mode``: ``"slots"`` (default), ``"sentence"`` or ``"exact"``;
    ``threshold``: cosine needed by a semantic match (0.85, the CHI paper's tau);
    ``verb_threshold``: the verb slot's threshold in slots mode (default ``threshold``);
    ``embedder``: an :class:`halluscope.embedding.Embedder` (default: the
    process-wide one, loaded only when a semantic comparison is needed).
    """

    def __init__(self, mode: str = "slots", threshold: float = 0.85, embedder=None,
                 verb_threshold: Optional[float] = None) -> None:
        if mode not in MODES:
            raise ValueError(f"RelationMatcher mode must be one of {MODES}, got {mode!r}")
        if not 0.0 <= float(threshold) <= 1.0:
            raise ValueError(f"threshold must be in [0, 1], got {threshold!r}")
        if verb_threshold is not None and not 0.0 <= float(verb_threshold) <= 1.0:
            raise ValueError(f"verb_threshold must be in [0, 1], got {verb_threshold!r}")
        self.mode = mode
        self.threshold = float(threshold)
        self.verb_threshold = self.threshold if verb_threshold is None else float(verb_threshold)
        self._embedder = embedder

    @property
    def embedder(self):
        if self._embedder is None:
            from ..embedding import get_embedder

            self._embedder = get_embedder()
        return self._embedder

    def match_batch(self, jobs: Sequence[MatchJob]) -> List[List[Optional[Match]]]:
        """One list per job, one ``Match`` or ``None`` per query, in query order."""
        results: List[List[Optional[Match]]] = []
        pending: List[Tuple[int, List[int], List[int]]] = []  # (job, query idx, pool idx)
        for j, job in enumerate(jobs):
            first: Dict[tuple, RelationUnit] = {}
            for unit in job.pool:
                first.setdefault(unit.key, unit)
            row: List[Optional[Match]] = []
            unresolved = []
            for q, unit in enumerate(job.queries):
                hit = first.get(unit.key)
                if hit is not None:
                    row.append(Match(mode="exact", evidence=(hit,), score=1.0, detail="exact"))
                else:
                    row.append(None)
                    unresolved.append(q)
            results.append(row)
            if self.mode == "exact" or not unresolved:
                continue
            polarities = {job.queries[q].negated for q in unresolved}
            candidates = [p for p, unit in enumerate(job.pool) if unit.negated in polarities]
            if candidates:
                pending.append((j, unresolved, candidates))
        if not pending:
            return results

        strings: Dict[str, None] = {}
        for j, queries, pool in pending:
            job = jobs[j]
            for i in queries:
                for s in self._strings(job.queries[i]):
                    strings[s] = None
            for i in pool:
                for s in self._strings(job.pool[i]):
                    strings[s] = None
        embedder = self.embedder
        embedder.prepare(list(strings))

        score = self._score_slots if self.mode == "slots" else self._score_sentence
        for j, queries, pool in pending:
            job = jobs[j]
            for q, match in zip(queries, score([job.queries[i] for i in queries],
                                                [job.pool[i] for i in pool], embedder)):
                results[j][q] = match
        return results

    def _strings(self, unit: RelationUnit) -> Tuple[str, ...]:
        if self.mode == "slots":
            return (unit.subject, unit.lemma, unit.object)
        return (unit.as_sentence(),)

    # -- scoring ---------------------------------------------------------------
    @staticmethod
    def _index(units_strings: Sequence[str]) -> Tuple[List[str], np.ndarray]:
        """Distinct strings (first-seen order) and each input's index into them."""
        position: Dict[str, int] = {}
        idx = np.empty(len(units_strings), dtype=np.int64)
        for k, s in enumerate(units_strings):
            idx[k] = position.setdefault(s, len(position))
        return list(position), idx

    @staticmethod
    def _similarity(a: List[str], b: List[str], embedder) -> np.ndarray:
        """Cosine matrix between distinct strings; exactly 1.0 for equal strings."""
        va = np.stack([embedder.vector(s) for s in a])
        vb = np.stack([embedder.vector(s) for s in b])
        sim = va @ vb.T
        pos_b = {s: k for k, s in enumerate(b)}
        for k, s in enumerate(a):
            m = pos_b.get(s)
            if m is not None:
                sim[k, m] = 1.0
        return sim

    def _score_sentence(self, queries: Sequence[RelationUnit], pool: Sequence[RelationUnit],
                        embedder) -> List[Optional[Match]]:
        qa, qi = self._index([u.as_sentence() for u in queries])
        pa, pi = self._index([u.as_sentence() for u in pool])
        sim = self._similarity(qa, pa, embedder)[np.ix_(qi, pi)]
        polarity = (np.array([u.negated for u in queries])[:, None]
                    == np.array([u.negated for u in pool])[None, :])
        sim = np.where(polarity & (sim >= self.threshold), sim, -np.inf)
        out: List[Optional[Match]] = []
        for r in range(len(queries)):
            best = int(np.argmax(sim[r]))  # first maximum: ties go to pool order
            value = sim[r, best]
            if not np.isfinite(value):
                out.append(None)
                continue
            out.append(Match(mode="sentence", evidence=(pool[best],), score=float(value),
                             detail=f"sentence {value:.2f}"))
        return out

    def _score_slots(self, queries: Sequence[RelationUnit], pool: Sequence[RelationUnit],
                     embedder) -> List[Optional[Match]]:
        # verbs first (pruning): only pairs whose verb passes go on to subject/object
        qa, qi = self._index([u.lemma for u in queries])
        pa, pi = self._index([u.lemma for u in pool])
        verb = self._similarity(qa, pa, embedder)[np.ix_(qi, pi)]
        polarity = (np.array([u.negated for u in queries])[:, None]
                    == np.array([u.negated for u in pool])[None, :])
        rows, cols = np.nonzero(polarity & (verb >= self.verb_threshold))
        out: List[Optional[Match]] = [None] * len(queries)
        if rows.size == 0:
            return out
        slots = {}
        for name in ("subject", "object"):
            qa, qi = self._index([getattr(u, name) for u in queries])
            pa, pi = self._index([getattr(u, name) for u in pool])
            sim = self._similarity(qa, pa, embedder)
            slots[name] = sim[qi[rows], pi[cols]]
        v = verb[rows, cols]
        s, o = slots["subject"], slots["object"]
        ok = (s >= self.threshold) & (o >= self.threshold)
        total = np.minimum(np.minimum(s, v), o)
        best: Dict[int, int] = {}  # query row -> candidate k (rows/cols are in pool order per row)
        for k in np.nonzero(ok)[0]:
            r = int(rows[k])
            if r not in best or total[k] > total[best[r]]:
                best[r] = int(k)
        for r, k in best.items():
            out[r] = Match(mode="slots", evidence=(pool[int(cols[k])],), score=float(total[k]),
                           detail=f"subject {s[k]:.2f}, verb {v[k]:.2f}, object {o[k]:.2f}")
        return out
