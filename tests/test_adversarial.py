"""Pathological inputs cost linear time (issue 15, bounded cost): the tokenisation
guard before spaCy, the rewritten regexes of quantity extraction (same results as
before, checked by hand below) and the indexed quantity matching. Timings are not
asserted here (benchmarks/adversarial.py measures them) except as a generous
per-call deadline in the property test."""

import datetime

import pytest
from halluscope.parsing import GUARD_CHUNK, GUARD_RUN, guarded_doc
from halluscope.qhi.dates import _DATE_RANGE_SPLIT, _date_readings
from halluscope.qhi.extract import _readings, extract_quantities
from halluscope.qhi.match import QuantityMatcher
from halluscope.qhi.measures import _duration, _measure_readings
from halluscope.qhi.numbers import _ordinal_value
from halluscope.resources import get_parse_cache
from halluscope.units import QuantityUnit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parsed import parse


@pytest.fixture(scope="module")
def nlp():
    return get_parse_cache().nlp


# ------------------------------------------------------------ tokenisation guard


def test_ordinary_text_is_tokenised_by_spacy_itself(nlp):
    text = (
        'He said "wait..." -- then left (quickly)!! The score was 3-1... '
        + "." * 75
        + " and ?!?! at 5pm; e-mail: a@b.com, see https://example.com/a-b_c?x=1."
    )
    guarded = guarded_doc(nlp, text)
    plain = nlp.make_doc(text)
    assert [(t.text, t.whitespace_) for t in guarded] == [(t.text, t.whitespace_) for t in plain]


def test_a_long_punctuation_run_is_one_token(nlp):
    doc = guarded_doc(nlp, ")" * 19_980)
    assert len(doc) == 1 and doc.text == ")" * 19_980


def test_runs_just_below_and_at_the_threshold(nlp):
    below = "ab " + ")" * (GUARD_RUN - 1) + " cd"
    assert [t.text for t in guarded_doc(nlp, below)] == [t.text for t in nlp.make_doc(below)]
    at = "ab " + ")" * GUARD_RUN + "  cd."
    doc = guarded_doc(nlp, at)
    # the run keeps one following space as its own; the second space is spaCy's usual space token
    assert [(t.text, t.whitespace_) for t in doc] == [
        ("ab", " "),
        (")" * GUARD_RUN, " "),
        (" ", ""),
        ("cd", ""),
        (".", ""),
    ]
    assert doc.text == at


def test_a_long_whitespace_free_stretch_is_one_token_and_offsets_hold(nlp):
    digits = "9" * 9_990
    text = "It happened in " + digits + "-" + digits + "."
    doc = guarded_doc(nlp, text)
    assert [t.text for t in doc] == ["It", "happened", "in", digits + "-" + digits + "."]
    assert doc[3].idx == 15 and doc.text == text
    chain = "x " + "a-" * (GUARD_CHUNK // 2) + " y"
    assert [t.text for t in guarded_doc(nlp, chain)] == ["x", "a-" * (GUARD_CHUNK // 2), "y"]


def test_parsed_pathological_source_gives_no_quantities():
    digits = "9" * 9_990
    assert extract_quantities(parse("It happened in " + digits + "-" + digits + ".")) == []
    assert extract_quantities(parse(")" * 19_980)) == []


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["a", "1", " ", "  ", ")", "(" * 60, "-" * 130, "x" * 700, "é", "\n", ".", "_" * 50, "9" * 400]
        ),
        max_size=12,
    )
)
def test_guarded_doc_keeps_the_text_exactly(nlp, pieces):
    text = "".join(pieces)
    assert guarded_doc(nlp, text).text == text


# --------------------------------------------- rewritten regexes: same readings


def test_duration_readings_unchanged_on_hand_checked_cases():
    assert (_duration("22-year-old").unit, _duration("22-year-old").value) == ("year", 22.0)
    assert _duration("half an hour").value == 0.5
    assert _duration("behalf an hour").value == 0.5  # "half an" found inside the word, as before
    assert (_duration("x12 years").unit, _duration("x12 years").value) == ("year", 12.0)
    assert _duration("five  -  week break").value == 5.0
    assert _duration("1" * 4_000) is None and _duration("a" * 4_000) is None


def test_ordinal_value_unchanged_on_hand_checked_cases():
    assert _ordinal_value("the 1,234th day") == 1234.0
    assert _ordinal_value(",5th") == 5.0
    assert _ordinal_value("12 3rd") == 3.0
    assert _ordinal_value("twenty-first") == 21.0
    assert _ordinal_value("1," * 3_000) is None


def test_measure_reading_reads_the_number_before_its_unit():
    readings = _measure_readings("one hundred and twenty-five thousand kilometres")
    assert [(r.qkind, r.unit, r.value) for r in readings] == [("measure", "kilometre", 125000.0)]
    assert [(r.unit, r.value) for r in _measure_readings("6ft 2in")] == [("foot", 6.0), ("inch", 2.0)]


