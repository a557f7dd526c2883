"""The ``halluscope`` command: ``score`` a file of summaries, ``report`` the scores as HTML.

``halluscope score`` reads examples from a JSONL file, a CSV file or a folder saved by
``datasets.Dataset.save_to_disk``, checks every row with the backend's own validation
before any model loads, scores the rows in chunks with :mod:`halluscope.api`
(``return_details=True``) and writes one JSON line per example. Scores are per row and
the parse and encoder caches are per process, so chunking does not change a score.

Output record (one per line; undefined scores and other non-finite numbers are
written as ``null``)::

    {"line": 3, "id": "...", "source": "...", "prediction": "...", "reference": "...",
     "scores": {"chi": {"chi": 0.41, "ehi": 0.5, "rhi": 0.21, "qhi": 0.3}},
     "details": {"chi": {...one row of the API's details...}}}

``line`` is the 1-based line of a JSONL or CSV file (where a CSV record starts); a
datasets folder gives ``row``, the 0-based index. ``reference`` is present only with
``--reference-field``, ``publication_date`` only with ``--publication-date-field``
(given to ``qhi`` and ``chi``, whose QHI resolves relative dates with it). The run's
summary (means, defined counts, signatures, skipped lines, the counters of
``dlsd_acu``) goes to stdout as a table and to a JSON file beside the output
(``--summary-output``).

``--option NAME=VALUE`` passes any other keyword of the metrics' API functions
(:func:`api_options`).

No data is lost (docs/cli.md, "Interrupted runs"): records go to ``<output>.partial``
(flushed after every chunk), which replaces ``--output`` only when the run ends, so
an existing output is never truncated by a run that fails; an interrupted run
(Ctrl-C, SIGTERM, a crash) leaves the partial file and ``--resume`` continues from its
last complete record, with the same results as an uninterrupted run.

Exit codes: 0 done, 1 bad input (with ``--on-error stop``), a refused option or a
scoring error, 2 usage or a file problem (a missing output folder, identical output
paths, a file that is not UTF-8, an incomplete scores file given to ``report``), 130
interrupted.
"""
from __future__ import annotations

import argparse
import csv
import dataclasses
import functools
import json
import math
import os
import signal
import sys
import threading
from dataclasses import dataclass
from typing import Any, BinaryIO, Callable, Dict, FrozenSet, Iterator, List, Optional, Sequence, TextIO, Tuple

from . import options as _options

METRICS = _options.METRICS
#: metrics whose API function takes ``device`` and ``batch_size``
MODEL_METRICS = tuple(metric for metric in METRICS if _options.uses_device(metric))
DEFAULT_CHUNK_SIZE = 64

#: the suffix of the file a run writes its records to until it ends
PARTIAL_SUFFIX = ".partial"
#: beside it: the run's settings, signatures and counters, rewritten after each chunk
STATE_SUFFIX = ".partial.json"


class InputError(Exception):
    """Bad input that stops the run: the message names the file, line and field."""


class FileError(Exception):
    """A file the command cannot use as asked (exit code 2): a missing folder,
    identical output paths, text that is not UTF-8, an incomplete scores file."""


@dataclass(frozen=True)
class FieldNames:
    """The input fields holding each text (``reference=None``: reference-free run)."""

    source: str = "source"
    prediction: str = "prediction"
    reference: Optional[str] = None
    id: str = "id"
    publication_date: Optional[str] = None  # None: no dates (relative dates stay unresolved)

    def of_api_column(self, column: str) -> Optional[str]:
        """The input field behind an API column name (``predictions`` -> ``prediction``)."""
        return {"predictions": self.prediction, "sources": self.source,
                "references": self.reference, "publication_dates": self.publication_date}.get(column)


@dataclass(frozen=True)
class Example:
    """One valid input row."""

    position: int
    id: Any
    source: str
    prediction: str
    reference: Any = None  # a string or a list of strings; None when the run has no references
    publication_date: Any = None  # an ISO date string, "" or None


@dataclass(frozen=True)
class Skipped:
    position: int
    reason: str


# ------------------------------------------------------------------------- reading

