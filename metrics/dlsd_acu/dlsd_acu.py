"""dlsd_acu: NLI-based atomic-fact checking with selective document units, as an evaluate metric."""
import evaluate
import halluscope.acu.discourse
import halluscope.api
import halluscope.evaluate_support

_DESCRIPTION = """\
dlsd_acu decomposes each summary into atomic content units (ACUs), checks each unit
against the source document with an NLI model and aggregates the unit scores: hard
(min, FIZZ) or soft (mean, FENICE). SD-ACU (Mind the Link, docs/papers.md#sd-acu)
decomposes the top-k document sentences of each unit into document ACUs so units are
compared at the same granularity. Reference-free: references are accepted and unused. Higher is more
faithful; the range depends on the alignment: [0, 1] for "ent", [-1, 1] otherwise.
"""

_KWARGS_DESCRIPTION = """\
Args:
    predictions (list of str): generated summaries (an empty one has no unit: NaN).
    references (list of str): accepted and unused ("" is fine).
    sources (list of str): source documents.
    host ("fizz" | "fenice"): preset of aggregation, alignment and expansion.
    sd_acu (bool): add selective document ACUs as premises (default True).
    top_k (int): document sentences decomposed per unit (default 1).
    threshold (float, optional): adds binary `labels` (1 = consistent: score >= threshold).
    aggregation ("min" | "mean" | "mix"), alignment ("ent" | "ent-contr" | "ent-neutral"),
    expansion (bool), expansion_threshold (float), mix_weight (float): override the host.
    filter_acus (bool): drop ACUs their summary sentence does not entail (FIZZ).
    coref ("rules" | "none" | "maverick" | "fastcoref"): coreference before decomposition.
    decomposer ("seq2seq" | "rules"): the paper's claim extractor, or the offline splitter.
    dl_acu ("auto" | "amr" | "dep" | "none"): discourse-link units from AMR graphs or the
        dependency parse ("auto": AMR when an AMR model is installed, else dep).
    tau (float): NLI filter of DL-ACUs, P(ent | summary) >= tau (0.4).
    delta (float): overlap filter, raw MiniLM BERTScore F1 to every host ACU < delta (0.88;
        the paper's 0.7 is on roberta-large's scale, see the card).
    batch_size (int), max_length (int): NLI batching and premise truncation.
    return_details (bool): units, type, score, best evidence text and location.
Returns:
    dlsd_acu (mean), dlsd_acu_scores, labels (with threshold), nli_pairs_requested,
    nli_pairs_scored, nli_pairs_cached, decomposer_calls, signature, details.
Examples:
    >>> import evaluate
    >>> def overlap_nli(premises, hypotheses):  # a stand-in scorer: word overlap
    ...     rows = []
    ...     for p, h in zip(premises, hypotheses):
    ...         words = set(h.lower().split())
    ...         share = len(words & set(p.lower().split())) / max(1, len(words))
    ...         rows.append([share, 1 - share, 0.0])
    ...     return rows
    >>> metric = evaluate.load("metrics/dlsd_acu", nli_scorer=overlap_nli)
    >>> result = metric.compute(predictions=["The cat sat on the mat."], references=[""],
    ...     sources=["The cat sat on the mat. It was sunny."], decomposer="rules", coref="none",
    ...     dl_acu="none")
    >>> result["dlsd_acu"]
    1.0
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class DlsdAcu(halluscope.evaluate_support.HalluscopeMetric):
    metric_id = "dlsd_acu"
    model_option_names = ("nli_model", "nli_scorer", "decomposer_model", "device", "dtype")
    metric_description = _DESCRIPTION
    metric_inputs = _KWARGS_DESCRIPTION
    metric_citation = halluscope.evaluate_support.CITATION_DLSD

    def _compute(self, predictions, references, sources, host="fizz", sd_acu=True, top_k=1, threshold=None,
                 aggregation=None, alignment=None, expansion=None, expansion_threshold=0.5, mix_weight=0.5,
                 filter_acus=True, coref="rules", decomposer="seq2seq", dl_acu="auto", tau=0.4,
                 delta=halluscope.acu.discourse.DEFAULT_DELTA,
                 batch_size=32, max_length=512, return_details=False):
        return halluscope.api.score_dlsd_acu(
            predictions, sources, halluscope.evaluate_support.references_for_backend(references),
            host=host, sd_acu=sd_acu, top_k=top_k, threshold=threshold, aggregation=aggregation,
            alignment=alignment, expansion=expansion, expansion_threshold=expansion_threshold,
            mix_weight=mix_weight, filter_acus=filter_acus, coref=coref, decomposer=decomposer,
            dl_acu=dl_acu, tau=tau, delta=delta,
            batch_size=batch_size, max_length=max_length, return_details=return_details,
            **self.model_options,
        )
