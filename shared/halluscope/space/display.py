"""The apps' pure layer for the CHI family: texts and options in, plain dicts out (score
rows, chart rows, highlighted HTML, a ``message``); never raises (docs/space.md); and the
HTML tables the apps show. The dlsd_acu tab's layer is :mod:`.acu_display`."""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from typing import Any

from .. import highlight
from ..dimensions import get as get_dimension
from ..dimensions import names
from ..option_types import CHI_FAMILY, METRIC_SPECS
from ..signature import recorded_option
from .limits import InputProblem, _problem_message, check_texts, run_with_budget
from .metric_module import MetricModule

#: column names of the CHI-family score table
SCORE_COLUMNS = ("metric", "score", "summary units", "unsupported", "contradicted", "note")

LEGEND_HTML = (
    '<div class="hs-legend">'
    '<mark class="hs-span hs-unsupported">unsupported</mark>'
    '<mark class="hs-span hs-contradicted">contradicted (the source says the opposite)</mark>'
    '<mark class="hs-span hs-supported">supported</mark>'
    '<mark class="hs-span hs-evidence">source evidence</mark>'
    '<mark class="hs-span hs-contradicting">contradicting source text</mark>'
    '<mark class="hs-span hs-plain hs-ehi">entity (bold)</mark>'
    '<mark class="hs-span hs-plain hs-rhi">relation (italic)</mark>'
    '<mark class="hs-span hs-plain hs-qhi">quantity (dotted underline)</mark>'
    "</div>"
)

#: the chi row's note by formula: the papers' fusion of their indices, or the same
#: harmonic mean over halluscope's support scores, which are not the papers' equations
_CHI_NOTES = {
    "paper": "harmonic mean of the defined dimensions (CHI paper eq. 21-22)",
    "support": "harmonic mean of the defined dimensions' supported shares (halluscope's support "
    "scores, not the papers' factor formulas)",
}


def _number(value: Any) -> float | None:
    """``value`` as a float, None when missing or NaN."""
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) else value


def format_score(value: float | None) -> str:
    """A score with four decimals, ``"undefined"`` for None/NaN."""
    value = None if value is None else _number(value)
    return "undefined" if value is None else f"{value:.4f}"


# ------------------------------------------------------------------ CHI family


def _chosen_metrics(metrics: Sequence[str]) -> list[str]:
    """The chosen CHI-family metrics, deduplicated, in :data:`CHI_FAMILY` order."""
    if isinstance(metrics, str):
        metrics = [metrics]
    unknown = [m for m in metrics or () if m not in CHI_FAMILY]
    if unknown:
        raise InputProblem(f"Unknown metric {unknown[0]!r}: choose among {', '.join(CHI_FAMILY)}.")
    chosen = [m for m in CHI_FAMILY if m in (metrics or ())]
    if not chosen:
        raise InputProblem("Choose at least one metric.")
    return chosen


def _run_chi_family(
    chosen: Sequence[str],
    source: str,
    reference: str,
    summary: str,
    publication_date: str | None,
    options: Mapping[str, Any],
    module: MetricModule | None = None,
) -> Mapping[str, Any]:
    """One scoring call covering ``chosen``: chi for chi or several dimensions, else the
    single metric; the publication date only for a metric that takes dates
    (``MetricSpec.takes_dates``). Through ``module`` (a metric app's own evaluate
    module, which must be that metric's) when given, else
    :func:`halluscope.api.score_metric` (the combined Space)."""
    from .. import api

    call_options = dict(options)
    metric = "chi" if "chi" in chosen or len(chosen) > 1 else chosen[0]
    if metric == "rhi":  # the Space shows RHI* (the softmax RHI that CHI fuses) unless asked
        call_options.setdefault("variant", "softmax")
    dated: dict[str, Any] = (
        {"publication_dates": [publication_date]} if publication_date and METRIC_SPECS[metric].takes_dates else {}
    )
    if module is not None:
        if module.name != metric:
            raise ValueError(f"the {module.name} app's module cannot score {metric}")
        return module.compute([summary], [source], [reference], return_details=True, **dated, **call_options)
    return api.score_metric(metric, [summary], [source], [reference], return_details=True, **dated, **call_options)


