"""One run of ``halluscope score``: the partial file and its resume state, the scoring
into it or to standard output, the summary (docs/cli.md, "Interrupted runs"); the output
paths and the lock on them are checked and taken by :mod:`.output_paths`."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from ..records import json_safe
from ..workers import available_cores, keep_from_workers
from .chunked_scoring import (
    MetricTotals,
    api_options,
    load_models,
    metric_options,
    parse_keep_fields,
    parse_metrics,
    quiet_third_party_progress,
    resolve_device,
    score_examples,
)
from .command_errors import FileError
from .input_examples import Example, FieldNames, field_names
from .input_files import read_examples
from .output_paths import OutputLock, check_output_paths, is_stream
from .readers import STDIO, InputSource
from .resume import finish_in_input_order, keep_only, plan_resume, record_digest, resume_note

REPORT_PAGE_SIZE = 50
REPORT_MAX_EXAMPLES = 1000

#: the suffix of the file a run writes its records to until it ends
PARTIAL_SUFFIX = ".partial"
#: beside it: the run's settings, signatures and counters, rewritten after each chunk
STATE_SUFFIX = ".partial.json"


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as a text table: score, mean, examples defined, signature."""
    from ..report.stats import column_label

    n = summary["examples"]
    rows = [("score", "mean", "defined", "signature")]
    for metric, entry in summary["metrics"].items():
        for k, (name, stats) in enumerate(entry["scores"].items()):
            mean = "undefined" if stats["mean"] is None else f"{stats['mean']:.4f}"
            signature = (entry["signature"] or "") if k == 0 else ""  # once per metric
            rows.append((column_label(metric, name), mean, f"{stats['defined']}/{n}", signature))
    widths = [max(len(row[k]) for row in rows) for k in range(3)]
    lines = [
        # strict=False: widths of the first three cells; the fourth (the signature) is not padded
        ("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)) + "  " + row[3]).rstrip()
        for row in rows
    ]
    for metric, entry in summary["metrics"].items():
        if entry.get("counters"):
            lines.append(f"{metric} counters: " + ", ".join(f"{k}={v}" for k, v in entry["counters"].items()))
    label = summary["position_label"]
    skipped = summary["skipped"]
    lines.append(f"scored {n} examples from {summary['input']} into {summary['output']}")
    if skipped:
        lines.append(
            f"skipped {len(skipped)} {label}{'s' if len(skipped) > 1 else ''}: "
            + ", ".join(f"{s['file']} {s[label]}" if s.get("file") else str(s[label]) for s in skipped)
        )
    return "\n".join(lines)


def _open_partial(partial: str, append: bool):
    """The partial file, opened without following a symbolic link: a link planted at
    ``<output>.partial`` is refused, never written through. A new run makes the file
    afresh (O_EXCL), after removing a regular partial of an earlier run."""
    if os.path.islink(partial):
        raise FileError(f"{partial} is a symbolic link; halluscope does not follow it: remove it")
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    if append:
        fd = os.open(partial, os.O_WRONLY | os.O_APPEND | nofollow)
    else:
        if os.path.exists(partial):
            os.remove(partial)
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | nofollow, 0o644)
    return os.fdopen(fd, "a" if append else "w", encoding="utf-8")


#: options that change how a run goes, never a score: a resumed run may change them
_CHANGES_NO_SCORE = frozenset({"device", "batch_size", "workers", "cache_mb"})


