"""One benchmark harness for every halluscope metric.

Runs named metric configurations (metric + keyword arguments of ``halluscope.api``) on
labelled files and writes one JSON file per (tag, configuration); ``render`` turns every
JSON file of a folder into docs/benchmarks.md with tables and plots.

    # SummaC reference-free, FRANK with references; chi, chi-paper and linear RHI
    python -m benchmarks.harness run --summac ../shared/data/summac/*_val.jsonl \\
        --frank ../shared/data/frank/frank_val.jsonl --config chi --config chi-paper \\
        --config rhi-linear --tag current --out docs/benchmarks
    python -m benchmarks.harness render --results docs/benchmarks --out docs/benchmarks.md
    # "before" numbers from an older checkout (halluscope is imported normally):
    PYTHONPATH=/path/to/old/shared python -m benchmarks.harness run ... --tag before
    # dlsd_acu: host, +SD-ACU, +DL-ACU, +both with any NLI model ("tiny": random, offline)
    python -m benchmarks.harness run --summac ... --config dlsd --nli-model tiny --decomposer rules
    # the leave-one-dataset-out table of one tag, as markdown on stdout
    python -m benchmarks.harness lodo-table --results docs/benchmarks --tag current

Lead measure: leave-one-dataset-out (LODO). Every row of the results carries its
per-example scores per fold (a SummaC file = one fold, FRANK = one fold per value of
its ``dataset`` column), so ``render``/``lodo-table`` recompute LODO without
rescoring: each fold is scored at the threshold that maximises the mean balanced
accuracy of the other folds (those sharing any (source, summary) pair with it
excluded). ``run --lodo`` insists on all eight folds and prints the table at the end.

Secondary, per file and dimension: balanced accuracy and ROC-AUC (``measures.py``); with FRANK's
``has_<T>`` flags the error-type rates FP_T/N_T; with a system column and human scores,
system-level Spearman/Kendall with document-bootstrap intervals and summary-level
correlations; the rank of an empty and a content-free pseudo-system among the real
systems. The unigram-precision baseline is scored on every file of every run.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from halluscope.options import METRIC_SPECS

from benchmarks._common import (
    HALVES,
    SUMMAC_FOLDS,
    Dataset,
    alnum_precision,
    dataset_name,
    fold_exclusions,
    fold_indices,
    fold_name,
    load_dataset,
    load_folds,
    resolve_nli_model,
    shared_pair_counts,
    unigram_precision,
)
from benchmarks.measures import (
    error_type_rates,
    half_split_balanced_accuracy,
    held_out_predictions,
    rank_pseudo_systems,
    roc_auc,
    summary_level_correlation,
    system_level_correlation,
    transfer_balanced_accuracy,
    tune_threshold,
    undefined_as_top,
)

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: the pseudo-systems of the empty-summary check: name -> the summary written for every document
PSEUDO_SUMMARIES = {"empty": "", "content-free": "The article discusses the topic."}
#: per-example score lists each metric's api result carries (``<dimension>_scores``): chi's
#: own and the dimensions of each metric's spec (halluscope.options.METRIC_SPECS, which a
#: test checks against the dimension registry), dlsd_acu's own
METRIC_DIMENSIONS = {
    name: (("chi",) if name == "chi" else ()) + (spec.dimensions or (name,)) for name, spec in METRIC_SPECS.items()
}
BASELINE = "baseline"
#: "<dataset>/<configuration>: <error>" of every configuration that raised in this process
FAILURES: list[str] = []
#: baseline dimensions: unigram precision over distinct whitespace tokens (types), over
#: all whitespace tokens, and over distinct alphanumeric tokens (``re.findall(r"[^\W_]+")``,
#: the reading LODO comparisons are made against): name -> (scorer(summary, source), signature)
BASELINE_READINGS: dict[str, tuple[Callable[[str, str], float], str]] = {
    "unigram-types": (
        lambda p, s: unigram_precision(p, s, True),
        "baseline:unigram-precision|lower|whitespace-tokens|types",
    ),
    "unigram-tokens": (
        lambda p, s: unigram_precision(p, s, False),
        "baseline:unigram-precision|lower|whitespace-tokens|tokens",
    ),
    "alnum-types": (alnum_precision, "baseline:unigram-precision|lower|alnum-tokens|types"),
}


@dataclass(frozen=True)
class MetricConfig:
    """A named configuration: ``halluscope.api.score_<metric>(..., **kwargs)``."""

    name: str
    metric: str
    kwargs: Mapping[str, Any] = field(default_factory=dict)

    @property
    def dimensions(self) -> tuple[str, ...]:
        return METRIC_DIMENSIONS[self.metric]


#: the papers exactly: their formulas, unit-against-unit matching (halluscope >= the
#: `formula`/`grounding` options; older checkouts had only these behaviours)
SEED_EXACT = {
    "formula": "paper",
    "grounding": "units",
    "truecase": False,
    "relation_slots": "head",
    "intransitive": "none",
}

#: chi-family configurations by name. "chi" is the default configuration;
#: "chi-units" the default without text grounding; "chi-no-attribution",
#: "chi-no-truecase", "chi-head-slots", "chi-no-intransitive", "chi-no-lexical" and
#: "chi-no-wordnet"
#: the default with one step off ("chi-all-pairs": subject-verb pairs for every
#: object-less verb); "-paper", "-minmax" and the rhi variants are the papers' formulas
#: (chi-paper also with the CHI paper's sentence matching), as the issue asks to keep
#: them reproducible (formula="paper" also turns the lexical weight off)
NAMED_CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "chi": ("chi", {}),
    "chi-units": ("chi", {"grounding": "units"}),
    # ablations of the default: one of its steps off
    "chi-no-attribution": ("chi", {"attribution": False}),
    "chi-no-truecase": ("chi", {"truecase": False}),
    "chi-head-slots": ("chi", {"relation_slots": "head"}),
    "chi-no-intransitive": ("chi", {"intransitive": "none"}),
    "chi-all-pairs": ("chi", {"intransitive": "all"}),
    "chi-no-lexical": ("chi", {"lexical_weight": 0.0}),
    "chi-no-wordnet": ("chi", {"wordnet": False}),
    "chi-paper": ("chi", {**SEED_EXACT, "normalize": "paper", "relation_matching": "sentence"}),
    "chi-minmax": ("chi", {**SEED_EXACT, "normalize": "minmax"}),
    "ehi": ("ehi", {}),
    "qhi": ("qhi", {}),
    "rhi-linear": ("rhi", {**SEED_EXACT, "variant": "linear"}),
    "rhi-softmax": ("rhi", {**SEED_EXACT, "variant": "softmax"}),
}
#: dlsd_acu configurations per host: suffix -> (sd_acu, discourse links)
DLSD_VARIANTS = {"": (False, False), "+SD": (True, False), "+DL": (False, True), "+SD+DL": (True, True)}


def dlsd_config(host: str, variant: str, options: Mapping[str, Any]) -> MetricConfig:
    """``<host><variant>`` (e.g. ``fizz+SD``) with the run's NLI/decomposer options;
    +SD sets ``sd_acu`` (with ``top_k``), +DL sets ``dl_acu`` to the run's backend."""
    sd_acu, links = DLSD_VARIANTS[variant]
    kwargs = {"host": host, "sd_acu": sd_acu, "dl_acu": options.get("dl_acu", "auto") if links else "none"}
    for key in ("nli_model", "decomposer", "decomposer_model", "coref", "device", "dtype", "batch_size"):
        if options.get(key) is not None:
            kwargs[key] = options[key]
    if sd_acu and options.get("top_k") is not None:
        kwargs["top_k"] = options["top_k"]
    return MetricConfig(f"{host}{variant}", "dlsd_acu", kwargs)


