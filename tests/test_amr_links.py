"""AMR discourse links, link subgraphs (Mind the Link §3.1.1, docs/papers.md#dl-acu) and the amrlib
extractor plumbing."""

from __future__ import annotations

from typing import Any

import amrlib
import penman
import pytest
from halluscope.acu import amr_links
from halluscope.acu.amr_links import (
    AmrLinkExtractor,
    find_links,
    find_model_dir,
    is_predicate,
    link_subgraph,
    tolerant_generate,
)
from halluscope.registry import ModelNotAvailableError, ModelRegistry

PFIZER = (
    '(s / ship-01 :ARG0 (c / company :wiki "Pfizer" :name (n / name :op1 "Pfizer"))'
    ' :time (b / before :op1 (a / approve-01 :ARG0 (o / organization :name (n2 / name :op1 "FDA")))))'
)
CORRUPTION = (
    "(r / resign-01 :ARG0 (p / person :ARG0-of (h / have-org-role-91 :ARG2 (m / minister)))"
    " :cause (c / corrupt-01 :ARG0 p) :time (d / date-entity :year 2020))"
)
HIDE = "(s / shred-01 :ARG0 (h / he) :ARG1 (d / document) :purpose (h2 / hide-01 :ARG0 h :ARG1 (e / evidence)))"
NOTICE = (
    '(l / leave-11 :ARG0 (p / person :name (n / name :op1 "John" :op2 "Smith"))'
    " :time (a / after :quant (t / temporal-quantity :quant 2 :unit (d / day))"
    " :op1 (n2 / notice-01 :ARG0 p :ARG1 (l2 / leak-01))) :polarity -)"
)
INVERSE = (
    "(a / attack-01 :ARG0 (r / rebel) :ARG1 (c / civilian)"
    " :cause-of (i / impose-01 :ARG0 (g / government) :ARG1 (s / sanction-02))"
    ' :time-of (c2 / capture-01 :ARG0 r :ARG1 (c3 / city :name (n / name :op1 "Homs"))))'
)


def sub(amr: str, link) -> str:
    return penman.encode(link_subgraph(penman.decode(amr), link), indent=None)


def test_is_predicate() -> None:
    assert [is_predicate(c) for c in ("attack-01", "have-org-role-91", "person", "date-entity", None)] == [
        True,
        True,
        False,
        False,
        False,
    ]


def test_find_links_forward_inverse_and_markers() -> None:
    assert find_links(penman.decode(PFIZER)) == [("s", ":time", "a")]
    assert find_links(penman.decode(CORRUPTION)) == [("r", ":cause", "c")]
    assert find_links(penman.decode(HIDE)) == [("s", ":purpose", "h2")]
    assert find_links(penman.decode(NOTICE)) == [("l", ":time", "n2")]
    assert find_links(penman.decode(INVERSE)) == [("i", ":cause", "a"), ("c2", ":time", "a")]


def test_find_links_needs_predicates_at_both_ends() -> None:
    for amr in (
        "(f / flood-01 :cause (d / drought))",
        "(f / fight-01 :time (a / after :op1 (w / war)))",
        "(f / fight-01 :time (d / date-entity :year 2001))",
        "(p / person :cause (a / attack-01))",
        "(f / fight-01 :manner (a / attack-01))",
    ):
        assert find_links(penman.decode(amr)) == []


def test_subgraph_through_before_marker_keeps_names() -> None:
    assert sub(PFIZER, ("s", ":time", "a")) == (
        '(s / ship-01 :ARG0 (c / company :wiki "Pfizer" :name (n / name :op1 "Pfizer"))'
        ' :time (b / before :op1 (a / approve-01 :ARG0 (o / organization :name (n2 / name :op1 "FDA")))))'
    )


def test_subgraph_cause_keeps_nested_inverse_role_and_drops_other_roles() -> None:
    assert sub(CORRUPTION, ("r", ":cause", "c")) == (
        "(r / resign-01 :ARG0 (p / person :ARG0-of (h / have-org-role-91 :ARG2 (m / minister)))"
        " :cause (c / corrupt-01 :ARG0 p))"
    )


def test_subgraph_purpose() -> None:
    assert sub(HIDE, ("s", ":purpose", "h2")) == (
        "(s / shred-01 :ARG0 (h / he) :ARG1 (d / document) :purpose (h2 / hide-01 :ARG0 h :ARG1 (e / evidence)))"
    )


