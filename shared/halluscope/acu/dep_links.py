"""Discourse links from a dependency parse: the offline DL-ACU backend.

Mind the Link §3.1 (Algorithm 1 lines 1-16; docs/papers.md#dl-acu) finds ``:time``, ``:cause`` and
``:purpose`` edges between two predicates of the summary's AMR graph and turns
each edge plus the core arguments of both predicates into one discourse
link-aware content unit (DL-ACU). Without an AMR parser (docs/papers.md#offline-stand-ins) the
same links are read off the spaCy dependency parse from explicit markers and the
unit is built from the two linked clauses.

Rules (decisions, for the metric card):

* **time**: subordinate clauses (``advcl`` with ``mark``/``advmod``) introduced by
  *before, after, when, while, until, as, since*; prepositions *before, after,
  until, since* whose complement is a clause (``pcomp`` gerund: "after noticing
  the leak"). A preposition with a nominal object ("after the war", "since 2010")
  is a time expression, not a link between two events, and is skipped.
* **cause**: *because*, *since* and *as* clauses; prepositional *because of*,
  *due to*, *as a result of*, whose object may be a nominal event (the unit then
  uses that noun phrase). *since* is temporal when the main clause is in the
  perfect ("has lived here since she moved"), causal otherwise. *as* is causal
  when the subordinate predicate is stative (a form of be/have/know/... or a
  copula with an adjective/noun complement: "as he was tired"), temporal
  otherwise ("as prices rose").
* **purpose**: *so that* clauses; *in order to* + infinitive; a bare *to*-
  infinitive that is (a) an ``advcl`` with aux "to" and no marker, (b) an
  ``xcomp`` with aux "to" whose governor is not a control/raising verb and is
  either a motion/activity verb or has an object ("left to hide", but not "tried
  to ram", "declined to comment"), or (c) an infinitival relative clause (``acl``/
  ``relcl`` with aux "to" and no subject of its own) on the direct object of a
  verb ("found a way to hide X", which AMR parses as ``:purpose``). "to be
  honest/fair" (copula + complement) is a sentence adverbial and skipped.

Units: each clause keeps its predicate and core arguments (subjects, objects,
datives, complements, particles, negation, auxiliaries, open/clausal
complements, the agent, and one argument-like prepositional phrase directly
after the predicate or its object; a gerund small clause directly after the
object, "a couple fighting in a car"); other adjuncts are dropped. Noun phrases
are kept whole so names survive (the AMR rule of keeping entity subtrees).
A clause that is an ``xcomp``/``ccomp`` of another verb is lifted to its
governor, so control subjects and attributions are kept ("Police believe the
shooter barricaded himself ..."; "..., the BBC has learned"), and a subjectless
conjunct borrows its coordinated head's subject. Non-finite subordinate clauses
are left subjectless ("after noticing the leak"): copying the subject in would
make them ungrammatical, and the unit is still entailed. The unit keeps the
original order of the two clauses, except that a fronted subordinate clause is
moved after the main clause ("After noticing the leak, engineers shut the
plant." -> "Engineers shut the plant after noticing the leak.").
"""

from __future__ import annotations

from collections.abc import Iterable

TIME, CAUSE, PURPOSE = "time", "cause", "purpose"
RELATIONS: tuple[str, ...] = (TIME, CAUSE, PURPOSE)

