"""``make demo``: score the example set with CHI and explain the worst example.

Runs through ``evaluate.load("metrics/chi")`` when started from the repository root
(the product as users meet it), else through :func:`halluscope.api.score_chi`.
"""

from __future__ import annotations

import argparse
import math
import os
from typing import Any

from .examples import load_examples
from .highlight import attribution_note
from .shipped import SHIPPED_DIMENSIONS


def _compute(examples: list[dict[str, Any]], metric_path: str) -> dict[str, Any]:
    predictions = [e["prediction"] for e in examples]
    references = [e["reference"] for e in examples]
    sources = [e["source"] for e in examples]
    publication_dates = [e.get("publication_date") for e in examples]
    if os.path.isfile(os.path.join(metric_path, "chi.py")):
        import evaluate

        return evaluate.load(metric_path).compute(
            predictions=predictions,
            references=references,
            sources=sources,
            publication_dates=publication_dates,
            return_details=True,
        )
    from .api import score_chi

    return score_chi(predictions, sources, references, publication_dates=publication_dates, return_details=True)


def _fmt(value: float) -> str:
    return "  n/a" if math.isnan(value) else f"{value:.3f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--metric-path", default="metrics/chi")
    args = parser.parse_args(argv)
    examples = load_examples()
    result = _compute(examples, args.metric_path)

    labels = result.get("labels") or [None] * len(examples)
    # p_consistent is absent under options it is not calibrated for (docs/api.md#when-p_consistent-is-absent)
    p_scores = result.get("p_consistent_scores") or [math.nan] * len(examples)
    print(f"{'example':<26} {'faithful':<8} {'EHI':>6} {'RHI*':>6} {'QHI':>6} {'CHI':>6} {'p':>6}  verdict")
    for k, example in enumerate(examples):
        verdict = {1: "consistent", 0: "inconsistent"}.get(labels[k], "-")
        print(
            f"{example['id']:<26} {str(example['faithful']):<8} "
            f"{_fmt(result['ehi_scores'][k]):>6} {_fmt(result['rhi_scores'][k]):>6} "
            f"{_fmt(result['qhi_scores'][k]):>6} {_fmt(result['chi_scores'][k]):>6} "
            f"{_fmt(p_scores[k]):>6}  {verdict}"
        )
    print(
        f"{'mean':<35} {_fmt(result['ehi']):>6} {_fmt(result['rhi']):>6} "
        f"{_fmt(result['qhi']):>6} {_fmt(result['chi']):>6} {_fmt(result.get('p_consistent', math.nan)):>6}"
    )
    print(
        "p: the probability that the summary is consistent (calibrated at even odds); verdict: consistent "
        "where p >= 0.5, the shipped cut (docs/benchmarks.md#p_consistent-and-the-shipped-labels)"
    )
    print(f"\nsignature: {result['signature']}")

    defined = [k for k, v in enumerate(result["chi_scores"]) if not math.isnan(v)]
    worst = min(defined, key=lambda k: result["chi_scores"][k])
    example, details = examples[worst], result["details"][worst]
    print(f"\nworst example: {example['id']} (CHI {_fmt(result['chi_scores'][worst])})")
    print(f"  summary: {example['prediction']}")
    for dimension in SHIPPED_DIMENSIONS:
        d = details[dimension]
        print(f"  {dimension}: {_fmt(d['score'])}  counts {d['counts']}")
        for unit in d["units"]:
            if unit["in_source"]:
                found = unit["in_source"]
                how = f"source, {found['mode']}: {found['evidence'][0]['text']!r}"
            elif unit["in_reference"]:
                found = unit["in_reference"]
                how = f"reference only, {found['mode']}: {found['evidence'][0]['text']!r}"
            else:
                how = "not in source or reference"
            attributed = attribution_note(unit)
            if attributed:
                how += "; " + attributed
            print(f"    [{unit['status']:>11}] {unit['text']!r} @{unit['span']}  ({how})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
