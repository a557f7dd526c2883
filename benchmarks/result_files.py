"""The harness's result files: one JSON file per (tag, configuration) under the result
folder, a file's rows merged by dataset, floats rounded to 6 decimals and every list
of numbers on one line. ``render`` reads them back (benchmarks/report.py)."""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping
from typing import Any

from benchmarks.configurations import BASELINE, MetricConfig


def json_safe(value: Any) -> Any:
    """NaN and ±inf -> None (strict JSON), floats rounded to 6 decimals, recursively."""
    if isinstance(value, float):
        return round(value, 6) if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def result_path(folder: str, tag: str, config: str) -> str:
    """``<folder>/run-<tag>-<config>.json`` (characters unsafe in file names -> ``_``)."""
    safe = "".join(c if c.isalnum() or c in "+-_." else "_" for c in f"run-{tag}-{config}")
    return os.path.join(folder, safe + ".json")


def write_results(
    folder: str, tag: str, config: MetricConfig | None, rows: list[dict[str, Any]], meta: Mapping[str, Any]
) -> str:
    """Write (merge into) the JSON file of (tag, configuration): rows of the same
    dataset are replaced, rows of other datasets kept."""
    os.makedirs(folder, exist_ok=True)
    name = config.name if config is not None else BASELINE
    path = result_path(folder, tag, name)
    kept: list[dict[str, Any]] = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            previous = json.load(handle)
        fresh = {r["dataset"] for r in rows}
        kept = [r for r in previous.get("rows", []) if r["dataset"] not in fresh]
    document = {
        "tag": tag,
        "config": {
            "name": name,
            "metric": config.metric if config else "unigram_precision",
            "kwargs": dict(config.kwargs) if config else {},
        },
        **meta,
        "rows": kept
        + [
            {**r, "created": meta["created"], "halluscope": meta["halluscope"], "half": meta.get("half", "all")}
            for r in rows
        ],
    }
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(compact_number_lists(json.dumps(json_safe(document), indent=1, sort_keys=False)))
        handle.write("\n")
    return path


_NUMBER_LIST = re.compile(r"\[[\s0-9.eE+\-,nul]*\]")


def compact_number_lists(text: str) -> str:
    """Indented JSON with every list of numbers/nulls on one line (the per-example
    fold scores would otherwise take a line per value)."""
    return _NUMBER_LIST.sub(
        lambda m: "[" + ", ".join(v.strip() for v in m.group(0)[1:-1].split(",") if v.strip()) + "]", text
    )
