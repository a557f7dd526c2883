"""Runs of capitalised words written between two given words, found without compiling a
pattern per pair of words (docs/scaling.md#where-the-time-goes).

A swapped name (:mod:`halluscope.match.swaps`) is looked for as a *name run*: one to
:data:`MAX_RUN_WORDS` words that each open with a capital letter (``[A-Z]``, then any
of word characters, apostrophes, full stops, ampersands and hyphens), joined by spaces
and, between two of them, at most one of the small words names hold (:data:`SMALL_WORDS`:
"Tour de France", "Bank of England"). The run sought is the shortest one followed by
the wanted right word (only non-word characters between, the word whole and in any
case), or by nothing but non-word characters to the text's end when no right word is
given.

Until session 25 each (left word, right word) pair compiled its own regular
expression: about 0.35 ms a pair, 0.2 s of 400 SummEval rows. The functions here read
the same runs with a handful of patterns compiled once, and walk the text as the
regular expression engine did: the leftmost start first, at each start the longest
word first, then one more word (``tests/test_name_runs.py`` checks them against the
per-pair patterns on generated texts). Each start costs at most the length of
:data:`MAX_RUN_WORDS` words: linear in the text.
"""
from __future__ import annotations

import re
from typing import List, Optional, Tuple

#: how many words a name run holds at most
MAX_RUN_WORDS = 6
#: the small words a name may hold between two capitalised words, in the order tried
SMALL_WORDS = ("de", "of", "the", "and", "von", "van", "der", "la", "le", "du", "da", "del", "&")
#: a word of a name run: a capital letter, then word characters and ' ’ . & -
_RUN_WORD = re.compile(r"[A-Z][\w'’.&-]*")
#: what joins two words of a run: spaces, or a small word with spaces around it; only
#: where a capitalised word follows
_RUN_GAP = re.compile(r"\s+(?:(?:" + "|".join(map(re.escape, SMALL_WORDS)) + r")\s+)?(?=[A-Z])")
#: the non-word characters between a run and its right word (underscores count as such)
_BETWEEN = re.compile(r"[\W_]+")
#: an article between the left word and the run, any case: tried before the bare run
_ARTICLES_ANY_CASE = ("the", "an", "a")
#: an article opening the text before the run (capitalised, as a sentence opens)
_OPENING_ARTICLES = ("The", "An", "A")
#: where a name run may open: a capital letter that no letter or digit comes right before
_RUN_OPENING = re.compile(r"(?<![^\W_])[A-Z]")
_SPACES = re.compile(r"\s+")
_LEADING_NON_WORD = re.compile(r"[^\w]*")
_WORD_CHARACTER = re.compile(r"\w")

Span = Tuple[int, int]


def _is_letter_or_digit(text: str, at: int) -> bool:
    """Whether ``text[at]`` is a word character other than the underscore (``[^\\W_]``)."""
    return 0 <= at < len(text) and text[at].isalnum()


def _followed_by(text: str, lowered: str, at: int, right: str) -> Optional[int]:
    """Where the match ends when ``right`` follows position ``at`` as a whole word after
    non-word characters (``right`` "": only non-word characters to the end), else None."""
    if not right:
        return len(text) if _WORD_CHARACTER.search(text, at) is None else None
    gap = _BETWEEN.match(text, at)
    if gap is None:
        return None
    end = gap.end() + len(right)
    if lowered.startswith(right, gap.end()) and not _is_letter_or_digit(text, end):
        return end
    return None


def _run_from(text: str, lowered: str, start: int, right: str, words: int = 1) -> Optional[Span]:
    """(run end, match end) of the shortest name run from ``start`` that ``right``
    follows (:func:`_followed_by`), trying each word longest first and then one more
    word, as a lazy repetition backtracks; None when there is none."""
    word = _RUN_WORD.match(text, start)
    if word is None:
        return None
    for end in range(word.end(), start, -1):
        found = _followed_by(text, lowered, end, right)
        if found is not None:
            return end, found
        if end == word.end() and words < MAX_RUN_WORDS:  # only a whole word has a gap after it
            gap = _RUN_GAP.match(text, end)
            if gap is not None:
                longer = _run_from(text, lowered, gap.end(), right, words + 1)
                if longer is not None:
                    return longer
    return None


def _run_after_article(text: str, lowered: str, at: int, right: str, articles: Tuple[str, ...],
                       any_case: bool) -> Optional[Tuple[int, Span]]:
    """(run start, (run end, match end)) of the run at ``at``, an article and spaces
    skipped first where that finds one (each of ``articles`` in turn), else the bare run."""
    seen = lowered if any_case else text
    for article in articles:
        if seen.startswith(article, at):
            spaces = _SPACES.match(text, at + len(article))
            if spaces is not None:
                found = _run_from(text, lowered, spaces.end(), right)
                if found is not None:
                    return spaces.end(), found
    found = _run_from(text, lowered, at, right)
    return None if found is None else (at, found)


def names_between(text: str, lowered: str, left: str, right: str) -> List[Span]:
    """The spans of the name runs that ``text`` writes right after the whole word ``left``
    (any case; non-word characters and maybe an article between) and before the word
    ``right`` (:func:`_followed_by`), leftmost first and not overlapping. ``left`` ""
    is the text's start (non-word characters and a capitalised article may come
    first); ``right`` "" is its end. ``lowered``: ``text`` lower-cased, of its length;
    ``left`` and ``right``: lower-case words of letters and digits."""
    if not left:
        at = _LEADING_NON_WORD.match(text).end()
        found = _run_after_article(text, lowered, at, right, _OPENING_ARTICLES, any_case=False)
        return [] if found is None else [(found[0], found[1][0])]
    spans: List[Span] = []
    at = lowered.find(left)
    while at >= 0:
        resume = at + 1
        if not _is_letter_or_digit(text, at - 1):
            gap = _BETWEEN.match(text, at + len(left))
            found = None if gap is None else _run_after_article(text, lowered, gap.end(), right,
                                                               _ARTICLES_ANY_CASE, any_case=True)
            if found is not None:
                start, (end, match_end) = found
                spans.append((start, end))
                resume = max(match_end, resume)
        at = lowered.find(left, resume)
    return spans


def names_before(text: str, lowered: str, right: str) -> List[Span]:
    """The spans of the name runs that ``text`` writes anywhere before the word ``right``
    (:func:`_followed_by`), each opening a word, leftmost first and not overlapping
    (the arguments as for :func:`names_between`)."""
    spans: List[Span] = []
    at = 0
    for opening in _RUN_OPENING.finditer(text):
        start = opening.start()
        if start < at:
            continue
        found = _run_from(text, lowered, start, right)
        if found is not None:
            spans.append((start, found[0]))
            at = found[1]
    return spans
