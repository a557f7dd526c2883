"""How option values are written into signatures (docs/api.md#signatures).

A signature names every option value that can change a score or a label, so that two
different values never share one: a number is written in full (the shortest text that
reads back as the same float, ``repr``), never rounded, and a mapping by a digest of
its contents. This module imports nothing of the package, so that every place that
writes a signature field (the dimensions, the verdict, dlsd_acu) can use it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping


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
