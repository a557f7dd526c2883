"""The combined Hugging Face Space and the per-metric apps, in one module.

Two layers, kept apart so that the logic is tested without a browser:

* pure functions — :func:`score_for_display` (CHI family) and :func:`acu_for_display`
  (dlsd_acu) take the texts and options and return plain dicts: score rows, chart
  rows, highlighted HTML and a ``message``. They never raise: bad input, a missing
  model or a failing scorer become a ``message`` for the page (the traceback goes
  to the server log only);
* gradio wiring — :func:`build_space` (the Space in ``spaces/halluscope/app.py``)
  and :func:`build_metric_app` (``metrics/<name>/app.py``, replacing evaluate's
  stock widget, which crashes on gradio >= 4). gradio is imported only there.

Decisions:

* inputs are capped in characters (:data:`MAX_SOURCE_CHARS`, :data:`MAX_REFERENCE_CHARS`,
  :data:`MAX_SUMMARY_CHARS`) and in spaCy tokens (:data:`MAX_SOURCE_TOKENS`, ...), since
  parsing costs time per token and a text of numbers and symbols holds twice the tokens
  of prose of its length; a longer text is refused with a message, never cut;
* several CHI-family metrics are scored with one ``score_chi`` call (its EHI, RHI*
  and QHI equal the single-metric calls); a single metric uses its own function.
  The Space's RHI is RHI* (softmax), the variant CHI fuses, unless ``variant`` is
  passed (the rhi app offers linear, the metric's default, and softmax);
* NLI models are not free text: the dropdown offers the registry's default (or
  ``HALLUSCOPE_NLI_MODEL``) and the names the Space owner lists, comma-separated,
  in ``HALLUSCOPE_SPACE_NLI_MODELS``; the Space decomposes with the offline rule
  splitter so that the NLI model is the only model it needs;
* the page CSS (:data:`PAGE_CSS`) is given to the Blocks constructor so that a bare
  ``demo.launch()`` applies it (gradio 6 also reads it from there, with a
  deprecation warning that is silenced here);
* user text is never markup: Markdown components show it through
  :func:`markdown_text` (HTML and Markdown syntax escaped), the highlighted panels
  through :func:`halluscope.highlight.render_html` (HTML-escaped), tables and the
  signature as plain text;
* each request scores within a time budget (:func:`run_with_budget`,
  ``HALLUSCOPE_SPACE_SECONDS``, default 30 s) and the apps queue their requests
  with a concurrency limit (``HALLUSCOPE_SPACE_CONCURRENCY``, default 1;
  ``HALLUSCOPE_SPACE_QUEUE`` waiting requests, default 16), see docs/space.md.
"""
from __future__ import annotations

import ctypes
import html
import logging
import math
import os
import re
import threading
import time
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from . import highlight
from .dimensions import get as get_dimension
from .dimensions import names
from .examples import load_examples
from .options import CHI_FAMILY, METRIC_SPECS, METRICS, Option, space_controls
from .registry import NLI, ModelNotAvailableError, resolve
from .validation import validate_inputs

LOGGER = logging.getLogger(__name__)

#: the longest texts the apps accept, in characters (longer ones get a message)
MAX_SOURCE_CHARS = 20_000
MAX_REFERENCE_CHARS = 3_000
MAX_SUMMARY_CHARS = 3_000
#: ... and in spaCy tokens (:func:`count_tokens`): above the most any SummaC or FRANK
#: text has within the character caps (4,337 tokens in 20,000 characters, 789 in 3,000),
#: while a text of amounts or percentages ("$37m $74m ...") has 0.5 tokens a character
#: against prose's 0.2 and took 2.2 s at the character caps on a 2-core CPU
#: (docs/space.md#input-caps)
MAX_SOURCE_TOKENS = 4_500
MAX_REFERENCE_TOKENS = 800
MAX_SUMMARY_TOKENS = 800
#: text -> (character cap, token cap)
CAPS = {"source": (MAX_SOURCE_CHARS, MAX_SOURCE_TOKENS), "reference": (MAX_REFERENCE_CHARS, MAX_REFERENCE_TOKENS),
        "summary": (MAX_SUMMARY_CHARS, MAX_SUMMARY_TOKENS)}

#: every metric with an app of its own (``metrics/<name>/app.py``)
METRIC_APPS = METRICS

#: comma-separated extra NLI models (local folders or hub names) a Space owner allows
SPACE_NLI_MODELS_ENV = "HALLUSCOPE_SPACE_NLI_MODELS"
#: the decomposer of the Space's dlsd_acu tab (offline: only the NLI model is needed)
SPACE_DECOMPOSER = "rules"

