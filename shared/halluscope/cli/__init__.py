"""The ``halluscope`` command: ``score`` a file of summaries, ``report`` the scores as HTML.

``halluscope score`` reads examples from a JSONL file, a CSV file or a folder saved by
``datasets.Dataset.save_to_disk``, checks every row with the backend's own validation
before any model loads, scores the rows in chunks with :mod:`halluscope.api`
(``return_details=True``) and writes one JSON line per example. Scores are per row and
the parse and encoder caches are per process, so chunking does not change a score.

Before anything is scored the command checks itself (the metrics, ``--option``
values, the device, the output paths), the input (every row, the fields: a default
``source`` field holding labels rather than documents is refused) and the models,
which load through :class:`halluscope.Scorer`; each mistake is one line ``error: ...``.

Output record (one per line; undefined scores and other non-finite numbers are
written as ``null``)::

    {"line": 3, "id": "...", "digest": "9f0c3a51d2e87b64", "source": "...", "prediction": "...",
     "reference": "...", "fields": {"label": 1},
     "scores": {"chi": {"chi": 0.41, "ehi": 0.5, "rhi": 0.21, "qhi": 0.3}},
     "details": {"chi": {...one row of the API's details...}}}

``line`` is the 1-based line of a JSONL or CSV file (where a CSV record starts); a
datasets folder gives ``row``, the 0-based index. ``reference`` is present only with
``--reference-field``, ``publication_date`` only with ``--publication-date-field``
(given to ``qhi`` and ``chi``, whose QHI resolves relative dates with it); ``fields``
holds the input's other fields (``--keep-fields``); ``source`` is left out with
``--no-sources-in-output``; ``digest`` identifies what the record was made from (the row
and the signatures: :func:`halluscope.cli.resume.record_digest`). The run's summary (means, defined counts, signatures,
skipped lines, the counters of ``dlsd_acu``) goes to stdout as a table and to a JSON
file beside the output (``--summary-output``). ``-`` reads JSONL from stdin
(``--input -``) or writes the records to stdout (``--output -``, the table then goes
to stderr).

``--option NAME=VALUE`` passes any other keyword of the metrics' API functions
(:func:`halluscope.cli.chunked_scoring.api_options`).

One module per job: :mod:`.readers` (the rows of a file, a folder or stdin),
:mod:`.input_examples` (input rows to examples), :mod:`.scoring` (options, device, models,
the chunked API calls), :mod:`.output_paths` (the output paths and their lock),
:mod:`.runs` (partial file, summary),
:mod:`.resume` (what ``--resume`` keeps), :mod:`.ray_run` (``--engine ray``,
docs/cli.md#scoring-on-ray), :mod:`.report_run` (the report command),
:mod:`.parser` (the command line and :func:`main`);
:mod:`.command_errors` holds the command's own errors (a bad line, a bad command).

No data is lost (docs/cli.md, "Interrupted runs"): records go to ``<output>.partial``
(flushed after every chunk), which replaces ``--output`` only when the run ends, so
an existing output is never truncated by a run that fails; an interrupted run
(Ctrl-C, SIGTERM, a crash) leaves the partial file and ``--resume`` continues from its
last complete record, with the same results as an uninterrupted run; a record whose row
was edited since is scored again (:mod:`.resume`).

Exit codes (:func:`main`): 0 done; 1 a bad input row (with ``--on-error stop``) or
an error while scoring; 2 a mistake in the command or what it names (usage, an
unknown metric, a refused option or device, a model that cannot load, a missing or
ambiguous field, a path or file the command cannot use); 130 interrupted; 141 the
reader of ``--output -`` went away (docs/cli.md#exit-codes).
"""

from .parser import command, main

__all__ = ["command", "main"]
