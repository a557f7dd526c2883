"""Names swapped within the source: a summary name the source has, said where the source
says another one (docs/papers.md#ehi-entities-swapped-within-the-source). Numbers are read
the same way by QHI (:func:`~halluscope.qhi.swaps.swapped_quantity`,
docs/papers.md#qhi-what-the-words-around-a-number-say).

Word overlap cannot see "Clarence House" replaced by "the Royal Household" when the
source names both, and name matching finds the summary's name in the source and calls
it supported. This module reads the name in its place: the summary sentence's aligned
source sentence (:func:`halluscope.match.claims.aligned_sentence`, the one holding
most of the summary sentence's content, the name's own words left out) is the source's
account of that sentence. A
supported summary entity ``E`` is **swapped** when

* that aligned sentence does not state ``E`` (else see below): neither its words (whole,
  case ignored) nor the source mention that supports it (an acronym, a partial name, a
  synonym: "The World Health Organization" for "the WHO");
* it has an entity ``E'`` of the same kind (:data:`KIND_OF_LABEL`: people; organisations
  and places, which spaCy's small model confuses; nationalities and groups; anything
  else only with its own label) in the same slot (:func:`_same_slot`): ``E'``'s head
  token has ``E``'s dependency, an argument's (:data:`SLOT_DEPS`), on a word of the same
  lemma, and for the object of a preposition the preposition hangs on the same word
  ("working at Clarence House" and "working at the Royal Household": ``pobj`` of "at" of
  "working");
* ``E'`` shares no word with ``E`` (not "Obama" for "Barack Obama") and the summary
  sentence does not name ``E'`` anywhere (then the sentence says both, and the order is
  the relation dimension's business).

A relative pronoun fills its name's slot (:func:`_fillers`: "Mark Smith, who was charged"
puts Mark Smith in the subject slot of "charged"). When no slot places it, the words
around it may (:func:`_swapped_between_same_words`): another name of the aligned
sentence stands between the same two words, one of them a content word, and the source
nowhere writes the summary's name there. When the aligned sentence states ``E`` too (a
run-on sentence naming it in another role), only the words around it are read, and all
of them must agree (the two words on each side). Numbers are read both ways too
(:func:`~halluscope.qhi.swaps.swapped_quantity`).

The swap is a contradiction (status ``contradicted``, mode ``swapped``): the source
states the same fact of another entity. Not caught: a swap that neither the parse nor
the neighbouring words place, a sentence aligned to the wrong source sentence, and
swaps between sentences the summary fuses. A summary sentence the source writes word
for word (:func:`~halluscope.match.copies.sentence_copied`) swaps nothing: that passage
is its account, and it states each unit in its place (the alignment, which picks the
first of tied sentences, may pick another sentence of the same words around another
number: "received 47 complaints" for a copied "received 27 complaints").
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spacy.lang.en.stop_words import STOP_WORDS

from ..match.claims import aligned_sentence
from ..match.context_words import (
    _ARTICLES,
    _WORD,
    CONTEXT_WORDS,
    _around,
    _nearest,
    _run_in,
    _shared_context,
    _spaced,
    _words,
    _written_around,
)
from ..match.copies import sentence_copied
from ..text.clause_words import RELATIVE_PRONOUNS
from ..text.index import TextIndex, word_stem
from ..text.name_runs import names_before, names_between
from ..text.names import NON_NUMERIC_LABELS, canonical_entity
from ..units import EntityUnit, Match, TextEvidence

#: entity labels that may stand in for each other in a slot (spaCy's small model labels
#: one club ORG in one sentence and GPE in the next); a label not listed is its own kind
KIND_OF_LABEL: dict[str, str] = {
    "PERSON": "person",
    "ORG": "organisation or place",
    "GPE": "organisation or place",
    "LOC": "organisation or place",
    "FAC": "organisation or place",
    "NORP": "group",
}


def _kind(label: str) -> str:
    return KIND_OF_LABEL.get(label, label)


def _written_in(words: Sequence[str], lowered: str) -> bool:
    """Whether ``words`` (words of :data:`_WORD`, as :func:`_words` gives them) occur in
    ``lowered`` as a run of whole words: its words joined by spaces hold them joined so
    (as :meth:`~halluscope.text.index.TextIndex.written_run` finds a run; no
    pattern compiled per name)."""
    return _run_in(words, _spaced(lowered))


def _evidence_spans(match: Match, source: TextIndex) -> list[tuple[int, int]]:
    """Where the source writes the mention that supports the unit (``match``'s evidence,
    in any form: an acronym, a partial name, a synonym): the evidence itself, and every
    source name with the evidence's key."""
    evidence = match.evidence[0]
    if isinstance(evidence, TextEvidence):
        return [evidence.span]
    spans = [evidence.span] if getattr(evidence, "span", None) is not None else []
    names, key = _name_spans(source), getattr(evidence, "key", None)  # an entity's key is a str; not every evidence's
    return spans + (names.get(key, []) if isinstance(key, str) else [])


