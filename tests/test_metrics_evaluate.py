"""The four evaluate modules load offline, validate options and call the backend."""

import math
import os

import evaluate
import halluscope.options
import pytest
from halluscope import score_chi, score_ehi
from halluscope.registry import MODELS

SOURCES = [
    "Microsoft acquired the startup GitHub in 2018. The deal was worth $7.5 billion.",
    "Police arrested the suspect in Manchester on Monday.",
]
PREDICTIONS = ["Microsoft bought GitHub for $9 billion in 2019.", "Police arrested the suspect."]
REFERENCES = ["Microsoft acquired GitHub for $7.5 billion in 2018.", ""]


@pytest.fixture(scope="module")
def metrics(repo_root):
    assert os.environ.get("HF_HUB_OFFLINE") == "1"
    return {name: evaluate.load(os.path.join(repo_root, "metrics", name)) for name in ("chi", "ehi", "rhi", "qhi")}


def test_all_four_modules_compute_offline_and_match_the_backend(metrics):
    direct = score_chi(PREDICTIONS, SOURCES, REFERENCES)
    chi = metrics["chi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES)
    for key in ("chi_scores", "ehi_scores", "rhi_scores", "qhi_scores"):
        assert chi[key] == direct[key] or all(
            math.isnan(a) and math.isnan(b) for a, b in zip(chi[key], direct[key], strict=True)
        )
    ehi = metrics["ehi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES)
    assert ehi["ehi_scores"] == chi["ehi_scores"]
    rhi = metrics["rhi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES, variant="softmax")
    assert rhi["rhi_scores"] == chi["rhi_scores"]
    qhi = metrics["qhi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES)
    assert qhi["qhi_scores"] == chi["qhi_scores"]
    linear = metrics["rhi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES, formula="paper")
    # paper formula: rhi_norm = rhi / 2 in every row, reference-based (row 0) or reference-free (row 1)
    assert linear["rhi_norm_scores"] == [v / 2 for v in linear["rhi_scores"]]
    assert linear["rhi_norm_scores"][1] == rhi["rhi_scores"][1]  # the supported share
    # support formula (default): rhi and rhi_norm are both the supported share
    share = metrics["rhi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES)
    assert share["rhi_norm_scores"] == share["rhi_scores"] == rhi["rhi_scores"]


def test_list_of_references_feature(metrics):
    result = metrics["ehi"].compute(
        predictions=PREDICTIONS[:1],
        references=[[REFERENCES[0], "Putin visited."]],
        sources=SOURCES[:1],
        return_details=True,
    )
    assert result["details"][0]["ehi"]["reference_index"] == 0


def test_unknown_compute_and_init_options_fail(metrics, repo_root):
    with pytest.raises(TypeError):
        metrics["chi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES, normalise="paper")
    with pytest.raises(TypeError, match="unknown option"):
        evaluate.load(os.path.join(repo_root, "metrics", "chi"), spacy_modle="x")
    with pytest.raises(TypeError, match="unknown option"):
        evaluate.load(os.path.join(repo_root, "metrics", "ehi"), device="cuda")


def test_bad_row_after_the_first_is_reported_with_its_index(metrics):
    with pytest.raises(TypeError, match=r"row 1: `predictions` is None"):
        metrics["chi"].compute(predictions=["ok", None], references=["", ""], sources=SOURCES)
    with pytest.raises(ValueError, match=r"row 1: `sources` is empty"):
        metrics["qhi"].compute(predictions=["ok", "fine"], references=["", ""], sources=[SOURCES[0], "  "])


def test_loading_twice_and_computing_twice_loads_models_once(repo_root):
    for _ in range(2):
        metric = evaluate.load(os.path.join(repo_root, "metrics", "chi"))
        metric.compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES)
    assert all(n == 1 for n in MODELS.load_counts.values())
    roles = {role for role, _, _ in MODELS.load_counts}
    assert {"spacy", "sentence encoder"} <= roles  # other tests may have loaded other roles


def test_add_batch_route(metrics):
    metric = metrics["chi"]
    metric.add_batch(predictions=PREDICTIONS[:1], references=REFERENCES[:1], sources=SOURCES[:1])
    metric.add_batch(predictions=PREDICTIONS[1:], references=REFERENCES[1:], sources=SOURCES[1:])
    batched = metric.compute()
    assert batched["chi_scores"] == score_chi(PREDICTIONS, SOURCES, REFERENCES)["chi_scores"]


MODULES = ("chi", "ehi", "rhi", "qhi", "dlsd_acu")


def load_script(repo_root: str, name: str):
    """The module evaluate imports for ``metrics/<name>`` (its copy of ``<name>.py``)."""
    import importlib

    factory = evaluate.loading.evaluation_module_factory(os.path.join(repo_root, "metrics", name))
    return importlib.import_module(factory.module_path)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_load_by_the_bare_name_and_pass(name, repo_root, monkeypatch):
    """Each script's examples load ``evaluate.load("<name>")``, as evaluate's own
    modules' examples do, and pass as a doctest of the module evaluate imports, with
    that name resolved to this repository's folder (what evaluate's module tests do)."""
    import doctest

    real_load, asked = evaluate.load, []

    def load_from_this_repository(path, *args, **kwargs):
        asked.append(path)
        return real_load(os.path.join(repo_root, "metrics", path), *args, **kwargs)

    script = load_script(repo_root, name)
    monkeypatch.setattr(evaluate, "load", load_from_this_repository)
    results = doctest.testmod(script, raise_on_error=True)
    assert results.failed == 0 and results.attempted > 1
    assert asked == [name]


@pytest.mark.parametrize("name", MODULES)
def test_compute_declares_every_option_and_refuses_any_other_name(name, repo_root):
    """``_compute`` has no ``**kwargs`` (evaluate's module tests refuse one): its
    signature is generated from the option table, and a name outside it is still the
    OptionError naming it."""
    import inspect

    from halluscope.errors import OptionError
    from halluscope.options import METRIC_SPECS, options_for

    cls = evaluate.loading.import_main_class(load_script(repo_root, name).__name__)
    parameters = inspect.signature(cls._compute).parameters
    assert all(p.kind is not p.VAR_KEYWORD for p in parameters.values())
    dated = ["publication_dates"] if METRIC_SPECS[name].takes_dates else []
    assert list(parameters) == [
        "self",
        "predictions",
        "references",
        "sources",
        *dated,
        "return_details",
        *options_for(name),
    ]
    assert {key: parameters[key].default for key in options_for(name)} == {
        key: option.default for key, option in options_for(name).items()
    }
    module = evaluate.load(os.path.join(repo_root, "metrics", name))
    first = next(iter(options_for(name)))
    with pytest.raises(
        OptionError, match=rf"^{name}: unknown option\(s\) normalise; its options are {first}, "
    ) as caught:
        module.compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES, normalise="paper")
    assert caught.value.option == "normalise"


@pytest.mark.parametrize("name", MODULES)
def test_module_info_names_homepage_code_and_references(name, repo_root):
    info = evaluate.load(os.path.join(repo_root, "metrics", name)).info
    assert info.homepage == "https://github.com/halluscope/halluscope"
    assert info.codebase_urls == [
        "https://github.com/halluscope/halluscope",
        f"https://github.com/halluscope/halluscope/tree/main/metrics/{name}",
    ]
    assert info.reference_urls[0].startswith("https://github.com/halluscope/halluscope/blob/main/docs/papers.md#")
    assert info.module_name == name  # the prefix evaluate.combine gives this module's keys


def test_compute_returns_a_plain_dict_with_the_api_values(metrics):
    """A plain dict, so that any consumer can rebuild it (Trainer's
    ``type(d)(items)``); the same keys and values as the API's ScoreResult."""
    result = metrics["chi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES)
    assert type(result) is dict
    assert type(result)(result.items()) == result
    direct = score_chi(PREDICTIONS, SOURCES, REFERENCES)
    assert list(result) == list(direct)
    assert all(
        result[k] == direct[k] or (isinstance(result[k], float) and math.isnan(result[k]) and math.isnan(direct[k]))
        for k in direct
    )


def test_wordnet_option_reaches_the_backend_and_the_signature(metrics):
    from halluscope.resources import get_lexicon

    default_id = "wn:" + get_lexicon().wordnet_version  # wn:3.0 with WordNet installed, wn:none without
    for name in ("chi", "rhi"):
        on = metrics[name].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES)
        off = metrics[name].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES, wordnet=False)
        assert f"|{default_id}|" in on["signature"], name
        assert "|wn:none|" in off["signature"], name
        # with WordNet, chi's entity part also says +place (EHI's place mode)
        assert off["signature"] == on["signature"].replace(f"|{default_id}|", "|wn:none|").replace("+place|", "|"), name
        assert ("+place|" in on["signature"]) == (name == "chi" and default_id != "wn:none"), name
        paper = metrics[name].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES, formula="paper")
        assert "|wn:none|" in paper["signature"], name  # None: off under formula="paper"
    with pytest.raises(TypeError, match="wordnet"):
        metrics["rhi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES, wordnet=3)


def test_chi_details_give_word_level_support(metrics):
    result = metrics["chi"].compute(
        predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES, return_details=True
    )
    for row in result["details"]:
        words = row["words"]
        assert "content_word_precision" not in row
        statuses = [u["status"] for u in words["units"]]
        assert set(statuses) <= {"supported", "unsupported", "contradicted"}
        assert words["support_share"] == statuses.count("supported") / len(statuses)
        assert words["score"] == (words["support_share"] + words["written_share"]) / 2
        assert all({"text", "span", "key", "pos", "in_source", "status"} <= set(u) for u in words["units"])


@pytest.mark.parametrize("name", ["chi", "rhi"])
def test_scripts_document_the_wordnet_option(name, repo_root):
    script = open(os.path.join(repo_root, "metrics", name, f"{name}.py"), encoding="utf-8").read()
    assert f'halluscope.options.options_doc("{name}")' in script
    doc = " ".join(halluscope.options.options_doc(name).split())
    assert "wordnet (True, False, None or the path of a WordNet database folder; default None): WordNet 3.0" in doc
    assert "content_word_precision" not in script


def test_references_can_be_left_out_and_add_takes_one_source(metrics, repo_root):
    """evaluate conventions (issue 16): reference-free without a dummy column, and
    ``add(prediction=, reference=, source=)`` for one example."""
    metric = metrics["chi"]
    free = metric.compute(predictions=PREDICTIONS, sources=SOURCES)
    assert free["chi_scores"] == score_chi(PREDICTIONS, SOURCES, None)["chi_scores"]
    assert (
        free["chi_scores"]
        == metric.compute(predictions=PREDICTIONS, references=["", ""], sources=SOURCES)["chi_scores"]
    )
    for prediction, reference, source in zip(PREDICTIONS, REFERENCES, SOURCES, strict=True):
        metric.add(prediction=prediction, reference=reference, source=source)
    assert metric.compute()["chi_scores"] == score_chi(PREDICTIONS, SOURCES, REFERENCES)["chi_scores"]
    from test_acu_pipeline import overlap_scorer

    dlsd = evaluate.load(os.path.join(repo_root, "metrics", "dlsd_acu"), nli_scorer=overlap_scorer)
    result = dlsd.compute(predictions=PREDICTIONS, sources=SOURCES, decomposer="rules", coref="none", dl_acu="none")
    assert len(result["dlsd_acu_scores"]) == 2


def test_combine_prefixes_names_that_collide(repo_root):
    """evaluate.combine prefixes a key with its module's name when two modules return
    it (chi also returns ehi): documented in the chi card; chi alone gives all four."""
    combined = evaluate.combine([os.path.join(repo_root, "metrics", "chi"), os.path.join(repo_root, "metrics", "ehi")])
    keys = set(combined.compute(predictions=PREDICTIONS[:1], references=[""], sources=SOURCES[:1]))
    assert {"chi", "chi_ehi", "ehi_ehi", "rhi", "qhi"} <= keys


def same_value(a, b) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def test_combine_add_add_batch_compute_and_force_prefix(metrics):
    """``evaluate.combine([chi, rhi])`` end to end (issue 56): ``add`` hands each module
    ``predictions=``, ``references=``, ``sources=`` for one example, which ``add``
    takes as it takes the singular names; every route gives each module's own result."""
    chi, rhi = metrics["chi"], metrics["rhi"]
    alone = {
        "chi": chi.compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES),
        "rhi": rhi.compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES),
    }
    shared = set(alone["chi"]) & set(alone["rhi"])
    assert shared == {"rhi", "rhi_scores", "rhi_defined", "signature"}
    expected = {}
    for name, result in alone.items():
        expected.update({(f"{name}_{key}" if key in shared else key): value for key, value in result.items()})

    combined = evaluate.combine([chi, rhi])
    for prediction, reference, source in zip(PREDICTIONS, REFERENCES, SOURCES, strict=True):
        combined.add(prediction=prediction, reference=reference, sources=source)
    added = combined.compute()
    combined.add_batch(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES)
    batched = combined.compute()
    direct = combined.compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES)
    for result in (added, batched, direct):
        assert result.keys() == expected.keys()
        assert all(same_value(result[key], expected[key]) for key in expected)
    prefixed = evaluate.combine([chi, rhi], force_prefix=True).compute(
        predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES
    )
    assert set(prefixed) == {f"chi_{key}" for key in alone["chi"]} | {f"rhi_{key}" for key in alone["rhi"]}


def test_add_takes_singular_or_plural_names_but_not_both(metrics):
    from halluscope.errors import InputError

    metric = metrics["ehi"]
    metric.add(predictions=PREDICTIONS[0], references=REFERENCES[0], sources=SOURCES[0])
    metric.add(prediction=PREDICTIONS[1], reference=REFERENCES[1], source=SOURCES[1])
    assert metric.compute()["ehi_scores"] == score_ehi(PREDICTIONS, SOURCES, REFERENCES)["ehi_scores"]
    with pytest.raises(InputError, match=r"`prediction` and `predictions` name the same field") as caught:
        metric.add(prediction="a", predictions="b", source=SOURCES[0])
    assert caught.value.field == "predictions"
    with pytest.raises(InputError, match=r"row 0: `sources` is None"):
        metric.add(predictions=PREDICTIONS[0])