def _parse_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_configs(specs: Sequence[str], options: Mapping[str, Any]) -> list[MetricConfig]:
    """Configuration names to :class:`MetricConfig`: a name of :data:`NAMED_CONFIGS`;
    ``fizz``/``fenice`` with ``+SD``/``+DL``/``+SD+DL``; ``dlsd`` (the four of
    ``options["host"]``); or ``NAME=METRIC[:key=value,...]`` (values read as JSON when
    they parse). ``device``/``batch_size`` of ``options`` go to chi-family metrics too."""
    configs: list[MetricConfig] = []
    for spec in specs:
        if spec == "dlsd":
            configs += [dlsd_config(options.get("host", "fizz"), v, options) for v in DLSD_VARIANTS]
            continue
        host = next((h for h in ("fizz", "fenice") if spec == h or spec.startswith(h + "+")), None)
        if host is not None:
            variant = spec[len(host) :]
            if variant not in DLSD_VARIANTS:
                raise ValueError(f"unknown dlsd configuration {spec!r}; variants: {list(DLSD_VARIANTS)}")
            configs.append(dlsd_config(host, variant, options))
            continue
        if "=" in spec:
            name, _, rest = spec.partition("=")
            metric, _, arguments = rest.partition(":")
            kwargs = {k: _parse_value(v) for k, _, v in (a.partition("=") for a in arguments.split(",") if a)}
        elif spec in NAMED_CONFIGS:
            name, (metric, kwargs) = spec, NAMED_CONFIGS[spec]
        else:
            raise ValueError(
                f"unknown configuration {spec!r}; named: {sorted(NAMED_CONFIGS)}, fizz[+SD][+DL], "
                "fenice[...], dlsd, or NAME=METRIC:key=value,..."
            )
        if metric not in METRIC_DIMENSIONS:
            raise ValueError(f"unknown metric {metric!r} in {spec!r}; metrics: {sorted(METRIC_DIMENSIONS)}")
        kwargs = dict(kwargs)
        if metric != "dlsd_acu":
            for key in ("device", "batch_size"):
                if options.get(key) is not None:
                    kwargs.setdefault(key, options[key])
        configs.append(MetricConfig(name, metric, kwargs))
    return configs


