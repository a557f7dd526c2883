"""Number reading: digit literals with multipliers, English number words and
ordinals, currencies, percentages, bounds and approximation words."""

from __future__ import annotations

import math
import re
from decimal import Context, Decimal

from ..text.number_words import (
    APPROXIMATE,
    CURRENCY_CODES,
    CURRENCY_SYMBOLS,
    CURRENCY_WORDS,
    FRACTION_WORDS,
    LOWER_BOUND,
    ORDINAL_WORDS,
    SCALE_WORDS,
    SMALL_NUMBERS,
    SUBUNIT_WORDS,
    UPPER_BOUND,
    VAGUE_PLURALS,
)

_NUM = r"\d+(?:,\d{3})*(?:\.\d+)?"


#: a minus sign ("-" or U+2212) counts only where a word could start: "-40", "(-3)",
#: never the hyphen of "3-1", "2015-16" or "covid-19"
_SIGN_BEFORE = r"(?<![^\s(\[])"


_SIGN = r"[-\u2212]"


_SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"  # superscript 0-9


_SUPERSCRIPT_DIGITS = str.maketrans(_SUPERSCRIPTS + "\u207b\u207a", "0123456789-+")


#: written exponents: "1e9", "2.5E-3", "3 x 10^9", "3×10⁹", "10^400", "2^10", and "10⁹"
#: (a bare superscript only after a plain "10": elsewhere it is a footnote mark)
_EXPONENT = (
    r"(?:[eE](?P<e>[-+\u2212]?\d+)"
    rf"|\s?[x×]\s?10(?:\^(?P<t>[-+\u2212]?\d+)|(?P<ts>[\u207b\u207a]?[{_SUPERSCRIPTS}]+))"
    rf"|\^(?P<p>[-+\u2212]?\d+)"
    rf"|(?<=10)(?<![\d.,]10)(?P<s>[\u207b\u207a]?[{_SUPERSCRIPTS}]+))"
)


_SCALE = r"(?:\s?-?(?P<scale>hundred|thousand|million|billion|trillion|bn|mn|mln|bln|tn|k|m|b)\b)?"


def _literal_pattern(decimal_comma: bool) -> re.Pattern[str]:
    """Digit literals with sign, exponent, ordinal suffix and multiplier; with
    ``decimal_comma``, "7,5" and "3,1415" are decimals while "7,500" stays 7500."""
    number = rf"{_NUM}|\.\d+"
    if decimal_comma:
        number = r"(?P<dc>\d+,(?:\d{1,2}|\d{4,})(?!\d|,\d))|" + number
    return re.compile(
        rf"(?:{_SIGN_BEFORE}(?P<sign>{_SIGN})|(?<![\w.]))"
        rf"(?P<num>{number})(?:{_EXPONENT})?(?P<ord>st|nd|rd|th)?{_SCALE}",
        re.IGNORECASE,
    )


_LITERAL = _literal_pattern(False)


_LITERAL_DECIMAL_COMMA = _literal_pattern(True)


# evidence for decimal commas in a whole text (each starts only where its run starts)
_COMMA_DECIMAL = re.compile(r"(?<![\d.,])\d+,(?:\d{1,2}|\d{4,})(?!\d|[.,]\d)")


_POINT_DECIMAL = re.compile(r"(?<![\d.,])\d+\.(?:\d{1,2}|\d{4,})(?!\d|[.,]\d)")


_COMMA_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?!\d|[.,]\d)")


#: exponents longer than this are not converted to int (Python refuses > 4,300 digits)
_MAX_EXPONENT_DIGITS = 6


_EXACT = Context(prec=60, Emax=10**7, Emin=-(10**7))


_HAS_DIGIT = re.compile(r"\d")


_DIGIT_COMMA_RUN = re.compile(r"[\d,]+")


_ORDINAL_SUFFIX = re.compile(r"\s?(?:st|nd|rd|th)\b", re.I)


_WORD = re.compile(r"[a-z]+", re.I)


def words_to_number(text: str) -> float | None:
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
        digits = [SMALL_NUMBERS.get(w) for w in words[cut + 1 :]]
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


