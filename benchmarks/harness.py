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
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks._common import (
    HALVES,
    alnum_precision,
    fold_exclusions,
    load_folds,
    resolve_nli_model,
    shared_pair_counts,
    unigram_precision,
)
from benchmarks.configurations import BASELINE, NAMED_CONFIGS, MetricConfig, parse_configs
from benchmarks.evaluation import Protocol, evaluate_dimension
from benchmarks.jobs import Job, build_jobs, fold_data, missing_lodo_files
from benchmarks.pseudo_systems import document_ids, pseudo_rows, rank_pseudo_scores
from benchmarks.result_files import write_results

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
        from benchmarks.lodo_tables import lodo_markdown
        from benchmarks.result_rows import load_results

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
        from benchmarks.lodo_tables import lodo_markdown
        from benchmarks.result_rows import load_results

        print("\n" + lodo_markdown(load_results(args.out), args.tag))
    if FAILURES:
        print("failed (no rows written for these):\n  " + "\n  ".join(FAILURES), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