#: Subordinators of ``advcl`` clauses and the relation they signal ("as" and
#: "since" are disambiguated, see the module docstring).
CLAUSE_MARKERS: dict[str, str] = {
    "before": TIME,
    "after": TIME,
    "when": TIME,
    "while": TIME,
    "until": TIME,
    "till": TIME,
    "because": CAUSE,
    "since": CAUSE,
    "as": TIME,
}
#: Prepositions whose gerund complement is a time-linked event.
TIME_PREPOSITIONS: frozenset[str] = frozenset({"before", "after", "until", "since"})
#: Governors whose ``to``-infinitive complement is an argument, not a purpose.
CONTROL_VERBS: frozenset[str] = frozenset(
    {
        "try",
        "want",
        "need",
        "decide",
        "plan",
        "hope",
        "begin",
        "start",
        "continue",
        "attempt",
        "agree",
        "refuse",
        "promise",
        "seem",
        "appear",
        "expect",
        "like",
        "love",
        "hate",
        "prefer",
        "fail",
        "manage",
        "learn",
        "ask",
        "tell",
        "help",
        "have",
        "be",
        "go",
        "intend",
        "wish",
        "choose",
        "offer",
        "threaten",
        "vow",
        "pledge",
        "claim",
        "pretend",
        "tend",
        "order",
        "urge",
        "allow",
        "force",
        "persuade",
        "encourage",
        "require",
        "mean",
        "seek",
        "aim",
        "struggle",
        "dare",
        "afford",
        "arrange",
        "forget",
        "remember",
        "prepare",
        "get",
        "used",
        "happen",
        "deserve",
        "volunteer",
        "hesitate",
        "neglect",
        "opt",
        "swear",
        "decline",
        "ought",
        "cease",
        "proceed",
        "long",
        "yearn",
        "bother",
    }
)
#: Intransitive governors whose bare ``to``-infinitive ``xcomp`` reads as a purpose.
MOTION_VERBS: frozenset[str] = frozenset(
    {
        "come",
        "leave",
        "return",
        "travel",
        "arrive",
        "move",
        "run",
        "fly",
        "gather",
        "meet",
        "stop",
        "wait",
        "rush",
        "flee",
        "head",
        "sail",
        "walk",
        "drive",
        "step",
        "queue",
        "line",
        "assemble",
        "march",
        "fight",
        "work",
        "campaign",
        "lobby",
        "race",
    }
)
#: Predicates that make an "as" clause causal (stative).
STATIVE_LEMMAS: frozenset[str] = frozenset(
    {
        "be",
        "have",
        "know",
        "need",
        "want",
        "believe",
        "own",
        "seem",
        "lack",
        "remain",
        "belong",
        "understand",
        "fear",
        "expect",
    }
)
#: Dependents kept with a predicate as its core arguments.
CORE_DEPS: frozenset[str] = frozenset(
    {
        "nsubj",
        "nsubjpass",
        "csubj",
        "csubjpass",
        "expl",
        "aux",
        "auxpass",
        "neg",
        "dobj",
        "iobj",
        "dative",
        "attr",
        "acomp",
        "oprd",
        "prt",
        "agent",
    }
)
CLAUSAL_DEPS: frozenset[str] = frozenset({"xcomp", "ccomp"})
SUBJECT_DEPS: frozenset[str] = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})


def _lower(token) -> str:
    return token.text.lower()


def _has_subject(verb) -> bool:
    return any(c.dep_ in SUBJECT_DEPS for c in verb.children)


def _to_aux(verb):
    for child in verb.children:
        if child.dep_ == "aux" and _lower(child) == "to":
            return child
    return None


class _Link:
    """One link found in the parse: relation, marker tokens, the main-clause
    predicate and the subordinate predicate (or nominal event)."""

    def __init__(self, relation: str, marker: list, head, dependent, nominal: bool, material: set[int]) -> None:
        self.relation = relation
        self.marker = sorted(marker, key=lambda t: t.i)
        self.head = head
        self.dependent = dependent
        self.nominal = nominal
        self.material = material  # token indices of marker + subordinate clause


def _perfect(verb) -> bool:
    return verb.tag_ == "VBN" and any(c.dep_ == "aux" and c.lemma_ == "have" for c in verb.children)


def _stative(verb) -> bool:
    if verb.lemma_ in STATIVE_LEMMAS:
        return True
    return any(c.dep_ in ("acomp", "attr") for c in verb.children)


def _copular_adverbial(verb) -> bool:
    """ "to be honest/fair/sure": a sentence adverbial, not a purpose."""
    return verb.lemma_ == "be" and any(c.dep_ in ("acomp", "attr") for c in verb.children)


def _clause_links(doc) -> Iterable[_Link]:
    """``advcl`` clauses with a subordinator, and bare-infinitive purposes."""
    for verb in doc:
        if verb.dep_ != "advcl" or verb.head is verb or verb.pos_ not in ("VERB", "AUX"):
            continue
        marks = [c for c in verb.children if c.dep_ in ("mark", "advmod") and c.i < verb.i]
        words = [_lower(m) for m in marks]
        relation = None
        marker: list = []
        if "so" in words and "that" in words:
            relation, marker = PURPOSE, [m for m in marks if _lower(m) in ("so", "that")]
        else:
            for mark in marks:
                word = _lower(mark)
                if word in CLAUSE_MARKERS:
                    relation, marker = CLAUSE_MARKERS[word], [mark]
                    if word == "since":
                        relation = TIME if _perfect(verb.head) else CAUSE
                    elif word == "as":
                        relation = CAUSE if _stative(verb) else TIME
                    break
        if relation is None:
            to = _to_aux(verb)
            if to is not None and not marks and not _copular_adverbial(verb):
                relation, marker = PURPOSE, [to]
        if relation is None:
            continue
        material = {t.i for t in verb.subtree}
        yield _Link(relation, marker, verb.head, verb, False, material)


