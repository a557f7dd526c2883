"""Chi's verdict: ``p_consistent``, a calibrated probability that a summary is consistent
with its source, and the shipped 0/1 ``labels``, ``p_consistent >= 0.5``
(docs/benchmarks.md#p_consistent-and-the-shipped-labels).

p_consistent is a monotone calibration of chi whose shape follows the data: an isotonic
regression of "consistent" on chi, centred (each step of the fit replaced by one knot at
its rows' weighted mean chi) and interpolated linearly between the knots, so that p is a
strictly increasing map of chi on [0, 1] and ranks the summaries exactly as chi does.
It was fitted by ``benchmarks/calibrate.py`` on the design half of the validation folds
(six SummaC files, FRANK's CNN/DM and BBC parts), each fold and, within it, each label
weighing the same: p is calibrated for even odds in every dataset (the prior a balanced
accuracy assumes), not for any one dataset's share of consistent summaries. At even odds
the cut that maximises the mean balanced accuracy is p = 0.5, and the fit puts a knot at
(the lowest chi the isotonic fit calls consistent, 0.5): ``label = p >= 0.5`` by
construction, the verdict never contradicts its own probability. The knots are stored in
``halluscope/data/p_consistent.json`` with how, at which commit and on which scores they
were fitted (``fingerprint``: tests/test_calibration_fingerprint.py fails when today's
code no longer reproduces those scores; a refit is then required).

A calibration holds only for the scores it was fitted on: it names the signature of
those chi scores (:attr:`Calibration.signature`, without the package version), and a
call whose chi signature differs (another formula, model or any option that changes a
score) gets no ``p_consistent`` and no labels: the result leaves both out and says why
in ``p_consistent_reason`` (:attr:`Verdict.reason`; a probability is never NaN), and one
warning names the options that differ (docs/api.md#when-p_consistent-is-absent). The
sentence encoder's precision is the one exception (:data:`SAME_SCORES_AT`): bfloat16
changed no chi score of the rows the calibration was fitted on. The labels are
``p_consistent >= threshold`` (default: the shipped cut, :attr:`Calibration.cut`, 0.5;
``threshold=None``: no labels).
"""

from __future__ import annotations

import functools
import json
import logging
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .dimension_registry import names as dimension_names
from .signature_table import chi_family_table
from .signature_text import PRECISION_ABBREVIATIONS, Field, number, read_fields

LOGGER = logging.getLogger("halluscope")

#: the package's calibration file
CALIBRATION_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "p_consistent.json")


@dataclass(frozen=True)
class Calibration:
    """A fitted p_consistent model: its ``version`` (in the signature of the scores it
    gives), its knots (``knots_chi`` strictly increasing from 0 to 1, ``knots_p`` the
    probabilities there, strictly increasing: p is their linear interpolation), the
    shipped ``cut`` (0.5) and the chi ``signature`` it holds for (without the
    ``halluscope:<version>`` field)."""

    version: str
    knots_chi: tuple[float, ...]
    knots_p: tuple[float, ...]
    cut: float
    signature: str

    def __post_init__(self) -> None:
        chi, p = np.asarray(self.knots_chi, dtype=float), np.asarray(self.knots_p, dtype=float)
        if len(chi) < 2 or len(chi) != len(p):
            raise ValueError(
                f"calibration {self.version}: knots_chi and knots_p need the same length, "
                f"at least 2 (got {len(chi)} and {len(p)})"
            )
        if chi[0] != 0.0 or chi[-1] != 1.0 or not (np.all(np.diff(chi) > 0) and np.all(np.diff(p) > 0)):
            raise ValueError(
                f"calibration {self.version}: knots must run strictly increasing from chi 0 to 1, "
                "their p strictly increasing (p ranks as chi does)"
            )
        if p[0] < 0.0 or p[-1] > 1.0:
            raise ValueError(f"calibration {self.version}: knot probabilities outside [0, 1]")


def load_calibration(path: str | None = None) -> Calibration:
    """The calibration stored at ``path`` (None: the package's, read once)."""
    if path is None:
        return _shipped()
    with open(path) as handle:
        record = json.load(handle)
    knots = record["knots"]
    return Calibration(
        record["version"],
        tuple(float(x) for x in knots["chi"]),
        tuple(float(y) for y in knots["p"]),
        float(record["cut"]),
        record["signature"],
    )


@functools.lru_cache(maxsize=1)
def _shipped() -> Calibration:
    return load_calibration(CALIBRATION_FILE)


def p_consistent_of(chi: Sequence[float], calibration: Calibration | None = None) -> list[float]:
    """p_consistent of each chi (:func:`p_consistent`, vectorised); a ``ValueError``
    naming the rows whose chi is undefined (NaN)."""
    calibration = _shipped() if calibration is None else calibration
    values = np.asarray(chi, dtype=float)
    undefined = np.flatnonzero(np.isnan(values))
    if len(undefined):
        raise ValueError(f"chi is undefined (NaN) in rows {undefined[:10].tolist()}: it has no p_consistent")
    return np.interp(values, calibration.knots_chi, calibration.knots_p).tolist()


