"""Every option is declared once (halluscope.options) and every surface reads that
declaration: API signatures, validation, presets, evaluate config names, the CLI's
--option, the Space's controls, the metric cards and the signature."""

import dataclasses
import inspect
import math
import os

import evaluate
import pytest
from halluscope import api, options
from halluscope.acu.acu_options import ACU_FIELDS, AcuOptions
from halluscope.acu.discourse import DiscourseLinkUnits
from halluscope.acu.dlsd_signature import dlsd_signature
from halluscope.errors import OptionError
from halluscope.scoring_options import ScoringOptions
from halluscope.signature import signature
from halluscope.signature_text import mapping_digest, number
from hypothesis import given, settings
from hypothesis import strategies as st

SOURCE = ["Microsoft acquired the startup GitHub in 2018. The deal was worth $7.5 billion."]
SUMMARY = ["Microsoft bought GitHub in 2019 for $7.5 billion."]


def test_no_metric_declares_an_option_twice():
    for metric in options.METRICS:
        names = [o.name for o in options.OPTIONS if metric in o.metrics]
        assert len(names) == len(set(names)), metric


@pytest.mark.parametrize("metric", options.METRICS)
def test_api_signature_lists_every_declared_option_with_its_default(metric):
    parameters = inspect.signature(getattr(api, f"score_{metric}")).parameters
    declared = options.options_for(metric)
    assert {name: parameters[name].default for name in declared} == {n: o.default for n, o in declared.items()}
    data = {"predictions", "sources", "references", "return_details", "preset"}
    if metric in ("chi", "qhi"):
        data.add("publication_dates")
    assert set(parameters) == set(declared) | data


def test_option_classes_take_their_defaults_from_the_declarations():
    chi_family = {o.target: o.default for o in options.OPTIONS if set(o.metrics) & set(options.CHI_FAMILY)}
    assert {f.name: f.default for f in dataclasses.fields(ScoringOptions)} == chi_family
    dlsd = options.options_for("dlsd_acu")
    assert {f.name: f.default for f in dataclasses.fields(AcuOptions)} == {n: dlsd[n].default for n in ACU_FIELDS}


def test_resolve_fills_defaults_applies_the_preset_then_the_caller():
    values = options.resolve("rhi", {"grounding": "text"}, preset_name="paper")
    assert values["variant"] == "linear"  # declared default
    assert values["formula"] == "paper" and values["relation_slots"] == "head"  # preset
    assert values["grounding"] == "text"  # the caller over the preset
    assert "relation_matching" not in options.preset("paper", "rhi")
    assert options.preset("paper", "chi")["relation_matching"] == "sentence"
    assert options.preset("paper", "qhi") == {"formula": "paper", "grounding": "units", "truecase": False}


