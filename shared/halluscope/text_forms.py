"""Unicode forms that cannot change what a text says, read as their plain forms before
scoring (docs/api.md#unicode-forms-read-as-ascii), while every span of the details
still indexes the text the caller gave.

* Every Unicode decimal digit (general category Nd: full-width ``１``, Arabic-Indic
  ``٢``, Extended Arabic-Indic ``۲``, Devanagari ``२``, Thai, mathematical digits, ...)
  is read as its ASCII digit (``unicodedata.decimal``): "٢٠٢٣" is 2023.
* The full-width forms of ASCII (U+FF01 to U+FF5E: ``Ａ``, ``％``, ``＄``) and the
  ideographic space U+3000 are read as their ASCII character, and the full-width
  signs U+FFE0 to U+FFE6 as their ordinary one (``￡`` as ``£``, ``￥`` as ``¥``; the
  full-width macron, whose compatibility form is two characters, stays): each
  character's NFKC form, one character.
* Soft hyphens (U+00AD), zero-width spaces, non-joiners and joiners (U+200B to U+200D),
  the word joiner (U+2060) and the zero-width no-break space, or byte-order mark
  (U+FEFF), are removed: "1\\u00ad000" is 1000.

The first two keep the text's length and every offset; a removal shifts the offsets
after it, so a :class:`TextForm` keeps, per character of the text read, its index in
the text given, built in linear time. :func:`read_batch` reads a validated batch so;
:meth:`BatchForms.given_details` maps every span of the details back, and sets the unit
texts from the caller's text, so that ``text[span]`` is the unit as the caller wrote
it. A text with none of these characters (an ``str.isascii`` check, then one regex
search) is read as it is, the same object, and a batch of such texts is the same
batch: scores and details bit for bit as before.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy

from .validation import ValidatedBatch

#: the characters removed: soft hyphen, zero-width space, non-joiner and joiner, word
#: joiner, zero-width no-break space (byte-order mark)
REMOVED = "\u00ad\u200b\u200c\u200d\u2060\ufeff"
#: the full-width signs read as their ordinary sign (U+FFE3, the full-width macron,
#: has a two-character compatibility form and is left as it is)
FULL_WIDTH_SIGNS = "\uffe0\uffe1\uffe2\uffe4\uffe5\uffe6"
_REMOVED = re.compile(f"[{REMOVED}]")
#: a character read otherwise: a decimal digit that is not ASCII (``[^\D0-9]``), a
#: removed one, a full-width form
_READ_OTHERWISE = re.compile(f"[^\\D0-9]|[{REMOVED}\u3000\uff01-\uff5e{FULL_WIDTH_SIGNS}]")

Span = tuple[int, int]


def _read_as(char: str) -> str | None:
    """What one character matched by :data:`_READ_OTHERWISE` is read as (None: removed)."""
    if char in REMOVED:
        return None
    digit = unicodedata.decimal(char, None)
    if digit is not None:
        return str(digit)
    return unicodedata.normalize("NFKC", char)


@dataclass(frozen=True, eq=False)
class TextForm:
    """A text as given (``given``) and as read (``read``). ``kept``: per character of
    ``read``, its index in ``given`` (an int64 array), or None when the two have the
    same offsets (nothing removed)."""

    given: str
    read: str
    kept: numpy.ndarray | None = None

    @property
    def changed(self) -> bool:
        return self.read is not self.given

    def given_span(self, span: Sequence[int]) -> Span:
        """The span of ``given`` that ``read[start:end]`` was read from: from its first
        character to its last, so that a removed character just before or after the
        span stays outside it (one inside stays inside); an empty span stays empty."""
        start, end = int(span[0]), int(span[1])
        if self.kept is None:
            return start, end
        if end > start:
            return int(self.kept[start]), int(self.kept[end - 1]) + 1
        at = int(self.kept[start]) if start < len(self.kept) else len(self.given)
        return at, at


def read_text(text: str) -> TextForm:
    """``text`` read with the forms of the module docstring; the very same string, and
    no offset map, when it holds none of them. Linear in ``len(text)``."""
    if text.isascii() or _READ_OTHERWISE.search(text) is None:
        return TextForm(text, text)
    table = {ord(char): _read_as(char) for char in set(_READ_OTHERWISE.findall(text))}
    removed = [match.start() for match in _REMOVED.finditer(text)]
    kept = numpy.delete(numpy.arange(len(text), dtype=numpy.int64), removed) if removed else None
    return TextForm(text, text.translate(table), kept)


@dataclass(frozen=True)
class RowForms:
    """One row's texts as given and read: its prediction, source and references."""

    prediction: TextForm
    source: TextForm
    references: tuple[TextForm, ...]

    @property
    def changed(self) -> bool:
        return self.prediction.changed or self.source.changed or any(r.changed for r in self.references)


