"""RHI, the Relation Hallucination Index, as a Hugging Face evaluate metric."""
import evaluate
import halluscope.api
import halluscope.evaluate_support

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

_KWARGS_DESCRIPTION = """\
Args:
    predictions (list of str): generated summaries.
    references (list of str, or list of list of str): references; "" = reference-free row.
    sources (list of str): source documents.
    variant ("linear" | "softmax"): RHI (RHI paper) or RHI* (CHI paper).
""" + halluscope.evaluate_support.FORMULA_DOC + halluscope.evaluate_support.GROUNDING_DOC + \
    halluscope.evaluate_support.RELATION_SLOTS_DOC + halluscope.evaluate_support.WORDNET_DOC + """\
    relation_matching ("slots" | "sentence" | "exact").
    similarity_threshold (float): cosine threshold (0.85).
    return_details (bool): per-example counts, factors and triples with spans.
    batch_size (int): encoder batch size.
Returns:
    rhi, rhi_scores, rhi_defined, signature; with variant="linear" also rhi_norm and
    rhi_norm_scores; details with return_details=True.
Examples:
    >>> import evaluate
    >>> rhi = evaluate.load("metrics/rhi")
    >>> result = rhi.compute(predictions=["The suspect arrested the police."],
    ...     references=["Police arrested the suspect."],
    ...     sources=["Police arrested the suspect on Monday."])
    >>> 0 <= result["rhi_norm"] <= 1
    True
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Rhi(halluscope.evaluate_support.HalluscopeMetric):
    metric_id = "rhi"
    metric_description = _DESCRIPTION
    metric_inputs = _KWARGS_DESCRIPTION
    metric_citation = halluscope.evaluate_support.CITATION_RHI + "\n" + halluscope.evaluate_support.CITATION_CHI

    def _compute(self, predictions, references, sources, variant="linear", formula="support",
                 normalize="paper", grounding="text", truecase=True, attribution=None,
                 relation_slots="compound", intransitive="passive", relation_matching="slots",
                 wordnet=None, similarity_threshold=0.85, return_details=False, batch_size=64):
        return halluscope.api.score_rhi(
            predictions, sources, halluscope.evaluate_support.references_for_backend(references),
            variant=variant, formula=formula, normalize=normalize, grounding=grounding,
            truecase=truecase, attribution=attribution, relation_slots=relation_slots,
            intransitive=intransitive, relation_matching=relation_matching,
            wordnet=wordnet, similarity_threshold=similarity_threshold, return_details=return_details,
            batch_size=batch_size, **self.model_options,
        )
