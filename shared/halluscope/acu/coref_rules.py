"""The offline coreference backend ``"rules"`` (the default of dlsd_acu's FIZZ host):
third-person pronouns resolved on the shared spaCy parse by agreement, recency and
syntactic role (:func:`resolve_pronouns` lists the rules), and the text edits every
backend applies (docs/papers.md#hosts-fizz-and-fenice). The word tables the rules read
are :mod:`halluscope.acu.coref_words`'."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .coref_words import (
    FEMALE_NOUNS,
    IT_LABELS,
    MALE_NOUNS,
    PERSON_NOUNS,
    PRONOUNS,
    RAISING_VERBS,
    THEY_LABELS,
    TITLES,
    WEATHER_TIME_WORDS,
    WEATHER_VERBS,
)

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Token

#: Earlier sentences searched for an antecedent (besides the pronoun's own).
WINDOW = 3

_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
_CLAUSE_DEPS = frozenset({"ccomp", "xcomp", "csubj", "csubjpass"})
_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those"})


# -- shared helpers ------------------------------------------------------------


def _capitalize(text: str) -> str:
    """First letter upper-cased, except in words like "iPhone"."""
    if text[1:2].isupper():
        return text
    return text[:1].upper() + text[1:]


def _fit_case(replacement: str, sentence_start: bool) -> str:
    """Capitalised where the pronoun started its sentence; a leading determiner
    lowercased elsewhere ("The company" -> "the company"); names kept as written."""
    if sentence_start:
        return _capitalize(replacement)
    first, _, rest = replacement.partition(" ")
    if first.lower() in _DETERMINERS and rest:
        return first.lower() + " " + rest
    return replacement


def _possessive(name: str, plural: bool) -> str:
    """ "Apple" -> "Apple's"; a plural ending in s -> "the monitors'"."""
    if plural and name.endswith("s"):
        return name + "'"
    return name + "'s"


def _apply_edits(text: str, edits: Sequence[tuple[int, int, str]]) -> str:
    """Replace non-overlapping character spans (start, end, replacement)."""
    out = []
    last = 0
    for start, end, replacement in sorted(edits):
        if start < last:
            continue
        out.append(text[last:start])
        out.append(replacement)
        last = end
    out.append(text[last:])
    return "".join(out)


# -- rule backend --------------------------------------------------------------


@dataclass
class _Referent:
    """An entity being tracked: its best name, gender and number."""

    name: str
    gender: str | None  # "m", "f", "n" or None (unknown person / group)
    number: str  # "sg" / "pl"
    label: str  # entity label, "PERSON_NOUN" or "NOUN"
    tokens: frozenset[str] = frozenset()  # lowercase name tokens (entities) for name matching


@dataclass
class _Mention:
    start: int  # token index of the first token
    end: int  # token index after the last token
    root: Token  # the token carrying the syntactic role
    sentence: int
    subject: bool
    referent: _Referent


def _pleonastic(token) -> bool:
    """An empty "it": expletive; subject of a weather verb or of a copula with a
    weather/time complement ("it is raining", "it was late"); or subject of a
    copula/raising verb or a passive verb with a clause after it ("it is likely
    that", "it seems that", "it is important to", "it was reported that"). A
    referential "it" with a clause ("It said that sales rose") is an active,
    non-raising verb and is resolved."""
    if token.dep_ == "expl":
        return True
    if token.lower_ != "it" or token.dep_ not in _SUBJECT_DEPS:
        return False
    governor = token.head
    lemma = governor.lemma_.lower()
    if lemma in WEATHER_VERBS:
        return True
    complements = [c for c in governor.children if c.dep_ in ("acomp", "attr", "oprd")]
    if lemma == "be" and any(c.lower_ in WEATHER_TIME_WORDS for c in complements):
        return True
    if token.dep_ == "nsubjpass" or lemma in RAISING_VERBS:
        for holder in [governor] + complements:
            if any(c.dep_ in _CLAUSE_DEPS and c.i > token.i for c in holder.children):
                return True
    return False


class _RuleResolver:
    """Resolves the pronouns of one parsed ``Doc``; see :func:`resolve_pronouns`."""

    def __init__(self, doc, window: int = WINDOW) -> None:
        self.doc = doc
        self.window = window
        self.sentence_of: dict[int, int] = {}
        for n, sent in enumerate(doc.sents):
            for token in sent:
                self.sentence_of[token.i] = n
        self.by_sentence: dict[int, list[_Mention]] = {}  # mentions per sentence, in text order
        self.referents: list[_Referent] = []

    # -- candidate mentions ------------------------------------------------------
    def _title(self, ent) -> tuple[str | None, bool, int]:
        """(gender, has title, start) of a title just before a PERSON entity ("Mr. Smith")."""
        if ent.start == 0:
            return None, False, ent.start
        before = self.doc[ent.start - 1]
        key = before.lower_.rstrip(".")
        if key in TITLES and self.sentence_of[before.i] == self.sentence_of[ent.start]:
            return TITLES[key], True, ent.start - 1
        return None, False, ent.start

    def _entity_referent(self, ent, start: int) -> _Referent:
        """The referent a named entity refers to: an earlier one with the same label
        whose name contains this one or is contained in it ("Obama" and "Barack
        Obama"), else a new one. The longest name seen is kept."""
        name = self.doc[start : ent.end].text
        tokens = frozenset(t.lower_.rstrip(".") for t in ent if not t.is_punct and t.lower_ != "the")
        tokens = tokens - set(TITLES) or tokens
        for referent in reversed(self.referents):
            if (
                referent.label == ent.label_
                and referent.tokens
                and (tokens <= referent.tokens or referent.tokens <= tokens)
            ):
                if len(tokens) > len(referent.tokens):
                    referent.name, referent.tokens = name, tokens
                return referent
        if ent.label_ == "PERSON":
            gender, number = None, "sg"
        elif ent.label_ == "NORP":
            gender, number = None, "pl"
        else:
            gender, number = "n", "sg"
        referent = _Referent(name=name, gender=gender, number=number, label=ent.label_, tokens=tokens)
        self.referents.append(referent)
        return referent

    def _noun_phrase(self, token) -> tuple[int, int]:
        """Token range of a subject noun's phrase up to the noun ("the new company")."""
        start = token.left_edge.i
        while start < token.i and (self.doc[start].is_punct or self.doc[start].lower_ in PRONOUNS):
            start += 1
        return start, token.i + 1

    def _text(self, start: int, end: int) -> str:
        span = self.doc[start:end]
        text = span.text
        first = span[0]
        if first.is_sent_start and first.pos_ != "PROPN" and not first.ent_type_:
            text = text[:1].lower() + text[1:]
        return text

    def collect(self) -> None:
        """Entities, subject noun phrases and coordinated subjects, in text order."""
        found: list[_Mention] = []
        in_entity = {t.i for ent in self.doc.ents for t in ent}
        for ent in self.doc.ents:
            if ent.label_ != "PERSON" and ent.label_ not in IT_LABELS | THEY_LABELS:
                continue
            gender, _, start = self._title(ent) if ent.label_ == "PERSON" else (None, False, ent.start)
            referent = self._entity_referent(ent, start)
            if gender and referent.gender is None:
                referent.gender = gender
            root = ent.root
            found.append(_Mention(start, ent.end, root, self.sentence_of[root.i], root.dep_ in _SUBJECT_DEPS, referent))
        for token in self.doc:
            if token.dep_ not in _SUBJECT_DEPS or token.pos_ not in ("NOUN", "PROPN"):
                continue
            conjuncts = [c for c in token.children if c.dep_ == "conj"]
            if conjuncts:  # "Obama and Merkel met" -> they
                last = max(c.right_edge.i for c in token.conjuncts)
                start = self._noun_phrase(token)[0]
                referent = _Referent(self._text(start, last + 1), None, "pl", "GROUP")
                found.append(_Mention(start, last + 1, token, self.sentence_of[token.i], True, referent))
                continue
            if token.i in in_entity or token.pos_ != "NOUN":
                continue
            lemma = token.lemma_.lower()
            plural = token.tag_ == "NNS"
            if lemma in MALE_NOUNS or lemma in FEMALE_NOUNS:
                gender, label = ("m" if lemma in MALE_NOUNS else "f"), "PERSON_NOUN"
            elif lemma in PERSON_NOUNS:
                gender, label = None, "PERSON_NOUN"
            else:
                gender, label = (None if plural else "n"), "NOUN"
            start, end = self._noun_phrase(token)
            referent = _Referent(self._text(start, end), gender, "pl" if plural else "sg", label)
            found.append(_Mention(start, end, token, self.sentence_of[token.i], True, referent))
        for mention in sorted(found, key=lambda m: m.start):
            self.by_sentence.setdefault(mention.sentence, []).append(mention)

    # -- resolution ----------------------------------------------------------------
    @staticmethod
    def compatible(referent: _Referent, gender: str | None, number: str) -> bool:
        if number == "pl":
            if referent.number == "pl":
                return True
            return referent.label in THEY_LABELS
        if referent.number != "sg":
            return False
        if gender == "n":
            return referent.label in IT_LABELS or (referent.label == "NOUN" and referent.gender == "n")
        # he / she: a person (named, or a gendered noun) of unknown or the same gender
        return referent.label in ("PERSON", "PERSON_NOUN") and referent.gender in (None, gender)

    @staticmethod
    def coargument(pronoun, mention: _Mention) -> bool:
        """A non-possessive pronoun and a mention that are arguments of the same
        predicate do not corefer ("Obama praised him")."""
        root = mention.root
        head = pronoun.head
        if pronoun.dep_ == "pobj":
            head = head.head
        return root.head.i == head.i and root.dep_ in _SUBJECT_DEPS | {"dobj", "dative", "attr"}

    def antecedent(self, pronoun, gender, number, possessive) -> _Mention | None:
        """Candidates: the pronoun's own sentence, then up to ``window`` earlier
        sentences, nearest first; within a sentence subjects first, then the others
        (the nearest first in the pronoun's sentence, left to right in earlier ones)."""
        sentence = self.sentence_of[pronoun.i]
        for n in range(sentence, max(-1, sentence - self.window - 1), -1):
            group = [m for m in self.by_sentence.get(n, ()) if m.end <= pronoun.i]
            if n == sentence:
                ordered = [m for m in group if m.subject] + sorted(
                    (m for m in group if not m.subject), key=lambda m: -m.start
                )
            else:
                ordered = [m for m in group if m.subject] + [m for m in group if not m.subject]
            for m in ordered:
                if not self.compatible(m.referent, gender, number):
                    continue
                if n == sentence and not possessive and self.coargument(pronoun, m):
                    continue
                return m
        return None

    def edits(self) -> list[tuple[int, int, str]]:
        self.collect()
        out: list[tuple[int, int, str]] = []
        for token in self.doc:
            features = PRONOUNS.get(token.lower_)
            if features is None or token.pos_ != "PRON" or _pleonastic(token):
                continue
            gender, number, possessive = features
            possessive = possessive or token.tag_ == "PRP$"
            found = self.antecedent(token, gender, number, possessive)
            if found is None:
                continue
            referent = found.referent
            if gender in ("m", "f") and referent.gender is None:
                referent.gender = gender  # "He" fixes Obama's gender for a later "she"
            name = _fit_case(referent.name, token.is_sent_start)
            if possessive:
                name = _possessive(name, referent.number == "pl")
            out.append((token.idx, token.idx + len(token.text), name))
            mention = _Mention(
                token.i, token.i + 1, token, self.sentence_of[token.i], token.dep_ in _SUBJECT_DEPS, referent
            )
            group = self.by_sentence.setdefault(mention.sentence, [])
            group.insert(bisect.bisect([m.start for m in group], mention.start), mention)
        return out


def pronoun_edits(doc) -> list[tuple[int, int, str]]:
    """(start, end, replacement) character edits of :func:`resolve_pronouns`."""
    return _RuleResolver(doc).edits()


def resolve_pronouns(doc) -> str:
    """The text of a parsed ``Doc`` with its third-person pronouns resolved by rules.

    * Pronouns: he/him/his/she/her/hers/it/its/they/them/their/theirs (tagged PRON).
    * Antecedents: PERSON entities (he/she forms; gender unknown until a title
      "Mr."/"Mrs." or an earlier resolved pronoun fixes it), entities labelled
      ORG/GPE/PRODUCT/FAC/LOC/WORK_OF_ART/EVENT/LAW (it/its), ORG/NORP/GPE
      entities (they/their), subject noun phrases (singular non-person nouns for
      it, gendered person nouns such as "the man" for he/she, plural nouns for
      they), coordinated subjects ("Obama and Merkel" for they), and pronouns
      already resolved (so chains follow their first antecedent).
    * Order: the pronoun's sentence, then the :data:`WINDOW` (3) earlier sentences,
      nearest first; within a sentence subjects first (a simple salience rule),
      then other mentions. A non-possessive pronoun never takes an argument of its
      own predicate. A person noun without gender ("the suspect") takes he or
      she, and keeps the first one it gets.
    * Names: a person is named by the longest name it has had so far ("Obama"
      after "Barack Obama" -> "Barack Obama"), with a title written before it.
    * Output: possessives become "X's" ("X'" for a plural in -s); capitalised at
      sentence start, a leading determiner lowercased elsewhere.
    * Never replaced: a pronoun with no compatible antecedent, and pleonastic
      "it" (see :func:`_pleonastic`).
    """
    return _apply_edits(doc.text, pronoun_edits(doc))
