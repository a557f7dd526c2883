"""Bad input: a clear error naming the row and field, or the documented per-row policy."""
import math

import pytest

from halluscope import score_chi, score_ehi
from halluscope.pipeline import validate_publication_dates
from halluscope.validation import validate_inputs

SRC = "Barack Obama visited Paris on Monday with 300 aides."


def test_none_and_non_strings_name_row_and_field():
    with pytest.raises(TypeError, match=r"row 1: `predictions` is None"):
        validate_inputs(["a", None], [SRC, SRC])
    with pytest.raises(TypeError, match=r"row 0: `sources` must be a string, got int"):
        validate_inputs(["a"], [3])
    with pytest.raises(TypeError, match=r"row 1: `references` is None"):
        validate_inputs(["a", "b"], [SRC, SRC], ["x", None])
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
    result = score_ehi(["", "   "], [SRC, SRC], ["Obama visited Paris.", ""], return_details=True,
                       formula="paper")
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
