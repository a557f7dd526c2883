"""chi's verdict (halluscope.verdict): p_consistent, the shipped labels, and the
signature the calibration holds for (docs/benchmarks.md#p_consistent-and-the-shipped-labels)."""

from __future__ import annotations

import logging
import math

import numpy as np
import pytest
from halluscope import score_chi
from halluscope.options import options_for
from halluscope.results import ScoreResult
from halluscope.verdict import (
    Calibration,
    Verdict,
    differing_fields,
    load_calibration,
    p_consistent,
    p_consistent_of,
    scored_signature,
    unversioned,
    verdict,
)

SOURCE = "In 2020 the city council approved the new plan."
SUMMARIES = ["The council approved the plan in 2020.", "The council rejected the plan in 2021."]
TOY = Calibration(
    "toy",
    knots_chi=(0.0, 0.5, 0.75, 1.0),
    knots_p=(0.1, 0.3, 0.5, 0.9),
    cut=0.5,
    signature="metric:chi|formula:support",
)


def test_p_consistent_interpolates_the_knots():
    # between (0.5, 0.3) and (0.75, 0.5): 0.3 + 0.2 x (0.6 - 0.5) / 0.25 = 0.38
    assert p_consistent(0.6, TOY) == pytest.approx(0.38, abs=1e-15)
    assert [p_consistent(x, TOY) for x in (0.0, 0.25, 0.5, 0.75, 0.875, 1.0)] == pytest.approx(
        [0.1, 0.2, 0.3, 0.5, 0.7, 0.9], abs=1e-15
    )
    assert p_consistent_of([0.0, 0.6, 1.0], TOY) == pytest.approx([0.1, 0.38, 0.9], abs=1e-15)
    with pytest.raises(ValueError, match="chi is undefined"):  # no NaN probability
        p_consistent(math.nan, TOY)
    with pytest.raises(ValueError, match=r"chi is undefined \(NaN\) in rows \[1, 3\]"):
        p_consistent_of([0.2, math.nan, 0.3, math.nan], TOY)


def test_the_shipped_p_is_strictly_increasing_on_0_1_and_its_label_is_p_at_least_one_half():
    """p ranks as chi does (strictly increasing: ROC-AUC of p is chi's), and the default
    label is p >= 0.5: the verdict never contradicts its own probability."""
    shipped = load_calibration()
    assert shipped.cut == 0.5 == options_for("chi")["threshold"].default
    grid = sorted({i / 1000 for i in range(1001)} | set(shipped.knots_chi))
    p = p_consistent_of(grid)
    # strict=False: each p with the next
    assert all(a < b for a, b in zip(p, p[1:], strict=False)) and 0 < p[0] and p[-1] < 1
    # a knot at p = 0.5 exactly: the label turns there, at the chi the fit calls consistent from
    crossing = shipped.knots_chi[shipped.knots_p.index(0.5)]
    assert p_consistent(crossing) == 0.5 and p_consistent(float(np.nextafter(crossing, 0))) < 0.5


@pytest.mark.parametrize(
    "knots_chi, knots_p, said",
    [
        ((0.0, 1.0, 0.5), (0.1, 0.2, 0.3), "strictly increasing"),
        ((0.0, 0.5, 1.0), (0.1, 0.1, 0.3), "strictly increasing"),
        ((0.1, 1.0), (0.1, 0.3), "strictly increasing from chi 0 to 1"),
        ((0.0, 0.9), (0.1, 0.3), "strictly increasing from chi 0 to 1"),
        ((0.0, 1.0), (0.1,), "the same length"),
        ((0.0, 1.0), (-0.1, 0.3), r"outside \[0, 1\]"),
    ],
)
def test_a_calibration_whose_knots_do_not_rank_as_chi_is_refused(knots_chi, knots_p, said):
    with pytest.raises(ValueError, match=said):
        Calibration("bad", knots_chi, knots_p, 0.5, "metric:chi")


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
    p = list(np.interp(result["chi_scores"], shipped.knots_chi, shipped.knots_p))
    assert result["p_consistent_scores"] == p
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


PAPER_REASON = (
    "p_consistent is calibrated for chi's default scores; this call's differ in attr (attribution), "
    "ent (entity_synonyms, or formula), formula (formula), lex (lexical_weight, or formula), "
    "lexidx (lexical_weight, or formula), wn (wordnet, or formula), so p_consistent and the labels "
    "are left out (docs/api.md#when-p_consistent-is-absent)"
)


