"""dlsd_acu's signature: the table of its fields (:data:`DLSD_FIELDS`,
docs/architecture.md#the-signature-table) and :func:`dlsd_signature`, which writes it
for one call (docs/api.md#signatures)."""

from __future__ import annotations

from dataclasses import dataclass

from ..signature_text import METRIC_FIELD, VERSION_FIELD, Field, number, write_fields
from .acu_options import AcuOptions


@dataclass(frozen=True)
class DlsdCall:
    """What dlsd_acu's signature fields read of one call: its ``options`` and the names
    of the components it ran with (the decomposer's, the NLI engine's, the
    discourse-link units' or None), the NLI model's ``dtype`` and ``max_length``, and the
    labels' ``threshold`` (None: no labels)."""

    options: AcuOptions
    decomposer: str
    nli: str
    dtype: str
    max_length: int
    dl: str | None
    threshold: float | None = None
    metric: str = "dlsd_acu"


def _aggregation(call: DlsdCall) -> str:
    aggregation = call.options.resolved.aggregation
    return aggregation + (f"@{number(call.options.mix_weight)}" if aggregation == "mix" else "")


def _premises(call: DlsdCall) -> str:
    options = call.options
    return "no" if not options.sd_acu else ("all" if options.top_k is None else f"top{options.top_k}")


#: dlsd_acu's signature table (docs/architecture.md#the-signature-table): every option
#: that changes a score or a label, ``cut:<threshold>`` last when the call gives labels
DLSD_FIELDS: tuple[Field, ...] = (
    VERSION_FIELD,
    METRIC_FIELD,
    Field("host", ("host",), lambda call: call.options.host),
    Field("align", ("alignment",), lambda call: call.options.resolved.alignment, also=("host",)),
    Field("agg", ("aggregation", "mix_weight"), _aggregation, also=("host",)),
    Field(
        "expand",
        ("expansion", "expansion_threshold"),
        lambda call: f"yes@{number(call.options.expansion_threshold)}" if call.options.resolved.expansion else "no",
        also=("host",),
    ),
    Field("sd", ("sd_acu", "top_k"), _premises),
    Field("filter", ("filter_acus",), lambda call: "yes" if call.options.filter_acus else "no"),
    Field("coref", ("coref",), lambda call: call.options.coref),
    Field("dec", ("decomposer", "decomposer_model"), lambda call: call.decomposer),
    Field("nli", ("nli_model", "nli_scorer", "nli_engine"), lambda call: call.nli),
    Field("dtype", ("dtype",), lambda call: call.dtype),
    Field("maxlen", ("max_length",), lambda call: str(call.max_length)),
    Field("dl", ("dl_acu", "dl_units", "tau", "delta"), lambda call: call.dl or "none"),
    Field("cut", ("threshold",), lambda call: None if call.threshold is None else number(call.threshold)),
)


def dlsd_signature(
    options: AcuOptions,
    *,
    decomposer: str,
    nli: str,
    dtype: str,
    max_length: int,
    dl: str | None,
    threshold: float | None = None,
) -> str:
    """A sacrebleu-style string of everything that changes a dlsd_acu score or its labels,
    written from :data:`DLSD_FIELDS`: numbers in full (:mod:`halluscope.signature_text`),
    and ``cut:<threshold>`` last when ``threshold`` gives labels (docs/api.md#signatures)."""
    call = DlsdCall(options, decomposer, nli, dtype, max_length, dl, threshold)
    return write_fields(DLSD_FIELDS, call)
