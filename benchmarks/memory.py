"""Memory of a long chi run: RSS growth while streaming rows under a cache budget.

    python -m benchmarks.memory [--rows 10000] [--cache-mb MB] [--every 1000] [--max-minutes M]
    python -m benchmarks.memory --measure [--rows 60]

Streams distinct (document, summary) pairs of the SummaC validation files
(``../shared/data/summac/*.jsonl``, cycled when ``--rows`` exceeds them; the script says
how many are distinct) through ``halluscope.Scorer("chi", cache_mb=...).score_batches``
and prints, every ``--every`` rows, the process's RSS (``/proc/self/status``), its
growth over the RSS after the models were loaded, and the caches' estimated bytes
(:func:`halluscope.budget.usage`). ``--measure`` instead scores ``--rows`` SummEval rows
with the default budget and measures with ``tracemalloc`` what the parse cache, the unit cache
and the text-index cache hold per token, per unit and per character: the numbers behind
the entry weights of :mod:`halluscope.budget`. Numbers of one run, no assertion (docs/scaling.md#memory).
"""

from __future__ import annotations

import argparse
import gc
import glob
import itertools
import json
import os
import time
from collections.abc import Iterator

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "shared", "data", "summac")


def rss_mb() -> float:
    """The process's resident set size in MB (``VmRSS``)."""
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def distinct_rows(data: str) -> list[dict[str, str]]:
    """Every distinct (document, summary) pair of the SummaC validation files, in file order."""
    seen, rows = set(), []
    for path in sorted(glob.glob(os.path.join(data, "*.jsonl"))):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                pair = (record["document"], record["claim"])
                if pair not in seen:
                    seen.add(pair)
                    rows.append({"prediction": pair[1], "source": pair[0]})
    return rows


def stream(args: argparse.Namespace) -> None:
    from halluscope import Scorer, budget

    rows = distinct_rows(args.data)
    print(
        f"{len(rows)} distinct rows in {args.data}; streaming {args.rows}"
        + (" (cycled: rows repeat after the distinct ones)" if args.rows > len(rows) else ""),
        flush=True,
    )
    options = {} if args.cache_mb is None else {"cache_mb": args.cache_mb}
    scorer = Scorer("chi", **options)
    gc.collect()
    loaded = rss_mb()
    # resources loaded on first use (WordNet's index, quantulum3, dateparser) belong to the
    # models, not to growth: one warm-up row outside the data, its cache entries dropped
    scorer.score(
        ["Acme bought the factory in May 2019 and its stock fell."],
        ["Acme Corp sold the factory for $7.5 million on 3 May 2019; its shares rose 5%."],
    )
    budget.apply(0)
    if args.cache_mb is None:
        budget.reset()
    else:
        budget.apply(args.cache_mb)
    gc.collect()
    budget.release_free_memory()
    base = rss_mb()
    print(
        f"budget {budget.current_mb()} MB; RSS after loading the models: {loaded:.0f} MB, after the "
        f"resources loaded on first use: {base:.0f} MB (growth is counted from there)",
        flush=True,
    )
    print("| rows | RSS MB | growth MB | caches' estimate MB | parses cached | indexes cached | s |")
    print("|---|---|---|---|---|---|---|", flush=True)
    start, done, peak = time.time(), 0, base
    source: Iterator[dict[str, str]] = itertools.islice(itertools.cycle(rows), args.rows)
    for result in scorer.score_batches(source, batch_size=args.batch_size, progress=False):
        before = done
        done += len(result["chi_scores"])
        peak = max(peak, rss_mb())
        if done // args.every > before // args.every or done == args.rows:
            usage = budget.usage()
            held = sum(kind["bytes"] for kind in usage.values()) / budget.MB
            now = rss_mb()
            print(
                f"| {done:,} | {now:.0f} | {now - base:+.0f} | {held:.0f} | {usage['parses']['entries']} | "
                f"{usage['text_indexes']['entries']} | {time.time() - start:.0f} |",
                flush=True,
            )
        if args.max_minutes and time.time() - start > 60 * args.max_minutes:
            print(f"stopped after {args.max_minutes} minutes at {done:,} rows", flush=True)
            break
    print(
        f"peak RSS {peak:.0f} MB, growth {peak - base:+.0f} MB over {done:,} rows "
        f"({(time.time() - start) / max(done, 1):.2f} s a row)",
        flush=True,
    )


def measure(args: argparse.Namespace) -> None:
    import tracemalloc

    from halluscope import api
    from halluscope.resources import get_resources

    with open(os.path.join(args.data, "summeval_val.jsonl"), encoding="utf-8") as handle:
        records = [json.loads(line) for line in itertools.islice(handle, args.rows)]
    predictions, sources = [r["claim"] for r in records], [r["document"] for r in records]
    api.score_chi(predictions[:1], sources[:1], cache_mb=4096)  # models loaded outside the trace
    resources = get_resources()  # the one api.score_chi scores with
    cache = resources.parse_cache()
    cache.clear()
    resources.unit_cache.clear()
    resources.index_cache.clear()
    gc.collect()
    tracemalloc.start()
    api.score_chi(predictions, sources)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0]
    tokens = sum(len(cache._entries.get(key).doc) for key in cache.keys())
    entries = len(cache)
    indexed = resources.index_cache.docs()
    indexes, chars = len(indexed), sum(len(doc.text) for doc in indexed)
    del indexed
    resources.index_cache.clear()
    gc.collect()
    without_indexes = tracemalloc.get_traced_memory()[0]
    unit_entries = len(resources.unit_cache)
    units = sum(len(entry[1]) for entry in resources.unit_cache._entries.values())
    resources.unit_cache.clear()
    gc.collect()
    without_units = tracemalloc.get_traced_memory()[0]
    cache.clear()
    gc.collect()
    without_parses = tracemalloc.get_traced_memory()[0]
    index_bytes, unit_bytes = held - without_indexes, without_indexes - without_units
    parse_bytes = without_units - without_parses
    print(
        f"{args.rows} SummEval rows: {entries} parse entries ({tokens:,} tokens) hold {parse_bytes / 1e6:.2f} MB: "
        f"{parse_bytes / max(tokens, 1):.0f} bytes a token"
    )
    print(
        f"{unit_entries} unit-cache entries ({units:,} units) hold {unit_bytes / 1e6:.2f} MB: "
        f"{unit_bytes / max(units, 1):.0f} bytes a unit"
    )
    print(
        f"{indexes} text indexes ({chars:,} characters) hold {index_bytes / 1e6:.2f} MB besides their Docs: "
        f"{index_bytes / max(chars, 1):.0f} bytes a character"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=DATA, help="folder of SummaC validation *.jsonl files")
    parser.add_argument("--rows", type=int, default=None, help="rows to stream (default 10,000; --measure: 60)")
    parser.add_argument("--cache-mb", type=int, default=None, help="the budget (default: the library's)")
    parser.add_argument("--batch-size", type=int, default=100)
    parser.add_argument("--every", type=int, default=1000, help="print every N rows")
    parser.add_argument("--max-minutes", type=float, default=None, help="stop streaming after this long")
    parser.add_argument("--measure", action="store_true", help="measure entry sizes instead (tracemalloc)")
    args = parser.parse_args()
    if args.measure:
        args.rows = args.rows or 60
        measure(args)
    else:
        args.rows = args.rows or 10_000
        stream(args)


if __name__ == "__main__":
    main()
