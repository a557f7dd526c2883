"""A self-contained HTML report of a scores file written by ``halluscope score``.

One HTML file with no external resources (inline CSS and JS, plots as base64 PNG
drawn by matplotlib's Agg canvas, without pyplot): per-score statistics (mean,
median, examples defined, share of defined scores below a cut, 0.5 by default, on
each score's own scale), one distribution plot per score, and every example with its
summary highlighted by :mod:`halluscope.highlight` (the source, reference and
``dlsd_acu`` units in collapsible ``<details>``). Clicking a score's column header
sorts the examples by it (ascending, then descending; undefined scores last).
"""
from __future__ import annotations

import base64
import html
import io
import json
import math
import statistics
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from .highlight import (CSS as HIGHLIGHT_CSS, DIMENSIONS, acu_evidence_highlights, contradicted_units,
                        render_html, source_highlights, summary_highlights, unsupported_units)
from .options import CHI_FAMILY

#: a score column: (metric, score name), e.g. ("chi", "ehi") for ``scores.chi.ehi``
Column = Tuple[str, str]


def load_records(path: str) -> List[Dict[str, Any]]:
    """The records of a scores JSONL file (blank lines ignored)."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def column_label(metric: str, name: str) -> str:
    """``chi`` for the metric's own score, ``chi.ehi`` for a component (its JSON path)."""
    return metric if name == metric else f"{metric}.{name}"


def score_columns(records: Sequence[Mapping[str, Any]]) -> List[Column]:
    """Every (metric, score) in the records, in order of first appearance."""
    seen: Dict[Column, None] = {}
    for record in records:
        for metric, scores in record.get("scores", {}).items():
            for name in scores:
                seen.setdefault((metric, name), None)
    return list(seen)


def column_values(records: Sequence[Mapping[str, Any]], column: Column) -> List[float]:
    """One float per record; NaN where the score is undefined (``null``) or absent."""
    metric, name = column
    values = []
    for record in records:
        value = record.get("scores", {}).get(metric, {}).get(name)
        values.append(math.nan if value is None else float(value))
    return values


@dataclass(frozen=True)
class ColumnStats:
    """Statistics over the defined values of one score (``None`` when none is defined)."""

    total: int
    defined: int
    mean: Optional[float]
    median: Optional[float]
    cut: float
    share_below_cut: Optional[float]


def column_stats(values: Sequence[float], cut: float = 0.5) -> ColumnStats:
    """Mean (as the API computes it: sum of the defined values over their count),
    median, defined count and the share of defined values below ``cut``."""
    defined = [v for v in values if v is not None and not math.isnan(v)]
    if not defined:
        return ColumnStats(len(values), 0, None, None, cut, None)
    return ColumnStats(len(values), len(defined), sum(defined) / len(defined), statistics.median(defined),
                       cut, sum(v < cut for v in defined) / len(defined))


def distribution_png(values: Sequence[float], label: str, cut: float) -> str:
    """A histogram of the defined values as a base64 PNG (matplotlib Agg, no pyplot)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    defined = [v for v in values if not math.isnan(v)]
    figure = Figure(figsize=(3.6, 2.1), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    if defined:
        low, high = min(0.0, min(defined)), max(1.0, max(defined))
        axes.hist(defined, bins=20, range=(low, high), color="#2563eb", alpha=0.8)
        axes.axvline(cut, color="#dc2626", linestyle="--", linewidth=1)
    else:
        axes.text(0.5, 0.5, "no defined scores", ha="center", va="center", transform=axes.transAxes)
    axes.set_title(f"{label} ({len(defined)} defined)", fontsize=9)
    axes.set_xlabel("score", fontsize=8)
    axes.set_ylabel("examples", fontsize=8)
    axes.tick_params(labelsize=7)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def highlight_details(record: Mapping[str, Any]) -> Dict[str, Any]:
    """One details row with each CHI-family dimension, taken from the first metric of
    the record that has it (``chi`` before ``ehi``/``rhi``/``qhi``: same units)."""
    details = record.get("details", {})
    merged: Dict[str, Any] = {}
    for metric in CHI_FAMILY:
        row = details.get(metric) or {}
        for dimension in DIMENSIONS:
            if row.get(dimension) is not None:
                merged.setdefault(dimension, row[dimension])
        if "reference_free" in row:
            merged.setdefault("reference_free", row["reference_free"])
    return merged


def _contradicted_words(record: Mapping[str, Any]) -> List[str]:
    """The summary's content words the source contradicts (``details.chi.words``,
    CHI's word-level support under formula="support")."""
    words = (record.get("details", {}).get("chi") or {}).get("words") or {}
    return [u["text"] for u in words.get("units", []) if u.get("status") == "contradicted"]


