"""Numbers swapped within the source: a summary number the source has, said where the
source says another one, read through its slot and through the words around it
(docs/papers.md#qhi-what-the-words-around-a-number-say). Names: :mod:`halluscope.ehi.swaps`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..match.claims import aligned_sentence
from ..match.context_words import Around, _around, _run_in, _shared_context, _spaced, _word_run, _words, _written_around
from ..match.copies import sentence_copied
from ..text.index import TextIndex, word_stem
from ..units import Match, QuantityUnit


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