def _ordinal_value(text: str) -> float | None:
    """ "83rd" -> 83, "third" -> 3, "twenty-first" -> 21."""
    # the leftmost "\d[\d,]*" followed by an ordinal suffix, found in linear time: every
    # start inside one run of digits and commas ends where the run ends
    for run in _DIGIT_COMMA_RUN.finditer(text):
        first = _HAS_DIGIT.search(run.group())
        if first is not None and _ORDINAL_SUFFIX.match(text, run.end()):
            return float(run.group()[first.start() :].replace(",", ""))
    words = [w for w in re.split(r"[\s-]+", text.lower()) if w and w not in ("the", "a")]
    if not words or words[-1] not in ORDINAL_WORDS:
        return None
    head = words_to_number(" ".join(words[:-1])) if len(words) > 1 else 0.0
    return None if head is None else head + ORDINAL_WORDS[words[-1]]


def uses_decimal_comma(text: str) -> bool:
    """Whether ``text`` writes decimals with a comma, unambiguously: it has a number
    such as "7,5" or "3,1415" (a comma not followed by a group of three digits) and
    neither a decimal point ("7.5") nor a thousands comma ("7,500", which a German
    text would read as 7.5)."""
    return (
        _COMMA_DECIMAL.search(text) is not None
        and _POINT_DECIMAL.search(text) is None
        and _COMMA_THOUSANDS.search(text) is None
    )


def _exponent(match: re.Match[str]) -> tuple[str, str]:
    """(kind, exponent digits) of a literal: kind "" (none), "10" (times a power of
    ten) or "^" (a power of the number itself)."""
    for group, kind in (("e", "10"), ("t", "10"), ("ts", "10"), ("s", "^"), ("p", "^")):
        written = match.group(group)
        if written:
            return kind, written.translate(_SUPERSCRIPT_DIGITS).replace("\u2212", "-")
    return "", ""


def _literal_value(match: re.Match[str]) -> float:
    """The value of one literal as written: sign, decimal comma, exponent. A value
    beyond floating point ("1e309", "10^400") is +-inf, never a part of it."""
    if match.group("dc") if "dc" in match.re.groupindex else None:
        mantissa = match.group("num").replace(",", ".")
    else:
        mantissa = match.group("num").replace(",", "")
    kind, exponent = _exponent(match)
    digits = exponent.lstrip("+-")
    if kind and len(digits.lstrip("0")) > _MAX_EXPONENT_DIGITS:  # 10^(a million digits)
        base = float(mantissa)
        grows = not exponent.startswith("-") and (kind == "10" or abs(base) > 1)
        value = math.inf if grows and base != 0 else (0.0 if base != 1 or kind == "10" else 1.0)
    elif kind == "10":
        value = float(f"{mantissa}e{int(exponent)}")  # exact decimal rounding; inf beyond range
    elif kind == "^":
        base = float(mantissa)
        if base == 10:
            value = float(f"1e{int(exponent)}")
        else:
            try:
                value = base ** int(exponent)
            except OverflowError:
                value = math.inf
            except ZeroDivisionError:  # 0^-1
                value = math.inf
    else:
        value = float(mantissa)
    return -value if match.group("sign") else value


def written_value(text: str) -> str | None:
    """A canonical exact form of the first literal in ``text`` whose value is beyond
    floating point ("1e309" and "10^309" give "1E+309"), so that two such values
    can still be compared as written; ``None`` when there is none."""
    for pattern in (_LITERAL, _LITERAL_DECIMAL_COMMA):
        for match in pattern.finditer(text):
            if math.isfinite(_literal_value(match)):
                continue
            kind, exponent = _exponent(match)
            sign = "-" if match.group("sign") else ""
            mantissa = match.group("num").replace(",", "")
            if kind == "^" and float(mantissa) == 10:
                kind, mantissa = "10", "1"
            if kind == "10" and len(exponent.lstrip("+-").lstrip("0")) <= _MAX_EXPONENT_DIGITS:
                try:
                    return sign + str(Decimal(f"{mantissa}e{int(exponent)}").normalize(_EXACT))
                except ArithmeticError:
                    pass
            return f"{sign}{mantissa}{'e' if kind == '10' else '^'}{exponent.lstrip('+')}"
    return None


