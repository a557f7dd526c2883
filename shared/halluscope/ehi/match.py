"""Entity matching for EHI (CHI paper §3.2; docs/papers.md#ehi).

A query entity is found in a pool when one of these holds, tried in order
(the first that succeeds is reported):

``exact``
    Same canonical key. Labels are ignored: spaCy's labels are noisy (with sm, the
    same "Manchester United" is GPE in one sentence and PERSON in the next), and
    the key already identifies the string.
``synonym``
    Both keys map to the same canonical name in the user's dictionary (keys and
    values compared after :func:`canonical_entity`; a name absent from the
    dictionary maps to itself). This is the hook standing in for the paper's UMLS
    normalisation.
``acronym``
    The keys are equal once dots are removed ("U.S." ~ "US"), or one side is an
    all-caps token whose letters are the initials of the other's content words,
    of/the/and/for/& skipped ("WHO" ~ "World Health Organization", "US" ~ "United
    States"). This is the paper's "acronym expansion". For lowercased corpora an
    all-lowercase token of 2-5 letters labelled ORG/GPE/LOC/NORP/FAC also counts as
    an acronym ("uk" ~ "United Kingdom"), and an all-lowercase name has initials.
``place``
    (``formula="support"`` with WordNet) Both names stand for one place in WordNet,
    neither labelled PERSON: a country and its people's adjective or plural ("Kenya" ~
    "Kenyan", "Kenyans"; "Britain" ~ "British"), or two names of one place ("Britain"
    ~ "United Kingdom") (:meth:`halluscope.lexicon.lexical.Lexicon.places`;
    docs/papers.md#ehi-places-and-demonyms). A city and its country stay apart
    ("Nairobi" is not "Kenyan").
``partial_name``
    One name's tokens are a contiguous run of the other's, the longer having at
    least two tokens ("Obama" ~ "Barack Obama"), the shorter name being
    capitalised, i.e. every word has an upper-case letter (no common words; an
    all-lowercase PERSON mention, as in lowercased corpora, is trusted as a name),
    and so the matched words of a longer non-PERSON name. The shared words must
    pick out the same entity:

    * *a person's name part.* At least one side must be PERSON; when only one is,
      the shorter name must end the longer one (a surname), so "Paris" (GPE) does
      not match "Paris Hilton" (PERSON) and "Washington" does not match "George
      Washington University", while a mislabelled "Obama" (GPE) still matches
      "Barack Obama" (PERSON). Whole tokens only: "Obama" never matches
      "Obamacare". A name nested in a longer non-person name ("London" in
      "Westfield London") does not match.
    * *a distinctive word.* The shared words may not all be generic words of
      organisation and place names (:data:`GENERIC_NAME_WORDS`: "City", "United",
      "Real", "Club", "Bank", "North", ...), which many entities share: "United"
      does not match "Manchester United" (sm often labels clubs PERSON), nor
      "Manchester United" the source's "United".
    * *the summary's extra words are claims of their own.* When the query (the
      summary's name) is the shorter one, the rules above suffice: "Obama" or
      "Smith" names no more than the source's "Barack Obama" or "John Smith". When
      the query is the **longer** one ("Barack Obama" against a source's "Obama",
      "Atletico Madrid" against "Madrid"), its extra words must be stated in the
      pool's text (``job.pool_index``; without one, as under ``grounding="units"``,
      a longer query never matches this way). Some mention of the shorter name
      (whole words, case ignored) must

      - sit in a sentence that also writes each extra word *on its own*: outside
        that mention, outside every named entity (any label) holding a word that
        is not one of the query's ("Jeremy" of "Jeremy Hunt" is said of Hunt; the
        entity "Barack" may vouch for "Barack Obama"), and not right beside
        another name ("Madrid" of an untagged "Real Madrid");
      - not show another name in the extra words' place: the token right before
        the mention (for extra words before the shared ones) or right after it
        (for extra words after them) may not be a proper noun (PROPN, or
        capitalised and not sentence-initial) that is none of the query's words
        and no title (:data:`~halluscope.ehi.name_mentions.TITLE_WORDS`: "Mr Corbyn", "President Obama").

      So "Atletico Madrid" is supported neither by "Real Madrid beat Barcelona"
      (no "Atletico"; "Real" stands before "Madrid") nor by "The match in Madrid
      ended 2-1", and "Barack Obama" not by "Obama visited Paris.", nor "Jeremy
      Corbyn" by "Corbyn spoke after Jeremy Hunt.": a first name the source never
      gives its person is an extrinsic claim (on FRANK's validation set such names,
      "john simpson", "sarah storey", "juan martin del potro" against a source's
      "Simpson", "Storey", "Del Potro", were nearly all in summaries annotated
      unfaithful). "Barack Obama" is supported by "Obama, whose first name is
      Barack, visited Paris." and "Atletico Madrid" by "Atletico won the final in
      Madrid." The rule holds for every pool, a reference included: a summary's
      "Barack Obama" is not the reference's "Obama" unless the reference's text
      says "Barack" too (so it cannot reach the source through the reference
      either).

    Known limitations: a short *place* name in the summary still matches a longer
    name the NER labels PERSON ("Madrid" ~ "Atletico Madrid", "Jordan" ~ "Michael
    Jordan"): nothing in the strings tells a place from a surname (the ``text``
    rule would find those words in the source anyway); an extra word the source
    says alone of someone else in the same sentence still counts ("Jane Smith"
    matches the "Jane" of "Smith thanked Jane after the race."); and a correct
    first name the source never writes is unsupported ("Alex Salmond" against "Mr
    Salmond"). Under formula="paper" this lowers PH/EF when a summary names a
    person more fully than the reference does.

Evidence is one pool unit satisfying the rule (the first in pool order for
exact, synonym and partial-name matches); score 1.0.
Matching is string work: each pool is indexed once (keys, undotted keys,
acronyms, initials, token tuples), so a job costs O(|queries| + |queries|·|names|)
dictionary look-ups and tuple comparisons, plus, for a longer query that passes the
name rules, one search of the pool's text for the shorter name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from halluscope.ehi.name_mentions import _capitalised, _extra_words_stated

from ..match import MatchJob
from ..match.text_search import ground_unmatched
from ..text.index import TextIndex
from ..text.names import (
    acronym_form,
    canonical_entity,
    initials,
    lowercase_acronym,
    surface_form,
    undotted,
)
from ..units import EntityUnit, Match
from .grounding import entity_in_text
from .recovered_names import GENERIC_NAME_WORDS


class _Profile:
    """Everything the rules need about one unit, computed once."""

    __slots__ = ("unit", "key", "undotted", "synonym", "surface", "acronym", "initials", "tokens", "caps", "person")

    def __init__(self, unit: EntityUnit, synonyms: Mapping[str, str]) -> None:
        self.unit = unit
        self.key = unit.key
        self.undotted = undotted(unit.key)
        self.synonym = synonyms.get(unit.key, unit.key)
        self.surface = surface_form(unit.text, unit.label)
        self.acronym = acronym_form(self.surface) or _lowercase_acronym(self.surface, unit.label)
        self.initials: frozenset[str] = initials(self.surface)
        words = self.surface.split()
        self.tokens: tuple[str, ...] = tuple(w.casefold() for w in words)
        self.person = unit.label == "PERSON"
        if self.person and self.surface == self.surface.lower():
            # a lowercased corpus (CNN/DM summaries): NER's PERSON label vouches for it
            self.caps: tuple[bool, ...] = tuple(True for _ in words)
        else:
            self.caps = tuple(_capitalised(w) for w in words)


#: labels under which an all-lowercase short token may be an acronym ("us", "uk")
LOWERCASE_ACRONYM_LABELS = frozenset({"ORG", "GPE", "LOC", "NORP", "FAC"})


def _lowercase_acronym(surface: str, label: str) -> str | None:
    """In a lowercased corpus "us"/"uk" (tagged GPE/ORG/...) is an acronym: a single
    all-lowercase token of 2-5 letters under :data:`LOWERCASE_ACRONYM_LABELS`."""
    return lowercase_acronym(surface, 5) if label in LOWERCASE_ACRONYM_LABELS else None


def _shown(p: _Profile) -> str:
    """An acronym as written, dots kept ("U.S.")."""
    return p.unit.text if p.surface in p.unit.text else p.surface


def _find_run(short: tuple[str, ...], long: tuple[str, ...]) -> int:
    """Start index of ``short`` as a contiguous run of ``long`` (last occurrence), or -1."""
    n = len(short)
    for start in range(len(long) - n, -1, -1):
        if long[start : start + n] == short:
            return start
    return -1


def _partial_name(q: _Profile, p: _Profile, text: TextIndex | None) -> str | None:
    """The partial-name rule (module docstring) for query ``q`` and pool name ``p``,
    ``text`` the pool's text index (or None); returns a detail string or None."""
    if not (q.person or p.person) or len(q.tokens) == len(p.tokens):
        return None
    short, long = (q, p) if len(q.tokens) < len(p.tokens) else (p, q)
    if len(long.tokens) < 2 or not all(short.caps):
        return None
    start = _find_run(short.tokens, long.tokens)
    if start < 0:
        return None
    end = start + len(short.tokens)
    if not long.person and not all(long.caps[start:end]):
        return None
    if not (short.person and long.person) and end != len(long.tokens):
        return None  # mixed labels: only a surname-like ending counts
    if all(t in GENERIC_NAME_WORDS for t in short.tokens):
        return None  # "City", "United": shared by many entities
    detail = f"partial name {short.surface} ~ {long.surface}"
    if short is q:
        return detail
    # the summary's name is the longer one: its extra words must be in the pool's text
    if text is None:
        return None
    stated = _extra_words_stated(q.tokens[:start], short.tokens, q.tokens[end:], text)
    return None if stated is None else f"{detail}; {stated}"


