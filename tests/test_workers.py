"""workers=N (issue 29): a pool of forked processes scores consecutive shards of the
rows, and the merged result is the one process's, bit for bit."""

from __future__ import annotations

import json

import pytest
from halluscope import Scorer, score_chi, score_qhi
from halluscope.cli import main
from halluscope.errors import InputError, OptionError
from halluscope.workers import SHARDS_PER_WORKER, shard_bounds, worker_count

SOURCES = [
    "Police arrested Thomas in Leeds on Monday.",
    "Apple sold 3 million phones in 2019.",
    "The mayor opened the bridge in May.",
    "Sales rose 5% to $2 billion.",
    "Acme Corp sold the factory for $7.5 million on 3 May 2019; its shares rose 5%.",
]
PREDICTIONS = [
    "Police arrested Thomas in York.",
    "Apple sold 3 million phones.",
    "The mayor closed the bridge.",
    "Sales rose 5%.",
    "Acme bought the factory last Friday and its stock fell.",
]
REFERENCES = ["Thomas was arrested in Leeds.", "", "The bridge opened in May.", "Sales rose.", "Acme sold a plant."]
DATES = [None, "2020-01-05", None, "", "2019-05-10"]


def canonical(result) -> str:
    """JSON text of a result, NaN included, for exact comparison."""
    return json.dumps(dict(result), sort_keys=True, default=repr)


def test_shards_are_consecutive_and_cover_every_row_once():
    assert SHARDS_PER_WORKER == 4
    assert shard_bounds(0, 2) == []
    assert shard_bounds(3, 2) == [(0, 1), (1, 2), (2, 3)]  # fewer rows than shards: one row each
    assert shard_bounds(17, 2) == [(0, 3), (3, 6), (6, 9), (9, 12), (12, 15), (15, 17)]  # ceil(17 / 8) = 3
    assert shard_bounds(16, 2) == [(k, k + 2) for k in range(0, 16, 2)]
    # with the sources, a cut moves to where the source changes (not past the next cut)
    documents = ["a"] * 5 + ["b"] * 2 + ["c"] * 9 + ["d"]
    assert shard_bounds(17, 2, documents) == [(0, 5), (5, 7), (7, 16), (16, 17)]
    assert shard_bounds(4, 1, ["a"] * 4) == [(0, 4)]
    assert worker_count(1, 10) == 1 and worker_count(2, 0) == 1
    assert 1 <= worker_count(0, 1000) <= 1000


def test_workers_beyond_the_usable_cores_are_capped_with_a_warning(monkeypatch):
    import halluscope.workers as workers

    monkeypatch.setattr(workers, "available_cores", lambda: 8)
    assert worker_count(5, 3) == 3 and worker_count(8, 100) == 8 and worker_count(0, 100) == 8
    monkeypatch.setattr(workers, "available_cores", lambda: 2)
    with pytest.warns(UserWarning, match=r"^workers=64 is more than the 2 usable cores .*: 2 processes score"):
        assert worker_count(64, 100) == 2
    with pytest.warns(UserWarning, match="workers=3 is more than the 2 usable cores"):
        assert worker_count(3, 1) == 1  # capped first, then one row needs one process


def test_two_workers_give_the_one_process_result_bit_for_bit():
    rows = 3  # 15 rows: 8 shards of 2 (the last 1) over 2 processes
    predictions, sources, references, dates = PREDICTIONS * rows, SOURCES * rows, REFERENCES * rows, DATES * rows
    one = score_chi(predictions, sources, references, publication_dates=dates, return_details=True)
    two = score_chi(predictions, sources, references, publication_dates=dates, return_details=True, workers=2)
    assert canonical(two) == canonical(one)
    assert len(two["chi_scores"]) == 15 and two.signature == one.signature and "workers" not in one.signature
    assert canonical(score_qhi(predictions, sources, workers=0)) == canonical(score_qhi(predictions, sources))
    scorer = Scorer("chi", workers=2)
    assert canonical(scorer.score(predictions, sources, references)) == canonical(
        score_chi(predictions, sources, references)
    )


def test_a_call_scored_before_forks_at_once_with_the_same_scores(monkeypatch):
    from halluscope import workers
    from halluscope.resources import Resources

    seen = []
    real = workers.score_in_workers

    def spy(score, count, columns, options, resources, loaded=False):
        seen.append(loaded)
        result = real(score, count, columns, options, resources, loaded=loaded)
        seen.append(len(resources.loaded_calls))
        return result

    monkeypatch.setattr(workers, "score_in_workers", spy)
    resources = Resources()
    scorer = Scorer("chi", workers=2, resources=resources, load=False)
    assert resources.loaded_calls == set()
    first = scorer.score(PREDICTIONS, SOURCES)  # row 0 here, to load the models: one call noted
    again = scorer.score(PREDICTIONS, SOURCES)  # the same call: every row in the workers
    # other options: its first row here again; a scorer's load() notes its call (one row, one process)
    other = Scorer("chi", workers=2, epsilon=0.1, resources=resources, load=False).score(PREDICTIONS, SOURCES)
    Scorer("chi", workers=2, epsilon=0.2, resources=resources)
    assert seen == [False, 1, True, 1, False, 2] and len(resources.loaded_calls) == 3
    assert canonical(again) == canonical(first) == canonical(score_chi(PREDICTIONS, SOURCES))
    assert canonical(other) == canonical(score_chi(PREDICTIONS, SOURCES, epsilon=0.1))


