"""Opposite flips: a summary word whose opposite (a WordNet antonym or a direction word) the
aligned source sentence says of the same thing, and transfers seen from their two parties
(docs/lexical.md#sentence-contradictions)."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..text.index import IndexedSentence, TextIndex, _Predicate, token_forms, word_stem
from ..text.syntax import (
    effective_negation,
    object_controlled,
    verb_lemma,
)
from ..units import Match
from .claims import _FILLER, _evidence, _same_claim

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
    ("sold"/"bought", "won"/"lost": :func:`halluscope.match.opposites.may_be_converse`) share
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
#: :data:`~halluscope.match.polarity.OPPOSITE_SENTENCES` - 1)
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
