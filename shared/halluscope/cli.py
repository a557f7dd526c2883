"""The ``halluscope`` command: ``score`` a file of summaries, ``report`` the scores as HTML.

``halluscope score`` reads examples from a JSONL file, a CSV file or a folder saved by
``datasets.Dataset.save_to_disk``, checks every row with the backend's own validation
before any model loads, scores the rows in chunks with :mod:`halluscope.api`
(``return_details=True``) and writes one JSON line per example. Scores are per row and
the parse and encoder caches are per process, so chunking does not change a score.

Before anything is scored the command checks itself (the metrics, ``--option``
values, the device, the output paths), the input (every row, the fields: a default
``source`` field holding labels rather than documents is refused) and the models,
which load through :class:`halluscope.Scorer`; each mistake is one line ``error: ...``.

Output record (one per line; undefined scores and other non-finite numbers are
written as ``null``)::

    {"line": 3, "id": "...", "source": "...", "prediction": "...", "reference": "...",
     "fields": {"label": 1},
     "scores": {"chi": {"chi": 0.41, "ehi": 0.5, "rhi": 0.21, "qhi": 0.3}},
     "details": {"chi": {...one row of the API's details...}}}

``line`` is the 1-based line of a JSONL or CSV file (where a CSV record starts); a
datasets folder gives ``row``, the 0-based index. ``reference`` is present only with
``--reference-field``, ``publication_date`` only with ``--publication-date-field``
(given to ``qhi`` and ``chi``, whose QHI resolves relative dates with it); ``fields``
holds the input's other fields (``--keep-fields``); ``source`` is left out with
``--no-sources-in-output``. The run's summary (means, defined counts, signatures,
skipped lines, the counters of ``dlsd_acu``) goes to stdout as a table and to a JSON
file beside the output (``--summary-output``). ``-`` reads JSONL from stdin
(``--input -``) or writes the records to stdout (``--output -``, the table then goes
to stderr).

``--option NAME=VALUE`` passes any other keyword of the metrics' API functions
(:func:`api_options`).

No data is lost (docs/cli.md, "Interrupted runs"): records go to ``<output>.partial``
(flushed after every chunk), which replaces ``--output`` only when the run ends, so
an existing output is never truncated by a run that fails; an interrupted run
(Ctrl-C, SIGTERM, a crash) leaves the partial file and ``--resume`` continues from its
last complete record, with the same results as an uninterrupted run.

Exit codes (:func:`main`): 0 done; 1 a bad input row (with ``--on-error stop``) or
an error while scoring; 2 a mistake in the command or what it names (usage, an
unknown metric, a refused option or device, a model that cannot load, a missing or
ambiguous field, a path or file the command cannot use); 130 interrupted.
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
from typing import (Any, BinaryIO, Callable, Dict, FrozenSet, Iterator, List, Mapping, Optional, Sequence, TextIO,
                    Tuple)

from . import budget
from . import options as _options
from .errors import HalluscopeError

METRICS = _options.METRICS
#: metrics whose API function takes ``device`` and ``batch_size``
MODEL_METRICS = tuple(metric for metric in METRICS if _options.uses_device(metric))
DEFAULT_CHUNK_SIZE = 64
#: the report's examples per page, and the most examples it writes into the page
REPORT_PAGE_SIZE = 50
REPORT_MAX_EXAMPLES = 1000

#: the suffix of the file a run writes its records to until it ends
PARTIAL_SUFFIX = ".partial"
#: beside it: the run's settings, signatures and counters, rewritten after each chunk
STATE_SUFFIX = ".partial.json"


class InputError(HalluscopeError):
    """A bad input row that stops the run (exit code 1): the message names the file,
    line and field. (The API's row errors, :class:`halluscope.errors.InputError`, are
    turned into this one with the input line in place of the API's row.)"""


class CommandError(HalluscopeError):
    """A mistake in the command or what it names (exit code 2): an unknown metric, a
    refused option or device, a model that cannot be loaded, a missing or ambiguous
    field, an input or output path the command cannot use."""


class FileError(CommandError):
    """A file the command cannot use as asked (exit code 2): a missing folder,
    identical output paths, text that is not UTF-8, an incomplete scores file."""


#: ``--input -`` / ``--output -``: standard input (JSONL) / standard output
STDIO = "-"


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
    kept: Optional[Dict[str, Any]] = None  # the input's other fields kept in the record (--keep-fields)


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


def _jsonl_rows(path: str, handle: Optional[BinaryIO] = None) -> Iterator[Tuple[int, Any]]:
    """The rows of a JSONL file (or of ``handle``, e.g. standard input, named ``path``)."""
    with (open(path, "rb") if handle is None else handle) as handle:
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
            if split not in loaded:
                raise CommandError(f"--input {path} holds the splits {splits}: choose one with --split")
            loaded = loaded[split]
        return InputSource(path, "row", list(loaded.column_names), iter(enumerate(loaded)))
    if not os.path.isfile(path):
        raise CommandError(f"--input {path}: no such file or folder")
    extension = os.path.splitext(path)[1].lower()
    if extension == ".csv":
        header, records = _csv_rows(open(path, "rb"))
        return InputSource(path, "line", header, records)
    if extension in (".jsonl", ".json", ".ndjson"):
        return InputSource(path, "line", None, _jsonl_rows(path))
    raise CommandError(f"--input {path}: expected a .jsonl or .csv file, a datasets folder or - (JSONL on "
                       "standard input)")


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


#: the most characters every value of a label-like ``source`` field has (see :func:`check_source_field`)
LABEL_MAX_CHARS = 64
#: how many times longer, on average, another field's texts must be to be named as the documents
DOCUMENT_LENGTH_RATIO = 4


class TextLengths:
    """Per input field, the count and total length of its string values (in the valid
    rows), and the longest value of the source field: what
    :func:`check_source_field` judges the source field by."""

    def __init__(self) -> None:
        self.count: Dict[str, int] = {}
        self.total: Dict[str, int] = {}
        self.rows = 0
        self.longest_source = ""

    def add(self, row: Mapping[str, Any], source_field: str) -> None:
        self.rows += 1
        for name, value in row.items():
            if isinstance(value, str):
                self.count[name] = self.count.get(name, 0) + 1
                self.total[name] = self.total.get(name, 0) + len(value)
        if len(row[source_field]) > len(self.longest_source):
            self.longest_source = row[source_field]

    def mean(self, name: str) -> float:
        return self.total.get(name, 0) / self.count[name] if self.count.get(name) else 0.0

    def document_field(self, fields: FieldNames, mean_at_least: float) -> Optional[str]:
        """The field other than the chosen ones whose texts (a string in every row) are
        the longest on average, if that average is at least ``mean_at_least``."""
        used = {fields.source, fields.prediction, fields.reference, fields.id, fields.publication_date}
        candidates = [name for name, count in self.count.items() if count == self.rows and name not in used]
        best = max(candidates, key=self.mean, default=None)
        return best if best is not None and self.mean(best) >= max(mean_at_least, 1) else None


def _document_hint(row: Mapping[str, Any], fields: FieldNames) -> str:
    """For a row without the source field: the field holding its longest text, if any."""
    used = {fields.prediction, fields.reference, fields.id, fields.publication_date}
    texts = {name: len(value) for name, value in row.items() if isinstance(value, str) and name not in used}
    if not texts:
        return ""
    best = max(texts, key=texts.__getitem__)
    return f"; the documents look to be in {best!r}: pass --source-field {best}"


def check_source_field(lengths: TextLengths, fields: FieldNames, explicit: bool) -> None:
    """Refuse a default ``source`` field that holds labels, not documents.

    The rule (docs/cli.md, "Which field is the source"): when ``--source-field`` was
    not given, every value of ``source`` is at most :data:`LABEL_MAX_CHARS` characters,
    and another field holds texts at least :data:`DOCUMENT_LENGTH_RATIO` times longer
    on average, the run stops naming that field (SummaC's files have a provenance
    field ``source`` beside the ``document``). Naming the field explicitly scores it.
    """
    if explicit or not lengths.rows or len(lengths.longest_source) > LABEL_MAX_CHARS:
        return
    document = lengths.document_field(fields, DOCUMENT_LENGTH_RATIO * lengths.mean(fields.source))
    if document is None:
        return
    raise CommandError(
        f"the field {fields.source!r} looks like a label, not the document: its values are all at most "
        f"{LABEL_MAX_CHARS} characters (e.g. {lengths.longest_source!r}) while {document!r} holds texts of "
        f"{lengths.mean(document):.0f} characters on average; pass --source-field {document} "
        f"(or --source-field {fields.source} to score {fields.source!r} anyway)")


def collect_examples(source: InputSource, fields: FieldNames, on_error: str,
                     report: Callable[[str], None], keep: Optional[Sequence[str]] = None,
                     limit: Optional[int] = None) -> Tuple[List[Example], List[Skipped], TextLengths]:
    """Every valid row, checked by the backend's validation one row at a time (the
    first ``limit`` valid rows when ``limit`` is given: the rest is not read).

    A malformed line, a missing field or a value the backend rejects raises
    :class:`InputError` (``on_error="stop"``) or is skipped and reported. A field
    missing from a CSV header, a datasets folder or the first row of a JSONL file is a
    :class:`CommandError` whatever ``on_error`` says (every row would be bad). Each
    example keeps the row's other fields (``keep=None``: all; else those named).
    """
    from .dates import validate_publication_dates
    from .validation import validate_inputs

    required = [fields.source, fields.prediction] + [name for name in (fields.reference, fields.publication_date)
                                                     if name is not None]
    written = {fields.source, fields.prediction, fields.reference, fields.id, fields.publication_date}
    if source.columns is not None:
        missing = [name for name in required if name not in source.columns]
        if missing:
            raise CommandError(f"{source.path} has no field {missing[0]!r} (fields: {', '.join(source.columns)})"
                               + ("; pass --source-field" if missing[0] == fields.source else ""))

    examples: List[Example] = []
    skipped: List[Skipped] = []
    lengths = TextLengths()
    first = True
    for position, row in source.rows:
        problem = row if isinstance(row, str) else None
        if problem is None:
            absent = next((name for name in required if name not in row), None)
            if absent is not None and first and source.columns is None:
                hint = _document_hint(row, fields) if absent == fields.source else ""
                raise CommandError(f"{source.path} {source.label} {position} has no field {absent!r} "
                                   f"(fields: {', '.join(map(str, row))}){hint}")
            first = False
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
            kept = {name: value for name, value in row.items()
                    if name not in written and (keep is None or name in keep)}
            examples.append(Example(position, row.get(fields.id), row[fields.source], row[fields.prediction],
                                    reference, None if fields.publication_date is None
                                    else row[fields.publication_date], kept))
            lengths.add(row, fields.source)
            if limit is not None and len(examples) >= limit:
                break
            continue
        message = f"{source.path} {source.label} {position}: {problem}"
        if on_error == "stop":
            raise InputError(message)
        skipped.append(Skipped(position, problem))
        report(f"skipped {message}")
    return examples, skipped, lengths


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
    NAME; a NAME that none takes, or a VALUE the option does not allow, is a
    :class:`CommandError`.
    """
    from .errors import OptionError
    from .options import parse_cli_value

    accepted = {metric: api_keywords(metric) for metric in metrics}
    per_metric: Dict[str, Dict[str, Any]] = {metric: {} for metric in metrics}
    for text in texts:
        name, equals, raw = text.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or not name:
            raise CommandError(f"--option {text!r}: expected NAME=VALUE, e.g. formula=paper")
        takers = [metric for metric in metrics if name in accepted[metric]]
        if not takers:
            known = ", ".join(sorted(set().union(*accepted.values())))
            raise CommandError(f"--option {name}: no option of {', '.join(metrics)} has this name "
                             f"(their options: {known})")
        for metric in takers:
            try:
                per_metric[metric][name] = parse_cli_value(metric, name, raw)
            except OptionError as error:
                raise CommandError(f"--option {name} ({metric}): {error}") from None
    return per_metric


def metric_options(metric: str, args: argparse.Namespace,
                   chosen: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """Keyword options of ``metric``'s API function from the command line (``chosen``:
    its ``--option`` values, from :func:`api_options`)."""
    options: Dict[str, Any] = dict(chosen or {})
    if metric in MODEL_METRICS:
        device = getattr(args, "resolved_device", None)
        if device is not None:
            options["device"] = device
        if args.batch_size is not None:
            options["batch_size"] = args.batch_size
    if metric == "dlsd_acu":
        options.update(host=args.host, decomposer=args.decomposer, nli_model=args.nli_model)
    if getattr(args, "cache_mb", None) is not None:
        options["cache_mb"] = args.cache_mb
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
               source: InputSource) -> HalluscopeError:
    """The command's error for an API error: a row error names the input line and
    field (``.row``/``.field``), an option error its option (``.option``)."""
    located = _located_api_error(error, [e.position for e in chunk], fields)
    if located is not None:
        return InputError(f"{source.path} {source.label} {located[0]}: {located[1]}")
    option = getattr(error, "option", None)
    if option is not None:
        return CommandError(f"--option {option} ({metric}): {error}")
    return InputError(f"{metric}: {error}")


def score_examples(examples: Sequence[Example], metrics: Sequence[str], options: Dict[str, Dict[str, Any]],
                   fields: FieldNames, source: InputSource, output: TextIO, chunk_size: int = DEFAULT_CHUNK_SIZE,
                   progress: bool = True, totals: Optional[Dict[str, MetricTotals]] = None,
                   after_chunk: Optional[Callable[[Dict[str, MetricTotals], int], None]] = None,
                   sources_in_output: bool = True, preset: Optional[str] = None) -> Dict[str, MetricTotals]:
    """Score ``examples`` (read from ``source``) chunk by chunk; write one JSON line per
    example to ``output``, each chunk in one write, flushed. An API error naming a row
    becomes an :class:`InputError` naming its input line. ``totals`` continues the
    totals of a resumed run; ``after_chunk(totals, rows_written)`` runs after each
    flushed chunk. ``sources_in_output=False`` leaves the source text out of the
    records; ``preset`` goes to every metric (:data:`halluscope.options.PRESETS`)."""
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
            if preset is not None:
                dated["preset"] = preset
            results, scores = {}, {}
            for metric in metrics:
                dates = dated if takes_dates(metric) else {k: v for k, v in dated.items() if k == "preset"}
                try:
                    results[metric] = metric_function(metric)(
                        predictions, sources, references, return_details=True, **dates, **options[metric])
                except (TypeError, ValueError) as error:
                    raise _api_error(error, metric, chunk, fields, source) from error
                scores[metric] = per_example_scores(results[metric])
            lines = []
            for row, example in enumerate(chunk):
                record: Dict[str, Any] = {source.label: example.position, "id": example.id}
                if sources_in_output:
                    record["source"] = example.source
                record["prediction"] = example.prediction
                if fields.reference is not None:
                    record["reference"] = example.reference
                if fields.publication_date is not None:
                    record["publication_date"] = example.publication_date
                if example.kept:
                    record["fields"] = example.kept
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


def check_output_paths(args: argparse.Namespace) -> Optional[str]:
    """Refuse outputs that would overwrite each other or the input, or that cannot be
    created; return the summary path (None: no summary file, with ``--output -`` and
    no ``--summary-output``)."""
    if args.output == STDIO:
        if args.resume:
            raise CommandError("--resume needs an output file: with --output - the records go straight to "
                               "standard output, with no partial file to continue")
        if args.summary_output is not None:
            _check_writable(args.summary_output, "--summary-output")
            if args.input != STDIO and _same_path(args.summary_output, args.input):
                raise FileError(f"--summary-output {args.summary_output} is the --input file; choose another name")
        return args.summary_output
    summary_output = args.summary_output or summary_path_for(args.output)
    _check_writable(args.output, "--output")
    _check_writable(summary_output, "--summary-output")
    if _same_path(args.output, summary_output):
        raise FileError(f"--summary-output {summary_output} is the --output file: the summary would "
                        "overwrite the scores; choose another name")
    for path, flag in ((args.output, "--output"), (summary_output, "--summary-output")):
        if args.input != STDIO and _same_path(path, args.input):
            raise FileError(f"{flag} {path} is the --input file; choose another name")
    return summary_output


def _run_settings(args: argparse.Namespace, metrics: Sequence[str], fields: FieldNames,
                  options: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    """What a resumed run must share with the run that wrote the partial file: the
    input, metrics, fields, what the records hold and every option that can change a
    score (not the device, the batch or chunk size or ``--limit``, which change none)."""
    scored = {metric: {key: value for key, value in sorted(chosen.items()) if key not in ("device", "batch_size")}
              for metric, chosen in options.items()}
    return json.loads(json.dumps({
        "input": args.input if args.input == STDIO else os.path.abspath(args.input), "split": args.split, "metrics": list(metrics),
        "fields": dataclasses.asdict(fields), "options": scored, "preset": args.preset,
        "keep_fields": args.keep_fields, "sources_in_output": not args.no_sources_in_output}, default=repr))


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


def parse_metrics(text: str) -> List[str]:
    """``--metrics``: a comma list of known metrics, each once."""
    metrics = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in metrics if name not in METRICS]
    if unknown or not metrics:
        raise CommandError(f"--metrics: unknown metric {unknown[0]!r}; choose from {', '.join(METRICS)}"
                           if unknown else "--metrics: name at least one metric")
    return list(dict.fromkeys(metrics))


def parse_keep_fields(text: str) -> Optional[Tuple[str, ...]]:
    """``--keep-fields``: ``all`` (None), ``none`` (()) or a comma list of field names."""
    if text.strip() == "all":
        return None
    if text.strip() == "none":
        return ()
    names = tuple(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    if not names:
        raise CommandError("--keep-fields: expected all, none or a comma list of field names")
    return names


def resolve_device(requested: str, metrics: Sequence[str]) -> Optional[str]:
    """The torch device of the model metrics: ``auto`` is CUDA when torch has it,
    else the CPU; a device this torch cannot use is a :class:`CommandError`. None when
    no chosen metric runs a torch model and no device was asked for."""
    if requested == "auto" and not any(metric in MODEL_METRICS for metric in metrics):
        return None
    import torch

    from .nli import normalise_device

    if requested == "auto":
        return normalise_device(None)
    try:
        kind = torch.device(requested).type
    except (RuntimeError, TypeError):
        raise CommandError(f"--device {requested}: not a torch device; use auto, cpu, cuda or cuda:N") from None
    if kind == "cuda" and not torch.cuda.is_available():
        raise CommandError(f"--device {requested}: CUDA is not available to this torch ({torch.__version__}); "
                           "use --device cpu, or auto (the default: CUDA when available, else the CPU)")
    try:
        return normalise_device(requested)
    except ValueError as error:
        raise CommandError(f"--device {requested}: {error}") from None


#: options with a flag of their own (named in errors about them)
_FLAGS = {"device": "--device", "batch_size": "--batch-size", "nli_model": "--nli-model",
          "decomposer": "--decomposer", "host": "--host"}


def load_models(metrics: Sequence[str], options: Dict[str, Dict[str, Any]], preset: Optional[str]) -> None:
    """Load every chosen metric's models before anything is scored, through
    :class:`halluscope.Scorer` (whose constructor loads them into the process's
    registry, where the scoring calls find them): a model that cannot be loaded is a
    :class:`CommandError` naming the metric, found before any other metric scores."""
    from .errors import OptionError
    from .registry import ModelNotAvailableError
    from .scorer import Scorer

    # dlsd_acu's models (NLI, decomposer) are the likeliest to be missing: load them first
    for metric in sorted(metrics, key=lambda name: name != "dlsd_acu"):
        try:
            Scorer(metric, preset=preset, **options[metric])
        except OptionError as error:
            flag = _FLAGS.get(error.option or "", f"--option {error.option}")
            raise CommandError(f"{flag} ({metric}): {error}") from None
        except (ModelNotAvailableError, OSError) as error:
            raise CommandError(f"{metric}: {error}") from None


def run_score(args: argparse.Namespace) -> int:
    """``halluscope score``: check the command (metrics, options, device, output
    paths), the input (every row, the fields) and the models, then score into
    ``<output>.partial`` and rename it over ``--output`` at the end (``--resume``
    continues an interrupted run); ``--output -`` writes the records to stdout."""
    metrics = parse_metrics(args.metrics)
    keep = parse_keep_fields(args.keep_fields)
    fields = FieldNames(args.source_field or "source", args.prediction_field, args.reference_field, args.id_field,
                        args.publication_date_field)
    summary_output = check_output_paths(args)
    chosen = api_options(args.option, metrics)
    args.resolved_device = resolve_device(args.device, metrics)
    options = {metric: metric_options(metric, args, chosen[metric]) for metric in metrics}
    to_stdout = args.output == STDIO
    log = sys.stderr

    source = open_input(args.input, args.split)
    examples, skipped, lengths = collect_examples(source, fields, args.on_error,
                                                  lambda message: print(message, file=log), keep=keep,
                                                  limit=args.limit)
    check_source_field(lengths, fields, explicit=args.source_field is not None)
    if keep:
        absent = [name for name in keep if not any(name in e.kept for e in examples) and name not in
                  {fields.source, fields.prediction, fields.reference, fields.id, fields.publication_date}]
        if absent and examples:
            raise CommandError(f"--keep-fields: no row has the field {absent[0]!r}")

    settings = _run_settings(args, metrics, fields, options)
    records: List[Dict[str, Any]] = []
    state: Dict[str, Any] = {}
    partial, state_path = args.output + PARTIAL_SUFFIX, args.output + STATE_SUFFIX
    resuming = not to_stdout and args.resume and os.path.isfile(partial)
    if resuming:
        if os.path.isfile(state_path):
            with open(state_path, encoding="utf-8") as handle:
                state = json.load(handle)
        if state.get("settings") != settings:
            raise FileError(f"--resume: {partial} was written by a run with other settings (input, metrics, "
                            "fields, kept fields or options); rerun that command with --resume, or this one "
                            "without it")
        records, length = read_partial(partial, metrics, source.label)
        positions = {example.position for example in examples}
        done = {record[source.label] for record in records}
        if not done <= positions:
            raise FileError(f"--resume: {partial} holds {source.label}s the input does not "
                            f"({sorted(done - positions)[:3]}); the input changed, rerun without --resume")
    # the command, the input and its fields are valid: now the models (slow), then the scoring
    load_models(metrics, options, args.preset)
    if resuming:
        with open(partial, "r+b") as handle:
            handle.truncate(length)  # drop a last line cut short
        examples = [example for example in examples if example.position not in done]
        print(f"resuming after {len(records)} scored examples in {partial}", file=log)
    elif args.resume and not to_stdout:
        print(f"--resume: no partial output {partial}; scoring from the first example", file=log)
    elif not to_stdout and os.path.isfile(partial):
        print(f"note: replacing the partial output {partial} of an earlier run (--resume would continue it)",
              file=log)
    totals = _resumed_totals(records, state, metrics)
    scoring = dict(chunk_size=args.chunk_size, progress=not args.no_progress,
                   sources_in_output=not args.no_sources_in_output, preset=args.preset)

    def summary_of(totals: Dict[str, MetricTotals], examples_count: int) -> Dict[str, Any]:
        return {"input": args.input, "output": args.output, "examples": examples_count,
                "position_label": source.label,
                "skipped": [{source.label: s.position, "reason": s.reason} for s in skipped],
                "metrics": {metric: totals[metric].as_dict() for metric in metrics}}

    def terminate(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, terminate) if in_main_thread else None
    try:
        if to_stdout:
            return _score_to_stdout(examples, metrics, options, fields, source, totals, scoring, summary_output,
                                    summary_of)
        written_before = len(records)

        def save_state(current: Dict[str, MetricTotals], written: int) -> None:
            _write_json_atomically(state_path, json_safe(_state(settings, current, written_before + written)))

        try:
            with open(partial, "a" if records else "w", encoding="utf-8") as output:
                save_state(totals, 0)
                if examples:
                    totals = score_examples(examples, metrics, options, fields, source, output,
                                            totals=totals, after_chunk=save_state, **scoring)
        except KeyboardInterrupt:
            done_records, _ = read_partial(partial, metrics, source.label)
            total = written_before + len(examples)
            print(f"interrupted: {len(done_records)} of {total} examples are scored in {partial}; run the same "
                  "command with --resume to continue", file=log)
            return 130
        except BaseException:
            if read_partial(partial, metrics, source.label)[0]:
                print(f"note: the examples scored so far are kept in {partial}; run the same command with "
                      "--resume to continue after fixing the problem", file=log)
            else:  # nothing scored: leave no partial behind
                for path in (partial, state_path):
                    if os.path.exists(path):
                        os.remove(path)
            raise
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous)
    summary = summary_of(totals, written_before + len(examples))
    os.replace(partial, args.output)
    assert summary_output is not None
    _write_json_atomically(summary_output, json_safe(summary))
    os.remove(state_path)
    print(format_summary(json_safe(summary)))
    return 0


def _score_to_stdout(examples: Sequence[Example], metrics: Sequence[str], options: Dict[str, Dict[str, Any]],
                     fields: FieldNames, source: InputSource, totals: Dict[str, MetricTotals],
                     scoring: Dict[str, Any], summary_output: Optional[str],
                     summary_of: Callable[[Dict[str, MetricTotals], int], Dict[str, Any]]) -> int:
    """``--output -``: the records go to stdout as they are scored (no partial file,
    no ``--resume``); the summary table to stderr, the summary JSON only to
    ``--summary-output``."""
    written = [0]

    def count(current: Dict[str, MetricTotals], rows: int) -> None:
        written[0] = rows

    try:
        if examples:
            totals = score_examples(examples, metrics, options, fields, source, sys.stdout, totals=totals,
                                    after_chunk=count, **scoring)
    except KeyboardInterrupt:
        print(f"interrupted: {written[0]} of {len(examples)} examples were written to standard output "
              "(--output - keeps no partial file: rerun with an output file to resume)", file=sys.stderr)
        return 130
    summary = summary_of(totals, len(examples))
    if summary_output is not None:
        _write_json_atomically(summary_output, json_safe(summary))
    print(format_summary(json_safe(summary)), file=sys.stderr)
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
        count = write_report(args.input, temporary, summary_path=summary, cut=args.cut, title=args.title,
                             label_field=args.label_field, page_size=args.page_size,
                             max_examples=args.max_examples)
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
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text}")
    return value


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, ``error: ...``, exit code 2
    (argparse's own print the usage first)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"error: {self.prog}: {message} (see {self.prog} --help)\n")


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each option's default (``none`` for None and an empty list), unless the
    help text already says it; flags and required options have none to show."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if (action.required or not action.option_strings or action.default in (False, argparse.SUPPRESS)
                or "default" in text or isinstance(action, argparse._VersionAction)):
            return text
        if action.default is None or action.default == []:
            return text + " (default: none)"
        return text + " (default: %(default)s)"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``halluscope`` command (every option has help text;
    defaults are shown by the help formatter)."""
    from .version import __version__
    from .options import DECOMPOSERS, HOSTS, PRESETS

    parser = _Parser(prog="halluscope", description="Hallucination metrics for summaries (docs/cli.md).",
                     formatter_class=_HelpFormatter)
    parser.add_argument("--version", action="version", version=f"halluscope {__version__}",
                        help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="{score,report}", parser_class=_Parser)

    score = commands.add_parser("score", help="score a JSONL/CSV file or a datasets folder",
                                description="Score every example; write one JSON line per example (docs/cli.md).",
                                formatter_class=_HelpFormatter)
    score.add_argument("--input", required=True,
                       help=".jsonl or .csv file, a folder from Dataset.save_to_disk, or - for JSONL on stdin")
    score.add_argument("--output", required=True,
                       help="JSONL file, one line per example (written to <output>.partial until the run ends), "
                            "or - for stdout (no partial file, no --resume)")
    score.add_argument("--metrics", default="chi", help=f"comma list of {', '.join(METRICS)}")
    score.add_argument("--source-field", default=None,
                       help="field holding the source document (default: source, refused when its values look "
                            "like labels and another field holds the documents)")
    score.add_argument("--prediction-field", default="prediction", help="field holding the summary to score")
    score.add_argument("--reference-field", default=None,
                       help="field with the reference summary (default: none, a reference-free run; \"\" in a "
                            "row: reference-free for that row)")
    score.add_argument("--id-field", default="id", help="field copied to each record's id when present")
    score.add_argument("--publication-date-field", default=None,
                       help="field with the source's publication date (ISO, YYYY-MM-DD; \"\" or null: none), "
                            "which resolves relative dates (\"last Tuesday\") for qhi and chi")
    score.add_argument("--keep-fields", default="all", metavar="all|none|NAME,...",
                       help="the input's other fields copied into each record's \"fields\" (e.g. label, for "
                            "the report's agreement view)")
    score.add_argument("--no-sources-in-output", action="store_true",
                       help="leave the source text out of the records (the report then shows no source)")
    score.add_argument("--limit", type=_positive_int, default=None, metavar="N",
                       help="score only the first N valid examples (the rest of the input is not read)")
    score.add_argument("--split", default=None, help="split of a saved DatasetDict (needed when it has several)")
    score.add_argument("--on-error", choices=("stop", "skip"), default="stop",
                       help="on a malformed line, missing field or rejected value: stop (exit 1) or skip it")
    score.add_argument("--chunk-size", type=_positive_int, default=DEFAULT_CHUNK_SIZE,
                       help="examples per API call; scores do not depend on it")
    score.add_argument("--preset", choices=tuple(PRESETS), default=None,
                       help="a preset of options for every metric (paper: the papers' formulas)")
    score.add_argument("--device", default="auto",
                       help="torch device of chi, rhi and dlsd_acu: auto (CUDA when available, else cpu), cpu, "
                            "cuda, cuda:1, ...")
    score.add_argument("--batch-size", type=_positive_int, default=None,
                       help="model batch size (default: the API's, 64 for the encoder, 32 for NLI)")
    score.add_argument("--cache-mb", type=_positive_int, default=None, metavar="MB",
                       help=f"memory budget of the caches in MB (default: ${budget.ENV} or {budget.DEFAULT_MB}; "
                            "docs/scaling.md#memory)")
    score.add_argument("--nli-model", default=None,
                       help="dlsd_acu: NLI model name or local folder (default: the API's, "
                            "tals/albert-xlarge-vitaminc-mnli)")
    score.add_argument("--decomposer", choices=DECOMPOSERS, default="seq2seq", help="dlsd_acu: ACU decomposer")
    score.add_argument("--host", choices=HOSTS, default="fizz", help="dlsd_acu: host pipeline")
    score.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="a keyword of the metrics' API functions (halluscope.score_<metric>), for every "
                            "chosen metric that takes it: formula=paper, truecase=false, intransitive=none, "
                            "weights='{\"qhi\": 2}'; VALUE is read as JSON when it parses, else as text; "
                            "repeat for several")
    score.add_argument("--summary-output", default=None,
                       help="JSON summary file (default: the output's name with .summary.json; none with "
                            "--output -)")
    score.add_argument("--no-progress", action="store_true", help="no progress bar")
    score.add_argument("--resume", action="store_true",
                       help="continue an interrupted run from the last complete record of <output>.partial "
                            "(same command otherwise)")
    score.set_defaults(handler=run_score)

    report = commands.add_parser("report", help="write a self-contained HTML report of a scores file",
                                 description="One HTML file: statistics, distributions, agreement with labels, "
                                             "every example (docs/cli.md).",
                                 formatter_class=_HelpFormatter)
    report.add_argument("--input", required=True, help="scores JSONL written by `halluscope score`")
    report.add_argument("--output", required=True, help="HTML file to write")
    report.add_argument("--summary", default=None,
                        help="summary JSON of the run (default: the input's .summary.json when present)")
    report.add_argument("--cut", type=_number, default=0.5,
                        help="the report gives the share of defined scores below this value")
    report.add_argument("--label-field", default="label",
                        help="kept input field with 0/1 labels (1 = consistent); when present the report shows "
                             "ROC-AUC, balanced accuracy and a confusion table per score")
    report.add_argument("--page-size", type=_positive_int, default=REPORT_PAGE_SIZE,
                        help="examples per page of the examples table")
    report.add_argument("--max-examples", type=_positive_int, default=REPORT_MAX_EXAMPLES,
                        help="examples written into the page (statistics use all; past this, an even sample "
                             "is shown and the page says so)")
    report.add_argument("--title", default=None, help="page title (default: halluscope report)")
    report.set_defaults(handler=run_report)
    return parser


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit code:
    0 done, 1 a bad input row or a scoring error, 2 a mistake in the command (usage,
    metric, option, device, model, field, path or file), 130 interrupted."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version, a usage error (already printed)
        return exit_.code if isinstance(exit_.code, int) else 2
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.handler(args)
    except InputError as error:
        print(f"error: {_one_line(error)}", file=sys.stderr)
        return 1
    except CommandError as error:
        print(f"error: {_one_line(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
