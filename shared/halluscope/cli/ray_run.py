"""``halluscope score --engine ray``: the rows read and checked here, as the local command
reads them (one input, or a folder or glob of files: :mod:`.input_files`), scored on Ray
Data by :func:`halluscope.ray.score_dataset`, and written as JSONL or Parquet shards
plus ``summary.json`` into ``--output-dir`` (:mod:`.output_dir`,
docs/cli.md#scoring-on-ray).

Each record is the one the local command writes for that input line (same keys, same
order, same floats: written with Python's ``json``), with ``file`` first where the input
is several files; the shards hold them in Ray's order, each naming its input ``line``
(or ``row``). The summary's means are summed in (file, line) order, so they do not
depend on Ray's order, and ``rows_in != rows_out`` (or a line written twice) ends the
run with exit 1, as does a batch Ray gives up on (its actor died on every try), named
row by row. Ray is imported only here, when such a run starts.

The scored records come back through this process, which writes them: so every line is
written once even when Ray retries a batch whose actor died after writing part of it,
and the output folder need not be shared by the cluster's machines.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import HalluscopeError
from ..records import json_safe
from .chunked_scoring import MetricTotals, api_options, load_models, metric_options, parse_keep_fields, parse_metrics
from .command_errors import CommandError, FileError, LineError
from .input_examples import Example, FieldNames, field_names
from .input_files import read_examples
from .output_dir import ShardWriter, record_key
from .readers import STDIO, InputSource
from .resume import record_digest

#: the options a Ray run refuses, and what to use instead (docs/cli.md#scoring-on-ray)
REFUSED_ON_RAY: dict[str, str] = {
    "output": "--output-dir DIR (Ray writes JSONL shards and DIR/summary.json)",
    "resume": "a new --output-dir (Ray retries lost work itself; docs/scaling.md#rerunning-failed-shards)",
    "workers": "--actors N (one Ray actor is one process)",
    "summary_output": "the summary.json Ray writes in --output-dir",
}
#: the column carrying what a record holds besides the texts scored, as a JSON string
#: (ids and kept fields vary in type per row, which an Arrow column does not allow)
CARRIED = "_halluscope_record"
#: the column naming each row's file and line, by which errors and the batch ledger name it
WHERE = "_halluscope_where"
#: the most blocks the input rows are cut into (:func:`input_blocks`)
MAX_INPUT_BLOCKS = 200
#: rows of a batch Ray gave up on that its error names
NAMED_ROWS = 20
#: the options only a Ray run takes (a local run refuses them)
RAY_ONLY = ("output_dir", "ray_address", "actors", "ray_temp_dir", "output_format", "actor_cpus", "actor_gpus")


def run_score_command(args: argparse.Namespace) -> int:
    """``halluscope score``: the local run (:func:`halluscope.cli.runs.run_score`) or,
    with ``--engine ray``, :func:`run_ray_score`; each refuses the other's options."""
    from .runs import run_score

    if args.engine == "ray":
        return run_ray_score(args)
    for name in (*RAY_ONLY, "actor_resources"):
        if getattr(args, name) is not None:
            flag = "--" + name.replace("_", "-")
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
    """``--output-dir``: a new or empty folder (records of two runs never mix), neither the
    input nor inside an input folder (a later run would read its shards as input)."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise FileError(f"--output-dir {path}: is a file, not a folder")
    if os.path.isdir(path) and os.listdir(path):
        raise FileError(f"--output-dir {path}: is not empty; choose a new folder (the records of two runs never mix)")
    if input_path != STDIO and os.path.realpath(path) == os.path.realpath(input_path):
        raise FileError(f"--output-dir {path} is the --input; choose another folder")
    if os.path.isdir(input_path):
        inside = os.path.commonpath([os.path.realpath(path), os.path.realpath(input_path)])
        if inside == os.path.realpath(input_path):
            raise FileError(f"--output-dir {path} is inside the --input folder; choose a folder outside it")


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
    source, examples, skipped = read_examples(
        args, fields, keep, lambda message: print(message, file=log), several_files=True
    )
    check_one_reference_type(examples, fields, source.label)
    signatures = load_models(metrics, options, args.preset, note=lambda line: print(line, file=log, flush=True))
    os.makedirs(args.output_dir, exist_ok=True)
    written = _score_on_ray(args, metrics, options, fields, source, examples, signatures)
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
        where = f"{example.file} {label} {example.position}" if example.file else f"{label} {example.position}"
        if first is None:
            first = (where, kind)
        elif kind != first[1]:
            raise CommandError(
                f"--engine ray: the {fields.reference!r} of {where} is {kind}, "
                f"of {first[0]} {first[1]}; an Arrow column holds one type: make every "
                "reference a list (null for none), or score this input without --engine ray"
            )


def row_where(example: Example, source: InputSource) -> str:
    """How messages name an example's row: ``rows.jsonl line 3`` (its file where the input
    is several)."""
    return f"{example.file or source.path} {source.label} {example.position}"


def ray_rows(
    examples: Sequence[Example],
    fields: FieldNames,
    source: InputSource,
    signatures: dict[str, str],
    sources_in_output: bool,
) -> list[dict[str, Any]]:
    """One item per example for ``ray.data.from_items``: the texts scored, the row's name
    (:func:`row_where`), and the rest of its record (file, position, id, digest, kept
    fields) as one JSON string."""
    items = []
    for example in examples:
        item: dict[str, Any] = {"prediction": example.prediction, "source": example.source}
        if fields.reference is not None:
            item["reference"] = example.reference
        if fields.publication_date is not None:
            item["publication_date"] = example.publication_date
        item[WHERE] = row_where(example, source)
        carried: dict[str, Any] = {"file": example.file} if example.file is not None else {}
        carried.update({source.label: example.position, "id": example.id, "digest": record_digest(example, signatures)})
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
    source: InputSource,
    examples: Sequence[Example],
    signatures: dict[str, str],
) -> dict[tuple[str, int], dict[str, dict[str, Any]]]:
    """Score ``examples`` on Ray (``--ray-address``, else a local Ray on this machine's
    cores) into the shards of ``--output-dir``; return each written row's scores by
    (file, position). A batch Ray gives up on is a :class:`LineError` naming its rows."""
    from ..ray import _ray, score_dataset
    from ..ray.ledger import dead_batches, start_ledger

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
        if not examples:
            return {}
        ledger = start_ledger(ray)
        # the items are held only until Ray has put them in its object store
        rows = ray_rows(examples, fields, source, signatures, not args.no_sources_in_output)
        dataset = ray.data.from_items(rows, override_num_blocks=input_blocks(len(rows), args.chunk_size))
        del rows
        scored = score_dataset(
            dataset,
            metrics,
            reference_column="reference" if fields.reference is not None else None,
            publication_date_column="publication_date" if fields.publication_date is not None else None,
            id_column=WHERE,
            options=options,
            preset=args.preset,
            return_details=True,
            actors=args.actors,
            batch_size=args.chunk_size,
            num_cpus=args.actor_cpus if args.actor_cpus is not None else 1,
            num_gpus=args.actor_gpus or 0,
            resources=args.actor_resources,
            group_by_source=True,
            ledger=ledger,
        )
        try:
            return _write_shards(scored.iter_rows(), args.output_dir, fields, args.output_format or "jsonl")
        except HalluscopeError:
            raise
        except Exception as error:  # Ray's own errors: a lost batch, a dead node
            dead = dead_batches(ray, ledger)
            if not dead:
                raise
            raise LineError(lost_batch_message(dead[0], error)) from None
    finally:
        ray.shutdown()


def input_blocks(rows: int, batch_size: int) -> int:
    """Blocks the rows are cut into for Ray: one per batch, at most :data:`MAX_INPUT_BLOCKS`
    (Ray's default for a list is up to 200 blocks however few the rows, and every block
    costs a task in each stage)."""
    return max(1, min(MAX_INPUT_BLOCKS, -(-rows // batch_size)))


def lost_batch_message(batch: tuple[int, list[str]], error: BaseException) -> str:
    """The run's error for a batch Ray gave up on: (times begun, its rows' names)."""
    begun, names = batch
    shown = ", ".join(names[:NAMED_ROWS]) + (f" and {len(names) - NAMED_ROWS} more" if len(names) > NAMED_ROWS else "")
    said = next((line.strip() for line in str(error).splitlines() if line.strip()), type(error).__name__)
    if begun > 1:
        return (
            f"Ray gave up on a batch of {_rows(len(names))} after its actor died on each of {begun} tries "
            f"(a row of it ends the process scoring it: out of memory, a crash in a native library): {shown}; "
            f"score these rows apart, or leave them out. Ray said: {type(error).__name__}: {said[:300]}"
        )
    return (
        f"the run failed while scoring a batch of {_rows(len(names))}: {shown}. "
        f"Ray said: {type(error).__name__}: {said[:300]}"
    )


def _rows(count: int) -> str:
    return f"{count} row" if count == 1 else f"{count} rows"


def _write_shards(
    rows: Iterable[dict[str, Any]], folder: str, fields: FieldNames, output_format: str = "jsonl"
) -> dict[tuple[str, int], dict[str, dict[str, Any]]]:
    """Write each scored row's record into ``folder``'s shards (:class:`ShardWriter`);
    return the scores by (file, position) (a row seen twice is a :class:`LineError`)."""
    written: dict[tuple[str, int], dict[str, dict[str, Any]]] = {}
    writer = ShardWriter(folder, output_format)
    try:
        for row in rows:
            record = output_record(row, fields)
            key = record_key(record)
            if key in written:
                raise LineError(f"Ray returned {_named(key)} twice; the output in {folder} is not to be used")
            written[key] = record["scores"]
            writer.write(record)
    finally:
        writer.close()
    return written


def _named(key: tuple[str, int], label: str = "line") -> str:
    return f"{key[0]} {label} {key[1]}" if key[0] else f"{label} {key[1]}"


def _summary(
    args: argparse.Namespace,
    metrics: Sequence[str],
    label: str,
    examples: Sequence[Example],
    skipped: Sequence[Any],
    written: dict[tuple[str, int], dict[str, dict[str, Any]]],
    signatures: dict[str, str],
) -> dict[str, Any]:
    """The local run's summary plus ``rows_in``/``rows_out`` and the engine; means summed
    in (file, position) order (docs/cli.md#scoring-on-ray)."""
    totals = {metric: MetricTotals() for metric in metrics}
    for metric in metrics:
        totals[metric].signature = signatures[metric]
        for key in sorted(written):
            for name, value in written[key][metric].items():
                totals[metric].values.setdefault(name, []).append(float("nan") if value is None else value)
    return {
        "input": args.input,
        "output": os.path.join(args.output_dir, f"part-*.{args.output_format or 'jsonl'}"),
        "engine": "ray",
        "rows_in": len(examples),
        "rows_out": len(written),
        "examples": len(written),
        "position_label": label,
        "skipped": [
            {**({"file": s.file} if s.file is not None else {}), label: s.position, "reason": s.reason} for s in skipped
        ],
        "metrics": {metric: totals[metric].as_dict() for metric in metrics},
    }


def _write_summary(path: str, summary: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(json_safe(summary), handle, indent=2, ensure_ascii=False, allow_nan=False)
        handle.write("\n")


def _check_every_line_once(examples: Sequence[Example], written: dict[Any, Any], label: str) -> None:
    """``rows_in == rows_out``, each input (file, position) written: else a :class:`LineError` (exit 1)."""
    missing = [
        _named((example.file or "", example.position), label)
        for example in examples
        if (example.file or "", example.position) not in written
    ]
    if missing or len(written) != len(examples):
        shown = ", ".join(missing[:10]) + (" ..." if len(missing) > 10 else "")
        raise LineError(
            f"Ray wrote {len(written)} records for {len(examples)} input rows "
            f"(rows_in != rows_out; missing: {shown or 'none'})"
        )


__all__ = ["run_score_command", "run_ray_score", "REFUSED_ON_RAY", "ray_rows", "output_record"]
