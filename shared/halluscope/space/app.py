"""The gradio wiring: the combined Space (:func:`build_space`) and the per-metric apps
(:func:`build_metric_app`); gradio is imported only here."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import highlight
from ..examples import load_examples
from ..option_types import CHI_FAMILY, METRIC_SPECS, METRICS, Option
from ..options import space_controls
from .acu_display import SPACE_DECOMPOSER, acu_for_display, acu_table_html, allowed_nli_models
from .display import LEGEND_HTML, format_score, headline_markdown, score_for_display, score_table_html
from .limits import (
    CONCURRENCY_ENV,
    DEFAULT_CONCURRENCY,
    DEFAULT_QUEUE_SIZE,
    MAX_REFERENCE_CHARS,
    MAX_SOURCE_CHARS,
    MAX_SUMMARY_CHARS,
    QUEUE_SIZE_ENV,
    _env_number,
    markdown_text,
)
from .metric_module import MetricModule

LOGGER = logging.getLogger("halluscope.space")


#: every metric with an app of its own (``metrics/<name>/app.py``)
METRIC_APPS = METRICS
#: the API name of a metric app's score button (``gradio_client``: ``client.predict(..., api_name="/score")``)
SCORE_ENDPOINT = "score"

PAGE_CSS = (
    highlight.CSS
    + """\
