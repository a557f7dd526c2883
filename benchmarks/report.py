"""Render the harness's JSON results (``run-<tag>-<config>.json``) as markdown tables
and matplotlib (Agg) PNG plots: docs/benchmarks.md and docs/benchmarks/plot-*.png.

The leave-one-dataset-out (LODO) section comes first and is recomputed here from the
per-example fold scores the rows carry (``row["folds"]``); rows written before the
protocol have none and render as before, below it.

The page's prose is Markdown in ``benchmarks/templates/`` (:func:`template` fills its
``{name}`` fields); the rows are read by benchmarks/result_rows.py, the tables made by
benchmarks/tables.py and benchmarks/lodo_tables.py, the plots drawn by benchmarks/plots.py."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

from benchmarks._common import percent
from benchmarks.lodo_tables import lodo_markdown
from benchmarks.plots import write_plots
from benchmarks.result_rows import datasets_in, load_results, tag_order
from benchmarks.tables import (
    comparison_table,
    correlation_table,
    error_rate_table,
    provenance_table,
    pseudo_table,
    signature_list,
    table_groups,
)

#: the folder of the page's Markdown templates, one per section of prose
TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")


def template(name: str, **values: str) -> str:
    """The text of ``templates/<name>.md``, each ``{key}`` of ``values`` replaced by its value."""
    with open(os.path.join(TEMPLATES, f"{name}.md"), encoding="utf-8") as handle:
        text = handle.read()
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


#: the perturbation suite's records (``benchmarks/perturb.py --record``) the section below reads
PERTURBATION_RECORDS = ("perturb-design.json", "perturb-lockbox.json")


def perturbation_table(design: dict[str, Any], lockbox: dict[str, Any]) -> str:
    """Per edit type, the shares of edits caught (edited summary scored strictly lower)
    by chi, by the type's own index and by word overlap, design half / lockbox half; then
    the originals still at chi >= 0.5."""

    def missed(shares):
        m = shares["own_missed"]
        return f"{m['n']} ({m['at_zero']} / {m['undefined']})"

    rows = [
        "| edit type | own index | n (design / lockbox) | chi caught % | own index caught % | "
        "word overlap caught % | own index missed (original at 0 / undefined) |",
        "|---|---|---|---|---|---|---|",
    ]
    for edit, d in design["summary"].items():
        k = lockbox["summary"][edit]
        rows.append(
            f"| {edit} | {d['index']} | {d['n']} / {k['n']} | {percent(d['chi'])} / {percent(k['chi'])} | "
            f"{percent(d['own'])} / {percent(k['own'])} | {percent(d['alnum'])} / {percent(k['alnum'])} | "
            f"{missed(d)} / {missed(k)} |"
        )
    d, k = design["originals"], lockbox["originals"]
    rows.append(
        f"| no edit: originals with chi ≥ 0.5 | – | {d['n']} / {k['n']} | "
        f"{percent(d['chi_ge_half'])} / {percent(k['chi_ge_half'])} | – | – | – |"
    )
    return "\n".join(rows)


def perturbation_section(results: str) -> str:
    """docs/benchmarks.md's section on controlled single-error edits, from the two
    records in ``results`` ('' when either is missing)."""
    paths = [os.path.join(results, name) for name in PERTURBATION_RECORDS]
    if not all(os.path.exists(path) for path in paths):
        return ""
    records = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            records.append(json.load(handle))
    design, lockbox = records
    commits = {r["git"]["commit"] + (" (uncommitted changes)" if r["git"].get("shared_dirty") else "") for r in records}
    paraphrase = design.get("paraphrase") or {}
    return template(
        "perturbation",
        commits=", ".join(sorted(commits)),
        seed=str(design["args"]["seed"]),
        table=perturbation_table(design, lockbox),
        paraphrase_cases=str(paraphrase.get("cases", "–")),
        faithful_chi_ge_half=percent(paraphrase.get("faithful_chi_ge_half")),
        pair=percent(paraphrase.get("pair")),
        role_swap_n=str(design["summary"]["role_swap"]["n"]),
    )


def render_markdown(
    results: str, out: str, tags: Sequence[str] | None = None, plots: bool = True, brief: bool = False
) -> str:
    """Write the markdown report of every result in ``results`` to ``out`` (plots as
    PNG beside the JSON files, linked relatively); ``brief`` leaves out the protocol
    text and the dlsd section. Returns ``out``."""
    rows = load_results(results)
    tags = tag_order(rows, tags)
    rows = [r for r in rows if r["tag"] in tags]
    link = os.path.relpath(os.path.abspath(results), os.path.dirname(os.path.abspath(out)))
    display = os.path.relpath(os.path.abspath(results), os.getcwd())
    header = template("brief" if brief else "preamble", results=display, results_link=link)
    parts = [header]
    lodo = [(tag, lodo_markdown(rows, tag, level=3 if len(tags) == 1 else 4)) for tag in reversed(tags)]
    lodo = [(tag, text) for tag, text in lodo if text]
    if lodo:
        parts.append(template("lodo"))
        for tag, text in lodo:
            parts.append((f"### {tag}\n\n" if len(lodo) > 1 else "") + text + "\n")
    if not brief:
        section = perturbation_section(results)
        if section:
            parts.append(section)
        parts.append(template("defaults"))
        parts.append(template("methods"))
    parts += ["## Runs\n", provenance_table(rows, tags), "\nSignatures:\n", signature_list(rows, tags)]
    for measure, title in (
        ("balanced_accuracy_pct", "Balanced accuracy (%), half-split protocol"),
        ("roc_auc_pct", "ROC-AUC (%)"),
    ):
        parts.append(f"\n## {title}\n")
        for title, configs in table_groups(rows):
            parts.append(f"### {title}\n")
            parts.append(comparison_table(rows, configs, measure, tags) + "\n")
    for dataset in datasets_in([r for r in rows if r.get("error_rates")]):
        parts.append(f"\n## FRANK error-type rates on {dataset} (FP_T / N_T, %, lower is better)\n")
        parts.append(error_rate_table(rows, dataset, tags) + "\n")
    table = correlation_table(rows, tags)
    if table:
        parts.append("\n## System-level and summary-level correlation with human scores\n")
        parts.append(table + "\n")
    table = pseudo_table(rows, tags)
    if table:
        parts.append("\n## Empty and content-free pseudo-systems\n")
        parts.append(table + "\n")
    if plots and rows:
        folder = os.path.dirname(os.path.abspath(out))
        parts.append("\n## Plots\n")
        for caption, path in write_plots(rows, tags, results):
            parts.append(f"![{caption}]({os.path.relpath(path, folder)})\n")
    if not brief:
        parts.append("\n" + template("dlsd"))
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("\n".join(parts).rstrip() + "\n")
    return out
