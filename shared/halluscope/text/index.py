"""The text index of a parsed text: its sentences, their words, lemmas and stems, the
predicates with the words on their subject and object sides, and postings from words to
sentences (:class:`TextIndex`, built by :func:`build_text_index`). Grounding, attribution,
copies, sentence contradictions and word support read a pool through it; it knows no index.

The papers match units against units, so a unit is "hallucinated" whenever the
extractor missed its counterpart in the source: spaCy sm tags "Alaska Airlines" in
a cased article but "alaska" in a lower-cased summary, or parses "Apple's purchase
of Beats" with no subject-verb-object triple at all. On the SummaC and FRANK
validation sets most "unsupported" entities of *consistent* summaries were of this
kind (error analysis in docs/benchmarks.md). ``grounding="text"`` (our default;
``"units"`` is the papers' behaviour) adds one last rule to the matchers, each in its index's
package: ``ehi/grounding.py``, ``qhi/grounding.py`` and ``rhi/grounding.py``.

Evidence is a :class:`~halluscope.units.TextEvidence` with the span found (the
entity's words, or the whole sentence). The rules read a pool through its
:class:`TextIndex`, which the pipeline gets from its resources' :class:`~halluscope.text.index_cache.TextIndexCache`
(each ``Doc`` indexed once while cached) and hands to the matchers in the
:class:`~halluscope.match.MatchJob` (docs/architecture.md#resources).
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from spacy.lang.en.stop_words import STOP_WORDS

from .clause_words import PTB_BRACKETS
from .names import QUOTE_MAP
from .predicates import PredicateArguments
from .syntax import effective_negation, role_arguments, verb_lemma
from .token_table import TokenTable, doc_text

GROUNDINGS = ("text", "units")


#: what a text index holds beside its own fields: a type with a ``build(index)`` classmethod
#: (:meth:`TextIndex.derived`)
Derived = TypeVar("Derived", bound="BuiltFromIndex")


class BuiltFromIndex(Protocol):
    """A table derived from one text index, declared by the module that reads it: the
    type is its key in :meth:`TextIndex.derived` (docs/architecture.md#caches-and-their-owners)."""

    @classmethod
    def build(cls: type[Derived], index: TextIndex) -> Derived: ...


@dataclass(frozen=True)
class _Predicate:
    """A verb, copula or preposition of a pool sentence with the words on its
    subject side (nsubj, agent) and on its object side (dobj, obj, attr, nsubjpass,
    pobj), and in its other arguments (prepositional phrases other than a passive's
    "by", datives: "to the hospital"); ``token`` is its index in the ``Doc``."""

    token: int
    lemma: str
    negated: bool
    subject_words: frozenset[str]
    object_words: frozenset[str]
    oblique_words: frozenset[str] = frozenset()  # prepositional (not "by") and dative arguments
    # the parties of a transfer (docs/lexical.md#transfers): the words of the "to"
    # arguments (datives included) and of the "from" arguments
    to_words: frozenset[str] = frozenset()
    from_words: frozenset[str] = frozenset()
    # a verb's head phrases on each side: the head noun of each subject (a passive's
    # agent included) or object with its compound and flat words ("world cup winners",
    # not "winners of the world cup"): who it names, not what its phrase mentions
    subject_heads: frozenset[str] = frozenset()
    object_heads: frozenset[str] = frozenset()


@dataclass(frozen=True)
class IndexedSentence:
    start: int
    end: int
    text: str
    words: frozenset[str]  # lower-cased texts and lemmas, word_stem()med
    content: frozenset[str]  # the same, of tokens neither stop words nor punctuation
    predicates: tuple[_Predicate, ...]
    # nouns with a prepositional argument ("its acquisition of X"), the words of their
    # prepositional phrases on the object side (:func:`~halluscope.rhi.transfers._nominalisation`)
    nominals: tuple[_Predicate, ...] = ()


@dataclass
class TextIndex:
    """One pool text, prepared for grounding: its lower-cased text (same length as
    the original, so offsets agree) and its sentences' words and predicates. It keeps
    its ``Doc`` for what needs tokens (:attr:`tokens`, :meth:`arguments_of`, the words
    of :mod:`halluscope.words.matching`)."""

    lowered: str
    sentences: list[IndexedSentence]
    #: the spaCy ``Doc`` (Any: spaCy's token API is read untyped here); None for an index of no parse
    doc: Any = field(default=None, repr=False)
    #: the text as written (spaCy builds ``Doc.text`` token by token on every access)
    written: str = field(default="", repr=False)
    _idf: dict[str, float] | None = None
    _starts: list[int] | None = None
    _arguments: dict[int, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)
    _reader: PredicateArguments | None = None
    _tokens: frozenset[str] | None = None
    _written_words: tuple[str, list[tuple[int, int]]] | None = None
    _content_postings: dict[str, tuple[int, ...]] | None = None
    _word_postings: dict[str, tuple[int, ...]] | None = None
    _entity_spans: list[tuple[int, int]] | None = None
    #: what other modules derive from this text (:meth:`derived`), by the type that holds it
    _derived: dict[type, Any] = field(default_factory=dict, repr=False)

    @property
    def text(self) -> str:
        """The indexed text as written."""
        return self.written

    def derived(self, kind: type[Derived]) -> Derived:
        """``kind.build(self)`` once per index: a table another module derives from this
        text (:func:`halluscope.words.matching.source_words`), keyed by the type that holds
        it, which that module declares; it lives as long as its index
        (docs/architecture.md#caches-and-their-owners)."""
        if kind not in self._derived:
            self._derived[kind] = kind.build(self)
        return self._derived[kind]

    def arguments_of(self, predicate: _Predicate) -> tuple[frozenset[str], frozenset[str]]:
        """The words (:func:`word_stem`med) of the predicate's (agents, patients) as the
        relation extractor reads them (:class:`~halluscope.text.predicates.PredicateArguments`);
        each predicate's read on first use."""
        found = self._arguments.get(predicate.token)
        if found is None:
            if self._reader is None:
                self._reader = PredicateArguments(self.doc)
            keys = self._reader.of(predicate.token)

            def words(keys: list[str]) -> frozenset[str]:
                return frozenset(word_stem(w) for key in keys for w in key.split())

            found = self._arguments[predicate.token] = (
                (frozenset(), frozenset()) if keys is None else (words(keys[0]), words(keys[1]))
            )
        return found

    @property
    def tokens(self) -> frozenset[str]:
        """The lower-cased text of every token (as written: no lemma, no stemming)."""
        if self._tokens is None:
            self._tokens = frozenset(token.lower_ for token in self.doc)
        return self._tokens

    @property
    def idf(self) -> dict[str, float]:
        """Content word -> ln(1 + N/df) over the N sentences (df: sentences holding it)."""
        if self._idf is None:
            df: Counter = Counter()
            for sentence in self.sentences:
                df.update(sentence.content)
            n = len(self.sentences)
            self._idf = {word: math.log(1 + n / count) for word, count in df.items()}
        return self._idf

    def weight(self, words) -> float:
        """:func:`idf_weight` of ``words`` in this text: how much content they carry here
        (sentence alignment and attribution read it)."""
        return idf_weight(words, self.idf)

    def sharing(self, words: frozenset[str]) -> list[int]:
        """The sentences (indexes, in text order) that may share content with ``words``:
        those holding one of its content words that at most :data:`CANDIDATE_DF` sentences
        hold. In a text of up to that many sentences, every sentence sharing a content
        word; in a longer one, a word most of its sentences hold ("said") proposes none,
        so that aligning a sentence costs at most ``len(words) * CANDIDATE_DF`` sentence
        reads, not the whole text (docs/scaling.md#long-texts)."""
        if self._content_postings is None:
            self._content_postings = _postings(s.content for s in self.sentences)
        postings = self._content_postings
        found: set[int] = set()
        for word in words:
            holding = postings.get(word, ())
            if len(holding) <= CANDIDATE_DF:
                found.update(holding)
        return sorted(found)

    def holding_all(self, words: Sequence[str]) -> Sequence[int]:
        """The sentences (indexes, in text order) whose :attr:`IndexedSentence.words` hold
        every one of ``words`` (every sentence when there are none): the sentences of the
        word fewest sentences hold, those that hold the others too."""
        if not words:
            return range(len(self.sentences))
        if self._word_postings is None:
            self._word_postings = _postings(s.words for s in self.sentences)
        postings = self._word_postings
        rarest = min(words, key=lambda w: len(postings.get(w, ())))
        sentences = self.sentences
        return [k for k in postings.get(rarest, ()) if all(w in sentences[k].words for w in words)]

    def _words_written(self) -> tuple[str, list[tuple[int, int]]]:
        """The text's words (runs of word characters, lower case) joined by spaces, with a
        space at each end, and each word's character span; listed once, on first use."""
        if self._written_words is None:
            found = list(_WORD_CHARS.finditer(self.lowered))
            self._written_words = (" " + " ".join(m.group() for m in found) + " ", [m.span() for m in found])
        return self._written_words

    def word_spans(self) -> list[tuple[int, int]]:
        """The character span of each word of the text (a run of word characters), in
        text order: the words :meth:`written_run` and :mod:`halluscope.match.copies` read."""
        return self._words_written()[1]

    def entity_at(self, offset: int) -> tuple[int, int] | None:
        """The character span of the named entity of the parse (spaCy's ``Doc.ents``:
        names, amounts, dates) holding character ``offset``, or None."""
        if self._entity_spans is None:
            self._entity_spans = [(entity.start_char, entity.end_char) for entity in getattr(self.doc, "ents", ())]
        position = bisect.bisect_right(self._entity_spans, (offset, math.inf)) - 1
        if position < 0 or offset >= self._entity_spans[position][1]:
            return None
        return self._entity_spans[position]

    def written_run(self, words: Sequence[str]) -> tuple[int, int] | None:
        """The character span where the text writes ``words`` (lower case, each a run of
        word characters) one after another, only non-word characters between them; the
        first such place, or None. The text's words are listed once, on first use."""
        joined, spans = self._words_written()
        at = joined.find(" " + " ".join(words) + " ") if words else -1
        if at < 0:
            return None
        first = joined.count(" ", 0, at + 1) - 1  # the index of the run's first word
        return spans[first][0], spans[first + len(words) - 1][1]

    def sentence_at(self, offset: int) -> int | None:
        """Index of the sentence holding character ``offset`` (None when outside all)."""
        if self._starts is None:
            self._starts = [s.start for s in self.sentences]
        position = bisect.bisect_right(self._starts, offset) - 1
        if position >= 0 and offset < self.sentences[position].end:
            return position
        return None


def idf_weight(words, idf: dict[str, float]) -> float:
    """The summed ``idf`` of ``words`` (0 for a word it lacks), exactly rounded
    (``math.fsum``): a set yields its words in an order that follows the process's hash
    seed, and a plain float sum's last bit followed that order."""
    return math.fsum(idf.get(w, 0.0) for w in words)


#: a content word held by more sentences of a text than this proposes no aligned
#: sentence (:meth:`TextIndex.sharing`); no validation row's scores or details depend on
#: it (all 6,288 rows of both halves came out the same as with every sentence read)
CANDIDATE_DF = 100


def _postings(word_sets) -> dict[str, tuple[int, ...]]:
    """Word -> the indexes of the sets (sentences) holding it, ascending."""
    postings: dict[str, list[int]] = {}
    for k, words in enumerate(word_sets):
        for word in words:
            postings.setdefault(word, []).append(k)
    return {word: tuple(held) for word, held in postings.items()}


def _lowered(text: str) -> str:
    """``text`` lower-cased with straight quotes, character for character (a character
    whose lower case is longer, such as "İ", is kept), so offsets stay valid."""
    text = text.translate(QUOTE_MAP)
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


@functools.lru_cache(
    maxsize=1 << 14
)  # a pure function of a word, asked of every token of every text (a few MB at most)
def word_stem(word: str) -> str:
    """A plural-insensitive form: a final "s" dropped from words of four letters or
    more not ending in "ss" ("richards" ~ "richard" when spaCy lemmatised one of
    them as a plural noun and the other as a name), with typographic quotes read as
    plain ones ("o’toole" ~ "o'toole", :data:`~halluscope.text.names.QUOTE_MAP`)."""
    if not word.isascii():
        word = word.translate(QUOTE_MAP)
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


_SUBJECT_SIDE = frozenset({"nsubj", "csubj"})


_OBLIQUE = frozenset({"prep", "dative"})


_OBJECT_SIDE = frozenset({"dobj", "obj", "attr", "nsubjpass", "pobj", "oprd"})


def token_forms(token) -> set:
    """A token's lower-cased text and lemma, each :func:`word_stem`med (the forms sentences
    are indexed by)."""
    return {word_stem(token.lower_), word_stem(token.lemma_.lower())}


def is_content(token) -> bool:
    """Neither a stop word, punctuation (PTB brackets included) nor whitespace."""
    return not (token.is_stop or token.is_punct or token.is_space or token.lower_ in PTB_BRACKETS)


def content_flags(table: TokenTable) -> list[bool]:
    """:func:`is_content` of every token of a :class:`~halluscope.text.token_table.TokenTable`."""
    return [
        not (stop or punct or space or lower in PTB_BRACKETS)
        for stop, punct, space, lower in zip(table.is_stop, table.is_punct, table.is_space, table.lower, strict=True)
    ]


def _side_words(table: TokenTable, forms: list[tuple[str, str]], i: int, deps: frozenset[str]) -> frozenset[str]:
    """The words (:func:`token_forms`) of the subtrees of token ``i``'s children with a
    dependency in ``deps``; a passive's ``agent`` ("by police") counts on the subject side."""
    words: set = set()
    for child in table.children[i]:
        dep = table.dep[child]
        if dep in deps or (dep == "agent" and "nsubj" in deps):
            words |= table.subtree_words(child, forms)
    return frozenset(words)


#: the dependencies of a head noun's words that belong to its name ("world cup winners")
_NAME_PARTS = frozenset({"compound", "flat"})


def _head_words(table: TokenTable, forms: list[tuple[str, str]], i: int, deps: frozenset[str]) -> frozenset[str]:
    """The words (:func:`token_forms`) of the head phrases of token ``i``'s children with a
    dependency in ``deps``: each child and its :data:`_NAME_PARTS` children; the head
    of a passive's ``agent`` ("by police") counts on the subject side."""
    heads = []
    for child in table.children[i]:
        dep = table.dep[child]
        if dep in deps:
            heads.append(child)
        elif dep == "agent" and "nsubj" in deps:
            heads.extend(g for g in table.children[child] if table.dep[g] == "pobj")
    words: set = set()
    for head in heads:
        words.update(forms[head])
        for part in table.children[head]:
            if table.dep[part] in _NAME_PARTS:
                words.update(forms[part])
    return frozenset(words)


def _role_words(token, table: TokenTable, forms: list[tuple[str, str]]) -> tuple[frozenset[str], frozenset[str]]:
    """The words of a verb's "to" arguments and of its "from" arguments
    (:func:`~halluscope.text.syntax.role_arguments`), whole phrases."""
    sides: dict[str, set] = {"to": set(), "from": set()}
    for name, head in role_arguments(token):
        sides[name] |= table.subtree_words(head.i, forms)
    return frozenset(sides["to"]), frozenset(sides["from"])


_PREDICATE_POS = frozenset({"VERB", "AUX", "ADP"})


def build_text_index(doc) -> TextIndex:
    """Index a spaCy ``Doc``: one entry per sentence (``doc.sents``), read through a
    :class:`~halluscope.text.token_table.TokenTable` (one ``Token`` object made only for each
    verb, copula and preposition)."""
    table = TokenTable(doc)
    # tuples, not sets: a tuple of strings is not tracked by the garbage collector
    forms = [
        (word_stem(lower), word_stem(lemma.lower())) for lower, lemma in zip(table.lower, table.lemma, strict=True)
    ]
    content_token = content_flags(table)
    text = doc_text(doc)
    sentences = []
    for start, end in table.sentence_bounds():
        words: set = set()
        content: set = set()
        predicates, nominals = [], []
        for i in range(start, end):
            words.update(forms[i])
            if content_token[i]:
                content.update(forms[i])
            pos = table.pos[i]
            if pos in _PREDICATE_POS:
                token = doc[i]
                verb = pos == "VERB"
                to_words, from_words = _role_words(token, table, forms) if verb else (frozenset(), frozenset())
                predicates.append(
                    _Predicate(
                        i,
                        verb_lemma(token),
                        effective_negation(token),
                        _side_words(table, forms, i, _SUBJECT_SIDE),
                        _side_words(table, forms, i, _OBJECT_SIDE),
                        _side_words(table, forms, i, _OBLIQUE),
                        to_words,
                        from_words,
                        _head_words(table, forms, i, _SUBJECT_SIDE) if verb else frozenset(),
                        _head_words(table, forms, i, _OBJECT_SIDE) if verb else frozenset(),
                    )
                )
            elif pos == "NOUN" and any(table.dep[c] == "prep" for c in table.children[i]):
                nominals.append(
                    _Predicate(i, table.lemma[i].lower(), False, frozenset(), _side_words(table, forms, i, _OBLIQUE))
                )
        start_char, end_char = table.start_char[start], table.end_char[end - 1]
        sentences.append(
            IndexedSentence(
                start_char,
                end_char,
                text[start_char:end_char],
                frozenset(words),
                frozenset(content),
                tuple(predicates),
                tuple(nominals),
            )
        )
    return TextIndex(_lowered(text), sentences, doc, written=text, _tokens=frozenset(table.lower))


def linkable(lemma: str) -> bool:
    """Whether WordNet may link this lemma to another: not a stop word. "be", "have",
    "do", "get", "make", "take" are WordNet hypernyms or verb-group mates of hundreds of
    verbs ("sell" is a troponym of "be"), so a source's "was" would support anything."""
    return lemma not in STOP_WORDS


#: a word as :meth:`TextIndex.written_run` reads them
_WORD_CHARS = re.compile(r"\w+")
