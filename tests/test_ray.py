"""halluscope.ray (issue 58, docs/scaling.md#ray-data): the records of
``score_dataset`` equal one process's scores bit for bit, its options are checked before
Ray runs, and real Ray (no mocks), started inside a network namespace each test creates
(loopback only, as this workplace requires), scores every row once, also when an actor
is killed mid-run. The test process itself never starts Ray, and nothing here runs
``ray stop``: each Ray lives in a PID namespace of its own and ends with it."""

from __future__ import annotations

import json
import math
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from halluscope import score_chi, score_ehi
from halluscope.errors import InputError, OptionError
from halluscope.examples import load_examples
from halluscope.ray.batches import BATCH_STATS_COLUMN, GROUP_COLUMN
from halluscope.records import json_safe

from benchmarks.ray_namespace import (  # NAMESPACE and ray_environment: for test_ray_cli
    NAMESPACE,  # noqa: F401
    communicate_or_kill,
    namespace_problem,
    ray_environment,  # noqa: F401
    short_folder,
    start_in_namespace,
)

DRIVER = Path(__file__).with_name("ray_driver.py")


def example_rows(copies: int = 1) -> list[dict[str, Any]]:
    """The 16 shipped examples (references, "" for none, dates, a row with an undefined
    qhi), ``copies`` times, each copy's sources made distinct, numbered by ``line``."""
    rows = []
    for copy in range(copies):
        for example in load_examples():
            source = example["source"] if copy == 0 else f"{example['source']} This is copy {copy}."
            rows.append(
                {
                    "line": len(rows),
                    "id": example["id"],
                    "prediction": example["prediction"],
                    "source": source,
                    "reference": example["reference"],
                    "publication_date": example["publication_date"],
                }
            )
    return rows


def one_process_records(rows: list[dict[str, Any]], details: bool) -> list[dict[str, Any]]:
    """Per row, the ``scores``, ``labels`` (and ``details``) one call of ``score_chi``
    and ``score_ehi`` over all rows gives, as ``halluscope score`` writes them."""
    predictions, sources = [r["prediction"] for r in rows], [r["source"] for r in rows]
    references = [r["reference"] for r in rows]
    chi = score_chi(
        predictions,
        sources,
        references,
        publication_dates=[r["publication_date"] for r in rows],
        return_details=details,
    )
    ehi = score_ehi(predictions, sources, references, return_details=details)
    expected = []
    for row in range(len(rows)):
        record = {
            "scores": {
                "chi": {name[:-7]: chi[name][row] for name in chi if name.endswith("_scores")},
                "ehi": {"ehi": ehi["ehi_scores"][row]},
            },
            "labels": {"chi": chi["labels"][row]},
        }
        if details:
            record["details"] = {"chi": chi["details"][row], "ehi": ehi["details"][row]}
        expected.append(json_safe(record))
    return expected


def same_floats(a: Any, b: Any) -> bool:
    """Equal, floats bit for bit (``0.1 + 0.2`` is not ``0.3``; None is not NaN)."""
    if isinstance(a, float) or isinstance(b, float):
        return type(a) is type(b) and a.hex() == b.hex()
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same_floats(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(same_floats, a, b))
    return a == b


# ------------------------------------------------------------------ without Ray


def test_batch_scorer_writes_one_process_scores_bit_for_bit():
    import pyarrow as pa
    from halluscope.ray.batches import BatchScorer, Columns, record

    rows = example_rows()
    table = pa.Table.from_pylist(rows)
    columns = Columns(reference="reference", publication_date="publication_date", id="line")
    scored = BatchScorer(("chi", "ehi"), {}, columns, return_details=True)(table.slice(0, 7))
    scored = pa.concat_tables(
        [scored, BatchScorer(("chi", "ehi"), {}, columns, return_details=True)(table.slice(7))]
    )  # two batches, as two actors would score them
    assert scored.column_names == [*rows[0], "scores", "labels", "details"]
    got = [record(row) for row in scored.to_pylist()]
    expected = one_process_records(rows, details=True)
    for row, (mine, theirs) in enumerate(zip(got, expected, strict=True)):
        assert {k: mine[k] for k in rows[0]} == rows[row]  # the input columns pass through
        assert same_floats({k: mine[k] for k in ("scores", "labels", "details")}, theirs), row
    qhi = [r["scores"]["chi"]["qhi"] for r in got]
    assert None in qhi and not any(isinstance(v, float) and math.isnan(v) for v in qhi)  # undefined: null


