"""`return metric.compute(...)` in a transformers Trainer (issue 56): the evaluate
modules in ``compute_metrics`` exactly as transformers' examples use a metric, with
``Trainer.evaluate()`` (teacher-forced ids from ``preprocess_logits_for_metrics``) and
``Seq2SeqTrainer`` with ``predict_with_generate=True``, for all five modules (dlsd_acu
with a tiny NLI model built here); the logged numbers are the API's on the texts
scored, and ``trainer_state.json`` written by Trainer itself reads back
(docs/trainer.md#returning-metriccompute)."""

from __future__ import annotations

import copy
import json
import math
import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import evaluate
import numpy as np
import pytest
import test_trainer
from halluscope import api
from halluscope.trainer import make_compute_metrics
from test_trainer import (
    EVAL_BATCH_SIZE,
    GENERATION_MAX_LENGTH,
    REFERENCES,
    SOURCES,  # noqa: F401
)
from tiny_models import tiny_nli_model

# test_trainer's fixtures, shared by assignment: pyflakes reads an import of them as unused
# (the test arguments "redefine" it) and `ruff check --fix` deletes it
tiny_seq2seq = test_trainer.tiny_seq2seq
eval_dataset = test_trainer.eval_dataset
generated = test_trainer.generated

pytestmark = pytest.mark.slow

MODULES = ("chi", "ehi", "rhi", "qhi", "dlsd_acu")
#: dlsd_acu offline: the rule splitter (no seq2seq checkpoint here) and no coreference model
DLSD_OPTIONS = {"decomposer": "rules", "coref": "none"}
#: what Trainer adds to the metrics it logs (after the "eval_" prefix)
TRAINER_KEYS = {"loss", "runtime", "samples_per_second", "steps_per_second", "model_preparation_time", "epoch"}


@pytest.fixture(scope="module")
def nli_folder(tmp_path_factory):
    return tiny_nli_model(tmp_path_factory.mktemp("tiny-nli"))


@pytest.fixture(scope="module")
def modules(repo_root, nli_folder):
    """Each module loaded as a user loads it (dlsd_acu with the tiny NLI model)."""
    loaded = {name: evaluate.load(os.path.join(repo_root, "metrics", name)) for name in MODULES[:-1]}
    loaded["dlsd_acu"] = evaluate.load(os.path.join(repo_root, "metrics", "dlsd_acu"), nli_model=nli_folder)
    return loaded


def options_of(name: str) -> dict:
    return DLSD_OPTIONS if name == "dlsd_acu" else {}


def direct(name: str, texts, nli_folder, **extra) -> dict:
    """The API's result on the texts the Trainer handed over, as a plain dict, without
    its counters of work done (dlsd_acu's NLI pairs and decomposer calls: a second
    call finds the first one's pairs in the cache, so they count as cached)."""
    model = {"nli_model": nli_folder} if name == "dlsd_acu" else {}
    result = api.score_metric(name, texts, SOURCES, REFERENCES, **model, **options_of(name), **extra)
    return {key: value for key, value in result.items() if key not in result.counters}


def without_counters(logged: dict, expected: dict) -> dict:
    """``logged`` without the counters ``expected`` left out (same keys otherwise)."""
    counters = set(logged) - set(expected)
    assert counters <= {
        "nli_pairs_requested",
        "nli_pairs_scored",
        "nli_pairs_cached",
        "decomposer_calls",
        "decomposer_calls_summary",
        "decomposer_calls_document",
    }, counters
    return {key: value for key, value in logged.items() if key not in counters}


def the_same(a, b) -> bool:
    """Equal, NaN equal to NaN, lists and dicts element by element (bit for bit)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(the_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(the_same(a[k], b[k]) for k in a)
    return a == b


def decode(tokenizer, ids) -> list:
    """What a user's compute_metrics does with ids: -100 (Trainer's padding) to pad, then decode."""
    ids = np.where(np.asarray(ids) == -100, tokenizer.pad_token_id, ids)
    return [text.strip() for text in tokenizer.batch_decode(ids, skip_special_tokens=True)]


def returning_compute(module, tokenizer, dataset, seen: list, **extra):
    """The common pattern: decode, then return metric.compute(...) unchanged."""

    def compute_metrics(eval_pred):
        texts = decode(tokenizer, eval_pred.predictions)
        seen.append(texts)
        return module.compute(
            predictions=texts, references=list(dataset["reference"]), sources=list(dataset["source"]), **extra
        )

    return compute_metrics


def logged_metrics(metrics: dict) -> dict:
    """compute_metrics' part of what Trainer.evaluate returns, without the prefix."""
    assert all(key.startswith("eval_") or key == "epoch" for key in metrics)
    return {
        key[len("eval_") :]: value
        for key, value in metrics.items()
        if key[len("eval_") :] not in TRAINER_KEYS and key != "epoch"
    }


def seq2seq_trainer(model, tokenizer, dataset, compute_metrics, output_dir, **arguments):
    from transformers import DataCollatorForSeq2Seq, Seq2SeqTrainer, Seq2SeqTrainingArguments

    args = Seq2SeqTrainingArguments(
        output_dir=str(output_dir),
        per_device_eval_batch_size=EVAL_BATCH_SIZE,
        predict_with_generate=True,
        generation_max_length=GENERATION_MAX_LENGTH,
        use_cpu=True,
        report_to=[],
        **arguments,
    )
    return Seq2SeqTrainer(
        model=model,
        args=args,
        train_dataset=dataset,
        eval_dataset=dataset,
        processing_class=tokenizer,
        data_collator=DataCollatorForSeq2Seq(tokenizer, model=model),
        compute_metrics=compute_metrics,
    )


