"""The parse of one text through the default Resources' parse cache: the helper the
tests share (as a fixture too, ``parse`` in conftest.py)."""

from __future__ import annotations

from halluscope.resources import get_parse_cache


def parse(text: str):
    """The spaCy ``Doc`` of ``text`` (the default spaCy model, parsed once while cached)."""
    return get_parse_cache().get_many([text])[0].doc