def test_subgraph_after_marker_with_quant_and_polarity_option() -> None:
    graph = penman.decode(NOTICE)
    link = ("l", ":time", "n2")
    assert penman.encode(link_subgraph(graph, link), indent=None) == (
        '(l / leave-11 :ARG0 (p / person :name (n / name :op1 "John" :op2 "Smith"))'
        " :time (a / after :op1 (n2 / notice-01 :ARG0 p :ARG1 (l2 / leak-01))"
        " :quant (t / temporal-quantity :quant 2 :unit (d / day))))"
    )
    assert penman.encode(link_subgraph(graph, link, extra_roles=(":polarity",)), indent=None) == (
        '(l / leave-11 :ARG0 (p / person :name (n / name :op1 "John" :op2 "Smith")) :polarity -'
        " :time (a / after :op1 (n2 / notice-01 :ARG0 p :ARG1 (l2 / leak-01))"
        " :quant (t / temporal-quantity :quant 2 :unit (d / day))))"
    )


def test_subgraph_inverse_roles_normalised_to_forward() -> None:
    assert sub(INVERSE, ("i", ":cause", "a")) == (
        "(i / impose-01 :ARG0 (g / government) :ARG1 (s / sanction-02)"
        " :cause (a / attack-01 :ARG0 (r / rebel) :ARG1 (c / civilian)))"
    )
    assert sub(INVERSE, ("c2", ":time", "a")) == (
        '(c2 / capture-01 :ARG0 (r / rebel) :ARG1 (c3 / city :name (n / name :op1 "Homs"))'
        " :time (a / attack-01 :ARG0 r :ARG1 (c / civilian)))"
    )


def test_subgraph_skips_predicate_wiki_name_op_and_pulls_in_reentrant_definitions() -> None:
    amr = (
        '(s / say-01 :ARG0 (p / person :name (n / name :op1 "Ann")) :ARG1 (r / resign-01 :wiki "x"'
        ' :name (n3 / name :op1 "y") :op1 (z / zone) :location (c2 / city) :ARG0 p'
        " :cause (c / corrupt-01 :ARG0 p :ARG1 (g / government))))"
    )
    graph = penman.decode(amr)
    assert find_links(graph) == [("r", ":cause", "c")]
    sub_graph = link_subgraph(graph, ("r", ":cause", "c"))
    text = penman.encode(sub_graph, indent=None)
    assert text == (
        '(r / resign-01 :ARG0 (p / person :name (n / name :op1 "Ann"))'
        " :cause (c / corrupt-01 :ARG0 p :ARG1 (g / government)))"
    )
    again = penman.decode(penman.encode(sub_graph))
    assert again.top == "r"
    assert sorted(again.triples) == sorted(sub_graph.triples)


# ---------------------------------------------------------------- extractor plumbing


class FakeStog:
    def __init__(self, outputs: list[Any]) -> None:
        self.outputs = outputs
        self.calls: list[list[str]] = []

    def parse_sents(self, sents, add_metadata=True, disable_progress=True):
        self.calls.append(list(sents))
        return list(self.outputs[: len(sents)])  # one output per sentence, as amrlib's


class FakeGtos:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def generate(self, graphs, disable_progress=True, use_tense=False):
        self.calls.append({"graphs": list(graphs), "use_tense": use_tense})
        return [f"text {i}" for i in range(len(graphs))], [False] * len(graphs)


@pytest.fixture
def fakes(monkeypatch, tmp_path):
    registry = ModelRegistry()
    monkeypatch.setattr(amr_links, "MODELS", registry)
    stog = FakeStog(
        ["# ::snt Pfizer ships before the FDA approves.\n" + PFIZER, None, "(g / go-02 :ARG0 (b / boy))", "(x / broken"]
    )
    gtos = FakeGtos()
    loads: list[tuple] = []

    def load_stog_model(model_dir=None, **kwargs):
        loads.append(("stog", model_dir, kwargs))
        return stog

    def load_gtos_model(model_dir=None, **kwargs):
        loads.append(("gtos", model_dir, kwargs))
        return gtos

    monkeypatch.setattr(amrlib, "load_stog_model", load_stog_model)
    monkeypatch.setattr(amrlib, "load_gtos_model", load_gtos_model)
    (tmp_path / "stog").mkdir()
    (tmp_path / "gtos").mkdir()
    return {"stog": stog, "gtos": gtos, "loads": loads, "registry": registry, "dir": tmp_path}


