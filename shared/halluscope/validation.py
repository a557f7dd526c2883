"""Input validation: every row, every field, before any model runs.

Policy (also in the metric cards):
- ``None`` or a non-string in any field: ``TypeError`` naming row and field.
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
        raise TypeError(f"`{field}` is required (got None)")
    if isinstance(values, str):
        raise TypeError(f"`{field}` must be a list of strings, not a single string")
    values = list(values)
    for row, value in enumerate(values):
        if value is None:
            raise TypeError(f"row {row}: `{field}` is None; expected a string")
        if not isinstance(value, str):
            raise TypeError(f"row {row}: `{field}` must be a string, got {type(value).__name__}")
    return values


def validate_inputs(predictions, sources, references: References = None) -> ValidatedBatch:
    """Check every row of the three columns and normalise references to tuples."""
    predictions = _check_column(predictions, "predictions")
    sources = _check_column(sources, "sources")
    if len(sources) != len(predictions):
        raise ValueError(
            f"`sources` has {len(sources)} rows but `predictions` has {len(predictions)}"
        )
    for row, source in enumerate(sources):
        if not source.strip():
            raise ValueError(f"row {row}: `sources` is empty or whitespace-only")

    if references is None:
        refs: List[Tuple[str, ...]] = [() for _ in predictions]
    else:
        if isinstance(references, str):
            raise TypeError("`references` must be a list (one entry per prediction), not a single string")
        references = list(references)
        if len(references) != len(predictions):
            raise ValueError(
                f"`references` has {len(references)} rows but `predictions` has {len(predictions)}"
            )
        refs = []
        for row, ref in enumerate(references):
            if ref is None:
                raise TypeError(
                    f"row {row}: `references` is None; use \"\" for a reference-free row "
                    "or references=None for the whole call"
                )
            if isinstance(ref, str):
                refs.append((ref,) if ref.strip() else ())
                continue
            if not isinstance(ref, (list, tuple)):
                raise TypeError(
                    f"row {row}: `references` must be a string or a list of strings, got {type(ref).__name__}"
                )
            items = []
            for j, item in enumerate(ref):
                if not isinstance(item, str):
                    raise TypeError(
                        f"row {row}: `references[{j}]` must be a string, got {type(item).__name__}"
                    )
                if not item.strip():
                    raise ValueError(f"row {row}: `references[{j}]` is empty or whitespace-only")
                items.append(item)
            refs.append(tuple(items))
    return ValidatedBatch(predictions=predictions, sources=sources, references=refs)
