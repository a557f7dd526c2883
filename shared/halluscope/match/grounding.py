"""Text grounding: find a unit in the *text* of a pool when no pool unit matched it.

The papers match units against units, so a unit is "hallucinated" whenever the
extractor missed its counterpart in the source: spaCy sm tags "Alaska Airlines" in
a cased article but "alaska" in a lower-cased summary, or parses "Apple's purchase
of Beats" with no subject-verb-object triple at all. On the SummaC and FRANK
validation sets most "unsupported" entities of *consistent* summaries were of this
kind (error analysis in docs/benchmarks.md). ``grounding="text"`` (our default;
``"units"`` is the papers' behaviour) adds one last rule to the entity and relation
matchers:

``text`` (entities)
    The entity's canonical form occurs in the pool text as whole words, case and
    quote style ignored, any run of whitespace between its words
    ("alaska" in "... Alaska Airlines Flight 448 ...").
``text`` (quantities; :func:`quantity_in_text`, applied by the QHI dimension after its swaps)
    A number no pool quantity matched, written in the pool text together with the
    word next to it in the summary, a content word ("flight 448" in "Alaska Airlines
    Flight 448", whose number the source's parse took into a name).
``cooccurrence`` (relations)
    One sentence of the pool holds the triple's subject and object (every word,
    as written or as lemma, a plural "s" ignored) and a verb with the triple's lemma
    and polarity (for a nominal triple, its preposition) that does not put the
    subject on its object side or the object on its subject side (a role swap):
    "(police, arrest, richards)" is grounded by "Richards was arrested by police on
    Monday", not by "Richards arrested the police". A subject-verb pair has no
    object to pin the verb down, so the verb must have the pair's subject in the
    same role, as the relation extractor reads the source
    (:func:`~halluscope.extract.relations.predicate_arguments`): as its subject for
    an active pair, as its patient (an agentless passive's subject, or any object)
    for a passive pair. "Thomas was arrested" is grounded by "Police arrested
    Thomas"; "Lane's husband was found" is not grounded by "Lane's husband found
    the infant". With a lexicon, a verb may state a nominal triple's noun and a noun
    a triple's verb (:func:`_verbalisation`, :func:`_nominalisation`; docs/lexical.md).
    A subject or object that is a person the pool names in full may be found by one
    part of the name, which the sentence writes capitalised and no other person of the
    pool has (:func:`_by_name_part`: "pat ingles lost her husband" against "Pat Ingles,
    69, ... Grandmother-of-three Pat lost her husband").
    When nothing grounds a triple, a predicate of its verb (or a synonym) with its
    arguments the other way round contradicts it (:func:`_reversed_roles`,
    docs/lexical.md#reversed-roles): "Georgia beat Germany" against "Germany beat
    Georgia", or against "The World Cup winners beat Georgia".

Evidence is a :class:`~halluscope.units.TextEvidence` with the span found (the
entity's words, or the whole sentence). The rules read a pool through its
:class:`TextIndex`, which the pipeline gets from its resources' :class:`TextIndexCache`
(each ``Doc`` indexed once while cached) and hands to the matchers in the
:class:`~halluscope.match.MatchJob` (docs/architecture.md#resources).
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import math
import re
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from spacy.lang.en.stop_words import STOP_WORDS

from .. import budget
from ..extract.entities import QUOTE_MAP
from ..extract.quantities.lexicon import SCALE_WORDS
from ..extract.relations import (
    PTB_BRACKETS,
    PredicateArguments,
    effective_negation,
    object_controlled,
    role_arguments,
    verb_lemma,
)
from ..lru import LRU
from ..token_table import TokenTable, doc_text
from ..units import NOMINAL, EntityUnit, Match, QuantityUnit, RelationUnit, TextEvidence

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
    # prepositional phrases on the object side (:func:`_nominalisation`)
    nominals: tuple[_Predicate, ...] = ()


@dataclass
class TextIndex:
    """One pool text, prepared for grounding: its lower-cased text (same length as
    the original, so offsets agree) and its sentences' words and predicates. It keeps
    its ``Doc`` for what needs tokens (:attr:`tokens`, :meth:`arguments_of`, the words
    of :mod:`halluscope.match.words`)."""

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
        text (:func:`halluscope.match.words.source_words`), keyed by the type that holds
        it, which that module declares; it lives as long as its index
        (docs/architecture.md#caches-and-their-owners)."""
        if kind not in self._derived:
            self._derived[kind] = kind.build(self)
        return self._derived[kind]

    def arguments_of(self, predicate: _Predicate) -> tuple[frozenset[str], frozenset[str]]:
        """The words (:func:`word_stem`med) of the predicate's (agents, patients) as the
        relation extractor reads them (:class:`~halluscope.extract.relations.PredicateArguments`);
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
    plain ones ("o’toole" ~ "o'toole", :data:`~halluscope.extract.entities.QUOTE_MAP`)."""
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
    """:func:`is_content` of every token of a :class:`~halluscope.token_table.TokenTable`."""
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
    (:func:`~halluscope.extract.relations.role_arguments`), whole phrases."""
    sides: dict[str, set] = {"to": set(), "from": set()}
    for name, head in role_arguments(token):
        sides[name] |= table.subtree_words(head.i, forms)
    return frozenset(sides["to"]), frozenset(sides["from"])


_PREDICATE_POS = frozenset({"VERB", "AUX", "ADP"})


def build_text_index(doc) -> TextIndex:
    """Index a spaCy ``Doc``: one entry per sentence (``doc.sents``), read through a
    :class:`~halluscope.token_table.TokenTable` (one ``Token`` object made only for each
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


def _swapped(predicate: _Predicate, subject: list[str], obj: list[str]) -> bool:
    """The pool puts the triple's subject on the object side of this predicate or in
    one of its other arguments, or its object on the subject side ("the suspect
    arrested police" against "police arrested the suspect"; "the hospital gave $10
    million to the billionaire" against "the billionaire donated $10 million to the
    hospital")."""
    return _only_on(subject, predicate.object_words | predicate.oblique_words, predicate.subject_words) or _only_on(
        obj, predicate.subject_words, predicate.object_words
    )


def _another_controls(predicate: _Predicate, subject: list[str], index: TextIndex, patient: bool) -> bool:
    """Whether the predicate is an object-controlled infinitive
    (:func:`~halluscope.extract.relations.object_controlled`) whose subject, the object
    of the verb above it, is not the triple's: "police left the area" is not grounded
    by "police told residents to leave the area", where the residents leave."""
    if patient or index.doc is None or not object_controlled(index.doc[predicate.token]):
        return False
    return not set(subject) <= index.arguments_of(predicate)[0]


def _object_acts(predicate: _Predicate, subject: list[str], obj: list[str], index: TextIndex) -> bool:
    """Whether a directed triple's (:func:`_directed`, which the caller asks once per
    triple) object is the predicate's agent as the relation extractor reads it, its head
    word among the agents and not among the patients, while the subject's head is no
    agent: the source does what the triple says is done to it.
    :func:`_swapped` asks for every word of an argument on the parser's
    own subject side, which misses the controller of an infinitive ("Arsenal joined
    Sanchez" against "Arsenal boss Arsene Wenger is delighted that Sanchez decided to
    join the north London club", where "join" has no subject of its own) and a name
    the parser split between two predicates ("Iker Casillas included Cristiano Ronaldo"
    against "Most players have been criticised - Cristiano Ronaldo included - but ...",
    where "Cristiano" went to "criticised")."""
    if index.doc is None:
        return False
    agents, patients = index.arguments_of(predicate)
    return obj[-1] in agents and obj[-1] not in patients and subject[-1] not in agents


def _only_on(words: list[str], side: frozenset[str], other: frozenset[str]) -> bool:
    """Every word on ``side`` and none on ``other``."""
    return all(w in side for w in words) and not any(w in other for w in words)


def _patient_swapped(predicate: _Predicate, subject: list[str], obj: list[str]) -> bool:
    """:func:`_swapped` for a triple whose subject is an agentless passive's patient
    (``RelationUnit.patient_subject``: "the defendant was offered a plea deal"): its
    subject, like its object, belongs on the predicate's object side (a passive's
    subject is there), so either on the subject side alone is a swap."""
    return _only_on(subject, predicate.subject_words, predicate.object_words) or _only_on(
        obj, predicate.subject_words, predicate.object_words
    )


#: entries of a text-index cache
DEFAULT_INDEX_CACHE_SIZE = 2048


class TextIndexCache:
    """The text indexes of parsed ``Doc`` objects, each built once while cached: a thread-safe
    LRU keyed by the ``Doc`` object (an entry holds its ``Doc``, so an id is never
    reused while cached) of at most ``maxsize`` documents and, ``budgeted``, the text
    indexes' share of the memory budget (:mod:`halluscope.budget`; an entry weighs its
    index and the ``Doc`` it keeps alive). One lives in each
    :class:`halluscope.resources.Resources`."""

    def __init__(self, maxsize: int = DEFAULT_INDEX_CACHE_SIZE, budgeted: bool = True) -> None:
        self._lock = threading.Lock()
        self._entries: LRU[tuple[object, TextIndex]] = LRU(maxsize, weigh=budget.weigh_index)
        if budgeted:
            budget.register("text_indexes", self._entries, self._lock)
        self.built = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, doc) -> TextIndex:
        """The index of ``doc``: cached, else built (outside the lock) and cached."""
        with self._lock:
            entry = self._entries.get(id(doc))
            if entry is not None and entry[0] is doc:
                return entry[1]
        index = build_text_index(doc)
        with self._lock:
            self.built += 1
            self._entries.put(id(doc), (doc, index))
        return index

    def docs(self) -> list[object]:
        """The cached ``Doc`` objects, least recent first."""
        with self._lock:
            return [doc for doc, _ in self._entries.values()]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


