"""dlsd_acu through the backend API and evaluate.load, offline (rules decomposer, injected scorer)."""

import math
import os

import evaluate
import pytest
from halluscope import score_dlsd_acu
from test_acu_pipeline import overlap_scorer

SOURCES = [
    "The council approved the budget on Monday. Officials said 300 homes would be built in Leeds.",
    "Alice flew to Paris. Bob stayed in London.",
]
SUMMARIES = ["The council approved the budget. Homes would be built in Leeds.", "Bob flew to Paris."]


def test_backend_offline_end_to_end_with_threshold_and_counters():
    result = score_dlsd_acu(
        SUMMARIES,
        SOURCES,
        nli_scorer=overlap_scorer,
        decomposer="rules",
        coref="none",
        threshold=0.9,
        return_details=True,
    )
    assert result["dlsd_acu_scores"][0] == pytest.approx(1.0)
    assert result["dlsd_acu_scores"][1] < 1.0
    assert result["labels"] == [1, 0]
    assert result["nli_pairs_requested"] >= result["nli_pairs_scored"] > 0
    assert result["decomposer_calls"] >= 2
    assert result["signature"].startswith("halluscope:0.1.0|metric:dlsd_acu|host:fizz|align:ent|agg:min")
    assert "dec:" in result["signature"] and "nli:scorer:" in result["signature"]
    for details, source in zip(result["details"], SOURCES, strict=True):
        for unit in details["units"]:
            start, end = unit["evidence"]["char_span"]
            assert unit["evidence"]["text"] in source[start:end] or unit["evidence"]["kind"] == "document_acu"


def test_bad_input_names_row_and_field():
    with pytest.raises(TypeError, match=r"row 1: `predictions` is None"):
        score_dlsd_acu(["a", None], SOURCES, nli_scorer=overlap_scorer, decomposer="rules", coref="none")
    with pytest.raises(ValueError, match=r"row 0: `sources` is empty"):
        score_dlsd_acu(["a"], [" "], nli_scorer=overlap_scorer, decomposer="rules", coref="none")
    with pytest.raises(ValueError, match="host"):
        score_dlsd_acu(["a"], ["b"], nli_scorer=overlap_scorer, decomposer="rules", host="summac")
    with pytest.raises(ValueError, match="decomposer"):
        score_dlsd_acu(["a"], ["b"], nli_scorer=overlap_scorer, decomposer="llm")


def test_evaluate_module_offline(repo_root):
    metric = evaluate.load(os.path.join(repo_root, "metrics", "dlsd_acu"), nli_scorer=overlap_scorer)
    result = metric.compute(
        predictions=SUMMARIES,
        references=["", ""],
        sources=SOURCES,
        decomposer="rules",
        coref="none",
        host="fenice",
        top_k=2,
    )
    direct = score_dlsd_acu(
        SUMMARIES, SOURCES, nli_scorer=overlap_scorer, decomposer="rules", coref="none", host="fenice", top_k=2
    )
    assert result["dlsd_acu_scores"] == direct["dlsd_acu_scores"]
    assert "host:fenice|align:ent-neutral|agg:mean" in result["signature"]
    with pytest.raises(TypeError):
        metric.compute(predictions=SUMMARIES, references=["", ""], sources=SOURCES, hosts="fizz")
    with pytest.raises(TypeError, match="unknown option"):
        evaluate.load(os.path.join(repo_root, "metrics", "dlsd_acu"), nli_modle="x")


def test_missing_nli_model_is_a_clear_error():
    from halluscope.registry import ModelNotAvailableError

    with pytest.raises(ModelNotAvailableError, match="tals/albert-xlarge-vitaminc-mnli"):
        score_dlsd_acu(["a b."], ["a b."], decomposer="rules", coref="none")
    assert not math.isnan(
        score_dlsd_acu(["a b."], ["a b."], nli_scorer=overlap_scorer, decomposer="rules", coref="none")["dlsd_acu"]
    )


def test_sentences_are_not_parsed_again_by_the_rule_decomposer():
    from halluscope.resources import get_parse_cache

    cache = get_parse_cache()
    sources = ["Unique seed test: the mayor opened a bridge. Residents cheered loudly."]
    summaries = ["The mayor opened a bridge and residents cheered."]
    before = cache.parsed
    score_dlsd_acu(summaries, sources, nli_scorer=overlap_scorer, decomposer="rules", coref="none", top_k=None)
    # the document and the summary, once each; their sentences come from those parses
    assert cache.parsed - before == 2