def test_a_bad_row_is_an_error_naming_its_id_and_field():
    import pyarrow as pa
    from halluscope.ray.batches import BatchScorer, Columns

    rows = example_rows()[:3]
    rows[1]["prediction"] = None  # Arrow holds a null, never a mixed column
    scorer = BatchScorer(("ehi",), {}, Columns(id="line"))
    with pytest.raises(InputError, match=r"^the row with line=1: .*") as caught:
        scorer(pa.Table.from_pylist(rows))
    assert caught.value.field == "predictions"
    unnamed = BatchScorer(("ehi",), {}, Columns())
    with pytest.raises(InputError, match=r"^row 1 of a batch of 3 rows \(pass id_column="):
        unnamed(pa.Table.from_pylist(rows))
    with pytest.raises(InputError, match=r"no column 'summary' \(its columns: line, id, prediction, source"):
        BatchScorer(("ehi",), {}, Columns(prediction="summary"))(pa.Table.from_pylist(rows))


@pytest.mark.parametrize(
    "kwargs, option, says",
    [
        ({"options": {"chi": {"formula": "nonsense"}}}, "formula", "formula"),
        ({"options": {"chi": {"workers": 2}}}, "workers", "use actors="),
        ({"options": {"qhi": {}}}, "options", "not among the metrics"),
        ({"max_restarts": -1}, "max_restarts", "for ever"),
        ({"max_task_retries": 1.5}, "max_task_retries", "integer >= 0"),
        ({"actors": 0}, "actors", "positive integer"),
        ({"actors": (2, 1)}, "actors", "integer >= 2"),
        ({"batch_size": 0}, "batch_size", "integer >= 1"),
    ],
)
def test_options_are_checked_before_ray_is_touched(kwargs, option, says):
    from halluscope.ray import score_dataset

    with pytest.raises(OptionError, match=says) as caught:
        score_dataset(None, "chi", **kwargs)  # no dataset, no Ray: the check comes first
    assert caught.value.option == option


def test_source_groups_are_one_hash_in_every_process_and_boundaries_cut_the_range_evenly():
    import pyarrow as pa
    from halluscope.ray.batches import GROUP_COLUMN, GROUP_RANGE, add_source_groups, group_boundaries, source_group

    assert GROUP_RANGE == 2**63
    assert group_boundaries(4) == [2**61, 2**62, 3 * 2**61]
    assert group_boundaries(1) == []
    texts = ["Police arrested Thomas in Leeds.", "Police arrested Thomas in York.", ""]
    # Python's own hash() is salted per process; the groups must not be
    elsewhere = subprocess.run(
        [
            sys.executable,
            "-c",
            f"from halluscope.ray.batches import source_group; print([source_group(t) for t in {texts!r}])",
        ],
        env={**os.environ, "PYTHONHASHSEED": "12345"},
        capture_output=True,
        text=True,
        check=True,
    )
    groups = [source_group(text) for text in texts]
    assert elsewhere.stdout.strip() == str(groups)
    assert len(set(groups)) == 3 and all(0 <= group < GROUP_RANGE for group in groups)
    assert source_group(None) == source_group("")
    table = add_source_groups(pa.table({"source": [texts[1], texts[0], texts[1]], "line": [0, 1, 2]}), "source")
    assert table.column_names == ["source", "line", GROUP_COLUMN]
    assert table.schema.field(GROUP_COLUMN).type == pa.int64()
    assert table.column(GROUP_COLUMN).to_pylist() == [groups[1], groups[0], groups[1]]


def test_the_actor_drops_the_group_column_and_reports_its_batches():
    import pyarrow as pa
    from halluscope.ray.batches import BATCH_STATS_COLUMN, GROUP_COLUMN, BatchScorer, Columns, add_source_groups

    rows = example_rows()[:5]
    table = add_source_groups(pa.Table.from_pylist(rows), "source")
    scorer = BatchScorer(("ehi",), {}, Columns(id="line", group=GROUP_COLUMN), batch_stats=True)
    first, second = scorer(table.slice(0, 3)), scorer(table.slice(3))
    assert first.column_names == [*rows[0], "scores", "labels", BATCH_STATS_COLUMN]
    stats = [json.loads(batch.column(BATCH_STATS_COLUMN)[0].as_py()) for batch in (first, second)]
    assert [(s["index"], s["rows"], s["sources"]) for s in stats] == [
        (0, 3, len({r["source"] for r in rows[:3]})),
        (1, 2, len({r["source"] for r in rows[3:]})),
    ]
    assert stats[0]["actor"] == stats[1]["actor"] == f"{socket.gethostname()}:{os.getpid()}"
    assert stats[0]["load_seconds"] == stats[1]["load_seconds"] > 0 and all(s["seconds"] > 0 for s in stats)
    assert stats[1]["peak_rss_mb"] >= stats[0]["peak_rss_mb"] > 0
    for batch in (first, second):  # every row of a batch carries the same statistics
        assert len(set(batch.column(BATCH_STATS_COLUMN).to_pylist())) == 1