@dataclass(frozen=True)
class InputSource:
    """Where rows come from: ``label`` is "line" (files) or "row" (datasets folder)."""

    path: str
    label: str
    columns: Optional[List[str]]  # known up front for CSV and datasets; None for JSONL
    rows: Iterator[Tuple[int, Any]]  # (position, dict of fields, or a str saying what is wrong)


def _jsonl_rows(path: str) -> Iterator[Tuple[int, Any]]:
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as error:
                raise FileError(f"{path} line {number}: not valid UTF-8 (byte 0x{raw[error.start]:02x} at "
                                f"byte {error.start + 1} of the line); save the file as UTF-8") from None
            if not line.strip():
                continue  # blank lines separate nothing and are not examples
            try:
                value = json.loads(line)
            except json.JSONDecodeError as error:
                yield number, f"not valid JSON ({error.msg} at column {error.pos + 1})"
                continue
            if not isinstance(value, dict):
                yield number, f"expected a JSON object, got {type(value).__name__}"
                continue
            yield number, value


def _csv_rows(handle: BinaryIO) -> Tuple[List[str], Iterator[Tuple[int, Any]]]:
    """The header of a CSV file and its records as dicts, each with the line it starts
    on (records may span lines). Cells beyond the header are dropped; a short row
    lacks its last fields."""
    consumed: List[str] = []

    def tracked_lines() -> Iterator[str]:
        for number, raw in enumerate(handle, start=1):  # bytes: a bad byte names its line
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as error:
                raise FileError(f"{handle.name} line {number}: not valid UTF-8 (byte 0x{raw[error.start]:02x} "
                                f"at byte {error.start + 1} of the line); save the file as UTF-8") from None
            consumed.append(line)
            yield line

    reader = csv.reader(tracked_lines())
    header = next(reader, [])

    def records() -> Iterator[Tuple[int, Any]]:
        lines_before = len(consumed)
        consumed.clear()
        for cells in reader:
            blank = next((k for k, line in enumerate(consumed) if line.strip()), 0)
            start = lines_before + blank + 1
            lines_before += len(consumed)
            consumed.clear()
            if cells:  # the reader yields [] for a blank line
                yield start, dict(zip(header, cells))
        handle.close()

    return header, records()


def open_input(path: str, split: Optional[str] = None) -> InputSource:
    """Rows of a ``.jsonl``/``.json`` file, a ``.csv`` file or a datasets folder."""
    if os.path.isdir(path):
        import datasets

        try:
            loaded = datasets.load_from_disk(path)
        except (FileNotFoundError, ValueError) as error:
            raise InputError(f"{path}: not a folder saved by datasets' save_to_disk ({error})") from None
        if isinstance(loaded, datasets.DatasetDict):
            splits = list(loaded)
            if split is None and len(splits) == 1:
                split = splits[0]
            if split not in loaded:
                raise InputError(f"{path} holds the splits {splits}: choose one with --split")
            loaded = loaded[split]
        return InputSource(path, "row", list(loaded.column_names), iter(enumerate(loaded)))
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such file or folder")
    extension = os.path.splitext(path)[1].lower()
    if extension == ".csv":
        header, records = _csv_rows(open(path, "rb"))
        return InputSource(path, "line", header, records)
    if extension in (".jsonl", ".json", ".ndjson"):
        return InputSource(path, "line", None, _jsonl_rows(path))
    raise InputError(f"{path}: expected a .jsonl or .csv file or a datasets folder")


def _located_api_error(error: Exception, positions: Sequence[int], fields: FieldNames) -> Optional[Tuple[int, str]]:
    """(input position, message naming the input field) for an API
    :class:`halluscope.errors.InputError` naming a row (its ``.row`` and ``.field``)."""
    from .errors import InputError as RowError

    row = getattr(error, "row", None)
    if not isinstance(error, RowError) or row is None or not 0 <= row < len(positions):
        return None
    message = str(error)
    detail = message[len(f"row {row}: "):] if message.startswith(f"row {row}: ") else message
    field = fields.of_api_column(error.field) if error.field else None
    return positions[row], (f"field {field!r}: {detail}" if field else detail)


