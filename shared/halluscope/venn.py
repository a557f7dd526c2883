"""Venn counts from match results (docs/papers.md#venn-counts), defined once for every dimension.

Counts are G-centric: ``|I∩G|`` is the number of distinct generated units matched
in the source, ``|R∩G|`` matched in the reference, ``|I∩R∩G|`` matched in both,
and ``|I∩R|`` the number of reference units matched in the source. With exact
matching these equal ordinary set algebra.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class VennCounts:
    i: int  # |I| distinct source units
    r: int  # |R| distinct reference units
    g: int  # |G| distinct generated units
    ig: int  # |I∩G|
    rg: int  # |R∩G|
    irg: int  # |I∩R∩G|
    ir: int  # |I∩R|

    @property
    def undefined(self) -> bool:
        """A dimension is undefined only when I, R and G are all empty
        (docs/papers.md#zero-denominators-and-undefined-dimensions)."""
        return self.i == 0 and self.r == 0 and self.g == 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def venn_counts(
    n_source: int,
    n_reference: int,
    g_in_source: Sequence[object],
    g_in_reference: Sequence[object],
    r_in_source: Sequence[object],
) -> VennCounts:
    """Count from per-unit match flags (one flag per G unit, one per R unit), each read
    by its truth: a bool, or a match that is None where the unit is unmatched."""
    if len(g_in_source) != len(g_in_reference):
        raise ValueError("one source flag and one reference flag per generated unit")
    if len(r_in_source) != n_reference:
        raise ValueError("one source flag per reference unit")
    return VennCounts(
        i=n_source,
        r=n_reference,
        g=len(g_in_source),
        ig=sum(map(bool, g_in_source)),
        rg=sum(map(bool, g_in_reference)),
        irg=sum(bool(a) and bool(b) for a, b in zip(g_in_source, g_in_reference, strict=True)),
        ir=sum(map(bool, r_in_source)),
    )
