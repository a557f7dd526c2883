"""Input validation: every row, every field, before any model runs.

Policy (also in the metric cards):
- every error is an :class:`halluscope.errors.InputError` (a ValueError and a
  TypeError) with ``.row`` and ``.field``.
- mismatched column lengths: ``ValueError``.
- ``sources``: empty or whitespace-only is a ``ValueError`` (nothing to check against).
- ``predictions``: empty or whitespace-only is allowed and scored as a summary with
  no units (a model can generate nothing; that is an outcome, not bad input).
- ``references``: one table, on every surface (docs/api.md#what-a-reference-may-be,
  :func:`row_references`): ``None`` for the whole call, or ``None``, ``""`` or a
  whitespace-only string in a row, means no reference (that row is scored
  reference-free); a string is one reference, a non-empty list or tuple of non-empty
  strings several; anything else (``0``, ``False``, ``[]``, NaN, bytes, a list holding a
  non-text) is an error naming the row and field.
- every text (any column): a lone surrogate (``"\\ud83d"``, half of an emoji cut by a
  bad decoder) or a Unicode noncharacter (U+FFFE, U+FDD0, ...) is an error: a
  surrogate cannot be written as UTF-8 (spaCy and the tokenizers fail on it) and a
  noncharacter is never text. A text that is not
  whitespace-only yet has no visible character (only zero-width or other format
  characters such as U+200B, U+FEFF, controls, combining marks) is an error too: it
  looks empty, and is almost always a decoding accident, not a summary.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .errors import InputError

References = Sequence[str | Sequence[str] | None] | None


@dataclass(frozen=True)
class ValidatedBatch:
    predictions: list[str]
    sources: list[str]
    #: per row: a tuple of references; ``()`` means reference-free for that row
    references: list[tuple[str, ...]]

    def __len__(self) -> int:
        return len(self.predictions)


#: code points no UTF-8 text can hold (surrogates) or that Unicode reserves as
#: noncharacters (U+FDD0..U+FDEF and the last two of every plane)
_INVALID_CODE_POINT = re.compile(
    "[\ud800-\udfff\ufdd0-\ufdef"
    + "".join(chr(plane * 0x10000 + 0xFFFE) + chr(plane * 0x10000 + 0xFFFF) for plane in range(17))
    + "]"
)
#: general categories that draw nothing: format (zero-width), control, separators,
#: combining marks
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Zs", "Zl", "Zp", "Mn", "Me"})


def _visible(text: str) -> bool:
    """Whether ``text`` has a character that draws something (stops at the first)."""
    return any(not char.isspace() and unicodedata.category(char) not in _INVISIBLE_CATEGORIES for char in text)


def check_text(text: str, row: int | None, field: str, what: str | None = None) -> None:
    """Raise :class:`InputError` for a text no model can read: a lone surrogate or a
    noncharacter, or a text that is not whitespace-only yet shows nothing (only
    zero-width/format characters). ``what`` names the value in the message
    (default: the field)."""
    what = what or field
    bad = _INVALID_CODE_POINT.search(text)
    if bad is not None:
        char = bad.group()
        if "\ud800" <= char <= "\udfff":
            kind, why = "a lone surrogate", "cannot be encoded as UTF-8"
        else:
            kind, why = "a Unicode noncharacter", "is reserved by Unicode and never text"
        raise InputError(
            f"`{what}` holds {kind} (U+{ord(char):04X} at character {bad.start()}), "
            f"which {why}; fix the text's decoding",
            row=row,
            field=field,
        )
    if text.strip() and not _visible(text):
        raise InputError(
            f"`{what}` has only invisible characters (zero-width, format or control "
            f"characters such as U+{ord(text.strip()[0]):04X}); nothing to score",
            row=row,
            field=field,
        )


def _check_column(values, field: str) -> list[str]:
    if values is None:
        raise InputError(f"`{field}` is required (got None)", field=field)
    if isinstance(values, str):
        raise InputError(f"`{field}` must be a list of strings, not a single string", field=field)
    values = list(values)
    checked = set()  # a text repeated over rows (a source's ten summaries) is read once
    for row, value in enumerate(values):
        if value is None:
            raise InputError(f"`{field}` is None; expected a string", row=row, field=field)
        if not isinstance(value, str):
            raise InputError(f"`{field}` must be a string, got {type(value).__name__}", row=row, field=field)
        if value not in checked:
            check_text(value, row, field)
            checked.add(value)
    return values


#: what an error about a row's reference suggests for a row that has none
_NO_REFERENCE_HINT = 'for a row without reference give None or ""'


def is_no_reference(value: Any) -> bool:
    """Whether a row's reference ``value`` means "no reference" in the table of
    docs/api.md#what-a-reference-may-be: ``None``, ``""`` or a whitespace-only string.
    Every other value is a reference (a string, a non-empty list of strings) or an
    error (:func:`row_references`)."""
    return value is None or (isinstance(value, str) and not value.strip())


def row_references(value: Any, row: int | None) -> tuple[str, ...]:
    """The references of one row by the table of docs/api.md#what-a-reference-may-be:
    ``()`` for no reference (:func:`is_no_reference`), ``(value,)`` for a string, the
    strings of a non-empty list or tuple of non-empty strings. Anything else is an
    :class:`InputError` naming ``row`` and the field ``references``: ``0``, ``False``,
    NaN, bytes, a dict, an empty list (no reference is ``None`` or ``""``, never a
    container), a list holding ``None``, ``""`` or a non-string."""
    if is_no_reference(value):
        if value is not None:
            check_text(value, row, "references")
        return ()
    if isinstance(value, str):
        check_text(value, row, "references")
        return (value,)
    if not isinstance(value, (list, tuple)):
        raise InputError(
            f"`references` must be a string or a list of strings, got {type(value).__name__} ({_NO_REFERENCE_HINT})",
            row=row,
            field="references",
        )
    if not value:
        raise InputError(
            f"`references` is an empty {type(value).__name__}: {_NO_REFERENCE_HINT}, else at least one reference",
            row=row,
            field="references",
        )
    for j, item in enumerate(value):
        if not isinstance(item, str):
            raise InputError(
                f"`references[{j}]` must be a string, got {type(item).__name__}", row=row, field="references"
            )
        if not item.strip():
            raise InputError(
                f"`references[{j}]` is empty or whitespace-only (a list holds references; "
                f"{_NO_REFERENCE_HINT} instead of the list)",
                row=row,
                field="references",
            )
        check_text(item, row, "references", f"references[{j}]")
    return tuple(value)


def validate_inputs(predictions, sources, references: References = None) -> ValidatedBatch:
    """Check every row of the three columns and normalise references to tuples."""
    predictions = _check_column(predictions, "predictions")
    sources = _check_column(sources, "sources")
    if len(sources) != len(predictions):
        raise InputError(f"`sources` has {len(sources)} rows but `predictions` has {len(predictions)}", field="sources")
    for row, source in enumerate(sources):
        if not source.strip():
            raise InputError("`sources` is empty or whitespace-only", row=row, field="sources")

    if references is None:
        refs: list[tuple[str, ...]] = [() for _ in predictions]
    else:
        if isinstance(references, str):
            raise InputError(
                "`references` must be a list (one entry per prediction), not a single string", field="references"
            )
        references = list(references)
        if len(references) != len(predictions):
            raise InputError(
                f"`references` has {len(references)} rows but `predictions` has {len(predictions)}", field="references"
            )
        refs = [row_references(ref, row) for row, ref in enumerate(references)]
    return ValidatedBatch(predictions=predictions, sources=sources, references=refs)


#: how many times longer than their sources, in all, predictions must be to look swapped
SWAPPED_LENGTH_RATIO = 2.0


def warn_if_swapped(predictions, sources) -> bool:
    """Warn (a :class:`UserWarning`) and return True when the predictions look like
    the sources: every prediction longer than its source and, in all, at least
    :data:`SWAPPED_LENGTH_RATIO` times as long. Summaries are shorter than what they
    summarise, so this is the sign of arguments given in the wrong order (docs/api.md,
    "Argument order"). Only strings are measured; anything else is left to
    :func:`validate_inputs`. Linear in the texts' count."""
    import warnings

    # strict=False: this runs before validate_inputs, which reports unequal lengths
    pairs = [(p, s) for p, s in zip(predictions, sources, strict=False) if isinstance(p, str) and isinstance(s, str)]
    if not pairs or any(len(p) <= len(s) for p, s in pairs):
        return False
    predicted, source = sum(len(p) for p, _ in pairs), sum(len(s) for _, s in pairs)
    if predicted < SWAPPED_LENGTH_RATIO * source:
        return False
    warnings.warn(
        f"every prediction is longer than its source ({predicted / source:.1f} times as long in all): "
        "are predictions and sources swapped? The order is (predictions, sources), as in score_chi",
        UserWarning,
        stacklevel=3,
    )
    return True
