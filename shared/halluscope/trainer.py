"""``compute_metrics`` for transformers' ``Trainer`` and ``Seq2SeqTrainer``.

:func:`make_compute_metrics` builds a callable that decodes the evaluation
predictions, pairs them with the sources (and optional references) of the eval
dataset, scores them with one :class:`halluscope.Scorer` per metric (options checked
when the helper is made, models loaded once) and returns scalars.

What it accepts as ``EvalPrediction.predictions`` (numpy arrays or torch tensors):

- a tuple: its first element is used (models that also return hidden states);
- integer token ids of shape ``(rows, length)``: generated ids
  (``Seq2SeqTrainingArguments(predict_with_generate=True)``) or ids produced by
  ``preprocess_logits_for_metrics`` (e.g. ``logits.argmax(-1)``, which also saves memory);
- floating logits of shape ``(rows, length, vocab)``: greedy ids by ``argmax(-1)``
  (teacher-forced, so only a rough proxy of generated text); positions that Trainer
  padded with -100 across processes decode as padding.

``-100`` (Trainer's padding index) in ids and labels is replaced by the tokenizer's
pad id; texts are decoded with ``skip_special_tokens=True`` and stripped. Decoder-only
models' predictions include the prompt: strip it in ``preprocess_logits_for_metrics``.

Row order: Trainer hands over predictions in the eval dataset's order (also when
gathered from several processes, the last batch's duplicates removed), so row ``i``
is scored against ``eval_dataset[i][source_field]``. The number of predictions must
equal the dataset length, else ``ValueError`` naming both numbers.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .distributed import PER_ROW_OPTIONS, process_group_active, rank_and_world_size, score_distributed
from .option_types import METRICS
from .scorer import Scorer

#: metric names and their ``halluscope.api`` functions (the registry in halluscope.options)
METRIC_NAMES = METRICS

#: Trainer's padding index for labels and for predictions gathered across processes
IGNORE_INDEX = -100


def _score_in_api_order(
    scorer: Scorer,
    predictions: Sequence[str],
    sources: Sequence[str],
    references: Sequence[Any] | None = None,
    **per_row: Any,
) -> Any:
    """``scorer.score`` called as the ``score_*`` functions are (predictions first), the
    form :func:`halluscope.distributed.score_distributed` shards."""
    return scorer.score(predictions, sources, references, **per_row)


def _check_metric(name: str) -> None:
    if name not in METRIC_NAMES:
        raise ValueError(f"unknown metric {name!r}; choose from {METRIC_NAMES}")


def _column(dataset: Any, field: str, role: str) -> list[Any]:
    """One column of a ``datasets.Dataset`` or a mapping of columns, as a list."""
    names = getattr(dataset, "column_names", None)
    if names is None and isinstance(dataset, Mapping):
        names = list(dataset)
    if names is not None and field not in names:
        raise KeyError(f"{role} {field!r} is not a column of the eval dataset (columns: {list(names)})")
    return list(dataset[field])


def _to_numpy(array: Any) -> np.ndarray:
    if hasattr(array, "detach"):  # torch tensors (batch_eval_metrics hands them over on device)
        array = array.detach().cpu().numpy()
    return np.asarray(array)


def token_ids(predictions: Any) -> np.ndarray:
    """Token ids of shape ``(rows, length)`` from predictions in any accepted form
    (module docstring); -100 is kept for :func:`decode` to replace."""
    if isinstance(predictions, tuple):
        if not predictions:
            raise ValueError("predictions is an empty tuple")
        predictions = predictions[0]
    array = _to_numpy(predictions)
    if np.issubdtype(array.dtype, np.floating):
        if array.ndim != 3:
            raise ValueError(
                f"floating predictions must be logits of shape (rows, length, vocab), got shape {array.shape}"
            )
        padded = np.all(array == IGNORE_INDEX, axis=-1)
        return np.where(padded, IGNORE_INDEX, array.argmax(-1))
    if not np.issubdtype(array.dtype, np.integer) or array.ndim != 2:
        raise ValueError(
            f"predictions must be token ids of shape (rows, length) or logits of shape "
            f"(rows, length, vocab), got dtype {array.dtype} and shape {array.shape}"
        )
    return array


def decode(tokenizer: Any, ids: Any) -> list[str]:
    """Texts of a ``(rows, length)`` id array: -100 becomes the pad id, special
    tokens are skipped, whitespace is stripped."""
    pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    if pad_id is None:
        raise ValueError("the tokenizer has neither a pad token nor an eos token to replace -100 with")
    array = _to_numpy(ids)
    array = np.where(array == IGNORE_INDEX, pad_id, array)
    return [text.strip() for text in tokenizer.batch_decode(array.tolist(), skip_special_tokens=True)]


class HalluscopeComputeMetrics:
    """The ``compute_metrics`` callable built by :func:`make_compute_metrics`.

    ``__call__(eval_pred, compute_result=True)``: decoded texts are buffered; when
    ``compute_result`` is true, all buffered rows are scored and the buffer is reset.
    Trainer calls it once with all predictions, or, with ``batch_eval_metrics=True``,
    once per batch with ``compute_result`` true on the last one (the earlier calls
    return ``{}``, which Trainer discards). The same object serves both settings.

    ``signatures`` maps each metric to the signature of its last scores (not in the
    returned dict, which holds numbers only: log it once, e.g. in the run's config).
    """

    def __init__(
        self,
        tokenizer: Any,
        sources: list[str],
        references: list[Any] | None,
        metrics: Sequence[str],
        references_from_labels: bool,
        metric_kwargs: Mapping[str, Mapping[str, Any]],
        main_process_only: bool,
        prefix: str,
        undefined_value: float,
        source_field: str = "source",
        reference_field: str | None = None,
    ) -> None:
        self.tokenizer = tokenizer
        self.source_field = source_field
        self.reference_field = reference_field
        self.sources = sources
        self.references = references
        self.metrics = tuple(metrics)
        self.references_from_labels = references_from_labels
        self.metric_kwargs = {name: dict(metric_kwargs.get(name, {})) for name in self.metrics}
        #: one halluscope.Scorer per metric: its options are checked here, before training
        #: starts; per-row options (publication dates) go with each call
        self.scorers: dict[str, Scorer] = {
            name: Scorer(
                name, load=False, **{k: v for k, v in self.metric_kwargs[name].items() if k not in PER_ROW_OPTIONS}
            )
            for name in self.metrics
        }
        self.main_process_only = main_process_only
        self.prefix = prefix
        self.undefined_value = undefined_value
        self.signatures: dict[str, str] = {}
        self._predictions: list[str] = []
        self._labels: list[str] = []

    def use(
        self, dataset: Any, *, source_field: str | None = None, reference_field: str | None = None
    ) -> HalluscopeComputeMetrics:
        """Score the next evaluations against ``dataset`` (another split), e.g. before
        ``trainer.predict(test_dataset)``: its ``source_field`` column (default: the
        field the helper was built with) and, when the helper reads references from a
        column, its ``reference_field``. Models stay loaded; buffered rows are dropped.
        Returns the helper, so ``trainer.compute_metrics = compute_metrics.use(test)``
        reads naturally."""
        self.source_field = source_field or self.source_field
        if reference_field is not None:
            if self.references_from_labels:
                raise ValueError("this helper takes its references from the labels; reference_field does not apply")
            self.reference_field = reference_field
        self.sources = _column(dataset, self.source_field, "source_field")
        self.references = (
            None if self.reference_field is None else _column(dataset, self.reference_field, "reference_field")
        )
        self.reset()
        return self

    # ------------------------------------------------------------------ buffering
    def reset(self) -> None:
        """Drop buffered rows (done after every scoring and on errors)."""
        self._predictions, self._labels = [], []

    def _add(self, eval_pred: Any) -> None:
        predictions = decode(self.tokenizer, token_ids(eval_pred.predictions))
        self._predictions.extend(predictions)
        if self.references_from_labels:
            if eval_pred.label_ids is None:
                raise ValueError("references_from_labels=True but the evaluation has no labels")
            self._labels.extend(decode(self.tokenizer, eval_pred.label_ids))
        if len(self._predictions) > len(self.sources):
            raise ValueError(self._mismatch(len(self._predictions)))

    def _mismatch(self, num_predictions: int) -> str:
        return (
            f"compute_metrics received {num_predictions} predictions but the eval dataset it was built with "
            f"has {len(self.sources)} rows; for another split call compute_metrics.use(that_dataset) "
            "before trainer.evaluate(that_dataset) or trainer.predict(that_dataset)"
        )

    def __call__(self, eval_pred: Any, compute_result: bool = True) -> dict[str, float]:
        try:
            self._add(eval_pred)
            if not compute_result:
                return {}
            if len(self._predictions) != len(self.sources):
                raise ValueError(self._mismatch(len(self._predictions)))
            predictions = self._predictions
            references = self._labels if self.references_from_labels else self.references
        except BaseException:
            self.reset()
            raise
        self.reset()
        return self._score(predictions, references)

    # -------------------------------------------------------------------- scoring
    def _score(self, predictions: list[str], references: list[Any] | None) -> dict[str, float]:
        if not process_group_active():
            return self._score_here(predictions, references, sharded=False)
        if not self.main_process_only:
            return self._score_here(predictions, references, sharded=True)
        import torch.distributed as dist

        rank, _ = rank_and_world_size()
        message: list[Any] = [None]
        error: BaseException | None = None
        if rank == 0:
            try:
                message[0] = ("ok", self._score_here(predictions, references, sharded=False), self.signatures)
            except Exception as caught:  # other ranks wait in the broadcast: tell them
                error = caught
                message[0] = ("error", f"{type(caught).__name__}: {caught}", None)
        dist.broadcast_object_list(message, src=0)
        status, content, signatures = message[0]
        if status == "error":
            raise RuntimeError(f"scoring on rank 0 failed: {content}") from error
        self.signatures = dict(signatures)
        return content

    def _score_here(self, predictions: list[str], references: list[Any] | None, sharded: bool) -> dict[str, float]:
        results = {}
        for name in self.metrics:
            score_fn = functools.partial(_score_in_api_order, self.scorers[name])
            per_row = {k: v for k, v in self.metric_kwargs[name].items() if k in PER_ROW_OPTIONS}
            if sharded:
                result = score_distributed(score_fn, predictions, self.sources, references, all_ranks=True, **per_row)
            else:
                result = score_fn(predictions, self.sources, references, **per_row)
            assert result is not None  # all_ranks=True: every rank receives the merged result
            self.signatures[name] = result.get("signature", "")
            results[name] = result
        return scalar_metrics(results, prefix=self.prefix, undefined_value=self.undefined_value)

    def warm_up(self) -> None:
        """Load every model once (each metric's :class:`halluscope.Scorer` scores a short
        example with its options)."""
        for scorer in self.scorers.values():
            scorer.load()


def scalar_metrics(
    results: Mapping[str, Mapping[str, Any]], prefix: str = "", undefined_value: float = math.nan
) -> dict[str, float]:
    """The numbers of several metrics' results in one flat dict.

    Per metric, every int and float is kept (means, ``<dim>_defined`` counts, dlsd's
    counters); lists, ``signature`` and ``details`` are dropped. An undefined mean
    (NaN: no example defines that dimension) becomes ``undefined_value``. A key
    produced by several metrics belongs to the metric it is named after (``rhi`` and
    ``rhi_defined`` to the ``rhi`` metric); the others' copies are renamed
    ``<metric>_<key>`` (``chi_rhi``: the RHI* that CHI fuses).
    """
    producers: dict[str, list[str]] = {}
    for name, result in results.items():
        for key, value in result.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                producers.setdefault(key, []).append(name)
    output: dict[str, float] = {}
    for name, result in results.items():
        for key, value in result.items():
            if key not in producers:
                continue
            shared = len(producers[key]) > 1
            owned = key == name or key.startswith(f"{name}_")
            out_key = f"{name}_{key}" if shared and not owned else key
            if isinstance(value, float) and math.isnan(value):
                value = undefined_value
            output[f"{prefix}{out_key}"] = value
    return output


def make_compute_metrics(
    tokenizer: Any,
    eval_dataset: Any,
    metrics: Sequence[str] = ("chi",),
    *,
    source_field: str = "source",
    reference_field: str | None = None,
    references_from_labels: bool = False,
    metric_kwargs: Mapping[str, Mapping[str, Any]] | None = None,
    main_process_only: bool = True,
    prefix: str = "",
    undefined_value: float = math.nan,
    warm_up: bool = True,
) -> HalluscopeComputeMetrics:
    """Build ``compute_metrics`` for a (Seq2Seq)Trainer evaluating on ``eval_dataset``.

    Args:
        tokenizer: decodes predictions and labels (the Trainer's ``processing_class``).
        eval_dataset: the dataset given to the Trainer (``datasets.Dataset`` or a
            mapping of columns) that still holds the source text column.
        metrics: names among ``chi``, ``ehi``, ``rhi``, ``qhi``, ``dlsd_acu``.
        source_field: column with the source documents.
        reference_field: column with reference summaries (a string, ``""`` for a
            reference-free row, or a list of strings per row); None: reference-free.
        references_from_labels: use the decoded labels as references instead
            (exclusive with ``reference_field``).
        metric_kwargs: options per metric (:mod:`halluscope.options`), checked now by each
            metric's :class:`halluscope.Scorer`; ``publication_dates`` goes with every call,
            e.g. ``{"chi": {"device": "cuda"}, "rhi": {"variant": "softmax"}}``.
        main_process_only: under ``torch.distributed``, score on rank 0 only and
            broadcast the numbers, so every rank returns the same dict (Trainer reads
            ``metric_for_best_model`` on every rank). False: each rank scores a
            contiguous share of the rows and the shares are gathered
            (:func:`halluscope.distributed.score_distributed`); same numbers, each rank
            loads the models. Without a process group both score locally.
        prefix: prepended to every key (Trainer adds ``eval_`` in front).
        undefined_value: reported for a mean no row defines (default NaN; with
            ``metric_for_best_model`` a NaN never compares as better).
        warm_up: load the models now (on rank 0 only with ``main_process_only``).
    """
    if isinstance(metrics, str):
        raise TypeError('`metrics` must be a sequence of metric names, e.g. ("chi",)')
    for name in metrics:
        _check_metric(name)
    if not metrics or len(set(metrics)) != len(metrics):
        raise ValueError(f"`metrics` must name each metric once, got {list(metrics)}")
    metric_kwargs = dict(metric_kwargs or {})
    unknown = set(metric_kwargs) - set(metrics)
    if unknown:
        raise ValueError(f"metric_kwargs for metrics not requested: {sorted(unknown)} (metrics: {list(metrics)})")
    if references_from_labels and reference_field is not None:
        raise ValueError("give either reference_field or references_from_labels=True, not both")
    sources = _column(eval_dataset, source_field, "source_field")
    references = None if reference_field is None else _column(eval_dataset, reference_field, "reference_field")
    compute_metrics = HalluscopeComputeMetrics(
        tokenizer,
        sources,
        references,
        metrics,
        references_from_labels,
        metric_kwargs,
        main_process_only,
        prefix,
        undefined_value,
        source_field=source_field,
        reference_field=reference_field,
    )
    if warm_up and (not main_process_only or rank_and_world_size()[0] == 0):
        compute_metrics.warm_up()
    return compute_metrics
