"""The CHI-family engine: texts -> parses -> units -> matches -> counts -> indices -> CHI
(docs/architecture.md#data-flow).

One call scores a whole batch: every distinct text is parsed once (:mod:`.batch`), each
dimension (:mod:`halluscope.dimensions`) extracts its units and its matcher sees every
example's jobs at once (one batched encode for semantic relation matching), then the
dimension refines the matches (swaps, sentence contradictions) and only then are
counts, factors and indices formed; CHI fuses them with the word-level support
(:mod:`.word_support`, :func:`halluscope.fusion.fused_chi`). The engine names no
dimension: it runs each the same way. Data flows one way: this module gets parses,
units, text indexes, the embedder and the lexicon from the resources it is given and
hands them down; nothing below reaches back for them (docs/architecture.md#resources).

Several references per example: each reference is scored separately and, per
dimension, the best-scoring reference is kept (as bert_score does for several
references); details report which one. An example without references is scored
reference-free (docs/papers.md#reference-free-scoring).
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .batch import ParsedBatch, parse_batch
from .collector import fewer_collections
from .details import dimension_details
from .dimensions import DIMENSIONS
from .dimensions.base import Dimension
from .fusion import fused_chi
from .indices import support_share
from .match import MatchJob
from .match.attribution import attributions, credit
from .parsing import ParsedText
from .publication_dates import validate_publication_dates
from .resources import Resources
from .results import ScoreResult
from .scoring_options import ScoringOptions
from .signature import signature
from .text_forms import read_batch
from .units import Match, TextEvidence
from .validation import validate_inputs
from .venn import VennCounts, venn_counts
from .verdict import verdict
from .words.support import WordResult, sentence_contradictions, word_support

# --------------------------------------------------------------------------- units


def units_of(parsed: ParsedText, dimension: Dimension, options: ScoringOptions, resources: Resources) -> list:
    """The deduplicated units of one parsed text, extracted once per extractor setting
    while the resources' unit cache keeps them."""
    return resources.units(parsed, dimension.unit_setting(options), dimension.extractor(options))


def _units_reader(dimension: Dimension, options: ScoringOptions, resources: Resources) -> Callable[[ParsedText], list]:
    """:func:`units_of` for one call's parses: each parse's units are looked up once
    in the resources and then kept for the call (a parse is extracted once per call
    even when the memory budget keeps no unit)."""
    setting, extract = dimension.unit_setting(options), dimension.extractor(options)
    seen: dict[int, list] = {}  # id of a parse the call holds -> its units

    def read(parsed: ParsedText) -> list:
        found = seen.get(id(parsed))
        if found is None:
            found = seen[id(parsed)] = resources.units(parsed, setting, extract)
        return found

    return read


# --------------------------------------------------------------------------- scoring


@dataclass
class DimensionResult:
    """One example's result on one dimension."""

    score: float
    counts: VennCounts | None
    factors: dict[str, float]
    reference_index: int | None
    extra: dict[str, float] = field(default_factory=dict)  # e.g. rhi_norm for the linear RHI
    supported: list[bool] | None = None  # per G unit, when the score is a support share
    attributions: list[float | None] | None = None  # per G unit a(u), with attribution
    contradicted: int = 0  # G units the source contradicts (formula="support")


def _is_text_grounded(match: Match | None) -> bool:
    """Found only in the pool's text (``grounding="text"``): a unit the pool's extractor
    missed, which joins that pool's units so that |I∩G| <= |I| still holds."""
    return match is not None and isinstance(match.evidence[0], TextEvidence)


def source_support(
    g_in_i: Sequence[Match | None],
    g_in_r: Sequence[Match | None],
    r_units: Sequence[Any],
    r_in_i: Sequence[Match | None],
) -> list[Match | None]:
    """Per G unit, the source match that supports it: its own, or else that of the
    reference unit it matched when that reference unit is itself in the source (the
    reference bridges a paraphrase); None when unsupported. A G unit found in the
    reference but not in the source is not supported: the reference is not evidence
    of what the source says."""
    position = {id(unit): p for p, unit in enumerate(r_units)}
    support: list[Match | None] = []
    for direct, via in zip(g_in_i, g_in_r, strict=True):
        bridge = None
        if direct is None and via is not None and not _is_text_grounded(via):
            p = position.get(id(via.evidence[0]))
            bridge = r_in_i[p] if p is not None else None
        support.append(direct if direct is not None else bridge)
    return support


