"""Copied passages: the place in the source where a summary sentence is written word for word.

A sentence splitter cuts a text without sentence punctuation where its parse suggests,
and it cuts a copy of part of such a text elsewhere than the text itself: the copy's first
"sentence" may be the end of one source sentence and the start of the next. Attribution
(:mod:`halluscope.match.attribution`) compares a summary sentence with single source
sentences, so such a sentence, whatever unit it holds, was found to be held "better"
by the neighbour of the unit's sentence (docs/papers.md#attribution).

:func:`copied_passage` says whether the source writes a summary sentence as one run of
its words (lower case, each a run of word characters, only non-word characters
between them: :meth:`~halluscope.text.index.TextIndex.written_run`'s reading).
Such a run is a passage of the source that holds every unit of the sentence with the
rest of the sentence around it, whatever the splitter made of either text.

Cost: the source's word n-grams (n up to :data:`ANCHOR`) are listed once per source
index; a sentence is looked for at the places of its rarest n-gram only, at most
:data:`~halluscope.text.index.CANDIDATE_DF` of them, each compared in time linear
in the sentence, so a summary costs time linear in its length (docs/scaling.md#long-texts).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.index import CANDIDATE_DF, TextIndex
from ..units import Match, TextEvidence

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


class _CopiedSentences(dict[tuple[str, ...], tuple[int, ...]]):
    """A sentence's words -> where the source writes them (:func:`copied_places`)."""

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
    return bool(copied_places(words, source))


def copied_places(words: Sequence[str], source: TextIndex) -> tuple[int, ...]:
    """The indexes of the source's words (:meth:`~halluscope.text.index.TextIndex.word_spans`)
    where ``source`` writes ``words`` one after another, ascending; none for no words and
    when the rarest n-gram starts at more than ``CANDIDATE_DF`` places."""
    if not words:
        return ()
    words = tuple(words)
    known = source.derived(_CopiedSentences)
    if words not in known:
        known[words] = _find(words, source)
    return known[words]


def copied_span(span: tuple[int, int], summary: TextIndex, source: TextIndex) -> tuple[int, int] | None:
    """The source's character span of the words of summary span ``span`` (a unit's) where
    the source writes the unit's whole summary sentence word for word
    (:func:`sentence_copied`), at the first such place whose passage cuts no named entity of
    the source's parse (:meth:`~halluscope.text.index.TextIndex.entity_at`) that
    holds one of those words: "spend $3" of a copy that ends inside "spend $3 billion"
    has no such place. None where there is no such place (docs/papers.md#attribution)."""
    found = copied_place(span, summary, source)
    return None if found is None else found[0]


def copied_place(
    span: tuple[int, int], summary: TextIndex, source: TextIndex
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """:func:`copied_span` and the character span of the whole passage there (the words of
    the unit's sentence), or None."""
    at = summary.sentence_at(span[0])
    if at is None:
        return None
    sentence = summary.sentences[at]
    found = list(_WORD.finditer(summary.lowered, sentence.start, sentence.end))
    inside = [k for k, word in enumerate(found) if word.start() < span[1] and word.end() > span[0]]
    if not inside:
        return None
    first, last = inside[0], inside[-1]
    spans = source.word_spans()
    for place in copied_places(tuple(word.group() for word in found), source):
        passage = (spans[place][0], spans[place + len(found) - 1][1])
        held = (source.entity_at(spans[place + k][0]) for k in (first, last))
        if all(entity is None or passage[0] <= entity[0] and entity[1] <= passage[1] for entity in held):
            return (spans[place + first][0], spans[place + last][1]), passage
    return None


def copied_match(span: tuple[int, int], summary: TextIndex, source: TextIndex) -> Match | None:
    """A unit of summary span ``span`` supported by the passage its sentence copies
    (:func:`copied_span`): mode ``text``, the source's words at that place as evidence;
    None where the sentence is not copied or its passage cuts an entity."""
    found = copied_span(span, summary, source)
    return None if found is None else passage_match(found, source)


def passage_match(found: tuple[int, int], source: TextIndex) -> Match:
    """The match of a unit whose words the source writes at ``found`` in a passage the
    unit's sentence copies: mode ``text``, those words as evidence."""
    return Match(
        "text",
        (TextEvidence(source.written[found[0] : found[1]], found),),
        1.0,
        "written word for word in the passage the sentence copies",
    )


def _find(words: tuple[str, ...], source: TextIndex) -> tuple[int, ...]:
    n = min(ANCHOR, len(words))
    places = _ngram_places(source, n)
    offsets = range(len(words) - n + 1)
    anchor = min(offsets, key=lambda i: len(places.get(words[i : i + n], ())))
    starts = places.get(words[anchor : anchor + n], [])
    if len(starts) > CANDIDATE_DF:
        return ()
    text = _source_words(source)
    return tuple(
        start - anchor
        for start in starts
        if start - anchor >= 0 and tuple(text[start - anchor : start - anchor + len(words)]) == words
    )
