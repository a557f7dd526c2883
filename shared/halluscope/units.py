"""Unit types: the things the CHI family counts (entities, relations, quantities).

Every unit carries a ``key`` (its canonical identity: two mentions with the same key
in one text are one unit, so a quantity mentioned twice is counted once), the surface
``text`` of its first mention and that mention's character ``span`` in the text it
was extracted from.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

Span = tuple[int, int]


class Evidence(Protocol):
    """What a :class:`Match` holds as evidence: a unit of the pool, or a
    :class:`TextEvidence` piece of its text; each has its surface text and span."""

    @property
    def text(self) -> str: ...

    @property
    def span(self) -> Span: ...


@dataclass(frozen=True)
class EntityUnit:
    """A named entity (non-numeric spaCy label). ``key`` is its canonical form."""

    key: str
    text: str
    span: Span
    label: str
    kind: str = field(default="entity", init=False)


@dataclass(frozen=True)
class RecoveredEntity(EntityUnit):
    """A source's name that a lower-cased summary writes but its parse did not tag
    (:func:`halluscope.ehi.recovered_names.named_in_lowercase`): looked for in another
    name's place only, and counted only when found there."""


#: the label of an :class:`IntroducedName` WordNet does not have, and what
#: :meth:`halluscope.lexicon.lexical.Lexicon.name_kind` answers for such a word
UNKNOWN_NAME = "UNKNOWN"


@dataclass(frozen=True)
class IntroducedName(EntityUnit):
    """A word a lower-cased summary writes as a name that its source never writes and its
    parse did not tag (:func:`halluscope.ehi.recovered_names.introduced_names`,
    :func:`halluscope.ehi.recovered_names.introduced_organisations`): WordNet knows it only
    as a proper noun or not at all, the parse reads it as a proper noun, or it is an
    organisation noun with a modifier the source never writes. Its ``label`` is WordNet's
    kind of name (PERSON, GPE, ORG, LOC), ORG for an organisation, or ``"UNKNOWN"``."""


#: ``RelationUnit.source`` of a subject-verb pair from an agentless passive.
PASSIVE_PAIR = "passive-intransitive"
#: ``RelationUnit.source`` of a noun-preposition-noun triple (RHI paper, Algorithm 3)
NOMINAL = "nominal"
#: ``RelationUnit.source`` of the copula an apposition states ("Smith, the opposition leader,":
#: (smith, be, opposition leader)), evidence only (``RelationUnit.appositive``)
APPOSITION = "apposition"


@dataclass(frozen=True)
class RelationUnit:
    """A (subject, verb, object) triple; ``verb`` keeps the ``not_`` prefix when negated
    (RHI paper, Algorithm 2, line 12; docs/papers.md#relation-extraction). ``object`` is ``""`` for a subject-verb pair
    (an object-less verb, extracted with ``intransitive="passive"`` or ``"all"``)."""

    subject: str
    verb: str
    object: str
    text: str
    span: Span
    # which rule produced it: verb | passive | clausal | conj | nominal | intransitive
    # | passive-intransitive (PASSIVE_PAIR: a pair whose subject is the verb's patient)
    source: str = "verb"
    kind: str = field(default="relation", init=False)
    #: the verb's prepositional and dative arguments that name a party of a transfer,
    #: as (preposition, slot key): ("to", "moldova") for "lent ... to Moldova" or "gave
    #: Moldova ...", ("from", "germany") for "borrowed ... from Germany"; not part of the
    #: key (docs/lexical.md#transfers)
    roles: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    #: a source's triple restated with a name in apposition to one of its arguments ("The
    #: inmate, Connor Reilly, was caught by police" also gives (police, catch, connor
    #: reilly)): evidence in a pool only, never a claim of its own
    #: (docs/papers.md#relation-extraction-appositions)
    appositive: bool = False
    #: the subject is an agentless passive's patient and the triple has an object ("the
    #: defendant was offered a plea deal"): not the verb's agent, so its place in a
    #: source predicate says nothing of reversed roles (:mod:`halluscope.text.index`)
    patient_subject: bool = field(default=False, compare=False)

    def role(self, preposition: str) -> str:
        """The slot key of the argument introduced by ``preposition`` ("" when none)."""
        return next((key for name, key in self.roles if name == preposition), "")

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.subject, self.verb, self.object)

    @property
    def negated(self) -> bool:
        return self.verb.startswith("not_")

    @property
    def lemma(self) -> str:
        """The verb without its negation prefix."""
        return self.verb[4:] if self.negated else self.verb

    @property
    def subject_is_patient(self) -> bool:
        """A subject-verb pair from an agentless passive ("Thomas was arrested"): its
        subject is what the verb acts on, not who acts."""
        return self.source == PASSIVE_PAIR

    def as_sentence(self) -> str:
        """The "subject verb object" string the CHI paper embeds (§3.3; docs/papers.md#relation-matching)."""
        verb = ("not " + self.lemma) if self.negated else self.lemma
        return f"{self.subject} {verb} {self.object}".rstrip()