# -------------------------------------------------------------------------------- scoring


def score_config(
    config: MetricConfig, predictions: Sequence[str], sources: Sequence[str], references: Sequence[str] | None
) -> tuple[dict[str, list[float]], str]:
    """Per dimension the per-example scores of one ``halluscope.api`` call, and the
    result's ``signature``."""
    from halluscope import api

    function = getattr(api, f"score_{config.metric}", None)
    if function is None:
        raise RuntimeError(f"this halluscope ({api.__file__}) has no score_{config.metric}")
    kwargs = dict(config.kwargs)
    if kwargs.get("nli_model") == "tiny":
        kwargs["nli_model"] = tiny_nli_folder()
    result = function(list(predictions), list(sources), None if references is None else list(references), **kwargs)
    return ({d: [float(v) for v in result[f"{d}_scores"]] for d in config.dimensions}, str(result.get("signature", "")))


_TINY_NLI: list[str] = []


def tiny_nli_folder() -> str:
    """The folder of the random tiny NLI model (``nli_model="tiny"``), built once per process."""
    if not _TINY_NLI:
        _TINY_NLI.append(resolve_nli_model("tiny"))
    return _TINY_NLI[0]


def score_baseline(predictions: Sequence[str], sources: Sequence[str]) -> dict[str, list[float]]:
    """Every baseline reading (:data:`BASELINE_READINGS`) per example."""
    return {
        name: [scorer(p, s) for p, s in zip(predictions, sources, strict=True)]
        for name, (scorer, _) in BASELINE_READINGS.items()
    }


# ------------------------------------------------------------------------ pseudo-systems


def pseudo_rows(
    sources: Sequence[str], references: Sequence[str] | None, pseudo_summaries: Mapping[str, str] = PSEUDO_SUMMARIES
) -> list[tuple[str, int, str, str | None]]:
    """(pseudo-system, document index, summary, reference) for every distinct source
    (documents are numbered by first appearance) and pseudo-system; the reference is
    the document's most frequent one."""
    documents = document_ids(sources)
    first_row: dict[int, int] = {}
    references_of: dict[int, Counter] = {}
    for row, document in enumerate(documents):
        first_row.setdefault(document, row)
        if references is not None:
            references_of.setdefault(document, Counter())[references[row]] += 1
    rows = []
    for name, summary in pseudo_summaries.items():
        for document in first_row:
            reference = references_of[document].most_common(1)[0][0] if references is not None else None
            rows.append((name, document, summary, reference))
    return rows


def document_ids(sources: Sequence[str]) -> list[int]:
    """Each row's document number: equal sources, equal number (first appearance order)."""
    numbers: dict[str, int] = {}
    return [numbers.setdefault(s, len(numbers)) for s in sources]


