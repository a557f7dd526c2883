"""Scoring with several processes: halluscope.distributed under torchrun (2 CPU
processes, gloo), evaluate's own num_process/process_id mode, the example script and
the Trainer helper under a process group, each compared with one process scoring
every row.

One torchrun launch serves all of them (each process loads spaCy and MiniLM once):
this file is also the worker script (``python tests/test_distributed.py --worker``);
the workers write JSON files that the tests read.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import subprocess
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: 7 rows of the project's example set: shards of 4 and 3 rows; row 5 has a
#: publication date, row 6 no reference
EXAMPLE_ROWS = (1, 3, 5, 7, 10, 11, 14)
WORLD_SIZE = 2


def example_columns():
    from halluscope.examples import load_examples

    rows = [load_examples()[i] for i in EXAMPLE_ROWS]
    return (
        [r["prediction"] for r in rows],
        [r["source"] for r in rows],
        [r["reference"] for r in rows],
        [r["publication_date"] for r in rows],
    )


def word_tokenizer(texts):
    """A word-level tokenizer over the words of ``texts`` (no model needed): decoding
    the ids of a text gives its words joined by single spaces."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {"<pad>": 0, "</s>": 1, "<unk>": 2}
    for word in " ".join(texts).split():
        vocab.setdefault(word, len(vocab))
    backend = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>", eos_token="</s>", unk_token="<unk>")


class Prediction:
    """Stands in for transformers.EvalPrediction."""

    def __init__(self, predictions, label_ids=None):
        self.predictions, self.label_ids = predictions, label_ids


def canonical(value) -> str:
    """JSON text of a result (NaN written as NaN, tuples as lists) for exact comparison."""
    return json.dumps(value, sort_keys=True)


# ----------------------------------------------------------------------- the worker


def worker(out_dir: str, data_path: str) -> None:
    """One torchrun process: every check writes <name>_rank<r>.json into ``out_dir``."""
    import evaluate
    import torch.distributed as dist
    from halluscope import score_chi
    from halluscope.distributed import score_distributed, shard_bounds
    from halluscope.trainer import make_compute_metrics

    dist.init_process_group("gloo")
    rank = dist.get_rank()

    def dump(name, value):
        with open(os.path.join(out_dir, f"{name}_rank{rank}.json"), "w", encoding="utf-8") as handle:
            json.dump(value, handle)

    predictions, sources, references, dates = example_columns()
    dump(
        "torch",
        score_distributed(score_chi, predictions, sources, references, return_details=True, publication_dates=dates),
    )
    dump(
        "torch_all_ranks",
        score_distributed(
            score_chi, predictions, sources, references, all_ranks=True, return_details=True, publication_dates=dates
        ),
    )

    def fail_on_rank_1(*args, **kwargs):
        if dist.get_rank() == 1:
            raise ValueError("no model on this rank")
        return score_chi(*args, **kwargs)

    try:
        score_distributed(fail_on_rank_1, predictions, sources, references)
        dump("failure", None)
    except RuntimeError as error:
        dump("failure", str(error))

    # evaluate's distributed mode: no process group needed, a shared cache_dir is
    metric = evaluate.load(
        os.path.join(REPO, "metrics", "chi"),
        num_process=WORLD_SIZE,
        process_id=rank,
        experiment_id="halluscope-distributed-test",
        cache_dir=os.path.join(out_dir, "cache"),
    )
    start, end = shard_bounds(len(predictions), WORLD_SIZE, rank)
    metric.add_batch(predictions=predictions[start:end], references=references[start:end], sources=sources[start:end])
    dump("evaluate", metric.compute(publication_dates=dates))  # rank 0 scores all rows: all dates

    spec = importlib.util.spec_from_file_location(
        "distributed_chi", os.path.join(REPO, "examples", "distributed_chi.py")
    )
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    example.main(
        [
            "--data",
            data_path,
            "--reference-field",
            "reference",
            "--output",
            os.path.join(out_dir, "example_scores.jsonl"),
        ]
    )

    tokenizer = word_tokenizer(predictions)
    ids = tokenizer(predictions, padding=True, return_tensors="np")["input_ids"]
    columns = {"source": sources, "reference": references}
    for main_only in (True, False):
        compute_metrics = make_compute_metrics(
            tokenizer, columns, reference_field="reference", main_process_only=main_only
        )
        dump(f"trainer_main_only_{main_only}", compute_metrics(Prediction(ids)))
    dist.destroy_process_group()


# ------------------------------------------------------------------------ the tests


