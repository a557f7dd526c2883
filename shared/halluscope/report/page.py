"""The report's HTML page: inline CSS and JS (read from ``page.css`` and
``examples_table.js`` beside this module), charts as inline SVG (:mod:`.charts`), every
example highlighted (docs/cli.md, "halluscope report")."""

from __future__ import annotations

import html
import json
import math
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from ..dimensions import names
from ..highlight import (
    CSS as HIGHLIGHT_CSS,
)
from ..highlight import (
    acu_evidence_highlights,
    contradicted_units,
    reasons_html,
    render_html,
    source_highlights,
    summary_highlights,
    unsupported_units,
)
from .charts import bars_svg, histogram_svg, reliability_svg, roc_points, roc_svg
from .stats import (
    Column,
    agreement,
    binary_label,
    calibration_error,
    column_label,
    column_stats,
    column_values,
    dimension_breakdown,
    highlight_details,
    label_problem,
    load_records,
    record_label,
    record_problem,
    reliability_bins,
    roc_auc,
    run_options,
    score_columns,
    score_range,
    shown_indices,
)

#: the folder of this package's page assets (``page.css``, ``examples_table.js``: package data)
_ASSETS = resources.files(__package__)


def _contradicted_words(record: Mapping[str, Any]) -> list[str]:
    """The summary's content words the source contradicts (``details.chi.words``,
    CHI's word-level support under formula="support")."""
    words = (record.get("details", {}).get("chi") or {}).get("words") or {}
    return [u["text"] for u in words.get("units", []) if u.get("status") == "contradicted"]


def _position(record: Mapping[str, Any]) -> tuple[str, Any]:
    return ("line", record["line"]) if "line" in record else ("row", record.get("row"))


def _number(value: float | None, digits: int = 4) -> str:
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
    parts = [
        '<div class="label">summary'
        + (' <span class="badge">reference-free</span>' if reference_free else "")
        + "</div>",
        render_html(record.get("prediction", ""), summary_highlights(chi_details)),
    ]
    for status, listed in (("unsupported", unsupported_units), ("contradicted", contradicted_units)):
        units = {d: texts for d, texts in listed(chi_details).items() if texts}
        if units:
            parts.append(
                f'<div class="{status}">{status}: '
                + "; ".join(f"{d}: " + ", ".join(_text(t) for t in texts) for d, texts in units.items())
                + "</div>"
            )
    words = _contradicted_words(record)
    if words:
        parts.append('<div class="contradicted">contradicted words: ' + ", ".join(_text(w) for w in words) + "</div>")
    parts.append(reasons_html(chi_details))  # why each flagged unit is flagged
    source_marks = source_highlights(chi_details) + acu_evidence_highlights(acu_details)
    if "source" in record:
        parts.append(
            "<details><summary>source</summary>"
            + render_html(record["source"], sorted(source_marks, key=lambda m: (m.start, m.end)))
            + "</details>"
        )
    else:
        parts.append('<div class="label">source not in the scores file (--no-sources-in-output)</div>')
    for k, text in enumerate(r for r in references if r.strip()):
        parts.append(
            f"<details><summary>reference{f' {k + 1}' if len(references) > 1 else ''}</summary>"
            f'<div class="hs-text">{_text(text)}</div></details>'
        )
    acu_units = acu_details.get("units") or []
    if acu_units:
        items = "".join(
            f'<li>{_text(u["text"])} <span class="num">{_number(u.get("score"), 3)}</span></li>' for u in acu_units
        )
        parts.append(f"<details><summary>dlsd_acu units ({len(acu_units)})</summary><ul>{items}</ul></details>")
    return "".join(parts)


#: the page's own style sheet, after :data:`halluscope.highlight.CSS` (a file of this package)
_REPORT_CSS = _ASSETS.joinpath("page.css").read_text(encoding="utf-8")

#: the examples table: click a header with data-col to sort the rows by that cell's
#: data-value (undefined last); the filter box and label menu select rows; pages of
#: data-page-size rows
_TABLE_JS = _ASSETS.joinpath("examples_table.js").read_text(encoding="utf-8")


def _labels(records: Sequence[Mapping[str, Any]], field: str) -> list[int | None]:
    """Each record's binary label (None: no label; :func:`.stats.is_no_label`); the
    records are checked first (:func:`check_records`)."""
    return [binary_label(record_label(record, field)) for record in records]


