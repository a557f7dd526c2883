"""What the five evaluate modules share: features, citations, constructor checks,
row validation and the call into :mod:`halluscope.api`.

The scripts in ``metrics/<name>/`` stay thin: they hold their description, returns
and examples; their option docs come from :func:`halluscope.options.options_doc`, and
their options, model options and presets (``evaluate.load(path, config_name)``) from
:mod:`halluscope.options`.
"""

from __future__ import annotations

import inspect
from typing import Any

import datasets
import evaluate

#: ``references`` may be one string or a list of strings per example; ``sources`` is
#: an ordinary feature (as in COMET). What a row's reference may be is the API's table
#: (docs/api.md#what-a-reference-may-be): None or ``""`` selects the reference-free mode
#: for that row. Rows are stored as lists, ``[]`` for a row without reference
#: (:func:`validate_module_rows`), a layout internal to the module.
FEATURES = [
    datasets.Features(
        {
            "predictions": datasets.Value("string"),
            "references": datasets.Sequence(datasets.Value("string")),
            "sources": datasets.Value("string"),
        }
    ),
    datasets.Features(
        {
            "predictions": datasets.Value("string"),
            "references": datasets.Value("string"),
            "sources": datasets.Value("string"),
        }
    ),
]

#: keyword arguments ``evaluate.load`` itself passes to a module's constructor
_EVALUATE_INIT_KWARGS = {
    "config_name",
    "keep_in_memory",
    "cache_dir",
    "num_process",
    "process_id",
    "seed",
    "experiment_id",
    "hash",
    "max_concurrent_cache_files",
    "timeout",
}

#: where the code lives (``MetricInfo.homepage`` and ``codebase_urls``)
REPOSITORY_URL = "https://github.com/halluscope/halluscope"
#: the project's reading of the papers: every formula, contradiction and decision
PAPERS_URL = f"{REPOSITORY_URL}/blob/main/docs/papers.md"
#: ``MetricInfo.reference_urls`` per metric: the section of docs/papers.md on its
#: formulas, then the paper where a public copy is known (the RHI paper's arXiv page;
#: the copies of the others we implemented from name no address)
REFERENCE_URLS: dict[str, tuple[str, ...]] = {
    "chi": (f"{PAPERS_URL}#chi-fusion",),
    "ehi": (f"{PAPERS_URL}#ehi",),
    "rhi": (f"{PAPERS_URL}#linear-rhi", "https://arxiv.org/abs/2608.08180"),
    "qhi": (f"{PAPERS_URL}#qhi",),
    "dlsd_acu": (f"{PAPERS_URL}#dl-acu", f"{PAPERS_URL}#sd-acu"),
}

CITATION_CHI = """\
@misc{chi_composite,
  title   = {CHI: A Composite Hallucination Index Unifying Entity, Relation, and Quantity
             Dimensions for Summarization Evaluation},
  note    = {author list and venue not given in the copy we implemented from}
}"""

CITATION_RHI = """\
@misc{katwe_rhi_grounded,
  title   = {A Grounded and Decomposed Framework for Relation-Level Hallucination
             Evaluation in Abstractive Summarization},
  author  = {Katwe, Praveen Kumar and Balabantaray, Rakesh Chandra and Vittala, Kali Prasad
             and Kabadi, Naman},
  note    = {year and venue not given in the copy we implemented from}
}"""

CITATION_EHI = """\
@inproceedings{praveenkumar2023ehi,
  title     = {Entity Hallucination Index in Abstractive Summarization -- A Metric},
  author    = {Praveenkumar, K. and Balabantaray, Rakesh Chandra and Vittala, Kali Prasad},
  booktitle = {Proc. 2023 Int. Conf. Communications, Circuits, and Systems (IC3S)},
  year      = {2023}
}"""

CITATION_DLSD = """\
@misc{mind_the_link,
  title = {Mind the Link: Discourse Link-Aware Hallucination Detection in Summarization},
  note  = {author list and venue not given in the copy we implemented from}
}
@inproceedings{yang2024fizz,
  title     = {FIZZ: Factual Inconsistency Detection by Zoom-in Summary and Zoom-out Document},
  author    = {Yang, Joonho and Yoon, Seunghyun and Kim, Byeongjeong and Lee, Hwanhee},
  booktitle = {Proceedings of EMNLP},
  year      = {2024}
}"""


def split_init_kwargs(name: str, kwargs: dict[str, Any], allowed: tuple[str, ...]) -> dict[str, Any]:
    """Separate our model options (``allowed``) from evaluate's own constructor
    arguments, removing them from ``kwargs``, and fail loudly on anything else
    (``evaluate.load`` would otherwise drop an unknown keyword silently)."""
    unknown = set(kwargs) - _EVALUATE_INIT_KWARGS - set(allowed)
    if unknown:
        raise TypeError(
            f"{name}: unknown option(s) {sorted(unknown)}; model options are {allowed}, scoring options go to compute()"
        )
    return {key: kwargs.pop(key) for key in allowed if key in kwargs}


