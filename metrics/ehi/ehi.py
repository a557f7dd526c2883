"""EHI, the Entity Hallucination Index, as a Hugging Face evaluate metric."""
import evaluate
import halluscope.api
import halluscope.evaluate_support

_DESCRIPTION = """\
EHI scores the named entities of a summary against its source (and reference).
Entities are spaCy's non-numeric NER labels, matched after normalisation, by acronym
(WHO ~ World Health Organization), partial person name (Obama ~ Barack Obama), a user
synonym dictionary or, with grounding="text", in the source's text. Higher is more
faithful. Default (formula="support"): the share of the summary's entities supported
by the source, in [0, 1]. formula="paper": five Venn-diagram factors and a softmax
(CHI paper, eq. 2-7), range about [0.197, 0.644] with normalize="paper".
"""

_KWARGS_DESCRIPTION = """\
Args:
    predictions (list of str): generated summaries.
    references (list of str, or list of list of str): references; "" = reference-free row.
    sources (list of str): source documents.
""" + halluscope.evaluate_support.FORMULA_DOC + halluscope.evaluate_support.GROUNDING_DOC + """\
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
    >>> result["ehi"]  # Obama, WHO and Paris are all in the source
    1.0
    >>> paper = ehi.compute(predictions=["Obama met the WHO chief in Paris."],
    ...     references=["Barack Obama met the World Health Organization chief."],
    ...     sources=["Barack Obama met the head of the World Health Organization in Paris."],
    ...     formula="paper")
    >>> 0.19 < paper["ehi"] < 0.65
    True
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Ehi(halluscope.evaluate_support.HalluscopeMetric):
    metric_id = "ehi"
    model_option_names = ("spacy_model",)
    metric_description = _DESCRIPTION
    metric_inputs = _KWARGS_DESCRIPTION
    metric_citation = halluscope.evaluate_support.CITATION_EHI + "\n" + halluscope.evaluate_support.CITATION_CHI

    def _compute(self, predictions, references, sources, formula="support", normalize="paper",
                 grounding="text", truecase=True, attribution=None, entity_synonyms=None,
                 return_details=False):
        return halluscope.api.score_ehi(
            predictions, sources, halluscope.evaluate_support.references_for_backend(references),
            formula=formula, normalize=normalize, grounding=grounding, truecase=truecase,
            attribution=attribution, entity_synonyms=entity_synonyms,
            return_details=return_details,
            **self.model_options,
        )
