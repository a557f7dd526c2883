"""Runs of capitalised words written between two given words, found without compiling a
pattern per pair of words (docs/scaling.md#where-the-time-goes).

A swapped name (:mod:`halluscope.ehi.swaps`) is looked for as a *name run*: one to
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


#: the text's last word character, and the non-word characters after it
_LAST_WORD_CHARACTER = re.compile(r"\w\W*\Z")


Span = tuple[int, int]


def _is_letter_or_digit(text: str, at: int) -> bool:
    """Whether ``text[at]`` is a word character other than the underscore (``[^\\W_]``)."""
    return 0 <= at < len(text) and text[at].isalnum()


def _words_end(text: str) -> int:
    """Where the text's last word character (``\\w``) ends; 0 when it has none: after it,
    only non-word characters run to the end."""
    found = _LAST_WORD_CHARACTER.search(text)
    return 0 if found is None else found.start() + 1


def _followed_by(lowered: str, text: str, at: int, gap_end: int, right: str, words_end: int) -> int | None:
    """Where the match ends when ``right`` follows position ``at`` as a whole word after
    the non-word characters from ``at`` to ``gap_end`` (at least one), or, with ``right``
    "", when only non-word characters run from ``at`` to the end (``words_end``:
    :func:`_words_end`); else None."""
    if not right:
        return len(text) if at >= words_end else None
    end = gap_end + len(right)
    if gap_end > at and lowered.startswith(right, gap_end) and not _is_letter_or_digit(text, end):
        return end
    return None


def _run_from(text: str, lowered: str, start: int, right: str, words_end: int, words: int = 1) -> Span | None:
    """(run end, match end) of the shortest name run from ``start`` that ``right``
    follows (:func:`_followed_by`), trying each word longest first and then one more
    word, as a lazy repetition backtracks; None when there is none. Each end tried
    inside a word reuses the non-word run found after the end before it, so a word
    costs its length once."""
    word = _RUN_WORD.match(text, start)
    if word is None:
        return None
    after = _BETWEEN.match(text, word.end())
    gap_end = word.end() if after is None else after.end()  # where the non-word run from `end` stops
    for end in range(word.end(), start, -1):
        if end < word.end() and text[end].isalnum():
            gap_end = end
        found = _followed_by(lowered, text, end, gap_end, right, words_end)
        if found is not None:
            return end, found
        if end == word.end() and words < MAX_RUN_WORDS:  # only a whole word has a gap after it
            gap = _RUN_GAP.match(text, end)
            if gap is not None:
                longer = _run_from(text, lowered, gap.end(), right, words_end, words + 1)
                if longer is not None:
                    return longer
    return None


def _run_after_article(
    text: str, lowered: str, at: int, right: str, words_end: int, articles: tuple[str, ...], any_case: bool
) -> tuple[int, Span] | None:
    """(run start, (run end, match end)) of the run at ``at``, an article and spaces
    skipped first where that finds one (each of ``articles`` in turn), else the bare run."""
    seen = lowered if any_case else text
    for article in articles:
        if seen.startswith(article, at):
            spaces = _SPACES.match(text, at + len(article))
            if spaces is not None:
                found = _run_from(text, lowered, spaces.end(), right, words_end)
                if found is not None:
                    return spaces.end(), found
    found = _run_from(text, lowered, at, right, words_end)
    return None if found is None else (at, found)


def names_between(text: str, lowered: str, left: str, right: str) -> list[Span]:
    """The spans of the name runs that ``text`` writes right after the whole word ``left``
    (any case; non-word characters and maybe an article between) and before the word
    ``right`` (:func:`_followed_by`), leftmost first and not overlapping. ``left`` ""
    is the text's start (non-word characters and a capitalised article may come
    first); ``right`` "" is its end. ``lowered``: ``text`` lower-cased, of its length;
    ``left`` and ``right``: lower-case words of letters and digits."""
    words_end = 0 if right else _words_end(text)  # read only without a right word
    if not left:
        leading = _LEADING_NON_WORD.match(text)  # [^\w]* matches every text, if only its empty start
        at = leading.end() if leading is not None else 0
        found = _run_after_article(text, lowered, at, right, words_end, _OPENING_ARTICLES, any_case=False)
        return [] if found is None else [(found[0], found[1][0])]
    spans: list[Span] = []
    at = lowered.find(left)
    while at >= 0:
        resume = at + 1
        if not _is_letter_or_digit(text, at - 1):
            gap = _BETWEEN.match(text, at + len(left))
            found = (
                None
                if gap is None
                else _run_after_article(text, lowered, gap.end(), right, words_end, _ARTICLES_ANY_CASE, any_case=True)
            )
            if found is not None:
                start, (end, match_end) = found
                spans.append((start, end))
                resume = max(match_end, resume)
        at = lowered.find(left, resume)
    return spans


def names_before(text: str, lowered: str, right: str) -> list[Span]:
    """The spans of the name runs that ``text`` writes anywhere before the word ``right``
    (:func:`_followed_by`), each opening a word, leftmost first and not overlapping
    (the arguments as for :func:`names_between`)."""
    spans: list[Span] = []
    at, words_end = 0, (0 if right else _words_end(text))  # read only without a right word
    for opening in _RUN_OPENING.finditer(text):
        start = opening.start()
        if start < at:
            continue
        found = _run_from(text, lowered, start, right, words_end)
        if found is not None:
            spans.append((start, found[0]))
            at = found[1]
    return spans
