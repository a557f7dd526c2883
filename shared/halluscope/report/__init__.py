"""A self-contained HTML report of a scores file written by ``halluscope score``.

One HTML file with no external resources (inline CSS and JS, charts as inline SVG):
per-score statistics (mean, median, examples defined, share of defined scores below a
cut, 0.5 by default, on each score's own scale), charts (:mod:`.charts`: each score's
distribution, by label when the records carry labels, with the ROC curves and the
reliability of chi's p_consistent; without labels, the means), and every example with its
summary highlighted by :mod:`halluscope.highlight` (the source, reference and
``dlsd_acu`` units in collapsible ``<details>``). Clicking a score's column header
sorts the examples by it (ascending, then descending; undefined scores last); a
filter box and pages of ``page_size`` rows keep long files usable, and past
``max_examples`` the page holds an even sample of the examples and says so (the
statistics and plots still use every record).

When the records carry a 0/1 label (``fields.label``, kept from the input by
``halluscope score``; 1 = consistent), an agreement table gives per score the ROC-AUC,
the balanced accuracy at its best threshold and the confusion counts there
(:func:`.stats.agreement`); a per-dimension table counts the units of EHI, RHI and QHI by
status (:func:`.stats.dimension_breakdown`). docs/cli.md, "halluscope report".
"""

from .page import build_report, write_report

__all__ = ["build_report", "write_report"]