def _support_result(
    dimension: Dimension,
    variant: str | None,
    options: ScoringOptions,
    counts: VennCounts,
    support: list[Match | None],
    reference_index: int | None,
    g_units: Sequence[Any],
    summary: ParsedText,
    source: ParsedText,
    parsed: ParsedBatch,
    contradicted: Sequence[bool] = (),
) -> DimensionResult:
    """The share of supported G units (NaN without units), weighted by their attribution
    credit in an attributed dimension when ``options.attribution``
    (:mod:`halluscope.match.attribution`). Under ``formula="support"`` a unit the
    source contradicts (``contradicted``, per G unit) counts as
    :data:`halluscope.indices.CONTRADICTION_WEIGHT` unsupported units: "lost" against
    "won" weighs more than a verb the source does not mention. The dimension turns the
    share into its score (:meth:`~halluscope.dimensions.base.Dimension.support_score`)."""
    flags = [match is not None for match in support]
    # strict=False: contradicted is () (the default) when no unit is contradicted
    n_against = (
        sum(bool(c) and not f for c, f in zip(contradicted, flags, strict=False)) if options.formula == "support" else 0
    )
    attributed = None
    if options.attribution and dimension.attributed:
        if any(flags):  # only a supported unit is attributed: its texts' indexes are needed
            attributed = attributions(g_units, support, parsed.index(summary), parsed.index(source))
        else:
            attributed = [None] * len(support)
        share = support_share([credit(a) for a in attributed], n_against)
    else:
        share = support_share(flags, n_against)
    score, extra = dimension.support_score(share, options, variant)
    return DimensionResult(score, counts, {}, reference_index, extra, flags, attributed, n_against)


def _pool_index(dimension: Dimension, options: ScoringOptions, parsed: ParsedBatch, text: ParsedText):
    """The pool's text index for the matchers that ground units in the text
    (``grounding="text"``), else None."""
    if options.grounding != "text" or not dimension.text_grounded:
        return None
    return parsed.index(text)


def _match_distinct(matcher, jobs: Sequence[MatchJob]) -> list[list[Match | None]]:
    """``matcher.match_batch(jobs)``, each distinct job matched once: a reference's job
    against its source is the same for every summary scored with that reference and
    source (several systems' summaries of one document share its references, as in
    SummEval and FRANK). Jobs are the same when they hold the very same unit lists,
    context and text index (a summary's own jobs never are: each row completes its
    units anew); each copy gets its own list of the (immutable) matches, so that a
    later step may change one row's without touching another's."""
    first: dict[tuple, int] = {}
    distinct: list[MatchJob] = []
    where: list[int] = []
    for job in jobs:
        key = (id(job.queries), id(job.pool), tuple(sorted(job.context.items())), id(job.pool_index))
        if key not in first:
            first[key] = len(distinct)
            distinct.append(job)
        where.append(first[key])
    found = matcher.match_batch(distinct)
    return [list(found[k]) for k in where]


