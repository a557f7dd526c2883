"""Public scoring functions, one per metric.

Each takes the data columns and the metric's options by name: the options, their
defaults and allowed values are declared once in :mod:`halluscope.options` (an
unknown name or a bad value is an :class:`halluscope.errors.OptionError`), and each
function's ``__signature__`` lists them for ``help()`` and IDEs. The evaluate modules
in ``metrics/<name>/`` are thin wrappers around these; they can also be called
directly (``references=None`` selects the reference-free mode for the whole call,
``None`` or ``""`` for one row: docs/api.md#what-a-reference-may-be).

These functions score with the process's default
:class:`halluscope.resources.Resources` (its models and caches); :func:`score_metric`
takes the resources to use, as :class:`halluscope.Scorer` does with its own.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
from collections.abc import Mapping, Sequence
from typing import Any

from . import budget, dimension_registry
from .errors import InputError
from .option_types import METRIC_SPECS
from .options import api_signature, options_for
from .options import resolve as resolve_options
from .pipeline import score
from .resources import Resources
from .results import ScoreResult
from .scoring_options import ScoringOptions


def _score_family(
    metric: str,
    predictions,
    sources,
    references,
    publication_dates,
    return_details: bool,
    preset: str | None,
    options: Mapping[str, Any],
    resources: Resources,
) -> ScoreResult:
    scoring = ScoringOptions.from_options(metric, options, preset=preset)
    if scoring.workers != 1:
        pooled = _score_in_workers(
            metric,
            predictions,
            sources,
            references,
            publication_dates,
            return_details,
            preset,
            options,
            resources,
            scoring,
        )
        if pooled is not None:
            return pooled
    budget.apply(scoring.cache_mb)
    try:
        result = score(
            METRIC_SPECS[metric].dimensions,
            predictions,
            sources,
            references,
            options=scoring,
            resources=resources,
            publication_dates=publication_dates,
            return_details=return_details,
            fuse=metric == "chi",
            metric_name=metric,
        )
        resources.loaded_calls.add(call_key(metric, scoring))
        return result
    finally:
        budget.release_free_memory()


def call_key(metric: str, scoring: ScoringOptions) -> str:
    """What names a call's models in :attr:`Resources.loaded_calls`: a digest of the
    metric and every option but ``workers`` and ``cache_mb``, which load nothing (a
    digest, so that a sweep over many options keeps 40 characters per call)."""
    named = f"{metric}:{dataclasses.replace(scoring, workers=1, cache_mb=None)!r}"
    return hashlib.sha1(named.encode("utf-8")).hexdigest()


def _score_in_workers(
    metric: str,
    predictions,
    sources,
    references,
    publication_dates,
    return_details: bool,
    preset: str | None,
    options: Mapping[str, Any],
    resources: Resources,
    scoring: ScoringOptions,
) -> ScoreResult | None:
    """The call scored by a pool of ``scoring.workers`` processes (:mod:`halluscope.workers`),
    or None when one process would do (one row, or ``workers=0`` on one core). The
    inputs are checked here first, so a bad row is named by its row in the whole call.
    When these resources have scored the same call before (:func:`call_key`), its
    models are loaded and the pool forks at once; else the first row is scored here
    first, to load them. When the models run on a GPU (``device``, else where one is
    visible), the workers are spawned, not forked, and each loads its own."""
    import functools

    from .publication_dates import validate_publication_dates
    from .registry import default_device
    from .validation import validate_inputs
    from .workers import score_in_workers, worker_count

    batch = validate_inputs(predictions, sources, references)
    rows = len(batch.predictions)
    if publication_dates is not None:
        validate_publication_dates(publication_dates, rows)
    count = worker_count(scoring.workers, rows)
    if count == 1:
        return None
    columns = {
        "predictions": list(predictions),
        "sources": list(sources),
        "references": None if references is None else list(references),
        "publication_dates": None if publication_dates is None else list(publication_dates),
    }
    shard_options = dict(options, workers=1, return_details=return_details, preset=preset)
    if (scoring.device or default_device()).startswith("cuda"):
        # a fork of a process that holds CUDA cannot use it: each worker is started anew
        # and loads its own models, which the caller need not load first
        return score_in_workers(
            functools.partial(score_metric, metric), count, columns, shard_options, resources, loaded=True, fork=False
        )
    for name in METRIC_SPECS[metric].dimensions:  # what a row loads only when it needs it
        dimension_registry.get(name).load(scoring, resources)
    return score_in_workers(
        functools.partial(score_metric, metric),
        count,
        columns,
        shard_options,
        resources,
        loaded=call_key(metric, scoring) in resources.loaded_calls,
    )


def score_metric(
    metric: str,
    predictions: Sequence[str],
    sources: Sequence[str],
    references=None,
    *,
    resources: Resources | None = None,
    publication_dates=None,
    return_details: bool = False,
    preset: str | None = None,
    **options: Any,
) -> ScoreResult:
    """``score_<metric>(...)`` with the given ``resources`` (None: the process's
    default). The CHI family (ehi, rhi, qhi, chi) takes every model and cache from
    them, dlsd_acu its NLI engine and parses (:mod:`halluscope.resources`).
    ``publication_dates`` is for qhi and chi only."""
    options_for(metric)  # an unknown metric is an OptionError
    if metric == "dlsd_acu":
        return _score_dlsd_acu(
            predictions,
            sources,
            references,
            return_details,
            preset,
            options,
            Resources.default() if resources is None else resources,
        )
    if publication_dates is not None and not METRIC_SPECS[metric].takes_dates:
        dated = " and ".join(sorted(name for name, spec in METRIC_SPECS.items() if spec.takes_dates))
        raise InputError(f"{metric} resolves no dates: `publication_dates` is for {dated}", field="publication_dates")
    return _score_family(
        metric,
        predictions,
        sources,
        references,
        publication_dates,
        return_details,
        preset,
        options,
        Resources.default() if resources is None else resources,
    )


def score_ehi(
    predictions: Sequence[str],
    sources: Sequence[str],
    references=None,
    *,
    return_details: bool = False,
    preset: str | None = None,
    **options: Any,
) -> ScoreResult:
    """Entity Hallucination Index (CHI paper, eq. 2–7) per example and on average.
    ``options``: :func:`halluscope.options.options_for` ``("ehi")``; ``preset``: a name
    of :data:`halluscope.options.PRESETS` whose values the options override."""
    return _score_family(
        "ehi", predictions, sources, references, None, return_details, preset, options, Resources.default()
    )


def score_rhi(
    predictions: Sequence[str],
    sources: Sequence[str],
    references=None,
    *,
    return_details: bool = False,
    preset: str | None = None,
    **options: Any,
) -> ScoreResult:
    """Relation Hallucination Index: linear (RHI paper eq. 12, with ``rhi_norm`` = RHI/2)
    or softmax RHI* (CHI paper eq. 14), by ``variant``. ``options``: those of
    :func:`halluscope.options.options_for` ``("rhi")``."""
    return _score_family(
        "rhi", predictions, sources, references, None, return_details, preset, options, Resources.default()
    )


def score_qhi(
    predictions: Sequence[str],
    sources: Sequence[str],
    references=None,
    *,
    publication_dates=None,
    return_details: bool = False,
    preset: str | None = None,
    **options: Any,
) -> ScoreResult:
    """Quantity Hallucination Index (CHI paper eq. 15–20) with tolerant matching;
    ``publication_dates``: per row, the date relative dates are resolved against.
    ``options``: those of :func:`halluscope.options.options_for` ``("qhi")``."""
    return _score_family(
        "qhi", predictions, sources, references, publication_dates, return_details, preset, options, Resources.default()
    )


def score_chi(
    predictions: Sequence[str],
    sources: Sequence[str],
    references=None,
    *,
    publication_dates=None,
    return_details: bool = False,
    preset: str | None = None,
    **options: Any,
) -> ScoreResult:
    """Composite Hallucination Index (CHI paper eq. 21–22): harmonic mean of EHI, RHI*
    and QHI over the dimensions defined for each example; under ``formula="support"``
    mixed with the summary's word-level support w (the share of its content words the
    source supports by lemma or WordNet, :mod:`halluscope.words.matching`),
    (1 - ``lexical_weight``) x the fusion + ``lexical_weight`` x w x (0.9 + 0.1 x the
    dimensions' mean) (:func:`halluscope.fusion.fused_chi`). ``options``: those of
    :func:`halluscope.options.options_for` ``("chi")``."""
    return _score_family(
        "chi", predictions, sources, references, publication_dates, return_details, preset, options, Resources.default()
    )


def score_dlsd_acu(
    predictions: Sequence[str],
    sources: Sequence[str],
    references=None,
    *,
    return_details: bool = False,
    preset: str | None = None,
    **options: Any,
) -> ScoreResult:
    """NLI-based atomic-fact checking with selective document units (Mind the Link;
    docs/papers.md#dl-acu, docs/papers.md#sd-acu) on a FIZZ (hard min) or FENICE (soft mean) host. Reference-free:
    ``references`` are accepted and unused. ``options``: those of
    :func:`halluscope.options.options_for` ``("dlsd_acu")``, among them ``nli_scorer(premises,
    hypotheses) -> (n, 3)`` probabilities [ent, neu, con] in place of the NLI model (tests,
    custom models), ``nli_engine`` (a ready :class:`halluscope.nli.NLIEngine`), and
    ``dl_acu``, the discourse-link units: ``"amr"``, ``"dep"`` (offline), ``"none"``, or
    ``"auto"`` (AMR when an AMR model is installed, else dep), kept when the summary
    entails them (P >= ``tau``) and new (BERTScore F1 < ``delta`` to every host ACU);
    ``dl_units`` replaces that step with any callable of the same batch interface."""
    return _score_dlsd_acu(predictions, sources, references, return_details, preset, options, Resources.default())


def _score_dlsd_acu(
    predictions,
    sources,
    references,
    return_details: bool,
    preset: str | None,
    options: Mapping[str, Any],
    resources: Resources,
) -> ScoreResult:
    """:func:`score_dlsd_acu` with the NLI engine and parse cache of ``resources``."""
    import math

    from .acu.acu_options import ACU_FIELDS, AcuOptions
    from .acu.components import coreference_step, get_decomposer
    from .acu.dlsd_signature import dlsd_signature
    from .acu.scoring import score_batch
    from .nli import NLIEngine
    from .validation import validate_inputs

    o = resolve_options("dlsd_acu", options, preset_name=preset)
    acu_options = AcuOptions(**{name: o[name] for name in ACU_FIELDS})
    budget.apply(o["cache_mb"])
    threshold, device, dtype, batch_size, max_length = (
        o["threshold"],
        o["device"],
        o["dtype"],
        o["batch_size"],
        o["max_length"],
    )
    coref, dl_units, dl_acu = o["coref"], o["dl_units"], o["dl_acu"]
    batch = validate_inputs(predictions, sources, references)
    if o["nli_engine"] is not None:
        engine = o["nli_engine"]
    elif o["nli_scorer"] is not None:
        engine = NLIEngine(scorer=o["nli_scorer"], batch_size=batch_size)
    else:
        engine = resources.nli_engine(
            o["nli_model"], device=device, dtype=dtype, batch_size=batch_size, max_length=max_length
        )
    unit_decomposer = get_decomposer(o["decomposer"], model=o["decomposer_model"], device=device, dtype=dtype)
    if dl_units is None and dl_acu != "none":
        from .acu.discourse import DiscourseLinkUnits, resolve_backend

        dl_acu = resolve_backend(dl_acu)
        dl_units = DiscourseLinkUnits(dl_acu, tau=o["tau"], delta=o["delta"], coref=coref, device=device)
    try:
        result = score_batch(
            batch.predictions,
            batch.sources,
            engine=engine,
            decomposer=unit_decomposer,
            options=acu_options,
            coref=coreference_step(coref, resources.text_tables),
            dl_units=dl_units,
            return_details=return_details,
            parse_cache=resources.parse_cache(),
        )
    finally:
        budget.release_free_memory()
    scores = result.pop("scores")
    details = result.pop("details", None)
    labels = None if threshold is None else [None if math.isnan(s) else int(s >= threshold) for s in scores]
    dl_name = None if dl_units is None else (getattr(dl_units, "name", None) or getattr(dl_units, "__name__", "hook"))
    return ScoreResult(
        metric="dlsd_acu",
        per_example={"dlsd_acu": scores},
        counters=result,
        labels=labels,
        details=details,
        signature=dlsd_signature(
            acu_options,
            decomposer=unit_decomposer.name,
            nli=engine.name,
            dtype=dtype,
            max_length=max_length,
            dl=dl_name,
            threshold=threshold,
        ),
    )


def _declare_signatures() -> None:
    """Give each API function a signature listing its declared options."""
    positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
    keyword = inspect.Parameter.KEYWORD_ONLY
    for metric, function in (
        ("ehi", score_ehi),
        ("rhi", score_rhi),
        ("qhi", score_qhi),
        ("chi", score_chi),
        ("dlsd_acu", score_dlsd_acu),
    ):
        leading = [
            inspect.Parameter("predictions", positional),
            inspect.Parameter("sources", positional),
            inspect.Parameter("references", positional, default=None),
        ]
        if METRIC_SPECS[metric].takes_dates:
            leading.append(inspect.Parameter("publication_dates", keyword, default=None))
        leading += [
            inspect.Parameter("return_details", keyword, default=False),
            inspect.Parameter("preset", keyword, default=None),
        ]
        # inspect.signature reads __signature__, which typeshed does not declare on functions
        function.__signature__ = api_signature(metric, leading)  # type: ignore[attr-defined]


_declare_signatures()
