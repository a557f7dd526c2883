"""Triples of a summary sentence the source writes word for word: supported by that passage
unless the passage cuts one of the verb's arguments (docs/papers.md#attribution)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..match.copies import copied_place, passage_match
from ..text.index import TextIndex, word_stem
from ..units import Match, RelationUnit

if TYPE_CHECKING:
    pass


#: the words of a slot as :func:`relation_copied` looks them up ("3" and "1" of "glasgow 3-1")
_SLOT_WORDS = re.compile(r"\w+")


#: the dependencies of a verb's arguments in the source's parse that a copy must not cut
#: (:func:`cut_argument`): subjects (a passive's and its agent too) and objects
ARGUMENT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "agent", "dobj", "dative", "attr", "oprd"})


#: the dependencies through which a verb takes its subject from the verb above it
#: ("forced to provide", "was arrested and charged")
_CONTROLLED = frozenset({"xcomp", "conj"})


def relation_copied(unit: RelationUnit, summary: TextIndex, source: TextIndex) -> Match | None:
    """A triple of a summary sentence the source writes word for word, supported by that
    passage (:func:`~halluscope.match.copies.copied_place`) when its subject's and
    object's words are words of the sentence (as written or as lemmas) and the passage
    cuts none of its verb's arguments in the source's parse (:func:`cut_argument`): the
    copy's parse may read the passage's arguments otherwise than the source's parse does
    ("the club was sold" whose subject the source's parse resolved to a player; a copy
    that starts inside "According to Maria Lopez, the council received ..."), and what
    the copy states is what the source writes there. A slot that coreference filled from
    another sentence is not written in this one; a passage cut inside a source entity
    ("paid $3" of "paid $3 billion") or inside an argument ("EU will be forced to provide"
    of "Foreigners from outside the EU will be forced to provide") states another claim:
    None then (docs/papers.md#attribution)."""
    at = summary.sentence_at(unit.span[0])
    if at is None:
        return None
    written = summary.sentences[at].words  # as written and as lemmas
    slots = _SLOT_WORDS.findall(f"{unit.subject} {unit.object}".lower())
    if not slots or any(word_stem(word) not in written for word in slots):
        return None
    found = copied_place(unit.span, summary, source)
    if found is None or cut_argument(unit, found[0], found[1], source):
        return None
    return passage_match(found[0], source)


def cut_argument(unit: RelationUnit, span: tuple[int, int], passage: tuple[int, int], source: TextIndex) -> bool:
    """Whether the source's parse gives the verb of ``unit`` (a token of its lemma in
    ``span``, the source's words of the unit) an argument (:data:`ARGUMENT_DEPS`, its own
    or, for a verb that takes its subject from the verb above it, that verb's) whose head
    word is outside ``passage`` (:func:`_runs_out`: "Foreigners from outside the EU" of a
    copy that starts at "EU"). False where the span holds no such token (the source's
    parse has no such verb)."""
    words = source.doc.char_span(span[0], span[1], alignment_mode="expand") if source.doc is not None else None
    lemma = unit.lemma.split()[0] if unit.lemma else ""
    verbs = [token for token in words or () if token.lemma_.lower() == lemma]
    for verb in verbs:
        arguments = [child for child in verb.children if child.dep_ in ARGUMENT_DEPS]
        above = verb
        while (
            above.dep_ in _CONTROLLED
            and above.head.i != above.i
            and not any("subj" in child.dep_ for child in above.children)
        ):
            above = above.head
            arguments.extend(child for child in above.children if "subj" in child.dep_ or child.dep_ == "agent")
        if any(_runs_out(argument, passage) for argument in arguments):
            return True
    return False


def _runs_out(argument, passage: tuple[int, int]) -> bool:
    """Whether the head word of ``argument`` (the word the parse hangs the phrase on:
    "Foreigners" of "Foreigners from outside the EU") is outside ``passage``. The rest of
    its phrase may run out: an unpunctuated source's parse may hang the next sentence on
    an object ("complaints about the buses last year He got pulled over ...")."""
    return not passage[0] <= argument.idx < passage[1]
