"""Time chi against its floor: a bare spaCy ``nlp.pipe`` over the same distinct texts.

Everything is measured in this one run (the machine is shared and noisy), each chi run
from empty caches (:func:`cold_caches`), after a warm-up that loads every model; the
best of ``--repeats`` runs of each is kept. For each input (``--data`` reference-free,
and ``--reference-data`` with its references when given) it prints per-example times,
the ratio chi / floor of the bests, each repeat's chi against the floor run just before
it (their median and spread say how much of a difference this shared machine's noise can
make) and each round's two times. With ``--workers N`` it also times chi with
``workers=N`` on ``--data`` against the same single-process floor, and checks that its
scores equal the one-process scores bit for bit.

    python -m benchmarks.speed_chi --data ../shared/data/summac/summeval_val.jsonl -n 400 \\
        --reference-data ../shared/data/frank/frank_val.jsonl --workers 2
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from halluscope import score_chi
from halluscope.memos import clear_memos
from halluscope.resources import get_embedder, get_parse_cache, get_resources

from benchmarks._common import read_jsonl, triples


def cold_caches() -> None:
    """Empty every cache of the default resources (parses, encoder, WordNet: NLTK keeps
    the synsets it has read, units, text indexes and the tables derived from texts) and
    every memo of small keys (:func:`halluscope.memos.clear_memos`; the tables read once
    stay, like the models). Until session 34 the unit and text-index caches
    were kept, and the index cache's entries keep their ``Doc`` alive: each repeat of chi
    ran beside every earlier repeat's parses, which a first call in a process never does;
    until session 35 the memoised functions were kept."""
    get_resources().clear()
    clear_memos()


def measure(
    predictions: list[str], sources: list[str], references: list[str] | None, repeats: int, workers: int = 1
) -> dict[str, object]:
    """Best and paired times of the floor and of chi (``workers``) on these rows."""
    cache = get_parse_cache()
    nlp = cache.nlp
    embedder = get_embedder()
    distinct = list(dict.fromkeys(sources + predictions + (references or [])))
    counters: dict[str, int] = {}
    result = {}

    def run_floor() -> float:
        start = time.perf_counter()
        for _ in nlp.pipe(distinct, batch_size=cache.batch_size):
            pass
        return time.perf_counter() - start

    def run_chi() -> float:
        cold_caches()
        parsed, encoded = cache.parsed, embedder.encoded
        start = time.perf_counter()
        result["scores"] = score_chi(predictions, sources, references, workers=workers)
        elapsed = time.perf_counter() - start
        counters.update(parsed=cache.parsed - parsed, encoded=embedder.encoded - encoded)
        return elapsed

    floor_times, chi_times = [], []
    for _ in range(repeats):  # interleaved, so drifts of machine load hit both
        floor_times.append(run_floor())
        chi_times.append(run_chi())
    return {
        "floor": min(floor_times),
        "chi": min(chi_times),
        "distinct": len(distinct),
        "characters": sum(map(len, distinct)),
        "counters": counters,
        "scores": result["scores"],
        "paired": sorted(c / f for c, f in zip(chi_times, floor_times, strict=True)),
        "rounds": list(zip(floor_times, chi_times, strict=True)),
    }


def report(title: str, n: int, timed: dict[str, object], workers: int = 1) -> None:
    floor, chi = timed["floor"], timed["chi"]
    print(f"\n{title}: examples {n}  distinct texts {timed['distinct']}  characters {timed['characters']}")
    print(f"floor (bare nlp.pipe, one process):  {floor / n * 1000:8.2f} ms/example  ({floor:.2f} s)")
    label = "chi (ehi+rhi*+qhi)" + (f", workers={workers}" if workers != 1 else "")
    print(f"{label + ':':37s}{chi / n * 1000:8.2f} ms/example  ({chi:.2f} s)")
    if workers == 1:
        print(
            f"chi parsed {timed['counters']['parsed']} texts and encoded {timed['counters']['encoded']} strings per run"
        )
    target = 1.25 if workers == 1 else 0.75
    print(f"ratio chi / floor:                   {chi / floor:8.3f}  (target <= {target})")
    paired = timed["paired"]
    print(
        f"paired ratios:                       {', '.join(f'{r:.3f}' for r in paired)}  "
        f"(median {statistics.median(paired):.3f})"
    )
    print("rounds, floor then chi (s):          " + ", ".join(f"{f:.2f} / {c:.2f}" for f, c in timed["rounds"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, help="SummaC-format jsonl (document, claim, label), reference-free")
    parser.add_argument(
        "--reference-data", default=None, help="a file with a `reference` field (FRANK), timed with its references"
    )
    parser.add_argument("-n", type=int, default=200, help="number of examples of each file")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1, help="also time chi with workers=N on --data")
    args = parser.parse_args()

    # warm-up: load spaCy, the encoder, quantulum3's classifier and dateparser
    score_chi(
        ["Apple paid $3 billion for Beats in 2014, Tim Cook said."],
        ["Apple bought Beats Electronics for $3 billion in May 2014, Tim Cook said on Wednesday."],
    )
    get_embedder().prepare(["warm up the encoder", "police", "arrest"])

    sources, predictions, _, _ = triples(read_jsonl(args.data, args.n))
    single = measure(predictions, sources, None, args.repeats)
    report(f"{args.data}, reference-free", len(predictions), single)
    if args.reference_data:
        ref_sources, ref_predictions, references, _ = triples(read_jsonl(args.reference_data, args.n))
        report(
            f"{args.reference_data}, with references",
            len(ref_predictions),
            measure(ref_predictions, ref_sources, references, args.repeats),
        )
    if args.workers != 1:
        pooled = measure(predictions, sources, None, args.repeats, workers=args.workers)
        report(f"{args.data}, reference-free", len(predictions), pooled, workers=args.workers)
        same = json.dumps(dict(pooled["scores"]), sort_keys=True, default=repr) == json.dumps(
            dict(single["scores"]), sort_keys=True, default=repr
        )
        print(f"workers={args.workers} scores equal the one-process scores bit for bit: {same}")
        print(f"workers={args.workers} chi / one-process chi: {pooled['chi'] / single['chi']:.3f}")


if __name__ == "__main__":
    main()
