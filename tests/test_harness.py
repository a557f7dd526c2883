"""The benchmark harness: measures on hand-computed fixtures, JSON -> markdown, and one
small chi run end to end (the only test here that loads models)."""

from __future__ import annotations

import json
import math
import os

import pytest

from benchmarks import (
    configurations,
    evaluation,
    harness,
    lodo,
    lodo_tables,
    measures,
    pseudo_systems,
    report,
    result_files,
    result_rows,
)
from benchmarks._common import unigram_precision
from benchmarks.jobs import build_jobs

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
    assert value == 0.75  # test: 0.9 consistent; 0.4 (label 1) missed -> (1/2 + 1) / 2


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
    assert rates["LinkE"] == {"n": 2, "fp": 1, "rate": 0.5}  # row 2 predicted consistent, row 1 not
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
    assert result["spearman"] == pytest.approx(3 / math.sqrt(22.5))  # Pearson of the ranks
    assert result["kendall"] == pytest.approx(3 / math.sqrt(30))  # tau-b: 4 C, 1 D, 1 tie in human


def test_pseudo_system_ranks_by_hand():
    real = [0.5, 0.2, 0.7, 0.4]  # S1 = .5 .7 (mean .6), S2 = .2 .4 (mean .3)
    systems, documents = ["S1", "S2", "S1", "S2"], [0, 0, 1, 1]
    report_ = measures.rank_pseudo_systems(
        real, systems, documents, {"empty": {0: NAN, 1: NAN}, "content-free": {0: 0.3, 1: 0.4}}
    )
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
        return [float(len(p)) for p in predictions]  # longer = "more consistent"

    sources = ["doc one", "doc one", "doc two", "doc two"]
    result = pseudo_systems.empty_summary_check(
        scorer, sources, ["ab", "abcd", "a", "abc"], systems=["X", "Y", "X", "Y"]
    )
    assert len(calls) == 1 and calls[0][0][4:] == [
        "",
        "",
        "The article discusses the topic.",
        "The article discusses the topic.",
    ]
    assert (result["empty"]["rank"], result["empty"]["of"], result["empty"]["win_rate"]) == (3, 3, 0.0)
    assert result["content-free"]["rank"] == 1


def _result_row(dataset, rows, dimension, ba, auc=70.0):
    return {
        "dataset": dataset,
        "data_file": f"{dataset}.jsonl",
        "rows": rows,
        "dimension": dimension,
        "balanced_accuracy_pct": ba,
        "roc_auc_pct": auc,
        "signature": f"sig-{dimension}",
    }


def test_json_results_render_to_markdown(tmp_path):
    folder = str(tmp_path / "results")
    for tag, chi_values in (("before", (50.0, 50.0)), ("after", (60.0, 50.0))):
        meta = {
            "created": "2026-01-01T00:00:00+00:00" if tag == "before" else "2026-01-02T00:00:00+00:00",
            "halluscope": {"version": "0", "git_commit": tag},
            "limit": None,
            "command": "test",
        }
        baseline = [
            _result_row("a", 10, "unigram-types", 55.0),
            _result_row("a", 10, "unigram-tokens", 54.0),
            _result_row("b", 8, "unigram-types", 52.0),
            _result_row("b", 8, "unigram-tokens", 51.0),
        ]
        result_files.write_results(folder, tag, None, baseline, meta)
        chi = configurations.MetricConfig("chi", "chi", {"normalize": "paper"})
        result_files.write_results(
            folder,
            tag,
            chi,
            [_result_row("a", 10, "chi", chi_values[0]), _result_row("b", 8, "chi", chi_values[1])],
            meta,
        )
    with open(os.path.join(folder, "run-after-chi.json"), encoding="utf-8") as handle:
        stored = json.load(handle)
    assert stored["config"] == {"name": "chi", "metric": "chi", "kwargs": {"normalize": "paper"}}
    assert [r["signature"] for r in stored["rows"]] == ["sig-chi", "sig-chi"]

    out = str(tmp_path / "benchmarks.md")
    report.render_markdown(folder, out, plots=False)
    text = open(out, encoding="utf-8").read()
    table = text.split("## Balanced accuracy (%)")[1].split("## ROC-AUC")[0]
    assert (
        "| set | rows | baseline (distinct tokens) | baseline (tokens) | chi before | chi after "
        "| chi beats baseline (before / after) |"
    ) in table
    assert "| a | 10 | 55.0 | 54.0 | 50.0 | 60.0 | no / yes |" in table
    assert "| b | 8 | 52.0 | 51.0 | 50.0 | 50.0 | no / no |" in table
    assert "| mean (SummaC sets) |  | 53.5 | 52.5 | 50.0 | 55.0 | no / yes |" in table
    assert "- after / chi: `sig-chi`" in text
    # single-dimension configurations of one metric share a table, one column each
    for name, ba in (("fizz", 53.0), ("fizz+SD", 56.0)):
        result_files.write_results(
            folder, "after", configurations.MetricConfig(name, "dlsd_acu"), [_result_row("a", 10, "dlsd_acu", ba)], meta
        )
    report.render_markdown(folder, out, tags=["after"], plots=False)
    text = open(out, encoding="utf-8").read()
    assert "### dlsd_acu: fizz, fizz+SD" in text
    assert "| a | 10 | 55.0 | 54.0 | 53.0 | no | 56.0 | yes |" in text
    # a rerun of one dataset replaces that dataset's rows and keeps the others
    meta["created"] = "2026-01-03T00:00:00+00:00"
    result_files.write_results(folder, "after", chi, [_result_row("b", 8, "chi", 58.0)], meta)
    report.render_markdown(folder, out, tags=["after"], plots=False)
    assert "| b | 8 | 52.0 | 51.0 | 58.0 | yes |" in open(out, encoding="utf-8").read()