@pytest.mark.parametrize("name", MODULES)
def test_seq2seq_trainer_logs_what_compute_returned(
    name, modules, tiny_seq2seq, eval_dataset, generated, nli_folder, tmp_path
):
    model, tokenizer = tiny_seq2seq
    seen: list = []
    compute_metrics = returning_compute(modules[name], tokenizer, eval_dataset, seen, **options_of(name))
    trainer = seq2seq_trainer(model, tokenizer, eval_dataset, compute_metrics, tmp_path)
    metrics = trainer.evaluate()
    assert seen == [generated]  # the generated texts, decoded as the user's code does
    expected = direct(name, generated, nli_folder)
    logged = without_counters(logged_metrics(metrics), expected)
    # every key compute returned, under eval_, with the API's values bit for bit
    assert set(logged) == set(expected), name
    assert all(the_same(logged[key], expected[key]) for key in expected), name
    assert logged["signature"] == expected["signature"]
    assert len(logged[f"{name}_scores"]) == len(SOURCES)
    # the log Trainer keeps goes through JSON and back unchanged (NaN is written as NaN)
    history = json.loads(json.dumps(trainer.state.log_history))
    assert the_same(history[-1], trainer.state.log_history[-1])


@pytest.mark.parametrize("name", MODULES)
def test_trainer_evaluate_with_teacher_forced_ids(name, modules, tiny_seq2seq, eval_dataset, nli_folder, tmp_path):
    """A plain Trainer: logits reduced to ids by preprocess_logits_for_metrics (as
    transformers' examples do), decoded, scored, returned unchanged."""
    from transformers import DataCollatorForSeq2Seq, Trainer, TrainingArguments

    model, tokenizer = tiny_seq2seq
    seen: list = []
    trainer = Trainer(
        model=model,
        args=TrainingArguments(
            output_dir=str(tmp_path), per_device_eval_batch_size=EVAL_BATCH_SIZE, use_cpu=True, report_to=[]
        ),
        eval_dataset=eval_dataset,
        processing_class=tokenizer,
        data_collator=DataCollatorForSeq2Seq(tokenizer, model=model),
        preprocess_logits_for_metrics=lambda logits, labels: logits[0].argmax(-1),
        compute_metrics=returning_compute(modules[name], tokenizer, eval_dataset, seen, **options_of(name)),
    )
    logged = logged_metrics(trainer.evaluate())
    assert len(seen) == 1 and len(seen[0]) == len(SOURCES) and any(seen[0])
    expected = direct(name, seen[0], nli_folder)
    logged = without_counters(logged, expected)
    assert set(logged) == set(expected) and all(the_same(logged[k], expected[k]) for k in expected), name
    assert json.loads(json.dumps(trainer.state.log_history))[-1].keys() == trainer.state.log_history[-1].keys()


@pytest.mark.parametrize("through", ["module", "helper"])
def test_trainer_writes_trainer_state_json_that_reads_back(
    through, modules, tiny_seq2seq, eval_dataset, nli_folder, tmp_path
):
    """Two training steps, an evaluation after each, a checkpoint after the second:
    Trainer itself writes trainer_state.json, with what compute returned (details
    included, through the module) or the helper's numbers, and picks the best chi."""
    model, tokenizer = tiny_seq2seq
    model = copy.deepcopy(model)  # training changes the weights; the other tests share the model
    seen: list = []
    if through == "module":
        compute_metrics = returning_compute(modules["chi"], tokenizer, eval_dataset, seen, return_details=True)
    else:
        compute_metrics = make_compute_metrics(
            tokenizer, eval_dataset, metrics=("chi",), reference_field="reference", warm_up=False
        )
    trainer = seq2seq_trainer(
        model,
        tokenizer,
        eval_dataset,
        compute_metrics,
        tmp_path,
        per_device_train_batch_size=4,
        max_steps=2,
        learning_rate=0.05,
        logging_steps=1,
        eval_strategy="steps",
        eval_steps=1,
        save_strategy="steps",
        save_steps=2,
        metric_for_best_model="chi",
        greater_is_better=True,
    )
    trainer.train()
    path = tmp_path / "checkpoint-2" / "trainer_state.json"
    with open(path, encoding="utf-8") as handle:
        state = json.load(handle)  # Python's json reads the NaN Trainer writes for an undefined mean
    evaluations = [entry for entry in state["log_history"] if "eval_chi" in entry]
    assert [entry["step"] for entry in evaluations] == [1, 2]
    assert state["best_metric"] == max(entry["eval_chi"] for entry in evaluations)
    if through == "module":
        assert len(seen) == 2
        for entry, texts in zip(evaluations, seen, strict=True):
            expected = direct("chi", texts, nli_folder, return_details=True)
            # JSON has no tuples: the details' spans read back as lists
            expected = json.loads(json.dumps(expected))
            assert the_same({key: entry[f"eval_{key}"] for key in expected}, expected)
    else:
        for entry in evaluations:
            numbers = {key: value for key, value in entry.items() if key.startswith("eval_")}
            assert all(isinstance(value, (int, float)) for value in numbers.values())
            assert {"eval_chi", "eval_ehi", "eval_rhi", "eval_qhi", "eval_p_consistent"} <= set(numbers)
