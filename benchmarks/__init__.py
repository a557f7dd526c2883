"""halluscope's benchmarks, run from the repository root as modules: ``python -m benchmarks.harness``
(benchmarks/README.md)."""
