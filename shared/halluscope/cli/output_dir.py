"""The output folder of ``halluscope score --engine ray`` (docs/cli.md#scoring-on-ray):
shards of records, JSONL (``part-NNNNN.jsonl``) or Parquet (``part-NNNNN.parquet``), and
``summary.json``. Written by :class:`ShardWriter`, read back whole by
:func:`read_output_dir` (for ``halluscope report``).

A JSONL shard holds each record as the local command writes it (Python's ``json``:
floats exact, an undefined score ``null``). A Parquet shard holds the same records in
columns: ``file``, ``line``/``row``, ``digest``, ``source``, ``prediction`` and
``publication_date`` as they are; ``scores`` as a struct of structs of float64 (metric
-> score name -> value, null where undefined) and ``labels`` as a struct of int64
(metric -> label), both of one shape in a run; and the values whose type varies per row
(:data:`PARQUET_JSON_FIELDS`: ``id``, ``reference``, ``fields``, ``details``) as JSON
text. ``fields`` is null where a row kept none.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from typing import Any, TextIO

from .command_errors import FileError, LineError

#: records per shard file
SHARD_ROWS = 10_000
#: ``--output-format`` choices
OUTPUT_FORMATS = ("jsonl", "parquet")
#: a record's keys in the order the local command writes them (each present or not)
RECORD_ORDER = (
    "file",
    "line",
    "row",
    "id",
    "digest",
    "source",
    "prediction",
    "reference",
    "publication_date",
    "fields",
    "scores",
    "labels",
    "details",
)
#: record fields a Parquet shard holds as JSON text: their type varies per row
PARQUET_JSON_FIELDS = ("id", "reference", "fields", "details")


def record_key(record: Mapping[str, Any]) -> tuple[str, int]:
    """Where a record's row was in the input: (its file, "" for one input; its line or row)."""
    return (record.get("file") or "", record["line"] if "line" in record else record["row"])


def shard_name(index: int, output_format: str) -> str:
    return f"part-{index:05d}.{output_format}"


def _shape(record: Mapping[str, Any]) -> tuple:
    """The keys of a record's ``scores`` and ``labels``: one shape in a Parquet file."""
    scores = tuple((metric, tuple(values)) for metric, values in record["scores"].items())
    return scores, tuple(record.get("labels") or ())


def parquet_table(records: list[dict[str, Any]]) -> Any:
    """``records`` (each as the local command writes it) as an Arrow table in the columns
    the module's docstring states; a record whose scores or labels differ in shape from
    the first's is a :class:`LineError` (Arrow would drop the extra keys)."""
    import pyarrow as pa

    first = records[0]
    names = [name for name in RECORD_ORDER if name in first or name == "fields"]
    shape = _shape(first)
    for record in records:
        if _shape(record) != shape:
            raise LineError(
                f"the scores of the record of (file, line) {record_key(record)} differ in shape from the first record's"
            )
    types = {
        "file": pa.string(),
        "line": pa.int64(),
        "row": pa.int64(),
        "digest": pa.string(),
        "source": pa.string(),
        "prediction": pa.string(),
        "publication_date": pa.string(),
        "scores": pa.struct(
            [(metric, pa.struct([(name, pa.float64()) for name in score_names])) for metric, score_names in shape[0]]
        ),
        "labels": pa.struct([(metric, pa.int64()) for metric in shape[1]]),
    }
    columns = {}
    for name in names:
        if name in PARQUET_JSON_FIELDS:
            values = [
                None if name not in record else json.dumps(record[name], ensure_ascii=False, allow_nan=False)
                for record in records
            ]
            columns[name] = pa.array(values, type=pa.string())
        else:
            columns[name] = pa.array([record.get(name) for record in records], type=types[name])
    return pa.table(columns)


def parquet_records(table: Any) -> list[dict[str, Any]]:
    """The records of a Parquet shard (:func:`parquet_table`'s inverse), keys in the
    local command's order."""
    records = []
    for row in table.to_pylist():
        record = {}
        for name in RECORD_ORDER:
            if name not in row:
                continue
            value = row[name]
            if name in PARQUET_JSON_FIELDS:
                if value is None:
                    continue  # no kept fields
                value = json.loads(value)
            record[name] = value
        records.append(record)
    return records


class ShardWriter:
    """Writes records into ``folder``'s shards of ``output_format``, ``shard_rows`` a file
    (Parquet shards are held in memory until full)."""

    def __init__(self, folder: str, output_format: str = "jsonl", shard_rows: int = SHARD_ROWS) -> None:
        self.folder, self.output_format, self.shard_rows = folder, output_format, shard_rows
        self.count = 0
        self._text: TextIO | None = None
        self._held: list[dict[str, Any]] = []

    def write(self, record: dict[str, Any]) -> None:
        index = self.count // self.shard_rows
        self.count += 1
        if self.output_format == "parquet":
            self._held.append(record)
            if len(self._held) == self.shard_rows:
                self._flush_parquet(index)
            return
        if (self.count - 1) % self.shard_rows == 0:
            self._close_text()
            # line-buffered: each record is on disk as soon as it is written
            self._text = open(os.path.join(self.folder, shard_name(index, "jsonl")), "w", encoding="utf-8", buffering=1)
        assert self._text is not None  # opened at the first record of each shard
        self._text.write(json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n")

    def _flush_parquet(self, index: int) -> None:
        import pyarrow.parquet as pq

        pq.write_table(parquet_table(self._held), os.path.join(self.folder, shard_name(index, "parquet")))
        self._held = []

    def _close_text(self) -> None:
        if self._text is not None:
            self._text.close()
            self._text = None

    def close(self) -> None:
        """Write what is held and close the open shard."""
        if self._held:
            self._flush_parquet((self.count - 1) // self.shard_rows)
        self._close_text()


def shard_paths(folder: str) -> list[str]:
    """The shards of an output folder, by name; a folder with none, or with both formats,
    is a :class:`FileError`."""
    names = sorted(name for name in os.listdir(folder) if name.startswith("part-"))
    kinds = {os.path.splitext(name)[1] for name in names}
    if not names or not kinds <= {".jsonl", ".parquet"}:
        raise FileError(
            f"--input {folder}: a folder without part-*.jsonl or part-*.parquet shards; "
            "halluscope report reads a scores file or the --output-dir of halluscope score --engine ray"
        )
    if len(kinds) > 1:
        raise FileError(f"--input {folder}: holds both JSONL and Parquet shards; the records of two runs never mix")
    return [os.path.join(folder, name) for name in names]


def output_dir_records(folder: str) -> Iterator[tuple[str, Any]]:
    """(where, record) of every record in the shards of ``folder``, shard by shard, where
    naming the shard and its line (JSONL) or row (Parquet, from 1). A JSONL line that is
    not JSON is yielded as a str saying so."""
    import pyarrow.parquet as pq

    for path in shard_paths(folder):
        if path.endswith(".parquet"):
            for number, record in enumerate(parquet_records(pq.read_table(path)), start=1):
                yield f"{path} row {number}", record
            continue
        with open(path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if not raw.strip():
                    continue
                try:
                    yield f"{path} line {number}", json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, json.JSONDecodeError) as error:
                    yield f"{path} line {number}", f"not a complete scores record ({type(error).__name__})"
