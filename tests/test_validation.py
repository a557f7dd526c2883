"""Bad input: a clear error naming the row and field, or the documented per-row policy."""

import math

import pytest
from halluscope import score_chi, score_ehi
from halluscope.publication_dates import validate_publication_dates
from halluscope.validation import validate_inputs

SRC = "Barack Obama visited Paris on Monday with 300 aides."


def test_none_and_non_strings_name_row_and_field():
    with pytest.raises(TypeError, match=r"row 1: `predictions` is None"):
        validate_inputs(["a", None], [SRC, SRC])
    with pytest.raises(TypeError, match=r"row 0: `sources` must be a string, got int"):
        validate_inputs(["a"], [3])
    # None is no reference (docs/api.md#what-a-reference-may-be); 0 is an error, not None
    assert validate_inputs(["a", "b"], [SRC, SRC], ["x", None]).references == [("x",), ()]
    with pytest.raises(TypeError, match=r"row 1: `references` must be a string or a list of strings, got int"):
        validate_inputs(["a", "b"], [SRC, SRC], ["x", 0])
    with pytest.raises(TypeError, match=r"row 0: `references\[1\]` must be a string, got float"):
        validate_inputs(["a"], [SRC], [["x", 1.5]])
    with pytest.raises(TypeError, match="not a single string"):
        validate_inputs("a summary", [SRC])


def test_mismatched_lengths():
    with pytest.raises(ValueError, match="`sources` has 1 rows but `predictions` has 2"):
        validate_inputs(["a", "b"], [SRC])
    with pytest.raises(ValueError, match="`references` has 1 rows but `predictions` has 2"):
        validate_inputs(["a", "b"], [SRC, SRC], ["r"])
    with pytest.raises(ValueError, match="`publication_dates` has 1 rows"):
        validate_publication_dates(["2024-01-01"], 2)


def test_empty_source_is_an_error_naming_the_row():
    with pytest.raises(ValueError, match=r"row 1: `sources` is empty or whitespace-only"):
        validate_inputs(["a", "b"], [SRC, " \n\t"])
    with pytest.raises(ValueError, match=r"row 0: `references\[0\]` is empty"):
        validate_inputs(["a"], [SRC], [[" "]])


def test_empty_reference_means_reference_free_for_that_row():
    batch = validate_inputs(["a", "b", "c"], [SRC] * 3, ["", "ref", ["r1", "r2"]])
    assert batch.references == [(), ("ref",), ("r1", "r2")]
    assert validate_inputs(["a"], [SRC]).references == [()]


def test_bad_publication_dates():
    with pytest.raises(ValueError, match=r"row 0: `publication_dates` 'yesterday' is not an ISO date"):
        validate_publication_dates(["yesterday"], 1)
    with pytest.raises(TypeError, match=r"row 0: `publication_dates` must be a date"):
        validate_publication_dates([20240101], 1)


def test_empty_prediction_is_scored_as_a_summary_without_units():
    result = score_ehi(["", "   "], [SRC, SRC], ["Obama visited Paris.", ""], return_details=True, formula="paper")
    # with a reference: G = ∅ gives EF = PH = OF = NH = 0, LF = (|R| - |I∩R|)/|R| = 0
    details = result["details"][0]["ehi"]
    assert details["counts"]["g"] == 0
    assert details["factors"] == {"EF": 0.0, "PH": 0.0, "OF": 0.0, "NH": 0.0, "LF": 0.0}
    assert result["ehi_scores"][0] == pytest.approx(2 / 5)
    # reference-free with no units: undefined
    assert math.isnan(result["ehi_scores"][1])
    assert result["ehi_defined"] == 1
    # support formula: no entity to support, with or without a reference: undefined
    support = score_ehi(["", "   "], [SRC, SRC], ["Obama visited Paris.", ""])
    assert math.isnan(support["ehi_scores"][0]) and math.isnan(support["ehi_scores"][1])


def test_odd_texts_do_not_crash():
    odd = [
        "Der Bundestag hat am Montag 300 Millionen Euro bewilligt.",
        "<p>The <b>WHO</b> said &amp; confirmed 12 cases.</p>",
        "🚀🔥 Tesla stock 🚀 up 10% 😱",
        "12 34 56 78.9 1,000,000",
        "東京で地震が発生した。",
        "\u200b\u00a0Zero\u200dwidth and NBSP text, 5\u00a0km.",
    ]
    result = score_chi(odd, odd[::-1], None)
    assert len(result["chi_scores"]) == len(odd)
    for value in result["chi_scores"]:
        assert math.isnan(value) or 0.0 <= value <= 1.0


