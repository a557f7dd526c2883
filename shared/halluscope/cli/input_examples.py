"""The input's rows as examples: the fields that hold each text (:class:`FieldNames`),
every row checked by the backend's validation and turned into an :class:`Example` before
any model loads, bad rows skipped or refused, and a ``source`` field that holds labels
rather than documents refused (docs/cli.md)."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .command_errors import CommandError, LineError
from .readers import InputSource


@dataclass(frozen=True)
class FieldNames:
    """The input fields holding each text (``reference=None``: reference-free run)."""

    source: str = "source"
    prediction: str = "prediction"
    reference: str | None = None
    id: str = "id"
    publication_date: str | None = None  # None: no dates (relative dates stay unresolved)

    def of_api_column(self, column: str) -> str | None:
        """The input field behind an API column name (``predictions`` -> ``prediction``)."""
        return {
            "predictions": self.prediction,
            "sources": self.source,
            "references": self.reference,
            "publication_dates": self.publication_date,
        }.get(column)


@dataclass(frozen=True)
class Example:
    """One valid input row."""

    position: int
    id: Any
    source: str
    prediction: str
    reference: Any = None  # a string or a list of strings; None when the run has no references
    publication_date: Any = None  # an ISO date string, "" or None
    kept: dict[str, Any] | None = None  # the input's other fields kept in the record (--keep-fields)
    file: str | None = None  # the file it came from, where the input is several files (docs/cli.md#scoring-on-ray)


@dataclass(frozen=True)
class Skipped:
    position: int
    reason: str
    file: str | None = None


#: half of a UTF-16 pair: JSON's "\ud83d" reads as one, and UTF-8 cannot write it
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class _Unwritable(ValueError):
    """A text of a kept field or the id that the record, UTF-8, cannot hold."""


def _writable_text(text: str) -> str:
    bad = _LONE_SURROGATE.search(text)
    if bad is not None:
        raise _Unwritable(
            f"a lone surrogate (U+{ord(bad.group()):04X} at character {bad.start()}), which "
            "cannot be written as UTF-8; fix the text's decoding"
        )
    return text


def _kept_value(value: Any) -> Any:
    """A kept field's value as JSON can hold it: dates and times (a datasets timestamp
    column) as ISO 8601 text; anything else JSON has no type for (bytes, an image) is a
    ``TypeError`` naming its type; a text UTF-8 cannot hold (a lone surrogate) is an
    :class:`_Unwritable`."""
    if isinstance(value, str):
        return _writable_text(value)
    if value is None or isinstance(value, (int, float, bool)):
        return value
    if isinstance(value, (datetime.date, datetime.time)):  # datetime.datetime is a date
        return value.isoformat()
    if isinstance(value, dict):
        return {_writable_text(str(key)): _kept_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_kept_value(item) for item in value]
    raise TypeError(type(value).__name__)


def _kept_fields(
    row: Mapping[str, Any], written: Iterable[str | None], keep: Sequence[str] | None, where: str
) -> tuple[dict[str, Any], str | None]:
    """The row's other fields kept in its record (``keep=None``: all), as JSON holds them
    (:func:`_kept_value`), and what makes the row bad (None: nothing). A field of a type
    JSON has no form for is a :class:`CommandError` (``where`` names the row): the whole
    column is of that type, so no row would do."""
    kept: dict[str, Any] = {}
    for name, value in row.items():
        if name in written or (keep is not None and name not in keep):
            continue
        try:
            kept[name] = _kept_value(value)
        except TypeError as error:
            raise CommandError(
                f"{where}: the field {name!r} holds {error} values, which a JSON record cannot "
                "hold; leave it out with --keep-fields (a list of the fields to keep, or "
                "none)"
            ) from None
        except RecursionError:
            return kept, f"field {name!r} is nested too deeply to write"
        except _Unwritable as error:
            return kept, f"field {name!r} holds {error}"
    return kept, None


def _id_problem(row: Mapping[str, Any], id_field: str | None) -> str | None:
    """What makes the row's id unwritable (a lone surrogate), or None."""
    value = row.get(id_field) if id_field is not None else None
    try:
        if isinstance(value, str):
            _writable_text(value)
    except _Unwritable as error:
        return f"field {id_field!r} holds {error}"
    return None


def _located_api_error(error: Exception, positions: Sequence[int], fields: FieldNames) -> tuple[int, str] | None:
    """(input position, message naming the input field) for an API
    :class:`halluscope.errors.InputError` naming a row (its ``.row`` and ``.field``)."""
    from ..errors import InputError as RowError

    row = getattr(error, "row", None)
    if not isinstance(error, RowError) or row is None or not 0 <= row < len(positions):
        return None
    message = str(error)
    detail = message[len(f"row {row}: ") :] if message.startswith(f"row {row}: ") else message
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
        self.count: dict[str, int] = {}
        self.total: dict[str, int] = {}
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

    def document_field(self, fields: FieldNames, mean_at_least: float) -> str | None:
        """The field other than the chosen ones whose texts (a string in every row) are
        the longest on average, if that average is at least ``mean_at_least``."""
        used = {fields.source, fields.prediction, fields.reference, fields.id, fields.publication_date}
        candidates = [name for name, count in self.count.items() if count == self.rows and name not in used]
        best = max(candidates, key=self.mean, default=None)
        return best if best is not None and self.mean(best) >= max(mean_at_least, 1) else None


