"""Scoring the examples in chunks through :mod:`halluscope.api`, with the metrics' options,
device and models checked first (docs/cli.md)."""

from __future__ import annotations

import argparse
import functools
import math
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from ..errors import HalluscopeError
from ..option_types import METRIC_SPECS, METRICS
from ..options import uses_device
from ..records import per_example_scores, row_parts, to_json
from .command_errors import CommandError, LineError
from .input_examples import Example, FieldNames, _located_api_error
from .readers import InputSource

#: metrics whose API function takes ``device`` and ``batch_size``
MODEL_METRICS = tuple(metric for metric in METRICS if uses_device(metric))


DEFAULT_CHUNK_SIZE = 64


def metric_function(metric: str) -> Callable[..., dict[str, Any]]:
    """The :mod:`halluscope.api` function of ``metric``."""
    from .. import api

    return getattr(api, f"score_{metric}")


#: the options that have a flag of their own, and that flag: ``--option`` refuses them,
#: naming the flag, so that one setting never has two spellings that could disagree
#: (docs/cli.md#halluscope-score)
OWN_FLAGS: dict[str, str] = {
    "device": "--device",
    "batch_size": "--batch-size",
    "cache_mb": "--cache-mb",
    "workers": "--workers",
    "nli_model": "--nli-model",
    "decomposer": "--decomposer",
    "host": "--host",
}


def api_keywords(metric: str) -> frozenset[str]:
    """The options ``--option`` can set for ``metric`` (declared in :mod:`halluscope.options`)."""
    from ..options import cli_option_names

    return frozenset(cli_option_names(metric)) - set(OWN_FLAGS)


@functools.cache
def takes_dates(metric: str) -> bool:
    """Whether ``metric``'s API function takes ``publication_dates`` (qhi and chi)."""
    return METRIC_SPECS[metric].takes_dates


