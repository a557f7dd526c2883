"""RHI's text grounding (``grounding="text"``, docs/architecture.md#layers): a triple no
pool triple matched, found in one sentence of the pool's text. The checks of a predicate's
roles are in :mod:`.roles`, transfers, nominalisations and reversed roles in :mod:`.transfers`.

``cooccurrence`` (relations)
    One sentence of the pool holds the triple's subject and object (every word,
    as written or as lemma, a plural "s" ignored) and a verb with the triple's lemma
    and polarity (for a nominal triple, its preposition) that does not put the
    subject on its object side or the object on its subject side (a role swap):
    "(police, arrest, richards)" is grounded by "Richards was arrested by police on
    Monday", not by "Richards arrested the police". A subject-verb pair has no
    object to pin the verb down, so the verb must have the pair's subject in the
    same role, as the relation extractor reads the source
    (:func:`~halluscope.text.predicates.predicate_arguments`): as its subject for
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
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from ..text.index import _WORD_CHARS, TextIndex, linkable, word_stem
from ..units import NOMINAL, Match, RelationUnit, TextEvidence
from .roles import (
    _another_controls,
    _converse,
    _in_roles,
    _negation_contradicts,
    _object_acts,
    _particle_apart,
    _patient_swapped,
    _predicate_link,
    _slot_words,
    _swapped,
    _wide_link,
)
from .transfers import _derived_nouns, _directed, _nominalisation, _reversed_roles, _verbalisation, transfer_in_text


def relation_in_sentence(unit: RelationUnit, index: TextIndex, lexicon=None) -> Match | None:
    """The ``cooccurrence`` rule for a relation triple or a subject-verb pair (module
    docstring) in the indexed pool text, or None. A triple without a subject is never grounded this way.
    With a ``lexicon`` (:class:`halluscope.lexicon.lexical.Lexicon`) the predicate may be a
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
    possession (:meth:`~halluscope.lexicon.lexical.Lexicon.transfers_possession`) with the
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