def test_extract_outputs_failures_and_load_once(fakes) -> None:
    base = fakes["dir"]
    extractor = AmrLinkExtractor(str(base / "stog"), str(base / "gtos"), device="cpu", batch_size=4)
    assert fakes["loads"] == []  # lazy
    sentences = ["Pfizer ships before the FDA approves.", "???", "The boy goes.", "Broken."]
    result = extractor.extract(sentences)
    graph = (
        '(s / ship-01\n   :ARG0 (c / company\n            :wiki "Pfizer"\n            :name (n / name\n'
        '                     :op1 "Pfizer"))\n   :time (b / before\n            :op1 (a / approve-01\n'
        "                    :ARG0 (o / organization\n                             :name (n2 / name\n"
        '                                       :op1 "FDA")))))'
    )
    assert result == [[{"text": "text 0", "relation": "time", "graph": graph}], [], [], []]
    assert extractor.parse_failures == 2
    assert fakes["stog"].calls == [sentences]
    assert fakes["gtos"].calls == [
        {"graphs": ["# ::snt Pfizer ships before the FDA approves.\n" + graph], "use_tense": True}
    ]
    extractor.extract(sentences)
    AmrLinkExtractor(str(base / "stog"), str(base / "gtos"), device="cpu").extract(sentences[:1])
    assert fakes["loads"] == [
        ("stog", str(base / "stog"), {"device": "cpu", "batch_size": 4}),
        ("gtos", str(base / "gtos"), {"device": "cpu", "batch_size": 4}),
    ]
    assert sorted(fakes["registry"].load_counts.values()) == [1, 1]
    assert extractor.parse_failures == 4


def test_extract_without_links_never_loads_gtos(fakes) -> None:
    fakes["stog"].outputs = ["(g / go-02 :ARG0 (b / boy))"]
    extractor = AmrLinkExtractor(str(fakes["dir"] / "stog"), str(fakes["dir"] / "gtos"), device="cpu")
    assert extractor.extract(["The boy goes."]) == [[]]
    assert extractor.extract([]) == []
    assert [entry[0] for entry in fakes["loads"]] == ["stog"]


def test_env_resolution_and_data_dir_lookup(fakes, monkeypatch) -> None:
    base = fakes["dir"]
    monkeypatch.setenv("HALLUSCOPE_AMR_STOG", str(base / "stog"))
    monkeypatch.delenv("HALLUSCOPE_AMR_GTOS", raising=False)
    extractor = AmrLinkExtractor()
    assert (extractor.stog_name, extractor.gtos_name) == (str(base / "stog"), "generate_t5wtense")
    data = base / "data"
    for folder in ("model_parse_xfm_bart_large-v0_1_0", "model_parse_xfm_bart_large-v0_2_0", "model_generate_t5wtense"):
        (data / folder).mkdir(parents=True)
    monkeypatch.setattr(amr_links, "amrlib_data_dir", lambda: str(data))
    assert find_model_dir("parse_xfm_bart_large") == str(data / "model_parse_xfm_bart_large-v0_2_0")
    assert find_model_dir("generate_t5wtense") == str(data / "model_generate_t5wtense")
    assert find_model_dir(str(base / "gtos")) == str(base / "gtos")


def test_missing_model_raises_model_not_available(fakes, monkeypatch) -> None:
    monkeypatch.delenv("HALLUSCOPE_AMR_STOG", raising=False)
    monkeypatch.setattr(amr_links, "amrlib_data_dir", lambda: str(fakes["dir"] / "nowhere"))
    extractor = AmrLinkExtractor(device="cpu")
    with pytest.raises(ModelNotAvailableError) as info:
        extractor.extract(["Pfizer ships."])
    message = str(info.value)
    assert "parse_xfm_bart_large" in message
    assert "amrlib-models" in message
    assert "HALLUSCOPE_AMR_STOG" in message
    assert fakes["loads"] == []