def _literals(surface: str, scale_m: bool, decimal_comma: bool = False) -> list[tuple[float, tuple[int, int]]]:
    """Numeric literals in ``surface`` with their multiplier ("2.5K" -> 2500,
    "3bn" -> 3e9; "m" counts as million only when ``scale_m``), sign ("-40") and
    exponent ("1e9", "3×10⁹"); with ``decimal_comma`` "7,5" is 7.5."""
    out = []
    for match in (_LITERAL_DECIMAL_COMMA if decimal_comma else _LITERAL).finditer(surface):
        value = _literal_value(match)
        scale = (match.group("scale") or "").lower()
        if scale == "m" and not scale_m:
            scale = ""
        if scale:
            value *= SCALE_WORDS[scale]
        out.append((value, match.span()))
    return out


class _Reading:
    """One normalised reading of a mention (before anchoring)."""

    __slots__ = ("qkind", "unit", "value", "interval", "relative", "approx", "inside", "precise")

    def __init__(
        self, qkind, unit="", value=None, interval=None, relative="", approx=False, inside=False, precise=False
    ):
        self.qkind, self.unit, self.value = qkind, unit, value
        self.interval, self.relative, self.approx, self.inside = interval, relative, approx, inside
        self.precise = precise


def _bound_and_approx(text: str) -> tuple[str, bool]:
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


_HASH_POUND = re.compile(r"(?:^|\s)#\s?\d")


def _currency(surface: str, label: str) -> tuple[str, float]:
    """(ISO code, factor) named in a money mention, ("", 1) when none."""
    stripped = surface.strip()
    # CNN/DailyMail's "#" for "£" (see _SUPPLEMENT), also inside a mention that starts with
    # a modifier ("around # 8million", "about #19")
    if _HASH_POUND.search(stripped):
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
    {
        "about",
        "around",
        "approximately",
        "roughly",
        "nearly",
        "almost",
        "some",
        "more",
        "than",
        "over",
        "at",
        "least",
        "up",
        "to",
        "less",
        "fewer",
        "under",
        "just",
        "only",
        "the",
        "per",
        "cent",
        "percent",
        "close",
        "estimated",
        "of",
        "most",
        "upwards",
        "excess",
        "in",
        "no",
        "as",
        "many",
        "much",
        "pc",
        "odd",
        "or",
        "so",
        "sterling",
        "pounds",
        "pound",
        "quid",
        "circa",
        "approx",
        "percentage",
        "points",
        "k",
        "m",
        "bn",
        "mn",
        "b",
        "tn",
    }
    | set(CURRENCY_WORDS)
    | set(SUBUNIT_WORDS)
    | set(CURRENCY_CODES)
)


def _number_readings(surface: str, scale_m: bool, decimal_comma: bool = False) -> list[float]:
    """Values of the numbers in a mention: digit literals (with multipliers), else
    number words (quantulum3's words, read by ``words_to_number``)."""
    values = [value for value, _ in _literals(surface, scale_m, decimal_comma)]
    if values:
        return values
    words = re.findall(r"[a-z]+(?:-[a-z]+)*", surface.lower())
    if any(w in VAGUE_PLURALS for w in words):
        return []
    # the number words in order, one group per alternative ("two or three", "five to ten")
    groups: list[list[str]] = []
    current: list[str] = []
    for word in words:
        if word in ("or", "to"):
            groups.append(current)
            current = []
        elif word not in _NOT_NUMBER_WORDS:
            current.append(word)
    groups.append(current)
    read = [words_to_number(" ".join(group)) for group in groups if group]
    return [value for value in read if value is not None]


def _money_or_number(surface: str, label: str, decimal_comma: bool = False) -> list[_Reading]:
    if _is_percent(surface):
        return [_Reading("percent", "", v) for v in _number_readings(surface, False, decimal_comma)]
    code, factor = _currency(surface, label)
    if code:
        return [_Reading("money", code, v * factor) for v in _number_readings(surface, True, decimal_comma)]
    return [_Reading("number", "", v) for v in _number_readings(surface, False, decimal_comma)]
