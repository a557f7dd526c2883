"""A scorer object: choose a metric and its options once, load its models once, score
many batches (as ``bert_score.BERTScorer`` and SummaC's ``SummaCZS(...).score``).

    >>> from halluscope import Scorer
    >>> scorer = Scorer("chi")                       # options checked, models loaded here
    >>> result = scorer.score(predictions, sources)  # a halluscope.results.ScoreResult
    >>> for result in scorer.score_batches(rows, batch_size=64):   # a progress bar
    ...     ...
    >>> result = scorer.score_dataset(dataset, source_column="document")   # a datasets.Dataset

Options and presets are those of :mod:`halluscope.options`: an unknown name or a bad
value is an :class:`halluscope.errors.OptionError` when the scorer is made, not when
the first batch is scored. A scorer holds its :class:`halluscope.resources.Resources`
(``resources=``; default: the process's default, which the ``halluscope.score_*``
functions use): the caches it scores with (parses, units, text indexes, embeddings,
WordNet answers) and the models they read. The models (spaCy, the sentence encoder,
WordNet, the NLI model and decomposer) load in the constructor; they are the process's
shared instances (:mod:`halluscope.registry`), so several scorers with the same models
hold one copy, each with its own caches when each has its own Resources::

    >>> private = Scorer("chi", resources=Resources())   # caches of its own
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from . import api
from .errors import InputError
from .option_types import METRICS
from .options import resolve
from .resources import Resources
from .results import ScoreResult
from .validation import is_no_reference, warn_if_swapped

#: a row of :meth:`Scorer.score_batches`: a mapping with "prediction" and "source" (and
#: optionally "reference", "publication_date"), or a (prediction, source[, reference])
#: tuple: the order of ``score_chi``
Row = Any
#: a batch as the API takes it: predictions, sources, references or None, dates or None
Columns = tuple[list, list, list | None, list | None]


class Scorer:
    """One metric with fixed options; :meth:`score` and :meth:`score_batches` use them.

    ``metric``: one of :data:`halluscope.options.METRICS`; ``preset``: a name of
    :data:`halluscope.options.PRESETS` (its values under ``options``); ``load``:
    False defers model loading to the first batch (for a process that forks first);
    ``resources``: the :class:`halluscope.resources.Resources` to score with (None:
    the process's default). dlsd_acu takes its NLI engine and parses from them; its
    decomposer, coreference and discourse-link components stay process-wide
    (:mod:`halluscope.resources`).
    """

    def __init__(
        self,
        metric: str,
        *,
        preset: str | None = None,
        load: bool = True,
        resources: Resources | None = None,
        **options: Any,
    ) -> None:
        self.metric = metric
        self.preset = preset
        self.options: dict[str, Any] = dict(options)
        #: every option's value, defaults and preset included (checked now)
        self.resolved: dict[str, Any] = resolve(metric, options, preset_name=preset)
        #: the models and caches this scorer scores with
        self.resources: Resources = Resources.default() if resources is None else resources
        self._signature: str | None = None
        if load:
            self.load()

    def __repr__(self) -> str:
        given = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        preset = f", preset={self.preset!r}" if self.preset else ""
        return f"Scorer({self.metric!r}{preset}{', ' + given if given else ''})"

    def load(self) -> Scorer:
        """Load the models now (the constructor does unless ``load=False``) by scoring
        one tiny example; the signature is known afterwards."""
        probe = api.score_metric(
            self.metric,
            ["Ada Lovelace wrote notes in 1843."],
            ["Ada Lovelace wrote notes in 1843."],
            None,
            resources=self.resources,
            preset=self.preset,
            **self.options,
        )
        self._signature = probe.signature
        return self

    @property
    def signature(self) -> str:
        """The signature every result of this scorer carries."""
        if self._signature is None:
            self.load()
        return self._signature  # type: ignore[return-value]

    def score(
        self,
        predictions: Sequence[str],
        sources: Sequence[str],
        references=None,
        *,
        publication_dates: Sequence[Any] | None = None,
        return_details: bool = False,
    ) -> ScoreResult:
        """Score ``predictions`` (the summaries) against their ``sources``, optionally
        with ``references`` (None: reference-free) and, for qhi and chi, per-row
        ``publication_dates``: the order and names of ``score_chi`` and the evaluate
        modules. Predictions that are all longer than their sources, and twice as long
        in all, look swapped: a :class:`UserWarning` says so (they are scored as given)."""
        warn_if_swapped(predictions, sources)
        result = api.score_metric(
            self.metric,
            predictions,
            sources,
            references,
            resources=self.resources,
            publication_dates=publication_dates,
            return_details=return_details,
            preset=self.preset,
            **self.options,
        )
        self._signature = result.signature
        return result

    def score_batches(
        self,
        rows: Iterable[Row],
        *,
        batch_size: int = 64,
        return_details: bool = False,
        progress: bool = True,
        total: int | None = None,
    ) -> Iterator[ScoreResult]:
        """Score an iterable of rows in batches of ``batch_size``, yielding one result
        per batch (merge them with :meth:`halluscope.results.ScoreResult.merge`); a
        tqdm progress bar counts rows. A row's reference follows the table of
        docs/api.md#what-a-reference-may-be (no "reference" key, a 2-tuple, None or
        ``""``: no reference; ``0``, ``False``, ``[]``: an error naming the row). Row
        numbers in errors count from the first row; the error says which batch."""
        _check_batch_size(batch_size)

        def columns() -> Iterator[Columns]:
            start = 0
            for batch in _batches(rows, batch_size):
                yield _columns(batch, start)
                start += len(batch)

        return self._scored(columns(), return_details, progress, total)

    def score_dataset(
        self,
        dataset: Any,
        *,
        prediction_column: str = "prediction",
        source_column: str = "source",
        reference_column: str | None = None,
        publication_date_column: str | None = None,
        batch_size: int = 64,
        return_details: bool = False,
        progress: bool = True,
    ) -> ScoreResult:
        """Score a ``datasets.Dataset`` (or anything with ``column_names``,
        ``num_rows`` and ``iter(batch_size=)``) by its columns, batch by batch, into one
        result in row order; add its per-example lists as columns with
        ``dataset.add_column`` (docs/api.md, "Scoring a datasets.Dataset"). The rows are
        read in batches, never copied whole, and no function is hashed or pickled (as
        ``Dataset.map`` would do with a scorer holding models). A missing column is an
        :class:`halluscope.errors.InputError` naming it and the columns there are."""
        _check_batch_size(batch_size)
        columns = {
            "prediction": prediction_column,
            "source": source_column,
            "reference": reference_column,
            "publication_date": publication_date_column,
        }
        present = list(getattr(dataset, "column_names", None) or [])
        for key, name in columns.items():
            if name is not None and name not in present:
                raise InputError(
                    f"the dataset has no column {name!r} for the {key}s (its columns: "
                    f"{', '.join(map(str, present))}); pass {key}_column=",
                    field=f"{key}_column",
                )

        def batches() -> Iterator[Columns]:
            for batch in dataset.iter(batch_size=batch_size):
                references = None if reference_column is None else list(batch[reference_column])
                dates = None if publication_date_column is None else list(batch[publication_date_column])
                yield present_columns(list(batch[prediction_column]), list(batch[source_column]), references, dates)

        results = list(self._scored(batches(), return_details, progress, getattr(dataset, "num_rows", None)))
        if not results:
            raise InputError("the dataset has no rows", field="dataset")
        return ScoreResult.merge(results)

    def _scored(
        self, batches: Iterable[Columns], return_details: bool, progress: bool, total: int | None
    ) -> Iterator[ScoreResult]:
        """One result per batch of columns; an input error names its row in the whole run."""
        from tqdm.auto import tqdm

        bar = tqdm(total=total, unit="row", disable=not progress, desc=self.metric)
        try:
            start = 0
            for predictions, sources, references, dates in batches:
                try:
                    yield self.score(
                        predictions, sources, references, publication_dates=dates, return_details=return_details
                    )
                except InputError as error:
                    raise InputError(
                        f"{error.message} (in the batch starting at row {start})",
                        field=error.field,
                        row=None if error.row is None else start + error.row,
                    ) from None
                start += len(predictions)
                bar.update(len(predictions))
        finally:
            bar.close()


def _check_batch_size(batch_size: Any) -> None:
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise InputError(f"`batch_size` must be a positive integer, got {batch_size!r}", field="batch_size")


def _batches(rows: Iterable[Row], size: int) -> Iterator[list]:
    batch: list = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _columns(batch: Sequence[Row], start: int) -> Columns:
    """(predictions, sources, references or None, publication dates or None) of a batch."""
    predictions, sources, references, dates = [], [], [], []
    for offset, row in enumerate(batch):
        if isinstance(row, Mapping):
            missing = [key for key in ("prediction", "source") if key not in row]
            if missing:
                raise InputError(
                    f"a row needs the keys 'prediction' and 'source'; missing {missing}",
                    row=start + offset,
                    field=missing[0],
                )
            predictions.append(row["prediction"])
            sources.append(row["source"])
            references.append(row.get("reference"))  # absent: None, no reference
            dates.append(row.get("publication_date"))
        elif isinstance(row, (tuple, list)) and len(row) in (2, 3):
            predictions.append(row[0])
            sources.append(row[1])
            references.append(row[2] if len(row) == 3 else None)
            dates.append(None)
        else:
            raise InputError(
                "a row must be a mapping with 'prediction' and 'source' or a (prediction, source"
                f"[, reference]) tuple, got {type(row).__name__}",
                row=start + offset,
                field="row",
            )
    return present_columns(predictions, sources, references, dates)


def present_columns(predictions: list, sources: list, references: list | None, dates: list | None) -> Columns:
    """The columns of a batch, with references None when no row of the batch has one
    (each means no reference by the table of docs/api.md#what-a-reference-may-be; any
    other value, ``0`` or ``[]`` among them, goes to the validation, which names its row)
    and publication dates None when no row has one."""
    has_refs = references is not None and not all(map(is_no_reference, references))
    has_dates = dates is not None and any(date is not None for date in dates)
    return predictions, sources, (references if has_refs else None), (dates if has_dates else None)


__all__ = ["Scorer", "METRICS"]