def _pattern(key: str) -> re.Pattern[str] | None:
    """Whole-word, whitespace-tolerant pattern of an entity key (compiled once)."""
    words = key.translate(QUOTE_MAP).lower().split()
    if not words:
        return None
    return re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)")


def quantity_in_text(unit: QuantityUnit, summary: TextIndex, index: TextIndex) -> Match | None:
    """The ``text`` rule for a quantity no pool unit matched: the pool writes it word for
    word together with a content word next to it in the summary ("flight 448" in
    "Alaska Airlines Flight 448", "euro 2016" in "their Euro 2016 qualifier"). A number
    inside a name the source's parse tagged (a flight, an event) is no quantity of the
    source, while a lower-cased summary's parse sees it bare; the neighbouring word says
    it is the same number of the same thing. A neighbour that is a stop word or a
    number says nothing ("in 2016", "5 and"). A quantity whose own words hold such a
    word is found by its words alone ("Monday after 10 months", which the parse of a copy
    read as one date and the source's as a day and a duration). None when the pool
    writes no such run, or writes the number followed by a scale word the summary
    lacks ("spend $3" of a copy cut inside "spend $3 billion")."""
    start, end = unit.span
    words = [w.lower() for w in _WORD_CHARS.findall(summary.written[start:end])]
    at = summary.sentence_at(start)
    if not words or at is None:
        return None
    sentence = summary.sentences[at]
    before = _WORD_CHARS.findall(summary.written[max(sentence.start, start - 60) : start])
    after = _WORD_CHARS.findall(summary.written[end : min(sentence.end, end + 60)])
    runs = []
    if any(_says_what(w) for w in words):  # its own words say what ("monday after 10 months")
        runs.append(words)
    if before and _says_what(before[-1].lower()):
        runs.append([before[-1].lower()] + words)
    if after and _says_what(after[0].lower()):
        runs.append(words + [after[0].lower()])
    for run in runs:
        found = index.written_run(run)
        if found is not None and not (run[-1] == words[-1] and _scaled_after(index.lowered, found[1])):
            written = index.written[found[0] : found[1]]
            return Match("text", (TextEvidence(written, found),), 1.0, f"written in the text as {written!r}")
    return None


