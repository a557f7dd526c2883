"""Which rows were being scored when their actor died (docs/cli.md#scoring-on-ray).

A process that dies (``kill -9``, the kernel's out-of-memory killer, a crash in a native
library) cannot say what it was doing, so each :class:`~halluscope.ray.batches.BatchScorer`
tells a :class:`BatchLedger` the names of a batch's rows before it scores them and again
once they are scored. When Ray gives up on a batch (its actor died more often than
``max_task_retries`` allows), the batches begun and never finished are those rows, and
the run's error can name them instead of only saying that an actor died.

The ledger is a Ray actor of no CPU; it holds the batches in flight, not the whole run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class BatchLedger:
    """Batches begun and not yet finished, each with how often it was begun."""

    def __init__(self) -> None:
        self.begun: dict[tuple[str, ...], int] = {}

    def started(self, names: Sequence[str]) -> None:
        key = tuple(names)
        self.begun[key] = self.begun.get(key, 0) + 1

    def finished(self, names: Sequence[str]) -> None:
        self.begun.pop(tuple(names), None)

    def unfinished(self) -> list[tuple[int, list[str]]]:
        """(times begun, row names) of each batch begun and never finished, the most
        often begun first."""
        return sorted(((count, list(key)) for key, count in self.begun.items()), key=lambda item: -item[0])


def start_ledger(ray: Any) -> Any:
    """A new :class:`BatchLedger` actor on the cluster ``ray`` is connected to (no CPU, never
    restarted: it lives as long as the run)."""
    return ray.remote(num_cpus=0, max_restarts=0)(BatchLedger).remote()


def dead_batches(ray: Any, ledger: Any) -> list[tuple[int, list[str]]]:
    """The ledger's unfinished batches (:meth:`BatchLedger.unfinished`); empty where the
    ledger cannot be reached any more."""
    try:
        return ray.get(ledger.unfinished.remote(), timeout=30)
    except Exception:  # noqa: BLE001 - the run's own error is the one to report
        return []