def empty_summary_check(
    scorer: Callable[[list[str], list[str], list[str] | None], list[float]],
    sources: Sequence[str],
    predictions: Sequence[str],
    references: Sequence[str] | None = None,
    systems: Sequence[Hashable] | None = None,
    pseudo_summaries: Mapping[str, str] = PSEUDO_SUMMARIES,
) -> dict[str, dict[str, Any]]:
    """Score an empty and a content-free summary for every distinct source as
    pseudo-systems beside the real summaries (one ``scorer`` call over real and pseudo
    rows) and rank them (:func:`measures.rank_pseudo_systems`: rank among the real
    systems by mean score when ``systems`` is given, and the per-document win rate).

    ``scorer(predictions, sources, references_or_None) -> scores`` (higher = more
    consistent), e.g. ``lambda p, s, r: score_chi(p, s, r)["chi_scores"]``."""
    pseudo = pseudo_rows(sources, references, pseudo_summaries)
    all_predictions = list(predictions) + [summary for _, _, summary, _ in pseudo]
    documents = document_ids(sources)
    first_source = {d: s for d, s in zip(documents, sources, strict=True)}
    all_sources = list(sources) + [first_source[document] for _, document, _, _ in pseudo]
    all_references = None if references is None else list(references) + [r for _, _, _, r in pseudo]
    scores = list(scorer(all_predictions, all_sources, all_references))
    return rank_pseudo_scores(scores[: len(predictions)], scores[len(predictions) :], pseudo, documents, systems)


def rank_pseudo_scores(
    real_scores: Sequence[float],
    pseudo_scores: Sequence[float],
    pseudo: Sequence[tuple[str, int, str, str | None]],
    documents: Sequence[int],
    systems: Sequence[Hashable] | None,
) -> dict[str, dict[str, Any]]:
    """:func:`measures.rank_pseudo_systems` on scores laid out as :func:`pseudo_rows`."""
    per_pseudo: dict[str, dict[int, float]] = {}
    for (name, document, _, _), value in zip(pseudo, pseudo_scores, strict=True):
        per_pseudo.setdefault(name, {})[document] = value
    return rank_pseudo_systems(real_scores, systems, documents, per_pseudo)


# ----------------------------------------------------------------------------- evaluation


@dataclass
class Protocol:
    """How thresholds are tuned and intervals drawn. Without a test split: ``splits``
    seeded half-splits (seeds ``seed`` .. ``seed+splits-1``), each tuned on one half and
    tested on the other in both directions, averaged."""

    splits: int = 10
    seed: int = 0
    resamples: int = 1000
    bootstrap_seed: int = 0

    def describe(self, has_test: bool) -> dict[str, Any]:
        threshold = (
            "tuned on the validation file, applied to the test file"
            if has_test
            else f"half-split: tuned on one seeded half, applied to the other, both directions, "
            f"averaged over {self.splits} splits (random.Random(seed), seeds {self.seed}.."
            f"{self.seed + self.splits - 1})"
        )
        return {
            "threshold": threshold,
            "prediction": "consistent iff score >= threshold",
            "undefined_score": "consistent (ranked above every defined score)",
            "splits": 0 if has_test else self.splits,
            "seed": self.seed,
            "bootstrap": {
                "unit": "document",
                "resamples": self.resamples,
                "seed": self.bootstrap_seed,
                "confidence": 0.95,
            },
        }