_NEXT_WORD = re.compile(r"\s*(\w+)")


def _scaled_after(lowered: str, end: int) -> bool:
    """Whether the word the text writes at ``end`` scales the number before it ("$3"
    followed by "billion"): the text's number is another one."""
    found = _NEXT_WORD.match(lowered, end)
    return found is not None and found.group(1) in SCALE_WORDS


def _says_what(word: str) -> bool:
    """Whether a word next to a number may say what the number is of: a word of letters
    that is no stop word."""
    return word.isalpha() and word not in STOP_WORDS


def entity_in_text(unit: EntityUnit, index: TextIndex) -> Match | None:
    """The ``text`` rule for an entity (module docstring) in the indexed pool text, or
    None."""
    pattern = _pattern(unit.key)
    if pattern is None:
        return None
    found = pattern.search(index.lowered)
    if found is None:
        return None
    start, end = found.span()
    text = index.text
    return Match(
        "text", (TextEvidence(text[start:end], (start, end)),), 1.0, f"found in the text as '{text[start:end]}'"
    )


def _slot_words(slot: str) -> list[str]:
    return slot.lower().split()


def linkable(lemma: str) -> bool:
    """Whether WordNet may link this lemma to another: not a stop word. "be", "have",
    "do", "get", "make", "take" are WordNet hypernyms or verb-group mates of hundreds of
    verbs ("sell" is a troponym of "be"), so a source's "was" would support anything."""
    return lemma not in STOP_WORDS


def _in_roles(predicate: _Predicate, subject: list[str], obj: list[str], index: TextIndex, patient: bool) -> bool:
    """The triple's subject on the predicate's subject side and its object on the
    object side (a pair: its subject in its role, as the pair's grounding asks). A
    contradiction needs the arguments placed, not merely not swapped: "Globex bought the
    factory from Acme" is the converse of "Acme sold the factory to Globex", not its
    antonym, because Globex is no subject of "sold"."""
    if not obj:
        return set(subject) <= index.arguments_of(predicate)[patient]
    return set(subject) <= predicate.subject_words and set(obj) <= predicate.object_words


def _particle_apart(lemma: str, predicate: _Predicate, sentence: IndexedSentence) -> bool:
    """A phrasal verb ("take out", "put aside") whose pool predicate is its bare verb, with
    the particle elsewhere in the sentence: the parser reads a particle away from its
    verb ("took his sailboat out"), or right after it ("putting aside their batons"), as
    an adverb, so the predicate's lemma lost it."""
    verb, _, particles = lemma.partition(" ")
    return bool(particles) and predicate.lemma == verb and all(w in sentence.words for w in particles.split())


def _predicate_link(lemma: str, predicate: _Predicate, lexicon):
    """None when the predicate's lemma is the unit's; else the lexicon's Link between
    them (a supporting relation or an antonym), or False when unrelated (or either
    lemma is not :func:`linkable`)."""
    if predicate.lemma == lemma:
        return None
    if lexicon is None or not (linkable(lemma) and linkable(predicate.lemma)):
        return False
    return lexicon.link(lemma, predicate.lemma, "verb") or False


