"""The resolved options of a CHI-family call: every option that changes a score, each
declared once in :data:`halluscope.options.OPTIONS` (default, allowed values, docs),
and the rules that tie fields together (docs/architecture.md#options-optionspy)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import OptionError
from .fusion import check_weights
from .option_types import CHI_FAMILY, Option
from .options import OPTIONS
from .options import fields as option_fields
from .options import resolve as resolve_options

if TYPE_CHECKING:  # pragma: no cover
    from .resources import Resources

#: Default ``lexical_weight`` λ under formula="support": CHI = (1 - λ) x the unit
#: fusion + λ x the summary's word-level support w. Small, so that the units decide and
#: the words order the summaries the units tie (docs/benchmarks.md#lexical-weight).
LEXICAL_WEIGHT = 0.01

#: the CHI family's options by the ScoringOptions field they set
_DECLARED: dict[str, Option] = {o.target: o for o in OPTIONS if set(o.metrics) & set(CHI_FAMILY)}


def _default(name: str) -> Any:
    return _DECLARED[name].default


@dataclass(frozen=True)
class ScoringOptions:
    """Every option that changes a CHI-family score (all of them go into the
    signature). Each field is declared, with its default, allowed values and docs, in
    :data:`halluscope.options.OPTIONS`; this class adds the rules that tie fields
    together (the ``None`` defaults that follow ``formula``). Build it from the
    public option names with :meth:`from_options`."""

    formula: str = _default("formula")
    normalize: str = _default("normalize")
    grounding: str = _default("grounding")
    truecase: bool = _default("truecase")
    relation_slots: str = _default("relation_slots")
    intransitive: str = _default("intransitive")
    attribution: bool | None = _default("attribution")  # None: on under formula="support", off under "paper"
    lexical_weight: float | None = _default("lexical_weight")  # None: LEXICAL_WEIGHT under "support", 0 under "paper"
    # WordNet for relation verbs and words (docs/lexical.md): None = on under "support",
    # off under "paper"; True/False; or the path of a WordNet database folder (implies on)
    wordnet: None | bool | str = _default("wordnet")
    # the rhi metric's variant; CHI always fuses the softmax RHI*
    rhi_variant: str = _default("rhi_variant")
    relation_matching: str = _default("relation_matching")
    similarity_threshold: float = _default("similarity_threshold")
    epsilon: float = _default("epsilon")
    derived_quantities: bool = _default("derived_quantities")
    temporal_quantities: bool = _default("temporal_quantities")
    entity_synonyms: Mapping[str, str] | None = _default("entity_synonyms")
    weights: Mapping[str, float] | None = _default("weights")
    # the cut of chi's labels on p_consistent (halluscope.verdict); None: no labels
    threshold: float | None = _default("threshold")
    spacy_model: str | None = _default("spacy_model")
    sentence_model: str | None = _default("sentence_model")
    device: str | None = _default("device")
    encoder_dtype: str = _default("encoder_dtype")
    batch_size: int = _default("batch_size")
    # memory only (halluscope.budget): never in the signature
    cache_mb: int | None = _default("cache_mb")
    # processes only (halluscope.workers): never in the signature
    workers: int = _default("workers")

    @classmethod
    def from_options(cls, metric: str, given: Mapping[str, Any], *, preset: str | None = None) -> ScoringOptions:
        """The options of ``metric`` called with the public keywords ``given`` (and
        ``preset``'s values under them): unknown names and bad values raise
        :class:`halluscope.errors.OptionError`."""
        return cls(**option_fields(metric, resolve_options(metric, given, preset_name=preset)))

    def __post_init__(self) -> None:
        for name, option in _DECLARED.items():
            option.check(getattr(self, name))
        if self.attribution is None:
            object.__setattr__(self, "attribution", self.formula == "support")
        elif self.attribution and self.formula != "support":
            raise OptionError(
                '`attribution` weights the supported share of formula="support"; '
                'formula="paper" counts units and has no such weight',
                option="attribution",
            )
        if self.wordnet is None:
            object.__setattr__(self, "wordnet", self.formula == "support")
        if self.lexical_weight is None:
            object.__setattr__(self, "lexical_weight", LEXICAL_WEIGHT if self.formula == "support" else 0.0)
        if self.lexical_weight and self.formula != "support":
            raise OptionError(
                '`lexical_weight` mixes content words into CHI under formula="support"; '
                'formula="paper" fuses the papers\' indices as they are',
                option="lexical_weight",
            )
        check_weights(self.weights)


def lexicon_of(options: ScoringOptions, resources: Resources):
    """The :class:`halluscope.lexicon.lexical.Lexicon` the options ask for, from ``resources``,
    or None when ``wordnet`` is off. A Lexicon without WordNet (not installed) answers
    "same lemma" only; the signature then says ``wn:none``."""
    if options.wordnet is False:
        return None
    return resources.lexicon(options.wordnet if isinstance(options.wordnet, str) else None)
