"""What the four evaluate modules share: features, citations, constructor checks.

The scripts in ``metrics/<name>/`` stay thin: they declare their docs and options
and call :mod:`halluscope.api`. Everything they have in common lives here.
"""
from __future__ import annotations

from typing import Any, Dict, List, Tuple

import datasets
import evaluate

#: ``references`` may be one string or a list of strings per example; ``sources`` is
#: an ordinary feature (as in COMET). An empty-string reference selects the
#: reference-free mode for that row.
FEATURES = [
    datasets.Features({
        "predictions": datasets.Value("string"),
        "references": datasets.Sequence(datasets.Value("string")),
        "sources": datasets.Value("string"),
    }),
    datasets.Features({
        "predictions": datasets.Value("string"),
        "references": datasets.Value("string"),
        "sources": datasets.Value("string"),
    }),
]

#: the scoring options every CHI-family module documents the same way
FORMULA_DOC = """\
    formula ("support" | "paper"): "support" (default) scores each dimension as the
        share of the summary's units supported by the source, directly or through a
        reference unit that is itself in the source; "paper" applies the seeds' factor
        formulas (softmax, or the linear RHI) wherever a reference is given. Rows
        without a reference are the supported share under both.
    normalize ("paper" | "minmax"): scale of the paper formulas (see the card).
    attribution (bool, optional): under formula="support" (default on) a supported
        entity or quantity counts 0.5 + 0.5 x a(u), where a(u) in [0, 1] says how well
        the source sentences holding the unit also hold the rest of its summary
        sentence (1 when the best-aligned sentence holds it); False counts every
        supported unit as 1. Relation triples are not weighted (a triple states its
        own combination). formula="paper" has no such weight.
    truecase (bool): True (default) parses a summary or reference written without
        any capital letter with the source's casing restored ("alaska" -> "Alaska"),
        so that spaCy finds its names; spans and unit texts stay the caller's.
        False parses every text as given, as the seeds do.
"""
RELATION_SLOTS_DOC = """\
    relation_slots ("compound" | "head"): "compound" (default) makes a triple's
        subject and object the head noun with its compound modifiers ("bill gates");
        "head" keeps the RHI paper's single-token slots.
    intransitive ("passive" | "all" | "none"): "passive" (default) also checks a
        subject-verb pair for each agentless passive ("Thomas was arrested" ->
        (thomas, arrest, "")), "all" for every verb without an object ("output grew");
        the source must give the verb that subject in the same role (a passive's
        subject is its patient: "police arrested Thomas" supports "Thomas was
        arrested"). "none" keeps the RHI paper's triples only.
"""
WORDNET_DOC = """\
    wordnet (bool or str, optional): WordNet 3.0 (read with NLTK; docs/lexical.md) in
        relation matching and, in CHI, word-level support w. None (default): on under
        formula="support", off under "paper"; True/False; or the path of a WordNet
        database folder (implies on). A relation verb WordNet links to the source's
        (synonym, hypernym, troponym, entailment, verb group: "bought" for "acquired")
        is the same predicate; an antonym verb with the same subject and object makes
        the unit "contradicted" (unsupported, never rescued by a cosine). Signature
        wn:3.0, or wn:none when off or WordNet is not installed.
"""
GROUNDING_DOC = """\
    grounding ("text" | "units"): "text" (default) also accepts an entity found in the
        source's text, or a relation whose subject, object and verb share one source
        sentence without swapped roles, when the extractor missed the source's unit;
        "units" matches units against units only, as the seeds do.
"""

#: keyword arguments ``evaluate.load`` itself passes to a module's constructor
_EVALUATE_INIT_KWARGS = {
    "config_name", "keep_in_memory", "cache_dir", "num_process", "process_id", "seed",
    "experiment_id", "hash", "max_concurrent_cache_files", "timeout",
}

#: model options a module accepts at construction (``evaluate.load(path, spacy_model=...)``)
MODEL_OPTIONS = ("spacy_model", "sentence_model", "device")

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