def test_tolerant_generate_drops_rejected_kwargs() -> None:
    calls: list[dict[str, Any]] = []

    def generate(**kwargs):
        calls.append(dict(kwargs))
        if "early_stopping" in kwargs:
            raise TypeError("generate() got an unexpected keyword argument 'early_stopping'")
        if "no_repeat_ngram_size" in kwargs:
            raise ValueError("The following `model_kwargs` are not used by the model: ['no_repeat_ngram_size']")
        return "ok"

    wrapped = tolerant_generate(generate)
    assert wrapped(input_ids=1, early_stopping=True, no_repeat_ngram_size=0, num_beams=4) == "ok"
    assert calls == [
        {"input_ids": 1, "early_stopping": True, "no_repeat_ngram_size": 0, "num_beams": 4},
        {"input_ids": 1, "no_repeat_ngram_size": 0, "num_beams": 4},
        {"input_ids": 1, "num_beams": 4},
    ]

    def bad(**kwargs):
        raise TypeError("unexpected keyword argument 'input_ids'")

    with pytest.raises(TypeError):
        tolerant_generate(bad)(input_ids=1)
    with pytest.raises(ValueError, match="other"):
        tolerant_generate(lambda **k: (_ for _ in ()).throw(ValueError("other")))(max_length=3)


def test_loader_patches_inner_generate(fakes) -> None:
    class Inner:
        def generate(self, **kwargs):
            if "early_stopping" in kwargs:
                raise TypeError("unexpected keyword argument 'early_stopping'")
            return kwargs

    fakes["stog"].model = Inner()
    fakes["stog"].outputs = []
    extractor = AmrLinkExtractor(str(fakes["dir"] / "stog"), str(fakes["dir"] / "gtos"), device="cpu")
    model = extractor.stog.model
    assert model.generate(input_ids=2, early_stopping=True) == {"input_ids": 2}


# ------------------------------------------- real amrlib inference on a tiny random BART


def _tiny_amrlib_model(folder: str, task_key: str) -> None:
    """A 2-layer random BART plus a byte-level BPE tokenizer in amrlib's model-folder format."""
    import json
    import os

    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import BartConfig, BartForConditionalGeneration, PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300,
        special_tokens=["<s>", "<pad>", "</s>", "<unk>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(["(s / ship-01 :ARG0 (c / company)) Pfizer ships before the FDA approves."], trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<s>", eos_token="</s>", pad_token="<pad>", unk_token="<unk>"
    )
    config = BartConfig(
        vocab_size=len(fast),
        d_model=16,
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        encoder_ffn_dim=16,
        decoder_ffn_dim=16,
        max_position_embeddings=64,
        pad_token_id=1,
        bos_token_id=0,
        eos_token_id=2,
        decoder_start_token_id=2,
    )
    config.task_specific_params = {task_key: {"model_name_or_path": folder, "max_in_len": 32, "max_out_len": 12}}
    torch.manual_seed(0)
    BartForConditionalGeneration(config).save_pretrained(folder)
    fast.save_pretrained(folder)
    module = ".parse_xfm.inference" if task_key == "parse_amr" else ".generate_xfm.inference"
    meta = {
        "model_type": "stog" if task_key == "parse_amr" else "gtos",
        "version": "0.0.0",
        "inference_module": module,
        "inference_class": "Inference",
        "model_fn": "model.safetensors",
        "kwargs": {},
    }
    with open(os.path.join(folder, "amrlib_meta.json"), "w") as handle:
        json.dump(meta, handle)


def test_real_amrlib_inference_on_tiny_bart(tmp_path, monkeypatch) -> None:
    pytest.importorskip("transformers")
    pytest.importorskip("tokenizers")
    monkeypatch.setattr(amr_links, "MODELS", ModelRegistry())
    stog_dir, gtos_dir = str(tmp_path / "stog"), str(tmp_path / "gtos")
    _tiny_amrlib_model(stog_dir, "parse_amr")
    _tiny_amrlib_model(gtos_dir, "translation_amr_to_text")
    extractor = AmrLinkExtractor(stog_dir, gtos_dir, device="cpu", batch_size=2)
    # random weights: amrlib cannot deserialise the output and returns "()" -> failures
    assert extractor.extract(["Pfizer ships before the FDA approves.", "x"]) == [[], []]
    assert extractor.parse_failures == 2
    assert hasattr(extractor.stog.model.generate, "__wrapped__")
    texts = extractor.generate(["# ::snt Pfizer ships.\n" + sub(PFIZER, ("s", ":time", "a"))])
    assert len(texts) == 1 and isinstance(texts[0], str)
    assert hasattr(extractor.gtos.model.generate, "__wrapped__")
