"""The pool the perturbation suite draws from: the consistent (source, summary) pairs of
the validation files in a half, each once, parsed with halluscope's spaCy model, and
the seeded draw of each edit type's cases."""

from __future__ import annotations

import glob
import os
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks._common import load_dataset, normalise_text
from benchmarks.perturbations.edit_types import EDITS
from benchmarks.perturbations.text import changed_span


@dataclass
class Row:
    """One consistent (source, summary) pair of the pool: which file(s) it came from."""

    files: tuple[str, ...]
    source: str
    summary: str


def load_pool(data: str, half: str | None) -> tuple[list[Row], dict[str, int]]:
    """The consistent pairs of every validation file under ``data`` (``summac/*_val.jsonl``
    and ``frank/frank_val.jsonl``) in the ``half``, each pair once (whitespace-normalised),
    pairs labelled inconsistent in any file left out. Also per file the consistent rows
    read."""
    paths = sorted(glob.glob(os.path.join(data, "summac", "*_val.jsonl")))
    frank = os.path.join(data, "frank", "frank_val.jsonl")
    named = [(p, None) for p in paths] + ([(frank, "FRANK")] if os.path.exists(frank) else [])
    if not named:
        raise SystemExit(f"no validation files under {data}")
    pairs: dict[tuple[str, str], dict[str, Any]] = {}
    counts: dict[str, int] = {}
    for path, name in named:
        dataset = load_dataset(path, name=name, half=half)
        counts[dataset.name] = sum(dataset.labels)
        for source, summary, label in zip(dataset.sources, dataset.predictions, dataset.labels, strict=True):
            key = (normalise_text(source), normalise_text(summary))
            entry = pairs.setdefault(key, {"files": [], "source": source, "summary": summary, "bad": False})
            entry["bad"] |= label != 1
            if label == 1 and dataset.name not in entry["files"]:
                entry["files"].append(dataset.name)
    rows = [
        Row(tuple(e["files"]), e["source"], e["summary"])
        for e in pairs.values()
        if not e["bad"] and e["files"] and e["summary"].strip()
    ]
    return rows, counts


def parse_pool(rows: Sequence[Row]):
    """(summary docs, source docs, distinct source docs) with halluscope's spaCy model
    and parse cache; an all-lower-case summary parsed truecased against its source."""
    from halluscope.resources import get_resources
    from halluscope.text.casing import truecase

    cache = get_resources().parse_cache()
    cache.maxsize = max(cache.maxsize, 4 * len(rows) + 4096)
    shown = [r.summary if any(c.isupper() for c in r.summary) else truecase(r.summary, r.source) for r in rows]
    summary_docs = [p.doc for p in cache.get_many(shown)]
    distinct = list(dict.fromkeys(r.source for r in rows))
    parsed = dict(zip(distinct, (p.doc for p in cache.get_many(distinct)), strict=True))
    return summary_docs, [parsed[r.source] for r in rows], [parsed[s] for s in distinct]


def draw_cases(
    rows: Sequence[Row], summary_docs, source_docs, distinct_docs, edit: str, per_type: int, seed: int
) -> list[dict[str, Any]]:
    """Up to ``per_type`` cases of one edit type: rows in a seeded order
    (``random.Random(f"{seed}:{edit}")``), the edit tried on each."""
    rng = random.Random(f"{seed}:{edit}")
    order = list(range(len(rows)))
    rng.shuffle(order)
    function = EDITS[edit]
    cases = []
    for i in order:
        if len(cases) >= per_type:
            break
        row = rows[i]
        try:
            edited = function(row.summary, row.source, rng, summary_docs[i], source_docs[i], distinct_docs)
        except Exception as error:  # noqa: BLE001 - an edit bug must not end the suite; report it
            print(f"{edit}: edit failed on row {i}: {type(error).__name__}: {error}", file=sys.stderr)
            continue
        if edited is None or edited == row.summary or not edited.strip():
            continue
        start, end_o, end_e, old, new = changed_span(row.summary, edited)
        cases.append(
            {
                "type": edit,
                "row": i,
                "files": list(row.files),
                "original": row.summary,
                "edited": edited,
                "cased": any(c.isupper() for c in row.summary),
                "old": old,
                "new": new,
                "span_original": [start, end_o],
                "span_edited": [start, end_e],
            }
        )
    return cases
