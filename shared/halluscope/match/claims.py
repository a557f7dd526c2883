"""Which source sentence states a summary sentence's claim: alignment by shared content
words (idf-weighted), and whether two predicates share an argument
(docs/lexical.md#sentence-contradictions)."""

from __future__ import annotations

import heapq

from spacy.lang.en.stop_words import STOP_WORDS

from ..text.index import IndexedSentence, TextIndex
from ..units import TextEvidence

#: content words a summary sentence and its aligned source sentence must share
MIN_SHARED = 2


def aligned_sentence(sentence: IndexedSentence, source: TextIndex, ignore: frozenset[str] = frozenset()) -> int | None:
    """The source sentence holding the most of ``sentence``'s content (idf-weighted; ties:
    the first), None when none shares :data:`MIN_SHARED` content words. ``ignore``:
    content words (as indexed) that do not count, such as the words of a name whose
    place is in question (:mod:`halluscope.ehi.swaps`). Only the sentences
    :meth:`TextIndex.sharing` proposes are read (in a long text, a word most sentences
    hold proposes none)."""
    ranked = aligned_sentences(sentence, source, 1, ignore)
    return ranked[0] if ranked else None


def aligned_sentences(
    sentence: IndexedSentence, source: TextIndex, limit: int, ignore: frozenset[str] = frozenset()
) -> list[int]:
    """The ``limit`` source sentences holding the most of ``sentence``'s content, best
    first (:func:`aligned_sentence` is the first)."""
    content = sentence.content - ignore if ignore else sentence.content
    scored = []
    for k in source.sharing(content):
        shared = content & source.sentences[k].content
        if len(shared) >= MIN_SHARED:
            weight = source.weight(shared)
            if weight > 0.0:
                scored.append((-weight, k))
    # the highest weight first; ties: the first in text order
    return [k for _, k in heapq.nsmallest(limit, scored)]


def _evidence(token) -> tuple[TextEvidence, ...]:
    return (TextEvidence(token.text, (token.idx, token.idx + len(token.text))),)


#: words too common to tie two predicates to one claim
_FILLER = frozenset({"the", "a", "an", "of", "to", "in", "on", "at", "and", "or", "for", "by", "with", "'s"})


def _arguments(predicate) -> frozenset[str]:
    """The words of a predicate's subject and object sides, fillers left out, and the
    content words of its prepositional arguments ("in fine form", "for more than 80
    years"; prepositions and other stop words left out, a shared "in" ties nothing)."""
    oblique = {w for w in predicate.oblique_words if w not in STOP_WORDS and any(c.isalnum() for c in w)}
    return ((predicate.subject_words | predicate.object_words) - _FILLER) | oblique


def _same_claim(mine, theirs) -> bool:
    """Whether two predicates state one claim: they share a subject or object word, or
    a content word of a prepositional argument ("Ozil was not in fine form" and "The
    German star was in fine form"); a predicate without arguments on either side shares
    none, and so does a word that is no predicate (None)."""
    return mine is not None and theirs is not None and bool(_arguments(mine) & _arguments(theirs))
