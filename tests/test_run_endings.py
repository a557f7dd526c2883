"""Every way a run with workers can end ends it cleanly (issue 57, class 1): real
``halluscope score --workers 2`` processes killed with ``kill -9``, SIGTERM, SIGINT to the
process group (a terminal's Ctrl-C) and to the parent alone, and a signal while the
models load; an error and Ctrl-C in an API call with workers. No worker outlives its
parent by more than 5 s, the command exits within 5 s, the lock is free (taken over
after ``kill -9``, with a line saying so) and ``--resume`` gives the uninterrupted
records (docs/cli.md#how-a-run-with-workers-ends)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from halluscope.cli.output_paths import OutputLock
from halluscope.results import ScoreResult
from halluscope.workers import score_in_workers

pytestmark = pytest.mark.slow

HALLUSCOPE = os.path.join(os.path.dirname(sys.executable), "halluscope")
#: the most seconds a worker may outlive its parent, and the command its signal
LIMIT_S = 5.0
ROWS = 64
CHUNK = 4
RUN = ["--workers", "2", "--chunk-size", str(CHUNK), "--reference-field", "reference", "--no-progress"]


def _rows() -> list:
    """Rows whose sources all differ (every row is parsed: nothing comes from a cache)."""
    rows = []
    for k in range(ROWS):
        source = (
            f"Microsoft acquired the startup GitHub in {1990 + k % 30}. The deal was worth ${k + 2} "
            f"billion, said analyst number {k}. Shares of the company rose {k % 9 + 1}% on the news."
        )
        rows.append(
            {
                "id": f"row-{k}",
                "source": source,
                "reference": f"Microsoft bought GitHub for ${k + 2} billion.",
                "prediction": f"Microsoft bought GitHub for ${k + 3} billion in {1990 + k % 30}.",
            }
        )
    return rows


def _read(path) -> list:
    """The complete records of a file (a last line cut short by ``kill -9`` is not one)."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.endswith("\n")]


