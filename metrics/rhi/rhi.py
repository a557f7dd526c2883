"""RHI, the Relation Hallucination Index, as a Hugging Face evaluate metric."""

import evaluate
import halluscope.evaluate_support  # From: "halluscope[offline] @ git+https://github.com/halluscope/halluscope@v0.1.0" (install torch first; on CPU: pip install torch --index-url https://download.pytorch.org/whl/cpu; docs/hub.md)
import halluscope.options  # From: "halluscope[offline] @ git+https://github.com/halluscope/halluscope@v0.1.0" (install torch first; on CPU: pip install torch --index-url https://download.pytorch.org/whl/cpu; docs/hub.md)

_DESCRIPTION = """\
RHI scores the subject-verb-object triples of a summary against its source (and
reference). Default (formula="support"): the share of the summary's triples supported
by the source, in [0, 1] (rhi_norm equals it). formula="paper": variant="linear"
(default) is the RHI paper's index (eq. 6-12), in [0, 2], reported with
rhi_norm = RHI/2 (our reading of the undefined eq. 13 bounds); variant="softmax" is
the CHI paper's RHI* (eq. 8-14), about [0.155, 0.576].
Triples come from the RHI paper's grounded extraction (Algorithms 1-4) and are matched
exactly, or semantically: relation_matching="slots" (default: subject, verb and object
each matched on its own, so swapped roles do not match) or "sentence" (the CHI paper:
cosine >= 0.85 between "subject verb object" strings). Negation must always agree.
With WordNet (option wordnet; on by default under formula="support") a verb's synonym,
hypernym, troponym, entailment or verb group in the source counts as the same predicate
("bought" for "acquired"), and an antonym with the same subject and object makes the triple
"contradicted" (counted as unsupported).
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
    + halluscope.options.options_doc("rhi")
    + """\
    return_details (bool): add per-example counts, factors and units with spans.
Returns:
    rhi, rhi_scores, rhi_defined, signature; with variant="linear" also rhi_norm and
    rhi_norm_scores; details with return_details=True.
Examples:
    >>> import evaluate
    >>> rhi = evaluate.load("rhi")  # this folder; from the Hub "<org>/rhi" (docs/hub.md)
    >>> result = rhi.compute(predictions=["The suspect arrested the police."],
    ...     references=["Police arrested the suspect."],
    ...     sources=["Police arrested the suspect on Monday."])
    >>> 0 <= result["rhi_norm"] <= 1
    True
"""
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Rhi(halluscope.evaluate_support.HalluscopeMetric):
    metric_id = "rhi"
    metric_description = _DESCRIPTION
    metric_inputs = _KWARGS_DESCRIPTION
    metric_citation = halluscope.evaluate_support.CITATION_RHI + "\n" + halluscope.evaluate_support.CITATION_CHI
