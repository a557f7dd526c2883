"""RHI, the relation hallucination index: its extraction, matching, grounding rules and
dimension (docs/architecture.md#layers)."""
