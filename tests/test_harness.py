"""The benchmark harness: measures on hand-computed fixtures, JSON -> markdown, and one
small chi run end to end (the only test here that loads models)."""
from __future__ import annotations

import json
import math
import os
import sys

import pytest

BENCHMARKS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks")
sys.path.insert(0, BENCHMARKS)

import harness  # noqa: E402
import measures  # noqa: E402
import report  # noqa: E402
from _common import unigram_precision  # noqa: E402

NAN = math.nan

# Six rows; half_split(6, seed=0) = ([4, 2, 1], [0, 5, 3]).
SCORES = [0.9, 0.2, 0.6, 0.4, 0.7, 0.3]
LABELS = [1, 0, 0, 1, 1, 0]


def test_unigram_precision_tokens_and_distinct_tokens():
    # tokens the, cat, sat, the: 3 of 4 in the source; distinct {the, cat, sat}: 2 of 3
    assert unigram_precision("The cat sat the", "the CAT") == 0.75
    assert unigram_precision("The cat sat the", "the CAT", distinct=True) == pytest.approx(2 / 3)
    assert unigram_precision("", "the cat") == 0.0


def test_balanced_accuracy_at_a_threshold():
    # predicted consistent (>= 0.35): 0.4, 0.35, 0.8 -> recall(1) = 2/2, recall(0) = 1/2
    assert measures.balanced_accuracy([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1], 0.35) == 0.75
    # an undefined score counts as consistent: NaN >= any threshold
    assert measures.balanced_accuracy([NAN, 0.1], [1, 0], 0.5) == 1.0
    # one class only: the mean over the classes present
    assert measures.balanced_accuracy([0.2, 0.9], [1, 1], 0.5) == 0.5


def test_tuned_threshold_is_the_lowest_best_one():
    # BA at 0.1: .5, 0.35: .75, 0.4: .5, 0.8: .75, inf: .5 -> 0.35 (lowest of the ties)
    assert measures.tune_threshold([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]) == 0.35
    assert measures.tune_threshold([0.5, 0.5], [0, 0]) == math.inf  # all inconsistent: predict none consistent
    assert measures.tune_threshold([NAN, 0.3, 0.1], [1, 1, 0]) == 0.3


def test_transfer_applies_the_tuned_threshold_unchanged():
    value, threshold = measures.transfer_balanced_accuracy([0.2, 0.6, 0.7], [0, 0, 1], [0.9, 0.3, 0.4], [1, 0, 1])
    assert threshold == 0.7  # tuning rows: BA 1.0 at 0.7
    assert value == 0.75     # test: 0.9 consistent; 0.4 (label 1) missed -> (1/2 + 1) / 2


def test_half_split_balanced_accuracy_by_hand():
    assert measures.half_split(6, 0) == ([4, 2, 1], [0, 5, 3])
    # tune on rows 4, 2, 1 -> t = 0.7; test rows 0, 5, 3 -> (1/2 + 1)/2 = 0.75
    # tune on rows 0, 5, 3 -> t = 0.4; test rows 4, 2, 1 -> (1 + 1/2)/2 = 0.75
    assert measures.half_split_balanced_accuracy(SCORES, LABELS, seed=0) == 0.75
    assert measures.held_out_predictions(SCORES, LABELS, seed=0) == [True, False, True, False, True, False]


def test_roc_auc_exact_with_ties_and_undefined_scores():
    # consistent 0.9, 0.4, 0.7 vs inconsistent 0.2, 0.6, 0.3: 3 + 2 + 3 of 9 pairs
    assert measures.roc_auc(SCORES, LABELS) == pytest.approx(8 / 9)
    # pairs (0.9, 0.5) 1, (0.9, 0.1) 1, (0.5, 0.5) tie 1/2, (0.5, 0.1) 1 -> 3.5 / 4
    assert measures.roc_auc([0.9, 0.5, 0.5, 0.1], [1, 1, 0, 0]) == 0.875
    # NaN ranks above everything; two NaNs tie
    assert measures.roc_auc([NAN, 0.2, NAN], [1, 0, 0]) == 0.75
    assert math.isnan(measures.roc_auc([0.1, 0.2], [1, 1]))