def widen(link):
    """The Link with its text saying it holds through a rarer WordNet sense
    (:meth:`halluscope.lexical.Lexicon.widened`)."""
    return dataclasses.replace(link, text=link.text[:-1] + ", a rarer sense; the arguments agree)")


def _wide_link(lemma: str, predicate: _Predicate, lexicon):
    """A supporting link between the unit's verb and the predicate's through any WordNet
    sense (never an antonym), or False."""
    link = lexicon.widened().link(lemma, predicate.lemma, "verb")
    return False if link is None or link.relation == "antonym" else widen(link)


#: links under which the source's verb, negated, denies a positive summary verb: the
#: summary's verb implies it (the same lemma, a synonym, a more specific verb)
_DENIED_BY_NEGATED_SOURCE = frozenset({"synonym", "troponym", "hyponym"})
#: links under which a positive source verb denies a negated summary verb: the source's
#: verb implies the summary's (a synonym, a more general summary verb, an entailment)
_DENIED_BY_POSITIVE_SOURCE = frozenset({"synonym", "hypernym", "entailment"})


def _negation_contradicts(link, unit_negated: bool) -> bool:
    """Whether a predicate under the other polarity contradicts the unit: only when the
    positive side's verb implies the negated side's. "did not acquire" denies "bought"
    (buy ⊂ acquire), but "would not discuss" does not deny "spoke" (speak ⊃ discuss:
    speaking without discussing is possible); "snored" denies "did not sleep"
    (entailment), "slept" does not deny "did not snore". ``link`` None: the same lemma."""
    if link is None:
        return True
    allowed = _DENIED_BY_POSITIVE_SOURCE if unit_negated else _DENIED_BY_NEGATED_SOURCE
    return link.relation in allowed


def _converse(predicate: _Predicate, subject: list[str], obj: list[str]) -> bool:
    """The triple's subject is only in the predicate's prepositional or dative arguments
    and its object on the object side: "DHX bought the warehouse" against "Lakeside sold
    the warehouse to DHX"."""
    return (
        set(subject) <= predicate.oblique_words
        and not any(w in predicate.subject_words for w in subject)
        and set(obj) <= predicate.object_words
    )


def relation_in_sentence(unit: RelationUnit, index: TextIndex, lexicon=None) -> Match | None:
    """The ``cooccurrence`` rule for a relation triple or a subject-verb pair (module
    docstring) in the indexed pool text, or None. A triple without a subject is never grounded this way.
    With a ``lexicon`` (:class:`halluscope.lexical.Lexicon`) the predicate may be a
    verb WordNet links to the unit's (the match's detail names the relation), and an
    antonym under the opposite polarity supports it ("did not approve" for
    "rejected"). A predicate with the same arguments in the same roles but the
    opposite meaning (the same verb under the other polarity, or an antonym under the
    same one) makes a ``contradicts`` match when nothing in the text supports the
    unit: "The council approved the plan" against "The council did not approve the
    plan" or "The council rejected the plan".

    Two more rules need a ``lexicon`` and a triple with an object (docs/lexical.md):
    a predicate with the unit's subject and object in their roles may be linked to its
    verb through any WordNet sense, not only the first three (the arguments pick the
    sense: "fired its CFO" for "dismissed its CFO"); and an antonym that transfers
    possession (:meth:`~halluscope.lexical.Lexicon.transfers_possession`) with the
    same polarity supports the unit as its **converse** when the unit's subject is
    only in the predicate's prepositional or dative arguments and its object on the
    object side: "DHX Freight bought the warehouse" from "Lakeside Books sold the
    warehouse to DHX Freight". Last, a transfer of possession is checked by its parties
    (:func:`transfer_in_text`), which also catches a giver and receiver swapped through
    "to"/"from". Before all of them, a nominal triple the text writes word for word is
    supported by its wording (:func:`_written_nominal`)."""
    if unit.source == NOMINAL:
        written = _written_nominal(unit, index)
        if written is not None:
            return written
    found = _cooccurrence(unit, index, lexicon)
    if found is None:
        found = _without_title(unit, index, lexicon)
    if found is None:
        found = _by_name_part(unit, index, lexicon)
    if found is not None and not found.contradicts:
        return found
    transfer = transfer_in_text(unit, index, lexicon)
    if transfer is not None and (found is None or not transfer.contradicts):
        return transfer
    return found


#: a word as :meth:`TextIndex.written_run` reads them
_WORD_CHARS = re.compile(r"\w+")
#: the fewest words a nominal relation must have for its wording alone to ground it
NOMINAL_RUN_MIN_WORDS = 3


def _written_nominal(unit: RelationUnit, index: TextIndex) -> Match | None:
    """A nominal relation ("approval for the Iran nuclear deal") the pool writes word for
    word (at least :data:`NOMINAL_RUN_MIN_WORDS` words): supported by its wording, which
    a misparse of the pool sentence can leave without a unit or a preposition to ground
    it ("for" read as a clause's marker)."""
    words = _WORD_CHARS.findall(unit.text.lower())
    if len(words) < NOMINAL_RUN_MIN_WORDS:
        return None
    span = index.written_run(words)
    if span is None:
        return None
    return Match(
        "text", (TextEvidence(index.written[span[0] : span[1]], span),), 1.0, "written word for word in the text"
    )


