"""Label mapping: which engine column each output of an NLI model feeds.

The engine's columns are ``[ENTAILMENT, NEUTRAL, CONTRADICTION]`` whatever the
model's own order; a model's outputs are matched to them by the names in its
``config.id2label``, never by index (docs/papers.md#models).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

ENTAILMENT, NEUTRAL, CONTRADICTION = 0, 1, 2
CLASSES = ("entailment", "neutral", "contradiction")

# Normalised label names (lower case, runs of space/_/- as one space) -> column.
_LABEL_SYNONYMS: dict[str, int] = {
    **dict.fromkeys(("entailment", "entail", "entails", "entailed", "supports", "support", "supported"), ENTAILMENT),
    **dict.fromkeys(("neutral", "not enough info", "not enough information", "nei", "notenoughinfo"), NEUTRAL),
    **dict.fromkeys(
        ("contradiction", "contradict", "contradicts", "contradicted", "contradictory", "refutes", "refute", "refuted"),
        CONTRADICTION,
    ),
}


def normalise_label(name: Any) -> str:
    """``name`` in lower case with runs of space, ``_`` and ``-`` as one space."""
    return re.sub(r"[\s_\-]+", " ", str(name).strip().lower())


def label_columns(id2label: Mapping[Any, str], label_map: Mapping[str, str] | None = None) -> tuple[int, ...]:
    """For each model output index (in order), the engine column it feeds.

    Names come from ``id2label`` (entailment/neutral/contradiction, VitaminC's
    SUPPORTS/NOT ENOUGH INFO/REFUTES and close variants, case-insensitive).
    ``label_map`` (model label name -> "entailment"/"neutral"/"contradiction")
    overrides or supplies names and is required for two-label models.
    """
    labels = [id2label[key] for key in sorted(id2label, key=int)]
    described = ", ".join(f"{i}: {name!r}" for i, name in enumerate(labels))
    overrides: dict[str, int] = {}
    for key, value in (label_map or {}).items():
        target = normalise_label(value)
        if target not in CLASSES:
            raise ValueError(f"label_map[{key!r}] = {value!r}: the target must be one of {', '.join(CLASSES)}")
        overrides[normalise_label(key)] = CLASSES.index(target)
    unmatched = set(overrides) - {normalise_label(name) for name in labels}
    if unmatched:
        raise ValueError(
            f"label_map names labels the model does not have: {sorted(unmatched)}; "
            f"the model's labels are {{{described}}}"
        )
    if len(labels) < 2 or len(labels) > 3:
        raise ValueError(f"an NLI model needs 2 or 3 labels; this one has {len(labels)}: {{{described}}}")
    if len(labels) == 2 and not label_map:
        raise ValueError(
            f"two-label model {{{described}}}: pass label_map (model label -> "
            "entailment/neutral/contradiction); the missing class gets probability 0"
        )
    columns: list[int] = []
    unknown = []
    for name in labels:
        key = normalise_label(name)
        column = overrides.get(key, _LABEL_SYNONYMS.get(key))
        if column is None:
            unknown.append(name)
        else:
            columns.append(column)
    if unknown:
        raise ValueError(
            f"cannot tell which NLI class the labels {unknown} are (model labels "
            f"{{{described}}}); pass label_map, e.g. {{{unknown[0]!r}: 'entailment'}}"
        )
    if len(set(columns)) != len(columns):
        raise ValueError(
            f"two model labels map to the same NLI class: {{{described}}} -> {[CLASSES[c] for c in columns]}"
        )
    return tuple(columns)


def to_engine_columns(probs: np.ndarray, columns: Sequence[int]) -> np.ndarray:
    """``(n, 3)`` float32 [ent, neu, con] from a model's ``(n, len(columns))``
    probabilities: output ``i`` goes to column ``columns[i]`` (see
    :func:`label_columns`); a class the model lacks stays 0."""
    out = np.zeros((len(probs), 3), dtype=np.float32)
    for index, column in enumerate(columns):
        out[:, column] = probs[:, index]
    return out
