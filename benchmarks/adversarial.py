"""Time chi on pathological inputs: does 4x the input cost at most 5x the time, and
does every case stay within 2 s at the Space's caps?

Each case builds a text of a given length (a run of ")" or of digits, a digit range
of the kind "It happened in 99...9-99...9.", numbers only, dates only, ...). For each
size the source is the case's text of that many characters and the summary the case's
text of a quarter of it, so that work growing as summary x source shows as 16x
per 4x. Every size is timed in this one run from a cold parse cache (the texts
differ, so no other cache helps either), after a warm-up that loads every model;
the time is the best of ``--repeats`` calls of ``score_chi``. Last column: the
Space's caps, the longest texts of the case the Space accepts (its caps in characters
and in tokens, ``halluscope.space.limits.CAPS``).

    python -m benchmarks.adversarial                 # every case
    python -m benchmarks.adversarial --case rparen --case numbers --repeats 1
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from halluscope import score_chi
from halluscope.parsing import guarded_doc
from halluscope.resources import get_parse_cache
from halluscope.space.limits import CAPS

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def _repeat(unit: str) -> Callable[[int], str]:
    return lambda n: (unit * (n // len(unit) + 1))[:n]


def _joined(item: Callable[[int], str], sep: str = " ") -> Callable[[int], str]:
    def make(n: int) -> str:
        parts: list[str] = []
        size, i = 0, 0
        while size < n:
            parts.append(item(i))
            size += len(parts[-1]) + len(sep)
            i += 1
        return sep.join(parts)[:n]

    return make


def _name(i: int) -> str:
    """A made-up two-word name for each ``i`` ("Rasoten Lemirua", ...): a capital and
    six letters per word, drawn by a fixed linear congruential sequence, so that almost
    no two share a key and spaCy tags most as people."""
    letters, word = "aeioulmnrst", []
    state = i * 2654435761 % 2**32
    for _ in range(2):
        state = (state * 1103515245 + 12345) % 2**31
        head = chr(ord("A") + state % 26)
        tail = ""
        for _ in range(6):
            state = (state * 1103515245 + 12345) % 2**31
            tail += letters[state % len(letters)]
        word.append(head + tail)
    return " ".join(word)


def _digit_range(n: int) -> str:
    half = max(1, (n - len("It happened in -.")) // 2)
    return "It happened in " + "9" * half + "-" + "9" * half + "."


#: case name -> text of (about) n characters
CASES: dict[str, Callable[[int], str]] = {
    "rparen": _repeat(")"),
    "punctuation-mix": _repeat(")(?!,;"),
    "digits": _repeat("1"),
    "letters": _repeat("a"),
    "digit-range": _digit_range,
    "hyphen-chain": _repeat("a-"),
    "whitespace": lambda n: "5" + " " * max(0, n - 10) + "years ago",
    "numbers": _joined(lambda i: str(i)),
    "percents": _joined(lambda i: f"{i % 97}.{i % 10}%"),
    "signed-exponents": _joined(lambda i: ("-" if i % 2 else "") + f"{i % 9 + 1}e{i % 300}"),
    "money": _joined(lambda i: f"${i * 37 % 1000}m"),
    "durations": _joined(lambda i: f"{i % 50} years"),
    "dates": _joined(lambda i: f"{i % 28 + 1} {MONTHS[i % 12]} {1990 + i % 30},"),
    "year-words": _repeat("year "),
    # one sentence of distinct capitalised names ("Kaboru Lenimo, Kaboru Lenimu, ..."):
    # every name a unit whose place in the sentence is read (session 30)
    "names": _joined(
        lambda i: _name(i) + ",",
    ),
    # the same names as the subjects of one verb ("..., Ystsnrl Jnsnann met in Paris.")
    "names-sentence": lambda n: _joined(_name, ", ")(max(1, n - 14)).rstrip(", ") + " met in Paris.",
}
SIZES = (1000, 4000, 8000)


def within_caps(text: str, field: str) -> str:
    """The longest prefix of ``text`` that the Space accepts as ``field``, cut at a token's end."""
    max_chars, max_tokens = CAPS[field]
    text = text[:max_chars]
    doc = guarded_doc(get_parse_cache().nlp, text)
    return text if len(doc) <= max_tokens else text[: doc[max_tokens - 1].idx + len(doc[max_tokens - 1])]


def time_call(summary: str, source: str, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        get_parse_cache().clear()
        start = time.perf_counter()
        score_chi([summary], [source])
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", action="append", choices=sorted(CASES), help="run only these cases")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    score_chi(["The company paid $5 million in 2015."], ["The company paid $5 million in 2015 to 40 staff."])
    names = args.case or list(CASES)
    head = " ".join(f"{n:>8,}" for n in SIZES)
    print(f"{'case':<18}{head}  {'4k/1k':>6} {'8k/4k':>6}  {'caps':>7}  (seconds, best of {args.repeats})")
    worst_ratio, worst_caps = 0.0, 0.0
    for name in names:
        make = CASES[name]
        times = [time_call(make(n // 4), make(n), args.repeats) for n in SIZES]
        caps = time_call(
            within_caps(make(CAPS["summary"][0]), "summary"),
            within_caps(make(CAPS["source"][0]), "source"),
            args.repeats,
        )
        ratios = [times[1] / max(times[0], 1e-3), times[2] / max(times[1], 1e-3)]
        worst_ratio, worst_caps = max(worst_ratio, ratios[0]), max(worst_caps, caps)
        cells = " ".join(f"{t:8.3f}" for t in times)
        print(f"{name:<18}{cells}  {ratios[0]:6.2f} {ratios[1]:6.2f}  {caps:7.3f}", flush=True)
    print(f"worst 4k/1k ratio {worst_ratio:.2f} (target <= 5); worst time at the caps {worst_caps:.2f} s (target <= 2)")


if __name__ == "__main__":
    main()
