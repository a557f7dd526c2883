"""The dlsd_acu tab's pure layer: the NLI models a visitor may choose, one summary scored
with dlsd_acu into a plain dict (units, evidence highlighted, a ``message``) and its unit
table; never raises (docs/space.md)."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from typing import Any

from .. import highlight
from ..registry import NLI, ModelNotAvailableError, resolve
from .display import _number, format_score, table_html
from .limits import InputProblem, _problem_message, check_texts, run_with_budget
from .metric_module import MetricModule

LOGGER = logging.getLogger("halluscope.space")


#: comma-separated extra NLI models (local folders or hub names) a Space owner allows
SPACE_NLI_MODELS_ENV = "HALLUSCOPE_SPACE_NLI_MODELS"
#: the decomposer of the Space's dlsd_acu tab (offline: only the NLI model is needed)
SPACE_DECOMPOSER = "rules"
#: column names of the dlsd_acu unit table
ACU_COLUMNS = ("unit", "type", "score", "evidence")


def allowed_nli_models() -> list[str]:
    """The NLI models a user may choose: the registry's choice (``HALLUSCOPE_NLI_MODEL``
    or the paper's default), the paper's default, then the Space owner's list in
    ``HALLUSCOPE_SPACE_NLI_MODELS`` (comma-separated); duplicates dropped."""
    extra = [name.strip() for name in os.environ.get(SPACE_NLI_MODELS_ENV, "").split(",") if name.strip()]
    names: list[str] = []
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
    return (
        f"The NLI model {model} is not available in this app, so dlsd_acu cannot score here. "
        "The CHI-family metrics (chi, ehi, rhi, qhi) do not need it. To score with dlsd_acu, run "
        "halluscope on your own computer (see the dlsd_acu metric card)."
    )


def acu_for_display(
    source: str,
    summary: str,
    *,
    nli_model: str | None = None,
    host: str = "fizz",
    dl_acu: str = "auto",
    decomposer: str = SPACE_DECOMPOSER,
    nli_scorer=None,
    time_budget_s: float | None = None,
    module: MetricModule | None = None,
) -> dict[str, Any]:
    """Score one summary with dlsd_acu and return what the page shows: ``score``,
    ``units`` (rows of :data:`ACU_COLUMNS`; ``score`` is the unit's entailment
    probability), ``dropped`` (units the filter removed, with the reason),
    ``source_html`` (each unit's evidence highlighted), ``model``, ``signature``,
    ``ok`` and ``message``. ``nli_model`` must be one of :func:`allowed_nli_models`
    (None: the first); ``nli_scorer`` replaces the model (tests); ``module``: the
    dlsd_acu app's evaluate module, loaded per request with the chosen model (None:
    :func:`halluscope.api.score_dlsd_acu`); scoring stops after ``time_budget_s``
    seconds (default :func:`time_budget`). Never raises."""
    model = nli_model or allowed_nli_models()[0]
    empty: dict[str, Any] = {
        "ok": False,
        "score": None,
        "units": [],
        "dropped": [],
        "source_html": "",
        "model": model,
        "signature": "",
    }
    try:
        check_texts(source, summary)
        if nli_scorer is None and model not in allowed_nli_models():
            raise InputProblem(
                f"The NLI model {model!r} is not one this app offers: choose among "
                f"{', '.join(allowed_nli_models())} (the Space owner adds models with "
                f"{SPACE_NLI_MODELS_ENV})."
            )
        from ..api import score_dlsd_acu

        models = {"nli_scorer": nli_scorer} if nli_scorer is not None else {"nli_model": model}
        options = {"host": host, "dl_acu": dl_acu, "decomposer": decomposer, "return_details": True}
        if module is not None:
            if module.name != "dlsd_acu":
                raise ValueError(f"the {module.name} app's module cannot score dlsd_acu")
            result = run_with_budget(
                module.compute, [summary], [source], model_options=models, **options, budget=time_budget_s
            )
        else:
            result = run_with_budget(score_dlsd_acu, [summary], [source], **models, **options, budget=time_budget_s)
        row = result["details"][0]
    except ModelNotAvailableError as error:
        return {**empty, "message": nli_unavailable_message(model, error)}
    except ImportError as error:
        return {**empty, "message": nli_unavailable_message(model, error)}
    except Exception as error:  # every failure becomes a message on the page
        return {**empty, "message": _problem_message(error)}
    units = [
        {"unit": u["text"], "type": u["type"], "score": float(u["score"]), "evidence": u["evidence"]["text"]}
        for u in row.get("units", [])
    ]
    message = "" if units else "The summary gave no units to check (nothing was scored)."
    if row.get("document_resolved"):
        message = (
            "Coreference rewrote the source before matching, so the evidence spans refer to the "
            "rewritten text and are not drawn on the source."
        )
    return {
        "ok": True,
        "message": message,
        "score": _number(result["dlsd_acu_scores"][0]),
        "units": units,
        "dropped": [{"unit": d["text"], "reason": d["reason"]} for d in row.get("dropped_acus", [])],
        "source_html": highlight.render_html(source, highlight.acu_evidence_highlights(row)),
        "model": model,
        "signature": result.get("signature", ""),
    }


def acu_table_html(display: Mapping[str, Any]) -> str:
    """The dlsd_acu unit table (:data:`ACU_COLUMNS`) of an :func:`acu_for_display`
    result as HTML; "" when no unit was scored."""
    if not display.get("units"):
        return ""
    rows = [[u["unit"], u["type"], format_score(u["score"]), u["evidence"]] for u in display["units"]]
    return table_html(ACU_COLUMNS, rows, numeric=("score",), wide=("unit", "evidence"))