class _PoolIndex:
    def __init__(self, profiles: Sequence[_Profile]) -> None:
        self.profiles = profiles
        self.by_key: dict[str, _Profile] = {}
        self.by_synonym: dict[str, _Profile] = {}
        self.by_undotted: dict[str, _Profile] = {}
        self.by_acronym: dict[str, _Profile] = {}
        self.by_initials: dict[str, _Profile] = {}
        for p in profiles:
            self.by_key.setdefault(p.key, p)
            self.by_synonym.setdefault(p.synonym, p)
            self.by_undotted.setdefault(p.undotted, p)
            if p.acronym:
                self.by_acronym.setdefault(p.acronym, p)
            for ini in p.initials:
                self.by_initials.setdefault(ini, p)
        # only names that can take part in a partial-name match
        self.names = [p for p in profiles if any(p.caps)]
        self._by_place: dict[str, _Profile] | None = None

    def by_place(self, places: Callable[[str], frozenset[str]]) -> dict[str, _Profile]:
        """The pool's non-person names by each place WordNet ties them to (the first in pool
        order), built on the first query that names a place."""
        if self._by_place is None:
            self._by_place = {}
            for p in self.profiles:
                if not p.person:
                    for place in sorted(places(p.surface)):
                        self._by_place.setdefault(place, p)
        return self._by_place


