"""One-off studies behind the defaults (benchmarks/README.md); ``python -m benchmarks.studies.<name>``."""