def test_named_and_custom_configurations():
    configs = configurations.parse_configs(
        ["chi-paper", "rhi-linear", "dlsd", "mine=qhi:epsilon=0.1,derived=false"],
        {"host": "fenice", "nli_model": "tiny", "decomposer": "rules", "top_k": 2},
    )
    seeds = {
        "formula": "paper",
        "grounding": "units",
        "truecase": False,
        "relation_slots": "head",
        "intransitive": "none",
    }
    assert configs[0] == configurations.MetricConfig(
        "chi-paper", "chi", {**seeds, "normalize": "paper", "relation_matching": "sentence"}
    )
    assert configs[1].kwargs == {**seeds, "variant": "linear"}
    assert [c.name for c in configs[2:6]] == ["fenice", "fenice+SD", "fenice+DL", "fenice+SD+DL"]
    assert configs[3].kwargs == {
        "host": "fenice",
        "sd_acu": True,
        "dl_acu": "none",
        "nli_model": "tiny",
        "decomposer": "rules",
        "top_k": 2,
    }
    assert configs[4].kwargs["dl_acu"] == "auto" and configs[4].kwargs["sd_acu"] is False
    assert configs[6] == configurations.MetricConfig("mine", "qhi", {"epsilon": 0.1, "derived": False})
    with pytest.raises(ValueError):
        configurations.parse_configs(["nope"], {})