#: field names that hold the summaries in common data ("summary": FRANK, CNN/DM, XSum;
#: "claim": SummaC), named by the hint of a missing prediction field, first found first
SUMMARY_FIELD_NAMES = ("summary", "claim", "summaries", "hypothesis", "generated_summary", "candidate", "output")


def _summary_hint(names: Iterable[str], fields: FieldNames) -> str:
    """For a row or header without the prediction field: the first of its fields named
    as summaries usually are (:data:`SUMMARY_FIELD_NAMES`), if any."""
    present = set(names) - {fields.source, fields.reference, fields.id, fields.publication_date}
    best = next((name for name in SUMMARY_FIELD_NAMES if name in present), None)
    return "" if best is None else f"; the summaries look to be in {best!r}: pass --prediction-field {best}"


def _missing_hint(absent: str, names: Iterable[str], row: Mapping[str, Any] | None, fields: FieldNames) -> str:
    """What to pass when the field ``absent`` is missing: the source's or the summaries'
    field; ``row`` (None for a CSV header) lets the source's be found by its length."""
    if absent == fields.prediction:
        return _summary_hint(names, fields)
    if absent == fields.source:
        return "; pass --source-field" if row is None else _document_hint(row, fields)
    return ""


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
        f"(or --source-field {fields.source} to score {fields.source!r} anyway)"
    )


def collect_examples(
    source: InputSource,
    fields: FieldNames,
    on_error: str,
    report: Callable[[str], None],
    keep: Sequence[str] | None = None,
    limit: int | None = None,
    file: str | None = None,
) -> tuple[list[Example], list[Skipped], TextLengths]:
    """Every valid row, checked by the backend's validation one row at a time (the
    first ``limit`` valid rows when ``limit`` is given: the rest is not read).

    A malformed line, a missing field or a value the backend rejects raises
    :class:`LineError` (``on_error="stop"``) or is skipped and reported. A field
    missing from a CSV header, a datasets folder or the first row of a JSONL file is a
    :class:`CommandError` whatever ``on_error`` says (every row would be bad). Each
    example keeps the row's other fields (``keep=None``: all; else those named) and,
    with ``file``, the name of the file it came from (one of several input files).
    """
    from ..publication_dates import validate_publication_dates
    from ..validation import validate_inputs

    required = [fields.source, fields.prediction] + [
        name for name in (fields.reference, fields.publication_date) if name is not None
    ]
    written = {fields.source, fields.prediction, fields.reference, fields.id, fields.publication_date}
    if source.columns is not None:
        missing = [name for name in required if name not in source.columns]
        if missing:
            raise CommandError(
                f"{source.path} has no field {missing[0]!r} (fields: {', '.join(source.columns)})"
                + _missing_hint(missing[0], source.columns, None, fields)
            )

    examples: list[Example] = []
    skipped: list[Skipped] = []
    lengths = TextLengths()
    first = True
    for position, row in source.rows:
        problem = row if isinstance(row, str) else None
        if problem is None:
            absent = next((name for name in required if name not in row), None)
            if absent is not None and first and source.columns is None:
                raise CommandError(
                    f"{source.path} {source.label} {position} has no field {absent!r} "
                    f"(fields: {', '.join(map(str, row))}){_missing_hint(absent, row, row, fields)}"
                )
            first = False
            if absent is not None:
                problem = f"missing field {absent!r}"
        if problem is None:
            reference = None if fields.reference is None else row[fields.reference]
            try:
                validate_inputs(
                    [row[fields.prediction]], [row[fields.source]], None if fields.reference is None else [reference]
                )
                if fields.publication_date is not None:
                    validate_publication_dates([row[fields.publication_date]], 1)
            except (TypeError, ValueError) as error:
                located = _located_api_error(error, [position], fields)
                problem = located[1] if located else str(error)
        if problem is None:
            kept, problem = _kept_fields(row, written, keep, f"{source.path} {source.label} {position}")
        if problem is None:
            problem = _id_problem(row, fields.id)
        if problem is None:
            examples.append(
                Example(
                    position,
                    row.get(fields.id),
                    row[fields.source],
                    row[fields.prediction],
                    reference,
                    None if fields.publication_date is None else row[fields.publication_date],
                    kept,
                    file,
                )
            )
            lengths.add(row, fields.source)
            if limit is not None and len(examples) >= limit:
                break
            continue
        message = f"{source.path} {source.label} {position}: {problem}"
        if on_error == "stop":
            raise LineError(message)
        skipped.append(Skipped(position, problem, file))
        report(f"skipped {message}")
    return examples, skipped, lengths


def field_names(args: Any) -> FieldNames:
    """The fields ``halluscope score``'s flags name (``--source-field`` default: source)."""
    return FieldNames(
        args.source_field or "source",
        args.prediction_field,
        args.reference_field,
        args.id_field,
        args.publication_date_field,
    )
