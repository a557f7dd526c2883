"""dlsd_acu's option rows, in the order :data:`halluscope.options.OPTIONS` lists them
(the CLI's flags, the card's table, the API signature).

Kept in the central option table for the reason :mod:`halluscope.chi_family_options`
gives: layers below the metrics read the table at import time.
"""

from __future__ import annotations

import math

from .option_types import (
    AGGREGATIONS,
    ALIGNMENTS,
    COREF_BACKENDS,
    DECOMPOSERS,
    DL_ACU_BACKENDS,
    DTYPES,
    HOSTS,
    Option,
)

_DL = ("dlsd_acu",)

#: dlsd_acu's options, in declaration order
DLSD_OPTIONS: tuple[Option, ...] = (
    Option(
        "host",
        "fizz",
        "choice",
        choices=HOSTS,
        metrics=_DL,
        doc=("preset of aggregation, alignment and expansion: FIZZ (min) or FENICE (mean)."),
    ),
    Option("sd_acu", True, "bool", metrics=_DL, doc="add selective document ACUs as premises."),
    Option(
        "top_k",
        1,
        "int",
        bounds=(1, math.inf),
        allow_none=True,
        metrics=_DL,
        doc=("document sentences decomposed per unit (None: all)."),
    ),
    Option(
        "threshold",
        None,
        "number",
        allow_none=True,
        metrics=_DL,
        doc=("adds binary `labels` (1 = consistent: score >= threshold)."),
    ),
    Option(
        "aggregation",
        None,
        "choice",
        choices=AGGREGATIONS,
        allow_none=True,
        metrics=_DL,
        doc=("override the host's aggregation of unit scores."),
    ),
    Option(
        "alignment",
        None,
        "choice",
        choices=ALIGNMENTS,
        allow_none=True,
        metrics=_DL,
        doc=("override the host's alignment of NLI probabilities."),
    ),
    Option("expansion", None, "optional_bool", metrics=_DL, doc="override the host's premise expansion."),
    Option(
        "expansion_threshold",
        0.5,
        "number",
        bounds=(0.0, 1.0),
        metrics=_DL,
        doc=("score under which a unit's premise is expanded."),
    ),
    Option(
        "mix_weight", 0.5, "number", bounds=(0.0, 1.0), metrics=_DL, doc=('weight of the min in aggregation="mix".')
    ),
    Option("filter_acus", True, "bool", metrics=_DL, doc="drop ACUs their summary sentence does not entail (FIZZ)."),
    Option(
        "coref",
        "rules",
        "choice_or_name",
        choices=COREF_BACKENDS,
        metrics=_DL,
        doc=('coreference before decomposition: "rules" (default, offline), "none", "maverick", "fastcoref".'),
    ),
    Option(
        "decomposer",
        "seq2seq",
        "choice_or_object",
        choices=DECOMPOSERS,
        metrics=_DL,
        doc=(
            "the paper's seq2seq claim extractor, the offline rule splitter, or any object with "
            "`name`, `calls` and `decompose` (API only)."
        ),
    ),
    Option(
        "decomposer_model",
        None,
        "name",
        metrics=_DL,
        model=True,
        model_files=("config.json",),
        doc=("seq2seq decomposer name or path (default: the paper's)."),
    ),
    Option(
        "dl_acu",
        "auto",
        "choice",
        choices=DL_ACU_BACKENDS,
        metrics=_DL,
        doc=(
            'discourse-link units from AMR graphs or the dependency parse ("auto": AMR when an AMR '
            "model is installed, else dep)."
        ),
    ),
    Option(
        "tau", 0.4, "number", bounds=(0.0, 1.0), metrics=_DL, doc=("NLI filter of DL-ACUs, P(ent | summary) >= tau.")
    ),
    Option(
        "delta",
        0.88,
        "number",
        bounds=(0.0, 1.0),
        metrics=_DL,
        doc=(
            "overlap filter: raw MiniLM BERTScore F1 to every host ACU < delta (the paper's 0.7 is "
            "on roberta-large's scale, see the card)."
        ),
    ),
    Option(
        "nli_model",
        None,
        "name",
        metrics=_DL,
        model=True,
        model_files=("config.json",),
        doc=("NLI model name or local folder (default: tals/albert-xlarge-vitaminc-mnli)."),
    ),
    Option(
        "nli_scorer",
        None,
        "callable",
        metrics=_DL,
        model=True,
        cli=False,
        doc=(
            "callable(premises, hypotheses) -> (n, 3) probabilities [ent, neu, con] replacing the "
            "NLI model (tests, custom models)."
        ),
    ),
    Option(
        "nli_engine",
        None,
        "callable",
        metrics=_DL,
        cli=False,
        doc=("a ready halluscope.nli.NLIEngine (benchmarks use a fresh one to count calls)."),
    ),
    Option(
        "dl_units",
        None,
        "callable",
        metrics=_DL,
        cli=False,
        doc=("replaces the DL-ACU step with any callable of the same batch interface."),
    ),
    Option(
        "device",
        None,
        "name",
        metrics=_DL,
        model=True,
        changes_scores=False,
        doc=('torch device ("cpu", "cuda"; default: CUDA when available).'),
    ),
    Option("dtype", "float32", "choice", choices=DTYPES, metrics=_DL, model=True, doc=("model weights' dtype.")),
    Option("batch_size", 32, "int", bounds=(1, math.inf), metrics=_DL, changes_scores=False, doc="NLI batch size."),
    Option("max_length", 512, "int", bounds=(8, math.inf), metrics=_DL, doc=("premise truncation in tokens.")),
)
