"""dlsd_acu: NLI-based atomic-fact checking with selective document units, as an evaluate metric."""

import evaluate
import halluscope.evaluate_support  # From: "halluscope[offline,nli] @ git+https://github.com/halluscope/halluscope@v0.1.0" (install torch first; on CPU: pip install torch --index-url https://download.pytorch.org/whl/cpu; docs/hub.md)
import halluscope.options  # From: "halluscope[offline,nli] @ git+https://github.com/halluscope/halluscope@v0.1.0" (install torch first; on CPU: pip install torch --index-url https://download.pytorch.org/whl/cpu; docs/hub.md)

_DESCRIPTION = """\
dlsd_acu decomposes each summary into atomic content units (ACUs), checks each unit
against the source document with an NLI model and aggregates the unit scores: hard
(min, FIZZ) or soft (mean, FENICE). SD-ACU (Mind the Link, docs/papers.md#sd-acu)
decomposes the top-k document sentences of each unit into document ACUs so units are
compared at the same granularity. Reference-free: references are accepted and unused. Higher is more
faithful; the range depends on the alignment: [0, 1] for "ent", [-1, 1] otherwise.
"""

_KWARGS_DESCRIPTION = (
    """\
Args:
    predictions (list of str): generated summaries (an empty one has no unit: NaN).
    references (list of str, optional): accepted and unused ("" is fine).
    sources (list of str): source documents.
"""
    + halluscope.options.options_doc("dlsd_acu", skip=("nli_engine", "dl_units"))
    + """\
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
    >>> metric = evaluate.load("dlsd_acu", nli_scorer=overlap_nli)  # this folder, or "<org>/dlsd_acu"
    >>> result = metric.compute(predictions=["The cat sat on the mat."], references=[""],
    ...     sources=["The cat sat on the mat. It was sunny."], decomposer="rules", coref="none",
    ...     dl_acu="none")
    >>> result["dlsd_acu"]
    1.0
"""
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class DlsdAcu(halluscope.evaluate_support.HalluscopeMetric):
    metric_id = "dlsd_acu"
    metric_description = _DESCRIPTION
    metric_inputs = _KWARGS_DESCRIPTION
    metric_citation = halluscope.evaluate_support.CITATION_DLSD
