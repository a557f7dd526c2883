"""When two relation slots name the same thing without the same words: an acronym and its
expansion, a name and its head word (docs/lexical.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..text.names import initials

if TYPE_CHECKING:
    from ..lexicon.links import Link


#: the fewest letters of a one-word slot read as an acronym of another slot ("UN")
MIN_ACRONYM_LETTERS = 2


#: one-word slots never read as acronyms: relation slots are lower case, and these are
#: pronouns far more often than "US" or "IT"
NOT_ACRONYMS = frozenset({"i", "me", "we", "us", "you", "he", "him", "she", "her", "it", "they", "them", "one"})


def acronym_link(query: list[str], pooled: list[str]) -> Link | None:
    """The link between two argument slots (their words, lower case) when one is a single
    word of :data:`MIN_ACRONYM_LETTERS` or more letters (none of :data:`NOT_ACRONYMS`)
    that spells the initials of the other's content words ("who" and "world health
    organization", :func:`halluscope.text.names.initials`, which reads a
    lower-case name's words as capitalised), else None."""
    if len(query) == 1 and len(pooled) > 1:
        short, long = query[0], pooled
    elif len(pooled) == 1 and len(query) > 1:
        short, long = pooled[0], query
    else:
        return None
    if (
        len(short) < MIN_ACRONYM_LETTERS
        or not short.isalpha()
        or short in NOT_ACRONYMS
        or short.upper() not in initials(" ".join(long))
    ):
        return None
    from ..lexicon.links import Link

    q, p = " ".join(query), " ".join(pooled)
    return Link("acronym", q, p, f"{q} = {p} (acronym)")


#: words that join a name's parts, before which its head stands ("Bank of England")
_HEAD_BEFORE = ("of", "for")


#: words that join a name's conjuncts, after which its head stands ("National Aeronautics
#: and Space Administration")
_HEAD_AFTER = ("and", "&")


def name_head(words: list[str]) -> list[str] | None:
    """The head part of a joined-name slot (``halluscope.text.clauses.ClauseReader.joined_name``):
    its words before the first "of" or "for" ("bank" of "bank of england", "federal
    bureau" of "federal bureau of investigation"), else its last word after an "and"
    ("administration"); None for a slot with no joining word. It is the slot that the
    compound rule gives the same name written in lower case (docs/papers.md#joined-names)."""
    for k, word in enumerate(words):
        if word in _HEAD_BEFORE:
            return words[:k] or None
    if any(word in _HEAD_AFTER for word in words):
        return words[-1:]
    return None


def name_link(query: list[str], pooled: list[str]) -> Link | None:
    """The link between a joined name and its head part (:func:`name_head`), either way
    round, else None."""
    if len(query) == len(pooled):
        return None
    short, long = (query, pooled) if len(query) < len(pooled) else (pooled, query)
    if name_head(long) != short:
        return None
    from ..lexicon.links import Link

    q, p = " ".join(query), " ".join(pooled)
    return Link("name", q, p, f"{q} ~ {p} (a name and its head)")
