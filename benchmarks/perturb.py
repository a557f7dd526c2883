"""Perturbation suite: seeded single-error edits of human-labelled consistent summaries.
Does chi (and the index meant for that kind of error) score the edited summary lower
than the original, against the same source?

Cases: the consistent summaries (label 1) of every validation file (the SummaC files and
FRANK; a (source, summary) pair that two files hold counts once, and a pair labelled
inconsistent in any file is left out), with ``--half`` choosing the rows
(``_common.lockbox_half``). For each edit type (``perturbations.edit_types.EDITS``)
the rows are drawn in a seeded order and the type's edit function is tried on each
until ``--per-type`` cases are found or the rows run out. An edit function takes ``(summary, source, rng,
summary_doc, source_doc, others)`` (the docs parsed by the spaCy model halluscope loads;
an all-lower-case summary, as FRANK's CNN/DM ones, parsed truecased against its source,
which keeps every offset; ``others``: the parsed sources of the other rows) and returns
the edited summary, or None when it does not apply.

Scoring, reference-free: the originals in one ``halluscope.api.score_chi`` call, each
type's edited summaries in one more. A case is caught by a score when the edited
summary's score is strictly lower than the original's (an undefined score on either
side: not caught). Reported per type: n, the share caught by chi, by the type's own
index (``perturbations.edit_types.OWN_INDEX``: qhi for numbers, ehi for entities, rhi
for antonyms, role swaps and negation) with the number of cases where it is defined on both sides, the own index
again with an undefined original counted as 1 (as the harness ranks an undefined score:
an index that had no unit and finds the edit's contradiction caught it), and by the
word-overlap baseline ``_common.alnum_precision``; the share of edited summaries still
at chi >= 0.5; the own index on the cased summaries alone (most validation summaries are
all lower case, where a new name cannot be truecased). The false-alarm side: the share of
the paraphrase suite's faithful paraphrases with chi >= 0.5 (``paraphrase.py``), and of
the originals themselves.

    python -m benchmarks.perturb --data ../shared/data --half design --per-type 150
    python -m benchmarks.perturb --data ../shared/data --half design --per-type 150 --show-misses 5 --json /tmp/p.json
    python -m benchmarks.perturb --data ../shared/data --half lockbox --record docs/benchmarks/perturb-lockbox.json

``--record`` keeps the shares without the data's text
(``perturbations.caught.record_of``); the two records in docs/benchmarks/
(``perturb-design.json``, ``perturb-lockbox.json``) make the table of
docs/benchmarks.md#what-the-indices-catch-controlled-single-error-edits
(``benchmarks.report.perturbation_section``).

This module runs the suite and prints its table; the edit functions, the pool, the
tally of what was caught and the printout of misses are in ``benchmarks/perturbations/``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from benchmarks._common import CHI_SCORES, HALVES, alnum_precision, percent
from benchmarks.perturbations.caught import BASELINE, _defined, _lower, _lower_from_top, _scores, record_of, summarise
from benchmarks.perturbations.edit_types import EDITS, OWN_INDEX
from benchmarks.perturbations.misses import print_misses
from benchmarks.perturbations.pool import draw_cases, load_pool, parse_pool
from benchmarks.result_files import json_safe


def markdown(summary: dict[str, dict[str, Any]], per_type: int) -> str:
    lines = [
        "| edit type | n | chi caught % | own index | own caught % | own caught %, undefined original = 1 | "
        "own defined (both / edited) | alnum caught % | edited chi ≥ 0.5 % | cased n | own caught % (cased) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for edit, s in summary.items():
        short = " (pool exhausted)" if s["n"] < per_type else ""
        lines.append(
            f"| {edit} | {s['n']}{short} | {percent(s['chi'])} | {s['index']} | {percent(s['own'])} | "
            f"{percent(s['own_from_top'])} | {s['own_defined']} / {s['own_defined_edited']} | "
            f"{percent(s['alnum'])} | "
            f"{percent(s['chi_edited_ge_half'])} | {s['cased']} | {percent(s['own_cased'])} |"
        )
    return "\n".join(lines)


def paraphrase_false_alarms() -> dict[str, Any]:
    """The paraphrase suite: the share of faithful paraphrases with chi >= 0.5, and of
    cases with chi(faithful) > chi(unfaithful)."""
    from benchmarks.paraphrase import load_suite, score_suite, split_scores, suite_table

    cases = load_suite()
    faithful, unfaithful = split_scores(score_suite(cases), len(cases))
    overall = suite_table(cases, faithful, unfaithful)["overall"]["chi"]
    return {
        "cases": len(cases),
        "faithful_chi_ge_half": overall["half"],
        "pair": overall["pair"],
        "below_half": [c.id for c, f in zip(cases, faithful["chi"], strict=True) if not (_defined(f) and f >= 0.5)],
    }


def run_suite(
    data: str,
    half: str,
    per_type: int,
    seed: int,
    types: Sequence[str],
    log=lambda m: print(m, file=sys.stderr, flush=True),
) -> dict[str, Any]:
    from halluscope import api

    start = time.perf_counter()
    rows, counts = load_pool(data, half)
    summary_docs, source_docs, distinct_docs = parse_pool(rows)
    log(
        f"pool: {len(rows)} consistent pairs, {len(distinct_docs)} sources ({half} half; consistent rows per file "
        + ", ".join(f"{k} {v}" for k, v in counts.items())
        + f"), parsed in {time.perf_counter() - start:.0f} s"
    )
    cases_by_type = {}
    for edit in types:
        cases_by_type[edit] = draw_cases(rows, summary_docs, source_docs, distinct_docs, edit, per_type, seed)
    used = sorted({c["row"] for cases in cases_by_type.values() for c in cases})
    log(
        "drawn: "
        + ", ".join(f"{k} {len(v)}" for k, v in cases_by_type.items())
        + f" ({time.perf_counter() - start:.0f} s)"
    )
    original = api.score_chi([rows[i].summary for i in used], [rows[i].source for i in used], None, return_details=True)
    position = {row: k for k, row in enumerate(used)}
    signature = original.get("signature")
    log(f"originals scored: {len(used)} ({time.perf_counter() - start:.0f} s)")
    summary = {}
    all_cases = []
    for edit, cases in cases_by_type.items():
        index = OWN_INDEX[edit]
        if cases:
            result = api.score_chi(
                [c["edited"] for c in cases], [rows[c["row"]].source for c in cases], None, return_details=True
            )
        for k, case in enumerate(cases):
            row = rows[case["row"]]
            p = position[case["row"]]
            case["scores_original"] = {**_scores(original, p), BASELINE: alnum_precision(row.summary, row.source)}
            case["scores_edited"] = {**_scores(result, k), BASELINE: alnum_precision(case["edited"], row.source)}
            case["caught"] = {
                m: _lower(case["scores_edited"][m], case["scores_original"][m]) for m in (*CHI_SCORES, BASELINE)
            }
            case["caught"][index + "_from_top"] = _lower_from_top(
                case["scores_edited"][index], case["scores_original"][index]
            )
            case["caught"]["chi_edited_ge_half"] = (
                _defined(case["scores_edited"]["chi"]) and case["scores_edited"]["chi"] >= 0.5
            )
            case["details_original"] = original["details"][p][index]
            case["details_edited"] = result["details"][k][index]
        summary[edit] = summarise(cases, edit)
        all_cases += cases
        log(f"{edit}: {len(cases)} scored ({time.perf_counter() - start:.0f} s)")
    originals_chi = [float(original["chi_scores"][k]) for k in range(len(used))]
    return {
        "pool": {"pairs": len(rows), "sources": len(distinct_docs), "consistent_rows_per_file": counts},
        "signature": signature,
        "summary": summary,
        "cases": all_cases,
        "originals": {
            "n": len(used),
            "chi_ge_half": sum(_defined(v) and v >= 0.5 for v in originals_chi) / max(1, len(used)),
        },
        "rows_used": used,
        "rows": rows,
        "seconds": time.perf_counter() - start,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, help="folder with summac/*_val.jsonl and frank/frank_val.jsonl")
    parser.add_argument(
        "--half",
        default="all",
        choices=list(HALVES),
        help="rows: all, design (outside the lockbox) or lockbox (_common.lockbox_half)",
    )
    parser.add_argument("--per-type", type=int, default=150, help="cases per edit type (fewer when the rows run out)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--type", action="append", choices=list(EDITS), help="only these edit types (repeatable)")
    parser.add_argument("--json", metavar="OUT", help="write the cases, their scores and the table here")
    parser.add_argument(
        "--show-misses",
        type=int,
        default=0,
        metavar="K",
        help="print K cases per type that the type's own index misses, with its units",
    )
    parser.add_argument(
        "--record",
        metavar="OUT",
        help="write the shares alone, without the data's text (record_of: the form docs/benchmarks/ keeps)",
    )
    parser.add_argument("--no-paraphrase", action="store_true", help="skip the paraphrase suite's false alarms")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HALLUSCOPE_CACHE_MB", "2048")  # every source's parse stays between the calls
    from benchmarks.errortypes import git_state

    outcome = run_suite(args.data, args.half, args.per_type, args.seed, args.type or list(EDITS))
    paraphrase = None if args.no_paraphrase else paraphrase_false_alarms()
    state = git_state()
    pool = outcome["pool"]
    print(
        f"perturbation suite: {args.data} half={args.half} seed={args.seed} per-type={args.per_type}; pool "
        f"{pool['pairs']} consistent pairs from {pool['sources']} sources; {outcome['seconds']:.0f} s; commit "
        f"{state['commit']}" + (" (+ uncommitted changes in shared/)" if state["shared_dirty"] else "")
    )
    print(f"signature: {outcome['signature']}")
    print("caught = the edited summary's score strictly lower than the original's (undefined: not caught)\n")
    print(markdown(outcome["summary"], args.per_type))
    print(
        f"\nfalse alarms: originals (human-labelled consistent) with chi >= 0.5: "
        f"{percent(outcome['originals']['chi_ge_half'])}% of {outcome['originals']['n']}",
        end="",
    )
    if paraphrase is not None:
        print(
            f"; paraphrase suite faithful chi >= 0.5: {percent(paraphrase['faithful_chi_ge_half'])}% of "
            f"{paraphrase['cases']} (pair ranking {percent(paraphrase['pair'])}%)"
        )
    else:
        print()
    if args.show_misses:
        by_type: dict[str, list[dict[str, Any]]] = {}
        for case in outcome["cases"]:
            by_type.setdefault(case["type"], []).append(case)
        for edit, cases in by_type.items():
            print_misses(cases, edit, args.show_misses)
    if args.json or args.record:
        rows = outcome["rows"]
        used_sources = list(dict.fromkeys(rows[c["row"]].source for c in outcome["cases"]))
        source_id = {s: k for k, s in enumerate(used_sources)}
        payload = {
            "args": vars(args),
            "git": state,
            "signature": outcome["signature"],
            "pool": pool,
            "summary": outcome["summary"],
            "originals": outcome["originals"],
            "paraphrase": paraphrase,
            "cases": [
                {**{k: v for k, v in c.items() if k != "row"}, "source_id": source_id[rows[c["row"]].source]}
                for c in outcome["cases"]
            ],
            "sources": used_sources,
        }
        for path, content in ((args.json, payload), (args.record, record_of(payload))):
            if path:
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
                with open(path, "w", encoding="utf-8") as handle:
                    json.dump(json_safe(content), handle, indent=1, ensure_ascii=False, default=str)
                print(f"\nwrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