@pytest.mark.parametrize(
    "metric, given, option, message",
    [
        (
            "ehi",
            {"epsilon": 0.1},
            "epsilon",
            "ehi: unknown option(s) epsilon; its options are formula, grounding, "
            "normalize, truecase, attribution, entity_synonyms, spacy_model, workers, "
            "cache_mb",
        ),
        ("chi", {"formula": "papers"}, "formula", "`formula` must be one of ('support', 'paper'), got 'papers'"),
        ("chi", {"epsilon": 1.5}, "epsilon", "`epsilon` must be a number in [0, 1), got 1.5"),
        (
            "chi",
            {"epsilon": 1.0},
            "epsilon",
            "`epsilon` must be a number in [0, 1), got 1.0",
        ),  # was the matcher's ValueError
        ("chi", {"epsilon": math.nan}, "epsilon", "`epsilon` must be a number in [0, 1), got nan"),
        ("chi", {"truecase": 1}, "truecase", "`truecase` must be True or False, got 1"),
        ("rhi", {"batch_size": 0}, "batch_size", "`batch_size` must be an integer >= 1, got 0"),
        ("rhi", {"batch_size": True}, "batch_size", "`batch_size` must be an integer >= 1, got True"),
        (
            "chi",
            {"wordnet": 1.0},
            "wordnet",
            "`wordnet` must be True, False, None or the path of a WordNet database folder, got 1.0",
        ),
        ("dlsd_acu", {"top_k": 0}, "top_k", "`top_k` must be an integer >= 1 or None, got 0"),
        ("dlsd_acu", {"host": "summac"}, "host", "`host` must be one of ('fizz', 'fenice'), got 'summac'"),
        (
            "dlsd_acu",
            {"decomposer": 3},
            "decomposer",
            "`decomposer` must be one of 'seq2seq', 'rules' or an object of that interface, got 3",
        ),
        # weights: empty, NaN, negative, non-numeric or not a mapping are option errors, never equal weights
        (
            "chi",
            {"weights": {}},
            "weights",
            "`weights` is empty; give a weight per dimension to change, such as {'qhi': 2}, or None for equal weights",
        ),
        (
            "chi",
            {"weights": {"qhi": math.nan}},
            "weights",
            "`weights['qhi']` must be a positive finite number, got nan "
            "(weights are relative: every defined dimension counts)",
        ),
        (
            "chi",
            {"weights": {"ehi": -1}},
            "weights",
            "`weights['ehi']` must be a positive finite number, got -1 "
            "(weights are relative: every defined dimension counts)",
        ),
        (
            "chi",
            {"weights": {"rhi": 0}},
            "weights",
            "`weights['rhi']` must be a positive finite number, got 0 "
            "(weights are relative: every defined dimension counts)",
        ),
        (
            "chi",
            {"weights": {"qhi": "2"}},
            "weights",
            "`weights['qhi']` must be a positive finite number, got '2' "
            "(weights are relative: every defined dimension counts)",
        ),
        (
            "chi",
            {"weights": {"qhi": True}},
            "weights",
            "`weights['qhi']` must be a positive finite number, got True "
            "(weights are relative: every defined dimension counts)",
        ),
        (
            "chi",
            {"weights": {"qhi": math.inf}},
            "weights",
            "`weights['qhi']` must be a positive finite number, got inf "
            "(weights are relative: every defined dimension counts)",
        ),
        (
            "chi",
            {"weights": [2, 1, 1]},
            "weights",
            "`weights` must be a mapping such as {'ehi': 1, 'rhi': 1, 'qhi': 2}, got list",
        ),
        (
            "chi",
            {"weights": {"chi": 1}},
            "weights",
            "`weights` has unknown dimensions ['chi']; use ('ehi', 'rhi', 'qhi')",
        ),
    ],
)
def test_bad_options_name_themselves(metric, given, option, message):
    with pytest.raises(OptionError) as caught:
        options.resolve(metric, given)
    assert caught.value.option == option and str(caught.value) == message
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, TypeError)


def test_api_rejects_unknown_options_before_scoring():
    with pytest.raises(
        OptionError, match="qhi: unknown option.s. variant; its options are formula, grounding, normalize"
    ):
        api.score_qhi(SUMMARY, SOURCE, variant="linear")
    with pytest.raises(OptionError, match="unknown preset 'seed'; presets: default, paper"):
        api.score_chi(SUMMARY, SOURCE, preset="seed")


def test_the_paper_preset_equals_its_options_spelt_out():
    by_preset = api.score_chi(SUMMARY, SOURCE, preset="paper")
    spelt_out = api.score_chi(
        SUMMARY,
        SOURCE,
        formula="paper",
        grounding="units",
        truecase=False,
        relation_slots="head",
        intransitive="none",
        relation_matching="sentence",
    )
    assert by_preset["chi_scores"] == spelt_out["chi_scores"]
    assert by_preset["signature"] == spelt_out["signature"]
    assert "formula:paper" in by_preset["signature"] and "slots:head" in by_preset["signature"]


