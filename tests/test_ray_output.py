"""The input and output of ``halluscope score --engine ray`` without Ray (issue 58 items
2-3, docs/cli.md#scoring-on-ray): a folder or glob of JSONL/CSV/Parquet files read file by
file, Parquet shards holding exactly the JSONL records, and ``halluscope report`` on an
output folder giving the report of the local command's file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from halluscope.cli import main
from halluscope.cli.command_errors import CommandError, FileError, LineError
from halluscope.cli.input_examples import FieldNames
from halluscope.cli.input_files import input_files, read_examples
from halluscope.cli.output_dir import ShardWriter, output_dir_records, parquet_table, record_key
from halluscope.cli.parser import build_parser
from test_ray import example_rows, same_floats


def write_jsonl(path: Path, rows: list[Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")


def row(n: int) -> dict[str, Any]:
    return {"id": f"r{n}", "prediction": "Alice met Bob.", "source": f"Alice met Bob on day {n}.", "label": n % 2}


@pytest.fixture
def three_files(tmp_path: Path) -> Path:
    """in/a.jsonl (rows 0-1), in/b.parquet (rows 2-3), in/sub/c.jsonl (row 4, then a
    line without a source), and files that are not read (_SUCCESS, .hidden.jsonl)."""
    folder = tmp_path / "in"
    write_jsonl(folder / "a.jsonl", [row(0), row(1)])
    pq.write_table(pa.Table.from_pylist([row(2), row(3)]), folder / "b.parquet")
    write_jsonl(folder / "sub" / "c.jsonl", [row(4), {"id": "bad", "prediction": "A."}])
    (folder / "_SUCCESS").write_text("", encoding="utf-8")
    write_jsonl(folder / ".hidden.jsonl", [row(9)])
    return folder


def test_a_folder_or_a_glob_lists_its_input_files_by_name(three_files, tmp_path, monkeypatch):
    assert input_files(str(three_files)) == [
        ("a.jsonl", str(three_files / "a.jsonl")),
        ("b.parquet", str(three_files / "b.parquet")),
        ("sub/c.jsonl", str(three_files / "sub" / "c.jsonl")),
    ]
    monkeypatch.chdir(tmp_path)
    assert input_files("in/**/*.jsonl") == [("in/a.jsonl", "in/a.jsonl"), ("in/sub/c.jsonl", "in/sub/c.jsonl")]
    assert input_files("in/a.jsonl") is None  # one file: read as the local command reads it
    assert input_files("-") is None
    (tmp_path / "saved").mkdir()
    (tmp_path / "saved" / "dataset_info.json").write_text("{}", encoding="utf-8")
    assert input_files("saved") is None  # a save_to_disk folder stays one input
    with pytest.raises(CommandError, match=r"^--input in/\*\.csv: the pattern matches no file$"):
        input_files("in/*.csv")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CommandError, match=r"^--input empty: a folder with no \.jsonl, .*save_to_disk$"):
        input_files("empty")


def _args(*argv: str) -> Any:
    return build_parser().parse_args(["score", "--engine", "ray", "--output-dir", "o", *argv])


def test_several_files_are_read_file_by_file_with_lines_per_file(three_files):
    messages: list[str] = []
    args = _args("--input", str(three_files), "--on-error", "skip")
    source, examples, skipped = read_examples(args, FieldNames(), None, messages.append, several_files=True)
    assert (source.path, source.label) == (str(three_files), "line")
    assert [(e.file, e.position, e.id, e.kept) for e in examples] == [
        ("a.jsonl", 1, "r0", {"label": 0}),
        ("a.jsonl", 2, "r1", {"label": 1}),
        ("b.parquet", 1, "r2", {"label": 0}),  # a Parquet row's number in its file, from 1
        ("b.parquet", 2, "r3", {"label": 1}),
        ("sub/c.jsonl", 1, "r4", {"label": 0}),
    ]
    assert [(s.file, s.position, s.reason) for s in skipped] == [("sub/c.jsonl", 2, "missing field 'source'")]
    assert messages == [f"skipped {three_files / 'sub' / 'c.jsonl'} line 2: missing field 'source'"]
    limited = _args("--input", str(three_files), "--limit", "3")
    _, examples, _ = read_examples(limited, FieldNames(), None, messages.append, several_files=True)
    assert [(e.file, e.position) for e in examples] == [("a.jsonl", 1), ("a.jsonl", 2), ("b.parquet", 1)]
    stop = _args("--input", str(three_files))
    with pytest.raises(LineError, match=r"c\.jsonl line 2: missing field 'source'$"):
        read_examples(stop, FieldNames(), None, messages.append, several_files=True)


def test_ray_refuses_an_output_dir_inside_the_input_folder(three_files, capsys):
    code = main(["score", "--engine", "ray", "--input", str(three_files), "--output-dir", str(three_files / "out")])
    assert code == 2
    assert capsys.readouterr().err == (
        f"error: --output-dir {three_files / 'out'} is inside the --input folder; choose a folder outside it\n"
    )


@pytest.fixture(scope="module")
def local_run(tmp_path_factory) -> tuple[Path, list[dict[str, Any]]]:
    """The local command's output on the 16 shipped examples (references, dates, an
    undefined qhi), ids of two types, a kept label on some rows only: its file and records."""
    folder = tmp_path_factory.mktemp("local")
    rows = [{key: value for key, value in r.items() if key != "line"} for r in example_rows()]
    rows[3]["id"] = 3
    for index in (0, 5, 6):
        rows[index]["label"] = index % 2
    write_jsonl(folder / "in.jsonl", rows)
    argv = ["score", "--input", str(folder / "in.jsonl"), "--output", str(folder / "local.jsonl"), "--no-progress"]
    fields = ["--metrics", "chi,ehi", "--reference-field", "reference", "--publication-date-field", "publication_date"]
    assert main([*argv, *fields]) == 0
    records = [json.loads(line) for line in (folder / "local.jsonl").read_text(encoding="utf-8").splitlines()]
    return folder, records


def test_parquet_shards_hold_exactly_the_jsonl_records(local_run, tmp_path):
    folder, records = local_run
    assert any(r["scores"]["chi"]["qhi"] is None for r in records)  # an undefined score is in the run
    assert {type(r["id"]) for r in records} == {str, int} and sum("fields" in r for r in records) == 3
    shuffled = records[5:] + records[:5]  # Ray's order is not the input's
    for output_format in ("jsonl", "parquet"):
        (tmp_path / output_format).mkdir()
        writer = ShardWriter(str(tmp_path / output_format), output_format, shard_rows=6)
        for record in shuffled:
            writer.write(record)
        writer.close()
        names = sorted(path.name for path in (tmp_path / output_format).iterdir())
        assert names == [f"part-0000{k}.{output_format}" for k in range(3)]  # 6 + 6 + 4 records
        read = [record for _, record in output_dir_records(str(tmp_path / output_format))]
        assert len(read) == len(records)
        for mine, theirs in zip(sorted(read, key=record_key), records, strict=True):
            assert list(mine) == list(theirs)  # the same keys in the same order
            assert same_floats(mine, theirs), theirs["line"]  # floats bit for bit, null stays null
    table = pq.read_table(tmp_path / "parquet" / "part-00000.parquet")
    assert table.schema.field("scores").type == pa.struct(
        [
            ("chi", pa.struct([(n, pa.float64()) for n in records[0]["scores"]["chi"]])),
            ("ehi", pa.struct([("ehi", pa.float64())])),
        ]
    )
    assert table.schema.field("labels").type == pa.struct([("chi", pa.int64())])
    assert [table.schema.field(n).type for n in ("id", "reference", "fields", "details")] == [pa.string()] * 4
    assert json.loads(table.column("id")[0].as_py()) == shuffled[0]["id"]
    odd = {**records[0], "scores": {"chi": records[0]["scores"]["chi"]}}
    with pytest.raises(LineError, match=r"differ in shape from the first record's"):
        parquet_table([records[1], odd])  # Arrow would drop the ehi scores without a word


def test_report_of_an_output_folder_is_the_report_of_the_local_file(local_run, tmp_path, capsys):
    """Shards in Ray's order (JSONL or Parquet) with the run's summary.json give the
    very page the local command's file and summary give."""
    folder, records = local_run
    assert main(["report", "--input", str(folder / "local.jsonl"), "--output", str(tmp_path / "local.html")]) == 0
    expected = (tmp_path / "local.html").read_text(encoding="utf-8")
    for output_format in ("jsonl", "parquet"):
        out = tmp_path / output_format
        out.mkdir()
        writer = ShardWriter(str(out), output_format, shard_rows=5)
        for record in reversed(records):
            writer.write(record)
        writer.close()
        shutil.copy(folder / "local.summary.json", out / "summary.json")
        page = tmp_path / f"{output_format}.html"
        assert main(["report", "--input", str(out), "--output", str(page)]) == 0
        assert page.read_text(encoding="utf-8") == expected, output_format
    assert "agreement" in expected.lower() and "Signatures" in expected  # the labels and the summary were read
    capsys.readouterr()
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "part-00000.jsonl").write_text(json.dumps(records[0]) + "\n{not json\n", encoding="utf-8")
    assert main(["report", "--input", str(broken), "--output", str(tmp_path / "b.html")]) == 2
    assert capsys.readouterr().err == (
        f"error: {broken / 'part-00000.jsonl'} line 2: not a complete scores record (JSONDecodeError)\n"
    )
    (broken / "part-00001.parquet").write_bytes(b"")
    with pytest.raises(FileError, match="holds both JSONL and Parquet shards"):
        list(output_dir_records(str(broken)))
