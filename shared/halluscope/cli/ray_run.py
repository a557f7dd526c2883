"""``halluscope score --engine ray``: the rows read and checked here, as the local command
reads them, scored on Ray Data by :func:`halluscope.ray.score_dataset`, and written as
JSONL shards plus ``summary.json`` into ``--output-dir`` (docs/cli.md#scoring-on-ray).

Each record is the one the local command writes for that input line (same keys, same
order, same floats: written with Python's ``json``); the shards hold them in Ray's
order, each naming its input ``line`` (or ``row``). The summary's means are summed in
input order, so they do not depend on Ray's order, and ``rows_in != rows_out`` (or a
line written twice) ends the run with exit 1. Ray is imported only here, when such a
run starts.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from ..records import json_safe
from .command_errors import CommandError, FileError, LineError
from .readers import STDIO, Example, FieldNames, field_names, read_examples
from .resume import record_digest
from .scoring import MetricTotals, api_options, load_models, metric_options, parse_keep_fields, parse_metrics

#: the options a Ray run refuses, and what to use instead (docs/cli.md#scoring-on-ray)
REFUSED_ON_RAY: dict[str, str] = {
    "output": "--output-dir DIR (Ray writes JSONL shards and DIR/summary.json)",
    "resume": "a new --output-dir (Ray retries lost work itself; docs/scaling.md#rerunning-failed-shards)",
    "workers": "--actors N (one Ray actor is one process)",
    "summary_output": "the summary.json Ray writes in --output-dir",
}
#: records per shard file of the output folder
SHARD_ROWS = 10_000
#: the column carrying what a record holds besides the texts scored, as a JSON string
#: (ids and kept fields vary in type per row, which an Arrow column does not allow)
CARRIED = "_halluscope_record"


def run_score_command(args: argparse.Namespace) -> int:
    """``halluscope score``: the local run (:func:`halluscope.cli.runs.run_score`) or,
    with ``--engine ray``, :func:`run_ray_score`; each refuses the other's options."""
    from .runs import run_score

    if args.engine == "ray":
        return run_ray_score(args)
    for flag, given in (
        ("--output-dir", args.output_dir),
        ("--ray-address", args.ray_address),
        ("--actors", args.actors),
        ("--ray-temp-dir", args.ray_temp_dir),
    ):
        if given is not None:
            raise CommandError(f"{flag} is for --engine ray; the local run writes --output FILE")
    if args.output is None:
        raise CommandError(
            "halluscope score: the following arguments are required: --output (see halluscope score --help)"
        )
    return run_score(args)


def refuse_local_options(args: argparse.Namespace) -> None:
    """One line naming the option to use instead of one Ray does not take."""
    for name, instead in REFUSED_ON_RAY.items():
        value = getattr(args, name)
        if value not in (None, False):
            raise CommandError(f"--{name.replace('_', '-')} does not apply with --engine ray; use {instead}")
    if args.output_dir is None:
        raise CommandError("--engine ray needs --output-dir DIR (JSONL shards and summary.json)")


