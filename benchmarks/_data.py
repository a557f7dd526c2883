"""Readers for the benchmark data files (SummaC and FRANK jsonl formats)."""
from __future__ import annotations

import json
from typing import Dict, List, Optional


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
