"""Dates and times: bare years, season ranges and decades by regex, other dates
through dateparser (calendar intervals, relative expressions kept for matching
time), clock times and ordinal minutes."""

from __future__ import annotations

import datetime as _dt
import re
from functools import lru_cache

from ..text.number_spans import _MONTH_NAME
from ..text.number_words import ORDINAL_WORDS, YEAR_DIGITS
from .measures import _duration
from .numbers import _HAS_DIGIT, _literals, _ordinal_value, _Reading

_YEAR = re.compile(r"^(?:the\s+)?(?:year\s+)?(1\d{3}|20\d{2})$", re.I)


_YEAR_IN = re.compile(rf"(?<![\d,.])({YEAR_DIGITS})(?![\d,])")


_YEAR_RANGE = re.compile(rf"(?<!\d)({YEAR_DIGITS})\s?[-–/]\s?(\d{{2}}|\d{{4}})(?!\d)")


_DECADE = re.compile(r"(?<!\d)(?:(1[5-9]\d|20\d)0|'?([0-9]0))'?s\b", re.I)


_CLOCK = re.compile(r"(?<!\d)(\d{1,2})(?:[:.](\d{2}))?\s?([ap])\.?m\b\.?|(?<!\d)(\d{1,2}):(\d{2})(?!\d)", re.I)


_RELATIVE_MARKERS = re.compile(
    r"\b(ago|last|next|this|past|previous|coming|yesterday|today|tomorrow|tonight|earlier|later|since)\b", re.I
)


_DATE_WORDS = re.compile(
    r"\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|"
    r"nov(ember)?|dec(ember)?|mon(day)?|tue(s(day)?)?|wed(nesday)?|thu(rs(day)?)?|fri(day)?|sat(urday)?|"
    r"sun(day)?|today|yesterday|tomorrow|week|month|year|weekend|fortnight|ago)\b",
    re.I,
)


_DATE_NOISE = re.compile(
    r"^(?:(?:the|on|in|at|of|by|from|since|until|till|during|over|about|around|early|late|mid|"
    r"earlier|later)\b[\s-]*)+|'s$|’s$",
    re.I,
)


_AGE = re.compile(r"\bold\b|\baged?\b", re.I)


# read on whitespace-collapsed text, where "(?<!\s\s)" always holds; it keeps a run of
# whitespace from being tried at every one of its positions (linear time on any text)
_DATE_RANGE_SPLIT = re.compile(r"(?<!\s\s)(?:\s+(?:to|and|until|till|through)\s+|\s*[–—]\s*|\s+-\s+)", re.I)


_WEEKDAY = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b,?\s*", re.I)


_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+({_MONTH_NAME})(?=\s|$|,)", re.I)


_MONTH_DAY = re.compile(rf"\b({_MONTH_NAME})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", re.I)


_MONTHS = {
    "jan": "january",
    "feb": "february",
    "mar": "march",
    "apr": "april",
    "jun": "june",
    "jul": "july",
    "aug": "august",
    "sep": "september",
    "sept": "september",
    "oct": "october",
    "nov": "november",
    "dec": "december",
}


_MONTH_ABBREVIATION = re.compile(r"\b(jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b\.?")


_VAGUE_DATE = re.compile(
    r"(?:the\s+)?(?:early|late|mid|about|around|circa|the (?:start|end|middle|summer|"
    r"spring|autumn|winter) of)\b",
    re.I,
)


_FIXED_BASE = _dt.datetime(2001, 6, 13)  # only to check that a relative date parses


#: the months, in calendar order, as :func:`canonical_date_expression` writes them
MONTH_NAMES = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)


#: a day of a month as :func:`canonical_date_expression` writes it ("february 31", "april 31 2015")
_WRITTEN_DAY = re.compile(r"\b(" + "|".join(MONTH_NAMES) + r") (\d{1,2})\b(?: (\d{4})\b)?")


_ISO_DAY = re.compile(r"(?<![\d-])(\d{4})-(\d{1,2})-(\d{1,2})(?![\d-])")


_SLASHED_DAY = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4})(?![\d/])")


#: the year a day of a month without one is checked in: a leap year, so that "february 29" is a day
_ANY_YEAR = 2000


def _is_day(year: int, month: int, day: int) -> bool:
    try:
        _dt.date(year, month, day)
    except ValueError:
        return False
    return True


