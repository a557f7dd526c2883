"""The harness's result rows as the report reads them: every row of a folder's
``run-<tag>-<config>.json`` files (written by benchmarks/result_files.py), and the
order in which docs/benchmarks.md shows tags, datasets, configurations and dimensions."""

from __future__ import annotations

import glob
import json
import os
from collections.abc import Iterable, Sequence
from typing import Any

BASELINE = "baseline"
FRANK = "FRANK"

Row = dict[str, Any]


# ---------------------------------------------------------------------------- loading


def load_results(folder: str) -> list[Row]:
    """Every row of every ``run-*.json`` in ``folder``, with ``tag`` and ``config`` set
    and the configuration's kwargs as ``config_kwargs``."""
    rows: list[Row] = []
    for path in sorted(glob.glob(os.path.join(folder, "run-*.json"))):
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
        for row in document.get("rows", []):
            rows.append(
                {
                    **row,
                    "tag": document["tag"],
                    "config": document["config"]["name"],
                    "config_kwargs": document["config"].get("kwargs", {}),
                    "result_file": os.path.basename(path),
                    "command": document.get("command"),
                    "limit": document.get("limit"),
                }
            )
    return rows


def tag_order(rows: Sequence[Row], tags: Sequence[str] | None = None) -> list[str]:
    """``tags`` (those present), else every tag by its earliest ``created`` time."""
    present = {r["tag"] for r in rows}
    if tags:
        return [t for t in tags if t in present]
    first: dict[str, str] = {}
    for row in rows:
        first[row["tag"]] = min(first.get(row["tag"], row.get("created") or ""), row.get("created") or "")
    return sorted(present, key=lambda t: (first[t], t))


def _unique(values: Iterable) -> list:
    return list(dict.fromkeys(values))


def datasets_in(rows: Sequence[Row]) -> list[str]:
    """Dataset names in first-seen order, FRANK last."""
    names = _unique(r["dataset"] for r in rows)
    return [n for n in names if n != FRANK] + [n for n in names if n == FRANK]


#: display order of the harness's named configurations; others follow, alphabetically
CONFIG_ORDER = ["chi", "chi-paper", "chi-minmax", "ehi", "qhi", "rhi-linear", "rhi-softmax"] + [
    host + variant for host in ("fizz", "fenice") for variant in ("", "+SD", "+DL", "+SD+DL")
]


def configs_in(rows: Sequence[Row]) -> list[str]:
    """Configuration names present (baseline excluded), in :data:`CONFIG_ORDER`."""
    names = {r["config"] for r in rows} - {BASELINE}
    return sorted(names, key=lambda c: (CONFIG_ORDER.index(c) if c in CONFIG_ORDER else len(CONFIG_ORDER), c))


def dimensions_of(rows: Sequence[Row], config: str) -> list[str]:
    return _unique(r["dimension"] for r in rows if r["config"] == config)


def index_rows(rows: Sequence[Row]) -> dict[tuple[str, str, str, str], Row]:
    """(tag, config, dimension, dataset) -> row."""
    return {(r["tag"], r["config"], r["dimension"], r["dataset"]): r for r in rows}
