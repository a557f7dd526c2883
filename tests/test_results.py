"""ScoreResult: typed fields, the evaluate-style dict it is, and merges declared per field."""

import json
import math
import pickle

import pytest
from halluscope import api
from halluscope.distributed import merge_results
from halluscope.results import MERGE, ScoreResult


def _result(scores, signature="sig", counters=None, labels=None, details=None, absent=None):
    return ScoreResult(
        metric="rhi",
        per_example={"rhi": scores, "rhi_norm": [s / 2 for s in scores]},
        defined_names=("rhi",),
        signature=signature,
        counters=counters,
        labels=labels,
        details=details,
        absent=absent,
    )


def test_fields_and_the_dict_hold_the_same_content():
    result = _result([1.0, math.nan, 0.5], counters={"nli_pairs_scored": 4}, labels=[1, None, 0])
    assert result.means == {"rhi": 0.75, "rhi_norm": 0.375}
    assert result.defined == {"rhi": 2}
    assert dict(result) == {
        "rhi": 0.75,
        "rhi_norm": 0.375,
        "rhi_scores": result.per_example["rhi"],
        "rhi_norm_scores": [0.5, result.per_example["rhi_norm"][1], 0.25],
        "rhi_defined": 2,
        "labels": [1, None, 0],
        "nli_pairs_scored": 4,
        "signature": "sig",
    }
    assert result.num_rows == 3
    assert json.loads(json.dumps(result.to_dict(), allow_nan=True))["rhi_defined"] == 2


def test_an_absent_output_is_no_key_and_its_reason_is_one():
    result = _result([1.0], absent={"p_consistent": "calibrated for other options"})
    assert result.absent == {"p_consistent": "calibrated for other options"}
    assert result["p_consistent_reason"] == "calibrated for other options" and "p_consistent" not in result
    assert "p_consistent_reason" not in _result([1.0]) and _result([1.0]).absent == {}


def test_pickling_keeps_the_fields():
    result = _result([0.25, 1.0], details=[{"a": 1}, {"b": 2}], absent={"p_consistent": "why"})
    back = pickle.loads(pickle.dumps(result))
    assert isinstance(back, ScoreResult) and back == result
    assert back.per_example == result.per_example and back.details == [{"a": 1}, {"b": 2}]
    assert back.absent == {"p_consistent": "why"}


def test_merge_follows_the_declarations():
    assert set(MERGE) == {
        "metric",
        "per_example",
        "labels",
        "details",
        "counters",
        "signature",
        "absent",
        "means",
        "defined",
    }
    merged = ScoreResult.merge(
        [
            _result([1.0], counters={"calls": 2}, labels=[1]),
            _result([math.nan, 0.0], counters={"calls": 3}, labels=[None, 0]),
        ]
    )
    assert merged.per_example["rhi"][0] == 1.0 and math.isnan(merged.per_example["rhi"][1])
    assert merged.means["rhi"] == 0.5 and merged.defined == {"rhi": 2}
    assert merged.counters == {"calls": 5} and merged.labels == [1, None, 0]
    why = {"p_consistent": "why"}
    assert ScoreResult.merge([_result([1.0], absent=why), _result([0.0], absent=why)]).absent == why
    with pytest.raises(ValueError, match="`details` is missing in some shards"):
        ScoreResult.merge([_result([1.0], details=[{}]), _result([1.0])])


A = "halluscope:0.1.0|metric:chi|sim:0.85|cal:chi-20261205|cut:0.28251"
B = "halluscope:0.1.0|metric:chi|sim:0.85|cal:chi-20261205|cut:0.282510002"
REFUSAL = (
    f"cannot merge results of different signatures: shard 2 was scored with other options, models or "
    f"versions than shard 0 (they differ in cut); shard 0: {A!r}; shard 2: {B!r}"
)


def test_results_of_different_signatures_are_refused_with_both_in_full():
    """Typed results and plain dicts (read back from JSON) alike: the first shard that
    differs, both signatures whole, the fields they differ in."""
    typed = [_result([1.0], signature=A), _result([1.0], signature=A), _result([1.0], signature=B)]
    for shards in (typed, [dict(shard) for shard in typed]):
        with pytest.raises(ValueError) as refused:
            merge_results(shards)
        assert str(refused.value) == REFUSAL
    with pytest.raises(ValueError, match=r"they differ in cut, w\); shard 0: 'a:1\|cut:1'; shard 1: 'a:1\|w:2\|cut:2'"):
        ScoreResult.merge([_result([1.0], signature="a:1|cut:1"), _result([1.0], signature="a:1|w:2|cut:2")])
    with pytest.raises(ValueError, match="`absent` differs between shards"):
        ScoreResult.merge([_result([1.0]), _result([1.0], absent={"p_consistent": "why"})])


def test_merged_shards_equal_one_run():
    sources = [
        "Police arrested Thomas in Leeds on Monday.",
        "Apple sold 3 million phones in 2019.",
        "The mayor opened the bridge.",
        "Sales rose 5% to $2 billion.",
    ]
    summaries = [
        "Police arrested Thomas in York.",
        "Apple sold 3 million phones.",
        "The mayor closed the bridge.",
        "Sales rose 5%.",
    ]
    whole = api.score_chi(summaries, sources, return_details=True)
    shards = [
        api.score_chi(summaries[:1], sources[:1], return_details=True),
        api.score_chi(summaries[1:], sources[1:], return_details=True),
    ]
    merged = ScoreResult.merge(shards)
    assert merged == whole
    assert merged.details == whole.details