def names_no_day(expression: str) -> bool:
    """Whether a date expression (as :func:`canonical_date_expression` writes it) names a
    day no calendar has: a day its month lacks ("february 31", "april 31 2015", "february
    29 2019"; without a year, February has 29 days), or a numeric date that is no day read
    year-month-day ("2020-02-31") or, slashed, neither day-first nor month-first
    ("31/02/2020" is 31 February or the 2nd of month 31). dateparser reads no such day,
    and the date's year (or its day as a bare number) would then stand in for it
    (docs/papers.md#qhi-a-date-that-names-no-day)."""
    for match in _WRITTEN_DAY.finditer(expression):
        year = int(match.group(3)) if match.group(3) else _ANY_YEAR
        if not _is_day(year, MONTH_NAMES.index(match.group(1)) + 1, int(match.group(2))):
            return True
    for match in _ISO_DAY.finditer(expression):
        if not _is_day(*map(int, match.groups())):
            return True
    for match in _SLASHED_DAY.finditer(expression):
        first, second, year = map(int, match.groups())
        if not _is_day(year, second, first) and not _is_day(year, first, second):
            return True
    return False


def _interval(day: _dt.date, period: str) -> tuple[str, str]:
    """Inclusive ISO interval of the calendar ``period`` containing ``day``."""
    if period == "year":
        start, end = _dt.date(day.year, 1, 1), _dt.date(day.year, 12, 31)
    elif period == "month":
        start = day.replace(day=1)
        end = (
            start.replace(year=start.year + 1, month=1) if start.month == 12 else start.replace(month=start.month + 1)
        ) - _dt.timedelta(days=1)
    elif period == "week":
        start = day - _dt.timedelta(days=day.weekday())
        end = start + _dt.timedelta(days=6)
    else:
        start = end = day
    return start.isoformat(), end.isoformat()


def year_interval(first: int, last: int | None = None) -> tuple[str, str]:
    return f"{first:04d}-01-01", f"{(last or first):04d}-12-31"


@lru_cache(maxsize=16384)
def parse_date(expression: str, base: _dt.date | None = None) -> tuple[tuple[str, str], str] | None:
    """(interval, granularity) of a date expression via dateparser, relative parts
    resolved against ``base`` (a fixed placeholder when ``None``); cached per
    (expression, base). ``None`` when dateparser cannot read it as a day, week,
    month or year."""
    from dateparser.date import DateDataParser

    when = _dt.datetime.combine(base, _dt.time(12)) if base is not None else _FIXED_BASE
    parser = DateDataParser(
        languages=["en"], settings={"RELATIVE_BASE": when, "PREFER_DATES_FROM": "past", "RETURN_TIME_AS_PERIOD": True}
    )
    try:
        data = parser.get_date_data(expression)
    except (ValueError, OverflowError, TypeError):
        return None
    if data is None or data.date_obj is None or data.period not in ("day", "week", "month", "year"):
        return None
    return _interval(data.date_obj.date(), data.period), data.period


def resolve_relative(expression: str, publication_date: _dt.date | None) -> tuple[str, str] | None:
    """The calendar interval of a relative date expression given the publication
    date (CHI paper §3.4.2, temporal mode; docs/papers.md#qhi); ``None`` without a publication date."""
    if publication_date is None:
        return None
    parsed = parse_date(expression, publication_date)
    return parsed[0] if parsed else None


