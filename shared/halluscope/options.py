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

Adding an option is one declaration here plus its logic where it acts (a field of
:class:`halluscope.pipeline.ScoringOptions` or :class:`halluscope.acu.dlsd_options.AcuOptions`
of the same name, or of the name in ``Option.field``).
"""

from __future__ import annotations

import inspect
import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import budget
from .errors import OptionError
from .fusion import INDEX_SHARE, check_weights
from .verdict import load_calibration


@dataclass(frozen=True)
class MetricSpec:
    """One metric: its ``name`` (``halluscope.api.score_<name>``, ``metrics/<name>/``),
    a ``title``, the CHI ``dimensions`` it scores, the per-example ``outputs`` its
    result may hold, and whether it takes ``publication_dates``."""

    name: str
    title: str
    dimensions: tuple[str, ...]
    outputs: tuple[str, ...]
    takes_dates: bool = False


#: the metric registry the surfaces (CLI, Trainer helper, Space, report) read: each
#: metric's title, the dimensions it scores (halluscope.dimensions, where each one's
#: behaviour is), its outputs and whether it takes publication dates
METRIC_SPECS: dict[str, MetricSpec] = {
    spec.name: spec
    for spec in (
        MetricSpec(
            "chi",
            "CHI: Composite Hallucination Index",
            ("ehi", "rhi", "qhi"),
            ("chi", "ehi", "rhi", "qhi"),
            takes_dates=True,
        ),
        MetricSpec("ehi", "EHI: Entity Hallucination Index", ("ehi",), ("ehi",)),
        MetricSpec("rhi", "RHI: Relation Hallucination Index", ("rhi",), ("rhi", "rhi_norm")),
        MetricSpec("qhi", "QHI: Quantity Hallucination Index", ("qhi",), ("qhi",), takes_dates=True),
        MetricSpec("dlsd_acu", "dlsd_acu: NLI checks of atomic content units", (), ("dlsd_acu",)),
    )
}
#: the four metrics of the CHI family: one pipeline, one ScoringOptions
CHI_FAMILY: tuple[str, ...] = tuple(name for name, spec in METRIC_SPECS.items() if spec.dimensions)
#: every metric, in the order the surfaces list them
METRICS: tuple[str, ...] = tuple(METRIC_SPECS)


def uses_device(metric: str) -> bool:
    """Whether ``metric`` runs a torch model whose device and batch size can be chosen."""
    return "device" in options_for(metric)


# choices whose single definition lives here (the modules that act on them import them)
FORMULAS = ("support", "paper")
GROUNDINGS = ("text", "units")
NORMALIZATIONS = ("paper", "minmax")
RELATION_SLOTS = ("compound", "head")
INTRANSITIVE_MODES = ("passive", "all", "none")
RELATION_MATCHING = ("slots", "sentence", "exact")
RHI_VARIANTS = ("linear", "softmax")
HOSTS = ("fizz", "fenice")
AGGREGATIONS = ("min", "mean", "mix")
ALIGNMENTS = ("ent", "ent-contr", "ent-neutral")
COREF_BACKENDS = ("none", "rules", "maverick", "fastcoref")
DECOMPOSERS = ("seq2seq", "rules")
DL_ACU_BACKENDS = ("auto", "amr", "dep", "none")
DTYPES = ("float32", "float16", "bfloat16")
#: the sentence encoder's precisions: "auto" is bfloat16 where the device computes it
#: natively, else float32 (halluscope.embedding.encoder_dtype)
ENCODER_DTYPES = ("auto",) + DTYPES


@dataclass(frozen=True)
class Control:
    """How the Space shows an option: ``kind`` radio | slider | checkbox, a ``label``,
    slider ``bounds`` (low, high, step), and ``shown`` choices with their
    ``meanings`` (shown value, API value) where the two differ ("default" -> None)."""

    kind: str
    label: str
    bounds: tuple[float, float, float] = (0.0, 1.0, 0.01)
    shown: tuple[Any, ...] = ()
    meanings: tuple[tuple[Any, Any], ...] = ()
    #: the metric apps that show it (a subset of the option's metrics)
    apps: tuple[str, ...] = CHI_FAMILY

    def api_value(self, shown: Any) -> Any:
        """The API value of the control's value ``shown``."""
        return dict(self.meanings).get(shown, shown)


