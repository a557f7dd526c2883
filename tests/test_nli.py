"""The NLI engine on tiny random BERT classifiers built here (no Hub): label mapping
by name, batching, dedup/cache counters, truncation, dtypes, OOM back-off,
injected scorers, registry load-once and the missing-model error."""

import os

import numpy as np
import pytest
import torch
from halluscope.nli import CONTRADICTION, ENTAILMENT, NEUTRAL, NLIEngine, label_columns
from halluscope.registry import MODELS, NLI, ModelNotAvailableError
from halluscope.resources import get_nli_engine
from transformers import (
    AutoModelForSequenceClassification,
    AutoTokenizer,
    BertConfig,
    BertForSequenceClassification,
    BertTokenizer,
)

WORDS = (
    "the a cat dog man woman sat ran on in mat park house is was not did saw big small "
    "red blue and then because yesterday today"
).split()
STANDARD = {0: "entailment", 1: "neutral", 2: "contradiction"}
PERMUTED = {0: "contradiction", 1: "entailment", 2: "neutral"}
VITAMINC = {0: "SUPPORTS", 1: "REFUTES", 2: "NOT ENOUGH INFO"}

PAIRS = [
    ("the cat sat on the mat", "a cat sat"),
    ("the dog ran in the park yesterday", "the dog did not run"),
    ("a man saw a big red house", "the house was blue"),
    ("the woman is small", "the woman is big and the man is small"),
    ("the cat", "the dog"),
    ("then the dog ran because the cat ran", "a dog ran today"),
    ("a", "the mat is red"),
    ("the man sat in the house and the woman sat in the park", "the man sat"),
    ("big big big", "small"),
    ("the red cat saw the blue dog", "the blue dog saw the red cat"),
]


