"""A triple stated through its parties or its wording: transfers seen from either party,
reversed roles, nominalisations and verbalisations (docs/lexical.md#reversed-roles); read by
RHI's text grounding (:mod:`.grounding`)."""

from __future__ import annotations

from ..text.index import IndexedSentence, TextIndex, _Predicate, linkable, word_stem
from ..units import NOMINAL, Match, RelationUnit, TextEvidence
from .roles import _only_on, _predicate_link, _slot_words

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
    "receive", "buy") (:meth:`~halluscope.lexicon.lexical.Lexicon.transfer_direction`) and that
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
