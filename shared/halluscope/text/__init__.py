"""The layer below the indices, which knows no index: a parse read as a text index
(:mod:`.index`), its tokens' table, clauses and their arguments, names, number words and
casing (docs/architecture.md#layers)."""
