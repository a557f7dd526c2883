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
``partial_name``
    One name's tokens are a contiguous run of the other's, the longer having at
    least two tokens ("Obama" ~ "Barack Obama", in both directions), the shorter
    name being capitalised, i.e. every word has an upper-case letter (no common
    words; an all-lowercase PERSON mention, as in lowercased corpora, is trusted as
    a name), and so the matched words of a longer non-PERSON name. At least one
    side must be PERSON; when only one is, the shorter name must end the longer
    one (a surname), so "Paris" (GPE) does not match "Paris Hilton" (PERSON) and
    "Washington" does not match "George Washington University", while a
    mislabelled "Obama" (GPE) still matches "Barack Obama" (PERSON). Whole tokens
    only: "Obama" never matches "Obamacare". Known limitation of that tolerance:
    "Michael Jordan" (PERSON) also matches the country "Jordan" (GPE). A name
    nested in a longer non-person name ("London" in "Westfield London") does not
    match.

Evidence is one pool unit satisfying the rule (the first in pool order for
exact, synonym and partial-name matches); score 1.0.
Matching is pure string work: each pool is indexed once (keys, undotted keys,
acronyms, initials, token tuples), so a job costs O(|queries| + |queries|·|names|)
dictionary look-ups and tuple comparisons.
"""
from __future__ import annotations

from typing import Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple

from ..extract.entities import (acronym_form, canonical_entity, initials, lowercase_acronym, surface_form,
                                undotted)
from ..units import EntityUnit, Match
from . import MatchJob
from .grounding import entity_in_text, ground_unmatched


class _Profile:
    """Everything the rules need about one unit, computed once."""

    __slots__ = ("unit", "key", "undotted", "synonym", "surface", "acronym", "initials",
                 "tokens", "caps", "person")

    def __init__(self, unit: EntityUnit, synonyms: Mapping[str, str]) -> None:
        self.unit = unit
        self.key = unit.key
        self.undotted = undotted(unit.key)
        self.synonym = synonyms.get(unit.key, unit.key)
        self.surface = surface_form(unit.text, unit.label)
        self.acronym = acronym_form(self.surface) or _lowercase_acronym(self.surface, unit.label)
        self.initials: FrozenSet[str] = initials(self.surface)
        words = self.surface.split()
        self.tokens: Tuple[str, ...] = tuple(w.casefold() for w in words)
        self.person = unit.label == "PERSON"
        if self.person and self.surface == self.surface.lower():
            # a lowercased corpus (CNN/DM summaries): NER's PERSON label vouches for it
            self.caps: Tuple[bool, ...] = tuple(True for _ in words)
        else:
            self.caps = tuple(_capitalised(w) for w in words)


#: labels under which an all-lowercase short token may be an acronym ("us", "uk")
LOWERCASE_ACRONYM_LABELS = frozenset({"ORG", "GPE", "LOC", "NORP", "FAC"})


def _lowercase_acronym(surface: str, label: str) -> Optional[str]:
    """In a lowercased corpus "us"/"uk" (tagged GPE/ORG/...) is an acronym: a single
    all-lowercase token of 2-5 letters under :data:`LOWERCASE_ACRONYM_LABELS`."""
    return lowercase_acronym(surface, 5) if label in LOWERCASE_ACRONYM_LABELS else None


def _capitalised(word: str) -> bool:
    """A name-like word: some letter is upper case ("Obama", "al-Douri", "McLean")."""
    return any(c.isupper() for c in word)


def _shown(p: _Profile) -> str:
    """An acronym as written, dots kept ("U.S.")."""
    return p.unit.text if p.surface in p.unit.text else p.surface


def _find_run(short: Tuple[str, ...], long: Tuple[str, ...]) -> int:
    """Start index of ``short`` as a contiguous run of ``long`` (last occurrence), or -1."""
    n = len(short)
    for start in range(len(long) - n, -1, -1):
        if long[start:start + n] == short:
            return start
    return -1


def _partial_name(a: _Profile, b: _Profile) -> Optional[str]:
    """The partial-name rule (module docstring); returns a detail string or None."""
    if not (a.person or b.person) or len(a.tokens) == len(b.tokens):
        return None
    short, long = (a, b) if len(a.tokens) < len(b.tokens) else (b, a)
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
    return f"partial name {short.surface} ~ {long.surface}"


class _PoolIndex:
    def __init__(self, profiles: Sequence[_Profile]) -> None:
        self.profiles = profiles
        self.by_key: Dict[str, _Profile] = {}
        self.by_synonym: Dict[str, _Profile] = {}
        self.by_undotted: Dict[str, _Profile] = {}
        self.by_acronym: Dict[str, _Profile] = {}
        self.by_initials: Dict[str, _Profile] = {}
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


class EntityMatcher:
    """Match query entities against a pool: exact, synonym, acronym, partial_name
    (in that order; see the module docstring for each rule), then, with
    ``text_grounding``, the ``text`` rule of :mod:`halluscope.match.grounding`
    against ``job.pool_index`` when a job carries one.

    ``synonyms`` maps a name to its canonical name ({"Big Apple": "New York City"});
    ``acronyms`` and ``partial_names`` switch those modes off when False."""

    def __init__(self, synonyms: Optional[Mapping[str, str]] = None, acronyms: bool = True,
                 partial_names: bool = True, text_grounding: bool = False) -> None:
        self.synonyms: Dict[str, str] = {}
        for name, target in (synonyms or {}).items():
            key, value = canonical_entity(name), canonical_entity(target)
            if key and value:
                self.synonyms[key] = value
        self.acronyms = acronyms
        self.partial_names = partial_names
        self.text_grounding = text_grounding

    def signature(self) -> str:
        """Short description of the matching options, for the metric signature."""
        modes = ["exact"]
        if self.synonyms:
            modes.append(f"synonym({len(self.synonyms)})")
        if self.acronyms:
            modes.append("acronym")
        if self.partial_names:
            modes.append("partial_name")
        if self.text_grounding:
            modes.append("text")
        return "+".join(modes)

    def match_batch(self, jobs: Sequence[MatchJob]) -> List[List[Optional[Match]]]:
        """One list per job, one ``Match`` (or None) per query unit."""
        profiles: Dict[EntityUnit, _Profile] = {}
        indexes: Dict[Tuple[EntityUnit, ...], _PoolIndex] = {}

        def profile(unit: EntityUnit) -> _Profile:
            p = profiles.get(unit)
            if p is None:
                p = profiles[unit] = _Profile(unit, self.synonyms)
            return p

        results: List[List[Optional[Match]]] = []
        for job in jobs:
            pool_key = tuple(job.pool)
            index = indexes.get(pool_key)
            if index is None:
                index = indexes[pool_key] = _PoolIndex([profile(u) for u in pool_key])
            row = [self._match_one(profile(q), index) for q in job.queries]
            if self.text_grounding and job.pool_index is not None:
                ground_unmatched(row, job.queries, job.pool_index, entity_in_text)
            results.append(row)
        return results

    def _match_one(self, q: _Profile, index: _PoolIndex) -> Optional[Match]:
        p = index.by_key.get(q.key)
        if p is not None:
            return Match("exact", (p.unit,), 1.0, f"exact {q.key}")
        if self.synonyms:
            p = index.by_synonym.get(q.synonym)
            if p is not None:
                return Match("synonym", (p.unit,), 1.0,
                             f"synonym {q.key} = {p.key} (both {q.synonym})")
        if self.acronyms:
            p = index.by_undotted.get(q.undotted)
            if p is not None:
                return Match("acronym", (p.unit,), 1.0,
                             f"acronym {q.unit.text} = {p.unit.text} (dots ignored)")
            if q.acronym:
                p = index.by_initials.get(q.acronym)
                if p is not None:
                    return Match("acronym", (p.unit,), 1.0, f"acronym {_shown(q)} = {p.surface}")
            for ini in sorted(q.initials):
                p = index.by_acronym.get(ini)
                if p is not None:
                    return Match("acronym", (p.unit,), 1.0, f"acronym {_shown(p)} = {q.surface}")
        if self.partial_names and any(q.caps):
            for p in index.names:
                detail = _partial_name(q, p)
                if detail is not None:
                    return Match("partial_name", (p.unit,), 1.0, detail)
        return None