#: keys of a details entry whose value quotes the source, and the reference
_SOURCE_KEYS = frozenset({"in_source", "nearest_in_source"})
_REFERENCE_KEY = "in_reference"


def _given_entry(entry: dict[str, Any], form: TextForm) -> dict[str, Any]:
    """A ``{"text", "span", ...}`` entry of the details with its span in ``form.given``
    and, where its text is the span's text as read, that text as given."""
    span = entry["span"]
    start, end = form.given_span(span)
    out = dict(entry, span=[start, end])
    if "text" in entry and entry["text"] == form.read[span[0] : span[1]]:
        out["text"] = form.given[start:end]
    return out


def _given(value: Any, form: TextForm, forms: RowForms, reference: TextForm | None) -> Any:
    """``value`` (a part of a row's details) with every span, and its text, in the text
    it quotes as given: ``form``, the text of the part (the summary at the top), the
    source under :data:`_SOURCE_KEYS`, the dimension's best reference (its
    ``reference_index``) under ``in_reference``."""
    if isinstance(value, list):
        return [_given(item, form, forms, reference) for item in value]
    if not isinstance(value, dict):
        return value
    if isinstance(value.get("reference_index"), int) and value["reference_index"] < len(forms.references):
        reference = forms.references[value["reference_index"]]
    out = {}
    for key, item in value.items():
        if key in _SOURCE_KEYS:
            out[key] = _given(item, forms.source, forms, reference)
        elif key == _REFERENCE_KEY:
            out[key] = item if reference is None else _given(item, reference, forms, reference)
        else:
            out[key] = _given(item, form, forms, reference)
    if _is_span(value.get("span")):
        out = _given_entry(out, form)
    return out


def _is_span(value: Any) -> bool:
    return (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


@dataclass(frozen=True)
class BatchForms:
    """Every row's :class:`RowForms`, for a batch where some text was read otherwise."""

    rows: list[RowForms]

    def given_details(self, details: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``details`` (one dict per row, as the pipeline builds them) with every span in
        the texts as given and every unit text as the caller wrote it; a row whose
        texts were read as given is returned as it is."""
        return [
            _given(row, forms.prediction, forms, None) if forms.changed else row
            for row, forms in zip(details, self.rows, strict=True)
        ]


def read_batch(batch: ValidatedBatch) -> tuple[ValidatedBatch, BatchForms | None]:
    """The batch with every text read (:func:`read_text`; each distinct text once) and
    the forms to map the details back; ``(batch, None)``, the very same batch, when no
    text has any of the forms."""
    memo: dict[str, TextForm] = {}

    def form(text: str) -> TextForm:
        found = memo.get(text)
        if found is None:
            found = memo[text] = read_text(text)
        return found

    rows = [
        RowForms(form(p), form(s), tuple(form(r) for r in refs))
        for p, s, refs in zip(batch.predictions, batch.sources, batch.references, strict=True)
    ]
    if not any(f.changed for f in memo.values()):
        return batch, None
    read = ValidatedBatch(
        predictions=[r.prediction.read for r in rows],
        sources=[r.source.read for r in rows],
        references=[tuple(f.read for f in r.references) for r in rows],
    )
    return read, BatchForms(rows)