def _score_rows(
    chosen: Sequence[str], result: Mapping[str, Any], row: Mapping[str, Any], rhi_variant: str
) -> list[dict[str, Any]]:
    """One row per chosen dimension, every dimension when chi is chosen (then
    rhi_norm for linear RHI, then chi)."""
    rows = []
    for dimension in names():
        if dimension not in chosen and "chi" not in chosen:
            continue
        units = (row.get(dimension) or {}).get("units", [])
        note = get_dimension(dimension).note(rhi_variant)
        score = _number(result[f"{dimension}_scores"][0])
        if score is None:
            note = undefined_note(dimension, row.get(dimension), bool(row.get("reference_free")))
        rows.append(
            {
                "metric": dimension,
                "score": score,
                "summary units": len(units),
                "unsupported": sum(u["status"] == "unsupported" for u in units),
                "contradicted": sum(u["status"] == "contradicted" for u in units),
                "note": note,
            }
        )
        for extra, extra_note in get_dimension(dimension).extra_notes.items():
            if f"{extra}_scores" in result:
                rows.append(
                    {
                        "metric": extra,
                        "score": _number(result[f"{extra}_scores"][0]),
                        "summary units": None,
                        "unsupported": None,
                        "contradicted": None,
                        "note": extra_note,
                    }
                )
    if "chi" in chosen:
        rows.append(
            {
                "metric": "chi",
                "score": _number(result["chi_scores"][0]),
                "summary units": None,
                "unsupported": None,
                "contradicted": None,
                "note": _chi_note(result, row),
            }
        )
        p = _number(result["p_consistent_scores"][0]) if "p_consistent_scores" in result else None
        if p is not None:
            rows.append(
                {
                    "metric": "p_consistent",
                    "score": p,
                    "summary units": None,
                    "unsupported": None,
                    "contradicted": None,
                    "note": _verdict_note(result),
                }
            )
    return rows


def _verdict_note(result: Mapping[str, Any]) -> str:
    """The label at the cut, in words, and what p is."""
    labels = result.get("labels")
    said = (
        ""
        if not labels or labels[0] is None
        else ("consistent" if labels[0] == 1 else "likely inconsistent") + " at the shipped cut; "
    )
    return said + "probability consistent, calibrated at even odds (XSum-style summaries score low)"


def undefined_note(dimension: str, detail: Mapping[str, Any] | None, reference_free: bool) -> str:
    """The note of an undefined dimension: which of the texts have none of its units,
    from the dimension's unit counts (``details[k][dimension]["counts"]``: ``g``
    summary, ``i`` source, ``r`` reference), e.g. "undefined: no relations in the
    summary or the reference (3 in the source)". The reference is left out of a
    reference-free row."""
    units = get_dimension(dimension).units
    counts = (detail or {}).get("counts") or {}
    texts = [("summary", counts.get("g")), ("source", counts.get("i"))]
    if not reference_free:
        texts.append(("reference", counts.get("r")))
    if any(count is None for _, count in texts):
        return f"undefined: no {units} to compare"
    lacking = [f"the {name}" for name, count in texts if not count]
    having = [f"{count} in the {name}" for name, count in texts if count]
    listed = lacking[0] if len(lacking) == 1 else f"{', '.join(lacking[:-1])} or {lacking[-1]}"
    return f"undefined: no {units} in {listed}" + (f" ({', '.join(having)})" if having else "")


def _chi_note(result: Mapping[str, Any], row: Mapping[str, Any]) -> str:
    """The chi row's note: the fusion, and the word-level support w it is mixed with
    (``details["words"]``, under formula="support"), naming the contradicted words."""
    formula = "paper" if recorded_option(result.get("signature"), "formula") == "paper" else "support"
    note = _CHI_NOTES[formula]
    words = row.get("words") or {}
    share = words.get("score")
    if share is None:
        return note
    units = words.get("units", [])
    supported = sum(u["status"] == "supported" for u in units)
    counted = (
        f"w = {share:.0%}: {supported} of {len(units)} of the summary's content words the source "
        f"supports, {words.get('written_share', 0.0):.0%} of its content tokens found as written"
    )
    if all(_number(result[f"{d}_scores"][0]) is None for d in names()):
        note = f"no units in any dimension: {counted}"
    else:
        note += f", mixed with {counted}"
    contradicted = [u["text"] for u in units if u["status"] == "contradicted"]
    if contradicted:
        note += f"; contradicted by the source: {', '.join(contradicted)}"
    return note


def _chart_rows(chosen: Sequence[str], row: Mapping[str, Any]) -> tuple[list[dict[str, Any]], str]:
    """Bars of each chosen dimension's factor profile, or of its supported/unsupported
    unit counts (and contradicted ones, when it has any) when it has no factors (the
    default support formula, and reference-free rows); and a note saying which."""
    bars: list[dict[str, Any]] = []
    profiled, counted = [], []
    for dimension in names():
        detail = row.get(dimension)
        if not detail or (dimension not in chosen and "chi" not in chosen):
            continue
        label = dimension.upper()
        if detail.get("factors"):
            profiled.append(label)
            bars += [
                {"dimension": dimension, "bar": f"{label} {name}", "value": float(value)}
                for name, value in detail["factors"].items()
            ]
        else:
            counted.append(label)
            statuses = [u["status"] for u in detail.get("units", [])]
            shown = ("supported", "unsupported") + (("contradicted",) if "contradicted" in statuses else ())
            bars += [
                {"dimension": dimension, "bar": f"{label} {status}", "value": float(statuses.count(status))}
                for status in shown
            ]
    notes = []
    if profiled:
        notes.append(
            f"Factor profile of {', '.join(profiled)} (EF, PH, OF, NH, LF, LH as defined in the metric cards)."
        )
    if counted:
        notes.append(
            f"Supported and unsupported summary units of {', '.join(counted)} (the score is the "
            "supported share; contradicted units, when there are any, count as unsupported and have "
            'a bar of their own; factor profiles exist only under formula="paper" with a '
            "reference)."
        )
    return bars, " ".join(notes)