def test_models_on_a_gpu_spawn_the_workers_instead_of_forking_them(monkeypatch):
    # a fork of a process that holds CUDA cannot use it: with device="cuda" the call asks
    # for spawned workers, which load their own models (nothing is loaded here first)
    from halluscope import workers
    from halluscope.resources import Resources

    asked = []

    def spy(score, count, columns, options, resources, loaded=False, fork=True):
        asked.append((count, loaded, fork, options["device"], options["workers"]))
        return score_chi(PREDICTIONS, SOURCES)

    monkeypatch.setattr(workers, "score_in_workers", spy)
    resources = Resources()
    Scorer("chi", workers=2, device="cuda:0", resources=resources, load=False).score(PREDICTIONS, SOURCES)
    assert resources._embedders == {}  # the caller loaded no encoder for the spawned workers
    Scorer("chi", workers=2, device="cpu", resources=resources, load=False).score(PREDICTIONS, SOURCES)
    assert asked == [(2, True, False, "cuda:0", 1), (2, False, True, "cpu", 1)]
    assert [key[1] for key in resources._embedders] == ["cpu"]  # loaded before the fork


@pytest.mark.slow
def test_spawned_workers_give_the_one_process_result_bit_for_bit():
    # the path GPU calls take, run on the CPU: each worker starts anew and loads its models
    import functools

    from halluscope import api
    from halluscope.resources import Resources
    from halluscope.workers import score_in_workers

    columns = {"predictions": PREDICTIONS, "sources": SOURCES, "references": None, "publication_dates": None}
    options = {"workers": 1, "return_details": True, "preset": None}
    spawned = score_in_workers(
        functools.partial(api.score_metric, "chi"), 2, columns, options, Resources(), loaded=True, fork=False
    )
    assert canonical(spawned) == canonical(score_chi(PREDICTIONS, SOURCES, return_details=True))


def test_a_bad_row_is_named_by_its_row_in_the_whole_call():
    predictions = PREDICTIONS * 2
    predictions[7] = None
    with pytest.raises(InputError) as caught:
        score_chi(predictions, SOURCES * 2, workers=2)
    assert caught.value.row == 7 and str(caught.value) == "row 7: `predictions` is None; expected a string"
    with pytest.raises(OptionError, match=r"`workers` must be an integer in \[0, 1024\], got -1"):
        score_chi(PREDICTIONS, SOURCES, workers=-1)


def test_a_failure_in_a_worker_names_the_rows_of_its_shard(monkeypatch):
    from halluscope import api

    real = api.score

    def fails_on_sales(dimensions, predictions, *args, **kwargs):
        if any("Sales" in text for text in predictions):
            raise ValueError("no parse for Sales")
        return real(dimensions, predictions, *args, **kwargs)

    monkeypatch.setattr(api, "score", fails_on_sales)  # the forked workers inherit it
    # one row per shard (rows 1-4 when row 0 is scored in the caller first, 0-4 when the
    # default resources scored this call before): rows 3-3 fail either way
    with pytest.raises(
        RuntimeError,
        match=r"^scoring failed in a worker \(rows 3-3\): ValueError: no parse for "
        r"Sales",
    ):
        score_chi(PREDICTIONS, SOURCES, workers=2)


def test_a_forked_worker_reads_wordnet_through_files_of_its_own():
    from halluscope.lexicon.wordnet import reopen_files_after_fork, shared_wordnet

    shared = shared_wordnet()
    if shared is None:
        pytest.skip("WordNet 3.0 is not installed")
    reader = shared.reader
    before = reader.synsets("arrest", pos="v")
    opened = reader._data_file_map.get("v")
    assert opened is not None  # NLTK keeps the verb data file open and seeks in it
    reopen_files_after_fork()
    assert reader._data_file_map == {}
    assert reader.synsets("arrest", pos="v") == before  # read before: from NLTK's synset cache
    assert [synset.name() for synset in reader.synsets("apprehend", pos="v")] == [
        "grok.v.01",
        "collar.v.01",
        "apprehend.v.03",
    ]  # a new read, through a file of its own
    assert reader._data_file_map["v"] is not opened


def test_the_command_scores_with_workers_into_the_same_records(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    rows = [
        {"id": k, "source": s, "prediction": p}
        for k, (s, p) in enumerate(zip(SOURCES * 2, PREDICTIONS * 2, strict=True))
    ]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert main(["score", "--input", "in.jsonl", "--output", "one.jsonl", "--no-progress"]) == 0
    assert main(["score", "--input", "in.jsonl", "--output", "two.jsonl", "--no-progress", "--workers", "2"]) == 0
    assert (tmp_path / "two.jsonl").read_text() == (tmp_path / "one.jsonl").read_text()
    capsys.readouterr()
    assert main(["score", "--input", "in.jsonl", "--output", "x.jsonl", "--workers", "-1"]) == 2
    assert (
        "argument --workers: must be 0 (one per core) or a positive integer up to 1024, got -1"
        in capsys.readouterr().err
    )


def test_the_evaluate_module_takes_workers_beside_its_other_options():
    import os

    import evaluate
    from tiny_models import REPO

    chi = evaluate.load(os.path.join(REPO, "metrics", "chi"))
    pooled = chi.compute(predictions=PREDICTIONS, references=[""] * 5, sources=SOURCES, workers=2)
    assert pooled["chi_scores"] == score_chi(PREDICTIONS, SOURCES)["chi_scores"]
