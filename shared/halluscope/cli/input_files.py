"""Input made of several files: ``--input`` naming a folder of JSONL/Parquet files (not a
``save_to_disk`` folder) or a glob of them, for ``halluscope score --engine ray``; and
:func:`read_examples`, the command's input whether one file or several
(docs/cli.md#scoring-on-ray). Each format's reader is in :mod:`.readers`.

Each file is read and checked as the local command reads one file
(:func:`halluscope.cli.input_examples.collect_examples`), its rows numbered by ``line`` from 1
within the file (for Parquet: the row's number in the file), and each example names its
file: the path relative to the folder, or the path the glob matched.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Sequence
from typing import Any

from .command_errors import CommandError
from .input_examples import Example, FieldNames, Skipped, check_source_field, collect_examples
from .readers import STDIO, InputSource, open_input

#: the files of a folder or glob that are read (others, such as a ``_SUCCESS`` marker, are not)
INPUT_EXTENSIONS = (".jsonl", ".json", ".ndjson", ".csv", ".parquet")
#: files only a folder written by ``datasets``' ``save_to_disk`` holds
SAVE_TO_DISK_MARKERS = ("dataset_info.json", "state.json", "dataset_dict.json")


def _is_glob(path: str) -> bool:
    return any(character in path for character in "*?[")


def input_files(path: str) -> list[tuple[str, str]] | None:
    """Each input file of ``path`` as (its name in the records, its path), sorted by name:
    the files with an :data:`INPUT_EXTENSIONS` ending in a folder (and its subfolders;
    named relative to it) or matched by a glob (``**`` included; named as matched).
    None where ``path`` is one input: a file, ``-``, a ``save_to_disk`` folder or a path
    that does not exist (which :func:`halluscope.cli.readers.open_input` reports)."""
    if path == STDIO or os.path.isfile(path):
        return None
    if os.path.isdir(path):
        if any(os.path.isfile(os.path.join(path, marker)) for marker in SAVE_TO_DISK_MARKERS):
            return None
        found = []
        for folder, subfolders, names in os.walk(path):
            subfolders.sort()
            for name in names:
                if name.lower().endswith(INPUT_EXTENSIONS) and not name.startswith("."):
                    full = os.path.join(folder, name)
                    found.append((os.path.relpath(full, path).replace(os.sep, "/"), full))
        if not found:
            raise CommandError(
                f"--input {path}: a folder with no {', '.join(INPUT_EXTENSIONS)} file, and not one saved by "
                "datasets' save_to_disk"
            )
        return sorted(found)
    if _is_glob(path):
        matched = sorted(name for name in glob.glob(path, recursive=True) if os.path.isfile(name))
        if not matched:
            raise CommandError(f"--input {path}: the pattern matches no file")
        return [(name, name) for name in matched]
    return None


def read_input_files(
    args: Any,
    files: Sequence[tuple[str, str]],
    fields: FieldNames,
    keep: Sequence[str] | None,
    log: Callable[[str], None],
) -> tuple[InputSource, list[Example], list[Skipped]]:
    """Every file of ``files`` (:func:`input_files`) read and checked as the local command
    reads one (``--on-error``, the source field's check per file); ``--limit`` counts the
    valid rows of all files, in the files' order."""
    if args.split is not None:
        raise CommandError(
            f"--split {args.split}: only a datasets folder has splits, and --input {args.input} is not one"
        )
    examples: list[Example] = []
    skipped: list[Skipped] = []
    for name, path in files:
        remaining = None if args.limit is None else args.limit - len(examples)
        if remaining == 0:
            break
        source = open_input(path)
        found, bad, lengths = collect_examples(
            source, fields, args.on_error, log, keep=keep, limit=remaining, file=name
        )
        check_source_field(lengths, fields, explicit=args.source_field is not None)
        examples.extend(found)
        skipped.extend(bad)
    return InputSource(args.input, "line", None, iter(())), examples, skipped


def read_examples(
    args: Any,
    fields: FieldNames,
    keep: Sequence[str] | None,
    log: Callable[[str], None],
    several_files: bool = False,
) -> tuple[InputSource, list[Example], list[Skipped]]:
    """``halluscope score``'s input, read and checked as every engine reads it
    (docs/cli.md#input-rows-and-bad-input): each row by :func:`collect_examples` under
    ``--on-error`` and ``--limit`` (``log`` reports a skipped row), the source field by
    :func:`check_source_field`, and each ``--keep-fields`` name held by some row.
    ``several_files``: a folder or glob of files may be read (each example names its
    file; :mod:`halluscope.cli.input_files`)."""
    files = input_files(args.input) if several_files else None
    if files is not None:
        source, examples, skipped = read_input_files(args, files, fields, keep, log)
    else:
        source = open_input(args.input, args.split)
        examples, skipped, lengths = collect_examples(source, fields, args.on_error, log, keep=keep, limit=args.limit)
        check_source_field(lengths, fields, explicit=args.source_field is not None)
    if keep and examples:
        written = {fields.source, fields.prediction, fields.reference, fields.id, fields.publication_date}
        absent = [name for name in keep if name not in written and not any(name in (e.kept or {}) for e in examples)]
        if absent:
            raise CommandError(f"--keep-fields: no row has the field {absent[0]!r}")
    return source, examples, skipped
