"""Scoring a Ray Dataset on a Ray cluster, from a laptop to many machines
(docs/scaling.md#ray-data; ``pip install halluscope[ray]``).

    >>> import ray
    >>> from halluscope.ray import record, score_dataset
    >>> ds = ray.data.read_json("rows.jsonl")                 # or read_parquet, from_items, ...
    >>> scored = score_dataset(ds, ("chi",), actors=2)         # lazy, like any Ray Dataset
    >>> rows = [record(row) for row in scored.take_all()]     # scores/labels/details decoded

Each actor of a Ray Data actor pool holds one :class:`halluscope.Scorer` per metric
(:class:`halluscope.ray.batches.BatchScorer`, models loaded once per actor) and adds
the columns ``scores``, ``labels`` and (``return_details=True``) ``details`` to every
batch, as JSON strings holding what ``halluscope score`` writes for the row. Ray places
the actors, retries failed tasks and restarts dead actors, a finite number of times.

Ray is imported when :func:`score_dataset` is called: neither ``import halluscope`` nor
``import halluscope.ray`` imports it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import OptionError
from .batches import (
    BATCH_STATS_COLUMN,
    GROUP_COLUMN,
    RESULT_COLUMNS,
    BatchScorer,
    Columns,
    add_source_groups,
    group_boundaries,
    record,
)

#: rows per ``map_batches`` call: large enough that a source shared by several rows of
#: a batch is parsed once for all of them (docs/scaling.md#ray-data)
DEFAULT_BATCH_SIZE = 256
#: how often Ray may restart a dead actor, and retry a task lost with its actor, before
#: the run fails (Ray Data's default, -1, retries for ever)
DEFAULT_RETRIES = 3
#: ``group_by_source=True``: blocks per actor of the largest pool, so that an actor done
#: early takes another block (as ``workers=N`` cuts four shards per worker)
GROUPS_PER_ACTOR = 4

Actors = int | tuple[int, int] | None


def _ray() -> Any:
    try:
        import ray
        import ray.data  # noqa: F401
    except ImportError:
        raise ImportError("halluscope.ray needs Ray Data: pip install 'halluscope[ray]' (ray[data]==2.60.0)") from None
    return ray


def score_dataset(
    ds: Any,
    metrics: str | Sequence[str] = ("chi",),
    *,
    prediction_column: str = "prediction",
    source_column: str = "source",
    reference_column: str | None = None,
    publication_date_column: str | None = None,
    id_column: str | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    preset: str | None = None,
    return_details: bool = False,
    batch_stats: bool = False,
    actors: Actors = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    num_cpus: float = 1,
    num_gpus: float = 0,
    resources: dict[str, float] | None = None,
    group_by_source: bool | int = False,
    max_restarts: int = DEFAULT_RETRIES,
    max_task_retries: int = DEFAULT_RETRIES,
    ledger: Any = None,
) -> Any:
    """``ds`` (a ``ray.data.Dataset``) with ``scores``, ``labels`` and, with
    ``return_details``, ``details`` added to every row, each a JSON string
    (docs/scaling.md#ray-data); lazy, like ``map_batches``. ``batch_stats`` adds
    :data:`~halluscope.ray.batches.BATCH_STATS_COLUMN` too: per row, the actor and batch
    that scored it, the batch's rows, distinct sources and seconds, the actor's loading
    time and peak memory (docs/scaling.md#sizing-the-actors).

    ``options[metric]``: that metric's keyword options (as ``score_chi`` takes them),
    checked here before anything runs; ``workers`` is refused (use ``actors``).
    ``actors``: the actor pool's size, or (min, max) for Ray to scale between; None:
    from 1 up to the cluster's CPUs over ``num_cpus``, less one actor's worth so that
    reading and writing are never starved. ``num_cpus``/``num_gpus``/``resources``:
    what each actor reserves. ``group_by_source`` sends the rows of one source to one
    actor, side by side in its batches, so that the source is parsed once: the rows are
    sorted by a hash of their source into ``group_by_source`` blocks (True:
    :data:`GROUPS_PER_ACTOR` per actor of the largest pool), a shuffle of the dataset
    (docs/scaling.md#grouping-by-source). ``max_restarts`` and
    ``max_task_retries``: finite, so a row that kills its actor every time ends the run
    with an error instead of retrying for ever. The output's order is Ray's: carry an id
    column (every input column is kept) and name it ``id_column`` to have errors name it;
    with ``ledger`` (:func:`halluscope.ray.ledger.start_ledger`) too, the rows of a batch
    whose actor died can be named (:func:`halluscope.ray.ledger.dead_batches`).
    """
    metrics = (metrics,) if isinstance(metrics, str) else tuple(dict.fromkeys(metrics))
    per_metric = _checked_options(metrics, options, preset)
    _check_count("max_restarts", max_restarts, minimum=0)
    _check_count("max_task_retries", max_task_retries, minimum=0)
    _check_count("batch_size", batch_size, minimum=1)
    _check_actors(actors)
    if not isinstance(group_by_source, bool):
        _check_count("group_by_source", group_by_source, minimum=1)
    ray = _ray()
    from ray.data import ActorPoolStrategy

    least, most = _pool_sizes(ray, actors, num_cpus)
    columns = Columns(
        prediction=prediction_column,
        source=source_column,
        reference=reference_column,
        publication_date=publication_date_column,
        id=id_column,
        group=GROUP_COLUMN if group_by_source else None,
    )
    if group_by_source:
        partitions = GROUPS_PER_ACTOR * most if group_by_source is True else group_by_source
        ds = _grouped(ds, source_column, partitions)
    # Ray Data 2.60 sets max_restarts=max_task_retries=-1 after the remote args it is
    # given; ray_remote_args_fn's dict is applied over them, for every actor it starts
    retries: functools.partial[dict[str, int]] = functools.partial(
        dict, max_restarts=max_restarts, max_task_retries=max_task_retries
    )
    return ds.map_batches(
        BatchScorer,
        fn_constructor_args=(metrics, per_metric, columns, return_details, preset, ledger, batch_stats),
        batch_size=batch_size,
        batch_format="pyarrow",
        compute=ActorPoolStrategy(min_size=least, max_size=most),
        num_cpus=num_cpus,
        num_gpus=num_gpus or None,
        resources=dict(resources) if resources else None,
        ray_remote_args_fn=retries,
        udf_modifying_row_count=False,
    )


def _checked_options(
    metrics: tuple[str, ...], options: Mapping[str, Mapping[str, Any]] | None, preset: str | None
) -> dict[str, dict[str, Any]]:
    """Each metric's options, resolved now (an unknown name or bad value is an
    :class:`OptionError` here, not in an actor)."""
    from ..scorer import Scorer

    if not metrics:
        raise OptionError("name at least one metric", option="metrics")
    options = dict(options or {})
    stray = sorted(set(options) - set(metrics))
    if stray:
        raise OptionError(
            f"options for {stray[0]!r}, which is not among the metrics {list(metrics)}; "
            "options are keyed by metric, e.g. options={'chi': {'formula': 'paper'}}",
            option="options",
        )
    per_metric = {metric: dict(options.get(metric) or {}) for metric in metrics}
    for metric, given in per_metric.items():
        if "workers" in given:
            raise OptionError(
                f"{metric}: workers does not apply on Ray (one actor is one process); use actors=", option="workers"
            )
        Scorer(metric, preset=preset, load=False, **given)
    return per_metric


def _check_count(name: str, value: Any, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        more = (
            " (Ray's -1, for ever, is refused: a row that kills its actor would retry for ever)" if minimum == 0 else ""
        )
        raise OptionError(f"`{name}` must be an integer >= {minimum}, got {value!r}{more}", option=name)


def _check_actors(actors: Actors) -> None:
    if isinstance(actors, tuple) and len(actors) == 2:
        _check_count("actors", actors[0], minimum=1)
        _check_count("actors", actors[1], minimum=actors[0] if isinstance(actors[0], int) else 1)
    elif actors is not None and not (isinstance(actors, int) and not isinstance(actors, bool) and actors >= 1):
        raise OptionError(
            f"`actors` must be a positive integer, a (min, max) pair or None, got {actors!r}", option="actors"
        )


def _pool_sizes(ray: Any, actors: Actors, num_cpus: float) -> tuple[int, int]:
    """The actor pool's (min, max) size for ``actors`` (see :func:`score_dataset`)."""
    if isinstance(actors, int):
        return actors, actors
    if isinstance(actors, tuple):
        return actors
    if not ray.is_initialized():
        ray.init()
    cpus = ray.cluster_resources().get("CPU", 1.0)
    return 1, max(1, int(cpus / max(num_cpus, 1e-9)) - 1)


def _grouped(ds: Any, source_column: str, partitions: int) -> Any:
    """``ds`` sorted by its rows' source groups into ``partitions`` blocks, each source's
    rows in one block and side by side (:func:`halluscope.ray.batches.add_source_groups`).
    The boundaries are given, so Ray makes that many blocks without sampling the keys."""
    keyed = ds.map_batches(add_source_groups, fn_args=(source_column,), batch_format="pyarrow", batch_size=None)
    return keyed.sort(GROUP_COLUMN, boundaries=group_boundaries(partitions))


__all__ = [
    "score_dataset",
    "record",
    "BatchScorer",
    "RESULT_COLUMNS",
    "BATCH_STATS_COLUMN",
    "DEFAULT_BATCH_SIZE",
    "DEFAULT_RETRIES",
]
