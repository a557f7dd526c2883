"""One call's texts, parsed once, and the text indexes the call reads
(docs/architecture.md#resources)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from . import budget
from .parsing import ParsedText
from .resources import Resources
from .scoring_options import ScoringOptions
from .text.casing import casing_table, truecase
from .text.index import TextIndex
from .validation import ValidatedBatch


class CallIndexes:
    """The text indexes one scoring call reads, each taken from the resources' cache
    (:meth:`halluscope.resources.Resources.text_index`) once and held until the call
    ends, up to the memory budget's size (``cache_mb``) on top of the caches. The
    dimensions and the word support each read every row's indexes in turn, so a batch
    whose indexes outgrew the index cache's share of the budget was indexed again for
    each of them (docs/benchmarks.md#text-indexes-held-by-a-call). Past the limit a call reads the cache
    as before, so a very large call's memory stays bounded (docs/scaling.md#memory)."""

    def __init__(self, resources: Resources) -> None:
        self._resources = resources
        self._held: dict[int, tuple[object, TextIndex]] = {}  # id(doc) -> (doc, index): the doc kept, its id unique
        self._room = budget.current_mb() * budget.MB  # bytes the call may still hold
        self._bytes_per_char = budget.INDEX_BYTES_PER_CHAR  # the index alone: the call holds its parses anyway

    def __call__(self, parsed: ParsedText) -> TextIndex:
        """The index of one of the call's parsed texts."""
        held = self._held.get(id(parsed.doc))
        if held is not None:
            return held[1]
        entry = (parsed.doc, self._resources.text_index(parsed.doc))
        weight = self._bytes_per_char * len(parsed.text)
        if weight <= self._room:
            self._room -= weight
            self._held[id(parsed.doc)] = entry
        return entry[1]


@dataclass
class ParsedBatch:
    """Every text of a batch, parsed: one entry per row (a tuple per row for references),
    and ``index``, the text indexes the call reads (:class:`CallIndexes`)."""

    predictions: list[ParsedText]
    sources: list[ParsedText]
    references: list[tuple[ParsedText, ...]]
    index: CallIndexes = field(repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.predictions)


def parse_batch(batch: ValidatedBatch, options: ScoringOptions, resources: Resources) -> ParsedBatch:
    """Parse every distinct text of the batch once, in one call of the resources' parse
    cache.
    With ``options.truecase``, lower-cased predictions and references are parsed
    truecased against their row's source (:mod:`halluscope.text.casing`) but keep the
    caller's text, so units, spans and evidence show what the caller wrote."""
    n_rows = len(batch)
    summaries = list(batch.predictions) + [r for refs in batch.references for r in refs]
    analysed = summaries
    if options.truecase:
        source_of = list(batch.sources) + [
            s for refs, s in zip(batch.references, batch.sources, strict=True) for _ in refs
        ]
        table_of = functools.partial(resources.text_table, casing_table)
        analysed = [truecase(text, source, table_of) for text, source in zip(summaries, source_of, strict=True)]
    shown = summaries + list(batch.sources)
    parses = resources.parse_cache(options.spacy_model).get_shown_as(analysed + list(batch.sources), shown)
    flat_references = iter(parses[n_rows : len(parses) - n_rows])
    return ParsedBatch(
        parses[:n_rows],
        parses[len(parses) - n_rows :],
        [tuple(next(flat_references) for _ in refs) for refs in batch.references],
        CallIndexes(resources),
    )