def _run_settings(
    args: argparse.Namespace, metrics: Sequence[str], fields: FieldNames, options: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """What a resumed run must share with the run that wrote the partial file: the
    input, metrics, fields, what the records hold and every option that can change a
    score (not the device, the batch or chunk size, the workers, the cache budget or
    ``--limit``, which change none)."""
    scored = {
        metric: {key: value for key, value in sorted(chosen.items()) if key not in _CHANGES_NO_SCORE}
        for metric, chosen in options.items()
    }
    return json.loads(
        json.dumps(
            {
                "input": args.input if args.input == STDIO else os.path.abspath(args.input),
                "split": args.split,
                "metrics": list(metrics),
                "fields": dataclasses.asdict(fields),
                "options": scored,
                "preset": args.preset,
                "keep_fields": args.keep_fields,
                "sources_in_output": not args.no_sources_in_output,
            },
            default=repr,
        )
    )


def _write_json_atomically(path: str, value: Any) -> None:
    """Write JSON to a temporary file in ``path``'s folder, then rename it over ``path``."""
    temporary = f"{path}.tmp-{os.getpid()}"
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(value, handle, indent=2, ensure_ascii=False, allow_nan=False)
        handle.write("\n")
    os.replace(temporary, path)


def read_partial(partial: str, metrics: Sequence[str], label: str) -> tuple[list[dict[str, Any]], int]:
    """The complete records of a partial output and the byte length they take (a last
    line cut short by a kill is not complete)."""
    records: list[dict[str, Any]] = []
    length = 0
    with open(partial, "rb") as handle:
        for raw in handle:
            if not raw.endswith(b"\n"):
                break
            try:
                record = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                break
            if not isinstance(record, dict) or label not in record or set(record.get("scores", {})) != set(metrics):
                raise FileError(
                    f"{partial}: record {len(records) + 1} was not written by this run "
                    f"(no '{label}' or other metrics); rerun without --resume to start over"
                )
            records.append(record)
            length += len(raw)
    return records, length


def _resumed_totals(
    records: Sequence[dict[str, Any]], state: dict[str, Any], signatures: dict[str, str]
) -> dict[str, MetricTotals]:
    """Totals of the records already written (scores from the records themselves, which
    were made under this run's ``signatures``; counters from the state file)."""
    totals = {metric: MetricTotals() for metric in signatures}
    for metric in signatures:
        saved = state.get("metrics", {}).get(metric, {})
        totals[metric].signature = signatures[metric]
        totals[metric].counters = dict(saved.get("counters", {}))
        for record in records:
            for name, value in record["scores"][metric].items():
                totals[metric].values.setdefault(name, []).append(math.nan if value is None else value)
    return totals


def _state(settings: dict[str, Any], totals: dict[str, MetricTotals], rows: int) -> dict[str, Any]:
    return {
        "settings": settings,
        "rows": rows,
        "metrics": {metric: {"signature": t.signature, "counters": t.counters} for metric, t in totals.items()},
    }


def run_score(args: argparse.Namespace) -> int:
    """``halluscope score``: check the command (metrics, options, device, output
    paths), the input (every row, the fields) and the models, then score into
    ``<output>.partial`` and rename it over ``--output`` at the end (``--resume``
    continues an interrupted run); ``--output -`` writes the records to stdout."""
    metrics = parse_metrics(args.metrics)
    keep = parse_keep_fields(args.keep_fields)
    fields = field_names(args)
    summary_output = check_output_paths(args)
    cap_workers(args)
    chosen = api_options(args.option, metrics)
    args.resolved_device = resolve_device(args.device, metrics)
    options = {metric: metric_options(metric, args, chosen[metric]) for metric in metrics}
    to_stdout = args.output == STDIO or is_stream(args.output)  # a device or FIFO is written through
    log = sys.stderr

    source, examples, skipped = read_examples(args, fields, keep, lambda message: print(message, file=log))

    settings = _run_settings(args, metrics, fields, options)
    # the command, the input and its fields are valid: take the output (a second run on it
    # fails here, before it reads a partial file the first one may be writing), then the
    # models (slow), then the scoring; Ctrl-C and SIGTERM stop the run from here on
    stop = StopRequest()
    with stop.installed(), contextlib.nullcontext() if to_stdout else OutputLock(args.output, log):
        return _run_locked(
            args, metrics, options, examples, skipped, source, fields, settings, to_stdout, summary_output, stop
        )


def cap_workers(args: argparse.Namespace, log: TextIO | None = None) -> None:
    """``--workers`` above the usable cores becomes their number, with one line saying
    so on ``log`` (default: stderr; more processes only compete for the same cores and
    cost seconds to start)."""
    log = log or sys.stderr
    cores = available_cores()
    if getattr(args, "workers", None) is not None and args.workers > cores:
        print(
            f"note: --workers {args.workers} is more than the {cores} usable cores; {cores} processes score", file=log
        )
        args.workers = cores


class StopRequest:
    """Ctrl-C or SIGTERM, kept until the run can act on it.

    The handler raises ``KeyboardInterrupt`` at once, as Python's own Ctrl-C handler does. When the signal
    lands inside a finaliser (``__del__``) or a library's catch-all ``except``, Python
    swallows that exception and scoring would go on to the end; so the handler also
    records the request, and :meth:`check`, called after every chunk is written,
    raises it again there (docs/cli.md, "Interrupted runs")."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.requested = False

    def on_signal(self, signum: int, frame: Any) -> None:
        self.requested = True
        raise KeyboardInterrupt

    @contextlib.contextmanager
    def installed(self):
        """:meth:`on_signal` handles SIGINT and SIGTERM within the block (in the main
        thread; elsewhere Python allows no handler), and an interrupt that Python could
        not raise (it landed in a finaliser) is not printed as "Exception ignored ...":
        it is recorded, and :meth:`check` raises it."""
        in_main_thread = threading.current_thread() is threading.main_thread()
        previous = {number: signal.signal(number, self.on_signal) for number in self.SIGNALS} if in_main_thread else {}
        previous_hook = sys.unraisablehook

        def quiet_interrupts(unraisable: Any) -> None:
            if not (self.requested and isinstance(unraisable.exc_value, KeyboardInterrupt)):
                previous_hook(unraisable)

        sys.unraisablehook = quiet_interrupts
        try:
            yield self
        finally:
            sys.unraisablehook = previous_hook
            for number, handler in previous.items():
                signal.signal(number, handler)

    def check(self) -> None:
        """Raise ``KeyboardInterrupt`` if a signal came since the run began."""
        if self.requested:
            raise KeyboardInterrupt


def _run_locked(
    args, metrics, options, examples, skipped, source, fields, settings, to_stdout, summary_output, stop: StopRequest
) -> int:
    """The rest of :func:`run_score`, while the run holds its output: a partial file to
    resume, the models, the scoring."""
    records: list[dict[str, Any]] = []
    state: dict[str, Any] = {}
    partial, state_path = args.output + PARTIAL_SUFFIX, args.output + STATE_SUFFIX
    if not to_stdout and os.path.islink(partial):
        raise FileError(f"{partial} is a symbolic link; halluscope does not follow it: remove it")
    resuming = not to_stdout and args.resume and os.path.isfile(partial)
    if resuming:
        if os.path.isfile(state_path):
            with open(state_path, encoding="utf-8") as handle:
                state = json.load(handle)
        if state.get("settings") != settings:
            raise FileError(
                f"--resume: {partial} was written by a run with other settings (input, metrics, "
                "fields, kept fields or options); rerun that command with --resume, or this one "
                "without it"
            )
        records, length = read_partial(partial, metrics, source.label)
    log = sys.stderr
    if args.no_progress:
        quiet_third_party_progress()
    signatures = load_models(metrics, options, args.preset, note=lambda line: print(line, file=log, flush=True))
    stop.check()  # a signal a finaliser swallowed while the models loaded
    if resuming:  # keep the records made from the input as it is now, under these signatures
        plan = plan_resume(records, examples, signatures, source.label)
        keep_only(partial, len(records), length, plan)  # also drops a last line cut short
        records, examples = [records[index] for index in plan.kept], plan.to_score
        print(resume_note(plan, partial, source.label), file=log)
    elif args.resume and not to_stdout:
        print(f"--resume: no partial output {partial}; scoring from the first example", file=log)
    elif not to_stdout and os.path.isfile(partial):
        print(f"note: replacing the partial output {partial} of an earlier run (--resume would continue it)", file=log)
    totals = _resumed_totals(records, state, signatures)
    scoring = dict(
        chunk_size=args.chunk_size,
        progress=not args.no_progress,
        sources_in_output=not args.no_sources_in_output,
        preset=args.preset,
        digest=lambda example: record_digest(example, signatures),
    )

    def summary_of(totals: dict[str, MetricTotals], examples_count: int) -> dict[str, Any]:
        return {
            "input": args.input,
            "output": args.output,
            "examples": examples_count,
            "position_label": source.label,
            "skipped": [{source.label: s.position, "reason": s.reason} for s in skipped],
            "metrics": {metric: totals[metric].as_dict() for metric in metrics},
        }

    if args.output == STDIO:
        return _score_to_stdout(
            examples, metrics, options, fields, source, totals, scoring, summary_output, summary_of, sys.stdout, stop
        )
    if to_stdout:  # a device or FIFO: written through, never replaced
        with open(args.output, "w", encoding="utf-8") as stream:
            return _score_to_stdout(
                examples, metrics, options, fields, source, totals, scoring, summary_output, summary_of, stream, stop
            )
    written_before = len(records)

    def save_state(current: dict[str, MetricTotals], written: int) -> None:
        _write_json_atomically(state_path, json_safe(_state(settings, current, written_before + written)))
        stop.check()

    try:
        with _open_partial(partial, append=bool(records)) as output, keep_from_workers(output.fileno()):
            save_state(totals, 0)
            if examples:
                totals = score_examples(
                    examples, metrics, options, fields, source, output, totals=totals, after_chunk=save_state, **scoring
                )
    except KeyboardInterrupt:
        done_records, _ = read_partial(partial, metrics, source.label)
        total = written_before + len(examples)
        print(
            f"interrupted: {len(done_records)} of {total} examples are scored in {partial}; run the same "
            "command with --resume to continue",
            file=log,
        )
        return 130
    except BaseException:
        if read_partial(partial, metrics, source.label)[0]:
            print(
                f"note: the examples scored so far are kept in {partial}; run the same command with "
                "--resume to continue after fixing the problem",
                file=log,
            )
        else:  # nothing scored: leave no partial behind
            for path in (partial, state_path):
                if os.path.exists(path):
                    os.remove(path)
        raise
    summary = summary_of(totals, written_before + len(examples))
    if resuming:  # rows scored again come after the records kept
        finish_in_input_order(partial, args.output, source.label)
    else:
        os.replace(partial, args.output)
    assert summary_output is not None
    _write_json_atomically(summary_output, json_safe(summary))
    os.remove(state_path)
    print(format_summary(json_safe(summary)))
    return 0


def _score_to_stdout(
    examples: Sequence[Example],
    metrics: Sequence[str],
    options: dict[str, dict[str, Any]],
    fields: FieldNames,
    source: InputSource,
    totals: dict[str, MetricTotals],
    scoring: dict[str, Any],
    summary_output: str | None,
    summary_of: Callable[[dict[str, MetricTotals], int], dict[str, Any]],
    stream: TextIO,
    stop: StopRequest,
) -> int:
    """``--output -`` (or a device or FIFO, ``stream``): the records go to the stream as they
    are scored (no partial file, no ``--resume``); the summary table to stderr, the
    summary JSON only to ``--summary-output``."""
    written = [0]

    def count(current: dict[str, MetricTotals], rows: int) -> None:
        written[0] = rows
        stop.check()

    try:
        if examples:
            totals = score_examples(
                examples, metrics, options, fields, source, stream, totals=totals, after_chunk=count, **scoring
            )
    except KeyboardInterrupt:
        print(
            f"interrupted: {written[0]} of {len(examples)} examples were written to standard output "
            "(--output - keeps no partial file: rerun with an output file to resume)",
            file=sys.stderr,
        )
        return 130
    summary = summary_of(totals, len(examples))
    if summary_output is not None:
        _write_json_atomically(summary_output, json_safe(summary))
    print(format_summary(json_safe(summary)), file=sys.stderr)
    return 0
