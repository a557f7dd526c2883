"""The project's own hand-written example set (used by ``make demo`` and the tests).

Each example: ``id``, ``kind`` (entity | relation | quantity | derived | temporal |
mixed), ``faithful`` (our judgement), ``source``, ``reference`` ("" = none),
``prediction`` and an optional ``publication_date``.
"""

from __future__ import annotations

import json
from importlib import resources


def load_examples() -> list[dict]:
    """All examples, in file order."""
    text = resources.files("halluscope").joinpath("data/examples.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]
