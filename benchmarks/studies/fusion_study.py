"""One-off study: per-row features of the CHI family on every validation fold, dumped
once (parses from parse_store), then candidate fusions compared by leave-one-dataset-out.

    python -m benchmarks.studies.fusion_study dump --parses /tmp/hs-parses --out /tmp/feat.jsonl [--option k=v]
        [--half {all,design,lockbox}]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from benchmarks._common import DIMENSIONS, HALVES, alnum_precision, alnum_tokens, load_folds
from benchmarks.studies.parse_store import DATA

HERE = os.path.dirname(os.path.abspath(__file__))

SUMMAC = ("cogensumm", "xsumfaith", "polytope", "factcc", "summeval", "frank")


def folds(data: str = DATA, limit=None, half=None):
    """The harness's eight LODO folds (:func:`_common.load_folds`); ``half``: all / None,
    design or lockbox (:func:`_common.lockbox_half`)."""
    return load_folds(
        [os.path.join(data, "summac", f"{name}_val.jsonl") for name in SUMMAC],
        os.path.join(data, "frank", "frank_val.jsonl"),
        limit,
        half=half,
    )


def dim_features(detail) -> dict:
    units = detail["units"]
    credit = sum(
        (u.get("attribution") if u.get("attribution") is not None else 1.0) if u["status"] == "supported" else 0.0
        for u in units
    )
    if any(u.get("attribution") is not None for u in units):
        from halluscope.match.attribution import credit as credit_of

        credit = sum(credit_of(u["attribution"]) if u["status"] == "supported" else 0.0 for u in units)
    return {
        "g": len(units),
        "sup": sum(u["status"] == "supported" for u in units),
        "credit": credit,
        "contra": sum(u["status"] == "contradicted" for u in units),
        "score": detail["score"],
    }


def word_rows(predictions, sources, references):
    """Per row, per content word of the summary: [pos, proper, relation or None]."""
    from halluscope.batch import parse_batch
    from halluscope.resources import get_resources
    from halluscope.scoring_options import ScoringOptions
    from halluscope.validation import validate_inputs
    from halluscope.words.matching import content_words, support_words

    resources = get_resources()
    try:
        lexicon = resources.lexicon()
    except ImportError:
        lexicon = None
    parsed = parse_batch(validate_inputs(predictions, sources, references), ScoringOptions(), resources)
    out = []
    for summary, source in zip(parsed.predictions, parsed.sources, strict=True):
        units = content_words(summary.doc)
        matches = support_words(units, resources.text_index(source.doc), lexicon)
        out.append([[u.pos, u.proper, None if m is None else m.mode] for u, m in zip(units, matches, strict=True)])
    return out


def dump(parses: str, out: str, options: dict, limit=None, half=None) -> None:
    from halluscope import api

    from benchmarks.studies.parse_store import seed_cache

    seeded = seed_cache(parses) if parses else 0
    print(f"seeded {seeded}", file=sys.stderr)
    with open(out, "w") as handle:
        for fold, data in folds(limit=limit, half=half).items():
            sources, predictions, references, labels = data.sources, data.predictions, data.references, data.labels
            start = time.time()
            result = api.score_chi(predictions, sources, references, return_details=True, **options)
            words = word_rows(predictions, sources, references)
            for i, detail in enumerate(result["details"]):
                row = {
                    "fold": fold,
                    "label": labels[i],
                    "chi": result["chi_scores"][i],
                    "alnum": alnum_precision(predictions[i], sources[i]),
                    "cwp": (detail.get("words") or {}).get("written_share"),
                    **{k: v for k, v in detail.items() if k.startswith("word")},
                }
                words_detail = detail.get("words") or {}
                row["w"] = words_detail.get("score")
                row["flips"] = len(words_detail.get("flips") or ())
                row["n_alnum"] = len(set(alnum_tokens(predictions[i])))
                for d in DIMENSIONS:
                    row[d] = dim_features(detail[d])
                row["words"] = words[i]
                handle.write(json.dumps(row) + "\n")
            print(f"{fold}: {len(labels)} rows {time.time() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--parses")
    d.add_argument("--out", required=True)
    d.add_argument("--limit", type=int)
    d.add_argument(
        "--half",
        default="all",
        choices=list(HALVES),
        help="rows: all, design (outside the lockbox) or lockbox (before --limit)",
    )
    d.add_argument("--option", action="append", default=[])
    args = parser.parse_args()
    opts = {}
    for o in args.option:
        k, _, v = o.partition("=")
        try:
            opts[k] = json.loads(v)
        except ValueError:
            opts[k] = v
    dump(args.parses, args.out, opts, args.limit, args.half)