class EntityMatcher:
    """Match query entities against a pool: exact, synonym, acronym, place, partial_name
    (in that order; see the module docstring for each rule), then, with
    ``text_grounding``, the ``text`` rule of :mod:`halluscope.text.index`
    against ``job.pool_index`` when a job carries one.

    ``synonyms`` maps a name to its canonical name ({"Big Apple": "New York City"});
    ``acronyms`` and ``partial_names`` switch those modes off when False; ``places``
    (:meth:`halluscope.lexicon.lexical.Lexicon.places`, None: off) turns on the ``place`` mode."""

    def __init__(
        self,
        synonyms: Mapping[str, str] | None = None,
        acronyms: bool = True,
        partial_names: bool = True,
        text_grounding: bool = False,
        places: Callable[[str], frozenset[str]] | None = None,
    ) -> None:
        self.synonyms: dict[str, str] = {}
        for name, target in (synonyms or {}).items():
            key, value = canonical_entity(name), canonical_entity(target)
            if key and value:
                self.synonyms[key] = value
        self.acronyms = acronyms
        self.partial_names = partial_names
        self.text_grounding = text_grounding
        self.places = places

    def match_batch(self, jobs: Sequence[MatchJob]) -> list[list[Match | None]]:
        """One list per job, one ``Match`` (or None) per query unit."""
        profiles: dict[EntityUnit, _Profile] = {}
        indexes: dict[tuple[EntityUnit, ...], _PoolIndex] = {}

        def profile(unit: EntityUnit) -> _Profile:
            p = profiles.get(unit)
            if p is None:
                p = profiles[unit] = _Profile(unit, self.synonyms)
            return p

        results: list[list[Match | None]] = []
        for job in jobs:
            pool_key = tuple(job.pool)
            index = indexes.get(pool_key)
            if index is None:
                index = indexes[pool_key] = _PoolIndex([profile(u) for u in pool_key])
            row = [self._match_one(profile(q), index, job.pool_index) for q in job.queries]
            if self.text_grounding and job.pool_index is not None:
                ground_unmatched(row, job.queries, job.pool_index, entity_in_text)
            results.append(row)
        return results

    def _match_one(self, q: _Profile, index: _PoolIndex, text: TextIndex | None) -> Match | None:
        p = index.by_key.get(q.key)
        if p is not None:
            return Match("exact", (p.unit,), 1.0, f"exact {q.key}")
        if self.synonyms:
            p = index.by_synonym.get(q.synonym)
            if p is not None:
                return Match("synonym", (p.unit,), 1.0, f"synonym {q.key} = {p.key} (both {q.synonym})")
        if self.acronyms:
            p = index.by_undotted.get(q.undotted)
            if p is not None:
                return Match("acronym", (p.unit,), 1.0, f"acronym {q.unit.text} = {p.unit.text} (dots ignored)")
            if q.acronym:
                p = index.by_initials.get(q.acronym)
                if p is not None:
                    return Match("acronym", (p.unit,), 1.0, f"acronym {_shown(q)} = {p.surface}")
            for ini in sorted(q.initials):
                p = index.by_acronym.get(ini)
                if p is not None:
                    return Match("acronym", (p.unit,), 1.0, f"acronym {_shown(p)} = {q.surface}")
        if self.places is not None and not q.person:
            for place in sorted(self.places(q.surface)):
                p = index.by_place(self.places).get(place)
                if p is not None:
                    return Match("place", (p.unit,), 1.0, f"place {q.surface} = {p.surface} (WordNet: {place})")
        if self.partial_names and any(q.caps):
            for p in index.names:
                detail = _partial_name(q, p, text)
                if detail is not None:
                    return Match("partial_name", (p.unit,), 1.0, detail)
        return None
