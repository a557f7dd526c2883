"""Reading the input: the rows of a JSONL, CSV or Parquet file, a ``datasets`` folder or
JSONL on standard input, each with its position (docs/cli.md); the rows are checked and
turned into examples by :mod:`.input_examples`."""

from __future__ import annotations

import csv
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from .command_errors import CommandError, FileError

#: ``--input -`` / ``--output -``: standard input (JSONL) / standard output
STDIO = "-"


@dataclass(frozen=True)
class InputSource:
    """Where rows come from: ``label`` is "line" (files) or "row" (datasets folder)."""

    path: str
    label: str
    columns: list[str] | None  # known up front for CSV and datasets; None for JSONL
    rows: Iterator[tuple[int, Any]]  # (position, dict of fields, or a str saying what is wrong)


#: the largest CSV cell read (characters): far above any text the metrics take
CSV_CELL_LIMIT = 1 << 30
#: the longest JSONL line read (bytes); a longer line is a bad row, skipped unread
#: (docs/cli.md, "Input rows and bad input")
JSONL_LINE_LIMIT = 1 << 30
#: bytes of an over-long line read (and dropped) at a time
_DRAIN_CHUNK = 1 << 20


def _lines(handle: BinaryIO, limit: int) -> Iterator[bytes | None]:
    """The lines of ``handle``; ``None`` for a line over ``limit`` bytes, which is read
    in chunks and dropped (so memory stays bounded by ``limit``)."""
    while True:
        raw = handle.readline(limit + 1)
        if not raw:
            return
        if len(raw) <= limit or raw.endswith(b"\n"):  # the newline is not counted
            yield raw
            continue
        while raw and not raw.endswith(b"\n"):
            raw = handle.readline(_DRAIN_CHUNK)
        yield None


def _jsonl_rows(path: str, handle: BinaryIO | None = None) -> Iterator[tuple[int, Any]]:
    """The rows of a JSONL file (or of ``handle``, e.g. standard input, named ``path``)."""
    with open(path, "rb") if handle is None else handle as handle:
        for number, raw in enumerate(_lines(handle, JSONL_LINE_LIMIT), start=1):
            if raw is None:
                yield number, f"the line is over {JSONL_LINE_LIMIT:,} bytes, more than any text the metrics take"
                continue
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as error:
                raise FileError(
                    f"{path} line {number}: not valid UTF-8 (byte 0x{raw[error.start]:02x} at "
                    f"byte {error.start + 1} of the line); save the file as UTF-8"
                ) from None
            if not line.strip():
                continue  # blank lines separate nothing and are not examples
            try:
                value = json.loads(line)
            except json.JSONDecodeError as error:
                yield number, f"not valid JSON ({error.msg} at column {error.pos + 1})"
                continue
            except RecursionError:  # thousands of nested brackets: Python's parser gives up
                yield number, "JSON nested too deeply to read"
                continue
            if not isinstance(value, dict):
                yield number, f"expected a JSON object, got {type(value).__name__}"
                continue
            yield number, value