class _SourceEntities(list[Any]):
    """A source's entity spans (``Doc.ents``), in text order."""

    __slots__ = ()

    @classmethod
    def build(cls, index: TextIndex) -> _SourceEntities:
        return cls(index.doc.ents)


class _EntityStarts(list[int]):
    """Where each of a source's entity spans (:func:`_entities`) starts."""

    __slots__ = ()

    @classmethod
    def build(cls, index: TextIndex) -> _EntityStarts:
        return cls(e.start_char for e in _entities(index))


class _NameSpans(dict[str, list[tuple[int, int]]]):
    """A source's names by canonical key -> where it writes them."""

    __slots__ = ()

    @classmethod
    def build(cls, index: TextIndex) -> _NameSpans:
        out = cls()
        for e in _entities(index):
            out.setdefault(canonical_entity(e.text, e.label_), []).append((e.start_char, e.end_char))
        return out


@dataclass(frozen=True)
class _Dateline:
    """Where a source's dateline names its agency (:func:`dateline`), or None."""

    span: tuple[int, int] | None

    @classmethod
    def build(cls, index: TextIndex) -> _Dateline:
        return cls(dateline(index.written))


def _entities(source: TextIndex) -> list:
    """The source's entity spans, in text order (``Doc.ents`` makes its spans anew on
    every access: read once per source index)."""
    return source.derived(_SourceEntities)


def _entities_in(source: TextIndex, start: int, end: int) -> list:
    """The source's entity spans (:func:`_entities`) between ``start`` and ``end``."""
    entities = _entities(source)
    starts = source.derived(_EntityStarts)
    inside = []
    for entity in entities[bisect.bisect_left(starts, start) :]:
        if entity.start_char >= end:
            break
        if entity.end_char <= end:
            inside.append(entity)
    return inside


def _name_spans(source: TextIndex) -> dict[str, list[tuple[int, int]]]:
    """A source's names by canonical key -> where it writes them (once per source index)."""
    return source.derived(_NameSpans)


def _stated_in(match: Match, start: int, end: int, source: TextIndex) -> bool:
    """Whether the supporting mention (:func:`_evidence_spans`) is written between
    ``start`` and ``end``, outside the source's dateline (:func:`dateline`)."""
    credit = _dateline_of(source)
    return any(
        start <= a and b <= end and not (credit and credit[0] <= a and b <= credit[1])
        for a, b in _evidence_spans(match, source)
    )


#: a news dateline at the start of a text: an optional place ("Irbil, Iraq", "LONDON,
#: England") and the agency in parentheses ("(CNN)", "(Reuters)", "(CNN Student News)"),
#: glued to the first word or followed by a dash; not an acronym a name introduces ("The
#: Crown Prosecution Service (CPS) will reveal ...")
_DATELINE = re.compile(
    r"\A\s*(?:[A-Z][^\W\d_]*\.?(?:,? +[A-Z][^\W\d_]*\.?)*,? *)?"
    r"\((?P<agency>[A-Z][\w.]*(?: [A-Z][\w.]*){0,3})\)"
    r"(?=[A-Z\"'“‘]|\s*(?:--|—|–|-)\s)"
)