def test_frank_error_type_rates():
    predicted = measures.held_out_predictions(SCORES, LABELS, seed=0)  # T F T F T F
    flags = {"LinkE": [0, 1, 1, 0, 0, 0], "EntE": [0, 0, 0, 0, 0, 1], "CorefE": [0] * 6}
    rates = measures.error_type_rates(predicted, flags)
    assert rates["LinkE"] == {"n": 2, "fp": 1, "rate": 0.5}   # row 2 predicted consistent, row 1 not
    assert rates["EntE"] == {"n": 1, "fp": 0, "rate": 0.0}
    assert rates["CorefE"]["n"] == 0 and math.isnan(rates["CorefE"]["rate"])


def _systems_fixture():
    """Four systems on three documents; per-system means metric A..D = .1 .2 .3 .4,
    human 1 3 2 4 (document offsets cancel in the means)."""
    metric_means = {"A": 0.1, "B": 0.2, "C": 0.3, "D": 0.4}
    human_means = {"A": 1.0, "B": 3.0, "C": 2.0, "D": 4.0}
    metric, human, systems, documents = [], [], [], []
    for document, (m_offset, h_offset) in enumerate([(-0.05, -0.5), (0.05, 0.5), (0.0, 0.0)]):
        for system in "ABCD":
            metric.append(metric_means[system] + m_offset * (1 if system in "AC" else -1))
            human.append(human_means[system] + h_offset * (1 if system in "AB" else -1))
            systems.append(system)
            documents.append(document)
    return metric, human, systems, documents


def test_system_level_correlation_and_bootstrap():
    metric, human, systems, documents = _systems_fixture()
    result = measures.system_level_correlation(metric, human, systems, documents, resamples=100, seed=7)
    # ranks 1 2 3 4 vs 1 3 2 4: rho = 1 - 6*2/(4*15) = 0.8; tau = (5 - 1)/6
    assert result["spearman"] == pytest.approx(0.8)
    assert result["kendall"] == pytest.approx(2 / 3)
    assert result["systems"] == 4 and result["documents"] == 3
    assert result["system_metric_means"] == pytest.approx({"A": 0.1, "B": 0.2, "C": 0.3, "D": 0.4})
    again = measures.system_level_correlation(metric, human, systems, documents, resamples=100, seed=7)
    assert again["spearman_ci"] == result["spearman_ci"] and again["kendall_ci"] == result["kendall_ci"]
    low, high = result["spearman_ci"]
    assert low <= result["spearman"] <= high and low < high
    low, high = result["kendall_ci"]
    assert low <= result["kendall"] <= high


def test_summary_level_correlation_by_hand():
    # metric ranks 1 2 3 4 (NaN top); human ranks 1 3.5 2 3.5
    result = measures.summary_level_correlation([0.1, 0.2, 0.3, NAN], [0, 1, 0.5, 1])
    assert result["spearman"] == pytest.approx(3 / math.sqrt(22.5))   # Pearson of the ranks
    assert result["kendall"] == pytest.approx(3 / math.sqrt(30))       # tau-b: 4 C, 1 D, 1 tie in human


def test_pseudo_system_ranks_by_hand():
    real = [0.5, 0.2, 0.7, 0.4]               # S1 = .5 .7 (mean .6), S2 = .2 .4 (mean .3)
    systems, documents = ["S1", "S2", "S1", "S2"], [0, 0, 1, 1]
    report_ = measures.rank_pseudo_systems(real, systems, documents,
                                           {"empty": {0: NAN, 1: NAN}, "content-free": {0: 0.3, 1: 0.4}})
    empty, free = report_["empty"], report_["content-free"]
    # empty: undefined -> the largest defined score (.7): above both systems
    assert (empty["rank"], empty["above"], empty["of"], empty["mean"]) == (1, 2, 3, 0.7)
    assert empty["defined_share"] == 0.0 and empty["win_rate"] == 1.0
    # content-free: mean .35 between S2 (.3) and S1 (.6); wins doc 0: 1/2, doc 1: (0 + 1/2)/2
    assert (free["rank"], free["above"]) == (2, 1)
    assert free["mean"] == pytest.approx(0.35) and free["win_rate"] == pytest.approx(0.375)
    # without systems: only the win rate
    assert "rank" not in measures.rank_pseudo_systems(real, None, documents, {"x": {0: 0.3, 1: 0.4}})["x"]


def test_empty_summary_check_scores_pseudo_rows_in_one_call():
    calls = []

    def scorer(predictions, sources, references):
        calls.append((list(predictions), references))
        return [float(len(p)) for p in predictions]          # longer = "more consistent"

    sources = ["doc one", "doc one", "doc two", "doc two"]
    result = harness.empty_summary_check(scorer, sources, ["ab", "abcd", "a", "abc"], systems=["X", "Y", "X", "Y"])
    assert len(calls) == 1 and calls[0][0][4:] == ["", "", "The article discusses the topic.",
                                                   "The article discusses the topic."]
    assert (result["empty"]["rank"], result["empty"]["of"], result["empty"]["win_rate"]) == (3, 3, 0.0)
    assert result["content-free"]["rank"] == 1


