"""Chi's verdict: ``p_consistent``, a calibrated probability that a summary is consistent
with its source, and the shipped 0/1 ``labels`` cut on it
(docs/benchmarks.md#p_consistent-and-the-shipped-labels).

p_consistent = sigmoid(b0 + b1 chi), chi the summary's CHI: a strictly increasing map of
chi, so the labels are a cut on chi and p ranks the summaries exactly as chi does. (By
leave-one-dataset-out, chi's logit as the input calibrated worse, ECE 0.18 against
0.06, and clipping it tied the many scores near 1; the word-level support w as a second
input took a weight of about 0: both left out.) The coefficients and the cut were fitted
by ``benchmarks/calibrate.py`` on the design half of the validation folds (six SummaC
files, FRANK's CNN/DM and BBC parts), each fold and, within it, each label weighing the
same: p is calibrated for even odds in every dataset (the prior a balanced accuracy
assumes), not for any one dataset's share of consistent summaries. They are stored in
``halluscope/data/p_consistent.json`` with how they were fitted and measured.

A calibration holds only for the scores it was fitted on: it names the signature of
those chi scores (:attr:`Calibration.signature`, without the package version), and a
call whose chi signature differs (another formula, model or any option that changes a
score) gets no ``p_consistent`` and no labels: the result leaves both out and says why
in ``p_consistent_reason`` (:attr:`Verdict.reason`; a probability is never NaN), and one
warning names the options that differ (docs/api.md#when-p_consistent-is-absent). The
sentence encoder's precision is the one exception (:data:`SAME_SCORES_AT`): bfloat16
changed no chi score of the rows the calibration was fitted on. The labels are
``p_consistent >= threshold`` (default: the shipped cut, :attr:`Calibration.cut`;
``threshold=None``: no labels).
"""
from __future__ import annotations

import functools
import json
import logging
import math
import os
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

from .signature_text import number

LOGGER = logging.getLogger("halluscope")

#: the package's calibration file
CALIBRATION_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "p_consistent.json")


@dataclass(frozen=True)
class Calibration:
    """A fitted p_consistent model: its ``version`` (in the signature of the scores it
    gives), coefficients, the shipped ``cut`` and the chi ``signature`` it holds for
    (without the ``halluscope:<version>`` field)."""

    version: str
    intercept: float
    slope: float
    cut: float
    signature: str


def load_calibration(path: Optional[str] = None) -> Calibration:
    """The calibration stored at ``path`` (None: the package's, read once)."""
    if path is None:
        return _shipped()
    with open(path) as handle:
        record = json.load(handle)
    coefficients = record["coefficients"]
    return Calibration(record["version"], float(coefficients["intercept"]), float(coefficients["chi"]),
                       float(record["cut"]), record["signature"])


@functools.lru_cache(maxsize=1)
def _shipped() -> Calibration:
    return load_calibration(CALIBRATION_FILE)


def model_inputs(chi: float) -> List[float]:
    """The model's inputs: [chi]."""
    return [chi]


def p_consistent(chi: float, calibration: Optional[Calibration] = None) -> float:
    """The calibrated probability that the summary is consistent; a ``ValueError`` for an
    undefined (NaN) chi, which has no probability (the calibrated options define chi on
    every row)."""
    calibration = _shipped() if calibration is None else calibration
    if math.isnan(chi):
        raise ValueError("chi is undefined (NaN): it has no p_consistent")
    z = calibration.intercept + calibration.slope * model_inputs(chi)[0]
    return 1.0 / (1.0 + math.exp(-z))


#: the signature fields the verdict adds to chi's: the calibration's version, the cut
VERDICT_FIELDS = ("cal", "cut")


def unversioned(signature: str) -> str:
    """A signature without its ``halluscope:<version>`` field."""
    return "|".join(part for part in signature.split("|") if not part.startswith("halluscope:"))


def scored_signature(signature: str) -> str:
    """A signature without the verdict's own fields (:data:`VERDICT_FIELDS`): that of the
    scores the verdict is computed from."""
    return "|".join(part for part in signature.split("|") if part.split(":", 1)[0] not in VERDICT_FIELDS)