@pytest.fixture(scope="module")
def launched(tmp_path_factory):
    """Run the workers once under torchrun; the folder of their JSON files."""
    out_dir = tmp_path_factory.mktemp("distributed")
    predictions, sources, references, dates = example_columns()
    data_path = out_dir / "data.jsonl"
    data_path.write_text(
        "".join(
            json.dumps({"prediction": p, "source": s, "reference": r}) + "\n"
            for p, s, r in zip(predictions, sources, references, strict=True)
        ),
        encoding="utf-8",
    )
    env = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", OMP_NUM_THREADS="1")
    command = [
        sys.executable,
        "-m",
        "torch.distributed.run",
        "--standalone",
        f"--nproc_per_node={WORLD_SIZE}",
        os.path.abspath(__file__),
        "--worker",
        str(out_dir),
        "--data",
        str(data_path),
    ]
    done = subprocess.run(command, env=env, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    return out_dir


def read(out_dir, name, rank):
    with open(out_dir / f"{name}_rank{rank}.json", encoding="utf-8") as handle:
        return json.load(handle)


@pytest.fixture(scope="module")
def single_process():
    from halluscope import score_chi

    predictions, sources, references, dates = example_columns()
    return score_chi(predictions, sources, references, return_details=True, publication_dates=dates)


def test_torchrun_rank_0_gets_the_single_process_result(launched, single_process):
    assert len(single_process["chi_scores"]) == len(EXAMPLE_ROWS)
    assert canonical(read(launched, "torch", 0)) == canonical(single_process)
    assert read(launched, "torch", 1) is None
    for rank in range(WORLD_SIZE):  # all_ranks=True: every rank gets it
        assert canonical(read(launched, "torch_all_ranks", rank)) == canonical(single_process)


def test_a_failure_on_one_rank_is_raised_on_every_rank(launched):
    for rank in range(WORLD_SIZE):
        assert (
            read(launched, "failure", rank) == "scoring failed on rank 1 (rows 4-6): ValueError: no model on this rank"
        )


def test_evaluate_num_process_mode(launched, single_process):
    without_details = {key: value for key, value in single_process.items() if key != "details"}
    assert canonical(read(launched, "evaluate", 0)) == canonical(without_details)
    assert read(launched, "evaluate", 1) is None


def test_example_script(launched):
    from halluscope import score_chi

    predictions, sources, references, _ = example_columns()
    expected = score_chi(predictions, sources, references)  # the script's data has no dates
    with open(launched / "example_scores.jsonl", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    assert [r["row"] for r in records] == list(range(len(EXAMPLE_ROWS)))
    for name in ("chi", "ehi", "rhi", "qhi"):  # undefined scores are written as null
        assert [r[name] for r in records] == [None if math.isnan(v) else v for v in expected[f"{name}_scores"]]
    assert None in [r["ehi"] for r in records]


def test_trainer_helper_returns_the_same_numbers_on_every_rank(launched):
    from halluscope import score_chi
    from halluscope.trainer import scalar_metrics

    predictions, sources, references, _ = example_columns()
    decoded = [" ".join(text.split()) for text in predictions]
    expected = scalar_metrics({"chi": score_chi(decoded, sources, references)})
    assert not math.isnan(expected["chi"])
    for main_only in (True, False):
        for rank in range(WORLD_SIZE):
            assert canonical(read(launched, f"trainer_main_only_{main_only}", rank)) == canonical(expected)


# ----------------------------------------------------- no process group (no launch)


def test_shard_bounds_are_contiguous_and_balanced():
    from halluscope.distributed import shard_bounds

    assert [shard_bounds(7, 2, r) for r in range(2)] == [(0, 4), (4, 7)]
    assert [shard_bounds(2, 3, r) for r in range(3)] == [(0, 1), (1, 2), (2, 2)]
    with pytest.raises(ValueError, match="rank 2 is not in a world of size 2"):
        shard_bounds(5, 2, 2)


def test_without_a_process_group_it_calls_score_fn():
    from halluscope.distributed import score_distributed

    calls = []
    assert score_distributed(
        lambda *args, **kwargs: calls.append((args, kwargs)) or {"ok": 1}, ["p"], ["s"], None, normalize="minmax"
    ) == {"ok": 1}
    assert calls == [((["p"], ["s"], None), {"normalize": "minmax"})]


def test_merge_results_rules():
    from halluscope.distributed import merge_results

    nan = math.nan
    first = {
        "dlsd_acu": 0.5,
        "dlsd_acu_scores": [0.5, nan],
        "labels": [1, None],
        "nli_pairs_scored": 10,
        "ehi_defined": 1,
        "ehi_scores": [0.2, nan],
        "ehi": 0.2,
        "signature": "s",
    }
    second = {
        "dlsd_acu": 0.25,
        "dlsd_acu_scores": [0.25],
        "labels": [0],
        "nli_pairs_scored": 3,
        "ehi_defined": 1,
        "ehi_scores": [0.4],
        "ehi": 0.4,
        "signature": "s",
    }
    merged = merge_results([first, second])
    assert list(merged) == list(first)  # the single-process key order
    assert canonical(merged) == canonical(
        {
            "dlsd_acu": (0.5 + 0.25) / 2,
            "dlsd_acu_scores": [0.5, nan, 0.25],
            "labels": [1, None, 0],
            "nli_pairs_scored": 13,
            "ehi_defined": 2,
            "ehi_scores": [0.2, nan, 0.4],
            "ehi": (0.2 + 0.4) / 2,
            "signature": "s",
        }
    )
    with pytest.raises(
        ValueError, match="cannot merge results of different signatures: shard 1 .* shard 0: 's'; shard 1: 'other'"
    ):
        merge_results([first, dict(second, signature="other")])
    with pytest.raises(ValueError, match="shard 1 has keys"):
        merge_results([first, {"ehi": 0.4}])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True, help="folder for the JSON results")
    parser.add_argument("--data", required=True, help="the example set as JSONL (for the example script)")
    arguments = parser.parse_args()
    worker(arguments.worker, arguments.data)
