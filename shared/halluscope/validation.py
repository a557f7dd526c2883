"""Input validation: every row, every field, before any model runs.

Policy (also in the metric cards):
- every error is an :class:`halluscope.errors.InputError` (a ValueError and a
  TypeError) with ``.row`` and ``.field``.
- mismatched column lengths: ``ValueError``.
- ``sources``: empty or whitespace-only is a ``ValueError`` (nothing to check against).
- ``predictions``: empty or whitespace-only is allowed and scored as a summary with
  no units (a model can generate nothing; that is an outcome, not bad input).
- ``references``: ``None`` for the whole call, or ``""`` in a row, selects the
  reference-free mode for that row (DESIGN §4.6). A row may hold a list of
  references; each must be a non-empty string.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple, Union

from .errors import InputError

References = Optional[Sequence[Union[str, Sequence[str], None]]]


@dataclass(frozen=True)
class ValidatedBatch:
    predictions: List[str]
    sources: List[str]
    #: per row: a tuple of references; ``()`` means reference-free for that row
    references: List[Tuple[str, ...]]

    def __len__(self) -> int:
        return len(self.predictions)


def _check_column(values, field: str) -> List[str]:
    if values is None:
        raise InputError(f"`{field}` is required (got None)", field=field)
    if isinstance(values, str):
        raise InputError(f"`{field}` must be a list of strings, not a single string", field=field)
    values = list(values)
    for row, value in enumerate(values):
        if value is None:
            raise InputError(f"`{field}` is None; expected a string", row=row, field=field)
        if not isinstance(value, str):
            raise InputError(f"`{field}` must be a string, got {type(value).__name__}", row=row, field=field)
    return values


def validate_inputs(predictions, sources, references: References = None) -> ValidatedBatch:
    """Check every row of the three columns and normalise references to tuples."""
    predictions = _check_column(predictions, "predictions")
    sources = _check_column(sources, "sources")
    if len(sources) != len(predictions):
        raise InputError(f"`sources` has {len(sources)} rows but `predictions` has {len(predictions)}",
                         field="sources")
    for row, source in enumerate(sources):
        if not source.strip():
            raise InputError("`sources` is empty or whitespace-only", row=row, field="sources")

    if references is None:
        refs: List[Tuple[str, ...]] = [() for _ in predictions]
    else:
        if isinstance(references, str):
            raise InputError("`references` must be a list (one entry per prediction), not a single string",
                             field="references")
        references = list(references)
        if len(references) != len(predictions):
            raise InputError(f"`references` has {len(references)} rows but `predictions` has {len(predictions)}",
                             field="references")
        refs = []
        for row, ref in enumerate(references):
            if ref is None:
                raise InputError("`references` is None; use \"\" for a reference-free row "
                                 "or references=None for the whole call", row=row, field="references")
            if isinstance(ref, str):
                refs.append((ref,) if ref.strip() else ())
                continue
            if not isinstance(ref, (list, tuple)):
                raise InputError(f"`references` must be a string or a list of strings, got {type(ref).__name__}",
                                 row=row, field="references")
            items = []
            for j, item in enumerate(ref):
                if not isinstance(item, str):
                    raise InputError(f"`references[{j}]` must be a string, got {type(item).__name__}",
                                     row=row, field="references")
                if not item.strip():
                    raise InputError(f"`references[{j}]` is empty or whitespace-only", row=row, field="references")
                items.append(item)
            refs.append(tuple(items))
    return ValidatedBatch(predictions=predictions, sources=sources, references=refs)
