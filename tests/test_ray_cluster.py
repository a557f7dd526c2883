"""``halluscope score --engine ray --ray-address`` on a real 2-node Ray cluster (issue 58
item 5, docs/cli.md#scoring-on-ray): a head and a second node started with ``ray start
--block`` inside a network namespace of their own (loopback only, as this workplace
requires) and a PID namespace that ends with them (tests/ray_cluster.py). Two runs of
the same 300 rows: one as is, one with the actor on the second node killed (``kill -9``)
mid-run. Both write, line for line, the local command's records."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from halluscope.cli import main
from halluscope.examples import load_examples
from test_ray import NAMESPACE, communicate_within, needs_namespace, ray_environment, same_floats, short_folder

CLUSTER = Path(__file__).with_name("ray_cluster.py")
#: seconds the cluster, both runs and the kill may take together (the issue asks for 180;
#: measured 207 s on a 2-core machine shared at a load average of 14, about 80 s a run)
CLUSTER_TIMEOUT_S = 300


def cluster_rows(count: int = 300) -> list[dict[str, Any]]:
    """``count`` rows from the 16 shipped examples (references, "" for none, dates, an
    undefined qhi), each copy's source made distinct and its summary given a number the
    source may not hold, ids of two types, a kept label."""
    rows: list[dict[str, Any]] = []
    while len(rows) < count:
        copy = len(rows) // 16
        for example in load_examples():
            source = example["source"] if copy == 0 else f"{example['source']} It was reported {copy - copy % 3} times."
            rows.append(
                {
                    "id": example["id"] if copy % 2 else len(rows),
                    "prediction": example["prediction"] + (f" It was reported {copy} times." if copy else ""),
                    "source": source,
                    "reference": example["reference"],
                    "publication_date": example["publication_date"],
                    "label": len(rows) % 2,
                }
            )
    return rows[:count]


def read_folder(folder: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line) for shard in sorted(folder.glob("part-*.jsonl")) for line in shard.read_text().splitlines()
    ]


def second_node_actors(namespace: subprocess.Popen) -> list[Any]:
    """The scoring actors under the second node's ``ray start --block`` (its raylet's workers)."""
    import psutil

    try:
        processes = psutil.Process(namespace.pid).children(recursive=True)
        second = [p for p in processes if "start" in p.cmdline() and "--address" in p.cmdline()]
        return [
            child
            for node in second
            for child in node.children(recursive=True)
            if "BatchScorer" in " ".join(child.cmdline())
        ]
    except psutil.NoSuchProcess:
        return []


@pytest.mark.slow
@needs_namespace
def test_a_two_node_cluster_writes_the_local_records_even_with_an_actor_killed(tmp_path, capsys):
    rows = cluster_rows()
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    common = [
        "--input",
        str(tmp_path / "rows.jsonl"),
        "--metrics",
        "chi",
        "--reference-field",
        "reference",
        "--publication-date-field",
        "publication_date",
        "--no-progress",
    ]
    assert main(["score", *common, "--output", str(tmp_path / "local.jsonl")]) == 0
    capsys.readouterr()
    local = [json.loads(line) for line in (tmp_path / "local.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(local) == 300 and len({json.dumps(record["scores"]) for record in local}) > 30  # varied

    folder = short_folder()
    on_ray = [
        "score",
        "--engine",
        "ray",
        *common,
        "--actors",
        "2",
        "--actor-cpus",
        "0.5",  # half a CPU each: the read, sort and write stages keep the other half
        "--actor-resources",
        '{"scorer": 1}',  # each node has one: one actor per node
        "--chunk-size",
        "8",
    ]
    job = {
        "port": 6379,
        "folder": str(folder),
        "runs": [[*on_ray, "--output-dir", str(folder / f"o{k}")] for k in (1, 2)],
    }
    (folder / "job.json").write_text(json.dumps(job), encoding="utf-8")
    namespace = subprocess.Popen(
        [*NAMESPACE, "sh", "-c", f"ip link set lo up && exec {sys.executable} {CLUSTER} {folder / 'job.json'}"],
        env=ray_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + CLUSTER_TIMEOUT_S
    killed = None
    shard = folder / "o2" / "part-00000.jsonl"
    while killed is None and namespace.poll() is None and time.monotonic() < deadline:
        if (folder / "run-2.started").exists() and not (folder / "run-2.rc").exists():
            written = shard.exists() and shard.read_text(encoding="utf-8").count("\n")
            actors = second_node_actors(namespace)
            if written and actors:
                actors[0].kill()  # SIGKILL of the actor on the second node
                killed = (actors[0].pid, written)
        time.sleep(0.2)
    out, _ = communicate_within(namespace, max(1.0, deadline - time.monotonic()), "the 2-node cluster's two runs")
    logs = "".join((folder / f"run-{k}.err").read_text() for k in (1, 2) if (folder / f"run-{k}.err").exists())
    assert namespace.returncode == 0, (out + logs)[-4000:]
    assert [(folder / f"run-{k}.rc").read_text() for k in (1, 2)] == ["0", "0"], logs[-4000:]
    assert killed is not None, "no actor on the second node was found while run 2 was going"
    assert killed[1] < 300, "killed after the run had written every line"

    for k in (1, 2):
        got = read_folder(folder / f"o{k}")
        assert sorted(record["line"] for record in got) == list(range(1, 301)), f"run {k}: every line exactly once"
        by_line = {record["line"]: record for record in got}
        for theirs in local:
            mine = by_line[theirs["line"]]
            assert list(mine) == list(theirs), (k, theirs["line"])
            assert same_floats(mine, theirs), (k, theirs["line"])  # scores, labels, details bit for bit
        summary = json.loads((folder / f"o{k}" / "summary.json").read_text(encoding="utf-8"))
        assert summary["rows_in"] == summary["rows_out"] == 300
    print(
        f"killed actor {killed[0]} on the second node after {killed[1]} of 300 lines were written; "
        f"the cluster's part took {time.monotonic() - deadline + CLUSTER_TIMEOUT_S:.0f} s"
    )
