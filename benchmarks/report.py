"""Render the harness's JSON results (``run-<tag>-<config>.json``) as markdown tables
and matplotlib (Agg) PNG plots: docs/benchmarks.md and docs/benchmarks/plot-*.png.

The leave-one-dataset-out (LODO) section comes first and is recomputed here from the
per-example fold scores the rows carry (``row["folds"]``); rows written before the
protocol have none and render as before, below it."""

from __future__ import annotations

import glob
import json
import math
import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from benchmarks._common import percent
from benchmarks.measures import LodoResult, fold_margin, lodo_evaluate

BASELINE = "baseline"
#: the two whitespace readings of the half-split tables ("beats baseline" = above both)
BASELINE_DIMENSIONS = ("unigram-types", "unigram-tokens")
#: the baseline LODO comparisons count folds against, and every baseline reading LODO shows
LODO_REFERENCE = "alnum-types"
LODO_BASELINES = ("alnum-types", "unigram-types", "unigram-tokens")
#: display order of the LODO folds; others follow in first-seen order
FOLD_ORDER = ("cogensumm", "xsumfaith", "polytope", "factcc", "summeval", "summac-frank", "frank-cnndm", "frank-bbc")
FRANK = "FRANK"
SUMMAC_MEAN = "mean (SummaC sets)"

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


# ------------------------------------------------------------------ leave-one-dataset-out

Candidate = tuple[str, str]  # (configuration, dimension)


def _float(value: float | None) -> float:
    return math.nan if value is None else float(value)


class LodoData:
    """The fold data of one tag's rows: per (configuration, dimension) its scores and
    labels per fold, and the exclusions (symmetric union of what the rows recorded)."""

    def __init__(self, rows: Sequence[Row], tag: str):
        self.scores: dict[Candidate, dict[str, list[float]]] = {}
        self.labels: dict[Candidate, dict[str, list[int]]] = {}
        excluded: dict[str, set] = {}
        seen: list[str] = []
        for row in rows:
            if row["tag"] != tag or not row.get("folds"):
                continue
            key = (row["config"], row["dimension"])
            for fold, entry in row["folds"].items():
                self.scores.setdefault(key, {})[fold] = [_float(v) for v in entry["scores"]]
                self.labels.setdefault(key, {})[fold] = [int(y) for y in entry["labels"]]
                seen.append(fold)
                for other in entry.get("excluded_when_held_out") or []:
                    excluded.setdefault(fold, set()).add(other)
                    excluded.setdefault(other, set()).add(fold)
        known = set(seen)
        self.folds = [f for f in FOLD_ORDER if f in known] + [f for f in dict.fromkeys(seen) if f not in FOLD_ORDER]
        self.exclusions = {fold: [f for f in self.folds if f in excluded.get(fold, set())] for fold in self.folds}

    def candidates(self) -> list[Candidate]:
        """Baseline readings first (:data:`LODO_BASELINES` order), then configurations
        in :func:`configs_in` order with their dimensions."""
        keys = list(self.scores)
        baselines = [(BASELINE, d) for d in LODO_BASELINES if (BASELINE, d) in self.scores]
        baselines += [k for k in keys if k[0] == BASELINE and k not in baselines]
        order = {c: i for i, c in enumerate(configs_in([{"config": k[0]} for k in keys]))}
        return baselines + [k for k in keys if k[0] != BASELINE and k[0] in order]

    def evaluate(self, candidates: Sequence[Candidate]) -> LodoResult | None:
        """LODO choosing among ``candidates`` (one: the plain LODO of that dimension)
        over the folds they all have, with the labels they agree on; None when they
        share fewer than two folds or disagree on labels (e.g. different row limits)."""
        folds = [f for f in self.folds if all(f in self.scores.get(c, {}) for c in candidates)]
        labels = {f: self.labels[candidates[0]][f] for f in folds}
        if len(folds) < 2 or any(self.labels[c][f] != labels[f] for c in candidates for f in folds):
            return None
        return lodo_evaluate(
            {f"{c[0]}:{c[1]}": {f: self.scores[c][f] for f in folds} for c in candidates},
            labels,
            {f: self.exclusions.get(f, []) for f in folds},
        )

    def rows_per_fold(self) -> dict[str, int]:
        sizes: dict[str, int] = {}
        for per_fold in self.labels.values():
            for fold, labels in per_fold.items():
                sizes.setdefault(fold, len(labels))
        return sizes


def _resolve_choice(data: LodoData, entry: str) -> Candidate:
    """``CONFIG`` (its first dimension) or ``CONFIG:DIMENSION`` -> a candidate key."""
    config, _, dimension = entry.partition(":")
    if not dimension:
        dimension = next((k[1] for k in data.scores if k[0] == config), "")
    if (config, dimension) not in data.scores:
        raise ValueError(f"no LODO fold data for {entry!r}; present: {', '.join(f'{c}:{d}' for c, d in data.scores)}")
    return config, dimension


def lodo_tables(rows: Sequence[Row], tag: str, choices: Sequence[Sequence[str]] = ()) -> dict[str, str]:
    """The LODO tables of one tag: ``"ba"`` (per fold held-out BA, mean, min fold,
    in-sample, gap, folds beating :data:`LODO_REFERENCE`), ``"auc"`` (per fold and mean
    ROC-AUC), ``"notes"`` (rows per fold, the exclusions, choices made); empty dict when
    the tag has no fold data. ``choices``: lists of configurations (``CONFIG`` or
    ``CONFIG:DIMENSION``) to pick among per held-out fold, one extra row each."""
    data = LodoData(rows, tag)
    if len(data.folds) < 2:
        return {}
    reference_key = (BASELINE, LODO_REFERENCE)
    reference = data.evaluate([reference_key]) if reference_key in data.scores else None
    lines: list[tuple[str, str, LodoResult | None]] = [(c[0], c[1], data.evaluate([c])) for c in data.candidates()]
    notes: list[str] = []
    for choice in choices:
        keys = [_resolve_choice(data, entry) for entry in choice]
        result = data.evaluate(keys)
        lines.append((f"choice of {', '.join(f'{c}:{d}' for c, d in keys)}", "–", result))
        if result is not None:
            notes.append(
                f"choice of {', '.join(f'{c}:{d}' for c, d in keys)} picked: "
                + "; ".join(f"{fold} {entry.candidate}" for fold, entry in result.folds.items())
            )
    folds = data.folds
    ba_header = (
        ["configuration", "dimension"] + folds + ["mean", "min (fold)", "in-sample", "gap", f"folds > {LODO_REFERENCE}"]
    )
    auc_header = ["configuration", "dimension"] + folds + ["mean"]
    ba_body, auc_body = [], []
    for config, dimension, result in lines:
        if result is None:
            ba_body.append([config, dimension] + ["–"] * (len(folds) + 5))
            auc_body.append([config, dimension] + ["–"] * (len(folds) + 1))
            continue

        def cell(fold: str, attribute: str, result=result) -> str:
            entry = result.folds.get(fold)
            return fmt(None if entry is None else 100 * getattr(entry, attribute))

        if reference is None or (config, dimension) == reference_key:
            beats = "–"
        else:
            margin = fold_margin(result, reference)
            beats = f"{margin.wins} of {margin.wins + margin.losses + margin.ties}"
        minimum = f"{fmt(100 * result.min_ba)} ({result.min_fold})" if result.min_fold else "–"
        ba_body.append(
            [config, dimension]
            + [cell(f, "ba") for f in folds]
            + [fmt(100 * result.mean_ba), minimum, fmt(100 * result.mean_in_sample_ba), fmt(100 * result.gap), beats]
        )
        auc_body.append([config, dimension] + [cell(f, "auc") for f in folds] + [fmt(100 * result.mean_auc)])
    sizes = data.rows_per_fold()
    notes.insert(0, "Rows per fold: " + ", ".join(f"{f} {sizes.get(f, 0)}" for f in folds) + ".")
    excluded = [f"held out {f}: {', '.join(data.exclusions[f])}" for f in folds if data.exclusions.get(f)]
    notes.insert(
        1,
        "Excluded from the tuning folds (they share (source, summary) pairs with the held-out fold): "
        + ("; ".join(excluded) if excluded else "none")
        + ".",
    )
    return {
        "ba": markdown_table(ba_header, ba_body),
        "auc": markdown_table(auc_header, auc_body),
        "notes": "\n".join(f"- {n}" for n in notes),
    }


