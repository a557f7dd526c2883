"""How a name is written: its surface and canonical forms, acronyms and initials, quote
styles, and the entity labels that are names (docs/papers.md#ehi). EHI matches names by
these forms; word support and the swap checks read them too."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass


NON_NUMERIC_LABELS: frozenset[str] = frozenset(
    {
        "PERSON",
        "NORP",
        "FAC",
        "ORG",
        "GPE",
        "LOC",
        "PRODUCT",
        "EVENT",
        "WORK_OF_ART",
        "LAW",
        "LANGUAGE",
    }
)


#: Function words skipped when forming an acronym's initials (docs/papers.md#entity-and-quantity-labels).
ACRONYM_STOPWORDS: frozenset[str] = frozenset({"of", "the", "and", "for", "&"})


#: Leading honorifics dropped from PERSON names ("Ms McLean" is "McLean").
HONORIFICS: frozenset[str] = frozenset(
    {
        "mr",
        "mrs",
        "ms",
        "miss",
        "mx",
        "dr",
        "prof",
        "sir",
        "dame",
        "rev",
    }
)


#: typographic quotes and primes as straight quotes, one character each (offsets are kept)
QUOTE_MAP = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "`": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
    }
)


_WS = re.compile(r"\s+")


_LEADING_THE = re.compile(r"^the\s+", re.IGNORECASE)


_POSSESSIVE = re.compile(r"(?<=[\w.\\]) ?'s$", re.IGNORECASE)  # "Obama's", tokenised "obama 's"


_PTB_BRACKETS = re.compile(r"-(lrb|rrb|lsb|rsb|lcb|rcb)-", re.IGNORECASE)


_PTB_MAP = {"lrb": "(", "rrb": ")", "lsb": "[", "rsb": "]", "lcb": "{", "rcb": "}"}


#: a word written twice or more in a row, the second time in any case: a generated
#: summary's stutter ("the gliese 581d 581d planet", "dayna dayna dobias") names what
#: the word once names; a name that repeats a word ("Walla Walla") reads the same on
#: both sides of a match
_STUTTER = re.compile(r"(?<![\w'])([\w'.-]+)(?:\s+\1)+(?![\w'])", re.IGNORECASE)


_WORDLIKE = re.compile(r"^\w+(?:[-'.]\w+)*\.?$")  # "united", "saint-germain", "jr."


_DOTTED = re.compile(r"^(?:[A-Za-z]\.)+[A-Za-z]\.?$")  # "U.S", "u.s.", "D.C"


def _is_edge_punct(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat.startswith("P") or cat in ("Sk", "Sm")


#: the joins a tokenised text writes with spaces around them, as the source writes them:
#: "african - american" (African-American), "the queen 's guard" (the Queen's Guard),
#: "st james ' park" (St James' Park)
_SPACED_JOINS = (
    (re.compile(r"(?<=\w) - (?=\w)"), "-"),
    (re.compile(r"(?<=\w) '(?=s\b)"), "'"),
    (re.compile(r"(?<=s) ' (?=\w)"), "' "),
)


def _strip_edges(text: str) -> str:
    start, end = 0, len(text)
    while start < end and (_is_edge_punct(text[start]) or text[start].isspace()):
        start += 1
    while end > start and (_is_edge_punct(text[end - 1]) or text[end - 1].isspace()):
        end -= 1
    return text[start:end]


def surface_form(text: str, label: str | None = None) -> str:
    """``text`` normalised like :func:`canonical_entity` but with its case kept
    (used for the capitalisation and all-caps tests of acronym/partial-name rules)."""
    text = unicodedata.normalize("NFKC", text).translate(QUOTE_MAP)
    if "-" in text:
        text = _PTB_BRACKETS.sub(lambda m: _PTB_MAP[m.group(1).lower()], text)
    text = _WS.sub(" ", text).strip()
    if " - " in text or " '" in text:
        for spaced, joined in _SPACED_JOINS:
            text = spaced.sub(joined, text)
    if " " in text:
        text = _STUTTER.sub(r"\1", text)
    while True:
        before = text
        text = _strip_edges(text)
        text = _LEADING_THE.sub("", text)
        text = _POSSESSIVE.sub("", text)
        if text == before:
            break
    if label == "PERSON":
        tokens = text.split(" ")
        if len(tokens) > 1 and tokens[0].rstrip(".").casefold() in HONORIFICS:
            text = _strip_edges(" ".join(tokens[1:]))
    return text


def canonical_entity(text: str, label: str | None = None) -> str:
    """Canonical key of an entity mention: NFKC, curly quotes made straight,
    whitespace collapsed, surrounding punctuation/quotes stripped, a leading "the "
    and a possessive 's removed (repeated until stable), casefolded. PTB bracket
    tokens ("-lrb-") become brackets and a tokenised possessive ("obama 's") counts
    as one (lowercased, tokenised corpora such as CNN/DM summaries). With
    ``label="PERSON"`` a leading honorific (Mr, Mrs, Ms, Dr, Sir, ...) is dropped too.

    >>> canonical_entity("the BBC's")
    'bbc'
    """
    return surface_form(text, label).casefold()


def undotted(key: str) -> str:
    """``key`` without dots (spacing collapsed): "u.s" -> "us", "st. louis" -> "st louis"."""
    return _WS.sub(" ", key.replace(".", "")).strip()


def acronym_form(surface: str) -> str | None:
    """The acronym a surface form spells, or None: a single all-caps token of 2-10
    letters once dots and "&" are removed ("WHO", "U.S" -> "US", "AT&T" -> "ATT"),
    or dotted single letters in any case ("u.s." -> "US", as in lowercased corpora)."""
    if " " in surface:
        return None
    if _DOTTED.match(surface):
        return surface.replace(".", "").upper()
    letters = surface.replace(".", "").replace("&", "")
    if 2 <= len(letters) <= 10 and letters.isalpha() and letters.isupper():
        return letters
    return None


def lowercase_acronym(surface: str, longest: int) -> str | None:
    """An all-lowercase word of 2 to ``longest`` letters read as an acronym, as
    lowercased corpora write them ("fbi" -> "FBI"); None otherwise. Callers decide when
    a lower-case word may be one (an entity label, a source name with those initials)."""
    if 2 <= len(surface) <= longest and surface.isalpha() and surface.islower():
        return surface.upper()
    return None


@functools.lru_cache(maxsize=1 << 14)  # a pure function of a name, asked of each name many times a call
def initials(surface: str) -> frozenset[str]:
    """Upper-case initials of the content words of a multi-word name (of/the/and/for/&
    skipped), with and without splitting hyphenated words: "World Health
    Organization" -> {"WHO"}; "Trans-Pacific Partnership" -> {"TP", "TPP"}. Empty
    when fewer than two content words or when a content word is not capitalised,
    unless the whole name is lower case (a lowercased corpus: case tells nothing)."""
    out = set()
    lowered = surface == surface.lower()
    for split_hyphens in (False, True):
        words = surface.replace("-", " ").split() if split_hyphens else surface.split()
        content = [w for w in words if w.casefold() not in ACRONYM_STOPWORDS]
        if len(content) < 2:
            continue
        letters = []
        for word in content:
            first = next((c for c in word if c.isalnum()), "")
            if not first or not (first.isupper() or lowered):
                break
            letters.append(first.upper())
        else:
            out.add("".join(letters))
    return frozenset(out)
