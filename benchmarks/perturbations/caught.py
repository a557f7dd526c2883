"""What the perturbation suite's scores caught: an edit is caught by a score when the
edited summary scores strictly lower than the original; the shares per edit type, and
the record of a run that docs/benchmarks/ keeps (:func:`record_of`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from benchmarks._common import DIMENSIONS
from benchmarks.perturbations.edit_types import OWN_INDEX

BASELINE = "alnum"


def _defined(value) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def _lower(edited, original) -> bool:
    return _defined(edited) and _defined(original) and edited < original


def _lower_from_top(edited, original) -> bool:
    """Caught when an undefined original counts as 1, as the harness ranks an undefined
    score: an index with no unit in the original that finds a contradicted or unsupported
    one in the edit ("won" against the source's "lost": rhi NaN -> 0) caught it."""
    return _defined(edited) and edited < (original if _defined(original) else 1.0)


def _scores(result, i: int) -> dict[str, float]:
    detail = result["details"][i]
    return {"chi": float(result["chi_scores"][i]), **{d: float(detail[d]["score"]) for d in DIMENSIONS}}


def summarise(cases: Sequence[dict[str, Any]], edit: str) -> dict[str, Any]:
    """Per type: n and the shares caught (edited strictly lower) by chi, the own index
    and the baseline; the own index's cases defined on both sides."""
    index = OWN_INDEX[edit]
    n = len(cases)

    def share(key):
        return sum(c["caught"][key] for c in cases) / n if n else None

    return {
        "n": n,
        "index": index,
        "chi": share("chi"),
        "own": share(index),
        "alnum": share(BASELINE),
        "own_from_top": share(index + "_from_top"),
        "own_defined": sum(
            _defined(c["scores_original"][index]) and _defined(c["scores_edited"][index]) for c in cases
        ),
        "own_defined_edited": sum(_defined(c["scores_edited"][index]) for c in cases),
        "chi_edited_ge_half": share("chi_edited_ge_half"),
        "cased": sum(c["cased"] for c in cases),
        "own_cased": (
            sum(c["caught"][index] for c in cases if c["cased"]) / sum(c["cased"] for c in cases)
            if any(c["cased"] for c in cases)
            else None
        ),
        "files": {f: sum(f in c["files"] for c in cases) for f in sorted({f for c in cases for f in c["files"]})},
    }


#: the keys of a run kept by :func:`record_of` (no summary or source text of the data)
RECORD_KEYS = ("args", "git", "signature", "pool", "summary", "originals", "paraphrase")


def record_of(payload: dict[str, Any]) -> dict[str, Any]:
    """The part of a ``--json`` payload that may be committed (``--record``): the run's
    arguments, commit, signature, pool sizes and shares, without the cases and sources,
    which hold the validation files' text (never copied into the repository). Each
    type's summary gains ``own_missed``: how many edits its own index missed, and of
    those how many had the original at 0 (``at_zero``: it cannot score lower) or
    undefined (``undefined``)."""
    record = {key: payload[key] for key in RECORD_KEYS if key in payload}
    summary = {}
    for edit, shares in record.get("summary", {}).items():
        index = shares["index"]
        missed = [c for c in payload.get("cases", []) if c["type"] == edit and not c["caught"][index]]
        originals = [c["scores_original"][index] for c in missed]
        summary[edit] = {
            **shares,
            "own_missed": {
                "n": len(missed),
                "at_zero": sum(_defined(v) and v == 0 for v in originals),
                "undefined": sum(not _defined(v) for v in originals),
            },
        }
    if summary:
        record["summary"] = summary
    return record