def _result_row(dataset, rows, dimension, ba, auc=70.0):
    return {"dataset": dataset, "data_file": f"{dataset}.jsonl", "rows": rows, "dimension": dimension,
            "balanced_accuracy_pct": ba, "roc_auc_pct": auc, "signature": f"sig-{dimension}"}


def test_json_results_render_to_markdown(tmp_path):
    folder = str(tmp_path / "results")
    for tag, chi_values in (("before", (50.0, 50.0)), ("after", (60.0, 50.0))):
        meta = {"created": "2026-01-01T00:00:00+00:00" if tag == "before" else "2026-01-02T00:00:00+00:00",
                "halluscope": {"version": "0", "git_commit": tag}, "limit": None, "command": "test"}
        baseline = [_result_row("a", 10, "unigram-types", 55.0), _result_row("a", 10, "unigram-tokens", 54.0),
                    _result_row("b", 8, "unigram-types", 52.0), _result_row("b", 8, "unigram-tokens", 51.0)]
        harness.write_results(folder, tag, None, baseline, meta)
        chi = harness.MetricConfig("chi", "chi", {"normalize": "paper"})
        harness.write_results(folder, tag, chi, [_result_row("a", 10, "chi", chi_values[0]),
                                                 _result_row("b", 8, "chi", chi_values[1])], meta)
    with open(os.path.join(folder, "run-after-chi.json"), encoding="utf-8") as handle:
        stored = json.load(handle)
    assert stored["config"] == {"name": "chi", "metric": "chi", "kwargs": {"normalize": "paper"}}
    assert [r["signature"] for r in stored["rows"]] == ["sig-chi", "sig-chi"]

    out = str(tmp_path / "benchmarks.md")
    report.render_markdown(folder, out, plots=False)
    text = open(out, encoding="utf-8").read()
    table = text.split("## Balanced accuracy (%)")[1].split("## ROC-AUC")[0]
    assert ("| set | rows | baseline (distinct tokens) | baseline (tokens) | chi before | chi after "
            "| chi beats baseline (before / after) |") in table
    assert "| a | 10 | 55.0 | 54.0 | 50.0 | 60.0 | no / yes |" in table
    assert "| b | 8 | 52.0 | 51.0 | 50.0 | 50.0 | no / no |" in table
    assert "| mean (SummaC sets) |  | 53.5 | 52.5 | 50.0 | 55.0 | no / yes |" in table
    assert "- after / chi: `sig-chi`" in text
    # single-dimension configurations of one metric share a table, one column each
    for name, ba in (("fizz", 53.0), ("fizz+SD", 56.0)):
        harness.write_results(folder, "after", harness.MetricConfig(name, "dlsd_acu"),
                              [_result_row("a", 10, "dlsd_acu", ba)], meta)
    report.render_markdown(folder, out, tags=["after"], plots=False)
    text = open(out, encoding="utf-8").read()
    assert "### dlsd_acu: fizz, fizz+SD" in text
    assert "| a | 10 | 55.0 | 54.0 | 53.0 | no | 56.0 | yes |" in text
    # a rerun of one dataset replaces that dataset's rows and keeps the others
    meta["created"] = "2026-01-03T00:00:00+00:00"
    harness.write_results(folder, "after", chi, [_result_row("b", 8, "chi", 58.0)], meta)
    report.render_markdown(folder, out, tags=["after"], plots=False)
    assert "| b | 8 | 52.0 | 51.0 | 58.0 | yes |" in open(out, encoding="utf-8").read()


def test_named_and_custom_configurations():
    configs = harness.parse_configs(["chi-paper", "rhi-linear", "dlsd", "mine=qhi:epsilon=0.1,derived=false"],
                                    {"host": "fenice", "nli_model": "tiny", "decomposer": "rules", "top_k": 2})
    seeds = {"formula": "paper", "grounding": "units", "truecase": False, "relation_slots": "head",
             "intransitive": "none"}
    assert configs[0] == harness.MetricConfig("chi-paper", "chi", {**seeds, "normalize": "paper",
                                                                   "relation_matching": "sentence"})
    assert configs[1].kwargs == {**seeds, "variant": "linear"}
    assert [c.name for c in configs[2:6]] == ["fenice", "fenice+SD", "fenice+DL", "fenice+SD+DL"]
    assert configs[3].kwargs == {"host": "fenice", "sd_acu": True, "dl_acu": "none", "nli_model": "tiny",
                                 "decomposer": "rules", "top_k": 2}
    assert configs[4].kwargs["dl_acu"] == "auto" and configs[4].kwargs["sd_acu"] is False
    assert configs[6] == harness.MetricConfig("mine", "qhi", {"epsilon": 0.1, "derived": False})
    with pytest.raises(ValueError):
        harness.parse_configs(["nope"], {})


