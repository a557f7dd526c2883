"""``--resume`` against the input as it is now (docs/cli.md#resuming-after-the-input-changed).

Every record carries a ``digest``: the first :data:`DIGEST_HEX_DIGITS` hex digits of the
SHA-256 of a canonical JSON of what the record was made from (the row's id, source,
prediction, reference, publication date and kept fields) and of the run's signature per
metric. On ``--resume`` a record is kept only when its position is still an example of
the input and its digest is the one that example gets now; every other record is
dropped from the partial file and its row scored again, so the output never holds a
score or a field of other input. Records are appended in input order chunk by chunk; a
rescored row lands after the records kept, so the output is written in input order at
the end (:func:`finish_in_input_order`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from ..records import json_safe
from .input_examples import Example

#: hex digits of the SHA-256 kept in each record's ``digest`` (64 bits: two different rows
#: share a digest with a chance of about 1 in 10^19)
DIGEST_HEX_DIGITS = 16


def record_digest(example: Example, signatures: Mapping[str, str]) -> str:
    """The ``digest`` of the record ``example`` gives under the run's ``signatures``
    (metric -> signature): the first :data:`DIGEST_HEX_DIGITS` hex digits of the SHA-256
    of the canonical JSON (sorted keys, ASCII, no spaces; NaN as null, as the record
    writes it) of every input value that is in the record or changes its scores. The
    position is not in it: the record is matched to its row by position."""
    content = {
        "id": example.id,
        "source": example.source,
        "prediction": example.prediction,
        "reference": example.reference,
        "publication_date": example.publication_date,
        "fields": example.kept or {},
        "signatures": dict(signatures),
    }
    text = json.dumps(json_safe(content), sort_keys=True, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:DIGEST_HEX_DIGITS]


@dataclass
class ResumePlan:
    """What ``--resume`` keeps of a partial file and what it scores (positions are the
    input's ``line`` or ``row``): ``kept`` the indices (in the partial file) of the records
    kept, ``to_score`` the examples without a kept record, ``changed`` the positions
    whose record was made from other input or under another signature, ``gone`` those
    no longer examples of the input (or written twice)."""

    kept: list[int] = field(default_factory=list)
    to_score: list[Example] = field(default_factory=list)
    changed: list[Any] = field(default_factory=list)
    gone: list[Any] = field(default_factory=list)

    @property
    def dropped(self) -> int:
        return len(self.changed) + len(self.gone)


def plan_resume(
    records: Sequence[Mapping[str, Any]], examples: Sequence[Example], signatures: Mapping[str, str], label: str
) -> ResumePlan:
    """Match the partial file's ``records`` to the input's ``examples`` by position
    (``label``: "line" or "row") and digest (:func:`record_digest`)."""
    by_position = {example.position: example for example in examples}
    counts: dict[Any, int] = {}
    for record in records:
        counts[record[label]] = counts.get(record[label], 0) + 1
    plan = ResumePlan()
    done = set()
    for index, record in enumerate(records):
        position = record[label]
        example = by_position.get(position)
        if example is None or counts[position] > 1:
            plan.gone.append(position)
        elif record.get("digest") != record_digest(example, signatures):
            plan.changed.append(position)
        else:
            plan.kept.append(index)
            done.add(position)
    plan.to_score = [example for example in examples if example.position not in done]
    return plan


def _complete_lines(path: str, count: int) -> list[bytes]:
    """The first ``count`` lines of ``path`` (the complete records :func:`read_partial` read)."""
    lines: list[bytes] = []
    with open(path, "rb") as handle:
        for raw in handle:
            if len(lines) == count:
                break
            lines.append(raw)
    return lines


def _write_lines(path: str, lines: Iterable[bytes]) -> None:
    """Write ``lines`` to a new temporary file beside ``path`` (not following a link),
    then rename it over ``path``."""
    temporary = f"{path}.tmp-{os.getpid()}"
    if os.path.lexists(temporary):
        os.remove(temporary)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.writelines(lines)
        os.replace(temporary, path)
    finally:
        if os.path.lexists(temporary):
            os.remove(temporary)


def keep_only(partial: str, records_count: int, length: int, plan: ResumePlan) -> None:
    """Leave in ``partial`` the records ``plan`` keeps: when it keeps all of its
    ``records_count`` complete records, cut the file to their ``length`` bytes (a last
    line cut short goes); else rewrite it with the kept lines only, as they were."""
    if len(plan.kept) == records_count:
        with open(partial, "r+b") as handle:
            handle.truncate(length)
        return
    lines = _complete_lines(partial, records_count)
    _write_lines(partial, [lines[index] for index in plan.kept])


def resume_note(plan: ResumePlan, partial: str, label: str) -> str:
    """The line ``--resume`` prints: how many records it keeps, and which rows it scores
    again and why."""
    note = f"resuming after {len(plan.kept)} scored examples in {partial}"
    if plan.changed:
        shown = ", ".join(map(str, plan.changed[:5])) + (", ..." if len(plan.changed) > 5 else "")
        note += (
            f"; {len(plan.changed)} record(s) were made from other input or under another signature and are "
            f"scored again ({label}s {shown})"
        )
    if plan.gone:
        shown = ", ".join(map(str, plan.gone[:5])) + (", ..." if len(plan.gone) > 5 else "")
        note += (
            f"; {len(plan.gone)} record(s) of {label}s that are no longer examples of the input are dropped ({shown})"
        )
    return note


def finish_in_input_order(partial: str, output: str, label: str) -> None:
    """Rename ``partial`` over ``output`` when its records are in input order, as a run
    writes them; else (rows scored again after a ``--resume``) write them to ``output``
    in input order, through a temporary file, and remove ``partial``."""
    index = []  # (position, offset, length) of each line
    offset = 0
    with open(partial, "rb") as handle:
        for raw in handle:
            index.append((json.loads(raw)[label], offset, len(raw)))
            offset += len(raw)
    positions = [position for position, _, _ in index]
    # strict=False: each position with the next
    if all(a < b for a, b in zip(positions, positions[1:], strict=False)):
        os.replace(partial, output)
        return
    index.sort()

    def in_order(handle: BinaryIO) -> Iterator[bytes]:
        for _, start, size in index:
            handle.seek(start)
            yield handle.read(size)

    with open(partial, "rb") as handle:
        _write_lines(output, in_order(handle))
    os.remove(partial)
