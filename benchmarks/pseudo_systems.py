"""The harness's empty-summary check: an empty and a content-free summary scored for
every distinct source as two pseudo-systems beside the real summaries, and ranked
among the real systems (docs/benchmarks.md, "How these numbers are made")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from benchmarks.measures import rank_pseudo_systems

#: the pseudo-systems of the empty-summary check: name -> the summary written for every document
PSEUDO_SUMMARIES = {"empty": "", "content-free": "The article discusses the topic."}


def pseudo_rows(
    sources: Sequence[str], references: Sequence[str] | None, pseudo_summaries: Mapping[str, str] = PSEUDO_SUMMARIES
) -> list[tuple[str, int, str, str | None]]:
    """(pseudo-system, document index, summary, reference) for every distinct source
    (documents are numbered by first appearance) and pseudo-system; the reference is
    the document's most frequent one."""
    documents = document_ids(sources)
    first_row: dict[int, int] = {}
    references_of: dict[int, Counter] = {}
    for row, document in enumerate(documents):
        first_row.setdefault(document, row)
        if references is not None:
            references_of.setdefault(document, Counter())[references[row]] += 1
    rows = []
    for name, summary in pseudo_summaries.items():
        for document in first_row:
            reference = references_of[document].most_common(1)[0][0] if references is not None else None
            rows.append((name, document, summary, reference))
    return rows


def document_ids(sources: Sequence[str]) -> list[int]:
    """Each row's document number: equal sources, equal number (first appearance order)."""
    numbers: dict[str, int] = {}
    return [numbers.setdefault(s, len(numbers)) for s in sources]


def empty_summary_check(
    scorer: Callable[[list[str], list[str], list[str] | None], list[float]],
    sources: Sequence[str],
    predictions: Sequence[str],
    references: Sequence[str] | None = None,
    systems: Sequence[Hashable] | None = None,
    pseudo_summaries: Mapping[str, str] = PSEUDO_SUMMARIES,
) -> dict[str, dict[str, Any]]:
    """Score an empty and a content-free summary for every distinct source as
    pseudo-systems beside the real summaries (one ``scorer`` call over real and pseudo
    rows) and rank them (:func:`measures.rank_pseudo_systems`: rank among the real
    systems by mean score when ``systems`` is given, and the per-document win rate).

    ``scorer(predictions, sources, references_or_None) -> scores`` (higher = more
    consistent), e.g. ``lambda p, s, r: score_chi(p, s, r)["chi_scores"]``."""
    pseudo = pseudo_rows(sources, references, pseudo_summaries)
    all_predictions = list(predictions) + [summary for _, _, summary, _ in pseudo]
    documents = document_ids(sources)
    first_source = {d: s for d, s in zip(documents, sources, strict=True)}
    all_sources = list(sources) + [first_source[document] for _, document, _, _ in pseudo]
    all_references = None if references is None else list(references) + [r for _, _, _, r in pseudo]
    scores = list(scorer(all_predictions, all_sources, all_references))
    return rank_pseudo_scores(scores[: len(predictions)], scores[len(predictions) :], pseudo, documents, systems)


def rank_pseudo_scores(
    real_scores: Sequence[float],
    pseudo_scores: Sequence[float],
    pseudo: Sequence[tuple[str, int, str, str | None]],
    documents: Sequence[int],
    systems: Sequence[Hashable] | None,
) -> dict[str, dict[str, Any]]:
    """:func:`measures.rank_pseudo_systems` on scores laid out as :func:`pseudo_rows`."""
    per_pseudo: dict[str, dict[int, float]] = {}
    for (name, document, _, _), value in zip(pseudo, pseudo_scores, strict=True):
        per_pseudo.setdefault(name, {})[document] = value
    return rank_pseudo_systems(real_scores, systems, documents, per_pseudo)
