"""Contradictions inside aligned sentences: a negation added or dropped, a word turned
into its opposite (docs/lexical.md#sentence-contradictions).

Word support (:mod:`halluscope.words.matching`) asks whether the source has a word
anywhere; a summary that writes "before" where its source sentence says "after", or
"was not" where it says "was", keeps every word the source has. This module compares
each summary sentence with the source sentence that holds the most of its content
(the idf-weighted overlap of :mod:`halluscope.match.attribution`, at least
:data:`~halluscope.match.claims.MIN_SHARED` content words in common) and reports, as a :class:`Flip`:

* ``negation``: a verb, copula or preposition of the summary sentence whose lemma the
  aligned sentence also has with a subject or object word, or a content word of a
  prepositional argument, in common (the same claim), with the other polarity and never
  with the summary's of the same claim ("has not used" against "has used", "was not in
  fine form" against "was in fine form"; polarity as the relation extractor reads it,
  :func:`halluscope.text.syntax.effective_negation`), unless a negative word
  negates either predicate in a way that reading misses (:data:`~halluscope.match.negation.NEGATIVE_WORDS`,
  :func:`~halluscope.match.negation.negated_by_word`: "has no plans to close" is "does not plan to close");
* ``negation`` too, when the source never makes it (:func:`_negation_unsaid`): a negated
  summary predicate whose aligned sentence denies nothing and whose lemma no source
  sentence negates ("was not on board" against "everyone on board was evacuated");
* ``opposite``: a word whose opposite the aligned sentence has while it lacks the word
  itself in its part of speech ("lasted" is not the adjective "last"), said of the same
  thing (a verb's opposite shares a subject or object word with
  it; another word's opposite has the same head: "first race" against "last race", not
  "first time" against "last season"; or the same object: "before the decision" against
  "after the decision"; or hangs on the same verb, through a clause it marks or up a
  chain of infinitives: "play X before the complaints" against "forced to play X after
  residents complained"): a closed list of direction words (:data:`OPPOSITE_WORDS`:
  before/after, first/last, more/fewer, up/down, ..., and one way only a source's
  "following" against a summary's "before") and, with WordNet, the antonyms of verbs,
  adjectives, adverbs and nouns ("accepted" against "rejected", "lower" against
  "higher", "victory" against "defeat"). Two verbs that may be one transfer seen from
  its two parties ("sold"/"bought", :func:`halluscope.match.opposites.may_be_converse`) are opposites only
  said of the same subject ("Huber has bought copies" against "Huber has sold copies"),
  an infinitive's being the subject of the verb above it (:func:`~halluscope.match.opposites._controller`), or, with
  no subject on either side, when they share an object.

A flip is evidence against the summary: CHI is multiplied by the contradiction factor
(``fusion.CONTRADICTION_FACTOR``), and a flipped content word is shown as
contradicted. Only the best-aligned sentence is read for a negation or a verb's or
noun's opposite, so an "after" elsewhere in a long source cannot contradict a summary's
"before"; a word of direction, degree or order ("higher", "worst", "before") is also
looked for in the sentence aligned second (:data:`OPPOSITE_SENTENCES`), when the first
lacks the word itself: a summary sentence that joins two source sentences takes its
words from both.
"""

from __future__ import annotations

from dataclasses import dataclass

from halluscope.match.claims import aligned_sentences
from halluscope.match.negation import _negation_flip, _negation_unsaid
from halluscope.match.opposites import (
    _ANTONYM_POS,
    OPPOSITE_WORDS,
    _ranked_opposite,
    sentence_tokens,
)

from ..text.index import TextIndex
from ..text.syntax import (
    is_negated,
)
from ..units import Match

#: the source sentences, best aligned first, read for a word's opposite: a summary
#: sentence that joins two source sentences takes its words from both ("the chief
#: executive has left his role after a blunder led to voters being turned away": the
#: best-aligned sentence is the one about the voters)
OPPOSITE_SENTENCES = 2


@dataclass(frozen=True)
class Flip:
    """One contradicted word of a summary: its ``text`` and character ``span`` in the
    summary, its lemma, and ``match`` (mode ``negation`` or ``opposite``, the source
    token as evidence, ``contradicts=True``)."""

    text: str
    span: tuple[int, int]
    lemma: str
    match: Match


def sentence_flips(summary: TextIndex, source: TextIndex, lexicon=None) -> list[Flip]:
    """Every :class:`Flip` of a summary against its source (module docstring), in text
    order; at most one per summary token."""
    flips: list[Flip] = []
    if summary.doc is None or source.doc is None:
        return flips
    for sentence in summary.sentences:
        ranked = aligned_sentences(sentence, source, OPPOSITE_SENTENCES)
        if not ranked:
            continue
        aligned = source.sentences[ranked[0]]
        there = sentence_tokens(source, ranked[0])
        span = summary.doc.char_span(sentence.start, sentence.end, alignment_mode="expand")
        mine = {p.token: p for p in sentence.predicates}
        for token in span if span is not None else ():
            if token.is_punct or token.is_space:
                continue
            match = None
            if token.pos_ in ("VERB", "AUX", "ADP"):
                match = _negation_flip(token, mine.get(token.i), aligned.predicates, source)
                if match is None and is_negated(token):
                    match = _negation_unsaid(token, sentence, there, source)
            # a negation word ("never") is read through the verb it negates, above
            if (
                match is None
                and token.dep_ != "neg"
                and (
                    token.lower_ in OPPOSITE_WORDS
                    or token.lemma_.lower() in OPPOSITE_WORDS
                    or token.pos_ in _ANTONYM_POS
                )
            ):
                match = _ranked_opposite(token, mine, ranked, source, lexicon)
            if match is not None:
                flips.append(Flip(token.text, (token.idx, token.idx + len(token.text)), token.lemma_.lower(), match))
    return flips
