"""Rewrite the option tables of the metric cards (``metrics/<name>/README.md``) from
the option declarations: ``python -m halluscope.cards [REPOSITORY_ROOT]``.
tests/test_options.py fails while a card's table differs from its declarations."""

from __future__ import annotations

import os
import sys

from .option_types import METRICS
from .options import card_with_table


def write_cards(root: str) -> None:
    """Replace each card's generated table with the current one."""
    for metric in METRICS:
        path = os.path.join(root, "metrics", metric, "README.md")
        with open(path, encoding="utf-8") as handle:
            card = handle.read()
        updated = card_with_table(card, metric)
        if updated != card:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(updated)
            print(f"updated {path}")


if __name__ == "__main__":  # pragma: no cover - maintenance command
    write_cards(sys.argv[1] if len(sys.argv) > 1 else os.getcwd())
