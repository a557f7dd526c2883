"""Time chi on one long summary against one long source, at a size and at twice it.

A call's parse grows linearly with its texts; the work after it must too (no input may
make a call super-linear, docs/scaling.md#long-texts). Two inputs, each at ``--sizes``
(sentences per text):

* ``repeated``: one template sentence written ``n`` times with a different number
  ("Police in Leeds arrested 17 men on Monday after a £2.5m robbery ..."), summarised
  by ``n`` sentences of the same words: every sentence shares most of its words with
  every other, the worst case for aligning sentences;
* ``news``: the first ``n // 30`` distinct sources of a SummaC file joined into one
  source, their summaries joined into one summary (about 30 source sentences each).

For each it prints the seconds of the whole call and of a bare ``nlp.pipe`` over the two
texts (the floor), each the best of ``--repeats`` from cold caches, the two sizes
alternately, and the growth of each from one size to the next (2.0 is linear for a
doubled size).

    python -m benchmarks.speed_long --data ../shared/data/summac/summeval_val.jsonl --sizes 400 800 1600
"""

from __future__ import annotations

import argparse
import time

from halluscope import score_chi
from halluscope.resources import get_parse_cache

from benchmarks._common import read_jsonl, triples
from benchmarks.speed_chi import cold_caches

TEMPLATE = "Police in Leeds arrested {i} men on Monday after a £2.5m robbery at a jewellery shop, officers said."
SUMMARY = "Police arrested {i} men in Leeds after a robbery."
#: source sentences per SummaC document, roughly (SummEval's CNN/DM articles)
SENTENCES_PER_DOCUMENT = 30


def repeated(n: int) -> tuple[str, str]:
    """A summary and a source of ``n`` sentences each, every one of the same words."""
    return (" ".join(SUMMARY.format(i=i + 1) for i in range(n)), " ".join(TEMPLATE.format(i=i) for i in range(n)))


def news(n: int, documents: list[tuple[str, str]]) -> tuple[str, str]:
    """The summaries and sources of the first ``n // SENTENCES_PER_DOCUMENT`` documents,
    each joined into one text."""
    chosen = documents[: max(1, n // SENTENCES_PER_DOCUMENT)]
    return " ".join(summary for _, summary in chosen), " ".join(source for source, _ in chosen)


def time_pair(summary: str, source: str) -> tuple[float, float]:
    """(chi seconds, floor seconds) of one call from cold caches."""
    nlp = get_parse_cache().nlp
    start = time.perf_counter()
    for _ in nlp.pipe([source, summary]):
        pass
    floor = time.perf_counter() - start
    cold_caches()
    start = time.perf_counter()
    score_chi([summary], [source])
    return time.perf_counter() - start, floor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, help="SummaC-format jsonl whose documents make the news input")
    parser.add_argument("--sizes", type=int, nargs="+", default=[400, 800, 1600], help="sentences per text")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()

    sources, predictions, _, _ = triples(read_jsonl(args.data, 100_000))
    first: dict[str, str] = {}
    for source, summary in zip(sources, predictions, strict=True):
        first.setdefault(source, summary)  # each distinct source with its first summary
    documents = list(first.items())
    # warm-up: the models, and a first long call (whose fixed costs would go to the first size)
    score_chi(["Police arrested 3 men."], ["Police in Leeds arrested 3 men on Monday."])
    time_pair(*repeated(min(args.sizes)))
    for name, make in (("repeated", repeated), ("news", lambda n: news(n, documents))):
        best: dict[int, tuple[float, float]] = {}
        for _ in range(args.repeats):
            for n in args.sizes:
                chi, floor = time_pair(*make(n))
                old = best.get(n, (float("inf"), float("inf")))
                best[n] = (min(old[0], chi), min(old[1], floor))
        print(f"\n{name}: sentences per text, chi s, floor s, chi - floor s, growth of chi / of floor")
        previous = None
        for n in args.sizes:
            summary, source = make(n)
            chi, floor = best[n]
            growth = "" if previous is None else f"  x{chi / previous[0]:.2f} / x{floor / previous[1]:.2f}"
            print(
                f"  {n:6d} ({len(source):,} + {len(summary):,} characters)  {chi:7.2f}  {floor:7.2f}"
                f"  {chi - floor:7.2f}{growth}"
            )
            previous = (chi, floor)


if __name__ == "__main__":
    main()