def lodo_markdown(rows: Sequence[Row], tag: str, choices: Sequence[Sequence[str]] = (), level: int = 3) -> str:
    """The LODO tables of one tag with their notes as markdown ('' without fold data)."""
    tables = lodo_tables(rows, tag, choices)
    if not tables:
        return ""
    heading = "#" * level
    return "\n".join(
        [
            f"{heading} LODO balanced accuracy (%), tag {tag}\n",
            tables["ba"],
            "",
            tables["notes"],
            "",
            f"{heading} LODO ROC-AUC (%), tag {tag}\n",
            tables["auc"],
        ]
    )


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
    return "\n".join(
        [
            "## What the indices catch: controlled single-error edits",
            "",
            "`benchmarks/perturb.py` makes one seeded edit in a human-labelled consistent summary of the",
            "validation files (a doubled amount, a year moved, a number or a name taken from elsewhere in",
            "the source, an antonym, a negation, another unit or ordinal, subject and object swapped) and",
            "counts the edit caught by a score when the edited summary scores strictly lower than the",
            "original against the same source (an undefined score is not caught). The own index is the",
            "one meant for that kind of error; word overlap is the `alnum` baseline. Both halves were",
            f"scored at commit {', '.join(sorted(commits))} with seed {design['args']['seed']}: the design",
            "half, whose outputs the rules were written from, and the lockbox half, which no rule was",
            "chosen by (figures: design / lockbox; records in `docs/benchmarks/perturb-*.json`, rendered",
            "by `benchmarks/report.py`).",
            "",
            perturbation_table(design, lockbox),
            "",
            "Faithful paraphrases of the hand-written paraphrase suite (`benchmarks/paraphrase.py`, "
            f"{paraphrase.get('cases', '–')} cases) with chi ≥ 0.5: "
            f"{percent(paraphrase.get('faithful_chi_ge_half'))}%; the faithful one ranked above its unfaithful "
            f"edit: {percent(paraphrase.get('pair'))}%.",
            "",
            "What the indices still miss, read from the misses:",
            "",
            '- **A relation the source states in other words** ("took over" for "acquired", "was found',
            '  not guilty" for "acquitted", "joined" for "moved to", a pronoun or "the two leaders"',
            "  for the names) is unsupported: WordNet does not link the words and no coreference links",
            "  the mentions. RHI is then 0 on a consistent summary, which cannot score lower after an",
            "  edit (the last column's first count in brackets), and such faithful paraphrases fall",
            "  under 0.5. An original without a relation RHI can check leaves RHI undefined, and an",
            "  edit there is caught only when it brings a contradiction (the second count).",
            "- **The rest of RHI's misses are edits it does not see**: an antonym WordNet does not",
            "  file as one, a negation the relation extractor does not tie to a relation. There are",
            "  more of them on the lockbox half than on the design half, whose misses the rules were",
            "  written from; the role-swap rules, built from the design half's "
            f"{design['summary']['role_swap']['n']} cases, carry",
            "  over least.",
            "- **A name swapped within the source** is missed where the original already scores at",
            '  the floor, where the new name is a description ("Premier League champions"), a',
            "  demonym or a dateline's agency, and where the summary is lower case and the name cannot",
            "  be recovered.",
            "",
        ]
    )


LODO_SECTION = """## Leave-one-dataset-out (LODO): the lead measure

Every tuned quantity is chosen on the OTHER datasets and scored on the held-out one.
Folds: the six SummaC validation files (cogensumm, xsumfaith, polytope, factcc,
summeval, summac-frank; reference-free) and FRANK val split by its `dataset` column
(frank-cnndm, frank-bbc; with references). A held-out fold is scored at the threshold
that maximises the **mean over the tuning folds** of each fold's balanced accuracy (every
dataset weighs the same, whatever its size; predicted consistent iff score ≥ threshold,
undefined scores on top, ties → the lowest threshold). Tuning folds: all other folds
except those sharing any (source, summary) pair with the held-out one (SummaC's frank
file holds FRANK's summaries). **mean**: the mean over folds of the held-out BA;
**min (fold)**: the worst fold; **in-sample**: the same metric with the threshold tuned
on the held-out fold itself (what tuning on the scored data overstates); **gap** =
in-sample − LODO; **folds > alnum-types**: on how many folds the held-out BA beats the
`alnum-types` baseline's (distinct lower-cased alphanumeric tokens of the summary found
in the source) under the same protocol. The baseline readings are rows of the same table.
"""


# -------------------------------------------------------------------------------- plots


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


# ------------------------------------------------------------------------------- document


PREAMBLE = """# Benchmarks

Generated by `benchmarks/harness.py render` from the JSON results in
[`{results}/`]({results_link}/) (one file per tag and configuration; every row carries
the metric's `signature`, the data file, its row count and the configuration). Do not
edit by hand: rerun the harness and `render`.
"""

