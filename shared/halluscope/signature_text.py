"""How option values are written into signatures (docs/api.md#signatures), and the
row of the signature table (docs/architecture.md#the-signature-table).

A signature names every option value that can change a score or a label, so that two
different values never share one: a number is written in full (the shortest text that
reads back as the same float, ``repr``), never rounded, and a mapping by a digest of
its contents. Each field is one :class:`Field`: its abbreviation, the options it
records and how its value is written; a signature is its table's fields written for one
call (:func:`write_fields`) and read back by :func:`read_fields`. This module imports
only the package's version, so that every place that declares signature fields (the
dimensions, the verdict, dlsd_acu) can use it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .version import __version__

#: how the signature writes a precision other than float32 (the ``enc`` field's suffix)
PRECISION_ABBREVIATIONS = {"bfloat16": "bf16", "float16": "fp16"}


@dataclass(frozen=True)
class Field:
    """One row of a signature table: the field ``abbreviation:value``.

    ``options``: the options (their public names) a user changes to change the field;
    ``also``: options that change it through the default they give it (named after an
    "or" where a message names the options of a field); ``value``: the field's text for
    one call (the call's options and components, as its table's rows read them), or
    None where the field is left out of that call's signature."""

    abbreviation: str
    options: tuple[str, ...]
    value: Callable[[Any], str | None]
    also: tuple[str, ...] = ()

    def written(self, call: Any) -> str | None:
        """``abbreviation:value`` for ``call``, or None where the field is left out."""
        text = self.value(call)
        return None if text is None else f"{self.abbreviation}:{text}"

    @property
    def reads(self) -> tuple[str, ...]:
        """Every option that changes the field."""
        return self.options + self.also

    @property
    def named(self) -> str:
        """The options that change the field, in words: ``entity_synonyms, or formula``."""
        return ", ".join(self.options + tuple(f"or {name}" for name in self.also))


#: the first field of every signature: the package's version
VERSION_FIELD = Field("halluscope", (), lambda call: __version__)
#: the second: the metric
METRIC_FIELD = Field("metric", (), lambda call: call.metric)


def write_fields(fields: Sequence[Field], call: Any) -> str:
    """The signature of ``call``: its table's ``fields`` written in order, joined by ``|``."""
    return "|".join(part for part in (field.written(call) for field in fields) if part is not None)


def read_fields(signature: Any) -> dict[str, str]:
    """A signature's fields by abbreviation (``"formula:support|..."`` ->
    ``{"formula": "support", ...}``); empty for anything but a string."""
    if not isinstance(signature, str):
        return {}
    return dict(part.split(":", 1) for part in signature.split("|") if ":" in part)


def number(value: float) -> str:
    """``value`` as the shortest text that reads back as the same float: ``0.85``,
    ``0.28251000000000004``, ``1e-09``; a whole number without its ``.0`` (``2``, ``0``),
    as the signatures wrote it before (docs/api.md#signatures).

    Two different floats never give the same text (``repr`` round-trips, and dropping
    ``.0`` keeps that: ``repr`` of a float always holds a dot, an exponent, ``inf`` or
    ``nan``); an int and the float equal to it give the same text, as they score alike."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def mapping_digest(mapping: Mapping[str, str]) -> str:
    """A 16-hex-digit digest of a mapping of strings (``entity_synonyms``), the same for
    the same items in any order: long dictionaries do not fit in a signature, and two
    different ones must not share it."""
    text = json.dumps(sorted(mapping.items()), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
