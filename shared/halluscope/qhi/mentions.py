"""Numeric mentions: spaCy's numeric entities widened and supplemented by regex
(currency symbols, multipliers, percentages, stray digit tokens), and verbs of
multiplication."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator

from ..text.number_spans import month_before_day, score_start
from ..text.number_words import (
    CURRENCY_CODES,
    CURRENCY_SYMBOLS,
    CURRENCY_WORDS,
    MULTIPLY_VERBS,
    NUMERIC_LABELS,
    SCALE_WORDS,
    SCALED_NUMBER,
    TEMPERATURE_PATTERN,
    YEAR_DIGITS,
)
from ..text.token_table import doc_text, has_no_upper
from ..units import QuantityUnit
from .anchors import _subject_of
from .dates import _CLOCK, _DAY_MONTH, _MONTH_DAY
from .measures import _DURATION_JOIN, _duration, _lookup_unit, compound_duration
from .numbers import _EXPONENT, _NUM, _SIGN, _SIGN_BEFORE

# where a number (or its minus sign) may start
_START = rf"(?:{_SIGN_BEFORE}{_SIGN}|(?<![\w.,]))"


# numbers._EXPONENT without its named groups
_EXPONENT_PLAIN = re.sub(r"\(\?P<\w+>", "(?:", _EXPONENT)


_SYM = "|".join(re.escape(s) for s in sorted(CURRENCY_SYMBOLS, key=len, reverse=True))


# what spaCy sm leaves out of (or never makes) a numeric entity
_SUPPLEMENT = re.compile(
    rf"(?P<cur>{_SYM})\s?{_NUM}(?:\s?(?:thousand|million|billion|trillion|bn|mn|mln|bln|tn|k|m|b)\b)?"
    # CNN/DailyMail's lower-cased text writes "£" as "#": "# 200million", "#32,000", and
    # with a space any amount, "# 43-a-year" (a hashtag or a rank has no space: "#1")
    rf"|(?P<hash>#)(?:\s?(?:{_NUM}\s?(?:million|billion|bn|m|k)\b|\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?)"
    rf"|\s\d+(?:\.\d+)?(?![\d,]))"
    rf"|{_START}{_NUM}\s?(?:k|bn|mn|b)\b(?P<mult>)"
    rf"|{_START}{_NUM}\s?(?:%|per ?cent\b)(?P<pct>)"
    # temperatures: "80 °F", "-5°C", "30 degrees Celsius" (lexicon.TEMPERATURE_SCALES)
    rf"|{_START}{_NUM}{TEMPERATURE_PATTERN}(?P<temp>)"
    # numbers as written that spaCy cuts up or leaves out: "-40", "−5", "1e9", "10^400", "3×10⁹"
    rf"|{_START}{_NUM}{_EXPONENT_PLAIN}(?P<sci>)"
    rf"|{_SIGN_BEFORE}{_SIGN}{_NUM}(?P<signed>)",
    re.IGNORECASE,
)


#: how far before its first digit a supplement match may start: a currency symbol (at
#: most three characters) and one space, a "#" and one space, or a sign
_SUPPLEMENT_REACH = max(map(len, CURRENCY_SYMBOLS)) + 1


_HASHTAG_BEFORE = re.compile(r"[#@]\s?$")


_GLUED_UNIT = re.compile(r"(?<![\d,])\d[\d,]*(?:\.\d+)?([a-zA-Z]+)")  # used with fullmatch


_DIGIT_RUN = re.compile(r"\d+")


_MULTIPLY_RE = re.compile(r"\b(?:doubl|tripl|trebl|quadrupl|halv)(?:e|es|ed|ing)\b", re.I)


_PREP_YEAR = frozenset({"in", "since", "until", "till", "by", "from", "during", "before", "after"})


_RIGHT_EXTEND = frozenset(
    set(CURRENCY_WORDS) | {"million", "billion", "trillion", "thousand", "bn", "mn", "k", "%", "percent", "pc"}
)


def supplement_matches(text: str) -> Iterator[re.Match[str]]:
    """``_SUPPLEMENT.finditer(text)``, without trying every position of the text: each of
    its matches holds a number, and starts at most :data:`_SUPPLEMENT_REACH` characters
    before the number's first digit, never inside a run of digits (a number starts where
    no word character comes before it). So only the positions that close before a run of
    digits are tried, leftmost first, none before the end of the last match: the same
    matches (``tests/test_quantities.py`` compares them on generated texts), in about a
    tenth of the time on news articles, where digits are few."""
    resume = 0
    for digits in _DIGIT_RUN.finditer(text):
        for start in range(max(resume, digits.start() - _SUPPLEMENT_REACH), digits.start() + 1):
            found = _SUPPLEMENT.match(text, start)
            if found is not None:
                yield found
                resume = found.end()
                break
        else:
            resume = max(resume, digits.start() + 1)


#: the labels of the mentions that :func:`_joined_durations` may join
_DURATION_LABELS = frozenset({"TIME", "DATE", "QUANTITY"})


def _joined_durations(text: str, first: tuple[int, int, str], second: tuple[int, int, str]) -> bool:
    """Whether two mentions are the parts of one compound duration: both durations
    (TIME, DATE or QUANTITY spans that read as one, :func:`~.units._duration`), nothing but
    a comma or "and" between them, and :func:`~.units.compound_duration` of their units
    ("two hours, eight minutes and 44 seconds", which sm tags as two TIME entities;
    docs/papers.md#qhi-compound-durations)."""
    if (
        first[2] not in _DURATION_LABELS
        or second[2] not in _DURATION_LABELS
        or _DURATION_JOIN.fullmatch(text, first[1], second[0]) is None
    ):
        return False
    readings = [_duration(text[s:e]) for s, e, _ in (first, second)]
    if any(reading is None for reading in readings):
        return False  # "Sunday" is no duration
    # a comma counts when the second mention's own list ends in "and" ("two hours, eight
    # minutes and 44 seconds")
    closing = " and" if "and" in text[second[0] : second[1]].split() else ""
    return compound_duration(
        [reading.unit for reading in readings if reading is not None], [text[first[1] : second[0]] + closing]
    )


def _widen_month_days(doc, spans: list[list]) -> None:
    """A day number that spaCy sm read as a bare CARDINAL after a month written short
    ("Aug 3", "Apr 12": it tags "3" and "12" alone, while "Aug. 3" and "Mar 3, 2024" are
    DATEs) becomes the DATE "Aug 3", in place: a day of a month, not the number 3
    (docs/papers.md#qhi-month-abbreviations). The month must be capitalised as a name
    is, unless the text is all lower case ("may 3" in "they may 3 ..." is no date)."""
    lower_case = None
    for item in spans:
        if item[2] != "CARDINAL":
            continue
        span = doc.char_span(item[0], item[1], alignment_mode="expand")
        if span is None or len(span) != 1 or span.start == 0:
            continue
        month = doc[span.start - 1]
        if not month_before_day(month.text, span[0].text) or not 1 <= int(span[0].text) <= 31:
            continue
        if not month.text[:1].isupper():
            if lower_case is None:
                lower_case = has_no_upper(doc_text(doc))
            if not lower_case:
                continue
        item[0], item[2] = month.idx, "DATE"


def _candidates(doc, text: str) -> list[tuple[int, int, str]]:
    """Character spans and labels of the numeric mentions: spaCy's numeric
    entities widened by the regex supplement, plus what only the regex (or a
    stray digit token) finds. ``text`` is ``doc.text`` (built token by token by
    spaCy on every access, so it is computed once)."""
    spans: list[list] = []
    ents = doc.ents  # spaCy makes the entity spans anew on every access: read them once
    # dates that spaCy sm swallowed into a name ("Glamorgan on April 19", tagged FAC),
    # added after the widening below, which leaves dates alone
    swallowed: list[list] = []
    for ent in ents:
        if ent.label_ not in NUMERIC_LABELS:
            if any(t.like_num for t in ent):
                found = _MONTH_DAY.search(ent.text) or _DAY_MONTH.search(ent.text)
                if found is not None:
                    swallowed.append([ent.start_char + found.start(), ent.start_char + found.end(), "DATE"])
        else:
            label = ent.label_
            if label == "ORDINAL" and SCALED_NUMBER.fullmatch(ent.text):
                label = "CARDINAL"  # spaCy sm tags "12bn" ORDINAL
            elif label == "CARDINAL" and _CLOCK.fullmatch(ent.text):
                label = "TIME"  # spaCy sm tags "1.25pm" CARDINAL, "1.25 pm" TIME
            spans.append([ent.start_char, ent.end_char, label])
    # A supplement match overlaps an entity, widened or not, exactly when it overlaps the
    # entity as spaCy gave it (entities do not overlap, nor do finditer's matches), and it
    # never overlaps a match added before it: the overlapping entities are found by bisection.
    n_entities = len(spans)
    entity_starts = [item[0] for item in spans]
    entity_ends = [item[1] for item in spans]
    for match in supplement_matches(text):
        start, end = match.span()
        if match.group("cur") or match.group("hash"):
            label = "MONEY"
        elif match.group("pct") is not None:
            label = "PERCENT"
        elif match.group("temp") is not None:
            label = "QUANTITY"
        else:
            label = "CARDINAL"
        merged = False
        k = bisect_right(entity_ends, start)
        while k < n_entities and entity_starts[k] < end:
            item = spans[k]
            item[0], item[1] = min(item[0], start), max(item[1], end)
            if label != "CARDINAL" and item[2] in ("CARDINAL", "MONEY", "QUANTITY", "DATE"):
                item[2] = label
            elif match.group("sci") is not None and item[2] in ("ORDINAL", "DATE", "TIME"):
                item[2] = "CARDINAL"  # a written exponent ("6.9×10⁵") is neither a rank nor a date
            merged = True
            k += 1
        if not merged:
            spans.append([start, end, label])
    # right extension by tokens: "3.2 million euros", "4.5 per cent", "6" + "ft"
    for item in spans:
        if item[2] not in ("CARDINAL", "MONEY", "PERCENT", "QUANTITY"):
            continue
        span = doc.char_span(item[0], item[1], alignment_mode="expand")
        if span is None:
            continue
        i = span.end
        if item[2] in ("CARDINAL", "QUANTITY") and i < len(doc) and _unit_token(doc[i]):
            if _scale_before_currency(doc, i):
                item[2] = "MONEY"  # "950m kroner": million kroner, not 950 metres
            else:
                item[1], item[2] = doc[i].idx + len(doc[i].text), "QUANTITY"
                continue
        if item[2] == "QUANTITY":
            continue
        while i < len(doc):
            low = doc[i].lower_
            if (
                low in _RIGHT_EXTEND
                or doc[i].text in CURRENCY_CODES
                or (low == "per" and i + 1 < len(doc) and doc[i + 1].lower_ == "cent")
            ):
                i += 2 if low == "per" else 1
            elif low in ("pounds", "pound", "m") and item[2] == "MONEY":
                i += 1
            else:
                break
        if i > span.end:
            item[1] = doc[i - 1].idx + len(doc[i - 1].text)
    spans.extend(swallowed)
    covered: set[int] = set()
    for start, end, _ in spans:
        covered.update(range(start, end))
    done = set()
    # names holding a number, by token: a non-numeric entity with a word ("Apollo 11"), or
    # of numbers only right after a proper noun ("Boeing 747", where spaCy tags "747"
    # PRODUCT); numbers alone elsewhere are a number spaCy mislabelled ("counted
    # 3,878,793,156 people", tagged PRODUCT)
    in_name = {
        i
        for ent in ents
        if ent.label_ not in NUMERIC_LABELS
        and (not all(t.like_num for t in ent) or (ent.start > 0 and doc[ent.start - 1].pos_ == "PROPN"))
        for i in range(ent.start, score_start(ent))
    }
    for match in _DIGIT_RUN.finditer(text):  # digit tokens outside every mention
        if match.start() in covered:
            continue
        found = doc.char_span(match.start(), match.end(), alignment_mode="expand")
        if found is None or found[0].i in done:
            continue
        token = found[0]
        done.add(token.i)
        if token.idx in covered:
            continue
        label = "CARDINAL"
        if not token.like_num:
            glued = _GLUED_UNIT.fullmatch(token.text)
            if _CLOCK.fullmatch(token.text):
                label = "TIME"  # "12.30pm" outside any entity
            elif glued and _lookup_unit(glued.group(1)) is not None:
                label = "QUANTITY"  # "10km"
            else:
                continue
        if token.i in in_name:
            if label == "CARDINAL" and is_year_token(token):  # "the 2014 World Cup": the event's year
                spans.append([token.idx, token.idx + len(token.text), "DATE"])
            continue
        if token.like_url or token.like_email or (token.i > 0 and doc[token.i - 1].text in ("#", "@")):
            continue
        spans.append([token.idx, token.idx + len(token.text), label])
    _widen_month_days(doc, spans)
    # merge overlaps produced by the widening, keep text order
    spans.sort(key=lambda s: (s[0], -s[1]))
    out: list[tuple[int, int, str]] = []
    for start, end, label in spans:
        if out and start < out[-1][1]:
            last = out[-1]
            out[-1] = (last[0], max(last[1], end), last[2])
            continue
        if out and _joined_durations(text, out[-1], (start, end, label)):
            out[-1] = (out[-1][0], end, out[-1][2])  # "two hours, eight minutes and 44 seconds"
            continue
        if _HASHTAG_BEFORE.search(text, max(0, start - 2), start):  # hashtags, handles ("#7minutes")
            continue
        out.append((start, end, label))
    return out


def _scale_before_currency(doc, i: int) -> bool:
    """A scale word at token ``i`` ("m", "bn") followed by a currency word or code: the
    "m" of "950m kroner" is a million, not a metre."""
    return (
        doc[i].lower_ in SCALE_WORDS
        and i + 1 < len(doc)
        and (doc[i + 1].lower_ in CURRENCY_WORDS or doc[i + 1].text in CURRENCY_CODES)
    )


def _unit_token(token) -> bool:
    """A token right after a number that names a physical unit ("ft", "stone",
    "miles"), not a function word ("5 in 10")."""
    if token.is_stop or token.pos_ in ("ADP", "DET", "PRON", "CCONJ", "VERB", "AUX") or not token.is_alpha:
        return False
    return _lookup_unit(token.text) is not None


_YEAR = re.compile(YEAR_DIGITS)


def is_year_token(token) -> bool:
    """A token written as a year of 1500-2099 ("2014", not "747" or "2,014")."""
    return _YEAR.fullmatch(token.text) is not None


def _year_like_cardinal(span) -> bool:
    """A CARDINAL "2015" after "in"/"since"/... that modifies no noun is a year."""
    if len(span) != 1 or not is_year_token(span[0]):
        return False
    token = span[0]
    prev = token.doc[token.i - 1].lower_ if token.i > 0 else ""
    return prev in _PREP_YEAR and not (token.dep_ == "nummod" and token.head.pos_ == "NOUN")


def _modifiers_before(span) -> str:
    """Up to three tokens just before a mention that modify it ("about", "more
    than" when spaCy left them out); "talked about 5 players" gives ""."""
    doc, inside = span.doc, set(range(span.start, span.end))
    first = span.start
    for i in range(span.start - 1, max(-1, span.start - 4), -1):
        if doc[i].head.i in inside:
            inside.add(i)
            first = i
        else:
            break
    return doc[first : span.start].text


def _multiplication_verbs(doc, text: str, subjects: dict[int, str] | None = None) -> Iterable[QuantityUnit]:
    """ "doubled" / "tripled" / "halved" as percent changes (100 / 200 / 50)."""
    for match in _MULTIPLY_RE.finditer(text):
        found = doc.char_span(match.start(), match.end(), alignment_mode="expand")
        if found is None or len(found) != 1:
            continue
        token = found[0]
        if token.pos_ == "VERB" and token.lemma_.lower() in MULTIPLY_VERBS:
            lemma = token.lemma_.lower()
            yield QuantityUnit(
                qkind="percent",
                unit="",
                value=MULTIPLY_VERBS[lemma],
                text=token.text,
                span=(token.idx, token.idx + len(token.text)),
                anchor=_subject_of(token, subjects),
                approximate=False,
                direction="down" if lemma == "halve" else "up",
                derivations=frozenset({"change", "multiple"}),
            )