def signature_parts(threshold: Optional[float], calibration: Optional[Calibration] = None) -> List[str]:
    """The verdict's signature fields: the calibration's version, and the cut of the labels
    in full (``cut:0.5989``; ``cut:none`` without labels): two cuts that label any
    summary differently never share a signature (docs/api.md#signatures)."""
    calibration = _shipped() if calibration is None else calibration
    return [f"cal:{calibration.version}", "cut:none" if threshold is None else f"cut:{number(threshold)}"]


def differing_fields(signature: str, calibration: Optional[Calibration] = None) -> List[str]:
    """The fields of a chi ``signature`` that differ from those the calibration was
    fitted under (empty: it holds)."""
    calibration = _shipped() if calibration is None else calibration
    mine, fitted = _fields(scored_signature(unversioned(signature))), _fields(calibration.signature)
    return sorted(name for name in set(mine) | set(fitted) if mine.get(name) != fitted.get(name))


#: encoder precisions (the ``enc`` field's suffix) at which a calibration fitted on
#: float32 scores still holds: in bfloat16 no chi score of the design half of the
#: validation folds changed (0 of 3,147; docs/scaling.md#encoder-precision)
SAME_SCORES_AT = ("@bf16",)


def _fields(signature: str) -> Dict[str, str]:
    """A signature's fields by name ("formula:support" -> {"formula": "support"}), the
    ``enc`` field without a precision of :data:`SAME_SCORES_AT`."""
    fields = dict(part.split(":", 1) for part in signature.split("|") if ":" in part)
    for suffix in SAME_SCORES_AT:
        if fields.get("enc", "").endswith(suffix):
            fields["enc"] = fields["enc"][:-len(suffix)]
    return fields


#: the options each signature field of chi spells (what a user changes to change it)
FIELD_OPTIONS: Dict[str, str] = {
    "spacy": "spacy_model", "case": "truecase", "formula": "formula", "norm": "normalize",
    "ground": "grounding", "attr": "attribution", "ent": "entity_synonyms, or formula",
    "rhi": "variant", "rel": "relation_matching", "slots": "relation_slots", "pairs": "intransitive",
    "wn": "wordnet, or formula", "sim": "similarity_threshold", "enc": "sentence_model, encoder_dtype",
    "qty": "epsilon, derived, temporal", "fusion": "weights", "w": "weights",
    "lex": "lexical_weight, or formula", "lexidx": "lexical_weight, or formula",
}


def _named(fields: Sequence[str]) -> str:
    """Signature fields with the options that set them: ``w (weights), sim (similarity_threshold)``."""
    return ", ".join(f"{name} ({FIELD_OPTIONS[name]})" if name in FIELD_OPTIONS else name for name in fields)


def absent_reason(fields: Sequence[str]) -> str:
    """Why a call whose chi signature differs in ``fields`` has no p_consistent: the
    text of ``p_consistent_reason`` and of the warning."""
    return ("p_consistent is calibrated for chi's default scores; this call's differ in "
            f"{_named(fields)}, so p_consistent and the labels are left out "
            "(docs/api.md#when-p_consistent-is-absent)")


@dataclass(frozen=True)
class Verdict:
    """chi's verdict on a call's rows: ``p`` one probability per row and ``labels`` the
    0/1 cut on it (None at ``threshold=None``), or, where the calibration does not hold
    for the call's options, ``p`` and ``labels`` None and ``reason`` saying why."""

    p: Optional[List[float]]
    labels: Optional[List[int]]
    reason: Optional[str] = None


@functools.lru_cache(maxsize=64)
def _warn_once(reason: str) -> None:
    LOGGER.warning("%s", reason)


def verdict(chi: Sequence[float], signature: str, threshold: Optional[float]) -> Verdict:
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
        raise ValueError(f"chi is undefined in rows {undefined[:10]} under the options p_consistent is "
                         "calibrated for; it has no probability there")
    p = [p_consistent(c) for c in chi]
    return Verdict(p, None if threshold is None else [int(value >= threshold) for value in p])