def test_smoke_run_of_chi_reference_free(tmp_path):
    documents = ["Microsoft acquired GitHub in 2018 for $7.5 billion. Nat Friedman became its chief executive.",
                 "The city council approved a budget of 3 million euros for new parks on Monday."]
    claims = [("Microsoft acquired GitHub in 2018.", 1), ("Google acquired GitHub in 2016.", 0),
              ("Nat Friedman became chief executive of GitHub.", 1),
              ("The council approved 3 million euros for parks.", 1),
              ("The council rejected a budget of 9 million euros.", 0), ("The mayor resigned on Friday.", 0)]
    data = tmp_path / "tiny_val.jsonl"
    data.write_text("".join(json.dumps({"document": documents[0] if k < 3 else documents[1], "claim": c, "label": y})
                            + "\n" for k, (c, y) in enumerate(claims)), encoding="utf-8")
    out = str(tmp_path / "results")
    assert harness.main(["run", "--summac", str(data), "--config", "chi", "--tag", "smoke", "--out", out,
                         "--splits", "2", "--resamples", "20"]) == 0
    stored = json.load(open(os.path.join(out, "run-smoke-chi.json"), encoding="utf-8"))
    rows = stored["rows"]
    assert [r["dimension"] for r in rows] == ["chi", "ehi", "rhi", "qhi"]
    assert {r["rows"] for r in rows} == {6} and {r["references"] for r in rows} == {"reference-free"}
    assert all(r["signature"].startswith("halluscope:") and "metric:chi" in r["signature"] for r in rows)
    assert all(0 <= r["balanced_accuracy_pct"] <= 100 for r in rows)
    assert set(rows[0]["pseudo_systems"]) == {"empty", "content-free"}
    assert os.path.exists(os.path.join(out, "run-smoke-baseline.json"))
    markdown = str(tmp_path / "benchmarks.md")
    assert harness.main(["render", "--results", out, "--out", markdown]) == 0
    text = open(markdown, encoding="utf-8").read()
    assert "### chi" in text and "| tiny |" in text
    assert os.path.exists(os.path.join(out, "plot-ba-smoke.png"))


def test_evaluate_dimension_half_split_and_test_split():
    from _common import Dataset

    data = Dataset(name="d", path="d.jsonl", sources=["s1", "s1", "s2", "s2", "s3", "s3"], predictions=["p"] * 6,
                   labels=LABELS, systems=["X", "Y"] * 3, human_scores=[1.0, 0.0, 0.0, 1.0, 1.0, 0.0],
                   human_column="Factuality", error_flags={"LinkE": [0, 1, 1, 0, 0, 0]})
    outcome = harness.evaluate_dimension(SCORES, data, harness.Protocol(splits=1, resamples=10))
    assert outcome["balanced_accuracy_pct"] == 75.0 and outcome["balanced_accuracy_splits_pct"] == [75.0]
    assert outcome["roc_auc_pct"] == pytest.approx(800 / 9)
    assert outcome["error_rates"]["LinkE"] == {"n": 2, "fp_mean": 1.0, "rate_pct": 50.0}
    assert outcome["predicted_consistent_pct"] == 50.0  # held out: T F T F T F
    assert outcome["system_level"]["systems"] == 2 and outcome["summary_level"]["summaries"] == 6
    # with a test file: threshold tuned on all of `data`, applied unchanged to the test rows
    test = Dataset(name="d", path="t.jsonl", sources=["a", "b"], predictions=["p", "p"], labels=[1, 0])
    outcome = harness.evaluate_dimension(SCORES, data, harness.Protocol(), [0.5, 0.35], test)
    assert outcome["threshold"] == 0.4  # BA on data: 0.4 and 0.7 both 5/6; the lower wins
    assert outcome["balanced_accuracy_pct"] == 100.0 and outcome["roc_auc_pct"] == 100.0
    assert outcome["predicted_consistent_pct"] == 50.0
