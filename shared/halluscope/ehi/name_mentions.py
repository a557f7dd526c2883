"""Where a name's words are written in a pool's text: whole-word patterns, mentions beside
another name, and the words a longer query adds around a shared mention
(docs/papers.md#ehi)."""

from __future__ import annotations

import functools
import re
from bisect import bisect_left, bisect_right
from typing import NamedTuple

from ..text.index import TextIndex
from ..text.names import (
    HONORIFICS,
    QUOTE_MAP,
    canonical_entity,
)

#: words that stand before a name without being one ("Mr Corbyn", "President Obama"):
#: not "a different name" in the slot of a longer query's extra words. Casefolded.
TITLE_WORDS: frozenset[str] = HONORIFICS | frozenset(
    {
        "president",
        "senator",
        "sen",
        "rep",
        "congressman",
        "congresswoman",
        "governor",
        "gov",
        "mayor",
        "minister",
        "premier",
        "chancellor",
        "secretary",
        "chairman",
        "chairwoman",
        "chief",
        "judge",
        "justice",
        "officer",
        "coach",
        "manager",
        "boss",
        "captain",
        "capt",
        "general",
        "gen",
        "colonel",
        "col",
        "sergeant",
        "sgt",
        "lieutenant",
        "lt",
        "major",
        "admiral",
        "commander",
        "inspector",
        "detective",
        "det",
        "constable",
        "pc",
        "supt",
        "pope",
        "king",
        "queen",
        "prince",
        "princess",
        "lord",
        "lady",
        "duke",
        "duchess",
        "father",
        "fr",
        "sister",
        "brother",
        "saint",
        "st",
        "rabbi",
        "imam",
        "bishop",
        "archbishop",
        "cardinal",
        "sheikh",
        "ceo",
        "professor",
    }
)


def _capitalised(word: str) -> bool:
    """A name-like word: some letter is upper case ("Obama", "al-Douri", "McLean")."""
    return any(c.isupper() for c in word)


@functools.lru_cache(maxsize=4096)
def _words_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """Whole-word, whitespace-tolerant pattern of lower-cased words."""
    return re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)")


