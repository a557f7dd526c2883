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
  infinitive of an object-control verb (:data:`~halluscope.text.clause_words.OBJECT_CONTROL_VERBS`: "told",
  "urged", "ordered", "asked", ...) with a direct object takes that object, and in the
  passive the verb's subject ("police told residents to leave", "residents were told by
  police to leave" -> ``(resident, leave, ...)``, never ``(police, leave, ...)``; the
  paper does not say). An inner clause with
  its own subject is extracted with that subject (never the outer one). Polarity
  propagates into an ``xcomp``: a negated governor, or one of
  :data:`~halluscope.text.clause_words.NEGATIVE_GOVERNORS`, flips it ("did not agree to sell", "refused to sell"
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
:data:`~halluscope.text.clause_words.LIGHT_VERBS`, and a verb with a clausal complement (``xcomp``/``ccomp``:
"glaciers continue to retreat", "the study found that ..."), whose content is the
complement's own relation. A pair from an agentless passive has source
``passive-intransitive`` and its subject is the verb's **patient**, not its agent:
text grounding (:mod:`halluscope.text.index`) asks the source for a verb that
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

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..text.clause_words import GENERIC_SUBJECTS, GROUNDING_LABELS, QUANTITY_VERBS, REPORTING_VERBS
from ..text.clauses import ClauseReader
from ..text.number_words import NUMERIC_LABELS
from ..text.syntax import _is_amount, _is_money, _is_predicate, _is_quantity, directive, verb_lemma
from ..units import APPOSITION, NOMINAL, PASSIVE_PAIR, RelationUnit, dedupe

if TYPE_CHECKING:
    from spacy.tokens import Doc

#: Which object-less verbs make subject-verb pairs (module docstring).
INTRANSITIVE_MODES: tuple[str, ...] = ("none", "passive", "all")


class TripleExtractor(ClauseReader):
    """The clause reader that writes RHI's triples: verb relations (Algorithm 2), nominal
    relations (Algorithm 3) and appositions, in one pass over the Doc (:meth:`run`)."""

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
        (:meth:`~halluscope.text.clauses.ClauseReader.appositions`), in that argument's place:
        ``RelationUnit.appositive`` restatements, kept apart until :meth:`run` appends them."""
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
    return TripleExtractor(
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
