"""compute_metrics for Seq2SeqTrainer (halluscope.trainer), end to end with a tiny
randomly initialised T5 (word-level tokenizer over the words of the examples below),
checked against a direct halluscope.api call on the texts the model generates."""

from __future__ import annotations

import math
import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np
import pytest
import torch
from halluscope import score_chi, score_ehi
from halluscope.errors import OptionError
from halluscope.trainer import decode, make_compute_metrics, scalar_metrics, token_ids
from tiny_models import tiny_t5

SOURCES = [
    "Police arrested the suspect in Manchester on Monday .",
    "Microsoft acquired GitHub in 2018 for 7.5 billion dollars .",
    "Apple bought Beats for 3 billion dollars in 2014 .",
    "Barack Obama met Angela Merkel in Berlin on Tuesday .",
    "The company will open a store in Paris in March .",
    "Google hired 200 engineers in London last year .",
    "The storm killed 12 people in Texas on Friday .",
    "Amazon opened a warehouse in Ohio with 500 workers .",
]
REFERENCES = [
    "Police arrested the suspect in Manchester .",
    "Microsoft acquired GitHub in 2018 .",
    "Apple bought Beats in 2014 .",
    "Obama met Merkel in Berlin .",
    "The company will open a store in Paris .",
    "Google hired 200 engineers in London .",
    "The storm killed 12 people in Texas .",
    "Amazon opened a warehouse in Ohio .",
]
GENERATION_MAX_LENGTH = 12
EVAL_BATCH_SIZE = 3  # batches of 3, 3 and 2 rows
#: what Trainer.evaluate logs besides compute_metrics' keys (after "eval_")
TRAINER_KEYS = {"loss", "runtime", "samples_per_second", "steps_per_second", "model_preparation_time"}


@pytest.fixture(scope="module")
def tiny_seq2seq():
    """A 1-layer T5 and a word-level tokenizer whose vocabulary is the examples' words,
    so every generated token decodes to a real word. Generation suppresses pad (as in
    tests/test_decompose.py) and repeated words; with this seed the outputs differ by
    input, have different lengths, and one is empty."""
    model, tokenizer = tiny_t5(" ".join(SOURCES + REFERENCES).split(), seed=2)
    model.eval()
    model.generation_config.no_repeat_ngram_size = 1
    return model, tokenizer


@pytest.fixture(scope="module")
def eval_dataset(tiny_seq2seq):
    """Raw text columns plus the model inputs and labels, as a Trainer user builds it."""
    import datasets

    _, tokenizer = tiny_seq2seq
    dataset = datasets.Dataset.from_dict({"source": SOURCES, "reference": REFERENCES})

    def tokenize(batch):
        inputs = tokenizer(batch["source"])
        inputs["labels"] = tokenizer(batch["reference"])["input_ids"]
        return inputs

    return dataset.map(tokenize, batched=True)


@pytest.fixture(scope="module")
def generated(tiny_seq2seq, eval_dataset):
    """The texts Seq2SeqTrainer generates, produced directly: same batches (same
    collator padding), same generation length, greedy, decoded without special tokens."""
    from transformers import DataCollatorForSeq2Seq

    model, tokenizer = tiny_seq2seq
    collator = DataCollatorForSeq2Seq(tokenizer, model=model)
    features = eval_dataset.remove_columns(["source", "reference"])
    texts = []
    for start in range(0, len(features), EVAL_BATCH_SIZE):
        batch = collator([features[i] for i in range(start, min(start + EVAL_BATCH_SIZE, len(features)))])
        with torch.no_grad():
            ids = model.generate(
                input_ids=batch["input_ids"], attention_mask=batch["attention_mask"], max_length=GENERATION_MAX_LENGTH
            )
        texts.extend(t.strip() for t in tokenizer.batch_decode(ids, skip_special_tokens=True))
    return texts


def run_evaluate(tiny_seq2seq, eval_dataset, compute_metrics, output_dir, batch_eval_metrics=False):
    from transformers import DataCollatorForSeq2Seq, Seq2SeqTrainer, Seq2SeqTrainingArguments

    model, tokenizer = tiny_seq2seq
    args = Seq2SeqTrainingArguments(
        output_dir=str(output_dir),
        per_device_eval_batch_size=EVAL_BATCH_SIZE,
        predict_with_generate=True,
        generation_max_length=GENERATION_MAX_LENGTH,
        use_cpu=True,
        report_to=[],
        batch_eval_metrics=batch_eval_metrics,
    )
    trainer = Seq2SeqTrainer(
        model=model,
        args=args,
        eval_dataset=eval_dataset,
        processing_class=tokenizer,
        data_collator=DataCollatorForSeq2Seq(tokenizer, model=model),
        compute_metrics=compute_metrics,
    )
    return trainer.evaluate()


