"""Time chi on verbatim copies of a long source without sentence punctuation (issue 57,
class 5): copies of 1x, 2x and 4x a length, one run each from cold caches, their seconds,
the ratio of each to the one before (2.0 is linear for a doubled length) and their
scores (1.0 on chi and every defined index for a copy that cuts no unit).

The source: the distinct documents of a SummaC file joined, sentence-final ``.``, ``!``
and ``?`` removed, cut to ``--chars`` characters at a space. Each copy is whole words
from ``--start`` (docs/papers.md#attribution).

    python -m benchmarks.speed_copies --data ../shared/data/summac/summeval_val.jsonl --length 10000
"""

from __future__ import annotations

import argparse
import re
import time

from halluscope import score_chi

from benchmarks._common import CHI_SCORES, read_jsonl, triples
from benchmarks.speed_chi import cold_caches

_SENTENCE_END = re.compile(r"(?<=\S)[.!?]+(?=\s|$)")


def unpunctuated_source(path: str, chars: int) -> str:
    """The distinct documents of ``path`` joined, their sentence punctuation removed,
    cut at the last space before ``chars``."""
    sources, _, _, _ = triples(read_jsonl(path))
    text = _SENTENCE_END.sub("", " ".join(dict.fromkeys(sources)))[:chars]
    return text[: text.rfind(" ")]


def copy_of(source: str, start: int, length: int) -> str:
    """Whole words of ``source`` from the first word at or after ``start``, about ``length`` characters."""
    first = source.find(" ", start) + 1 if start else 0
    end = source.rfind(" ", first, first + length)
    return source[first : end if end > first else first + length]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, help="SummaC-format jsonl whose documents make the source")
    parser.add_argument("--chars", type=int, default=50_000)
    parser.add_argument("--length", type=int, default=10_000, help="the 1x copy length (characters)")
    parser.add_argument("--start", type=int, default=1_000)
    args = parser.parse_args()
    source = unpunctuated_source(args.data, args.chars)
    score_chi(["Police arrested 3 men."], ["Police in Leeds arrested 3 men on Monday."])  # the models
    seconds: list[float] = []
    for factor in (1, 2, 4):
        copy = copy_of(source, args.start, args.length * factor)
        cold_caches()
        start = time.perf_counter()
        result = score_chi([copy], [source])
        seconds.append(time.perf_counter() - start)
        ratio = f"{seconds[-1] / seconds[-2]:.2f}" if len(seconds) > 1 else "-"
        scores = {name: round(result.per_example[name][0], 4) for name in CHI_SCORES}
        print(f"{factor}x {len(copy):6d} chars  {seconds[-1]:6.2f} s  ratio {ratio}  {scores}", flush=True)


if __name__ == "__main__":
    main()