#: the labels of the source names a subject's title may stand before
_TITLED_LABELS = frozenset({"PERSON"})


class _PersonNameWords(frozenset[tuple[str, ...]]):
    """The words (lower case, :func:`word_stem`med) of each of a pool's person names of two
    words or more."""

    __slots__ = ()

    @classmethod
    def build(cls, index: TextIndex) -> _PersonNameWords:
        names = set()
        for entity in getattr(index.doc, "ents", ()):
            if entity.label_ in _TITLED_LABELS:
                words = tuple(word_stem(t.lower_) for t in entity if not t.is_punct)
                if len(words) > 1:
                    names.add(words)
        return cls(names)


def _person_name_words(index: TextIndex) -> frozenset[tuple[str, ...]]:
    """The words (lower case, :func:`word_stem`med) of each of the pool's person names of
    two words or more, once per index."""
    return index.derived(_PersonNameWords)


class _PersonNames(frozenset[tuple[str, ...]]):
    """A pool's person names and each of their endings of two words or more."""

    __slots__ = ()

    @classmethod
    def build(cls, index: TextIndex) -> _PersonNames:
        return cls(name[start:] for name in _person_name_words(index) for start in range(len(name) - 1))


def _person_names(index: TextIndex) -> frozenset[tuple[str, ...]]:
    """The pool's person names (:func:`_person_name_words`) and each of their endings of
    two words or more ("david meadwell" of a name the parser read as "Holidaymaker David
    Meadwell"), once per index."""
    return index.derived(_PersonNames)


def _without_title(unit: RelationUnit, index: TextIndex, lexicon) -> Match | None:
    """The ``cooccurrence`` rule once more for a subject that is a title or description
    before a person the pool names in full ("tourist David Meadwell recorded the
    manoeuvre" against "Holidaymaker David Meadwell recorded the manoeuvre"), with the
    name alone as its subject: whether the source calls him a tourist is the word
    support's question, not the relation's. A word the pool writes in a person's name
    is no title ("Vicente" of "Vicente del Bosque" where the sentence says "Del
    Bosque"). None when the subject is no such slot or the name alone is not grounded
    either."""
    words = _slot_words(unit.subject)
    if len(words) < 3:
        return None
    stems = tuple(word_stem(w) for w in words)
    names = _person_names(index)
    named = {word for name in names for word in name}
    for start in range(1, len(words) - 1):
        if named.isdisjoint(stems[:start]) and stems[start:] in names:
            found = _cooccurrence(dataclasses.replace(unit, subject=" ".join(words[start:])), index, lexicon)
            if found is None or found.contradicts:
                return None  # the name alone is not grounded: the unit stays as it was
            return dataclasses.replace(
                found, detail=f"{found.detail}; the name without its title '{' '.join(words[:start])}'"
            )
    return None


class _FullNames(dict[str, frozenset[tuple[str, ...]]]):
    """Each word of a pool's person names -> those names."""

    __slots__ = ()

    @classmethod
    def build(cls, index: TextIndex) -> _FullNames:
        holding: dict[str, set] = {}
        for name in _person_name_words(index):
            for word in name:
                holding.setdefault(word, set()).add(name)
        return cls((word, frozenset(names)) for word, names in holding.items())


def _full_names(index: TextIndex) -> dict[str, frozenset[tuple[str, ...]]]:
    """Each word of the pool's person names (:func:`_person_name_words`) -> those names,
    once per index."""
    return index.derived(_FullNames)


def _by_name_part(unit: RelationUnit, index: TextIndex, lexicon) -> Match | None:
    """The ``cooccurrence`` rule once more for a subject or object that is a person the
    pool names in full, with one part of the name in its place, the surname first, then
    the first name: a source names someone in full once and then by one name ("Pat
    Ingles, 69, ..." then "Grandmother-of-three Pat lost her husband"), where a summary
    keeps the full name ("pat ingles lost her husband"). The part must name no other
    person of the pool (no second "Tindall"), and the sentence must write it as a name,
    capitalised (:func:`_written_as_name`). None when no slot is such a name or the
    part is not grounded either; a part that contradicts leaves the unit as it was."""
    holding = _full_names(index)
    for slot in ("subject", "object"):
        words = _slot_words(getattr(unit, slot))
        if len(words) < 2:
            continue
        stems = tuple(word_stem(w) for w in words)
        if stems not in holding.get(stems[-1], ()):
            continue
        for part, written in ((stems[-1], words[-1]), (stems[0], words[0])):
            if len(part) < 3 or not all(set(name) >= set(stems) for name in holding[part]):
                continue  # another person of the pool has this name part
            renamed: dict[str, Any] = {slot: written}  # the subject or the object
            found = _cooccurrence(dataclasses.replace(unit, **renamed), index, lexicon)
            if found is None or not _written_as_name(written, found.evidence[0].text):
                continue
            if found.contradicts:
                return None
            return dataclasses.replace(
                found,
                detail=f"{found.detail}; '{written}' for the {slot} "
                f"'{' '.join(words)}', the only person the text so names",
            )
    return None


