"""Ray Data against the process pool, on the same rows in one run (issue 58; the table
and how to read it: docs/benchmarks.md#ray-against-the-process-pool-issue-58).

The rows: the first third of each of SummaC's cogensumm, xsumfaith and summeval
validation files, in file order (cogensumm's summaries of one document partly
consecutive, xsumfaith's never, summeval's always), scored reference-free with chi.
Each configuration runs in a fresh process, from cold caches:

- ``workers=N``: one ``Scorer("chi", workers=N)`` (its models loaded first, timed
  apart) scores all rows in one call; rows/s = rows / that call's seconds.
- Ray with N actors: a local Ray of 2 CPUs, started inside a network and PID namespace
  of its own (benchmarks/ray_namespace.py), ``score_dataset(..., batch_stats=True)``.
  Start-up = the cluster's start plus an actor's model loading. Steady state = the
  actors' own rows/s (each actor's rows over its seconds, its first batch left out,
  summed over the actors), read from the batch statistics each actor writes. The rows
  are grouped by source (``group_by_source=True``), and once more, with 2 actors, not
  (``ray=2/ungrouped``), to show what grouping is worth.

Every configuration's scores and labels must equal ``workers=1``'s, bit for bit (the
script fails otherwise). Peak RSS per process; for Ray, also the CPU seconds and memory
of Ray's own processes (raylet, GCS, driver, Ray Data's helpers) beside the actors'.

    python -m benchmarks.scale_ray                      # 2,000 rows, the Markdown table
    python -m benchmarks.scale_ray --rows 300 --runs workers=2,ray=2,ray=2/ungrouped
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._common import read_jsonl
from benchmarks.ray_namespace import communicate_or_kill, namespace_problem, short_folder, start_in_namespace

#: the SummaC validation files the rows come from, a third of the rows each
FILES = ("cogensumm", "xsumfaith", "summeval")
#: what a run with no --runs measures
DEFAULT_RUNS = ("workers=1", "workers=2", "ray=1", "ray=2", "ray=2/ungrouped")
#: CPUs of the local Ray (this machine's two cores)
RAY_CPUS = 2
#: CPUs each actor reserves: two 1-CPU actors on 2 CPUs would leave none for Ray Data's
#: other stages (it warns that the job will hang)
ACTOR_CPUS = 0.5
#: seconds one configuration may take before it is killed
RUN_TIMEOUT = 1800


def benchmark_rows(data_dir: str, n_rows: int) -> list[dict[str, Any]]:
    """``n_rows`` rows, the first third of each of :data:`FILES` in file order, each
    ``{"line", "prediction", "source", "file"}``."""
    rows: list[dict[str, Any]] = []
    for position, name in enumerate(FILES):
        share = n_rows // len(FILES) + (1 if position < n_rows % len(FILES) else 0)
        for row in read_jsonl(os.path.join(data_dir, f"{name}_val.jsonl"), share):
            rows.append({"line": len(rows), "prediction": row["claim"], "source": row["document"], "file": name})
    return rows


def peak_rss_mb(who: int = resource.RUSAGE_SELF) -> float:
    """Peak resident memory in MB of this process (or, ``RUSAGE_CHILDREN``, of its
    largest ended child)."""
    return resource.getrusage(who).ru_maxrss / 1024


# ------------------------------------------------------------------ one configuration, in its own process


def run_pool(rows: list[dict[str, Any]], workers: int, call_rows: int | None = None) -> dict[str, Any]:
    """``workers=N`` on ``rows``: the models' loading, then one call (``call_rows``: calls
    of that many rows, one after another), timed apart."""
    from halluscope import Scorer
    from halluscope.records import row_parts, to_json

    started = time.perf_counter()
    scorer = Scorer("chi", workers=workers)
    loaded = time.perf_counter()
    step = call_rows or len(rows)
    parts = []
    for start in range(0, len(rows), step):
        chunk = rows[start : start + step]
        result = scorer.score([row["prediction"] for row in chunk], [row["source"] for row in chunk])
        parts.extend(row_parts({"chi": result}, len(chunk)))
    scored = time.perf_counter()
    return {
        "load_seconds": loaded - started,
        "call_seconds": scored - loaded,
        "calls": -(-len(rows) // step),
        "rows_per_second": len(rows) / (scored - loaded),
        "peak_rss_mb": peak_rss_mb(),
        "worker_peak_rss_mb": peak_rss_mb(resource.RUSAGE_CHILDREN) if workers > 1 else None,
        "records": {
            str(row["line"]): to_json([part["scores"], part.get("labels", {})])
            for row, part in zip(rows, parts, strict=True)
        },
    }


def run_ray(rows: list[dict[str, Any]], actors: int, batch_size: int, blocks: int, group: bool) -> dict[str, Any]:
    """Ray with ``actors`` actors on ``rows`` (to be run inside a namespace of its own)."""
    import psutil
    import ray
    from halluscope.ray import BATCH_STATS_COLUMN, record, score_dataset

    started = time.perf_counter()
    ray.init(
        num_cpus=RAY_CPUS,
        _temp_dir=str(short_folder()),
        include_dashboard=False,
        object_store_memory=200 * 2**20,
        log_to_driver=False,
    )
    cluster = time.perf_counter()
    cpu_before = _cpu_seconds(psutil)
    try:
        ds = ray.data.from_items(rows, override_num_blocks=blocks)
        scored = score_dataset(
            ds,
            "chi",
            id_column="line",
            batch_stats=True,
            actors=actors,
            num_cpus=ACTOR_CPUS,
            batch_size=batch_size,
            group_by_source=group,
        )
        out = scored.take_all()
        done = time.perf_counter()
        cpu_after = _cpu_seconds(psutil)
        memory = {process.pid: process.memory_info().rss / 2**20 for process in psutil.process_iter()}
    finally:
        ray.shutdown()
    batches = {row[BATCH_STATS_COLUMN] for row in out}  # every row of a batch holds the same string
    stats = [json.loads(batch) for batch in batches]
    actor_pids = {int(batch["actor"].rsplit(":", 1)[1]) for batch in stats}
    cpu = {pid: cpu_after[pid] - cpu_before.get(pid, 0.0) for pid in cpu_after}
    records = [record(row) for row in out]
    return {
        "cluster_seconds": cluster - started,
        "run_seconds": done - cluster,
        "batches": sorted(stats, key=lambda batch: (batch["actor"], batch["index"])),
        "actor_cpu_seconds": sum(seconds for pid, seconds in cpu.items() if pid in actor_pids),
        "ray_cpu_seconds": sum(seconds for pid, seconds in cpu.items() if pid not in actor_pids),
        "ray_rss_mb": sum(mb for pid, mb in memory.items() if pid not in actor_pids),
        "records": {str(r["line"]): _scores_json(r) for r in records},
    }


def _cpu_seconds(psutil: Any) -> dict[int, float]:
    """User and system CPU seconds of every process this (PID) namespace holds now."""
    seconds = {}
    for process in psutil.process_iter():
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        seconds[process.pid] = times.user + times.system
    return seconds


def _scores_json(decoded: dict[str, Any]) -> str:
    from halluscope.records import to_json

    return to_json([decoded["scores"], decoded.get("labels", {})])


# ------------------------------------------------------------------ the table


def steady_state(batches: list[dict[str, Any]]) -> tuple[float | None, int]:
    """The actors' rows/s, each actor's first batch left out, summed over the actors;
    and the number of batches that went into it (None, 0: no actor scored two)."""
    by_actor: dict[str, list[dict[str, Any]]] = {}
    for batch in batches:
        by_actor.setdefault(batch["actor"], []).append(batch)
    total, counted = 0.0, 0
    for own in by_actor.values():
        later = [batch for batch in own if batch["index"] > 0]
        if later:
            total += sum(batch["rows"] for batch in later) / sum(batch["seconds"] for batch in later)
            counted += len(later)
    return (total if counted else None), counted


def table(results: dict[str, dict[str, Any]], n_rows: int) -> str:
    """The Markdown table of every configuration measured, against ``workers=2``."""
    baseline = results.get("workers=2", {}).get("rows_per_second")
    lines = [
        "| run | start-up s | steady state rows/s | × workers=2 | wall s (start-up included) "
        "| peak RSS MB per process |",
        "|---|---|---|---|---|---|",
    ]
    for name, result in results.items():
        if name.startswith("workers="):
            rate, startup = result["rows_per_second"], f"{result['load_seconds']:.1f} (models)"
            wall = result["load_seconds"] + result["call_seconds"]
            rss = f"{result['peak_rss_mb']:.0f}" + (
                f" (+ workers: {result['worker_peak_rss_mb']:.0f} each)" if result["worker_peak_rss_mb"] else ""
            )
            calls = "one call" if result["calls"] == 1 else f"{result['calls']} calls"
            how = f"{n_rows} rows in {calls}, {result['call_seconds']:.1f} s"
        else:
            rate, counted = steady_state(result["batches"])
            load = max(batch["load_seconds"] for batch in result["batches"])
            startup = f"{result['cluster_seconds']:.1f} + {load:.1f} (cluster + models per actor)"
            wall = result["cluster_seconds"] + result["run_seconds"]
            actors = sorted({batch["actor"] for batch in result["batches"]})
            peaks = [max(b["peak_rss_mb"] for b in result["batches"] if b["actor"] == actor) for actor in actors]
            rss = f"{', '.join(f'{peak:.0f}' for peak in peaks)} (+ Ray's processes: {result['ray_rss_mb']:.0f})"
            how = f"{counted} batches, each actor's first left out"
        ratio = f"{rate / baseline:.2f}" if rate and baseline else "-"
        rate_text = f"{rate:.1f} ({how})" if rate else "-"
        lines.append(f"| {name} | {startup} | {rate_text} | {ratio} | {wall:.1f} | {rss} |")
    return "\n".join(lines)


def ray_notes(results: dict[str, dict[str, Any]]) -> list[str]:
    """Per Ray configuration: its batches (rows, distinct sources, seconds) and the CPU
    seconds its actors and Ray's own processes took during the run."""
    notes = []
    for name, result in results.items():
        if name.startswith("ray"):
            shapes = ", ".join(
                f"{b['actor'].rsplit(':', 1)[1]}#{b['index']}: {b['rows']} rows/{b['sources']} sources/"
                f"{b['seconds']:.1f} s"
                for b in result["batches"]
            )
            notes.append(
                f"- {name}: run {result['run_seconds']:.1f} s after the cluster's start; CPU s during it: "
                f"actors {result['actor_cpu_seconds']:.1f}, Ray's own processes {result['ray_cpu_seconds']:.1f}; "
                f"batches (actor pid#index): {shapes}"
            )
    return notes