def _lowered_words(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """Casefolded name tokens as :class:`TextIndex` lowers text (straight quotes, lower())."""
    return tuple(t.translate(QUOTE_MAP).lower() for t in tokens)


def _other_name(token, own: frozenset[str]) -> bool:
    """Whether ``token`` is a proper noun that is none of the query's words ``own``
    (lower-cased) and no title: tagged PROPN, or capitalised and not sentence-initial
    ("Real" in "Real Madrid" for "Atletico Madrid"; not "Mr" or "President")."""
    word = token.lower_.rstrip(".")
    if token.is_punct or token.is_space or token.lower_ in own or word in TITLE_WORDS:
        return False
    return token.pos_ == "PROPN" or (_capitalised(token.text) and not token.is_sent_start)


def _beside_other_name(
    doc, start: int, end: int, sentence, own: frozenset[str], before: bool = True, after: bool = True
) -> bool | None:
    """Whether the characters ``[start, end)`` of ``doc`` stand right after (``before``)
    or right before (``after``) another name (:func:`_other_name`) of their sentence;
    None when they do not align with tokens."""
    span = doc.char_span(start, end, alignment_mode="expand")
    if span is None:
        return None
    if (
        before
        and span.start > 0
        and doc[span.start - 1].idx >= sentence.start
        and _other_name(doc[span.start - 1], own)
    ):
        return True
    if after and span.end < len(doc) and doc[span.end].idx < sentence.end and _other_name(doc[span.end], own):
        return True
    return False


_WORD = re.compile(r"\w+")


class _MentionRanges(NamedTuple):
    """Starts, ends and canonical words of the NER mentions of a pool's ``Doc``."""

    starts: list[int]
    ends: list[int]
    words: list[frozenset[str]]

    @classmethod
    def build(cls, index: TextIndex) -> _MentionRanges:
        ents = list(index.doc.ents)
        return cls(
            [e.start_char for e in ents],
            [e.end_char for e in ents],
            [frozenset(_WORD.findall(canonical_entity(e.text))) for e in ents],
        )


def _entity_ranges(text: TextIndex) -> tuple[list[int], list[int], list[frozenset[str]]]:
    """Starts, ends and canonical words of the NER mentions (every label) of the pool's
    ``Doc``, in text order (mentions do not overlap, so both lists are sorted)."""
    return text.derived(_MentionRanges)


def _blanked(lowered: str, start: int, end: int, holes: list[tuple[int, int]]) -> str:
    """``lowered[start:end]`` with each range of ``holes`` turned into spaces."""
    chars = list(lowered[start:end])
    for a, b in holes:
        for i in range(max(a, start), min(b, end)):
            chars[i - start] = " "
    return "".join(chars)


def _alone_spans(word: str, rest: str, doc, sentence, own: frozenset[str]) -> list[tuple[int, int]]:
    """Where ``rest`` (the sentence's lowered text, other names blanked) writes ``word``
    not beside another name ("Madrid" of "Real Madrid" is beside one), relative to the
    sentence's start."""
    return [
        m.span()
        for m in _words_pattern((word,)).finditer(rest)
        if _beside_other_name(doc, sentence.start + m.start(), sentence.start + m.end(), sentence, own) is False
    ]


def _extra_words_stated(
    prefix: tuple[str, ...], shared: tuple[str, ...], suffix: tuple[str, ...], text: TextIndex
) -> str | None:
    """The longer-query test of ``partial_name`` (module docstring): a mention of
    ``shared`` in the pool text whose sentence writes every word of ``prefix`` and
    ``suffix`` outside that mention, outside every named entity holding a word that
    is not the query's, and not beside another name, with no other name in their
    place beside the mention. Returns the detail's tail, or None. Needs the index's
    ``Doc``. Each sentence is read once, however many mentions of ``shared`` it holds."""
    doc = text.doc
    if doc is None:
        return None
    prefix, shared, suffix = _lowered_words(prefix), _lowered_words(shared), _lowered_words(suffix)
    extra = prefix + suffix
    own = frozenset(_WORD.findall(" ".join(prefix + shared + suffix)))
    lowered = text.lowered
    starts, ends, words_of = _entity_ranges(text)
    said: dict[int, list[list[tuple[int, int]]]] = {}  # sentence -> per extra word, where it is said alone
    for found in _words_pattern(shared).finditer(lowered):
        position = text.sentence_at(found.start())
        if position is None:
            continue
        sentence = text.sentences[position]
        spans = said.get(position)
        if spans is None:
            # another name's words are said of it ("Jeremy" of "Jeremy Hunt"), unless that
            # name is made of the query's own words ("Barack" for "Barack Obama")
            first, last = bisect_right(ends, sentence.start), bisect_left(starts, sentence.end)
            holes = [(starts[k], ends[k]) for k in range(first, last) if not words_of[k] <= own]
            rest = _blanked(lowered, sentence.start, sentence.end, holes)
            spans = said[position] = [_alone_spans(w, rest, doc, sentence, own) for w in extra]
        # each extra word said somewhere outside this mention of the shared words
        a, b = found.start() - sentence.start, found.end() - sentence.start
        if not all(any(end <= a or start >= b for start, end in where) for where in spans):
            continue
        # no other name in the extra words' place ("Real Madrid" for "Atletico Madrid")
        if (
            _beside_other_name(doc, found.start(), found.end(), sentence, own, before=bool(prefix), after=bool(suffix))
            is not False
        ):
            continue
        quoted = sentence.text.strip()
        quoted = quoted if len(quoted) <= 100 else quoted[:97] + "..."
        return f"'{' '.join(extra)}' in its source sentence '{quoted}'"
    return None
