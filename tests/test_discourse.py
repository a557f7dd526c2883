"""DL-ACU as a dlsd_acu step: candidates, post-filters, decisions and options wiring."""

import os

import evaluate
import pytest
from halluscope import score_dlsd_acu
from halluscope.acu.discourse import DiscourseLinkUnits, resolve_backend
from halluscope.nli import NLIEngine
from test_acu_pipeline import overlap_scorer

SUMMARY = "Engineers shut the plant after noticing the leak."
SOURCE = "Engineers noticed a leak on Monday. They shut the plant an hour later."


def fixed_overlap(f1):
    def scorer(candidates, references):
        return [f1] * len(candidates)

    return scorer


def test_dependency_units_filtered_with_decisions():
    engine = NLIEngine(scorer=overlap_scorer)
    units = DiscourseLinkUnits("dep", coref="none", overlap_scorer=fixed_overlap(0.5))
    kept, decisions = units([SUMMARY], [["Engineers shut the plant.", "Engineers noticed the leak."]], engine)
    assert kept == [["Engineers shut the plant after noticing the leak."]]
    (decision,) = decisions[0]
    assert decision["relation"] == "time" and decision["marker"] == "after" and decision["kept"] is True
    assert decision["entailment"] == pytest.approx(1.0) and decision["max_bertscore_f1"] == 0.5


def test_overlap_and_nli_filters_drop_with_reasons():
    engine = NLIEngine(scorer=overlap_scorer)
    overlapping = DiscourseLinkUnits("dep", coref="none", delta=0.7, overlap_scorer=fixed_overlap(0.75))
    kept, decisions = overlapping([SUMMARY], [["Engineers shut the plant."]], engine)
    assert kept == [[]]
    assert decisions[0][0]["reason"] == "BERTScore F1 0.75 >= delta 0.7 against a host ACU"

    def never(premises, hypotheses):
        return [[0.1, 0.9, 0.0]] * len(premises)

    strict = DiscourseLinkUnits("dep", coref="none", overlap_scorer=fixed_overlap(0.0))
    kept, decisions = strict([SUMMARY], [["x"]], NLIEngine(scorer=never))
    assert kept == [[]]
    assert decisions[0][0]["reason"] == "P(ent | summary) 0.10 < tau 0.4"


def test_backend_choice():
    assert resolve_backend("auto") == "dep"  # no AMR model is installed here
    assert resolve_backend("amr") == "amr"
    with pytest.raises(ValueError, match="dl_acu"):
        DiscourseLinkUnits("srl")
    with pytest.raises(ValueError, match="tau"):
        DiscourseLinkUnits("dep", tau=1.5)


def test_dl_acu_through_the_api_and_evaluate(repo_root):
    common = dict(nli_scorer=overlap_scorer, decomposer="rules", coref="none", sd_acu=False, return_details=True)
    without = score_dlsd_acu([SUMMARY], [SOURCE], dl_acu="none", **common)
    with_dl = score_dlsd_acu([SUMMARY], [SOURCE], dl_acu="dep", delta=0.99, **common)
    assert [u["type"] for u in without["details"][0]["units"]] == ["acu"] * len(without["details"][0]["units"])
    types = [u["type"] for u in with_dl["details"][0]["units"]]
    candidates = with_dl["details"][0]["dl_acu_candidates"]
    assert [c["text"] for c in candidates] == ["Engineers shut the plant after noticing the leak."]
    assert types.count("dl_acu") == sum(c["kept"] for c in candidates)
    assert "dl:dep@tau0.4,delta0.99" in with_dl["signature"] and "dl:none" in without["signature"]

    metric = evaluate.load(os.path.join(repo_root, "metrics", "dlsd_acu"), nli_scorer=overlap_scorer)
    result = metric.compute(
        predictions=[SUMMARY],
        references=[""],
        sources=[SOURCE],
        decomposer="rules",
        coref="none",
        sd_acu=False,
        dl_acu="dep",
        delta=0.99,
    )
    assert result["dlsd_acu_scores"] == with_dl["dlsd_acu_scores"]
