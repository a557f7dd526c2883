"""The perturbation suite's parts (``python -m benchmarks.perturb``, benchmarks/perturb.py):
the edit functions by kind (numbers, units, names, words) and their registry
(edit_types), the pool of consistent summaries the edits are drawn from (pool), what
the scores caught (caught) and the printout of the misses (misses)."""
