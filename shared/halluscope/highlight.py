"""Character spans to highlight, read from a row of ``details``, and their HTML.

One module for every place that shows a scored example (the Space, the metric
apps, the CLI's HTML report), so that they all mark the same spans:

* in the summary, each unit of each dimension, ``supported``, ``unsupported`` or
  ``contradicted`` (the source says the opposite, e.g. through a WordNet antonym; it
  counts as unsupported, and is drawn apart so that a reader sees which);
* in the source, the evidence that supported a summary unit (``evidence``), and the
  source text that contradicts one (``contradicting``).

Evidence found in a reference is not drawn on the source. Overlapping spans are
rendered by cutting the text at every span boundary; each piece carries the CSS
classes of all spans covering it, so nothing is dropped or drawn twice.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .dimensions import names  # the CHI-family dimensions, in display order

#: the statuses a mark can have, strongest first: a piece of text covered by marks of
#: several statuses takes the colour of the first (``contradicted`` and ``unsupported``
#: before ``supported``, so that a problem is never hidden under a supported mark)
STATUSES = ("contradicted", "unsupported", "contradicting", "evidence", "supported")

#: one colour per dimension and status, shared by every HTML view
CSS = """\
.hs-text { white-space: pre-wrap; line-height: 1.7; font-family: inherit; }
.hs-span { border-radius: 3px; padding: 0 1px; }
.hs-unsupported { background: #fecaca; border-bottom: 2px solid #dc2626; }
.hs-contradicted { background: #e9d5ff; border-bottom: 3px double #7e22ce; }
.hs-contradicting { background: #f3e8ff; border-bottom: 2px dashed #7e22ce; }
.hs-supported { background: #dcfce7; }
.hs-evidence { background: #dbeafe; border-bottom: 2px solid #2563eb; }
.hs-ehi { font-weight: 600; }
.hs-rhi { font-style: italic; }
.hs-qhi { text-decoration: underline dotted; }
.hs-reasons { margin: 4px 0 0 0; padding-left: 1.2em; font-size: 0.92em; }
.hs-reason.hs-contradicted b { color: #7e22ce; }
.hs-reason.hs-unsupported b { color: #b91c1c; }
"""


@dataclass(frozen=True)
class Highlight:
    """A span ``text[start:end]`` marked for ``dimension`` with a ``status``
    (:data:`STATUSES`); ``note`` is its tooltip."""

    start: int
    end: int
    dimension: str
    status: str
    note: str = ""


def attribution_note(unit: Mapping[str, Any]) -> str:
    """ "attribution 0.67: stated elsewhere in the source" for a unit whose attribution
    a(u) is below 1 (:mod:`halluscope.match.attribution`), else ""."""
    attributed = unit.get("attribution")
    if attributed is None or attributed >= 1:
        return ""
    return f"attribution {attributed:.2f}: stated elsewhere in the source"


def summary_highlights(row_details: Mapping[str, Any]) -> list[Highlight]:
    """Every unit of every CHI-family dimension in one row of ``details``."""
    marks = []
    for dimension in names():
        for unit in (row_details.get(dimension) or {}).get("units", []):
            start, end = unit["span"]
            note = f"{dimension}: {unit['status']} ({unit['text']})"
            attributed = attribution_note(unit)
            if attributed:
                note += ", " + attributed
            marks.append(Highlight(start, end, dimension, unit["status"], note))
    return sorted(marks, key=lambda m: (m.start, m.end))


def source_highlights(row_details: Mapping[str, Any]) -> list[Highlight]:
    """The source evidence of every unit found in the source (``in_source`` matches
    only): ``evidence`` for a unit it supports, ``contradicting`` for a contradicted
    unit (the source text that says the opposite)."""
    marks = []
    for dimension in names():
        for unit in (row_details.get(dimension) or {}).get("units", []):
            match = unit.get("in_source")
            if not match:
                continue
            contradicted = unit.get("status") == "contradicted"
            status = "contradicting" if contradicted else "evidence"
            what = "contradicts" if contradicted else "evidence for"
            for evidence in match["evidence"]:
                start, end = evidence["span"]
                marks.append(
                    Highlight(start, end, dimension, status, f"{dimension} {what} '{unit['text']}': {match['detail']}")
                )
    return sorted(marks, key=lambda m: (m.start, m.end))


def acu_evidence_highlights(row_details: Mapping[str, Any]) -> list[Highlight]:
    """dlsd_acu: the source span of each unit's best premise. Empty when coreference
    rewrote the document (the spans then refer to the rewritten text)."""
    if row_details.get("document_resolved"):
        return []
    marks = []
    for unit in row_details.get("units", []):
        start, end = unit["evidence"]["char_span"]
        marks.append(
            Highlight(start, end, "acu", "evidence", f"evidence for '{unit['text']}' (score {unit['score']:.2f})")
        )
    return sorted(marks, key=lambda m: (m.start, m.end))


def _pieces(length: int, marks: Sequence[Highlight]) -> Iterable[tuple]:
    """Cut ``[0, length)`` at every span boundary; yield (start, end, covering marks)."""
    cuts = sorted({0, length, *(max(0, min(length, p)) for m in marks for p in (m.start, m.end))})
    # strict=False: each cut with the next
    for start, end in zip(cuts, cuts[1:], strict=False):
        covering = [m for m in marks if m.start <= start and end <= m.end]
        yield start, end, covering


def render_html(text: str, marks: Sequence[Highlight]) -> str:
    """``text`` as escaped HTML with each highlighted piece in a ``<mark>`` whose
    classes name its dimensions and the strongest of its statuses (:data:`STATUSES`:
    ``hs-contradicted`` over ``hs-unsupported`` over ``hs-supported`` when a piece is
    covered by units of several statuses)."""
    parts = []
    for start, end, covering in _pieces(len(text), marks):
        piece = html.escape(text[start:end])
        if not covering:
            parts.append(piece)
            continue
        statuses = {m.status for m in covering}
        status = next(s for s in STATUSES if s in statuses)
        classes = ["hs-span", f"hs-{status}", *sorted({f"hs-{m.dimension}" for m in covering})]
        title = html.escape("; ".join(m.note for m in covering), quote=True)
        parts.append(f'<mark class="{" ".join(classes)}" title="{title}">{piece}</mark>')
    return f'<div class="hs-text">{"".join(parts)}</div>'


def unit_reasons(row_details: Mapping[str, Any]) -> list[tuple]:
    """(dimension, status, unit text, reason) of every unsupported and contradicted unit,
    in summary order: for a contradicted unit the source text that contradicts it and the
    rule ("sold ≠ bought (WordNet antonym)"), for an unsupported one the nearest source
    unit and why it is not a match (``nearest_in_source``), else that nothing in the
    source is near."""
    out = []
    for dimension in names():
        for unit in (row_details.get(dimension) or {}).get("units", []):
            status = unit.get("status")
            if status == "contradicted" and unit.get("in_source"):
                match = unit["in_source"]
                evidence = "; ".join(e["text"] for e in match.get("evidence", []))
                reason = f"the source says '{evidence}': {match.get('detail') or match.get('mode')}"
            elif status == "unsupported":
                near = unit.get("nearest_in_source")
                reason = (
                    f"nearest in the source: '{near['text']}', {near['reason']}"
                    if near
                    else "nothing like it in the source"
                )
            else:
                continue
            out.append((unit["span"][0], dimension, status, unit["text"], reason))
    return [entry[1:] for entry in sorted(out, key=lambda e: e[0])]


def reasons_html(row_details: Mapping[str, Any]) -> str:
    """:func:`unit_reasons` as an escaped HTML list ("" when every unit is supported)."""
    reasons = unit_reasons(row_details)
    if not reasons:
        return ""
    items = "".join(
        f'<li class="hs-reason hs-{status}"><b>{html.escape(text)}</b> ({dimension}, {status}): '
        f"{html.escape(reason)}</li>"
        for dimension, status, text, reason in reasons
    )
    return f'<ul class="hs-reasons">{items}</ul>'


def units_with_status(row_details: Mapping[str, Any], status: str) -> dict[str, list[str]]:
    """The texts of the units of each CHI-family dimension that have ``status``."""
    return {
        d: [u["text"] for u in (row_details.get(d) or {}).get("units", []) if u["status"] == status]
        for d in names()
        if row_details.get(d) is not None
    }


def unsupported_units(row_details: Mapping[str, Any]) -> dict[str, list[str]]:
    """The texts of the unsupported units of each CHI-family dimension (contradicted
    ones not included: :func:`contradicted_units`)."""
    return units_with_status(row_details, "unsupported")


def contradicted_units(row_details: Mapping[str, Any]) -> dict[str, list[str]]:
    """The texts of the contradicted units of each CHI-family dimension."""
    return units_with_status(row_details, "contradicted")