def test_smoke_run_of_chi_reference_free(tmp_path):
    documents = [
        "Microsoft acquired GitHub in 2018 for $7.5 billion. Nat Friedman became its chief executive.",
        "The city council approved a budget of 3 million euros for new parks on Monday.",
    ]
    claims = [
        ("Microsoft acquired GitHub in 2018.", 1),
        ("Google acquired GitHub in 2016.", 0),
        ("Nat Friedman became chief executive of GitHub.", 1),
        ("The council approved 3 million euros for parks.", 1),
        ("The council rejected a budget of 9 million euros.", 0),
        ("The mayor resigned on Friday.", 0),
    ]
    data = tmp_path / "tiny_val.jsonl"
    data.write_text(
        "".join(
            json.dumps({"document": documents[0] if k < 3 else documents[1], "claim": c, "label": y}) + "\n"
            for k, (c, y) in enumerate(claims)
        ),
        encoding="utf-8",
    )
    out = str(tmp_path / "results")
    assert (
        harness.main(
            [
                "run",
                "--summac",
                str(data),
                "--config",
                "chi",
                "--tag",
                "smoke",
                "--out",
                out,
                "--splits",
                "2",
                "--resamples",
                "20",
            ]
        )
        == 0
    )
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
    from benchmarks._common import Dataset

    data = Dataset(
        name="d",
        path="d.jsonl",
        sources=["s1", "s1", "s2", "s2", "s3", "s3"],
        predictions=["p"] * 6,
        labels=LABELS,
        systems=["X", "Y"] * 3,
        human_scores=[1.0, 0.0, 0.0, 1.0, 1.0, 0.0],
        human_column="Factuality",
        error_flags={"LinkE": [0, 1, 1, 0, 0, 0]},
    )
    outcome = evaluation.evaluate_dimension(SCORES, data, evaluation.Protocol(splits=1, resamples=10))
    assert outcome["balanced_accuracy_pct"] == 75.0 and outcome["balanced_accuracy_splits_pct"] == [75.0]
    assert outcome["roc_auc_pct"] == pytest.approx(800 / 9)
    assert outcome["error_rates"]["LinkE"] == {"n": 2, "fp_mean": 1.0, "rate_pct": 50.0}
    assert outcome["predicted_consistent_pct"] == 50.0  # held out: T F T F T F
    assert outcome["system_level"]["systems"] == 2 and outcome["summary_level"]["summaries"] == 6
    # with a test file: threshold tuned on all of `data`, applied unchanged to the test rows
    test = Dataset(name="d", path="t.jsonl", sources=["a", "b"], predictions=["p", "p"], labels=[1, 0])
    outcome = evaluation.evaluate_dimension(SCORES, data, evaluation.Protocol(), [0.5, 0.35], test)
    assert outcome["threshold"] == 0.4  # BA on data: 0.4 and 0.7 both 5/6; the lower wins
    assert outcome["balanced_accuracy_pct"] == 100.0 and outcome["roc_auc_pct"] == 100.0
    assert outcome["predicted_consistent_pct"] == 50.0


# ------------------------------------------------------------ leave-one-dataset-out (LODO)

# fold A: 6 rows, BA 1 at 0.3; fold B: 2 rows, BA 1 on (0.4, 0.8]
LODO_SCORES = {"A": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], "B": [0.4, 0.8]}
LODO_LABELS = {"A": [0, 0, 1, 1, 1, 1], "B": [0, 1]}


def test_lodo_threshold_maximises_the_mean_fold_balanced_accuracy():
    # mean of the two folds' BA: 0.1 .5, 0.2 .625, 0.3 (1 + .5)/2 = .75, 0.4 (.875 + .5)/2,
    # 0.5 (.75 + 1)/2 = .875, 0.6 .8125, 0.8 .75, inf .5 -> 0.5
    assert lodo.lodo_threshold(LODO_SCORES, LODO_LABELS) == 0.5
    assert lodo.mean_fold_balanced_accuracy(LODO_SCORES, LODO_LABELS, 0.5) == 0.875
    # pooled rows weigh fold A 3x: 0.3 gives (5/5 + 2/3)/2 = .833 > 0.5's (3/5 + 3/3)/2 = .8
    pooled = LODO_SCORES["A"] + LODO_SCORES["B"]
    assert measures.tune_threshold(pooled, LODO_LABELS["A"] + LODO_LABELS["B"]) == 0.3
    # parallel sequences work too; one fold = tune_threshold (NaN on top, lowest of ties)
    assert lodo.lodo_threshold([LODO_SCORES["A"], LODO_SCORES["B"]], [LODO_LABELS["A"], LODO_LABELS["B"]]) == 0.5
    assert lodo.lodo_threshold([[0.1, 0.4, 0.35, 0.8]], [[0, 0, 1, 1]]) == 0.35
    assert lodo.lodo_threshold({"x": [NAN, 0.3, 0.1]}, {"x": [1, 1, 0]}) == 0.3
    assert lodo.lodo_threshold({"x": [0.5, 0.5]}, {"x": [0, 0]}) == math.inf


def test_lodo_threshold_agrees_with_brute_force():
    import random

    rng = random.Random(3)
    for _ in range(100):
        folds = [[rng.choice([0.1, 0.2, 0.3, 0.5, NAN]) for _ in range(rng.randint(1, 7))] for _ in range(3)]
        labels = [[rng.randint(0, 1) for _ in fold] for fold in folds]
        candidates = sorted({math.inf if math.isnan(s) else s for fold in folds for s in fold} | {math.inf})
        mean = {
            t: sum(measures.balanced_accuracy(f, y, t) for f, y in zip(folds, labels, strict=True)) / 3
            for t in candidates
        }
        best = max(mean.values())
        assert lodo.lodo_threshold(folds, labels) == next(t for t in candidates if mean[t] >= best - 1e-12)