def dateline(text: str) -> tuple[int, int] | None:
    """Where a text's dateline names its news agency (the characters inside the
    parentheses of "Irbil, Iraq (CNN)ISIS claimed ..."), or None. The agency reports the
    story; it takes no part in the first sentence's events, so it does not make that
    sentence state its name (:func:`swapped_entity`: "CNN claims it controlled part of
    the refinery" against "Irbil, Iraq (CNN)ISIS claimed it controlled part of the
    refinery" is a swap)."""
    found = _DATELINE.match(text)
    return found.span("agency") if found else None


def _dateline_of(source: TextIndex) -> tuple[int, int] | None:
    return source.derived(_Dateline).span


def _without_dateline(source: TextIndex, start: int, end: int) -> str:
    """The lower-cased source text from ``start`` to ``end``, its dateline's agency
    (:func:`dateline`) blanked out."""
    lowered = source.lowered[start:end]
    credit = _dateline_of(source)
    if credit is None or credit[1] <= start or credit[0] >= end:
        return lowered
    a, b = max(credit[0], start) - start, min(credit[1], end) - start
    return lowered[:a] + " " * (b - a) + lowered[b:]


#: the dependencies that make a slot: the arguments of a verb or preposition (a compound
#: or possessive name only qualifies its head: "the Argentina striker" and "the
#: Manchester City striker" may both be true)
SLOT_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "obj", "pobj", "attr", "dative", "agent"})


def _same_slot(mine, theirs) -> bool:
    """Whether two name heads fill the same slot: the same dependency of
    :data:`SLOT_DEPS` on a word of the same lemma, and for the object of a preposition
    the same word governing that preposition ("working at", not any "in": "starred in a
    show" and "a folly in Langstone" are no slot)."""
    if mine.dep_ not in SLOT_DEPS or theirs.dep_ != mine.dep_:
        return False
    for a, b in ((mine, theirs), (mine.head, theirs.head)):
        if a.head.i == a.i or b.head.i == b.i or a.head.lemma_.lower() != b.head.lemma_.lower():
            return False
        if a.dep_ != "pobj":
            return True
    return True


def _fillers(entity) -> list[object]:
    """The tokens through which a source name fills slots: its head, and the relative
    pronoun of a clause that qualifies it ("Police arrested Mark Smith, who was charged
    with murder": "who", the subject of "charged", stands for Mark Smith)."""
    out = [entity.root]
    for clause in entity.root.children:
        if clause.dep_ == "relcl":
            out.extend(t for t in clause.children if t.lower_ in RELATIVE_PRONOUNS and t.dep_ in SLOT_DEPS)
    return out


#: parts of speech of a word after a name that the name cannot qualify (the name's own
#: verb, a preposition, a conjunction, ...)
_NOT_QUALIFIED = frozenset({"VERB", "AUX", "ADP", "CCONJ", "SCONJ", "PART", "PRON", "DET", "NUM", "PUNCT"})


def _qualifier(entity) -> bool:
    """Whether a source name qualifies the word after it, between an article and a
    lower-case word ("the Tottenham forward posted a video": spaCy's small model reads
    "Tottenham" as the subject and "forward" as an adverb). The name then fills no slot:
    the forward posted the video, and a summary's "Emmanuel Adebayor posted a video" is no
    swap (docs/papers.md#ehi-entities-swapped-within-the-source)."""
    doc = entity.doc
    if entity.start == 0 or entity.end >= len(doc):
        return False
    before, after = doc[entity.start - 1], doc[entity.end]
    return (
        before.lower_ in _ARTICLES
        and after.is_alpha
        and after.is_lower
        and after.pos_ not in _NOT_QUALIFIED
        and not after.is_sent_start
    )


def _share_a_word(own: list[str], other: list[str]) -> bool:
    """Whether two names share a word, or one's word ends the other's (a tokenisation
    such as "linkTemperton" for "Temperton"; "Household" is not "House")."""
    return any(a == b or (len(a) > 3 and b.endswith(a)) or (len(b) > 3 and a.endswith(b)) for a in own for b in other)