#: column names of the CHI-family score table
SCORE_COLUMNS = ("metric", "score", "summary units", "unsupported", "contradicted", "note")
#: column names of the dlsd_acu unit table
ACU_COLUMNS = ("unit", "type", "score", "evidence")

PAGE_CSS = highlight.CSS + """\
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

_CHI_NOTE = "harmonic mean of the defined dimensions (eq. 21-22)"


class InputProblem(ValueError):
    """Input the apps refuse; its text is shown to the user as it is."""


# ------------------------------------------------------------ safety: text, time, load

#: seconds one request may score (environment variable; default :data:`DEFAULT_TIME_BUDGET`)
TIME_BUDGET_ENV = "HALLUSCOPE_SPACE_SECONDS"
DEFAULT_TIME_BUDGET = 30.0
#: requests scored at once, and requests waiting in the queue (environment variables)
CONCURRENCY_ENV = "HALLUSCOPE_SPACE_CONCURRENCY"
QUEUE_SIZE_ENV = "HALLUSCOPE_SPACE_QUEUE"
DEFAULT_CONCURRENCY = 1
DEFAULT_QUEUE_SIZE = 16

_MARKDOWN_SYNTAX = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>:])")


def markdown_text(text: str) -> str:
    """``text`` for a Markdown component, shown as written: HTML special characters
    become entities (an ``<img>`` is shown, never fetched) and Markdown syntax is
    backslash-escaped (no links, emphasis or headings)."""
    return _MARKDOWN_SYNTAX.sub(r"\\\1", html.escape(str(text), quote=False))


def _env_number(name: str, default: float, kind: type = float) -> Any:
    """A positive number from the environment variable ``name`` (``default`` when unset
    or not a positive number)."""
    try:
        value = kind(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default


def time_budget() -> float:
    """Seconds one request may score: ``HALLUSCOPE_SPACE_SECONDS`` or 30."""
    return _env_number(TIME_BUDGET_ENV, DEFAULT_TIME_BUDGET)


class BudgetExceeded(Exception):
    """A request ran past its time budget; its text is shown to the user."""


class _Stop(BaseException):
    """Raised inside a scoring thread that ran past its budget (a BaseException, so
    that no ``except Exception`` in the scoring code swallows it)."""


#: one scoring thread at a time per process; a thread stopped for its budget holds it
#: until it has really stopped, so runaway work never piles up
_WORKER_GATE = threading.Lock()


def _stop_thread(thread: threading.Thread) -> None:
    """Raise :class:`_Stop` in ``thread`` at its next Python instruction (CPython's
    ``PyThreadState_SetAsyncExc``; work inside one long C call stops when it returns)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(_Stop))


def run_with_budget(function: Callable[..., Any], *args: Any, budget: Optional[float] = None,
                    **kwargs: Any) -> Any:
    """``function(*args, **kwargs)`` in a scoring thread, waiting at most ``budget``
    seconds (default :func:`time_budget`), counted from the call, so a wait for an
    earlier stopped request counts too. Past the budget the thread is stopped and
    :class:`BudgetExceeded` raised with a message for the page; the function's own
    exceptions are raised as they are."""
    budget = time_budget() if budget is None else budget
    deadline = time.monotonic() + budget
    if not _WORKER_GATE.acquire(timeout=budget):
        raise BudgetExceeded(f"The app is still stopping an earlier request that ran past its time budget "
                             f"({budget:g} s); try again in a moment.")
    outcome: Dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = function(*args, **kwargs)
        except _Stop:
            pass
        except BaseException as error:  # handed to the caller
            outcome["error"] = error
        finally:
            _WORKER_GATE.release()

    thread = threading.Thread(target=work, name="halluscope-space-scoring", daemon=True)
    thread.start()
    thread.join(max(0.0, deadline - time.monotonic()))
    if thread.is_alive():
        _stop_thread(thread)
        raise BudgetExceeded(f"Scoring took longer than {budget:g} s, this app's time budget per request, and "
                             "was stopped. Shorter texts score faster; the halluscope package and the "
                             "evaluate metrics have no time limit.")
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


# --------------------------------------------------------------------------- inputs


def count_tokens(text: str) -> int:
    """The number of spaCy tokens of ``text`` as the default pipeline's tokenizer
    (with the parser's guard against pathological runs) splits it; linear time."""
    from .parsing import guarded_doc
    from .resources import get_parse_cache

    return len(guarded_doc(get_parse_cache().nlp, text))