# three folds of one inconsistent (first) and one consistent (second) summary
CHOICE_LABELS = {"A": [0, 1], "B": [0, 1], "C": [0, 1]}
CHOICE_CANDIDATES = {
    "x": {"A": [0.2, 0.8], "B": [0.3, 0.7], "C": [0.6, 0.4]},
    "y": {"A": [0.5, 0.4], "B": [0.1, 0.9], "C": [0.1, 0.2]},
}


def test_lodo_evaluate_chooses_a_candidate_per_held_out_fold():
    result = lodo.lodo_evaluate(CHOICE_CANDIDATES, CHOICE_LABELS, {})
    a, b, c = result.folds["A"], result.folds["B"], result.folds["C"]
    # held out A: x on B, C best mean .75 at 0.4; y best 1.0 at 0.2 -> y; y on A at 0.2: all consistent
    assert (a.candidate, a.threshold, a.tuning_ba, a.ba, a.auc) == ("y", 0.2, 1.0, 0.5, 0.0)
    assert (a.in_sample_threshold, a.in_sample_ba, a.tuning_folds) == (0.4, 0.5, ("B", "C"))
    # held out B: x .75 at 0.4, y .75 at 0.2: a tie -> the first candidate, x; BA 1 on B
    assert (b.candidate, b.threshold, b.tuning_ba, b.ba, b.auc, b.in_sample_ba) == ("x", 0.4, 0.75, 1.0, 1.0, 1.0)
    # held out C: x 1.0 at 0.7, y .75 at 0.4 -> x; on C both summaries fall below 0.7
    assert (c.candidate, c.threshold, c.tuning_ba, c.ba, c.auc, c.in_sample_ba) == ("x", 0.7, 1.0, 0.5, 0.0, 0.5)
    assert result.mean_ba == pytest.approx(2 / 3) and result.mean_auc == pytest.approx(1 / 3)
    assert result.mean_in_sample_ba == pytest.approx(2 / 3) and result.gap == pytest.approx(0.0)
    assert (result.min_ba, result.min_fold) == (0.5, "A")
    # one candidate: the plain LODO of x (A: 0.4 from B, C -> 1.0; B: 0.4 -> 1.0; C: 0.7 -> 0.5)
    plain = lodo.lodo_evaluate({"x": CHOICE_CANDIDATES["x"]}, CHOICE_LABELS)
    assert plain.ba_by_fold() == {"A": 1.0, "B": 1.0, "C": 0.5}
    assert [f.threshold for f in plain.folds.values()] == [0.4, 0.4, 0.7]
    assert plain.mean_in_sample_ba == pytest.approx(5 / 6) and plain.gap == pytest.approx(0.0)
    margin = lodo.fold_margin(plain, result)
    assert margin.differences == {"A": 0.5, "B": 0.0, "C": 0.0}
    assert (margin.wins, margin.losses, margin.ties, margin.folds, margin.every_fold) == (1, 0, 2, 3, False)
    assert margin.mean_difference == pytest.approx(1 / 6) and margin.min_difference == 0.0


def test_lodo_evaluate_leaves_excluded_folds_out_of_tuning():
    # B held out without A: only C tunes; x's best on C is .5, y's 1.0 at 0.2 -> y, BA 1 on B
    result = lodo.lodo_evaluate(CHOICE_CANDIDATES, CHOICE_LABELS, {"B": ["A"]})
    b = result.folds["B"]
    assert (b.candidate, b.threshold, b.tuning_folds, b.excluded_folds, b.ba) == ("y", 0.2, ("C",), ("A",), 1.0)
    assert result.folds["A"].excluded_folds == ()  # the rule's output is symmetric; lodo_evaluate takes it as given
    # nothing left to tune on: threshold and BA undefined, skipped by the means
    alone = lodo.lodo_evaluate({"x": CHOICE_CANDIDATES["x"]}, {"A": [0, 1], "B": [0, 1]}, {"A": ["B"]})
    assert math.isnan(alone.folds["A"].ba) and alone.mean_ba == alone.folds["B"].ba