@dataclass(frozen=True)
class Option:
    """One keyword option.

    ``kind`` says which values are allowed: ``choice`` (one of ``choices``), ``bool``,
    ``optional_bool`` (None = the formula's default), ``number`` (a finite real within
    ``bounds``), ``int`` (an integer within ``bounds``), ``mapping`` (a dict or None),
    ``weights`` (None, or a non-empty dict of dimensions to positive finite numbers:
    :func:`halluscope.fusion.check_weights`),
    ``text_mapping`` (a dict of strings to strings, or None),
    ``name`` (a model name/path or None), ``choice_or_name`` (one of ``choices`` or a
    model/path name), ``choice_or_object`` (one of ``choices`` or an object serving that
    role), ``wordnet`` (None, a bool or a folder path), ``callable`` (a
    Python callable or object; API only), ``any``. ``allow_none`` adds None where the
    kind does not already take it.
    """

    name: str
    default: Any
    kind: str
    doc: str
    metrics: tuple[str, ...]
    choices: tuple[Any, ...] = ()
    bounds: tuple[float, float] = (-math.inf, math.inf)
    #: the upper bound itself is not allowed (``epsilon`` < 1: a tolerance of 100% is none)
    open_high: bool = False
    allow_none: bool = False
    #: the ScoringOptions/AcuOptions field it sets, when its name differs
    field: str | None = None
    #: a model or resource choice: also accepted by ``evaluate.load(path, name=...)``
    model: bool = False
    #: False for options that hold Python objects (callables, engines): not on the CLI
    cli: bool = True
    #: a model option: the files one of which a local model folder must hold (a folder
    #: without any is refused up front, not when the model is first needed)
    model_files: tuple[str, ...] = ()
    control: Control | None = None
    #: whether a value of it can change a score or a label: then a field of the metric's
    #: signature table records it (docs/architecture.md#the-signature-table; a test
    #: checks); False for where and how fast the models run and for memory
    changes_scores: bool = True

    @property
    def target(self) -> str:
        return self.field or self.name

    def check(self, value: Any) -> Any:
        """``value`` if the option allows it, else an :class:`OptionError` naming it."""
        if value is None and (
            self.allow_none
            or self.kind
            in ("optional_bool", "mapping", "text_mapping", "name", "wordnet", "weights", "callable", "any")
        ):
            return value
        kind, bad = self.kind, False
        if kind == "choice":
            bad = not isinstance(value, (str, int)) or isinstance(value, bool) or value not in self.choices
        elif kind == "choice_or_name":
            bad = not isinstance(value, str) or not value.strip()
        elif kind == "choice_or_object":
            bad = isinstance(value, (bool, int, float)) or (isinstance(value, str) and value not in self.choices)
        elif kind in ("bool", "optional_bool"):
            bad = not isinstance(value, bool)
        elif kind == "number":
            bad = (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
                or not self.bounds[0] <= value <= self.bounds[1]
                or (self.open_high and value == self.bounds[1])
            )
        elif kind == "int":
            bad = isinstance(value, bool) or not isinstance(value, int) or not self.bounds[0] <= value <= self.bounds[1]
        elif kind == "mapping":
            bad = not isinstance(value, Mapping)
        elif kind == "weights":
            check_weights(value)  # an OptionError naming `weights` and the weight it refuses
        elif kind == "text_mapping":
            bad = not isinstance(value, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in value.items()
            )
        elif kind == "name":
            bad = not isinstance(value, str) or not value.strip()
        elif kind == "wordnet":
            bad = not isinstance(value, (bool, str))
        if not bad and self.model_files and isinstance(value, str):
            self._check_model_folder(value)
        if bad:
            shown = repr(value)
            if len(shown) > 80:  # a 300-digit number or a huge mapping: the start says enough
                shown = shown[:60] + f"... ({len(shown)} characters)"
            raise OptionError(f"`{self.name}` must be {self.allowed()}, got {shown}", option=self.name)
        return value

    def _check_model_folder(self, value: str) -> None:
        """A path (an existing folder, or a name written as a path) must be a folder
        holding one of :attr:`model_files`; a hub name (``org/name``) is left to loading."""
        path = os.path.expanduser(value)
        looks_local = value.startswith(("/", "./", "../", "~")) or os.path.isdir(path)
        if not looks_local:
            return
        if not os.path.isdir(path):
            raise OptionError(f"`{self.name}` {value}: no such folder", option=self.name)
        if not any(os.path.exists(os.path.join(path, name)) for name in self.model_files):
            raise OptionError(
                f"`{self.name}` {value}: the folder holds no model (none of {', '.join(self.model_files)})",
                option=self.name,
            )

    def allowed(self) -> str:
        """The allowed values in words (error messages, docs)."""
        none = " or None" if self.allow_none else ""
        if self.kind == "choice":
            return f"one of {self.choices!r}" + none
        if self.kind == "choice_or_name":
            return "one of " + ", ".join(repr(c) for c in self.choices) + " or a model name or path"
        if self.kind == "choice_or_object":
            return "one of " + ", ".join(repr(c) for c in self.choices) + " or an object of that interface"
        if self.kind == "bool":
            return "True or False" + none
        if self.kind == "optional_bool":
            return "True, False or None (the formula's default)"
        if self.kind in ("number", "int"):
            noun = "a number" if self.kind == "number" else "an integer"
            low, high = self.bounds
            if math.isinf(high):
                return f"{noun} >= {low:g}" + none
            bound = (lambda x: str(int(x))) if self.kind == "int" else (lambda x: f"{x:g}")
            return f"{noun} in [{bound(low)}, {bound(high)}{')' if self.open_high else ']'}" + none
        if self.kind == "mapping":
            return "a mapping (dict) or None"
        if self.kind == "weights":
            return "None or a non-empty mapping of ehi, rhi, qhi to positive finite numbers"
        if self.kind == "text_mapping":
            return "a mapping (dict) of strings to strings, or None"
        if self.kind == "name":
            return "a model name or path, or None"
        if self.kind == "wordnet":
            return "True, False, None or the path of a WordNet database folder"
        return "any value"