def test_evaluate_config_name_selects_the_preset(repo_root):
    path = os.path.join(repo_root, "metrics", "chi")
    paper = evaluate.load(path, "paper").compute(predictions=SUMMARY, references=[""], sources=SOURCE)
    assert paper["chi_scores"] == api.score_chi(SUMMARY, SOURCE, [""], preset="paper")["chi_scores"]
    default = evaluate.load(path).compute(predictions=SUMMARY, references=[""], sources=SOURCE)
    assert default["signature"] != paper["signature"]
    with pytest.raises(OptionError, match="chi: unknown configuration 'papers'; the presets are default, paper"):
        evaluate.load(path, "papers")


@pytest.mark.parametrize(
    "name, text, value",
    [
        ("formula", "paper", "paper"),
        ("truecase", "false", False),
        ("epsilon", "0.1", 0.1),
        ("weights", '{"qhi": 2}', {"qhi": 2}),
        ("attribution", "null", None),
        ("wordnet", "/opt/wn", "/opt/wn"),
    ],
)
def test_cli_values_are_json_or_text_then_checked(name, text, value):
    assert options.parse_cli_value("chi", name, text) == value


@pytest.mark.parametrize("text", ["{}", '{"qhi": NaN}', '{"qhi": -2}', '{"qhi": "2"}', "[1]", "2"])
def test_cli_refuses_the_weights_the_api_refuses(text):
    with pytest.raises(OptionError) as caught:
        options.parse_cli_value("chi", "weights", text)
    assert caught.value.option == "weights" and str(caught.value).startswith("`weights")


def test_cli_cannot_set_python_objects():
    assert "nli_scorer" not in options.cli_option_names("dlsd_acu")
    assert "dl_units" not in options.cli_option_names("dlsd_acu")
    assert "nli_model" in options.cli_option_names("dlsd_acu")


def test_space_controls_follow_the_declarations():
    assert [o.name for o in options.space_controls("qhi")] == [
        "formula",
        "grounding",
        "normalize",
        "epsilon",
        "derived",
        "temporal",
        "truecase",
        "attribution",
    ]
    assert [o.name for o in options.space_controls("ehi")] == [
        "formula",
        "grounding",
        "normalize",
        "truecase",
        "attribution",
    ]
    assert "variant" in [o.name for o in options.space_controls("rhi")]
    assert "variant" not in [o.name for o in options.space_controls("chi")]


@pytest.mark.parametrize("metric", options.METRICS)
def test_cards_show_the_generated_option_table(metric, repo_root):
    with open(os.path.join(repo_root, "metrics", metric, "README.md"), encoding="utf-8") as handle:
        card = handle.read()
    assert options.card_with_table(card, metric) == card, "run `python -m halluscope.cards` to update the card"


def test_options_table_rows():
    table = options.options_table("qhi").splitlines()
    assert table[3] == (
        "| `formula` | one of ('support', 'paper') | `'support'` | `'paper'` | "
        + options.options_for("qhi")["formula"].doc
        + " |"
    )
    assert len(table) == 2 + 2 + len(options.options_for("qhi"))


#: options that choose resources or batching, not the score (the signature names the
#: models themselves, not how they were given)
NOT_IN_SIGNATURE = {"batch_size", "device", "spacy_model", "sentence_model", "cache_mb", "workers"}
ALTERNATIVES = {
    "formula": "paper",
    "grounding": "units",
    "normalize": "minmax",
    "relation_matching": "exact",
    "similarity_threshold": 0.9,
    "epsilon": 0.1,
    "derived": False,
    "temporal": False,
    "truecase": False,
    "attribution": False,
    "relation_slots": "head",
    "intransitive": "all",
    "wordnet": False,
    "lexical_weight": 0.1,
    "weights": {"qhi": 2},
    "entity_synonyms": {"MS": "Microsoft"},
    "threshold": 0.6,
    "encoder_dtype": "float16",
}  # "auto" is bfloat16 or float32, never float16


