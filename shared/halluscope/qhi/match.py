"""Quantity matching for QHI: the four tolerance-aware modes of the CHI paper
(CHI paper §3.4.2, docs/papers.md#qhi), tried in this order, the first that succeeds being reported:

``exact``
    Same kind class and the same value after normalisation ("2,500" = "2500" =
    "2.5K"; "10 km" = "10,000 metres"). Dates: the same calendar interval, or the
    same relative expression ("last tuesday" = "last tuesday", the only way a
    relative date matches when no publication date is known).
``epsilon``
    Relative difference ``|q - p| / max(|q|, |p|) <= epsilon`` (default 0.05):
    "approximately 2.5 million" ~ "2,487,000". Numbers, money, percentages and
    measures only. Counts are protected: two whole numbers below ``exact_below``
    (default 100) neither of which is marked approximate must be equal (20 vs 21
    casualties is a swapped number, not rounding), and a bound is kept: a source value
    on its wrong side never matches ("198" for "over 200"). A value written to its last
    unit (``QuantityUnit.precise``: "eight minutes and 44 seconds", "2:08:44") is never
    near another.
``derived``
    The value equals, within ``epsilon``, an arithmetic combination of pool
    quantities of the same kind class, and **only an operation the summary's own
    words state** (``QuantityUnit.derivations``, read by
    :mod:`halluscope.qhi.context`): a sum or difference of two ("a
    combined $2.5bn", "in total"; "rose by", "the gap"), a small multiple of one
    (x2, x3, x4, x0.5: "doubled", "twice", "half"), a ratio of two (numbers only:
    "times", "per"); for a percentage, the percent change between two values ("rose
    20%", "doubled" is a 100% change: 10 -> 20), the share one is of another ("20%
    of"), or the difference or sum of two percentages ("points"). A bare "$800
    million" is never derived from a source "$400 million": with ten amounts in a
    source, unstated sums and multiples "supported" most wrong amounts. Pool Q1 $1.2B
    and Q2 $1.3B derive "a combined $2.5B" ("1.2e9 + 1.3e9 = 2.5e9"). Bounded: only
    the first ``derived_cap`` (60) pool values of a kind class, in text order, are
    operands (at most 60·59 ordered pairs per operation, evaluated with numpy).
    Guards against chance hits: whole numbers below ``exact_below`` are not derived
    (every small count is a sum of smaller ones); a plain number, or an amount or
    measure with an anchor, is derived only from operands of which at least one has
    the query's anchor (8 trains + 105 years do not make "the age of 113");
    durations and temperatures are not derived.
``temporal``
    Dates: the query's calendar interval lies inside a pool interval or contains
    one ("March 2015" ~ "2015"). Relative dates ("last Tuesday") are resolved
    against ``job.context["publication_date"]``, never against today's date. Without
    one, a date the summary gives less fully than the source still matches: a day of a
    month without its year ("December 17" for "December 17, 2014") or a weekday the
    source's date names ("Friday" for "Friday 27 March").

Contradictions (``Match.contradicts``, status ``contradicted``): the same amount in
the opposite direction ("fell 5%" against "rose 5%") or with the opposite bound ("fewer
than 150" against "more than 150"), when no mention of that amount agrees; and a
**moved number** (counts and ranks only): the query's value is in the pool only as the count or
rank of other things (every candidate anchored elsewhere) while the pool gives the query's own
anchor another value ("3 people died" against "5 people died and 3 cars burned", "his third
shot" against "his first shot ... his third goal").

Kind classes (compatible units): numbers with numbers; money only with the same
currency; percentages with percentages; ordinals with ordinals; clock times with
clock times; measures of one dimension through ``UNIT_SCALE`` (a unit missing
from it only with itself); temperatures through ``TEMPERATURE_SCALES``, an affine
conversion (80 °F = 26.7 °C, never 80 °C). Numbers and percentages never match each other, nor
do USD and GBP. Signs count: -40 never matches 40.

A value beyond floating point ("1e309", "10^400": ``value`` is +-inf, the unit's
overflow flag) matches only a pool unit of its kind class with the same value as
written (``extract.quantities.written_value``: "1e400" = "10^400"), in exact mode;
never by tolerance or derivation.

Evidence: the pool unit(s) used (both operands for a derivation). Anchors break
ties: among several candidates of one mode, those whose anchor (every operand's,
for a derivation) equals the query's anchor win, then the smallest relative
error, then text order. ``detail`` states the arithmetic and the anchors;
``score`` is ``1 - relative error`` (1.0 for exact and temporal matches).
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Sequence

import numpy as np

from halluscope.qhi.quantity_pool import _Pool
from halluscope.qhi.values import (
    NUMERIC_CLASSES,
    OPERATION_FAMILY,
    _days,
    _is_count,
    _operand,
    _rel,
    _result,
    base_value,
    fmt,
    opposed,
    show,
    stated,
)

from ..match import MatchJob
from ..match.copies import copied_match, copied_span
from ..options import options_for
from ..text.index import TextIndex
from ..units import Match, QuantityUnit
from .dates import MONTH_NAMES, resolve_relative
from .numbers import written_value

#: the declarations of the options this matcher takes (its defaults and bounds)
_OPTIONS = options_for("qhi")


DERIVED_CAP = 60


_WEEKDAYS = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"})


#: a relative date that is a day of a month, as the extractor writes it ("december 17")
_MONTH_DAY = re.compile(r"(" + "|".join(MONTH_NAMES) + r") (\d{1,2})")


_WORD = re.compile(r"[a-z]+")


def _anchor_note(query: QuantityUnit, evidence: Sequence[QuantityUnit]) -> str:
    anchors = [p.anchor for p in evidence]
    if query.anchor and all(a == query.anchor for a in anchors):
        return f"anchor {query.anchor!r} = {query.anchor!r}"
    shown = ", ".join(repr(a) for a in anchors)
    return f"anchors {query.anchor!r} vs {shown}"


def _anchor_hits(query: QuantityUnit, evidence: Sequence[QuantityUnit]) -> int:
    """Number of operands whose anchor equals the query's (0 without a query anchor)."""
    if not query.anchor:
        return 0
    return sum(1 for p in evidence if p.anchor == query.anchor)


