"""Edits of numbers written with digits: amounts doubled, halved or moved 7-15%, years
shifted, a number of the source swapped in, and ordinals changed to a neighbour. The
numbers are read by :func:`find_numbers`."""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass

from benchmarks.perturbations.text import _replace, match_case

_NUMBER = re.compile(
    r"""
    (?<![\w.,/:$£€¥-])
    (?P<currency>(?:US|A|C|HK|NZ|S)?[$£€¥])?
    (?P<int>\d{1,3}(?:,\d{3})+|\d+)
    (?:\.(?P<dec>\d+))?
    (?P<scale>\ ?(?:million|billion|trillion|bn|m|k)(?!\w))?
    (?P<percent>\ ?(?:%|per\ ?cent(?!\w)|percent(?!\w)))?
    (?!\w|[.,/:-]\d)
""",
    re.X,
)
_SCALES = {"million": 1e6, "billion": 1e9, "trillion": 1e12, "bn": 1e9, "m": 1e6, "k": 1e3}
_CURRENCY_WORDS = re.compile(r"\s(?:pounds|dollars|euros|yuan|yen|rupees|pence|cents|francs|dollar|euro|pound)\b", re.I)
#: entity labels a number may carry to count as an amount (None: outside every entity)
_AMOUNT_LABELS = {"", "MONEY", "CARDINAL", "PERCENT", "QUANTITY", "DATE"}
_DURATION = re.compile(r"\b(?:years?|months?|weeks?|days?|decades?|hours?|minutes?|seconds?|centur(?:y|ies))\b", re.I)


@dataclass(frozen=True)
class Number:
    """A number written with digits: its span in the text, its parts as written and its
    kind (``money``, ``percent``, ``plain`` or ``year``)."""

    start: int
    end: int
    text: str
    currency: str
    integer: str
    decimals: str
    scale: str
    percent: str
    kind: str

    @property
    def written(self) -> float:
        """The number as written, before its scale (``$1.5 million`` -> 1.5)."""
        return float(self.integer.replace(",", "") + ("." + self.decimals if self.decimals else ""))

    @property
    def value(self) -> float:
        """The amount it denotes (``$1.5 million`` -> 1.5e6)."""
        return self.written * _SCALES.get(self.scale.strip().lower(), 1.0)


def _entity_at(doc, start: int, end: int) -> tuple[str, str]:
    """(label, text) of the entity of ``doc`` overlapping the characters
    [start, end), ("", "") when none."""
    if doc is None:
        return "", ""
    for ent in doc.ents:
        if ent.start_char < end and start < ent.end_char:
            return ent.label_, ent.text
    return "", ""


def find_numbers(text: str, doc=None) -> list[Number]:
    """The numbers written with digits in ``text`` that read as an amount or a year
    (not parts of dates, times, ranges, scores, versions or names). With ``doc`` (a
    parse of ``text`` or of a same-length truecased copy), numbers inside entities other
    than amounts and durations are left out, and a 1900-2099 number is a year only
    inside a DATE entity (an amount inside a CARDINAL, MONEY or QUANTITY one)."""
    found = []
    for match in _NUMBER.finditer(text):
        currency, integer = match.group("currency") or "", match.group("int")
        decimals, scale, percent = match.group("dec") or "", match.group("scale") or "", match.group("percent") or ""
        if scale.strip() in ("m", "k") and not currency:
            continue  # 5m: metres or million?
        if currency and percent:
            continue
        kind = "money" if currency or _CURRENCY_WORDS.match(text, match.end()) else ("percent" if percent else "plain")
        year_like = (
            kind == "plain" and not decimals and not scale and len(integer) == 4 and 1900 <= int(integer) <= 2099
        )
        label, entity = _entity_at(doc, match.start(), match.end())
        if doc is not None:
            if label not in _AMOUNT_LABELS:
                continue
            if year_like:
                if label == "DATE":
                    kind = "year"
                elif label not in ("CARDINAL", "MONEY", "QUANTITY"):
                    continue  # no entity: a year or a count? neither
            elif label == "DATE" and not _DURATION.search(entity):
                continue  # a day of a month, ...
        elif year_like:
            kind = "year"
        found.append(
            Number(match.start(), match.end(), match.group(), currency, integer, decimals, scale, percent, kind)
        )
    return found


def write_number(value: float, like: Number, decimals: int | None = None) -> str:
    """``value`` (before the scale) written as ``like`` is: its currency, thousands
    commas (when it has them), scale and per cent sign; with ``like``'s decimals, or
    more (up to 3) when ``value`` needs them, unless ``decimals`` is given."""
    if decimals is None:
        decimals = len(like.decimals)
        while decimals < 3 and abs(round(value, decimals) - value) > 1e-9 * max(1.0, abs(value)):
            decimals += 1
    body = f"{value:,.{decimals}f}" if "," in like.integer else f"{value:.{decimals}f}"
    return like.currency + body + like.scale + like.percent


def _amounts(summary: str, summary_doc) -> list[Number]:
    return [n for n in find_numbers(summary, summary_doc) if n.kind in ("money", "percent", "plain")]