def evaluate_dimension(
    scores: Sequence[float],
    data: Dataset,
    protocol: Protocol,
    test_scores: Sequence[float] | None = None,
    test: Dataset | None = None,
) -> dict[str, Any]:
    """Balanced accuracy and ROC-AUC (%), the share of summaries predicted consistent
    (%, held out), error-type rates (%) when the evaluated file
    has ``has_<T>`` flags, and system- and summary-level correlations when it has
    systems and human scores. Evaluated file: ``test`` when given (threshold tuned on
    ``data``), else ``data`` with the half-split protocol."""
    evaluated, evaluated_scores = (test, test_scores) if test is not None else (data, scores)
    outcome: dict[str, Any] = {
        "defined": sum(not math.isnan(s) for s in evaluated_scores),
        "roc_auc_pct": 100 * roc_auc(evaluated_scores, evaluated.labels),
    }
    if test is not None:
        value, threshold = transfer_balanced_accuracy(scores, data.labels, test_scores, test.labels)
        outcome.update(balanced_accuracy_pct=100 * value, threshold=threshold, balanced_accuracy_splits_pct=None)
        predictions_per_split = [[s >= threshold for s in undefined_as_top(test_scores)]]
    else:
        seeds = range(protocol.seed, protocol.seed + protocol.splits)
        per_split = [100 * half_split_balanced_accuracy(scores, data.labels, seed) for seed in seeds]
        outcome.update(
            balanced_accuracy_pct=sum(per_split) / len(per_split),
            balanced_accuracy_splits_pct=per_split,
            threshold_all_rows=tune_threshold(scores, data.labels),
        )
        predictions_per_split = [held_out_predictions(scores, data.labels, seed) for seed in seeds]
    outcome["predicted_consistent_pct"] = (
        100 * sum(sum(p) / len(p) for p in predictions_per_split) / len(predictions_per_split)
    )
    if evaluated.error_flags:
        rates_per_split = [error_type_rates(p, evaluated.error_flags) for p in predictions_per_split]
        outcome["error_rates"] = {
            error: {
                "n": rates_per_split[0][error]["n"],
                "fp_mean": sum(r[error]["fp"] for r in rates_per_split) / len(rates_per_split),
                "rate_pct": 100 * sum(r[error]["rate"] for r in rates_per_split) / len(rates_per_split),
            }
            for error in evaluated.error_flags
        }
    if evaluated.systems is not None and evaluated.human_scores is not None:
        outcome["system_level"] = system_level_correlation(
            evaluated_scores,
            evaluated.human_scores,
            evaluated.systems,
            document_ids(evaluated.sources),
            resamples=protocol.resamples,
            seed=protocol.bootstrap_seed,
        )
        outcome["system_level"]["human_column"] = evaluated.human_column
        outcome["system_level"]["system_column"] = evaluated.system_column
        outcome["summary_level"] = summary_level_correlation(evaluated_scores, evaluated.human_scores)
    return outcome


# ------------------------------------------------------------------------------- running


