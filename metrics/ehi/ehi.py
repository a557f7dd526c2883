"""EHI, the Entity Hallucination Index, as a Hugging Face evaluate metric."""

import evaluate
import halluscope.evaluate_support  # From: "halluscope[offline] @ git+https://github.com/halluscope/halluscope@v0.1.0" (install torch first; on CPU: pip install torch --index-url https://download.pytorch.org/whl/cpu; docs/hub.md)
import halluscope.options  # From: "halluscope[offline] @ git+https://github.com/halluscope/halluscope@v0.1.0" (install torch first; on CPU: pip install torch --index-url https://download.pytorch.org/whl/cpu; docs/hub.md)

_DESCRIPTION = """\
EHI scores the named entities of a summary against its source (and reference).
Entities are spaCy's non-numeric NER labels, matched after normalisation, by acronym
(WHO ~ World Health Organization), partial person name (Obama ~ Barack Obama), a user
synonym dictionary or, with grounding="text", in the source's text. Higher is more
faithful. Default (formula="support"): the share of the summary's entities supported
by the source, in [0, 1]. formula="paper": five Venn-diagram factors and a softmax
(CHI paper, eq. 2-7), range about [0.197, 0.644] with normalize="paper".
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
    + halluscope.options.options_doc("ehi")
    + """\
    return_details (bool): add per-example counts, factors and units with spans.
Returns:
    ehi (mean over defined examples), ehi_scores, ehi_defined, signature, details.
Examples:
    >>> import evaluate
    >>> ehi = evaluate.load("ehi")  # this folder; from the Hub "<org>/ehi" (docs/hub.md)
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
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Ehi(halluscope.evaluate_support.HalluscopeMetric):
    metric_id = "ehi"
    metric_description = _DESCRIPTION
    metric_inputs = _KWARGS_DESCRIPTION
    metric_citation = halluscope.evaluate_support.CITATION_EHI + "\n" + halluscope.evaluate_support.CITATION_CHI
