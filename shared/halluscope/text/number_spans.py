"""Spans of a parse that read as numbers where a name rule must not take them: a day of a
month ("Sep 28"), a month before a day, a match score after a team's name ("4-3").
QHI reads the same spans as quantities; EHI's name rules ask about them
(docs/papers.md#qhi-month-abbreviations, docs/papers.md#names-that-run-on)."""

from __future__ import annotations

import re

_MONTH_NAME = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)


#: a month's name or its short form, alone ("Aug", "Sept.", "August")
_MONTH_WORD = re.compile(_MONTH_NAME, re.I)


#: a day of a month and nothing else, its year optional ("Sep 28, 2025", "3 August")
_WRITTEN_DAY_ONLY = re.compile(
    rf"(?:{_MONTH_NAME})\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+{_MONTH_NAME}(?:,?\s+\d{{4}})?",
    re.I,
)


def month_before_day(month: str, day: str) -> bool:
    """Whether two tokens read as a month and a day number: a month's name or short form,
    then one or two digits ("Aug" "3"). QHI's day reading (1 to 31) and EHI's name rules
    both ask (docs/papers.md#qhi-month-abbreviations)."""
    return day.isdigit() and len(day) <= 2 and _MONTH_WORD.fullmatch(month) is not None


def is_written_day(text: str) -> bool:
    """Whether ``text`` is a day of a month and nothing else ("Sep 28, 2025", "Sep 28",
    "3rd of August"): spaCy sm tags such a text a LAW or a PERSON when the month is
    written short, and it is a date, never a name (docs/papers.md#qhi-month-abbreviations)."""
    return _WRITTEN_DAY_ONLY.fullmatch(text.strip()) is not None


#: the dashes between a score's two numbers ("4-3", "2–1")
_SCORE_DASHES = frozenset({"-", "–", "—"})


def score_start(span) -> int:
    """The index of the first token of a match score ("4-3": number, dash, number) that
    ends ``span``, else ``span.end``. spaCy sm runs a team's name on over the score that
    follows it ("Montserrat 4-3", tagged LAW): the score is two numbers QHI checks, not
    part of the name (docs/papers.md#names-that-run-on)."""
    doc = span.doc
    end = span.end
    if (
        end - span.start >= 4
        and doc[end - 2].text in _SCORE_DASHES
        and doc[end - 3].like_num
        and doc[end - 1].like_num
        and not any(t.like_num for t in doc[span.start : end - 3])
    ):
        return end - 3
    return end
