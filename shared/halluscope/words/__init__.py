"""CHI's word level: a summary's content words against its source (docs/architecture.md#layers)."""
