"""The answers of :class:`halluscope.lexicon.lexical.Lexicon`: a :class:`Link` between two
lemmas, the read-only :class:`Supporters` map, the lemma normal form and the walks through
WordNet's hierarchy the queries share (docs/lexical.md#relations-and-directions)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, KeysView, Mapping
from dataclasses import dataclass
from typing import Any

#: The parts of speech the queries take, and WordNet's letter for each.
POS_TAGS: Mapping[str, str] = {"verb": "v", "noun": "n", "adj": "a", "adv": "r"}


#: Relation names, in the order :meth:`halluscope.lexicon.lexical.Lexicon.link` checks them
#: ("hyponym" is the name of "troponym" outside verbs).
RELATIONS: tuple[str, ...] = (
    "same",
    "antonym",
    "synonym",
    "hypernym",
    "troponym",
    "hyponym",
    "entailment",
    "verb_group",
    "derivation",
)


@dataclass(frozen=True)
class Link:
    """How a source word relates to a summary word: ``relation`` (one of :data:`RELATIONS`;
    ``"acronym"`` between two relation slots, :func:`halluscope.rhi.slot_links.acronym_link`),
    both lemmas (lower case, words separated by spaces) and a readable ``text`` with the
    summary word first, e.g. "buy ~ purchase (WordNet synonym)", "acquire ⊃ buy (WordNet
    hypernym)", "buy ⊂ acquire (WordNet troponym)"."""

    relation: str
    summary: str
    source: str
    text: str


_SYMBOLS = {
    "same": ("=", "same lemma"),
    "antonym": ("≠", "WordNet antonym"),
    "synonym": ("~", "WordNet synonym"),
    "hypernym": ("⊃", "WordNet hypernym"),
    "troponym": ("⊂", "WordNet troponym"),
    "hyponym": ("⊂", "WordNet hyponym"),
    "entailment": ("⇐", "WordNet entailment"),
    "verb_group": ("≈", "WordNet verb group"),
    "derivation": ("↔", "WordNet derivation"),
}


def make_link(relation: str, summary: str, source: str) -> Link:
    """A :class:`Link` with its text (summary word first)."""
    symbol, name = _SYMBOLS[relation]
    return Link(relation, summary, source, f"{summary} {symbol} {source} ({name})")


def normalise_lemma(lemma: str) -> str:
    """Lower case, surrounding space removed, runs of spaces and "_" as one space
    ("Take_over" -> "take over"): the form of every lemma this module returns."""
    return " ".join(str(lemma).replace("_", " ").lower().split())


class Supporters(Mapping[str, Link]):
    """Read-only mapping lemma -> :class:`Link` (see :meth:`.lexical.Lexicon.supporters`); Links are
    made on access, so a large mapping costs one string per lemma."""

    __slots__ = ("summary", "_relations")

    def __init__(self, summary: str, relations: Mapping[str, str]) -> None:
        self.summary = summary
        self._relations = dict(relations)

    def __getitem__(self, lemma: str) -> Link:
        return make_link(self._relations[lemma], self.summary, lemma)

    def __contains__(self, lemma: object) -> bool:
        return lemma in self._relations

    def __iter__(self) -> Iterator[str]:
        return iter(self._relations)

    def __len__(self) -> int:
        return len(self._relations)

    def keys(self) -> KeysView[str]:
        """The lemmas, as a dict keys view: ``supporters.keys() & source_lemmas`` runs in C."""
        return self._relations.keys()

    def relation(self, lemma: str) -> str | None:
        """The relation name for ``lemma`` without building a Link (None: no support)."""
        return self._relations.get(lemma)

    def __repr__(self) -> str:
        return f"Supporters({self.summary!r}, {len(self)} lemmas)"


def _more_specific(synset: Any) -> list[Any]:
    return synset.hyponyms() + synset.instance_hyponyms()


def _more_general(synset: Any) -> list[Any]:
    return synset.hypernyms() + synset.instance_hypernyms()


def _within(start: tuple[Any, ...], step: Callable[[Any], list[Any]], depth: int) -> list[Any]:
    """Synsets 1..``depth`` steps of ``step`` from ``start`` (breadth first, each once)."""
    seen = set(start)
    found: list[Any] = []
    frontier = deque(start)
    for _ in range(depth):
        following: deque = deque()
        for synset in frontier:
            for neighbour in step(synset):
                if neighbour not in seen:
                    seen.add(neighbour)
                    found.append(neighbour)
                    following.append(neighbour)
        frontier = following
    return found


def _antonym_synsets(synset: Any) -> list[Any]:
    """The synsets holding an antonym of one of ``synset``'s lemmas."""
    return [antonym.synset() for lemma in synset.lemmas() for antonym in lemma.antonyms()]


def _tag(pos: str) -> str:
    try:
        return POS_TAGS[pos]
    except (KeyError, TypeError):
        raise ValueError(f"pos must be one of {', '.join(POS_TAGS)}; got {pos!r}") from None
