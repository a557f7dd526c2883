"""Issue 57, class 5: a contiguous copy of whole tokens of the source that cuts no entity
and no quantity is consistent: chi and every defined index are exactly 1.0, with or
without sentence punctuation (halluscope.match.copies, halluscope.match.attribution;
docs/papers.md#attribution). Real spaCy parses of a long source the test writes itself."""

import bisect
import math
import random
import re

import pytest
from halluscope.api import score_chi, score_qhi
from halluscope.ehi.extract import extract_entities
from halluscope.match.copies import copied_passage, copied_span, sentence_words
from halluscope.qhi.extract import extract_quantities
from halluscope.resources import get_resources
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parsed import parse

NAMES = [
    "Maria Lopez",
    "John Carter",
    "Aisha Khan",
    "Peter Novak",
    "Li Wei",
    "Sarah Mensah",
    "Tom Baker",
    "Elena Petrova",
    "David Okafor",
    "Hannah Schmidt",
]
PLACES = ["Leeds", "Glasgow", "Cardiff", "Bristol", "Manchester", "Belfast", "Norwich", "Exeter"]
GROUPS = ["the city council", "the county board", "the water company", "the rail operator", "the hospital trust"]
THINGS = ["buses", "schools", "bridges", "clinics", "libraries", "parks"]
NUMBERS = ["two", "three", "five", "12", "40", "first", "second"]
TEMPLATES = [
    "{name} said {group} in {place} had spent £{n} million on {k} new {thing} since {year}",
    "The {ordinal} of the {thing} opened in {place} on Monday after {n} months of work",
    "{name} told reporters that {group} would hire {k} more staff in {place} by {year}",
    "Residents of {place} met {name} to discuss the {thing} and the {ordinal} phase of the plan",
    "{group} in {place} expects {k} of the {thing} to close for {n} weeks in {year}",
    "According to {name}, {place} received {n} complaints about the {thing} last year",
]


def news_text(sentences: int, punctuated: bool, seed: int = 7):
    """A news-like text whose names, places and numbers recur in many sentences (so a unit
    occurs several times), its sentences ended by periods or not at all; and the offsets
    where its sentences start."""
    draw = random.Random(seed)
    out = []
    for _ in range(sentences):
        out.append(
            draw.choice(TEMPLATES).format(
                name=draw.choice(NAMES),
                place=draw.choice(PLACES),
                group=draw.choice(GROUPS),
                thing=draw.choice(THINGS),
                n=draw.randint(2, 90),
                k=draw.choice(NUMBERS),
                ordinal=draw.choice(["first", "second", "third"]),
                year=draw.choice([2019, 2020, 2021, 2022]),
            )
        )
    separator = ". " if punctuated else " "
    starts = [sum(len(o) + len(separator) for o in out[:k]) for k in range(len(out))]
    return separator.join(out) + ("." if punctuated else ""), frozenset(starts)


# sentences of other shapes, written once each: appositions, relative clauses, quotes,
# passives, pronouns, amounts, percentages, dates and ages
VARIED = (
    "Sarah Mensah, who runs the clinic in Cardiff, said the trust had cut waiting times by 12% since March 2021. "
    "The board's chairman, Peter Novak, was arrested by police in Leeds on Monday after a two-year inquiry. "
    "Shares of Globex rose 3.5% to $41.20 on Tuesday, while Acme's stock fell after it sold its stake to Initech. "
    '"We will not close the library," Hannah Schmidt told the BBC, adding that 40 jobs were safe. '
    "In 2019 the company paid $3 billion for the rail operator, which had lost money for five years. "
    "Police said the man, 34, was taken to hospital in Bristol where he died of his injuries on Friday. "
    "The second phase of the plan will cost about £250 million and create 1,200 jobs in Norwich. "
    "David Okafor scored twice as Exeter beat Glasgow 3-1, their first win since the club was sold in January. "
    "According to Maria Lopez, the council received 61 complaints about the buses last year. "
    "He got pulled over by officers near Belfast, and they found a knife in his car. "
    "Tom Baker, the club's manager, told reporters he would not resign despite three defeats in a row. "
    "The hospital trust has hired 25 nurses and plans to open a third ward by the end of 2022. "
    "Elena Petrova won the race in 2 hours 14 minutes, beating the world champion by seven seconds. "
    "Li Wei, 61, who founded the firm in 1988, stepped down as chief executive on Wednesday. "
    "The minister denied that the government had misled parliament over the £4.5 billion deal. "
    "Two men were charged with murder after the body of a woman was found in a flat in Manchester. "
    "Aisha Khan, a teacher from Leeds, said her pupils had raised £3,000 for the charity. "
    "It was the first time the bridge had been closed since it opened in 1966, officials said."
)
_SENTENCE_END = re.compile(r"(?<=\S)[.!?]+(?=\s|$)")

