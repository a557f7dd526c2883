"""The callable class Ray Data's ``map_batches`` runs in each actor: one
:class:`halluscope.Scorer` per metric, loaded once when the actor starts, scoring Arrow
batches into the record shape ``halluscope score`` writes (docs/scaling.md#ray-data).

Nothing here imports Ray unless a :mod:`~halluscope.ray.ledger` is given: a
:class:`BatchScorer` scores a ``pyarrow.Table`` in any process, which is how the tests
check its records without a cluster.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..option_types import METRIC_SPECS
from ..records import row_parts, to_json

#: the columns a scored batch gains, each a JSON string per row (their shape varies per
#: row and metric, which an Arrow schema cannot hold; JSON keeps every float exactly)
RESULT_COLUMNS = ("scores", "labels", "details")
#: the column ``batch_stats=True`` adds: per row, a JSON string describing the batch and
#: the actor that scored it (:func:`batch_stats_json`; docs/scaling.md#sizing-the-actors)
BATCH_STATS_COLUMN = "halluscope_batch"
#: the column ``group_by_source`` sorts the rows by (:func:`add_source_groups`); the
#: actors drop it from what they return
GROUP_COLUMN = "__halluscope_source_group"
#: the source groups are integers in [0, GROUP_RANGE): a hash of the source's text
GROUP_RANGE = 2**63


@dataclass(frozen=True)
class Columns:
    """The input columns holding each text (``reference=None``: reference-free);
    ``id``: the column that names a row in errors (None: its place in the batch);
    ``group``: a column added to group the rows, dropped from the output (None: none)."""

    prediction: str = "prediction"
    source: str = "source"
    reference: str | None = None
    publication_date: str | None = None
    id: str | None = None
    group: str | None = None

    def needed(self) -> list[str]:
        """The columns every batch must have."""
        named = (self.prediction, self.source, self.reference, self.publication_date, self.id)
        return [name for name in named if name is not None]


class BatchScorer:
    """``map_batches``' callable class: ``BatchScorer(metrics, options, columns)``
    loads one :class:`halluscope.Scorer` per metric (``options[metric]``: its keyword
    options; ``preset``: every metric's preset) and ``scorer(table)`` returns the
    Arrow table with :data:`RESULT_COLUMNS` appended (``details`` only with
    ``return_details``). ``ledger``: a :class:`halluscope.ray.ledger.BatchLedger` actor
    told the ``columns.id`` of each batch's rows before and after they are scored; with ``batch_stats``,
    :data:`BATCH_STATS_COLUMN` is appended too."""

    def __init__(
        self,
        metrics: Sequence[str],
        options: Mapping[str, Mapping[str, Any]],
        columns: Columns,
        return_details: bool = False,
        preset: str | None = None,
        ledger: Any = None,
        batch_stats: bool = False,
    ) -> None:
        from ..scorer import Scorer

        started = time.perf_counter()
        self.columns = columns
        self.return_details = return_details
        self.ledger = ledger if columns.id is not None else None
        self.batch_stats = batch_stats
        self.scorers = {metric: Scorer(metric, preset=preset, **dict(options.get(metric, {}))) for metric in metrics}
        #: seconds the constructor took (the models' loading)
        self.load_seconds = time.perf_counter() - started
        #: how many batches this scorer has scored
        self.batches_scored = 0

    def __call__(self, table: Any) -> Any:
        import pyarrow as pa

        started = time.perf_counter()
        missing = [name for name in self.columns.needed() if name not in table.column_names]
        if missing:
            raise InputError(
                f"the dataset has no column {missing[0]!r} (its columns: {', '.join(table.column_names)})",
                field=missing[0],
            )
        if self.columns.group is not None and self.columns.group in table.column_names:
            table = table.drop_columns([self.columns.group])
        ledger, names = self.ledger, None
        if ledger is not None:
            import ray

            names = [str(name) for name in table.column(self.columns.id).to_pylist()]
            ray.get(ledger.started.remote(names))
        results = self._score(table)
        if ledger is not None:
            ray.get(ledger.finished.remote(names))
        records = batch_records(results, table.num_rows)
        for name in RESULT_COLUMNS:
            if name == "details" and not self.return_details:
                continue
            table = table.append_column(name, pa.array([record[name] for record in records], type=pa.string()))
        if self.batch_stats:
            stats = batch_stats_json(
                index=self.batches_scored,
                rows=table.num_rows,
                sources=len(set(table.column(self.columns.source).to_pylist())),
                seconds=time.perf_counter() - started,
                load_seconds=self.load_seconds,
            )
            table = table.append_column(BATCH_STATS_COLUMN, pa.array([stats] * table.num_rows, type=pa.string()))
        self.batches_scored += 1
        return table

    def _score(self, table: Any) -> dict[str, Any]:
        """Each metric's :class:`halluscope.ScoreResult` for the rows of ``table``; a bad
        row is an :class:`InputError` naming it by the id column (or its place in the
        batch) and its field."""
        from ..scorer import present_columns

        columns = self.columns

        def column(name: str | None) -> list | None:
            return None if name is None else table.column(name).to_pylist()

        predictions, sources, references, dates = present_columns(
            table.column(columns.prediction).to_pylist(),  # named by every Columns
            table.column(columns.source).to_pylist(),
            column(columns.reference),
            column(columns.publication_date),
        )
        results = {}
        for metric, scorer in self.scorers.items():
            try:
                results[metric] = scorer.score(
                    predictions,
                    sources,
                    references,
                    publication_dates=dates if METRIC_SPECS[metric].takes_dates else None,
                    return_details=self.return_details,
                )
            except InputError as error:
                raise InputError(f"{self._row_name(table, error.row)}: {error.message}", field=error.field) from None
        return results

    def _row_name(self, table: Any, row: int | None) -> str:
        if row is None:
            return f"a batch of {table.num_rows} rows"
        if self.columns.id is not None:
            return f"the row with {self.columns.id}={table.column(self.columns.id)[row].as_py()!r}"
        return f"row {row} of a batch of {table.num_rows} rows (pass id_column= to name rows by an id)"


def source_group(source: str | None) -> int:
    """The group of a row by its source: the first 63 bits of the text's BLAKE2b hash, the
    same in every process (Python's ``hash`` is salted per process); a missing source
    (which the actor then names as an error) is grouped as ``""``."""
    digest = hashlib.blake2b((source or "").encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def add_source_groups(table: Any, source_column: str) -> Any:
    """``table`` (a ``pyarrow.Table``) with :data:`GROUP_COLUMN` appended: each row's
    :func:`source_group` (``map_batches``' function of ``group_by_source``)."""
    import pyarrow as pa

    if source_column not in table.column_names:
        groups = [0] * table.num_rows  # the actor names the missing column
    else:
        groups = [source_group(source) for source in table.column(source_column).to_pylist()]
    return table.append_column(GROUP_COLUMN, pa.array(groups, type=pa.int64()))


def group_boundaries(partitions: int) -> list[int]:
    """The ``partitions - 1`` boundaries that cut [0, :data:`GROUP_RANGE`) into
    ``partitions`` equal ranges: a sort on :data:`GROUP_COLUMN` with them makes exactly
    that many blocks, with no sampling pass, whatever the input's blocks."""
    return [GROUP_RANGE // partitions * part for part in range(1, partitions)]


def batch_stats_json(*, index: int, rows: int, sources: int, seconds: float, load_seconds: float) -> str:
    """The JSON string :data:`BATCH_STATS_COLUMN` holds for every row of a batch: the
    ``actor`` (``host:pid``), the batch's ``index`` among that actor's batches (0: its
    first), its ``rows`` and distinct ``sources``, the ``seconds`` it took to score, the
    actor's ``load_seconds`` (its models) and its ``peak_rss_mb`` so far (None where the
    platform does not say)."""
    return json.dumps(
        {
            "actor": f"{socket.gethostname()}:{os.getpid()}",
            "index": index,
            "rows": rows,
            "sources": sources,
            "seconds": seconds,
            "load_seconds": load_seconds,
            "peak_rss_mb": peak_rss_mb(),
        }
    )


def peak_rss_mb() -> float | None:
    """This process's peak resident memory in MB (``getrusage``; None without it)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024  # bytes on macOS, KB elsewhere


def batch_records(results: Mapping[str, Any], n_rows: int) -> list[dict[str, str]]:
    """Per row, its ``scores``, ``labels`` and ``details`` as JSON strings, built as
    ``halluscope score`` builds them (:func:`halluscope.records.row_parts`): ``labels``
    holds the metrics that label (``{}`` when none does)."""
    return [
        {
            "scores": to_json(part["scores"]),
            "labels": to_json(part.get("labels", {})),
            "details": to_json(part["details"]),
        }
        for part in row_parts(results, n_rows)
    ]


def record(row: Mapping[str, Any]) -> dict[str, Any]:
    """A scored row with its JSON columns decoded: ``scores``, ``labels`` and
    ``details`` as ``halluscope score`` writes them (``labels`` left out when no metric
    labels, as the command leaves it out); the other columns as they are."""
    decoded = dict(row)
    for name in RESULT_COLUMNS:
        if name in decoded:
            decoded[name] = json.loads(decoded[name])
    if decoded.get("labels") == {}:
        del decoded["labels"]
    return decoded
