"""Extractors: spaCy ``Doc`` -> deduplicated unit lists (entities, relations, quantities)."""
