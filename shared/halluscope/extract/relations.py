"""Relation triples (RHI): grounded subject-verb-object extraction from a spaCy Doc.

Implements the RHI paper's Algorithms 1-4 (docs/papers.md#relation-extraction) over an already parsed ``Doc``
in one pass per sentence (no re-parsing, no model calls):

* **Algorithm 1** (ExtractRelationsWithGrounding): per sentence, verb relations
  (Algorithm 2) then nominal relations (Algorithm 3); duplicates removed (line 14,
  :func:`halluscope.units.dedupe`, first mention kept).
* **Algorithm 2** (ExtractVerbRelations): predicates are tokens with POS ``VERB``
  (line 4) plus, by our decision, copular ``be`` (POS ``AUX``, heading its clause)
  when it has an ``attr`` child: Algorithm 2 line 17 lists ``attr`` as an object
  dependency, and spaCy only attaches ``attr`` to a copula, so without this "Obama
  is the president" could never yield ``(obama, be, president)``. Verb = lowercase
  lemma (line 7); reporting verbs (:data:`REPORTING_VERBS`) are skipped (line 8);
  negation (a ``neg`` child, which covers not/n't/never, or an adverb "never")
  prefixes ``not_`` (line 11-12). Subjects: ``nsubj``/``nsubjpass`` children
  (line 16); objects: ``dobj``/``obj``/``attr`` children (line 17). ``dative`` and
  ``oprd`` are *not* objects (the paper does not list them; "gave the man a book"
  keeps only ``book``).
* **Passive agent recovery** (lines 18-20): when the verb has an ``agent`` child,
  its ``pobj`` becomes the subject and the ``nsubjpass`` becomes an object:
  "The suspect was arrested by police" -> ``(police, arrest, suspect)``.
* **Clausal propagation** (lines 35-38): an ``xcomp``/``ccomp`` verb with no
  subject of its own inherits the subjects of the verb governing it ("The company
  wants to buy the startup" -> ``(company, buy, startup)``), except that the
  infinitive of an object-control verb (:data:`OBJECT_CONTROL_VERBS`: "told",
  "urged", "ordered", "asked", ...) with a direct object takes that object, and in the
  passive the verb's subject ("police told residents to leave", "residents were told by
  police to leave" -> ``(resident, leave, ...)``, never ``(police, leave, ...)``; the
  paper does not say). An inner clause with
  its own subject is extracted with that subject (never the outer one). Polarity
  propagates into an ``xcomp``: a negated governor, or one of
  :data:`NEGATIVE_GOVERNORS`, flips it ("did not agree to sell", "refused to sell"
  -> ``not_sell``); the paper does not say, and dropping it would turn a refusal
  into the act. The governor may also be a copula, which Algorithm 2 reads only with an
  attribute: "Tevez is on course to win a second title" -> ``(tevez, win, title)``, "a
  station is to be built" -> ``(station, build, "")`` (docs/papers.md#relation-extraction).
* **Verb conjunction** (lines 39-41): a ``conj`` verb with no subject of its own
  shares the subjects of its head verb.
* **Subject grounding and the POS filter** (line 22-25, Algorithm 4 GroundSubject):
  the paper filters subjects by POS (NOUN/PROPN) *before* grounding, which would
  discard every pronoun before GroundSubject could resolve it. We ground first: a
  generic subject (:data:`GENERIC_SUBJECTS`, matched on lowercase text or lemma)
  is replaced by the first PERSON/ORG/GPE/NORP entity of its sentence, lowercased
  (a leading "the" and a trailing possessive dropped), skipping entities that
  overlap the triple's object or hang below the subject's own predicate (outside
  the subject phrase): a dependent of the verb cannot be its subject, so "He
  founded Microsoft" does not become ``(microsoft, found, microsoft)`` and "He met
  Obama in Paris" not ``(paris, meet, obama)``; nor can a name in the subject's own
  relative clause ("a woman who appeared on NBC's show has penned an expose" stays
  ``(woman, pen, expose)``) nor an adjective of the subject ("Kenyan officials", "Poorer
  young people", which NER may tag as a group). An ungrounded generic subject falls back to
  Normalize (pronouns then vanish; "company" stays). Any other subject must be
  NOUN/PROPN (line 22) and is Normalized.
* **Algorithm 3** (nominal fallback): every NOUN/PROPN ``n`` with a ``prep`` child
  whose ``pobj`` grandchild ``o`` gives ``(Normalize(n), lemma(prep), Normalize(o))``.
* **Algorithm 4** (Normalize): stopwords and punctuation -> NULL; POS outside
  NOUN/PROPN/VERB/ADJ -> NULL; else the lowercase lemma.

Extensions beyond the paper (documented, cheap, on by default where noted):
coordinated subjects/objects ("Apple and Google sued X") each yield a triple
(``conjuncts=True``); the relative pronoun subject of a relative clause is replaced
by the noun the clause modifies ("the man who bought the car" -> ``man``).
Slots are single tokens as in the paper; ``compound=True`` makes each slot the
head plus its ``compound`` modifiers ("bill gates"), an option, not the default.
With ``claims=True``, a triple whose subject or object has a noun or name in
apposition, set off by a comma, is also restated with the apposition in its place
("The inmate, Connor Reilly, was caught by police" -> ``(police, catch, inmate)`` and
``(police, catch, connor reilly)``): these restatements (``RelationUnit.appositive``)
follow every stated triple, never replace one with the same key, and are evidence
only: the scoring pipeline drops a summary's own (docs/papers.md#relation-extraction-appositions).

``intransitive`` (an extension; ``"none"`` here, the paper, and ``"passive"`` in the
scoring pipeline's default, ``ScoringOptions.intransitive``) also yields a
**subject-verb pair** ``(subject, verb, "")``, source ``intransitive``, for a verb that
has subjects but no object. The paper keeps only triples with an object, so "Thomas
was arrested" states no relation at all, and a summary saying "Yeaman was arrested"
has nothing RHI can check. ``"passive"`` pairs agentless passives only (the verb has
an ``nsubjpass`` or ``auxpass`` child): their verb names the event ("arrested",
"jailed", "killed") and is rarely paraphrased. ``"all"`` pairs every object-less verb
("the search has widened", "output grew"); active verbs are often worded differently
in a faithful summary ("output grew" for "output rose"), and on the validation sets
they cost balanced accuracy (``docs/benchmarks.md``). Never paired: the light verbs of
:data:`LIGHT_VERBS`, and a verb with a clausal complement (``xcomp``/``ccomp``:
"glaciers continue to retreat", "the study found that ..."), whose content is the
complement's own relation. A pair from an agentless passive has source
``passive-intransitive`` and its subject is the verb's **patient**, not its agent:
text grounding (:mod:`halluscope.match.grounding`) asks the source for a verb that
has that patient ("police arrested Thomas" grounds "Thomas was arrested"; "Lane's
husband found the infant" does not ground "Lane's husband was found"). A ``conj``
verb of an agentless passive without a subject of its own, tagged ``VBN``, is
passive too ("was arrested and charged").

Each triple's ``span`` runs from the first to the last character of the tokens
involved (subject mention, verb, object, and with ``compound=True`` their compound
modifiers) in ``doc.text``; ``text`` is that slice; ``source`` names the rule:
``verb | passive | clausal | conj | nominal | intransitive | passive-intransitive | apposition``.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..token_table import doc_text
from ..units import APPOSITION, NOMINAL, PASSIVE_PAIR, RelationUnit, dedupe
from .quantities import MULTIPLY_VERBS, NUMERIC_LABELS
from .quantities.lexicon import CURRENCY_WORDS

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc, Span, Token

#: Reporting / meta-discourse verbs skipped by Algorithm 2 line 8 (lemmas).
REPORTING_VERBS: frozenset[str] = frozenset(
    {
        "say",
        "tell",
        "report",
        "claim",
        "state",
        "announce",
        "add",
        "explain",
        "note",
        "mention",
        "comment",
        "remark",
        "reply",
        "respond",
        "write",
        "declare",
        "assert",
        "allege",
        "insist",
        "argue",
        "ask",
        "quote",
        "said",
        "told",  # the sm lemmatizer occasionally leaves these unlemmatized
    }
)

#: subject pronouns that stand for whoever says what their clause says
#: (:meth:`_Extractor.speaker`): "Arsenal said they would appeal"
REPORTED_PRONOUNS: frozenset[str] = frozenset({"he", "she", "they", "it"})

#: Generic subjects replaced by a named entity of the sentence (Algorithm 4, GroundSubject).
GENERIC_SUBJECTS: frozenset[str] = frozenset(
    {
        "he",
        "she",
        "they",
        "it",
        "we",
        "i",
        "you",
        "him",
        "her",
        "them",
        "us",
        "this",
        "that",
        "these",
        "those",
        "who",
        "which",
        "company",
        "firm",
        "official",
        "government",
        "people",
        "man",
        "woman",
        "person",
        "group",
        "spokesman",
        "spokeswoman",
        "spokesperson",
        "source",
        "authority",
        "organisation",
        "organization",
        "team",
        "club",
        "country",
        "agency",
        "minister",
        "leader",
        "player",
        "side",
    }
)

#: Verbs never paired with their subject alone (``intransitive``): they say
#: little without an object ("he has", "it does", "they got").
LIGHT_VERBS: frozenset[str] = frozenset({"be", "have", "do", "get"})

#: Which object-less verbs make subject-verb pairs (module docstring).
INTRANSITIVE_MODES: tuple[str, ...] = ("none", "passive", "all")

#: Governors whose ``xcomp`` clause did not happen ("failed to pay" -> not_pay).
NEGATIVE_GOVERNORS: frozenset[str] = frozenset({"refuse", "fail", "decline", "neglect"})

#: Verbs whose direct object is the subject of their infinitive ("police told residents
#: to leave": the residents leave; "ordered Ms Powell to stay", "urged people to vote",
#: "forced the club to pay"): object control. A verb outside the list keeps its own
#: subject for the infinitive ("used the money to buy", "spent years supporting",
#: "beat Spain to reach the final", "paid £5m to sign him"), as does a listed verb
#: with no direct object ("he asked to leave").
OBJECT_CONTROL_VERBS: frozenset[str] = frozenset(
    {
        "advise",
        "allow",
        "appoint",
        "ask",
        "authorise",
        "authorize",
        "beg",
        "cause",
        "challenge",
        "compel",
        "convince",
        "elect",
        "empower",
        "enable",
        "encourage",
        "force",
        "help",
        "hire",
        "implore",
        "incite",
        "induce",
        "inspire",
        "instruct",
        "invite",
        "lead",
        "lobby",
        "motivate",
        "nominate",
        "oblige",
        "order",
        "permit",
        "persuade",
        "pressure",
        "pressurise",
        "prompt",
        "push",
        "recruit",
        "remind",
        "request",
        "require",
        "spur",
        "teach",
        "tell",
        "train",
        "urge",
        "warn",
    }
)

#: Adjectives of a copula whose infinitive did not happen ("was unable to pay" -> not_pay).
NEGATIVE_ADJECTIVES: frozenset[str] = frozenset({"unable"})

#: Prepositions whose object is a party of a transfer ("lent 400 million euros to
#: Moldova", "borrowed ... from Germany"): kept as ``RelationUnit.roles``; a ``dative``
#: noun ("gave the hospital $10 million") counts as "to".
ROLE_PREPOSITIONS: frozenset[str] = frozenset({"to", "from"})

#: Entity labels that can ground a generic subject (Algorithm 4 line 15).
GROUNDING_LABELS: frozenset[str] = frozenset({"PERSON", "ORG", "GPE", "NORP"})

_CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ"})
_SUBJECT_POS = frozenset({"NOUN", "PROPN"})
_OBJ_DEPS = frozenset({"dobj", "obj", "attr"})
_CLAUSAL_DEPS = frozenset({"xcomp", "ccomp"})
#: dependencies that join a name's words other than as compounds ("Bank of England",
#: "Aeronautics and Space"): such a name is one slot (:meth:`_Extractor.joined_name`)
_JOINING_DEPS = frozenset({"prep", "pobj", "cc", "conj"})
#: relative pronouns, which stand for the noun their clause qualifies
RELATIVE_PRONOUNS = frozenset({"who", "which", "that", "whom"})


#: Penn Treebank bracket tokens of tokenised corpora (CNN/DM summaries): punctuation
PTB_BRACKETS: frozenset[str] = frozenset({"-lrb-", "-rrb-", "-lsb-", "-rsb-", "-lcb-", "-rcb-"})


#: dependencies in which a gerund heads a noun phrase ("delayed the Moon landing")
_NOMINAL_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "obj", "pobj", "attr", "compound"})


#: common nouns in spaCy's stop list that name a thing, a party or an event: a ``NOUN``
#: with one of these lemmas is a content word, not a stop word ("Lancaster's side", "the
#: show", "a move to Chelsea"), so a triple with one as its subject or object is
#: extracted. Not the stop list's nouns of place or share ("part", "top", "back",
#: "amount"), which mostly stand in idioms ("take part", "part of", "at the top")
#: (docs/papers.md#stop-list-nouns)
CONTENT_STOP_NOUNS: frozenset[str] = frozenset({"call", "move", "name", "show", "side"})


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


#: verbs that state a quantity change ("doubled its staff to 80"): QHI checks these
#: claims (extract/quantities.py), as it checks nouns inside spaCy's numeric mentions
#: (NUMERIC_LABELS), so they make no relation of their own (one claim, one dimension)
QUANTITY_VERBS: frozenset[str] = frozenset(MULTIPLY_VERBS)


#: adverbial particles spaCy may tag as a preposition when "of" follows them ("pulled out
#: of the race": "out" a ``prep`` heading "of")
PARTICLES_BEFORE_OF = frozenset({"out", "off", "away"})


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


#: words that, as a verb's subject or object, say that no one did it or nothing was done
NEGATIVE_ARGUMENTS = frozenset({"nobody", "nothing", "none", "noone"})
_NEGATIVE_ARGUMENT_DEPS = frozenset({"nsubj", "nsubjpass", "dobj"})


#: words that make a "no" before an amount a bound, not a negation ("no less than 13")
_COMPARED = frozenset({"less", "more", "fewer", "than"})


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


#: the most governors :func:`effective_negation` reads up a chain of infinitives
XCOMP_DEPTH = 8


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
    grounding (:mod:`halluscope.match.grounding`) read polarity this one way."""
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


