"""EHI, the Entity Hallucination Index, as a Hugging Face evaluate metric."""
import evaluate
import halluscope.api
import halluscope.evaluate_support

_DESCRIPTION = """\
EHI scores the named entities of a summary against its source and reference with five
Venn-diagram factors and a softmax (CHI paper, eq. 2-7). Entities are spaCy's
non-numeric NER labels, matched after normalisation, by acronym (WHO ~ World Health
Organization), partial person name (Obama ~ Barack Obama) or a user synonym dictionary.
Higher is more faithful; with normalize="paper" the range is about [0.197, 0.644].
An empty-string reference scores that row reference-free (share of the summary's
entities found in the source).
"""

_KWARGS_DESCRIPTION = """\
Args:
    predictions (list of str): generated summaries.
    references (list of str, or list of list of str): references; "" = reference-free row.
    sources (list of str): source documents.
    normalize ("paper" | "minmax"): index scale.
    entity_synonyms (dict, optional): alias -> canonical entity name.
    return_details (bool): per-example counts, factors and entities with spans.
Returns:
    ehi (mean over defined examples), ehi_scores, ehi_defined, signature, details.
Examples:
    >>> import evaluate
    >>> ehi = evaluate.load("metrics/ehi")
    >>> result = ehi.compute(predictions=["Obama met the WHO chief in Paris."],
    ...     references=["Barack Obama met the World Health Organization chief."],
    ...     sources=["Barack Obama met the head of the World Health Organization in Paris."])
    >>> 0.19 < result["ehi"] < 0.65
    True
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Ehi(halluscope.evaluate_support.HalluscopeMetric):
    metric_id = "ehi"
    model_option_names = ("spacy_model",)
    metric_description = _DESCRIPTION
    metric_inputs = _KWARGS_DESCRIPTION
    metric_citation = halluscope.evaluate_support.CITATION_EHI + "\n" + halluscope.evaluate_support.CITATION_CHI

    def _compute(self, predictions, references, sources, normalize="paper", entity_synonyms=None,
                 return_details=False):
        return halluscope.api.score_ehi(
            predictions, sources, halluscope.evaluate_support.references_for_backend(references),
            normalize=normalize, entity_synonyms=entity_synonyms, return_details=return_details,
            **self.model_options,
        )