UNPUNCTUATED, UNPUNCTUATED_STARTS = news_text(260, punctuated=False)
PUNCTUATED, PUNCTUATED_STARTS = news_text(260, punctuated=True)


def _cut_points(text: str, openings=None):
    """(starts, ends): the character offsets where a copy may start (any word's start, or
    only ``openings`` when given) and end (any word's end), none strictly inside an entity
    (spaCy's or halluscope's) or a quantity of the text's parse."""
    doc = parse(text)
    units = [*doc.ents, *extract_entities(doc), *extract_quantities(doc)]
    spans = [(u.start_char, u.end_char) if hasattr(u, "start_char") else tuple(u.span) for u in units]
    inside = {offset for start, end in spans for offset in range(start + 1, end)}
    words = [t for t in doc if not (t.is_space or t.is_punct)]
    starts = [t.idx for t in words if t.idx not in inside and (openings is None or t.idx in openings)]
    ends = [t.idx + len(t.text) for t in words if t.idx + len(t.text) not in inside]
    return starts, ends


def _points(text, openings=None):
    starts, ends = _cut_points(text, openings)
    return text, starts, ends


# copies start at sentence starts (the first three) or at any word (the others: inside a
# clause, "Sarah Mensah, the council received ..." without its "According to")
SOURCES = {
    "unpunctuated": (UNPUNCTUATED, UNPUNCTUATED_STARTS),
    "punctuated": (PUNCTUATED, PUNCTUATED_STARTS),
    "unpunctuated, any word": (UNPUNCTUATED, None),
    "varied, any word": (VARIED, None),
    "varied unpunctuated, any word": (_SENTENCE_END.sub("", VARIED), None),
}


_POINTS = {}


def points(name: str):
    """(text, starts, ends) of a source, computed once."""
    if name not in _POINTS:
        _POINTS[name] = _points(*SOURCES[name])
    return _POINTS[name]


@pytest.fixture(scope="module", params=sorted(SOURCES))
def source(request):
    return request.param  # the name only, so that a failing example prints short


def _copy(text, starts, ends, first: int, length: int) -> str:
    start = starts[first % len(starts)]
    end_at = bisect.bisect_left(ends, start + length)
    return text[start : ends[min(end_at, len(ends) - 1)]]


def _assert_consistent(copy: str, text: str) -> None:
    result = score_chi([copy], [text], return_details=True)
    values = {name: result.per_example[name][0] for name in ("chi", "ehi", "rhi", "qhi")}
    assert values["chi"] == 1.0, (copy, values)
    for name in ("ehi", "rhi", "qhi"):
        assert math.isnan(values[name]) or values[name] == 1.0, (name, copy, result.details[0][name])


@settings(max_examples=10, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=st.integers(min_value=0, max_value=10**6), length=st.integers(min_value=20, max_value=4000))
def test_a_contiguous_copy_that_cuts_no_unit_scores_one(source, first, length):
    text, starts, ends = points(source)
    _assert_consistent(_copy(text, starts, ends, first, length), text)