def check_records(
    records: Sequence[Mapping[str, Any]], summary: Mapping[str, Any] | None = None, label_field: str = "label"
) -> None:
    """Refuse records the report would show a meaningless number for, naming the first
    (1-based, with its input position): a score that is not one its metric returns, is
    infinite or lies outside its declared range (:func:`.stats.record_problem`), or a
    label that is not one (:func:`.stats.label_problem`); a ``ValueError``
    (docs/cli.md#scores-the-report-refuses)."""
    options = run_options(summary)
    for number, record in enumerate(records, start=1):
        problem = record_problem(record, options)
        if problem is None and label_field:
            problem = label_problem(record_label(record, label_field), label_field)
        if problem is not None:
            where = " ".join(map(str, _position(record))) if isinstance(record, Mapping) else "?"
            raise ValueError(f"record {number} ({where}): {problem}")


def _threshold(value: float) -> str:
    if math.isnan(value):
        return "undefined"
    return "+inf" if math.isinf(value) else f"{value:.4f}"


def _measure(value: float) -> str:
    """ROC-AUC or balanced accuracy: "undefined" for NaN (one label class)."""
    return "undefined" if math.isnan(value) else f"{value:.4f}"


def _agreement_section(
    columns: Sequence[Column], values: Mapping[Column, list[float]], labels: Sequence[int | None], field: str
) -> list[str]:
    labelled = [k for k, label in enumerate(labels) if label is not None]
    y = [label for label in labels if label is not None]  # labels[k] for k in labelled
    positives = sum(y)
    out = [
        f"<h2>Agreement with labels</h2><p>Labels from the field <code>{_text(field)}</code> (1 = consistent): "
        f"{len(labelled)} labelled examples, {positives} consistent and {len(y) - positives} inconsistent"
        + (f"; {len(labels) - len(labelled)} without a label" if len(labels) - len(labelled) else "")
        + ".</p>",
        '<table id="agreement"><thead><tr><th>score</th><th>ROC-AUC</th><th>balanced accuracy</th>'
        "<th>best threshold</th><th>TP</th><th>FN</th><th>FP</th><th>TN</th><th>undefined</th></tr></thead><tbody>",
    ]
    results = {}
    for column in columns:
        result = agreement([values[column][k] for k in labelled], y)
        results[column] = result
        out.append(
            f'<tr><td>{_text(column_label(*column))}</td><td class="num">{_measure(result.auc)}</td>'
            f'<td class="num">{_measure(result.balanced_accuracy)}</td>'
            f'<td class="num">{_threshold(result.threshold)}</td>'
            f'<td class="num">{result.tp}</td><td class="num">{result.fn}</td>'
            f'<td class="num">{result.fp}</td><td class="num">{result.tn}</td>'
            f'<td class="num">{result.undefined}</td></tr>'
        )
    out.append("</tbody></table>")
    reason = next(iter(results.values())).undefined_because if results else None
    if reason is not None:  # one label class: no measure, no threshold, no confusion to show
        out.append(
            f'<p class="note" id="agreement-undefined">ROC-AUC, balanced accuracy and the best threshold '
            f"are undefined: {_text(reason)}.</p>"
        )
        return out
    out.append(
        '<p class="label">ROC-AUC: the chance that a consistent summary scores above an inconsistent '
        "one (ties count half). Balanced accuracy: the mean recall of the two classes, predicting "
        '"consistent" when the score is at least the threshold, at the threshold that maximises it '
        "(the lowest of equally good ones; tuned on these labels, so optimistic). Undefined scores count "
        "as consistent (+inf), as in the project's benchmarks.</p>"
    )
    out.append(
        '<h3>Confusion at the best threshold</h3><p class="label">Rows: the labels (1 = consistent); '
        'columns: the prediction, 1 when the score is at least the threshold.</p><div class="confusions">'
    )
    for column, result in results.items():
        label = _text(column_label(*column))
        out.append(
            f'<table class="confusion" data-score="{label}"><caption>{label} &ge; '
            f"{_threshold(result.threshold)}</caption><thead><tr><th></th><th>predicted 1</th>"
            "<th>predicted 0</th></tr></thead><tbody>"
            f'<tr><th>label 1</th><td class="num hit">{result.tp}</td>'
            f'<td class="num miss">{result.fn}</td></tr>'
            f'<tr><th>label 0</th><td class="num miss">{result.fp}</td>'
            f'<td class="num hit">{result.tn}</td></tr></tbody></table>'
        )
    out.append("</div>")
    return out


def _dimension_section(records: Sequence[Mapping[str, Any]]) -> list[str]:
    breakdown = dimension_breakdown(records)
    if not breakdown:
        return []
    out = [
        '<h2>Per dimension</h2><table id="dimensions"><thead><tr><th>dimension</th><th>examples with units'
        "</th><th>units</th><th>supported</th><th>unsupported</th><th>contradicted</th>"
        "<th>examples flagged</th></tr></thead><tbody>"
    ]
    for row in breakdown:
        out.append(
            f'<tr><td>{row.dimension}</td><td class="num">{row.examples}/{len(records)}</td>'
            f'<td class="num">{row.units}</td><td class="num">{row.supported}</td>'
            f'<td class="num">{row.unsupported}</td><td class="num">{row.contradicted}</td>'
            f'<td class="num">{row.flagged}</td></tr>'
        )
    out.append(
        '</tbody></table><p class="label">Units extracted from the summaries per dimension (entities, '
        "relations, quantities) by status; an example is flagged when one of its units of that dimension "
        "is unsupported or contradicted.</p>"
    )
    return out


