"""EHI, the entity hallucination index: its extraction, matching, swap checks, grounding rules
and dimension (docs/architecture.md#layers)."""