class QuantityMatcher:
    """Tolerance-aware quantity matcher (CHI paper §3.4.2, docs/papers.md#qhi): exact, epsilon, derived,
    temporal, in that order. See the module docstring for the rules."""

    def __init__(
        self,
        epsilon: float = _OPTIONS["epsilon"].default,
        derived: bool = _OPTIONS["derived"].default,
        temporal: bool = _OPTIONS["temporal"].default,
        exact_below: float = 100.0,
        derived_cap: int = DERIVED_CAP,
    ) -> None:
        # the defaults and bounds are the options' own (halluscope.options): an OptionError names the option
        for name, value in (("epsilon", epsilon), ("derived", derived), ("temporal", temporal)):
            _OPTIONS[name].check(value)
        if derived_cap < 1:
            raise ValueError(f"`derived_cap` must be positive, got {derived_cap!r}")
        self.epsilon = float(epsilon)
        self.derived = bool(derived)
        self.temporal = bool(temporal)
        self.exact_below = float(exact_below)
        self.derived_cap = int(derived_cap)

    def match_batch(self, jobs: Sequence[MatchJob]) -> list[list[Match | None]]:
        """One list per job, one ``Match`` (or ``None``) per query unit. A pool
        shared by several jobs with the same publication date is indexed once."""
        pools: dict[tuple, tuple[Sequence, _Pool]] = {}
        out: list[list[Match | None]] = []
        for job in jobs:
            publication = (job.context or {}).get("publication_date")
            if isinstance(publication, _dt.datetime):
                publication = publication.date()
            key = (id(job.pool), publication)
            entry = pools.get(key)
            if entry is None or entry[0] is not job.pool:
                entry = (job.pool, _Pool(job.pool, publication, self.derived_cap))
                pools[key] = entry
            index = entry[1]
            out.append([self.match_one(query, index) for query in job.queries])
        return out

    def match(
        self, queries: Sequence[QuantityUnit], pool: Sequence[QuantityUnit], publication_date: _dt.date | None = None
    ) -> list[Match | None]:
        """Convenience: match one query list against one pool."""
        return self.match_batch([MatchJob(queries, pool, {"publication_date": publication_date})])[0]

    # ------------------------------------------------------------------ modes

    def match_one(self, query: QuantityUnit, pool: _Pool) -> Match | None:
        exact = pool.exact.get(query.key) if query.qkind == "date" else None
        if query.qkind == "date":
            if exact:
                best = self._pick(query, exact)
                return Match("exact", (best,), 1.0, f"same date {query.key[1:]!r}; " + _anchor_note(query, [best]))
            temporal = self._temporal(query, pool) if self.temporal else None
            return temporal if temporal is not None else self._partial_date(query, pool)
        if query.value is None or math.isnan(query.value):
            return None
        cls, value = base_value(query)
        if math.isinf(query.value):
            written = written_value(query.text)
            found = pool.overflow.get((cls, written)) if written is not None else None
            if not found:
                return None
            best = self._pick(query, found)
            return Match(
                "exact",
                (best,),
                1.0,
                f"{query.text!r} = {best.text!r}: the same value as written "
                f"({written}, beyond floating point); " + _anchor_note(query, [best]),
            )
        found = pool.exact.get((cls, float(f"{value:.12g}")))
        against = None  # the first same-valued mention that contradicts the query
        if found:
            agreeing = [unit for unit in found if not opposed(query, unit)]
            moved = self._moved(query, agreeing, cls, pool)
            if moved is not None:
                return Match(
                    "exact",
                    (moved,),
                    1.0,
                    f"{show(query)} is in the source, but not as {query.anchor!r}: "
                    f"the source's {query.anchor!r} is {show(moved)}",
                    contradicts=True,
                )
            if agreeing:
                best = self._pick(query, agreeing)
                return Match("exact", (best,), 1.0, f"{show(query)} = {show(best)}; " + _anchor_note(query, [best]))
            against = Match(
                "exact",
                (found[0],),
                1.0,
                f"{show(query)} = {show(found[0])} but {opposed(query, found[0])}; " + _anchor_note(query, [found[0]]),
                contradicts=True,
            )
        if cls[0] not in NUMERIC_CLASSES:
            return against
        match = self._epsilon(query, value, cls, pool)
        near = [unit for unit in match.evidence if isinstance(unit, QuantityUnit)] if match is not None else []
        moved = self._moved(query, near, cls, pool) if match is not None else None  # near: all of the pool's
        if moved is not None:
            return Match(
                "epsilon",
                (moved,),
                1.0,
                f"{show(query)} is near {show(near[0])} of the source, "
                f"but not as {query.anchor!r}: the source's {query.anchor!r} is {show(moved)}",
                contradicts=True,
            )
        if match is not None and match.contradicts:
            against, match = against or match, None
        if match is None and self.derived and cls != ("measure", "temperature"):
            match = self._derived(query, value, cls, pool)
        return match if match is not None else against

    @staticmethod
    def _partial_date(query: QuantityUnit, pool: _Pool) -> Match | None:
        """A date the summary gives less fully than the source, with no publication date
        to resolve it: a day of a month without its year ("December 17" for "December 17,
        2014") or a weekday the source's date names ("Friday" for "Friday 27 March")."""
        written = query.relative.lower()
        month_day = _MONTH_DAY.fullmatch(written)
        weekday = written if written in _WEEKDAYS else None
        if month_day is None and weekday is None:
            return None
        day = (
            None
            if month_day is None
            else f"{MONTH_NAMES.index(month_day.group(1)) + 1:02d}-{int(month_day.group(2)):02d}"
        )  # ISO "12-17"
        for unit, interval in pool.dates:
            if day is not None and interval is not None and interval[0] == interval[1]:
                if interval[0][5:] == day:
                    return Match(
                        "temporal",
                        (unit,),
                        1.0,
                        f"{query.text!r} is {unit.text!r} without its year; " + _anchor_note(query, [unit]),
                    )
            if weekday is not None and weekday in _WORD.findall(unit.text.lower()):
                return Match(
                    "temporal",
                    (unit,),
                    1.0,
                    f"{query.text!r} is the weekday of {unit.text!r}; " + _anchor_note(query, [unit]),
                )
        return None

    @staticmethod
    def _moved(query: QuantityUnit, candidates: Sequence[QuantityUnit], cls, pool: _Pool) -> QuantityUnit | None:
        """A moved number: the query, a count or rank of its anchor (``QuantityUnit.counted``),
        has its value in the pool only as the count or rank of other things (every
        candidate anchored elsewhere) while the pool counts or ranks the query's own anchor
        with another value ("3 people" against "5 people died and 3 cars burned", "third
        shot" against "first shot ... third goal").
        Returns that pool mention, or None (no query anchor, a candidate with the query's
        anchor or with none, or a pool silent about the query's anchor)."""
        if not query.counted or not query.anchor or not candidates:
            return None  # counts only: other anchors are too loose ("5% of people", "Pama, 28")
        if any(unit.anchor == query.anchor or not unit.anchor for unit in candidates):
            return None
        for unit in pool.anchored(cls, query.anchor):
            if unit.counted and not opposed(query, unit):
                return unit
        return None

    @staticmethod
    def _pick(query: QuantityUnit, candidates: Sequence[QuantityUnit]) -> QuantityUnit:
        """First candidate whose anchor equals the query's, else the first."""
        for unit in candidates:
            if query.anchor and unit.anchor == query.anchor:
                return unit
        return candidates[0]

    @staticmethod
    def _breaks_bound(query: QuantityUnit, value: float, pvalue: float) -> bool:
        """Whether a source value lies on the wrong side of the query's bound: "198 people"
        is within 5% of "over 200 people" but says it is false, so the tolerance never
        reaches across a bound (docs/papers.md#qhi-what-the-words-around-a-number-say). A
        value inside the bound is no support unless it is near enough: "more than 100
        people" is not read from "150 people", a number the source does not give (the
        design half's human labels call such summaries inconsistent)."""
        return (query.bound == "lower" and pvalue < value) or (query.bound == "upper" and pvalue > value)

    def _epsilon(self, query: QuantityUnit, value: float, cls, pool: _Pool) -> Match | None:
        if self.epsilon <= 0:
            return None
        best = None
        members = pool.groups.get(cls, ())
        for order in pool.near(cls, value, self.epsilon):
            unit, pvalue = members[order]
            err = _rel(value, pvalue)
            if err > self.epsilon or self._breaks_bound(query, value, pvalue):
                continue
            if (
                _is_count(query, value, self.exact_below)
                and _is_count(unit, pvalue, self.exact_below)
                and not (query.approximate or unit.approximate)
            ):
                continue
            if (query.precise or unit.precise) and not (query.approximate or unit.approximate):
                continue  # "2:08:45" is not "2:08:44" rounded
            # an agreeing mention before any contradicting one, then anchors, error, order
            rank = (bool(opposed(query, unit)), -_anchor_hits(query, [unit]), err, order)
            if best is None or rank < best[0]:
                best = (rank, unit, pvalue, err)
        if best is None:
            return None
        _, unit, pvalue, err = best
        why = opposed(query, unit)
        detail = (
            f"|{fmt(value)} - {fmt(pvalue)}| / {fmt(max(abs(value), abs(pvalue)))} = {err:.4f} "
            f"<= {self.epsilon:g}" + (f" but {why}" if why else "") + "; " + _anchor_note(query, [unit])
        )
        return Match("epsilon", (unit,), 1.0 - err, detail, contradicts=bool(why))

    def _derived(self, query: QuantityUnit, value: float, cls, pool: _Pool) -> Match | None:
        if value == 0 or _is_count(query, value, self.exact_below) or cls == ("measure", "time"):
            return None
        if not query.derivations:
            return None  # the summary's words state no arithmetic: "$800 million" is not "x2 of $400 million"
        if cls[0] == "number" and not query.anchor:
            return None  # counts of different things do not add up: a number needs an anchored operand
        if cls[0] == "percent":
            sources = [
                (other, "percent")
                for other in pool.groups
                if other[0] in ("number", "money", "measure") and other != ("measure", "time")
            ]
            sources.append((cls, "points"))
        else:
            sources = [(cls, "value")]
        best = None
        for source_cls, family in sources:
            values, ops, ii, jj, members = pool.derived_table(source_cls, family)
            if not len(values):
                continue
            # only the operations the query's words state; a ratio of two amounts is a plain number
            allowed = [
                op
                for op in OPERATION_FAMILY
                if stated(query, op, family) and not (op == "/" and (family != "value" or cls[0] != "number"))
            ]
            keep = np.isin(ops, np.array(allowed, dtype=object)) if allowed else np.zeros(len(values), dtype=bool)
            scale = np.maximum(np.abs(values), abs(value))
            with np.errstate(divide="ignore", invalid="ignore"):
                err = np.where(scale > 0, np.abs(values - value) / scale, 0.0)
            ok = np.flatnonzero(keep & (err <= self.epsilon))
            if not len(ok):
                continue
            ok = ok[np.argsort(err[ok], kind="stable")[:64]]
            for k in ok:
                i, j = int(ii[k]), int(jj[k])
                operands = [members[i][0]] if i == j else [members[i][0], members[j][0]]
                hits = _anchor_hits(query, operands)
                if (cls[0] == "number" or (query.anchor and family == "value")) and not hits:
                    continue  # a derivation of the query's own thing: an operand with its anchor
                rank = (-hits / len(operands), float(err[k]), i, j)
                if best is None or rank < best[0]:
                    best = (rank, str(ops[k]), members[i], members[j], float(values[k]), float(err[k]))
        if best is None:
            return None
        _, op, (a_unit, a), (b_unit, b), result, relative_error = best
        x, y = _operand(a_unit), _operand(b_unit)
        if op in ("+", "-"):
            x, y = (x, y) if op == "+" or a >= b else (y, x)
            text = f"{x} {op} {y} = {_result(query, result)}"
        elif op == "/":
            text = f"{x} / {y} = {fmt(result)}"
        elif op == "change":
            text = f"({y} - {x}) / {x} = {fmt(result)}% change"
        elif op == "share":
            text = f"{x} / {y} = {fmt(result)}%"
        else:
            text = f"{x} {op} = {_result(query, result)}"
        evidence = (a_unit,) if a_unit is b_unit else (a_unit, b_unit)
        detail = f"{text} ~ {show(query)} (rel. error {relative_error:.4f}); " + _anchor_note(query, evidence)
        return Match("derived", evidence, 1.0 - relative_error, detail)

    def _temporal(self, query: QuantityUnit, pool: _Pool) -> Match | None:
        interval = query.interval
        if query.relative:
            interval = resolve_relative(query.relative, pool.publication_date)
        if interval is None:
            return None
        q_start, q_end = interval
        best = None
        for order in pool.dates_around(q_start, q_end):
            unit, other = pool.dates[order]
            assert other is not None, "dates_around() finds dated entries only"
            p_start, p_end = other
            if p_start <= q_start and q_end <= p_end:
                relation = "equal to" if (p_start, p_end) == (q_start, q_end) else "inside"
            elif q_start <= p_start and p_end <= q_end:
                relation = "contains"
            else:
                continue
            spread = abs(_days(p_start, p_end) - _days(q_start, q_end))
            rank = (-_anchor_hits(query, [unit]), spread, order)
            if best is None or rank < best[0]:
                best = (rank, unit, other, relation)
        if best is None:
            return None
        _, unit, other, relation = best
        resolved = ""
        if query.relative or unit.relative:
            assert pool.publication_date is not None, "a relative date is resolved (found here) only against one"
            resolved = f" (relative dates resolved against {pool.publication_date.isoformat()})"
        detail = f"{interval[0]}..{interval[1]} {relation} {other[0]}..{other[1]}{resolved}; " + _anchor_note(
            query, [unit]
        )
        return Match("temporal", (unit,), 1.0, detail)


__all__ = ["QuantityMatcher", "DERIVED_CAP"]


def quantity_copied(unit: QuantityUnit, summary: TextIndex, source: TextIndex) -> Match | None:
    """A quantity of a summary sentence the source writes word for word, supported by that
    passage (:func:`~halluscope.match.copies.copied_match`) where no source match
    supports it: a copy's parse may read the number with another direction or anchor
    ("3.5% to $41.20 on Tuesday, while Acme's stock fell" of a copy that starts after
    "Shares of Globex rose", read as a fall) or not at all. Every mention of the unit (its
    ``repeats`` too) must be in such a passage: a number the summary also writes in an
    edited sentence ("to air in 1977" for "in 2016") is that sentence's claim as well. A
    passage cut inside a source amount or date ("spend $3" of "spend $3 billion") supports
    nothing: None then (docs/papers.md#attribution)."""
    found = copied_match(unit.span, summary, source)
    if found is None or any(copied_span(span, summary, source) is None for span in getattr(unit, "repeats", ())):
        return None
    return found