#: figures behind defaults of the package, which its docstrings point to (kept out of the code)
DEFAULTS_SECTION = """## Numbers behind the defaults

Figures that once sat in the code's docstrings, kept here so that the code says what
it does and this page says how it was chosen (each measured when the default was set;
later sessions' tables above supersede them where they differ).

### p_consistent and the shipped labels

chi's verdict (`halluscope/verdict.py`, issue 57): p_consistent is a centred isotonic
calibration of chi, fitted by `benchmarks/calibrate.py` on the design half of the eight
validation folds, every fold and, within a fold, each label weighing the same, so that p
is calibrated for even odds in every dataset (the prior a balanced accuracy assumes): an
isotonic regression of "consistent" on chi (scikit-learn, in the fit only), each of its
steps replaced by one knot at its rows' weighted mean chi, and p the linear interpolation
of the knots (`numpy.interp`), strictly increasing on [0, 1]: it ranks as chi does (ROC-AUC
of p is chi's on every fold). At even odds the weighted accuracy of a cut is the sum of the
folds' balanced accuracies, which the isotonic fit's level 0.5 maximises; a knot at (the
lowest chi the fit calls consistent, 0.5) keeps that cut, so the labels are p >= 0.5 by
construction and a verdict never contradicts its own probability. Shipped (calibration
`chi-20261206.2`, fitted at 77a285a): 13 knots, p = 0.5 at chi 0.920; p runs from 0.001
(chi 0) to 0.707 (chi 1). It holds for chi's default options only (the signature it was
fitted under is in the calibration file); another option, model or formula gives no
p_consistent and no labels: both are left out of the result, whose `p_consistent_reason`
says which options differ (never a NaN p; docs/api.md#when-p_consistent-is-absent), with
a warning.

By leave-one-dataset-out on the design half at 77a285a (after issue 57's class 5 changed 22
of 795 compared design rows; the knots refitted without the held-out fold), the balanced accuracy of the labels at p >= 0.5 beside that of the labels
the previous calibration shipped (`chi-20261205`: p = sigmoid(b0 + b1 chi) fitted the same
way, its cut the one of the best mean BA over the tuning folds, 0.5989 when shipped), the
fold's own best cut, ROC-AUC of p (equal to chi's on every fold) and ECE of both:

| fold | BA at p >= 0.5 | BA before (logistic, its cut) | fold's best | ROC-AUC | ECE | ECE before |
|---|---|---|---|---|---|---|
| cogensumm | 62.2 | 62.2 | 63.3 | 65.0 | 0.157 | 0.105 |
| xsumfaith | 52.5 | 52.5 | 72.6 | 78.4 | 0.058 | 0.143 |
| polytope | 61.7 | 61.7 | 61.8 | 56.2 | 0.554 | 0.541 |
| factcc | 71.8 | 71.8 | 80.0 | 80.6 | 0.238 | 0.286 |
| summeval | 79.1 | 79.1 | 80.2 | 82.3 | 0.267 | 0.282 |
| summac-frank | 80.0 | 80.0 | 81.9 | 87.5 | 0.158 | 0.136 |
| frank-cnndm | 74.2 | 74.2 | 75.2 | 80.0 | 0.138 | 0.188 |
| frank-bbc | 53.1 | 53.1 | 69.9 | 73.8 | 0.140 | 0.156 |
| mean | 66.8 | 66.8 | 73.1 | 75.5 | pooled 0.172 | pooled 0.083 |

The labels are the same on every fold (the isotonic fit's 0.5 level and the logistic's
best-BA cut are the same cut on chi); what changed is p. Held out, the isotonic p is
better calibrated in five folds of eight (mean of the folds' ECE 0.214 against 0.230) and
worse pooled (0.172 against 0.083; at 72b664b, weighting every fold and label the same,
0.134 against 0.043): the steps near chi 0 (where 497 of xsumfaith's 614 summaries lie) say 0.002-0.35,
and a held-out XSum-style fold, whose faithful summaries score low too, is 32% consistent
there at even odds; the logistic's narrow range (0.28-0.63) is wrong less far. Variants
tried on the design half at 72b664b, all with the same labels: bounding the steps to [b, 1 - b]
(b = 0.05-0.3: pooled ECE 0.157-0.202), pooling steps lighter than 1-30% of the weight
(0.159-0.202), and a logistic whose 0.5 is put at the best-BA cut (0.148): none calibrates
the held-out folds pooled as the old curve did, whose own 0.5 (chi 0.65) is not its cut.
At 72b664b, on the rows it was fitted on, the shipped p gave the same labels as
`chi-20261205` in every fold (61.9, 52.6, 60.1, 72.3, 78.8, 80.5, 74.7, 53.1; mean 66.7)
with pooled ECE 0.066 against 0.118. `make demo`: no verdict disagrees with p >= 0.5 (before, two did:
temporal-wrong, p 0.508, and reference-free-faithful, p 0.585, both "inconsistent"), and
the verdicts agree with the faithful column in 15 of 16 rows, as before (the
reference-free faithful summary, chi 0.881, is below the cut); the paraphrase suite's 144
summaries are labelled right in 105, as before.

The lockbox half, scored once at 72b664b (3,141 rows) with the shipped calibrations as
shipped: the labels are the same as `chi-20261205`'s in every fold (BA 61.0, 52.6, 54.6,
72.1, 76.4, 78.4, 67.9, 61.3; mean 65.5 against the folds' own best 72.2), pooled ECE
0.072 against 0.126, fold ECE lower in seven folds of eight (not in cogensumm: 0.112 against
0.089). Reliability (bin of p: rows, mean p, share consistent): 0.0-0.1: 266, 0.031,
0.019; 0.1-0.2: 73, 0.135, 0.041; 0.2-0.3: 11, 0.245, 0.000; 0.3-0.4: 887, 0.356, 0.162;
0.4-0.5: 315, 0.430, 0.460; 0.5-0.6: 205, 0.543, 0.595; 0.6-0.7: 242, 0.653, 0.632;
0.7-0.8: 1,142, 0.705, 0.720. Read again at 77a285a with the refitted `chi-20261206.2`, for
the record only (no decision followed from it): BA 60.6, 52.6, 53.8, 72.2, 76.8, 78.0, 66.5,
61.0 (mean 65.2 against the folds' own best 72.2), pooled ECE 0.071.

#### Refitting p_consistent

A calibration holds for the scores it was fitted on. The calibration file stores the
commit it was fitted at and a fingerprint of those scores: chi of the demo's 16 examples
and of both summaries of the paraphrase suite's 72 cases (checked wherever the tests run)
and of the first 3 rows of every fold of the design half (checked where the validation
data is). `tests/test_calibration_fingerprint.py` fails, naming the rows that moved, when
today's code gives other chi there (beyond 1e-6): refit, in one command (it rescores the
design half, minutes, then fits and writes; `--write` refuses a dump whose fingerprint
rows today's code does not reproduce):

<!-- not run: a long run (rescores the design half, needs the validation data, rewrites the calibration file) -->
```bash
python -m benchmarks.calibrate /tmp/feat-design.jsonl --rescore --write shared/halluscope/data/p_consistent.json
```

Then update the figures above and the chi card's from its output.

The logistic calibrations before it, by the protocol of their time (BA at the cut beside
the fold's own best, design half):

| fold | BA at the cut | fold's best | ROC-AUC | ECE |
|---|---|---|---|---|
| cogensumm | 60.8 | 62.8 | 64.3 | 0.106 |
| xsumfaith | 53.5 | 72.4 | 79.1 | 0.154 |
| polytope | 60.7 | 60.9 | 56.2 | 0.542 |
| factcc | 72.9 | 80.1 | 81.0 | 0.284 |
| summeval | 78.5 | 80.2 | 81.5 | 0.281 |
| summac-frank | 79.4 | 81.7 | 86.9 | 0.132 |
| frank-cnndm | 74.4 | 74.9 | 78.8 | 0.159 |
| frank-bbc | 53.1 | 72.0 | 76.0 | 0.153 |
| mean | 66.7 | 73.1 | 75.5 | pooled 0.080 |

That table is `chi-20261205` (refitted in session 28 at 08b513b, whose lexical term's
index share changed the signature's fusion part): b0 = -0.943, b1 = 1.460, cut 0.5989
(chi >= 0.920); p ran from 0.28 (chi 0) to 0.63 (chi 1). By 72b664b, 14 score-changing
commits later with nothing checking it, the same protocol gave the "before" columns above.

The same fit on the session-27 end dump (0dbafee, before the index share) gives b0 =
-0.944, b1 = 1.461, the same cut and the same BA at it in every fold; the folds' own best
and ROC-AUC differ in three folds (xsumfaith 71.6 / 78.9, frank-cnndm 74.9 / 78.9,
frank-bbc 73.0 / 76.5 there).
The previous shipped calibration, `chi-20261204` (refitted in session 19, whose place rule
changed the signature's entity part: b0 = -0.904, b1 = 1.404, cut 0.5960), gave 65.4
against 72.0 by this protocol on that session's dump, pooled ECE 0.065: chi's rules of
sessions 20-27 moved mean BA at the cut to 66.7 and the pooled ECE to 0.080.

The first calibration (`chi-20261203`: b0 = -0.893, b1 = 1.387, cut 0.5948) gave 65.2
against 71.8 by the same protocol, pooled ECE 0.064; `chi-20261203.2` (after the introduced
names only: -0.871, 1.358, cut 0.5938) 65.1 against 71.7, ECE 0.066; `chi-20261203.3`
(before the year rule: -0.875, 1.367, cut 0.5945) 65.1 against 71.7, ECE 0.063;
`chi-20261203.4` (end of session 14: -0.876, 1.367, cut 0.5945) 65.3 against 71.8, ECE
0.063; `chi-20261203.5` (session 15 before the light-verb mend of the unsaid negation:
-0.875, 1.371, cut 0.5957) 65.3 against 71.9, ECE 0.065; `chi-20261203.6` (end of session 15:
-0.873, 1.365, cut 0.5947) 65.3 against 71.8, ECE 0.064; `chi-20261203.7` (session 16 before
the copula-amount rule: -0.878, 1.373, cut 0.5953) 65.3 against 71.8, ECE 0.063;
`chi-20261203.8` (end of session 16, kept through session 18's tokenizer rule, which moved
the coefficients by under 1%: -0.888, 1.387, cut 0.5960) 65.3 against 71.8, ECE 0.063.

The lockbox half, scored once with the first calibration's model and cut: mean BA 65.8 against the
folds' own best 71.6, xsumfaith 49.4 (best 70.0), frank-bbc 61.9 (best 77.6); pooled ECE
0.129. Reliability on the lockbox (bin of p: rows, mean p, share consistent): 0.2-0.3:
921, 0.292, 0.092; 0.3-0.4: 43, 0.372, 0.163; 0.4-0.5: 193, 0.454, 0.233; 0.5-0.6: 540,
0.563, 0.461; 0.6-0.7: 1,444, 0.620, 0.698.

What this means: one cut serves the CNN/DM-style folds (within 0-7 points of their own
best) and fails the XSum-style ones (xsumfaith, frank-bbc: 19 points below), whose
faithful summaries are abstractive and score low; no signal chi has tells an abstractive
faithful summary from an unfaithful one (`benchmarks/studies/calibration.py` tried the
word-level support, length, the share written as in the source, single-sentence style
and the units per dimension: none closed the gap, and length features learned the
datasets' base rates). Even-odds calibration is off in a dataset whose share of
consistent summaries is far from half (polytope: 6%). A model fitted at the data's own
share instead calibrated the lockbox better (ECE 0.045) but not the held-out datasets
(0.177).

Session 17 tried two more ways, on the design dump of 7f3b47e (reproducible with the
commands named): the same feature sets fitted with each label weighing the same within
a fold (`benchmarks/studies/calibration.py --balanced`, so that a style feature cannot
learn a dataset's share of consistent summaries), and a cut per style, two styles split
by a rule and both cuts chosen by LODO (`benchmarks/studies/style_cuts.py`). Neither
closes the gap:

| way | xsumfaith | frank-bbc | mean BA | worst gap to a fold's own best |
|---|---|---|---|---|
| one cut (shipped) | 52.7 | 53.1 | 65.3 | 19.4 |
| balanced weights, chi + style features (`style`) | 55.5 | 58.8 | 61.7 | 14.6 |
| two cuts, written share < 0.85 | 57.6 | 63.1 | 65.6 | 13.4 |
| two cuts, < 30 words and written share < 0.90 | 57.6 | 62.7 | 65.1 | 13.4 |
| two cuts, word overlap < 0.80 (not a package signal) | 54.8 | 60.5 | 66.2 | 16.3 |

Why a style cut does not transfer: the abstractive rows' own best cut is 0.007 in
xsumfaith (57 consistent of 585 such rows) and 0.008 in frank-bbc (12 of 112), but 0.62
in summac-frank's abstractive rows (7 of 124), which are FRANK's BBC summaries again,
labelled through SummaC's binarisation; with 7-57 consistent rows per fold, each
consistent summary moves a fold's BA by 1-7 points, and a fold's "own best" is the
maximum of that noisy curve. What would separate an abstractive faithful summary from an
unfaithful one is an entailment signal (SummaC's and QAFactEval's approach): no NLI or
QA checkpoint can be loaded on this machine, in CI or on the GPU machine, so it cannot
be built and measured here. Issue 27's criterion on the XSum-style folds is left open for
that reason.

### Labels for EHI, RHI and QHI: not shipped

Issue 27 asked for shipped labels for the other indices too, where the same protocol
gives a useful cut. It does not, by the criterion set for chi's labels (the mean within 2
balanced-accuracy points of the folds' own best, no fold more than 5 below its own).
`benchmarks/studies/index_cuts.py` over the design half (session 14; an undefined score
ranked on top, as the harness ranks it), BA at the LODO cut with the fold's own best in
brackets:

| score | cogensumm | xsumfaith | polytope | factcc | summeval | summac-frank | frank-cnndm | frank-bbc | mean | mean of fold bests | worst gap | cut on all folds |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
| ehi | 51.1 (51.4) | 57.5 (68.0) | 60.9 (62.7) | 65.5 (66.0) | 58.8 (72.2) | 70.0 (72.2) | 64.1 (65.6) | 55.3 (63.9) | 60.4 | 65.3 | 13.4 (summeval) | 0.986 |
| rhi | 54.4 (55.2) | 51.8 (63.8) | 55.2 (58.9) | 64.3 (65.3) | 70.9 (73.2) | 77.5 (77.5) | 70.0 (72.1) | 52.4 (61.1) | 62.1 | 65.9 | 12.0 (xsumfaith) | 0.889 |
| qhi | 53.5 (53.5) | 64.4 (64.4) | 43.9 (52.3) | 55.2 (55.2) | 68.9 (68.9) | 61.3 (61.4) | 60.9 (63.0) | 58.2 (61.3) | 58.3 | 60.0 | 8.4 (polytope) | 1.000 |
| chi | 57.3 (59.1) | 52.7 (70.7) | 60.6 (60.6) | 70.7 (78.1) | 77.2 (78.2) | 77.3 (80.1) | 72.0 (74.2) | 53.1 (72.5) | 65.1 | 71.7 | 19.4 (frank-bbc) | 0.920 |

EHI's and RHI's cuts transfer 4-5 points below the folds' own on average and 12-13 on
their worst fold. QHI's transfers well on average (1.7) because its cut is a rule, 1.0:
"every number the summary states is supported" (a summary without numbers counts as
consistent); that rule is one comparison a user can apply to `qhi_scores` directly, and
at 58.3 it is below word overlap (60.6), so it is documented here rather than shipped
as a verdict. chi's labels are the only shipped ones; chi itself misses the criterion on
the XSum-style folds (above).

### Word-level support w

w is the mean of the supported share of content words (lemma, form or WordNet) and the
share of content tokens found as written. By leave-one-dataset-out over the eight
validation folds it ranked best: ROC-AUC 73.6, against 73.0 for the supported share
alone and 73.4 for the written share alone, at the same balanced accuracy.

### Lexical weight

`lexical_weight` λ = 0.01 under `formula="support"`: it moves CHI by at most 0.01, so
the units decide and the words order the summaries the units tie (45% of the SummaC
validation rows have every unit supported, and most XSumFaith rows none). Weights of
0.002-0.01 gave the same balanced accuracy; larger ones, or unigram precision as a
fourth harmonic dimension, cost FRANK (metrics/chi/README.md).

### Attribution

Relation triples are not attributed: weighting them scored no better on the validation
sets (FRANK 78.7 against 79.4 without, SummaC mean 66.6 both; five half-splits). The
floor 0.5 was chosen on SummaC val and FRANK val: 0.25, 0.5 and 0.75 are within 0.4
points of balanced accuracy of each other (prototype runs, five half-splits); without
attribution chi is 2.2 (FRANK) and 2.6 (SummaC mean) points lower.

### Text indexes held by a call

Before a call held its text indexes, 200 FRANK rows with references built 737 text
indexes for 335 texts at the default memory budget (every reader rebuilt what the
index cache had evicted); holding them, 335.

### Speed against the parse floor (issue 29)

Runs of `python -m benchmarks.speed_chi --data ../shared/data/summac/summeval_val.jsonl
-n 400 --reference-data ../shared/data/frank/frank_val.jsonl --workers 2 --repeats 2`
(this 2-core machine, cold caches, best of two; details and earlier runs in
benchmarks/README.md, "Speed with workers"). Session 27 ran it at its start (34588e5) and
at its end (2dea19e), session 28 twice at its end (2d63257), session 29 twice at its end
(after 2672c9c's rules), session 30 once at its end (e978f49), session 31 once at its end
(0ff7a23), session 33 once at its end (0c377ed), session 34 twice (the second with every
cache emptied between repeats; `--repeats 3`) after parsing longest first, and once more
with 16 texts a batch (93c2783), session 35 once at its end with `--repeats 5` (6ab976b, the
package's memoised functions emptied between repeats too). Session 25's two runs are beside
them, and session 22's:

| rows | session 35, end | session 34, 16 a batch | session 34, run 1 | run 2 | session 33, end | session 31, end | session 30, end | session 29, end, run 1 | run 2 | session 28, end, run 1 | run 2 | session 27, start | session 27, end | session 25 at 9a58bf3 | at 1d0ee55 | session 22 | target |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
| SummEval 400, reference-free, one process | 1.341 (9.18 s against 6.85 s; 1.344) | 1.312 (9.37 s against 7.15 s; 1.294) | 1.336 (9.93 s against 7.43 s; 1.238) | 1.332 (10.30 s against 7.73 s; 1.279) | 1.301 (10.57 s against 8.12 s; 1.273) | 1.335 (10.52 s against 7.88 s; 1.254) | 1.378 (9.65 s against 7.00 s; 1.367) | 1.310 (9.40 s against 7.18 s; 1.243) | 1.238 (9.90 s against 8.00 s; 1.249) | 1.244 (9.40 s against 7.56 s; 1.224) | 1.254 (9.59 s against 7.65 s; 1.234) | 1.237 (9.41 s against 7.61 s; paired median 1.216) | 1.371 (9.59 s against 7.00 s; 1.314) | 1.359 (10.61 s against 7.80 s; paired median 1.331) | 1.384 (1.337) | 1.372 (1.336) | ≤ 1.25 |
| FRANK 400, with references, one process | 1.346 (19.34 s against 14.37 s; 1.318) | 1.305 (18.59 s against 14.24 s; 1.361) | 1.259 (21.68 s against 17.22 s; 1.302) | 1.282 (21.53 s against 16.80 s; 1.315) | 1.277 (22.76 s against 17.81 s; 1.252) | 1.288 (22.46 s against 17.44 s; 1.242) | 1.201 (18.19 s against 15.14 s; 1.230) | 1.217 (19.55 s against 16.07 s; 1.233) | 1.208 (20.71 s against 17.15 s; 1.236) | 1.230 (19.11 s against 15.53 s; 1.247) | 1.217 (19.46 s against 15.98 s; 1.223) | 1.251 (19.80 s against 15.83 s; 1.237) | 1.180 (19.58 s against 16.59 s; 1.185) | 1.257 (19.58 s against 15.58 s; paired median 1.241) | 1.308 (1.291) | 1.284 (1.304) | ≤ 1.25 |
| SummEval 400, reference-free, `workers=2` | 0.786 (5.40 s against 6.87 s; 0.849; 0.588 of one process, bit for bit) | 0.788 (5.38 s against 6.83 s; 0.788; 0.575 of one process, bit for bit) | 0.629 (5.56 s against 8.84 s; 0.643; 0.560 of one process, bit for bit) | 0.639 (5.35 s against 8.37 s; 0.635; 0.519, bit for bit) | 0.728 (5.84 s against 8.02 s; 0.700; 0.553 of one process, bit for bit) | 0.626 (5.33 s against 8.51 s; 0.607; 0.506 of one process, bit for bit) | 0.771 (5.46 s against 7.08 s; 0.776; 0.566 of one process, bit for bit) | 0.717 (5.50 s against 7.67 s; 0.700; 0.585 of one process, bit for bit) | 0.704 (5.53 s against 7.85 s; 0.726; 0.558, bit for bit) | 0.714 (5.45 s against 7.63 s; 0.706; 0.580 of one process, bit for bit) | 0.689 (5.15 s against 7.47 s; 0.679; 0.536, bit for bit) | 0.687 (5.17 s against 7.52 s; 0.676; 0.549 of one process, bit for bit) | 0.659 (5.15 s against 7.82 s; 0.664; 0.537, bit for bit) | 0.819 (6.13 s against 7.49 s; paired 0.819 and 0.997; 0.578 of one process, scores equal bit for bit) | 0.768 (0.587) | 0.774 (0.588) | ≤ 0.75 |

Session 35's run met no target. Its changes (docs/scaling.md#where-the-time-goes) leave
every score as it was and cut little: the work after parsing, timed alone (parses seeded,
every other cache and memo emptied, five calls a process, the session's start in a
worktree and its end alternately, three processes each), took 2.32-2.34 s at best at
the start against 2.19-2.39 s at the end on the 400 SummEval rows (medians 2.36-2.47
against 2.22-2.44 s) and 4.28-4.49 s against 4.32-4.46 s with the FRANK references
(medians 4.58-4.72 against 4.52-4.56 s): a few percent, inside this machine's spread.
Of that work on the SummEval rows (about 2.3 s against a parse of about 7 s), MiniLM
takes about 0.4 s, the text indexes about 0.27 s, the relation, quantity and entity
extractors about 0.2, 0.2 and 0.1 s, and the rest is spread over some twenty functions,
none above a tenth; meeting 1.25 needs about a fifth of it gone. Ways that would use
the second core or change the order of the work were measured and left out: scoring
consecutive shards while a thread parses the next one (11.0-11.7 s against 9.7-10.3 s in
one call: spaCy holds the interpreter lock most of the time, and two threads parsing
halves of the texts take 5.6-5.9 s against 7.1-7.3 s for one); comparing objects before
subjects (595 strings to encode instead of 576); fewer or more shards per worker (one,
two, four or eight: 5.9-6.6 s, in no order). Python's collector at thresholds of 50,000
(the default while scoring), 200,000 and 1,000,000 took the same time.
A first call in a process costs more than the best of its repeats. With NLTK's synset
cache emptied between repeats the work after parsing takes 3.3-3.6 s instead of
2.5-2.8 s on the SummEval rows: the WordNet data lines are read and parsed again (NLTK
3.10 runs each through its ReDoS-guarded regular expressions). The encoder's first
batches of each shape take about 0.3 s more. `speed_chi` keeps NLTK's synsets between
repeats, as a process does between calls.

Session 34's last run, after the parse cache went from 64 texts a batch to 16
(docs/scaling.md#where-the-time-goes; the floor uses the cache's batch size), met no
target although every one-process time fell: chi 9.37 s on the reference-free rows
(against 9.93-11.56 s earlier the same day) and 18.59 s with references (21.53-23.25 s),
while the floors fell as much (7.15 and 14.24 s), so the ratios rose (1.312, 1.305).
`workers=2` took 5.38 s as before (5.35-5.56 s): two processes on this machine's two
cores do not parse faster in smaller batches, and against the faster floor its ratio is
0.788. A ratio to the parse misses what the parse itself gains: the seconds are the
user's measure, and they fell by about a fifth in one process. Session 34's first two
runs met the `workers=2` target only. A third run at the same
commit, the reference-free rows alone with `--repeats 4` and each round's seconds printed
(which `speed_chi` now does), met the one-process target: 1.237 (rounds, floor then chi:
9.04 / 10.25, 8.29 / 10.63, 8.49 / 10.95, 8.65 / 10.45 s; paired median 1.245). Three runs
of one commit on one day span 1.237-1.336: the target sits inside this machine's spread.
In that run the first round's floor was the slowest, as sessions 31 and 33 saw, while chi
stayed within 10.25-10.95 s. The paired ratios are printed sorted, not in round order,
and always were: where the runs below speak of a first and a second repeat, read the
lower and the higher paired ratio.
Parsing longest first (docs/scaling.md#where-the-time-goes) took chi from 11.56 s (the
same command at the session's start, 12313bb: 1.502, 1.224, 0.688) to 9.93 and 10.30 s on
the reference-free rows. From run 2 on, `speed_chi` also empties the unit and text-index
caches between repeats (their entries kept earlier repeats' parses alive); runs 1 and 2
do not differ by more than the spread.
Session 33's run, like session 31's, met the `workers=2` target only: its one-process ratios' first repeats were 1.245 and 1.227, the second 1.301 and 1.277 (the floor faster on its second run, as below). Session 31's run met the `workers=2` target only, on a slower day: every floor was 10-20%
slower than session 30's and chi's own seconds rose with them (10.52 s against 9.65 s on the
reference-free rows). Each one-process figure's first repeat was within the target (paired
1.174 and 1.196) and its second was not (1.335 and 1.288): on this machine the bare parse
gets faster over the first repeats of a process (four floors in a row on the reference-free
rows: 9.42, 8.02, 7.82, 7.58 s) while chi's own time stays where it is (10.8-11.9 s in the
same four rounds, no trend), so the best-of ratio pairs chi with the fastest floor. The session changed how `workers=N` starts
(scores unchanged): a call whose options the caller's resources have scored before forks at
once instead of scoring its first row in the caller while the other core waits, and the
sentence encoder is loaded before every fork (where the first row did not need it, each
worker used to load its own, about 4 s each). The reference-free rows with `--workers 2
--repeats 3`, the session's start (a95d5ad, in a worktree) and end in one sitting: `workers=2`
0.671 (5.15 s) at the start against 0.651 (5.04 s) at the end, paired medians 0.618 and
0.607; timed alone (best of three calls, three alternating rounds, no encoder loaded
before the first call) 5.84-5.93 s against 5.75-5.80 s: about 2%. Forking at once without
the encoder rule took 8.0 s on the same rows, each worker's first shard 3.7 s instead of
1.4 s: no earlier call had needed the encoder, so each worker loaded it.

Session 30's run met the target with references only. Its changes left chi's own time
where it was: the session's start (79a930f) and end timed alternately on the reference-free
rows took 9.45 and 9.30 s against 9.78 and 9.27 s (ratios 1.355 and 1.347 against 1.384 and
1.304), the work after parsing 2.1-2.4 s for both in alternating rounds. A Doc's text joined
once (`text/token_table.doc_text`) saved about 5% of that work and the session's new rules spent
it. Of the 2.2 s, encoding 608 slot and verb strings with MiniLM takes about 0.48 s, nearly
all of it in the model's matrix products (bfloat16; float32 takes 0.65 s on the same strings;
batch sizes from 64 to 256 change it by less than the noise), building the text indexes
0.35 s and the sentence contradictions 0.55 s; no single step is large enough to close the
gap to 1.25 alone.

Session 29's first run missed the reference-free target with chi's own 9.40 s, session
28's, against the fastest floor yet (7.18 s; paired median 1.243); its second met all three.
Session 28's first run met all three targets; its second missed the reference-free one by
0.004 (paired median 1.234, within it). chi's own seconds stayed where session 27 left
them (9.40 and 9.59 s; 19.11 and 19.46 s), after session 28's rules. In session 27,
`workers=2` met its target in both runs. Each one-process target was met
in one run and missed in the other. chi's own seconds barely moved between the two runs:
9.41 and 9.59 s on SummEval, 19.80 and 19.58 s on FRANK. The floor moved: 7.61 and
7.00 s, 15.83 and 16.59 s. This machine's floor varies by about 10% from run to run, which
is the width of the whole margin a ratio of 1.25 leaves.

In session 25's runs all three targets were missed. Session 25 cut the work after parsing by about a
sixth (best of six rounds, parses seeded, the session's start and end alternately:
SummEval 2.48 → 2.08 s, FRANK with references 4.74 → 4.09 s; benchmarks/README.md), which
single runs of the ratio do not resolve: the floors moved 6-12% between the two runs. Session 22's run, with the encoder in bfloat16 (the new
`encoder_dtype="auto"`, docs/scaling.md#encoder-precision), was beside session 21's run at
its end (9ecfe64, float32): 1.450 (median 1.429), 1.321 (1.316) and 0.808 (0.556 of one process).

What bfloat16 changed, timed in one run: the work after
parsing (parses seeded, cold caches otherwise, float32 and bfloat16 alternately, three
rounds) took 2.58 / 2.66 / 3.25 s in float32 against 2.41 / 2.46 / 2.54 s on the 400
SummEval rows, and 4.78 / 5.19 / 5.32 s against 4.46 / 4.59 / 4.76 s on the 400 FRANK rows
with references, chi equal on every row. At the start of session 17 the same rows measured
1.61-1.66 and 1.60-1.64 in one process: NLTK's WordNet cache was emptied within each
call (now kept up to 24,000 synsets), and relation objects are encoded only where the
subject matched (1,941 -> 1,405 strings on the FRANK rows). Session 18 read text indexes
from token columns and ran calls with fewer garbage collections (docs/scaling.md, "Where
the time goes"); session 19's run (1.379, 1.324, 0.802) was on a slower day for this
machine (the floors took 7.28 s and 15.46 s against 6.59 s and 12.68 s in session 17).
Session 20's run (1.401, 1.322, 0.786) had its WordNet opposites in it (sentence
contradictions at their earlier cost, benchmarks/README.md). Session 21's two runs differ
by this machine's spread: the work after parsing, timed alone on the same SummEval rows
(parses seeded, best of three, the two trees alternately, twice each), took 2.84 / 2.70 /
2.83 / 2.70 s at the start and 2.87 / 3.03 / 2.84 / 2.58 s at the end. Of that work on 400
FRANK rows with references (6.06 s), encoding 1,424 relation-slot strings with MiniLM
takes 1.43 s in float32: it is compute-bound (batch sizes from 32 to 256 within 10% of
each other); in bfloat16 the same strings take 0.86 s against 1.48 s (session 22). Two workers are near this machine's limit: their
shards are balanced (eight of 43-51 SummEval rows, the last two ending 0.12 s apart), but
each row costs about 30 ms in a worker against 24 ms in one process alone, the two
processes slowing each other on two cores.

### Ray against the process pool (issue 58)

`python -m benchmarks.scale_ray` scores the same 2,000 rows through `workers=1`,
`workers=2`, and Ray with 1 and 2 actors in one run (docs/scaling.md, "Sizing the
actors"). The rows: the first 667 of SummaC's cogensumm and xsumfaith validation files
and the first 666 of summeval's, in file order (cogensumm's summaries of one document
partly consecutive, xsumfaith's never, summeval's always), chi reference-free. Each
configuration runs in a fresh process from cold caches. `workers=N`: a `Scorer("chi",
workers=N)` loads the models (the start-up), then scores all rows in one call; its
rows/s is 2,000 over that call. Ray: a local Ray of 2 CPUs in a network namespace of
its own, `score_dataset(..., batch_stats=True)` with actors of 0.5 CPU, batches of 256,
the rows grouped by source (`group_by_source=True`) unless the row says ungrouped; the
start-up is the cluster's start plus the slowest actor's model loading, and the steady
state is each actor's rows over its own seconds, timed inside the actor with its first
batch left out, summed over the actors. Every row's scores and labels equal `workers=1`'s
bit for bit in every configuration (the script checks). This 2-core machine was shared
with other sessions throughout (load average 6.5-9.0 over the run, every run's start
and end in the script's output): compare within the run only.

| run | start-up s | steady state rows/s | × workers=2 | wall s (start-up included) | peak RSS MB per process |
|---|---|---|---|---|---|
| workers=1 | 7.6 (models) | 4.9 (2000 rows in one call, 411.3 s) | 0.71 | 418.9 | 1596 |
| workers=2 | 5.8 (models) | 6.8 (2000 rows in one call, 293.6 s) | 1.00 | 299.4 | 787 (+ workers: 1325 each) |
| ray=1 | 7.9 + 3.8 (cluster + models per actor) | 21.8 (9 batches, each actor's first left out) | 3.20 | 117.2 | 1639 (+ Ray's processes: 1731) |
| ray=2 | 6.8 + 6.1 (cluster + models per actor) | 17.6 (9 batches, each actor's first left out) | 2.58 | 144.9 | 1453, 1463 (+ Ray's processes: 1733) |
| ray=2,ungrouped | 11.0 + 8.0 (cluster + models per actor) | 15.6 (6 batches, each actor's first left out) | 2.29 | 209.7 | 1531, 1393 (+ Ray's processes: 1519) |

Load average (1 min) at each run's start and end: `workers=1` 7.44 → 6.89, `workers=2` 6.89
→ 6.47, `ray=1` 6.47 → 6.88, `ray=2` 6.88 → 8.73, `ray=2,ungrouped` 8.73 → 9.02. CPU seconds
while the rows were scored: `ray=1` actor 87.5 and Ray's own processes 13.5, `ray=2` 116.5
and 17.7, `ray=2,ungrouped` 134.6 and 20.1. A batch of 256 rows held 76-91 distinct
sources grouped, 31-228 ungrouped.

The goal (Ray with 2 actors at least 0.85 of `workers=2`'s rows/s) is met more than
twice over. Three runs that followed, one configuration or a few each (so compared
across runs, at the load averages shown), take the difference apart as far as they can
(`workers=2` in calls of 256 forks its workers for each call, whose caches end with it:
docs/scaling.md, "Workers"):

| run | steady state rows/s | wall s (start-up included) | load average at start → end |
|---|---|---|---|
| `workers=1`, 8 calls of 256 rows | 6.3 (316.9 s) | 322.2 | 5.37 → 7.22 |
| `workers=2`, 8 calls of 256 rows | 5.0 (403.1 s) | 409.7 | 7.22 → 8.25 |
| `ray=1` (same run) | 14.2 (9 batches, first left out) | 180.1 | 8.25 → 9.53 |
| `ray=1,ungrouped` (next run) | 12.3 (7 batches, first left out) | 196.3 | 9.22 → 8.90 |
| `workers=1`, 8 calls of 256 rows, `OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1` (next run) | 7.9 (254.2 s) | 261.5 | 7.31 → 6.95 |

What these say, as far as runs on a loaded machine can (`ray=1` grouped measured 21.8
rows/s in the first run and 14.2 in the second: across runs, only large differences
count):

- **One call of 2,000 rows is slower than calls of 256**: one process did 4.9 rows/s in
  one call and 6.3 in calls of 256. A call holds the text indexes it reads up to the
  memory budget's size again (docs/scaling.md, "Memory"); 2,000 rows' indexes outgrow
  it, and past it the call reads the cache as before, rebuilding what was evicted. The
  actors score 256 rows a call; the baseline the issue asks for is one call.
- **Threads**: Ray runs an actor with `OMP_NUM_THREADS` set to its CPUs (at least 1), so
  torch and OpenBLAS use one thread there; a plain process uses both cores' worth, and on
  a machine this loaded two threads per process only wait for each other. One process
  with one thread each: 7.9 rows/s against 6.3.
- **Grouping by source**: 14.2 rows/s grouped against 12.3 ungrouped for one actor, 17.6
  against 15.6 for two, whose run took 145 s instead of 210 (the ungrouped actors' first
  batches held 88 and 228 distinct sources and took 47 and 87 s). `workers=N` cuts the
  rows into consecutive shards and cannot group them.
- **The rest is not explained here**: one process with one thread, on the same calls of
  256 rows in file order, did 7.9 rows/s and an ungrouped actor 12.3. Rerun on a quiet
  machine before reading anything into that gap.
- **Ray's own cost** was small beside the scoring: its processes (raylet, GCS, the
  driver, Ray Data's helpers) took 14-20 CPU s while the actors took 88-135, and held
  1.5-1.7 GB of memory; start-up: 7-11 s for the cluster and 4-8 s per actor for the
  models, against 6-8 s for the pool's models.
- **Two actors on two cores** gave less than one here (17.6 against 21.8 rows/s, the
  same run): with the other sessions' load, two actors and Ray's processes shared what
  one actor had nearly alone; a 256-row batch took 27-31 s with two actors, 10-14 s with
  one.
"""

