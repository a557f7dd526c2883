"""Contradictions inside aligned sentences: a negation added or dropped, a word turned
into its opposite (docs/lexical.md#sentence-contradictions).

Word support (:mod:`halluscope.words.matching`) asks whether the source has a word
anywhere; a summary that writes "before" where its source sentence says "after", or
"was not" where it says "was", keeps every word the source has. This module compares
each summary sentence with the source sentence that holds the most of its content
(the idf-weighted overlap of :mod:`halluscope.match.attribution`, at least
:data:`MIN_SHARED` content words in common) and reports, as a :class:`Flip`:

* ``negation``: a verb, copula or preposition of the summary sentence whose lemma the
  aligned sentence also has with a subject or object word, or a content word of a
  prepositional argument, in common (the same claim), with the other polarity and never
  with the summary's of the same claim ("has not used" against "has used", "was not in
  fine form" against "was in fine form"; polarity as the relation extractor reads it,
  :func:`halluscope.text.syntax.effective_negation`), unless a negative word
  negates either predicate in a way that reading misses (:data:`NEGATIVE_WORDS`,
  :func:`negated_by_word`: "has no plans to close" is "does not plan to close");
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
  its two parties ("sold"/"bought", :func:`halluscope.match.polarity.may_be_converse`) are opposites only
  said of the same subject ("Huber has bought copies" against "Huber has sold copies"),
  an infinitive's being the subject of the verb above it (:func:`_controller`), or, with
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

import dataclasses
import heapq
from dataclasses import dataclass
from typing import Any

from spacy.lang.en.stop_words import STOP_WORDS

from ..text.clause_words import NEGATIVE_GOVERNORS
from ..text.index import IndexedSentence, TextIndex, _Predicate, token_forms, word_stem
from ..text.syntax import (
    effective_negation,
    infinitive_chain,
    is_negated,
    negative_argument,
    object_controlled,
    verb_lemma,
)
from ..units import Match, TextEvidence

#: content words a summary sentence and its aligned source sentence must share
MIN_SHARED = 2

#: the source sentences, best aligned first, read for a word's opposite: a summary
#: sentence that joins two source sentences takes its words from both ("the chief
#: executive has left his role after a blunder led to voters being turned away": the
#: best-aligned sentence is the one about the voters)
OPPOSITE_SENTENCES = 2

#: direction words and their opposites (closed-class words WordNet has no antonyms for,
#: or whose antonyms it files under another part of speech); symmetric
_PAIRS = (
    ("before", "after"),
    ("earlier", "later"),
    ("first", "last"),
    ("more", "less"),
    ("more", "fewer"),
    ("most", "least"),
    ("up", "down"),
    ("above", "below"),
    ("higher", "lower"),
    ("highest", "lowest"),
    ("inside", "outside"),
    ("ahead", "behind"),
    ("with", "without"),
    ("maximum", "minimum"),
    ("always", "never"),
    # compass directions: "north of Poland" against "south of Poland" (WordNet files no
    # antonyms for them)
    ("north", "south"),
    ("east", "west"),
    ("northern", "southern"),
    ("eastern", "western"),
    ("northbound", "southbound"),
    ("eastbound", "westbound"),
)
#: (summary word, source word) opposites read one way only: a source's "following" is
#: "after" ("arriving back in London following the international break" against
#: "returned to London before the international break"), but a summary's "following" is
#: often the verb ("fans following the team")
_ONE_WAY_PAIRS = (("before", "following"),)
OPPOSITE_WORDS: dict[str, frozenset[str]] = {}
for _a, _b in _PAIRS + tuple((b, a) for a, b in _PAIRS) + _ONE_WAY_PAIRS:
    OPPOSITE_WORDS[_a] = OPPOSITE_WORDS.get(_a, frozenset()) | {_b}

#: words that negate without a ``neg`` dependency ("has no plans to close" = "does not
#: plan to close"): a sentence holding one on either side has no negation flips
NEGATIVE_WORDS = frozenset({"no", "none", "nothing", "nobody", "neither", "nor", "without", "nowhere"})

#: spaCy coarse tags whose WordNet antonyms count, with WordNet's part of speech
_ANTONYM_POS = {"VERB": "verb", "ADJ": "adj", "ADV": "adv", "NOUN": "noun"}


#: a transfer pair WordNet gives no opposite directions to ("lose" has none) that is still
#: one event seen from either party: "Chelsea lost to Arsenal" = "Arsenal won"
_CONVERSE_PAIRS = frozenset({frozenset({"win", "lose"})})


def may_be_converse(a: str, b: str, lexicon) -> bool:
    """Whether two antonym verbs may state one transfer from its two parties: both in
    WordNet's possession verbs with opposite directions (sell gives, buy receives;
    :meth:`~halluscope.lexicon.lexical.Lexicon.transfer_direction`), or a pair of
    :data:`_CONVERSE_PAIRS`. "accept" (receives) against "reject" (no direction) is a
    contradiction: the starlet who rejected a move did not accept it."""
    if frozenset({a, b}) in _CONVERSE_PAIRS:
        return True
    if not (lexicon.transfers_possession(a) and lexicon.transfers_possession(b)):
        return False
    return {lexicon.transfer_direction(a), lexicon.transfer_direction(b)} == {"gives", "receives"}


@dataclass(frozen=True)
class Flip:
    """One contradicted word of a summary: its ``text`` and character ``span`` in the
    summary, its lemma, and ``match`` (mode ``negation`` or ``opposite``, the source
    token as evidence, ``contradicts=True``)."""

    text: str
    span: tuple[int, int]
    lemma: str
    match: Match


def aligned_sentence(sentence: IndexedSentence, source: TextIndex, ignore: frozenset[str] = frozenset()) -> int | None:
    """The source sentence holding the most of ``sentence``'s content (idf-weighted; ties:
    the first), None when none shares :data:`MIN_SHARED` content words. ``ignore``:
    content words (as indexed) that do not count, such as the words of a name whose
    place is in question (:mod:`halluscope.ehi.swaps`). Only the sentences
    :meth:`TextIndex.sharing` proposes are read (in a long text, a word most sentences
    hold proposes none)."""
    ranked = aligned_sentences(sentence, source, 1, ignore)
    return ranked[0] if ranked else None


def aligned_sentences(
    sentence: IndexedSentence, source: TextIndex, limit: int, ignore: frozenset[str] = frozenset()
) -> list[int]:
    """The ``limit`` source sentences holding the most of ``sentence``'s content, best
    first (:func:`aligned_sentence` is the first)."""
    content = sentence.content - ignore if ignore else sentence.content
    scored = []
    for k in source.sharing(content):
        shared = content & source.sentences[k].content
        if len(shared) >= MIN_SHARED:
            weight = source.weight(shared)
            if weight > 0.0:
                scored.append((-weight, k))
    # the highest weight first; ties: the first in text order
    return [k for _, k in heapq.nsmallest(limit, scored)]


def _evidence(token) -> tuple[TextEvidence, ...]:
    return (TextEvidence(token.text, (token.idx, token.idx + len(token.text))),)


#: words too common to tie two predicates to one claim
_FILLER = frozenset({"the", "a", "an", "of", "to", "in", "on", "at", "and", "or", "for", "by", "with", "'s"})


def _arguments(predicate) -> frozenset[str]:
    """The words of a predicate's subject and object sides, fillers left out, and the
    content words of its prepositional arguments ("in fine form", "for more than 80
    years"; prepositions and other stop words left out, a shared "in" ties nothing)."""
    oblique = {w for w in predicate.oblique_words if w not in STOP_WORDS and any(c.isalnum() for c in w)}
    return ((predicate.subject_words | predicate.object_words) - _FILLER) | oblique


def _same_claim(mine, theirs) -> bool:
    """Whether two predicates state one claim: they share a subject or object word, or
    a content word of a prepositional argument ("Ozil was not in fine form" and "The
    German star was in fine form"); a predicate without arguments on either side shares
    none, and so does a word that is no predicate (None)."""
    return mine is not None and theirs is not None and bool(_arguments(mine) & _arguments(theirs))


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


def _same_subject(mine, theirs) -> bool:
    """Whether two predicates share a subject word (fillers left out)."""
    return (
        mine is not None
        and theirs is not None
        and bool((mine.subject_words - _FILLER) & (theirs.subject_words - _FILLER))
    )


#: how far up a chain of infinitives a verb's subject is looked for
CONTROL_DEPTH = 4


def _controller(token, predicates: dict[int, _Predicate]) -> _Predicate | None:
    """The predicate whose subject a verb without one of its own shares: up its chain of
    infinitive complements (``xcomp``) to the first verb with a subject ("Tevez is on
    course to win": "win" is Tevez's; "are yet to lose this competition"); the verb's
    own predicate when it has a subject, or when nothing above it has one. Under an
    object-control verb (:func:`~halluscope.text.syntax.object_controlled`: "told
    Smith to sell the car") the subject is that verb's object: the predicate returned
    then has the object's words on its subject side."""
    own = predicates.get(token.i)
    node = token
    for _ in range(CONTROL_DEPTH):
        if (own is not None and own.subject_words) or node.dep_ != "xcomp" or node.head.i == node.i:
            break
        controlled = object_controlled(node)
        node = node.head
        above = predicates.get(node.i)
        if above is not None and controlled and above.object_words:
            return dataclasses.replace(above, subject_words=above.object_words)
        if above is not None and above.subject_words:
            return above
    return own


def _converse_said_of_it(
    token, mine, there, theirs, summary_predicates: dict[int, _Predicate], source_predicates: dict[int, _Predicate]
) -> bool:
    """Whether two verbs that may be one transfer seen from its two parties are said of
    the same party: they share a subject word, their own or that of the verb whose
    infinitive they are (:func:`_controller`); or neither has any subject and they share
    an object ("feel like winning a trophy" against "feel like losing a trophy")."""
    mine_of = _controller(token, summary_predicates) if summary_predicates else mine
    theirs_of = _controller(there, source_predicates)
    if _same_subject(mine_of, theirs_of):
        return True
    no_subject = (mine_of is None or not mine_of.subject_words) and (theirs_of is None or not theirs_of.subject_words)
    return (
        no_subject
        and mine is not None
        and theirs is not None
        and bool((mine.object_words - _FILLER) & (theirs.object_words - _FILLER))
    )


def _head_word(token):
    """The word a modifier is said of: its head, past modifiers that the parse hangs it on
    ("last-ever acoustic tour" parses "last" under "acoustic": the tour); None at the root."""
    head = token.head
    while head.dep_ in ("amod", "advmod") and head.pos_ in ("ADJ", "ADV") and head.head.i != head.i:
        head = head.head
    return head if head.i != token.i else None


def _same_head(token, there) -> bool:
    mine, theirs = _head_word(token), _head_word(there)
    return mine is not None and theirs is not None and mine.lemma_.lower() == theirs.lemma_.lower()


def _says_itself(token, span) -> bool:
    """Whether the aligned source ``span`` has the summary's word itself, in its part of
    speech (then an opposite there may be about something else): "lasted" does not say
    the adjective "last", nor "from the outside" the adverb "outside"."""
    lemma, lower = token.lemma_.lower(), token.lower_
    return any(t.pos_ == token.pos_ and (t.lower_ == lower or t.lemma_.lower() == lemma) for t in span)


def _attachment(token):
    """The word a direction word is said of: its head, or for the marker of a clause
    ("after residents complained") the word that clause attaches to ("play")."""
    head = token.head
    if token.dep_ == "mark" and head.i != token.i and head.head.i != head.i:
        return head.head
    return head if head.i != token.i else None


def _said_of(token) -> frozenset[str]:
    """The lemmas of the words a direction word may be said of: its :func:`_attachment`
    and, up a chain of infinitives, the verbs that govern it ("forced to play X after Y":
    the parse hangs "after Y" on "play" or on "forced")."""
    node, lemmas = _attachment(token), set()
    for _ in range(8):
        if node is None:
            break
        lemmas.add(node.lemma_.lower())
        node = node.head if node.dep_ == "xcomp" and node.head.i != node.i else None
    return frozenset(lemmas)


def _same_attachment(token, there) -> bool:
    """Whether two direction words are said of the same word (:func:`_said_of`): "play
    Prince Charming before numerous complaints" against "forced to play Prince Charming
    after numerous residents complained", whose clause the parse hangs on "forced"."""
    return bool(_said_of(token) & _said_of(there))


#: the dependents that say what a direction word is about ("before the decision",
#: "after being dismissed")
_OBJECT_DEPS = frozenset({"pobj", "pcomp", "dobj", "obj"})


def _objects(token) -> frozenset[str]:
    """The lemmas of a word's objects (:data:`_OBJECT_DEPS`)."""
    return frozenset(child.lemma_.lower() for child in token.children if child.dep_ in _OBJECT_DEPS)


def _affirmed_elsewhere(token, mine, source: TextIndex) -> bool:
    """Whether some source sentence states the summary verb's own claim: its lemma, its
    polarity, an argument in common (:func:`_same_claim`). The aligned sentence is the one
    with the most words in common, not always the one that says it: "reopened on 14
    March" against "closed in January ... reopened to the public on 14 March"."""
    lemma, negated = verb_lemma(token), effective_negation(token)
    return any(p.negated == negated and _same_claim(mine, p) for p in _predicates_of(source).get(lemma, ()))


class _PredicatesByLemma(dict[str, tuple[_Predicate, ...]]):
    """Lemma -> a source's predicates of that lemma, in text order."""

    __slots__ = ()

    @classmethod
    def build(cls, index: TextIndex) -> _PredicatesByLemma:
        by_lemma: dict[str, list[_Predicate]] = {}
        for sentence in index.sentences:
            for p in sentence.predicates:
                by_lemma.setdefault(p.lemma, []).append(p)
        return cls((lemma, tuple(found)) for lemma, found in by_lemma.items())


def _predicates_of(source: TextIndex) -> dict[str, tuple[_Predicate, ...]]:
    """Lemma -> the source's predicates of that lemma, in text order (built once per index)."""
    return source.derived(_PredicatesByLemma)


def _opposite_flip(
    token,
    mine,
    sentence: IndexedSentence,
    span,
    source: TextIndex,
    lexicon,
    summary_predicates: dict[int, _Predicate] | None = None,
    which: str = "the aligned source sentence",
) -> Match | None:
    """A word whose opposite the aligned ``sentence`` has while it lacks the word, said of
    the same thing: a verb's opposite shares an argument with it (``mine``, the verb's
    indexed predicate) and has its polarity (an opposite under one negation agrees: "did not
    approve" and "rejected"); two verbs that may be one transfer seen from its two parties
    ("sold"/"bought", "won"/"lost": :func:`halluscope.match.polarity.may_be_converse`) share
    a subject word (the same party cannot both sell and buy: "Huber has bought copies"
    against "Huber has sold copies"; "Globex bought from Acme" against "Acme sold to
    Globex" is no flip); any other word's opposite has the same head ("first race"
    against "last race", not "first time" against "last season") or the same object
    ("before back-to-back wins" against "after back-to-back wins", wherever the two
    attach). ``span``: the aligned ``sentence``'s tokens (None: no flip)."""
    lemma = token.lemma_.lower()
    # the sentence's own word first: it settles most words before WordNet is asked (a
    # word the sentence's indexed forms lack cannot be there in any part of speech);
    # a noun, most of which have no antonym, asks WordNet before the span is scanned
    if span is None:
        return None
    in_sentence = bool(token_forms(token) & sentence.words)  # its forms, in any part of speech
    if in_sentence and token.pos_ != "NOUN" and _says_itself(token, span):
        return None
    opposites = set(OPPOSITE_WORDS.get(token.lower_, ())) | set(OPPOSITE_WORDS.get(lemma, ()))
    pos = _ANTONYM_POS.get(token.pos_)
    antonyms: frozenset[str] = frozenset()
    if lexicon is not None and pos is not None:
        antonyms = lexicon.opposites(lemma, pos)
        if pos == "verb":
            # a verb's arguments tie the two words to one claim, which picks the sense: the
            # antonyms of every sense count ("rounds hired" against "rounds fired", fire's
            # fourth sense), the indirect ones of the considered senses only
            antonyms |= lexicon.widened().antonyms(lemma, pos)
        opposites |= antonyms
    # as the sentence indexes its words (token_forms)
    hits = {word_stem(o) for o in opposites if " " not in o and word_stem(o) in sentence.words}
    if not hits or (in_sentence and token.pos_ == "NOUN" and _says_itself(token, span)):
        return None
    converses = (
        {word_stem(a) for a in antonyms if word_stem(a) in hits and may_be_converse(lemma, a, lexicon)}
        if pos == "verb"
        else set()
    )
    at = {p.token: p for p in sentence.predicates}
    for there in span:
        found = token_forms(there) & hits
        if not found:
            continue
        if token.pos_ == "VERB" and effective_negation(token) != effective_negation(there):
            continue  # "did not approve" agrees with "rejected"
        if token.pos_ == "VERB" and found <= converses:
            said_of_it = _converse_said_of_it(token, mine, there, at.get(there.i), summary_predicates or {}, at)
        elif token.pos_ == "VERB":
            said_of_it = _same_claim(mine, at.get(there.i))
        else:
            said_of_it = (
                _same_head(token, there) or bool(_objects(token) & _objects(there)) or _same_attachment(token, there)
            )
        if said_of_it and token.pos_ == "VERB" and _affirmed_elsewhere(token, mine, source):
            return None
        if said_of_it:
            detail = f"'{lemma}' against the opposite '{there.text}' of {which}"
            return Match("opposite", _evidence(there), 0.0, detail, contradicts=True)
    return None


#: the parts of speech :func:`_reads_on` reads past the best-aligned sentence for
_READ_ON_POS = frozenset({"ADJ", "ADV", "ADP", "SCONJ"})

#: how a flip's detail names the n-th aligned sentence it was found in (n >= 1, up to
#: :data:`OPPOSITE_SENTENCES` - 1)
_ORDINALS = ("first", "second", "third", "fourth")


class _SentenceTokens(dict[int, Any]):
    """Sentence index -> its tokens (a ``Span``), each made on first use."""

    __slots__ = ()

    @classmethod
    def build(cls, index: TextIndex) -> _SentenceTokens:
        return cls()


def sentence_tokens(index: TextIndex, k: int):
    """The tokens (a ``Span``) of ``index``'s sentence ``k``, made once per index: each
    summary scored against a source reads the tokens of its aligned sentences."""
    spans = index.derived(_SentenceTokens)
    if k not in spans:
        sentence = index.sentences[k]
        spans[k] = index.doc.char_span(sentence.start, sentence.end, alignment_mode="expand")
    return spans[k]


def _reads_on(token, aligned: IndexedSentence) -> bool:
    """Whether a word's opposite is looked for past the best-aligned sentence: a word of
    direction, degree or order (an adjective, adverb, preposition or subordinating
    conjunction: "higher", "worst", "before"), and not one that sentence itself holds
    ("South America" there and "North America" in the next). Not a noun (nouns of a pair,
    "mother"/"father", "boy"/"girl", name two things a text holds both of) nor a verb
    (any sense's antonym counts for a verb, which its shared argument makes safe only
    within one sentence: "the tomb was closed" against "the tomb was found")."""
    return token.pos_ in _READ_ON_POS and not token_forms(token) & aligned.words


def _ranked_opposite(token, mine: dict[int, _Predicate], ranked: list[int], source: TextIndex, lexicon) -> Match | None:
    """:func:`_opposite_flip` of ``token`` in the best-aligned source sentence (``ranked``,
    best first), then, for a word :func:`_reads_on` reads further, in the next ones."""
    aligned = source.sentences[ranked[0]]
    match = _opposite_flip(token, mine.get(token.i), aligned, sentence_tokens(source, ranked[0]), source, lexicon, mine)
    if match is not None or not _reads_on(token, aligned):
        return match
    for n, k in enumerate(ranked[1:], 1):
        match = _opposite_flip(
            token,
            mine.get(token.i),
            source.sentences[k],
            sentence_tokens(source, k),
            source,
            lexicon,
            mine,
            f"the source sentence aligned {_ORDINALS[n]}",
        )
        if match is not None:
            return match
    return None


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
