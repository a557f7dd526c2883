"""Nothing corrupted, followed or lost (issue 28): what the command and the options do with
files and values an attacker, a shared folder or a careless user can give them. Each
case asserts the exact outcome: a one-line error with its exit code, or the right result,
and no file outside the named output touched."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from halluscope import score_chi
from halluscope.cli import main
from halluscope.cli.output_paths import OutputLock
from halluscope.errors import OptionError

ROWS = [
    {"id": 1, "source": "Acme sold the plant in 2020.", "prediction": "Acme sold the plant."},
    {"id": 2, "source": "Acme sold the plant in 2020.", "prediction": "Acme sold the plant in 2021."},
]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    return tmp_path


def _score(*extra: str) -> int:
    return main(["score", "--input", "in.jsonl", "--no-progress", *extra])


def test_a_symlink_planted_at_the_partial_file_is_refused_and_its_target_untouched(folder, capsys):
    (folder / "victim.txt").write_text("victim\n")
    os.symlink("victim.txt", folder / "out.jsonl.partial")
    assert _score("--output", "out.jsonl") == 2
    assert capsys.readouterr().err == (
        "error: out.jsonl.partial is a symbolic link; halluscope does not follow it: remove it\n"
    )
    assert (folder / "victim.txt").read_text() == "victim\n" and not (folder / "out.jsonl").exists()
    assert _score("--output", "out.jsonl", "--resume") == 2  # --resume refuses it too
    assert (folder / "victim.txt").read_text() == "victim\n"


def test_a_second_run_on_the_same_output_fails_at_once(folder, capsys):
    with OutputLock(str(folder / "out.jsonl")):  # a run holding the output
        assert _score("--output", str(folder / "out.jsonl")) == 2
        assert capsys.readouterr().err == (
            f"error: --output {folder / 'out.jsonl'}: another halluscope run is writing it (it holds "
            f"{folder / 'out.jsonl.lock'}); wait for it to end or choose another output\n"
        )
        assert not (folder / "out.jsonl").exists() and not (folder / "out.jsonl.partial").exists()
    assert _score("--output", "out.jsonl") == 0  # once it ends, the output is free
    assert [json.loads(line)["id"] for line in (folder / "out.jsonl").read_text().splitlines()] == [1, 2]
    assert not (folder / "out.jsonl.lock").exists()


def test_two_concurrent_processes_leave_one_complete_output(folder):
    command = [
        sys.executable,
        "-m",
        "halluscope.cli",
        "score",
        "--input",
        "in.jsonl",
        "--output",
        "out.jsonl",
        "--no-progress",
    ]
    runs = [
        subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outcomes = sorted((run.wait(timeout=300), run.stderr.read()) for run in runs)
    codes = [code for code, _ in outcomes]
    # both may run one after the other; if they overlapped, the second one said why and left
    assert codes in ([0, 0], [0, 2]), outcomes
    if codes == [0, 2]:
        assert "another halluscope run is writing it" in outcomes[1][1]
    assert [json.loads(line)["id"] for line in (folder / "out.jsonl").read_text().splitlines()] == [1, 2]


def test_a_device_is_written_through_never_replaced(folder):
    assert _score("--output", os.devnull) == 0
    assert os.path.exists(os.devnull) and not os.path.isfile(os.devnull)  # still the device
    assert not os.path.exists(os.devnull + ".summary.json") and not os.path.exists(os.devnull + ".partial")


def test_a_fifo_is_written_through_never_replaced(folder):
    import threading

    os.mkfifo(folder / "pipe")
    received = []
    reader = threading.Thread(target=lambda: received.append((folder / "pipe").read_text()))
    reader.start()
    assert _score("--output", "pipe") == 0
    reader.join(timeout=60)
    assert [json.loads(line)["id"] for line in received[0].splitlines()] == [1, 2]
    assert not (folder / "pipe").is_file() and sorted(p.name for p in folder.iterdir()) == ["in.jsonl", "pipe"]


def test_an_unwritable_place_is_one_line_before_any_scoring(folder, capsys):
    assert _score("--output", "/proc/x.jsonl") == 2
    assert capsys.readouterr().err.startswith("error: --output /proc/x.jsonl: cannot write in /proc (")
    assert _score("--output", "/sys/x.jsonl") == 2
    assert capsys.readouterr().err.startswith("error: --output /sys/x.jsonl: cannot write in /sys (")
    assert main(["report", "--input", "in.jsonl", "--output", "/proc/r.html"]) == 2


def test_a_closed_standard_output_ends_quietly(folder):
    rows = [dict(ROWS[0], id=k) for k in range(300)]
    (folder / "many.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    done = subprocess.run(
        f"{sys.executable} -m halluscope.cli score --input many.jsonl --output - --no-progress "
        "--chunk-size 8 | head -n 1",
        shell=True,
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert len(done.stdout.splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]


def test_a_long_csv_cell_is_read_and_a_repeated_header_refused(folder, capsys):
    article = "Acme sold the plant in 2020. " * 6000  # 174,000 characters: over csv's default 131,072
    (folder / "long.csv").write_text(f'source,prediction\n"{article}",Acme sold the plant.\n', encoding="utf-8")
    assert main(["score", "--input", "long.csv", "--output", "long.jsonl", "--no-progress"]) == 0
    assert json.loads((folder / "long.jsonl").read_text())["source"] == article
    (folder / "twice.csv").write_text("source,prediction,prediction\nA.,B.,C.\n", encoding="utf-8")
    assert main(["score", "--input", "twice.csv", "--output", "twice.jsonl", "--no-progress"]) == 2
    assert capsys.readouterr().err.endswith(
        "twice.csv line 1: the header names the column 'prediction' twice; which one holds the text would be a guess\n"
    )


def test_json_nested_thousands_deep_is_a_line_error(folder, capsys):
    deep = '{"id": 3, "source": "S.", "prediction": "P.", "extra": ' + "[" * 5000 + "]" * 5000 + "}"
    (folder / "deep.jsonl").write_text(json.dumps(ROWS[0]) + "\n" + deep + "\n", encoding="utf-8")
    assert (
        main(["score", "--input", "deep.jsonl", "--output", "deep.jsonl.out", "--no-progress", "--on-error", "stop"])
        == 1
    )
    assert capsys.readouterr().err.endswith("deep.jsonl line 2: JSON nested too deeply to read\n")


def test_a_jsonl_line_over_the_limit_is_a_bad_row_read_in_bounded_chunks(folder, capsys, monkeypatch):
    from halluscope.cli import readers

    monkeypatch.setattr(readers, "JSONL_LINE_LIMIT", 200)
    monkeypatch.setattr(readers, "_DRAIN_CHUNK", 7)
    long_row = dict(ROWS[1], source="Acme sold the plant in 2020. " * 10)  # 290 characters of source
    fits = json.dumps(ROWS[0])  # 79 bytes; with padding to exactly 200 it still fits
    fits += " " * (200 - len(fits))
    lines = [fits, json.dumps(long_row), json.dumps(ROWS[1])]
    (folder / "long.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    assert main(["score", "--input", "long.jsonl", "--output", "out.jsonl", "--no-progress", "--on-error", "skip"]) == 0
    assert capsys.readouterr().err.startswith(
        "skipped long.jsonl line 2: the line is over 200 bytes, more than any text the metrics take\n"
    )
    records = [json.loads(line) for line in (folder / "out.jsonl").read_text().splitlines()]
    assert [r["line"] for r in records] == [1, 3]


@pytest.fixture
def saved(tmp_path, monkeypatch):
    import datetime

    import datasets

    monkeypatch.chdir(tmp_path)
    columns = {
        "source": [ROWS[0]["source"]],
        "prediction": [ROWS[0]["prediction"]],
        "when": [datetime.datetime(2020, 1, 2, 3, 4)],
        "day": [datetime.date(2020, 1, 2)],
        "blob": [b"\x00"],
    }
    datasets.Dataset.from_dict(columns).save_to_disk(str(tmp_path / "one"))
    split = datasets.Dataset.from_dict({"source": [ROWS[0]["source"]], "prediction": [ROWS[0]["prediction"]]})
    datasets.DatasetDict({"train": split, "test": split}).save_to_disk(str(tmp_path / "two"))
    return tmp_path


def test_a_datasets_column_json_cannot_hold_is_refused_and_dates_written_as_iso(saved, capsys):
    assert main(["score", "--input", "one", "--output", "out.jsonl", "--no-progress"]) == 2
    assert capsys.readouterr().err == (
        "error: one row 0: the field 'blob' holds bytes values, which a JSON record cannot hold; leave it out "
        "with --keep-fields (a list of the fields to keep, or none)\n"
    )
    assert not (saved / "out.jsonl").exists()
    assert main(["score", "--input", "one", "--output", "out.jsonl", "--no-progress", "--keep-fields", "when,day"]) == 0
    record = json.loads((saved / "out.jsonl").read_text())
    assert record["fields"] == {"when": "2020-01-02T03:04:00", "day": "2020-01-02"}


@pytest.mark.parametrize(
    "args, said",
    [
        (["--input", "two"], "--input two holds the splits ['train', 'test']: choose one with --split"),
        (["--input", "two", "--split", "val"], "--split val: two has no such split (its splits: ['train', 'test'])"),
        (
            ["--input", "one", "--split", "train"],
            "--split train: one holds one dataset without splits; leave out --split",
        ),
        (
            ["--input", "x.jsonl", "--split", "train"],
            "--split train: only a datasets folder has splits, and --input x.jsonl is not one",
        ),
    ],
)
def test_a_split_that_does_not_apply_names_what_is_wrong(saved, capsys, args, said):
    (saved / "x.jsonl").write_text(json.dumps(ROWS[0]) + "\n", encoding="utf-8")
    assert main(["score", *args, "--output", "out.jsonl", "--no-progress"]) == 2
    assert capsys.readouterr().err == f"error: {said}\n"


def test_a_huge_cache_budget_is_refused_and_changes_nothing():
    before = score_chi(["Acme sold the plant."], ["Acme sold the plant in 2020."])
    with pytest.raises(OptionError, match=r"`cache_mb` must be an integer in \[0, 1048576\] or None, got 1000"):
        score_chi(["a"], ["a"], cache_mb=10**303)
    assert score_chi(["Acme sold the plant."], ["Acme sold the plant in 2020."]) == before  # the process works


@pytest.mark.parametrize("synonyms", [{1: "Microsoft"}, {"MS": 2}, {"MS": None}])
def test_entity_synonyms_must_map_strings_to_strings(synonyms):
    with pytest.raises(OptionError) as caught:
        score_chi(["MS bought it."], ["Microsoft bought it."], entity_synonyms=synonyms)
    assert caught.value.option == "entity_synonyms"
    assert str(caught.value).startswith("`entity_synonyms` must be a mapping (dict) of strings to strings, or None")


@pytest.mark.parametrize(
    "record, said",
    [
        ({"line": 1, "prediction": 5, "scores": {"chi": {"chi": 0.5}}}, "prediction must be a string, got int"),
        (
            {"line": 1, "prediction": "a", "scores": {"chi": {"chi": "high"}}},
            'scores.chi.chi must be a number or null, got "high"',
        ),  # as the file spells it
        ({"line": 1, "prediction": "a", "scores": {"chi": 0.5}}, "scores.chi must be an object of scores, got float"),
        (
            {
                "line": 1,
                "prediction": "a",
                "scores": {"chi": {"chi": 0.5}},
                "details": {"chi": {"ehi": {"units": [{"span": "x"}]}}},
            },
            "details.chi.ehi: a unit without a [start, end] span",
        ),
        ({"line": 1, "prediction": "a", "scores": {}}, "no scores (not a record written by `halluscope score`)"),
        (
            {"line": 1, "prediction": "a", "scores": {"chi": {"chi": 0.5}}, "reference": [1]},
            "reference must be a string or a list of strings",
        ),
    ],
)
def test_report_names_the_line_of_a_hand_edited_record(folder, capsys, record, said):
    good = {"line": 1, "prediction": "a", "scores": {"chi": {"chi": 0.5}}}
    (folder / "scores.jsonl").write_text(json.dumps(good) + "\n" + json.dumps(record) + "\n", encoding="utf-8")
    assert main(["report", "--input", "scores.jsonl", "--output", "r.html"]) == 2
    assert capsys.readouterr().err == f"error: scores.jsonl line 2: {said}\n"
    assert not (folder / "r.html").exists()


def test_a_model_folder_without_a_model_is_refused_up_front(tmp_path):
    empty = tmp_path / "model"
    empty.mkdir()
    cases = [
        (
            {"sentence_model": str(empty)},
            f"`sentence_model` {empty}: the folder holds no model (none of modules.json, config.json)",
        ),
        ({"sentence_model": "./no-such-model"}, "`sentence_model` ./no-such-model: no such folder"),
        (
            {"spacy_model": str(empty)},
            f"`spacy_model` {empty}: the folder holds no model (none of config.cfg, meta.json)",
        ),
    ]
    for options, said in cases:
        with pytest.raises(OptionError) as caught:
            score_chi(["Acme sold the plant."], ["Acme sold the plant in 2020."], **options)
        assert str(caught.value) == said and caught.value.option == next(iter(options))
    (empty / "modules.json").write_text("[]")  # a folder with a model's files passes this check
    from halluscope.options import options_for

    assert options_for("chi")["sentence_model"].check(str(empty)) == str(empty)