def build_model(folder, id2label, seed=0):
    """Save a 2-layer, hidden-32 BERT classifier and a WordPiece vocab to ``folder``."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "vocab.txt"), "w") as handle:
        handle.write("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]) + "\n")
    tokenizer = BertTokenizer.from_pretrained(folder)
    config = BertConfig(
        vocab_size=5 + len(WORDS),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=512,
        num_labels=len(id2label),
        id2label=id2label,
        label2id={name: i for i, name in id2label.items()},
    )
    torch.manual_seed(seed)
    model = BertForSequenceClassification(config)
    with torch.no_grad():  # spread the logits so the column checks are sharp
        model.classifier.weight.mul_(40.0)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


def reference_probs(folder, pairs):
    """Softmax of the raw logits, one unpadded pair at a time, in model label order."""
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
    rows = []
    with torch.no_grad():
        for premise, hypothesis in pairs:
            logits = model(**tokenizer(premise, hypothesis, return_tensors="pt")).logits
            rows.append(torch.softmax(logits.float(), -1)[0].numpy())
    return np.array(rows)


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    root = tmp_path_factory.mktemp("nli")
    return {
        "standard": build_model(root / "standard", STANDARD),
        "permuted": build_model(root / "permuted", PERMUTED),
        "vitaminc": build_model(root / "vitaminc", VITAMINC),
        "two": build_model(root / "two", {0: "entailment", 1: "not_entailment"}),
        "odd": build_model(root / "odd", {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}),
    }


def test_standard_labels_equal_manual_softmax(models):
    engine = NLIEngine(models["standard"], device="cpu", batch_size=4)
    probs = engine.score(PAIRS)
    assert probs.shape == (len(PAIRS), 3) and probs.dtype == np.float32
    np.testing.assert_allclose(probs, reference_probs(models["standard"], PAIRS), atol=1e-5)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-6)
    assert engine.name == models["standard"]


def test_columns_follow_label_names_not_indices(models):
    raw = reference_probs(models["standard"], PAIRS)  # same weights in all three folders
    assert np.abs(raw[:, 0] - raw[:, 1]).max() > 0.05  # a wrong mapping would show
    permuted = NLIEngine(models["permuted"], device="cpu").score(PAIRS)
    np.testing.assert_allclose(permuted[:, ENTAILMENT], raw[:, 1], atol=1e-5)
    np.testing.assert_allclose(permuted[:, NEUTRAL], raw[:, 2], atol=1e-5)
    np.testing.assert_allclose(permuted[:, CONTRADICTION], raw[:, 0], atol=1e-5)
    vitaminc = NLIEngine(models["vitaminc"], device="cpu").score(PAIRS)
    np.testing.assert_allclose(vitaminc[:, ENTAILMENT], raw[:, 0], atol=1e-5)
    np.testing.assert_allclose(vitaminc[:, NEUTRAL], raw[:, 2], atol=1e-5)
    np.testing.assert_allclose(vitaminc[:, CONTRADICTION], raw[:, 1], atol=1e-5)


def test_label_name_variants_and_errors():
    assert label_columns({0: "Entail", 1: "not_enough_info", 2: "REFUTED"}) == (0, 1, 2)
    assert label_columns({"0": "Contradiction", "1": "Supports", "2": "Not-Enough-Info"}) == (2, 0, 1)
    with pytest.raises(ValueError, match=r"labels \['LABEL_0', 'LABEL_1', 'LABEL_2'\].*label_map"):
        label_columns({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"})
    with pytest.raises(ValueError, match="same NLI class"):
        label_columns({0: "entailment", 1: "supports", 2: "neutral"})
    with pytest.raises(ValueError, match="target must be one of"):
        label_columns({0: "yes", 1: "no"}, {"yes": "entailment", "no": "false"})
    with pytest.raises(ValueError, match=r"does not have: \['maybe'\]"):
        label_columns({0: "yes", 1: "no"}, {"yes": "entailment", "maybe": "neutral"})
    assert label_columns(
        {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"},
        {"LABEL_0": "neutral", "LABEL_1": "contradiction", "LABEL_2": "entailment"},
    ) == (1, 2, 0)


def test_unknown_label_model_needs_label_map(models):
    with pytest.raises(ValueError, match="label_map"):
        NLIEngine(models["odd"], device="cpu")
    engine = NLIEngine(
        models["odd"],
        device="cpu",
        label_map={"LABEL_0": "neutral", "LABEL_1": "contradiction", "LABEL_2": "entailment"},
    )
    raw = reference_probs(models["standard"], PAIRS[:3])
    np.testing.assert_allclose(engine.score(PAIRS[:3]), raw[:, [2, 0, 1]], atol=1e-5)


def test_two_label_model_errors_then_maps_with_zero_for_missing_class(models):
    with pytest.raises(ValueError, match="two-label model.*label_map"):
        NLIEngine(models["two"], device="cpu")
    engine = NLIEngine(
        models["two"], device="cpu", label_map={"entailment": "entailment", "not_entailment": "contradiction"}
    )
    probs = engine.score(PAIRS)
    raw = reference_probs(models["two"], PAIRS)
    assert raw.shape == (len(PAIRS), 2)
    np.testing.assert_allclose(probs[:, ENTAILMENT], raw[:, 0], atol=1e-5)
    np.testing.assert_allclose(probs[:, CONTRADICTION], raw[:, 1], atol=1e-5)
    assert np.all(probs[:, NEUTRAL] == 0.0)


def test_batch_size_does_not_change_scores(models):
    one = NLIEngine(models["standard"], device="cpu", batch_size=1).score(PAIRS)
    eight = NLIEngine(models["standard"], device="cpu", batch_size=8).score(PAIRS)
    np.testing.assert_allclose(one, eight, atol=1e-5)


def test_dedup_and_cache_counters(models):
    engine = NLIEngine(models["standard"], device="cpu", batch_size=8)
    forwarded = []
    real_forward = engine._forward
    engine._forward = lambda batch: (forwarded.append(batch["input_ids"].shape[0]), real_forward(batch))[1]
    a, b, c, d = PAIRS[:4]
    first = engine.score([a, b, a, c, b])
    assert (engine.requested, engine.scored, engine.cached) == (5, 3, 2)
    assert forwarded == [3]
    np.testing.assert_array_equal(first[0], first[2])
    np.testing.assert_array_equal(first[1], first[4])
    second = engine.score([c, d, a])
    assert (engine.requested, engine.scored, engine.cached) == (8, 4, 4)
    assert forwarded == [3, 1]
    np.testing.assert_array_equal(second[0], first[3])
    np.testing.assert_array_equal(second[2], first[0])
    assert engine.forward_seconds > 0.0
    engine.reset_counters()
    assert (engine.requested, engine.scored, engine.cached, engine.forward_seconds) == (0, 0, 0, 0.0)
    assert engine.score([]).shape == (0, 3)


def test_cache_is_bounded_lru(models):
    engine = NLIEngine(models["standard"], device="cpu", cache_size=2)
    a, b, c = PAIRS[:3]
    engine.score([a, b, c])  # the cache keeps b and c
    engine.score([b])
    assert engine.scored == 3
    engine.score([a])  # evicted: scored again, and now c is the oldest
    assert engine.scored == 4
    engine.score([b])
    assert engine.scored == 4
    engine.score([c])
    assert (engine.requested, engine.scored, engine.cached) == (7, 5, 2)


def capture_inputs(engine):
    seen = []
    real_forward = engine._forward
    engine._forward = lambda batch: (seen.extend(batch["input_ids"].tolist()), real_forward(batch))[1]
    return seen


def test_only_the_premise_is_truncated(models):
    engine = NLIEngine(models["standard"], device="cpu", max_length=24)
    seen = capture_inputs(engine)
    tokenizer = engine.tokenizer
    long_premise = " ".join(["the big cat sat in the house"] * 40)
    # 21 + 15 tokens: "longest_first" would cut the hypothesis too, "only_first" keeps it
    premise = "the red cat saw the blue dog " * 2 + "then the dog ran in the park"
    hypothesis = "a small man and a big woman sat on a red mat in the house"
    assert [len(tokenizer.tokenize(text)) for text in (premise, hypothesis)] == [21, 15]
    engine.score([(long_premise, "a dog ran on the mat"), (premise, hypothesis)])
    assert [len(ids) for ids in seen] == [24, 24]
    first, second = seen
    assert tokenizer.decode(first[-8:]) == "[SEP] a dog ran on the mat [SEP]"
    assert tokenizer.decode(first[:4]) == "[CLS] the big cat"
    assert tokenizer.decode(second[7:]) == "[SEP] " + hypothesis + " [SEP]"
    assert tokenizer.decode(second[:7]) == "[CLS] the red cat saw the blue"


def capture_batches(engine):
    seen = []
    real_forward = engine._forward
    engine._forward = lambda batch: (seen.append({k: v.clone() for k, v in batch.items()}), real_forward(batch))[1]
    return seen


def test_pairs_built_from_cached_encodings_equal_the_tokenizer_path(models):
    fast = NLIEngine(models["standard"], device="cpu", max_length=24, batch_size=4)
    assert fast._builder() is not None and fast._template is not None  # the paths under test
    processed = NLIEngine(models["standard"], device="cpu", max_length=24, batch_size=4)
    processed._builder()
    processed._template = None  # special tokens from the post-processor, pair by pair
    plain = NLIEngine(models["standard"], device="cpu", max_length=24, batch_size=4)
    plain._pair_builder = False  # force one tokenizer call per batch
    pairs = PAIRS + [
        (" ".join(["the big cat sat in the house"] * 40), "a dog ran on the mat"),
        ("", "the cat"),
        ("the cat sat", "the big cat sat in the house"),
    ]
    seen = {
        name: capture_batches(engine) for name, engine in (("fast", fast), ("processed", processed), ("plain", plain))
    }
    scores = {
        name: engine.score(pairs) for name, engine in (("fast", fast), ("processed", processed), ("plain", plain))
    }
    for name in ("processed", "plain"):
        assert np.array_equal(scores["fast"], scores[name])  # identical, not just close
        assert len(seen["fast"]) == len(seen[name])
        for mine, theirs in zip(seen["fast"], seen[name], strict=True):  # same ids, types, mask and padding
            assert set(mine) == set(theirs) == {"input_ids", "attention_mask", "token_type_ids"}
            for key in mine:
                assert torch.equal(mine[key], theirs[key]), key
    assert set(fast._encodings) == {text for pair in pairs for text in pair}  # each text once


def _fast_tokenizer(post_processor):
    """A word-level fast tokenizer over WORDS with the given post-processor (or none)."""
    from tokenizers import Tokenizer, pre_tokenizers
    from tokenizers import models as tokenizer_models
    from transformers import PreTrainedTokenizerFast

    vocab = {token: i for i, token in enumerate(["<pad>", "<unk>", "<s>", "</s>", *WORDS])}
    backend = Tokenizer(tokenizer_models.WordLevel(vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    if post_processor is not None:
        backend.post_processor = post_processor
    return PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>", unk_token="<unk>")


@pytest.mark.parametrize("kind", ["bert", "roberta", "none", "template-types"])
def test_pair_template_reproduces_the_post_processor(models, kind):
    from halluscope.nli import _pair_template
    from tokenizers import processors

    if kind == "bert":
        tokenizer = AutoTokenizer.from_pretrained(models["standard"])
    elif kind == "roberta":
        tokenizer = _fast_tokenizer(processors.RobertaProcessing(("</s>", 3), ("<s>", 2)))
    elif kind == "none":
        tokenizer = _fast_tokenizer(None)
    else:
        tokenizer = _fast_tokenizer(
            processors.TemplateProcessing(
                single="<s> $A </s>",
                pair="<s>:2 $A:1 </s>:0 </s>:3 $B:4 </s>:5",
                special_tokens=[("<s>", 2), ("</s>", 3)],
            )
        )
    backend = tokenizer.backend_tokenizer
    template = _pair_template(backend)
    assert template is not None
    prefix, middle, suffix, prefix_types, middle_types, suffix_types, type_a, type_b = template
    texts = ["", "the", "the cat sat on the mat", "a big red house", "zebra the cat"]
    for first in texts:
        for second in texts:
            a, b = (backend.encode(text, add_special_tokens=False) for text in (first, second))
            out = backend.post_process(a, b, add_special_tokens=True)
            assert out.ids == prefix + a.ids + middle + b.ids + suffix
            assert out.type_ids == (
                prefix_types + [type_a] * len(a.ids) + middle_types + [type_b] * len(b.ids) + suffix_types
            )


@pytest.mark.parametrize("kind", ["roberta", "none", "template-types"])
def test_batches_from_the_template_equal_the_tokenizer_for_other_post_processors(models, kind):
    """The template path builds the same tensors as the tokenizer itself for
    RoBERTa-style, missing and unusual-type-id post-processors, truncation included."""
    from tokenizers import processors

    post_processor = {
        "roberta": processors.RobertaProcessing(("</s>", 3), ("<s>", 2)),
        "none": None,
        "template-types": processors.TemplateProcessing(
            single="<s> $A </s>", pair="<s>:2 $A:1 </s>:0 </s>:3 $B:4 </s>:5", special_tokens=[("<s>", 2), ("</s>", 3)]
        ),
    }[kind]
    pairs = PAIRS + [
        (" ".join(["the big cat sat in the house"] * 40), "a dog ran on the mat"),
        ("", "the cat"),
        ("the cat sat", ""),
    ]
    built = {}
    for path in ("template", "post-processor", "tokenizer"):
        engine = NLIEngine(models["standard"], device="cpu", max_length=24)
        engine._tokenizer = _fast_tokenizer(post_processor)
        if path == "tokenizer":
            engine._pair_builder = False
        else:
            engine._builder()
            if path == "post-processor":
                engine._template = None
            else:
                assert engine._template is not None
        built[path] = [engine._batch_features(pairs[start : start + 4]) for start in range(0, len(pairs), 4)]
    for path in ("post-processor", "tokenizer"):
        for mine, theirs in zip(built["template"], built[path], strict=True):
            assert set(mine) == set(theirs)
            for key in mine:
                assert torch.equal(mine[key], theirs[key]), (path, key)


def test_overlong_hypothesis_is_truncated_instead_of_crashing(models):
    engine = NLIEngine(models["standard"], device="cpu", max_length=16)
    seen = capture_inputs(engine)
    probs = engine.score([("the cat sat", " ".join(["dog"] * 50)), ("the cat", "a big dog")])
    assert probs.shape == (2, 3)
    lengths = sorted(len([t for t in ids if t != 0]) for ids in seen)
    assert lengths == [8, 16]  # the short pair is untouched: [CLS] the cat [SEP] a big dog [SEP]
    long_ids = max(seen, key=lambda ids: len([t for t in ids if t != 0]))
    assert engine.tokenizer.decode(long_ids[:5]) == "[CLS] the cat sat [SEP]"


def test_bfloat16_on_cpu_agrees_and_bad_dtype_fails(models):
    full = NLIEngine(models["standard"], device="cpu").score(PAIRS)
    engine = NLIEngine(models["standard"], device="cpu", dtype="bfloat16")
    assert engine.model.dtype == torch.bfloat16
    half = engine.score(PAIRS)
    assert half.dtype == np.float32
    assert np.abs(half - full).max() < 0.05
    with pytest.raises(ValueError, match="dtype must be one of float32, float16, bfloat16"):
        NLIEngine(models["standard"], device="cpu", dtype="float8")


def test_out_of_memory_halves_the_batch(models, caplog):
    engine = NLIEngine(models["standard"], device="cpu", batch_size=8)
    expected = NLIEngine(models["standard"], device="cpu", batch_size=8).score(PAIRS[:7])
    tried = []
    real_forward = engine._forward

    def flaky(batch):
        tried.append(batch["input_ids"].shape[0])
        if batch["input_ids"].shape[0] > 2:
            raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return real_forward(batch)

    engine._forward = flaky
    with caplog.at_level("WARNING", logger="halluscope"):
        np.testing.assert_allclose(engine.score(PAIRS[:7]), expected, atol=1e-6)
    assert tried == [7, 4, 2, 2, 2, 1]
    assert engine.oom_retries == 2 and engine.scored == 7
    assert [r.getMessage() for r in caplog.records if r.name == "halluscope"] == [
        "NLI: out of memory on cpu; retrying with batch size 4",
        "NLI: out of memory on cpu; retrying with batch size 2",
    ]


def test_out_of_memory_at_batch_one_and_other_errors_propagate(models):
    engine = NLIEngine(models["standard"], device="cpu", batch_size=4)
    tried = []

    def always_oom(batch):
        tried.append(batch["input_ids"].shape[0])
        raise RuntimeError("CUDA error: out of memory")

    engine._forward = always_oom
    with pytest.raises(RuntimeError, match="out of memory"):
        engine.score(PAIRS[:3])
    assert tried == [3, 2, 1]  # the batch size 4 is halved: 2, then 1, then re-raised
    tried.clear()

    def broken(batch):
        tried.append(batch["input_ids"].shape[0])
        raise RuntimeError("shape mismatch")

    engine._forward = broken
    with pytest.raises(RuntimeError, match="shape mismatch"):
        engine.score(PAIRS[:3])
    assert tried == [3]
    assert engine.scored == 0


def test_injected_scorer_goes_through_dedup_cache_and_validation():
    calls = []

    def overlap(premises, hypotheses):
        calls.append(list(zip(premises, hypotheses, strict=True)))
        rows = []
        for premise, hypothesis in zip(premises, hypotheses, strict=True):
            shared = len(set(hypothesis.split()) & set(premise.split())) / len(hypothesis.split())
            rows.append([shared, 0.0, 1.0 - shared])
        return rows

    loads_before = sum(MODELS.load_counts.values())
    engine = NLIEngine(scorer=overlap)
    assert engine.name.startswith("scorer:") and engine.name.endswith("overlap")
    pairs = [("a b c", "a b"), ("a b c", "a d"), ("a b c", "a b")]
    probs = engine.score(pairs)
    np.testing.assert_allclose(probs, [[1, 0, 0], [0.5, 0, 0.5], [1, 0, 0]])
    engine.score([("a b c", "a d"), ("x", "y")])
    assert calls == [[("a b c", "a b"), ("a b c", "a d")], [("x", "y")]]
    assert (engine.requested, engine.scored, engine.cached) == (5, 3, 2)
    assert sum(MODELS.load_counts.values()) == loads_before

    with pytest.raises(ValueError, match=r"must return shape \(1, 3\).*got \(1, 2\)"):
        NLIEngine(scorer=lambda p, h: [[0.5, 0.5]]).score([("a", "b")])
    with pytest.raises(ValueError, match="outside"):
        NLIEngine(scorer=lambda p, h: [[2.0, 0.0, -1.0]]).score([("a", "b")])
    with pytest.raises(ValueError, match="either model or scorer"):
        NLIEngine("some/model", scorer=overlap)


def test_bad_pairs_and_devices_fail_clearly(models):
    engine = NLIEngine(scorer=lambda p, h: [[1.0, 0.0, 0.0]] * len(p))
    with pytest.raises(ValueError, match="pair 1: expected"):
        engine.score([("a", "b"), ("a",)])
    with pytest.raises(TypeError, match="pair 0: hypothesis must be str"):
        engine.score([("a", 3)])
    with pytest.raises(ValueError, match="unknown device 'gpu'"):
        NLIEngine(models["standard"], device="gpu")
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="CUDA is not available"):
            NLIEngine(models["standard"], device="cuda")


def test_registry_loads_each_model_device_dtype_once(models, tmp_path, monkeypatch):
    folder = build_model(tmp_path / "once", STANDARD)
    first = get_nli_engine(folder, device="cpu")
    assert get_nli_engine(folder, device="cpu") is first
    other = get_nli_engine(folder, device="cpu", max_length=64)
    assert other is not first and other.model is first.model
    assert MODELS.load_counts[(NLI.name, folder, "cpu|float32")] == 1
    get_nli_engine(folder, device="cpu", dtype="bfloat16")
    assert MODELS.load_counts[(NLI.name, folder, "cpu|bfloat16")] == 1
    monkeypatch.setenv("HALLUSCOPE_NLI_MODEL", folder)
    assert get_nli_engine(device="cpu") is first


def test_missing_model_error_names_the_model(tmp_path, monkeypatch):
    missing = str(tmp_path / "no-such-model")
    with pytest.raises(ModelNotAvailableError) as info:
        NLIEngine(missing, device="cpu")
    message = str(info.value)
    assert repr(missing) in message and "HALLUSCOPE_NLI_MODEL" in message
    assert "local folder" in message
    monkeypatch.delenv("HALLUSCOPE_NLI_MODEL", raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ModelNotAvailableError, match="'tals/albert-xlarge-vitaminc-mnli'"):
        get_nli_engine(device="cpu")