_WHOSE = re.compile(r"(?<![^\W_])whose(?![^\W_])", re.IGNORECASE)


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


class _Extractor:
    """One pass over a Doc; options fixed per call."""

    def __init__(
        self,
        doc,
        compound: bool,
        copula: bool,
        conjuncts: bool,
        nominal: bool,
        reporting_verbs: frozenset[str],
        generic_subjects: frozenset[str],
        grounding_labels: frozenset[str],
        intransitive: str = "none",
        claims: bool = False,
    ) -> None:
        self.doc = doc
        self.intransitive = intransitive
        self.claims = claims
        self.text = doc_text(doc)
        # whether any "whose" clause can need :func:`_whose_subject` (most texts have none,
        # and reading every subject's children costs time)
        self.whose = _WHOSE.search(self.text) is not None
        self.compound = compound
        self.copula = copula
        self.conjuncts = conjuncts
        self.nominal = nominal
        self.reporting = reporting_verbs
        self.generic = generic_subjects
        self.labels = grounding_labels
        # the doc's entities of those labels and their starts, read once (sentence_entities)
        self._entities: list | None = None
        self._entity_starts: list[int] = []
        # token index -> (subjects, passive objects, source) for predicates seen so far
        self._args: dict[int, tuple[list, list, str]] = {}
        self._own: dict[int, tuple[list, list, list, bool]] = {}
        self._neg: dict[int, bool] = {}
        # triples restated with an argument's apposition (claims only; RelationUnit.appositive)
        self._appositive: list[RelationUnit] = []

    # -- slots ---------------------------------------------------------------
    def slot(self, token, joined: bool = True) -> tuple[str | None, list]:
        """Normalized slot string and the tokens it covers (for the span); with
        ``joined`` (and ``claims``) a name whose words are joined by more than compounds
        is one slot (:meth:`joined_name`)."""
        head = normalize(token)
        if head is None or not self.compound:
            return head, [token]
        if self.claims and joined:
            name = self.joined_name(token)
            if name is not None:
                return _entity_key(name), list(name)
        parts, toks = [], []
        for c in token.lefts:
            if c.dep_ == "compound":
                n = normalize(c)
                if n is not None:
                    parts.append(n)
                    toks.append(c)
        parts.append(head)
        toks.append(token)
        return " ".join(parts), toks

    def ground(self, token, sent_ents: Sequence, objects: Sequence) -> tuple[str | None, list]:
        """GroundSubject (Algorithm 4 lines 10-20), grounding before the POS filter."""
        if token.lower_ in REPORTED_PRONOUNS:
            speaker = self.speaker(token, sent_ents)
            if speaker is not None:
                return speaker, [token]
        if (token.lower_ in self.generic or token.lemma_.lower() in self.generic) and not _specified(token):
            # a conjunct has the role of the first of its conjunction ("fans and players")
            first = token
            while first.dep_ == "conj" and first.head.i != first.i:
                first = first.head
            governor = first.head
            for ent in sent_ents:
                root = ent.root
                if any(ent.start <= o.i < ent.end for o in objects):
                    continue  # never the triple's own object
                if (root.i == governor.i or governor.is_ancestor(root)) and not (
                    root.i == token.i or token.is_ancestor(root)
                ):
                    continue  # a dependent of the subject's own predicate is not its subject
                if root.i > token.i and _in_own_clause(token, root):
                    continue  # "the woman who appeared on NBC's show": NBC is not the woman
                if root.pos_ == "ADJ" and root.head.i == token.i:
                    continue  # an adjective of the subject ("Poorer young people") names no one
                return _entity_key(ent), [token]
            return self.slot(token)
        if token.pos_ not in _SUBJECT_POS:  # Algorithm 2 line 22
            return None, []
        return self.slot(token)

    def speaker(self, pronoun, sent_ents: Sequence) -> str | None:
        """The key of the name that says what the pronoun's clause says: "Ancelotti ...
        said he was concerned" (the clause a ``ccomp`` of a reporting verb, whose
        subject, its own or its head's, is a name: a proper noun or a PERSON, ORG, GPE or
        NORP entity); None otherwise. A pronoun that reports on its speaker is the
        speaker far more often than the sentence's first name, which GroundSubject takes
        (docs/papers.md#relation-extraction)."""
        clause = pronoun.head
        if clause.i == pronoun.i or clause.dep_ != "ccomp" or clause.head.i == clause.i:
            return None
        verb = clause.head
        if verb.lemma_.lower() not in self.reporting:
            return None
        for subject in self.subjects_of(verb)[0]:
            if subject.lower_ in self.generic or subject.lemma_.lower() in self.generic:
                continue
            for ent in sent_ents:
                if ent.start <= subject.i < ent.end:
                    return _entity_key(ent)
            if subject.pos_ == "PROPN":
                return self.slot(subject)[0]
        return None

    # -- arguments -------------------------------------------------------------
    def own_arguments(self, verb) -> tuple[list, list, list, bool]:
        """(subjects, objects, passive objects, is passive) from the verb's own children."""
        cached = self._own.get(verb.i)
        if cached is None:
            cached = self._own[verb.i] = self._own_arguments(verb)
        return cached

    def _own_arguments(self, verb) -> tuple[list, list, list, bool]:
        subjects, objects, passive_subjects = [], [], []
        agents: list[Token] = []
        for c in verb.children:
            dep = c.dep_
            if dep == "nsubj":
                subjects.append(c)
            elif dep == "nsubjpass":
                passive_subjects.append(c)
            elif dep in _OBJ_DEPS:
                objects.append(c)
            elif dep == "agent":
                agents.extend(g for g in c.children if g.dep_ == "pobj")
        if self.whose:
            subjects, passive_subjects = _whose_subject(subjects, passive_subjects)
        if verb.dep_ == "relcl":
            antecedent = verb.head
            subjects = [antecedent if s.lower_ in RELATIVE_PRONOUNS else s for s in subjects]
            passive_subjects = [antecedent if s.lower_ in RELATIVE_PRONOUNS else s for s in passive_subjects]
        if agents:  # passive agent recovery (Algorithm 2 lines 18-20)
            return (
                _expand(subjects + agents, self.conjuncts),
                _expand(objects, self.conjuncts),
                _expand(passive_subjects, self.conjuncts),
                True,
            )
        return (_expand(subjects + passive_subjects, self.conjuncts), _expand(objects, self.conjuncts), [], False)

    def subjects_of(self, verb, depth: int = 0) -> tuple[list, list, str]:
        """Effective (subjects, passive objects, source) with clausal/conj inheritance."""
        cached = self._args.get(verb.i)
        if cached is not None:
            return cached
        subjects, _, passive_objects, passive = self.own_arguments(verb)
        source = "passive" if passive else "verb"
        if not subjects and depth < 8:
            head = verb.head
            if head.i != verb.i and verb.dep_ == "xcomp" and _is_copula(head):
                # "Tevez is on course to win", "a station is to be built": the copula's subject
                subjects = self.own_arguments(head)[0]
                source = "clausal"
            elif head.i != verb.i and verb.dep_ == "xcomp" and _adjective_of_copula(head):
                # "the nurses were able to rape patients", "he is likely to miss the match"
                subjects = self.own_arguments(head.head)[0]
                source = "clausal"
            elif head.i != verb.i and _is_predicate(head, self.copula):
                if verb.dep_ in _CLAUSAL_DEPS:
                    subjects = _expand(controllers(head), self.conjuncts) if verb.dep_ == "xcomp" else []
                    subjects = subjects or self.subjects_of(head, depth + 1)[0]
                    source = "clausal"
                elif verb.dep_ == "conj":
                    subjects = self.subjects_of(head, depth + 1)[0]
                    source = "conj"
        result = (subjects, passive_objects, source)
        self._args[verb.i] = result
        return result

    def negated(self, verb) -> bool:
        """:func:`effective_negation`, cached per verb."""
        cached = self._neg.get(verb.i)
        if cached is None:
            cached = self._neg[verb.i] = effective_negation(verb)
        return cached

    # -- rules -------------------------------------------------------------------
    def verb_relations(self, verb, sent_ents: Sequence, out: list[RelationUnit]) -> None:
        lemma = verb_lemma(verb) if self.claims else verb.lemma_.lower()
        if (lemma in self.reporting and not (self.claims and directive(verb))) or (
            self.claims and lemma in QUANTITY_VERBS
        ):
            return
        verb_key = ("not_" + lemma) if self.negated(verb) else lemma
        subjects, passive_objects, source = self.subjects_of(verb)
        if not subjects:
            return
        _, objects, _, _ = self.own_arguments(verb)
        objects = passive_objects + objects
        if self.claims and lemma == "be" and objects and all(_is_amount(o) for o in objects):
            return  # "the profit was 1.2bn kroner" states an amount: QHI's claim
        roles = self.roles(verb)
        # a sum of money is QHI's claim ("pay 750m dollars"), as the copula's amount above
        slots = [(o, *self.slot(o)) for o in objects if not (self.claims and _is_money(o))]
        slotted = [(o, key, toks) for o, key, toks in slots if key is not None]
        # a verb whose objects are all quantities ("lent €400 million"; under claims also
        # "lent 400 million euros", whose "euro" is no slot) is paired when it names a
        # party of a transfer
        if not objects or (roles and not slotted and all(_is_quantity(o) for o in objects)):
            if self.pairs_alone(verb, lemma):
                source = PASSIVE_PAIR if self.agentless_passive(verb) else "intransitive"
                for s in subjects:
                    s_key, s_toks = self.ground(s, sent_ents, ())
                    if s_key is not None:
                        out.append(self.unit(s_key, verb_key, "", s_toks + [verb], source, roles))
                        self.restate((s, s_key, s_toks), verb, verb_key, None, source, roles)
            return
        patient = self.agentless_passive(verb)
        for s in subjects:
            for o, o_key, o_toks in slotted:
                s_key, s_toks = self.ground(s, sent_ents, (o,))
                if s_key is None:
                    continue
                out.append(
                    self.unit(s_key, verb_key, o_key, s_toks + [verb] + o_toks, source, roles, patient_subject=patient)
                )
                self.restate((s, s_key, s_toks), verb, verb_key, (o, o_key, o_toks), source, roles)

    def restate(
        self, subject: tuple, verb, verb_key: str, obj: tuple | None, source: str, roles: tuple[tuple[str, str], ...]
    ) -> None:
        """Under ``claims``, the triple of ``subject`` and ``obj`` ((token, slot key, slot
        tokens); ``obj`` None for a pair) once more for each apposition of either argument
        (:meth:`appositions`), in that argument's place: ``RelationUnit.appositive``
        restatements, kept apart until :meth:`run` appends them."""
        if not self.claims:
            return
        s, s_key, s_toks = subject
        o, o_key, o_toks = obj if obj is not None else (None, "", [])
        for a_key, a_toks in self.appositions(s):
            self._appositive.append(
                self.unit(a_key, verb_key, o_key, a_toks + [verb] + o_toks, source, roles, appositive=True)
            )
        for a_key, a_toks in self.appositions(o) if o is not None else ():
            self._appositive.append(
                self.unit(s_key, verb_key, a_key, s_toks + [verb] + a_toks, source, roles, appositive=True)
            )

    def apposition_copulas(self, noun) -> None:
        """Under ``claims``, the copula each apposition of ``noun`` states, both ways:
        "Smith, the opposition leader, welcomed the news" says (smith, be, opposition
        leader) and (opposition leader, be, smith), as "Smith is the opposition leader"
        does. Evidence only (``RelationUnit.appositive``), so a summary that says it with
        a copula is supported, and a summary's own appositions claim nothing."""
        if noun.pos_ not in ("NOUN", "PROPN"):
            return
        key, toks = self.slot(noun)
        if key is None:
            return
        for a_key, a_toks in self.appositions(noun):
            if a_key != key:
                self._appositive.append(self.unit(key, "be", a_key, toks + a_toks, APPOSITION, appositive=True))
                self._appositive.append(self.unit(a_key, "be", key, a_toks + toks, APPOSITION, appositive=True))

    def appositions(self, token) -> list[tuple[str, list]]:
        """(slot key, tokens) of each noun or name in apposition to an argument and set
        off by a comma ("the inmate, 27-year-old Connor Reilly,": connor reilly; "Kyle
        Brandt, the suspect,": suspect; not "Josh Gillies (Gateshead)"), and of the noun
        or name the argument itself is such an apposition to ("Amos Yee, the teenage
        video blogger who was arrested": the blogger's name, amos yee). Triples are
        restated with them only under ``claims`` (the papers have no such rule);
        :meth:`argument_keys` always counts them."""
        found = []
        for child in token.children:
            # set off by a comma: "Josh Gillies (Gateshead)" names his club, not him
            before = child.left_edge.i - 1
            if (
                child.dep_ == "appos"
                and child.pos_ in ("NOUN", "PROPN")
                and before >= 0
                and self.doc[before].text == ","
            ):
                key, toks = self.slot(child)
                if key is not None:
                    found.append((key, toks))
        head, before = token.head, token.left_edge.i - 1
        if (
            token.dep_ == "appos"
            and head.i != token.i
            and head.pos_ in ("NOUN", "PROPN")
            and before >= 0
            and self.doc[before].text == ","
        ):
            key, toks = self.slot(head)
            if key is not None:
                found.append((key, toks))
        return found

    def roles(self, verb) -> tuple[tuple[str, str], ...]:
        """The verb's :func:`role_arguments` as (preposition, slot key), in text order."""
        keyed = ((name, self.slot(token)[0]) for name, token in role_arguments(verb))
        return tuple((name, key) for name, key in keyed if key is not None)

    def pairs_alone(self, verb, lemma: str) -> bool:
        """Whether an object-less verb makes a subject-verb pair (module docstring)."""
        if self.intransitive == "none" or lemma in LIGHT_VERBS:
            return False
        if any(c.dep_ in _CLAUSAL_DEPS for c in verb.children):
            return False
        return self.intransitive == "all" or self.agentless_passive(verb)

    def agentless_passive(self, verb, depth: int = 0) -> bool:
        """A passive verb without a "by" agent, whose effective subjects are therefore
        its patients: an ``nsubjpass``/``auxpass`` child, or a ``VBN`` conjunct without
        a subject of its own of such a verb ("was arrested and charged")."""
        deps = {c.dep_ for c in verb.children}
        if "agent" in deps:
            return False
        if deps & {"nsubjpass", "auxpass"}:
            return True
        head = verb.head
        return (
            verb.dep_ == "conj"
            and verb.tag_ == "VBN"
            and head.i != verb.i
            and depth < 8
            and not deps & {"nsubj", "csubj"}
            and self.agentless_passive(head, depth + 1)
        )

    def argument_keys(self, verb, sent_ents: Sequence) -> tuple[list[str], list[str]]:
        """(agent keys, patient keys) of a verb: the keys its effective subjects get as
        a triple's subject slot, split by role (an agentless passive's subjects are
        patients), and its objects' (and a passive's ``nsubjpass``) slot keys; each with
        the keys of the names in apposition to it (:meth:`appositions`)."""
        subjects, passive_objects, _ = self.subjects_of(verb)
        subject_keys = [self.ground(s, sent_ents, ())[0] for s in subjects]
        subject_keys += [key for s in subjects for key, _ in self.appositions(s)]
        objects = passive_objects + self.own_arguments(verb)[1]
        object_keys = [self.slot(o)[0] for o in objects] + [key for o in objects for key, _ in self.appositions(o)]
        if self.agentless_passive(verb):
            agents, patients = [], subject_keys + object_keys
        else:
            agents, patients = subject_keys, object_keys
        if _participle_of(verb):
            patients = patients + [self.slot(verb.head)[0]]  # "a man arrested outside a bar"
        return ([k for k in agents if k is not None], [k for k in patients if k is not None])

    def sentences(self) -> Iterable[tuple[Span, list]]:
        """(sentence, its grounding entities) of the doc, in order."""
        for sent in self.doc.sents:
            yield sent, self.sentence_entities(sent)

    def joined_name(self, token):
        """The entity (of the grounding labels) that ``token`` heads when its words are
        joined by more than compounds ("the National Aeronautics and Space
        Administration", "the Federal Bureau of Investigation"), else None: the
        compound-aware slot would keep only "administration" or "bureau", which no
        acronym or full name can match (docs/papers.md#joined-names)."""
        if not token.ent_type_ or token.ent_type_ not in self.labels:
            return None
        entities, starts = self.grounding_entities()
        k = bisect.bisect_right(starts, token.i) - 1
        if k < 0:
            return None
        entity = entities[k]
        if entity.root.i != token.i or not any(t.dep_ in _JOINING_DEPS for t in entity):
            return None
        # written as a name: every word capitalised but the joining ones ("of", "and",
        # "&") and an article; a lower-cased text's recogniser spans run on ("iron man
        # for the new avengers")
        if not all(t.is_title or t.is_upper or t.is_punct or t.is_stop for t in entity) or not any(
            t.is_title or t.is_upper for t in entity
        ):
            return None
        return entity

    def grounding_entities(self) -> tuple[list, list[int]]:
        """The doc's entities of the grounding labels and their start tokens, read once
        (``Doc.ents`` makes its spans anew on every read)."""
        if self._entities is None:
            self._entities = [e for e in self.doc.ents if e.label_ in self.labels]
            self._entity_starts = [e.start for e in self._entities]
        return self._entities, self._entity_starts

    def sentence_entities(self, sent) -> list:
        """The entities of the extractor's grounding labels inside the sentence ``sent``,
        in order (entities are sorted and do not overlap: those from the first starting in
        it that end by its end)."""
        entities, starts = self.grounding_entities()
        k = bisect.bisect_left(starts, sent.start)
        inside = []
        while k < len(entities) and entities[k].end <= sent.end:
            inside.append(entities[k])
            k += 1
        return inside

    def nominal_relations(self, noun, out: list[RelationUnit]) -> None:
        """Algorithm 3: noun -prep-> pobj. A noun inside a numeric mention ("the first
        half of the year", a DATE) makes none: QHI checks that mention."""
        if self.claims and noun.ent_type_ in NUMERIC_LABELS:
            return
        name = self.joined_name(noun) if self.claims and self.compound else None
        for prep in noun.children:
            if prep.dep_ != "prep":
                continue
            for pobj in prep.children:
                if pobj.dep_ != "pobj":
                    continue
                # "of England" inside "the Bank of England": the name's own words, read
                # as the paper reads them, (bank, of, england) on both sides of a match
                s_key, s_toks = self.slot(noun, joined=name is None or not name.start <= pobj.i < name.end)
                o_key, o_toks = self.slot(pobj)
                if s_key is None or o_key is None:
                    continue
                out.append(self.unit(s_key, prep.lemma_.lower(), o_key, s_toks + [prep] + o_toks, NOMINAL))

    def unit(
        self,
        s: str,
        v: str,
        o: str,
        tokens: Iterable,
        source: str,
        roles: tuple[tuple[str, str], ...] = (),
        appositive: bool = False,
        patient_subject: bool = False,
    ) -> RelationUnit:
        start = min(t.idx for t in tokens)
        end = max(t.idx + len(t) for t in tokens)
        return RelationUnit(
            subject=s,
            verb=v,
            object=o,
            text=self.text[start:end],
            span=(start, end),
            source=source,
            roles=roles,
            appositive=appositive,
            patient_subject=patient_subject,
        )

    def run(self) -> list[RelationUnit]:
        out: list[RelationUnit] = []
        for sent, sent_ents in self.sentences():
            verbs, nouns, apposed = [], [], []
            for token in sent:
                pos = token.pos_
                if pos == "NOUN" or pos == "PROPN":
                    nouns.append(token)
                    if token.dep_ == "appos":
                        apposed.append(token.head)
                elif _is_predicate(token, self.copula):
                    verbs.append(token)
            for verb in verbs:
                self.verb_relations(verb, sent_ents, out)
            if self.nominal:
                for noun in nouns:
                    self.nominal_relations(noun, out)
            if self.claims:
                for i in sorted({head.i for head in apposed}):  # each noun with an apposition, once
                    self.apposition_copulas(self.doc[i])
        units = dedupe(out)
        stated = {u.key for u in units}
        # restatements after every stated triple, and never in place of one
        return units + [u for u in dedupe(self._appositive) if u.key not in stated]


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


