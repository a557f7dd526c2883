"""The fingerprint of the scores a p_consistent calibration was fitted on: chi, under the
default options, of fixed rows, stored in ``halluscope/data/p_consistent.json`` by
``benchmarks/calibrate.py --write`` and checked by tests/test_calibration_fingerprint.py
(docs/benchmarks.md#refitting-p_consistent).

Two sets of rows: those that ship with the repository (the demo's examples,
``halluscope/data/examples.jsonl``, and both summaries of every case of
``benchmarks/paraphrase_suite.jsonl``), checked wherever the tests run, and the first
:data:`VALIDATION_ROWS_PER_FOLD` rows of every fold of the design half of the validation
data the fit read, checked where that data is (not in a clean clone). A chi that moves by
more than :data:`TOLERANCE` means that today's code no longer gives the scores the
calibration was fitted on: refit (:data:`REFIT`), never a silent drift.

No scikit-learn here: the check runs with the package's own dependencies.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

#: how the calibration is refitted, in one command (the dump is rescored first)
REFIT = (
    "python -m benchmarks.calibrate /tmp/feat-design.jsonl --rescore --write shared/halluscope/data/p_consistent.json"
)
#: validation rows of each fold in the fingerprint (the first ones of the design half)
VALIDATION_ROWS_PER_FOLD = 3
#: the largest change of a chi that is not a drift: scores are bit-identical from run to
#: run on one machine; this leaves room for another machine's float arithmetic only
TOLERANCE = 1e-6


def _chi(predictions: Sequence[str], sources: Sequence[str], references=None, publication_dates=None) -> list[float]:
    from halluscope import score_chi

    return list(
        score_chi(list(predictions), list(sources), references, publication_dates=publication_dates, threshold=None)[
            "chi_scores"
        ]
    )


def shipped_rows_chi() -> dict[str, float]:
    """chi of the rows that ship with the repository, by name: ``examples/<id>`` (with
    their references and dates, as ``make demo`` scores them) and
    ``paraphrase/<case id>/faithful`` and ``.../unfaithful`` (source only)."""
    from halluscope.examples import load_examples

    from benchmarks.paraphrase import load_suite

    examples = load_examples()
    chi = _chi(
        [e["prediction"] for e in examples],
        [e["source"] for e in examples],
        [e["reference"] for e in examples],
        [e.get("publication_date") for e in examples],
    )
    out = {f"examples/{e['id']}": value for e, value in zip(examples, chi, strict=True)}
    cases = load_suite()
    summaries = [(case, side) for case in cases for side in ("faithful", "unfaithful")]
    chi = _chi([getattr(case, side) for case, side in summaries], [case.source for case, _ in summaries])
    out.update({f"paraphrase/{case.id}/{side}": value for (case, side), value in zip(summaries, chi, strict=True)})
    return out


def validation_rows_chi(data: str | None = None) -> dict[str, float]:
    """chi of the first :data:`VALIDATION_ROWS_PER_FOLD` rows of every fold of the design
    half, by name ``<fold>/<row>`` (the row's place in the fold's design half, as in the
    dump); a ``FileNotFoundError`` where the validation data is absent."""
    from benchmarks.studies.fusion_study import folds
    from benchmarks.studies.parse_store import DATA

    out = {}
    for fold, data_set in folds(data or DATA, limit=None, half="design").items():
        n = VALIDATION_ROWS_PER_FOLD
        references = None if data_set.references is None else data_set.references[:n]
        chi = _chi(data_set.predictions[:n], data_set.sources[:n], references)
        out.update({f"{fold}/{row}": value for row, value in enumerate(chi)})
    return out


def drifted(stored: Mapping[str, float], today: Mapping[str, float]) -> list[str]:
    """The names whose chi differs between the fingerprint and today's scores (by more
    than :data:`TOLERANCE`, or defined in one and not the other), and the names only one
    of them has: "<name>: <stored> -> <today>"."""
    out = []
    for name in sorted(set(stored) | set(today)):
        before, after = stored.get(name), today.get(name)
        if before is None or after is None:
            out.append(f"{name}: {before} -> {after}")
        elif math.isnan(before) != math.isnan(after) or abs(before - after) > TOLERANCE:
            out.append(f"{name}: {before!r} -> {after!r}")
    return out


def drift_message(which: str, changes: Sequence[str], commit: str) -> str:
    """What a failing check says: which rows moved, since which commit, and the refit."""
    shown = "; ".join(changes[:8]) + (f"; ... ({len(changes)} in all)" if len(changes) > 8 else "")
    return (
        f"today's code no longer gives the chi scores p_consistent was fitted on (at commit {commit}); "
        f"{which} rows differ: {shown}. Refit the calibration: {REFIT} "
        "(docs/benchmarks.md#refitting-p_consistent)"
    )