#: the three input columns evaluate encodes, and their names in ``add()``
_COLUMNS = ("predictions", "references", "sources")


def validate_module_rows(
    predictions: Any, references: Any, sources: Any, first_row: int = 0
) -> tuple[list[str], list[list[str]], list[str]]:
    """Check every row of a batch before evaluate encodes it (evaluate itself checks
    row 0 only and turns later values into strings): the API's own validation
    (:func:`halluscope.validation.validate_inputs`), so the errors are the API's
    :class:`halluscope.errors.InputError` naming row and field; ``first_row`` shifts
    the row numbers of a later ``add_batch``/``add``. What a reference may be is the
    API's table (docs/api.md#what-a-reference-may-be): ``0``, ``False`` or ``[]`` given
    here is the same error. Returns the columns to encode, references as lists (a row
    without reference, None or ``""``, becomes ``[]``), so that every batch has one
    feature layout however strings and lists are mixed; :func:`references_for_backend`
    reads that ``[]`` back as None."""
    from .errors import InputError
    from .validation import validate_inputs

    for name, column in zip(_COLUMNS, (predictions, references, sources), strict=True):
        if column is not None and not isinstance(column, (str, bytes, dict)):
            try:
                len(column)
            except TypeError:
                raise InputError(f"`{name}` must be a list, got {type(column).__name__}", field=name) from None
        elif isinstance(column, (bytes, dict)):
            raise InputError(f"`{name}` must be a list, got {type(column).__name__}", field=name)
    try:
        batch = validate_inputs(predictions, sources, references)
    except InputError as error:
        if error.row is None or not first_row:
            raise
        message = str(error)[len(f"row {error.row}: ") :]
        raise InputError(message, row=error.row + first_row, field=error.field) from None
    return batch.predictions, [list(refs) for refs in batch.references], batch.sources


def references_for_backend(references: Any) -> list[Any] | None:
    """The references evaluate hands back, for :mod:`halluscope.api`: the module's own
    encoding of a row without reference, ``[]`` (:func:`validate_module_rows`), becomes
    None, which the table of docs/api.md#what-a-reference-may-be reads as no reference
    (the API refuses an empty list from a caller); strings and lists of strings pass as
    they are (the backend validates every row)."""
    if references is None:
        return None
    return [None if isinstance(ref, (list, tuple)) and not ref else ref for ref in references]


def compute_signature(metric: str) -> inspect.Signature:
    """The signature of ``metric``'s ``_compute``: the three columns, then
    ``publication_dates`` (for the metrics that resolve dates), ``return_details`` and
    every option of :func:`halluscope.options.options_for` as a keyword with its
    declared default, and no ``**kwargs`` (evaluate's module tests require that).

    Generated from the option table, so an option added there is declared here too;
    the function behind it still receives any keyword, and a name outside this
    signature is the :class:`halluscope.errors.OptionError` of
    :func:`halluscope.options.resolve`, naming it and listing the valid ones. A preset
    (``evaluate.load(path, "paper")``) changes the values the defaults stand for."""
    from .option_types import METRIC_SPECS
    from .options import options_for

    positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [inspect.Parameter(name, positional) for name in ("self",) + _COLUMNS]
    if METRIC_SPECS[metric].takes_dates:
        parameters.append(inspect.Parameter("publication_dates", keyword, default=None))
    parameters.append(inspect.Parameter("return_details", keyword, default=False))
    parameters += [
        inspect.Parameter(name, keyword, default=option.default) for name, option in options_for(metric).items()
    ]
    return inspect.Signature(parameters)


def _example_value(given: dict[str, Any], singular: str, plural: str) -> Any:
    """One example's value for ``add``, given under the singular name or under
    evaluate's column name (``evaluate.combine(...).add`` passes ``predictions=``,
    ``references=``, ``sources=``); both at once is an error naming the two."""
    from .errors import InputError

    one, other = given.pop(singular, None), given.pop(plural, None)
    if one is not None and other is not None:
        raise InputError(
            f"`{singular}` and `{plural}` name the same field of the example added: give one", field=plural
        )
    return one if one is not None else other


