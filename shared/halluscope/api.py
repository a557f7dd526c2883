"""Public scoring functions, one per metric, with explicit options only.

The evaluate modules in ``metrics/<name>/`` are thin wrappers around these; they
can also be called directly (``references=None`` selects the reference-free mode
for the whole call, ``""`` for one row).
"""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Sequence, Union

from . import __version__
from .acu.discourse import DEFAULT_DELTA as DL_DEFAULT_DELTA
from .pipeline import ScoringOptions, score


def score_ehi(predictions: Sequence[str], sources: Sequence[str], references=None, *,
              formula: str = "support", normalize: str = "paper", grounding: str = "text",
              truecase: bool = True, attribution: Optional[bool] = None,
              entity_synonyms: Optional[Mapping[str, str]] = None,
              return_details: bool = False, spacy_model: Optional[str] = None) -> Dict[str, Any]:
    """Entity Hallucination Index (CHI paper, eq. 2–7) per example and on average."""
    options = ScoringOptions(formula=formula, normalize=normalize, grounding=grounding,
                             truecase=truecase, attribution=attribution, entity_synonyms=entity_synonyms,
                             spacy_model=spacy_model)
    return score(("ehi",), predictions, sources, references, options=options,
                 return_details=return_details, metric_name="ehi")


def score_rhi(predictions: Sequence[str], sources: Sequence[str], references=None, *,
              variant: str = "linear", formula: str = "support", normalize: str = "paper",
              grounding: str = "text", truecase: bool = True, attribution: Optional[bool] = None,
              relation_slots: str = "compound", intransitive: str = "passive",
              relation_matching: str = "slots", wordnet: Union[None, bool, str] = None,
              similarity_threshold: float = 0.85, return_details: bool = False,
              spacy_model: Optional[str] = None, sentence_model: Optional[str] = None,
              device: Optional[str] = None, batch_size: int = 64) -> Dict[str, Any]:
    """Relation Hallucination Index: linear (RHI paper eq. 12, with ``rhi_norm`` = RHI/2)
    or softmax RHI* (CHI paper eq. 14)."""
    options = ScoringOptions(formula=formula, normalize=normalize, grounding=grounding, rhi_variant=variant,
                             truecase=truecase, attribution=attribution, relation_slots=relation_slots,
                             intransitive=intransitive, wordnet=wordnet,
                             relation_matching=relation_matching,
                             similarity_threshold=similarity_threshold, spacy_model=spacy_model,
                             sentence_model=sentence_model, device=device, batch_size=batch_size)
    return score(("rhi",), predictions, sources, references, options=options,
                 return_details=return_details, metric_name="rhi")


def score_qhi(predictions: Sequence[str], sources: Sequence[str], references=None, *,
              formula: str = "support", normalize: str = "paper", truecase: bool = True,
              attribution: Optional[bool] = None, epsilon: float = 0.05,
              derived: bool = True, temporal: bool = True, publication_dates=None,
              return_details: bool = False, spacy_model: Optional[str] = None) -> Dict[str, Any]:
    """Quantity Hallucination Index (CHI paper eq. 15–20) with tolerant matching."""
    options = ScoringOptions(formula=formula, normalize=normalize, truecase=truecase, attribution=attribution,
                             epsilon=epsilon, derived_quantities=derived,
                             temporal_quantities=temporal, spacy_model=spacy_model)
    return score(("qhi",), predictions, sources, references, options=options,
                 publication_dates=publication_dates, return_details=return_details, metric_name="qhi")


def score_chi(predictions: Sequence[str], sources: Sequence[str], references=None, *,
              formula: str = "support", normalize: str = "paper", grounding: str = "text",
              truecase: bool = True, attribution: Optional[bool] = None,
              weights: Optional[Mapping[str, float]] = None, lexical_weight: Optional[float] = None,
              relation_slots: str = "compound", intransitive: str = "passive", relation_matching: str = "slots",
              wordnet: Union[None, bool, str] = None, similarity_threshold: float = 0.85,
              epsilon: float = 0.05, derived: bool = True, temporal: bool = True,
              publication_dates=None, entity_synonyms: Optional[Mapping[str, str]] = None,
              return_details: bool = False, spacy_model: Optional[str] = None,
              sentence_model: Optional[str] = None, device: Optional[str] = None,
              batch_size: int = 64) -> Dict[str, Any]:
    """Composite Hallucination Index (CHI paper eq. 21–22): harmonic mean of EHI, RHI*
    and QHI over the dimensions defined for each example; under ``formula="support"``
    mixed with the summary's word-level support w (the share of its content words the
    source supports by lemma or WordNet, :mod:`halluscope.match.words`),
    (1 - ``lexical_weight``) x the fusion + ``lexical_weight`` x w
    (:func:`halluscope.pipeline._fused`)."""
    options = ScoringOptions(formula=formula, normalize=normalize, grounding=grounding, weights=weights,
                             lexical_weight=lexical_weight, truecase=truecase, attribution=attribution,
                             relation_slots=relation_slots, intransitive=intransitive,
                             relation_matching=relation_matching, wordnet=wordnet,
                             similarity_threshold=similarity_threshold, epsilon=epsilon,
                             derived_quantities=derived, temporal_quantities=temporal,
                             entity_synonyms=entity_synonyms, spacy_model=spacy_model,
                             sentence_model=sentence_model, device=device, batch_size=batch_size)
    return score(("ehi", "rhi", "qhi"), predictions, sources, references, options=options,
                 publication_dates=publication_dates, return_details=return_details, fuse=True,
                 metric_name="chi")


