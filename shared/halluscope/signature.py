"""The signature of a score, as sacrebleu's: two scores are comparable only when their
signatures agree. Every option value that changes a score or a label is in it, numbers
in full (:mod:`halluscope.signature_text`), so that two different values never share
one. It is written from one table of fields (docs/architecture.md#the-signature-table):
the CHI family's (:func:`chi_table`: the call's and the fusion's fields of
:mod:`halluscope.signature_table`, each dimension's, the verdict's) and dlsd_acu's
(:data:`halluscope.acu.dlsd_signature.DLSD_FIELDS`); docs/api.md#signatures."""

from __future__ import annotations

from collections.abc import Sequence

from .dimension_registry import names as dimension_names
from .option_types import METRIC_SPECS
from .resources import Resources
from .scoring_options import ScoringOptions
from .signature_table import ScoringCall, chi_family_table, field_of
from .signature_text import Field, read_fields, write_fields
from .verdict import VERDICT_FIELDS


def chi_table(dimensions: Sequence[str], fuse: bool) -> tuple[Field, ...]:
    """The signature table of a CHI-family call scoring ``dimensions`` (and fusing them
    into CHI where ``fuse``)."""
    return chi_family_table(dimensions, fuse, VERDICT_FIELDS)


def signature(
    metric: str, dimensions: Sequence[str], options: ScoringOptions, fuse: bool, resources: Resources | None = None
) -> str:
    """A sacrebleu-style string: two scores are comparable only if signatures agree.
    ``resources``: where the spaCy model and the lexicon it names are (None: the
    process's default)."""
    resources = Resources.default() if resources is None else resources
    call = ScoringCall(metric, tuple(dimensions), options, fuse, resources)
    return write_fields(chi_table(dimensions, fuse), call)


def metric_table(metric: str) -> tuple[Field, ...]:
    """The signature table of ``metric``'s calls (a shipped metric of
    :data:`halluscope.options.METRIC_SPECS`)."""
    if metric == "dlsd_acu":
        from .acu.dlsd_signature import DLSD_FIELDS  # dlsd_acu's modules load on first use

        return DLSD_FIELDS
    return chi_table(METRIC_SPECS[metric].dimensions, metric == "chi")


def every_field() -> tuple[Field, ...]:
    """Every field any signature may hold: the CHI family's (every registered
    dimension's, fused) and dlsd_acu's."""
    return chi_table(dimension_names(), True) + metric_table("dlsd_acu")


def recorded_option(signature: object, option: str) -> str | None:
    """The value of the field of ``signature`` that records ``option`` (``formula`` ->
    ``"paper"`` from ``formula:paper``), None where it holds no such field."""
    field = field_of(option, every_field())
    return None if field is None else read_fields(signature).get(field.abbreviation)
