"""The typed result every scoring function returns (docs/architecture.md#results-resultspy).

:class:`ScoreResult` is a ``dict`` with the keys the evaluate modules have always
returned (``chi``, ``chi_scores``, ``ehi_defined``, ``signature``, ``details``, ...),
so ``result["chi"]``, ``json.dumps(result)`` and evaluate keep working, and it holds
the same content as typed fields that the surfaces read instead of decoding keys by
their suffix: ``metric``, ``per_example`` (one list per output), ``means``,
``defined``, ``counters``, ``labels``, ``signature``, ``details``.

Each field declares how it merges across shards (:data:`MERGE`, torchmetrics'
``dist_reduce_fx``): :meth:`ScoreResult.merge` follows the declarations, and the
derived fields (means, defined counts) are recomputed from the merged rows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .signature_text import read_fields

#: how each field merges over consecutive shards of one input: "concat" (per-example
#: lists, in row order), "sum" (counters of work done), "equal" (must agree: else the
#: shards were scored differently), "derived" (recomputed from the merged rows)
MERGE: dict[str, str] = {
    "metric": "equal",
    "per_example": "concat",
    "labels": "concat",
    "details": "concat",
    "counters": "sum",
    "signature": "equal",
    "absent": "equal",
    "means": "derived",
    "defined": "derived",
}


def mean_defined(values: Sequence[float]) -> float:
    """The mean of the defined (non-NaN) values; NaN when there is none."""
    defined = [v for v in values if not math.isnan(v)]
    return sum(defined) / len(defined) if defined else math.nan


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


class ScoreResult(dict):
    """One metric's scores of one batch: typed fields, and the same content as the
    evaluate-style dict it is.

    * ``per_example[name]``: one score per row for each output (``chi``, ``ehi``,
      ``rhi``, ``qhi``, ``rhi_norm``, ``dlsd_acu``); NaN where undefined;
    * ``means[name]``: the mean over the defined rows (NaN if none);
    * ``defined[name]``: how many rows define it (for the dimensions that report it);
    * ``counters``: work done (``dlsd_acu``'s NLI pairs and decomposer calls);
    * ``labels``: per-row 0/1/None when a threshold was given, else None;
    * ``signature``: the sacrebleu-style string of everything that changes a score;
    * ``details``: one dict per row with ``return_details=True``, else None;
    * ``absent``: outputs left out of this result, each with why (chi's
      ``p_consistent`` where its calibration does not hold for the options); the dict
      holds each as ``<name>_reason`` (docs/api.md#when-p_consistent-is-absent).
    """

    def __init__(
        self,
        *,
        metric: str,
        per_example: Mapping[str, list[float]],
        signature: str,
        defined_names: Sequence[str] = (),
        counters: Mapping[str, int] | None = None,
        labels: list[int | None] | None = None,
        details: list[dict[str, Any]] | None = None,
        absent: Mapping[str, str] | None = None,
    ) -> None:
        self.metric = metric
        self.per_example: dict[str, list[float]] = {name: list(values) for name, values in per_example.items()}
        self.means: dict[str, float] = {name: mean_defined(values) for name, values in self.per_example.items()}
        self.defined: dict[str, int] = {
            name: sum(not math.isnan(v) for v in self.per_example[name]) for name in defined_names
        }
        self.counters: dict[str, int] = dict(counters or {})
        self.labels = labels
        self.signature = signature
        self.details = details
        self.absent: dict[str, str] = dict(absent or {})
        super().__init__(self._as_items())

    def _as_items(self) -> dict[str, Any]:
        items: dict[str, Any] = dict(self.means)
        items.update({f"{name}_scores": values for name, values in self.per_example.items()})
        items.update({f"{name}_defined": count for name, count in self.defined.items()})
        if self.labels is not None:
            items["labels"] = self.labels
        items.update({f"{name}_reason": reason for name, reason in self.absent.items()})
        items.update(self.counters)
        items["signature"] = self.signature
        if self.details is not None:
            items["details"] = self.details
        return items

    @property
    def num_rows(self) -> int:
        return len(next(iter(self.per_example.values()))) if self.per_example else 0

    def to_dict(self) -> dict[str, Any]:
        """A plain ``dict`` with the same keys (what evaluate returns)."""
        return dict(self)

    def __reduce__(self):
        # pickled (torch.distributed.all_gather_object, multiprocessing) as its fields
        return (
            _rebuild,
            (
                self.metric,
                self.per_example,
                self.signature,
                tuple(self.defined),
                self.counters,
                self.labels,
                self.details,
                self.absent,
            ),
        )

    @classmethod
    def merge(cls, shards: Sequence[ScoreResult]) -> ScoreResult:
        """The result of the whole input from the results of its consecutive shards,
        field by field as :data:`MERGE` declares; shards of different signatures (other
        options, models or versions) are refused with both signatures in full
        (:func:`differing_signatures`)."""
        if not shards:
            raise ValueError("merge needs at least one shard result")
        first = shards[0]
        refused = differing_signatures([shard.signature for shard in shards])
        if refused:
            raise ValueError(refused)
        for name in ("metric", "absent"):
            values = [getattr(shard, name) for shard in shards]
            if not all(_same(v, values[0]) for v in values):
                raise ValueError(
                    f"`{name}` differs between shards ({values!r}); were they scored with the same options and models?"
                )
        for index, shard in enumerate(shards[1:], start=1):
            if set(shard.per_example) != set(first.per_example) or set(shard.counters) != set(first.counters):
                raise ValueError(f"shard {index} has outputs {sorted(shard)}, shard 0 has {sorted(first)}")

        def concat(name: str) -> list | None:
            parts = [getattr(shard, name) for shard in shards]
            if all(part is None for part in parts):
                return None
            if any(part is None for part in parts):
                raise ValueError(f"`{name}` is missing in some shards")
            return [item for part in parts for item in part]

        return cls(
            metric=first.metric,
            per_example={name: [v for shard in shards for v in shard.per_example[name]] for name in first.per_example},
            signature=first.signature,
            defined_names=tuple(first.defined),
            counters={name: sum(shard.counters[name] for shard in shards) for name in first.counters},
            labels=concat("labels"),
            details=concat("details"),
            absent=first.absent,
        )


def differing_signatures(signatures: Sequence[Any]) -> str | None:
    """None when every shard's signature is the first's; else the refusal: the first
    shard that differs, both signatures in full, and the fields in which they differ
    (docs/api.md#signatures)."""
    for index, signature in enumerate(signatures[1:], start=1):
        if signature != signatures[0]:
            fields = _fields_between(signatures[0], signature)
            return (
                f"cannot merge results of different signatures: shard {index} was scored with other "
                f"options, models or versions than shard 0 (they differ in {fields}); "
                f"shard 0: {signatures[0]!r}; shard {index}: {signature!r}"
            )
    return None


def _fields_between(first: Any, second: Any) -> str:
    """The names of the signature fields two signatures disagree on (``w, cut``)."""
    a, b = read_fields(first), read_fields(second)
    names = [name for name in dict.fromkeys([*a, *b]) if a.get(name) != b.get(name)]
    return ", ".join(names) if names else "their form"


def _rebuild(metric, per_example, signature, defined_names, counters, labels, details, absent=None) -> ScoreResult:
    return ScoreResult(
        metric=metric,
        per_example=per_example,
        signature=signature,
        defined_names=defined_names,
        counters=counters,
        labels=labels,
        details=details,
        absent=absent,
    )
