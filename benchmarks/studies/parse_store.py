"""Parse every validation text once and keep the parses on disk (a spaCy DocBin), so
that studies which change matching or fusion, not parsing, re-run in seconds.

    python -m benchmarks.studies.parse_store build --out /tmp/hs-parses   # once (~10 min)
    # in a study:  from parse_store import seed_cache; seed_cache("/tmp/hs-parses")

The keys are the texts the pipeline parses (truecased summaries and references, as
``halluscope.batch.parse_batch`` analyses them, and sources), so a seeded cache
answers every request of a run with the default ``truecase=True`` without parsing.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import time

from benchmarks._common import load_folds

HERE = os.path.dirname(os.path.abspath(__file__))

DATA = os.path.join(os.path.dirname(os.path.dirname(HERE)), "..", "shared", "data")


def all_datasets(data: str = DATA):
    """Every validation row, as the harness's LODO folds (:func:`_common.load_folds`)."""
    summac = sorted(glob.glob(os.path.join(data, "summac", "*_val.jsonl")))
    return list(load_folds(summac, os.path.join(data, "frank", "frank_val.jsonl")).values())


def analysed_texts(datasets) -> list:
    from halluscope.text.casing import truecase

    texts = []
    for d in datasets:
        for i, (p, s) in enumerate(zip(d.predictions, d.sources, strict=True)):
            texts.append(truecase(p, s))
            texts.append(s)
            if d.references is not None:
                texts.append(truecase(d.references[i], s))
    return list(dict.fromkeys(texts))


def build(out: str) -> None:
    from halluscope.resources import get_parse_cache
    from spacy.tokens import DocBin

    datasets = all_datasets()
    texts = analysed_texts(datasets)
    cache = get_parse_cache(maxsize=len(texts) + 10)
    start = time.time()
    parses = cache.get_many(texts)
    print(f"parsed {len(texts)} texts in {time.time() - start:.0f} s")
    os.makedirs(out, exist_ok=True)
    bin_ = DocBin(store_user_data=False)
    for parsed in parses:
        bin_.add(parsed.doc)
    bin_.to_disk(os.path.join(out, "docs.spacy"))
    with open(os.path.join(out, "keys.json"), "w") as handle:
        json.dump(texts, handle)


def seed_cache(folder: str) -> int:
    """Load the stored parses into the process's parse cache (enlarged to hold them)."""
    from halluscope.resources import get_parse_cache
    from spacy.tokens import DocBin

    with open(os.path.join(folder, "keys.json")) as handle:
        keys = json.load(handle)
    cache = get_parse_cache()
    cache.maxsize = max(cache.maxsize, len(keys) + 20000)
    docs = list(DocBin().from_disk(os.path.join(folder, "docs.spacy")).get_docs(cache.nlp.vocab))
    return cache.seed(dict(zip(keys, docs, strict=True)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--out", required=True)
    args = parser.parse_args()
    build(args.out)
