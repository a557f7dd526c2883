"""The rule decomposer: an offline proposition splitter over the spaCy dependency
parse (the rules: :class:`RuleDecomposer`), a stand-in for the papers' seq2seq
decomposer (docs/papers.md#sd-acu). It parses through the shared parse cache, or takes
a sentence's in-context parse lent by :class:`halluscope.acu.decompose.context_parses`;
the caching it shares with the seq2seq decomposer is :mod:`halluscope.acu.decompose`'s."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..registry import resolve
from .decompose import _CONTEXT, DEFAULT_CACHE_SIZE, _CachedDecomposer, dedupe_units

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Token

#: Governors whose ``ccomp`` clause is also a unit of its own ("Monitors stated
#: that rebels shot at bystanders" -> "Rebels shot at bystanders", Mind the Link §1).
#: Reporting and factive verbs only: "denied that ..." or "hoped that ..." do not
#: assert their clause.
ASSERTING_GOVERNORS: frozenset[str] = frozenset(
    {
        "say",
        "tell",
        "report",
        "state",
        "announce",
        "add",
        "explain",
        "note",
        "confirm",
        "reveal",
        "disclose",
        "acknowledge",
        "admit",
        "show",
        "find",
        "learn",
        "realize",
        "realise",
        "discover",
        "know",
        "notice",
        "prove",
        "demonstrate",
        "write",
        "testify",
        "declare",
        "told",
        "said",
    }
)

#: Subordinators whose clause is not asserted ("If it rains, ...").
NON_ASSERTIVE_MARKS: frozenset[str] = frozenset({"if", "unless", "whether", "lest", "once"})

_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "expl", "csubj", "csubjpass"})
_SPLIT_DEPS = frozenset({"relcl", "conj", "advcl", "parataxis"})
_NOMINAL_POS = frozenset({"NOUN", "PROPN", "PRON", "NUM"})
_RELATIVE_WORDS = frozenset({"who", "whom", "which", "that", "whose"})
_APPOSITION_MARKS = frozenset({",", "(", "-", "--", "\u2013", "\u2014", ":"})


def _is_predicate(token) -> bool:
    return token.pos_ == "VERB" or (token.pos_ == "AUX" and token.dep_ not in ("aux", "auxpass"))


def _has_subject(token) -> bool:
    return any(c.dep_ in _SUBJECT_DEPS for c in token.children)


def _mark(token) -> str:
    return " ".join(c.lower_ for c in token.children if c.dep_ == "mark")


def _negated(token) -> bool:
    return any(c.dep_ == "neg" or (c.dep_ == "advmod" and c.lower_ == "never") for c in token.children)


def _relative_pronoun(clause) -> tuple[Token, str] | None:
    """(relative word, role) of a relative clause: subject, object or ``whose``."""
    for c in clause.children:
        if c.lower_ in _RELATIVE_WORDS and c.tag_ in ("WDT", "WP") and c.dep_ in ("nsubj", "nsubjpass", "dobj"):
            return c, c.dep_
        if c.dep_ in ("nsubj", "nsubjpass", "dobj"):
            for g in c.children:
                if g.dep_ == "poss" and g.tag_ == "WP$":
                    return g, "poss"
    return None


class _Piece:
    __slots__ = ("key", "text", "index")

    def __init__(self, key: float, text: str, index: int | None) -> None:
        self.key = key
        self.text = text
        self.index = index


class _SentenceSplitter:
    """Units of one sentence (a spaCy ``Span``), see :class:`RuleDecomposer`."""

    def __init__(self, sent) -> None:
        self.sent = sent
        self.doc = sent.doc
        self._stands: dict[int, bool] = {}

    # -- which clauses are units ----------------------------------------------
    def stands(self, token, depth: int = 0) -> bool:
        """Whether a predicate is asserted as a unit of its own (and so split off)."""
        cached = self._stands.get(token.i)
        if cached is None:
            cached = self._stands[token.i] = self._stands_uncached(token, depth)
        return cached

    def _stands_uncached(self, p, depth: int) -> bool:
        if not _is_predicate(p) or depth > 30:
            return False
        dep, head = p.dep_, p.head
        if dep == "ROOT":
            return True
        if dep == "relcl":
            return head.pos_ in _NOMINAL_POS and _relative_pronoun(p) is not None
        if dep == "conj":
            return _is_predicate(head) and self.stands(head, depth + 1)
        if dep in ("advcl", "parataxis"):
            return (
                _has_subject(p)
                and _mark(p) not in NON_ASSERTIVE_MARKS
                and _is_predicate(head)
                and self.stands(head, depth + 1)
            )
        if dep == "ccomp":
            return (
                _has_subject(p)
                and _mark(p) not in NON_ASSERTIVE_MARKS
                and head.lemma_.lower() in ASSERTING_GOVERNORS
                and not _negated(head)
                and self.stands(head, depth + 1)
            )
        return False

    def set_off(self, appos) -> bool:
        """An apposition set off by a comma, parenthesis or dash ("Tim Cook, Apple's
        CEO,"); the sm parser also labels some object predicatives ``appos``
        ("called the plan "a disaster"") and those are not split."""
        start = appos.left_edge.i
        return start > 0 and self.doc[start - 1].text in _APPOSITION_MARKS

    def split_off(self, child) -> bool:
        """Children left out of the phrase that contains them: appositions (their
        own "X is Y" unit) and standing relative/conjoined/adverbial clauses."""
        dep = child.dep_
        if dep == "appos":
            return self.set_off(child)
        if dep in _SPLIT_DEPS:
            return self.stands(child)
        if dep in ("cc", "preconj"):
            return any(s.dep_ == "conj" and self.split_off(s) for s in child.head.children)
        return False

    # -- collecting and rendering ------------------------------------------------
    def collect(self, token, out: set) -> set:
        """``token`` and its subtree, without split-off children."""
        stack = [token]
        while stack:
            t = stack.pop()
            out.add(t.i)
            stack.extend(c for c in t.children if not self.split_off(c))
        return out

    def token_text(self, token) -> str:
        text = token.text
        if (
            token.is_sent_start
            and token.pos_ != "PROPN"
            and not token.ent_type_
            and text[:1].isupper()
            and text[1:].islower()
            and text != "I"
        ):
            text = text[0].lower() + text[1:]
        return text

    def pieces(self, indices: Iterable[int]) -> list[_Piece]:
        """Token pieces: punctuation kept only between two kept tokens, quotation
        marks only when they pair up."""
        chosen = set(indices)
        kept = [i for i in sorted(chosen) if not self.doc[i].is_punct or (i - 1 in chosen and i + 1 in chosen)]
        quotes = [i for i in kept if self.doc[i].is_quote]
        if len(quotes) % 2:
            kept = [i for i in kept if not self.doc[i].is_quote]
        return [_Piece(float(i), self.token_text(self.doc[i]), i) for i in kept]

    def render(self, pieces: list[_Piece]) -> str:
        pieces = sorted(pieces, key=lambda p: p.key)
        text = ""
        previous = None
        for piece in pieces:
            glued = (
                previous is not None
                and previous.index is not None
                and piece.index is not None
                and piece.index == previous.index + 1
                and not self.doc[previous.index].whitespace_
            )
            text += piece.text if (glued or not text) else " " + piece.text
            previous = piece
        return text.strip()

    def phrase(self, token) -> str:
        """The noun phrase of ``token`` (split-off clauses and appositions left out)."""
        return self.render(self.pieces(self.collect(token, set())))

    @staticmethod
    def sentence(text: str) -> str:
        text = text.strip().rstrip(",;:-").strip()
        if not text:
            return ""
        if not text[1:2].isupper():  # not "iPhone" -> "IPhone"
            text = text[0].upper() + text[1:]
        return text if text[-1] in ".!?" else text + "."

    # -- units -------------------------------------------------------------------
    def subject_pieces(self, predicate, key: float) -> list[_Piece]:
        """The subject of a conjoined predicate that lacks one, from its head."""
        head = predicate.head
        depth = 0
        while head.dep_ == "conj" and not _has_subject(head) and head.head.i != head.i and depth < 30:
            head, depth = head.head, depth + 1
        for c in head.children:
            if c.dep_ in _SUBJECT_DEPS:
                if head.dep_ == "relcl":
                    rel = _relative_pronoun(head)
                    if rel is not None and rel[0].i == c.i:
                        return [_Piece(key, self.phrase(head.head), None)]
                return [_Piece(key, self.phrase(c), None)]
        return []

    @staticmethod
    def shared_auxiliaries(p) -> list:
        """Auxiliaries (and negation) a conjoined verb without its own shares with
        its head, when both have the same form ("will open a store and hire
        workers" -> "will hire"; "was arrested and charged" -> "was charged"; not
        "did not sing but danced"). Negation is not shared across "but"/"yet"."""
        if any(c.dep_ in ("aux", "auxpass") for c in p.children):
            return []
        source = p.head
        depth = 0
        while (
            source.dep_ == "conj"
            and source.head.i != source.i
            and depth < 30
            and not any(c.dep_ in ("aux", "auxpass") for c in source.children)
        ):
            source, depth = source.head, depth + 1
        if p.tag_ != source.tag_ or p.tag_ not in ("VB", "VBN", "VBG"):
            return []
        contrast = any(c.dep_ == "cc" and c.lower_ in ("but", "yet") and c.i < p.i for c in p.head.children)
        return [c for c in source.children if c.dep_ in ("aux", "auxpass") or (c.dep_ == "neg" and not contrast)]

    def predicate_unit(self, p) -> str:
        indices = {p.i}
        for c in p.children:
            if self.split_off(c):
                continue
            if c.dep_ in ("cc", "preconj") and not any(s.dep_ == "conj" and s.i > c.i for s in p.children):
                continue  # a leading "And he left" -> "he left"
            if c.dep_ == "mark" and p.dep_ in ("advcl", "ccomp", "parataxis"):
                continue  # "that rebels shot" -> "rebels shot"
            self.collect(c, indices)
        extra: list[_Piece] = []
        if p.dep_ == "relcl":
            relative = _relative_pronoun(p)
            assert relative is not None, "stands() splits off a relative clause only with its relative word"
            word, role = relative
            indices.discard(word.i)
            antecedent = self.phrase(p.head)
            if role == "poss":
                extra.append(_Piece(word.i, antecedent + "'s", None))
            elif role == "dobj":
                extra.append(_Piece(p.i + 0.5, antecedent, None))
            else:
                extra.append(_Piece(word.i, antecedent, None))
        elif p.dep_ == "conj" and not _has_subject(p):
            first = min(indices)
            extra.extend(self.subject_pieces(p, first - 0.5))
            for n, c in enumerate(self.shared_auxiliaries(p)):
                extra.append(_Piece(first - 0.4 + 0.01 * n, c.text, None))
        return self.sentence(self.render(self.pieces(indices) + extra))

    def apposition_unit(self, appos) -> str:
        head = appos.head
        plural = head.tag_ in ("NNS", "NNPS") or any(c.dep_ == "conj" for c in head.children)
        return self.sentence(f"{self.phrase(head)} {'are' if plural else 'is'} {self.phrase(appos)}")

    def units(self) -> list[str]:
        anchored: list[tuple[int, str]] = []
        for token in self.sent:
            if token.dep_ == "appos" and self.set_off(token):
                anchored.append((token.i, self.apposition_unit(token)))
            elif _is_predicate(token) and self.stands(token):
                anchored.append((token.i, self.predicate_unit(token)))
        units = [u for _, u in sorted(anchored, key=lambda pair: pair[0]) if u]
        if not units:
            whole = self.sent.text.strip()
            return [whole] if whole else []
        return units


def split_propositions(doc) -> list[str]:
    """Rule-based units of a parsed ``Doc``, sentence by sentence (see :class:`RuleDecomposer`)."""
    out: list[str] = []
    for sent in doc.sents:
        out.extend(_SentenceSplitter(sent).units())
    return dedupe_units(out)


class RuleDecomposer(_CachedDecomposer):
    """Offline proposition splitter on the dependency parse (shared parse cache).

    One unit per asserted predicate (a ``VERB``, or a copula heading its clause)
    with its core arguments and modifiers: subject, objects, complements,
    negation, auxiliaries, particles, prepositional/temporal modifiers, ``xcomp``
    ("wants to buy the startup" stays one unit) and ``ccomp`` clauses, each
    rendered from the original tokens in order as a short sentence. Units of
    their own, split off from the clause holding them:

    * relative clauses with a relative pronoun, the head noun replacing it ("The
      man who won the lottery bought a car" -> "The man won the lottery.", "The
      man bought a car."; "whose car" -> "the man's car"; an object "that" goes
      after the verb). Without a relative pronoun the clause stays in its noun;
    * appositions set off by a comma, parenthesis or dash -> "X is Y" ("are" for
      a plural X);
    * conjoined predicates, the shared subject copied, and the shared auxiliaries
      and negation when the verb has none and the same form as its head ("will
      open a store and hire workers" -> "... will hire workers"; "did not sing but
      danced" -> "She danced."; negation is not carried across but/yet);
    * adverbial clauses with their own subject, unless the subordinator is
      non-assertive (if, unless, whether, lest, once), the subordinator dropped:
      the discourse link itself is DL-ACU's job (docs/papers.md#dl-acu);
    * the ``ccomp`` of a non-negated reporting/factive verb
      (:data:`ASSERTING_GOVERNORS`), which also stays inside its governor's unit,
      so the attribution is kept and the bare claim is available for ACU-to-ACU
      alignment (Mind the Link §3.2: "rebel groups shot at bystanders"; docs/papers.md#sd-acu).

    Coordinated subjects and objects stay together ("He bought a car and a
    house."): splitting them breaks collective predicates ("A and B merged") and
    NLI handles the coordination. A sentence with no predicate yields itself.
    """

    def __init__(self, spacy_model: str | None = None, *, cache_size: int = DEFAULT_CACHE_SIZE) -> None:
        from ..registry import SPACY

        self.spacy_model = resolve(SPACY, spacy_model)
        self.name = "rules"
        super().__init__(("rules", self.spacy_model), cache_size)

    def __repr__(self) -> str:
        return f"RuleDecomposer({self.spacy_model!r})"

    def _decompose_uncached(self, texts: list[str]) -> list[list[str]]:
        from ..resources import get_parse_cache

        builders = getattr(_CONTEXT, "builders", None) or {}
        alone = [text for text in texts if text not in builders]
        parsed = dict(zip(alone, get_parse_cache(self.spacy_model).get_many(alone), strict=True)) if alone else {}
        return [split_propositions(builders[text]() if text in builders else parsed[text].doc) for text in texts]
