"""``halluscope report``: the scores file checked whole (shapes, score ranges, labels),
then the page written through a temporary file (docs/cli.md, "halluscope report")."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .command_errors import CommandError, FileError
from .output_paths import _check_writable, _same_path, summary_path_for

#: the field ``--label-field`` reads when it is not given
DEFAULT_LABEL_FIELD = "label"
#: how to go on when the labels are not labels
_LABEL_HINT = (
    "; pass --label-field with the field that holds 0/1 labels, or --label-field '' for a report "
    "without the agreement view"
)


@dataclass
class ScoresFileCheck:
    """What :func:`check_scores_file` saw: the records, those that have the label field
    (any value) and those with a label in it, and the kept field names (``fields``)."""

    records: int = 0
    with_field: int = 0
    labelled: int = 0
    kept_fields: set[str] = field(default_factory=set)


def _has_field(record: Mapping[str, Any], name: str) -> bool:
    kept = record.get("fields")
    return (isinstance(kept, Mapping) and name in kept) or name in record


def check_scores_file(
    path: str, options: Mapping[str, Mapping[str, str]] | None = None, label_field: str = DEFAULT_LABEL_FIELD
) -> ScoresFileCheck:
    """Refuse a scores file ``report`` cannot read whole, naming the line: a missing file,
    text that is not UTF-8, a line that is not a JSON object (a run still going or
    interrupted), and what :func:`check_records` refuses."""
    if not os.path.isfile(path):
        raise FileError(f"--input {path}: no such file")
    return check_records(_file_records(path), options, label_field)


def _file_records(path: str) -> Iterator[tuple[str, Any]]:
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                record = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as error:
                raise FileError(
                    f"{path} line {number}: not a complete scores record ({type(error).__name__}); "
                    "an interrupted `halluscope score` run finishes with --resume"
                ) from None
            yield f"{path} line {number}", record


def check_records(
    records: Iterable[tuple[str, Any]],
    options: Mapping[str, Mapping[str, str]] | None = None,
    label_field: str = DEFAULT_LABEL_FIELD,
) -> ScoresFileCheck:
    """Refuse records ``report`` cannot show, each given as (where, record) and named by
    its where: a record of another shape (a str says what is wrong), a score that is
    not one, infinite or outside its declared range under the run's ``options``
    (:func:`halluscope.report.stats.record_problem`), a value of ``label_field`` that is
    not a label (:func:`halluscope.report.stats.label_problem`; ``""``: no labels read)."""
    from ..report.stats import is_no_label, label_problem, record_label, record_problem

    seen = ScoresFileCheck()
    for where, record in records:
        problem = record if isinstance(record, str) else record_problem(record, options)
        if problem is not None:
            raise FileError(f"{where}: {problem}")
        seen.records += 1
        if isinstance(record.get("fields"), Mapping):
            seen.kept_fields.update(map(str, record["fields"]))
        if not label_field or not _has_field(record, label_field):
            continue
        value = record_label(record, label_field)
        problem = label_problem(value, label_field)
        if problem is not None:
            raise FileError(f"{where}: {problem}{_LABEL_HINT}")
        seen.with_field += 1
        seen.labelled += not is_no_label(value)
    return seen


def check_named_label_field(check: ScoresFileCheck, label_field: str, path: str) -> None:
    """A ``--label-field`` the user named must hold a label in some record (exit 2
    naming it otherwise); the default ``label`` absent means no agreement view."""
    if check.with_field == 0:
        kept = ", ".join(sorted(check.kept_fields)[:12]) or "none"
        raise CommandError(
            f"--label-field {label_field}: no record of {path} has this field (fields.{label_field} "
            f"or a top-level {label_field}); the records' kept fields: {kept}"
        )
    if check.labelled == 0:
        raise CommandError(
            f"--label-field {label_field}: the field is null or empty in every record of {path}: "
            "no labels to compare with"
        )


def read_summary(path: str | None) -> dict[str, Any] | None:
    """The run's summary JSON (None without one); a file that is not a JSON object is
    a :class:`FileError` naming ``--summary``."""
    if path is None:
        return None
    if not os.path.isfile(path):
        raise FileError(f"--summary {path}: no such file")
    try:
        with open(path, "rb") as handle:
            summary = json.loads(handle.read().decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise FileError(f"--summary {path}: not a JSON summary ({type(error).__name__})") from None
    if not isinstance(summary, dict):
        raise FileError(f"--summary {path}: not a JSON summary (a {type(summary).__name__}, not an object)")
    return summary


def run_report(args: argparse.Namespace) -> int:
    """``halluscope report``: check the scores file (or every record of a Ray run's output
    folder, in (file, line) order) whole against the run's summary (the ranges its
    signatures imply) and the label field, then write the page."""
    from ..report import build_report
    from ..report.stats import load_records, run_options
    from .output_dir import output_dir_records, record_key

    folder = os.path.isdir(args.input)
    summary_path = args.summary
    beside = os.path.join(args.input, "summary.json") if folder else summary_path_for(args.input)
    if summary_path is None and os.path.isfile(beside):
        summary_path = beside
    summary = read_summary(summary_path) if os.path.exists(args.input) else None
    named = args.label_field is not None
    label_field = args.label_field if named else DEFAULT_LABEL_FIELD
    if folder:
        located = list(output_dir_records(args.input))
        check = check_records(located, run_options(summary), label_field)
        records = sorted((record for _, record in located), key=record_key)
    else:
        check = check_scores_file(args.input, run_options(summary), label_field)
        records = load_records(args.input)
    if named and label_field:
        check_named_label_field(check, label_field, args.input)
    _check_writable(args.output, "--output")
    if _same_path(args.output, args.input):
        raise FileError(f"--output {args.output} is the --input file; choose another name")
    document = build_report(
        records,
        summary,
        cut=args.cut,
        title=args.title,
        label_field=label_field,
        page_size=args.page_size,
        max_examples=args.max_examples,
    )
    temporary = f"{args.output}.tmp-{os.getpid()}"
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(document)
        os.replace(temporary, args.output)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)
    print(f"wrote {args.output} ({len(records)} examples)")
    return 0