def _infinitive_purposes(doc) -> Iterable[_Link]:
    """``xcomp`` purposes ("left to hide") and infinitival relatives on objects."""
    for verb in doc:
        to = _to_aux(verb)
        if to is None or _has_subject(verb):
            continue
        if any(c.dep_ in ("mark", "advmod") and c.tag_ in ("WDT", "WRB", "WP") for c in verb.children):
            continue
        governor = verb.head
        if (
            verb.dep_ == "xcomp"
            and governor.lemma_ not in CONTROL_VERBS
            and governor.pos_ == "VERB"
            and (governor.lemma_ in MOTION_VERBS or any(c.dep_ in ("dobj", "dative") for c in governor.children))
        ):
            yield _Link(PURPOSE, [to], governor, verb, False, {t.i for t in verb.subtree})
        elif (
            verb.dep_ in ("acl", "relcl")
            and governor.dep_ == "dobj"
            and governor.head.pos_ in ("VERB", "AUX")
            and _lower(governor) != "order"
        ):
            yield _Link(PURPOSE, [to], governor.head, verb, False, {t.i for t in verb.subtree})


def _prepositional_links(doc) -> Iterable[_Link]:
    """Markers that are prepositions on a verb: before/after/until/since + gerund,
    because of / due to / as a result of + clause or nominal event, in order to."""
    for prep in doc:
        if prep.dep_ != "prep" or prep.head.pos_ not in ("VERB", "AUX"):
            continue
        head = prep.head
        word = _lower(prep)
        kids = list(prep.children)
        material = {t.i for t in prep.subtree}
        pcomps = [c for c in kids if c.dep_ == "pcomp"]
        pobjs = [c for c in kids if c.dep_ == "pobj"]
        if word in TIME_PREPOSITIONS and pcomps and pcomps[0].pos_ in ("VERB", "AUX"):
            yield _Link(TIME, [prep], head, pcomps[0], False, material)
        elif word == "because" and pcomps and _lower(pcomps[0]) == "of":
            obj = pobjs[0] if pobjs else next((c for c in pcomps[0].children if c.dep_ == "pobj"), None)
            if obj is not None:
                yield _Link(CAUSE, [prep, pcomps[0]], head, obj, True, material)
        elif word == "due" and pcomps and _lower(pcomps[0]) == "to":
            obj = next((c for c in pcomps[0].children if c.dep_ in ("pobj", "pcomp")), None)
            if obj is None and pobjs:
                obj = pobjs[0]
            if obj is not None:
                yield _Link(CAUSE, [prep, pcomps[0]], head, obj, obj.pos_ not in ("VERB", "AUX"), material)
        elif word == "as" and pobjs and pobjs[0].lemma_ == "result":
            result = pobjs[0]
            of = next((c for c in result.children if c.dep_ == "prep" and _lower(c) == "of"), None)
            obj = next((c for c in of.children if c.dep_ in ("pobj", "pcomp")), None) if of is not None else None
            if obj is not None:
                marker = [prep, result, of] + [c for c in result.children if c.dep_ == "det"]
                yield _Link(CAUSE, marker, head, obj, obj.pos_ not in ("VERB", "AUX"), material)
        elif word == "in" and pobjs and _lower(pobjs[0]) == "order":
            order = pobjs[0]
            verb = next((c for c in order.children if c.dep_ in ("acl", "relcl") and _to_aux(c) is not None), None)
            if verb is not None:
                yield _Link(PURPOSE, [prep, order, _to_aux(verb)], head, verb, False, material)


class _Builder:
    """Collects the core-argument tokens of a clause (see module docstring)."""

    def __init__(self, exclude: set[int]) -> None:
        self.exclude = exclude

    def nominal(self, token) -> set[int]:
        return {t.i for t in token.subtree if t.i not in self.exclude}

    def clause(self, verb) -> set[int]:
        kept = {verb.i}
        for child in verb.children:
            if child.i in self.exclude:
                continue
            if child.dep_ in CORE_DEPS:
                kept |= self.nominal(child)
            elif child.dep_ in CLAUSAL_DEPS:
                kept |= self.clause(child)
                kept |= {m.i for m in child.children if m.dep_ == "mark" and m.i not in self.exclude}
        right = max(i for i in kept if i >= verb.i)
        for child in verb.children:  # the first argument-like PP / small clause after it
            if child.i != right + 1 or child.i in self.exclude:
                continue
            if child.dep_ == "prep":
                kept |= self.nominal(child)
            elif (
                child.dep_ in ("advcl", "acl")
                and child.tag_ == "VBG"
                and not any(c.dep_ == "mark" for c in child.children)
            ):
                kept |= self.clause(child)
        return kept


