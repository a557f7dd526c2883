"""Unicode forms that cannot change meaning are read as their plain forms (issue 57,
class 4; docs/api.md#unicode-forms-read-as-ascii): a summary or source written with
Unicode digits, full-width forms, soft hyphens or zero-width characters scores exactly
as its ASCII form on chi, ehi, rhi and qhi, and every span of the details indexes the
text the caller gave."""

import string
import unicodedata

import pytest
from halluscope import Resources, Scorer, api
from halluscope.text_forms import REMOVED, read_batch, read_text
from halluscope.validation import validate_inputs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: one digit zero of each script a digit may be disguised in (each is followed by the
#: other nine in Unicode): ASCII, full-width, Arabic-Indic, Extended Arabic-Indic,
#: Devanagari, Bengali, Thai, mathematical bold
DIGIT_ZEROS = "0\uff10\u0660\u06f0\u0966\u09e6\u0e50\U0001d7ce"
FULL_WIDTH_OFFSET = 0xFEE0  # "!" (U+0021) + offset = "！" (U+FF01), up to "~"
METRICS = ("chi", "ehi", "rhi", "qhi")


# ------------------------------------------------------------------ disguising a text


@st.composite
def disguised(draw, text, removals=True):
    """``text`` with each digit in a script drawn from :data:`DIGIT_ZEROS`, each other
    printable ASCII character kept or written full-width, each space kept or written as
    the ideographic space, and (``removals``) a removed character drawn after some
    characters."""
    out = [draw(st.sampled_from(REMOVED))] if removals and draw(st.integers(0, 5)) == 0 else []
    for char in text:
        if char.isdigit():
            zero = draw(st.sampled_from(DIGIT_ZEROS))
            out.append(chr(ord(zero) + int(char)))
        elif "!" <= char <= "~":
            out.append(chr(ord(char) + FULL_WIDTH_OFFSET) if draw(st.booleans()) else char)
        elif char == " ":
            out.append(draw(st.sampled_from([" ", " ", "\u3000"])))
        else:
            out.append(char)
        if removals and draw(st.integers(0, 5)) == 0:
            out.append(draw(st.sampled_from(REMOVED)))
    return "".join(out)


ASCII_TEXT = st.text(alphabet=string.printable, max_size=80)


# ------------------------------------------------------------------------- read_text


@settings(max_examples=300, deadline=None)
@given(st.data(), ASCII_TEXT)
def test_a_disguised_ascii_text_is_read_as_that_text(data, text):
    form = read_text(data.draw(disguised(text)))
    assert form.read == text


@settings(max_examples=300, deadline=None)
@given(st.data(), ASCII_TEXT, st.integers(0, 80), st.integers(0, 80))
def test_a_span_of_the_text_read_is_the_same_piece_of_the_text_given(data, text, a, b):
    given_text = data.draw(disguised(text))
    form = read_text(given_text)
    start, end = sorted((min(a, len(text)), min(b, len(text))))
    given_start, given_end = form.given_span((start, end))
    piece = given_text[given_start:given_end]
    assert read_text(piece).read == text[start:end]
    # the characters before the span are those read before it: offsets correspond
    assert len(read_text(given_text[:given_start]).read) == start
    if end > start:  # a removed character at either edge stays outside the span
        assert piece[0] not in REMOVED and piece[-1] not in REMOVED
    else:
        assert given_start == given_end


@pytest.mark.parametrize(
    "text",
    [
        "Apple said sales rose 12% to $4.2 billion in 2023.",
        "Café naïve: “quoted” – 東京 ½ ² ﬁ Ⅻ ① € ¥ £ \u00a0non-breaking ‑hyphen\u2009thin",
        "",
    ],
)
def test_a_text_without_those_forms_is_read_as_the_same_object(text):
    form = read_text(text)
    assert form.read is text and form.kept is None and not form.changed
    assert form.given_span((0, len(text))) == (0, len(text))


def test_every_decimal_digit_is_read_as_its_ascii_digit():
    digits = [chr(code) for code in range(0x110000) if unicodedata.category(chr(code)) == "Nd"]
    assert len(digits) > 600  # every script's, not only those DIGIT_ZEROS names
    assert read_text("".join(digits)).read == "".join(str(unicodedata.decimal(d)) for d in digits)
    # superscripts, fractions and circled numbers are not decimal digits: they stay
    assert read_text("x² ½ ①").read == "x² ½ ①"


def test_the_full_width_forms_and_removed_characters():
    assert read_text("Ａｐｐｌｅ ％＄！～\u3000").read == "Apple %$!~ "
    assert read_text("\uffe1\uffe5\uffe0\uffe6\uffe3").read == "£¥¢₩\uffe3"  # the macron is two characters in NFKC
    form = read_text("1\u00ad000 Git\u200bHub\u200c\u200d\u2060\ufeff.")
    assert form.read == "1000 GitHub." and form.kept.tolist() == [0, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 17]
    assert form.given_span((0, 4)) == (0, 5) and form.given_span((5, 11)) == (6, 13)
    assert form.given_span((11, 12)) == (17, 18) and form.given_span((12, 12)) == (18, 18)


# ------------------------------------------------------------------ scoring, by example

SOURCE = "Apple said sales rose 12% to 1,000 units in 2023. Microsoft acquired GitHub for $7.5 billion in 2018."


@pytest.mark.parametrize(
    "summary, units",
    [
        ("Ａｐｐｌｅ said sales rose １２% in ٢٠٢٣.", {"qhi": ["１２%", "٢٠٢٣"], "ehi": ["Ａｐｐｌｅ"]}),
        ("Apple said sales rose 12% to 1\u00ad000 units.", {"qhi": ["12%", "1\u00ad000"], "ehi": ["Apple"]}),
        (
            "Microsoft acquired Git\u200bHub for $７.５ billion in ۲۰۱۸.",
            {"qhi": ["$７.５ billion", "۲۰۱۸"], "ehi": ["Microsoft", "Git\u200bHub"]},
        ),
    ],
)
def test_the_issues_examples_score_as_their_ascii_form(summary, units):
    ascii_summary = read_text(summary).read
    assert ascii_summary.isascii()
    result = api.score_chi([summary, ascii_summary], [SOURCE, SOURCE], return_details=True)
    for name in ("chi", "ehi", "rhi", "qhi"):
        assert repr(result[f"{name}_scores"][0]) == repr(result[f"{name}_scores"][1])
    details = result["details"][0]
    for dimension, texts in units.items():
        written = [unit["text"] for unit in details[dimension]["units"]]
        assert written == texts
        for unit in details[dimension]["units"]:
            assert summary[unit["span"][0] : unit["span"][1]] == unit["text"] and unit["status"] == "supported"
    assert result["details"][0]["qhi"]["units"][0]["key"] == result["details"][1]["qhi"]["units"][0]["key"]


def test_a_disguised_source_gives_its_own_evidence_spans():
    source = "Ａｐｐｌｅ said sales rose １２% to 1\u00ad000 units in ٢٠٢٣."
    result = api.score_qhi(["Apple said sales rose 12% to 1000 units."], [source], return_details=True)
    evidence = [unit["in_source"]["evidence"][0] for unit in result["details"][0]["qhi"]["units"]]
    assert [e["text"] for e in evidence] == ["１２%", "1\u00ad000"]
    assert all(source[e["span"][0] : e["span"][1]] == e["text"] for e in evidence)
    assert result["qhi_scores"] == [1.0]


def test_a_disguised_reference_gives_its_own_evidence_spans():
    reference = "\u200bＡｐｐｌｅ sales rose １\u00ad２% in 2023."
    result = api.score_qhi(["Apple said sales rose 12% in 2023."], [SOURCE], [reference], return_details=True)
    units = result["details"][0]["qhi"]["units"]
    evidence = [unit["in_reference"]["evidence"][0] for unit in units]
    assert [(e["text"], e["span"]) for e in evidence] == [("１\u00ad２%", [18, 22]), ("2023", [26, 30])]
    assert [unit["in_source"]["evidence"][0]["text"] for unit in units] == ["12%", "2023"]


def test_a_batch_without_those_forms_is_the_same_batch_and_its_rows_the_same_details():
    ordinary = "Café naïve: “quoted” – 東京 ² ½ \u00a0 12%"
    batch = validate_inputs([ordinary, "Sales rose 12%."], [SOURCE, SOURCE], [ordinary, ""])
    read, forms = read_batch(batch)
    assert read is batch and forms is None
    mixed = validate_inputs([ordinary, "Sales rose １２%."], [SOURCE, SOURCE])
    read, forms = read_batch(mixed)
    assert read.predictions[0] is ordinary and read.predictions[1] == "Sales rose 12%."
    assert read.sources[0] is SOURCE and read.sources[1] is SOURCE
    rows = [
        {"qhi": {"units": [{"text": "12%", "span": [38, 41]}]}},
        {"qhi": {"units": [{"text": "12%", "span": [11, 14]}]}},
    ]
    mapped = forms.given_details(rows)
    assert mapped[0] is rows[0]  # a row read as given is not copied
    assert mapped[1] == {"qhi": {"units": [{"text": "１２%", "span": [11, 14]}]}}


def test_a_row_and_its_ascii_twin_share_one_parse_and_keep_their_own_spans():
    resources = Resources()
    scorer = Scorer("qhi", resources=resources, load=False)
    ascii_summary = "Apple said sales rose 12% in 2023."
    first = scorer.score([ascii_summary], [SOURCE], return_details=True)
    cache = resources.parse_cache()
    parsed = cache.parsed
    twin = "Apple said sales rose \uff11\uff12% in \u0662\u0660\u0662\u0663\u00ad."
    second = scorer.score([twin], [SOURCE], return_details=True)
    assert cache.parsed == parsed  # the twin's text as read is the parse cached for the ASCII row
    assert second["qhi_scores"] == first["qhi_scores"] == [1.0]
    assert [u["span"] for u in first["details"][0]["qhi"]["units"]] == [[22, 25], [29, 33]]
    assert [(u["text"], u["span"]) for u in second["details"][0]["qhi"]["units"]] == [
        ("\uff11\uff12%", [22, 25]),
        ("\u0662\u0660\u0662\u0663", [29, 33]),
    ]
    # and the ASCII row again after the twin: its own spans, not the twin's
    third = scorer.score([ascii_summary], [SOURCE], return_details=True)
    assert third["details"] == first["details"]


def test_the_space_marks_the_units_as_written():
    from halluscope.space.display import score_for_display

    summary = "Ａｐ\u00adｐｌｅ said sales rose １２% in ٢٠٢٣."  # the soft hyphen shifts every unit after it
    display = score_for_display(SOURCE, "", summary, ["qhi"])
    assert display["ok"] is True
    assert (
        ">\uff11\uff12%</mark>" in display["summary_html"]
        and ">\u0662\u0660\u0662\u0663</mark>" in display["summary_html"]
    )


# ------------------------------------------------------------- scoring, as a property

NAMES = ["Apple", "Microsoft", "GitHub", "Google"]
PEOPLE = ["Steve Jobs", "Angela Merkel", "Barack Obama"]
CITIES = ["Berlin", "Paris", "Cupertino"]


@st.composite
def rows(draw):
    """An ASCII (summary, source, reference) with names and numbers that the summary
    repeats or changes, so that units are supported and unsupported."""
    org, person, city = draw(st.sampled_from(NAMES)), draw(st.sampled_from(PEOPLE)), draw(st.sampled_from(CITIES))
    percent, billions = draw(st.integers(1, 99)), draw(st.integers(1, 99))
    year, aides = draw(st.integers(1950, 2030)), draw(st.integers(2, 5000))
    source = (
        f"{org} said sales rose {percent}% to ${billions / 10} billion in {year}. "
        f"{person} visited {city} on Monday with {aides:,} aides."
    )

    def maybe(value, other):
        return draw(st.sampled_from([value, other]))

    summary = (
        f"{maybe(org, draw(st.sampled_from(NAMES)))} said sales rose {maybe(percent, percent + 7)}% in "
        f"{maybe(year, year - 1)}. {maybe(person, draw(st.sampled_from(PEOPLE)))} visited "
        f"{maybe(city, draw(st.sampled_from(CITIES)))} with {maybe(aides, aides * 2)} aides."
    )
    reference = draw(st.sampled_from(["", f"{org} sales rose {percent}% in {year}."]))
    return summary, source, reference


def _pairs(details, texts, where="summary", reference_index=None):
    """Every ``{"text", "span"}`` entry of a row's details, in order, with the text it
    quotes: the summary, the source (``in_source``, ``nearest_in_source``) or the
    dimension's reference (``in_reference``)."""
    if isinstance(details, list):
        for item in details:
            yield from _pairs(item, texts, where, reference_index)
        return
    if not isinstance(details, dict):
        return
    if details.get("reference_index") is not None:
        reference_index = details["reference_index"]
    if "span" in details and "text" in details:
        yield details, (texts[where] if where != "reference" else texts["references"][reference_index])
    for key, value in details.items():
        inner = {"in_source": "source", "nearest_in_source": "source", "in_reference": "reference"}.get(key, where)
        yield from _pairs(value, texts, inner, reference_index)


def _without_spans(details):
    if isinstance(details, list):
        return [_without_spans(item) for item in details]
    if isinstance(details, dict):
        return {k: _without_spans(v) for k, v in details.items() if k not in ("text", "span")}
    return details


@pytest.mark.parametrize("metric", METRICS)
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(data=st.data(), row=rows())
def test_a_disguised_row_scores_exactly_as_its_ascii_form(metric, data, row):
    summary, source, reference = row
    given_summary, given_source = data.draw(disguised(summary)), data.draw(disguised(source))
    given_reference = data.draw(disguised(reference)) if reference else ""
    result = api.score_metric(
        metric, [summary, given_summary], [source, given_source], [reference, given_reference], return_details=True
    )
    names = [name for name in result if name.endswith("_scores")]
    for name in names:
        assert repr(result[name][0]) == repr(result[name][1]), name
    plain, disguised_details = result["details"]
    assert _without_spans(plain) == _without_spans(disguised_details)
    texts = {"summary": given_summary, "source": given_source, "references": [given_reference]}
    ascii_texts = {"summary": summary, "source": source, "references": [reference]}
    pairs = list(_pairs(disguised_details, texts))
    ascii_pairs = list(_pairs(plain, ascii_texts))
    assert len(pairs) == len(ascii_pairs)
    for (entry, text), (ascii_entry, ascii_text) in zip(pairs, ascii_pairs, strict=True):
        start, end = entry["span"]
        assert text[start:end] == entry["text"]  # the unit as the caller wrote it
        assert read_text(entry["text"]).read == ascii_entry["text"]
        assert len(read_text(text[:start]).read) == ascii_entry["span"][0]  # the same place
        assert ascii_text[ascii_entry["span"][0] : ascii_entry["span"][1]] == ascii_entry["text"]
