"""The clause reader: a sentence's predicates with their subjects and objects, read as
RHI's Algorithms 2-4 describe (docs/papers.md#relation-extraction; :mod:`halluscope.rhi.extract`
says what it decides). RHI's triples and the text index's predicate roles are both read
through it, so the source and the summary are read alike."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..units import RelationUnit
from .clause_words import (
    _CLAUSAL_DEPS,
    _JOINING_DEPS,
    _OBJ_DEPS,
    _SUBJECT_POS,
    _WHOSE,
    LIGHT_VERBS,
    RELATIVE_PRONOUNS,
    REPORTED_PRONOUNS,
)
from .syntax import (
    _adjective_of_copula,
    _entity_key,
    _expand,
    _in_own_clause,
    _is_copula,
    _is_predicate,
    _participle_of,
    _specified,
    _whose_subject,
    controllers,
    effective_negation,
    normalize,
    role_arguments,
)
from .token_table import doc_text

if TYPE_CHECKING:
    from spacy.tokens import Span, Token


class ClauseReader:
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
