"""ScoreResult: typed fields, the evaluate-style dict it is, and merges declared per field."""
import json
import math
import pickle

import pytest

from halluscope import api
from halluscope.results import MERGE, ScoreResult


def _result(scores, signature="sig", counters=None, labels=None, details=None):
    return ScoreResult(metric="rhi", per_example={"rhi": scores, "rhi_norm": [s / 2 for s in scores]},
                       defined_names=("rhi",), signature=signature, counters=counters, labels=labels,
                       details=details)


def test_fields_and_the_dict_hold_the_same_content():
    result = _result([1.0, math.nan, 0.5], counters={"nli_pairs_scored": 4}, labels=[1, None, 0])
    assert result.means == {"rhi": 0.75, "rhi_norm": 0.375}
    assert result.defined == {"rhi": 2}
    assert dict(result) == {"rhi": 0.75, "rhi_norm": 0.375, "rhi_scores": result.per_example["rhi"],
                            "rhi_norm_scores": [0.5, result.per_example["rhi_norm"][1], 0.25], "rhi_defined": 2,
                            "labels": [1, None, 0], "nli_pairs_scored": 4, "signature": "sig"}
    assert result.num_rows == 3
    assert json.loads(json.dumps(result.to_dict(), allow_nan=True))["rhi_defined"] == 2


def test_pickling_keeps_the_fields():
    result = _result([0.25, 1.0], details=[{"a": 1}, {"b": 2}])
    back = pickle.loads(pickle.dumps(result))
    assert isinstance(back, ScoreResult) and back == result
    assert back.per_example == result.per_example and back.details == [{"a": 1}, {"b": 2}]


def test_merge_follows_the_declarations():
    assert set(MERGE) == {"metric", "per_example", "labels", "details", "counters", "signature", "means", "defined"}
    merged = ScoreResult.merge([_result([1.0], counters={"calls": 2}, labels=[1]),
                                _result([math.nan, 0.0], counters={"calls": 3}, labels=[None, 0])])
    assert merged.per_example["rhi"][0] == 1.0 and math.isnan(merged.per_example["rhi"][1])
    assert merged.means["rhi"] == 0.5 and merged.defined == {"rhi": 2}
    assert merged.counters == {"calls": 5} and merged.labels == [1, None, 0]
    with pytest.raises(ValueError, match="`signature` differs between shards"):
        ScoreResult.merge([_result([1.0]), _result([1.0], signature="other")])
    with pytest.raises(ValueError, match="`details` is missing in some shards"):
        ScoreResult.merge([_result([1.0], details=[{}]), _result([1.0])])


def test_merged_shards_equal_one_run():
    sources = ["Police arrested Thomas in Leeds on Monday.", "Apple sold 3 million phones in 2019.",
               "The mayor opened the bridge.", "Sales rose 5% to $2 billion."]
    summaries = ["Police arrested Thomas in York.", "Apple sold 3 million phones.", "The mayor closed the bridge.",
                 "Sales rose 5%."]
    whole = api.score_chi(summaries, sources, return_details=True)
    shards = [api.score_chi(summaries[:1], sources[:1], return_details=True),
              api.score_chi(summaries[1:], sources[1:], return_details=True)]
    merged = ScoreResult.merge(shards)
    assert merged == whole
    assert merged.details == whole.details