def same(a, b) -> bool:
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def test_generated_texts_are_real_words_and_score_something(generated):
    assert len(generated) == len(SOURCES)
    words = set(" ".join(SOURCES + REFERENCES).split())
    assert all(word in words for text in generated for word in text.split())
    assert len(set(generated)) >= 6 and len({len(text.split()) for text in generated}) >= 3
    # the paper formula (softmax of reference factors) separates the random texts best
    direct = score_chi(generated, SOURCES, REFERENCES, formula="paper")
    assert len({round(score, 9) for score in direct["chi_scores"]}) >= 3  # the rows score differently


def test_evaluate_logs_the_direct_scores(tiny_seq2seq, eval_dataset, generated, tmp_path):
    paper = {"formula": "paper"}  # metric_kwargs reach the API; these scores differ row by row
    compute_metrics = make_compute_metrics(
        tiny_seq2seq[1],
        eval_dataset,
        metrics=("chi", "ehi"),
        reference_field="reference",
        metric_kwargs={"chi": paper, "ehi": paper},
    )
    logged = run_evaluate(tiny_seq2seq, eval_dataset, compute_metrics, tmp_path / "whole")
    chi = score_chi(generated, SOURCES, REFERENCES, **paper)
    ehi = score_ehi(generated, SOURCES, REFERENCES, **paper)
    expected = {
        "chi": chi["chi"],
        "rhi": chi["rhi"],
        "qhi": chi["qhi"],
        "chi_ehi": chi["ehi"],
        "chi_ehi_defined": chi["ehi_defined"],
        "rhi_defined": chi["rhi_defined"],
        "qhi_defined": chi["qhi_defined"],
        "ehi": ehi["ehi"],
        "ehi_defined": ehi["ehi_defined"],
    }
    # no p_consistent: the calibration holds for the default options only, and a number left
    # out is not logged as NaN (the result says why, in a string the helper does not log)
    assert "p_consistent" not in chi and chi["p_consistent_reason"].startswith("p_consistent is calibrated")
    metric_keys = {
        key[len("eval_") :]: value
        for key, value in logged.items()
        if key[len("eval_") :] not in TRAINER_KEYS and key != "epoch"
    }
    assert set(metric_keys) == set(expected)
    assert all(same(metric_keys[key], expected[key]) for key in expected), (metric_keys, expected)
    assert compute_metrics.signatures == {"chi": chi["signature"], "ehi": ehi["signature"]}

    # batch_eval_metrics=True: per-batch calls, scored on the last one, identical numbers
    batched = run_evaluate(tiny_seq2seq, eval_dataset, compute_metrics, tmp_path / "batched", batch_eval_metrics=True)
    assert all(same(batched[f"eval_{key}"], logged[f"eval_{key}"]) for key in expected)


def test_references_from_labels_and_reference_free(tiny_seq2seq, eval_dataset, generated, tmp_path):
    tokenizer = tiny_seq2seq[1]
    from_labels = make_compute_metrics(
        tokenizer, eval_dataset, references_from_labels=True, prefix="hs_", warm_up=False
    )
    logged = run_evaluate(tiny_seq2seq, eval_dataset, from_labels, tmp_path / "labels")
    # the decoded labels are the references with their words re-joined by single spaces
    assert same(logged["eval_hs_chi"], score_chi(generated, SOURCES, REFERENCES)["chi"])
    reference_free = make_compute_metrics(tokenizer, eval_dataset, warm_up=False)
    logged = run_evaluate(tiny_seq2seq, eval_dataset, reference_free, tmp_path / "free", batch_eval_metrics=True)
    assert same(logged["eval_chi"], score_chi(generated, SOURCES)["chi"])
    with pytest.raises(ValueError, match="not both"):
        make_compute_metrics(tokenizer, eval_dataset, reference_field="reference", references_from_labels=True)


class Prediction:
    """Stands in for transformers.EvalPrediction (predictions, label_ids)."""

    def __init__(self, predictions, label_ids=None):
        self.predictions, self.label_ids = predictions, label_ids


def test_accepted_prediction_forms_decode_alike(tiny_seq2seq):
    tokenizer = tiny_seq2seq[1]
    ids = np.array(
        [
            tokenizer("Police arrested the suspect .")["input_ids"] + [-100, -100],
            tokenizer("Apple bought Beats in 2014 .")["input_ids"] + [0],
        ]
    )
    texts = ["Police arrested the suspect .", "Apple bought Beats in 2014 ."]
    assert decode(tokenizer, token_ids(ids)) == texts
    logits = np.full(ids.shape + (len(tokenizer),), -1.0, dtype=np.float32)
    for row, column in np.ndindex(ids.shape):
        if ids[row, column] == -100:
            logits[row, column, :] = -100.0  # what Trainer pads logits with across processes
        else:
            logits[row, column, ids[row, column]] = 5.0
    hidden_states = np.zeros((2, 3, 4), dtype=np.float32)
    for form in (ids, torch.tensor(ids), (ids, hidden_states), logits, (torch.tensor(logits), hidden_states)):
        assert decode(tokenizer, token_ids(form)) == texts
    with pytest.raises(ValueError, match="token ids of shape"):
        token_ids(np.array(["a", "b"]))
    with pytest.raises(ValueError, match="logits of shape"):
        token_ids(np.zeros((2, 3), dtype=np.float32))