def _charts_section(
    records: Sequence[Mapping[str, Any]],
    columns: Sequence[Column],
    values: Mapping[Column, list[float]],
    labels: Sequence[int | None] | None,
    options: Mapping[str, Mapping[str, str]],
) -> list[str]:
    """Inline SVG charts (:mod:`.charts`): with labels, each score's distribution by label,
    the ROC curves and the reliability of chi's p_consistent; without, each score's
    distribution and the per-dimension means. Each distribution spans its score's
    declared range (``options``: :func:`.stats.run_options`)."""
    out = ['<h2>Charts</h2><div class="plots">']
    if labels is not None:
        labelled = [k for k, label in enumerate(labels) if label is not None]
        y = [label for label in labels if label is not None]  # labels[k] for k in labelled
        for column in columns:
            scores = [values[column][k] for k in labelled]
            out.append(
                histogram_svg(
                    column_label(*column),
                    {
                        "consistent (1)": [s for s, label in zip(scores, y, strict=True) if label == 1],
                        "inconsistent (0)": [s for s, label in zip(scores, y, strict=True) if label == 0],
                    },
                    span=score_range(column, options),
                )
            )
        curves = {}
        for column in columns:
            scores = [values[column][k] for k in labelled]
            points = roc_points(scores, y)
            if points:
                curves[column_label(*column)] = (points, roc_auc(scores, y))
        if curves:
            out.append(roc_svg(curves))
        if ("chi", "p_consistent") in values:
            p = [values[("chi", "p_consistent")][k] for k in labelled]
            bins = reliability_bins(p, y)
            if bins:
                out.append(reliability_svg(bins, calibration_error(p, y)))
    else:
        for column in columns:
            out.append(
                histogram_svg(column_label(*column), {"all rows": values[column]}, span=score_range(column, options))
            )
        means = {}
        for column in columns:
            if column[1] in names() or column[1] == column[0]:
                mean = column_stats(values[column]).mean
                means[column_label(*column)] = math.nan if mean is None else mean
        if means:
            out.append(bars_svg("Mean of each score", means))
    out.append("</div>")
    return out


