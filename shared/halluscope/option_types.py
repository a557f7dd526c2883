"""The types of the option table (docs/architecture.md#options-optionspy): the metric
registry (:class:`MetricSpec`, :data:`METRIC_SPECS`), the choice tuples whose single
definition lives here, and :class:`Option` with its Space :class:`Control`.

The lowest layer of the table: it imports no other module of it, so the rows
(:mod:`halluscope.chi_family_options`, :mod:`halluscope.dlsd_options`) and the public
module :mod:`halluscope.options`, which assembles :data:`~halluscope.options.OPTIONS`,
all import from here.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import OptionError
from .fusion import check_weights


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