class HalluscopeMetric(evaluate.Metric):
    """Base of the metric scripts: constructor checks, row checks, module info, and
    the call into :mod:`halluscope.api`.

    A script subclasses it through the module (``class Chi(
    halluscope.evaluate_support.HalluscopeMetric)``), never by importing the class
    name, because evaluate's loader takes the first ``EvaluationModule`` subclass it
    finds in the script's namespace. Subclasses set ``metric_id``,
    ``metric_description``, ``metric_inputs`` and ``metric_citation`` (the names avoid
    evaluate's own ``name``/``description``/``citation`` properties); each gets a
    ``_compute`` whose signature lists its options (:func:`compute_signature`).

    ``compute`` returns a plain ``dict`` (:meth:`halluscope.results.ScoreResult.to_dict`):
    the keys and values of the API's result, in the type every consumer can rebuild
    (transformers' Trainer rebuilds each dict as ``type(d)(items)``; docs/trainer.md).

    ``evaluate.load(path, config_name)`` selects a preset of
    :data:`halluscope.options.PRESETS` ("default", "paper"); an unknown name is an
    :class:`halluscope.errors.OptionError` listing them. The model options of
    :func:`halluscope.options.model_option_names` go to ``evaluate.load`` (models load
    once per process) or to ``compute``; every other option to ``compute``.
    """

    metric_id: str = ""
    metric_description: str = ""
    metric_inputs: str = ""
    metric_citation: str = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.metric_id:
            return

        def _compute(self, predictions, references, sources, **options: Any) -> dict[str, Any]:
            return self._score(predictions, references, sources, options)

        _compute.__signature__ = compute_signature(cls.metric_id)  # type: ignore[attr-defined]  # typeshed declares no __signature__ on functions
        _compute.__doc__ = (
            f"Score with ``halluscope.api.score_{cls.metric_id}``; the keywords are "
            f"``halluscope.options.options_for({cls.metric_id!r})``."
        )
        _compute.__qualname__ = f"{cls.__qualname__}._compute"
        cls._compute = _compute

    def __init__(self, **kwargs: Any) -> None:
        from .options import PRESETS, model_option_names

        self.model_options = split_init_kwargs(self.metric_id, kwargs, model_option_names(self.metric_id))
        config_name = kwargs.get("config_name") or "default"
        if config_name not in PRESETS:
            from .errors import OptionError

            raise OptionError(
                f"{self.metric_id}: unknown configuration {config_name!r}; the presets are "
                f"{', '.join(PRESETS)} (evaluate.load(path, config_name))",
                option="config_name",
            )
        self.preset = config_name
        self._rows_added = 0  # rows stored by add/add_batch since the last compute
        super().__init__(**kwargs)

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> dict[str, Any] | None:
        """evaluate's ``compute``, with every row of the inputs validated first
        (:func:`validate_module_rows`): a missing column or a bad value in any row is
        an :class:`halluscope.errors.InputError` naming row and field."""
        from .errors import InputError

        if (predictions is not None or references is not None) and kwargs.get("sources") is None:
            raise InputError("`sources` is required (one source document per prediction)", field="sources")
        return super().compute(predictions=predictions, references=references, **kwargs)

    def _finalize(self) -> None:
        """evaluate closes the stored rows here (in ``compute``): row numbers restart."""
        self._rows_added = 0
        super()._finalize()

    def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> None:
        """evaluate's ``add_batch`` after validating every row (row numbers count the
        rows added since the last ``compute``)."""
        predictions, references, sources = validate_module_rows(
            predictions, references, kwargs.pop("sources", None), self._rows_added
        )
        super().add_batch(predictions=predictions, references=references, sources=sources, **kwargs)
        self._rows_added += len(predictions)

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> None:
        """evaluate's ``add`` after validating the example like one row of a batch. Each
        field may be named as in evaluate's ``add`` (``predictions=``, ``references=``,
        ``sources=``: one example's values, what ``evaluate.combine(...).add`` passes)
        or in the singular (``prediction=``, ``reference=``, ``source=``)."""
        given = dict(kwargs, prediction=prediction, reference=reference)
        prediction = _example_value(given, "prediction", "predictions")
        reference = _example_value(given, "reference", "references")
        source = _example_value(given, "source", "sources")
        predictions, references, sources = validate_module_rows(
            [prediction], [reference] if reference is not None else None, [source], self._rows_added
        )
        super().add(prediction=predictions[0], reference=references[0], sources=sources[0], **given)
        self._rows_added += 1

    def _score(self, predictions, references, sources, options: dict[str, Any]) -> dict[str, Any]:
        """Score with :mod:`halluscope.api`: the module's preset (its ``config_name``)
        under the model options given to ``evaluate.load`` under the ``compute``
        options (each declared in :mod:`halluscope.options`), as a plain ``dict``."""
        from . import api

        score = getattr(api, f"score_{self.metric_id}")
        result = score(
            predictions,
            sources,
            references_for_backend(references),
            preset=self.preset,
            **{**self.model_options, **options},
        )
        return result.to_dict()

    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            description=self.metric_description,
            citation=self.metric_citation,
            inputs_description=self.metric_inputs,
            features=FEATURES,
            homepage=REPOSITORY_URL,
            codebase_urls=[REPOSITORY_URL, f"{REPOSITORY_URL}/tree/main/metrics/{self.metric_id}"],
            reference_urls=list(REFERENCE_URLS[self.metric_id]),
        )
