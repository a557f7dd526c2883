"""A pool's quantities indexed for matching: by kind class and anchor, by value within epsilon,
by date interval, and the table of values derived from pairs of them (docs/papers.md#qhi)."""

from __future__ import annotations

import datetime as _dt
import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

import numpy as np

from ..units import QuantityUnit
from .dates import resolve_relative
from .numbers import written_value
from .values import SMALL_MULTIPLES, base_value


class _Pool:
    """One pool indexed for matching: numeric values by kind class, dates with
    their intervals (relative ones resolved against the publication date), and
    lazily built derived-value tables."""

    def __init__(self, pool: Sequence, publication_date: _dt.date | None, cap: int) -> None:
        self.cap = cap
        self.groups: dict[tuple[str, str], list[tuple[QuantityUnit, float]]] = {}
        self.exact: dict[tuple, list[QuantityUnit]] = {}
        self.dates: list[tuple[QuantityUnit, tuple[str, str] | None]] = []
        self.overflow: dict[tuple, list[QuantityUnit]] = {}
        self.publication_date = publication_date
        self._derived: dict[tuple[tuple[str, str], str], tuple] = {}
        for unit in pool:
            if not isinstance(unit, QuantityUnit):
                continue
            if unit.qkind == "date":
                interval = unit.interval
                if unit.relative:
                    interval = resolve_relative(unit.relative, publication_date)
                self.dates.append((unit, interval))
                self.exact.setdefault(unit.key, []).append(unit)
                continue
            if unit.value is None or math.isnan(unit.value):
                continue
            cls, value = base_value(unit)
            if math.isinf(unit.value):  # beyond floating point: compared as written only
                self.overflow.setdefault((cls, written_value(unit.text)), []).append(unit)
                continue
            self.groups.setdefault(cls, []).append((unit, value))
            self.exact.setdefault((cls, float(f"{value:.12g}")), []).append(unit)
        # value index per kind class: (sorted values, their positions in ``groups[cls]``)
        self.by_value: dict[tuple[str, str], tuple[list[float], list[int]]] = {}
        for cls, members in self.groups.items():
            order = sorted(range(len(members)), key=lambda k: members[k][1])
            self.by_value[cls] = ([members[k][1] for k in order], order)
        self._date_index: tuple[list[tuple[str, int]], dict[int, list[tuple[int, int]]]] | None = None
        self._by_anchor: dict[tuple, list[QuantityUnit]] | None = None  # (class, anchor) -> units

    def anchored(self, cls: tuple[str, str], anchor: str) -> list[QuantityUnit]:
        """The values of ``cls`` anchored to ``anchor``, in pool order (indexed on first use)."""
        if self._by_anchor is None:
            self._by_anchor = {}
            for key, members in self.groups.items():
                for unit, _ in members:
                    self._by_anchor.setdefault((key, unit.anchor), []).append(unit)
        return self._by_anchor.get((cls, anchor), [])

    def near(self, cls: tuple[str, str], value: float, epsilon: float) -> list[int]:
        """Positions in ``groups[cls]`` of the values that can lie within relative
        difference ``epsilon`` of ``value`` (a slightly wider band, by bisection;
        callers test the exact condition), in pool order."""
        index = self.by_value.get(cls)
        if index is None:
            return []
        values, order = index
        if value > 0:
            low, high = value * (1 - epsilon), value / (1 - epsilon)
        elif value < 0:
            low, high = value / (1 - epsilon), value * (1 - epsilon)
        else:
            low = high = 0.0
        slack = 1e-9 * max(abs(low), abs(high))
        first, last = bisect_left(values, low - slack), bisect_right(values, high + slack)
        return sorted(order[first:last])

    def dates_around(self, start: str, end: str) -> list[int]:
        """Positions in ``dates`` of the intervals that may contain [start, end] or lie
        inside it: starts bisected in a start-sorted list (inside) and, per interval
        length, in a list of that length (containing); callers test the exact condition."""
        if self._date_index is None:
            inside: list[tuple[str, int]] = []
            by_length: dict[int, list[tuple[int, int]]] = {}
            for order, (_, other) in enumerate(self.dates):
                if other is None:
                    continue
                inside.append((other[0], order))
                first = _dt.date.fromisoformat(other[0]).toordinal()
                length = _dt.date.fromisoformat(other[1]).toordinal() - first
                by_length.setdefault(length, []).append((first, order))
            inside.sort()
            for group in by_length.values():
                group.sort()
            self._date_index = (inside, by_length)
        inside, by_length = self._date_index
        first, last = bisect_left(inside, (start, -1)), bisect_right(inside, (end, len(self.dates)))
        found = {order for _, order in inside[first:last]}
        q_first = _dt.date.fromisoformat(start).toordinal()
        q_last = _dt.date.fromisoformat(end).toordinal()
        for length, group in by_length.items():  # p_first <= q_first and p_first + length >= q_last
            lo = bisect_left(group, (q_last - length, -1))
            hi = bisect_right(group, (q_first, len(self.dates)))
            found.update(order for _, order in group[lo:hi])
        return sorted(found)

    # ------------------------------------------------------------ derived tables

    def derived_table(self, cls: tuple[str, str], family: str):
        """(values, operation codes, i, j) of every derivation of one family
        ("value": sums, differences, multiples, ratios; "percent": percent
        changes and shares; "points": sums and differences of percentages) over
        the first ``cap`` values of ``cls``."""
        key = (cls, family)
        table = self._derived.get(key)
        if table is not None:
            return table
        members = self.groups.get(cls, [])[: self.cap]
        values = np.array([v for _, v in members], dtype=float)
        n = len(values)
        parts_v, parts_op, parts_i, parts_j = [], [], [], []

        def add(vals, op, ii, jj):
            keep = np.isfinite(vals)
            parts_v.append(vals[keep])
            parts_op.append(np.full(int(keep.sum()), op, dtype=object))
            parts_i.append(ii[keep])
            parts_j.append(jj[keep])

        if n:
            ii, jj = (grid.ravel() for grid in np.meshgrid(np.arange(n), np.arange(n), indexing="ij"))
            a, b = values[ii], values[jj]
            upper = ii < jj
            distinct = ii != jj
            with np.errstate(divide="ignore", invalid="ignore"):
                if family in ("value", "points"):
                    add(a[upper] + b[upper], "+", ii[upper], jj[upper])
                    add(np.abs(a[upper] - b[upper]), "-", ii[upper], jj[upper])
                if family == "value":
                    single = np.arange(n)
                    for k, name in SMALL_MULTIPLES:
                        add(values * k, name, single, single)
                    nonzero = distinct & (b != 0)
                    add(a[nonzero] / b[nonzero], "/", ii[nonzero], jj[nonzero])
                if family == "percent":
                    nonzero = distinct & (a != 0)
                    add(
                        np.abs(b[nonzero] - a[nonzero]) / np.abs(a[nonzero]) * 100.0, "change", ii[nonzero], jj[nonzero]
                    )
                    share = distinct & (b != 0) & (np.abs(a) < np.abs(b))
                    add(a[share] / b[share] * 100.0, "share", ii[share], jj[share])
        if parts_v:
            table = (
                np.concatenate(parts_v),
                np.concatenate(parts_op),
                np.concatenate(parts_i),
                np.concatenate(parts_j),
                members,
            )
        else:
            table = (np.zeros(0), np.zeros(0, dtype=object), np.zeros(0, dtype=int), np.zeros(0, dtype=int), members)
        self._derived[key] = table
        return table
