"""Questions asked of a token of a parse: its verb lemma, whether it is negated (by itself
or through its governor), whether its infinitive is object-controlled, its role arguments
(docs/papers.md#relation-extraction). RHI's extraction and the text index both ask them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .clause_words import (
    _COMPARED,
    _CONTENT_POS,
    _NEGATIVE_ARGUMENT_DEPS,
    _NOMINAL_DEPS,
    AMOUNT_LABELS,
    CONTENT_STOP_NOUNS,
    NEGATIVE_ADJECTIVES,
    NEGATIVE_ARGUMENTS,
    NEGATIVE_GOVERNORS,
    OBJECT_CONTROL_VERBS,
    PARTICLES_BEFORE_OF,
    PTB_BRACKETS,
    ROLE_PREPOSITIONS,
    XCOMP_DEPTH,
)
from .number_words import CURRENCY_WORDS, NUMERIC_LABELS

if TYPE_CHECKING:
    from spacy.tokens import Token


def is_stop_word(token: Token) -> bool:
    """spaCy's ``is_stop``, except a common noun of :data:`CONTENT_STOP_NOUNS`."""
    return token.is_stop and not (token.pos_ == "NOUN" and token.lemma_.lower() in CONTENT_STOP_NOUNS)


def normalize(token: Token) -> str | None:
    """Algorithm 4 Normalize: NULL (``None``) for stopwords (:func:`is_stop_word`),
    punctuation (PTB bracket tokens such as "-rrb-" included) and POS outside
    NOUN/PROPN/VERB/ADJ; else the lowercase lemma. A gerund in a noun's place (tag VBG, a
    dependency of :data:`_NOMINAL_DEPS`) keeps its written form: spaCy tags "landing" a
    noun in one sentence ("landing") and a verb in the next ("land"), and the slot must
    not depend on which (docs/papers.md#gerund-slots)."""
    if is_stop_word(token) or token.is_punct or token.lower_ in PTB_BRACKETS or token.pos_ not in _CONTENT_POS:
        return None
    if token.tag_ == "VBG" and token.dep_ in _NOMINAL_DEPS:
        return token.lower_
    return token.lemma_.lower()


def _particle(child) -> bool:
    """A ``prt`` child, or a particle of :data:`PARTICLES_BEFORE_OF` that spaCy tags as a
    preposition with no object of its own but an "of" phrase ("pulled out of")."""
    if child.dep_ == "prt":
        return True
    return (
        child.dep_ == "prep"
        and child.lower_ in PARTICLES_BEFORE_OF
        and any(g.dep_ == "prep" and g.lower_ == "of" for g in child.children)
        and not any(g.dep_ == "pobj" for g in child.children)
    )


def verb_lemma(token) -> str:
    """The lower-case lemma of a verb, with its particles for a phrasal verb ("took over"
    -> "take over", spaCy's ``prt`` children; "pulled out of" -> "pull out",
    :func:`_particle`), the form WordNet lists phrasal verbs in (docs/lexical.md)."""
    particles = [c.lower_ for c in token.children if _particle(c)]
    return " ".join([token.lemma_.lower()] + particles)


def controllers(verb) -> list:
    """The subjects ``verb`` gives its infinitive when it is an object-control verb
    (:data:`OBJECT_CONTROL_VERBS`): its direct objects, or in the passive its subject
    ("residents were told by police to leave": the residents); else none."""
    if verb.lemma_.lower() not in OBJECT_CONTROL_VERBS:
        return []
    return [c for c in verb.children if c.dep_ in ("dobj", "obj", "nsubjpass")]


def directive(verb) -> bool:
    """Whether a reporting verb directs someone to act: an object-control verb with a
    direct object and an infinitive ("Matthew Crawley asked Lady Mary to marry him",
    "Tevez told Juventus to release him"). Its content is the infinitive's relation,
    whose subject is the object; who asked whom is a relation too, kept under
    ``claims`` (docs/papers.md#relation-extraction): without it "Lady Mary asked Matthew
    Crawley to marry him" states nothing RHI can check."""
    return any(c.dep_ in ("dobj", "obj") for c in controllers(verb)) and any(c.dep_ == "xcomp" for c in verb.children)


def object_controlled(token) -> bool:
    """Whether ``token`` is the infinitive of an object-control verb that has
    :func:`controllers` ("leave" in "police told residents to leave"), or a verb conjoined
    to one ("ignore" in "urged Leicester to keep their cool and ignore their rivals"): its
    subject is that verb's object, not its subject."""
    while token.dep_ == "conj" and token.head.i != token.i:
        token = token.head
    return token.dep_ == "xcomp" and token.head.i != token.i and bool(controllers(token.head))