# ------------------------------------------------------------------ real Ray


needs_namespace = pytest.mark.skipif(bool(namespace_problem()), reason=namespace_problem() or "-")


def start_driver(job: dict[str, Any], folder: Path) -> subprocess.Popen:
    """``tests/ray_driver.py`` on ``job``, in a new network and PID namespace."""
    job = {"temp_dir": str(folder / "r"), "output": str(folder / "out.jsonl"), **job}
    (folder / "job.json").write_text(json.dumps(job), encoding="utf-8")
    return start_in_namespace([sys.executable, str(DRIVER), str(folder / "job.json")])


def communicate_within(process: subprocess.Popen, timeout: float, what: str) -> tuple[str, str | None]:
    """A namespaced process's stdout and stderr once it ends; after ``timeout`` seconds it
    is killed with everything in its namespace and the test fails, quoting ``what``."""
    try:
        return communicate_or_kill(process, timeout)
    except subprocess.TimeoutExpired as expired:
        pytest.fail(f"{what} did not end in {timeout} s:\n{(expired.stderr or expired.output)[-3000:]}")


def finish(process: subprocess.Popen, timeout: float) -> str:
    """The driver's output once it ends (stderr joined to it)."""
    out, _ = communicate_within(process, timeout, "the Ray run")
    assert process.returncode == 0, out[-3000:]
    return out


def read_records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def check_every_line_once(got: list[dict[str, Any]], rows: list[dict[str, Any]], details: bool) -> None:
    lines = sorted(record["line"] for record in got)
    assert lines == list(range(len(rows))), "every input line exactly once"
    expected = one_process_records(rows, details)
    for record in got:
        mine = {key: record[key] for key in expected[record["line"]]}
        assert same_floats(mine, expected[record["line"]]), record["line"]
        assert {key: record[key] for key in rows[0]} == rows[record["line"]]


@pytest.mark.slow
@needs_namespace
def test_local_ray_scores_every_row_once_as_one_process_does():
    """Local Ray on 2 CPUs with the default pool (1 actor here: reading and writing keep
    a CPU), details on, rows sorted by source first: the records equal one process's."""
    folder = short_folder()
    rows = example_rows(copies=3)
    kwargs = {
        "metrics": ["chi", "ehi"],
        "reference_column": "reference",
        "id_column": "line",
        "publication_date_column": "publication_date",
        "return_details": True,
        "batch_size": 8,
        "group_by_source": True,
    }
    driver = start_driver({"rows": rows, "num_cpus": 2, "kwargs": kwargs}, folder)
    finish(driver, timeout=150)
    check_every_line_once(read_records(folder / "out.jsonl"), rows, details=True)


def _actors_of(process: subprocess.Popen) -> list[Any]:
    import psutil

    return [
        child
        for child in psutil.Process(process.pid).children(recursive=True)
        if "BatchScorer" in " ".join(child.cmdline())
    ]


@pytest.mark.slow
@needs_namespace
def test_an_actor_killed_mid_run_loses_and_repeats_no_row():
    """``kill -9`` of one of two actors after the first rows are out: Ray restarts it
    and retries its batches (finitely); every line comes back once, as scored alone."""
    folder = short_folder()
    rows = example_rows(copies=8)
    kwargs = {
        "metrics": ["chi", "ehi"],
        "reference_column": "reference",
        "id_column": "line",
        "publication_date_column": "publication_date",
        "actors": 2,
        "num_cpus": 0.5,
        "batch_size": 8,
    }
    driver = start_driver({"rows": rows, "num_cpus": 2, "blocks": 16, "kwargs": kwargs}, folder)
    output, killed = folder / "out.jsonl", None
    deadline = time.monotonic() + 120
    while killed is None and driver.poll() is None and time.monotonic() < deadline:
        written = output.exists() and output.read_text(encoding="utf-8").count("\n")
        actors = _actors_of(driver)
        if written and len(actors) == 2:
            killed = (actors[0].pid, written)
            actors[0].kill()  # SIGKILL
        time.sleep(0.2)
    assert killed is not None, "no actor was found to kill while the run was going"
    assert not (folder / "out.jsonl.done").exists() and killed[1] < len(rows), "killed after the run ended"
    finish(driver, timeout=150)
    check_every_line_once(read_records(output), rows, details=False)