def api_options(texts: Sequence[str], metrics: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``--option NAME=VALUE`` flags as API keywords, per metric, checked before any
    scoring (:func:`halluscope.options.parse_cli_value`).

    VALUE is read as JSON when it parses (``false``, ``0.9``, ``null``,
    ``{"qhi": 2}``), else taken as the string itself (``paper``); NAME may use
    dashes for underscores. Each option goes to every chosen metric that takes
    NAME; a NAME that none takes, one with its own flag (:data:`OWN_FLAGS`: the
    error names the flag), or a VALUE the option does not allow, is a
    :class:`CommandError`.
    """
    from ..errors import OptionError
    from ..options import parse_cli_value

    accepted = {metric: api_keywords(metric) for metric in metrics}
    per_metric: dict[str, dict[str, Any]] = {metric: {} for metric in metrics}
    for text in texts:
        name, equals, raw = text.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or not name:
            raise CommandError(f"--option {text!r}: expected NAME=VALUE, e.g. formula=paper")
        if name in OWN_FLAGS:
            raise CommandError(
                f"--option {name}: {name} has its own flag; use {OWN_FLAGS[name]} "
                f"(e.g. {OWN_FLAGS[name]} {raw.strip() or 'VALUE'})"
            )
        takers = [metric for metric in metrics if name in accepted[metric]]
        if not takers:
            known = ", ".join(sorted(set().union(*accepted.values())))
            raise CommandError(
                f"--option {name}: no option of {', '.join(metrics)} has this name (their options: {known})"
            )
        for metric in takers:
            try:
                per_metric[metric][name] = parse_cli_value(metric, name, raw)
            except OptionError as error:
                raise CommandError(f"--option {name} ({metric}): {error}") from None
    return per_metric


def metric_options(metric: str, args: argparse.Namespace, chosen: dict[str, Any] | None = None) -> dict[str, Any]:
    """Keyword options of ``metric``'s API function from the command line (``chosen``:
    its ``--option`` values, from :func:`api_options`)."""
    options: dict[str, Any] = dict(chosen or {})
    if metric in MODEL_METRICS:
        device = getattr(args, "resolved_device", None)
        if device is not None:
            options["device"] = device
        if args.batch_size is not None:
            options["batch_size"] = args.batch_size
    if metric == "dlsd_acu":
        options.update(host=args.host, decomposer=args.decomposer, nli_model=args.nli_model)
    if getattr(args, "cache_mb", None) is not None:
        options["cache_mb"] = args.cache_mb
    if getattr(args, "workers", None) is not None and metric != "dlsd_acu":  # dlsd_acu: one process
        options["workers"] = args.workers
    return options


def _is_counter(key: str, value: Any) -> bool:
    """Integer counters of an API result (dlsd_acu's NLI pairs and decomposer calls)."""
    return isinstance(value, int) and not isinstance(value, bool) and not key.endswith("_defined")


class MetricTotals:
    """One metric's per-example scores, signature and counters over all chunks."""

    def __init__(self) -> None:
        self.values: dict[str, list[float]] = {}
        self.signature: str | None = None
        self.counters: dict[str, int] = {}

    def add(self, result: dict[str, Any]) -> None:
        for name, values in per_example_scores(result).items():
            self.values.setdefault(name, []).extend(values)
        for key, value in result.items():
            if _is_counter(key, value):
                self.counters[key] = self.counters.get(key, 0) + value
        self.signature = self.signature or result.get("signature")

    def as_dict(self) -> dict[str, Any]:
        from ..report.stats import column_stats

        scores = {}
        for name, values in self.values.items():
            stats = column_stats(values)
            scores[name] = {"mean": stats.mean, "defined": stats.defined}
        out: dict[str, Any] = {"signature": self.signature, "scores": scores}
        if self.counters:
            out["counters"] = self.counters
        return out


def _api_error(
    error: Exception, metric: str, chunk: Sequence[Example], fields: FieldNames, source: InputSource
) -> HalluscopeError:
    """The command's error for an API error: a row error names the input line and
    field (``.row``/``.field``), an option error its option (``.option``)."""
    located = _located_api_error(error, [e.position for e in chunk], fields)
    if located is not None:
        return LineError(f"{source.path} {source.label} {located[0]}: {located[1]}")
    option = getattr(error, "option", None)
    if option is not None:
        return CommandError(f"{OWN_FLAGS.get(option, f'--option {option}')} ({metric}): {error}")
    return LineError(f"{metric}: {error}")


def score_examples(
    examples: Sequence[Example],
    metrics: Sequence[str],
    options: dict[str, dict[str, Any]],
    fields: FieldNames,
    source: InputSource,
    output: TextIO,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: bool = True,
    totals: dict[str, MetricTotals] | None = None,
    after_chunk: Callable[[dict[str, MetricTotals], int], None] | None = None,
    sources_in_output: bool = True,
    preset: str | None = None,
    digest: Callable[[Example], str] | None = None,
) -> dict[str, MetricTotals]:
    """Score ``examples`` (read from ``source``) chunk by chunk; write one JSON line per
    example to ``output``, each chunk in one write, flushed. An API error naming a row
    becomes an :class:`LineError` naming its input line. ``totals`` continues the
    totals of a resumed run; ``after_chunk(totals, rows_written)`` runs after each
    flushed chunk. ``sources_in_output=False`` leaves the source text out of the
    records; ``preset`` goes to every metric (:data:`halluscope.options.PRESETS`);
    ``digest(example)`` is written as each record's ``digest``
    (:func:`halluscope.cli.resume.record_digest`)."""
    from tqdm import tqdm

    totals = totals if totals is not None else {metric: MetricTotals() for metric in metrics}
    written = 0
    n_chunks = math.ceil(len(examples) / chunk_size)
    with tqdm(
        total=len(examples), unit="ex", desc="scoring", file=sys.stderr, disable=not progress or n_chunks <= 1
    ) as bar:
        for start in range(0, len(examples), chunk_size):
            chunk = examples[start : start + chunk_size]
            predictions = [e.prediction for e in chunk]
            sources = [e.source for e in chunk]
            references = None if fields.reference is None else [e.reference for e in chunk]
            dated: dict[str, Any] = (
                {} if fields.publication_date is None else {"publication_dates": [e.publication_date for e in chunk]}
            )
            if preset is not None:
                dated["preset"] = preset
            results = {}
            for metric in metrics:
                dates = dated if takes_dates(metric) else {k: v for k, v in dated.items() if k == "preset"}
                try:
                    results[metric] = metric_function(metric)(
                        predictions, sources, references, return_details=True, **dates, **options[metric]
                    )
                except (TypeError, ValueError) as error:
                    raise _api_error(error, metric, chunk, fields, source) from error
            lines = []
            for example, part in zip(chunk, row_parts(results, len(chunk)), strict=True):
                record: dict[str, Any] = {source.label: example.position, "id": example.id}
                if digest is not None:
                    record["digest"] = digest(example)
                if sources_in_output:
                    record["source"] = example.source
                record["prediction"] = example.prediction
                if fields.reference is not None:
                    record["reference"] = example.reference
                if fields.publication_date is not None:
                    record["publication_date"] = example.publication_date
                if example.kept:
                    record["fields"] = example.kept
                record.update(part)  # scores, labels (1 = consistent) where any, details
                lines.append(to_json(record) + "\n")
            output.write("".join(lines))
            output.flush()
            for metric in metrics:
                totals[metric].add(results[metric])
            written += len(chunk)
            if after_chunk is not None:
                after_chunk(totals, written)
            bar.update(len(chunk))
    return totals


def parse_metrics(text: str) -> list[str]:
    """``--metrics``: a comma list of known metrics, each once."""
    metrics = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in metrics if name not in METRICS]
    if unknown or not metrics:
        raise CommandError(
            f"--metrics: unknown metric {unknown[0]!r}; choose from {', '.join(METRICS)}"
            if unknown
            else "--metrics: name at least one metric"
        )
    return list(dict.fromkeys(metrics))


