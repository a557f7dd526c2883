"""What SD-ACU saves: NLI pairs and decomposer calls vs decomposing every document sentence.

On the first N examples of a SummaC-format file, runs dlsd_acu twice, each with a fresh
NLI cache and a fresh decomposer (so no run profits from the other's caches):
SD-ACU (top-k document sentences decomposed per summary unit) and the FENICE-style full
decomposition (``top_k=None``: every document sentence decomposed). Prints both counts,
their ratios (the paper claims -30% NLI calls and -83% decomposer calls), and the share of
wall time spent outside model forward passes, for the whole pipeline (after the
documents and summaries are parsed, which both runs share) and for the NLI engine alone.
Forward time is the engine's ``forward_seconds`` (per batch: the model call, the softmax
and the copy of the probabilities to the host, which waits for a GPU to finish) plus a
decomposer's ``forward_seconds`` where it has one (the rule decomposer has none: its work
is outside). Tokenisation, pair building, padding, the move to the device, caching and
the pipeline's bookkeeping are outside. On a shared or small machine run with
``OMP_NUM_THREADS=1``: torch's threads waiting on each other make forward passes many
times slower and the share meaningless.

    python -m benchmarks.calls_dlsd --data ../shared/data/summac/summeval_val.jsonl -n 100 \\
        --nli-model /path/to/nli --decomposer rules
"""

from __future__ import annotations

import argparse
import time

from halluscope import score_dlsd_acu
from halluscope.acu.decompose import clear_decomposer_caches
from halluscope.nli import NLIEngine
from halluscope.resources import get_parse_cache

from benchmarks._common import read_jsonl, resolve_nli_model, triples


def fresh_decomposer(kind: str, model):
    from halluscope.acu.rule_decomposer import RuleDecomposer
    from halluscope.acu.seq2seq_decomposer import Seq2SeqDecomposer

    return RuleDecomposer() if kind == "rules" else Seq2SeqDecomposer(model)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True)
    parser.add_argument("-n", type=int, default=100)
    parser.add_argument(
        "--nli-model",
        required=True,
        help='hub name or folder; "tiny" builds a random tiny model (proves the harness only)',
    )
    parser.add_argument("--decomposer", default="rules", choices=["rules", "seq2seq"])
    parser.add_argument("--decomposer-model")
    parser.add_argument("--host", default="fizz", choices=["fizz", "fenice"])
    parser.add_argument("--top-k", type=int, default=1)
    parser.add_argument("--device")
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    args.nli_model = resolve_nli_model(args.nli_model)

    sources, predictions, _, _ = triples(read_jsonl(args.data, args.n))
    # warm-up: load the models; parse every text once so that both runs find the same
    # parse cache (parsing is the same work in both; its time is printed on its own)
    score_dlsd_acu(
        predictions[:2],
        sources[:2],
        nli_model=args.nli_model,
        device=args.device,
        decomposer=fresh_decomposer(args.decomposer, args.decomposer_model),
        coref="none",
        dl_acu="none",
    )
    start = time.perf_counter()
    get_parse_cache().get_many(list(dict.fromkeys(sources + predictions)))
    parse_seconds = time.perf_counter() - start

    rows = {}
    for label, top_k in (("SD-ACU", args.top_k), ("full", None)):
        engine = NLIEngine(args.nli_model, device=args.device, batch_size=args.batch_size)
        engine_seconds = [0.0]
        original = engine.score

        def timed(pairs, _original=original, _total=engine_seconds):
            start = time.perf_counter()
            try:
                return _original(pairs)
            finally:
                _total[0] += time.perf_counter() - start

        engine.score = timed
        clear_decomposer_caches()  # decomposer caches are process-wide: start both runs empty
        decomposer = fresh_decomposer(args.decomposer, args.decomposer_model)
        start = time.perf_counter()
        result = score_dlsd_acu(
            predictions,
            sources,
            nli_engine=engine,
            decomposer=decomposer,
            top_k=top_k,
            host=args.host,
            coref="none",
            dl_acu="none",
        )
        wall = time.perf_counter() - start
        model_seconds = engine.forward_seconds + getattr(decomposer, "forward_seconds", 0.0)
        rows[label] = dict(
            pairs=result["nli_pairs_requested"],
            scored=result["nli_pairs_scored"],
            calls=result["decomposer_calls_document"],
            summary_calls=result["decomposer_calls_summary"],
            wall=wall,
            outside_seconds=wall - model_seconds,
            outside=(wall - model_seconds) / wall,
            engine_outside=(engine_seconds[0] - engine.forward_seconds) / max(engine_seconds[0], 1e-9),
        )

    print(f"{len(predictions)} examples, host {args.host}, decomposer {args.decomposer}, NLI {args.nli_model}")
    print(f"parsing the documents and summaries first (common to both runs): {parse_seconds:.2f} s")
    print(
        f"{'':<8}{'NLI pairs':>10}{'doc dec':>9}{'summ dec':>10}{'wall s':>9}{'outside s':>11}"
        f"{'outside fwd':>13}{'engine outside':>16}"
    )
    for label, r in rows.items():
        print(
            f"{label:<8}{r['pairs']:>10}{r['calls']:>9}{r['summary_calls']:>10}{r['wall']:>9.2f}"
            f"{r['outside_seconds']:>11.2f}{r['outside']:>12.1%}{r['engine_outside']:>16.1%}"
        )
    sd, full = rows["SD-ACU"], rows["full"]
    print(
        f"SD-ACU / full: NLI pairs {sd['pairs'] / full['pairs']:.1%} requested, "
        f"{sd['scored'] / full['scored']:.1%} distinct pairs scored by the model (target <= 50%), "
        f"document decomposer calls {sd['calls'] / full['calls']:.1%} (target <= 15%); "
        "summary sentences are decomposed once in both"
    )


if __name__ == "__main__":
    main()
