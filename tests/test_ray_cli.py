"""``halluscope score --engine ray`` (issue 58 item 2, docs/cli.md#scoring-on-ray): the
options Ray refuses (without Ray), and one run on real Ray, started by the command itself
inside a network and PID namespace of its own (tests/test_ray.py's helpers), whose
records equal the local command's line for line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from halluscope.cli import main
from halluscope.cli.output_dir import output_dir_records
from test_ray import (
    NAMESPACE,
    communicate_within,
    example_rows,
    needs_namespace,
    ray_environment,
    same_floats,
    short_folder,
)


def write_jsonl(path: Path, rows: list[Any]) -> None:
    path.write_text(
        "".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows), encoding="utf-8"
    )


# ------------------------------------------------------------------ without Ray


@pytest.mark.parametrize(
    "extra, says",
    [
        (["--resume"], "error: --resume does not apply with --engine ray; use a new --output-dir"),
        (["--workers", "2"], "error: --workers does not apply with --engine ray; use --actors N"),
        (["--output", "x.jsonl"], "error: --output does not apply with --engine ray; use --output-dir DIR"),
        (
            ["--summary-output", "s.json"],
            "error: --summary-output does not apply with --engine ray; use the summary.json",
        ),
    ],
)
def test_ray_refuses_the_local_options_in_one_line(tmp_path, capsys, extra, says):
    write_jsonl(tmp_path / "in.jsonl", [{"prediction": "A.", "source": "A b."}])
    code = main(
        [
            "score",
            "--engine",
            "ray",
            "--input",
            str(tmp_path / "in.jsonl"),
            "--output-dir",
            str(tmp_path / "out"),
            *extra,
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(says) and err.count("\n") == 1, err
    assert not (tmp_path / "out").exists()


def test_ray_needs_a_new_output_dir_and_local_refuses_ray_options(tmp_path, capsys):
    write_jsonl(tmp_path / "in.jsonl", [{"prediction": "A.", "source": "A b."}])
    given = ["score", "--input", str(tmp_path / "in.jsonl")]
    assert main([*given, "--engine", "ray"]) == 2
    assert capsys.readouterr().err == "error: --engine ray needs --output-dir DIR (JSONL shards and summary.json)\n"
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "part-00000.jsonl").write_text("{}\n", encoding="utf-8")
    assert main([*given, "--engine", "ray", "--output-dir", str(tmp_path / "used")]) == 2
    assert "is not empty; choose a new folder" in capsys.readouterr().err
    for flag, value in (
        ("--output-dir", "d"),
        ("--ray-address", "127.0.0.1:1"),
        ("--actors", "2"),
        ("--output-format", "parquet"),
        ("--actor-cpus", "0.5"),
        ("--actor-gpus", "1"),
        ("--actor-resources", '{"scorer": 1}'),
    ):
        assert main([*given, "--output", str(tmp_path / "o.jsonl"), flag, value]) == 2
        assert capsys.readouterr().err == f"error: {flag} is for --engine ray; the local run writes --output FILE\n"
    assert main([*given, "--engine", "ray", "--output-dir", "d", "--actor-resources", '{"scorer": true}']) == 2
    assert capsys.readouterr().err == (
        "error: halluscope score: argument --actor-resources: must be a JSON object of resource names to numbers, "
        'e.g. {"scorer": 1}, got \'{"scorer": true}\' (see halluscope score --help)\n'
    )


def test_ray_refuses_references_of_two_types_before_ray_starts(tmp_path, capsys):
    """An Arrow column holds one type: strings and lists of strings in one run are
    refused, naming both rows (null mixes with either)."""
    rows = [
        {"prediction": "A.", "source": "A b.", "reference": None},
        {"prediction": "A.", "source": "A b.", "reference": ["A.", "B."]},
        {"prediction": "A.", "source": "A b.", "reference": ""},
    ]
    write_jsonl(tmp_path / "in.jsonl", rows)
    code = main(
        [
            "score",
            "--engine",
            "ray",
            "--input",
            str(tmp_path / "in.jsonl"),
            "--metrics",
            "ehi",
            "--reference-field",
            "reference",
            "--output-dir",
            str(tmp_path / "out"),
        ]
    )
    assert code == 2
    assert capsys.readouterr().err == (
        "error: --engine ray: the 'reference' of line 3 is a string, of line 2 a "
        "list; an Arrow column holds one type: make every reference a list (null "
        "for none), or score this input without --engine ray\n"
    )
    assert not (tmp_path / "out").exists()  # refused before Ray starts and before the folder is made


# ------------------------------------------------------------------ real Ray


def varied_rows() -> list[Any]:
    """32 rows: the shipped examples twice (references, "" for none, dates, an undefined
    qhi), ids of two types, a kept label, and a bad line (no prediction) that
    ``--on-error skip`` skips on both engines."""
    rows: list[Any] = []
    for index, row in enumerate(example_rows(copies=2)):
        row = {key: value for key, value in row.items() if key != "line"}
        row["label"] = index % 2
        if index == 7:
            row["id"] = 7
        rows.append(row)
    rows.insert(10, {"id": "bad", "source": "A document."})
    return rows


def run_in_namespace(argv: list[str], timeout: float) -> subprocess.CompletedProcess:
    """``python -m halluscope.cli ARGV`` in a new network (loopback only) and PID namespace."""
    script = "ip link set lo up && exec " + " ".join([sys.executable, "-m", "halluscope.cli", *argv])
    process = subprocess.Popen(
        [*NAMESPACE, "sh", "-c", script],
        env=ray_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    out, err = communicate_within(process, timeout, "halluscope score --engine ray")
    return subprocess.CompletedProcess(argv, process.returncode, out, err)


@pytest.mark.slow
@needs_namespace
def test_local_ray_writes_the_local_commands_record_for_every_line(tmp_path, capsys):
    folder = short_folder()
    write_jsonl(tmp_path / "in.jsonl", varied_rows())
    common = [
        "--input",
        str(tmp_path / "in.jsonl"),
        "--metrics",
        "chi,ehi",
        "--reference-field",
        "reference",
        "--publication-date-field",
        "publication_date",
        "--on-error",
        "skip",
        "--no-progress",
    ]
    assert main(["score", *common, "--output", str(tmp_path / "local.jsonl")]) == 0
    capsys.readouterr()
    done = run_in_namespace(
        [
            "score",
            "--engine",
            "ray",
            *common,
            "--output-dir",
            str(folder / "out"),
            "--ray-temp-dir",
            str(folder / "r"),
            "--chunk-size",
            "8",
        ],
        timeout=170,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "skipped" in done.stderr and "line 11" in done.stderr
    local = [json.loads(line) for line in (tmp_path / "local.jsonl").read_text(encoding="utf-8").splitlines()]
    shards = sorted((folder / "out").glob("part-*.jsonl"))
    assert [shard.name for shard in shards] == ["part-00000.jsonl"]
    got = [json.loads(line) for line in shards[0].read_text(encoding="utf-8").splitlines()]
    assert sorted(record["line"] for record in got) == [record["line"] for record in local]  # each line once
    by_line = {record["line"]: record for record in got}
    for theirs in local:
        mine = by_line[theirs["line"]]
        assert list(mine) == list(theirs), theirs["line"]  # the same keys, in the same order
        assert same_floats(mine, theirs), theirs["line"]  # bit for bit, details and digest too
    assert [record["fields"]["label"] for record in local][:3] == [0, 1, 0]
    assert {type(record["id"]) for record in got} == {str, int}
    summary = json.loads((folder / "out" / "summary.json").read_text(encoding="utf-8"))
    local_summary = json.loads((tmp_path / "local.summary.json").read_text(encoding="utf-8"))
    assert summary["rows_in"] == summary["rows_out"] == summary["examples"] == 32
    assert summary["skipped"] == local_summary["skipped"] == [{"line": 11, "reason": "missing field 'prediction'"}]
    assert summary["engine"] == "ray"
    assert same_floats(summary["metrics"], local_summary["metrics"])  # means summed in line order
    # halluscope report on the output folder: the page of the local command's file
    assert main(["report", "--input", str(tmp_path / "local.jsonl"), "--output", str(tmp_path / "local.html")]) == 0
    assert main(["report", "--input", str(folder / "out"), "--output", str(tmp_path / "ray.html")]) == 0
    assert (tmp_path / "ray.html").read_text(encoding="utf-8") == (tmp_path / "local.html").read_text(encoding="utf-8")


def test_a_line_written_twice_or_missing_is_an_error_not_a_warning(tmp_path):
    """What Ray returns is checked: a line twice stops the writing, a line missing
    (rows_in != rows_out) is a LineError (exit code 1) naming it."""
    from halluscope.cli.command_errors import LineError
    from halluscope.cli.input_examples import Example, FieldNames
    from halluscope.cli.ray_run import CARRIED, _check_every_line_once, _write_shards

    def scored(line: int) -> dict[str, Any]:
        return {
            CARRIED: json.dumps({"line": line, "id": None, "digest": "0"}),
            "prediction": "A.",
            "source": "A b.",
            "scores": '{"ehi": {"ehi": 0.5}}',
            "labels": "{}",
            "details": '{"ehi": {}}',
        }

    written = _write_shards([scored(2), scored(1)], str(tmp_path), FieldNames())
    assert written == {("", 2): {"ehi": {"ehi": 0.5}}, ("", 1): {"ehi": {"ehi": 0.5}}}  # by (file, line)
    assert json.loads((tmp_path / "part-00000.jsonl").read_text(encoding="utf-8").splitlines()[0]) == {
        "line": 2,
        "id": None,
        "digest": "0",
        "prediction": "A.",
        "scores": {"ehi": {"ehi": 0.5}},
        "details": {"ehi": {}},
    }  # no labels when no metric labels, as the local record
    (tmp_path / "again").mkdir()
    with pytest.raises(LineError, match=r"^Ray returned line 1 twice"):
        _write_shards([scored(1), scored(1)], str(tmp_path / "again"), FieldNames())
    examples = [Example(line, None, "A b.", "A.") for line in (1, 2, 3)]
    with pytest.raises(
        LineError,
        match=r"^Ray wrote 2 records for 3 input rows \(rows_in != rows_out; missing: line 3\)$",
    ):
        _check_every_line_once(examples, written, "line")
    _check_every_line_once(examples[:2], written, "line")  # every line once: no error


@pytest.mark.slow
@needs_namespace
def test_local_ray_reads_several_files_and_writes_parquet_holding_the_local_records(tmp_path, capsys):
    """A folder of two JSONL files (one in a subfolder) and a Parquet file, Parquet out:
    each record is the local command's record for its file and line, with ``file`` first."""
    folder = short_folder()
    rows = varied_rows()  # line 11 of a.jsonl is bad, an int id is in a.jsonl
    parts = {"a.jsonl": rows[:12], "b.parquet": rows[12:22], "sub/c.jsonl": rows[22:]}
    (tmp_path / "in" / "sub").mkdir(parents=True)
    write_jsonl(tmp_path / "in" / "a.jsonl", parts["a.jsonl"])
    pq.write_table(pa.Table.from_pylist(parts["b.parquet"]), tmp_path / "in" / "b.parquet")
    write_jsonl(tmp_path / "in" / "sub" / "c.jsonl", parts["sub/c.jsonl"])
    fields = ["--metrics", "chi", "--reference-field", "reference", "--publication-date-field", "publication_date"]
    common = [*fields, "--on-error", "skip", "--no-progress"]
    local = {}
    for name in parts:
        output = tmp_path / f"{name.replace('/', '_')}.out.jsonl"
        assert main(["score", "--input", str(tmp_path / "in" / name), "--output", str(output), *common]) == 0
        local[name] = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    capsys.readouterr()
    argv = ["score", "--engine", "ray", "--input", str(tmp_path / "in"), *common, "--output-format", "parquet"]
    done = run_in_namespace(
        [*argv, "--output-dir", str(folder / "out"), "--ray-temp-dir", str(folder / "r"), "--chunk-size", "8"],
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(path.name for path in (folder / "out").iterdir()) == ["part-00000.parquet", "summary.json"]
    got = {(record["file"], record["line"]): record for _, record in output_dir_records(str(folder / "out"))}
    expected = {(name, record["line"]): record for name, records in local.items() for record in records}
    assert sorted(got) == sorted(expected) and len(got) == 32  # every line of every file once
    for key, theirs in expected.items():
        mine = dict(got[key])
        assert mine.pop("file") == key[0]
        assert list(mine) == list(theirs), key
        assert same_floats(mine, theirs), key
    summary = json.loads((folder / "out" / "summary.json").read_text(encoding="utf-8"))
    assert summary["rows_in"] == summary["rows_out"] == 32
    assert summary["skipped"] == [{"file": "a.jsonl", "line": 11, "reason": "missing field 'prediction'"}]


#: loaded by every Python process of the namespace (PYTHONPATH) while
#: $HALLUSCOPE_TEST_POISON is set: EHI registered again (dimensions are registrable,
#: docs/architecture.md#dimensions) as a dimension whose extraction ends its process at
#: once (os._exit, as the kernel's out-of-memory killer would) on a text holding the
#: marker, noting the death in $HALLUSCOPE_TEST_DEATHS
POISONED_EHI = """import os
if os.environ.get("HALLUSCOPE_TEST_POISON"):
    from halluscope import dimensions

    shipped = type(dimensions.get("ehi"))

    class Poisoned(shipped):
        def extractor(self, options):
            extract = super().extractor(options)

            def poisoned(doc):
                if os.environ["HALLUSCOPE_TEST_POISON"] in doc.text:
                    with open(os.environ["HALLUSCOPE_TEST_DEATHS"], "a") as deaths:
                        deaths.write(f"{os.getpid()}\\n")
                    os._exit(9)
                return extract(doc)

            return poisoned

    dimensions.unregister("ehi")
    dimensions.register(Poisoned())
"""


@pytest.mark.slow
@needs_namespace
def test_a_row_that_kills_its_actor_every_time_ends_the_run_naming_its_batch(tmp_path, monkeypatch):
    """Ray restarts the actor and retries the batch a finite number of times
    (halluscope.ray.DEFAULT_RETRIES), then the run ends, exit 1, naming the batch's rows
    by file and line: never a hang, never a silent drop."""
    from halluscope.ray import DEFAULT_RETRIES

    folder = short_folder()
    (folder / "site").mkdir()
    (folder / "site" / "sitecustomize.py").write_text(POISONED_EHI, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", f"{folder / 'site'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    monkeypatch.setenv("HALLUSCOPE_TEST_POISON", "Zanzibarquux")
    monkeypatch.setenv("HALLUSCOPE_TEST_DEATHS", str(folder / "deaths"))
    rows = [
        {"id": n, "prediction": f"Alice met Bob on day {n}.", "source": f"Alice met Bob on day {n}."} for n in range(12)
    ]
    rows[9]["prediction"] = "Zanzibarquux met Bob."  # b.jsonl line 4
    (tmp_path / "in").mkdir()
    write_jsonl(tmp_path / "in" / "a.jsonl", rows[:6])
    write_jsonl(tmp_path / "in" / "b.jsonl", rows[6:])
    done = run_in_namespace(
        [
            "score",
            "--engine",
            "ray",
            "--input",
            str(tmp_path / "in"),
            "--metrics",
            "ehi",
            "--output-dir",
            str(folder / "out"),
            "--ray-temp-dir",
            str(folder / "r"),
            "--actors",
            "1",
            "--chunk-size",
            "4",
            "--no-progress",
        ],
        timeout=300,
    )
    deaths = (folder / "deaths").read_text(encoding="utf-8").split()
    said = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert done.returncode == 1 and len(said) == 1, done.stderr[-3000:]
    found = re.fullmatch(
        r"error: Ray gave up on a batch of (\d+) rows? after its actor died on each of (\d+) tries \(a row of it "
        r"ends the process scoring it: out of memory, a crash in a native library\): (.+); score these rows "
        r"apart, or leave them out\. Ray said: (\w+): .+",
        said[0],
    )
    assert found, said[0]
    named = found.group(3).split(", ")
    assert int(found.group(1)) == len(named) and "b.jsonl line 4" in named
    assert set(named) <= {f"a.jsonl line {n}" for n in range(1, 7)} | {f"b.jsonl line {n}" for n in range(1, 7)}
    assert int(found.group(2)) == len(deaths) == DEFAULT_RETRIES + 1  # the first try and each retry
    assert not (folder / "out" / "summary.json").exists()  # only a complete run writes its summary
    print(f"{said[0][:300]} ({len(deaths)} deaths)")