def split_init_kwargs(name: str, kwargs: Dict[str, Any], allowed: Tuple[str, ...] = MODEL_OPTIONS) -> Dict[str, Any]:
    """Separate our model options (``allowed``) from evaluate's own constructor
    arguments, removing them from ``kwargs``, and fail loudly on anything else
    (``evaluate.load`` would otherwise drop an unknown keyword silently)."""
    unknown = set(kwargs) - _EVALUATE_INIT_KWARGS - set(allowed)
    if unknown:
        raise TypeError(
            f"{name}: unknown option(s) {sorted(unknown)}; model options are {allowed}, "
            "scoring options go to compute()"
        )
    return {key: kwargs.pop(key) for key in allowed if key in kwargs}


#: the three input columns evaluate encodes, and their names in ``add()``
_COLUMNS = ("predictions", "references", "sources")


def validate_module_rows(predictions: Any, references: Any, sources: Any, first_row: int = 0) -> Tuple[
        List[str], List[List[str]], List[str]]:
    """Check every row of a batch before evaluate encodes it (evaluate itself checks
    row 0 only and turns later values into strings): the API's own validation
    (:func:`halluscope.validation.validate_inputs`), so the errors are the API's
    :class:`halluscope.errors.InputError` naming row and field; ``first_row`` shifts
    the row numbers of a later ``add_batch``/``add``. Returns the columns to encode,
    references as lists ("" and None become ``[]``, reference-free), so that every
    batch has one feature layout however strings and lists are mixed."""
    from .errors import InputError
    from .validation import validate_inputs

    for name, column in zip(_COLUMNS, (predictions, references, sources)):
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
        message = str(error)[len(f"row {error.row}: "):]
        raise InputError(message, row=error.row + first_row, field=error.field) from None
    return batch.predictions, [list(refs) for refs in batch.references], batch.sources


def references_for_backend(references):
    """evaluate hands references over as given; lists of one or more strings and
    single strings are both passed through (the backend validates every row)."""
    return list(references) if references is not None else None


class HalluscopeMetric(evaluate.Metric):
    """Base of the metric scripts: constructor checks and module info.

    A script subclasses it through the module (``class Chi(
    halluscope.evaluate_support.HalluscopeMetric)``), never by importing the class
    name, because evaluate's loader takes the first ``EvaluationModule`` subclass it
    finds in the script's namespace. Subclasses set ``metric_id``,
    ``model_option_names``, ``metric_description``, ``metric_inputs``,
    ``metric_citation`` and define ``_compute`` (the names avoid evaluate's own
    ``name``/``description``/``citation`` properties).
    """

    metric_id: str = ""
    model_option_names: Tuple[str, ...] = MODEL_OPTIONS
    metric_description: str = ""
    metric_inputs: str = ""
    metric_citation: str = ""

    def __init__(self, **kwargs: Any) -> None:
        self.model_options = split_init_kwargs(self.metric_id, kwargs, self.model_option_names)
        self._rows_added = 0  # rows stored by add/add_batch since the last compute
        super().__init__(**kwargs)

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Any:
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
            predictions, references, kwargs.pop("sources", None), self._rows_added)
        super().add_batch(predictions=predictions, references=references, sources=sources, **kwargs)
        self._rows_added += len(predictions)

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> None:
        """evaluate's ``add`` after validating the example like one row of a batch."""
        source = kwargs.pop("sources", kwargs.pop("source", None))
        predictions, references, sources = validate_module_rows(
            [prediction], [reference] if reference is not None else None, [source], self._rows_added)
        super().add(prediction=predictions[0], reference=references[0], sources=sources[0], **kwargs)
        self._rows_added += 1

    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            description=self.metric_description,
            citation=self.metric_citation,
            inputs_description=self.metric_inputs,
            features=FEATURES,
            reference_urls=["https://github.com/halluscope/halluscope"],
        )
