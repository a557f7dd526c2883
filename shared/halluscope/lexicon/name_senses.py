"""What WordNet says a name stands for: a person, a place, a group or a natural object
(:meth:`NameQueries.name_kind`), an organisation (:meth:`NameQueries.is_organisation`) and the
places a name or demonym ties to (:meth:`NameQueries.places`); queries of
:class:`halluscope.lexicon.lexical.Lexicon` (docs/lexical.md,
docs/papers.md#ehi-names-in-lower-case-summaries)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..units import UNKNOWN_NAME
from .links import _more_general, normalise_lemma


class NameQueries:
    """The name and place queries of :class:`halluscope.lexicon.lexical.Lexicon`, which
    provides the reader, the answer cache (``_answer``) and ``_trim_reader``."""

    if TYPE_CHECKING:
        reader: Any

        def _answer(self, question: str, word: str, ask: Callable[[str], Any]) -> Any: ...

        def _trim_reader(self) -> None: ...

    def name_kind(self, word: str) -> str | None:
        """What WordNet says a lower-case word names (docs/papers.md#ehi-names-in-lower-case-summaries):
        ``"PERSON"``, ``"GPE"``, ``"ORG"`` or ``"LOC"`` when every WordNet lemma the word (or
        its base form) stands for is written with a capital and its first (most frequent)
        noun sense is a person, a place, a group or a natural object ("holmes", "galloway",
        "samaritans", "delaware": the river);
        :data:`halluscope.units.UNKNOWN_NAME` when WordNet has the word in no part of speech ("eamonn",
        "kingsholm"); None for every other word (a common word in any sense, "china",
        "sky"; a name whose first sense is a day, a language or a thing, "sunday",
        "english") and always without WordNet."""
        return self._answer("name_kind", normalise_lemma(word), self._name_kind)

    def is_organisation(self, noun: str) -> bool:
        """Whether a noun's first (most frequent) WordNet noun sense is an organisation, a
        synset under organization.n.01 ("league", "party", "council", "agency",
        "company"; not "group", whose first sense is an abstraction, nor "centre"); False
        for any other word and without WordNet (docs/papers.md#ehi-names-in-lower-case-summaries)."""
        return bool(self._answer("organisation", normalise_lemma(noun), self._is_organisation))

    def places(self, name: str) -> frozenset[str]:
        """The places WordNet says a name stands for (docs/papers.md#ehi-places-and-demonyms),
        as synset names: the place senses (:data:`_PLACE_LEXNAMES`) of the name itself ("Kenya";
        "Britain": united_kingdom.n.01) and of every place a lemma of it pertains to or
        derives from ("Kenyan" -> Kenya; "British" -> Great_Britain, whose senses are the
        island and the United Kingdom). Case and spaces are ignored ("south korean" ->
        South_Korea). Empty for a name WordNet does not tie to a place, and without
        WordNet."""
        form = "_".join(name.split())
        return self._answer("places", form.lower(), lambda _: self._places(form)) or frozenset()

    def _name_kind(self, word: str) -> str | None:
        synsets = self.reader.synsets(word)
        self._trim_reader()
        if not synsets:
            return UNKNOWN_NAME
        for synset in synsets:
            base = self.reader.morphy(word, synset.pos()) or word
            if any(name.lower() in (word, base) and not name[0].isupper() for name in synset.lemma_names()):
                return None
        first_noun = next((synset for synset in synsets if synset.pos() == "n"), None)
        return None if first_noun is None else _PROPER_NOUN_KINDS.get(first_noun.lexname())

    def _is_organisation(self, noun: str) -> bool:
        senses = self.reader.synsets(noun, "n")
        found = bool(senses) and any(
            synset.name() == _ORGANISATION for synset in [senses[0], *senses[0].closure(_more_general)]
        )
        self._trim_reader()
        return found

    def _places(self, form: str) -> frozenset[str]:
        def located(lemma_name: str) -> list[str]:
            return [s.name() for s in self.reader.synsets(lemma_name, "n") if s.lexname() in _PLACE_LEXNAMES]

        found = set(located(form))
        base = self.reader.morphy(form.lower(), "n") or form  # "Kenyans" -> "kenyan"
        # a list: NLTK's lemmas compare equal by name alone, so a set keeps one "Welsh" of five
        lemmas = self.reader.lemmas(form) + (self.reader.lemmas(base) if base.lower() != form.lower() else [])
        for lemma in lemmas:
            for target in lemma.pertainyms() + lemma.derivationally_related_forms():
                found.update(located(target.name()))
        self._trim_reader()
        return frozenset(found)


#: the entity label of a WordNet proper noun by the lexicographer file of its sense; a
#: name WordNet files as a natural object is a river, a mountain, an island or a continent
#: ("Delaware": the river first, then the state; "Thames", "Europe")
_PROPER_NOUN_KINDS = {"noun.person": "PERSON", "noun.location": "GPE", "noun.group": "ORG", "noun.object": "LOC"}


#: the synset every organisation noun's first sense lies under (:meth:`NameQueries.is_organisation`)
_ORGANISATION = "organization.n.01"


#: the lexicographer files of the senses :meth:`NameQueries.places` counts as places: regions,
#: countries and cities, and the continents WordNet files as objects ("Europe")
_PLACE_LEXNAMES = frozenset({"noun.location", "noun.object"})