def collect_examples(source: InputSource, fields: FieldNames, on_error: str,
                     report: Callable[[str], None]) -> Tuple[List[Example], List[Skipped]]:
    """Every valid row, checked by the backend's validation one row at a time.

    A malformed line, a missing field or a value the backend rejects raises
    :class:`InputError` (``on_error="stop"``) or is skipped and reported.
    """
    from .pipeline import validate_publication_dates
    from .validation import validate_inputs

    required = [fields.source, fields.prediction] + [name for name in (fields.reference, fields.publication_date)
                                                     if name is not None]
    if source.columns is not None:
        missing = [name for name in required if name not in source.columns]
        if missing:
            raise InputError(f"{source.path} has no field {missing[0]!r} (fields: {', '.join(source.columns)})")

    examples: List[Example] = []
    skipped: List[Skipped] = []
    for position, row in source.rows:
        problem = row if isinstance(row, str) else None
        if problem is None:
            absent = next((name for name in required if name not in row), None)
            if absent is not None:
                problem = f"missing field {absent!r}"
        if problem is None:
            reference = None if fields.reference is None else row[fields.reference]
            try:
                validate_inputs([row[fields.prediction]], [row[fields.source]],
                                None if fields.reference is None else [reference])
                if fields.publication_date is not None:
                    validate_publication_dates([row[fields.publication_date]], 1)
            except (TypeError, ValueError) as error:
                located = _located_api_error(error, [position], fields)
                problem = located[1] if located else str(error)
        if problem is None:
            examples.append(Example(position, row.get(fields.id), row[fields.source], row[fields.prediction],
                                    reference, None if fields.publication_date is None
                                    else row[fields.publication_date]))
            continue
        message = f"{source.path} {source.label} {position}: {problem}"
        if on_error == "stop":
            raise InputError(message)
        skipped.append(Skipped(position, problem))
        report(f"skipped {message}")
    return examples, skipped


# ------------------------------------------------------------------------- scoring

def metric_function(metric: str) -> Callable[..., Dict[str, Any]]:
    """The :mod:`halluscope.api` function of ``metric``."""
    from . import api

    return getattr(api, f"score_{metric}")


#: options that have their own flags: not settable by --option
_OWN_FLAGS = frozenset({"device", "batch_size", "nli_model", "host", "decomposer"})


def api_keywords(metric: str) -> FrozenSet[str]:
    """The options ``--option`` can set for ``metric`` (declared in :mod:`halluscope.options`)."""
    from .options import cli_option_names

    return frozenset(cli_option_names(metric)) - _OWN_FLAGS


@functools.lru_cache(maxsize=None)
def takes_dates(metric: str) -> bool:
    """Whether ``metric``'s API function takes ``publication_dates`` (qhi and chi)."""
    return _options.METRIC_SPECS[metric].takes_dates


def api_options(texts: Sequence[str], metrics: Sequence[str]) -> Dict[str, Dict[str, Any]]:
    """``--option NAME=VALUE`` flags as API keywords, per metric, checked before any
    scoring (:func:`halluscope.options.parse_cli_value`).

    VALUE is read as JSON when it parses (``false``, ``0.9``, ``null``,
    ``{"qhi": 2}``), else taken as the string itself (``paper``); NAME may use
    dashes for underscores. Each option goes to every chosen metric that takes
    NAME; a NAME that none takes, or a VALUE the option does not allow, is an
    :class:`InputError`.
    """
    from .errors import OptionError
    from .options import parse_cli_value

    accepted = {metric: api_keywords(metric) for metric in metrics}
    per_metric: Dict[str, Dict[str, Any]] = {metric: {} for metric in metrics}
    for text in texts:
        name, equals, raw = text.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or not name:
            raise InputError(f"--option {text!r}: expected NAME=VALUE, e.g. formula=paper")
        takers = [metric for metric in metrics if name in accepted[metric]]
        if not takers:
            known = ", ".join(sorted(set().union(*accepted.values())))
            raise InputError(f"--option {name}: no option of {', '.join(metrics)} has this name "
                             f"(their options: {known})")
        for metric in takers:
            try:
                per_metric[metric][name] = parse_cli_value(metric, name, raw)
            except OptionError as error:
                raise InputError(f"--option {name} ({metric}): {error}") from None
    return per_metric


