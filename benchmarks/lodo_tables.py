"""The leave-one-dataset-out tables of docs/benchmarks.md, recomputed from the per-fold
scores the result rows carry (``row["folds"]``): held-out balanced accuracy and ROC-AUC
per fold for every configuration and baseline reading, and choices among configurations
(``python -m benchmarks.harness lodo-table``)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from benchmarks.lodo import LodoResult, fold_margin, lodo_evaluate
from benchmarks.result_rows import BASELINE, Row, configs_in
from benchmarks.tables import fmt, markdown_table

#: the baseline LODO comparisons count folds against, and every baseline reading LODO shows
LODO_REFERENCE = "alnum-types"
LODO_BASELINES = ("alnum-types", "unigram-types", "unigram-tokens")
#: display order of the LODO folds; others follow in first-seen order
FOLD_ORDER = ("cogensumm", "xsumfaith", "polytope", "factcc", "summeval", "summac-frank", "frank-cnndm", "frank-bbc")


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