#: the numeric entity labels of an amount: not a rank, a date or a time ("her 2010 marriage
#: was her second" is a claim the relation keeps)
AMOUNT_LABELS = NUMERIC_LABELS - {"ORDINAL", "DATE", "TIME"}


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


def extract_relations(
    doc: Doc,
    *,
    compound: bool = False,
    copula: bool = True,
    conjuncts: bool = True,
    nominal: bool = True,
    intransitive: str = "none",
    claims: bool = False,
    reporting_verbs: Iterable[str] = REPORTING_VERBS,
    generic_subjects: Iterable[str] = GENERIC_SUBJECTS,
    grounding_labels: Iterable[str] = GROUNDING_LABELS,
) -> list[RelationUnit]:
    """Grounded relation triples of a parsed ``doc`` (RHI paper, Algorithm 1).

    Verb relations (Algorithm 2) then nominal ones (Algorithm 3) per sentence,
    normalised and grounded (Algorithm 4), deduplicated by key in text order.
    ``compound=True`` makes slots compound-aware ("bill gates"); the default is the
    paper's single-token slots. ``copula`` admits copular "X is Y" as ``(x, be, y)``;
    ``conjuncts`` expands coordinated subjects/objects; ``nominal`` toggles
    Algorithm 3; ``intransitive`` (``"none"`` | ``"passive"`` | ``"all"``) adds
    subject-verb pairs ``(subject, verb, "")`` for agentless passives or for every verb
    without an object. ``claims=True`` (our default under ``formula="support"``; the
    papers have neither rule) reads a phrasal verb as one predicate ("take over",
    :func:`verb_lemma`) and leaves quantity claims to QHI: no relation for a verb of
    :data:`QUANTITY_VERBS`, no copula whose attribute is an amount ("the profit was 1.2bn
    kroner"), no nominal triple from a noun inside a numeric mention.
    See the module docstring for every rule and decision.
    """
    if intransitive not in INTRANSITIVE_MODES:
        raise ValueError(f"`intransitive` must be one of {INTRANSITIVE_MODES}, got {intransitive!r}")
    if len(doc) and not doc.has_annotation("DEP"):
        raise ValueError(
            "extract_relations needs a dependency parse: the spaCy pipeline that made this Doc has no parser"
        )
    return _Extractor(
        doc,
        compound,
        copula,
        conjuncts,
        nominal,
        frozenset(reporting_verbs),
        frozenset(g.lower() for g in generic_subjects),
        frozenset(grounding_labels),
        intransitive,
        claims,
    ).run()