def check_texts(source: str, summary: str, reference: str = "") -> None:
    """Raise :class:`InputProblem` for an empty source or summary or an over-long text
    (:data:`CAPS`: characters first, then tokens), and the API's
    :class:`~halluscope.errors.InputError` for a text no model can read."""
    texts = {"source": source, "summary": summary, "reference": reference}
    for label, text in texts.items():
        if text is not None and not isinstance(text, str):
            raise InputProblem(f"The {label} must be text, got {type(text).__name__}.")
    if not (source or "").strip():
        raise InputProblem("The source is empty: paste the document the summary was written from.")
    if not (summary or "").strip():
        raise InputProblem("The summary is empty: paste the summary to check.")
    advice = ("Shorten it (nothing was cut); for longer texts use the halluscope package or the evaluate "
              "metric directly.")
    for label, (max_chars, _) in CAPS.items():
        if len(texts[label] or "") > max_chars:
            raise InputProblem(f"The {label} is too long: {len(texts[label]):,} characters, this app accepts at "
                               f"most {max_chars:,}. {advice}")
    # the API's own checks (lone surrogates, invisible-only texts) before spaCy's tokenizer sees the texts
    validate_inputs([summary], [source], [reference] if reference else None)
    for label, (_, max_tokens) in CAPS.items():
        tokens = count_tokens(texts[label]) if texts[label] else 0
        if tokens > max_tokens:
            raise InputProblem(f"The {label} is too long: {tokens:,} tokens (words, numbers and symbols), this "
                               f"app accepts at most {max_tokens:,}. {advice}")


def _problem_message(error: BaseException) -> str:
    """The page's text for an exception from scoring."""
    if isinstance(error, (InputProblem, BudgetExceeded)):
        return str(error)
    if isinstance(error, ModelNotAvailableError):
        return f"A model is not available: {error}"
    if isinstance(error, (ValueError, TypeError)):
        return f"The input was refused: {error}"
    LOGGER.exception("scoring failed")
    return f"Scoring failed ({type(error).__name__}): {error}"


def _number(value: Any) -> Optional[float]:
    """``value`` as a float, None when missing or NaN."""
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) else value


def format_score(value: Optional[float]) -> str:
    """A score with four decimals, ``"undefined"`` for None/NaN."""
    value = None if value is None else _number(value)
    return "undefined" if value is None else f"{value:.4f}"


# ------------------------------------------------------------------ CHI family


def _chosen_metrics(metrics: Sequence[str]) -> List[str]:
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


def _run_chi_family(chosen: Sequence[str], source: str, reference: str, summary: str,
                    publication_date: Optional[str], options: Mapping[str, Any]) -> Dict[str, Any]:
    """One API call covering ``chosen`` (:func:`halluscope.api.score_metric`): chi for chi
    or several dimensions, else the single metric; the publication date only for a metric
    that takes dates (``MetricSpec.takes_dates``)."""
    from . import api

    call_options = dict(options)
    metric = "chi" if "chi" in chosen or len(chosen) > 1 else chosen[0]
    if metric == "rhi":  # the Space shows RHI* (the softmax RHI that CHI fuses) unless asked
        call_options.setdefault("variant", "softmax")
    dated = {"publication_dates": [publication_date]} if publication_date and METRIC_SPECS[metric].takes_dates else {}
    return api.score_metric(metric, [summary], [source], [reference], return_details=True, **dated, **call_options)


def _score_rows(chosen: Sequence[str], result: Mapping[str, Any], row: Mapping[str, Any],
                rhi_variant: str) -> List[Dict[str, Any]]:
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
        rows.append({"metric": dimension, "score": score, "summary units": len(units),
                     "unsupported": sum(u["status"] == "unsupported" for u in units),
                     "contradicted": sum(u["status"] == "contradicted" for u in units), "note": note})
        for extra, extra_note in get_dimension(dimension).extra_notes.items():
            if f"{extra}_scores" in result:
                rows.append({"metric": extra, "score": _number(result[f"{extra}_scores"][0]),
                             "summary units": None, "unsupported": None, "contradicted": None, "note": extra_note})
    if "chi" in chosen:
        rows.append({"metric": "chi", "score": _number(result["chi_scores"][0]), "summary units": None,
                     "unsupported": None, "contradicted": None, "note": _chi_note(result, row)})
    return rows