def test_length_mismatch_names_both_numbers(tiny_seq2seq, eval_dataset):
    tokenizer = tiny_seq2seq[1]
    compute_metrics = make_compute_metrics(tokenizer, eval_dataset.select(range(7)), warm_up=False)
    ids = np.array([tokenizer(text)["input_ids"][:3] for text in SOURCES])
    with pytest.raises(ValueError, match=r"received 8 predictions but the eval dataset it was built with has 7 rows"):
        compute_metrics(Prediction(ids))
    # batch_eval_metrics: too many rows is reported as soon as the buffer overflows
    with pytest.raises(ValueError, match=r"received 8 predictions .* has 7 rows"):
        compute_metrics(Prediction(ids[:4]), compute_result=False)
        compute_metrics(Prediction(ids[4:]), compute_result=False)
    # ... too few when the last batch arrives; every error leaves an empty buffer
    with pytest.raises(ValueError, match=r"received 3 predictions .* has 7 rows"):
        compute_metrics(Prediction(ids[:3]), compute_result=True)
    result = compute_metrics(Prediction(ids[:7]))
    assert same(result["chi"], score_chi(decode(tokenizer, ids[:7]), SOURCES[:7])["chi"])
    with pytest.raises(KeyError, match="'document' is not a column"):
        make_compute_metrics(tokenizer, eval_dataset, source_field="document", warm_up=False)
    # another split (trainer.predict on a test set): the same helper, told which dataset
    assert compute_metrics.use(eval_dataset.select(range(3))) is compute_metrics
    result = compute_metrics(Prediction(ids[:3]))
    assert same(result["chi"], score_chi(decode(tokenizer, ids[:3]), SOURCES[:3])["chi"])
    with pytest.raises(ValueError, match=r"call compute_metrics.use\(that_dataset\)"):
        compute_metrics(Prediction(ids[:4]))
    with pytest.raises(ValueError, match="unknown metric"):
        make_compute_metrics(tokenizer, eval_dataset, metrics=("bleu",), warm_up=False)
    # a bad option fails when the helper is made, not at the first evaluation of a run
    with pytest.raises(OptionError) as caught:
        make_compute_metrics(tokenizer, eval_dataset, metric_kwargs={"chi": {"epsilon": -1}}, warm_up=False)
    assert caught.value.option == "epsilon"
    with pytest.raises(OptionError, match="lexical_wieght"):
        make_compute_metrics(tokenizer, eval_dataset, metric_kwargs={"chi": {"lexical_wieght": 0.1}}, warm_up=False)


def test_scalar_metrics_keys_and_undefined_means():
    results = {
        "chi": {
            "chi": 0.5,
            "ehi": 0.4,
            "rhi": math.nan,
            "chi_scores": [0.5],
            "ehi_defined": 1,
            "rhi_defined": 0,
            "signature": "s1",
        },
        "rhi": {"rhi": 1.2, "rhi_norm": 0.6, "rhi_scores": [1.2], "rhi_defined": 1, "signature": "s2"},
    }
    assert scalar_metrics(results, prefix="hs_", undefined_value=-1.0) == {
        "hs_chi": 0.5,
        "hs_ehi": 0.4,
        "hs_chi_rhi": -1.0,
        "hs_ehi_defined": 1,
        "hs_chi_rhi_defined": 0,
        "hs_rhi": 1.2,
        "hs_rhi_norm": 0.6,
        "hs_rhi_defined": 1,
    }
    assert math.isnan(scalar_metrics({"chi": results["chi"]})["rhi"])


def test_scalar_metrics_of_a_chi_without_p_consistent_are_numbers_only():
    """Under options p_consistent is not calibrated for, the helper's numbers are the
    other means: no p_consistent key (not NaN), and the reason string is not logged."""
    weighted = score_chi(["Microsoft bought GitHub."], ["Microsoft acquired GitHub in 2018."], weights={"qhi": 2})
    numbers = scalar_metrics({"chi": weighted})
    assert set(numbers) == {"chi", "ehi", "rhi", "qhi", "ehi_defined", "rhi_defined", "qhi_defined"}
    assert all(isinstance(value, (int, float)) for value in numbers.values())
    assert numbers["chi"] == weighted["chi"]