def test_exclusion_rule_on_synthetic_folds(tmp_path):
    from benchmarks._common import Dataset, fold_exclusions, load_folds, shared_pair_counts

    def fold(name, pairs):
        return Dataset(
            name=name,
            path=name,
            sources=[p[0] for p in pairs],
            predictions=[p[1] for p in pairs],
            labels=[1] * len(pairs),
        )

    folds = {
        "a": fold("a", [("Doc one.", "Sum one."), ("Doc two.", "Sum two.")]),
        "b": fold("b", [("Doc  one.\n", " Sum one."), ("Doc three.", "Sum three.")]),  # whitespace differs only
        "c": fold("c", [("Doc one.", "Another summary."), ("Doc two.", "sum two.")]),
    }  # document / case only
    assert fold_exclusions(folds) == {"a": ["b"], "b": ["a"], "c": []}
    assert shared_pair_counts(folds) == {("a", "b"): 1}
    # files: SummaC's frank and FRANK share a summary; FRANK splits by its dataset column
    summac = tmp_path / "frank_val.jsonl"
    summac.write_text(
        "".join(json.dumps({"document": d, "claim": c, "label": 1}) + "\n" for d, c in [("D1", "S1"), ("D9", "S9")]),
        encoding="utf-8",
    )
    other = tmp_path / "summeval_val.jsonl"
    other.write_text(json.dumps({"document": "D1", "claim": "S5", "label": 0}) + "\n", encoding="utf-8")
    frank = tmp_path / "frank.jsonl"
    frank.write_text(
        "".join(
            json.dumps(
                {
                    "article": d,
                    "summary": s,
                    "reference": "R",
                    "label": 0,
                    "dataset": g,
                    "model_name": "m",
                    "Factuality": 0.5,
                }
            )
            + "\n"
            for d, s, g in [("D1", "S1", "cnndm"), ("D2", "S2", "cnndm"), ("D3", "S3", "bbc")]
        ),
        encoding="utf-8",
    )
    loaded = load_folds([str(other), str(summac)], str(frank))
    assert list(loaded) == ["summeval", "summac-frank", "frank-cnndm", "frank-bbc"]
    assert loaded["frank-cnndm"].references == ["R", "R"] and loaded["summac-frank"].references is None
    assert fold_exclusions(loaded) == {
        "summeval": [],
        "summac-frank": ["frank-cnndm"],
        "frank-cnndm": ["summac-frank"],
        "frank-bbc": [],
    }
    # a row limit applies to every fold, FRANK's parts included (its first rows are all cnndm)
    limited = load_folds([str(summac)], str(frank), limit=1)
    assert {name: len(data) for name, data in limited.items()} == {"summac-frank": 1, "frank-cnndm": 1, "frank-bbc": 1}