def _is_predicate(token, copula: bool) -> bool:
    if token.pos_ == "VERB":
        return True
    if copula and _is_copula(token):
        return any(c.dep_ == "attr" for c in token.children)
    return False


def _is_copula(token) -> bool:
    """A form of "be" that is the clause's own verb, not an auxiliary of another."""
    return token.pos_ == "AUX" and token.lemma_ == "be" and token.dep_ not in ("aux", "auxpass")


def _in_own_clause(token, root) -> bool:
    """Whether ``root`` lies in a relative clause that qualifies ``token`` ("the woman who
    appeared on NBC's weight-loss show": "NBC" is in the clause of "woman")."""
    return any(c.dep_ == "relcl" and (c.i == root.i or c.is_ancestor(root)) for c in token.children)


def _adjective_of_copula(token) -> bool:
    """An adjective complement of a copula ("able" in "they were able to"), which governs
    an infinitive for the copula's subject (docs/papers.md#relation-extraction)."""
    return token.dep_ == "acomp" and token.head.i != token.i and _is_copula(token.head)


def _negates(child) -> bool:
    """Whether ``child`` negates its head: a ``neg`` (not, n't, never) or an adverb "never"
    (Algorithm 2 line 11)."""
    dep = child.dep_
    return dep == "neg" or (dep == "advmod" and child.lower_ == "never")


def is_negated(token) -> bool:
    """A ``neg`` child (not, n't, never) or an adverb "never" (Algorithm 2 line 11)."""
    return any(_negates(c) for c in token.children)


def negative_argument(token) -> bool:
    """Whether ``token``, an argument of a verb (:data:`_NEGATIVE_ARGUMENT_DEPS`), says none:
    "nobody", "nothing", "none (of the passengers)", or a noun under "no" ("no one was
    injured", "no passengers", "found no weapons"). Not a number under "no less than"
    ("no less than 13 of the players were English": a bound)."""
    if token.dep_ not in _NEGATIVE_ARGUMENT_DEPS:
        return False
    if token.lower_ in NEGATIVE_ARGUMENTS:
        return True
    # a determiner "no" opens its phrase: read the phrase's first word, not every child
    first = token.left_edge
    if first.lower_ != "no" or first.head.i != token.i or first.dep_ != "det":
        return False
    if token.pos_ == "NUM" and token.lower_ != "one":
        return False
    return not any(c.lower_ in _COMPARED for c in token.children)


def infinitive_chain(verb) -> list:
    """``verb`` and the verbs up its chain of infinitive complements (``xcomp``), at most
    :data:`XCOMP_DEPTH` above it: the verbs whose polarity :func:`effective_negation`
    reads ("leave" and "wanted" in "Nobody wanted to leave")."""
    chain = [verb]
    while len(chain) <= XCOMP_DEPTH:
        node = chain[-1]
        if node.dep_ != "xcomp" or node.head.i == node.i:
            break
        chain.append(node.head)
    return chain


def effective_negation(verb) -> bool:
    """Own negation (Algorithm 2 line 11) or a subject or object that says none ("No one
    was injured", "found no weapons": :func:`negative_argument`), flipped by each negated ``xcomp``
    governor ("did not agree to sell" -> not_sell), by each governor in
    :data:`NEGATIVE_GOVERNORS` ("refused to pay" -> not_pay), by "yet to" ("are yet
    to win" -> not_win, :func:`_yet_to`), and under a copula's adjective by the copula's
    negation and :data:`NEGATIVE_ADJECTIVES` ("was not able to pay", "was unable to pay"
    -> not_pay). The extractor and text
    grounding (:mod:`halluscope.text.index`) read polarity this one way."""
    chain = infinitive_chain(verb)
    negated = False
    for node in chain:
        own = argument = False
        for child in node.children:  # one pass: its own negation (is_negated) and a negative argument
            if _negates(child):
                own = True
            elif not argument and negative_argument(child):
                argument = True
        negated ^= own ^ argument
    for governor in chain[1:]:
        negated ^= governor.lemma_.lower() in NEGATIVE_GOVERNORS or _yet_to(governor)
        if _adjective_of_copula(governor):  # "was not able to", "is unable to"
            negated ^= is_negated(governor.head) ^ (governor.lower_ in NEGATIVE_ADJECTIVES)
    return negated