def test_other_options_get_no_verdict_the_reason_and_one_warning(caplog):
    from halluscope import verdict as module

    module._warn_once.cache_clear()
    with caplog.at_level(logging.WARNING, logger="halluscope"):
        result = score_chi(SUMMARIES, [SOURCE] * 2, formula="paper", return_details=True)
        score_chi(SUMMARIES, [SOURCE] * 2, formula="paper")
    # absent, not NaN: no p key, no labels, no p in the details; the result says why
    assert not {"p_consistent", "p_consistent_scores", "labels"} & set(result)
    assert result.labels is None and "p_consistent" not in result.per_example
    assert not any("p_consistent" in row for row in result.details)
    assert result["p_consistent_reason"] == result.absent["p_consistent"] == PAPER_REASON
    said = [r.getMessage() for r in caplog.records if "p_consistent is calibrated" in r.getMessage()]
    assert said == [PAPER_REASON]  # once, not per call
    assert differing_fields(result["signature"]) == ["attr", "ent", "formula", "lex", "lexidx", "wn"]


def test_verdict_of_a_signature_it_does_not_hold_for():
    judged = verdict([1.0, 0.0], "metric:chi|formula:paper", 0.5)
    assert judged.p is None and judged.labels is None
    assert judged.reason.startswith("p_consistent is calibrated for chi's default scores; this call's differ in ")
    assert "formula (formula)" in judged.reason


def test_verdict_refuses_an_undefined_chi_where_the_calibration_holds():
    fitted = "halluscope:0.1.0|" + load_calibration().signature
    assert verdict([1.0, 0.0], fitted, 0.5) == Verdict([p_consistent(1.0), p_consistent(0.0)], [1, 0])
    with pytest.raises(ValueError, match=r"chi is undefined in rows \[1\]"):
        verdict([1.0, math.nan], fitted, 0.5)


#: one value of each chi option that changes its scores, and the signature field it changes
OTHER_OPTIONS = [
    ({"similarity_threshold": 0.8}, "sim (similarity_threshold)"),
    ({"epsilon": 0.1}, "qty (epsilon, derived, temporal)"),
    ({"derived": False}, "qty (epsilon, derived, temporal)"),
    ({"lexical_weight": 0.1}, "lex (lexical_weight, or formula)"),
    ({"weights": {"qhi": 2}}, "w (weights)"),
    ({"weights": {"ehi": 3, "rhi": 3, "qhi": 3}}, "w (weights)"),
    ({"weights": {"ehi": 0.25, "rhi": 0.25, "qhi": 0.25}}, "w (weights)"),
    ({"entity_synonyms": {"MS": "Microsoft"}}, "ent (entity_synonyms, or formula)"),
    ({"relation_matching": "exact"}, "rel (relation_matching)"),
    ({"truecase": False}, "case (truecase)"),
]


@pytest.mark.parametrize("given, named", OTHER_OPTIONS)
def test_no_option_gives_a_nan_probability(given, named):
    """Every chi option away from the calibrated scores leaves p and the labels out and
    names itself in the reason; no value anywhere in the result is a NaN probability."""
    result = score_chi(SUMMARIES, [SOURCE] * 2, return_details=True, **given)
    assert not {"p_consistent", "p_consistent_scores", "labels"} & set(result)
    assert named in result["p_consistent_reason"], result["p_consistent_reason"]
    assert not any("p_consistent" in row for row in result.details)


@pytest.mark.parametrize(
    "weights",
    [
        {"qhi": 1},
        {"ehi": 1, "rhi": 1, "qhi": 1},
        {"ehi": 2, "rhi": 2, "qhi": 2},
        {"ehi": 2.0**40, "rhi": 2.0**40, "qhi": 2.0**40},
    ],
)
def test_weights_that_fuse_as_the_default_keep_its_signature_and_verdict(weights):
    """Equal weights that check_weights scales to 1 (1, 2, 4, ...) fuse bit for bit as
    None does: the same signature, chi, p and labels. (Other equal weights, such as 3 or
    0.25, fuse through other roundings: OTHER_OPTIONS.)"""
    default = score_chi(SUMMARIES, [SOURCE] * 2)
    weighted = score_chi(SUMMARIES, [SOURCE] * 2, weights=weights)
    assert weighted == default and weighted.signature == default.signature
    assert weighted["p_consistent_scores"] == default["p_consistent_scores"] and weighted.labels == [1, 0]


def test_two_cuts_never_share_a_signature_and_their_results_do_not_merge():
    """The issue's case: two cuts 2e-9 apart printed one signature (5 digits), labelled
    a summary differently, and their results merged."""
    p = score_chi(SUMMARIES[:1], [SOURCE])["p_consistent_scores"][0]
    at, above = score_chi(SUMMARIES[:1], [SOURCE], threshold=p), score_chi(SUMMARIES[:1], [SOURCE], threshold=p + 2e-9)
    assert at.labels == [1] and above.labels == [0]
    assert at.signature.endswith(f"|cut:{p!r}") and above.signature.endswith(f"|cut:{p + 2e-9!r}")
    with pytest.raises(ValueError) as refused:
        ScoreResult.merge([at, above])
    assert str(refused.value) == (
        f"cannot merge results of different signatures: shard 1 was scored with other "
        f"options, models or versions than shard 0 (they differ in cut); "
        f"shard 0: {at.signature!r}; shard 1: {above.signature!r}"
    )
