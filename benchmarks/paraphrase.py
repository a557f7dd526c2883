"""Hand-written paraphrase suite: does chi rank a faithful paraphrase above a minimal
unfaithful edit of it?

Each case of ``paraphrase_suite.jsonl`` holds a short news-style source, a faithful
one-sentence paraphrase and an unfaithful minimal edit of that paraphrase, in one of
twelve categories (verb synonyms, hypernyms, nominalisations, voice, phrasal verbs,
prepositional roles, antonyms, intransitive verbs, number and date formats, entity
aliases, negation). All 2 x N summaries are scored with ``halluscope.api.score_chi`` in
one call. Printed, per category and overall:

* chi: the share of cases with chi(faithful) > chi(unfaithful) (ties and undefined
  scores fail) and the share with chi(faithful) >= 0.5;
* ehi / rhi / qhi: the same two shares over the cases where the dimension is defined
  for both summaries (n gives how many);
* base: the same pair ranking for the word-overlap baseline (share of the summary's
  distinct lower-cased alphanumeric tokens found among the source's tokens).

Then every case that chi ranks wrongly (id, both scores, the note).

    python -m benchmarks.paraphrase
    python -m benchmarks.paraphrase --option lexical_weight=0 --json /tmp/paraphrase.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from benchmarks._common import CHI_SCORES, alnum_precision

HERE = os.path.dirname(os.path.abspath(__file__))

DEFAULT_SUITE = os.path.join(HERE, "paraphrase_suite.jsonl")
#: chi first, then the dimensions it fuses
METRICS = CHI_SCORES
#: the metric whose pair shares count every case (an undefined score fails)
PRIMARY = "chi"
BASELINE = "base"
FIELDS = ("id", "category", "source", "faithful", "unfaithful", "note")


@dataclass(frozen=True)
class Case:
    id: str
    category: str
    source: str
    faithful: str
    unfaithful: str
    note: str


def load_suite(path: str = DEFAULT_SUITE) -> list[Case]:
    """The cases of a jsonl suite file, in file order (blank lines skipped)."""
    cases = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            row = json.loads(line)
            missing = [name for name in FIELDS if name not in row]
            if missing:
                raise ValueError(f"{path}:{number}: missing field(s) {', '.join(missing)}")
            cases.append(Case(**{name: row[name] for name in FIELDS}))
    return cases


def word_overlap(summary: str, source: str) -> float:
    """The word-overlap baseline, the harness's ``alnum-types`` reading
    (:func:`_common.alnum_precision`): the share of the summary's distinct lower-cased
    alphanumeric tokens that occur in the source (0.0 when the summary has no token)."""
    return alnum_precision(summary, source)


def _defined(value: float | None) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def _share(hits: int, total: int) -> float | None:
    return hits / total if total else None


def _as_metrics(scores: Sequence[float] | Mapping[str, Sequence[float]]) -> dict[str, list[float]]:
    if isinstance(scores, Mapping):
        return {name: list(values) for name, values in scores.items()}
    return {PRIMARY: list(scores)}


def _group(
    rows: Sequence[int],
    metrics: Sequence[str],
    faithful: Mapping[str, list[float]],
    unfaithful: Mapping[str, list[float]],
    base: Sequence[tuple],
) -> dict[str, Any]:
    """The shares of one group of case indices."""
    out: dict[str, Any] = {"n": len(rows)}
    for name in metrics:
        pairs = [(faithful[name][i], unfaithful[name][i]) for i in rows]
        if name != PRIMARY:
            pairs = [(f, u) for f, u in pairs if _defined(f) and _defined(u)]
        ranked = sum(_defined(f) and _defined(u) and f > u for f, u in pairs)
        half = sum(_defined(f) and f >= 0.5 for f, _ in pairs)
        out[name] = {"n": len(pairs), "pair": _share(ranked, len(pairs)), "half": _share(half, len(pairs))}
    ranked = sum(base[i][0] > base[i][1] for i in rows)
    out[BASELINE] = {"n": len(rows), "pair": _share(ranked, len(rows))}
    return out


def suite_table(cases: Sequence[Case], faithful_scores, unfaithful_scores) -> dict[str, Any]:
    """Per-category and overall shares.

    ``faithful_scores`` / ``unfaithful_scores``: one chi score per case, or a mapping
    metric name -> one score per case (``chi`` and any of ``ehi``/``rhi``/``qhi``; NaN or
    None = undefined). For each metric: ``pair`` = share with faithful > unfaithful,
    ``half`` = share with faithful >= 0.5, over ``n`` cases (chi: every case, an
    undefined score failing; a dimension: the cases where both scores are defined).
    ``base``: the pair share of :func:`word_overlap`. Shares are None when ``n`` is 0.
    ``failures``: the cases with chi(faithful) <= chi(unfaithful) or undefined, in order.
    """
    faithful = _as_metrics(faithful_scores)
    unfaithful = _as_metrics(unfaithful_scores)
    metrics = [name for name in METRICS if name in faithful] + [name for name in faithful if name not in METRICS]
    for name in metrics:
        if name not in unfaithful or not len(faithful[name]) == len(unfaithful[name]) == len(cases):
            raise ValueError(f"`{name}` needs one faithful and one unfaithful score per case")
    if PRIMARY not in metrics:
        raise ValueError(f"the scores need `{PRIMARY}`")
    base = [(word_overlap(c.faithful, c.source), word_overlap(c.unfaithful, c.source)) for c in cases]
    categories: dict[str, list[int]] = {}
    for index, case in enumerate(cases):
        categories.setdefault(case.category, []).append(index)
    failures = []
    for index, case in enumerate(cases):
        f, u = faithful[PRIMARY][index], unfaithful[PRIMARY][index]
        if not (_defined(f) and _defined(u) and f > u):
            failures.append(
                {"id": case.id, "category": case.category, "faithful": f, "unfaithful": u, "note": case.note}
            )
    return {
        "metrics": metrics,
        "overall": _group(range(len(cases)), metrics, faithful, unfaithful, base),
        "categories": {name: _group(rows, metrics, faithful, unfaithful, base) for name, rows in categories.items()},
        "failures": failures,
    }


def parse_option(text: str):
    """``key=value`` -> (key, value), the value parsed as JSON when it parses."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def score_suite(cases: Sequence[Case], **options) -> dict[str, Any]:
    """chi of every faithful then every unfaithful summary, in one call."""
    from halluscope import api

    predictions = [c.faithful for c in cases] + [c.unfaithful for c in cases]
    sources = [c.source for c in cases] * 2
    return api.score_chi(predictions, sources, references=None, return_details=True, **options)


