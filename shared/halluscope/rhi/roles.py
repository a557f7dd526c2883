"""Whether a source predicate holds a triple's arguments in its roles: swapped, converse or
controlled arguments, and the WordNet link between the two verbs (docs/lexical.md); read by
RHI's text grounding (:mod:`.grounding`)."""

from __future__ import annotations

import dataclasses

from ..text.index import IndexedSentence, TextIndex, _Predicate, linkable
from ..text.syntax import object_controlled


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
    (:func:`~halluscope.text.syntax.object_controlled`) whose subject, the object
    of the verb above it, is not the triple's: "police left the area" is not grounded
    by "police told residents to leave the area", where the residents leave."""
    if patient or index.doc is None or not object_controlled(index.doc[predicate.token]):
        return False
    return not set(subject) <= index.arguments_of(predicate)[0]


def _object_acts(predicate: _Predicate, subject: list[str], obj: list[str], index: TextIndex) -> bool:
    """Whether a directed triple's (:func:`~halluscope.rhi.transfers._directed`, which the caller asks once per
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


def _slot_words(slot: str) -> list[str]:
    return slot.lower().split()


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
    (:meth:`halluscope.lexicon.lexical.Lexicon.widened`)."""
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