def undefined_note(dimension: str, detail: Optional[Mapping[str, Any]], reference_free: bool) -> str:
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
    note = _CHI_NOTE
    words = row.get("words") or {}
    share = words.get("score")
    if share is None:
        return note
    units = words.get("units", [])
    supported = sum(u["status"] == "supported" for u in units)
    counted = (f"w = {share:.0%}: {supported} of {len(units)} of the summary's content words the source "
               f"supports, {words.get('written_share', 0.0):.0%} of its content tokens found as written")
    if all(_number(result[f"{d}_scores"][0]) is None for d in names()):
        note = f"no units in any dimension: {counted}"
    else:
        note += f", mixed with {counted}"
    contradicted = [u["text"] for u in units if u["status"] == "contradicted"]
    if contradicted:
        note += f"; contradicted by the source: {', '.join(contradicted)}"
    return note


def _chart_rows(chosen: Sequence[str], row: Mapping[str, Any]) -> Tuple[List[Dict[str, Any]], str]:
    """Bars of each chosen dimension's factor profile, or of its supported/unsupported
    unit counts (and contradicted ones, when it has any) when it has no factors (the
    default support formula, and reference-free rows); and a note saying which."""
    bars: List[Dict[str, Any]] = []
    profiled, counted = [], []
    for dimension in names():
        detail = row.get(dimension)
        if not detail or (dimension not in chosen and "chi" not in chosen):
            continue
        label = dimension.upper()
        if detail.get("factors"):
            profiled.append(label)
            bars += [{"dimension": dimension, "bar": f"{label} {name}", "value": float(value)}
                     for name, value in detail["factors"].items()]
        else:
            counted.append(label)
            statuses = [u["status"] for u in detail.get("units", [])]
            shown = ("supported", "unsupported") + (("contradicted",) if "contradicted" in statuses else ())
            bars += [{"dimension": dimension, "bar": f"{label} {status}", "value": float(statuses.count(status))}
                     for status in shown]
    notes = []
    if profiled:
        notes.append(f"Factor profile of {', '.join(profiled)} (EF, PH, OF, NH, LF, LH "
                     "as defined in the metric cards).")
    if counted:
        notes.append(f"Supported and unsupported summary units of {', '.join(counted)} (the score is the "
                     "supported share; contradicted units, when there are any, count as unsupported and have "
                     "a bar of their own; factor profiles exist only under formula=\"paper\" with a "
                     "reference).")
    return bars, " ".join(notes)


def _empty_display(message: str) -> Dict[str, Any]:
    return {"ok": False, "message": message, "scores": [], "chart": [], "chart_note": "",
            "summary_html": "", "source_html": "", "signature": "", "reference_free": None}


def score_for_display(source: str, reference: str, summary: str, metrics: Sequence[str] = ("chi",), *,
                      publication_date: Optional[str] = None,
                      options: Optional[Mapping[str, Any]] = None,
                      time_budget_s: Optional[float] = None) -> Dict[str, Any]:
    """Score one summary with the chosen CHI-family ``metrics`` and return what the
    page shows: ``scores`` (rows of :data:`SCORE_COLUMNS`, raw floats, None when
    undefined), ``chart`` (rows ``dimension, bar, value``) and ``chart_note``,
    ``summary_html`` / ``source_html`` (units and source evidence highlighted),
    ``signature``, ``reference_free``, ``ok`` and ``message`` ("" on success).
    ``reference`` "" scores reference-free; ``publication_date`` (ISO) resolves
    relative dates (QHI); ``options`` go to the API function used; scoring stops after
    ``time_budget_s`` seconds (default :func:`time_budget`) with a message. Never raises."""
    try:
        check_texts(source, summary, reference)
        chosen = _chosen_metrics(metrics)
        reference = reference or ""
        date = (publication_date or "").strip() or None
        result = run_with_budget(_run_chi_family, chosen, source, reference, summary, date, options or {},
                                 budget=time_budget_s)
        row = result["details"][0]
        variant = (options or {}).get("variant", "softmax")
        rows = _score_rows(chosen, result, row, variant)
        bars, note = _chart_rows(chosen, row)
        shown = {d: row[d] for d in names() if d in row and ("chi" in chosen or d in chosen)}
    except Exception as error:  # every failure becomes a message on the page
        return _empty_display(_problem_message(error))
    return {
        "ok": True, "message": "", "scores": rows, "chart": bars, "chart_note": note,
        "summary_html": highlight.render_html(summary, highlight.summary_highlights(shown)),
        "source_html": highlight.render_html(source, highlight.source_highlights(shown)),
        "signature": result.get("signature", ""), "reference_free": bool(row.get("reference_free")),
    }


def headline_markdown(display: Mapping[str, Any]) -> str:
    """One line with every score of a :func:`score_for_display` result."""
    if not display.get("ok"):
        return ""
    parts = [f"{row['metric'].upper()} **{format_score(row['score'])}**" for row in display["scores"]]
    mode = " (reference-free)" if display.get("reference_free") else ""
    return " · ".join(parts) + mode