def _written_as_name(word: str, sentence: str) -> bool:
    """Whether ``sentence`` writes ``word`` capitalised, as a whole word ("Pat lost her
    husband"; not "the prison" for a "Chelmsford Prison" that NER took for a person)."""
    return any(
        found.group()[0].isupper()
        for found in re.finditer(r"(?<!\w)" + re.escape(word) + r"(?!\w)", sentence, re.IGNORECASE)
    )


def _cooccurrence(unit: RelationUnit, index: TextIndex, lexicon) -> Match | None:
    """The ``cooccurrence`` rule of :func:`relation_in_sentence`, without transfers."""
    subject = [word_stem(w) for w in _slot_words(unit.subject)]
    obj = [word_stem(w) for w in _slot_words(unit.object)]
    if not subject:
        return None
    lemma = unit.lemma.lower()
    patient = unit.subject_is_patient
    derived = _derived_nouns(unit, lemma, obj, lexicon)
    verbal = lexicon is not None and unit.source == NOMINAL and bool(obj) and linkable(subject[-1])
    contradiction: Match | None = None
    particles = " " in lemma  # a phrasal verb (:func:`_particle_apart`)
    directed = _directed(unit, subject, obj)
    for at in index.holding_all(subject[:-1] + obj if verbal else subject + obj):
        sentence = index.sentences[at]
        if not all(w in sentence.words for w in subject + obj):
            if verbal and all(w in sentence.words for w in subject[:-1] + obj):
                stated = _verbalisation(unit, obj, sentence, lexicon)
                if stated is not None:
                    return stated
            continue
        for p in sentence.predicates:
            link = _predicate_link(lemma, p, lexicon)
            if link is False and particles and _particle_apart(lemma, p, sentence):
                link = None
            if (
                link is False
                and obj
                and lexicon is not None
                and linkable(lemma)
                and linkable(p.lemma)
                and _in_roles(p, subject, obj, index, patient)
            ):
                link = _wide_link(lemma, p, lexicon)
            if link is False:
                continue
            opposite = link is not None and link.relation == "antonym"
            agrees = (p.negated == unit.negated) != opposite
            if (
                opposite
                and obj
                and p.negated == unit.negated
                and _converse(p, subject, obj)
                and lexicon.transfers_possession(lemma)
                and lexicon.transfers_possession(p.lemma)
            ):
                return Match(
                    "cooccurrence",
                    (TextEvidence(sentence.text, (sentence.start, sentence.end)),),
                    1.0,
                    f"the converse: subject in the predicate's other arguments, object in its "
                    f"object; {link.text}, one transfer seen from the other party",
                )
            if (
                obj
                and not (_patient_swapped(p, subject, obj) if unit.patient_subject else _swapped(p, subject, obj))
                and not (directed and _object_acts(p, subject, obj, index))
                and not _another_controls(p, subject, index, patient)
            ):
                detail = "subject, object and predicate in one sentence"
            elif not obj and set(subject) <= index.arguments_of(p)[patient]:
                detail = "the predicate with this " + ("patient" if patient else "subject")
            else:
                continue
            if link is not None:
                detail = f"{detail}; {link.text}"
            if p.negated != unit.negated:
                detail += "; opposite polarity"
            evidence = (TextEvidence(sentence.text, (sentence.start, sentence.end)),)
            if agrees:
                return Match("cooccurrence", evidence, 1.0, detail)
            if (
                contradiction is None
                and _in_roles(p, subject, obj, index, patient)
                and (opposite or _negation_contradicts(link, unit.negated))
            ):
                contradiction = Match("contradiction", evidence, 0.0, detail, contradicts=True)
        nominal = _nominalisation(subject, obj, sentence, derived) if derived is not None else None
        if nominal is not None:
            return nominal
    if contradiction is None and directed:
        return _reversed_roles(unit, lemma, subject, obj, index, lexicon)
    return contradiction


#: verbs whose subject and object may change places without changing the claim
#: ("Chelsea face Arsenal", "Smith married Jones"), and the copula and "have", whose
#: arguments are no agent and patient: a reversal of their roles contradicts nothing
SYMMETRIC_VERBS = frozenset(
    {
        "be",
        "have",
        "meet",
        "face",
        "play",
        "marry",
        "date",
        "draw",
        "tie",
        "share",
        "fight",
        "battle",
        "compete",
        "debate",
        "negotiate",
        "partner",
        "merge",
        "collide",
        "resemble",
        "equal",
        "match",
        "rival",
        "divorce",
        "kiss",
        "hug",
        "embrace",
        "greet",
        "contact",
    }
)


