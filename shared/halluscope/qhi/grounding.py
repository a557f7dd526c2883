"""QHI's text grounding (``grounding="text"``, docs/architecture.md#layers): a number no
pool quantity matched, found in the pool's text.

``text`` (quantities; :func:`quantity_in_text`, applied by the QHI dimension after its swaps)
    A number no pool quantity matched, written in the pool text together with the
    word next to it in the summary, a content word ("flight 448" in "Alaska Airlines
    Flight 448", whose number the source's parse took into a name).
"""

from __future__ import annotations

import re

from spacy.lang.en.stop_words import STOP_WORDS

from ..text.index import _WORD_CHARS, TextIndex
from ..text.number_words import SCALE_WORDS
from ..units import Match, QuantityUnit, TextEvidence


def quantity_in_text(unit: QuantityUnit, summary: TextIndex, index: TextIndex) -> Match | None:
    """The ``text`` rule for a quantity no pool unit matched: the pool writes it word for
    word together with a content word next to it in the summary ("flight 448" in
    "Alaska Airlines Flight 448", "euro 2016" in "their Euro 2016 qualifier"). A number
    inside a name the source's parse tagged (a flight, an event) is no quantity of the
    source, while a lower-cased summary's parse sees it bare; the neighbouring word says
    it is the same number of the same thing. A neighbour that is a stop word or a
    number says nothing ("in 2016", "5 and"). A quantity whose own words hold such a
    word is found by its words alone ("Monday after 10 months", which the parse of a copy
    read as one date and the source's as a day and a duration). None when the pool
    writes no such run, or writes the number followed by a scale word the summary
    lacks ("spend $3" of a copy cut inside "spend $3 billion")."""
    start, end = unit.span
    words = [w.lower() for w in _WORD_CHARS.findall(summary.written[start:end])]
    at = summary.sentence_at(start)
    if not words or at is None:
        return None
    sentence = summary.sentences[at]
    before = _WORD_CHARS.findall(summary.written[max(sentence.start, start - 60) : start])
    after = _WORD_CHARS.findall(summary.written[end : min(sentence.end, end + 60)])
    runs = []
    if any(_says_what(w) for w in words):  # its own words say what ("monday after 10 months")
        runs.append(words)
    if before and _says_what(before[-1].lower()):
        runs.append([before[-1].lower()] + words)
    if after and _says_what(after[0].lower()):
        runs.append(words + [after[0].lower()])
    for run in runs:
        found = index.written_run(run)
        if found is not None and not (run[-1] == words[-1] and _scaled_after(index.lowered, found[1])):
            written = index.written[found[0] : found[1]]
            return Match("text", (TextEvidence(written, found),), 1.0, f"written in the text as {written!r}")
    return None


_NEXT_WORD = re.compile(r"\s*(\w+)")


def _scaled_after(lowered: str, end: int) -> bool:
    """Whether the word the text writes at ``end`` scales the number before it ("$3"
    followed by "billion"): the text's number is another one."""
    found = _NEXT_WORD.match(lowered, end)
    return found is not None and found.group(1) in SCALE_WORDS


def _says_what(word: str) -> bool:
    """Whether a word next to a number may say what the number is of: a word of letters
    that is no stop word."""
    return word.isalpha() and word not in STOP_WORDS
