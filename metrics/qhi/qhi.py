"""QHI, the Quantity Hallucination Index, as a Hugging Face evaluate metric."""

import evaluate
import halluscope.evaluate_support  # From: "halluscope[offline] @ git+https://github.com/halluscope/halluscope@v0.1.0" (install torch first; on CPU: pip install torch --index-url https://download.pytorch.org/whl/cpu; docs/hub.md)
import halluscope.options  # From: "halluscope[offline] @ git+https://github.com/halluscope/halluscope@v0.1.0" (install torch first; on CPU: pip install torch --index-url https://download.pytorch.org/whl/cpu; docs/hub.md)

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

_KWARGS_DESCRIPTION = (
    """\
Args:
    predictions (list of str): generated summaries; an empty string is scored as a
        summary with no units.
    references (list of str, or list of list of str, optional): reference summaries; ""
        selects the reference-free mode for that row; with several references the best one
        is kept per dimension.
    sources (list of str): source documents (non-empty).
"""
    + halluscope.options.options_doc("qhi")
    + """\
    publication_dates (list of str/date/None, optional): per-row date that relative
        dates ("last Tuesday") are resolved against.
    return_details (bool): add per-example counts, factors and units with spans.
Returns:
    qhi, qhi_scores, qhi_defined, signature, details (with return_details=True).
Examples:
    >>> import evaluate
    >>> qhi = evaluate.load("qhi")  # this folder; from the Hub "<org>/qhi" (docs/hub.md)
    >>> result = qhi.compute(predictions=["Sales rose to $2.5 billion in the first half."],
    ...     references=["First-half sales were $2.5 billion."],
    ...     sources=["Sales were $1.2 billion in Q1 and $1.3 billion in Q2."])
    >>> result["qhi_defined"]
    1
"""
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Qhi(halluscope.evaluate_support.HalluscopeMetric):
    metric_id = "qhi"
    metric_description = _DESCRIPTION
    metric_inputs = _KWARGS_DESCRIPTION
    metric_citation = halluscope.evaluate_support.CITATION_CHI
