"""CHI, the Composite Hallucination Index, as a Hugging Face evaluate metric."""

import evaluate
import halluscope.evaluate_support  # From: "halluscope[offline] @ git+https://github.com/halluscope/halluscope@v0.1.0" (install torch first; on CPU: pip install torch --index-url https://download.pytorch.org/whl/cpu; docs/hub.md)
import halluscope.options  # From: "halluscope[offline] @ git+https://github.com/halluscope/halluscope@v0.1.0" (install torch first; on CPU: pip install torch --index-url https://download.pytorch.org/whl/cpu; docs/hub.md)

_DESCRIPTION = """\
CHI fuses three hallucination indices of a summary against its source document (and
optionally a reference summary): entities (EHI), relations (RHI) and quantities (QHI),
by a harmonic mean over the dimensions defined for each example (CHI paper, eq. 21-22).
Higher is more faithful. By default (formula="support") each dimension is the share of
the summary's units supported by the source, in [0, 1]; CHI is 0.99 x their fusion +
0.01 x w x (0.9 + 0.1 x the dimensions' mean, which keeps them counting where the fusion
is 0), w the mean of the share of the summary's content words (lemmas of nouns,
verbs, adjectives, adverbs) that the source supports, by lemma or written form or
through WordNet, and the share of its content tokens found in the source as written
(lexical_weight: the units decide, the words order summaries the units tie),
and a summary with no unit at all scores w (0 when empty). formula="paper" gives the
papers' softmax formulas (RHI* for relations) exactly, range about [0.16, 0.64], or
rescaled to [0, 1] with normalize="minmax".
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
    + halluscope.options.options_doc("chi")
    + """\
    publication_dates (list of str/date/None, optional): per-row date that relative
        dates ("last Tuesday") are resolved against.
    return_details (bool): add per-example counts, factors and units with spans.
Returns:
    chi, ehi, rhi, qhi: means over the examples where each is defined;
    chi_scores, ehi_scores, rhi_scores, qhi_scores: per example (NaN when undefined);
    ehi_defined, rhi_defined, qhi_defined: how many examples define each dimension;
    p_consistent, p_consistent_scores: the probability that a summary is consistent,
        calibrated at even odds (default options only; absent otherwise, never NaN);
    p_consistent_reason: present instead of them under other options: which differ;
    labels: 1 (consistent) where p_consistent >= threshold (the shipped cut, 0.5, by
        default; absent with p_consistent);
    signature: versions, models and options; compare scores only when these agree;
    details (with return_details=True).
Examples:
    >>> import evaluate
    >>> chi = evaluate.load("chi")  # this folder; from the Hub "<org>/chi" (docs/hub.md)
    >>> result = chi.compute(
    ...     predictions=["Apple bought Beats for $3 billion in 2014."],
    ...     references=["Apple acquired Beats for $3 billion."],
    ...     sources=["Apple said on Wednesday it bought Beats Electronics for $3 billion in 2014."])
    >>> round(result["chi"], 3) > 0
    True
"""
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Chi(halluscope.evaluate_support.HalluscopeMetric):
    metric_id = "chi"
    metric_description = _DESCRIPTION
    metric_inputs = _KWARGS_DESCRIPTION
    metric_citation = halluscope.evaluate_support.CITATION_CHI