def _yet_to(governor) -> bool:
    """ "are yet to win", "has yet to secure": a "be" or "have" with the adverb "yet" and
    an infinitive says the infinitive has not happened."""
    return governor.lemma_.lower() in ("be", "have") and any(
        c.dep_ == "advmod" and c.lower_ == "yet" for c in governor.children
    )


def _expand(tokens: list, conjuncts: bool) -> list:
    if not conjuncts:
        return tokens
    out = []
    for t in tokens:
        out.append(t)
        out.extend(t.conjuncts)
    return out


def _whose_subject(subjects: list, passive_subjects: list) -> tuple[list, list]:
    """The verb's subjects when the parser hung a "whose" clause on its antecedent: in
    "Samantha Green, whose son was found near the river, was arrested" spaCy's small
    model may make both "Green" and "son" subjects of "found", and in "samantha green,
    whose son, was found" it makes "son" an apposition of the subject "green". The noun
    that "whose" qualifies is the subject, and the antecedent is dropped
    (docs/papers.md#relation-extraction). Unchanged when no subject, nor an apposition of one,
    has a "whose" possessive."""

    def whose(token) -> bool:
        return any(c.dep_ == "poss" and c.lower_ == "whose" for c in token.children)

    def own(token):
        return next((a for a in token.children if a.dep_ == "appos" and whose(a)), token)

    subjects, passive_subjects = [own(s) for s in subjects], [own(s) for s in passive_subjects]
    owned = [s for s in subjects + passive_subjects if whose(s)]
    if not owned:
        return subjects, passive_subjects
    return [s for s in subjects if s in owned], [s for s in passive_subjects if s in owned]


def _specified(token) -> bool:
    """Whether a generic subject noun says which one it is by a common noun of its own
    ("the Yorkshire side's media team", "Chelsea's youth team", "the preservation agency
    that manages sites"): it keeps its compound slot instead of taking the sentence's
    first name, which would read the media team as Yorkshire while the source's
    "Doncaster's media team" stays the media team (docs/papers.md#relation-extraction)."""
    return any(c.dep_ == "compound" and c.pos_ == "NOUN" for c in token.children)


def _participle_of(verb) -> bool:
    """Whether ``verb`` is a past participle modifying a noun ("a man arrested outside a
    bar", "the station approved last year"): a reduced passive whose noun is its patient."""
    head = verb.head
    return verb.dep_ == "acl" and verb.tag_ == "VBN" and head.i != verb.i and head.pos_ in ("NOUN", "PROPN")


def role_arguments(verb) -> list[tuple[str, Token]]:
    """The verb's "to" and "from" arguments (:data:`ROLE_PREPOSITIONS`) as (preposition,
    head token), in text order: the object of a "to"/"from" preposition or dative, and a
    ``dative`` noun as "to" ("gave the hospital $10 million")."""
    found = []
    for child in verb.children:
        if child.dep_ == "dative" and child.pos_ != "ADP":
            found.append(("to", child))
        elif child.dep_ in ("prep", "dative") and child.lower_ in ROLE_PREPOSITIONS:
            found.extend((child.lower_, g) for g in child.children if g.dep_ == "pobj")
    return found


def _is_quantity(token) -> bool:
    """A number, a token inside a numeric mention ("€400 million", "5%") or a sum of money
    the parser did not tag (:func:`_is_money`)."""
    return token.pos_ == "NUM" or token.ent_type_ in NUMERIC_LABELS or _is_money(token)


def _is_money(token) -> bool:
    """A currency noun counted by a number, directly or through a scale word ("750m
    dollars": "750" counts "m", a compound of "dollars"; "3 million euros"): the amount is
    QHI's claim, and the noun names no thing a relation could hold."""
    if token.lower_ not in CURRENCY_WORDS and token.lemma_.lower() not in CURRENCY_WORDS:
        return False
    return _counted(token) or any(c.dep_ == "compound" and _counted(c) for c in token.children)


def _counted(token) -> bool:
    """A token with a number among its ``nummod`` children."""
    return any(c.dep_ == "nummod" and c.pos_ == "NUM" for c in token.children)


def _is_amount(token) -> bool:
    """A number, a token of an amount's mention (:data:`AMOUNT_LABELS`) or a noun a number
    counts or measures ("1.2bn kroner", "750m dollars")."""
    return token.pos_ == "NUM" or token.ent_type_ in AMOUNT_LABELS or _counted(token)


def _entity_key(ent) -> str:
    """Lowercase entity text, without a leading "the" or a trailing possessive."""
    key = ent.text.lower().strip()
    if key.startswith("the "):
        key = key[4:]
    if key.endswith("'s") or key.endswith("\u2019s"):
        key = key[:-2]
    return " ".join(key.split())