def parse_keep_fields(text: str) -> tuple[str, ...] | None:
    """``--keep-fields``: ``all`` (None), ``none`` (()) or a comma list of field names."""
    if text.strip() == "all":
        return None
    if text.strip() == "none":
        return ()
    names = tuple(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    if not names:
        raise CommandError("--keep-fields: expected all, none or a comma list of field names")
    return names


def resolve_device(requested: str, metrics: Sequence[str]) -> str | None:
    """The torch device of the model metrics: ``auto`` is CUDA when torch has it,
    else the CPU; a device this torch cannot use is a :class:`CommandError`. None when
    no chosen metric runs a torch model and no device was asked for."""
    if requested == "auto" and not any(metric in MODEL_METRICS for metric in metrics):
        return None
    import torch

    from ..nli import normalise_device

    if requested == "auto":
        return normalise_device(None)
    try:
        kind = torch.device(requested).type
    except (RuntimeError, TypeError):
        raise CommandError(f"--device {requested}: not a torch device; use auto, cpu, cuda or cuda:N") from None
    if kind == "cuda" and not torch.cuda.is_available():
        raise CommandError(
            f"--device {requested}: CUDA is not available to this torch ({torch.__version__}); "
            "use --device cpu, or auto (the default: CUDA when available, else the CPU)"
        )
    try:
        return normalise_device(requested)
    except ValueError as error:
        raise CommandError(f"--device {requested}: {error}") from None


#: seconds of model loading after which ``halluscope score`` says what it is doing
LOADING_NOTE_AFTER_S = 1.0


def quiet_third_party_progress() -> None:
    """Turn off the progress bars transformers, huggingface_hub and datasets draw
    themselves ("Loading weights", downloads, "Saving the dataset"): under
    ``--no-progress`` nothing but halluscope's own lines reaches stderr."""
    import importlib

    for module, function in (
        ("transformers.utils.logging", "disable_progress_bar"),
        ("huggingface_hub.utils", "disable_progress_bars"),
        ("datasets.utils.logging", "disable_progress_bar"),
    ):
        try:
            getattr(importlib.import_module(module), function)()
        except (ImportError, AttributeError):  # not installed, or a version without the switch
            continue


def load_models(
    metrics: Sequence[str],
    options: dict[str, dict[str, Any]],
    preset: str | None,
    note: Callable[[str], None] | None = None,
) -> dict[str, str]:
    """Load every chosen metric's models before anything is scored, through
    :class:`halluscope.Scorer` (whose constructor loads them into the process's
    registry, where the scoring calls find them), and return each metric's signature: a
    model that cannot be loaded is a :class:`CommandError` naming the metric, found
    before any other metric scores. ``note`` is told "loading models for chi..." once,
    when a metric's loading has taken :data:`LOADING_NOTE_AFTER_S` seconds (models
    already loaded say nothing)."""
    import threading

    from ..errors import OptionError
    from ..registry import ModelNotAvailableError
    from ..scorer import Scorer

    signatures: dict[str, str] = {}
    # dlsd_acu's models (NLI, decomposer) are the likeliest to be missing: load them first
    for metric in sorted(metrics, key=lambda name: name != "dlsd_acu"):
        timer = None
        if note is not None:
            timer = threading.Timer(LOADING_NOTE_AFTER_S, note, (f"loading models for {metric}...",))
            timer.daemon = True
            timer.start()
        try:
            signatures[metric] = Scorer(metric, preset=preset, **options[metric]).signature
        except OptionError as error:
            flag = OWN_FLAGS.get(error.option or "", f"--option {error.option}")
            raise CommandError(f"{flag} ({metric}): {error}") from None
        except (ModelNotAvailableError, OSError) as error:
            raise CommandError(f"{metric}: {error}") from None
        finally:
            if timer is not None:
                timer.cancel()
    return {metric: signatures[metric] for metric in metrics}