def _score_dimension(
    dimension: Dimension,
    parsed: ParsedBatch,
    options: ScoringOptions,
    resources: Resources,
    dates: list[_dt.date | None],
    variant: str | None,
    want_details: bool,
    contradictions: list[list[Any]] | None = None,
):
    """Results (and unit diagnostics) of one dimension for every example.
    ``contradictions``: per row, the summary's sentence contradictions
    (:func:`~halluscope.words.support.sentence_contradictions`) for a dimension that
    reads them in its refine step; None: none looked for."""
    units = _units_reader(dimension, options, resources)
    jobs: list[MatchJob] = []
    plan = []  # per row: (job index G->I, [(job G->R_j, job R_j->I), ...])
    for row in range(len(parsed)):
        date = dates[row]
        source = parsed.sources[row]
        i_units: Sequence[Any] = units(source)
        g_units: Sequence[Any] = dimension.complete(
            units(parsed.predictions[row]), i_units, parsed.predictions[row], source, options, resources
        )
        in_source = {"publication_date": date}
        source_index = _pool_index(dimension, options, parsed, source)
        jobs.append(MatchJob(g_units, i_units, in_source, source_index))
        gi = len(jobs) - 1
        per_ref = []
        for reference in parsed.references[row]:
            r_units = units(reference)
            jobs.append(
                MatchJob(
                    g_units, r_units, {"publication_date": date}, _pool_index(dimension, options, parsed, reference)
                )
            )
            jobs.append(MatchJob(r_units, i_units, in_source, source_index))
            per_ref.append((len(jobs) - 2, len(jobs) - 1))
        plan.append((gi, per_ref))

    found = _match_distinct(dimension.matcher(options, resources), jobs)
    jobs, found = dimension.refine(jobs, found, plan, parsed, options, contradictions)
    # a contradicted unit is found but not supported: it counts as unmatched, and its
    # match is kept for the details (status "contradicted")
    matches = [[None if m is not None and m.contradicts else m for m in row] for row in found]

    results: list[DimensionResult] = []
    details: list[dict[str, Any]] = []
    for row, (gi, per_ref) in enumerate(plan):
        g_in_i = matches[gi]
        against = [m is not None and m.contradicts for m in found[gi]]
        g_units, i_units = jobs[gi].queries, jobs[gi].pool
        summary, source = parsed.predictions[row], parsed.sources[row]
        n_source = len(i_units) + sum(map(_is_text_grounded, g_in_i))
        if not per_ref:  # reference-free (docs/papers.md#reference-free-scoring)
            counts = venn_counts(n_source, 0, g_in_i, [None] * len(g_in_i), [])
            best = _support_result(
                dimension, variant, options, counts, list(g_in_i), None, g_units, summary, source, parsed, against
            )
            best_ref_matches = None
        else:
            best, best_ref_matches = None, None
            for j, (gr, ri) in enumerate(per_ref):
                # a G unit found only in the reference's text is a reference unit its
                # extractor missed; it is in I∩R when that G unit is in I
                r_in_i = list(matches[ri]) + [g_in_i[k] for k, m in enumerate(matches[gr]) if _is_text_grounded(m)]
                counts = venn_counts(n_source, len(r_in_i), g_in_i, matches[gr], r_in_i)
                if options.formula == "support":
                    support = source_support(g_in_i, matches[gr], jobs[ri].queries, matches[ri])
                    candidate = _support_result(
                        dimension, variant, options, counts, support, j, g_units, summary, source, parsed, against
                    )
                else:
                    value, factors, extra = dimension.index(counts, options, variant)
                    candidate = DimensionResult(value, counts, factors, j, extra)
                value = candidate.score
                if best is None or (math.isnan(best.score) and not math.isnan(value)) or value > best.score:
                    best, best_ref_matches = candidate, (matches[gr], jobs[gr].pool)
        assert best is not None, "per_ref, when not empty, sets best at its first reference"
        results.append(best)
        if want_details:
            details.append(
                dimension_details(
                    best,
                    g_units,
                    g_in_i,
                    best_ref_matches,
                    found[gi],
                    lambda unit, pool=i_units: dimension.nearest(unit, pool),
                )
            )
    return results, details


