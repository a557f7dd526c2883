"""QHI, the Quantity Hallucination Index, as a Hugging Face evaluate metric."""
import evaluate
import halluscope.api
import halluscope.evaluate_support

_DESCRIPTION = """\
QHI scores the quantities of a summary (numbers, money, percentages, measures, dates)
against its source and reference with the five EHI factors and a softmax (CHI paper,
eq. 15-20). Quantities come from quantulum3, spaCy's numeric NER and patterns for
multipliers and currencies, each anchored to its noun phrase, and are matched in order:
exact, epsilon (5% relative), derived (sum, difference, ratio, percent change, small
multiples of source quantities) and temporal (calendar intervals; relative dates need
a publication date). A quantity invented for a source without numbers is penalised:
the dimension is undefined only when source, reference and summary all have none.
"""

_KWARGS_DESCRIPTION = """\
Args:
    predictions (list of str): generated summaries.
    references (list of str, or list of list of str): references; "" = reference-free row.
    sources (list of str): source documents.
""" + halluscope.evaluate_support.FORMULA_DOC + """\
    epsilon (float): relative tolerance (0.05).
    derived (bool), temporal (bool): enable derived and calendar matching.
    publication_dates (list of str/date/None, optional): per-row publication date.
    return_details (bool): per-example counts, factors and quantities with spans.
Returns:
    qhi, qhi_scores, qhi_defined, signature, details (with return_details=True).
Examples:
    >>> import evaluate
    >>> qhi = evaluate.load("metrics/qhi")
    >>> result = qhi.compute(predictions=["Sales rose to $2.5 billion in the first half."],
    ...     references=["First-half sales were $2.5 billion."],
    ...     sources=["Sales were $1.2 billion in Q1 and $1.3 billion in Q2."])
    >>> result["qhi_defined"]
    1
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Qhi(halluscope.evaluate_support.HalluscopeMetric):
    metric_id = "qhi"
    model_option_names = ("spacy_model",)
    metric_description = _DESCRIPTION
    metric_inputs = _KWARGS_DESCRIPTION
    metric_citation = halluscope.evaluate_support.CITATION_CHI

    def _compute(self, predictions, references, sources, formula="support", normalize="paper",
                 truecase=True, attribution=None, epsilon=0.05, derived=True,
                 temporal=True, publication_dates=None, return_details=False):
        return halluscope.api.score_qhi(
            predictions, sources, halluscope.evaluate_support.references_for_backend(references),
            formula=formula, normalize=normalize, truecase=truecase, attribution=attribution,
            epsilon=epsilon, derived=derived, temporal=temporal,
            publication_dates=publication_dates, return_details=return_details, **self.model_options,
        )