def _position(record: Mapping[str, Any]) -> Tuple[str, Any]:
    return ("line", record["line"]) if "line" in record else ("row", record.get("row"))


def _number(value: Optional[float], digits: int = 4) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _text(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def _example_cell(record: Mapping[str, Any]) -> str:
    """Summary with its units marked; source, reference and ACUs collapsible."""
    chi_details = highlight_details(record)
    acu_details = record.get("details", {}).get("dlsd_acu") or {}
    reference = record.get("reference")
    references = [reference] if isinstance(reference, str) else list(reference or [])
    reference_free = chi_details.get("reference_free", not any(r.strip() for r in references))
    parts = ['<div class="label">summary' + (' <span class="badge">reference-free</span>' if reference_free else "")
             + "</div>", render_html(record.get("prediction", ""), summary_highlights(chi_details))]
    for status, listed in (("unsupported", unsupported_units), ("contradicted", contradicted_units)):
        units = {d: texts for d, texts in listed(chi_details).items() if texts}
        if units:
            parts.append(f'<div class="{status}">{status}: ' + "; ".join(
                f"{d}: " + ", ".join(_text(t) for t in texts) for d, texts in units.items()) + "</div>")
    words = _contradicted_words(record)
    if words:
        parts.append('<div class="contradicted">contradicted words: ' + ", ".join(_text(w) for w in words)
                     + "</div>")
    source_marks = source_highlights(chi_details) + acu_evidence_highlights(acu_details)
    parts.append("<details><summary>source</summary>"
                 + render_html(record.get("source", ""), sorted(source_marks, key=lambda m: (m.start, m.end)))
                 + "</details>")
    for k, text in enumerate(r for r in references if r.strip()):
        parts.append(f"<details><summary>reference{f' {k + 1}' if len(references) > 1 else ''}</summary>"
                     f'<div class="hs-text">{_text(text)}</div></details>')
    units = acu_details.get("units") or []
    if units:
        items = "".join(f"<li>{_text(u['text'])} <span class=\"num\">{_number(u.get('score'), 3)}</span></li>"
                        for u in units)
        parts.append(f"<details><summary>dlsd_acu units ({len(units)})</summary><ul>{items}</ul></details>")
    return "".join(parts)


_REPORT_CSS = """\
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #111827; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid #e5e7eb; padding: 4px 8px; text-align: left; vertical-align: top; }
td.num, .num { font-variant-numeric: tabular-nums; }
th[data-col] { cursor: pointer; user-select: none; white-space: nowrap; }
th[data-col]::after { content: " \\2195"; color: #9ca3af; }
th[aria-sort="ascending"]::after { content: " \\2191"; color: #111827; }
th[aria-sort="descending"]::after { content: " \\2193"; color: #111827; }
#examples td.text { max-width: 60rem; }
.plots { display: flex; flex-wrap: wrap; gap: 8px; }
.label { font-size: 0.8rem; color: #6b7280; }
.badge { background: #fef3c7; border-radius: 3px; padding: 0 4px; }
.unsupported { font-size: 0.85rem; color: #991b1b; margin: 2px 0; }
.contradicted { font-size: 0.85rem; color: #6b21a8; margin: 2px 0; }
.signature { font-family: monospace; font-size: 0.8rem; word-break: break-all; }
details { margin: 2px 0; } summary { cursor: pointer; font-size: 0.85rem; color: #374151; }
"""

#: click a header with data-col: sort the rows by that cell's data-value
_SORT_JS = """\
(function () {
  var table = document.getElementById("examples");
  var body = table.tBodies[0];
  var headers = table.querySelectorAll("th[data-col]");
  headers.forEach(function (header) {
    header.addEventListener("click", function () {
      var col = Number(header.dataset.col);
      var ascending = header.getAttribute("aria-sort") !== "ascending";
      headers.forEach(function (h) { h.removeAttribute("aria-sort"); });
      header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      var value = function (row) {
        var text = row.cells[col].dataset.value;
        return text === "" ? NaN : Number(text);
      };
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = value(a), y = value(b);
        if (isNaN(x) || isNaN(y)) { return isNaN(x) - isNaN(y); }  /* undefined last */
        return ascending ? x - y : y - x;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
})();
"""


def build_report(records: Sequence[Mapping[str, Any]], summary: Optional[Mapping[str, Any]] = None,
                 cut: float = 0.5, title: Optional[str] = None) -> str:
    """The whole report as one HTML string."""
    columns = score_columns(records)
    values = {column: column_values(records, column) for column in columns}
    title = title or "halluscope report"
    out = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
           f"<title>{_text(title)}</title><style>{HIGHLIGHT_CSS}{_REPORT_CSS}</style></head><body>",
           f"<h1>{_text(title)}</h1>"]
    meta = f"{len(records)} examples"
    if summary:
        meta += f" from {_text(summary.get('input'))}"
        label = summary.get("position_label", "line")
        skipped = summary.get("skipped") or []
        if skipped:
            meta += f"; skipped {label}s " + ", ".join(_text(s.get(label)) for s in skipped)
    out.append(f"<p>{meta}</p>")

    out.append(f"<h2>Statistics</h2><table id=\"statistics\"><thead><tr><th>score</th><th>mean</th>"
               f"<th>median</th><th>defined</th><th>below {cut:g}</th></tr></thead><tbody>")
    for column in columns:
        stats = column_stats(values[column], cut)
        below = "–" if stats.share_below_cut is None else f"{100 * stats.share_below_cut:.1f}%"
        out.append(f"<tr><td>{_text(column_label(*column))}</td><td class=\"num\">{_number(stats.mean)}</td>"
                   f"<td class=\"num\">{_number(stats.median)}</td><td class=\"num\">{stats.defined}/{stats.total}"
                   f"</td><td class=\"num\">{below}</td></tr>")
    out.append("</tbody></table>")
    out.append(f"<p class=\"label\">Means are over the examples where a score is defined; \"below {cut:g}\" is "
               "the share of those examples scoring under the cut (on each score's own scale).</p>")
    if summary and summary.get("metrics"):
        out.append("<h2>Signatures</h2><table><tbody>")
        for metric, entry in summary["metrics"].items():
            counters = entry.get("counters") or {}
            extra = ("<br>" + ", ".join(f"{_text(k)}={_text(v)}" for k, v in counters.items())) if counters else ""
            out.append(f"<tr><td>{_text(metric)}</td><td class=\"signature\">{_text(entry.get('signature'))}"
                       f"{extra}</td></tr>")
        out.append("</tbody></table>")

    out.append('<h2>Distributions</h2><div class="plots">')
    for column in columns:
        label = column_label(*column)
        out.append(f'<img alt="distribution of {_text(label)}" '
                   f'src="data:image/png;base64,{distribution_png(values[column], label, cut)}">')
    out.append("</div>")

    position_label = _position(records[0])[0] if records else "line"
    out.append("<h2>Examples</h2><p class=\"label\">Click a score's header to sort. Marks: "
               '<mark class="hs-span hs-supported">supported</mark> '
               '<mark class="hs-span hs-unsupported">unsupported</mark> '
               '<mark class="hs-span hs-contradicted">contradicted</mark> '
               '<mark class="hs-span hs-evidence">evidence in the source</mark> '
               '<mark class="hs-span hs-contradicting">contradicting text in the source</mark>; '
               "bold entity, italic relation, dotted underline quantity.</p>")
    out.append(f'<table id="examples"><thead><tr><th data-col="0">{position_label}</th><th>id</th>')
    for k, column in enumerate(columns):
        out.append(f'<th data-col="{k + 2}">{_text(column_label(*column))}</th>')
    out.append("<th>example</th></tr></thead><tbody>")
    for index, record in enumerate(records):
        _, position = _position(record)
        cells = [f'<td class="num" data-value="{_text(position)}">{_text(position)}</td>',
                 f"<td>{_text(record.get('id'))}</td>"]
        for column in columns:
            value = values[column][index]
            defined = not math.isnan(value)
            cells.append(f'<td class="num" data-value="{repr(value) if defined else ""}">'
                         f"{_number(value if defined else None, 3)}</td>")
        cells.append(f'<td class="text">{_example_cell(record)}</td>')
        out.append(f'<tr class="example" data-position="{_text(position)}">{"".join(cells)}</tr>')
    out.append(f"</tbody></table><script>{_SORT_JS}</script></body></html>")
    return "\n".join(out)


def write_report(input_path: str, output_path: str, summary_path: Optional[str] = None,
                 cut: float = 0.5, title: Optional[str] = None) -> int:
    """Write the report of ``input_path`` to ``output_path``; return the number of examples."""
    records = load_records(input_path)
    summary = None
    if summary_path is not None:
        with open(summary_path, encoding="utf-8") as handle:
            summary = json.load(handle)
    document = build_report(records, summary, cut=cut, title=title)
    with open(output_path, "w", encoding="utf-8") as handle:
        handle.write(document)
    return len(records)
