"""``halluscope score --resume`` against an input edited since the partial file was
written (issue 57, class 2): each record carries a digest of what it was made from, and
a record whose row changed is scored again, never kept; the output holds every input
line once, in input order, each with the record a fresh run writes."""

from __future__ import annotations

import dataclasses
import json
import math
import os

import pytest
from halluscope.cli import main
from halluscope.cli.input_examples import Example
from halluscope.cli.resume import DIGEST_HEX_DIGITS, finish_in_input_order, plan_resume, record_digest

GITHUB = "Microsoft acquired the startup GitHub in 2018.\nThe deal was worth $7.5 billion."
ROWS = [
    {
        "id": "faithful",
        "source": GITHUB,
        "reference": "Microsoft acquired GitHub for $7.5 billion in 2018.",
        "prediction": "Microsoft acquired GitHub for $7.5 billion in 2018.",
        "label": 1,
        "publication_date": "2018-06-04",
    },
    {
        "id": "entity-swap",
        "source": "Barack Obama met Angela Merkel in Berlin on Tuesday.",
        "reference": "Obama and Merkel met in Berlin.",
        "prediction": "Barack Obama and Emmanuel Macron met in Paris on Tuesday.",
        "label": 0,
        "publication_date": "2015-03-10",
    },
    {
        "id": "reference-free",
        "source": GITHUB,
        "reference": "",
        "prediction": "Microsoft bought GitHub for $9 billion in 2019.",
        "label": 0,
        "publication_date": "",
    },
    {
        "id": "quantity",
        "source": "Sales rose 12% to $4.2 billion in 2023.",
        "reference": "Sales grew 12%.",
        "prediction": "Sales rose 21% to $4.2 billion last Tuesday.",
        "label": 0,
        "publication_date": "2023-09-01",
    },
]
RUN = ["--reference-field", "reference", "--chunk-size", "1", "--no-progress"]


