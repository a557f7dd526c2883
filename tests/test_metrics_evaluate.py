"""The four evaluate modules load offline, validate options and call the backend."""
import math
import os

import evaluate
import pytest

import halluscope.options

from halluscope import score_chi
from halluscope.registry import REGISTRY

SOURCES = ["Microsoft acquired the startup GitHub in 2018. The deal was worth $7.5 billion.",
           "Police arrested the suspect in Manchester on Monday."]
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
        assert chi[key] == direct[key] or all(math.isnan(a) and math.isnan(b) for a, b in zip(chi[key], direct[key]))
    ehi = metrics["ehi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES)
    assert ehi["ehi_scores"] == chi["ehi_scores"]
    rhi = metrics["rhi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES, variant="softmax")
    assert rhi["rhi_scores"] == chi["rhi_scores"]
    qhi = metrics["qhi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES)
    assert qhi["qhi_scores"] == chi["qhi_scores"]
    linear = metrics["rhi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES,
                                    formula="paper")
    # paper formula: rhi_norm = rhi / 2 in every row, reference-based (row 0) or reference-free (row 1)
    assert linear["rhi_norm_scores"] == [v / 2 for v in linear["rhi_scores"]]
    assert linear["rhi_norm_scores"][1] == rhi["rhi_scores"][1]  # the supported share
    # support formula (default): rhi and rhi_norm are both the supported share
    share = metrics["rhi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES)
    assert share["rhi_norm_scores"] == share["rhi_scores"] == rhi["rhi_scores"]


def test_list_of_references_feature(metrics):
    result = metrics["ehi"].compute(predictions=PREDICTIONS[:1], references=[[REFERENCES[0], "Putin visited."]],
                                    sources=SOURCES[:1], return_details=True)
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
    assert all(n == 1 for n in REGISTRY.load_counts.values())
    roles = {role for role, _, _ in REGISTRY.load_counts}
    assert {"spacy", "sentence encoder"} <= roles  # other tests may have loaded other roles


def test_add_batch_route(metrics):
    metric = metrics["chi"]
    metric.add_batch(predictions=PREDICTIONS[:1], references=REFERENCES[:1], sources=SOURCES[:1])
    metric.add_batch(predictions=PREDICTIONS[1:], references=REFERENCES[1:], sources=SOURCES[1:])
    batched = metric.compute()
    assert batched["chi_scores"] == score_chi(PREDICTIONS, SOURCES, REFERENCES)["chi_scores"]


@pytest.mark.parametrize("name", ["chi", "ehi", "rhi", "qhi", "dlsd_acu"])
def test_docstring_examples_run(name, repo_root, monkeypatch):
    """The runnable example in each script's docstring passes as a doctest."""
    import doctest
    import importlib.util

    monkeypatch.chdir(repo_root)  # the examples load "metrics/<name>" relative to the root
    spec = importlib.util.spec_from_file_location(f"script_{name}", os.path.join(repo_root, "metrics", name, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    test = doctest.DocTestParser().get_doctest(module._KWARGS_DESCRIPTION, {}, name, None, 0)
    assert test.examples, "the docstring has a runnable example"
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_wordnet_option_reaches_the_backend_and_the_signature(metrics):
    from halluscope.resources import get_lexicon

    default_id = get_lexicon().signature_id  # wn:3.0 with WordNet installed, wn:none without
    for name in ("chi", "rhi"):
        on = metrics[name].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES)
        off = metrics[name].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES, wordnet=False)
        assert f"|{default_id}|" in on["signature"], name
        assert "|wn:none|" in off["signature"], name
        # with WordNet, chi's entity part also says +place (EHI's place mode)
        assert off["signature"] == on["signature"].replace(f"|{default_id}|", "|wn:none|").replace(
            "+place|", "|"), name
        assert ("+place|" in on["signature"]) == (name == "chi" and default_id != "wn:none"), name
        paper = metrics[name].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES,
                                      formula="paper")
        assert "|wn:none|" in paper["signature"], name  # None: off under formula="paper"
    with pytest.raises(TypeError, match="wordnet"):
        metrics["rhi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES, wordnet=3)


def test_chi_details_give_word_level_support(metrics):
    result = metrics["chi"].compute(predictions=PREDICTIONS, references=REFERENCES, sources=SOURCES,
                                    return_details=True)
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
    assert free["chi_scores"] == metric.compute(predictions=PREDICTIONS, references=["", ""],
                                                sources=SOURCES)["chi_scores"]
    for prediction, reference, source in zip(PREDICTIONS, REFERENCES, SOURCES):
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