@fewer_collections()
def score(
    dimensions: Sequence[str],
    predictions: Sequence[str],
    sources: Sequence[str],
    references=None,
    *,
    options: ScoringOptions | None = None,
    resources: Resources | None = None,
    publication_dates=None,
    return_details: bool = False,
    fuse: bool = False,
    metric_name: str | None = None,
) -> ScoreResult:
    """Score a batch on ``dimensions`` (names in :data:`halluscope.dimensions.DIMENSIONS`);
    ``fuse`` adds CHI. ``resources``: the models and caches to score with (None: the
    process's default, :meth:`halluscope.resources.Resources.default`); everything below
    takes them from this call.

    Returns a :class:`halluscope.results.ScoreResult`: per-example scores of each
    dimension (and ``chi``, and a dimension's extra scores such as ``rhi_norm``), their
    means over the defined rows, the number of rows defining each dimension, a
    ``signature`` and, with ``return_details``, one dict per example with counts,
    factors and units.
    """
    options = options or ScoringOptions()
    resources = Resources.default() if resources is None else resources
    unknown = set(dimensions) - set(DIMENSIONS)
    if unknown:
        raise ValueError(f"unknown dimensions {sorted(unknown)}")
    chosen = [DIMENSIONS[name] for name in dimensions]
    batch = validate_inputs(predictions, sources, references)
    dates = validate_publication_dates(publication_dates, len(batch))
    # Unicode digits, full-width forms, soft hyphens and zero-width characters are read
    # as their plain forms (docs/api.md#unicode-forms-read-as-ascii); the details are
    # mapped back to the texts as given below
    read, forms = read_batch(batch)
    parsed = parse_batch(read, options, resources)

    # sentence contradictions, under formula="support": what a dimension's refine step
    # reads (contradicted relations) and contradicted words of the word-level support
    contradictions = None
    if options.formula == "support" and (fuse or any(d.reads_contradictions for d in chosen)):
        contradictions = sentence_contradictions(parsed, options, resources)
    per_dim: dict[str, list[DimensionResult]] = {}
    per_dim_details: dict[str, list[dict[str, Any]]] = {}
    for dimension in chosen:
        per_dim[dimension.name], per_dim_details[dimension.name] = _score_dimension(
            dimension,
            parsed,
            options,
            resources,
            dates,
            dimension.variant(options, fuse),
            return_details,
            contradictions if dimension.reads_contradictions else None,
        )

    per_example: dict[str, list[float]] = {}
    words: Sequence[WordResult | None] = [None] * len(batch)
    if fuse:
        if options.formula == "support":
            words = word_support(parsed, options, resources, contradictions)
        lexical_weight = options.lexical_weight
        assert lexical_weight is not None, "ScoringOptions.__post_init__ sets it"
        per_example["chi"] = [
            fused_chi({d: per_dim[d][row] for d in dimensions}, words[row], options.weights, lexical_weight)
            for row in range(len(batch))
        ]
    for dimension in chosen:
        per_example[dimension.name] = [r.score for r in per_dim[dimension.name]]
    for dimension in chosen:
        for name in dimension.extra_scores(options, fuse):
            per_example[name] = [r.extra[name] for r in per_dim[dimension.name]]
    details = None
    if return_details:
        details = [
            {
                "reference_free": not batch.references[row],
                **({"chi": per_example["chi"][row]} if fuse else {}),
                **({"words": word.as_details()} if (word := words[row]) is not None else {}),
                **{d: per_dim_details[d][row] for d in dimensions},
            }
            for row in range(len(batch))
        ]
    metric = metric_name or ("chi" if fuse else "+".join(dimensions))
    signed = signature(metric, dimensions, options, fuse, resources)
    labels: list[int | None] | None = None
    absent: dict[str, str] = {}
    if fuse:  # chi's verdict: p_consistent and the labels at the cut, or why they are absent (halluscope.verdict)
        judged = verdict(per_example["chi"], signed, options.threshold)
        labels = None if judged.labels is None else list(judged.labels)  # a copy typed as ScoreResult's
        if judged.p is None:
            assert judged.reason is not None, "a verdict without p says why (Verdict)"
            absent["p_consistent"] = judged.reason
        else:
            per_example["p_consistent"] = judged.p
            # strict=False: without details there is no row to fill
            for row, p in zip(details or (), judged.p, strict=False):
                row["p_consistent"] = p
    if details is not None and forms is not None:
        details = forms.given_details(details)
    return ScoreResult(
        metric=metric,
        per_example=per_example,
        defined_names=tuple(dimensions),
        signature=signed,
        labels=labels,
        details=details,
        absent=absent,
    )