def _lift(verb):
    """The predicate whose clause carries ``verb``: climb xcomp/ccomp chains."""
    while verb.dep_ in CLAUSAL_DEPS and verb.head is not verb:
        verb = verb.head
    return verb


def _render(doc, indices: Iterable[int], fronted: list[int] | None = None) -> str:
    """Text of the tokens in order (``fronted`` moved to the end); commas only
    where both original neighbours are kept; capitalised, ending in a period."""
    indices = set(indices)
    indices |= {t.i for t in doc if t.text == "," and t.i - 1 in indices and t.i + 1 in indices}
    order = sorted(indices)
    if fronted:
        moved = set(fronted)
        order = [i for i in order if i not in moved] + sorted(moved)
    keep = set(order)
    tokens = []
    for pos, i in enumerate(order):
        tok = doc[i]
        if tok.is_punct and tok.text not in ("'", "-", "%"):
            if tok.text != "," or (i - 1) not in keep or (i + 1) not in keep:
                continue
            if pos + 1 < len(order) and order[pos + 1] != i + 1:
                continue
        tokens.append(tok)
    while tokens and tokens[-1].is_punct:
        tokens.pop()
    while tokens and tokens[0].is_punct:
        tokens.pop(0)
    if not tokens:
        return ""
    parts = []
    for pos, tok in enumerate(tokens):
        text = tok.text
        if pos > 0 and tok.is_sent_start and tok.pos_ != "PROPN" and text != "I":
            text = text[:1].lower() + text[1:]
        nxt = tokens[pos + 1] if pos + 1 < len(tokens) else None
        space = tok.whitespace_ if nxt is not None and nxt.i == tok.i + 1 else " "
        if nxt is not None and (nxt.is_punct and nxt.text == "," or nxt.tag_ == "POS" or nxt.text.startswith("'")):
            space = tok.whitespace_ if nxt.i == tok.i + 1 else ""
        parts.append(text + (space if nxt is not None else ""))
    out = "".join(parts).strip()
    return out[:1].upper() + out[1:] + "."


def _unit(doc, link: _Link) -> str:
    builder = _Builder(exclude=set(link.material))
    head = link.head
    main_root = _lift(head)
    main = builder.clause(main_root)
    if head.i not in main:  # the head is not reachable through core deps (e.g. a conjunct)
        main |= builder.clause(head)
    if not _has_subject(head) and head.dep_ == "conj":
        main |= {t.i for c in head.head.children if c.dep_ in SUBJECT_DEPS for t in c.subtree}
    sub_builder = _Builder(exclude=set())
    dependent = link.dependent
    sub = sub_builder.nominal(dependent) if link.nominal else sub_builder.clause(dependent)
    sub |= {t.i for t in link.marker}
    main -= sub
    fronted = sorted(sub) if max(sub) < min(main) else None
    return _render(doc, main | sub, fronted)


def find_dependency_links(doc) -> list[dict[str, object]]:
    """Discourse links of a parsed summary (Mind the Link §3.1, dependency backend).

    Returns one dict per link, in text order of the marker: ``relation`` (time,
    cause or purpose), ``marker`` (its words as written, lower-cased), ``text``
    (the DL-ACU "<clause 1> <marker> <clause 2>.") and ``sentence_index``."""
    sentence_of = {}
    for s, sent in enumerate(doc.sents):
        for tok in sent:
            sentence_of[tok.i] = s
    links: list[_Link] = []
    seen: set[tuple[int, ...]] = set()
    for link in list(_prepositional_links(doc)) + list(_clause_links(doc)) + list(_infinitive_purposes(doc)):
        key = tuple(t.i for t in link.marker)
        if key in seen or any(t.i in s for s in seen for t in link.marker):
            continue
        seen.add(key)
        links.append(link)
    links.sort(key=lambda link: link.marker[0].i)
    out: list[dict[str, object]] = []
    for link in links:
        text = _unit(doc, link)
        if not text:
            continue
        out.append(
            {
                "relation": link.relation,
                "marker": " ".join(_lower(t) for t in link.marker),
                "text": text,
                "sentence_index": sentence_of[link.marker[0].i],
            }
        )
    return out