def halluscope_provenance() -> dict[str, Any]:
    """Which halluscope the scores came from: version, package folder, git commit."""
    import halluscope

    folder = os.path.dirname(os.path.abspath(halluscope.__file__))
    provenance = {"version": getattr(halluscope, "__version__", "?"), "path": folder}
    try:
        commit = subprocess.run(
            ["git", "-C", folder, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", folder, "status", "--porcelain", "--untracked-files=no", "."],
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout.strip()
        provenance["git_commit"] = (commit + ("+dirty" if dirty else "")) if commit else None
    except (OSError, subprocess.SubprocessError):
        provenance["git_commit"] = None
    return provenance


def _print(message: str) -> None:
    print(message, flush=True)


@dataclass
class Job:
    """One file to evaluate: its validation data, optional test data, whether to pass
    references, whether to run the empty-summary check on it, and which rows of the
    validation data form which LODO fold (None: the whole file, one fold named
    :func:`_common.fold_name`) with, per fold, the folds excluded from its tuning set."""

    data: Dataset
    test: Dataset | None = None
    with_references: bool = False
    pseudo: bool = True
    folds: dict[str, list[int]] | None = None
    exclusions: Mapping[str, Sequence[str]] = field(default_factory=dict)


def fold_data(values: Sequence[float], job: Job) -> dict[str, dict[str, Any]]:
    """Per LODO fold of the job's validation rows: its rows, labels, per-example scores
    and the folds excluded from its tuning set (what ``render`` recomputes LODO from)."""
    folds = job.folds if job.folds is not None else {fold_name(job.data.name): list(range(len(job.data)))}
    return {
        name: {
            "rows": len(indices),
            "labels": [job.data.labels[i] for i in indices],
            "scores": [values[i] for i in indices],
            "excluded_when_held_out": list(job.exclusions.get(name, [])),
        }
        for name, indices in folds.items()
    }


def run_job(
    job: Job, configs: Sequence[MetricConfig], protocol: Protocol, log: Callable[[str], None] = _print
) -> dict[str, list[dict[str, Any]]]:
    """Score the baseline and every configuration on one file (one api call per
    configuration over validation, test and pseudo-system rows) and evaluate every
    dimension. Returns result rows per configuration name (``baseline`` included)."""
    data, test = job.data, job.test
    evaluated = test if test is not None else data
    parts = [data] + ([test] if test is not None else [])
    use_references = job.with_references and all(p.references is not None for p in parts)
    pseudo = pseudo_rows(evaluated.sources, evaluated.references if use_references else None) if job.pseudo else []
    first_source = dict(zip(document_ids(evaluated.sources), evaluated.sources, strict=True))
    predictions = [p for part in parts for p in part.predictions] + [summary for _, _, summary, _ in pseudo]
    sources = [s for part in parts for s in part.sources] + [first_source[d] for _, d, _, _ in pseudo]
    references = (
        [r for part in parts for r in part.references] + [r for _, _, _, r in pseudo] if use_references else None
    )
    sizes = [len(p) for p in parts]

    def split(values: list[float]) -> tuple[list[float], list[float] | None, list[float]]:
        val = values[: sizes[0]]
        tst = values[sizes[0] : sizes[0] + sizes[1]] if test is not None else None
        return val, tst, values[sum(sizes) :]

    base = {
        "dataset": data.name,
        "data_file": data.path,
        "rows": len(data),
        "test_file": test.path if test is not None else None,
        "test_rows": len(test) if test is not None else None,
        "references": "with references" if use_references else "reference-free",
        "protocol": protocol.describe(test is not None),
    }
    results: dict[str, list[dict[str, Any]]] = {}
    scored = [(MetricConfig(BASELINE, "unigram_precision"), lambda: (score_baseline(predictions, sources), None))]
    scored += [
        (config, lambda config=config: score_config(config, predictions, sources, references)) for config in configs
    ]
    for config, scorer in scored:
        start = time.perf_counter()
        try:
            per_dimension, signature = scorer()
        except Exception as error:  # noqa: BLE001 - one failing configuration must not end the run
            log(f"{data.name:<12} {config.name:<14} FAILED: {type(error).__name__}: {error}")
            FAILURES.append(f"{data.name}/{config.name}: {type(error).__name__}: {error}")
            continue
        seconds = time.perf_counter() - start
        rows = []
        for dimension, values in per_dimension.items():
            val, tst, pseudo_values = split(values)
            row = {
                **base,
                "config": config.name,
                "metric": config.metric,
                "dimension": dimension,
                "signature": signature or BASELINE_READINGS[dimension][1],
                "seconds": round(seconds, 2),
                **evaluate_dimension(val, data, protocol, tst, test),
                "folds": fold_data(val, job),
            }
            if pseudo:
                row["pseudo_systems"] = rank_pseudo_scores(
                    tst if test is not None else val,
                    pseudo_values,
                    pseudo,
                    document_ids(evaluated.sources),
                    evaluated.systems,
                )
            rows.append(row)
            log(
                f"{data.name:<12} {config.name:<14} {dimension:<15} BA {row['balanced_accuracy_pct']:5.1f}  "
                f"AUC {row['roc_auc_pct']:5.1f}  ({seconds:.1f} s)"
            )
        results[config.name] = rows
    return results


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


def run(
    jobs: Sequence[Job],
    configs: Sequence[MetricConfig],
    tag: str,
    out: str,
    protocol: Protocol | None = None,
    limit: int | None = None,
    command: str | None = None,
    log: Callable[[str], None] = _print,
    half: str | None = None,
) -> list[str]:
    """Run every job (files outer, configurations inner: the parse cache serves all
    configurations of a file); after each file, merge its rows into the JSON file of
    every configuration (so an interrupted run keeps the files done). Returns the
    paths written."""
    protocol = protocol or Protocol()
    meta = {
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "halluscope": halluscope_provenance(),
        "limit": limit,
        "half": half or "all",
        "command": command,
    }
    by_name = {c.name: c for c in configs}
    paths: list[str] = []
    for job in jobs:
        for name, rows in run_job(job, configs, protocol, log).items():
            path = write_results(out, tag, by_name.get(name), rows, meta)
            paths += [path] if path not in paths else []
    return paths


# ------------------------------------------------------------------------------------ CLI


def build_jobs(
    summac: Sequence[str],
    frank: str | None,
    tests: Sequence[Sequence[str]],
    limit: int | None,
    references: str,
    pseudo: bool,
    exclusions: Mapping[str, Sequence[str]] | None = None,
    half: str | None = None,
) -> list[Job]:
    """SummaC files reference-free, the FRANK file with its references (unless
    ``references == "none"``), each paired with its ``--test`` file if any. ``limit``:
    the first N rows of every fold (FRANK: of each of its ``dataset`` parts). ``half``
    (``all``/None, ``design``, ``lockbox``; :func:`_common.lockbox_half`): which rows of
    the validation files, chosen before ``limit``; a ``--test`` file is not split. Each
    job knows its LODO folds (:func:`_common.fold_indices`) and their ``exclusions``."""
    test_of = {os.path.abspath(val): test for val, test in tests}
    jobs = []
    for path, name, is_frank in [(p, None, False) for p in summac] + ([(frank, "FRANK", True)] if frank else []):
        data = load_dataset(path, limit, name, limit_per_group=is_frank, half=half)
        test_path = test_of.get(os.path.abspath(path))
        test = load_dataset(test_path, limit, data.name, limit_per_group=is_frank) if test_path else None
        jobs.append(
            Job(
                data,
                test,
                with_references=is_frank and references == "auto",
                pseudo=pseudo,
                folds=fold_indices(data, frank=is_frank),
                exclusions=exclusions or {},
            )
        )
    return jobs


def lodo_exclusions(
    summac: Sequence[str], frank: str | None, log: Callable[[str], None] = _print
) -> dict[str, list[str]]:
    """The exclusion rule (:func:`_common.fold_exclusions`) on ALL rows of the run's
    files (a row limit does not hide an overlap), with the shared pairs logged. Files
    that cannot form folds (two files of one name): a warning and no exclusions."""
    try:
        folds = load_folds(summac, frank)
    except ValueError as error:
        log(f"LODO: no exclusions computed: {error}")
        return {}
    for (a, b), shared in shared_pair_counts(folds).items():
        log(f"LODO: {a} and {b} share {shared} (source, summary) pairs: neither tunes the other's threshold")
    return fold_exclusions(folds)


def missing_lodo_files(summac: Sequence[str], frank: str | None) -> list[str]:
    """What ``run --lodo`` lacks of the eight folds: SummaC files by name, and FRANK."""
    present = {dataset_name(p) for p in summac}
    return [f"--summac {name}_val.jsonl" for name in SUMMAC_FOLDS if name not in present] + (
        [] if frank else ["--frank frank_val.jsonl"]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    runner = commands.add_parser("run", help="score configurations on files, write JSON results")
    runner.add_argument("--summac", nargs="*", default=[], help="SummaC-format jsonl files (reference-free)")
    runner.add_argument("--frank", help="FRANK jsonl (references, model_name, Factuality, has_<T>)")
    runner.add_argument(
        "--test",
        nargs=2,
        action="append",
        default=[],
        metavar=("VAL", "TEST"),
        help="tune thresholds on VAL (one of the files above) and evaluate on TEST",
    )
    runner.add_argument(
        "--config",
        action="append",
        default=[],
        help=f"configuration (repeatable; default chi): {', '.join(NAMED_CONFIGS)}, "
        "fizz[+SD][+DL], fenice[...], dlsd (four of --host), NAME=METRIC:key=value,...",
    )
    runner.add_argument("--tag", default="current", help="label of this run (e.g. before / after)")
    runner.add_argument(
        "--out",
        default=os.path.join(REPOSITORY, "benchmarks", "results"),
        help="result folder (docs/benchmarks for the published results)",
    )
    runner.add_argument("--limit", type=int, help="first N rows of every fold (FRANK: of each of its cnndm/bbc parts)")
    runner.add_argument(
        "--half",
        default="all",
        choices=list(HALVES),
        help="rows of the validation files: all, design (outside the lockbox) or lockbox "
        "(_common.lockbox_half: by a seeded hash of the source document; before --limit)",
    )
    runner.add_argument(
        "--lodo",
        action="store_true",
        help="require the eight LODO folds (the six SummaC files and --frank) and print the LODO "
        "table at the end (fold scores are written by every run)",
    )
    runner.add_argument(
        "--parse-store",
        metavar="DIR",
        help="seed the parse cache from a parse store (benchmarks/studies/parse_store.py "
        "build): same parses, no parsing; for configurations with the default truecasing",
    )
    runner.add_argument("--splits", type=int, default=10, help="seeded half-splits averaged")
    runner.add_argument("--seed", type=int, default=0)
    runner.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples")
    runner.add_argument(
        "--references",
        default="auto",
        choices=["auto", "none"],
        help="auto: FRANK with its references; none: reference-free everywhere",
    )
    runner.add_argument("--no-pseudo", action="store_true", help="skip the empty-summary check")
    runner.add_argument("--device")
    runner.add_argument("--batch-size", type=int)
    dlsd = runner.add_argument_group("dlsd_acu")
    dlsd.add_argument("--host", default="fizz", choices=["fizz", "fenice"])
    dlsd.add_argument("--nli-model", help='hub name or folder; "tiny": random tiny model (proves the harness only)')
    dlsd.add_argument("--decomposer", choices=["seq2seq", "rules"])
    dlsd.add_argument("--decomposer-model")
    dlsd.add_argument("--coref")
    dlsd.add_argument("--top-k", type=int)
    dlsd.add_argument("--dl-acu", default="auto", choices=["auto", "amr", "dep"])
    dlsd.add_argument("--dtype")
    render = commands.add_parser("render", help="JSON results -> markdown tables and PNG plots")
    render.add_argument("--results", default=os.path.join(REPOSITORY, "docs", "benchmarks"))
    render.add_argument("--out", default=os.path.join(REPOSITORY, "docs", "benchmarks.md"))
    render.add_argument("--tags", help="comma-separated tag order (default: by creation time)")
    render.add_argument("--no-plots", action="store_true")
    render.add_argument("--brief", action="store_true", help="tables and plots only, no protocol text")
    table = commands.add_parser("lodo-table", help="the leave-one-dataset-out table of one tag as markdown (stdout)")
    table.add_argument("--results", default=os.path.join(REPOSITORY, "docs", "benchmarks"))
    table.add_argument("--tag", required=True)
    table.add_argument(
        "--choose",
        action="append",
        default=[],
        metavar="C1,C2,...",
        help="also a row that picks among these configurations (CONFIG or CONFIG:DIMENSION) per "
        "held-out fold on the other folds (repeatable)",
    )
    study = commands.add_parser("baseline-study", help="split protocols vs the issue's baseline numbers")
    study.add_argument("--summac", nargs="*", default=[])
    study.add_argument("--frank")
    study.add_argument("--seeds", type=int, default=100)
    args = parser.parse_args(argv)

    if args.command == "render":
        from benchmarks.report import render_markdown

        tags = args.tags.split(",") if args.tags else None
        path = render_markdown(args.results, args.out, tags=tags, plots=not args.no_plots, brief=args.brief)
        print(f"wrote {path}")
        return 0
    if args.command == "lodo-table":
        from benchmarks.report import load_results, lodo_markdown

        text = lodo_markdown(load_results(args.results), args.tag, choices=[c.split(",") for c in args.choose])
        if not text:
            print(f"no LODO fold data for tag {args.tag!r} in {args.results}", file=sys.stderr)
            return 1
        print(text)
        return 0
    if args.command == "baseline-study":
        from baseline_study import print_study

        print_study(args.summac, args.frank, seeds=args.seeds)
        return 0

    options = {
        "host": args.host,
        "nli_model": args.nli_model,
        "decomposer": args.decomposer,
        "decomposer_model": args.decomposer_model,
        "coref": args.coref,
        "top_k": args.top_k,
        "dl_acu": args.dl_acu,
        "device": args.device,
        "dtype": args.dtype,
        "batch_size": args.batch_size,
    }
    configs = parse_configs(args.config or ["chi"], options)
    FAILURES.clear()
    if not args.summac and not args.frank:
        parser.error("give --summac and/or --frank files")
    if args.lodo and missing_lodo_files(args.summac, args.frank):
        parser.error("--lodo needs the eight folds; missing: " + ", ".join(missing_lodo_files(args.summac, args.frank)))
    if args.parse_store:
        from benchmarks.studies.parse_store import seed_cache

        print(f"seeded {seed_cache(args.parse_store)} parses from {args.parse_store}", file=sys.stderr)
    exclusions = lodo_exclusions(args.summac, args.frank)
    jobs = build_jobs(
        args.summac, args.frank, args.test, args.limit, args.references, not args.no_pseudo, exclusions, half=args.half
    )
    paths = run(
        jobs,
        configs,
        args.tag,
        args.out,
        Protocol(args.splits, args.seed, args.resamples),
        args.limit,
        command=" ".join(["harness.py"] + list(argv if argv is not None else sys.argv[1:])),
        half=args.half,
    )
    for path in paths:
        print(f"wrote {path}")
    if args.lodo:
        from benchmarks.report import load_results, lodo_markdown

        print("\n" + lodo_markdown(load_results(args.out), args.tag))
    if FAILURES:
        print("failed (no rows written for these):\n  " + "\n  ".join(FAILURES), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