METHODS = """## How these numbers are made

The leave-one-dataset-out section above is the lead measure; the per-file tables below
use the half-split protocol (secondary: its thresholds are tuned on the same file).

- **Data**: the validation splits in `../shared/data/` (never copied here). SummaC
  files are scored **reference-free** (they have no references); FRANK val
  (`frank/frank_val.jsonl`, 671 summaries) **with its references**. Two names differ
  only in case: `frank` is SummaC's FRANK val (reference-free, binary label), `FRANK`
  is the FRANK file with references, `Factuality` and the error-type flags.
- **Balanced accuracy** (BA, %): mean recall of the two classes (label 1 = consistent),
  a summary predicted consistent iff score ≥ threshold. Only validation splits exist,
  so the threshold is tuned on one half of the file and applied to the other, in both
  directions (the two BAs averaged); the halves come from `random.Random(seed)`
  shuffles and the BA is averaged over 10 such splits (seeds 0–9), which cuts the
  split noise (sd ≈ 0.4 points on the SummaC mean for one split) by about √10. With a
  test split (`--test VAL TEST`) the threshold is tuned on all of VAL and applied to
  TEST. A tuned threshold is the lowest score value maximising BA on the tuning rows.
- **ROC-AUC** (%): exact Mann–Whitney statistic over all rows, ties counting ½.
- **Undefined scores** (a summary without any unit the metric checks): counted as
  consistent and ranked above every defined score; in system means they count as the
  largest defined score.
- **FRANK error types**: ErrorRate_T = FP_T / N_T (%), N_T = summaries with error T
  (`has_<T>` = 1), FP_T = those predicted consistent at the threshold tuned on the other
  half (every summary predicted once per split; averaged over the 10 splits). Lower is
  better, but only beside the BA and the share of all summaries predicted consistent:
  a detector that calls few summaries consistent has low rates everywhere (qhi below).
- **System-level correlation**: Spearman ρ and Kendall τ-b between per-system mean
  metric score and per-system mean human score (`Factuality` on FRANK; the share of
  summaries labelled consistent on SummaC files that name systems). 95% intervals:
  percentile bootstrap over **documents** (1,000 resamples of the file's documents with
  replacement, every summary of a drawn document kept, `numpy.random.default_rng(0)`):
  the systems share documents, so resampling documents keeps their pairing.
  Summary-level: ρ and τ-b over all summaries.
- **Empty and content-free pseudo-systems**: for every distinct source, an empty summary
  and "The article discusses the topic." are scored (with that document's most
  frequent reference on FRANK) as two extra systems; rank = 1 + number of real systems
  with a strictly higher mean score (1 = ranked most consistent). Win rate: share of the
  same document's real summaries scoring below the pseudo summary (ties ½), averaged
  over documents; SummaC files without a system column (summeval, cogensumm, factcc,
  polytope) get only the win rate.
- **Baseline** in every table: unigram precision, the share of the summary's
  lower-cased whitespace tokens found among the source's lower-cased whitespace tokens,
  in two readings: over **distinct** tokens and over all token occurrences. "beats
  baseline" means above both. The LODO tables add a third reading, `alnum-types`: the
  share of the summary's distinct lower-cased alphanumeric tokens
  (`re.findall(r"[^\\W_]+", text.lower())`, punctuation stripped) found among the
  source's (0 for a summary without tokens).

### The issue's baseline numbers (61.6 SummaC, 74.8 FRANK)

`python -m benchmarks.harness baseline-study --summac ../shared/data/summac/*_val.jsonl
--frank ../shared/data/frank/frank_val.jsonl` prints what was tried (balanced accuracy
%, six-set SummaC mean / FRANK val):

| reading | protocol | SummaC | FRANK |
|---|---|---|---|
| all tokens | seeded shuffle, seed 0, both directions (the old `quality_chi.py`) | 59.7 | 69.9 |
| all tokens | same, `>` instead of `>=` / midpoint thresholds | 59.8 / 59.7 | 69.9 / 69.9 |
| all tokens | unshuffled first/second half, both directions | 58.0 | 53.6 |
| all tokens | unshuffled, tune first half only / second half only | 57.2 / 58.8 | 53.7 / 53.5 |
| all tokens | even/odd rows | 58.0 | 71.2 |
| all tokens | seeds 0–99, mean ± sd (both directions / one direction) | 59.7 ± 0.4 / 59.8 ± 0.9 | 70.1 ± 0.8 / 70.2 ± 1.8 |
| all tokens | **in-sample optimum** (tuned and tested on all rows: an upper bound) | 61.8 | **71.6** |
| distinct tokens | seeded shuffle, seed 0, both directions | 61.1 | 74.3 |
| distinct tokens | seeds 0–99, mean ± sd (both directions / one direction) | 61.1 ± 0.4 / 61.1 ± 0.9 | 73.8 ± 0.9 / 74.0 ± 2.0 |
| distinct tokens | seeds 0–9 averaged (this harness) | 61.1 | 73.9 |
| distinct tokens | in-sample optimum | 63.1 | 75.0 |

No split protocol reproduces 74.8 on FRANK with the all-token reading: even the
threshold tuned on the test rows themselves gives 71.6 (and the unshuffled halves
split FRANK into its CNN/DM and XSum parts, 53.6). The distinct-token reading gives
61.1 ± 0.4 and 73.8 ± 0.9 over split seeds, so 61.6 and 74.8 are one random half-split
of it (one direction: sd 0.9 and 2.0); no common seed (0, 1, 2, 3, 7, 13, 42, 100, 123,
1234, 2023–2025, 12345 with Python `random`, NumPy `RandomState`, `default_rng`)
gives both numbers exactly. We therefore keep both readings as baselines, report the
10-split average, and count a metric as beating the baseline only when it beats both.
"""

