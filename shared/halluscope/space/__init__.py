"""The combined Hugging Face Space and the per-metric apps, one module per layer.

Two layers, kept apart so that the logic is tested without a browser:

* pure functions (:mod:`.display`, :mod:`.acu_display`) — :func:`~.display.score_for_display`
  (CHI family) and :func:`~.acu_display.acu_for_display`
  (dlsd_acu) take the texts and options and return plain dicts: score rows, chart
  rows, highlighted HTML and a ``message``. They never raise: bad input, a missing
  model or a failing scorer become a ``message`` for the page (the traceback goes
  to the server log only);
* gradio wiring (:mod:`.app`) — :func:`build_space` (the Space in ``spaces/halluscope/app.py``)
  and :func:`build_metric_app` (``metrics/<name>/app.py``, replacing evaluate's
  stock widget, which crashes on gradio >= 4). gradio is imported only there. A
  metric app scores through its folder's evaluate module (:mod:`.metric_module`, a
  fresh instance kept in memory per request); the combined Space through the API.

Decisions:

* inputs are capped in characters (:data:`MAX_SOURCE_CHARS`, :data:`MAX_REFERENCE_CHARS`,
  :data:`MAX_SUMMARY_CHARS`) and in spaCy tokens (:data:`MAX_SOURCE_TOKENS`, ...), since
  parsing costs time per token and a text of numbers and symbols holds twice the tokens
  of prose of its length; a longer text is refused with a message, never cut;
* several CHI-family metrics are scored with one ``score_chi`` call (its EHI, RHI*
  and QHI equal the single-metric calls); a single metric uses its own function.
  The Space's RHI is RHI* (softmax), the variant CHI fuses, unless ``variant`` is
  passed (the rhi app offers linear, the metric's default, and softmax);
* NLI models are not free text: the dropdown offers the registry's default (or
  ``HALLUSCOPE_NLI_MODEL``) and the names the Space owner lists, comma-separated,
  in ``HALLUSCOPE_SPACE_NLI_MODELS``; the Space decomposes with the offline rule
  splitter so that the NLI model is the only model it needs;
* the page CSS (:data:`PAGE_CSS`) is given to the Blocks constructor so that a bare
  ``demo.launch()`` applies it (gradio 6 also reads it from there, with a
  deprecation warning that is silenced here);
* user text is never markup: Markdown components show it through
  :func:`markdown_text` (HTML and Markdown syntax escaped), the highlighted panels
  through :func:`halluscope.highlight.render_html` (HTML-escaped), tables and the
  signature as plain text;
* each request scores within a time budget (:func:`~.limits.run_with_budget`,
  ``HALLUSCOPE_SPACE_SECONDS``, default 30 s) and the apps queue their requests
  with a concurrency limit (``HALLUSCOPE_SPACE_CONCURRENCY``, default 1;
  ``HALLUSCOPE_SPACE_QUEUE`` waiting requests, default 16), see docs/space.md.
"""

from .app import build_metric_app, build_space

__all__ = ["build_metric_app", "build_space"]