def _directed(unit: RelationUnit, subject: list[str], obj: list[str]) -> bool:
    """Whether exchanging the unit's subject and object changes its claim, so that a
    source predicate with them the other way round contradicts it: a verb triple with
    an object, not a nominal one ("the loss to Schalke"), whose subject is its agent
    (not an agentless passive's patient: "was offered a plea deal"), whose verb is
    none of :data:`SYMMETRIC_VERBS`, and whose subject and object share no word."""
    return (
        bool(obj)
        and unit.source != NOMINAL
        and not unit.patient_subject
        and unit.lemma not in SYMMETRIC_VERBS
        and not set(subject) & set(obj)
    )


def _reversed_roles(
    unit: RelationUnit, lemma: str, subject: list[str], obj: list[str], index: TextIndex, lexicon
) -> Match | None:
    """A ``contradiction`` of a directed triple (:func:`_directed`) that nothing in the
    text supports: a source predicate with the unit's verb or a WordNet synonym of it,
    and its polarity, that has the triple's arguments the other way round
    (docs/lexical.md#reversed-roles):

    * both: the subject only on its object side and the object only on its subject
      side ("Georgia beat Germany" against "Germany beat Georgia 2-0");
    * one: the subject is the head of one of its objects, or the object the head of
      one of its subjects, and not on its own side, whatever the sentence calls the
      other party (no coreference ties "the World Cup winners" to Germany: "Georgia
      beat Germany" against "the World Cup winners beat Georgia in Tbilisi"). A word of
      an argument's modifiers does not count ("loans" in "an individual saddled with
      loans could take out another one").

    None otherwise."""
    for at in sorted({*index.holding_all(subject), *index.holding_all(obj)}):
        sentence = index.sentences[at]
        has_subject = all(w in sentence.words for w in subject)
        has_object = all(w in sentence.words for w in obj)
        if not (has_subject or has_object):
            continue
        for p in sentence.predicates:
            if p.negated != unit.negated:
                continue
            # the arguments first: they rule out most predicates without asking WordNet
            if (
                has_subject
                and has_object
                and _only_on(subject, p.object_words, p.subject_words)
                and _only_on(obj, p.subject_words, p.object_words)
            ):
                what = "its subject is the object and its object the subject"
            elif has_subject and _only_on(subject, p.object_heads, p.subject_words):
                what = "its subject is the object"
            elif has_object and _only_on(obj, p.subject_heads, p.object_words):
                what = "its object is the subject"
            else:
                continue
            link = _predicate_link(lemma, p, lexicon)
            if link is False or (link is not None and link.relation != "synonym"):
                continue
            detail = f"roles reversed: {what} of '{p.lemma}'"
            if link is not None:
                detail = f"{detail}; {link.text}"
            return Match(
                "contradiction",
                (TextEvidence(sentence.text, (sentence.start, sentence.end)),),
                0.0,
                detail,
                contradicts=True,
            )
    return None


def _placed(words: list[str], side: frozenset[str], other: frozenset[str]) -> bool:
    """Every word on ``side``, and not every word on ``other`` (two parties may share
    words: "the Canadian Space Agency" and "the Japanese space agency JAXA")."""
    return all(w in side for w in words) and not all(w in other for w in words)


def _parties(direction: str, subject, to_side, from_side):
    """(giver, receiver) of a transfer whose verb's subject gives or receives
    (``direction``), from its subject side and its "to" and "from" sides."""
    return (subject, to_side) if direction == "gives" else (from_side, subject)


def _same_transfer(unit: RelationUnit, obj: list[str], predicate: _Predicate, lexicon) -> bool:
    """Whether a source predicate may state the unit's transfer: the unit's object on
    its object side, whatever the verb ("received a robotic arm" and "shipped a robotic
    arm"); for a unit without an object, the same verb or one WordNet links to it (a
    synonym, a hypernym, or the antonym that sees the transfer from the other party:
    lend/borrow, sell/buy)."""
    if obj:
        return all(w in predicate.object_words for w in obj)
    if predicate.lemma == unit.lemma:
        return True
    return (
        linkable(unit.lemma)
        and linkable(predicate.lemma)
        and lexicon.link(unit.lemma, predicate.lemma, "verb") is not None
    )