# ------------------------------------------------------------------ driver


def measure(name: str, job: Path, folder: Path) -> dict[str, Any]:
    """One configuration in a fresh process: ``workers=N`` (``workers=N,K``: calls of K
    rows), ``ray=N`` (``ray=N,ungrouped``: without ``group_by_source``)."""
    out = folder / f"{name.replace('=', '').replace(',', '-')}.json"
    command = [sys.executable, "-m", "benchmarks.scale_ray", "--part", name, "--job", str(job), "--out", str(out)]
    if name.startswith("workers="):
        done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT)
        output = done.stdout + done.stderr
        code = done.returncode
    else:
        process = start_in_namespace(command)
        output, _ = communicate_or_kill(process, RUN_TIMEOUT)
        code = process.returncode
    if code != 0:
        raise SystemExit(f"{name} failed (exit {code}):\n{output[-4000:]}")
    return {**json.loads(out.read_text(encoding="utf-8")), "load_after": os.getloadavg()[0]}


def run_part(name: str, job_path: str, out_path: str) -> None:
    job = json.loads(Path(job_path).read_text(encoding="utf-8"))
    kind, _, setting = name.partition("=")
    count, _, flag = setting.partition(",")
    if kind == "workers":
        result = run_pool(job["rows"], int(count), int(flag) if flag else None)
    else:
        result = run_ray(job["rows"], int(count), job["batch_size"], job["blocks"], group=flag != "ungrouped")
    Path(out_path).write_text(json.dumps(result), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", default=os.path.join("..", "shared", "data", "summac"))
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument(
        "--runs",
        default=",".join(DEFAULT_RUNS),
        help="e.g. workers=1,workers=1/256,ray=2,ray=2/ungrouped (workers=N/K: calls of K rows)",
    )
    parser.add_argument("--batch-size", type=int, default=None, help="rows per Ray batch (score_dataset's default)")
    parser.add_argument("--blocks", type=int, default=8, help="blocks of the Ray dataset (from_items)")
    parser.add_argument("--part", help=argparse.SUPPRESS)
    parser.add_argument("--job", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.part:
        run_part(args.part.replace("/", ","), args.job, args.out)
        return
    from halluscope.ray import DEFAULT_BATCH_SIZE

    runs = [run.replace("/", ",") for run in args.runs.split(",")]
    if any(run.startswith("ray") for run in runs) and namespace_problem():
        raise SystemExit(f"cannot run Ray here: {namespace_problem()}")
    rows = benchmark_rows(args.data_dir, args.rows)
    folder = Path(tempfile.mkdtemp(prefix="scale_ray"))
    job = folder / "job.json"
    batch_size = args.batch_size or DEFAULT_BATCH_SIZE
    job.write_text(json.dumps({"rows": rows, "batch_size": batch_size, "blocks": args.blocks}), encoding="utf-8")
    load_before = os.getloadavg()
    results = {}
    for name in runs:
        load = os.getloadavg()[0]
        print(f"{name} ... (load average {load:.2f})", file=sys.stderr, flush=True)
        results[name] = {**measure(name, job, folder), "load_before": load}
    load_after = os.getloadavg()
    reference_name = runs[0]
    differing = {
        name: sum(results[name]["records"][line] != value for line, value in results[reference_name]["records"].items())
        for name in runs
    }
    print(table(results, len(rows)))
    print()
    print(
        f"{len(rows)} rows ({', '.join(FILES)} validation, a third each, file order), chi reference-free; "
        f"Ray: {RAY_CPUS} CPUs, {ACTOR_CPUS} CPU per actor, batch_size {batch_size}, {args.blocks} blocks; "
        f"load average (1, 5, 15 min) before {', '.join(f'{v:.2f}' for v in load_before)}, "
        f"after {', '.join(f'{v:.2f}' for v in load_after)}; cores {os.cpu_count()}"
    )
    print(
        "load average (1 min) at each run's start and end: "
        + "; ".join(f"{name} {r['load_before']:.2f} -> {r['load_after']:.2f}" for name, r in results.items())
    )
    print("\n".join(ray_notes(results)))
    print(f"rows whose scores or labels differ from {reference_name}'s: {differing}")
    if any(differing.values()) or any(len(r["records"]) != len(rows) for r in results.values()):
        raise SystemExit("the configurations did not give the same scores for every row")


if __name__ == "__main__":
    main()
