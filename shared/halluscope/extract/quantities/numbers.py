"""Number reading: digit literals with multipliers, English number words and
ordinals, currencies, percentages, bounds and approximation words."""
from __future__ import annotations

import re
from typing import List, Optional, Tuple

from .lexicon import (APPROXIMATE, CURRENCY_CODES, CURRENCY_SYMBOLS, CURRENCY_WORDS, FRACTION_WORDS,
                      LOWER_BOUND, ORDINAL_WORDS, SCALE_WORDS, SMALL_NUMBERS, SUBUNIT_WORDS, UPPER_BOUND,
                      VAGUE_PLURALS)

_NUM = r"\d+(?:,\d{3})*(?:\.\d+)?"
_LITERAL = re.compile(
    rf"(?<![\w.])(?P<num>{_NUM}|\.\d+)(?P<ord>st|nd|rd|th)?"
    rf"(?:\s?-?(?P<scale>hundred|thousand|million|billion|trillion|bn|mn|mln|bln|tn|k|m|b)\b)?",
    re.IGNORECASE,
)
_HAS_DIGIT = re.compile(r"\d")
_DIGIT_COMMA_RUN = re.compile(r"[\d,]+")
_ORDINAL_SUFFIX = re.compile(r"\s?(?:st|nd|rd|th)\b", re.I)
_WORD = re.compile(r"[a-z]+", re.I)


def words_to_number(text: str) -> Optional[float]:
    """Value of plain English number words: "two", "twenty-five", "a dozen",
    "two million", "one point five", fractions ("a fifth", "three quarters",
    "one and a half million"); ``None`` for anything else, including ill-formed
    sequences ("one five"). The words are quantulum3's; its own reader
    (``parser.extract_spellout_values``) is not called: it knows no more words,
    and its first call costs 8-10 s (it imports ``inflect`` and scikit-learn)."""
    words = [w for w in re.split(r"[\s-]+", text.lower().strip()) if w and w != "and"]
    if "point" in words:
        cut = words.index("point")
        head = words_to_number(" ".join(words[:cut])) if cut else 0.0
        digits = [SMALL_NUMBERS.get(w) for w in words[cut + 1:]]
        if head is None or not digits or any(d is None or d > 9 for d in digits):
            return None
        return head + float("0." + "".join(str(d) for d in digits))
    if not words or all(w in ("a", "an") for w in words):
        return None
    total, current, last, seen = 0.0, 0.0, None, False
    for word in words:
        if word in ("a", "an"):
            current, last = current + 1.0, 1.0
        elif word == "dozen":
            current, last, seen = (current or 1.0) * 12, None, True
        elif word in SMALL_NUMBERS:
            n = SMALL_NUMBERS[word]
            after_tens = last is not None and last >= 20 and n < 10
            if current % 100 and not after_tens:
                return None  # "one five", "twenty thirty"
            current, last, seen = current + n, float(n), True
        elif word in FRACTION_WORDS:
            if last is None and word not in ("half", "halves"):
                return None  # a bare "eighth" is an ordinal, "a/one/three eighth(s)" a fraction
            numerator = last if last is not None else 1.0
            base = current - last if last is not None else current
            current, last, seen = base + numerator / FRACTION_WORDS[word], None, True
        elif word == "hundred":
            current, last, seen = (current or 1.0) * 100, None, True
        elif word in ("thousand", "million", "billion", "trillion"):
            total, current, last, seen = total + (current or 1.0) * SCALE_WORDS[word], 0.0, None, True
        else:
            return None
    return total + current if seen else None


def _ordinal_value(text: str) -> Optional[float]:
    """"83rd" -> 83, "third" -> 3, "twenty-first" -> 21."""
    # the leftmost "\d[\d,]*" followed by an ordinal suffix, found in linear time: every
    # start inside one run of digits and commas ends where the run ends
    for run in _DIGIT_COMMA_RUN.finditer(text):
        first = _HAS_DIGIT.search(run.group())
        if first is not None and _ORDINAL_SUFFIX.match(text, run.end()):
            return float(run.group()[first.start():].replace(",", ""))
    words = [w for w in re.split(r"[\s-]+", text.lower()) if w and w not in ("the", "a")]
    if not words or words[-1] not in ORDINAL_WORDS:
        return None
    head = words_to_number(" ".join(words[:-1])) if len(words) > 1 else 0.0
    return None if head is None else head + ORDINAL_WORDS[words[-1]]


