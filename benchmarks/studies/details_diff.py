"""Before/after check of a scoring change: chi, ehi, rhi and qhi values and details, row
by row, on the DESIGN half of validation files (issue 57: "values and details unchanged,
bit for bit, except rows that this class changes").

``dump`` scores the first ``--limit`` design-half rows of each file with chi and its
details (which hold the three indices) and writes one JSON line per row; ``diff`` lists
the rows of two dumps whose scores or details differ, with the units whose entry changed.

    PYTHONPATH=/tmp/old/shared python -m benchmarks.studies.details_diff dump \
        ../shared/data/summac/summeval_val.jsonl --limit 250 --out /tmp/before.jsonl
    python -m benchmarks.studies.details_diff dump ... --out /tmp/after.jsonl
    python -m benchmarks.studies.details_diff diff /tmp/before.jsonl /tmp/after.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Iterator

from benchmarks._common import CHI_SCORES, load_dataset

INDICES = CHI_SCORES


def _plain(value):
    """NaN -> None, so that two dumps compare as JSON."""
    return None if isinstance(value, float) and math.isnan(value) else value


def dump_rows(paths: list[str], limit: int, frank: list[str]) -> Iterator[dict]:
    """One dict per scored row: file, row, the four values and the row's details."""
    from halluscope import score_chi

    for path in [*paths, *frank]:
        data = load_dataset(path, limit, limit_per_group=path in frank, half="design")
        references = data.references if path in frank else None
        result = score_chi(data.predictions, data.sources, references, return_details=True)
        for k in range(len(data)):
            yield {
                "file": data.name,
                "row": k,
                "values": {n: _plain(result.per_example[n][k]) for n in INDICES},
                "details": {n: result.details[k].get(n) for n in INDICES},
            }


def _units(details: dict, name: str) -> list[dict]:
    entry = details.get(name) or {}
    return entry.get("units", []) if isinstance(entry, dict) else []


def diff(before_path: str, after_path: str, show: int) -> None:
    """Print how many rows changed, and the first ``show`` of them with their changed units."""
    with open(before_path) as b, open(after_path) as a:
        before, after = [json.loads(x) for x in b], [json.loads(x) for x in a]
    assert [(r["file"], r["row"]) for r in before] == [(r["file"], r["row"]) for r in after], "different rows"
    changed = [
        (x, y)
        for x, y in zip(before, after, strict=True)
        if json.dumps(x, sort_keys=True) != json.dumps(y, sort_keys=True)
    ]
    files = sorted({r["file"] for r in before})
    print(f"{len(before)} rows ({', '.join(files)}); {len(changed)} changed")
    for x, y in changed[:show]:
        print(
            f"- {x['file']} row {x['row']}: "
            + ", ".join(
                f"{n} {x['values'][n]} -> {y['values'][n]}" for n in INDICES if x["values"][n] != y["values"][n]
            )
        )
        for name in INDICES[1:]:
            # strict=False: a changed row may have gained or lost units; compare those both have
            for u, v in zip(_units(x["details"], name), _units(y["details"], name), strict=False):
                if u != v:
                    keys = sorted(k for k in {*u, *v} if u.get(k) != v.get(k))
                    print(f"    {name} {u['text']!r}: " + "; ".join(f"{k} {u.get(k)} -> {v.get(k)}" for k in keys))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("dump")
    run.add_argument("files", nargs="+", help="SummaC-format files (reference-free)")
    run.add_argument("--frank", nargs="*", default=[], help="FRANK-format files (scored with their references)")
    run.add_argument("--limit", type=int, default=250)
    run.add_argument("--out", required=True)
    compare = sub.add_parser("diff")
    compare.add_argument("before")
    compare.add_argument("after")
    compare.add_argument("--show", type=int, default=20)
    args = parser.parse_args()
    if args.command == "dump":
        with open(args.out, "w") as out:
            for row in dump_rows(args.files, args.limit, args.frank):
                out.write(json.dumps(row, sort_keys=True) + "\n")
    else:
        diff(args.before, args.after, args.show)


if __name__ == "__main__":
    main()