def check_output_dir(path: str, input_path: str) -> None:
    """``--output-dir``: a new or empty folder (records of two runs never mix), not the input."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise FileError(f"--output-dir {path}: is a file, not a folder")
    if os.path.isdir(path) and os.listdir(path):
        raise FileError(f"--output-dir {path}: is not empty; choose a new folder (the records of two runs never mix)")
    if input_path != STDIO and os.path.realpath(path) == os.path.realpath(input_path):
        raise FileError(f"--output-dir {path} is the --input; choose another folder")


def run_ray_score(args: argparse.Namespace) -> int:
    """``halluscope score --engine ray``: the command and every row checked here (the
    local run's reader and ``--on-error``), the models loaded once here for their
    signatures, then the rows scored on Ray and written to ``--output-dir``."""
    refuse_local_options(args)
    metrics = parse_metrics(args.metrics)
    keep = parse_keep_fields(args.keep_fields)
    fields = field_names(args)
    check_output_dir(args.output_dir, args.input)
    chosen = api_options(args.option, metrics)
    args.resolved_device = None if args.device == "auto" else args.device  # auto: each actor's own
    options = {metric: metric_options(metric, args, chosen[metric]) for metric in metrics}
    log = sys.stderr
    source, examples, skipped = read_examples(args, fields, keep, lambda message: print(message, file=log))
    check_one_reference_type(examples, fields, source.label)
    signatures = load_models(metrics, options, args.preset, note=lambda line: print(line, file=log, flush=True))
    os.makedirs(args.output_dir, exist_ok=True)
    written = _score_on_ray(args, metrics, options, fields, source.label, examples, signatures)
    summary = _summary(args, metrics, source.label, examples, skipped, written, signatures)
    _write_summary(os.path.join(args.output_dir, "summary.json"), summary)
    _check_every_line_once(examples, written, source.label)
    from .runs import format_summary

    print(format_summary(json_safe({**summary, "output": args.output_dir})))
    return 0


def check_one_reference_type(examples: Sequence[Example], fields: FieldNames, label: str) -> None:
    """References all strings (``""`` among them) or all lists, null anywhere: an Arrow
    column holds one type, so a mix is refused before Ray starts, naming the first row
    that differs (docs/cli.md#scoring-on-ray)."""
    if fields.reference is None:
        return
    first: tuple[Any, str] | None = None
    for example in examples:
        if example.reference is None:
            continue
        kind = "a list" if isinstance(example.reference, list) else "a string"
        if first is None:
            first = (example.position, kind)
        elif kind != first[1]:
            raise CommandError(
                f"--engine ray: the {fields.reference!r} of {label} {example.position} is {kind}, "
                f"of {label} {first[0]} {first[1]}; an Arrow column holds one type: make every "
                "reference a list (null for none), or score this input without --engine ray"
            )


def ray_rows(
    examples: Sequence[Example], fields: FieldNames, label: str, signatures: dict[str, str], sources_in_output: bool
) -> list[dict[str, Any]]:
    """One item per example for ``ray.data.from_items``: the texts scored, and the rest of
    its record (position, id, digest, kept fields) as one JSON string."""
    items = []
    for example in examples:
        item: dict[str, Any] = {"prediction": example.prediction, "source": example.source}
        if fields.reference is not None:
            item["reference"] = example.reference
        if fields.publication_date is not None:
            item["publication_date"] = example.publication_date
        carried = {label: example.position, "id": example.id, "digest": record_digest(example, signatures)}
        if sources_in_output:
            carried["source"] = example.source
        if example.kept:
            carried["fields"] = example.kept
        item[CARRIED] = json.dumps(json_safe(carried), ensure_ascii=False, allow_nan=False)
        items.append(item)
    return items


def output_record(row: dict[str, Any], fields: FieldNames) -> dict[str, Any]:
    """A scored Ray row as the record the local command writes (its keys in its order)."""
    carried = json.loads(row[CARRIED])
    fields_kept = carried.pop("fields", None)
    record: dict[str, Any] = dict(carried)
    record["prediction"] = row["prediction"]
    if fields.reference is not None:
        record["reference"] = row["reference"]
    if fields.publication_date is not None:
        record["publication_date"] = row["publication_date"]
    if fields_kept:
        record["fields"] = fields_kept
    record["scores"] = json.loads(row["scores"])
    labels = json.loads(row["labels"])
    if labels:
        record["labels"] = labels
    record["details"] = json.loads(row["details"])
    return record


def _score_on_ray(
    args: argparse.Namespace,
    metrics: Sequence[str],
    options: dict[str, dict[str, Any]],
    fields: FieldNames,
    label: str,
    examples: Sequence[Example],
    signatures: dict[str, str],
) -> dict[Any, dict[str, dict[str, Any]]]:
    """Score ``examples`` on Ray (``--ray-address``, else a local Ray on this machine's
    cores) into the shards of ``--output-dir``; return each written position's scores."""
    from ..ray import _ray, score_dataset

    ray = _ray()
    if args.ray_address:
        ray.init(address=args.ray_address, log_to_driver=False)
    else:
        from ..workers import available_cores

        ray.init(
            num_cpus=available_cores(),
            include_dashboard=False,
            log_to_driver=False,
            _temp_dir=os.path.abspath(args.ray_temp_dir) if args.ray_temp_dir else None,
        )
    try:
        items = ray_rows(examples, fields, label, signatures, not args.no_sources_in_output)
        if not items:
            return {}
        ds = ray.data.from_items(items)
        scored = score_dataset(
            ds,
            metrics,
            reference_column="reference" if fields.reference is not None else None,
            publication_date_column="publication_date" if fields.publication_date is not None else None,
            options=options,
            preset=args.preset,
            return_details=True,
            actors=args.actors,
            batch_size=args.chunk_size,
            group_by_source=True,
        )
        return _write_shards(scored.iter_rows(), args.output_dir, fields, label)
    finally:
        ray.shutdown()


def _write_shards(
    rows: Iterable[dict[str, Any]], folder: str, fields: FieldNames, label: str
) -> dict[Any, dict[str, dict[str, Any]]]:
    """Write each scored row's record to ``folder/part-NNNNN.jsonl`` (:data:`SHARD_ROWS`
    a file); return the scores by position (a position seen twice is a :class:`LineError`)."""
    written: dict[Any, dict[str, dict[str, Any]]] = {}
    shard: TextIO | None = None
    try:
        for count, row in enumerate(rows):
            if count % SHARD_ROWS == 0:
                if shard is not None:
                    shard.close()
                shard = open(os.path.join(folder, f"part-{count // SHARD_ROWS:05d}.jsonl"), "w", encoding="utf-8")
            assert shard is not None  # opened at row 0
            record = output_record(row, fields)
            if record[label] in written:
                raise LineError(f"Ray returned {label} {record[label]} twice; the output in {folder} is not to be used")
            written[record[label]] = record["scores"]
            shard.write(json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n")
    finally:
        if shard is not None:
            shard.close()
    return written


def _summary(
    args: argparse.Namespace,
    metrics: Sequence[str],
    label: str,
    examples: Sequence[Example],
    skipped: Sequence[Any],
    written: dict[Any, dict[str, dict[str, Any]]],
    signatures: dict[str, str],
) -> dict[str, Any]:
    """The local run's summary plus ``rows_in``/``rows_out`` and the engine; means summed
    in input order (docs/cli.md#scoring-on-ray)."""
    totals = {metric: MetricTotals() for metric in metrics}
    for metric in metrics:
        totals[metric].signature = signatures[metric]
        for position in sorted(written):
            for name, value in written[position][metric].items():
                totals[metric].values.setdefault(name, []).append(float("nan") if value is None else value)
    return {
        "input": args.input,
        "output": os.path.join(args.output_dir, "part-*.jsonl"),
        "engine": "ray",
        "rows_in": len(examples),
        "rows_out": len(written),
        "examples": len(written),
        "position_label": label,
        "skipped": [{label: s.position, "reason": s.reason} for s in skipped],
        "metrics": {metric: totals[metric].as_dict() for metric in metrics},
    }


def _write_summary(path: str, summary: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(json_safe(summary), handle, indent=2, ensure_ascii=False, allow_nan=False)
        handle.write("\n")


def _check_every_line_once(examples: Sequence[Example], written: dict[Any, Any], label: str) -> None:
    """``rows_in == rows_out``, each input position written: else a :class:`LineError` (exit 1)."""
    missing = [example.position for example in examples if example.position not in written]
    if missing or len(written) != len(examples):
        shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
        raise LineError(
            f"Ray wrote {len(written)} records for {len(examples)} input rows "
            f"(rows_in != rows_out; missing {label}s: {shown or 'none'})"
        )


__all__ = ["run_score_command", "run_ray_score", "REFUSED_ON_RAY", "ray_rows", "output_record"]