@pytest.mark.parametrize("metric", ["chi", "rhi"])
def test_every_option_that_changes_a_score_changes_the_signature(metric):
    """sacrebleu's rule: two scores are comparable only if their signatures agree,
    so each option that can change a score must show in the signature."""
    dimensions = ("ehi", "rhi", "qhi")
    fuse = metric == "chi"
    base = signature(metric, dimensions, ScoringOptions.from_options(metric, {}), fuse)
    changed = []
    for name in options.options_for(metric):
        if name in NOT_IN_SIGNATURE:
            continue
        value = ALTERNATIVES.get(name, "softmax" if name == "variant" else None)
        given = {name: value}
        if name in ("attribution", "lexical_weight"):
            given["formula"] = "support"
        other = signature(metric, dimensions, ScoringOptions.from_options(metric, given), fuse)
        assert other != base, name
        changed.append(name)
    # every option tried had an alternative of its own (a new option without one would be
    # tried with None and could pass or fail by accident): the count was a tautology
    assert set(changed) <= set(ALTERNATIVES) | {"variant"}, sorted(set(changed) - set(ALTERNATIVES))


# ------------------------------------------------- numbers in signatures, in full


def _chi_signature(**given) -> str:
    return signature("chi", ("ehi", "rhi", "qhi"), ScoringOptions.from_options("chi", given), True)


def _dlsd_signature(threshold=None, **given) -> str:
    return dlsd_signature(
        AcuOptions(**given),
        decomposer="rules",
        nli="nli",
        dtype="float32",
        max_length=512,
        dl="dep@tau0.4,delta0.88",
        threshold=threshold,
    )


@pytest.mark.parametrize(
    "value, text",
    [
        (0.85, "0.85"),
        (0.28251, "0.28251"),
        (0.28251 + 2e-9, "0.282510002"),
        (1e-9, "1e-09"),
        (2, "2"),
        (2.0, "2"),
        (0.0, "0"),
        (1.5e300, "1.5e+300"),
        (0.1 + 0.2, "0.30000000000000004"),
    ],
)
def test_numbers_are_written_in_full(value, text):
    assert number(value) == text and float(text) == value


#: the chi-family options whose number the signature writes, the field it writes it in,
#: and the companions that make the field appear
CHI_NUMBERS = {
    "similarity_threshold": ("sim:{}", {}),
    "epsilon": ("@{}|", {}),
    "lexical_weight": ("lex:{}", {}),
    "threshold": ("cut:{}", {}),
}
UNIT = st.floats(0.0, 0.99)  # the next float up is a valid value too (epsilon < 1)


@pytest.mark.parametrize("name", sorted(CHI_NUMBERS))
@settings(max_examples=40, deadline=None)
@given(value=UNIT)
def test_two_values_of_a_chi_number_never_share_a_signature(name, value):
    """The class of the issue's two cuts 2e-9 apart: any two different values, down to the
    next float, give two signatures, and the signature holds the value exactly."""
    if name == "lexical_weight" and value == 0.0:
        value = 5e-324  # 0 turns the lexical term (and its field) off
    neighbour = math.nextafter(value, 1.0)
    pattern, companions = CHI_NUMBERS[name]
    first, second = _chi_signature(**{name: value}, **companions), _chi_signature(**{name: neighbour}, **companions)
    assert first != second
    assert pattern.format(repr(value).removesuffix(".0")) in first + "|"


@settings(max_examples=40, deadline=None)
@given(weight=st.floats(1e-6, 1e6))
def test_two_weights_never_share_a_signature(weight):
    neighbour = math.nextafter(weight, math.inf)
    assert _chi_signature(weights={"qhi": weight}) != _chi_signature(weights={"qhi": neighbour})


#: dlsd_acu's numbers, the field that writes each, and the options that make it appear
DLSD_NUMBERS = {
    "mix_weight": ("agg:mix@{}", {"aggregation": "mix"}),
    "expansion_threshold": ("expand:yes@{}", {"expansion": True}),
}