def _empty_display(message: str) -> dict[str, Any]:
    return {
        "ok": False,
        "message": message,
        "scores": [],
        "chart": [],
        "chart_note": "",
        "summary_html": "",
        "source_html": "",
        "signature": "",
        "reference_free": None,
    }


def score_for_display(
    source: str,
    reference: str,
    summary: str,
    metrics: Sequence[str] = ("chi",),
    *,
    publication_date: str | None = None,
    options: Mapping[str, Any] | None = None,
    time_budget_s: float | None = None,
    module: MetricModule | None = None,
) -> dict[str, Any]:
    """Score one summary with the chosen CHI-family ``metrics`` and return what the
    page shows: ``scores`` (rows of :data:`SCORE_COLUMNS`, raw floats, None when
    undefined), ``chart`` (rows ``dimension, bar, value``) and ``chart_note``,
    ``summary_html`` / ``source_html`` (units and source evidence highlighted),
    ``signature``, ``reference_free``, ``ok`` and ``message`` ("" on success).
    ``reference`` "" scores reference-free; ``publication_date`` (ISO) resolves
    relative dates (QHI); ``options`` go to the API function used, or to ``module``'s
    ``compute`` (a metric app scores through its evaluate module); scoring stops after
    ``time_budget_s`` seconds (default :func:`time_budget`) with a message. Never raises."""
    try:
        check_texts(source, summary, reference)
        chosen = _chosen_metrics(metrics)
        reference = reference or ""
        date = (publication_date or "").strip() or None
        result = run_with_budget(
            _run_chi_family, chosen, source, reference, summary, date, options or {}, module, budget=time_budget_s
        )
        row = result["details"][0]
        variant = (options or {}).get("variant", "softmax")
        rows = _score_rows(chosen, result, row, variant)
        bars, note = _chart_rows(chosen, row)
        shown = {d: row[d] for d in names() if d in row and ("chi" in chosen or d in chosen)}
    except Exception as error:  # every failure becomes a message on the page
        return _empty_display(_problem_message(error))
    return {
        "ok": True,
        "message": "",
        "scores": rows,
        "chart": bars,
        "chart_note": note,
        # the summary with its units marked, then why each flagged unit is flagged
        "summary_html": highlight.render_html(summary, highlight.summary_highlights(shown))
        + highlight.reasons_html(shown),
        "source_html": highlight.render_html(source, highlight.source_highlights(shown)),
        "signature": result.get("signature", ""),
        "reference_free": bool(row.get("reference_free")),
    }


def headline_markdown(display: Mapping[str, Any]) -> str:
    """One line with every score of a :func:`score_for_display` result."""
    if not display.get("ok"):
        return ""
    parts = [
        f"{'p(consistent)' if row['metric'] == 'p_consistent' else row['metric'].upper()} "
        f"**{format_score(row['score'])}**"
        for row in display["scores"]
    ]
    mode = " (reference-free)" if display.get("reference_free") else ""
    return " · ".join(parts) + mode


def table_html(
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    numeric: Sequence[str] = (),
    wide: Sequence[str] = (),
    elem_class: str = "hs-table",
) -> str:
    """An HTML table of ``rows`` under ``columns``, every cell HTML-escaped text (None
    is an empty cell). The browser sizes the columns: a header never wraps (no column
    is narrower than its header), ``numeric`` columns are right-aligned and never
    wrap, ``wide`` columns (notes, evidence) wrap at word boundaries and take the
    room that is left, so nothing is cut off (the table scrolls sideways only on a
    screen too narrow for its headers)."""
    kinds = ["hs-num" if name in numeric else "hs-wide" if name in wide else "" for name in columns]
    head = "".join(f'<th scope="col">{html.escape(str(name))}</th>' for name in columns)
    body = "".join(
        "<tr>"
        + "".join(
            (f'<td class="{kind}">' if kind else "<td>") + ("" if cell is None else html.escape(str(cell))) + "</td>"
            for kind, cell in zip(kinds, row, strict=True)
        )
        + "</tr>"
        for row in rows
    )
    return (
        f'<div class="hs-table-wrap"><table class="{elem_class}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def score_table_html(display: Mapping[str, Any]) -> str:
    """The CHI-family score table (:data:`SCORE_COLUMNS`) of a :func:`score_for_display`
    result as HTML; "" when nothing was scored."""
    if not display.get("scores"):
        return ""
    rows = [
        [
            row["metric"],
            format_score(row["score"]),
            row["summary units"],
            row["unsupported"],
            row["contradicted"],
            row["note"],
        ]
        for row in display["scores"]
    ]
    return table_html(SCORE_COLUMNS, rows, numeric=SCORE_COLUMNS[1:5], wide=("note",))
