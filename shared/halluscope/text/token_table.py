"""The columns of a parsed ``Doc`` that indexing reads for every token, read at once.

Each ``Token`` spaCy hands out is a new Python object, and ``Doc.sents`` makes one for
every token it passes; reading a text's words, parts of speech and dependency subtrees
through them made building a text index (:func:`halluscope.text.index.build_text_index`)
a quarter of chi's time after parsing. :class:`TokenTable` reads the same attributes
with one ``Doc.to_array`` call, and keeps each dependency subtree's words once
(docs/scaling.md, "Where the time goes"). Every value equals what the ``Token`` API gives;
``tests/test_token_table.py`` compares them on parsed text.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence

import numpy

#: where :func:`doc_text` keeps a Doc's text in its ``user_data``
_TEXT_KEY = ("halluscope", "text")


def doc_text(doc) -> str:
    """``doc.text``, joined once per ``Doc``: spaCy's property joins every token's text
    anew on each read (a ``Token`` object per token), and the extractors, the text index
    and the word support each read it (2,000 reads over 400 SummEval rows). Kept in the
    Doc's ``user_data``; a Doc copied with its user data (``Doc.copy``) keeps the same
    text, and a Doc whose token count no longer fits the kept text is joined anew."""
    kept = doc.user_data.get(_TEXT_KEY)
    if kept is not None and kept[0] == len(doc):
        return kept[1]
    text = doc.text
    doc.user_data[_TEXT_KEY] = (len(doc), text)
    return text


def has_no_upper(text: str) -> bool:
    """Whether ``text`` holds no upper-case character (``str.islower`` answers at C speed
    for a text that has a cased character; the loop only runs for one that has none or a
    title-case one)."""
    return text.islower() or not any(c.isupper() for c in text)


class TokenTable:
    """Per-token columns of ``doc``: ``lower``, ``lemma``, ``pos``, ``dep`` (strings as the
    ``Token`` attributes ``lower_``, ``lemma_``, ``pos_``, ``dep_``), ``head`` (index),
    ``is_stop``/``is_punct``/``is_space``, character offsets, and ``children`` (indices,
    in text order, as ``Token.children``)."""

    def __init__(self, doc) -> None:
        from spacy.attrs import DEP, HEAD, IDX, IS_PUNCT, IS_SPACE, IS_STOP, LEMMA, LENGTH, LOWER, POS, SENT_START

        self.doc = doc
        n = len(doc)
        strings = doc.vocab.strings
        if n:
            columns = doc.to_array([LOWER, LEMMA, POS, DEP, HEAD, SENT_START, IS_STOP, IS_PUNCT, IS_SPACE, IDX, LENGTH])
            # HEAD is the offset to the head, stored unsigned (2**64 - 1 is -1): read as signed
            heads = (columns[:, 4].astype("int64") + numpy.arange(n)).tolist()
            rows = columns.T.tolist()
        else:
            heads, rows = [], [[] for _ in range(11)]
        lower, lemma, pos, dep, _, sent_start, is_stop, is_punct, is_space, idx, length = rows
        # each distinct string key looked up once; the columns then mapped in C (map over a
        # dict's __getitem__), not by a Python call per token
        names: dict[int, str] = {key: strings[key] if key else "" for key in {*lower, *lemma, *pos, *dep}}
        self.lower: list[str] = list(map(names.__getitem__, lower))
        self.lemma: list[str] = list(map(names.__getitem__, lemma))
        self.pos: list[str] = list(map(names.__getitem__, pos))
        self.dep: list[str] = list(map(names.__getitem__, dep))
        self.head: list[int] = heads
        self.sent_start: list[int] = sent_start  # 1 starts a sentence (-1 and 0 do not)
        self.is_stop: list[bool] = list(map(bool, is_stop))
        self.is_punct: list[bool] = list(map(bool, is_punct))
        self.is_space: list[bool] = list(map(bool, is_space))
        self.start_char: list[int] = idx
        self.end_char: list[int] = list(map(operator.add, idx, length))
        self.children: list[list[int]] = [[] for _ in range(n)]
        for i, h in enumerate(self.head):
            if h != i:
                self.children[h].append(i)
        self._subtree: dict[int, frozenset[str]] = {}
        self._left: list[int] | None = None
        self._right: list[int] = []
        self._size: list[int] = []

    def __len__(self) -> int:
        return len(self.lower)

    def sentence_bounds(self) -> Iterable[tuple[int, int]]:
        """(start, end) token indices of ``doc.sents``, without making its spans: a sentence
        starts at token 0 and at every token whose ``SENT_START`` is 1 (a ``sents`` user
        hook, when the doc has one, decides instead)."""
        if "sents" in self.doc.user_hooks or not self.doc.has_annotation("SENT_START"):
            for sent in self.doc.sents:  # spaCy's hook, or spaCy's error for a doc without boundaries
                yield sent.start, sent.end
            return
        n, start = len(self), 0
        for i in range(1, n):
            if self.sent_start[i] == 1:
                yield start, i
                start = i
        if start != n:
            yield start, n

    def _edges(self) -> list[int]:
        """Each token's subtree bounds and size, by walking up from every token once; the
        left bounds returned."""
        n = len(self)
        left, right, size = list(range(n)), list(range(n)), [1] * n
        for i in range(n):
            node, steps = i, 0
            while self.head[node] != node and steps < n:  # steps: a head cycle ends the walk
                node, steps = self.head[node], steps + 1
                size[node] += 1
                if i < left[node]:
                    left[node] = i
                elif i > right[node]:
                    right[node] = i
        self._left, self._right, self._size = left, right, size
        return left

    def subtree_words(self, i: int, forms: Sequence[tuple[str, ...]]) -> frozenset[str]:
        """The union of ``forms[t]`` over the tokens ``t`` of ``Token.subtree`` of token ``i``,
        kept for the next call: ``forms`` must be the same list on every call of one table.
        A subtree of a projective parse (every spaCy English parse) is the run of tokens
        between its edges; any other is walked."""
        found = self._subtree.get(i)
        if found is not None:
            return found
        left_edges = self._left if self._left is not None else self._edges()
        left, right = left_edges[i], self._right[i]
        if right - left + 1 == self._size[i]:
            found = frozenset().union(*forms[left : right + 1])
        else:
            members, stack = set(), [i]
            while stack:
                node = stack.pop()
                if node not in members:
                    members.add(node)
                    stack.extend(self.children[node])
            found = frozenset().union(*(forms[t] for t in members))
        self._subtree[i] = found
        return found