def test_lockbox_split_by_source_document(tmp_path):
    from benchmarks._common import LOCKBOX_SEED, fold_exclusions, load_dataset, load_folds, lockbox_half

    # first byte of sha256("2025:<source>"): doc a 0x0c, doc b 0x45, doc c 0x34, doc d 0x6a,
    # doc e 0xeb, doc f 0xd3 -> odd (lockbox) for b, e, f
    sources = ["doc a", "doc b", "doc c", "doc d", "doc e", "doc f"]
    assert LOCKBOX_SEED == 2025
    assert lockbox_half(sources) == [False, True, False, False, True, True]
    assert lockbox_half(sources) == lockbox_half(list(sources))  # deterministic
    assert lockbox_half([" doc\n  b ", "doc  a"]) == [True, False]  # whitespace-normalised
    assert lockbox_half(["doc a", "doc b"], seed=7) == [True, False]  # "7:doc a" 0x0b, "7:doc b" 0x70
    # a file: several summaries per document; the halves partition the rows, a document's
    # summaries all on one side, and --limit counts rows of the half
    rows = [("doc a", "s1"), ("doc b", "s2"), ("doc a", "s3"), ("doc e", "s4"), ("doc c", "s5"), ("doc b", "s6")]
    path = tmp_path / "summeval_val.jsonl"
    path.write_text(
        "".join(json.dumps({"document": d, "claim": c, "label": 1}) + "\n" for d, c in rows), encoding="utf-8"
    )
    every = load_dataset(str(path))
    design = load_dataset(str(path), half="design")
    lockbox = load_dataset(str(path), half="lockbox")
    assert every.predictions == load_dataset(str(path), half="all").predictions == [c for _, c in rows]
    assert design.predictions == ["s1", "s3", "s5"] and design.sources == ["doc a", "doc a", "doc c"]
    assert lockbox.predictions == ["s2", "s4", "s6"]
    assert sorted(design.predictions + lockbox.predictions) == sorted(every.predictions)
    assert not set(design.sources) & set(lockbox.sources)
    assert load_dataset(str(path), limit=2, half="lockbox").predictions == ["s2", "s4"]  # split, then limit
    with pytest.raises(ValueError):
        load_dataset(str(path), half="test")
    # folds: FRANK split before its per-part limit; exclusions still compare pairs
    frank = tmp_path / "frank.jsonl"
    frank.write_text(
        "".join(
            json.dumps(
                {
                    "article": d,
                    "summary": s,
                    "reference": "R",
                    "label": 0,
                    "dataset": g,
                    "model_name": "m",
                    "Factuality": 0.5,
                }
            )
            + "\n"
            for d, s, g in [
                ("doc b", "s2", "cnndm"),
                ("doc a", "f1", "cnndm"),
                ("doc f", "f2", "bbc"),
                ("doc d", "f3", "bbc"),
                ("doc e", "f4", "bbc"),
            ]
        ),
        encoding="utf-8",
    )
    boxed = load_folds([str(path)], str(frank), half="lockbox")
    assert {name: data.predictions for name, data in boxed.items()} == {
        "summeval": ["s2", "s4", "s6"],
        "frank-cnndm": ["s2"],
        "frank-bbc": ["f2", "f4"],
    }
    assert fold_exclusions(boxed) == {"summeval": ["frank-cnndm"], "frank-cnndm": ["summeval"], "frank-bbc": []}
    designed = load_folds([str(path)], str(frank), limit=1, half="design")
    assert {name: data.predictions for name, data in designed.items()} == {
        "summeval": ["s1"],
        "frank-cnndm": ["f1"],
        "frank-bbc": ["f3"],
    }
    assert {n: len(d) for n, d in load_folds([str(path)], str(frank)).items()} == {
        "summeval": 6,
        "frank-cnndm": 2,
        "frank-bbc": 3,
    }
    jobs = build_jobs([str(path)], None, [], None, "auto", False, half="design")
    assert jobs[0].data.predictions == ["s1", "s3", "s5"]


def test_alnum_types_baseline():
    from benchmarks._common import alnum_precision

    # summary types {the, u, s, economy, grew, 3, it, said}: 5 in the source (the, economy, grew, 3, said)
    summary, source = "The U.S. economy grew 3%, it's said.", "Economy: the US grew by 3 percent, said officials"
    assert alnum_precision(summary, source) == 5 / 8
    assert unigram_precision(summary, source, distinct=True) == pytest.approx(2 / 7)  # the, economy
    assert alnum_precision("snake_case", "a snake and a case") == 1.0  # "_" splits
    assert alnum_precision("— !", "anything") == 0.0 and alnum_precision("", "x") == 0.0
    assert harness.score_baseline([summary], [source])["alnum-types"] == [5 / 8]


def _fold_row(dataset, dimension, scores, labels, excluded=()):
    row = _result_row(dataset, len(labels), dimension, 50.0)
    row["folds"] = {
        dataset: {"rows": len(labels), "labels": labels, "scores": scores, "excluded_when_held_out": list(excluded)}
    }
    return row