def _date_readings(surface: str) -> list[_Reading]:
    """Rules for a DATE mention, in order: bare year, season range, decade;
    duration or age; a day no calendar has (:func:`names_no_day`), kept as written;
    dateparser (absolute when a year is written, else relative); a year inside an
    unreadable phrase ("mid-2015"); a plain number ("64")."""
    text = re.sub(r"\s+", " ", surface.strip())
    low = text.lower()
    year = _YEAR.match(low)
    if year:
        return [_Reading("date", "year", interval=year_interval(int(year.group(1))))]
    span = _YEAR_RANGE.search(low)
    if span:
        first, second = int(span.group(1)), span.group(2)
        last = int(second) if len(second) == 4 else (first // 100) * 100 + int(second)
        if last > first and last - first < 100:
            return [_Reading("date", "year", interval=year_interval(first, last), approx=low != span.group(0))]
    decade = _DECADE.search(low)
    if decade and not _RELATIVE_MARKERS.search(low):
        start = int(decade.group(1)) * 10 if decade.group(1) else 1900 + int(decade.group(2))
        return [
            _Reading("date", "decade", interval=year_interval(start, start + 9), approx=decade.group(2) is not None)
        ]
    if _CLOCK.search(low):  # "11.30am every day"
        return _time_readings(low)
    relative_marked = bool(_RELATIVE_MARKERS.search(low))
    if not relative_marked:
        duration = _duration(low)
        if duration is not None:
            if duration.unit == "year" and _AGE.search(low):  # "the 19-year-old" = "Ella, 19"
                return [_Reading("number", "", duration.value, inside=False)]
            return [duration]
    if re.fullmatch(r"[\d\s,.]+", low):  # "64", "34 56": ages and scores, not dates
        return [_Reading("number", "", float(v.replace(",", ""))) for v in re.findall(r"\d[\d,]*(?:\.\d+)?", low)]
    expression = canonical_date_expression(low)
    has_year = _YEAR_IN.search(expression)
    approx = bool(_VAGUE_DATE.match(low))
    if names_no_day(expression):
        # kept as written (``relative``, which no publication date resolves): only the same
        # words match it, never a date of its year
        return [_Reading("date", "day", relative=expression, approx=approx)]
    if expression and (has_year or _DATE_WORDS.search(expression)):
        parsed = parse_date(expression)
        if parsed is not None:
            interval, period = parsed
            if has_year:  # a written year makes the date absolute
                return [_Reading("date", period, interval=interval, approx=approx)]
            return [_Reading("date", period, relative=expression, approx=approx)]
    parts = [p for p in _DATE_RANGE_SPLIT.split(low) if p.strip()]
    if len(parts) > 1:  # "Friday to Monday", "March and April 2015": each end is a date
        readings = [r for part in parts for r in _date_readings(part) if r.qkind == "date"]
        if len(readings) == len(parts):
            return readings
    if has_year:
        y = int(has_year.group(1))
        return [_Reading("date", "year", interval=year_interval(y), approx=True)]
    duration = _duration(low)
    if duration is not None and not re.search(r"\bago\b", low):
        return [duration]
    if _HAS_DIGIT.search(low):
        return [_Reading("number", "", v) for v, _ in _literals(low, False)]
    return []


def canonical_date_expression(text: str) -> str:
    """The form a date expression is parsed and, when relative, keyed by:
    lower case, leading prepositions/articles/"early"... dropped, month names in
    full ("Jan." -> "january"), "19th" -> "19",
    "19 April" -> "april 19", and the weekday dropped when a day of the month is
    written ("Friday, April 19" -> "april 19")."""
    low = re.sub(r"\s+", " ", text.lower()).strip()
    low = _DATE_NOISE.sub("", low).strip(" ,.")
    low = _MONTH_ABBREVIATION.sub(lambda m: _MONTHS[m.group(1)], low)
    low = _DAY_MONTH.sub(lambda m: f"{m.group(2).rstrip('.')} {m.group(1)}", low)
    low = _MONTH_DAY.sub(lambda m: f"{m.group(1).rstrip('.')} {m.group(2)}", low)
    if _MONTH_DAY.search(low):
        low = _WEEKDAY.sub("", low)
    return re.sub(r"\s*,\s*", " ", low).strip(" ,.")


def _time_readings(surface: str) -> list[_Reading]:
    """TIME mentions: ordinal minutes ("the 83rd minute"), clock times ("5pm" ->
    17.0), durations ("half an hour" -> 0.5 hour); others ("night") are dropped."""
    low = surface.lower()
    ordinal = (
        _ordinal_value(re.sub(r"\b(minute|hour|second)s?\b", "", low).strip())
        if re.search(r"\d(st|nd|rd|th)\b|\b(" + "|".join(ORDINAL_WORDS) + r")\b", low)
        else None
    )
    if ordinal is not None:
        return [_Reading("ordinal", "", ordinal)]
    clock = _CLOCK.search(low)
    if clock:
        if clock.group(1):
            hour, minute = int(clock.group(1)) % 12, int(clock.group(2) or 0)
            hour += 12 if clock.group(3).lower() == "p" else 0
        else:
            hour, minute = int(clock.group(4)), int(clock.group(5))
        if hour < 24 and minute < 60:
            return [_Reading("time", "", hour + minute / 60.0)]
        return []
    if re.search(r"\bmidnight\b", low):
        return [_Reading("time", "", 0.0)]
    if re.search(r"\b(noon|midday)\b", low):
        return [_Reading("time", "", 12.0)]
    duration = _duration(low)
    return [duration] if duration is not None else []