def _state(pid: int) -> str:
    """The state letter of ``pid`` in /proc ("" when there is no such process)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


def _children(pid: int) -> list:
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as handle:
                    if int(handle.read().rsplit(")", 1)[1].split()[1]) == pid:
                        kids.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    return kids


def _gone_within(pids, seconds: float) -> bool:
    """Whether every process of ``pids`` has ended (or is a zombie) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(_state(pid) in ("", "Z") for pid in pids):
            return True
        time.sleep(0.05)
    return all(_state(pid) in ("", "Z") for pid in pids)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("endings")
    path = folder / "corpus.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in _rows()), encoding="utf-8")
    whole = folder / "whole.jsonl"
    done = subprocess.run(
        [HALLUSCOPE, "score", "--input", str(path), "--output", str(whole), *RUN],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    return {"folder": folder, "input": str(path), "records": _read(whole)}


def _start_and_catch_workers(corpus, name):
    """The command on the corpus, in a session of its own, caught while it has workers
    and at least one chunk written; returns the process, its output and its workers."""
    output = str(corpus["folder"] / f"{name}.jsonl")
    command = [HALLUSCOPE, "score", "--input", corpus["input"], "--output", output, *RUN]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    deadline = time.monotonic() + 600
    workers = []
    while time.monotonic() < deadline and process.poll() is None:
        if os.path.exists(output + ".partial") and len(open(output + ".partial").readlines()) >= CHUNK:
            workers = _children(process.pid)
            if len(workers) >= 2:
                break
        time.sleep(0.01)
    assert process.poll() is None and len(workers) >= 2, "the run ended before it could be caught with workers"
    return process, command, output, workers


ENDINGS = {
    "kill -9 of the parent": lambda process: os.kill(process.pid, signal.SIGKILL),
    "SIGTERM": lambda process: os.kill(process.pid, signal.SIGTERM),
    "Ctrl-C (SIGINT to the process group)": lambda process: os.killpg(process.pid, signal.SIGINT),
    "SIGINT to the parent alone": lambda process: os.kill(process.pid, signal.SIGINT),
}


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_a_run_with_workers_ends_cleanly_and_resumes_to_the_same_records(ending, corpus):
    process, command, output, workers = _start_and_catch_workers(corpus, ending.split()[0].strip("-").lower())
    signalled = time.monotonic()
    ENDINGS[ending](process)
    try:
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    ended = time.monotonic() - signalled
    assert _gone_within(workers, LIMIT_S), [(pid, _state(pid)) for pid in workers]
    killed = ending.startswith("kill -9")
    if killed:
        assert process.returncode == -signal.SIGKILL
    else:
        assert ended <= LIMIT_S, (ending, ended)
        assert process.returncode == 130, stderr
        assert stderr.splitlines()[-1].startswith("interrupted: ") and "Traceback" not in stderr, stderr
        assert not os.path.exists(output + ".lock")  # released and removed
    partial = _read(output + ".partial")
    assert CHUNK <= len(partial) < ROWS and partial == corpus["records"][: len(partial)]
    if ending == "SIGINT to the parent alone":  # workers change no score: a resume may change them
        command = [
            # strict=False: each part with the one before it
            ("1" if previous == "--workers" else part)
            for previous, part in zip([""] + command, command, strict=False)
        ]
    resumed = subprocess.run(command + ["--resume"], capture_output=True, text=True, timeout=900)
    assert resumed.returncode == 0, resumed.stderr
    took_over = [line for line in resumed.stderr.splitlines() if line.startswith("note: taking over")]
    assert took_over == (
        [f"note: taking over {output}.lock, left by a run that ended without releasing it (pid {process.pid})"]
        if killed
        else []
    )
    assert _read(output) == corpus["records"]


def test_a_signal_while_the_models_load_is_one_line(corpus):
    """SIGTERM once the run holds its output and loads its models: "interrupted", exit
    130, no "Exception ignored ... Traceback" block."""
    output = str(corpus["folder"] / "loading.jsonl")
    process = subprocess.Popen(
        [HALLUSCOPE, "score", "--input", corpus["input"], "--output", output, *RUN],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 300
    while not os.path.exists(output + ".lock") and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(process.pid, signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr
    assert stderr.splitlines()[-1].startswith("interrupted")
    assert not os.path.exists(output + ".lock")


def test_workers_beyond_the_cores_are_capped_with_one_line(corpus, tmp_path):
    from halluscope.workers import available_cores

    cores = available_cores()
    done = subprocess.run(
        [
            HALLUSCOPE,
            "score",
            "--input",
            corpus["input"],
            "--output",
            str(tmp_path / "o.jsonl"),
            "--limit",
            "3",
            *RUN,
            "--workers",
            str(cores + 62),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert (
        f"note: --workers {cores + 62} is more than the {cores} usable cores; {cores} processes score"
        in done.stderr.splitlines()
    )
    assert _read(tmp_path / "o.jsonl") == corpus["records"][:3]


# -- the API: an error in one worker, Ctrl-C in the caller ---------------------------------


def fail_first_shard_sleep_in_others(predictions, sources, references=None, publication_dates=None, resources=None):
    """A stand-in scorer (module level: workers receive it by name): the shard that
    starts with "fail" raises, every other one sleeps for a minute."""
    if predictions[0] == "fail":
        raise ValueError("this shard cannot be scored")
    time.sleep(60)
    return ScoreResult(metric="x", per_example={"x": [0.0] * len(predictions)}, signature="s")


COLUMNS = {
    "predictions": ["fail"] + ["sleep"] * 15,
    "sources": [f"s{k}" for k in range(16)],
    "references": None,
    "publication_dates": None,
}


def test_an_error_in_a_worker_stops_the_others_at_once():
    before = set(_children(os.getpid()))  # the test process's other children (servers, earlier tests)
    started = time.monotonic()
    with pytest.raises(RuntimeError, match=r"scoring failed in a worker \(rows 0-1\): ValueError: this shard"):
        score_in_workers(fail_first_shard_sleep_in_others, 2, COLUMNS, {}, None, loaded=True)
    assert time.monotonic() - started < LIMIT_S
    assert _new_children_alive(before) == []


def test_ctrl_c_in_the_caller_stops_its_workers_at_once():
    columns = dict(COLUMNS, predictions=["sleep"] * 16)
    # Ctrl-C as a user's process has it (Python's default handler), whatever handler an
    # earlier test in this process left in force
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    before = set(_children(os.getpid()))
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            score_in_workers(fail_first_shard_sleep_in_others, 2, columns, {}, None, loaded=True)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - started < 1.0 + LIMIT_S
    assert _new_children_alive(before) == []


def _new_children_alive(before: set) -> list:
    """This process's children that were not there before the call and still run (the
    call waits for its killed workers, so none should)."""
    return [pid for pid in set(_children(os.getpid())) - before if _state(pid) not in ("", "Z")]


def test_a_lock_left_by_a_killed_run_is_taken_over_with_a_line(tmp_path, capsys):
    output = str(tmp_path / "scores.jsonl")
    with open(output + ".lock", "w", encoding="ascii") as handle:
        handle.write("4242\n")  # what a run killed with kill -9 leaves: its file, no holder
    with OutputLock(output, sys.stderr):
        with open(output + ".lock", encoding="ascii") as handle:
            assert handle.read() == f"{os.getpid()}\n"
    assert capsys.readouterr().err == (
        f"note: taking over {output}.lock, left by a run that ended without releasing it (pid 4242)\n"
    )
    assert not os.path.exists(output + ".lock")
    with OutputLock(output, sys.stderr):  # a lock file that is not there: nothing to say
        pass
    assert capsys.readouterr().err == ""
