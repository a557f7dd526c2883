"""dlsd_acu against human labels: balanced accuracy, ROC-AUC and FRANK error-type rates.

Runs each configuration (host alone, host + SD-ACU, host + DL-ACU, host + both) with
any NLI model path on SummaC-format files (balanced accuracy with a
half-split threshold and ROC-AUC) and, with ``--frank``, on FRANK with error types:
ErrorRate_T = FP_T / N_T, where N_T counts summaries with error T and FP_T those of them
still predicted consistent, at the threshold that maximises balanced accuracy on the
same FRANK file (its validation split). Lower is better; the paper reports LinkE
−6.81 pp for FIZZ and −11.36 pp for FENICE when DL-ACU is added.

    # the paper's setting (needs the Hub models or local copies of them):
    python benchmarks/quality_dlsd.py ../shared/data/summac/*_val.jsonl \\
        --frank ../shared/data/frank/frank_val.jsonl --host fizz \\
        --nli-model tals/albert-xlarge-vitaminc-mnli \\
        --decomposer-model Babelscape/t5-base-summarization-claim-extractor
    # offline harness check: --decomposer rules --nli-model <tiny model folder>
"""
from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Dict, List

sys.path.insert(0, os.path.dirname(__file__))
from _common import (balanced_accuracy, best_threshold, half_split_ba, read_jsonl,  # noqa: E402
                     resolve_nli_model, roc_auc, triples)

from halluscope import score_dlsd_acu  # noqa: E402

ERROR_TYPES = ("RelE", "EntE", "CircE", "OutE", "GramE", "CorefE", "LinkE", "Other")


def configurations(args) -> Dict[str, dict]:
    base = dict(host=args.host, nli_model=args.nli_model, decomposer=args.decomposer,
                decomposer_model=args.decomposer_model, device=args.device, dtype=args.dtype,
                batch_size=args.batch_size, coref=args.coref)
    return {
        args.host: {**base, "sd_acu": False, "dl_acu": "none"},
        f"{args.host}+SD": {**base, "sd_acu": True, "top_k": args.top_k, "dl_acu": "none"},
        f"{args.host}+DL": {**base, "sd_acu": False, "dl_acu": args.dl_acu},
        f"{args.host}+SD+DL": {**base, "sd_acu": True, "top_k": args.top_k, "dl_acu": args.dl_acu},
    }


def frank_rates(scores: List[float], rows: List[dict]) -> Dict[str, float]:
    labels = [int(r["label"]) for r in rows]
    filled = [math.inf if math.isnan(s) else s for s in scores]
    threshold = best_threshold(filled, labels)
    rates = {"BA": 100 * balanced_accuracy(filled, labels, threshold)}
    for error in ERROR_TYPES:
        having = [s for s, r in zip(filled, rows) if int(r.get(f"has_{error}", 0)) == 1]
        rates[error] = 100 * sum(s >= threshold for s in having) / len(having) if having else math.nan
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", help="SummaC-format jsonl files")
    parser.add_argument("--frank", help="FRANK jsonl with has_<Type> flags")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--host", default="fizz", choices=["fizz", "fenice"])
    parser.add_argument("--nli-model", required=True,
                        help='hub name or folder; "tiny" builds a random tiny model (proves the harness only)')
    parser.add_argument("--decomposer", default="seq2seq", choices=["seq2seq", "rules"])
    parser.add_argument("--decomposer-model")
    parser.add_argument("--coref", default="rules")
    parser.add_argument("--top-k", type=int, default=1)
    parser.add_argument("--dl-acu", default="auto", choices=["auto", "amr", "dep"],
                        help="discourse-link backend of the +DL configurations")
    parser.add_argument("--device")
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    args.nli_model = resolve_nli_model(args.nli_model)

    configs = configurations(args)
    signature = ""
    print(f"{'file':<12}{'config':<14}{'BA':>8}{'ROC-AUC':>9}{'NLI pairs':>11}{'dec calls':>10}")
    for path in args.files:
        sources, predictions, _, labels = triples(read_jsonl(path, args.limit))
        name = os.path.basename(path).replace("_val.jsonl", "")
        for config, options in configs.items():
            result = score_dlsd_acu(predictions, sources, **options)
            signature = result["signature"]
            scores = result["dlsd_acu_scores"]
            print(f"{name:<12}{config:<14}{half_split_ba(scores, labels):>8.1f}{roc_auc(scores, labels):>9.1f}"
                  f"{result['nli_pairs_requested']:>11}{result['decomposer_calls']:>10}", flush=True)
    if args.frank:
        rows = read_jsonl(args.frank, args.limit)
        sources, predictions, _, _ = triples(rows)
        print(f"\nFRANK error rates FP_T/N_T (%), threshold tuned on the file; lower is better")
        print(f"{'config':<14}" + "".join(f"{c:>8}" for c in ("BA",) + ERROR_TYPES))
        for config, options in configs.items():
            result = score_dlsd_acu(predictions, sources, **options)
            signature = result["signature"]
            rates = frank_rates(result["dlsd_acu_scores"], rows)
            print(f"{config:<14}" + "".join(f"{rates[c]:>8.1f}" for c in ("BA",) + ERROR_TYPES), flush=True)
    print(f"\nsignature (last run): {signature}")


if __name__ == "__main__":
    main()