def _write(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" if isinstance(row, dict) else row for row in rows), encoding="utf-8")
    return str(path)


def _read(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def _calls(monkeypatch, interrupt_at=None):
    """Count the command's API calls (one per chunk of one row); raise
    KeyboardInterrupt at call ``interrupt_at``."""
    import halluscope.cli.chunked_scoring as cli

    real, calls = cli.metric_function, []

    def counting(metric):
        function = real(metric)

        def wrapped(*args, **kwargs):
            calls.append(args[0])
            if len(calls) == interrupt_at:
                raise KeyboardInterrupt
            return function(*args, **kwargs)

        return wrapped

    monkeypatch.setattr(cli, "metric_function", counting)
    return calls


def _score(source, output, *extra):
    return main(["score", "--input", source, "--output", str(output), *RUN, *extra])


def _fresh(folder, rows, *extra):
    """The records and summary of an uninterrupted run on ``rows``."""
    path = _write(folder / "fresh-in.jsonl", rows)
    assert _score(path, folder / "fresh.jsonl", *extra) == 0
    return _read(folder / "fresh.jsonl"), json.loads((folder / "fresh.summary.json").read_text())


def _interrupted(tmp_path, monkeypatch, rows, done, *extra):
    """Score ``rows`` into ``tmp_path/out.jsonl``, interrupted once ``done`` rows are scored."""
    path, output = _write(tmp_path / "in.jsonl", rows), tmp_path / "out.jsonl"
    _calls(monkeypatch, interrupt_at=done + 1)
    assert _score(path, output, *extra) == 130
    monkeypatch.undo()
    assert [r["line"] for r in _read(f"{output}.partial")] == list(range(1, done + 1))
    return path, output


def test_an_edited_row_is_scored_again_and_the_output_is_in_input_order(tmp_path, monkeypatch, capsys):
    path, output = _interrupted(tmp_path, monkeypatch, ROWS, 2)
    before = _read(f"{output}.partial")
    edited = [dict(ROWS[0], prediction="Microsoft acquired GitHub for $9 billion in 2019.")] + ROWS[1:]
    _write(tmp_path / "in.jsonl", edited)
    capsys.readouterr()
    # the first resume is interrupted too, after line 1 is scored again: it lands after line 2
    calls = _calls(monkeypatch, interrupt_at=2)
    assert _score(path, output, "--resume") == 130
    assert calls == [[edited[0]["prediction"]], [edited[2]["prediction"]]]  # line 2 kept, not rescored
    assert capsys.readouterr().err.splitlines()[0] == (
        f"resuming after 1 scored examples in {output}.partial; 1 record(s) were made from other input or under "
        "another signature and are scored again (lines 1)"
    )
    monkeypatch.undo()
    assert [r["line"] for r in _read(f"{output}.partial")] == [2, 1]
    assert _read(f"{output}.partial")[0] == before[1]  # kept byte for byte
    assert _score(path, output, "--resume") == 0
    records, summary = _fresh(tmp_path, edited)
    assert _read(output) == records  # in input order, each line once, every field the fresh one's
    assert output.read_bytes() == (tmp_path / "fresh.jsonl").read_bytes()
    assert records[0]["scores"] != before[0]["scores"]  # the edit changed the scores: the stale one is gone
    written = json.loads((tmp_path / "out.summary.json").read_text())
    assert written["metrics"] == summary["metrics"] and written["examples"] == 4
    assert not os.path.exists(f"{output}.partial") and not os.path.exists(f"{output}.partial.json")


@pytest.mark.parametrize(
    "field, value, extra",
    [
        ("source", "Barack Obama met Angela Merkel in Paris on Tuesday.", []),
        ("reference", "Obama and Macron met in Paris.", []),
        ("id", "renamed", []),
        ("label", 1, []),  # a kept field: no score changes, but the record's fields do
        ("publication_date", "2015-03-17", ["--publication-date-field", "publication_date"]),
        ("extra", "a field added", []),  # a new kept field
    ],
)
def test_any_field_of_a_scored_row_edited_is_scored_again(field, value, extra, tmp_path, monkeypatch, capsys):
    path, output = _interrupted(tmp_path, monkeypatch, ROWS, 2, *extra)
    edited = [ROWS[0], dict(ROWS[1], **{field: value})] + ROWS[2:]
    _write(tmp_path / "in.jsonl", edited)
    capsys.readouterr()
    calls = _calls(monkeypatch)
    assert _score(path, output, *extra, "--resume") == 0
    assert len(calls) == 3  # lines 2, 3, 4; line 1 kept
    assert (
        "1 record(s) were made from other input or under another signature and are scored again (lines 2)"
        in capsys.readouterr().err
    )
    monkeypatch.undo()
    assert _read(output) == _fresh(tmp_path, edited, *extra)[0]


def test_records_of_rows_no_longer_in_the_input_are_dropped(tmp_path, monkeypatch, capsys):
    path, output = _interrupted(tmp_path, monkeypatch, ROWS, 3, "--on-error", "skip")
    # line 2 is now malformed (skipped), and the file ends after line 3
    _write(tmp_path / "in.jsonl", [ROWS[0], '{"id": "broken", \n', ROWS[2]])
    capsys.readouterr()
    calls = _calls(monkeypatch)
    assert _score(path, output, "--on-error", "skip", "--resume") == 0
    assert calls == []  # lines 1 and 3 were scored from these very rows
    assert "1 record(s) of lines that are no longer examples of the input are dropped (2)" in capsys.readouterr().err
    monkeypatch.undo()
    records = _read(output)
    assert [r["line"] for r in records] == [1, 3]
    assert records == _fresh(tmp_path, [ROWS[0], '{"id": "broken", \n', ROWS[2]], "--on-error", "skip")[0]


def test_a_partial_file_without_digests_is_scored_again(tmp_path, monkeypatch, capsys):
    """A partial file written before records had a digest: nothing says what its records
    were made from, so none is kept."""
    path, output = _interrupted(tmp_path, monkeypatch, ROWS, 2)
    partial = f"{output}.partial"
    _write(tmp_path / "out.jsonl.partial", [{k: v for k, v in r.items() if k != "digest"} for r in _read(partial)])
    calls = _calls(monkeypatch)
    assert _score(path, output, "--resume") == 0
    assert len(calls) == 4
    monkeypatch.undo()
    assert _read(output) == _fresh(tmp_path, ROWS)[0]


# -- the digest and the plan, by hand ------------------------------------------------------------

EXAMPLE = Example(
    position=3,
    id="a",
    source="The source.",
    prediction="The summary.",
    reference="A reference.",
    publication_date="2020-01-02",
    kept={"label": 1, "dataset": "frank"},
)
SIGNATURES = {"chi": "halluscope:0.1.0|metric:chi|formula:support"}


@pytest.mark.parametrize(
    "change",
    [
        {"id": "b"},
        {"id": None},
        {"source": "The source!"},
        {"prediction": "The summary. "},
        {"reference": ""},
        {"reference": ["A reference."]},
        {"publication_date": ""},
        {"kept": {"label": 0, "dataset": "frank"}},
        {"kept": {"label": 1}},
        {"kept": {"label": 1, "dataset": "frank", "new": None}},
        {"kept": {"label": "1", "dataset": "frank"}},
    ],
)
def test_the_digest_changes_with_every_field_the_record_holds_or_is_scored_from(change):
    assert record_digest(dataclasses.replace(EXAMPLE, **change), SIGNATURES) != record_digest(EXAMPLE, SIGNATURES)


def test_the_digest_by_hand():
    digest = record_digest(EXAMPLE, SIGNATURES)
    assert len(digest) == DIGEST_HEX_DIGITS == 16 and int(digest, 16) >= 0 and digest == digest.lower()
    # the SHA-256 of the canonical JSON (sorted keys, ASCII, no spaces), first 16 hex digits
    import hashlib

    canonical = (
        '{"fields":{"dataset":"frank","label":1},"id":"a","prediction":"The summary.",'
        '"publication_date":"2020-01-02","reference":"A reference.","signatures":{"chi":'
        '"halluscope:0.1.0|metric:chi|formula:support"},"source":"The source."}'
    )
    assert digest == hashlib.sha256(canonical.encode("ascii")).hexdigest()[:16]
    assert record_digest(dataclasses.replace(EXAMPLE, position=9), SIGNATURES) == digest  # matched by position
    assert record_digest(EXAMPLE, {"chi": SIGNATURES["chi"] + "|enc:x@bf16"}) != digest  # another signature
    assert record_digest(EXAMPLE, {**SIGNATURES, "qhi": "q"}) != digest  # another metric
    # NaN and null in a kept field: the record writes both as null, and so does the digest
    assert record_digest(dataclasses.replace(EXAMPLE, kept={"x": math.nan}), SIGNATURES) == record_digest(
        dataclasses.replace(EXAMPLE, kept={"x": None}), SIGNATURES
    )
    assert record_digest(dataclasses.replace(EXAMPLE, kept=None), SIGNATURES) == record_digest(
        dataclasses.replace(EXAMPLE, kept={}), SIGNATURES
    )


def test_the_plan_keeps_only_records_of_the_input_as_it_is():
    examples = [dataclasses.replace(EXAMPLE, position=p, id=str(p)) for p in (1, 2, 4, 5, 6)]
    digest = {e.position: record_digest(e, SIGNATURES) for e in examples}
    records = [
        {"line": 1, "digest": digest[1]},
        {"line": 2, "digest": "0" * 16},
        {"line": 3, "digest": "x"},
        {"line": 5, "digest": digest[5]},
        {"line": 6, "digest": digest[6]},
        {"line": 6, "digest": digest[6]},
        {"line": 4},
    ]
    plan = plan_resume(records, examples, SIGNATURES, "line")
    assert plan.kept == [0, 3]  # lines 1 and 5
    assert plan.changed == [2, 4]  # another digest; none at all
    assert plan.gone == [3, 6, 6]  # not an example now; written twice
    assert [e.position for e in plan.to_score] == [2, 4, 6] and plan.dropped == 5
    other = plan_resume(records, examples, {"chi": "another signature"}, "line")
    assert other.kept == [] and [e.position for e in other.to_score] == [1, 2, 4, 5, 6]


def test_finishing_writes_the_records_in_input_order(tmp_path):
    lines = [json.dumps({"row": p, "x": "é" * p}, ensure_ascii=False) + "\n" for p in (0, 3, 10, 2, 11)]
    partial, output = tmp_path / "out.jsonl.partial", tmp_path / "out.jsonl"
    partial.write_text("".join(lines), encoding="utf-8")
    finish_in_input_order(str(partial), str(output), "row")
    assert output.read_text(encoding="utf-8") == "".join(lines[k] for k in (0, 3, 1, 2, 4))
    assert not partial.exists()
    partial.write_text("".join(lines[:3]), encoding="utf-8")  # in order: renamed as it is
    inode = os.stat(partial).st_ino
    finish_in_input_order(str(partial), str(output), "row")
    assert output.read_text(encoding="utf-8") == "".join(lines[:3]) and os.stat(output).st_ino == inode