def _csv_rows(handle: BinaryIO) -> tuple[list[str], Iterator[tuple[int, Any]]]:
    """The header of a CSV file and its records as dicts, each with the line it starts
    on (records may span lines). Cells beyond the header are dropped; a short row
    lacks its last fields."""
    consumed: list[str] = []

    def tracked_lines() -> Iterator[str]:
        for number, raw in enumerate(handle, start=1):  # bytes: a bad byte names its line
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as error:
                raise FileError(
                    f"{handle.name} line {number}: not valid UTF-8 (byte 0x{raw[error.start]:02x} "
                    f"at byte {error.start + 1} of the line); save the file as UTF-8"
                ) from None
            consumed.append(line)
            yield line

    # a cell may hold a whole article: csv's default limit (131,072 characters) is no cap
    # of ours (the texts' own limits are checked with the rows)
    csv.field_size_limit(CSV_CELL_LIMIT)
    reader = csv.reader(tracked_lines())
    try:
        header = next(reader, [])
    except csv.Error as error:
        raise FileError(f"{handle.name} line 1: not a CSV header ({error})") from None
    empty = [k + 1 for k, name in enumerate(header) if not name.strip()]
    if empty and len(header) > 1:
        raise FileError(f"{handle.name} line 1: column {empty[0]} of the header has no name; name every column")
    repeated = sorted({name for name in header if header.count(name) > 1})
    if repeated:
        raise FileError(
            f"{handle.name} line 1: the header names the column {repeated[0]!r} twice; "
            "which one holds the text would be a guess"
        )

    def records() -> Iterator[tuple[int, Any]]:
        lines_before = len(consumed)
        consumed.clear()
        while True:
            try:
                cells = next(reader)
            except StopIteration:
                break
            except csv.Error as error:
                raise FileError(f"{handle.name} line {lines_before + 1}: not valid CSV ({error})") from None
            blank = next((k for k, line in enumerate(consumed) if line.strip()), 0)
            start = lines_before + blank + 1
            lines_before += len(consumed)
            consumed.clear()
            if cells:  # the reader yields [] for a blank line
                # strict=False: a row with fewer or more cells than the header keeps the named cells it has
                yield start, dict(zip(header, cells, strict=False))
        handle.close()

    return header, records()


#: Parquet rows read at a time
PARQUET_BATCH_ROWS = 1024


def parquet_rows(path: str) -> tuple[list[str], Iterator[tuple[int, Any]]]:
    """The column names of a Parquet file and its rows as dicts, each with its number in
    the file (from 1, as a JSONL file's lines)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        handle = pq.ParquetFile(path)
    except (pa.ArrowInvalid, OSError) as error:
        raise FileError(f"{path}: not a Parquet file ({error})") from None

    def rows() -> Iterator[tuple[int, Any]]:
        number = 0
        for batch in handle.iter_batches(batch_size=PARQUET_BATCH_ROWS):
            for row in batch.to_pylist():
                number += 1
                yield number, row

    return list(handle.schema_arrow.names), rows()


def open_input(path: str, split: str | None = None) -> InputSource:
    """Rows of a ``.jsonl``/``.json`` file, a ``.csv`` file, a datasets folder or, for
    ``-``, JSONL from standard input (named ``<stdin>`` in messages)."""
    if path == STDIO:
        return InputSource("<stdin>", "line", None, _jsonl_rows("<stdin>", sys.stdin.buffer))
    if os.path.isdir(path):
        import datasets

        try:
            loaded = datasets.load_from_disk(path)
        except (FileNotFoundError, ValueError) as error:
            raise CommandError(f"--input {path}: not a folder saved by datasets' save_to_disk ({error})") from None
        if isinstance(loaded, datasets.DatasetDict):
            splits = list(loaded)
            if split is None and len(splits) == 1:
                split = splits[0]
            if split is None:
                raise CommandError(f"--input {path} holds the splits {splits}: choose one with --split")
            if split not in loaded:
                raise CommandError(f"--split {split}: {path} has no such split (its splits: {splits})")
            loaded = loaded[split]
        elif split is not None:
            raise CommandError(f"--split {split}: {path} holds one dataset without splits; leave out --split")
        return InputSource(path, "row", list(loaded.column_names), iter(enumerate(loaded)))
    if not os.path.isfile(path):
        raise CommandError(f"--input {path}: no such file or folder")
    if split is not None:
        raise CommandError(f"--split {split}: only a datasets folder has splits, and --input {path} is not one")
    extension = os.path.splitext(path)[1].lower()
    if extension == ".parquet":
        columns, records = parquet_rows(path)
        return InputSource(path, "line", columns, records)
    if extension == ".csv":
        header, records = _csv_rows(open(path, "rb"))
        return InputSource(path, "line", header, records)
    if extension in (".jsonl", ".json", ".ndjson"):
        return InputSource(path, "line", None, _jsonl_rows(path))
    raise CommandError(
        f"--input {path}: expected a .jsonl, .csv or .parquet file, a datasets folder or - (JSONL on standard input)"
    )
