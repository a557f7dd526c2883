"""The perturbation suite's printout of the edits an index missed (``--show-misses``):
each case's change in context, its scores and the index's units."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from benchmarks._common import CHI_SCORES
from benchmarks.perturbations.caught import BASELINE, _defined
from benchmarks.perturbations.edit_types import OWN_INDEX


def _unit_lines(detail: dict[str, Any], span: Sequence[int], limit: int = 6) -> list[str]:
    """The index's units, those overlapping ``span`` first (marked ``*``)."""
    units = detail.get("units") or []

    def overlaps(u):
        s = u.get("span") or [-1, -1]
        return s[0] < max(span[1], span[0] + 1) and span[0] < s[1]

    ordered = sorted(units, key=lambda u: not overlaps(u))
    out = []
    for unit in ordered[:limit]:
        found = unit.get("in_source") or {}
        text = unit.get("text") or " ".join(str(unit.get(k)) for k in ("subject", "relation", "object") if unit.get(k))
        key = unit.get("key")
        out.append(
            f"      {'*' if overlaps(unit) else ' '} {text!r:<40} {unit.get('status')}: "
            f"{found.get('mode')} {str(found.get('detail'))[:110]}"
            + (f"  key {json.dumps(key, default=str)[:80]}" if isinstance(key, (list, tuple)) else "")
        )
    if len(units) > limit:
        out.append(f"        ... {len(units) - limit} more")
    if not units:
        out.append("        (no units)")
    return out


def _num(value) -> str:
    return f"{value:.3f}" if _defined(value) else "nan"


def _around(text: str, span: Sequence[int], width: int = 150) -> str:
    """``text`` within ``width`` characters of ``span``, the span in [[ ]]."""
    start, end = span
    left = max(0, start - width)
    right = min(len(text), end + width)
    return (
        ("..." if left else "")
        + text[left:start]
        + "[["
        + text[start:end]
        + "]]"
        + text[end:right]
        + ("..." if right < len(text) else "")
    ).replace("\n", " ")


def print_misses(cases: Sequence[dict[str, Any]], edit: str, count: int) -> None:
    index = OWN_INDEX[edit]
    every = [c for c in cases if not c["caught"][index]]
    missed = every[:count]
    print(
        f"\n### {edit}: {index} misses {len(every)} of {len(cases)} cases"
        + (f"; the first {len(missed)}:" if missed else "")
    )
    for case in missed:
        o, e = case["scores_original"], case["scores_edited"]
        print(f"- [{'/'.join(case['files'])}] {case['old']!r} -> {case['new']!r}")
        print(f"    original: {_around(case['original'], case['span_original'])}")
        print(f"    edited:   {_around(case['edited'], case['span_edited'])}")
        print(
            "    "
            + "  ".join(f"{k} {_num(o[k])} -> {_num(e[k])}" for k in CHI_SCORES)
            + f"  alnum {_num(o[BASELINE])} -> {_num(e[BASELINE])}"
        )
        print(f"    {index} units of the edited summary:")
        for line in _unit_lines(case["details_edited"], case["span_edited"]):
            print(line)
        print(f"    {index} units of the original:")
        for line in _unit_lines(case["details_original"], case["span_original"], limit=3):
            print(line)