def split_scores(result: Mapping[str, Any], count: int):
    """(faithful, unfaithful) metric -> scores mappings from a score_chi result."""
    faithful, unfaithful = {}, {}
    for name in METRICS:
        values = result.get(f"{name}_scores")
        if values is not None:
            faithful[name], unfaithful[name] = list(values[:count]), list(values[count:])
    return faithful, unfaithful


def _pct(value: float | None) -> str:
    return "   -" if value is None else f"{100 * value:4.0f}"


def _num(value) -> str:
    return f"{value:.3f}" if _defined(value) else "nan"


def format_table(table: Mapping[str, Any]) -> str:
    """The table as text: chi and dimensions as pair%/half% (n), the baseline as pair%."""
    metrics = table["metrics"]
    header = (
        f"{'category':<18}{'n':>4}  "
        + "  ".join(f"{name + ' pair/>=.5':>15}" + ("" if name == PRIMARY else "   n") for name in metrics)
        + f"  {'base pair':>9}"
    )
    lines = [header, "-" * len(header)]
    rows = list(table["categories"].items()) + [("overall", table["overall"])]
    for position, (name, group) in enumerate(rows):
        if position == len(rows) - 1:
            lines.append("-" * len(header))
        cells = []
        for metric in metrics:
            entry = group[metric]
            cell = f"{_pct(entry['pair'])}% / {_pct(entry['half'])}%"
            cells.append(f"{cell:>15}" + ("" if metric == PRIMARY else f"{entry['n']:>4}"))
        lines.append(f"{name:<18}{group['n']:>4}  " + "  ".join(cells) + f"  {_pct(group[BASELINE]['pair']):>8}%")
    return "\n".join(lines)


def _plain(value):
    """``value`` with NaN as None (strict JSON) and number-likes as floats."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, (str, bool, int)) or value is None:
        return value
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    return None if math.isnan(number) else number


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", default=DEFAULT_SUITE, help="suite jsonl (default: %(default)s)")
    parser.add_argument("--json", metavar="OUT", default=None, help="write the table and per-case scores here")
    parser.add_argument(
        "--option",
        action="append",
        type=parse_option,
        default=[],
        metavar="KEY=VALUE",
        help="keyword for halluscope.api.score_chi (value parsed as JSON when it parses); repeatable",
    )
    args = parser.parse_args(argv)
    options = dict(args.option)
    cases = load_suite(args.suite)
    result = score_suite(cases, **options)
    faithful, unfaithful = split_scores(result, len(cases))
    table = suite_table(cases, faithful, unfaithful)

    print(f"suite: {os.path.relpath(args.suite)} ({len(cases)} cases)  options: {json.dumps(options)}")
    print(f"signature: {result.get('signature')}")
    print(
        "pair = share with faithful > unfaithful (ties fail); >=.5 = share with faithful >= 0.5; "
        "dimensions over the n cases where both are defined"
    )
    print(format_table(table))
    failures = table["failures"]
    print(f"\nchi pair failures ({len(failures)}):")
    for failure in failures:
        print(
            f"  {failure['id']:<22} faithful {_num(failure['faithful'])}  unfaithful "
            f"{_num(failure['unfaithful'])}  {failure['note']}"
        )
    low = [(c.id, f) for c, f in zip(cases, faithful[PRIMARY], strict=True) if not (_defined(f) and f >= 0.5)]
    print(f"\nfaithful chi below 0.5 ({len(low)}): " + ", ".join(f"{i} {_num(f)}" for i, f in low))

    if args.json:
        payload = {
            "suite": args.suite,
            "options": options,
            "signature": result.get("signature"),
            "table": table,
            "cases": [
                {
                    **asdict(c),
                    **{f"{m}_faithful": faithful[m][i] for m in faithful},
                    **{f"{m}_unfaithful": unfaithful[m][i] for m in unfaithful},
                    "base_faithful": word_overlap(c.faithful, c.source),
                    "base_unfaithful": word_overlap(c.unfaithful, c.source),
                }
                for i, c in enumerate(cases)
            ],
        }
        directory = os.path.dirname(os.path.abspath(args.json))
        os.makedirs(directory, exist_ok=True)
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(_plain(payload), handle, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
