"""Time chi against its floor: a bare spaCy ``nlp.pipe`` over the same distinct texts.

Both are measured in this one run (the machine is shared and noisy), each from a cold
parse cache (and cold encoder and WordNet caches), after a warm-up that loads every
model; the best of ``--repeats`` runs of each is kept. Prints per-example times, the ratio chi / floor
of the bests, and each repeat's chi against the floor run just before it (their median and spread
say how much of a difference this shared machine's noise can make).

    python -m benchmarks.speed_chi --data ../shared/data/summac/summeval_val.jsonl -n 200
"""
from __future__ import annotations

import argparse
import statistics
import time

from benchmarks._common import read_jsonl, triples

from halluscope import score_chi
from halluscope.resources import get_embedder
from halluscope.resources import get_lexicon
from halluscope.resources import get_parse_cache


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, help="SummaC-format jsonl (document, claim, label)")
    parser.add_argument("-n", type=int, default=200, help="number of examples")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--with-references", action="store_true",
                        help="use the file's `reference` field (FRANK) instead of reference-free")
    args = parser.parse_args()

    sources, predictions, references, _ = triples(read_jsonl(args.data, args.n))
    if not args.with_references:
        references = None
    distinct = list(dict.fromkeys(sources + predictions + (references or [])))
    cache = get_parse_cache()
    nlp = cache.nlp

    # warm-up: load spaCy, the encoder, quantulum3's classifier and dateparser
    score_chi(["Apple paid $3 billion for Beats in 2014, Tim Cook said."],
              ["Apple bought Beats Electronics for $3 billion in May 2014, Tim Cook said on Wednesday."])
    get_embedder().prepare(["warm up the encoder", "police", "arrest"])

    def run_floor() -> float:
        start = time.perf_counter()
        for _ in nlp.pipe(distinct, batch_size=cache.batch_size):
            pass
        return time.perf_counter() - start

    embedder = get_embedder()
    counters = {}

    lexicon = get_lexicon()

    def run_chi() -> float:
        cache.clear()
        embedder.clear()
        lexicon.clear_cache()  # WordNet answers too (NLTK keeps the synsets it has read)
        parsed, encoded = cache.parsed, embedder.encoded
        start = time.perf_counter()
        score_chi(predictions, sources, references)
        elapsed = time.perf_counter() - start
        counters.update(parsed=cache.parsed - parsed, encoded=embedder.encoded - encoded)
        return elapsed

    floor_times, chi_times = [], []
    for _ in range(args.repeats):  # interleaved, so drifts of machine load hit both
        floor_times.append(run_floor())
        chi_times.append(run_chi())
    floor, chi = min(floor_times), min(chi_times)
    n = len(predictions)
    print(f"examples: {n}  distinct texts: {len(distinct)}  characters: {sum(map(len, distinct))}")
    print(f"floor (bare nlp.pipe):  {floor / n * 1000:8.2f} ms/example  ({floor:.2f} s)")
    print(f"chi (ehi+rhi*+qhi):     {chi / n * 1000:8.2f} ms/example  ({chi:.2f} s)")
    print(f"chi parsed {counters['parsed']} texts and encoded {counters['encoded']} strings per run")
    print(f"ratio chi / floor:      {chi / floor:8.3f}  (target <= 1.25)")
    # each repeat's chi against the floor measured just before it: the machine's drift hits
    # both, so their spread says how far the ratio above can be trusted
    paired = sorted(c / f for c, f in zip(chi_times, floor_times))
    print(f"paired ratios:          {', '.join(f'{r:.3f}' for r in paired)}  (median {statistics.median(paired):.3f})")


if __name__ == "__main__":
    main()
