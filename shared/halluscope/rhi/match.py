"""Relation-triple matcher: exact, then semantic by slots or by sentence.

For each query triple, in order:

1. **exact**: a pool triple with the identical key ``(subject, verb, object)``
   (the first in pool order) -> ``Match("exact", (unit,), 1.0)``.
2. if ``mode`` is not ``"exact"``, a semantic match among pool triples of the
   **same polarity** (a ``not_`` triple never matches a plain one, in any mode) and
   the **same arity** (a subject-verb pair, object ``""``, only matches pairs):

   * ``"sentence"`` (CHI paper §3.3, docs/papers.md#relation-matching): cosine >= ``threshold`` between the
     ``as_sentence()`` strings ("police arrest suspect"). Blind to swapped roles:
     "police arrest suspect" vs "suspect arrest police" scores 0.97 with MiniLM.
   * ``"slots"`` (our default): subject~subject, verb~verb (lemmas, polarity
     compared separately), object~object, each 1.0 when the strings are equal or
     differ only in a head noun WordNet lists as a synonym (:meth:`RelationMatcher.slot_link`,
     "shops" for "stores"), else the cosine of the slot strings; the triple matches when every slot
     reaches its threshold; score = the minimum of the three. The verb slot uses
     ``verb_threshold`` (default: ``threshold``). Single-word MiniLM cosines do not
     separate synonyms from antonyms (buy/purchase 0.87, arrest/detain 0.61,
     buy/sell 0.76, win/lose 0.69), so a lower verb threshold would admit
     antonyms before it admitted most synonyms: we keep the same 0.85.

   The best score wins; ties go to the first pool triple in pool order.

   **WordNet** (``lexicon``, :class:`halluscope.lexicon.lexical.Lexicon`; docs/lexical.md):
   in slots mode a verb the lexicon links to the pool verb (synonym, hypernym,
   troponym, entailment, verb group: "buy" for "acquire") counts as similarity 1.0,
   whatever the cosine, and the match's ``mode`` and ``detail`` name the relation
   ("buy ⊂ acquire (WordNet troponym)"). A verb that is a WordNet **antonym** of the
   pool verb never supports ("sell" for "buy", cosine 0.76; "lose" for "win"): when
   the subject and object slots match such a pool triple and nothing supports the
   query, it is ``contradicted`` (a ``Match`` with ``contradicts=True`` and the pool
   triple as evidence), never rescued by an embedding cosine. Where the lexicon knows
   either verb (:meth:`~halluscope.lexicon.lexical.Lexicon.knows`), its links alone decide and
   no cosine is taken: the verb cosine compares only pairs WordNet knows neither word
   of (the prepositions of two nominal triples, "rebrand" and "rebranding"), and only
   those are encoded. Without a lexicon every verb pair is compared by its cosine.

How few strings it encodes: docs/architecture.md#relation-matching-what-is-encoded.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from halluscope.rhi.pair_plan import _kind, _same_kind, _VerbPlan
from halluscope.rhi.slot_links import acronym_link, name_link

from ..match import MatchJob
from ..match.text_search import ground_unmatched
from ..options import options_for
from ..text.index import linkable
from ..units import Match, RelationUnit
from .grounding import relation_in_sentence
from .roles import widen

if TYPE_CHECKING:
    from ..lexicon.links import Link

#: the declarations of the options this matcher takes (its defaults and bounds)
_OPTIONS = options_for("rhi")


class RelationMatcher:
    """Match relation triples (``RelationUnit``) of queries against pools.

    ``mode``: ``"slots"`` (default), ``"sentence"`` or ``"exact"``;
    ``threshold``: cosine needed by a semantic match (0.85, the CHI paper's tau);
    ``verb_threshold``: the verb slot's threshold in slots mode (default ``threshold``);
    ``embedder``: an :class:`halluscope.embedding.Embedder` (default: one of the
    default sentence model over the process's loaded model, made only when a semantic
    comparison is needed; the pipeline passes its Resources' own);
    ``text_grounding``: try the ``cooccurrence`` rule last (see ``match_batch``).
    """

    def __init__(
        self,
        mode: str = _OPTIONS["relation_matching"].default,
        threshold: float = _OPTIONS["similarity_threshold"].default,
        embedder=None,
        verb_threshold: float | None = None,
        text_grounding: bool = False,
        lexicon=None,
    ) -> None:
        # the defaults and bounds are the options' own (halluscope.options): an OptionError names the option
        _OPTIONS["relation_matching"].check(mode)
        _OPTIONS["similarity_threshold"].check(threshold)
        if verb_threshold is not None:
            _OPTIONS["similarity_threshold"].check(verb_threshold)
        self.mode = mode
        self.threshold = float(threshold)
        self.verb_threshold = self.threshold if verb_threshold is None else float(verb_threshold)
        self._embedder = embedder
        self.text_grounding = text_grounding
        self.lexicon = lexicon

    @property
    def embedder(self):
        if self._embedder is None:
            from ..embedding import Embedder
            from ..registry import SENTENCE_ENCODER, default_device, resolve

            # the process's model (the registry loads it once), with a cache of this matcher's own
            self._embedder = Embedder(resolve(SENTENCE_ENCODER, None), default_device())
        return self._embedder

    def match_batch(self, jobs: Sequence[MatchJob]) -> list[list[Match | None]]:
        """One list per job, one ``Match`` or ``None`` per query, in query order.
        With ``text_grounding``, a query left unmatched is tried last against the
        sentences of ``job.pool_index`` (the ``cooccurrence`` rule)."""
        results = self._match_units(jobs)
        if self.text_grounding:
            for job, row in zip(jobs, results, strict=True):
                if job.pool_index is not None:
                    ground_unmatched(
                        row, job.queries, job.pool_index, functools.partial(relation_in_sentence, lexicon=self.lexicon)
                    )
        return results

    def _match_units(self, jobs: Sequence[MatchJob]) -> list[list[Match | None]]:
        """Exact, then semantic matching of query units against pool units."""
        results: list[list[Match | None]] = []
        pending: list[tuple[int, list[int], list[int]]] = []  # (job, query idx, pool idx)
        for j, job in enumerate(jobs):
            first: dict[tuple, RelationUnit] = {}
            for unit in job.pool:
                first.setdefault(unit.key, unit)
            row: list[Match | None] = []
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
            kinds = {_kind(job.queries[q]) for q in unresolved}
            candidates = [p for p, unit in enumerate(job.pool) if _kind(unit) in kinds]
            if candidates:
                pending.append((j, unresolved, candidates))
        if not pending:
            return results

        embedder = self.embedder
        if self.mode == "sentence":
            embedder.prepare(
                list(
                    dict.fromkeys(
                        unit.as_sentence()
                        for j, queries, pool in pending
                        for unit in [jobs[j].queries[i] for i in queries] + [jobs[j].pool[i] for i in pool]
                    )
                )
            )
            for j, queries, pool in pending:
                job = jobs[j]
                matches = self._score_sentence([job.queries[i] for i in queries], [job.pool[i] for i in pool], embedder)
                for q, match in zip(queries, matches, strict=True):
                    results[j][q] = match
            return results

        # slots: the verbs WordNet cannot compare first (one batched encode), then only
        # the subjects of pairs whose verb passed and whose strings differ (a second,
        # small encode), then only the objects of pairs whose subject passed too (a third):
        # a pair needs every slot at the threshold, so an object after a failed subject
        # decides nothing
        plans = []
        for j, queries, pool in pending:
            q_units = [jobs[j].queries[i] for i in queries]
            p_units = [jobs[j].pool[i] for i in pool]
            plans.append((j, queries, q_units, p_units, self._verb_plan(q_units, p_units)))
        embedder.prepare(list(dict.fromkeys(lemma for *_, plan in plans for lemma in plan.to_encode())))
        staged = []
        slot_links: dict[tuple[str, str], Link | None] = {}  # each pair of slots looked up once
        for j, queries, q_units, p_units, plan in plans:
            rows, cols, verb, links = self._verb_candidates(q_units, p_units, embedder, plan)
            staged.append((j, queries, q_units, p_units, rows, cols, verb, links))
        self._prepare_slots(staged, "subject", embedder, slot_links)
        subjects = []
        for _j, _queries, q_units, p_units, rows, cols, _verb, _links in staged:
            s, s_links = self._pair_similarity(
                [q_units[r].subject for r in rows], [p_units[c].subject for c in cols], embedder, slot_links
            )
            subjects.append((s, s_links, s >= self.threshold))
        self._prepare_slots(staged, "object", embedder, slot_links, [passed for *_, passed in subjects])
        for (j, queries, q_units, p_units, rows, cols, verb, links), (s, s_links, passed) in zip(
            staged, subjects, strict=True
        ):
            for q, match in zip(
                queries,
                self._score_slots(q_units, p_units, rows, cols, verb, links, embedder, slot_links, s, s_links, passed),
                strict=True,
            ):
                results[j][q] = match
        return results

    def _prepare_slots(
        self,
        staged: Sequence[tuple],
        name: str,
        embedder,
        slot_links: dict[tuple[str, str], Link | None],
        passed: Sequence[np.ndarray] | None = None,
    ) -> None:
        """Encode, in one batched call, the ``name`` slot ("subject" or "object") strings
        of every candidate pair (of those ``passed`` marks, when given) whose two strings
        differ and have no slot link (:meth:`_slot_link`)."""
        wanted: dict[str, None] = {}
        for k, (_j, _queries, q_units, p_units, rows, cols, _verb, _links) in enumerate(staged):
            for m, (r, c) in enumerate(zip(rows, cols, strict=True)):
                if passed is not None and not passed[k][m]:
                    continue
                a, b = getattr(q_units[r], name), getattr(p_units[c], name)
                if a != b and self._slot_link(a, b, slot_links) is None:
                    wanted[a] = None
                    wanted[b] = None
        if wanted:
            embedder.prepare(list(wanted))

    # -- scoring ---------------------------------------------------------------
    @staticmethod
    def _index(units_strings: Sequence[str]) -> tuple[list[str], np.ndarray]:
        """Distinct strings (first-seen order) and each input's index into them."""
        position: dict[str, int] = {}
        idx = np.empty(len(units_strings), dtype=np.int64)
        for k, s in enumerate(units_strings):
            idx[k] = position.setdefault(s, len(position))
        return list(position), idx

    @staticmethod
    def _similarity(a: list[str], b: list[str], embedder) -> np.ndarray:
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

    def _score_sentence(
        self, queries: Sequence[RelationUnit], pool: Sequence[RelationUnit], embedder
    ) -> list[Match | None]:
        qa, qi = self._index([u.as_sentence() for u in queries])
        pa, pi = self._index([u.as_sentence() for u in pool])
        sim = self._similarity(qa, pa, embedder)[np.ix_(qi, pi)]
        sim = np.where(_same_kind(queries, pool) & (sim >= self.threshold), sim, -np.inf)
        out: list[Match | None] = []
        for r in range(len(queries)):
            best = int(np.argmax(sim[r]))  # first maximum: ties go to pool order
            value = sim[r, best]
            if not np.isfinite(value):
                out.append(None)
                continue
            out.append(
                Match(mode="sentence", evidence=(pool[best],), score=float(value), detail=f"sentence {value:.2f}")
            )
        return out

    def _verb_links(self, qa: Sequence[str], pa: Sequence[str], lexicon=None) -> dict[tuple[int, int], Link]:
        """WordNet links (:meth:`halluscope.lexicon.lexical.Lexicon.link`) between distinct query
        and pool verbs, keyed by their positions; empty without a lexicon. ``lexicon``
        defaults to the matcher's."""
        lexicon = self.lexicon if lexicon is None else lexicon
        if lexicon is None:
            return {}
        links = {}
        pooled = [(b, verb) for b, verb in enumerate(pa) if linkable(verb)]
        for a, query in enumerate(qa):
            if not linkable(query):
                continue
            others = [(b, verb) for b, verb in pooled if verb != query]
            for (b, _), link in zip(others, lexicon.links(query, [verb for _, verb in others], "verb"), strict=True):
                if link is not None:
                    links[a, b] = link
        return links

    def _wide_links(
        self, qa: Sequence[str], pa: Sequence[str], known: dict[tuple[int, int], Link]
    ) -> dict[tuple[int, int], Link]:
        """Supporting links through any WordNet sense (:meth:`Lexicon.widened`) between
        verbs the first senses leave unlinked; for triples, whose matching subject and
        object pick the sense (:func:`~halluscope.text.index.wide_link`)."""
        if self.lexicon is None:
            return {}
        wide = self._verb_links(qa, pa, self.lexicon.widened())
        return {
            position: widen(link)
            for position, link in wide.items()
            if position not in known and link.relation != "antonym"
        }

    def _known(self, lemmas: Sequence[str]) -> np.ndarray:
        """Per lemma: whether WordNet has it as a verb (:meth:`halluscope.lexicon.lexical.Lexicon.knows`);
        all False without a lexicon."""
        if self.lexicon is None:
            return np.zeros(len(lemmas), dtype=bool)
        return np.array([self.lexicon.knows(lemma, "verb") for lemma in lemmas], dtype=bool)

    def _cosine_needed(self, qa: Sequence[str], pa: Sequence[str]) -> np.ndarray:
        """Which (distinct query verb, distinct pool verb) pairs a MiniLM cosine
        compares: those where WordNet knows neither word (docs/lexical.md#in-the-scores),
        such as two prepositions of nominal triples ("rise in demand") or two verbs it
        lacks ("rebrand"). Where it knows a word, its links alone decide (stop verbs such
        as "be" and "have" link to nothing but themselves), so "buy" and "sell" (cosine
        0.76) or "arrest" and "detain" (0.61) are never compared by an encoder that does
        not separate synonyms from antonyms. Without a lexicon: every pair."""
        known_q, known_p = self._known(qa), self._known(pa)
        return ~known_q[:, None] & ~known_p[None, :]

    def _verb_plan(self, queries: Sequence[RelationUnit], pool: Sequence[RelationUnit]) -> _VerbPlan:
        """A job's distinct query and pool verbs and the pairs of them a cosine compares:
        :meth:`_cosine_needed` for two different verbs (equal verbs score 1.0 unencoded).
        Computed once per job: it says what to encode and then where to read cosines."""
        qa, qi = self._index([u.lemma for u in queries])
        pa, pi = self._index([u.lemma for u in pool])
        equal = np.array(qa, dtype=object)[:, None] == np.array(pa, dtype=object)[None, :]
        return _VerbPlan(qa, qi, pa, pi, equal, self._cosine_needed(qa, pa) & ~equal)

    def _verbs_to_encode(self, queries: Sequence[RelationUnit], pool: Sequence[RelationUnit]) -> list[str]:
        """The distinct verbs of a job that a cosine compares (:meth:`_verb_plan`)."""
        return self._verb_plan(queries, pool).to_encode()

    @staticmethod
    def _verb_similarity(plan: _VerbPlan, embedder) -> np.ndarray:
        """Verb similarity between the plan's distinct query and pool verbs: 1.0 for
        equal verbs, the cosine for the plan's pairs, 0.0 elsewhere (WordNet decides
        those)."""
        qa, pa, pairs = plan.query_verbs, plan.pool_verbs, plan.cosine_pairs
        verb = np.zeros((len(qa), len(pa)), dtype=np.float32)
        rows, cols = np.nonzero(pairs.any(axis=1))[0], np.nonzero(pairs.any(axis=0))[0]
        if rows.size:
            va = np.stack([embedder.vector(qa[a]) for a in rows])
            vb = np.stack([embedder.vector(pa[b]) for b in cols])
            verb[np.ix_(rows, cols)] = va @ vb.T
        verb = np.where(pairs, verb, 0.0).astype(np.float32)
        verb[plan.equal] = 1.0
        return verb

    def _verb_candidates(
        self, queries: Sequence[RelationUnit], pool: Sequence[RelationUnit], embedder, plan: _VerbPlan
    ):
        """(query rows, pool columns, verb similarities, links) of the pairs whose
        polarity and arity agree and whose verb is the same, is linked by WordNet, or,
        where WordNet knows neither verb, reaches ``verb_threshold`` by cosine
        (``links[k]``: the Link of candidate k, None for a cosine match); a
        WordNet-supported verb scores 1.0, an antonym's pair stays a candidate (for
        contradiction) and never passes on its similarity alone. ``plan``: the job's
        :meth:`_verb_plan`, whose cosines the embedder has already encoded."""
        qa, qi, pa, pi = plan.query_verbs, plan.query_index, plan.pool_verbs, plan.pool_index
        verb = self._verb_similarity(plan, embedder)
        by_position = self._verb_links(qa, pa)
        wide = self._wide_links(qa, pa, by_position)
        linked = np.zeros(verb.shape, dtype=bool)
        antonym = np.zeros(verb.shape, dtype=bool)
        widely = np.zeros(verb.shape, dtype=bool)
        for (a, b), link in by_position.items():
            if link.relation == "antonym":
                antonym[a, b] = True
            else:
                linked[a, b] = True
                verb[a, b] = 1.0
        for a, b in wide:
            widely[a, b] = True
        verb, linked, antonym, widely = (m[np.ix_(qi, pi)] for m in (verb, linked, antonym, widely))
        # a link through a rarer sense counts for triples only (a pair has no object)
        widely &= np.array([bool(u.object) for u in queries], dtype=bool)[:, None]
        verb = np.where(widely, 1.0, verb)
        passing = ((verb >= self.verb_threshold) & ~antonym) | linked | antonym | widely
        rows, cols = np.nonzero(_same_kind(queries, pool) & passing)
        links = []
        for r, c in zip(rows, cols, strict=True):
            position = (int(qi[r]), int(pi[c]))
            direct = by_position.get(position)
            links.append(wide.get(position) if direct is None and widely[r, c] else direct)
        return rows, cols, verb[rows, cols], links

    def slot_link(self, query: str, pooled: str) -> Link | None:
        """The WordNet synonym link between two argument slots that differ only in their
        head noun, the last word ("sales in its shops" for "sales in its stores": shop ~
        store; "negotiation" for "talk" is no link, WordNet lists that sense under
        "talks"), or None. Only synonyms: a more general head ("vehicle" for "truck")
        names another set of things as often as the same one. Such slots score 1.0 and
        are not encoded (single-word MiniLM cosines put shop/store at 0.66, below any
        useful threshold). None without a lexicon. An acronym and the name it abbreviates
        (:func:`acronym_link`), and a joined name and its head part (:func:`name_link`),
        link too, with or without a lexicon."""
        q_words, p_words = query.split(), pooled.split()
        named = acronym_link(q_words, p_words) or name_link(q_words, p_words)
        if named is not None or self.lexicon is None:
            return named
        if not q_words or len(q_words) != len(p_words) or q_words[:-1] != p_words[:-1]:
            return None
        if q_words[-1] == p_words[-1] or not linkable(q_words[-1]) or not linkable(p_words[-1]):
            return None
        link = self.lexicon.close_link(q_words[-1], p_words[-1], "noun")
        return link if link is not None and link.relation == "synonym" else None

    def _slot_link(self, query: str, pooled: str, known: dict[tuple[str, str], Link | None]):
        """:meth:`slot_link`, looked up once per pair in ``known`` (one batch's)."""
        pair = (query, pooled)
        if pair not in known:
            known[pair] = self.slot_link(query, pooled)
        return known[pair]

    def _pair_similarity(
        self, a: Sequence[str], b: Sequence[str], embedder, known: dict[tuple[str, str], Link | None]
    ) -> tuple[np.ndarray, list]:
        """Per (a[k], b[k]) pair: its similarity (exactly 1.0 for equal strings and for a
        :meth:`slot_link`, else the cosine) and the slot link or None (``known``: the
        batch's slot links, :meth:`_slot_link`)."""
        links = [None if x == y else self._slot_link(x, y, known) for x, y in zip(a, b, strict=True)]
        values = [
            1.0 if x == y or link is not None else float(np.dot(embedder.vector(x), embedder.vector(y)))
            for x, y, link in zip(a, b, links, strict=True)
        ]
        return np.array(values, dtype=np.float64), links

    def _score_slots(
        self,
        queries: Sequence[RelationUnit],
        pool: Sequence[RelationUnit],
        rows: np.ndarray,
        cols: np.ndarray,
        verb: np.ndarray,
        links: Sequence,
        embedder,
        slot_links: dict[tuple[str, str], Link | None],
        s: np.ndarray,
        s_links: Sequence,
        passed: np.ndarray,
    ) -> list[Match | None]:
        """The best pool triple per query among the candidate pairs (``rows``, ``cols``):
        every slot at the threshold (``s``: the subjects' similarities, ``passed``: those at
        the threshold; an object is compared only where the subject passed, which is all
        that a pair needs), the highest minimum of the three slots; an antonym verb whose
        slots match contradicts a query nothing supports."""
        out: list[Match | None] = [None] * len(queries)
        if rows.size == 0:
            return out
        o = np.zeros(len(rows), dtype=np.float64)
        o_links: list[Link | None] = [None] * len(rows)
        at = np.nonzero(passed)[0]
        if at.size:
            values, found = self._pair_similarity(
                [queries[rows[k]].object for k in at], [pool[cols[k]].object for k in at], embedder, slot_links
            )
            o[at] = values
            for k, link in zip(map(int, at), found, strict=True):
                o_links[k] = link
        v = np.asarray(verb, dtype=np.float64)
        ok = (s >= self.threshold) & (o >= self.threshold)
        total = np.minimum(np.minimum(s, v), o)
        best: dict[int, int] = {}  # query row -> candidate k (rows/cols are in pool order per row)
        against: dict[int, int] = {}  # query row -> an antonym candidate k
        for k in map(int, np.nonzero(ok)[0]):
            r = int(rows[k])
            link = links[k]
            if link is not None and link.relation == "antonym":
                against.setdefault(r, int(k))
            elif r not in best or total[k] > total[best[r]]:
                best[r] = int(k)
        for r, k in best.items():
            link = links[k]
            named = [found.text for found in (link, s_links[k], o_links[k]) if found is not None]
            out[r] = Match(
                mode="slots" if link is None else link.relation,
                evidence=(pool[int(cols[k])],),
                score=float(total[k]),
                detail=f"subject {s[k]:.2f}, verb {v[k]:.2f}, object {o[k]:.2f}"
                + "".join(f"; {text}" for text in named),
            )
        for r, k in against.items():
            if r not in best:
                out[r] = Match(
                    mode="antonym",
                    evidence=(pool[int(cols[k])],),
                    score=0.0,
                    detail=f"subject {s[k]:.2f}, object {o[k]:.2f}; {links[k].text}",
                    contradicts=True,
                )
        return out
