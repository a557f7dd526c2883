"""Every scoring option, declared once (docs/architecture.md#options-optionspy).

An :class:`Option` holds what every surface needs to know about one keyword: its
kind and allowed values, its default, the metrics that take it, its documentation,
whether it selects a model (a constructor argument of the evaluate modules) and how
the Space shows it. From :data:`OPTIONS` come

* validation and defaults: :func:`resolve` (unknown names are an
  :class:`~halluscope.errors.OptionError` listing the valid ones);
* the API functions' signatures (:func:`api_signature`) and the metric scripts'
  argument docs (:func:`options_doc`), which the cards' option tables are checked
  against (tests/test_options.py);
* the CLI's ``--option NAME=VALUE`` parsing (:func:`parse_cli_value`);
* the Space's controls (:func:`space_controls`);
* the presets :data:`PRESETS`, which ``evaluate.load(path, config_name)`` selects.

Adding an option is one declaration in the table plus its logic where it acts (a field
of :class:`halluscope.pipeline.ScoringOptions` or :class:`halluscope.acu.acu_options.AcuOptions`
of the same name, or of the name in ``Option.field``).

The table is assembled here from its rows, in one fixed order (the CLI's flags, the
cards' tables, the API signatures and the Space's controls follow it): the CHI
family's rows (:mod:`halluscope.chi_family_options`), dlsd_acu's
(:mod:`halluscope.dlsd_options`), then the rows of how a call runs (below). The types
(:class:`Option`, :class:`Control`, :class:`MetricSpec`, the choice tuples) are
defined in :mod:`halluscope.option_types`, which imports none of these, and stay
importable from here. The rows stay in this one central table rather than in the index
packages (``ehi/``, ``rhi/``, ``qhi/``): layers below the indices (validation,
``ScoringOptions``' defaults) read the table at import time, so rows declared in the
index packages would make the lowest layer import the highest.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import budget
from .chi_family_options import CHI_FAMILY_OPTIONS
from .dlsd_options import DLSD_OPTIONS
from .errors import OptionError
from .option_types import (
    AGGREGATIONS,
    ALIGNMENTS,
    CHI_FAMILY,
    COREF_BACKENDS,
    DECOMPOSERS,
    DL_ACU_BACKENDS,
    DTYPES,
    ENCODER_DTYPES,
    FORMULAS,
    GROUNDINGS,
    HOSTS,
    INTRANSITIVE_MODES,
    METRIC_SPECS,
    METRICS,
    NORMALIZATIONS,
    RELATION_MATCHING,
    RELATION_SLOTS,
    RHI_VARIANTS,
    Control,
    MetricSpec,
    Option,
)

#: the public names: the table's types and choices (defined in halluscope.option_types)
#: stay importable from here, the documented place of the options
__all__ = [
    "AGGREGATIONS",
    "ALIGNMENTS",
    "CARD_BEGIN",
    "CARD_END",
    "CHI_FAMILY",
    "COREF_BACKENDS",
    "DECOMPOSERS",
    "DL_ACU_BACKENDS",
    "DTYPES",
    "ENCODER_DTYPES",
    "FORMULAS",
    "GROUNDINGS",
    "HOSTS",
    "INTRANSITIVE_MODES",
    "MAX_WORKERS",
    "METRICS",
    "METRIC_SPECS",
    "NORMALIZATIONS",
    "OPTIONS",
    "PRESETS",
    "RELATION_MATCHING",
    "RELATION_SLOTS",
    "RHI_VARIANTS",
    "Control",
    "MetricSpec",
    "Option",
    "api_signature",
    "card_with_table",
    "cli_option_names",
    "fields",
    "model_option_names",
    "options_doc",
    "options_for",
    "options_table",
    "parse_cli_value",
    "preset",
    "resolve",
    "space_controls",
    "uses_device",
]

#: the most processes ``workers`` (and the CLI's ``--workers``) may start
MAX_WORKERS = 1024

#: the rows of how a call runs, after dlsd_acu's: ``workers`` (the CHI family) and
#: ``cache_mb`` (every metric)
_RUN_OPTIONS: tuple[Option, ...] = (
    Option(
        "workers",
        1,
        "int",
        bounds=(0, MAX_WORKERS),
        metrics=CHI_FAMILY,
        changes_scores=False,
        doc=(
            "processes that score the call's rows: 1 this one; N > 1 a pool of N forked "
            "processes, each scoring consecutive rows with the caller's models (about 0.4 GB "
            "more memory each); 0 one per core. Changes time, never a score "
            "(docs/scaling.md#workers)."
        ),
    ),
    # ---------------------------------------------------------------- every metric
    Option(
        "cache_mb",
        None,
        "int",
        bounds=(0, budget.MAX_MB),
        allow_none=True,
        metrics=METRICS,
        model=True,
        changes_scores=False,
        doc=(
            "memory budget of the process's caches (parses, units, text indexes, embeddings, NLI "
            f"scores, WordNet answers) in MB; None: the budget in force, ${budget.ENV} or {budget.DEFAULT_MB}. "
            "Shared by the process, so a value given stays in force for later calls; changes "
            "memory and time, never a score (docs/scaling.md#memory)."
        ),
    ),
)

#: every option of every metric, in the order the docs and the Space list them: the CHI
#: family's (:mod:`halluscope.chi_family_options`), dlsd_acu's
#: (:mod:`halluscope.dlsd_options`), then how a call runs
OPTIONS: tuple[Option, ...] = CHI_FAMILY_OPTIONS + DLSD_OPTIONS + _RUN_OPTIONS


def options_for(metric: str) -> dict[str, Option]:
    """The options ``metric`` takes, by name, in declaration order."""
    if metric not in METRICS:
        raise OptionError(f"unknown metric {metric!r}; metrics: {', '.join(METRICS)}", option="metric")
    return {option.name: option for option in OPTIONS if metric in option.metrics}


def uses_device(metric: str) -> bool:
    """Whether ``metric`` runs a torch model whose device and batch size can be chosen."""
    return "device" in options_for(metric)


#: presets by name (``evaluate.load(path, config_name)``, the CLI's ``--preset``,
#: ``Scorer(..., preset=)``): option values per metric, ``"*"`` for every metric that
#: takes the option. "paper" is the papers exactly: their formulas, unit-against-unit
#: matching, single-token relation slots, the RHI paper's triples, no truecasing, and
#: for CHI the CHI paper's sentence matching of relations (docs/papers.md).
PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "default": {},
    "paper": {
        "*": {
            "formula": "paper",
            "grounding": "units",
            "truecase": False,
            "relation_slots": "head",
            "intransitive": "none",
        },
        "chi": {"relation_matching": "sentence"},
    },
}


def preset(name: str, metric: str) -> dict[str, Any]:
    """The option values preset ``name`` sets for ``metric``."""
    if name not in PRESETS:
        raise OptionError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}", option="config_name")
    known = options_for(metric)
    values = {k: v for k, v in PRESETS[name].get("*", {}).items() if k in known}
    values.update(PRESETS[name].get(metric, {}))
    return values


def resolve(metric: str, given: Mapping[str, Any], *, preset_name: str | None = None) -> dict[str, Any]:
    """Every option of ``metric``: its declared default, then the preset's value, then
    the caller's, each checked; an unknown name is an :class:`OptionError` listing the
    valid ones."""
    known = options_for(metric)
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise OptionError(
            f"{metric}: unknown option(s) {', '.join(unknown)}; its options are {', '.join(known)}", option=unknown[0]
        )
    values = {name: option.default for name, option in known.items()}
    if preset_name is not None:
        values.update(preset(preset_name, metric))
    values.update(given)
    return {name: known[name].check(value) for name, value in values.items()}


def fields(metric: str, values: Mapping[str, Any], *, models: bool = True) -> dict[str, Any]:
    """``values`` (from :func:`resolve`) keyed by the options' target fields; without
    ``models``, the model options are left out."""
    known = options_for(metric)
    return {known[name].target: value for name, value in values.items() if models or not known[name].model}


def model_option_names(metric: str) -> tuple[str, ...]:
    """The options an evaluate module takes at construction (models, device)."""
    return tuple(name for name, option in options_for(metric).items() if option.model)


def options_doc(metric: str, *, skip: Iterable[str] = ()) -> str:
    """The ``Args:`` lines of ``metric``'s options, for its evaluate script and card."""
    import textwrap

    lines = []
    for name, option in options_for(metric).items():
        if name in skip:
            continue
        head = f"    {name} ({option.allowed()}; default {option.default!r}): "
        lines.append(textwrap.fill(head + option.doc, width=92, subsequent_indent="        "))
    return "\n".join(lines) + "\n"