@pytest.mark.parametrize("name", sorted(DLSD_NUMBERS) + ["threshold", "tau", "delta"])
@settings(max_examples=40, deadline=None)
@given(value=UNIT)
def test_two_values_of_a_dlsd_number_never_share_a_signature(name, value):
    neighbour = math.nextafter(value, 1.0)

    def signed(x: float) -> str:
        if name == "threshold":
            return _dlsd_signature(threshold=x)
        if name in ("tau", "delta"):
            return DiscourseLinkUnits("dep", **{name: x}).name
        pattern, companions = DLSD_NUMBERS[name]
        return _dlsd_signature(**{name: x}, **companions)

    assert signed(value) != signed(neighbour)
    assert number(value) in signed(value)


def test_dlsd_labels_cut_is_in_the_signature_only_with_labels():
    assert "cut:" not in _dlsd_signature() and _dlsd_signature(threshold=0.5).endswith("|cut:0.5")


def test_entity_synonyms_are_in_the_signature_by_their_digest():
    one, other = {"MS": "Microsoft"}, {"MS": "Microsoft Corp"}
    assert f"+userdict@{mapping_digest(one)}" in _chi_signature(entity_synonyms=one)
    assert _chi_signature(entity_synonyms=one) != _chi_signature(entity_synonyms=other)
    assert mapping_digest({"a": "b", "c": "d"}) == mapping_digest({"c": "d", "a": "b"})


@pytest.mark.parametrize("weights", [None, {"qhi": 1}, {"ehi": 2, "rhi": 2, "qhi": 2}])
def test_weights_that_fuse_as_none_sign_as_none(weights):
    assert _chi_signature(weights=weights) == _chi_signature() and "|w:" not in _chi_signature(weights=weights)
    assert "|w:ehi=1,rhi=1,qhi=2|" in _chi_signature(weights={"qhi": 2})
    assert "|w:ehi=3,rhi=3,qhi=3|" in _chi_signature(weights={"ehi": 3, "rhi": 3, "qhi": 3})


#: each metric's options in declaration order: the order of the CLI's flags, the cards'
#: tables, the API signatures and the Space's controls
DECLARED_ORDER = {
    "chi": "formula grounding normalize relation_matching similarity_threshold epsilon derived temporal "
    "truecase attribution relation_slots intransitive wordnet lexical_weight threshold weights "
    "entity_synonyms batch_size spacy_model sentence_model device encoder_dtype workers cache_mb",
    "ehi": "formula grounding normalize truecase attribution entity_synonyms spacy_model workers cache_mb",
    "rhi": "formula grounding variant normalize relation_matching similarity_threshold truecase attribution "
    "relation_slots intransitive wordnet batch_size spacy_model sentence_model device encoder_dtype workers "
    "cache_mb",
    "qhi": "formula grounding normalize epsilon derived temporal truecase attribution spacy_model workers cache_mb",
    "dlsd_acu": "host sd_acu top_k threshold aggregation alignment expansion expansion_threshold mix_weight "
    "filter_acus coref decomposer decomposer_model dl_acu tau delta nli_model nli_scorer nli_engine dl_units "
    "device dtype batch_size max_length cache_mb",
}


@pytest.mark.parametrize("metric", options.METRICS)
def test_options_keep_their_declaration_order(metric):
    assert tuple(options.options_for(metric)) == tuple(DECLARED_ORDER[metric].split())


def test_the_option_table_is_assembled_from_its_row_modules_in_order():
    from halluscope.chi_family_options import CHI_FAMILY_OPTIONS
    from halluscope.dlsd_options import DLSD_OPTIONS

    assert options.OPTIONS[: len(CHI_FAMILY_OPTIONS)] == CHI_FAMILY_OPTIONS
    assert options.OPTIONS[len(CHI_FAMILY_OPTIONS) :][: len(DLSD_OPTIONS)] == DLSD_OPTIONS
    assert [o.name for o in options.OPTIONS[len(CHI_FAMILY_OPTIONS) + len(DLSD_OPTIONS) :]] == ["workers", "cache_mb"]


def test_option_types_import_none_of_the_table_modules():
    import ast

    import halluscope.option_types

    with open(halluscope.option_types.__file__, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert not imported & {"options", "chi_family_options", "dlsd_options"}