def metric_options(metric: str, args: argparse.Namespace,
                   chosen: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """Keyword options of ``metric``'s API function from the command line (``chosen``:
    its ``--option`` values, from :func:`api_options`)."""
    options: Dict[str, Any] = dict(chosen or {})
    if metric in MODEL_METRICS:
        if args.device is not None:
            options["device"] = args.device
        if args.batch_size is not None:
            options["batch_size"] = args.batch_size
    if metric == "dlsd_acu":
        options.update(host=args.host, decomposer=args.decomposer, nli_model=args.nli_model)
    return options


def json_safe(value: Any) -> Any:
    """``value`` with NaN and infinities as ``None`` (strict JSON) and tuples as lists."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    return value


def per_example_scores(result: Dict[str, Any]) -> Dict[str, List[float]]:
    """The per-example lists of an API result by score name (``chi_scores`` -> ``chi``)."""
    return {key[: -len("_scores")]: value for key, value in result.items() if key.endswith("_scores")}


def _is_counter(key: str, value: Any) -> bool:
    """Integer counters of an API result (dlsd_acu's NLI pairs and decomposer calls)."""
    return isinstance(value, int) and not isinstance(value, bool) and not key.endswith("_defined")


class MetricTotals:
    """One metric's per-example scores, signature and counters over all chunks."""

    def __init__(self) -> None:
        self.values: Dict[str, List[float]] = {}
        self.signature: Optional[str] = None
        self.counters: Dict[str, int] = {}

    def add(self, result: Dict[str, Any]) -> None:
        for name, values in per_example_scores(result).items():
            self.values.setdefault(name, []).extend(values)
        for key, value in result.items():
            if _is_counter(key, value):
                self.counters[key] = self.counters.get(key, 0) + value
        self.signature = self.signature or result.get("signature")

    def as_dict(self) -> Dict[str, Any]:
        from .report import column_stats

        scores = {}
        for name, values in self.values.items():
            stats = column_stats(values)
            scores[name] = {"mean": stats.mean, "defined": stats.defined}
        out: Dict[str, Any] = {"signature": self.signature, "scores": scores}
        if self.counters:
            out["counters"] = self.counters
        return out


def _api_error(error: Exception, metric: str, chunk: Sequence[Example], fields: FieldNames,
               source: InputSource) -> InputError:
    """The command's error for an API error: a row error names the input line and
    field (``.row``/``.field``), an option error its option (``.option``)."""
    located = _located_api_error(error, [e.position for e in chunk], fields)
    if located is not None:
        return InputError(f"{source.path} {source.label} {located[0]}: {located[1]}")
    option = getattr(error, "option", None)
    if option is not None:
        return InputError(f"--option {option} ({metric}): {error}")
    return InputError(f"{metric}: {error}")


def score_examples(examples: Sequence[Example], metrics: Sequence[str], options: Dict[str, Dict[str, Any]],
                   fields: FieldNames, source: InputSource, output: TextIO, chunk_size: int = DEFAULT_CHUNK_SIZE,
                   progress: bool = True, totals: Optional[Dict[str, MetricTotals]] = None,
                   after_chunk: Optional[Callable[[Dict[str, MetricTotals], int], None]] = None
                   ) -> Dict[str, MetricTotals]:
    """Score ``examples`` (read from ``source``) chunk by chunk; write one JSON line per
    example to ``output``, each chunk in one write, flushed. An API error naming a row
    becomes an :class:`InputError` naming its input line. ``totals`` continues the
    totals of a resumed run; ``after_chunk(totals, rows_written)`` runs after each
    flushed chunk."""
    from tqdm import tqdm

    totals = totals if totals is not None else {metric: MetricTotals() for metric in metrics}
    written = 0
    n_chunks = math.ceil(len(examples) / chunk_size)
    with tqdm(total=len(examples), unit="ex", desc="scoring", file=sys.stderr,
              disable=not progress or n_chunks <= 1) as bar:
        for start in range(0, len(examples), chunk_size):
            chunk = examples[start:start + chunk_size]
            predictions = [e.prediction for e in chunk]
            sources = [e.source for e in chunk]
            references = None if fields.reference is None else [e.reference for e in chunk]
            dated = {} if fields.publication_date is None else {
                "publication_dates": [e.publication_date for e in chunk]}
            results, scores = {}, {}
            for metric in metrics:
                dates = dated if takes_dates(metric) else {}
                try:
                    results[metric] = metric_function(metric)(
                        predictions, sources, references, return_details=True, **dates, **options[metric])
                except (TypeError, ValueError) as error:
                    raise _api_error(error, metric, chunk, fields, source) from error
                scores[metric] = per_example_scores(results[metric])
            lines = []
            for row, example in enumerate(chunk):
                record: Dict[str, Any] = {source.label: example.position, "id": example.id,
                                          "source": example.source, "prediction": example.prediction}
                if fields.reference is not None:
                    record["reference"] = example.reference
                if fields.publication_date is not None:
                    record["publication_date"] = example.publication_date
                record["scores"] = {metric: {name: values[row] for name, values in by_name.items()}
                                    for metric, by_name in scores.items()}
                record["details"] = {metric: result["details"][row] for metric, result in results.items()}
                lines.append(json.dumps(json_safe(record), ensure_ascii=False, allow_nan=False) + "\n")
            output.write("".join(lines))
            output.flush()
            for metric in metrics:
                totals[metric].add(results[metric])
            written += len(chunk)
            if after_chunk is not None:
                after_chunk(totals, written)
            bar.update(len(chunk))
    return totals


def summary_path_for(output: str) -> str:
    """``scores.jsonl`` -> ``scores.summary.json``."""
    stem, extension = os.path.splitext(output)
    return (stem if extension.lower() in (".jsonl", ".json", ".ndjson") else output) + ".summary.json"


def format_summary(summary: Dict[str, Any]) -> str:
    """The summary as a text table: score, mean, examples defined, signature."""
    from .report import column_label

    n = summary["examples"]
    rows = [("score", "mean", "defined", "signature")]
    for metric, entry in summary["metrics"].items():
        for k, (name, stats) in enumerate(entry["scores"].items()):
            mean = "undefined" if stats["mean"] is None else f"{stats['mean']:.4f}"
            signature = (entry["signature"] or "") if k == 0 else ""  # once per metric
            rows.append((column_label(metric, name), mean, f"{stats['defined']}/{n}", signature))
    widths = [max(len(row[k]) for row in rows) for k in range(3)]
    lines = [("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3]).rstrip()
             for row in rows]
    for metric, entry in summary["metrics"].items():
        if entry.get("counters"):
            lines.append(f"{metric} counters: " + ", ".join(f"{k}={v}" for k, v in entry["counters"].items()))
    label = summary["position_label"]
    skipped = summary["skipped"]
    lines.append(f"scored {n} examples from {summary['input']} into {summary['output']}")
    if skipped:
        lines.append(f"skipped {len(skipped)} {label}{'s' if len(skipped) > 1 else ''}: "
                     + ", ".join(str(s[label]) for s in skipped))
    return "\n".join(lines)


def _same_path(first: str, second: str) -> bool:
    """Whether two paths name one file (compared resolved, and by inode when both exist)."""
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def _check_writable(path: str, flag: str) -> None:
    """``path`` can be created: its folder exists and it is not a folder itself."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileError(f"{flag} {path}: the folder {folder} does not exist")
    if os.path.isdir(path):
        raise FileError(f"{flag} {path}: is a folder, not a file")


def check_output_paths(args: argparse.Namespace) -> str:
    """Refuse outputs that would overwrite each other or the input, or that cannot be
    created; return the summary path."""
    summary_output = args.summary_output or summary_path_for(args.output)
    _check_writable(args.output, "--output")
    _check_writable(summary_output, "--summary-output")
    if _same_path(args.output, summary_output):
        raise FileError(f"--summary-output {summary_output} is the --output file: the summary would "
                        "overwrite the scores; choose another name")
    for path, flag in ((args.output, "--output"), (summary_output, "--summary-output")):
        if _same_path(path, args.input):
            raise FileError(f"{flag} {path} is the --input file; choose another name")
    return summary_output


def _run_settings(args: argparse.Namespace, metrics: Sequence[str], fields: FieldNames,
                  options: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    """What a resumed run must share with the run that wrote the partial file: the
    input, metrics, fields and every option that can change a score (not the device,
    the batch or chunk size, which change none)."""
    scored = {metric: {key: value for key, value in sorted(chosen.items()) if key not in ("device", "batch_size")}
              for metric, chosen in options.items()}
    return json.loads(json.dumps({
        "input": os.path.abspath(args.input), "split": args.split, "metrics": list(metrics),
        "fields": dataclasses.asdict(fields), "options": scored}, default=repr))


def _write_json_atomically(path: str, value: Any) -> None:
    """Write JSON to a temporary file in ``path``'s folder, then rename it over ``path``."""
    temporary = f"{path}.tmp-{os.getpid()}"
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(value, handle, indent=2, ensure_ascii=False, allow_nan=False)
        handle.write("\n")
    os.replace(temporary, path)


def read_partial(partial: str, metrics: Sequence[str], label: str) -> Tuple[List[Dict[str, Any]], int]:
    """The complete records of a partial output and the byte length they take (a last
    line cut short by a kill is not complete)."""
    records: List[Dict[str, Any]] = []
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
                raise FileError(f"{partial}: record {len(records) + 1} was not written by this run "
                                f"(no '{label}' or other metrics); rerun without --resume to start over")
            records.append(record)
            length += len(raw)
    return records, length


def _resumed_totals(records: Sequence[Dict[str, Any]], state: Dict[str, Any],
                    metrics: Sequence[str]) -> Dict[str, MetricTotals]:
    """Totals of the records already written (scores from the records themselves;
    signatures and counters from the state file)."""
    totals = {metric: MetricTotals() for metric in metrics}
    for metric in metrics:
        saved = state.get("metrics", {}).get(metric, {})
        totals[metric].signature = saved.get("signature")
        totals[metric].counters = dict(saved.get("counters", {}))
        for record in records:
            for name, value in record["scores"][metric].items():
                totals[metric].values.setdefault(name, []).append(math.nan if value is None else value)
    return totals


def _state(settings: Dict[str, Any], totals: Dict[str, MetricTotals], rows: int) -> Dict[str, Any]:
    return {"settings": settings, "rows": rows,
            "metrics": {metric: {"signature": t.signature, "counters": t.counters} for metric, t in totals.items()}}


def run_score(args: argparse.Namespace) -> int:
    """``halluscope score``: validate, then score into ``<output>.partial`` and rename
    it over ``--output`` at the end (``--resume`` continues an interrupted run)."""
    metrics = [name.strip() for name in args.metrics.split(",") if name.strip()]
    unknown = [name for name in metrics if name not in METRICS]
    if unknown or not metrics:
        raise InputError(f"--metrics: unknown metric {unknown[0]!r}; choose from {', '.join(METRICS)}"
                         if unknown else "--metrics: name at least one metric")
    metrics = list(dict.fromkeys(metrics))
    fields = FieldNames(args.source_field, args.prediction_field, args.reference_field, args.id_field,
                        args.publication_date_field)
    summary_output = check_output_paths(args)
    source = open_input(args.input, args.split)
    examples, skipped = collect_examples(source, fields, args.on_error,
                                         lambda message: print(message, file=sys.stderr))
    chosen = api_options(args.option, metrics)
    options = {metric: metric_options(metric, args, chosen[metric]) for metric in metrics}

    # everything is valid: only now is anything written
    partial, state_path = args.output + PARTIAL_SUFFIX, args.output + STATE_SUFFIX
    settings = _run_settings(args, metrics, fields, options)
    records: List[Dict[str, Any]] = []
    state: Dict[str, Any] = {}
    if args.resume and os.path.isfile(partial):
        if os.path.isfile(state_path):
            with open(state_path, encoding="utf-8") as handle:
                state = json.load(handle)
        if state.get("settings") != settings:
            raise FileError(f"--resume: {partial} was written by a run with other settings (input, metrics, "
                            "fields or options); rerun that command with --resume, or this one without it")
        records, length = read_partial(partial, metrics, source.label)
        with open(partial, "r+b") as handle:
            handle.truncate(length)  # drop a last line cut short
        positions = {example.position for example in examples}
        done = {record[source.label] for record in records}
        if not done <= positions:
            raise FileError(f"--resume: {partial} holds {source.label}s the input does not "
                            f"({sorted(done - positions)[:3]}); the input changed, rerun without --resume")
        examples = [example for example in examples if example.position not in done]
        print(f"resuming after {len(records)} scored examples in {partial}", file=sys.stderr)
    elif args.resume:
        print(f"--resume: no partial output {partial}; scoring from the first example", file=sys.stderr)
    elif os.path.isfile(partial):
        print(f"note: replacing the partial output {partial} of an earlier run (--resume would continue it)",
              file=sys.stderr)
    totals = _resumed_totals(records, state, metrics)

    def save_state(current: Dict[str, MetricTotals], written: int) -> None:
        _write_json_atomically(state_path, json_safe(_state(settings, current, len(records) + written)))

    def terminate(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, terminate) if in_main_thread else None
    written_before = len(records)
    try:
        with open(partial, "a" if records else "w", encoding="utf-8") as output:
            save_state(totals, 0)
            if examples:
                totals = score_examples(examples, metrics, options, fields, source, output,
                                        chunk_size=args.chunk_size, progress=not args.no_progress,
                                        totals=totals, after_chunk=save_state)
    except KeyboardInterrupt:
        done, _ = read_partial(partial, metrics, source.label)
        total = written_before + len(examples)
        print(f"interrupted: {len(done)} of {total} examples are scored in {partial}; run the same command "
              "with --resume to continue", file=sys.stderr)
        return 130
    except BaseException:
        if read_partial(partial, metrics, source.label)[0]:
            print(f"note: the examples scored so far are kept in {partial}; run the same command with "
                  "--resume to continue after fixing the problem", file=sys.stderr)
        else:  # nothing scored: leave no partial behind
            for path in (partial, state_path):
                if os.path.exists(path):
                    os.remove(path)
        raise
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous)
    summary = {
        "input": args.input, "output": args.output, "examples": written_before + len(examples),
        "position_label": source.label,
        "skipped": [{source.label: s.position, "reason": s.reason} for s in skipped],
        "metrics": {metric: totals[metric].as_dict() for metric in metrics},
    }
    os.replace(partial, args.output)
    _write_json_atomically(summary_output, json_safe(summary))
    os.remove(state_path)
    print(format_summary(json_safe(summary)))
    return 0


def check_scores_file(path: str) -> None:
    """Refuse a scores file ``report`` cannot read whole: a missing file, text that is
    not UTF-8, a line that is not a JSON object (a run still going or interrupted)."""
    if not os.path.isfile(path):
        raise FileError(f"--input {path}: no such file")
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                record = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as error:
                raise FileError(f"{path} line {number}: not a complete scores record ({type(error).__name__}); "
                                "an interrupted `halluscope score` run finishes with --resume") from None
            if not isinstance(record, dict) or not isinstance(record.get("scores"), dict):
                raise FileError(f"{path} line {number}: not a record written by `halluscope score` (no scores)")


def run_report(args: argparse.Namespace) -> int:
    """``halluscope report``."""
    from .report import write_report

    check_scores_file(args.input)
    _check_writable(args.output, "--output")
    if _same_path(args.output, args.input):
        raise FileError(f"--output {args.output} is the --input file; choose another name")
    summary = args.summary
    if summary is None and os.path.isfile(summary_path_for(args.input)):
        summary = summary_path_for(args.input)
    if summary is not None and not os.path.isfile(summary):
        raise FileError(f"--summary {summary}: no such file")
    temporary = f"{args.output}.tmp-{os.getpid()}"
    try:
        count = write_report(args.input, temporary, summary_path=summary, cut=args.cut, title=args.title)
        os.replace(temporary, args.output)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise FileError(f"--summary {summary}: not a JSON summary ({type(error).__name__})") from None
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)
    print(f"wrote {args.output} ({count} examples)")
    return 0


# ---------------------------------------------------------------------------- parser

def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``halluscope`` command."""
    from .acu.components import DECOMPOSER_KINDS
    from .acu.pipeline import HOSTS

    parser = argparse.ArgumentParser(prog="halluscope", description="Hallucination metrics for summaries.")
    commands = parser.add_subparsers(dest="command", metavar="{score,report}")

    score = commands.add_parser("score", help="score a JSONL/CSV file or a datasets folder",
                                description="Score every example; write one JSON line per example.")
    score.add_argument("--input", required=True, help=".jsonl or .csv file, or a folder from Dataset.save_to_disk")
    score.add_argument("--output", required=True, help="JSONL file: one line per example")
    score.add_argument("--metrics", default="chi", help=f"comma list of {', '.join(METRICS)} (default: chi)")
    score.add_argument("--source-field", default="source")
    score.add_argument("--prediction-field", default="prediction")
    score.add_argument("--reference-field", default=None,
                       help="field with the reference summary (absent: reference-free; \"\" in a row: "
                            "reference-free for that row)")
    score.add_argument("--id-field", default="id", help="field copied to each record's id when present")
    score.add_argument("--publication-date-field", default=None,
                       help="field with the source's publication date (ISO, YYYY-MM-DD; \"\" or null: none), "
                            "which resolves relative dates (\"last Tuesday\") for qhi and chi")
    score.add_argument("--split", default=None, help="split of a saved DatasetDict")
    score.add_argument("--on-error", choices=("stop", "skip"), default="stop",
                       help="on a malformed line, missing field or rejected value: stop (exit 1) or skip it")
    score.add_argument("--chunk-size", type=_positive_int, default=DEFAULT_CHUNK_SIZE,
                       help=f"examples per API call (default {DEFAULT_CHUNK_SIZE}); scores do not depend on it")
    score.add_argument("--device", default=None, help="cpu, cuda, cuda:1, ... (default: the backend's choice)")
    score.add_argument("--batch-size", type=_positive_int, default=None, help="model batch size (default: the API's)")
    score.add_argument("--nli-model", default=None, help="dlsd_acu: NLI model name or local folder")
    score.add_argument("--decomposer", choices=DECOMPOSER_KINDS, default="seq2seq",
                       help="dlsd_acu: ACU decomposer (default: seq2seq)")
    score.add_argument("--host", choices=tuple(HOSTS), default="fizz", help="dlsd_acu: host pipeline")
    score.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="a keyword of the metrics' API functions (halluscope.score_<metric>), for every "
                            "chosen metric that takes it: formula=paper, truecase=false, intransitive=none, "
                            "weights='{\"qhi\": 2}'; VALUE is read as JSON when it parses, else as text; "
                            "repeat for several")
    score.add_argument("--summary-output", default=None,
                       help="JSON summary file (default: the output's name with .summary.json)")
    score.add_argument("--no-progress", action="store_true", help="no progress bar")
    score.add_argument("--resume", action="store_true",
                       help="continue an interrupted run from the last complete record of <output>.partial "
                            "(same command otherwise)")
    score.set_defaults(handler=run_score)

    report = commands.add_parser("report", help="write a self-contained HTML report of a scores file",
                                 description="One HTML file: statistics, distributions, every example.")
    report.add_argument("--input", required=True, help="scores JSONL written by `halluscope score`")
    report.add_argument("--output", required=True, help="HTML file to write")
    report.add_argument("--summary", default=None,
                        help="summary JSON of the run (default: the input's .summary.json when present)")
    report.add_argument("--cut", type=float, default=0.5,
                        help="the report gives the share of defined scores below this value (default 0.5)")
    report.add_argument("--title", default=None)
    report.set_defaults(handler=run_report)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.handler(args)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except FileError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