#: loaded by every Python process of the namespace (PYTHONPATH): an actor whose batch
#: holds the prediction $HALLUSCOPE_TEST_KILL_ON dies at once (os._exit), as an actor
#: killed by the kernel for its memory would, and notes it in $HALLUSCOPE_TEST_KILLS
KILLER = """import os
if os.environ.get("HALLUSCOPE_TEST_KILL_ON"):
    from halluscope.ray import batches
    scored = batches.BatchScorer.__call__

    def call(self, table):
        if os.environ["HALLUSCOPE_TEST_KILL_ON"] in table.column(self.columns.prediction).to_pylist():
            with open(os.environ["HALLUSCOPE_TEST_KILLS"], "a") as kills:
                kills.write(f"{os.getpid()}\\n")
            os._exit(9)
        return scored(self, table)

    batches.BatchScorer.__call__ = call
"""


@pytest.mark.slow
@needs_namespace
def test_a_row_that_kills_its_actor_every_time_ends_the_run_with_an_error(monkeypatch):
    """Ray Data 2.60 restarts actors and retries tasks for ever by default; with
    score_dataset's finite counts (1 and 1 here) the run fails instead of hanging."""
    folder = short_folder()
    (folder / "site").mkdir()
    (folder / "site" / "sitecustomize.py").write_text(KILLER, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", f"{folder / 'site'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    monkeypatch.setenv("HALLUSCOPE_TEST_KILL_ON", "POISON")
    monkeypatch.setenv("HALLUSCOPE_TEST_KILLS", str(folder / "kills"))
    rows = example_rows()
    rows[5]["prediction"] = "POISON"
    kwargs = {
        "metrics": ["ehi"],
        "id_column": "line",
        "actors": 1,
        "batch_size": 4,
        "max_restarts": 1,
        "max_task_retries": 1,
    }
    driver = start_driver({"rows": rows, "num_cpus": 2, "kwargs": kwargs}, folder)
    started = time.monotonic()
    try:
        out, _ = driver.communicate(timeout=150)
    except subprocess.TimeoutExpired:
        os.killpg(driver.pid, signal.SIGKILL)
        driver.communicate()
        pytest.fail("a row that kills its actor every time made the run hang")
    kills = (folder / "kills").read_text(encoding="utf-8").split()
    assert driver.returncode != 0, out[-3000:]
    assert "ray.exceptions.ActorDiedError" in out, out[-3000:]
    assert 2 <= len(kills) <= 4, kills  # first try, then the retry (on the restarted actor)
    said = [line for line in out.splitlines() if "Error" in line][-1:]
    print(f"run failed after {time.monotonic() - started:.0f} s and {len(kills)} actor deaths: {said}")


def interleaved_rows(sources: int = 6, per_source: int = 4) -> list[dict[str, Any]]:
    """``sources * per_source`` rows whose sources take turns (row i holds source
    i % sources), so that no two neighbours share one: the shipped examples' distinct
    sources, each with ``per_source`` of the examples' predictions."""
    examples = load_examples()
    distinct = list(dict.fromkeys(example["source"] for example in examples))[:sources]
    assert len(distinct) == sources
    return [
        {"line": line, "prediction": examples[line % len(examples)]["prediction"], "source": distinct[line % sources]}
        for line in range(sources * per_source)
    ]


@pytest.mark.slow
@needs_namespace
def test_grouping_by_source_puts_each_source_in_one_batch_of_one_actor():
    """Rows whose sources take turns, 3 to a block, batches of 4: ungrouped, a batch
    would hold 4 sources. ``group_by_source`` sorts them by a hash of their source into
    8 blocks, a source's 4 rows in one block, side by side; Ray bundles blocks up to the
    batch size, so each batch the actors report holds exactly one source's 4 rows. The
    records still equal one process's."""
    folder = short_folder()
    rows = interleaved_rows()
    kwargs = {"metrics": ["ehi"], "id_column": "line", "actors": 2, "num_cpus": 0.5, "batch_size": 4}
    kwargs.update(batch_stats=True, group_by_source=True)
    driver = start_driver({"rows": rows, "num_cpus": 2, "blocks": 8, "kwargs": kwargs}, folder)
    finish(driver, timeout=150)
    got = read_records(folder / "out.jsonl")
    assert sorted(record["line"] for record in got) == list(range(len(rows)))
    assert all(GROUP_COLUMN not in record for record in got)
    batches: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for record in got:
        stats = json.loads(record[BATCH_STATS_COLUMN])
        batches.setdefault((stats["actor"], stats["index"]), []).append(record)
        assert (stats["rows"], stats["sources"]) == (4, 1), stats
    assert len(batches) == 6
    assert sorted(sorted(record["line"] for record in batch) for batch in batches.values()) == [
        [source, source + 6, source + 12, source + 18] for source in range(6)
    ]
    predictions, sources = [row["prediction"] for row in rows], [row["source"] for row in rows]
    alone = score_ehi(predictions, sources)["ehi_scores"]
    for record in got:
        assert same_floats(record["scores"], {"ehi": {"ehi": json_safe(alone[record["line"]])}}), record["line"]