DLSD_SECTION = """## dlsd_acu

The harness runs the four DL-ACU paper configurations (host, host+SD-ACU, host+DL-ACU,
host+both: `score_dlsd_acu(sd_acu=..., dl_acu=...)`) with any NLI model. The paper's
tables need the Hub models (a GPU helps; not reachable from the development machine):

<!-- not run: needs the Hugging Face Hub -->
```bash
python -m benchmarks.harness run --summac ../shared/data/summac/*_val.jsonl \\
    --frank ../shared/data/frank/frank_val.jsonl --config dlsd --host fizz \\
    --nli-model tals/albert-xlarge-vitaminc-mnli --decomposer seq2seq \\
    --decomposer-model Babelscape/t5-base-summarization-claim-extractor \\
    --dl-acu amr --tag paper --out docs/benchmarks
# FENICE host: the same with --host fenice; then
python -m benchmarks.harness render
```

Here it was run only to prove the harness, with a random 2-layer NLI model
(`--nli-model tiny`, scores meaningless) and `--decomposer rules` on the first 30 rows
of summeval and FRANK: [benchmarks/dlsd-check.md](benchmarks/dlsd-check.md), made by

<!-- not run: a long run (rewrites docs/benchmarks/dlsd-check) -->
```bash
python -m benchmarks.harness run --summac ../shared/data/summac/summeval_val.jsonl \\
    --frank ../shared/data/frank/frank_val.jsonl --config dlsd --host fizz --nli-model tiny \\
    --decomposer rules --limit 30 --tag harness-check --out docs/benchmarks/dlsd-check
python -m benchmarks.harness render --brief --results docs/benchmarks/dlsd-check --out docs/benchmarks/dlsd-check.md
```
"""


BRIEF = """# Benchmark results

Generated by `benchmarks/harness.py render --brief` from the JSON results in
[`{results}/`]({results_link}/); definitions and protocol: docs/benchmarks.md.
"""


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
    header = (BRIEF if brief else PREAMBLE).replace("{results}", display).replace("{results_link}", link)
    parts = [header]
    lodo = [(tag, lodo_markdown(rows, tag, level=3 if len(tags) == 1 else 4)) for tag in reversed(tags)]
    lodo = [(tag, text) for tag, text in lodo if text]
    if lodo:
        parts.append(LODO_SECTION)
        for tag, text in lodo:
            parts.append((f"### {tag}\n\n" if len(lodo) > 1 else "") + text + "\n")
    if not brief:
        section = perturbation_section(results)
        if section:
            parts.append(section)
        parts.append(DEFAULTS_SECTION)
        parts.append(METHODS)
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
        parts.append("\n" + DLSD_SECTION)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("\n".join(parts).rstrip() + "\n")
    return out