def _literals(surface: str, scale_m: bool) -> List[Tuple[float, Tuple[int, int]]]:
    """Numeric literals in ``surface`` with their multiplier ("2.5K" -> 2500,
    "3bn" -> 3e9; "m" counts as million only when ``scale_m``)."""
    out = []
    for match in _LITERAL.finditer(surface):
        value = float(match.group("num").replace(",", ""))
        scale = (match.group("scale") or "").lower()
        if scale == "m" and not scale_m:
            scale = ""
        if scale:
            value *= SCALE_WORDS[scale]
        out.append((value, match.span()))
    return out


# ------------------------------------------------------------------ normalisation

class _Reading:
    """One normalised reading of a mention (before anchoring)."""

    __slots__ = ("qkind", "unit", "value", "interval", "relative", "approx", "inside")

    def __init__(self, qkind, unit="", value=None, interval=None, relative="", approx=False, inside=False):
        self.qkind, self.unit, self.value = qkind, unit, value
        self.interval, self.relative, self.approx, self.inside = interval, relative, approx, inside


def _bound_and_approx(text: str) -> Tuple[str, bool]:
    low = " " + re.sub(r"\s+", " ", text.lower()) + " "
    for phrase in LOWER_BOUND:
        if f" {phrase} " in low:
            return "lower", True
    for phrase in UPPER_BOUND:
        if f" {phrase} " in low:
            return "upper", True
    if low.rstrip().endswith("+"):
        return "lower", True
    return "", any((f" {p} " in low) if p[0].isalpha() else (p in low) for p in APPROXIMATE)


def _currency(surface: str, label: str) -> Tuple[str, float]:
    """(ISO code, factor) named in a money mention, ("", 1) when none."""
    stripped = surface.strip()
    if stripped.startswith("#"):  # CNN/DailyMail's "#" for "£" (see _SUPPLEMENT)
        return "GBP", 1.0
    for symbol in sorted(CURRENCY_SYMBOLS, key=len, reverse=True):
        if symbol in stripped:
            return CURRENCY_SYMBOLS[symbol], 1.0
    words = [w.lower() for w in _WORD.findall(stripped)]
    for word in re.findall(r"\b[A-Z]{3}\b", stripped):
        if word in CURRENCY_CODES:
            return word, 1.0
    for word in words:
        if word in CURRENCY_WORDS:
            return CURRENCY_WORDS[word], 1.0
    if label == "MONEY":
        if "pound" in words or "pounds" in words or "quid" in words:
            return "GBP", 1.0
        for word in words:
            if word in SUBUNIT_WORDS:
                return SUBUNIT_WORDS[word]
        if re.search(r"\d\s?p\b", stripped):
            return "GBP", 0.01
    return "", 1.0


def _is_percent(surface: str) -> bool:
    low = surface.lower()
    return "%" in low or bool(re.search(r"\b(per ?cent|pc|percentage points?)\b", low))


_NOT_NUMBER_WORDS = frozenset(
    {"about", "around", "approximately", "roughly", "nearly", "almost", "some", "more", "than", "over", "at",
     "least", "up", "to", "less", "fewer", "under", "just", "only", "the", "per", "cent", "percent", "close",
     "estimated", "of", "most", "upwards", "excess", "in", "no", "as", "many", "much", "pc", "odd", "or", "so",
     "sterling", "pounds", "pound", "quid", "circa", "approx", "percentage", "points", "k", "m", "bn",
     "mn", "b", "tn"} | set(CURRENCY_WORDS) | set(SUBUNIT_WORDS) | set(CURRENCY_CODES))


def _number_readings(surface: str, scale_m: bool) -> List[float]:
    """Values of the numbers in a mention: digit literals (with multipliers), else
    number words (quantulum3's words, read by ``words_to_number``)."""
    values = [value for value, _ in _literals(surface, scale_m)]
    if values:
        return values
    words = re.findall(r"[a-z]+(?:-[a-z]+)*", surface.lower())
    if any(w in VAGUE_PLURALS for w in words):
        return []
    # the number words in order, one group per alternative ("two or three", "five to ten")
    groups, current = [], []
    for word in words:
        if word in ("or", "to"):
            groups.append(current)
            current = []
        elif word not in _NOT_NUMBER_WORDS:
            current.append(word)
    groups.append(current)
    values = [words_to_number(" ".join(group)) for group in groups if group]
    return [value for value in values if value is not None]


def _money_or_number(surface: str, label: str) -> List[_Reading]:
    if _is_percent(surface):
        return [_Reading("percent", "", v) for v in _number_readings(surface, scale_m=False)]
    code, factor = _currency(surface, label)
    if code:
        return [_Reading("money", code, v * factor) for v in _number_readings(surface, scale_m=True)]
    return [_Reading("number", "", v) for v in _number_readings(surface, scale_m=False)]

