"""Units swapped within the source: a summary name or number the source has, said where
the source says another one (docs/papers.md#ehi-entities-swapped-within-the-source;
numbers: :func:`swapped_quantity`, docs/papers.md#qhi-what-the-words-around-a-number-say).

Word overlap cannot see "Clarence House" replaced by "the Royal Household" when the
source names both, and name matching finds the summary's name in the source and calls
it supported. This module reads the name in its place: the summary sentence's aligned
source sentence (:func:`halluscope.match.polarity.aligned_sentence`, the one holding
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
(:func:`swapped_quantity`).

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

from ..extract.entities import NON_NUMERIC_LABELS, canonical_entity
from ..extract.relations import RELATIVE_PRONOUNS
from ..units import EntityUnit, Match, QuantityUnit, TextEvidence
from .copies import sentence_copied
from .grounding import TextIndex, word_stem
from .name_runs import names_before, names_between
from .polarity import aligned_sentence

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

_WORD = re.compile(r"[^\W_]+")


def _kind(label: str) -> str:
    return KIND_OF_LABEL.get(label, label)


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _word_run(words: Sequence[str], before: str = "", after: str = "") -> str:
    """The pattern of ``words`` written as a run of whole words, with the patterns
    ``before`` and ``after`` right around it inside the word boundaries."""
    return r"(?<![^\W_])" + before + r"[\W_]+".join(map(re.escape, words)) + after + r"(?![^\W_])"


def _written_in(words: Sequence[str], lowered: str) -> bool:
    """Whether ``words`` (words of :data:`_WORD`, as :func:`_words` gives them) occur in
    ``lowered`` as a run of whole words: its words joined by spaces hold them joined so
    (as :meth:`~halluscope.match.grounding.TextIndex.written_run` finds a run; no
    pattern compiled per name)."""
    return _run_in(words, _spaced(lowered))


def _spaced(lowered: str) -> str:
    """The words of ``lowered`` joined by single spaces, a space on either end: the string
    :func:`_run_in` looks in (built once where many runs are looked for)."""
    return f" {' '.join(_WORD.findall(lowered))} "


def _run_in(words: Sequence[str], spaced: str) -> bool:
    """Whether ``words`` occur as a run of whole words in ``spaced`` (:func:`_spaced`)."""
    return bool(words) and f" {' '.join(words)} " in spaced


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


class _HeldSlot:
    """What :func:`_held_for` keeps on an index: (its owners, the value built for them)."""

    __slots__ = ("held",)

    def __init__(self) -> None:
        self.held: tuple[tuple, Any] | None = None

    @classmethod
    def build(cls, index: TextIndex) -> _HeldSlot:
        return cls()


class _QuantityMentions(_HeldSlot):
    """:func:`_mentions_by_sentence` of the pool last asked about."""

    __slots__ = ()


class _AlignedCandidates(_HeldSlot):
    """The aligned candidates (:func:`_aligned_candidates`) of the (pool, source) last asked about."""

    __slots__ = ()


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
    among those shared), a run of capitalised words (:mod:`halluscope.match.name_runs`) inside a name
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
    wherever it stands in the sentence (:func:`~halluscope.match.name_runs.names_before`: "florence, 27, broke down"
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
#: words skipped right before a mention: "suing the Davis County School District" and
#: "suing the salt lake tribune school district" both have "suing" before the name
_ARTICLES = frozenset({"the", "a", "an"})
#: how many words on each side of a mention make its context
CONTEXT_WORDS = 2

Around = tuple[tuple[str, ...], tuple[str, ...]]


def _around(lowered: str, start: int, end: int, lo: int, hi: int) -> Around:
    """The :data:`CONTEXT_WORDS` words before ``lowered[start:end]`` (nearest first, the
    articles right before it skipped) and after it, inside its sentence ``lowered[lo:hi]``."""
    before = _words(lowered[max(lo, start - 200) : start])
    while before and before[-1] in _ARTICLES:
        before.pop()
    return tuple(reversed(before[-CONTEXT_WORDS:])), tuple(_words(lowered[end : min(hi, end + 200)])[:CONTEXT_WORDS])


def _nearest(around: Around) -> tuple[str | None, str | None]:
    """The nearest word on each side of a context (:func:`_around`), None at an edge."""
    return (around[0][0] if around[0] else None), (around[1][0] if around[1] else None)


def _is_evidence(match: Match, start: int, end: int, source: TextIndex) -> bool:
    """Whether the source text ``start:end`` overlaps the supporting mention
    (:func:`_evidence_spans`)."""
    return any(a < end and start < b for a, b in _evidence_spans(match, source))


def _shared_context(mine: Around, theirs: Around) -> str | None:
    """What two mentions' contexts (:func:`_around`) share, as "between 'X' and 'Y'",
    when it places them alike: the nearest word on each side the same (or the sentence's
    edge on both), and a content word (not a stop word, not a possessive's "s") among
    the words the two sides share from the mention outward; None otherwise."""
    if mine[0][:1] != theirs[0][:1] or mine[1][:1] != theirs[1][:1]:
        return None
    before, after = _common(mine[0], theirs[0]), _common(mine[1], theirs[1])
    if not any(w != "s" and w not in STOP_WORDS for w in before + after):
        return None
    left, right = " ".join(reversed(before)) or "the sentence start", " ".join(after) or "the sentence end"
    return f"between {left!r} and {right!r}"


def _common(a: tuple[str, ...], b: tuple[str, ...]) -> list[str]:
    """The words two context sides share from the mention outward."""
    out = []
    # strict=False: the sides may differ in length; the shared words end with the shorter
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        out.append(x)
    return out


def _written_around(own: list[str], around: Around, lowered: str) -> bool:
    """Whether ``lowered`` writes the name ``own`` between the nearest words of ``around``
    (an article may come before the name): then the source says it there too."""
    left, right = _nearest(around)
    pattern = _word_run(
        own,
        re.escape(left) + r"[\W_]+(?:(?:the|an?)[\W_]+)?" if left else "",
        r"[\W_]+" + re.escape(right) if right else "",
    )
    return re.search(pattern, lowered) is not None


def _said_beside(own: list[str], around: Around, source: TextIndex, aligned) -> bool:
    """Whether the source writes ``own`` right before the two words after it in the
    summary, or right after the two words before it, outside the ``aligned`` sentence."""
    before, after = around
    patterns = []
    if len(after) >= 2:
        patterns.append(_word_run(list(own) + list(after[:2])))
    if len(before) >= 2:
        patterns.append(_word_run(list(reversed(before[:2])) + list(own)))
    for pattern in patterns:
        for found in re.finditer(pattern, source.lowered):
            if not (aligned.start <= found.start() and found.end() <= aligned.end):
                return True
    return False


#: dependencies through which a number only qualifies a word ("17 people", "2012's
#: series", "Euro 2016 qualifier"), so that the place is that word's place as well
_MODIFIER_DEPS = frozenset({"nummod", "quantmod", "amod", "compound", "nmod", "poss", "npadvmod"})


def _same_place(mine, theirs, depth: int = 3) -> bool:
    """Whether two number heads hang in the same place: the same dependency on a word of
    the same lemma, up the tree while the dependency only qualifies its head or is the
    object of a preposition: "sold for #19" and "sold for #8million" (``pobj`` of "for"
    of "sell"), "rose to fame in 2012's series" and "in 2015's series"; not "killing 17
    people" and "among the 64 people wounded" (the people of two verbs)."""
    a, b = mine, theirs
    for _ in range(depth):
        if a.dep_ != b.dep_ or a.head.i == a.i or b.head.i == b.i or a.head.lemma_.lower() != b.head.lemma_.lower():
            return False
        if a.dep_ not in _MODIFIER_DEPS and a.dep_ != "pobj":
            return True
        a, b = a.head, b.head
    return True


def _mention_root(doc, span):
    mention = doc.char_span(span[0], span[1], alignment_mode="expand")
    return mention.root if mention is not None else None


def swapped_quantity(
    unit: QuantityUnit, match: Match, pool: Sequence[QuantityUnit], summary: TextIndex, source: TextIndex
) -> Match | None:
    """A quantity swapped within the source: the summary's number is in the source
    (``match``, exact or within tolerance), and the source sentence aligned to its
    summary sentence (its own words left out of the alignment) has another number
    of the same kind and unit (a source unit of ``pool``) in its place: the same
    dependency on a word of the same lemma (:func:`_same_place`), or between the same
    words (:func:`_shared_context`, the words around the summary's value written nowhere
    in the source; this reading alone when the aligned sentence also states the
    summary's value, as a run-on sentence holding both does), not written in the
    summary sentence ("Henderson rose to fame in 2015's series" where the source's
    sentence says "2012's series" and 2015 is elsewhere). Derived and temporal matches
    are left alone (their operands are elsewhere by design). Every mention of the value
    is read in its place, the later ones too (:attr:`QuantityUnit.repeats`: "in 2016"
    said twice, the second where the source says 1977). Returns a contradicting
    :class:`~halluscope.units.Match` whose evidence is that source unit, or None."""
    if match.mode not in ("exact", "epsilon"):
        return None
    return _at_any_mention(unit, match, pool, summary, source)


def _rules_out(unit: QuantityUnit, text: str, other: QuantityUnit) -> bool:
    """Whether the summary's ``unit`` (written ``text``) cannot be ``other`` said less
    precisely: not a part of its words ("friday" of "Friday 27 March", "December 17" of
    "December 17, 2014"), not approximate ("about 15"), and, for a bound, one the other's
    value breaks ("at least 14" holds for 16; "at least 20" does not)."""
    own, theirs = _words(text), _words(other.text)
    if own and all(w in theirs for w in own):
        return False
    if unit.bound and unit.value is not None and other.value is not None:
        return other.value < unit.value if unit.bound == "lower" else other.value > unit.value
    return not unit.approximate


def replaced_quantity(
    unit: QuantityUnit, pool: Sequence[QuantityUnit], summary: TextIndex, source: TextIndex
) -> Match | None:
    """A quantity the source does not have, said where the source states another one:
    the source sentence aligned to its summary sentence has a number of the same kind
    and unit in its place, read as :func:`swapped_quantity` reads it (the same
    dependency on a word of the same lemma, or between the same words). "She lost her
    husband 5 years ago" where the source says "lost her husband 12 years ago", "the
    deal was worth $800 million" where it says "$400 million": the source gives that
    place another value, so the summary's is contradicted (mode ``replaced``), not only
    missing. Not when the summary's value may be the source's said less precisely
    (:func:`_rules_out`: "on Friday" for "on Friday 27 March", "at least 14" for 16,
    "about 15"): those stay unsupported. Returns a contradicting
    :class:`~halluscope.units.Match` whose evidence is that source unit, or None."""
    return _at_any_mention(unit, None, pool, summary, source)


def _at_any_mention(
    unit: QuantityUnit, match: Match | None, pool: Sequence[QuantityUnit], summary: TextIndex, source: TextIndex
) -> Match | None:
    """:func:`_swapped_at` at each mention of the unit, its later ones too, the first found."""
    if summary.doc is None or source.doc is None:
        return None
    for span in (unit.span, *getattr(unit, "repeats", ())):
        at = summary.sentence_at(span[0])
        if match is not None and at is not None and sentence_copied(summary, at, source):
            continue  # the value the source has, in the passage the sentence copies
        found = _swapped_at(unit, span, match, pool, summary, source)
        if found is not None:
            return found
    return None


#: a source value's mentions by the sentence they start in (:func:`_mentions_by_sentence`)
_Mentions = dict[int | None, list[tuple[QuantityUnit, tuple[int, int]]]]


def _mentions_by_sentence(pool: Sequence[QuantityUnit], source: TextIndex) -> _Mentions:
    """Source sentence index -> the mentions ``(unit, span)`` of ``pool``'s units that
    start in it, in pool order, each unit's later mentions too; built once per pool and
    kept on the source index for the pool last asked about (every summary unit of a row
    asks about the same pool), so that placing a value reads its sentence's mentions,
    not the whole pool."""

    def build() -> _Mentions:
        by_sentence: _Mentions = {}
        for p in pool:
            for at in (p.span, *getattr(p, "repeats", ())):
                by_sentence.setdefault(source.sentence_at(at[0]), []).append((p, at))
        return by_sentence

    return _held_for(source, _QuantityMentions, (pool,), build)


def _held_for(index: TextIndex, slot_kind: type[_HeldSlot], owners: tuple, build):
    """``build()`` kept on ``index`` in its ``slot_kind`` for the ``owners`` last asked about
    (compared by identity: the pool, the source), built anew when other owners ask: every
    summary unit of a row asks about the same ones, and the next row about new ones."""
    slot = index.derived(slot_kind)
    held = slot.held
    if held is None or len(held[0]) != len(owners) or any(a is not b for a, b in zip(held[0], owners, strict=True)):
        held = slot.held = (owners, build())
    return held[1]


#: the most source values of one aligned sentence that :func:`_swapped_at` reads as
#: candidates for a summary value's place (those the summary sentence does not write, in
#: text order): no real sentence has more, and a sentence of thousands of numbers must
#: not cost thousands of readings per summary value
MAX_PLACED_CANDIDATES = 60


def _aligned_candidates(
    pool: Sequence[QuantityUnit], summary: TextIndex, source: TextIndex, at_sentence: int, aligned_at: int, aligned
) -> tuple[list, frozenset]:
    """The mentions ``(unit, span)`` of ``pool``'s values inside the aligned source
    sentence whose words the summary sentence does not write (the candidates for a
    summary value's place, at most :data:`MAX_PLACED_CANDIDATES`), and the keys of every
    value the aligned sentence states. Found once per (summary sentence, aligned
    sentence) for the pool and kept on the summary's index: every summary value of the
    sentence asks the same, and reading the summary sentence once per summary value and
    source value made a sentence of n numbers cost n² readings of it."""
    by_pair = _held_for(summary, _AlignedCandidates, (pool, source), dict)
    key = (at_sentence, aligned_at)
    found = by_pair.get(key)
    if found is None:
        here = [
            (p, at)
            for p, at in _mentions_by_sentence(pool, source).get(aligned_at, ())
            if aligned.start <= at[0] and at[1] <= aligned.end
        ]
        sentence = summary.sentences[at_sentence]
        written = _spaced(summary.lowered[sentence.start : sentence.end])
        unwritten = [(p, at) for p, at in here if not _run_in(_words(p.text), written)]
        found = by_pair[key] = (unwritten[:MAX_PLACED_CANDIDATES], frozenset(p.key for p, _ in here))
    return found


def _swapped_at(
    unit: QuantityUnit,
    span,
    match: Match | None,
    pool: Sequence[QuantityUnit],
    summary: TextIndex,
    source: TextIndex,
) -> Match | None:
    """:func:`swapped_quantity` for the mention of ``unit`` at ``span``, or
    :func:`replaced_quantity` when ``match`` is None (the source does not have the value)."""
    text = summary.written[span[0] : span[1]] or unit.text
    at_sentence = summary.sentence_at(span[0])
    if at_sentence is None:
        return None
    sentence = summary.sentences[at_sentence]
    own = frozenset(word_stem(w) for w in _words(text))
    aligned_at = aligned_sentence(sentence, source, own)
    if aligned_at is None:
        return None
    aligned = source.sentences[aligned_at]

    def inside(span) -> bool:
        return aligned.start <= span[0] and span[1] <= aligned.end

    evidence = match.evidence if match is not None else ()
    found_keys = {getattr(e, "key", None) for e in evidence}
    # the mentions of source values in the aligned sentence, its later ones too, that the
    # summary sentence does not write; the keys of all of them
    candidates, stated_keys = _aligned_candidates(pool, summary, source, at_sentence, aligned_at, aligned)
    # the aligned sentence states the summary's value too: only the words around it can
    # place another value where the summary has it (a run-on sentence holds both)
    stated = any(inside(e.span) for e in evidence if hasattr(e, "span")) or not found_keys.isdisjoint(stated_keys)
    root = _mention_root(summary.doc, span)
    if root is None:
        return None
    # the words around the number, the second reading of its place (as for names:
    # _swapped_between_same_words), when the source nowhere writes it between them; read
    # once, for the first candidate the slot does not place
    context: list[Around | None] = []

    def around() -> Around | None:
        if not context:
            mine = _around(summary.lowered, span[0], span[1], sentence.start, sentence.end)
            context.append(None if _written_around(_words(text), mine, source.lowered) else mine)
        return context[0]

    said: list[bool] = []

    def said_elsewhere() -> bool:
        """The source writes the summary's value with the same two words after it, or
        before it, outside the aligned sentence ("Of those, 10 were Mancunian" for a
        summary's "of the 22 players on show, 10 were mancunian", aligned to the sentence
        about the 13 English players): the summary may be saying that sentence. Not
        asked of a number that qualifies a name ("joshua finbow, 35, of gosport": the
        source's "darren smalley, 35, of gosport" is another man's age)."""
        if not said:
            mine = _around(summary.lowered, span[0], span[1], sentence.start, sentence.end)
            said.append(_said_beside(_words(text), mine, source, aligned))
        return said[0]

    for other, at in candidates:
        if (
            other.qkind != unit.qkind
            or other.unit != unit.unit
            or other.key == unit.key
            or other.key in found_keys
            or (other.value == unit.value and other.interval == unit.interval and other.relative == unit.relative)
        ):
            continue  # another kind, or the same value said otherwise ("5 per cent" for "5%")
        if match is None and not _rules_out(unit, text, other):
            continue  # the summary's value may be the source's, said less precisely
        theirs = None if stated else _mention_root(source.doc, at)
        if theirs is not None and _same_place(root, theirs) and (root.head.pos_ == "PROPN" or not said_elsewhere()):
            place = f"{root.dep_} of {root.head.text!r}"
        elif (my_context := around()) is not None and (
            shared := _shared_context(my_context, _around(source.lowered, at[0], at[1], aligned.start, aligned.end))
        ) is not None:
            place = shared
        else:
            continue
        again = "" if span == unit.span else f", a later mention at {span[0]}-{span[1]}"
        detail = f"the aligned source sentence has {other.text!r} where the summary has {text!r} ({place}{again})"
        if match is None:
            return Match(
                "replaced", (other,), 0.0, detail + "; no source value matches the summary's", contradicts=True
            )
        return Match("swapped", (other,), 0.0, detail, contradicts=True)
    return None