def test_copies_of_most_of_a_long_unpunctuated_text_score_one():
    text, starts, ends = points("unpunctuated")
    assert len(text) > 20_000
    for first, length in ((0, len(text)), (len(starts) // 4, 12_000)):
        _assert_consistent(_copy(text, starts, ends, first, length), text)


def test_a_copy_that_cuts_a_quantity_is_not_forced_to_one():
    text = (
        "The government said on Tuesday that it would spend $3 billion on new roads in the north "
        "over the next decade, officials said, and the plan was welcomed by local leaders"
    )
    whole = text[: text.index(" on new roads")]  # "... would spend $3 billion"
    cut = text[: text.index(" billion")]  # "... would spend $3": another amount
    assert score_qhi([whole], [text])["qhi_scores"] == [1.0]
    assert score_qhi([cut], [text])["qhi_scores"][0] < 1.0
    assert score_chi([cut], [text])["chi_scores"][0] < 1.0


def test_copied_passage_reads_words_as_written_and_anchors_on_the_rarest_ngram():
    resources = get_resources()
    source = resources.text_index(parse("Smith met Jones in Leeds. Jones left, and Smith stayed in Leeds"))
    summary = resources.text_index(parse("Leeds Jones left and Smith. Smith met Leeds."))
    # across the source's sentence boundary, punctuation between words ignored
    assert sentence_words(summary, 0) == ("leeds", "jones", "left", "and", "smith")
    assert copied_passage(sentence_words(summary, 0), source) is True
    assert copied_passage(("smith", "met", "leeds"), source) is False
    assert copied_passage(("leeds",), source) is True and copied_passage(("paris",), source) is False
    assert copied_passage((), source) is False


def test_a_unit_without_content_words_is_attributed_to_its_best_occurrence():
    # "first" is a stop word: before, only the sentence of its match evidence (the first
    # "first") held it, and that sentence holds none of the rest of the summary sentence
    source = (
        "The first train left York at noon. Crowds cheered in Derby as the first bus of "
        "the new route arrived on Monday."
    )
    result = score_qhi(["Crowds cheered in Derby as the first new bus arrived."], [source], return_details=True)
    [first] = [u for u in result.details[0]["qhi"]["units"] if u["text"] == "first"]
    assert first["attribution"] == 1.0
    assert result["qhi_scores"] == [1.0]


def _units(result, name: str) -> dict[str, dict]:
    return {u["text"]: u for u in result.details[0][name]["units"]}


def test_a_relation_the_copy_parses_otherwise_is_supported_by_the_passage():
    # the source's parse resolves "the club" to the player (its triple: david okafor,
    # sell); the copy's parse reads the club, as the text does
    source = "David Okafor scored twice as Exeter beat Glasgow 3-1, their first win since the club was sold in January."
    copy = "the club was sold in January"
    result = score_chi([copy], [source], return_details=True)
    sold = _units(result, "rhi")["club was sold"]
    assert sold["key"] == ["club", "sell", ""]
    assert sold["status"] == "supported" and sold["in_source"]["mode"] == "text"
    assert sold["in_source"]["evidence"] == [{"text": "club was sold", "span": [80, 93]}]
    assert [result.per_example[name][0] for name in ("chi", "rhi", "qhi")] == [1.0, 1.0, 1.0]


def test_a_copy_that_starts_inside_a_clause_scores_one():
    # without "According to", the copy's parse reads another subject for "received"
    text, starts, ends = points("varied, any word")
    copy = text[text.index("Maria Lopez, the council") : text.index(" He got pulled")]
    _assert_consistent(copy, text)
    _assert_consistent(copy.rstrip("."), _SENTENCE_END.sub("", text))


def test_a_quantity_the_copy_reads_with_another_direction_is_supported_by_the_passage():
    # the copy starts after "Shares of Globex rose": its parse hangs 3.5% on "fell"
    copy = "3.5% to $41.20 on Tuesday, while Acme's stock fell after it sold its stake to Initech."
    result = score_qhi([copy], [VARIED], return_details=True)
    units = _units(result, "qhi")
    assert units["3.5%"]["in_source"]["mode"] == "text" and units["3.5%"]["status"] == "supported"
    assert units["$41.20"]["status"] == "supported"
    assert result["qhi_scores"] == [1.0]


def test_a_copy_that_cuts_an_amount_inside_a_relation_is_not_forced_to_one():
    copy = VARIED[: VARIED.index(" billion for the rail")]  # "... In 2019 the company paid $3"
    result = score_chi([copy], [VARIED], return_details=True)
    assert _units(result, "qhi")["$3"]["status"] != "supported"
    assert result.per_example["qhi"][0] < 1.0 and result.per_example["chi"][0] < 1.0


def test_copied_span_maps_a_unit_into_the_passage_and_refuses_a_cut_entity():
    resources = get_resources()
    source = resources.text_index(parse("Talks with the Bank of England ended on Friday. Prices fell."))
    whole = resources.text_index(parse("Talks with the Bank of England ended"))
    cut = resources.text_index(parse("Talks with the Bank"))
    assert source.entity_at(source.text.index("England")) == (11, 30)  # "the Bank of England"
    assert source.entity_at(0) is None
    assert copied_span((11, 30), whole, source) == (11, 30)
    assert copied_span((0, 5), whole, source) == (0, 5)  # "Talks", no entity around it
    assert copied_span((15, 19), cut, source) is None  # "Bank" of a passage cut inside the name
    assert copied_span((0, 5), cut, source) == (0, 5)  # a word outside the cut name


def test_a_copy_that_cuts_a_verbs_argument_is_not_supported_by_the_passage():
    # the copy drops the head of the subject: it says the EU is forced, which the source
    # does not; the same words with the whole subject are supported
    source = (
        "Foreigners from outside the EU will be forced to provide a criminal records certificate "
        "from their home country before being given a visa."
    )
    cut = "EU will be forced to provide a criminal records certificate from their home country."
    whole = "Foreigners from outside the EU will be forced to provide a criminal records certificate."
    result = score_chi([cut, whole], [source, source], return_details=True)
    [provided] = [u for u in result.details[0]["rhi"]["units"] if u["key"][1] == "provide"]
    assert provided["key"][0] == "eu" and provided["status"] == "unsupported"
    assert result.per_example["rhi"][0] < 1.0 and result.per_example["chi"][0] < 1.0
    assert result.per_example["rhi"][1] == 1.0 and result.per_example["chi"][1] == 1.0
