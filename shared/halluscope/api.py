"""Public scoring functions, one per metric, with explicit options only.

The evaluate modules in ``metrics/<name>/`` are thin wrappers around these; they
can also be called directly (``references=None`` selects the reference-free mode
for the whole call, ``""`` for one row).
"""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Sequence

from .pipeline import ScoringOptions, score


def score_ehi(predictions: Sequence[str], sources: Sequence[str], references=None, *,
              normalize: str = "paper", entity_synonyms: Optional[Mapping[str, str]] = None,
              return_details: bool = False, spacy_model: Optional[str] = None) -> Dict[str, Any]:
    """Entity Hallucination Index (CHI paper, eq. 2–7) per example and on average."""
    options = ScoringOptions(normalize=normalize, entity_synonyms=entity_synonyms, spacy_model=spacy_model)
    return score(("ehi",), predictions, sources, references, options=options,
                 return_details=return_details, metric_name="ehi")


def score_rhi(predictions: Sequence[str], sources: Sequence[str], references=None, *,
              variant: str = "linear", normalize: str = "paper", relation_matching: str = "slots",
              similarity_threshold: float = 0.85, return_details: bool = False,
              spacy_model: Optional[str] = None, sentence_model: Optional[str] = None,
              device: Optional[str] = None, batch_size: int = 64) -> Dict[str, Any]:
    """Relation Hallucination Index: linear (RHI paper eq. 12, with ``rhi_norm`` = RHI/2)
    or softmax RHI* (CHI paper eq. 14)."""
    options = ScoringOptions(normalize=normalize, rhi_variant=variant, relation_matching=relation_matching,
                             similarity_threshold=similarity_threshold, spacy_model=spacy_model,
                             sentence_model=sentence_model, device=device, batch_size=batch_size)
    return score(("rhi",), predictions, sources, references, options=options,
                 return_details=return_details, metric_name="rhi")


def score_qhi(predictions: Sequence[str], sources: Sequence[str], references=None, *,
              normalize: str = "paper", epsilon: float = 0.05, derived: bool = True,
              temporal: bool = True, publication_dates=None, return_details: bool = False,
              spacy_model: Optional[str] = None) -> Dict[str, Any]:
    """Quantity Hallucination Index (CHI paper eq. 15–20) with tolerant matching."""
    options = ScoringOptions(normalize=normalize, epsilon=epsilon, derived_quantities=derived,
                             temporal_quantities=temporal, spacy_model=spacy_model)
    return score(("qhi",), predictions, sources, references, options=options,
                 publication_dates=publication_dates, return_details=return_details, metric_name="qhi")


def score_chi(predictions: Sequence[str], sources: Sequence[str], references=None, *,
              normalize: str = "paper", weights: Optional[Mapping[str, float]] = None,
              relation_matching: str = "slots", similarity_threshold: float = 0.85,
              epsilon: float = 0.05, derived: bool = True, temporal: bool = True,
              publication_dates=None, entity_synonyms: Optional[Mapping[str, str]] = None,
              return_details: bool = False, spacy_model: Optional[str] = None,
              sentence_model: Optional[str] = None, device: Optional[str] = None,
              batch_size: int = 64) -> Dict[str, Any]:
    """Composite Hallucination Index (CHI paper eq. 21–22): harmonic mean of EHI, RHI*
    and QHI over the dimensions defined for each example."""
    options = ScoringOptions(normalize=normalize, weights=weights, relation_matching=relation_matching,
                             similarity_threshold=similarity_threshold, epsilon=epsilon,
                             derived_quantities=derived, temporal_quantities=temporal,
                             entity_synonyms=entity_synonyms, spacy_model=spacy_model,
                             sentence_model=sentence_model, device=device, batch_size=batch_size)
    return score(("ehi", "rhi", "qhi"), predictions, sources, references, options=options,
                 publication_dates=publication_dates, return_details=return_details, fuse=True,
                 metric_name="chi")
