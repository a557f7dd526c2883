"""What a scored row becomes in a record, for every surface that writes records: the
``halluscope score`` command (docs/cli.md#output) and the Ray Data actors
(docs/scaling.md#ray-data). One place, so that the two write the same record.

This module imports nothing of the package: the CLI and :mod:`halluscope.ray` both
stand above it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any


def json_safe(value: Any) -> Any:
    """``value`` with NaN and infinities as ``None`` (strict JSON) and tuples as lists."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    return value


def to_json(value: Any) -> str:
    """``value`` as strict JSON, the way a record is written: NaN as null, floats by
    Python's shortest round-trip repr (never rounded)."""
    return json.dumps(json_safe(value), ensure_ascii=False, allow_nan=False)


def per_example_scores(result: Mapping[str, Any]) -> dict[str, list[float]]:
    """The per-example lists of an API result by score name (``chi_scores`` -> ``chi``)."""
    return {key[: -len("_scores")]: value for key, value in result.items() if key.endswith("_scores")}


def row_parts(results: Mapping[str, Mapping[str, Any]], rows: int) -> list[dict[str, Any]]:
    """Per row of a batch, its part of each metric's result (``results[metric]``):
    ``scores`` (per metric, per score name), ``labels`` (per metric that labels, 1 =
    consistent; absent when none does) and ``details`` (per metric that returned them),
    in that order, as a record holds them."""
    scores = {metric: per_example_scores(result) for metric, result in results.items()}
    parts = []
    for row in range(rows):
        part: dict[str, Any] = {
            "scores": {
                metric: {name: values[row] for name, values in by_name.items()} for metric, by_name in scores.items()
            }
        }
        labelled = {
            metric: result["labels"][row] for metric, result in results.items() if result.get("labels") is not None
        }
        if labelled:
            part["labels"] = labelled
        part["details"] = {
            metric: result["details"][row] for metric, result in results.items() if result.get("details") is not None
        }
        parts.append(part)
    return parts