def p_consistent(chi: float, calibration: Calibration | None = None) -> float:
    """The calibrated probability that the summary is consistent: the knots' linear
    interpolation at ``chi``; a ``ValueError`` for an undefined (NaN) chi, which has no
    probability (the calibrated options define chi on every row)."""
    if math.isnan(chi):
        raise ValueError("chi is undefined (NaN): it has no p_consistent")
    return p_consistent_of([chi], calibration)[0]


#: the verdict's rows of chi's signature table (docs/architecture.md#the-signature-table):
#: the calibration's version, and the cut of the labels in full (``cut:0.5``;
#: ``cut:none`` without labels): two cuts that label any summary differently never
#: share a signature (docs/api.md#signatures)
VERDICT_FIELDS: tuple[Field, ...] = (
    Field("cal", (), lambda call: _shipped().version),
    Field(
        "cut",
        ("threshold",),
        lambda call: "none" if call.options.threshold is None else number(call.options.threshold),
    ),
)


def unversioned(signature: str) -> str:
    """A signature without its ``halluscope:<version>`` field."""
    return "|".join(part for part in signature.split("|") if not part.startswith("halluscope:"))


def scored_signature(signature: str) -> str:
    """A signature without the verdict's own fields (:data:`VERDICT_FIELDS`): that of the
    scores the verdict is computed from."""
    own = {field.abbreviation for field in VERDICT_FIELDS}
    return "|".join(part for part in signature.split("|") if part.split(":", 1)[0] not in own)


def differing_fields(signature: str, calibration: Calibration | None = None) -> list[str]:
    """The fields of a chi ``signature`` that differ from those the calibration was
    fitted under (empty: it holds)."""
    calibration = _shipped() if calibration is None else calibration
    mine, fitted = _fields(scored_signature(unversioned(signature))), _fields(calibration.signature)
    return sorted(name for name in set(mine) | set(fitted) if mine.get(name) != fitted.get(name))


#: encoder precisions (the ``enc`` field's suffix) at which a calibration fitted on
#: float32 scores still holds: in bfloat16 no chi score of the design half of the
#: validation folds changed (0 of 3,147; docs/scaling.md#encoder-precision)
SAME_SCORES_AT = ("@" + PRECISION_ABBREVIATIONS["bfloat16"],)


def _fields(signature: str) -> dict[str, str]:
    """A signature's fields by name ("formula:support" -> {"formula": "support"}), the
    ``enc`` field without a precision of :data:`SAME_SCORES_AT`."""
    fields = read_fields(signature)
    for suffix in SAME_SCORES_AT:
        if fields.get("enc", "").endswith(suffix):
            fields["enc"] = fields["enc"][: -len(suffix)]
    return fields


def calibrated_signature(signature: str) -> str:
    """A chi ``signature`` as a calibration stores the one it holds for: without the
    package version and the verdict's own fields, and the ``enc`` field at float32 when
    its precision is one of :data:`SAME_SCORES_AT` (``benchmarks/calibrate.py``)."""
    fields = _fields(scored_signature(unversioned(signature)))
    return "|".join(f"{name}:{value}" for name, value in fields.items())


def _named(fields: Sequence[str]) -> str:
    """Signature fields with the options that set them, as chi's signature table names
    them (:mod:`halluscope.signature_table`): ``w (weights), sim (similarity_threshold)``."""
    table = chi_family_table(dimension_names(), True, VERDICT_FIELDS)
    named = {field.abbreviation: field.named for field in table if field.named}
    return ", ".join(f"{name} ({named[name]})" if name in named else name for name in fields)


def absent_reason(fields: Sequence[str]) -> str:
    """Why a call whose chi signature differs in ``fields`` has no p_consistent: the
    text of ``p_consistent_reason`` and of the warning."""
    return (
        "p_consistent is calibrated for chi's default scores; this call's differ in "
        f"{_named(fields)}, so p_consistent and the labels are left out "
        "(docs/api.md#when-p_consistent-is-absent)"
    )


@dataclass(frozen=True)
class Verdict:
    """chi's verdict on a call's rows: ``p`` one probability per row and ``labels`` the
    0/1 cut on it (None at ``threshold=None``), or, where the calibration does not hold
    for the call's options, ``p`` and ``labels`` None and ``reason`` saying why."""

    p: list[float] | None
    labels: list[int] | None
    reason: str | None = None


@functools.lru_cache(maxsize=64)
def _warn_once(reason: str) -> None:
    LOGGER.warning("%s", reason)


def verdict(chi: Sequence[float], signature: str, threshold: float | None) -> Verdict:
    """Per row p_consistent, and the labels at ``threshold`` (None: no labels), for chi
    scores of ``signature``; none of them, and the reason, where the calibration does
    not hold for that signature (one warning per reason)."""
    differ = differing_fields(signature)
    if differ:
        reason = absent_reason(differ)
        _warn_once(reason)
        return Verdict(None, None, reason)
    undefined = [row for row, value in enumerate(chi) if math.isnan(value)]
    if undefined:  # cannot happen: formula="support", which the calibration holds for, defines chi everywhere
        raise ValueError(
            f"chi is undefined in rows {undefined[:10]} under the options p_consistent is "
            "calibrated for; it has no probability there"
        )
    p = p_consistent_of(chi)
    return Verdict(p, None if threshold is None else [int(value >= threshold) for value in p])