.hs-panel { border: 1px solid #e5e7eb; border-radius: 6px; padding: 8px 10px; min-height: 3em; }
.hs-table-wrap { overflow-x: auto; }
.hs-table { width: 100%; border-collapse: collapse; table-layout: auto; margin: 0; }
.hs-table th, .hs-table td { text-align: left; vertical-align: top; padding: 4px 10px;
  border-bottom: 1px solid var(--border-color-primary, #e5e7eb); word-break: normal; overflow-wrap: normal; }
.hs-table th { white-space: nowrap; font-weight: 600; }
.hs-table td.hs-num { white-space: nowrap; text-align: right; font-variant-numeric: tabular-nums; }
.hs-table td.hs-wide { min-width: 16em; }
.hs-legend mark { margin-right: 6px; }
.hs-legend mark.hs-plain { background: #f3f4f6; }
"""
)


# ----------------------------------------------------------------- gradio wiring


@dataclass(frozen=True)
class OptionControl:
    """One option of a metric app, as the Space shows it: the API keyword ``name``, a
    control ``kind`` (radio | slider | checkbox), its shown ``default``, ``choices`` or
    ``bounds``, and ``meanings``: (shown choice, API value) pairs where the two differ.
    Built from the option's declaration (:data:`halluscope.options.OPTIONS`) by
    :meth:`of`."""

    name: str
    label: str
    kind: str
    default: Any
    choices: tuple[Any, ...] = ()
    bounds: tuple[float, float, float] = (0.0, 1.0, 0.01)
    meanings: tuple[tuple[Any, Any], ...] = ()

    @classmethod
    def of(cls, option: Option) -> OptionControl:
        control = option.control
        if control is None:  # space_controls() hands over only options with a control
            raise ValueError(f"option {option.name!r} has no Space control")
        choices = control.shown or option.choices
        shown_default = next(
            (
                shown
                for shown, value in control.meanings
                if value == option.default and type(value) is type(option.default)
            ),
            option.default,
        )
        return cls(
            option.name, control.label, control.kind, shown_default, tuple(choices), control.bounds, control.meanings
        )

    def api_value(self, shown: Any) -> Any:
        """The API keyword's value for the control's value ``shown``."""
        return dict(self.meanings).get(shown, shown)


def app_options(name: str, shown: Sequence[Any]) -> dict[str, Any]:
    """The API keywords of metric app ``name`` from its controls' values, in
    :data:`METRIC_OPTIONS` order."""
    return {option.name: option.api_value(value) for option, value in zip(METRIC_OPTIONS[name], shown, strict=True)}


def space_options(chosen: Sequence[str], shown: Sequence[Any]) -> dict[str, Any]:
    """The API keywords of the combined Space's options panel (the chi app's
    controls, values ``shown``) for the metrics ``chosen``: all of them when one
    ``score_chi`` call covers the choice, else those of the single metric's app."""
    options = app_options("chi", shown)
    chosen = [metric for metric in chosen if metric in CHI_FAMILY]
    if "chi" in chosen or len(chosen) != 1:
        return options
    names = {option.name for option in METRIC_OPTIONS[chosen[0]]}
    return {name: value for name, value in options.items() if name in names}


#: the main options each CHI-family app offers, from their declarations (the metric
#: cards list them all)
METRIC_OPTIONS: dict[str, tuple[OptionControl, ...]] = {
    app: tuple(OptionControl.of(option) for option in space_controls(app)) for app in CHI_FAMILY
}

_TITLES = {name: spec.title for name, spec in METRIC_SPECS.items()}


def _gradio():
    import gradio

    return gradio


def _blocks(title: str):
    """A Blocks with :data:`PAGE_CSS` as page CSS that a bare ``launch()`` applies."""
    gr = _gradio()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*moved from the Blocks constructor.*")
        return gr.Blocks(title=title, css=PAGE_CSS, analytics_enabled=False)


def queued(app):
    """``app`` with its request queue: at most ``HALLUSCOPE_SPACE_CONCURRENCY``
    requests (default 1) scored at once, ``HALLUSCOPE_SPACE_QUEUE`` (default 16)
    waiting; a request beyond that is refused by gradio with "queue full"."""
    return app.queue(
        max_size=_env_number(QUEUE_SIZE_ENV, DEFAULT_QUEUE_SIZE, int),
        default_concurrency_limit=_env_number(CONCURRENCY_ENV, DEFAULT_CONCURRENCY, int),
    )


def _control(gr, option: OptionControl):
    if option.kind == "radio":
        return gr.Radio(list(option.choices), value=option.default, label=option.label, elem_id=f"hs-opt-{option.name}")
    if option.kind == "slider":
        low, high, step = option.bounds
        return gr.Slider(
            low, high, value=option.default, step=step, label=option.label, elem_id=f"hs-opt-{option.name}"
        )
    return gr.Checkbox(value=option.default, label=option.label, elem_id=f"hs-opt-{option.name}")


def _text_inputs(gr, *, with_reference: bool = True, with_date: bool = True):
    """Source, reference, summary and publication-date boxes (None where left out)."""
    with gr.Row():
        source = gr.Textbox(
            label=f"Source document (at most {MAX_SOURCE_CHARS:,} characters)", lines=9, elem_id="hs-source"
        )
        with gr.Column():
            reference = (
                gr.Textbox(
                    label=f"Reference summary (optional, at most {MAX_REFERENCE_CHARS:,}; empty = reference-free)",
                    lines=3,
                    elem_id="hs-reference",
                )
                if with_reference
                else None
            )
            summary = gr.Textbox(
                label=f"Summary to check (at most {MAX_SUMMARY_CHARS:,} characters)", lines=3, elem_id="hs-summary"
            )
            date = (
                gr.Textbox(label="Publication date (optional, YYYY-MM-DD: resolves 'last Tuesday')", elem_id="hs-date")
                if with_date
                else None
            )
    return source, reference, summary, date


def _examples(gr, source, reference, summary, date) -> None:
    """The project's examples, one click fills the boxes."""
    examples = load_examples()
    boxes = [box for box in (source, reference, summary, date) if box is not None]
    rows = []
    for example in examples:
        values = {
            "source": example["source"],
            "reference": example["reference"],
            "summary": example["prediction"],
            "date": example.get("publication_date") or "",
        }
        rows.append(
            [
                values[key]
                for key, box in zip(
                    ("source", "reference", "summary", "date"), (source, reference, summary, date), strict=True
                )
                if box is not None
            ]
        )
    labels = [f"{e['id']} ({'faithful' if e['faithful'] else 'hallucinated'})" for e in examples]
    gr.Examples(
        examples=rows,
        inputs=boxes,
        example_labels=labels,
        examples_per_page=len(rows),
        label="Examples: click one to fill the boxes",
        cache_examples=False,
    )


def _chi_outputs(gr):
    """Headline, score table, chart with its note, and the two highlighted panels."""
    headline = gr.Markdown(elem_id="hs-headline")
    table = gr.HTML(elem_id="hs-scores")
    chart_note = gr.Markdown(elem_id="hs-chart-note")
    chart = gr.BarPlot(
        x="bar", y="value", color="dimension", label="Factor profile / unit counts", elem_id="hs-chart", y_lim=None
    )
    gr.HTML(LEGEND_HTML)
    with gr.Row():
        with gr.Column():
            gr.Markdown("**Summary** (units marked)")
            summary_html = gr.HTML(elem_id="hs-summary-html", elem_classes=["hs-panel"])
        with gr.Column():
            gr.Markdown("**Source** (evidence marked)")
            source_html = gr.HTML(elem_id="hs-source-html", elem_classes=["hs-panel"])
    signature = gr.Textbox(
        label="signature (compare two scores only when these agree)", interactive=False, elem_id="hs-signature"
    )
    return [headline, table, chart_note, chart, summary_html, source_html, signature]


def _chi_updates(gr, display: Mapping[str, Any]) -> list:
    """Component values for :func:`_chi_outputs` plus the status line (first)."""
    import pandas as pd

    table = score_table_html(display)
    bars = pd.DataFrame(display["chart"], columns=["dimension", "bar", "value"])
    chart = gr.BarPlot(value=bars, sort=[b["bar"] for b in display["chart"]] or None)
    status = f"**{markdown_text(display['message'])}**" if display["message"] else "Scored."
    return [
        status,
        headline_markdown(display),
        table,
        display["chart_note"],
        chart,
        display["summary_html"],
        display["source_html"],
        display["signature"],
    ]


def _acu_outputs(gr):
    headline = gr.Markdown(elem_id="hs-acu-headline")
    units = gr.HTML(elem_id="hs-acu-units")
    gr.Markdown("**Source** (each unit's best evidence marked)")
    source_html = gr.HTML(elem_id="hs-acu-source-html", elem_classes=["hs-panel"])
    signature = gr.Textbox(label="signature", interactive=False, elem_id="hs-acu-signature")
    return [headline, units, source_html, signature]


def _acu_updates(display: Mapping[str, Any]) -> list:
    units = acu_table_html(display)
    headline = ""
    if display["ok"]:
        kept, dropped = len(display["units"]), len(display["dropped"])
        headline = (
            f"DLSD_ACU **{format_score(display['score'])}** with {markdown_text(display['model'])} "
            f"({kept} unit{'' if kept == 1 else 's'} scored, {dropped} dropped by the filter)"
        )
    status = markdown_text(display["message"]) if display["message"] else "Scored."
    return [status, headline, units, display["source_html"], display["signature"]]


def _guarded(callback: Callable[..., list], n_outputs: int) -> Callable[..., list]:
    """``callback`` with any exception turned into a status message (first output)."""

    def run(*args):
        try:
            return callback(*args)
        except Exception as error:  # the page shows a message, the log keeps the traceback
            LOGGER.exception("app callback failed")
            return [f"**Something went wrong ({type(error).__name__}): {markdown_text(error)}**"] + [None] * (
                n_outputs - 1
            )

    return run


def _acu_controls(gr, *, with_decomposer: bool):
    models = allowed_nli_models()
    model = gr.Dropdown(
        models,
        value=models[0],
        label="NLI model (offered by the Space owner)",
        allow_custom_value=False,
        elem_id="hs-nli-model",
    )
    host = gr.Radio(
        ["fizz", "fenice"], value="fizz", label="host (fizz: min over units; fenice: mean)", elem_id="hs-host"
    )
    dl_acu = gr.Radio(
        ["auto", "dep", "none"],
        value="auto",
        label="discourse-link units (auto: AMR when installed, else dependency links)",
        elem_id="hs-dl-acu",
    )
    decomposer = (
        gr.Radio(
            ["rules", "seq2seq"],
            value=SPACE_DECOMPOSER,
            label="decomposer (rules: offline; seq2seq: the paper's claim extractor)",
            elem_id="hs-decomposer",
        )
        if with_decomposer
        else None
    )
    return model, host, dl_acu, decomposer


def _wire_acu(
    gr,
    button,
    status,
    source,
    summary,
    model,
    host,
    dl_acu,
    decomposer,
    module: MetricModule | None = None,
    api_name: str | None = None,
) -> None:
    outputs = _acu_outputs(gr)

    def run(source_text, summary_text, model_name, host_name, dl_name, *rest):
        chosen_decomposer = rest[0] if rest else SPACE_DECOMPOSER
        display = acu_for_display(
            source_text,
            summary_text,
            nli_model=model_name,
            host=host_name,
            dl_acu=dl_name,
            decomposer=chosen_decomposer,
            module=module,
        )
        return _acu_updates(display)

    inputs = [source, summary, model, host, dl_acu] + ([decomposer] if decomposer is not None else [])
    button.click(_guarded(run, 1 + len(outputs)), inputs=inputs, outputs=[status] + outputs, api_name=api_name)


def build_space():
    """The combined Space: text boxes, examples, a CHI-family tab (metrics, scores,
    factor chart, highlighted summary and source) and a dlsd_acu tab."""
    gr = _gradio()
    with _blocks("halluscope: hallucination metrics for summaries") as demo:
        gr.Markdown(
            "# halluscope\nHow faithful is a summary to its source? Paste a source, an optional "
            "reference and a summary (or click an example), choose metrics and press **Score**. "
            "Entities, relations and quantities of the summary are matched against the source "
            "and reference; unsupported ones are marked red, contradicted ones (the source says "
            "the opposite) purple."
        )
        source, reference, summary, date = _text_inputs(gr)
        _examples(gr, source, reference, summary, date)
        with gr.Tabs():
            with gr.Tab("CHI family (offline models)", id="chi-family"):
                metrics = gr.CheckboxGroup(
                    list(CHI_FAMILY),
                    value=["chi"],
                    elem_id="hs-metrics",
                    label="Metrics (chi includes EHI, RHI* and QHI)",
                )
                with gr.Accordion("Options (each metric uses those it has)", open=False):
                    controls = [_control(gr, option) for option in METRIC_OPTIONS["chi"]]
                score_button = gr.Button("Score", variant="primary", elem_id="hs-score")
                status = gr.Markdown(elem_id="hs-status")
                outputs = _chi_outputs(gr)

                def run_chi(source_text, reference_text, summary_text, date_text, chosen, *shown):
                    display = score_for_display(
                        source_text,
                        reference_text,
                        summary_text,
                        chosen or [],
                        publication_date=date_text,
                        options=space_options(chosen or [], shown),
                    )
                    return _chi_updates(gr, display)

                score_button.click(
                    _guarded(run_chi, 1 + len(outputs)),
                    inputs=[source, reference, summary, date, metrics] + controls,
                    outputs=[status] + outputs,
                )
            with gr.Tab("dlsd_acu (NLI model)", id="dlsd-acu"):
                gr.Markdown(
                    "Reference-free: the summary is split into atomic units (offline rule splitter) and "
                    "each is checked against the source by an NLI model. The reference box is not used."
                )
                model, host, dl_acu, _ = _acu_controls(gr, with_decomposer=False)
                acu_button = gr.Button("Score with dlsd_acu", variant="primary", elem_id="hs-acu-score")
                acu_status = gr.Markdown(elem_id="hs-acu-status")
                _wire_acu(gr, acu_button, acu_status, source, summary, model, host, dl_acu, None)
    return queued(demo)


def build_metric_app(name: str, module_folder: str | None = None):
    """A small app for one metric (chi, ehi, rhi, qhi or dlsd_acu): its text boxes,
    its main options, the score and the highlighted summary (or units, for dlsd_acu).

    ``module_folder``: the metric's folder (``metrics/<name>/``, where its ``app.py``
    lives); each request then scores through that folder's evaluate module
    (:class:`~.metric_module.MetricModule`, a fresh instance per request) and the
    highlighting reads the details it returns, so a broken module breaks its app.
    None scores with :mod:`halluscope.api` directly. The score button's endpoint is
    ``/score`` (:data:`SCORE_ENDPOINT`) for gradio's API clients."""
    if name not in METRIC_APPS:
        raise ValueError(f"no app for metric {name!r}; choose among {', '.join(METRIC_APPS)}")
    module = MetricModule(module_folder, name) if module_folder is not None else None
    gr = _gradio()
    with _blocks(f"halluscope · {name}") as app:
        gr.Markdown(f"# {_TITLES[name]}\nPart of halluscope; see the metric card for every option.")
        if name == "dlsd_acu":
            source, _, summary, _ = _text_inputs(gr, with_reference=False, with_date=False)
            _examples(gr, source, None, summary, None)
            model, host, dl_acu, decomposer = _acu_controls(gr, with_decomposer=True)
            button = gr.Button("Score", variant="primary", elem_id="hs-acu-score")
            status = gr.Markdown(elem_id="hs-acu-status")
            _wire_acu(gr, button, status, source, summary, model, host, dl_acu, decomposer, module, SCORE_ENDPOINT)
            return queued(app)
        dated = METRIC_SPECS[name].takes_dates
        source, reference, summary, date = _text_inputs(gr, with_date=dated)
        _examples(gr, source, reference, summary, date)
        option_specs = METRIC_OPTIONS[name]
        with gr.Accordion("Options", open=False):
            controls = [_control(gr, option) for option in option_specs]
        button = gr.Button("Score", variant="primary", elem_id="hs-score")
        status = gr.Markdown(elem_id="hs-status")
        outputs = _chi_outputs(gr)

        def run(source_text, reference_text, summary_text, *rest):
            date_text = rest[0] if dated else None
            values = rest[1:] if dated else rest
            options = app_options(name, values)
            display = score_for_display(
                source_text,
                reference_text,
                summary_text,
                (name,),
                publication_date=date_text,
                options=options,
                module=module,
            )
            return _chi_updates(gr, display)

        inputs = [source, reference, summary] + ([date] if dated else []) + controls
        button.click(
            _guarded(run, 1 + len(outputs)), inputs=inputs, outputs=[status] + outputs, api_name=SCORE_ENDPOINT
        )
    return queued(app)