def build_report(
    records: Sequence[Mapping[str, Any]],
    summary: Mapping[str, Any] | None = None,
    cut: float = 0.5,
    title: str | None = None,
    label_field: str = "label",
    page_size: int = 50,
    max_examples: int = 1000,
) -> str:
    """The whole report as one HTML string (see the module's docstring); records the
    report cannot show are refused first (:func:`check_records`). ``label_field=""``:
    no labels."""
    check_records(records, summary, label_field)
    options = run_options(summary)
    columns = score_columns(records)
    values = {column: column_values(records, column) for column in columns}
    labels = _labels(records, label_field) if label_field else [None] * len(records)
    has_labels = any(label is not None for label in labels)
    shown = shown_indices(len(records), max_examples)
    title = title or "halluscope report"
    out = [
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
        f"<title>{_text(title)}</title><style>{HIGHLIGHT_CSS}{_REPORT_CSS}</style></head><body>",
        f"<h1>{_text(title)}</h1>",
    ]
    meta = f"{len(records)} examples"
    if summary:
        meta += f" from {_text(summary.get('input'))}"
        label = summary.get("position_label", "line")
        skipped = summary.get("skipped") or []
        if skipped:
            meta += f"; skipped {label}s " + ", ".join(
                _text(f"{s['file']} {s.get(label)}" if s.get("file") else s.get(label)) for s in skipped
            )
    out.append(f"<p>{meta}</p>")

    out.append(
        f'<h2>Statistics</h2><table id="statistics"><thead><tr><th>score</th><th>mean</th>'
        f"<th>median</th><th>defined</th><th>below {cut:g}</th></tr></thead><tbody>"
    )
    for column in columns:
        stats = column_stats(values[column], cut)
        below = "–" if stats.share_below_cut is None else f"{100 * stats.share_below_cut:.1f}%"
        out.append(
            f'<tr><td>{_text(column_label(*column))}</td><td class="num">{_number(stats.mean)}</td>'
            f'<td class="num">{_number(stats.median)}</td><td class="num">{stats.defined}/{stats.total}'
            f'</td><td class="num">{below}</td></tr>'
        )
    out.append("</tbody></table>")
    out.append(
        f'<p class="label">Means are over the examples where a score is defined; "below {cut:g}" is '
        "the share of those examples scoring under the cut (on each score's own scale).</p>"
    )
    if has_labels:
        out.extend(_agreement_section(columns, values, labels, label_field))
    out.extend(_dimension_section(records))
    if summary and summary.get("metrics"):
        out.append("<h2>Signatures</h2><table><tbody>")
        for metric, entry in summary["metrics"].items():
            counters = entry.get("counters") or {}
            extra = ("<br>" + ", ".join(f"{_text(k)}={_text(v)}" for k, v in counters.items())) if counters else ""
            out.append(
                f'<tr><td>{_text(metric)}</td><td class="signature">{_text(entry.get("signature"))}{extra}</td></tr>'
            )
        out.append("</tbody></table>")

    out.extend(_charts_section(records, columns, values, labels if has_labels else None, options))

    position_label = _position(records[0])[0] if records else "line"
    out.append("<h2>Examples</h2>")
    if len(shown) < len(records):
        out.append(
            f'<p class="note" id="sampled">This page shows {len(shown)} of the {len(records)} examples, '
            f"an even sample (about one in {len(records) / len(shown):.3g}, the first included); the "
            "statistics, plots and agreement above use all of them. Write more with "
            "<code>--max-examples</code>.</p>"
        )
    out.append(
        '<p class="label">Click a score\'s header to sort. Marks: '
        '<mark class="hs-span hs-supported">supported</mark> '
        '<mark class="hs-span hs-unsupported">unsupported</mark> '
        '<mark class="hs-span hs-contradicted">contradicted</mark> '
        '<mark class="hs-span hs-evidence">evidence in the source</mark> '
        '<mark class="hs-span hs-contradicting">contradicting text in the source</mark>; '
        "bold entity, italic relation, dotted underline quantity.</p>"
    )
    controls = [
        '<div class="controls"><input id="filter" type="search" placeholder="filter: id or any text" '
        'aria-label="filter the examples">'
    ]
    if has_labels:
        controls.append(
            '<label>label <select id="label-filter"><option value="">all</option>'
            '<option value="1">1 (consistent)</option><option value="0">0 (inconsistent)</option>'
            "</select></label>"
        )
    controls.append(
        '<button id="page-previous" type="button">previous</button><span id="page-info"></span>'
        '<button id="page-next" type="button">next</button></div>'
    )
    out.append("".join(controls))
    first_score = 3 if has_labels else 2
    out.append(
        f'<table id="examples" data-page-size="{page_size}"><thead><tr><th data-col="0">{position_label}'
        "</th><th>id</th>" + ('<th data-col="2">label</th>' if has_labels else "")
    )
    for k, column in enumerate(columns):
        out.append(f'<th data-col="{k + first_score}">{_text(column_label(*column))}</th>')
    out.append("<th>example</th></tr></thead><tbody>")
    for index in shown:
        record = records[index]
        _, position = _position(record)
        cells = [
            f'<td class="num" data-value="{_text(position)}">{_text(position)}</td>',
            f"<td>{_text(record.get('id'))}</td>",
        ]
        label_value = labels[index]
        if has_labels:
            shown_label = "–" if label_value is None else label_value
            cells.append(
                f'<td class="num" data-value="{"" if label_value is None else label_value}">{_text(shown_label)}</td>'
            )
        for column in columns:
            value = values[column][index]
            defined = not math.isnan(value)
            cells.append(
                f'<td class="num" data-value="{repr(value) if defined else ""}">'
                f"{_number(value if defined else None, 3)}</td>"
            )
        cells.append(f'<td class="text">{_example_cell(record)}</td>')
        label_attribute = f' data-label="{label_value}"' if label_value is not None else ""
        out.append(f'<tr class="example" data-position="{_text(position)}"{label_attribute}>{"".join(cells)}</tr>')
    out.append(f"</tbody></table><script>{_TABLE_JS}</script></body></html>")
    return "\n".join(out)


def write_report(
    input_path: str,
    output_path: str,
    summary_path: str | None = None,
    cut: float = 0.5,
    title: str | None = None,
    label_field: str = "label",
    page_size: int = 50,
    max_examples: int = 1000,
    summary: Mapping[str, Any] | None = None,
) -> int:
    """Write the report of ``input_path`` to ``output_path``; return the number of
    examples. The run's summary is ``summary``, or read from ``summary_path``."""
    records = load_records(input_path)
    if summary is None and summary_path is not None:
        with open(summary_path, encoding="utf-8") as handle:
            summary = json.load(handle)
    document = build_report(
        records, summary, cut=cut, title=title, label_field=label_field, page_size=page_size, max_examples=max_examples
    )
    with open(output_path, "w", encoding="utf-8") as handle:
        handle.write(document)
    return len(records)
