"""EHI's text grounding (``grounding="text"``, docs/architecture.md#layers): an entity no
pool entity matched, found in the pool's text.

``text`` (entities)
    The entity's canonical form occurs in the pool text as whole words, case and
    quote style ignored, any run of whitespace between its words
    ("alaska" in "... Alaska Airlines Flight 448 ...").
"""

from __future__ import annotations

import re

from ..text.index import TextIndex
from ..text.names import QUOTE_MAP
from ..units import EntityUnit, Match, TextEvidence


def _pattern(key: str) -> re.Pattern[str] | None:
    """Whole-word, whitespace-tolerant pattern of an entity key (compiled once)."""
    words = key.translate(QUOTE_MAP).lower().split()
    if not words:
        return None
    return re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)")


def entity_in_text(unit: EntityUnit, index: TextIndex) -> Match | None:
    """The ``text`` rule for an entity (module docstring) in the indexed pool text, or
    None."""
    pattern = _pattern(unit.key)
    if pattern is None:
        return None
    found = pattern.search(index.lowered)
    if found is None:
        return None
    start, end = found.span()
    text = index.text
    return Match(
        "text", (TextEvidence(text[start:end], (start, end)),), 1.0, f"found in the text as '{text[start:end]}'"
    )
