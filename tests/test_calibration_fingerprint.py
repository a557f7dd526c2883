"""The shipped p_consistent calibration holds for today's scores: the chi of the rows it
stores in its fingerprint is still what today's code gives (benchmarks/fingerprint.py;
docs/benchmarks.md#refitting-p_consistent). A change of chi's scores fails here, naming
the refit command: a refit is required, never a silent drift."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess

import pytest
from halluscope.verdict import CALIBRATION_FILE

from benchmarks.fingerprint import REFIT, TOLERANCE, drift_message, drifted, shipped_rows_chi, validation_rows_chi
from benchmarks.studies.parse_store import DATA

with open(CALIBRATION_FILE, encoding="utf-8") as _handle:
    RECORD = json.load(_handle)
STORED = RECORD["fingerprint"]
COMMIT = RECORD["fitted_on"]["commit"]


def test_the_calibration_names_the_commit_it_was_fitted_at_and_its_fingerprint_rows():
    assert re.fullmatch(r"[0-9a-f]{7,40}", COMMIT), COMMIT  # a clean work tree, not "+dirty"
    assert STORED["tolerance"] == TOLERANCE
    # the demo's 16 examples and both summaries of the suite's 72 cases; 3 rows of each of 8 folds
    assert len(STORED["shipped_rows"]) == 16 + 2 * 72
    assert len(STORED["validation_rows"]) == 3 * 8
    assert all(not math.isnan(v) for v in [*STORED["shipped_rows"].values(), *STORED["validation_rows"].values()])


def test_today_s_code_gives_the_chi_of_the_shipped_rows_the_calibration_was_fitted_on():
    changes = drifted(STORED["shipped_rows"], shipped_rows_chi())
    assert not changes, drift_message("shipped", changes, COMMIT)


@pytest.mark.skipif(
    not os.path.isdir(os.path.join(DATA, "summac")),
    reason=f"the validation data ({DATA}) is not here (a clean clone): the shipped rows check alone",
)
def test_today_s_code_gives_the_chi_of_the_validation_rows_the_calibration_was_fitted_on():
    changes = drifted(STORED["validation_rows"], validation_rows_chi())
    assert not changes, drift_message("validation", changes, COMMIT)


def test_a_drift_is_any_chi_that_moved_appeared_or_vanished():
    stored = {"a": 0.5, "b": 0.25, "c": 1.0, "d": 0.0}
    assert drifted(stored, dict(stored)) == []
    assert drifted(stored, {**stored, "a": 0.5 + TOLERANCE / 2}) == []  # another machine's float noise
    assert drifted(stored, {**stored, "a": 0.5 + 2 * TOLERANCE}) == [f"a: 0.5 -> {0.5 + 2 * TOLERANCE!r}"]
    assert drifted(stored, {**stored, "b": math.nan}) == ["b: 0.25 -> nan"]
    assert drifted(stored, {k: v for k, v in stored.items() if k != "c"}) == ["c: 1.0 -> None"]
    assert drifted(stored, {**stored, "e": 0.1}) == ["e: None -> 0.1"]


def test_the_failure_names_the_rows_the_commit_and_the_refit_command():
    said = drift_message("shipped", [f"paraphrase/x/{k}: 0.5 -> 0.4" for k in range(10)], "abc1234")
    assert said.startswith(
        "today's code no longer gives the chi scores p_consistent was fitted on (at commit "
        "abc1234); shipped rows differ: paraphrase/x/0: 0.5 -> 0.4; "
    )
    assert "paraphrase/x/7: 0.5 -> 0.4; ... (10 in all)" in said and "paraphrase/x/8" not in said
    assert f"Refit the calibration: {REFIT} " in said
    assert REFIT == (
        "python -m benchmarks.calibrate /tmp/feat-design.jsonl --rescore "
        "--write shared/halluscope/data/p_consistent.json"
    )


def test_the_commit_is_in_this_repository_s_history():
    """The commit the fit names is one this branch descends from (skipped outside a git clone)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = subprocess.run(["git", "merge-base", "--is-ancestor", COMMIT, "HEAD"], cwd=root, capture_output=True)
    if found.returncode not in (0, 1):
        pytest.skip(f"no git history here ({found.stderr.decode().strip()[:80]})")
    assert found.returncode == 0, f"the calibration's commit {COMMIT} is not an ancestor of HEAD"
