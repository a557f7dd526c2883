"""CHI, the Composite Hallucination Index, as a Hugging Face evaluate metric."""
import evaluate
import halluscope.api
import halluscope.evaluate_support

_DESCRIPTION = """\
CHI fuses three hallucination indices of a summary against its source document (and
optionally a reference summary): entities (EHI), relations (RHI) and quantities (QHI),
by a harmonic mean over the dimensions defined for each example (CHI paper, eq. 21-22).
Higher is more faithful. By default (formula="support") each dimension is the share of
the summary's units supported by the source, in [0, 1]; CHI is 0.99 x their fusion +
0.01 x w, w the mean of the share of the summary's content words (lemmas of nouns,
verbs, adjectives, adverbs) that the source supports, by lemma or written form or
through WordNet, and the share of its content tokens found in the source as written
(lexical_weight: the units decide, the words order summaries the units tie),
and a summary with no unit at all scores w (0 when empty). formula="paper" gives the
seeds' softmax formulas (RHI* for relations) exactly, range about [0.16, 0.64], or
rescaled to [0, 1] with normalize="minmax".
"""

_KWARGS_DESCRIPTION = """\
Args:
    predictions (list of str): generated summaries; an empty string is scored as a
        summary with no units.
    references (list of str, or list of list of str): reference summaries; "" selects
        the reference-free mode for that row; with several references the best one is
        kept per dimension.
    sources (list of str): source documents (non-empty).
""" + halluscope.evaluate_support.FORMULA_DOC + halluscope.evaluate_support.GROUNDING_DOC + \
    halluscope.evaluate_support.RELATION_SLOTS_DOC + halluscope.evaluate_support.WORDNET_DOC + """\
    weights (dict, optional): weighted harmonic mean, e.g. {"qhi": 2}.
    lexical_weight (float, optional): λ in CHI = (1 - λ) x fused + λ x w, w the mean
        of the share of the summary's content words that the source supports (by lemma
        or written form or through WordNet; an antonym in the source makes a word
        "contradicted") and the share of its content tokens found as written (details:
        words, with w, support_share, written_share and every word's status and span); default
        0.01 under formula="support" (it orders summaries with the same unit support),
        0 under "paper"; 0 turns it off.
    relation_matching ("slots" | "sentence" | "exact"): relation triple matching.
    similarity_threshold (float): cosine threshold for semantic relation matching (0.85).
    epsilon (float): relative tolerance of quantity matching (0.05).
    derived (bool), temporal (bool): enable derived-quantity and calendar matching.
    publication_dates (list of str/date/None, optional): per-row date that relative
        dates ("last Tuesday") are resolved against.
    entity_synonyms (dict, optional): alias -> canonical entity name.
    return_details (bool): add per-example counts, factors and units with spans.
    batch_size (int): encoder batch size.
Returns:
    chi, ehi, rhi, qhi: means over the examples where each is defined;
    chi_scores, ehi_scores, rhi_scores, qhi_scores: per example (NaN when undefined);
    ehi_defined, rhi_defined, qhi_defined: how many examples define each dimension;
    signature: versions, models and options; compare scores only when these agree;
    details (with return_details=True).
Examples:
    >>> import evaluate
    >>> chi = evaluate.load("metrics/chi")
    >>> result = chi.compute(
    ...     predictions=["Apple bought Beats for $3 billion in 2014."],
    ...     references=["Apple acquired Beats for $3 billion."],
    ...     sources=["Apple said on Wednesday it bought Beats Electronics for $3 billion in 2014."])
    >>> round(result["chi"], 3) > 0
    True
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Chi(halluscope.evaluate_support.HalluscopeMetric):
    metric_id = "chi"
    metric_description = _DESCRIPTION
    metric_inputs = _KWARGS_DESCRIPTION
    metric_citation = halluscope.evaluate_support.CITATION_CHI

    def _compute(self, predictions, references, sources, formula="support", normalize="paper",
                 grounding="text", truecase=True, attribution=None, weights=None,
                 lexical_weight=None, relation_slots="compound", intransitive="passive",
                 relation_matching="slots", wordnet=None,
                 similarity_threshold=0.85, epsilon=0.05, derived=True,
                 temporal=True, publication_dates=None, entity_synonyms=None, return_details=False,
                 batch_size=64):
        return halluscope.api.score_chi(
            predictions, sources, halluscope.evaluate_support.references_for_backend(references),
            formula=formula, normalize=normalize, grounding=grounding, weights=weights,
            lexical_weight=lexical_weight, truecase=truecase, attribution=attribution,
            relation_slots=relation_slots, intransitive=intransitive, relation_matching=relation_matching,
            wordnet=wordnet, similarity_threshold=similarity_threshold, epsilon=epsilon, derived=derived,
            temporal=temporal, publication_dates=publication_dates, entity_synonyms=entity_synonyms,
            return_details=return_details, batch_size=batch_size, **self.model_options,
        )