def score_dlsd_acu(predictions: Sequence[str], sources: Sequence[str], references=None, *,
                   host: str = "fizz", sd_acu: bool = True, top_k: Optional[int] = 1,
                   threshold: Optional[float] = None, aggregation: Optional[str] = None,
                   alignment: Optional[str] = None, expansion: Optional[bool] = None,
                   expansion_threshold: float = 0.5, mix_weight: float = 0.5, filter_acus: bool = True,
                   coref: str = "rules", decomposer="seq2seq", decomposer_model: Optional[str] = None,
                   nli_model: Optional[str] = None, nli_scorer=None, nli_engine=None,
                   device: Optional[str] = None, dtype: str = "float32", batch_size: int = 32,
                   max_length: int = 512, dl_acu: str = "auto", tau: float = 0.4,
                   delta: float = DL_DEFAULT_DELTA,
                   dl_units=None, return_details: bool = False) -> Dict[str, Any]:
    """NLI-based atomic-fact checking with selective document units (seed 000) on a
    FIZZ (hard min) or FENICE (soft mean) host. Reference-free: ``references`` are
    accepted and unused. ``nli_scorer(premises, hypotheses) -> (n, 3)`` probabilities
    [ent, neu, con] replaces the NLI model (tests, custom models); ``nli_engine`` passes a
    ready :class:`halluscope.nli.NLIEngine` (benchmarks use a fresh one to count calls).
    ``dl_acu`` adds discourse-link units: ``"amr"``, ``"dep"`` (offline), ``"none"``, or
    ``"auto"`` (AMR when an AMR model is installed, else dep), kept when the summary
    entails them (P >= ``tau``) and new (BERTScore F1 < ``delta`` to every host ACU);
    ``dl_units`` replaces that step with any callable of the same batch interface."""
    import math

    from .acu.components import coreference_step, get_decomposer
    from .acu.pipeline import AcuOptions, dlsd_signature, score_batch
    from .nli import NLIEngine, get_nli_engine
    from .validation import validate_inputs

    options = AcuOptions(host=host, sd_acu=sd_acu, top_k=top_k, aggregation=aggregation, alignment=alignment,
                         expansion=expansion, expansion_threshold=expansion_threshold, mix_weight=mix_weight,
                         filter_acus=filter_acus, coref=coref)
    if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, (int, float))):
        raise TypeError(f"`threshold` must be a number or None, got {threshold!r}")
    batch = validate_inputs(predictions, sources, references)
    if nli_engine is not None:
        engine = nli_engine
    elif nli_scorer is not None:
        engine = NLIEngine(scorer=nli_scorer, batch_size=batch_size)
    else:
        engine = get_nli_engine(nli_model, device=device, dtype=dtype, batch_size=batch_size,
                                max_length=max_length)
    unit_decomposer = get_decomposer(decomposer, model=decomposer_model, device=device, dtype=dtype)
    if dl_units is None and dl_acu != "none":
        from .acu.discourse import DiscourseLinkUnits, resolve_backend

        dl_acu = resolve_backend(dl_acu)
        dl_units = DiscourseLinkUnits(dl_acu, tau=tau, delta=delta, coref=coref, device=device)
    result = score_batch(batch.predictions, batch.sources, engine=engine, decomposer=unit_decomposer,
                         options=options, coref=coreference_step(coref), dl_units=dl_units,
                         return_details=return_details)
    scores = result.pop("scores")
    defined = [s for s in scores if not math.isnan(s)]
    output: Dict[str, Any] = {
        "dlsd_acu": sum(defined) / len(defined) if defined else math.nan,
        "dlsd_acu_scores": scores,
    }
    if threshold is not None:
        output["labels"] = [None if math.isnan(s) else int(s >= threshold) for s in scores]
    output.update(result)
    output["signature"] = dlsd_signature(
        options, decomposer=unit_decomposer.name, nli=engine.name, dtype=dtype, max_length=max_length,
        dl=None if dl_units is None else (getattr(dl_units, "name", None) or getattr(dl_units, "__name__", "hook")))
    if "details" in output:
        output["details"] = output.pop("details")
    return output