def api_signature(metric: str, leading: Sequence[inspect.Parameter]) -> inspect.Signature:
    """The signature of ``halluscope.api.score_<metric>``: ``leading`` parameters,
    then every option as a keyword with its default (for ``help()`` and IDEs)."""
    keyword = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option.default)
        for name, option in options_for(metric).items()
    ]
    return inspect.Signature(list(leading) + keyword)


def parse_cli_value(metric: str, name: str, text: str) -> Any:
    """``--option NAME=VALUE``'s value for ``metric``: JSON when it parses (``false``,
    ``0.9``, ``null``, ``{"qhi": 2}``), else the text itself; then checked."""
    option = options_for(metric)[name]
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = text
    if option.kind in ("choice", "choice_or_name", "name") and not isinstance(value, str) and value is not None:
        value = text  # "--option coref=1" stays the string the user typed
    return option.check(value)


def cli_option_names(metric: str) -> tuple[str, ...]:
    """The options ``--option`` can set for ``metric`` (not Python objects)."""
    return tuple(name for name, option in options_for(metric).items() if option.cli)


def space_controls(app: str) -> tuple[Option, ...]:
    """The options the Space's ``app`` shows, in declaration order."""
    return tuple(
        option for option in options_for(app).values() if option.control is not None and app in option.control.apps
    )


# ------------------------------------------------------------------ metric cards

CARD_BEGIN = "<!-- options table: generated from halluscope/options.py by `python -m halluscope.cards`; do not edit -->"
CARD_END = "<!-- end of options table -->"


def _cell(value: Any) -> str:
    return f"`{value!r}`".replace("|", "\\|")


def options_table(metric: str) -> str:
    """The metric card's option table (Markdown): name, allowed values, default, the
    "paper" preset's value, documentation."""
    paper = preset("paper", metric)
    rows = ["| option | allowed | default | `paper` preset | what it does |", "|---|---|---|---|---|"]
    for name, option in options_for(metric).items():
        paper_value = _cell(paper[name]) if name in paper else ""
        model = " Also accepted by `evaluate.load(path, ...)`." if option.model else ""
        rows.append(
            f"| `{name}` | {option.allowed()} | {_cell(option.default)} | {paper_value} | "
            f"{option.doc.replace('|', chr(92) + '|')}{model} |"
        )
    return "\n".join([CARD_BEGIN, *rows, CARD_END])


def card_with_table(card: str, metric: str) -> str:
    """``card`` with its generated option table replaced by the current one."""
    begin, end = card.index(CARD_BEGIN), card.index(CARD_END) + len(CARD_END)
    return card[:begin] + options_table(metric) + card[end:]