def test_lodo_section_renders_first_and_lodo_table_cli(tmp_path, capsys):
    folder = str(tmp_path / "results")
    meta = {
        "created": "2026-01-01T00:00:00+00:00",
        "halluscope": {"version": "0", "git_commit": "x"},
        "limit": None,
        "command": "test",
    }
    baseline = [_fold_row(f, "alnum-types", CHOICE_CANDIDATES["y"][f], CHOICE_LABELS[f]) for f in "ABC"]
    baseline += [
        _fold_row(f, d, [0.5, 0.5], CHOICE_LABELS[f]) for f in "ABC" for d in ("unigram-types", "unigram-tokens")
    ]
    result_files.write_results(folder, "t", None, baseline, meta)
    result_files.write_results(
        folder,
        "t",
        configurations.MetricConfig("chi", "chi"),
        [_fold_row(f, "chi", CHOICE_CANDIDATES["x"][f], CHOICE_LABELS[f]) for f in "ABC"],
        meta,
    )
    text = open(os.path.join(folder, "run-t-chi.json"), encoding="utf-8").read()
    assert '"scores": [0.2, 0.8]' in text  # number lists on one line
    out = str(tmp_path / "benchmarks.md")
    report.render_markdown(folder, out, plots=False)
    rendered = open(out, encoding="utf-8").read()
    assert (
        rendered.index("## Leave-one-dataset-out")
        < rendered.index("## How these numbers")
        < rendered.index("## Balanced accuracy (%), half-split")
    )
    # chi = x alone: A 100, B 100, C 50; y (alnum-types): A 50 (0.2 from B, C), B 100, C 50 (0.4 from A, B);
    # y in-sample: A 50, B 100, C 100 (0.2 separates C's two summaries) -> 83.3, gap 16.7
    assert (
        "| configuration | dimension | A | B | C | mean | min (fold) | in-sample | gap | folds > alnum-types |"
        in rendered
    )
    assert "| baseline | alnum-types | 50.0 | 100.0 | 50.0 | 66.7 | 50.0 (A) | 83.3 | 16.7 | – |" in rendered
    assert "| baseline | unigram-types | 50.0 | 50.0 | 50.0 | 50.0 | 50.0 (A) | 50.0 | 0.0 | 0 of 3 |" in rendered
    assert "| chi | chi | 100.0 | 100.0 | 50.0 | 83.3 | 50.0 (C) | 83.3 | 0.0 | 1 of 3 |" in rendered
    assert "| chi | chi | 100.0 | 100.0 | 0.0 | 66.7 |" in rendered  # ROC-AUC
    assert (
        "Excluded from the tuning folds (they share (source, summary) pairs with the held-out fold): none." in rendered
    )
    # lodo-table: the same table on stdout, with a choice among configurations
    assert harness.main(["lodo-table", "--results", folder, "--tag", "t", "--choose", "chi,baseline:alnum-types"]) == 0
    printed = capsys.readouterr().out
    assert "| chi | chi | 100.0 | 100.0 | 50.0 | 83.3 | 50.0 (C) | 83.3 | 0.0 | 1 of 3 |" in printed
    assert (
        "| choice of chi:chi, baseline:alnum-types | – | 50.0 | 100.0 | 50.0 | 66.7 | 50.0 (A) | 66.7 | 0.0 | 0 of 3 |"
    ) in printed
    assert "picked: A baseline:alnum-types; B chi:chi; C chi:chi" in printed
    assert harness.main(["lodo-table", "--results", folder, "--tag", "nope"]) == 1


def test_old_json_without_fold_data_renders_as_before(tmp_path):
    folder = tmp_path / "results"
    folder.mkdir()
    old = {
        "tag": "old",
        "config": {"name": "chi", "metric": "chi", "kwargs": {}},
        "created": "2025-01-01",
        "halluscope": {},
        "limit": None,
        "command": "x",
        "rows": [{**_result_row("a", 10, "chi", 61.0), "created": "2025-01-01"}],
    }
    (folder / "run-old-chi.json").write_text(json.dumps(old), encoding="utf-8")
    old_baseline = {
        **old,
        "config": {"name": "baseline", "metric": "unigram_precision", "kwargs": {}},
        "rows": [
            {**_result_row("a", 10, d, 55.0), "created": "2025-01-01"} for d in ("unigram-types", "unigram-tokens")
        ],
    }
    (folder / "run-old-baseline.json").write_text(json.dumps(old_baseline), encoding="utf-8")
    out = str(tmp_path / "benchmarks.md")
    report.render_markdown(str(folder), out, plots=False)
    text = open(out, encoding="utf-8").read()
    assert "Leave-one-dataset-out" not in text.split("## How these numbers")[0]
    assert "| a | 10 | 55.0 | 55.0 | 61.0 | yes |" in text
    assert lodo_tables.lodo_markdown(result_rows.load_results(str(folder)), "old") == ""
