"""The per-example details of ``return_details=True``: units, their matches and status,
as JSON-ready dicts (the fields are listed in metrics/chi/README.md)."""

from __future__ import annotations

import math
from typing import Any


def unit_json(unit) -> dict[str, Any]:
    out: dict[str, Any] = {"text": unit.text, "span": list(unit.span)}
    key = unit.key
    out["key"] = list(key) if isinstance(key, tuple) else key
    for name in ("label", "qkind", "unit", "value", "anchor", "interval", "source"):
        if hasattr(unit, name):
            value = getattr(unit, name)
            out[name] = list(value) if isinstance(value, tuple) else value
    return out


def match_json(match) -> dict[str, Any] | None:
    if match is None:
        return None
    return {
        "mode": match.mode,
        "score": match.score,
        "detail": match.detail,
        "evidence": [{"text": e.text, "span": list(e.span)} for e in match.evidence],
    }


def dimension_details(result, g_units, g_in_i, ref_matches, found, nearest=None) -> dict[str, Any]:
    """One dimension's details of a row. ``nearest(unit)``: the nearest source unit of an
    unsupported unit and why it is not a match (``Dimension.nearest``), given as the
    unit's ``nearest_in_source`` (text, span, reason; None: nothing near)."""
    units = []
    for k, unit in enumerate(g_units):
        entry = unit_json(unit)
        entry["in_source"] = match_json(g_in_i[k] if g_in_i[k] is not None else found[k])
        entry["in_reference"] = match_json(ref_matches[0][k]) if ref_matches else None
        if result.supported is not None:
            supported = result.supported[k]
        else:  # the paper's formulas: found in the source or in the reference
            supported = g_in_i[k] is not None or (ref_matches is not None and ref_matches[0][k] is not None)
        contradicted = not supported and found[k] is not None and found[k].contradicts
        entry["status"] = "supported" if supported else ("contradicted" if contradicted else "unsupported")
        if entry["status"] == "unsupported" and nearest is not None:
            near = nearest(unit)
            entry["nearest_in_source"] = (
                None if near is None else {"text": near[0].text, "span": list(near[0].span), "reason": near[1]}
            )
        if result.attributions is not None:
            entry["attribution"] = result.attributions[k]
        units.append(entry)
    return {
        "score": result.score,
        "defined": not math.isnan(result.score),
        "reference_index": result.reference_index,
        "counts": result.counts.as_dict() if result.counts else None,
        "factors": result.factors,
        **result.extra,
        "units": units,
    }