def _scaled(summary: str, summary_doc, rng: random.Random, factor: float) -> str | None:
    candidates = [n for n in _amounts(summary, summary_doc) if n.written > 0]
    if not candidates:
        return None
    number = rng.choice(candidates)
    return _replace(summary, number.start, number.end, write_number(number.written * factor, number))


# --------------------------------------------------------------------- the number edits


def amount_x2(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """An amount written with digits (money, per cent, a count) doubled, written in the
    same format: ``$400 million`` -> ``$800 million``."""
    return _scaled(summary, summary_doc, rng, 2.0)


def amount_x0_5(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """An amount halved, same format (decimals added when needed): ``25`` -> ``12.5``."""
    return _scaled(summary, summary_doc, rng, 0.5)


def amount_shift(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """An amount moved 7-15% up or down (``rng.choice((1, -1))``, ``rng.uniform(0.07,
    0.15)``), rounded to the decimals as written; the first amount (in ``rng.shuffle``
    order) whose rounded value differs and moved 4-20% after rounding."""
    candidates = [n for n in _amounts(summary, summary_doc) if n.written > 0]
    rng.shuffle(candidates)
    for number in candidates:
        sign = rng.choice((1, -1))
        factor = 1 + sign * rng.uniform(0.07, 0.15)
        places = len(number.decimals)
        new = round(number.written * factor, places)
        change = abs(new - number.written) / number.written
        if new != number.written and 0.04 <= change <= 0.2 and new > 0:
            return _replace(summary, number.start, number.end, write_number(new, number, places))
    return None


YEAR_SHIFTS = (-3, -2, -1, 1, 2, 3)


def year_shift(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """A year (1900-2099; with a parse, inside a DATE entity) shifted by one of
    :data:`YEAR_SHIFTS` (``rng.shuffle`` order), the first giving a year the source does
    not write (else the first)."""
    years = [n for n in find_numbers(summary, summary_doc) if n.kind == "year"]
    if not years:
        return None
    year = rng.choice(years)
    shifts = list(YEAR_SHIFTS)
    rng.shuffle(shifts)
    written = set(re.findall(r"\d+", source))
    new = next(
        (int(year.integer) + s for s in shifts if str(int(year.integer) + s) not in written),
        int(year.integer) + shifts[0],
    )
    return _replace(summary, year.start, year.end, str(new))


def number_swap_source(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """A number of the summary replaced by a different number of the same kind (money,
    per cent, plain, year) that the source writes, as the source writes it."""
    mine = find_numbers(summary, summary_doc)
    theirs = find_numbers(source, source_doc)
    rng.shuffle(mine)
    for number in mine:
        options = sorted(
            {
                n.text
                for n in theirs
                if n.kind == number.kind and not math.isclose(n.value, number.value) and n.text != number.text
            }
        )
        if options:
            return _replace(summary, number.start, number.end, rng.choice(options))
    return None


ORDINAL_WORDS = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
)
_ORDINAL = re.compile(r"(?<![\w.,])(?P<n>\d+)(?P<suffix>st|nd|rd|th)(?!\w)", re.I)


def ordinal_suffix(n: int) -> str:
    """``1`` -> ``st``, ``2`` -> ``nd``, ``11`` -> ``th``, ``23`` -> ``rd``."""
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _other_ordinals(n: int) -> list[int]:
    return [m for m in (n + 1, n - 1, n + 2) if m >= 1 and m != n]


def ordinal_change(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """An ordinal changed to a neighbour (n+1, n-1, n+2; ``rng.choice``): a word
    (``first`` -> ``second``, up to ``twentieth``; with a parse only an adjective: not
    ``a second`` the noun, ``was first arrested`` the adverb) or digits (``2nd`` ->
    ``3rd``); never before ``of`` (``a third of``: a fraction)."""
    options = []
    for match in re.finditer(r"[A-Za-z]+", summary):
        word = match.group().lower()
        if word not in ORDINAL_WORDS or re.match(r"\s+of\b", summary[match.end() :], re.I):
            continue
        if summary_doc is not None:
            token = next((t for t in summary_doc if t.idx == match.start()), None)
            if token is None or token.pos_ != "ADJ":
                continue
        n = ORDINAL_WORDS.index(word) + 1
        choices = [m for m in _other_ordinals(n) if m <= len(ORDINAL_WORDS)]
        options.append((match.start(), match.end(), [match_case(ORDINAL_WORDS[m - 1], match.group()) for m in choices]))
    for match in _ORDINAL.finditer(summary):
        n = int(match.group("n"))
        suffix = match.group("suffix")
        options.append(
            (
                match.start(),
                match.end(),
                [
                    f"{m}{ordinal_suffix(m).upper() if suffix.isupper() else ordinal_suffix(m)}"
                    for m in _other_ordinals(n)
                ],
            )
        )
    if not options:
        return None
    start, end, choices = rng.choice(options)
    return _replace(summary, start, end, rng.choice(choices))
