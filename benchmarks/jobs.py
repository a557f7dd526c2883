"""The harness's jobs: one labelled file per job, with its test file, whether it is
scored with references, whether the empty-summary check runs on it and its LODO folds,
built from the files of ``python -m benchmarks.harness run``."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmarks._common import SUMMAC_FOLDS, Dataset, dataset_name, fold_indices, fold_name, load_dataset


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


def missing_lodo_files(summac: Sequence[str], frank: str | None) -> list[str]:
    """What ``run --lodo`` lacks of the eight folds: SummaC files by name, and FRANK."""
    present = {dataset_name(p) for p in summac}
    return [f"--summac {name}_val.jsonl" for name in SUMMAC_FOLDS if name not in present] + (
        [] if frank else ["--frank frank_val.jsonl"]
    )