_ALL = CHI_FAMILY
#: the most processes ``workers`` (and the CLI's ``--workers``) may start
MAX_WORKERS = 1024
_REL = ("chi", "rhi")
_QTY = ("chi", "qhi")
_DL = ("dlsd_acu",)

#: every option of every metric, in the order the docs and the Space list them
OPTIONS: tuple[Option, ...] = (
    # ---------------------------------------------------------------- CHI family
    Option(
        "formula",
        "support",
        "choice",
        choices=FORMULAS,
        metrics=_ALL,
        doc=(
            '"support" (default) scores each dimension as the share of the summary\'s units '
            "supported by the source, directly or through a reference unit that is itself in the "
            'source; "paper" applies the papers\' factor formulas (softmax, or the linear RHI) '
            "wherever a reference is given. Rows without a reference are the supported share under "
            "both (docs/papers.md)."
        ),
        control=Control(
            "radio", "formula (support: share of summary units the source supports; paper: the papers' factor formulas)"
        ),
    ),
    Option(
        "grounding",
        "text",
        "choice",
        choices=GROUNDINGS,
        metrics=_ALL,
        doc=(
            '"text" (default) also accepts an entity found in the source\'s text, a relation '
            "whose subject, object and verb share one source sentence without swapped roles, or a "
            'quantity the source writes with the word next to it ("flight 448"), when the '
            'extractor missed the source\'s unit; "units" matches units against units only, as '
            "the papers do."
        ),
        control=Control(
            "radio",
            "grounding (text: also look for units in the source text; units: unit against unit, as the papers do)",
        ),
    ),
    Option(
        "variant",
        "linear",
        "choice",
        choices=RHI_VARIANTS,
        metrics=("rhi",),
        field="rhi_variant",
        doc=(
            '"linear" (default): the RHI paper\'s RHI; "softmax": the CHI paper\'s RHI*, the one CHI '
            'fuses. Matters under formula="paper" (and in the counts\' factors).'
        ),
        control=Control(
            "radio", "variant under formula=paper (linear: RHI paper; softmax: RHI*, the one CHI fuses)", apps=("rhi",)
        ),
    ),
    Option(
        "normalize",
        "paper",
        "choice",
        choices=NORMALIZATIONS,
        metrics=_ALL,
        doc=('scale of the paper formulas: "paper" (default) as written, "minmax" rescaled to [0, 1] (see the card).'),
        control=Control("radio", "normalize (paper: the formula as written; minmax: rescaled to [0, 1])"),
    ),
    Option(
        "relation_matching",
        "slots",
        "choice",
        choices=RELATION_MATCHING,
        metrics=_REL,
        doc=(
            '"slots" (default): a summary triple matches a source triple slot by slot (lemma, '
            'WordNet, then MiniLM cosine); "sentence": the CHI paper\'s cosine of the triples as '
            'sentences; "exact": same lemmas only.'
        ),
        control=Control("radio", "relation matching"),
    ),
    Option(
        "similarity_threshold",
        0.85,
        "number",
        bounds=(0.0, 1.0),
        metrics=_REL,
        doc=("cosine threshold of semantic relation matching."),
        control=Control("slider", "relation similarity threshold", bounds=(0.5, 1.0, 0.01)),
    ),
    Option(
        "epsilon",
        0.05,
        "number",
        bounds=(0.0, 1.0),
        open_high=True,
        metrics=_QTY,
        doc=("relative tolerance of quantity matching."),
        control=Control("slider", "quantity tolerance epsilon", bounds=(0.0, 0.5, 0.01)),
    ),
    Option(
        "derived",
        True,
        "bool",
        metrics=_QTY,
        field="derived_quantities",
        doc=(
            "accept sums, differences, multiples and ratios of source quantities, only where the "
            'summary\'s words state the operation ("combined", "doubled", "rose by").'
        ),
        control=Control("checkbox", "derived quantities (sums, ratios)", apps=("qhi",)),
    ),
    Option(
        "temporal",
        True,
        "bool",
        metrics=_QTY,
        field="temporal_quantities",
        doc=("resolve relative and calendar dates against the publication date."),
        control=Control("checkbox", "resolve relative dates", apps=("qhi",)),
    ),
    Option(
        "truecase",
        True,
        "bool",
        metrics=_ALL,
        doc=(
            "True (default) parses a summary or reference written without any capital letter with "
            'the source\'s casing restored ("alaska" -> "Alaska"), so that spaCy finds its names; '
            "spans and unit texts stay the caller's. False parses every text as given, as the "
            "papers do."
        ),
        control=Control("checkbox", "truecase (parse an all-lower-case summary with the source's casing)"),
    ),
    Option(
        "attribution",
        None,
        "optional_bool",
        metrics=_ALL,
        doc=(
            'under formula="support" (None: on) a supported entity or quantity counts 0.5 + 0.5 x '
            "a(u), where a(u) in [0, 1] says how well the source sentences holding the unit also "
            "hold the rest of its summary sentence; False counts every supported unit as 1. "
            'Relation triples are not weighted. formula="paper" has no such weight.'
        ),
        control=Control(
            "radio",
            "attribution (credit an entity or quantity less when the source "
            "states it in another sentence; default: on under formula=support)",
            shown=("default", "on", "off"),
            meanings=(("default", None), ("on", True), ("off", False)),
            apps=("chi", "ehi", "qhi"),
        ),
    ),
    Option(
        "relation_slots",
        "compound",
        "choice",
        choices=RELATION_SLOTS,
        metrics=_REL,
        doc=(
            '"compound" (default) makes a triple\'s subject and object the head noun with its '
            'compound modifiers ("bill gates"); "head" keeps the RHI paper\'s single-token slots.'
        ),
        control=Control("radio", "relation slots (compound: 'bill gates'; head: the paper's single word)"),
    ),
    Option(
        "intransitive",
        "passive",
        "choice",
        choices=INTRANSITIVE_MODES,
        metrics=_REL,
        doc=(
            '"passive" (default) also checks a subject-verb pair for each agentless passive '
            '("Thomas was arrested" -> (thomas, arrest, "")), "all" for every verb without an '
            'object ("output grew"); the source must give the verb that subject in the same role. '
            'Under formula="support", "passive" also extracts active object-less verbs and counts '
            'such a pair where the source settles it: contradicted ("the team lost" against "won"), '
            "or supported in a text that states no other relation. "
            '"none" keeps the RHI paper\'s triples only.'
        ),
        control=Control(
            "radio",
            "subject-verb pairs for verbs without an object (passive: "
            "'Thomas was arrested'; all: also 'output grew'; none: the paper)",
        ),
    ),
    Option(
        "wordnet",
        None,
        "wordnet",
        metrics=_REL,
        doc=(
            "WordNet 3.0 (read with NLTK; docs/lexical.md) in relation matching and, in CHI, "
            'word-level support w. None (default): on under formula="support", off under '
            '"paper"; True/False; or the path of a WordNet database folder (implies on). A '
            "relation verb WordNet links to the source's (synonym, hypernym, troponym, "
            'entailment, verb group: "bought" for "acquired") is the same predicate; an antonym '
            'verb with the same subject and object makes the unit "contradicted". Signature '
            "wn:3.0, or wn:none when off or WordNet is not installed."
        ),
        control=Control(
            "radio",
            "WordNet (relation verbs: synonyms, hypernyms, troponyms count as the "
            "same predicate, antonyms contradict; content words likewise; default: on under "
            "formula=support, off under paper)",
            shown=("default", "on", "off"),
            meanings=(("default", None), ("on", True), ("off", False)),
            apps=_REL,
        ),
    ),
    Option(
        "lexical_weight",
        None,
        "number",
        bounds=(0.0, 1.0),
        allow_none=True,
        metrics=("chi",),
        doc=(
            f"λ in CHI = (1 - λ) x fused + λ x w x ({1 - INDEX_SHARE:g} + {INDEX_SHARE:g} x the dimensions' mean), "
            "w the mean of "
            "the share of the summary's content words the source supports (by lemma, written form or "
            "WordNet) and the share of its content tokens found as written; None: 0.01 under "
            'formula="support", 0 under "paper"; 0 turns it off.'
        ),
        control=Control(
            "radio",
            "lexical weight λ (CHI = (1 - λ) x units + λ x share of the summary's "
            "content words the source supports; default: 0.01 under formula=support, 0 "
            "under paper)",
            shown=("default", "0", "0.01", "0.1"),
            meanings=(("default", None), ("0", 0.0), ("0.01", 0.01), ("0.1", 0.1)),
            apps=("chi",),
        ),
    ),
    Option(
        "threshold",
        load_calibration().cut,
        "number",
        bounds=(0.0, 1.0),
        allow_none=True,
        metrics=("chi",),
        doc=(
            "the cut of the binary `labels` (1 = consistent: p_consistent >= threshold); the "
            "default is the shipped cut, 0.5: p_consistent is calibrated at even odds, where the cut "
            "of the best mean balanced accuracy by leave-one-dataset-out is 0.5, so a default label "
            "never contradicts its p (docs/benchmarks.md#p_consistent-and-the-shipped-labels); "
            "None: no labels."
        ),
    ),
    Option(
        "weights",
        None,
        "weights",
        metrics=("chi",),
        doc=(
            'weighted harmonic mean of the dimensions, e.g. {"qhi": 2}; a dimension not named weighs 1; '
            "empty, NaN, negative or non-numeric weights are refused. Weights are relative: equal weights "
            'of 1, 2, 4, ... (and {"qhi": 1}) fuse exactly as None does and keep its signature and '
            "p_consistent; any other weights are written in the signature (docs/api.md#signatures)."
        ),
    ),
    Option(
        "entity_synonyms",
        None,
        "text_mapping",
        metrics=("chi", "ehi"),
        doc=("alias -> canonical entity name, added to the built-in aliases."),
    ),
    Option(
        "batch_size",
        64,
        "int",
        bounds=(1, math.inf),
        metrics=_REL,
        changes_scores=False,
        doc="sentence-encoder batch size.",
    ),
    Option(
        "spacy_model",
        None,
        "name",
        metrics=_ALL,
        model=True,
        model_files=("config.cfg", "meta.json"),
        doc=("spaCy pipeline name or path (default: the offline en_core_web_sm, docs/scaling.md)."),
    ),
    Option(
        "sentence_model",
        None,
        "name",
        metrics=_REL,
        model=True,
        model_files=("modules.json", "config.json"),
        doc="sentence-transformers model name or path (default: the offline all-MiniLM-L6-v2).",
    ),
    Option(
        "device",
        None,
        "name",
        metrics=_REL,
        model=True,
        # the signature names the precision the device leads "auto" to (enc's @bf16), not the device
        changes_scores=False,
        doc=('torch device of the sentence encoder ("cpu", "cuda", "cuda:1"; default: CUDA when available).'),
    ),
    Option(
        "encoder_dtype",
        "auto",
        "choice",
        choices=ENCODER_DTYPES,
        metrics=_REL,
        model=True,
        doc=(
            "precision of the sentence encoder's matrix products: auto = bfloat16 where the device "
            "computes it natively (a CPU with AVX-512 BF16 or AMX, a CUDA device with bfloat16), "
            "else float32; the signature names it when it is not float32 (docs/scaling.md#encoder-precision)."
        ),
    ),
    # ---------------------------------------------------------------- dlsd_acu
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
    Option(
        "workers",
        1,
        "int",
        bounds=(0, MAX_WORKERS),
        metrics=_ALL,
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


def options_for(metric: str) -> dict[str, Option]:
    """The options ``metric`` takes, by name, in declaration order."""
    if metric not in METRICS:
        raise OptionError(f"unknown metric {metric!r}; metrics: {', '.join(METRICS)}", option="metric")
    return {option.name: option for option in OPTIONS if metric in option.metrics}


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
