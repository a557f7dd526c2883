"""The signature of a CHI-family score, as sacrebleu's: two scores are comparable only
when their signatures agree. Every option value that changes a score or a label is in
it, numbers in full (:mod:`halluscope.signature_text`), so that two different values
never share one; each dimension writes its own fields
(:meth:`halluscope.dimensions.base.Dimension.signature_parts`; docs/api.md#signatures)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .dimensions import get as get_dimension
from .fusion import INDEX_SHARE, check_weights
from .resources import Resources
from .scoring_options import ScoringOptions
from .signature_text import number
from .verdict import signature_parts as verdict_parts
from .version import __version__


def _spacy_id(name: str | None, resources: Resources) -> str:
    nlp = resources.nlp(name)
    return f"{nlp.meta.get('lang', 'xx')}_{nlp.meta.get('name', '?')}-{nlp.meta.get('version', '?')}"


def signature(
    metric: str, dimensions: Sequence[str], options: ScoringOptions, fuse: bool, resources: Resources | None = None
) -> str:
    """A sacrebleu-style string: two scores are comparable only if signatures agree.
    ``resources``: where the spaCy model and the lexicon it names are (None: the
    process's default)."""
    resources = Resources.default() if resources is None else resources
    parts = [
        f"halluscope:{__version__}",
        f"metric:{metric}",
        f"spacy:{_spacy_id(options.spacy_model, resources)}",
        f"case:{'source' if options.truecase else 'as-is'}",
        f"formula:{options.formula}",
        f"norm:{options.normalize}",
        f"ground:{options.grounding}",
        f"attr:{'sentence' if options.attribution else 'none'}",
        "refs:max",
    ]
    for name in dimensions:
        parts += get_dimension(name).signature_parts(options, fuse, resources)
    if fuse:
        parts.append("fusion:harmonic-adaptive")
        parts += weight_parts(options.weights, dimensions)
        if options.lexical_weight:
            parts.append(f"lex:{number(options.lexical_weight)}")
            parts.append(f"lexidx:{number(INDEX_SHARE)}")
        parts += verdict_parts(options.threshold)
    return "|".join(parts)


def weight_parts(weights: Mapping[str, float] | None, dimensions: Sequence[str]) -> list[str]:
    """The ``w:`` field of the fusion's ``weights``, each as given in full
    (``w:ehi=1,rhi=1,qhi=2``), or none when they fuse exactly as the default does: every
    weight 1 once :func:`halluscope.fusion.check_weights` has scaled them, such as
    ``{"qhi": 1}`` or 2 for every dimension (same scores, bit for bit, so the same
    signature and chi's verdict; docs/api.md#signatures)."""
    scaled = check_weights(weights)
    if weights is None or all(scaled[d] == 1.0 for d in dimensions):
        return []
    return ["w:" + ",".join(f"{d}={number(weights.get(d, 1))}" for d in dimensions)]