def test_date_range_split_on_collapsed_whitespace():
    assert _DATE_RANGE_SPLIT.split("friday to monday") == ["friday", "monday"]
    assert _DATE_RANGE_SPLIT.split("march – april 2015") == ["march", "april 2015"]
    # each end is a date: "march" alone has no year, so it stays relative
    assert [(r.unit, r.relative, r.interval) for r in _date_readings("March and April 2015")] == [
        ("month", "march", None),
        ("month", "", ("2015-04-01", "2015-04-30")),
    ]


ADVERSARIAL_UNITS = [
    "1",
    "a",
    "A",
    "1-",
    "a-",
    " ",
    "1 ",
    "1,",
    "1.",
    ")",
    "a1",
    "year ",
    "1 year ",
    "1,,",
    "5pm ",
    "- ",
    " to ",
    "March 5 ",
    "a" + " " * 50,
    "1e",
    "-1e9 ",
    "10^",
    "×10",
    "7,5 ",
]
LABELS = ["DATE", "TIME", "ORDINAL", "CARDINAL", "QUANTITY", "MONEY", "PERCENT"]


@settings(
    max_examples=60,
    deadline=datetime.timedelta(seconds=5),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    st.sampled_from(ADVERSARIAL_UNITS),
    st.sampled_from(ADVERSARIAL_UNITS),
    st.integers(1_000, 8_000),
    st.sampled_from(LABELS),
)
def test_readings_of_adversarial_mentions_finish_quickly(first, second, length, label):
    """A mention of up to 8,000 characters built from two repeated pieces: reading it
    takes well under the deadline (quadratic patterns took 10-30 s at 4,000)."""
    text = ((first + second) * (length // len(first + second) + 1))[:length]
    for reading in _readings(text, label):
        assert reading.qkind in ("number", "money", "percent", "measure", "ordinal", "date", "time")


@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=datetime.timedelta(seconds=10),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.sampled_from(ADVERSARIAL_UNITS + ["$1m ", "5% ", "((", "?!", "-"]), st.integers(2_000, 8_000))
def test_extraction_of_adversarial_texts_finishes_quickly(unit, length):
    text = (unit * (length // len(unit) + 1))[:length]
    units = extract_quantities(parse(text))
    assert all(u.span[1] <= length for u in units)


# ------------------------------------------------------------- indexed matching


def number(value, anchor="", approximate=False, at=0):
    return QuantityUnit("number", "", float(value), str(value), (at, at + 1), anchor=anchor, approximate=approximate)


def test_epsilon_on_a_large_pool_picks_the_anchor_then_the_closest_then_the_first():
    pool = [number(v, at=i) for i, v in enumerate(range(1000, 3000))]
    pool += [number(2410, anchor="price", at=5000), number(2390, anchor="price", at=5001)]
    matcher = QuantityMatcher(derived=False)
    # 2400.5: the two anchored values (rel. error 0.0040 and 0.0044) beat 2400 and 2401 (0.0002)
    match = matcher.match([number(2400.5, anchor="price")], pool)[0]
    assert match.mode == "epsilon" and match.evidence[0].value == 2410.0
    # without an anchor: the closest in relative error, 2401 (0.5 / 2401 < 0.5 / 2400.5)
    match = matcher.match([number(2400.5)], pool)[0]
    assert match.evidence[0].value == 2401.0
    # equally close values: the first in text order (1900 is 100 / 2000 = 0.05 off, 2090 0.043)
    assert matcher.match([number(2000)], [number(1900, at=1), number(2090, at=2), number(2090, at=3)])[0].evidence[
        0
    ].span == (2, 3)
    # nothing within 5% of 5000 (2999 is 40% off), and -2000 matches no positive value
    assert matcher.match([number(5000), number(-2000)], pool) == [None, None]
    # the band edges: 1000 / 0.95 = 1052.63 is within 5% of 1000, 1053 is not
    edge = matcher.match([number(1052.63), number(1053.5)], [number(1000)])
    assert edge[0].mode == "epsilon" and edge[1] is None


def test_temporal_on_a_large_pool_finds_containing_and_contained_intervals():
    def date(start, end, unit="day", at=0):
        return QuantityUnit("date", unit, None, start, (at, at + 1), interval=(start, end))

    pool = [date(f"{y}-01-01", f"{y}-12-31", "year", i) for i, y in enumerate(range(1500, 2100))]
    pool.append(date("2010-03-01", "2010-03-31", "month", 700))
    pool.append(date("2001-01-01", "2003-12-31", "year", 701))
    matcher = QuantityMatcher()
    inside = matcher.match([date("2015-03-04", "2015-03-04")], pool)[0]
    assert inside.mode == "temporal" and inside.evidence[0].interval == ("2015-01-01", "2015-12-31")
    assert "inside" in inside.detail
    # a day in March 2010: the month wins over the year (the smaller spread)
    assert matcher.match([date("2010-03-04", "2010-03-04")], pool)[0].evidence[0].unit == "month"
    # 2001-2004 contains the three-year interval and the years 2001..2004: the closest spread is 2001-2003
    wide = matcher.match([date("2001-01-01", "2004-12-31", "year")], pool)[0]
    assert wide.evidence[0].interval == ("2001-01-01", "2003-12-31") and "contains" in wide.detail
    assert matcher.match([date("1400-05-01", "1400-05-01")], pool) == [None]
