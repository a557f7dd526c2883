"""The signature table of the CHI family (docs/architecture.md#the-signature-table):
the fields of the whole call, those of the fusion, and the assembly of a call's table
from them, the fields each dimension declares (:attr:`halluscope.dimensions.base.
Dimension.signature_fields`) and the verdict's (:data:`halluscope.verdict.VERDICT_FIELDS`).

Every field is one :class:`~halluscope.signature_text.Field` row: its abbreviation, the
options it records and how its value is written, as sacrebleu builds its signature from
one abbreviation table. The signature itself (:func:`halluscope.signature.signature`),
the verdict's check of the calibration (:func:`halluscope.verdict.absent_reason`), the
ranges (:mod:`halluscope.ranges`), the Space and the benchmarks read these rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .dimension_registry import get as get_dimension
from .fusion import INDEX_SHARE, check_weights
from .signature_text import METRIC_FIELD, VERSION_FIELD, Field, number


class PipelineSource(Protocol):
    """What the table reads of :class:`halluscope.resources.Resources` (typed by what it
    does, so that this low module names no module above it): the spaCy pipeline a name
    loads as."""

    def nlp(self, name: str | None = None) -> Any: ...


@dataclass(frozen=True)
class ScoringCall:
    """What the CHI family's signature fields read of one call: the ``metric``'s name,
    the ``dimensions`` it scores, its resolved ``options``, whether it ``fuse``s them
    into CHI, and the ``resources`` that name its spaCy model and lexicon."""

    metric: str
    dimensions: tuple[str, ...]
    #: a :class:`halluscope.scoring_options.ScoringOptions` (its fields are read by name)
    options: Any
    fuse: bool
    resources: PipelineSource


def spacy_id(name: str | None, resources: PipelineSource) -> str:
    """``en_core_web_sm-3.8.0``: the spaCy pipeline ``name`` (None: the default) loads as."""
    nlp = resources.nlp(name)
    return f"{nlp.meta.get('lang', 'xx')}_{nlp.meta.get('name', '?')}-{nlp.meta.get('version', '?')}"


def weights_value(weights: Mapping[str, float] | None, dimensions: Sequence[str]) -> str | None:
    """The ``w:`` field's value, the fusion's ``weights`` each as given in full
    (``ehi=1,rhi=1,qhi=2``), or None when they fuse exactly as the default does: every
    weight 1 once :func:`halluscope.fusion.check_weights` has scaled them, such as
    ``{"qhi": 1}`` or 2 for every dimension (same scores, bit for bit, so the same
    signature and chi's verdict; docs/api.md#signatures)."""
    scaled = check_weights(weights)
    if weights is None or all(scaled[d] == 1.0 for d in dimensions):
        return None
    return ",".join(f"{d}={number(weights.get(d, 1))}" for d in dimensions)


#: the fields of the whole call, after the version and the metric
CALL_FIELDS: tuple[Field, ...] = (
    VERSION_FIELD,
    METRIC_FIELD,
    Field("spacy", ("spacy_model",), lambda call: spacy_id(call.options.spacy_model, call.resources)),
    Field("case", ("truecase",), lambda call: "source" if call.options.truecase else "as-is"),
    Field("formula", ("formula",), lambda call: call.options.formula),
    Field("norm", ("normalize",), lambda call: call.options.normalize),
    Field("ground", ("grounding",), lambda call: call.options.grounding),
    Field("attr", ("attribution",), lambda call: "sentence" if call.options.attribution else "none"),
    Field("refs", (), lambda call: "max"),  # a summary against several references: the best
)

#: the fusion's fields, written when the call fuses its dimensions into CHI
FUSION_FIELDS: tuple[Field, ...] = (
    Field("fusion", (), lambda call: "harmonic-adaptive"),
    Field("w", ("weights",), lambda call: weights_value(call.options.weights, call.dimensions)),
    Field(
        "lex",
        ("lexical_weight",),
        lambda call: number(call.options.lexical_weight) if call.options.lexical_weight else None,
        also=("formula",),
    ),
    Field(
        "lexidx",
        ("lexical_weight",),
        lambda call: number(INDEX_SHARE) if call.options.lexical_weight else None,
        also=("formula",),
    ),
)


def chi_family_table(dimensions: Sequence[str], fuse: bool, verdict_fields: Sequence[Field]) -> tuple[Field, ...]:
    """The signature table of a call scoring ``dimensions`` (registered names, in the
    call's order): the call's fields, each dimension's, and, where it ``fuse``s them,
    the fusion's and ``verdict_fields``."""
    fields = CALL_FIELDS + tuple(field for name in dimensions for field in get_dimension(name).signature_fields)
    return fields + (FUSION_FIELDS + tuple(verdict_fields) if fuse else ())


def field_of(option: str, table: Sequence[Field]) -> Field | None:
    """The first field of ``table`` that records ``option`` (among its :attr:`Field.options`)."""
    return next((field for field in table if option in field.options), None)