def swapped_entity(unit: EntityUnit, match: Match, summary: TextIndex, source: TextIndex) -> Match | None:
    """The swap of one summary entity that ``match`` finds in the source (module
    docstring), as a contradicting :class:`~halluscope.units.Match` whose evidence is the
    source's entity in its place, or None."""
    if summary.doc is None or source.doc is None:
        return None
    at_sentence = summary.sentence_at(unit.span[0])
    if at_sentence is None or sentence_copied(summary, at_sentence, source):
        return None
    sentence = summary.sentences[at_sentence]
    span = _without_possessive(unit.span, summary.written)
    own = _words(summary.written[span[0] : span[1]])
    if not own or _description(unit, own, span, summary, match, source):
        return None
    # the name's own words do not choose the sentence: they would pull it to where the
    # source writes the name, whatever the rest of the summary sentence says
    aligned_at = aligned_sentence(sentence, source, frozenset(word_stem(w) for w in own))
    if aligned_at is None:
        return None
    aligned = source.sentences[aligned_at]
    mention = summary.doc.char_span(unit.span[0], unit.span[1], alignment_mode="expand")
    stated = _written_in(own, _without_dateline(source, aligned.start, aligned.end)) or _stated_in(
        match, aligned.start, aligned.end, source
    )
    if mention is None or stated:
        # the aligned sentence states the name too (a run-on sentence, a name said twice):
        # only the words right around it can place another name there, all of them the
        # same: the slot, or one shared word, would read "spent time in the Bundesliga
        # with Bayern" against "in Germany with Bundesliga giants Bayern" as a swap
        return _swapped_between_same_words(
            unit, span, own, match, summary, sentence, source, aligned, whole_context=stated
        )
    root = mention.root
    summary_sentence = summary.lowered[sentence.start : sentence.end]
    for entity in _entities_in(source, aligned.start, aligned.end):
        if _kind(entity.label_) != _kind(unit.label) or _qualifier(entity):
            continue
        if not any(_same_slot(root, filler) for filler in _fillers(entity)):
            continue
        other = _words(entity.text)
        if not other or _share_a_word(own, other) or _written_in(other, summary_sentence):
            continue
        detail = (
            f"the aligned source sentence has {entity.text!r} where the summary has {unit.text!r} "
            f"({root.dep_} of {root.head.text!r})"
        )
        return Match(
            "swapped", (TextEvidence(entity.text, (entity.start_char, entity.end_char)),), 0.0, detail, contradicts=True
        )
    return _swapped_between_same_words(unit, span, own, match, summary, sentence, source, aligned)


_ARTICLE_BEFORE = re.compile(r"(?:^|\W)the\s+$")


def _description(
    unit: EntityUnit, own: list[str], span: tuple[int, int], summary: TextIndex, match: Match, source: TextIndex
) -> bool:
    """Whether a person "name" is a description: one word after "the" ("the Briton was
    four-hundredths of a second quicker", "the Dutchman") that the source, too, writes
    with an article ("The 23-year-old Briton"). It says who someone is, not which one, so
    another name in its place is no swap. A name spaCy tags as a person and the source
    writes bare ("the tuttosport a champions" against "Tuttosport reported") is checked."""
    if (
        unit.label != "PERSON"
        or len(own) != 1
        or _ARTICLE_BEFORE.search(summary.lowered, max(0, span[0] - 5), span[0]) is None
    ):
        return False
    for start, end in _evidence_spans(match, source):
        mention = source.doc.char_span(start, end, alignment_mode="expand")
        if mention is not None and any(c.dep_ == "det" and c.lower_ in _ARTICLES for c in mention.root.children):
            return True
    return False


#: a possessive ending that spaCy takes into a lower-cased name ("new york's")
_POSSESSIVE = re.compile(r"\s*['’]s$", re.IGNORECASE)


def _without_possessive(span: tuple[int, int], written: str) -> tuple[int, int]:
    """``span`` without the possessive ending spaCy may take into a name ("new york's
    latest offering": the name is "new york", and "latest" comes after it)."""
    found = _POSSESSIVE.search(written[span[0] : span[1]])
    return (span[0], span[0] + found.start()) if found and found.start() > 0 else span


