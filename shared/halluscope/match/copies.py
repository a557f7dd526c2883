"""Copied passages: the place in the source where a summary sentence is written word for word.

A sentence splitter cuts a text without sentence punctuation where its parse suggests,
and it cuts a copy of part of such a text elsewhere than the text itself: the copy's first
"sentence" may be the end of one source sentence and the start of the next. Attribution
(:mod:`halluscope.match.attribution`) compares a summary sentence with single source
sentences, so such a sentence, whatever unit it holds, was found to be held "better"
by the neighbour of the unit's sentence (docs/papers.md#attribution).

:func:`copied_passage` says whether the source writes a summary sentence as one run of
its words (lower case, each a run of word characters, only non-word characters
between them: :meth:`~halluscope.match.grounding.TextIndex.written_run`'s reading).
Such a run is a passage of the source that holds every unit of the sentence with the
rest of the sentence around it, whatever the splitter made of either text.

Cost: the source's word n-grams (n up to :data:`ANCHOR`) are listed once per source
index; a sentence is looked for at the places of its rarest n-gram only, at most
:data:`~halluscope.match.grounding.CANDIDATE_DF` of them, each compared in time linear
in the sentence, so a summary costs time linear in its length (docs/scaling.md#long-texts).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .grounding import CANDIDATE_DF, TextIndex

#: the n of the n-grams a sentence is anchored by (fewer for a shorter sentence)
ANCHOR = 3

_WORD = re.compile(r"\w+")


def sentence_words(index: TextIndex, sentence: int) -> tuple[str, ...]:
    """The lower-cased words (runs of word characters) of one sentence of ``index``."""
    found = index.sentences[sentence]
    return tuple(_WORD.findall(index.lowered[found.start : found.end]))


class _SourceWordList(list[str]):
    """The source's lower-cased words (runs of word characters), in text order."""

    __slots__ = ()

    @classmethod
    def build(cls, index: TextIndex) -> _SourceWordList:
        return cls(_WORD.findall(index.lowered))


class _NgramPlaces(dict[int, dict[tuple[str, ...], list[int]]]):
    """n -> the source's :func:`_ngram_places` of that n, each listed on first use."""

    __slots__ = ()

    @classmethod
    def build(cls, index: TextIndex) -> _NgramPlaces:
        return cls()


class _CopiedSentences(dict[tuple[str, ...], bool]):
    """A sentence's words -> whether the source writes them (:func:`copied_passage`)."""

    __slots__ = ()

    @classmethod
    def build(cls, index: TextIndex) -> _CopiedSentences:
        return cls()


def _source_words(source: TextIndex) -> list[str]:
    return source.derived(_SourceWordList)


def _ngram_places(source: TextIndex, n: int) -> dict[tuple[str, ...], list[int]]:
    """n-gram of the source's words -> the word indexes where it starts, ascending."""

    def build() -> dict[tuple[str, ...], list[int]]:
        words = _source_words(source)
        places: dict[tuple[str, ...], list[int]] = {}
        for k in range(len(words) - n + 1):
            places.setdefault(tuple(words[k : k + n]), []).append(k)
        return places

    by_n = source.derived(_NgramPlaces)
    if n not in by_n:
        by_n[n] = build()
    return by_n[n]


def sentence_copied(summary: TextIndex, sentence: int, source: TextIndex) -> bool:
    """Whether the source writes summary sentence ``sentence`` word for word
    (:func:`copied_passage` of its words): that passage, wherever the splitter cut
    either text, is the source's account of the sentence, holding each of its units in
    its place and the rest of the sentence around it."""
    return copied_passage(sentence_words(summary, sentence), source)


def copied_passage(words: Sequence[str], source: TextIndex) -> bool:
    """Whether ``source`` writes ``words`` one after another (see the module docstring);
    False for no words, and when the sentence's rarest n-gram starts at more than
    ``CANDIDATE_DF`` places (nothing is searched beyond them)."""
    if not words:
        return False
    words = tuple(words)
    known = source.derived(_CopiedSentences)
    if words not in known:
        known[words] = _find(words, source)
    return known[words]


def _find(words: tuple[str, ...], source: TextIndex) -> bool:
    n = min(ANCHOR, len(words))
    places = _ngram_places(source, n)
    offsets = range(len(words) - n + 1)
    anchor = min(offsets, key=lambda i: len(places.get(words[i : i + n], ())))
    starts = places.get(words[anchor : anchor + n], [])
    if len(starts) > CANDIDATE_DF:
        return False
    text = _source_words(source)
    for start in starts:
        first = start - anchor
        if first >= 0 and tuple(text[first : first + len(words)]) == words:
            return True
    return False