def transfer_in_text(unit: RelationUnit, index: TextIndex, lexicon) -> Match | None:
    """A transfer of possession checked by its parties (docs/lexical.md#transfers).

    A positive unit whose verb gives ("lend", "donate", "sell") or receives ("borrow",
    "receive", "buy") (:meth:`~halluscope.lexical.Lexicon.transfer_direction`) and that
    names both parties (its subject, and its "to" argument for a giving verb or its
    "from" argument for a receiving one: ``RelationUnit.roles``) is supported by a positive
    source predicate of the same transfer (:func:`_same_transfer`) with the same giver
    and receiver, whichever verb states it ("Moldova will borrow €400 million from
    Germany" from "Germany will lend 400 million euros to Moldova"), and contradicted by
    one with the giver and the receiver swapped ("Moldova will lend €400 million to
    Germany"). None otherwise, and without a lexicon."""
    if lexicon is None or unit.negated or unit.subject_is_patient:
        return None
    direction = lexicon.transfer_direction(unit.lemma)
    if direction is None:
        return None
    subject = [word_stem(w) for w in _slot_words(unit.subject)]
    party = [word_stem(w) for w in _slot_words(unit.role("to" if direction == "gives" else "from"))]
    if not subject or not party:
        return None
    obj = [word_stem(w) for w in _slot_words(unit.object)]
    giver, receiver = (subject, party) if direction == "gives" else (party, subject)
    contradiction: Match | None = None
    for at in index.holding_all(subject + party):
        sentence = index.sentences[at]
        for p in sentence.predicates:
            if p.negated:
                continue
            stated = lexicon.transfer_direction(p.lemma)
            if stated is None or not _same_transfer(unit, obj, p, lexicon):
                continue
            p_giver, p_receiver = _parties(stated, p.subject_words, p.to_words, p.from_words)
            evidence = (TextEvidence(sentence.text, (sentence.start, sentence.end)),)
            verbs = f"'{unit.lemma}' {direction}, '{p.lemma}' {stated}"
            if _placed(giver, p_giver, p_receiver) and _placed(receiver, p_receiver, p_giver):
                return Match("cooccurrence", evidence, 1.0, f"the same transfer: the same giver and receiver ({verbs})")
            if contradiction is None and _placed(giver, p_receiver, p_giver) and _placed(receiver, p_giver, p_receiver):
                contradiction = Match(
                    "contradiction", evidence, 0.0, f"giver and receiver swapped ({verbs})", contradicts=True
                )
    return contradiction


def _derived_nouns(unit: RelationUnit, lemma: str, obj: list[str], lexicon):
    """The lexicon's supporters of the unit's verb (whose ``derivation`` entries are its
    nominal forms), or None when no nominalisation can ground the unit: a negated
    unit, a pair, no lexicon, or a verb WordNet may not link."""
    if lexicon is None or unit.negated or not obj or not linkable(lemma):
        return None
    return lexicon.supporters(lemma, "verb")


def _nominalisation(subject: list[str], obj: list[str], sentence: IndexedSentence, derived) -> Match | None:
    """A positive triple stated as a noun of the same sentence that WordNet derives from
    its verb (``derived``: :func:`_derived_nouns`), with the object in the noun's
    prepositional arguments and the subject not there: "Brenner Group completed its
    acquisition of the cable maker" grounds ``(brenner group, acquire, cable maker)``;
    "the acquisition of Brenner Group by the cable maker" does not."""
    for noun in sentence.nominals:
        if derived.relation(noun.lemma) != "derivation":
            continue
        if all(w in noun.object_words for w in obj) and not any(w in noun.object_words for w in subject):
            link = derived[noun.lemma]
            return Match(
                "cooccurrence",
                (TextEvidence(sentence.text, (sentence.start, sentence.end)),),
                1.0,
                f"subject, object and a nominalised predicate in one sentence; {link.text}",
            )
    return None


def _verbalisation(unit: RelationUnit, obj: list[str], sentence: IndexedSentence, lexicon) -> Match | None:
    """A nominal triple ("the approval of the reform", "the death of the president")
    whose noun the sentence states as the verb WordNet derives it from, positively,
    with the preposition's object among that verb's arguments: "The Senate approved
    the reform" grounds ``(approval, of, reform)``. The reverse of
    :func:`_nominalisation`. "of" takes the verb's object or subject (the approval of
    the reform, the death of the president), "by" its subject, any other preposition
    its prepositional arguments."""
    noun = _slot_words(unit.subject)[-1]
    preposition = unit.lemma.lower()
    for p in sentence.predicates:
        if p.negated or not linkable(p.lemma):
            continue
        link = lexicon.close_link(noun, p.lemma, "noun")
        if link is None or link.relation != "derivation":
            continue
        sides: tuple[frozenset[str], ...]
        if preposition == "of":
            sides = (p.object_words, p.subject_words)
        elif preposition == "by":
            sides = (p.subject_words,)
        else:
            sides = (p.oblique_words,)
        if any(all(w in side for w in obj) for side in sides):
            return Match(
                "cooccurrence",
                (TextEvidence(sentence.text, (sentence.start, sentence.end)),),
                1.0,
                f"the noun stated as its verb, with the same argument; {link.text}",
            )
    return None


def content_word_precision(doc, pool: TextIndex) -> float:
    """The share of ``doc``'s content tokens (:func:`is_content`) whose lower-cased
    text is a token of the indexed ``pool`` text; 0.0 when ``doc`` has none. Words are compared as
    written, not as lemmas: "won" for "wins" is a change the units may not see. Half of
    CHI's w (``WordResult`` in :mod:`halluscope.pipeline`)."""
    content = [token for token in doc if is_content(token)]
    if not content:
        return 0.0
    tokens = pool.tokens
    return sum(token.lower_ in tokens for token in content) / len(content)


def ground_unmatched(row: list[Match | None], queries, index: TextIndex, finder) -> None:
    """Fill each ``None`` of ``row`` (one entry per query) with ``finder(query, index)``."""
    for position, (match, unit) in enumerate(zip(row, queries, strict=True)):
        if match is None:
            row[position] = finder(unit, index)