def _swapped_between_same_words(
    unit: EntityUnit,
    span: tuple[int, int],
    own: list[str],
    match: Match,
    summary: TextIndex,
    sentence,
    source: TextIndex,
    aligned,
    whole_context: bool = False,
) -> Match | None:
    """The second reading of a swap, which needs no parse of the slot: the aligned source
    sentence writes another name between the same words as the summary's name
    (:func:`_shared_context`: the nearest word on each side the same, a content word
    among those shared), a run of capitalised words (:mod:`halluscope.text.name_runs`) inside a name
    spaCy tags there (:data:`NAME_LABELS`), that shares no word with the summary's name
    and that the summary sentence does not write, nor is the mention ``match`` found
    (an acronym's expansion: "The World Health Organization" for "the WHO"); and the
    source nowhere writes the summary's name between those words
    (:func:`_written_around`). "secure Chelsea's hold" against "secure Arsenal's hold"
    (a possessive is no slot); "the 2012 sky tickets winner" against "the 2012 Tour de
    France winner" (lower-cased summaries parse too poorly for the slot). A name that
    opens the summary sentence (no word before it, not even an article) may also be
    placed by its right side alone, when the sentence start finds no name: the source
    name right before the same :data:`CONTEXT_WORDS` words, a content word among them,
    wherever it stands in the sentence (:func:`~halluscope.text.name_runs.names_before`: "florence, 27, broke down"
    against "..., Knox, 27, broke down");
    docs/papers.md#ehi-entities-swapped-within-the-source."""
    mine = _around(summary.lowered, span[0], span[1], sentence.start, sentence.end)
    if not (mine[0] or mine[1]):
        return None
    left, right = _nearest(mine)
    lowered = source.lowered[aligned.start : aligned.end]
    if (left and left not in lowered) or (right and right not in lowered):
        return None  # the aligned sentence lacks a neighbour: no name between them
    names = [e for e in _entities_in(source, aligned.start, aligned.end) if e.label_ in NAME_LABELS]
    if not names:
        return None
    opening = (
        len(mine[1]) == CONTEXT_WORDS  # the name opens the summary sentence, no article before it
        and not _WORD.search(summary.lowered, sentence.start, span[0])
    )
    text = source.written[aligned.start : aligned.end]
    summary_sentence = summary.lowered[sentence.start : sentence.end]
    founds = names_between(text, lowered, left or "", right or "")  # None and "" both an edge there
    if not founds and opening:
        founds = names_before(text, lowered, right or "")
    for begin, end in founds:
        written = text[begin:end]
        begin, end = aligned.start + begin, aligned.start + end
        if not any(e.start_char < end and begin < e.end_char for e in names):
            continue
        theirs = _around(source.lowered, begin, end, aligned.start, aligned.end)
        shared = _shared_context(mine, theirs)
        if (
            shared is None
            and opening
            and theirs[0]
            and theirs[1] == mine[1]
            and any(w != "s" and w not in STOP_WORDS for w in mine[1])
        ):
            shared = f"before {' '.join(mine[1])!r}"
        if shared is None or (whole_context and theirs != mine):
            continue
        other = _words(written)
        if _share_a_word(own, other) or _written_in(other, summary_sentence) or _is_evidence(match, begin, end, source):
            continue
        if _written_around(own, mine, source.lowered):
            return None  # the source says the summary's name there too
        detail = f"the aligned source sentence has {written!r} where the summary has {unit.text!r} ({shared})"
        return Match("swapped", (TextEvidence(written, (begin, end)),), 0.0, detail, contradicts=True)
    return None


#: the labels of names that may stand in another name's place in :func:`_swapped_between_same_words`
NAME_LABELS = NON_NUMERIC_LABELS - {"LANGUAGE"}


def _is_evidence(match: Match, start: int, end: int, source: TextIndex) -> bool:
    """Whether the source text ``start:end`` overlaps the supporting mention
    (:func:`_evidence_spans`)."""
    return any(a < end and start < b for a, b in _evidence_spans(match, source))