# --------------------------------------------------------------------- dlsd_acu


def allowed_nli_models() -> List[str]:
    """The NLI models a user may choose: the registry's choice (``HALLUSCOPE_NLI_MODEL``
    or the paper's default), the paper's default, then the Space owner's list in
    ``HALLUSCOPE_SPACE_NLI_MODELS`` (comma-separated); duplicates dropped."""
    extra = [name.strip() for name in os.environ.get(SPACE_NLI_MODELS_ENV, "").split(",") if name.strip()]
    names: List[str] = []
    for name in (resolve(NLI), NLI.paper_default, *extra):
        if name not in names:
            names.append(name)
    return names


def nli_unavailable_message(model: str, error: BaseException) -> str:
    """What the dlsd_acu tab tells a visitor when the NLI model ``model`` cannot be
    loaded: in plain words, inside the tab; the loader's own words go to the server log
    (how an owner installs a model: docs/space.md#nli-models-dlsd_acu)."""
    cause = error.__cause__ or error
    said = (str(cause).strip().splitlines() or [type(cause).__name__])[0]
    LOGGER.warning("NLI model %s could not be loaded: %s", model, said)
    return (f"The NLI model {model} is not available in this app, so dlsd_acu cannot score here. "
            "The CHI-family metrics (chi, ehi, rhi, qhi) do not need it. To score with dlsd_acu, run "
            "halluscope on your own computer (see the dlsd_acu metric card).")


def acu_for_display(source: str, summary: str, *, nli_model: Optional[str] = None, host: str = "fizz",
                    dl_acu: str = "auto", decomposer: str = SPACE_DECOMPOSER, nli_scorer=None,
                    time_budget_s: Optional[float] = None) -> Dict[str, Any]:
    """Score one summary with dlsd_acu and return what the page shows: ``score``,
    ``units`` (rows of :data:`ACU_COLUMNS`; ``score`` is the unit's entailment
    probability), ``dropped`` (units the filter removed, with the reason),
    ``source_html`` (each unit's evidence highlighted), ``model``, ``signature``,
    ``ok`` and ``message``. ``nli_model`` must be one of :func:`allowed_nli_models`
    (None: the first); ``nli_scorer`` replaces the model (tests); scoring stops after
    ``time_budget_s`` seconds (default :func:`time_budget`). Never raises."""
    model = nli_model or allowed_nli_models()[0]
    empty = {"ok": False, "score": None, "units": [], "dropped": [], "source_html": "", "model": model,
             "signature": ""}
    try:
        check_texts(source, summary)
        if nli_scorer is None and model not in allowed_nli_models():
            raise InputProblem(f"The NLI model {model!r} is not one this app offers: choose among "
                               f"{', '.join(allowed_nli_models())} (the Space owner adds models with "
                               f"{SPACE_NLI_MODELS_ENV}).")
        from .api import score_dlsd_acu

        result = run_with_budget(score_dlsd_acu, [summary], [source], host=host, dl_acu=dl_acu,
                                 decomposer=decomposer, nli_model=None if nli_scorer is not None else model,
                                 nli_scorer=nli_scorer, return_details=True, budget=time_budget_s)
        row = result["details"][0]
    except ModelNotAvailableError as error:
        return {**empty, "message": nli_unavailable_message(model, error)}
    except ImportError as error:
        return {**empty, "message": nli_unavailable_message(model, error)}
    except Exception as error:  # every failure becomes a message on the page
        return {**empty, "message": _problem_message(error)}
    units = [{"unit": u["text"], "type": u["type"], "score": float(u["score"]), "evidence": u["evidence"]["text"]}
             for u in row.get("units", [])]
    message = "" if units else "The summary gave no units to check (nothing was scored)."
    if row.get("document_resolved"):
        message = ("Coreference rewrote the source before matching, so the evidence spans refer to the "
                   "rewritten text and are not drawn on the source.")
    return {
        "ok": True, "message": message, "score": _number(result["dlsd_acu_scores"][0]), "units": units,
        "dropped": [{"unit": d["text"], "reason": d["reason"]} for d in row.get("dropped_acus", [])],
        "source_html": highlight.render_html(source, highlight.acu_evidence_highlights(row)),
        "model": model, "signature": result.get("signature", ""),
    }


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
    choices: Tuple[Any, ...] = ()
    bounds: Tuple[float, float, float] = (0.0, 1.0, 0.01)
    meanings: Tuple[Tuple[Any, Any], ...] = ()

    @classmethod
    def of(cls, option: Option) -> "OptionControl":
        control = option.control
        choices = control.shown or option.choices
        shown_default = next((shown for shown, value in control.meanings if value == option.default
                              and type(value) is type(option.default)), option.default)
        return cls(option.name, control.label, control.kind, shown_default, tuple(choices), control.bounds,
                   control.meanings)

    def api_value(self, shown: Any) -> Any:
        """The API keyword's value for the control's value ``shown``."""
        return dict(self.meanings).get(shown, shown)


