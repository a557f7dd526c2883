"""The signature of a CHI-family score, as sacrebleu's: two scores are comparable only
when their signatures agree. Every option that changes a score is in it; each
dimension writes its own fields (:meth:`halluscope.dimensions.base.Dimension.signature_parts`)."""
from __future__ import annotations

from typing import Optional, Sequence

from .dimensions import get as get_dimension
from .fusion import INDEX_SHARE, check_weights
from .resources import Resources
from .scoring_options import ScoringOptions
from .verdict import signature_parts as verdict_parts
from .version import __version__


def _spacy_id(name: Optional[str], resources: Resources) -> str:
    nlp = resources.nlp(name)
    return f"{nlp.meta.get('lang', 'xx')}_{nlp.meta.get('name', '?')}-{nlp.meta.get('version', '?')}"


def signature(metric: str, dimensions: Sequence[str], options: ScoringOptions, fuse: bool,
              resources: Optional[Resources] = None) -> str:
    """A sacrebleu-style string: two scores are comparable only if signatures agree.
    ``resources``: where the spaCy model and the lexicon it names are (None: the
    process's default)."""
    resources = Resources.default() if resources is None else resources
    parts = [f"halluscope:{__version__}", f"metric:{metric}", f"spacy:{_spacy_id(options.spacy_model, resources)}",
             f"case:{'source' if options.truecase else 'as-is'}", f"formula:{options.formula}",
             f"norm:{options.normalize}", f"ground:{options.grounding}",
             f"attr:{'sentence' if options.attribution else 'none'}", "refs:max"]
    for name in dimensions:
        parts += get_dimension(name).signature_parts(options, fuse, resources)
    if fuse:
        check_weights(options.weights)
        w = {d: options.weights.get(d, 1) for d in dimensions} if options.weights is not None else {}
        parts.append("fusion:harmonic-adaptive" + ("" if options.weights is None else
                     "|w:" + ",".join(f"{d}={w[d]:g}" for d in dimensions)))
        if options.lexical_weight:
            parts.append(f"lex:{options.lexical_weight:g}")
            parts.append(f"lexidx:{INDEX_SHARE:g}")
        parts += verdict_parts(options.threshold)
    return "|".join(parts)
