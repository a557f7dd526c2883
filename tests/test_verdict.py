"""chi's verdict (halluscope.verdict): p_consistent, the shipped labels, and the
signature the calibration holds for (docs/benchmarks.md#p_consistent-and-the-shipped-labels)."""
from __future__ import annotations

import logging
import math

import pytest

from halluscope import score_chi
from halluscope.verdict import (Calibration, differing_fields, load_calibration, p_consistent, scored_signature,
                                unversioned, verdict)

SOURCE = "In 2020 the city council approved the new plan."
SUMMARIES = ["The council approved the plan in 2020.", "The council rejected the plan in 2021."]
TOY = Calibration("toy", intercept=0.0, slope=2.0, cut=0.6, signature="metric:chi|formula:support")


def test_p_consistent_is_the_logistic_of_chi():
    # sigmoid(0 + 2 x 0.5) = 1 / (1 + e^-1); sigmoid(0) = 1/2
    assert p_consistent(0.5, TOY) == pytest.approx(1 / (1 + math.exp(-1.0)), abs=1e-15)
    assert p_consistent(0.0, TOY) == 0.5
    assert math.isnan(p_consistent(math.nan, TOY))
    shipped = load_calibration()
    assert p_consistent(1.0) == pytest.approx(1 / (1 + math.exp(-(shipped.intercept + shipped.slope))))
    # strictly increasing: p ranks as chi does
    grid = [i / 100 for i in range(101)]
    assert all(a < b for a, b in zip(map(p_consistent, grid), map(p_consistent, grid[1:])))


def test_the_shipped_calibration_holds_for_chi_s_default_scores():
    """A default changed without refitting (benchmarks/calibrate.py) fails here."""
    result = score_chi(SUMMARIES, [SOURCE] * 2)
    assert differing_fields(result["signature"]) == []
    shipped = load_calibration()
    # the encoder's bfloat16 (where "auto" picks it) is the one difference allowed: SAME_SCORES_AT
    assert shipped.signature == scored_signature(unversioned(result["signature"])).replace(")@bf16|", ")|")
    assert result["signature"].endswith(f"|cal:{shipped.version}|cut:{shipped.cut:g}")


def test_the_calibration_holds_at_bfloat16_only_among_other_precisions():
    fitted = "halluscope:0.1.0|" + load_calibration().signature
    encoder = next(part for part in fitted.split("|") if part.startswith("enc:"))
    assert differing_fields(fitted) == []
    assert differing_fields(fitted.replace(encoder, encoder + "@bf16")) == []
    assert differing_fields(fitted.replace(encoder, encoder + "@fp16")) == ["enc"]


def test_score_chi_returns_p_consistent_and_labels_at_the_shipped_cut():
    shipped = load_calibration()
    result = score_chi(SUMMARIES, [SOURCE] * 2, return_details=True)
    p = [1 / (1 + math.exp(-(shipped.intercept + shipped.slope * chi))) for chi in result["chi_scores"]]
    assert result["p_consistent_scores"] == pytest.approx(p)
    assert result["chi_scores"][0] == 1.0 and result["chi_scores"][1] < 0.5  # rejected / 2021: contradicted
    assert result["labels"] == [1, 0] == [int(value >= shipped.cut) for value in p]
    assert [row["p_consistent"] for row in result["details"]] == result["p_consistent_scores"]
    assert result["p_consistent"] == pytest.approx(sum(p) / 2)


def test_threshold_sets_the_cut_and_none_turns_labels_off():
    everything = score_chi(SUMMARIES, [SOURCE] * 2, threshold=0.0)
    assert everything["labels"] == [1, 1] and everything["signature"].endswith("|cut:0")
    off = score_chi(SUMMARIES, [SOURCE] * 2, threshold=None)
    assert "labels" not in off and off.labels is None and off["signature"].endswith("|cut:none")
    assert off["p_consistent_scores"] == everything["p_consistent_scores"]


def test_other_options_get_no_verdict_and_one_warning(caplog):
    from halluscope import verdict as module

    module._warn_once.cache_clear()
    with caplog.at_level(logging.WARNING, logger="halluscope"):
        result = score_chi(SUMMARIES, [SOURCE] * 2, formula="paper")
        score_chi(SUMMARIES, [SOURCE] * 2, formula="paper")
    assert all(math.isnan(p) for p in result["p_consistent_scores"]) and "labels" not in result
    said = [r.getMessage() for r in caplog.records if "p_consistent is calibrated" in r.getMessage()]
    assert said == ["p_consistent is calibrated for chi's default scores; this call's differ in attr, ent, "
                    "formula, lex, lexidx, wn, so p_consistent is NaN and no labels are given "
                    "(docs/benchmarks.md#p_consistent-and-the-shipped-labels)"]  # once, not per call
    assert differing_fields(result["signature"]) == ["attr", "ent", "formula", "lex", "lexidx", "wn"]


def test_verdict_of_a_signature_it_does_not_hold_for():
    p, labels = verdict([1.0, 0.0], "metric:chi|formula:paper", 0.5)
    assert all(math.isnan(value) for value in p) and labels is None
