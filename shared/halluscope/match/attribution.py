"""Attribution: is a supported unit found *where the rest of its sentence is*?

Unit matching asks whether a summary unit occurs anywhere in the source. Most
hallucinations it misses recombine true facts: every unit of "Bueno played for
Derby" is in the source, but "Derby" is in a sentence about another player. On
FactCC, whose inconsistent claims swap an entity or a number for another one of
the same article, unit support alone scores 60 balanced accuracy.

``attribution=True`` (our default under ``formula="support"``; the papers have no
such step) weights each supported entity and quantity ``u`` of a summary sentence
``s`` by how well the source sentences that hold ``u`` also hold the rest of ``s``:

    C(u)      = content words of s, minus u's own words
    ov(C, t)  = sum of idf(w) over the words w of C in source sentence t,
                idf(w) = ln(1 + N / df(w)) over the N source sentences
    a(u)      = max over t holding u of ov(C, t)  /  max over all t of ov(C, t)
    credit(u) = FLOOR + (1 - FLOOR) * a(u),  FLOOR = 0.5

(In a source of more than ``grounding.CANDIDATE_DF`` sentences, "all t" are those
``TextIndex.sharing`` proposes, so that the cost stays linear: docs/scaling.md#long-texts.)

``a(u)`` is 1 when the best-aligned source sentence holds the unit, and 1 when the
rest of the sentence shares no content word with the source at all (nothing to
attribute against). A source sentence holds ``u`` when the unit's match evidence
starts in it, or when it contains all the content words of the unit's mention, so a
unit mentioned several times is judged by its best mention. Words are compared in
the forms :mod:`halluscope.text.index` indexes (lower case and lemma, a plural
"s" dropped). An unsupported unit has credit 0; the dimension's score is the mean
credit (:func:`halluscope.indices.support_share`).

Relation triples are not weighted (``Dimension.attributed`` is off for RHI,
:mod:`halluscope.rhi.dimension`): a triple states
its own combination (subject, verb and object), and its grounding already asks for
them in one source sentence; weighting it as well would only penalise faithful
sentence fusion ("Police arrested the suspect who had robbed a bank" from two source
sentences), and on the validation sets it scored no better.

FLOOR keeps a misplaced unit worth more than a missing one; how it and the choice above
were made: docs/benchmarks.md#attribution.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..text.index import TextIndex, idf_weight, is_content, token_forms
from ..units import Match
from .copies import sentence_copied

ATTRIBUTION_FLOOR = 0.5


def unit_words(unit, summary_doc) -> frozenset[str]:
    """The words a source sentence must contain to hold ``unit``: the content words
    of its mention (lower case and lemma)."""
    start, end = unit.span
    span = summary_doc.char_span(start, end, alignment_mode="expand")
    words: set = set()
    for token in span if span is not None else ():
        if is_content(token):
            words |= token_forms(token)
    return frozenset(words)


def mention_words(unit, summary_doc) -> frozenset[str]:
    """The words a source sentence must contain to hold ``unit`` when its mention has no
    content word ("first", "two"): every word of the mention but punctuation (lower case
    and lemma); the content words (:func:`unit_words`) otherwise."""
    words = unit_words(unit, summary_doc)
    if words:
        return words
    start, end = unit.span
    span = summary_doc.char_span(start, end, alignment_mode="expand")
    tokens = span if span is not None else ()
    return frozenset(form for token in tokens if not (token.is_punct or token.is_space) for form in token_forms(token))


def _overlap(context: frozenset[str], sentence_content: frozenset[str], idf) -> float:
    """ov(C, t): the idf of the context's words the sentence holds
    (:func:`~halluscope.text.index.idf_weight`, exactly rounded)."""
    return idf_weight(context & sentence_content, idf)


def attribution(unit, evidence: Match, summary: TextIndex, source: TextIndex) -> float:
    """a(u) of the module docstring, in [0, 1], from the text indexes of the summary
    and of its source."""
    at = summary.sentence_at(unit.span[0])
    if at is None or not source.sentences:
        return 1.0
    if sentence_copied(summary, at, source):
        # the passage holds u and the whole rest of s: the best of both maxima
        return 1.0
    words = unit_words(unit, summary.doc)
    context = summary.sentences[at].content - words
    sentences = source.sentences
    # the sentences sharing content with the context (in a long text, those only words
    # most of its sentences hold would propose are left out: TextIndex.sharing); the
    # others score 0
    proposed = source.sharing(context)
    located = {source.sentence_at(e.span[0]) for e in evidence.evidence if hasattr(e, "span")}
    holding = {k for k in located if k is not None}  # evidence outside every sentence left out
    held_by = mention_words(unit, summary.doc)
    if held_by:
        holding.update(k for k in proposed if held_by <= sentences[k].words)
    scores = {k: _overlap(context, sentences[k].content, source.idf) for k in {*proposed, *holding}}
    best = max(scores.values(), default=0.0)
    if best <= 0:
        return 1.0
    return max((scores[k] for k in holding), default=0.0) / best


def attributions(
    units: Sequence, evidence: Sequence[Match | None], summary: TextIndex, source: TextIndex
) -> list[float | None]:
    """a(u) of each unit with evidence (a supported unit), None for the others."""
    return [
        None if match is None else attribution(unit, match, summary, source)
        for unit, match in zip(units, evidence, strict=True)
    ]


def credit(attributed: float | None, floor: float = ATTRIBUTION_FLOOR) -> float:
    """credit(u) = FLOOR + (1 - FLOOR) * a(u); 0 for an unsupported unit (None)."""
    return 0.0 if attributed is None else floor + (1 - floor) * attributed