@dataclass(frozen=True)
class QuantityUnit:
    """A normalised quantity: (kind, unit, value).

    ``kind`` is one of ``number``, ``money``, ``percent``, ``measure``, ``ordinal``,
    ``date``, ``time``; ``unit`` the currency code or physical unit (``""`` when
    dimensionless); ``value`` a float. Dates carry ``interval`` (ISO start, ISO end,
    both inclusive) instead of relying on ``value``. ``anchor`` is the lemma of the
    governing noun phrase head (CHI paper §3.4.1, docs/papers.md#qhi): it breaks ties,
    tells a moved number (:mod:`halluscope.qhi.match`) and, with ``direction``,
    is part of a number's key (5 people and 5 cars are two units).
    """

    qkind: str
    unit: str
    value: float | None
    text: str
    span: Span
    anchor: str = ""
    interval: tuple[str, str] | None = None
    approximate: bool = False
    # dates only: a relative expression ("last tuesday") kept unresolved until a
    # publication date is known at matching time (CHI paper §3.4.2, temporal mode; docs/papers.md#qhi),
    # or a date naming no calendar day ("31 February 2020"), which only the same words match
    relative: str = ""
    # "lower" for "more than 150", "upper" for "up to 150", "" otherwise
    bound: str = ""
    # "up" / "down" when the sentence makes the quantity a change ("rose 5%", "a 5% fall"),
    # "" otherwise; the derivations its own words state ("sum" for "a combined $2.5bn"):
    # what derived matching may use (extract.quantities.context, docs/papers.md#qhi)
    direction: str = field(default="", compare=False)
    derivations: frozenset[str] = field(default=frozenset(), compare=False)
    # a count of its anchor: the number modifies that common noun ("5 people", "400
    # migrants"), rather than an anchor reached through a name or a verb ("Pama, 28");
    # or a rank of it: an ordinal modifying the noun ("his third shot", not "finished third")
    counted: bool = field(default=False, compare=False)
    #: written to its last unit, never rounded: a compound duration ("eight minutes and 44
    #: seconds") or a race time ("2:08:44"); the epsilon tolerance does not apply
    #: (docs/papers.md#qhi-compound-durations)
    precise: bool = field(default=False, compare=False)
    #: the spans of its later mentions, same key (:func:`dedupe`): the swap check reads
    #: each place ("in 2016" said twice, the second where the source has 1977)
    repeats: tuple[Span, ...] = field(default=(), compare=False)
    kind: str = field(default="quantity", init=False)

    @property
    def key(self) -> tuple[Hashable, ...]:
        if self.relative:
            return (self.qkind, "relative", self.relative)
        if self.interval is not None:
            return (self.qkind, self.interval)
        # one amount of two things, or in two directions, is two facts ("5% of costs fell and
        # sales rose 5%"): anchor and direction are part of a number's identity when given
        return (self.qkind, self.unit, self.value) + tuple(part for part in (self.anchor, self.direction) if part)


@dataclass(frozen=True)
class Match:
    """How one unit was found in a pool: ``mode`` (exact, acronym, partial_name,
    synonym, text, slots, cooccurrence, sentence, epsilon, derived, temporal, or a
    WordNet relation such as hypernym or antonym; swapped and replaced for a unit whose
    place the source gives another, :mod:`halluscope.ehi.swaps`), the ``evidence`` units of
    the pool it matched, a ``score`` (1.0 for exact; cosine or relative error
    otherwise) and a human-readable ``detail``. ``contradicts``: the evidence
    contradicts the unit (a WordNet antonym, a swap): the unit is found, but not supported
    (status ``contradicted``)."""

    mode: str
    evidence: tuple[Evidence, ...]
    score: float = 1.0
    detail: str = ""
    contradicts: bool = False


@dataclass(frozen=True)
class TextEvidence:
    """A piece of a pool's text (not one of its units) that grounds a unit:
    ``text`` is ``pool_text[span[0]:span[1]]`` (see :mod:`halluscope.text.index`)."""

    text: str
    span: Span


def dedupe(units: Sequence) -> list:
    """Keep the first mention of each key, in text order (RHI Algorithm 1, line 14); a
    unit with ``repeats`` (a quantity) records the spans of the later mentions there."""
    first: dict[Hashable, int] = {}
    out: list = []
    repeats: dict[int, list[Span]] = {}
    for unit in units:
        at = first.get(unit.key)
        if at is None:
            first[unit.key] = len(out)
            out.append(unit)
        elif hasattr(unit, "repeats") and unit.span != out[at].span:
            repeats.setdefault(at, []).append(unit.span)
    for at, spans in repeats.items():
        out[at] = replace(out[at], repeats=tuple(spans))
    return out
