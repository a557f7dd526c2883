"""The half-split tables of docs/benchmarks.md (balanced accuracy and ROC-AUC per file
beside the baselines, FRANK's error-type rates, correlations with human scores, the
pseudo-systems, the runs and their signatures), and the cell formatting the report's
other tables share."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

from benchmarks.result_rows import BASELINE, FRANK, Row, _unique, configs_in, datasets_in, dimensions_of, index_rows

#: the two whitespace readings of the half-split tables ("beats baseline" = above both)
BASELINE_DIMENSIONS = ("unigram-types", "unigram-tokens")
SUMMAC_MEAN = "mean (SummaC sets)"


# --------------------------------------------------------------------------- formatting


def fmt(value: float | None, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:.{digits}f}"


def markdown_table(header: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in line) + " |" for line in body]
    return "\n".join(lines)


def _mean(values: Sequence[float | None]) -> float | None:
    defined = [v for v in values if v is not None and not math.isnan(v)]
    return sum(defined) / len(defined) if len(defined) == len(values) and defined else None


# ------------------------------------------------------------------------------- tables


def measure_value(
    index, tag: str, config: str, dimension: str, dataset: str, measure: str, summac_sets: Sequence[str]
) -> float | None:
    """A row's ``measure``; for :data:`SUMMAC_MEAN` the mean over the SummaC sets
    (defined only when every set has a value)."""
    if dataset == SUMMAC_MEAN:
        return _mean([measure_value(index, tag, config, dimension, d, measure, summac_sets) for d in summac_sets])
    row = index.get((tag, config, dimension, dataset))
    return None if row is None else row.get(measure)


def beats_baseline(
    index, tag: str, config: str, dimension: str, dataset: str, measure: str, summac_sets: Sequence[str]
) -> bool | None:
    """Whether the dimension's value exceeds both baseline readings' values on that set
    in the same tag (None when a value is missing)."""
    value = measure_value(index, tag, config, dimension, dataset, measure, summac_sets)
    baselines = [measure_value(index, tag, BASELINE, b, dataset, measure, summac_sets) for b in BASELINE_DIMENSIONS]
    if value is None or any(b is None for b in baselines):
        return None
    return value > max(baselines)


def table_groups(rows: Sequence[Row]) -> list[tuple[str, list[str]]]:
    """(title, configurations) per comparison table: a configuration with several
    dimensions (chi) gets its own table; single-dimension configurations of the same
    metric share one (e.g. fizz, fizz+SD, fizz+DL, fizz+SD+DL), one column each."""
    groups: list[tuple[str, list[str]]] = []
    shared: dict[str, list[str]] = {}
    for config in configs_in(rows):
        if len(dimensions_of(rows, config)) > 1:
            groups.append((config, [config]))
            continue
        metric = next(r.get("metric") or r["dimension"] for r in rows if r["config"] == config)
        if metric not in shared:
            shared[metric] = []
            groups.append((metric, shared[metric]))
        shared[metric].append(config)
    return [
        (configs[0] if len(configs) == 1 else f"{title}: {', '.join(configs)}", configs) for title, configs in groups
    ]


def comparison_table(rows: Sequence[Row], configs: Sequence[str], measure: str, tags: Sequence[str]) -> str:
    """Rows: datasets (+ SummaC mean); columns: rows, both baselines (last tag), then
    per (configuration, dimension) its value per tag and whether it beats the baseline
    (per tag); only the tags that ran these configurations. Columns are named by the
    dimension for one configuration, by the configuration for several."""
    if isinstance(configs, str):
        configs = [configs]
    index = index_rows(rows)
    datasets = datasets_in([r for r in rows if r["config"] in configs])
    summac_sets = [d for d in datasets if d != FRANK]
    order = summac_sets + ([SUMMAC_MEAN] if len(summac_sets) > 1 else []) + [d for d in datasets if d == FRANK]
    columns = [
        (config, dimension, dimension if len(configs) == 1 else config)
        for config in configs
        for dimension in dimensions_of(rows, config)
    ]
    tags = [t for t in tags if any(r["tag"] == t and r["config"] in configs for r in rows)]
    last = tags[-1]
    several = len(tags) > 1
    header = ["set", "rows", "baseline (distinct tokens)", "baseline (tokens)"]
    for _, _, label in columns:
        header += [f"{label} {tag}" if several else label for tag in tags]
        header.append(f"{label} beats baseline" + (f" ({' / '.join(tags)})" if several else ""))
    body = []
    for dataset in order:
        any_row = next((index[k] for k in index if k[1] in configs and k[3] == dataset), None)
        line = [dataset, str(any_row["rows"]) if any_row else ""]
        line += [
            fmt(measure_value(index, last, BASELINE, b, dataset, measure, summac_sets)) for b in BASELINE_DIMENSIONS
        ]
        for config, dimension, _ in columns:
            line += [fmt(measure_value(index, tag, config, dimension, dataset, measure, summac_sets)) for tag in tags]
            verdicts = [beats_baseline(index, tag, config, dimension, dataset, measure, summac_sets) for tag in tags]
            line.append(" / ".join("–" if v is None else "yes" if v else "no" for v in verdicts))
        body.append(line)
    return markdown_table(header, body)


def in_display_order(chosen: Sequence[Row], tags: Sequence[str]) -> Iterator[Row]:
    """The rows of ``chosen`` in table order: dataset, configuration (baseline first),
    dimension, tag; combinations without a row are skipped, and of two rows with the
    same key the first is shown."""
    by_key: dict[tuple[str, str, str, str], Row] = {}
    for row in chosen:
        by_key.setdefault((row["dataset"], row["config"], row["dimension"], row["tag"]), row)
    for dataset in datasets_in(chosen):
        for config in [BASELINE] + configs_in(chosen):
            for dimension in dimensions_of(chosen, config):
                for tag in tags:
                    row = by_key.get((dataset, config, dimension, tag))
                    if row is not None:
                        yield row


def error_rate_table(rows: Sequence[Row], dataset: str, tags: Sequence[str]) -> str:
    """Per (configuration, dimension, tag): ErrorRate_T (%) per error type, baseline first."""
    chosen = [r for r in rows if r["dataset"] == dataset and r.get("error_rates")]
    if not chosen:
        return ""
    errors = list(chosen[0]["error_rates"])
    header = ["config", "dimension", "tag", "BA", "predicted consistent"] + [
        f"{e} (N={chosen[0]['error_rates'][e]['n']})" for e in errors
    ]
    body = [
        [
            row["config"],
            row["dimension"],
            row["tag"],
            fmt(row["balanced_accuracy_pct"]),
            fmt(row.get("predicted_consistent_pct")),
        ]
        + [fmt(row["error_rates"][e]["rate_pct"]) for e in errors]
        for row in in_display_order(chosen, tags)
    ]
    return markdown_table(header, body)


def _with_interval(value: float | None, interval: Sequence[float | None] | None) -> str:
    if value is None:
        return "–"
    if not interval or interval[0] is None:
        return fmt(value, 2)
    return f"{value:.2f} [{interval[0]:.2f}, {interval[1]:.2f}]"


def correlation_table(rows: Sequence[Row], tags: Sequence[str]) -> str:
    """System-level Spearman/Kendall with 95% bootstrap intervals and summary-level
    correlations, per file with systems and human scores."""
    chosen = [r for r in rows if r.get("system_level")]
    if not chosen:
        return ""
    header = [
        "set",
        "human score",
        "config",
        "dimension",
        "tag",
        "systems",
        "system Spearman [95% CI]",
        "system Kendall [95% CI]",
        "summary Spearman",
        "summary Kendall",
    ]
    body = []
    for row in in_display_order(chosen, tags):
        system, summary = row["system_level"], row["summary_level"]
        body.append(
            [
                row["dataset"],
                system.get("human_column") or "",
                row["config"],
                row["dimension"],
                row["tag"],
                str(system["systems"]),
                _with_interval(system["spearman"], system["spearman_ci"]),
                _with_interval(system["kendall"], system["kendall_ci"]),
                fmt(summary["spearman"], 2),
                fmt(summary["kendall"], 2),
            ]
        )
    return markdown_table(header, body)


def pseudo_table(rows: Sequence[Row], tags: Sequence[str]) -> str:
    """Rank of the empty and content-free pseudo-systems among the real systems (by
    mean score) and their per-document win rate."""
    chosen = [r for r in rows if r.get("pseudo_systems")]
    if not chosen:
        return ""
    header = [
        "set",
        "config",
        "dimension",
        "tag",
        "empty: rank",
        "empty: win rate %",
        "empty: defined %",
        "content-free: rank",
        "content-free: win rate %",
    ]
    body = []

    def rank(entry: dict[str, Any]) -> str:
        if entry.get("rank") is None:
            return "– (no systems)"
        return f"{entry['rank']} of {entry['of']} (above {entry['above']})"

    for row in in_display_order(chosen, tags):
        empty, free = row["pseudo_systems"]["empty"], row["pseudo_systems"]["content-free"]
        body.append(
            [
                row["dataset"],
                row["config"],
                row["dimension"],
                row["tag"],
                rank(empty),
                fmt(None if empty["win_rate"] is None else 100 * empty["win_rate"]),
                fmt(None if empty["defined_share"] is None else 100 * empty["defined_share"]),
                rank(free),
                fmt(None if free["win_rate"] is None else 100 * free["win_rate"]),
            ]
        )
    return markdown_table(header, body)


def provenance_table(rows: Sequence[Row], tags: Sequence[str]) -> str:
    header = ["tag", "config", "metric kwargs", "halluscope", "commit", "created", "row limit"]
    body = []
    for tag in tags:
        for config in [BASELINE] + configs_in(rows):
            chosen = [r for r in rows if r["tag"] == tag and r["config"] == config]
            if not chosen:
                continue
            provenance = chosen[0].get("halluscope") or {}
            kwargs = ", ".join(f"{k}={v}" for k, v in chosen[0]["config_kwargs"].items()) or "defaults"
            body.append(
                [
                    tag,
                    config,
                    kwargs,
                    str(provenance.get("version", "")),
                    str(provenance.get("git_commit", "")),
                    min(r.get("created") or "" for r in chosen),
                    str(chosen[0].get("limit") or "all"),
                ]
            )
    return markdown_table(header, body)


def signature_list(rows: Sequence[Row], tags: Sequence[str]) -> str:
    lines = []
    for tag in tags:
        for config in configs_in(rows):
            signatures = _unique(r["signature"] for r in rows if r["tag"] == tag and r["config"] == config)
            for signature in signatures:
                lines.append(f"- {tag} / {config}: `{signature}`")
    return "\n".join(lines)
