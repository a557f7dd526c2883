"""Lexical relations between a summary word and a source word, from Princeton WordNet 3.0.
Directions. A relation answers "how does the SOURCE word support the SUMMARY word":

- ``same``: the same lemma (also without WordNet);
- ``antonym``: a contradiction, not support (win/lose, buy/sell);
- ``synonym``: the two words share a synset;
- ``hypernym``: the summary word is more general than the source word, within ``up_depth``
  hypernym steps (source "sprint", summary "run"): the source says the same or more;
- ``troponym`` (verbs) / ``hyponym`` (other POS): the summary word is more specific, within
  ``down_depth`` steps (source "acquire", summary "buy"). Strictly the source does not
  say that much, but summaries routinely write "bought" for "acquired", so it is accepted
  and named as such in :attr:`Link.relation` for the caller to weigh;
- ``entailment`` (verbs): the source verb entails the summary verb ("snore" => "sleep");
- ``verb_group`` (verbs): WordNet groups the two senses together;
- ``derivation``: derivationally related forms across parts of speech ("acquisition" ~
  "acquire", "death" ~ "die"); the source word may have any POS.

Only the first ``senses`` WordNet senses of each word are considered (WordNet orders senses
by frequency), for every relation including antonymy; this keeps loose matches out
(the second sense of "buy" is "bribe"). Antonymy holds when any lemma of a considered sense
of one word is WordNet's antonym of any lemma of a considered sense of the other (WordNet
puts antonymy on lemmas: "purchase" contradicts "sell" through its synonym "buy").

Where WordNet comes from and how it is read: :mod:`halluscope.lexicon.wordnet`. The Link,
the supporter map and the hierarchy walks: :mod:`.links`; the name and place queries:
:mod:`.name_senses`; the possession transfers: :mod:`.possession` (docs/lexical.md).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .. import budget
from ..lru import LRU
from .links import (
    Link,
    Supporters,
    _antonym_synsets,
    _more_general,
    _more_specific,
    _tag,
    _within,
    make_link,
    normalise_lemma,
)
from .name_senses import NameQueries
from .possession import PossessionQueries
from .wordnet import WORDNET_VERSION, SharedWordNet, WordNetSource, load_reader

#: Senses per word of :meth:`Lexicon.widened` (more than any WordNet 3.0 verb has: all).
WIDE_SENSES = 64


class Lexicon(NameQueries, PossessionQueries):
    """Relation queries over one WordNet reader (or none), with their caches.

    ``reader``: an NLTK ``WordNetCorpusReader`` (None: no WordNet, every query then answers
    only "same lemma"); :meth:`load` and :func:`halluscope.resources.get_lexicon` find one. ``senses``: how many
    of each word's WordNet senses are considered (most frequent first); ``up_depth``: how
    many hypernym steps the summary word may lie above a source word; ``down_depth``: how
    many steps below; ``cache_size``: entries per cache (0: no caching). Thread-safe: the
    NLTK reader, which seeks in shared file handles, is only used under the lock;
    ``lock``: that of every other Lexicon over the same reader (:meth:`over`)."""

    def __init__(
        self,
        reader: Any = None,
        *,
        senses: int = 3,
        up_depth: int = 2,
        down_depth: int = 1,
        cache_size: int = 100_000,
        source: WordNetSource | None = None,
        lock: Any = None,
    ) -> None:
        for name, value, least in (
            ("senses", senses, 1),
            ("up_depth", up_depth, 0),
            ("down_depth", down_depth, 0),
            ("cache_size", cache_size, 0),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise ValueError(f"{name} must be an int >= {least}; got {value!r}")
        self.reader = reader
        self.source = source
        self.senses = senses
        self.up_depth = up_depth
        self.down_depth = down_depth
        self.cache_size = cache_size
        self._lock = threading.RLock() if lock is None else lock
        # every answer (senses, supporters, antonyms, ...) in one LRU of at most cache_size
        # entries within this Lexicon's part of the lexicon share of the memory budget
        # (halluscope.budget), keyed by the question first: one cache shares its bound by
        # demand, where three split it equally and the supporter maps, the largest answers,
        # were evicted and recomputed within a call (1,200 hierarchy walks in a warm call
        # over 200 FRANK rows)
        self._answers: LRU[Any] = LRU(cache_size, weigh=budget.weigh_container)
        budget.register("lexicon", self._answers, self._lock)
        self._entailed_by: dict[Any, tuple[Any, ...]] | None = None
        self._wide: Lexicon | None = None

    @classmethod
    def load(cls, path: str | None = None, **options: Any) -> Lexicon:
        """A Lexicon over the WordNet that :func:`halluscope.lexicon.wordnet.load_wordnet` finds (or none); ``options``
        go to the constructor."""
        loaded = load_reader(path)
        if loaded is None:
            return cls(None, **options)
        reader, source = loaded
        return cls(reader, source=source, **options)

    @classmethod
    def over(cls, shared: SharedWordNet | None, **options: Any) -> Lexicon:
        """A Lexicon with its own caches over a process-wide reader
        (:func:`halluscope.lexicon.wordnet.shared_wordnet`; None: no WordNet), holding the reader's lock."""
        if shared is None:
            return cls(None, **options)
        return cls(shared.reader, source=shared.source, lock=shared.lock, **options)

    @property
    def available(self) -> bool:
        """Whether WordNet is loaded."""
        return self.reader is not None

    @property
    def wordnet_version(self) -> str:
        """ "3.0" with WordNet, "none" without: the value of the signature's ``wn`` field
        (docs/architecture.md#the-signature-table)."""
        return WORDNET_VERSION if self.available else "none"

    @property
    def root(self) -> str | None:
        """The folder (or zip entry) the reader reads, None without WordNet."""
        if self.reader is None:
            return None
        root = getattr(self.reader, "root", None)
        return str(getattr(root, "path", root))

    def __repr__(self) -> str:
        where = f", root={self.root!r}" if self.available else ""
        return (
            f"Lexicon(wn:{self.wordnet_version}{where}, senses={self.senses}, "
            f"up_depth={self.up_depth}, down_depth={self.down_depth})"
        )

    def clear_cache(self) -> None:
        """Forget every cached answer."""
        with self._lock:
            self._answers.clear()
            if self._wide is not None:
                self._wide.clear_cache()

    # -- public queries ------------------------------------------------------------------

    def knows(self, lemma: str, pos: str) -> bool:
        """Whether WordNet has the word in ``pos`` (its own senses or those of its base
        forms, as :meth:`link` considers them); False without WordNet. Where WordNet
        knows both words, :meth:`link` alone decides whether one supports the other."""
        word = normalise_lemma(lemma)
        return self.reader is not None and bool(word) and bool(self._considered(word, _tag(pos)))

    def link(self, summary_lemma: str, source_lemma: str, pos: str) -> Link | None:
        """How the source word supports (or contradicts) the summary word, or None.

        Checked in order, the first that holds wins: same, antonym, synonym, hypernym,
        troponym/hyponym, entailment, verb_group, derivation (the module docstring gives
        the directions). ``pos`` is the summary word's: "verb", "noun", "adj" or "adv";
        the source word is looked up in the same POS, except for derivation (any POS)."""
        return self._link(summary_lemma, source_lemma, pos, self._relation)

    def links(self, summary_lemma: str, source_lemmas: Sequence[str], pos: str) -> list[Link | None]:
        """:meth:`link` of the summary word to each source word, in order, with the summary
        word's antonyms and supporters looked up once for all of them
        (:meth:`_relation_of`; the relation matcher compares every verb of a summary with
        every verb of its source: tens of thousands of pairs a call). ``links(a, bs,
        pos)[k]`` equals ``link(a, bs[k], pos)``."""
        relation = self._relation_of(normalise_lemma(summary_lemma), _tag(pos))
        return [
            self._link(summary_lemma, source, pos, lambda _summary, _tag_, lemma: relation(lemma))
            for source in source_lemmas
        ]

    def supporters(self, summary_lemma: str, pos: str) -> Supporters:
        """Every lemma that supports the summary word, with its Link: the lemma itself
        ("same"), and, with WordNet, synonyms, hypernym-side and troponym/hyponym-side
        words, entailing verbs, verb-group members and derivationally related words of any
        POS; antonyms are excluded. Keys are lower case with words separated by spaces
        ("take over", never "take_over"), as :func:`normalise_lemma` makes them; intersect
        them with a source text's lemmas normalised the same way. Computed once per
        (lemma, pos) and cached; ``supporters(a, pos)[b]`` equals ``link(a, b, pos)``
        for every key b."""
        tag = _tag(pos)
        summary = normalise_lemma(summary_lemma)
        if self.reader is None:
            return Supporters(summary, {summary: "same"} if summary else {})
        return self._supporter_map(summary, tag)

    def close_link(self, summary_lemma: str, source_lemma: str, pos: str) -> Link | None:
        """:meth:`link` restricted to the same lemma, a synonym (a shared considered sense)
        and a derivation (any POS), or None: the links that need no walk up or down
        WordNet's hierarchy, which for a noun such as "person" spans thousands of synsets.
        The argument slots of relations (``rhi.match``) and the nouns of nominal
        triples (``match.grounding``) use it, many times per call."""
        return self._link(
            summary_lemma, source_lemma, pos, lambda summary, tag, source: self._close_map(summary, tag).get(source)
        )

    def _link(
        self, summary_lemma: str, source_lemma: str, pos: str, relation_of: Callable[[str, str, str], str | None]
    ) -> Link | None:
        """The Link of two normalised lemmas: "same" when equal, else ``relation_of(summary,
        WordNet tag, source)`` with WordNet; None when that is None or a lemma is empty."""
        tag = _tag(pos)
        summary, source = normalise_lemma(summary_lemma), normalise_lemma(source_lemma)
        if not summary or not source:
            return None
        if summary == source:
            return make_link("same", summary, source)
        if self.reader is None:
            return None
        relation = relation_of(summary, tag, source)
        return None if relation is None else make_link(relation, summary, source)

    def _relation(self, summary: str, tag: str, source: str) -> str | None:
        """:meth:`link`'s relation of two different lemmas (:meth:`_relation_of`)."""
        return self._relation_of(summary, tag)(source)

    def _relation_of(self, summary: str, tag: str) -> Callable[[str], str | None]:
        """The relation to ``summary`` of a different lemma: an antonym first, then the
        supporter map's; each of the two looked up once, when first needed."""
        looked: dict[str, Any] = {}

        def relation(source: str) -> str | None:
            if "antonyms" not in looked:
                looked["antonyms"] = self._antonym_set(summary, tag)
            if source in looked["antonyms"]:
                return "antonym"
            if "supporters" not in looked:
                looked["supporters"] = self._supporter_map(summary, tag)
            return looked["supporters"].relation(source)

        return relation

    def antonyms(self, summary_lemma: str, pos: str) -> frozenset[str]:
        """The lemmas that contradict the summary word (WordNet antonymy between lemmas of
        the considered senses of the two words); same normalisation as :meth:`supporters`.
        Empty without WordNet."""
        tag = _tag(pos)
        summary = normalise_lemma(summary_lemma)
        if self.reader is None or not summary:
            return frozenset()
        return self._antonym_set(summary, tag)

    def widened(self) -> Lexicon:
        """A Lexicon over the same reader (and lock) that considers every WordNet sense of
        a word (:data:`WIDE_SENSES`), made once and kept. For a relation whose subject
        and object already match, the arguments pick the sense: "Atlas Motors fired its
        CFO" meets "Atlas Motors dismissed its CFO" through fire/dismiss's shared fourth
        sense (displace.v.03), which the first three senses of each leave out
        (docs/lexical.md). Without WordNet it is this Lexicon."""
        if self.reader is None or self.senses >= WIDE_SENSES:
            return self
        with self._lock:
            if self._wide is None:
                self._wide = Lexicon(
                    self.reader,
                    senses=WIDE_SENSES,
                    up_depth=self.up_depth,
                    down_depth=self.down_depth,
                    cache_size=self.cache_size,
                    source=self.source,
                    lock=self._lock,
                )  # one reader, one lock
            return self._wide

    def opposites(self, summary_lemma: str, pos: str) -> frozenset[str]:
        """:meth:`antonyms` and, for a verb, WordNet's indirect antonyms, for a caller that
        has already tied the two words to one claim (:mod:`halluscope.match.polarity`): the
        antonyms of the verb's direct hypernyms and their direct troponyms ("ban" is a way
        to "forbid", the antonym of "allow": "banned" against "allowed"), one step each
        way over the considered senses (docs/lexical.md#sentence-contradictions). Not for
        an adjective: its satellite senses make indirect antonyms of another sense
        ("small", similar to "young" in "small children", would oppose "old"). Empty
        without WordNet."""
        tag = _tag(pos)
        return (
            self._answer(
                "opposites " + tag, normalise_lemma(summary_lemma), lambda summary: self._opposites(summary, tag)
            )
            or frozenset()
        )

    def _opposites(self, summary: str, tag: str) -> frozenset[str]:
        found = set(self._antonym_set(summary, tag))
        if tag == "v":
            for synset in self._considered(summary, tag):
                for broad in synset.hypernyms():
                    for antonym in _antonym_synsets(broad):
                        found.update(self._lemmas_considering(antonym, tag))
                for antonym in _antonym_synsets(synset):
                    for narrow in antonym.hyponyms():
                        found.update(self._lemmas_considering(narrow, tag))
        found.discard(summary)
        return frozenset(found)

    def _answer(self, question: str, word: str, ask: Callable[[str], Any]) -> Any:
        """``ask(word)`` under the lock, once per (question, word) while cached; None
        without WordNet or without a word."""
        if self.reader is None or not word:
            return None
        key = ("answer", question, word)
        with self._lock:
            hit = self._answers.get(key)
            if hit is None:
                hit = self._answers.put(key, (ask(word),))
            return hit[0]

    # -- internals: every reader access below runs under self._lock ----------------------

    def _offsets(self, form: str, tag: str) -> tuple[int, ...]:
        """Offsets of the first ``senses`` synsets of the exact WordNet lemma ``form``
        ("take_over"), in WordNet's order; () when WordNet has no such lemma. Read from the
        index NLTK's reader keeps in memory, so no synset is parsed; through the public
        ``synsets()`` when a future NLTK renames that index."""
        index = getattr(self.reader, "_lemma_pos_offset_map", None)
        if isinstance(index, dict):
            return tuple(index.get(form, {}).get(tag, ())[: self.senses])
        key = ("offsets", form, tag)
        hit = self._answers.get(key)
        if hit is None:
            hit = self._answers.put(
                key,
                tuple(
                    synset.offset()
                    for synset in self.reader.synsets(form, tag)
                    if any(name.lower() == form for name in synset.lemma_names())
                )[: self.senses],
            )
        return hit

    def _considered(self, lemma: str, tag: str) -> tuple[Any, ...]:
        """The first ``senses`` synsets of a normalised lemma: WordNet's own senses of that
        exact lemma when it has some, else those of its base forms (NLTK's morphy)."""
        key = ("senses", lemma, tag)
        with self._lock:
            hit = self._answers.get(key)
            if hit is not None:
                return hit
            form = lemma.replace(" ", "_")
            offsets = self._offsets(form, tag)
            if offsets:
                synsets = tuple(self.reader.synset_from_pos_and_offset(tag, offset) for offset in offsets)
            else:
                synsets = tuple(self.reader.synsets(form, tag)[: self.senses])
            self._trim_reader()
            return self._answers.put(key, synsets)

    def _trim_reader(self) -> None:
        """Once NLTK's own cache of parsed synsets holds more than
        :data:`READER_SYNSET_CAP` (it keeps every synset it ever parsed, outside the
        memory budget), drop the older half of each part of speech's (the first parsed;
        a synset read again is parsed again, and equal to the first). Emptying it all
        made a call whose synsets outnumber the cap read them over and over."""
        cache = getattr(self.reader, "_synset_offset_cache", None)
        if isinstance(cache, dict) and sum(len(per_pos) for per_pos in cache.values()) > READER_SYNSET_CAP:
            for per_pos in cache.values():
                for offset in list(itertools.islice(per_pos, len(per_pos) // 2 + 1)):
                    del per_pos[offset]

    def _lemmas_considering(self, synset: Any, tag: str) -> Iterator[str]:
        """The lemmas of ``synset`` for which it is one of their considered senses."""
        offset = synset.offset()
        for name in synset.lemma_names():
            if offset in self._offsets(name.lower(), tag):
                yield normalise_lemma(name)

    def _antonym_set(self, summary: str, tag: str) -> frozenset[str]:
        key = ("antonyms", summary, tag)
        with self._lock:
            hit = self._answers.get(key)
            if hit is not None:
                return hit
            found: set[str] = set()
            for synset in self._considered(summary, tag):
                for antonym in _antonym_synsets(synset):
                    found.update(self._lemmas_considering(antonym, tag))
            found.discard(summary)
            return self._answers.put(key, frozenset(found))

    def _supporter_map(self, summary: str, tag: str) -> Supporters:
        key = ("supporters", summary, tag)
        with self._lock:
            hit = self._answers.get(key)
            if hit is None:
                hit = self._answers.put(key, Supporters(summary, self._relations(summary, tag, walk=True)))
            return hit

    def _close_map(self, summary: str, tag: str) -> dict[str, str]:
        """Lemma -> "synonym" or "derivation" for :meth:`close_link`: the supporter map
        without its walks through the hierarchy (antonyms left out)."""
        key = ("close", summary, tag)
        with self._lock:
            hit = self._answers.get(key)
            if hit is None:
                relations = self._relations(summary, tag, walk=False)
                relations.pop(summary, None)
                hit = self._answers.put(key, relations)
            return hit

    def _relations(self, summary: str, tag: str, walk: bool) -> dict[str, str]:
        """Lemma -> relation of every word that supports ``summary`` (under the lock): the
        word itself, its synonyms, with ``walk`` the hypernym-side and troponym/hyponym-side
        words, entailing verbs and verb-group members, then its derivations; antonyms
        removed."""
        relations: dict[str, str] = {summary: "same"}
        considered = self._considered(summary, tag)

        def add(synsets: Any, relation: str) -> None:
            for synset in synsets:
                for lemma in self._lemmas_considering(synset, tag):
                    relations.setdefault(lemma, relation)

        add(considered, "synonym")
        if walk:
            add(_within(considered, _more_specific, self.up_depth), "hypernym")
            add(_within(considered, _more_general, self.down_depth), "troponym" if tag == "v" else "hyponym")
            if tag == "v":
                entailed_by = self._entailment_index()
                add((source for synset in considered for source in entailed_by.get(synset, ())), "entailment")
                add((group for synset in considered for group in synset.verb_groups()), "verb_group")
        wordnet_form = summary.replace(" ", "_")
        for synset in considered:
            for lemma in synset.lemmas():
                if lemma.name().lower() == wordnet_form:
                    for related in lemma.derivationally_related_forms():
                        relations.setdefault(normalise_lemma(related.name()), "derivation")
        for antonym in self._antonym_set(summary, tag):
            relations.pop(antonym, None)
        self._trim_reader()
        return relations

    def _entailment_index(self) -> dict[Any, tuple[Any, ...]]:
        """Entailed verb synset -> the synsets entailing it (WordNet stores only the
        forward pointer); built once from the ~400 ``*`` pointers of data.verb."""
        with self._lock:
            if self._entailed_by is None:
                index: dict[Any, list[Any]] = {}
                stream = self.reader.root.join("data.verb").open()
                try:
                    data = stream.read()
                finally:
                    stream.close()
                for line in data.splitlines():
                    if line[:1].isdigit() and b" * " in line.split(b" | ", 1)[0]:
                        synset = self.reader.synset_from_pos_and_offset("v", int(line.split(b" ", 1)[0]))
                        for entailed in synset.entailments():
                            index.setdefault(entailed, []).append(synset)
                self._entailed_by = {key: tuple(value) for key, value in index.items()}
            return self._entailed_by


#: NLTK's reader keeps every synset it parses (about 2.7 KB each, measured: 20,000 noun
#: synsets, +53 MB of RSS); past this many a Lexicon drops the older half of that cache
#: (:meth:`Lexicon._trim_reader`, docs/scaling.md#memory). 24,000 (about 65 MB) holds the
#: synsets one call over 400 FRANK rows with references reads (16,200; 400 SummEval rows:
#: 11,900), which a cap of 10,000 made it parse 19,600 times (session 17)
READER_SYNSET_CAP = 24_000
