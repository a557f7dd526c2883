"""Quantity extraction for QHI (CHI paper §3.4.1, docs/papers.md#qhi).

``extract_quantities(doc)`` returns the distinct quantities of a parsed text as
``QuantityUnit`` (kind, unit, value), each anchored to its governing noun phrase.
The hybrid of §3.4.1, and who does what:

* **spaCy numeric NER** (CARDINAL, MONEY, PERCENT, QUANTITY, DATE, TIME, ORDINAL)
  proposes the mentions;
* **regex** adds what spaCy sm cuts off or misses: currency symbols outside the
  entity ("£" + "137,000"; CNN/DailyMail's lower-cased "# 200million" for £),
  multiplier suffixes ("2.5K", "£3bn", "£3.5m", "1.2B"), "%", and digit tokens
  outside any entity (numbers, "12.30pm", "10km");
* **quantulum3** supplies the vocabularies: its unit lexicon (``units.json``:
  surfaces, symbols, SI prefixes and the dimension of every physical unit) for
  QUANTITY mentions ("10 km", "6ft", "4,300 pounds" -> pound-mass) and its
  English number words and fractions. Its parser is not called: its first call
  costs 8-10 s (it imports ``inflect`` and scikit-learn) and each call about
  1 ms, against ~3 ms for a whole 2,000-character document here, and it
  misreads "2.5K" as kibibytes and "£3bn" as "pound sterling barn newton";
* **dateparser** reads dates into inclusive calendar intervals (results cached per
  string). Bare years, decades and season ranges ("2015-16") are read by regex.

Normalisation (``qkind``, ``unit``, ``value``): ``number`` (unit ""), ``money``
(ISO currency code, value in whole currency units with the scale kept: "$5
million" -> USD 5e6), ``percent`` (value in percent: "4.5 per cent" -> 4.5),
``measure`` (quantulum's unit name, or a time unit for durations: "five-year
deal" -> year 5; ages are numbers: "the 19-year-old" -> 19 = "Ella, 19"), ``ordinal``,
``date`` (``interval`` = ISO start/end,
``unit`` = granularity) and ``time`` (clock time, value in hours: "5pm" -> 17.0).
Approximation words set ``approximate`` ("About 5 million" -> 5e6, approximate)
and bounds set ``bound`` ("more than 150" -> 150, bound "lower"). Verbs of
multiplication ("doubled", "tripled", "halved") are percent changes (100, 200,
50) so that derived matching can relate them to source values (CHI paper §3.4.2, docs/papers.md#qhi).
Relative dates ("last Tuesday", "two weeks ago", "March 3") keep their
expression in ``relative`` and are resolved only at matching time, against the
example's publication date: never against today's date.

Deliberately not quantities: vague plurals ("hundreds of", "millions of pounds"),
times of day without a number ("night"), and temporal phrases that no calendar
interval can be given to ("this summer", "next season").

Modules, in the order a mention flows through them: ``mentions`` (candidate
spans), ``numbers`` / ``units`` / ``dates`` (readings), ``anchors`` (governing
noun); ``lexicon`` holds the word lists and unit tables.
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Sequence

from ..text.number_words import (
    FRACTION_WORDS,
    GLUED_SCALE,
    temperature_scale,
)
from ..text.token_table import doc_text
from ..units import QuantityUnit, dedupe
from .anchors import anchor_of
from .context import derivations_of, direction_of
from .dates import (
    _date_readings,
    _time_readings,
    names_no_day,
)
from .measures import _measure_readings, race_time
from .mentions import _candidates, _modifiers_before, _multiplication_verbs, _year_like_cardinal, is_year_token
from .numbers import (
    _HAS_DIGIT,
    _bound_and_approx,
    _currency,
    _is_percent,
    _money_or_number,
    _ordinal_value,
    _Reading,
    uses_decimal_comma,
    words_to_number,
)

#: where a temperature's unit begins after its number ("80 °F", "30 degrees Celsius")
_TEMPERATURE_UNIT_START = re.compile(rf"\s?(?:°|º|˚|\bdeg)|(?<=\d){GLUED_SCALE}\.?\s*$", re.I)


def _readings(surface: str, label: str, decimal_comma: bool = False) -> list[_Reading]:
    if label in ("CARDINAL", "TIME"):
        raced = race_time(surface)
        if raced is not None:
            return [raced]
    if label == "DATE":
        return _date_readings(surface)
    if label == "TIME":
        return _time_readings(surface)
    if label == "ORDINAL":
        value = _ordinal_value(surface)
        if value is not None:
            return [_Reading("ordinal", "", value)]
        label = "CARDINAL"  # spaCy sm tags some plain numbers ORDINAL ("−85113885"): read as written
    if label == "CARDINAL" and not _HAS_DIGIT.search(surface):
        value = _ordinal_value(surface)  # spaCy sm sometimes calls "eighth" CARDINAL
        if value is not None and words_to_number(surface) is None:
            return [_Reading("ordinal", "", value)]
    if label == "QUANTITY" and temperature_scale(surface) is not None:
        number = _TEMPERATURE_UNIT_START.split(surface, 1)[0]
        values = [r for r in _money_or_number(number, "CARDINAL", decimal_comma) if r.value is not None]
        return [_Reading("measure", temperature_scale(surface), values[0].value)] if values else []
    if label == "QUANTITY" and not _currency(surface, label)[0] and not _is_percent(surface):
        return _measure_readings(surface, decimal_comma)
    return _money_or_number(surface, label, decimal_comma)


def _ranks_a_noun(token) -> bool:
    """An ordinal that modifies a noun after it ("a fourth power station", "the first weekend")."""
    return token.dep_ in ("amod", "compound") and token.head.pos_ in ("NOUN", "PROPN") and token.head.i > token.i


def date_parts(span, readings: Sequence[_Reading]) -> list[tuple[int, int, str]]:
    """The parts of a DATE mention (``span``, read as ``readings``) that are quantities of
    their own (docs/papers.md#qhi-what-the-words-around-a-number-say): the ordinals that
    rank a period noun of the mention ("the *first* weekend of April", "the *second* half
    of 2019"), which the date reading drops (so "the second weekend" matched "the first"),
    unless the mention is read as its number ("the 21st century"); and, when the mention
    is not read as a date ("the first three months of *2015*", a duration) or names a day
    no calendar has ("31 February *2020*", :func:`~.dates.names_no_day`), its years. A
    day of a month ("April 3rd") ranks no noun and stays the date's."""
    kinds = {reading.qkind for reading in readings}
    no_day = any(reading.relative and names_no_day(reading.relative) for reading in readings)
    parts = []
    for token in span:
        if (
            "number" not in kinds
            and _ranks_a_noun(token)
            and span.start <= token.head.i < span.end
            and _ordinal_value(token.text) is not None
        ):
            parts.append((token.idx, token.idx + len(token.text), "ORDINAL"))
        elif ("date" not in kinds or no_day) and is_year_token(token) and len(span) > 1:
            parts.append((token.idx, token.idx + len(token.text), "DATE"))
    return parts


def _names_a_share(span, surface: str) -> bool:
    """A fraction in words followed by "of" states a share, a percentage
    (docs/papers.md#qhi-fractions-as-shares): "half of LatNet" is the source's "a 50%
    stake in LatNet", "two-thirds of voters" its "67% of voters". Not "half an hour",
    "cut in half", nor a fraction written in digits ("1/2 of")."""
    doc = span.doc
    words = surface.lower().replace("-", " ").split()
    return (
        bool(words)
        and words[-1] in FRACTION_WORDS
        and not _HAS_DIGIT.search(surface)
        and span.end < len(doc)
        and doc[span.end].lower_ == "of"
    )


def extract_quantities(doc) -> list[QuantityUnit]:
    """The distinct quantities of a parsed text (CHI paper §3.4.1, docs/papers.md#qhi), in text order; the
    same quantity mentioned twice is one unit (first mention kept)."""
    units: list[QuantityUnit] = []
    text = doc_text(doc)
    subjects: dict[int, str] = {}  # verb index -> its subject (anchors.anchor_of)
    particles: dict[int, str] = {}  # verb index -> the direction its particle gives (context.direction_of)
    decimal_comma = uses_decimal_comma(text)
    pending = deque(_candidates(doc, text))  # a DATE mention's own quantities join it (date_parts)
    while pending:
        start, end, label = pending.popleft()
        surface = text[start:end]
        span = doc.char_span(start, end, alignment_mode="expand")
        if span is None or not surface.strip():
            continue
        if label == "CARDINAL" and _year_like_cardinal(span):
            label = "DATE"
        elif label == "DATE" and _names_a_share(span, surface) and words_to_number(surface) is not None:
            label = "CARDINAL"  # spaCy sm tags "three quarters of the budget" a DATE
        elif (
            label == "ORDINAL"
            and len(span) == 1
            and span[0].dep_ == "advmod"
            and span[0].head.pos_ == "VERB"
            and span[0].i < span[0].head.i
        ):
            continue  # "was first arrested", "first met": an adverb, not a rank ("finished third" is one)
        elif (
            label == "ORDINAL"
            and span.start > 0
            and surface.lower() in FRACTION_WORDS
            and doc[span.start - 1].lower_ in ("a", "an", "one")
            and not _ranks_a_noun(span[0])
        ):
            # "a third of" is a fraction; "a fourth power station" is a rank
            start = doc[span.start - 1].idx
            surface, label = text[start:end], "CARDINAL"
            span = doc[span.start - 1 : span.end]
        try:
            readings = _readings(surface, label, decimal_comma)
        except (ValueError, OverflowError, ArithmeticError):
            readings = []
        if label == "DATE":
            pending.extend(date_parts(span, readings))
        if not readings:
            continue
        if label == "CARDINAL" and _names_a_share(span, surface):
            readings = [
                _Reading("percent", "", 100 * r.value, approx=r.approx) if r.qkind == "number" else r for r in readings
            ]
        bound, approx = _bound_and_approx(_modifiers_before(span) + " " + surface)
        direction = direction_of(span, particles)
        derivations = derivations_of(span, direction)
        root = span.root
        counts_head = root.dep_ == "nummod" and root.head.pos_ == "NOUN"
        # an ordinal of a noun ("his third shot", "the second season") ranks that noun as
        # a count counts it: the same ordinal of another noun is another fact
        ranks_head = root.dep_ == "amod" and root.head.pos_ == "NOUN"
        anchor_plain = anchor_inside = None
        for reading in readings:
            if reading.value is not None and math.isnan(reading.value):
                continue  # a value beyond floating point is kept as +-inf (match.quantities)
            if reading.inside:
                if anchor_inside is None:
                    anchor_inside = anchor_of(span, inside=True, memo=subjects)
                anchor = anchor_inside
            else:
                anchor_plain = anchor_plain if anchor_plain is not None else anchor_of(span, memo=subjects)
                anchor = anchor_plain
            units.append(
                QuantityUnit(
                    qkind=reading.qkind,
                    unit=reading.unit,
                    value=reading.value,
                    text=surface,
                    span=(start, end),
                    anchor=anchor,
                    interval=reading.interval,
                    relative=reading.relative,
                    approximate=bool(reading.approx or approx),
                    bound="" if reading.qkind == "date" else bound,
                    direction="" if reading.qkind == "date" else direction,
                    derivations=frozenset() if reading.qkind == "date" else derivations,
                    counted=(reading.qkind == "number" and (reading.inside or counts_head))
                    or (reading.qkind == "ordinal" and ranks_head),
                    precise=reading.precise,
                )
            )
    units.extend(_multiplication_verbs(doc, text, subjects))
    units.sort(key=lambda u: u.span)
    return dedupe(units)


__all__ = ["extract_quantities"]