def predicate_arguments(doc: Doc, *, compound: bool = True) -> dict[int, tuple[list[str], list[str]]]:
    """For each predicate token (by index) of a parsed ``doc``, its (agent keys,
    patient keys) as the extractor reads them: subjects with clausal and conjunct
    inheritance, passive agents, relative-clause antecedents and subject grounding;
    an agentless passive's subjects, every verb's objects and the noun a past participle
    modifies (:func:`_participle_of`) are patients. Text
    grounding uses it to check that a summary's subject-verb pair has its subject in
    the same role in the source (:func:`halluscope.match.grounding.relation_in_sentence`)."""
    arguments = PredicateArguments(doc, compound=compound)
    # of(i) is None only for a token that is no predicate
    return {
        token.i: keys for token in doc if _is_predicate(token, True) and (keys := arguments.of(token.i)) is not None
    }


class PredicateArguments:
    """:func:`predicate_arguments` read one predicate at a time, on demand: text grounding
    asks about a few predicates of a source, not all of them. ``of(i)``: the (agent keys,
    patient keys) of the token at index ``i``, or None when it is no predicate; each
    computed once."""

    def __init__(self, doc: Doc, *, compound: bool = True) -> None:
        self.doc = doc
        self._extractor = _Extractor(
            doc,
            compound,
            True,
            True,
            False,
            frozenset(REPORTING_VERBS),
            frozenset(GENERIC_SUBJECTS),
            frozenset(GROUNDING_LABELS),
        )
        self._keys: dict[int, tuple[list[str], list[str]] | None] = {}

    def of(self, i: int) -> tuple[list[str], list[str]] | None:
        if i not in self._keys:
            token = self.doc[i]
            if not _is_predicate(token, True):
                self._keys[i] = None
            else:
                self._keys[i] = self._extractor.argument_keys(token, self._extractor.sentence_entities(token.sent))
        return self._keys[i]
