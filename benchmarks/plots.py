"""The PNG plots of docs/benchmarks.md, drawn with matplotlib's Agg backend: balanced
accuracy per set, FRANK's error-type rates, system-level agreement and balanced
accuracy per tag."""

from __future__ import annotations

import glob
import math
import os
from collections.abc import Sequence

from benchmarks.result_rows import BASELINE, Row, configs_in, datasets_in, dimensions_of, index_rows
from benchmarks.tables import BASELINE_DIMENSIONS, fmt


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_balanced_accuracy(rows: Sequence[Row], tag: str, path: str) -> str | None:
    """One panel per configuration: grouped bars of BA per set for each dimension and
    both baselines."""
    configs = [c for c in configs_in(rows) if any(r["config"] == c and r["tag"] == tag for r in rows)]
    if not configs:
        return None
    plt = _pyplot()
    index = index_rows(rows)
    datasets = datasets_in([r for r in rows if r["tag"] == tag])
    figure, axes = plt.subplots(
        len(configs), 1, figsize=(max(8, 1.6 * len(datasets)), 3.2 * len(configs)), squeeze=False
    )
    for axis, config in zip(axes[:, 0], configs, strict=True):
        series = [(BASELINE, b) for b in BASELINE_DIMENSIONS] + [(config, d) for d in dimensions_of(rows, config)]
        width = 0.8 / len(series)
        for k, (name, dimension) in enumerate(series):
            values = [(index.get((tag, name, dimension, d)) or {}).get("balanced_accuracy_pct") for d in datasets]
            positions = [i + (k - (len(series) - 1) / 2) * width for i in range(len(datasets))]
            axis.bar(
                positions,
                [v if v is not None else math.nan for v in values],
                width,
                label=f"baseline ({dimension})" if name == BASELINE else dimension,
                hatch="//" if name == BASELINE else None,
                alpha=0.6 if name == BASELINE else 1.0,
            )
        axis.axhline(50, color="grey", linewidth=0.8)
        axis.set_xticks(range(len(datasets)), datasets)
        axis.set_ylim(40, 90)
        axis.set_ylabel("balanced accuracy %")
        axis.set_title(f"{config} ({tag})")
        axis.legend(fontsize=7, ncol=3, loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    plt.close(figure)
    return path


def plot_error_rates(rows: Sequence[Row], tag: str, path: str) -> str | None:
    """Per configuration: ErrorRate_T bars per error type for each dimension and the baselines."""
    chosen = [r for r in rows if r["tag"] == tag and r.get("error_rates")]
    configs = configs_in(chosen)
    if not configs:
        return None
    plt = _pyplot()
    errors = list(chosen[0]["error_rates"])
    figure, axes = plt.subplots(len(configs), 1, figsize=(10, 3.2 * len(configs)), squeeze=False)
    for axis, config in zip(axes[:, 0], configs, strict=True):
        series = [r for r in chosen if r["config"] == BASELINE] + [r for r in chosen if r["config"] == config]
        width = 0.8 / len(series)
        for k, row in enumerate(series):
            positions = [i + (k - (len(series) - 1) / 2) * width for i in range(len(errors))]
            values = [row["error_rates"][e]["rate_pct"] for e in errors]
            axis.bar(
                positions,
                [v if v is not None else math.nan for v in values],
                width,
                label=f"baseline ({row['dimension']})" if row["config"] == BASELINE else row["dimension"],
                hatch="//" if row["config"] == BASELINE else None,
            )
        axis.set_xticks(range(len(errors)), errors)
        axis.set_ylim(0, 100)
        axis.set_ylabel("FP_T / N_T %  (lower is better)")
        axis.set_title(f"{config} ({tag}), {chosen[0]['dataset']}")
        axis.legend(fontsize=7, ncol=3)
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    plt.close(figure)
    return path


def plot_system_level(rows: Sequence[Row], tag: str, dataset: str, path: str) -> str | None:
    """Per configuration's first dimension (and the baseline): system mean metric vs
    system mean human score, one labelled point per system."""
    chosen = [r for r in rows if r["tag"] == tag and r["dataset"] == dataset and r.get("system_level")]
    panels = [r for r in chosen if r["config"] == BASELINE and r["dimension"] == BASELINE_DIMENSIONS[0]]
    panels += [next(r for r in chosen if r["config"] == c) for c in configs_in(chosen)]
    if not panels:
        return None
    plt = _pyplot()
    columns = min(4, len(panels))
    lines = math.ceil(len(panels) / columns)
    figure, axes = plt.subplots(lines, columns, figsize=(3.6 * columns, 3.2 * lines), squeeze=False)
    for axis in axes.flat[len(panels) :]:
        axis.set_visible(False)
    # strict=False: the grid may have more axes than panels (the rest are hidden above)
    for axis, row in zip(axes.flat, panels, strict=False):
        system = row["system_level"]
        names = list(system["system_human_means"])
        xs = [system["system_human_means"][n] for n in names]
        ys = [system["system_metric_means"][n] for n in names]
        axis.scatter(xs, ys, s=14)
        for name, x, y in zip(names, xs, ys, strict=True):
            axis.annotate(name, (x, y), fontsize=6)
        axis.set_xlabel(f"mean {system.get('human_column') or 'human'}")
        axis.set_ylabel(f"mean {row['dimension']}")
        axis.set_title(f"{row['config']}: ρ={fmt(system['spearman'], 2)}", fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    plt.close(figure)
    return path


def plot_tags(rows: Sequence[Row], tags: Sequence[str], path: str) -> str | None:
    """With several tags: per configuration's first dimension, BA per set, one bar per tag."""
    if len(tags) < 2:
        return None
    configs = configs_in(rows)
    plt = _pyplot()
    index = index_rows(rows)
    datasets = datasets_in(rows)
    figure, axes = plt.subplots(len(configs), 1, figsize=(max(8, 1.4 * len(datasets)), 3 * len(configs)), squeeze=False)
    for axis, config in zip(axes[:, 0], configs, strict=True):
        dimension = dimensions_of(rows, config)[0]
        width = 0.8 / (len(tags) + 1)
        baseline = [
            (index.get((tags[-1], BASELINE, BASELINE_DIMENSIONS[0], d)) or {}).get("balanced_accuracy_pct")
            for d in datasets
        ]
        for k, tag in enumerate(tags):
            values = [(index.get((tag, config, dimension, d)) or {}).get("balanced_accuracy_pct") for d in datasets]
            axis.bar(
                [i + (k - len(tags) / 2) * width for i in range(len(datasets))],
                [v if v is not None else math.nan for v in values],
                width,
                label=tag,
            )
        axis.bar(
            [i + (len(tags) / 2) * width for i in range(len(datasets))],
            [v if v is not None else math.nan for v in baseline],
            width,
            label="baseline",
            hatch="//",
            alpha=0.6,
        )
        axis.set_xticks(range(len(datasets)), datasets)
        axis.set_ylim(40, 90)
        axis.set_title(f"{config}: {dimension}")
        axis.set_ylabel("balanced accuracy %")
        axis.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    plt.close(figure)
    return path


def write_plots(rows: Sequence[Row], tags: Sequence[str], folder: str) -> list[tuple[str, str]]:
    """(caption, path) of every plot written; old ``plot-*.png`` files are removed first."""
    for old in glob.glob(os.path.join(folder, "plot-*.png")):
        os.remove(old)
    plots: list[tuple[str, str]] = []

    def add(caption: str, path: str | None) -> None:
        if path:
            plots.append((caption, path))

    for tag in tags:
        add(
            f"Balanced accuracy per set ({tag})",
            plot_balanced_accuracy(rows, tag, os.path.join(folder, f"plot-ba-{tag}.png")),
        )
        add(
            f"FRANK error-type rates ({tag})",
            plot_error_rates(rows, tag, os.path.join(folder, f"plot-errors-{tag}.png")),
        )
        # numbered: "FRANK" and SummaC's "frank" would share a name on case-insensitive file systems
        for number, dataset in enumerate(datasets_in([r for r in rows if r.get("system_level") and r["tag"] == tag])):
            add(
                f"System-level agreement on {dataset} ({tag})",
                plot_system_level(
                    rows, tag, dataset, os.path.join(folder, f"plot-systems-{number}-{dataset}-{tag}.png")
                ),
            )
    add("Balanced accuracy per tag", plot_tags(rows, tags, os.path.join(folder, "plot-tags.png")))
    return plots
