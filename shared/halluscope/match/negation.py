"""Negation flips: a predicate negated on one side of an aligned sentence pair and not on the
other, or a negation the source never makes (docs/lexical.md#sentence-contradictions)."""

from __future__ import annotations

from ..text.clause_words import NEGATIVE_GOVERNORS
from ..text.index import IndexedSentence, TextIndex
from ..text.syntax import (
    effective_negation,
    infinitive_chain,
    is_negated,
    negative_argument,
    verb_lemma,
)
from ..units import Match, TextEvidence
from .claims import _arguments, _evidence, _same_claim

#: words that negate without a ``neg`` dependency ("has no plans to close" = "does not
#: plan to close"): a sentence holding one on either side has no negation flips
NEGATIVE_WORDS = frozenset({"no", "none", "nothing", "nobody", "neither", "nor", "without", "nowhere"})


def negated_by_word(token) -> bool:
    """Whether a word of :data:`NEGATIVE_WORDS` negates ``token`` without a ``neg``
    dependency: it depends on the token or on one of the token's governors ("has no
    plans to close": "no" on "plans", which governs "close"). A negative word elsewhere
    in the sentence ("inspired by none other than Clinton", "no less than 13 of the
    players") says nothing of the token's polarity. A subject or object that says none,
    of the token or of a verb up its chain of infinitives, is not such a word: the
    relation extractor reads it as the token's negation ("Nobody was arrested", "Nobody
    wanted to leave": :func:`~halluscope.text.syntax.effective_negation`)."""
    read = {node.i for node in infinitive_chain(token)}
    for governor in (token, *token.ancestors):
        if any(
            child.lower_ in NEGATIVE_WORDS and not (governor.i in read and negative_argument(child))
            for child in governor.children
        ):
            return True
    return False


def _negation_flip(token, mine, predicates, source: TextIndex) -> Match | None:
    """The summary predicate ``token`` (its indexed predicate ``mine``) against the
    aligned sentence's ``predicates`` of its lemma: a flip when one of them states the
    same claim (:func:`_same_claim`) with the other polarity and none of them states it
    with the summary's polarity or states it without arguments (of whatever subject:
    "will be able to see the eclipse, but it won't be visible" still contradicts "will
    not be able to see the eclipse"). A negative word that negates the token or one of
    those predicates (:func:`negated_by_word`) makes polarity unreadable: no flip."""
    # the summary's index read the token's lemma and polarity already (``mine`` is its
    # predicate there, the same functions' answers)
    lemma = mine.lemma if mine is not None else verb_lemma(token)
    of_lemma = [p for p in predicates if p.lemma == lemma]
    negated = (mine.negated if mine is not None else effective_negation(token)) if of_lemma else False
    # the claim with the other polarity first: most words have none, and need not have
    # their governors walked for negative words
    same = [p for p in of_lemma if p.negated != negated and _same_claim(mine, p)]
    if not same or negated_by_word(token):
        return None
    if any(negated_by_word(source.doc[p.token]) for p in of_lemma):
        return None
    if any(p.negated == negated and (not _arguments(p) or _same_claim(mine, p)) for p in of_lemma):
        return None  # the sentence says it with this polarity too
    there = source.doc[same[0].token]
    side, other = ("negated", "affirmed") if negated else ("affirmed", "negated")
    detail = f"'{lemma}' {side} here, {other} in the aligned source sentence ('{there.text}')"
    return Match("negation", _evidence(there), 0.0, detail, contradicts=True)


#: words with which a source sentence denies something without a ``neg`` dependency:
#: a summary's "did not pay" may restate "refused to pay", "failed to pay", "denied paying"
#: (the relation extractor's negative governors and more)
DENIAL_LEMMAS = NEGATIVE_GOVERNORS | frozenset(
    {
        "deny",
        "reject",
        "unable",
        "lack",
        "absent",
        "miss",
        "avoid",
        "cancel",
        "abandon",
        "halt",
        "stop",
        "prevent",
        "ban",
        "rule",
        "withdraw",
        "scrap",
        "drop",
        "unlikely",
        "impossible",
        "little",
        "few",
        "hardly",
        "barely",
    }
)


#: verbs negated of too many claims for a negation elsewhere in the source to excuse one
_LIGHT_VERBS = frozenset({"be", "have", "do"})


def _denies(token) -> bool:
    """Whether a source token says no in some form: a ``neg`` dependency, "not" or
    "never", a negative word (:data:`NEGATIVE_WORDS`) or a denial (:data:`DENIAL_LEMMAS`).
    A negative prefix ("unharmed") is not read."""
    return (
        token.dep_ == "neg"
        or token.lower_ in NEGATIVE_WORDS
        or token.lower_ in ("never", "not", "n't")
        or token.lemma_.lower() in DENIAL_LEMMAS
    )


class _NegatedLemmas(dict[str, list[int]]):
    """Lemma -> the character offsets where a source negates a word of it."""

    __slots__ = ()

    @classmethod
    def build(cls, index: TextIndex) -> _NegatedLemmas:
        out = cls()
        for t in index.doc:
            if is_negated(t):
                out.setdefault(t.lemma_.lower(), []).append(t.idx)
        return out


def _negated_lemmas(source: TextIndex) -> dict[str, list[int]]:
    """Lemma -> the character offsets where the source negates a word of it (once per
    source index, :meth:`~halluscope.text.index.TextIndex.derived`)."""
    return source.derived(_NegatedLemmas)


def _negation_unsaid(token, sentence: IndexedSentence, span, source: TextIndex) -> Match | None:
    """A negation the source never makes: the summary negates ``token`` ("was not
    arrested", "has not returned") while its aligned source sentence denies nothing
    (:func:`_denies`) and no source sentence negates a word of the token's lemma (a light
    verb, :data:`_LIGHT_VERBS`, is negated of too many things: only a source sentence
    sharing a content word with the summary ``sentence`` counts). The
    source then states the claim as it is, in a form no predicate of its own shows
    ("everyone on board was safely evacuated" for "Scott was not on board"). A study
    close to this rule on the design half (a summary sentence with any negation whose
    aligned sentence has none) found such summaries inconsistent 48 times of 57
    (docs/lexical.md#sentence-contradictions). ``span``: the aligned sentence's tokens
    (None: no flip)."""
    if span is None or any(_denies(t) for t in span):
        return None
    lemma = token.lemma_.lower()
    negated_at = _negated_lemmas(source).get(lemma, ())
    if lemma in _LIGHT_VERBS:
        # excused only by a source sentence about the same thing (a content word in common
        # with the summary sentence): "he was 'worried it might not be clean'"
        said = any(
            (k := source.sentence_at(at)) is not None and sentence.content & source.sentences[k].content
            for at in negated_at
        )
    else:
        said = bool(negated_at)
    if said:
        return None
    detail = f"'{lemma}' negated here; the aligned source sentence negates nothing"
    return Match(
        "negation", (TextEvidence(span.text, (span.start_char, span.end_char)),), 0.0, detail, contradicts=True
    )
