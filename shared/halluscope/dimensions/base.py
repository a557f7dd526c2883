"""What a dimension of the CHI family is: everything of one index in one object
(docs/architecture.md#dimensions).

A :class:`Dimension` says how its units are extracted from a parse (and what the unit
cache keys them by), which matcher finds them in a pool, what it does to the matches
before they are counted (swaps, sentence contradictions), how a Venn count becomes
its factors and index, and what of its options goes into the signature. The engine
(:mod:`halluscope.pipeline`) runs every dimension the same way and names none of them;
fusion, the report and the Space read the registry (:mod:`halluscope.dimension_registry`,
filled by :mod:`halluscope.dimensions`); a shipped dimension's metric (title, outputs,
publication dates) is declared in :data:`halluscope.options.METRIC_SPECS`.

A dimension reads resolved options (:class:`halluscope.scoring_options.ScoringOptions`)
and the call's resources; it holds no default or bound of its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Optional

from ..indices import softmax_index

if TYPE_CHECKING:  # pragma: no cover
    from ..batch import ParsedBatch
    from ..match import MatchJob
    from ..parsing import ParsedText
    from ..resources import Resources
    from ..scoring_options import ScoringOptions
    from ..signature_text import Field
    from ..units import Match
    from ..venn import VennCounts

#: per row: (job index of G -> I, [(job G -> R_j, job R_j -> I), ...]) (:func:`halluscope.pipeline.score`)
Plan = list[tuple[int, list[tuple[int, int]]]]
Found = list[list[Optional["Match"]]]


class Dimension:
    """One index of the CHI family. Subclasses set the class attributes and implement
    :meth:`extractor`, :meth:`matcher` and :meth:`factors`; the other methods have
    the defaults most dimensions want."""

    #: the score's name: the metric, the key of its scores and details
    name: str = ""
    #: what its units are, in a plural noun ("entities")
    units: str = ""
    #: where its index is defined, for the Space's notes ("CHI paper eq. 2-7")
    equations: str = ""
    #: the attribution credit a(u) weights its support share (formula="support",
    #: :mod:`halluscope.match.attribution`)
    attributed: bool = False
    #: with grounding="text" its matcher also searches the pool's text
    text_grounded: bool = False
    #: its refine step reads the call's sentence contradictions (:mod:`halluscope.match.polarity`)
    reads_contradictions: bool = False
    #: a line on each of its extra scores (:meth:`extra_scores`), for the Space
    extra_notes: dict[str, str] = {}

    # -- units ------------------------------------------------------------------------

    def unit_setting(self, options: ScoringOptions) -> tuple:
        """What its units depend on besides the parse: the unit cache's key
        (:class:`halluscope.parsing.UnitCache`). An option that changes extraction
        must be in it."""
        return (self.name,)

    def extractor(self, options: ScoringOptions) -> Callable[[Any], list]:
        """``Doc -> units`` under ``options``."""
        raise NotImplementedError

    # -- matching ---------------------------------------------------------------------

    def matcher(self, options: ScoringOptions, resources: Resources):
        """An object with ``match_batch(jobs) -> one list of Match-or-None per job``."""
        raise NotImplementedError

    def load(self, options: ScoringOptions, resources: Resources) -> None:
        """Load now the models its matcher loads only when a row asks for one, so that
        a pool of workers forked next shares them (:mod:`halluscope.workers`). None here."""

    def complete(
        self,
        summary_units: list,
        source_units: Sequence[Any],
        summary: ParsedText,
        source: ParsedText,
        options: ScoringOptions,
        resources: Resources,
    ) -> list:
        """The summary's units after what its own parse missed (a name the source tags,
        or one it never writes, in a lower-case summary); default: as they are."""
        return summary_units

    def refine(
        self,
        jobs: list[MatchJob],
        found: Found,
        plan: Plan,
        parsed: ParsedBatch,
        options: ScoringOptions,
        contradictions: list[list[Any]] | None,
    ) -> tuple[list[MatchJob], Found]:
        """The matches after what the dimension knows beyond the matcher (a unit in
        another's place, a sentence contradiction), before they are counted. Rows and
        jobs keep their order; a job may gain or lose units, its matches with them."""
        return jobs, found

    # -- counts to index --------------------------------------------------------------

    def variant(self, options: ScoringOptions, fuse: bool) -> str | None:
        """The variant of the index scored (None: the dimension has one)."""
        return None

    def extra_scores(self, options: ScoringOptions, fuse: bool) -> tuple[str, ...]:
        """Per-example scores besides its own that the result carries (e.g. ``rhi_norm``)."""
        return ()

    def factors(self, counts: VennCounts) -> dict[str, float]:
        """Its factors of one Venn count (the papers' equations)."""
        raise NotImplementedError

    def index(
        self, counts: VennCounts, options: ScoringOptions, variant: str | None
    ) -> tuple[float, dict[str, float], dict[str, float]]:
        """(index, factors, extra values) for one reference-based Venn count; NaN
        where the count leaves it undefined."""
        if counts.undefined:
            return math.nan, {}, {}
        factors = self.factors(counts)
        return softmax_index(factors, options.normalize), factors, {}

    def support_score(
        self, share: float, options: ScoringOptions, variant: str | None
    ) -> tuple[float, dict[str, float]]:
        """(score, extra values) of a support share (formula="support", and the
        reference-free rows)."""
        return share, {}

    # -- explanation --------------------------------------------------------------------

    def nearest(self, unit: Any, pool: Sequence[Any]) -> tuple[Any, str] | None:
        """For an unsupported unit: the source unit nearest to it and, in words, why it
        was not a match (the details' ``nearest_in_source``); None when no source unit
        is near. For the reader only: no score depends on it."""
        return None

    # -- signature ----------------------------------------------------------------------

    @property
    def signature_fields(self) -> tuple[Field, ...]:
        """Its rows of the signature table: each option that changes its scores, as the
        signature writes it (docs/architecture.md#the-signature-table). Each row's value
        reads a :class:`halluscope.signature_table.ScoringCall`."""
        return ()

    # -- display ------------------------------------------------------------------------

    def note(self, variant: str | None) -> str:
        """One line on what the score of ``variant`` is (the Space's score table)."""
        return f"{self.units} ({self.equations})"

    def __repr__(self) -> str:
        return f"<dimension {self.name}: {self.units}>"


def swapped_units(
    jobs: Sequence[MatchJob],
    found: Found,
    plan: Plan,
    parsed: ParsedBatch,
    swapped: Callable[..., Match | None],
    replaced: Callable[..., Match | None] | None = None,
) -> Found:
    """A summary unit the source supports but whose place in the aligned source sentence
    another unit of its kind holds is contradicted (:mod:`halluscope.ehi.swaps`): its
    source match becomes the swap. ``swapped(unit, match, pool, summary_index,
    source_index)``: the swap or None. ``replaced(unit, pool, summary_index,
    source_index)``, when given, reads the units the source does not support the same
    way: a contradiction or None."""

    def revise(unit, match, pool, summary, source):
        if match is None:
            return replaced(unit, pool, summary, source)
        return swapped(unit, match, pool, summary, source)

    return _revised(
        jobs,
        found,
        plan,
        parsed,
        revise,
        lambda match: (match is not None and not match.contradicts) or (match is None and replaced is not None),
    )


def written_units(
    jobs: Sequence[MatchJob],
    found: Found,
    plan: Plan,
    parsed: ParsedBatch,
    written: Callable[..., Match | None],
) -> Found:
    """A summary unit nothing in the source matched may still be written there:
    ``written(unit, summary_index, source_index)`` gives that match or None. Only the
    source job's unmatched units are read (a reference never grounds a unit)."""
    return _revised(
        jobs,
        found,
        plan,
        parsed,
        lambda unit, match, pool, summary, source: written(unit, summary, source),
        lambda match: match is None,
    )


def copied_units(
    jobs: Sequence[MatchJob],
    found: Found,
    plan: Plan,
    parsed: ParsedBatch,
    copied: Callable[..., Match | None],
) -> Found:
    """A summary unit nothing in the source matched, or that a match contradicts, may be
    written in a passage its sentence copies word for word, which the copy's parse read
    otherwise than the source's (:mod:`halluscope.match.copies`): ``copied(unit,
    summary_index, source_index)`` gives the passage's support or None. Only the source
    job's units are read."""
    return _revised(
        jobs,
        found,
        plan,
        parsed,
        lambda unit, match, pool, summary, source: copied(unit, summary, source),
        lambda match: match is None or match.contradicts,
    )


def _revised(
    jobs: Sequence[MatchJob],
    found: Found,
    plan: Plan,
    parsed: ParsedBatch,
    revise: Callable[..., Match | None],
    reads: Callable[[Match | None], bool],
) -> Found:
    """The matches with each source-job match that ``reads`` accepts replaced by
    ``revise(unit, match, pool, summary_index, source_index)`` where that gives one (None
    keeps it). A row's two text indexes are built only when one of its units is read."""
    found = [list(row) for row in found]
    for row, (gi, _) in enumerate(plan):
        summary, source = None, None
        for k, unit in enumerate(jobs[gi].queries):
            match = found[gi][k]
            if not reads(match):
                continue
            if summary is None:
                summary, source = parsed.index(parsed.predictions[row]), parsed.index(parsed.sources[row])
            revised = revise(unit, match, jobs[gi].pool, summary, source)
            if revised is not None:
                found[gi][k] = revised
    return found


def drop_units(
    jobs: list[MatchJob], found: Found, plan: Plan, keep: Callable[[Any, Match | None], bool]
) -> tuple[list[MatchJob], Found]:
    """The jobs and matches without the summary units ``keep(unit, match against the
    source)`` refuses, taken out of every job that queries the summary's units (its
    source job and its reference jobs, which share them)."""
    import dataclasses

    jobs, found = list(jobs), [list(row) for row in found]
    for gi, per_ref in plan:
        kept = [k for k, unit in enumerate(jobs[gi].queries) if keep(unit, found[gi][k])]
        if len(kept) == len(jobs[gi].queries):
            continue
        queries = [jobs[gi].queries[k] for k in kept]
        for job in [gi] + [gr for gr, _ in per_ref]:
            jobs[job] = dataclasses.replace(jobs[job], queries=queries)
            found[job] = [found[job][k] for k in kept]
    return jobs, found
