"""The words around a mention in a text: the context that tells whether two mentions
stand in the same place (docs/papers.md#qhi-what-the-words-around-a-number-say); read by
EHI's and QHI's swap checks."""

from __future__ import annotations

import re
from collections.abc import Sequence

from spacy.lang.en.stop_words import STOP_WORDS

_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _word_run(words: Sequence[str], before: str = "", after: str = "") -> str:
    """The pattern of ``words`` written as a run of whole words, with the patterns
    ``before`` and ``after`` right around it inside the word boundaries."""
    return r"(?<![^\W_])" + before + r"[\W_]+".join(map(re.escape, words)) + after + r"(?![^\W_])"


def _spaced(lowered: str) -> str:
    """The words of ``lowered`` joined by single spaces, a space on either end: the string
    :func:`_run_in` looks in (built once where many runs are looked for)."""
    return f" {' '.join(_WORD.findall(lowered))} "


def _run_in(words: Sequence[str], spaced: str) -> bool:
    """Whether ``words`` occur as a run of whole words in ``spaced`` (:func:`_spaced`)."""
    return bool(words) and f" {' '.join(words)} " in spaced


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