def test_unknown_option_values_fail_loudly():
    with pytest.raises(ValueError, match="normalize"):
        score_chi(["a"], [SRC], normalize="zscore")
    with pytest.raises(ValueError, match="relation_matching"):
        score_chi(["a"], [SRC], relation_matching="fuzzy")
    with pytest.raises(ValueError, match="similarity_threshold"):
        score_chi(["a"], [SRC], similarity_threshold=1.5)
    with pytest.raises(TypeError):
        score_chi(["a"], [SRC], nonsense=1)


# -- texts no model can read, dates the resolver cannot handle, weights --------------------

from halluscope.errors import InputError, OptionError  # noqa: E402
from halluscope.fusion import check_weights, harmonic_fusion  # noqa: E402


@pytest.mark.parametrize(
    "text, field, code",
    [
        ("Broken \ud83d emoji.", "predictions", "U+D83D"),
        ("\u200b\u200b", "predictions", "U+200B"),
        ("\ufeff \u200d", "sources", "U+FEFF"),
        ("Obama \ufdd0 visited.", "sources", "U+FDD0"),
        ("\u0301", "references", "U+0301"),
    ],
)
def test_unreadable_texts_name_row_and_field(text, field, code):
    columns = {"predictions": ["a", "b"], "sources": [SRC, SRC], "references": ["", ""]}
    columns[field] = [columns[field][0], text]
    with pytest.raises(InputError) as caught:
        validate_inputs(columns["predictions"], columns["sources"], columns["references"])
    assert (caught.value.row, caught.value.field) == (1, field)
    assert code in str(caught.value) and str(caught.value).startswith("row 1: ")


def test_a_text_repeated_over_rows_is_named_at_its_first_row():
    # each distinct text is read once per column: the first row that holds a bad one is named
    bad = "Obama \ufdd0 visited."
    with pytest.raises(InputError) as caught:
        validate_inputs(["a", "b", "c", "d"], [SRC, bad, SRC, bad])
    assert (caught.value.row, caught.value.field) == (1, "sources")
    assert str(caught.value).startswith("row 1: `sources` holds a Unicode noncharacter (U+FDD0 at character 6)")


def test_emoji_and_accents_stay_valid():
    batch = validate_inputs(["Café 😀 visited.", ""], [SRC, "Zoë \u200bmet Obama."], ["", ["ok\u200d"]])
    assert batch.predictions == ["Café 😀 visited.", ""]


def test_lone_surrogate_is_caught_before_spacy():
    with pytest.raises(InputError, match=r"row 0: `predictions` holds a lone surrogate \(U\+D83D at character 7\)"):
        score_chi(["Broken \ud83d emoji."], [SRC])


def test_publication_dates_outside_the_resolvable_range():
    with pytest.raises(InputError) as caught:
        validate_publication_dates([None, "9999-12-31"], 2)
    assert (caught.value.row, caught.value.field) == (1, "publication_dates")
    assert "9999-12-31 is outside the supported range 0100-01-01 to 9899-12-31" in str(caught.value)
    assert validate_publication_dates(["9899-12-31", "0100-01-01"], 2)[0].year == 9899
    from halluscope import score_qhi

    with pytest.raises(InputError, match=r"row 0: `publication_dates` 9999-12-31 is outside"):
        score_qhi(["Sales rose 5% this month."], ["Sales rose 5% this month."], publication_dates=["9999-12-31"])


@pytest.mark.parametrize(
    "weights, message",
    [
        ({"qhi": 0}, r"`weights\['qhi'\]` must be a positive finite number, got 0"),
        ({"qhi": -1.5}, r"got -1.5"),
        ({"qhi": float("inf")}, r"got inf"),
        ({"qhi": 10**400}, r"must be a positive finite number"),
        ({"qhi": "2"}, r"got '2'"),
        ({"chi": 1}, r"unknown dimensions \['chi'\]"),
        ({"qhi": 1e-13}, r"differ by more than 1e\+12 times"),
        ([("qhi", 2)], r"must be a mapping"),
    ],
)
def test_bad_weights_are_option_errors(weights, message):
    with pytest.raises(OptionError, match=message) as caught:
        check_weights(weights)
    assert caught.value.option == "weights"


def test_huge_weights_are_relative_and_exact():
    scores = {"ehi": 0.5, "rhi": 0.25, "qhi": 1.0}
    # equal weights: 3 / (2 + 4 + 1) = 3/7, however large they are
    assert harmonic_fusion(scores, {"ehi": 1e308, "rhi": 1e308, "qhi": 1e308}) == harmonic_fusion(scores) == 3 / 7
    # {"qhi": 2}: (1 + 1 + 2) / (2 + 4 + 2) = 0.5; scaled by 2**-1, bit for bit
    assert harmonic_fusion(scores, {"qhi": 2}) == 0.5
    assert harmonic_fusion(scores, {"ehi": 3e300, "rhi": 3e300, "qhi": 6e300}) == 0.5
    assert check_weights({"qhi": 2}) == {"ehi": 0.5, "rhi": 0.5, "qhi": 1.0}