def app_options(name: str, shown: Sequence[Any]) -> Dict[str, Any]:
    """The API keywords of metric app ``name`` from its controls' values, in
    :data:`METRIC_OPTIONS` order."""
    return {option.name: option.api_value(value) for option, value in zip(METRIC_OPTIONS[name], shown)}


def space_options(chosen: Sequence[str], shown: Sequence[Any]) -> Dict[str, Any]:
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
METRIC_OPTIONS: Dict[str, Tuple[OptionControl, ...]] = {
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
    return app.queue(max_size=_env_number(QUEUE_SIZE_ENV, DEFAULT_QUEUE_SIZE, int),
                     default_concurrency_limit=_env_number(CONCURRENCY_ENV, DEFAULT_CONCURRENCY, int))


def _control(gr, option: OptionControl):
    if option.kind == "radio":
        return gr.Radio(list(option.choices), value=option.default, label=option.label,
                        elem_id=f"hs-opt-{option.name}")
    if option.kind == "slider":
        low, high, step = option.bounds
        return gr.Slider(low, high, value=option.default, step=step, label=option.label,
                         elem_id=f"hs-opt-{option.name}")
    return gr.Checkbox(value=option.default, label=option.label, elem_id=f"hs-opt-{option.name}")


def _text_inputs(gr, *, with_reference: bool = True, with_date: bool = True):
    """Source, reference, summary and publication-date boxes (None where left out)."""
    with gr.Row():
        source = gr.Textbox(label=f"Source document (at most {MAX_SOURCE_CHARS:,} characters)", lines=9,
                            elem_id="hs-source")
        with gr.Column():
            reference = gr.Textbox(
                label=f"Reference summary (optional, at most {MAX_REFERENCE_CHARS:,}; empty = reference-free)",
                lines=3, elem_id="hs-reference") if with_reference else None
            summary = gr.Textbox(label=f"Summary to check (at most {MAX_SUMMARY_CHARS:,} characters)", lines=3,
                                 elem_id="hs-summary")
            date = gr.Textbox(label="Publication date (optional, YYYY-MM-DD: resolves 'last Tuesday')",
                              elem_id="hs-date") if with_date else None
    return source, reference, summary, date


def _examples(gr, source, reference, summary, date) -> None:
    """The project's examples, one click fills the boxes."""
    examples = load_examples()
    boxes = [box for box in (source, reference, summary, date) if box is not None]
    rows = []
    for example in examples:
        values = {"source": example["source"], "reference": example["reference"],
                  "summary": example["prediction"], "date": example.get("publication_date") or ""}
        rows.append([values[key] for key, box in zip(("source", "reference", "summary", "date"),
                                                     (source, reference, summary, date)) if box is not None])
    labels = [f"{e['id']} ({'faithful' if e['faithful'] else 'hallucinated'})" for e in examples]
    gr.Examples(examples=rows, inputs=boxes, example_labels=labels, examples_per_page=len(rows),
                label="Examples: click one to fill the boxes", cache_examples=False)


def table_html(columns: Sequence[str], rows: Sequence[Sequence[Any]], *, numeric: Sequence[str] = (),
               wide: Sequence[str] = (), elem_class: str = "hs-table") -> str:
    """An HTML table of ``rows`` under ``columns``, every cell HTML-escaped text (None
    is an empty cell). The browser sizes the columns: a header never wraps (no column
    is narrower than its header), ``numeric`` columns are right-aligned and never
    wrap, ``wide`` columns (notes, evidence) wrap at word boundaries and take the
    room that is left, so nothing is cut off (the table scrolls sideways only on a
    screen too narrow for its headers)."""
    kinds = ["hs-num" if name in numeric else "hs-wide" if name in wide else "" for name in columns]
    head = "".join(f'<th scope="col">{html.escape(str(name))}</th>' for name in columns)
    body = "".join(
        "<tr>" + "".join((f'<td class="{kind}">' if kind else "<td>") + ("" if cell is None else html.escape(str(cell)))
                         + "</td>" for kind, cell in zip(kinds, row)) + "</tr>"
        for row in rows)
    return (f'<div class="hs-table-wrap"><table class="{elem_class}"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def score_table_html(display: Mapping[str, Any]) -> str:
    """The CHI-family score table (:data:`SCORE_COLUMNS`) of a :func:`score_for_display`
    result as HTML; "" when nothing was scored."""
    if not display.get("scores"):
        return ""
    rows = [[row["metric"], format_score(row["score"]), row["summary units"], row["unsupported"],
             row["contradicted"], row["note"]] for row in display["scores"]]
    return table_html(SCORE_COLUMNS, rows, numeric=SCORE_COLUMNS[1:5], wide=("note",))


def acu_table_html(display: Mapping[str, Any]) -> str:
    """The dlsd_acu unit table (:data:`ACU_COLUMNS`) of an :func:`acu_for_display`
    result as HTML; "" when no unit was scored."""
    if not display.get("units"):
        return ""
    rows = [[u["unit"], u["type"], format_score(u["score"]), u["evidence"]] for u in display["units"]]
    return table_html(ACU_COLUMNS, rows, numeric=("score",), wide=("unit", "evidence"))


def _chi_outputs(gr):
    """Headline, score table, chart with its note, and the two highlighted panels."""
    headline = gr.Markdown(elem_id="hs-headline")
    table = gr.HTML(elem_id="hs-scores")
    chart_note = gr.Markdown(elem_id="hs-chart-note")
    chart = gr.BarPlot(x="bar", y="value", color="dimension", label="Factor profile / unit counts",
                       elem_id="hs-chart", y_lim=None)
    gr.HTML(LEGEND_HTML)
    with gr.Row():
        with gr.Column():
            gr.Markdown("**Summary** (units marked)")
            summary_html = gr.HTML(elem_id="hs-summary-html", elem_classes=["hs-panel"])
        with gr.Column():
            gr.Markdown("**Source** (evidence marked)")
            source_html = gr.HTML(elem_id="hs-source-html", elem_classes=["hs-panel"])
    signature = gr.Textbox(label="signature (compare two scores only when these agree)", interactive=False,
                           elem_id="hs-signature")
    return [headline, table, chart_note, chart, summary_html, source_html, signature]


def _chi_updates(gr, display: Mapping[str, Any]) -> list:
    """Component values for :func:`_chi_outputs` plus the status line (first)."""
    import pandas as pd

    table = score_table_html(display)
    bars = pd.DataFrame(display["chart"], columns=["dimension", "bar", "value"])
    chart = gr.BarPlot(value=bars, sort=[b["bar"] for b in display["chart"]] or None)
    status = f"**{markdown_text(display['message'])}**" if display["message"] else "Scored."
    return [status, headline_markdown(display), table, display["chart_note"], chart,
            display["summary_html"], display["source_html"], display["signature"]]


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
        headline = (f"DLSD_ACU **{format_score(display['score'])}** with {markdown_text(display['model'])} "
                    f"({kept} unit{'' if kept == 1 else 's'} scored, {dropped} dropped by the filter)")
    status = markdown_text(display["message"]) if display["message"] else "Scored."
    return [status, headline, units, display["source_html"], display["signature"]]


def _guarded(callback: Callable[..., list], n_outputs: int) -> Callable[..., list]:
    """``callback`` with any exception turned into a status message (first output)."""
    def run(*args):
        try:
            return callback(*args)
        except Exception as error:  # the page shows a message, the log keeps the traceback
            LOGGER.exception("app callback failed")
            return ([f"**Something went wrong ({type(error).__name__}): {markdown_text(error)}**"]
                    + [None] * (n_outputs - 1))
    return run


def _acu_controls(gr, *, with_decomposer: bool):
    models = allowed_nli_models()
    model = gr.Dropdown(models, value=models[0], label="NLI model (offered by the Space owner)",
                        allow_custom_value=False, elem_id="hs-nli-model")
    host = gr.Radio(["fizz", "fenice"], value="fizz", label="host (fizz: min over units; fenice: mean)",
                    elem_id="hs-host")
    dl_acu = gr.Radio(["auto", "dep", "none"], value="auto",
                      label="discourse-link units (auto: AMR when installed, else dependency links)",
                      elem_id="hs-dl-acu")
    decomposer = gr.Radio(["rules", "seq2seq"], value=SPACE_DECOMPOSER,
                          label="decomposer (rules: offline; seq2seq: the paper's claim extractor)",
                          elem_id="hs-decomposer") if with_decomposer else None
    return model, host, dl_acu, decomposer


def _wire_acu(gr, button, status, source, summary, model, host, dl_acu, decomposer) -> None:
    outputs = _acu_outputs(gr)

    def run(source_text, summary_text, model_name, host_name, dl_name, *rest):
        chosen_decomposer = rest[0] if rest else SPACE_DECOMPOSER
        display = acu_for_display(source_text, summary_text, nli_model=model_name, host=host_name,
                                  dl_acu=dl_name, decomposer=chosen_decomposer)
        return _acu_updates(display)

    inputs = [source, summary, model, host, dl_acu] + ([decomposer] if decomposer is not None else [])
    button.click(_guarded(run, 1 + len(outputs)), inputs=inputs, outputs=[status] + outputs)


def build_space():
    """The combined Space: text boxes, examples, a CHI-family tab (metrics, scores,
    factor chart, highlighted summary and source) and a dlsd_acu tab."""
    gr = _gradio()
    with _blocks("halluscope: hallucination metrics for summaries") as demo:
        gr.Markdown("# halluscope\nHow faithful is a summary to its source? Paste a source, an optional "
                    "reference and a summary (or click an example), choose metrics and press **Score**. "
                    "Entities, relations and quantities of the summary are matched against the source "
                    "and reference; unsupported ones are marked red, contradicted ones (the source says "
                    "the opposite) purple.")
        source, reference, summary, date = _text_inputs(gr)
        _examples(gr, source, reference, summary, date)
        with gr.Tabs():
            with gr.Tab("CHI family (offline models)", id="chi-family"):
                metrics = gr.CheckboxGroup(list(CHI_FAMILY), value=["chi"], elem_id="hs-metrics",
                                           label="Metrics (chi includes EHI, RHI* and QHI)")
                with gr.Accordion("Options (each metric uses those it has)", open=False):
                    controls = [_control(gr, option) for option in METRIC_OPTIONS["chi"]]
                score_button = gr.Button("Score", variant="primary", elem_id="hs-score")
                status = gr.Markdown(elem_id="hs-status")
                outputs = _chi_outputs(gr)

                def run_chi(source_text, reference_text, summary_text, date_text, chosen, *shown):
                    display = score_for_display(source_text, reference_text, summary_text, chosen or [],
                                                publication_date=date_text,
                                                options=space_options(chosen or [], shown))
                    return _chi_updates(gr, display)

                score_button.click(_guarded(run_chi, 1 + len(outputs)),
                                   inputs=[source, reference, summary, date, metrics] + controls,
                                   outputs=[status] + outputs)
            with gr.Tab("dlsd_acu (NLI model)", id="dlsd-acu"):
                gr.Markdown("Reference-free: the summary is split into atomic units (offline rule splitter) and "
                            "each is checked against the source by an NLI model. The reference box is not used.")
                model, host, dl_acu, _ = _acu_controls(gr, with_decomposer=False)
                acu_button = gr.Button("Score with dlsd_acu", variant="primary", elem_id="hs-acu-score")
                acu_status = gr.Markdown(elem_id="hs-acu-status")
                _wire_acu(gr, acu_button, acu_status, source, summary, model, host, dl_acu, None)
    return queued(demo)


def build_metric_app(name: str):
    """A small app for one metric (chi, ehi, rhi, qhi or dlsd_acu): its text boxes,
    its main options, the score and the highlighted summary (or units, for dlsd_acu)."""
    if name not in METRIC_APPS:
        raise ValueError(f"no app for metric {name!r}; choose among {', '.join(METRIC_APPS)}")
    gr = _gradio()
    with _blocks(f"halluscope · {name}") as app:
        gr.Markdown(f"# {_TITLES[name]}\nPart of halluscope; see the metric card for every option.")
        if name == "dlsd_acu":
            source, _, summary, _ = _text_inputs(gr, with_reference=False, with_date=False)
            _examples(gr, source, None, summary, None)
            model, host, dl_acu, decomposer = _acu_controls(gr, with_decomposer=True)
            button = gr.Button("Score", variant="primary", elem_id="hs-acu-score")
            status = gr.Markdown(elem_id="hs-acu-status")
            _wire_acu(gr, button, status, source, summary, model, host, dl_acu, decomposer)
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
            display = score_for_display(source_text, reference_text, summary_text, (name,),
                                        publication_date=date_text, options=options)
            return _chi_updates(gr, display)

        inputs = [source, reference, summary] + ([date] if dated else []) + controls
        button.click(_guarded(run, 1 + len(outputs)), inputs=inputs, outputs=[status] + outputs)
    return queued(app)
