"""The ACU pipeline of dlsd_acu: FIZZ- and FENICE-style hosts with SD-ACU (Mind the
Link and FIZZ; docs/papers.md#sd-acu, #hosts-fizz-and-fenice).

For a whole batch at once:

1. coreference on documents and summaries (pluggable, :mod:`.coref`);
2. sentences from the given spaCy parse cache (the default Resources' unless told);
3. summary ACUs: every summary sentence decomposed (:mod:`.decompose`), then kept only
   if the sentence entails it (FIZZ's filter: P(ent) is the largest of the three
   probabilities); a sentence whose ACUs are all dropped is kept as its own unit, so
   no part of the summary goes unchecked;
4. discourse-link units (:mod:`.discourse`) or any hook with the same batch interface
   (``dl_units(summaries, host units per summary, engine)`` -> extra unit texts and
   the decisions on every candidate, one list each per summary);
5. every unit against every document sentence: Ent(d_j, a_i) (Mind the Link §3.2.1,
   docs/papers.md#sd-acu), computed once and reused in scoring;
6. **SD-ACU**: the top-k sentences of each unit are decomposed (each sentence at
   most once per process, the decomposer's cache) and their ACUs join the unit's
   premises; ``top_k=None`` decomposes every sentence (FENICE-style full
   decomposition, the baseline of the paper's cost claims);
7. FIZZ granularity expansion: when the best sentence does not entail a unit with
   P(ent) >= ``expansion_threshold``, windows of up to 3 consecutive sentences that
   contain the best sentence are scored too;
8. each unit's score is its best alignment over its premises: ``ent`` = P(ent)
   (FIZZ), ``ent-contr`` = P(ent) − P(contr) (SummaC), ``ent-neutral`` =
   P(ent) − P(neutral) (FENICE's code); the summary score aggregates the units:
   ``min`` (FIZZ), ``mean`` (FENICE) or ``mix`` = λ·min + (1−λ)·mean
   (docs/papers.md#host-alignment-and-aggregation).

All NLI pairs of a step go to the engine in one call (flattened, deduplicated,
cached), so counters in the result show what the paper's savings claims are about.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..collector import fewer_collections
from ..nli import CONTRADICTION, ENTAILMENT, NEUTRAL, NLIEngine
from ..option_types import ALIGNMENTS
from ..parsing import ParseCache
from ..resources import get_parse_cache
from .acu_options import AcuOptions, HostPreset
from .decompose import context_parses

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc

EXPANSION_WINDOW = 3


def alignment_scores(probabilities: np.ndarray, alignment: str) -> np.ndarray:
    """Alignment of NLI probabilities [ent, neu, con]: ent, ent − contr or ent − neutral."""
    if alignment == "ent":
        return probabilities[:, ENTAILMENT]
    if alignment == "ent-contr":
        return probabilities[:, ENTAILMENT] - probabilities[:, CONTRADICTION]
    if alignment == "ent-neutral":
        return probabilities[:, ENTAILMENT] - probabilities[:, NEUTRAL]
    raise ValueError(f"alignment must be one of {ALIGNMENTS}, got {alignment!r}")


def aggregate(unit_scores: Sequence[float], aggregation: str, mix_weight: float = 0.5) -> float:
    """min (FIZZ, hard), mean (FENICE, soft) or λ·min + (1−λ)·mean; NaN without units."""
    if not unit_scores:
        return math.nan
    low, mean = min(unit_scores), sum(unit_scores) / len(unit_scores)
    if aggregation == "min":
        return low
    if aggregation == "mean":
        return mean
    return mix_weight * low + (1 - mix_weight) * mean


@dataclass
class Unit:
    """A summary unit to check: its text, kind (acu | sentence | dl_acu) and the
    summary sentence it came from."""

    text: str
    kind: str
    sentence_index: int


@dataclass
class Premise:
    """Where a premise comes from in the (coreference-resolved) document."""

    text: str
    kind: str  # sentence | window | document_acu
    sentence_indices: tuple[int, ...]
    char_span: tuple[int, int]


@dataclass
class _Example:
    document: str
    summary: str
    sentences: list[Premise] = field(default_factory=list)
    summary_sentences: list[str] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)
    dl_candidates: list[dict[str, Any]] = field(default_factory=list)


def _sentences(doc, spans: dict[str, object], memo: dict[int, list[Premise]] | None = None) -> list[Premise]:
    """The non-empty sentences of ``doc``; each sentence's span is recorded in
    ``spans`` (by text) so that the ones a decomposer will parse can be handed its
    in-context parse instead (see :func:`_context_builders`).

    A sentence's text is sliced from the document's text (``Span.text`` joins the
    sentence's tokens again on every access; the slice is the same string), and
    ``memo`` (by ``id(doc)``, for docs alive during one batch) lists the sentences of
    a document once for every summary of it."""
    if memo is not None and id(doc) in memo:
        return list(memo[id(doc)])
    full = doc.text  # joins every token: once per document
    out: list[Premise] = []
    for sent in doc.sents:
        start, end = sent.start_char, sent.end_char
        raw = full[start:end]
        text = raw.strip()
        if not text:
            continue
        out.append(Premise(text, "sentence", (len(out),), (start, end)))
        if text == raw:
            spans.setdefault(text, sent)
    if memo is not None:
        memo[id(doc)] = out
        return list(out)
    return out


def _context_builders(spans: dict[str, object], texts: Sequence[str]) -> dict[str, Callable[[], Doc]]:
    """For each of ``texts`` with a recorded sentence span, a function building its
    in-context parse (``Span.as_doc``), handed to the decomposer through
    :class:`halluscope.acu.decompose.context_parses` so that a decomposer parsing
    sentences (the rule decomposer) does not parse them a second time. Nothing is
    built unless the decomposer asks (the seq2seq decomposer never does, nor does a
    cached decomposition), and nothing enters the shared parse cache: other metrics
    parse the same text on its own and must not get a sentence's in-context parse.

    Each document's attribute array, which ``as_doc`` would otherwise rebuild for
    every sentence, is built once and handed to ``as_doc`` as a copy (``as_doc``
    edits the array it is given): the copies are the same ``Doc``s as
    ``span.as_doc()``."""
    arrays: dict[int, tuple[Any, Any]] = {}

    def builder(span) -> Callable[[], Doc]:
        def build():
            doc = span.doc
            array_attrs = getattr(doc, "_get_array_attrs", None)
            if array_attrs is None:
                return span.as_doc()
            if id(doc) not in arrays:
                head = array_attrs()
                arrays[id(doc)] = (head, doc.to_array(head))
            head, array = arrays[id(doc)]
            return span.as_doc(array_head=head, array=array.copy())

        return build

    return {text: builder(spans[text]) for text in dict.fromkeys(texts) if text in spans}


def _window_premises(sentences: list[Premise], center: int) -> list[Premise]:
    """Windows of 2..3 consecutive sentences that contain sentence ``center`` (FIZZ)."""
    out = []
    for size in range(2, EXPANSION_WINDOW + 1):
        for start in range(center - size + 1, center + 1):
            end = start + size
            if start < 0 or end > len(sentences):
                continue
            chunk = sentences[start:end]
            out.append(
                Premise(
                    " ".join(p.text for p in chunk),
                    "window",
                    tuple(range(start, end)),
                    (chunk[0].char_span[0], chunk[-1].char_span[1]),
                )
            )
    return out


Probabilities = dict[tuple[str, str], np.ndarray]
UnitKey = tuple[int, int]  # (example index, unit index)


def _parse_examples(
    predictions: Sequence[str],
    sources: Sequence[str],
    coref: Callable[[Sequence[str]], list[str]],
    parse_cache: ParseCache,
) -> tuple[list[_Example], dict[str, object]]:
    """Steps 1-2: coreference, one parse of every text, the sentences of each side."""
    documents = coref(list(sources))
    summaries = coref(list(predictions))
    parsed = parse_cache.get_many(documents + summaries)
    spans: dict[str, object] = {}
    memo: dict[int, list[Premise]] = {}
    examples = []
    for k, (document, summary) in enumerate(zip(documents, summaries, strict=True)):
        ex = _Example(document, summary)
        ex.sentences = _sentences(parsed[k].doc, spans, memo)
        ex.summary_sentences = [p.text for p in _sentences(parsed[len(documents) + k].doc, spans, memo)]
        examples.append(ex)
    return examples, spans


def _summary_units(
    examples: list[_Example], spans: dict[str, object], decomposer, engine: NLIEngine, options: AcuOptions
) -> None:
    """Step 3: summary ACUs, one decompose call for every summary sentence of the
    batch; FIZZ's filter drops ACUs their sentence does not entail (a sentence keeps
    itself when nothing is left)."""
    distinct_sentences = list(dict.fromkeys(s for ex in examples for s in ex.summary_sentences))
    with context_parses(_context_builders(spans, distinct_sentences)):
        acus_of = dict(
            zip(distinct_sentences, decomposer.decompose(distinct_sentences) if distinct_sentences else [], strict=True)
        )
    filter_pairs = [(s, a) for ex in examples for s in ex.summary_sentences for a in acus_of[s]]
    entailed = {}
    if options.filter_acus and filter_pairs:
        probs = engine.score(filter_pairs)
        entailed = {pair: bool(p[ENTAILMENT] >= p.max()) for pair, p in zip(filter_pairs, probs, strict=True)}
    for ex in examples:
        for index, sentence in enumerate(ex.summary_sentences):
            kept = []
            for acu in acus_of[sentence]:
                if not options.filter_acus or entailed[(sentence, acu)]:
                    kept.append(Unit(acu, "acu", index))
                else:
                    ex.dropped.append(
                        {"text": acu, "sentence_index": index, "reason": "not entailed by its summary sentence"}
                    )
            ex.units.extend(kept or [Unit(sentence, "sentence", index)])


def _add_dl_units(examples: list[_Example], dl_units, engine: NLIEngine) -> None:
    """Step 4: discourse-link units join the host units: dl_units(summaries, host unit
    texts, engine) -> (extra unit texts, candidate decisions), one list of each per
    summary."""
    extra, decisions = dl_units(
        [ex.summary for ex in examples], [[u.text for u in ex.units] for ex in examples], engine
    )
    for ex, texts, decided in zip(examples, extra, decisions, strict=True):
        ex.units.extend(Unit(text, "dl_acu", -1) for text in texts)
        ex.dl_candidates = list(decided)


def _scored(engine: NLIEngine, pairs: list[tuple[str, str]]) -> Probabilities:
    return dict(zip(pairs, engine.score(pairs), strict=True)) if pairs else {}


def _document_acu_premises(
    examples: list[_Example], spans: dict[str, object], decomposer, sentence_probs: Probabilities, options: AcuOptions
) -> dict[UnitKey, list[Premise]]:
    """Step 6, SD-ACU: the document ACUs of each unit's top-k sentences (all with
    top_k=None), one decompose call for the batch."""
    wanted: dict[UnitKey, list[int]] = {}
    for e, ex in enumerate(examples):
        for u, unit in enumerate(ex.units):
            ent = np.array([sentence_probs[(p.text, unit.text)][ENTAILMENT] for p in ex.sentences])
            order = np.argsort(-ent, kind="stable") if len(ent) else np.array([], dtype=int)
            wanted[(e, u)] = [int(j) for j in (order if options.top_k is None else order[: options.top_k])]
    to_decompose = list(dict.fromkeys(examples[e].sentences[j].text for (e, _), js in wanted.items() for j in js))
    with context_parses(_context_builders(spans, to_decompose)):
        doc_acus = dict(zip(to_decompose, decomposer.decompose(to_decompose) if to_decompose else [], strict=True))
    premises_of: dict[UnitKey, list[Premise]] = {}
    for (e, u), js in wanted.items():
        ex = examples[e]
        premises = []
        for j in js:
            sentence = ex.sentences[j]
            for acu in doc_acus[sentence.text]:
                if acu != sentence.text:
                    premises.append(Premise(acu, "document_acu", (j,), sentence.char_span))
        premises_of[(e, u)] = premises
    return premises_of


def _expanded_premises(
    examples: list[_Example], sentence_probs: Probabilities, options: AcuOptions
) -> dict[UnitKey, list[Premise]]:
    """Step 7: granularity expansion around the best sentence of weakly supported units."""
    window_premises: dict[UnitKey, list[Premise]] = {}
    for e, ex in enumerate(examples):
        for u, unit in enumerate(ex.units):
            if not ex.sentences:
                continue
            ent = [sentence_probs[(p.text, unit.text)][ENTAILMENT] for p in ex.sentences]
            best = int(np.argmax(ent))
            if ent[best] < options.expansion_threshold:
                window_premises[(e, u)] = _window_premises(ex.sentences, best)
    return window_premises


def _unit_detail(unit: Unit, probs: np.ndarray, best: int, score: float, evidence: Premise) -> dict[str, Any]:
    return {
        "text": unit.text,
        "type": unit.kind,
        "summary_sentence": unit.sentence_index,
        "score": score,
        "probabilities": {
            "entailment": float(probs[best, ENTAILMENT]),
            "neutral": float(probs[best, NEUTRAL]),
            "contradiction": float(probs[best, CONTRADICTION]),
        },
        "evidence": {
            "text": evidence.text,
            "kind": evidence.kind,
            "sentence_indices": list(evidence.sentence_indices),
            "char_span": list(evidence.char_span),
        },
    }


def _aggregate_examples(
    examples: list[_Example],
    extra_premises: Sequence[dict[UnitKey, list[Premise]]],
    probabilities: Probabilities,
    preset: HostPreset,
    options: AcuOptions,
    predictions: Sequence[str],
    sources: Sequence[str],
    return_details: bool,
) -> tuple[list[float], list[dict[str, Any]]]:
    """Step 8: each unit's best premise under the host's alignment, then the
    summary's aggregate."""
    scores, details = [], []
    for e, ex in enumerate(examples):
        unit_scores, unit_details = [], []
        for u, unit in enumerate(ex.units):
            premises = ex.sentences + [p for table in extra_premises for p in table.get((e, u), [])]
            if not premises:
                unit_scores.append(math.nan)
                continue
            probs = np.stack([probabilities[(p.text, unit.text)] for p in premises])
            aligned = alignment_scores(probs, preset.alignment)
            best = int(np.argmax(aligned))
            unit_scores.append(float(aligned[best]))
            if return_details:
                unit_details.append(_unit_detail(unit, probs, best, float(aligned[best]), premises[best]))
        defined = [s for s in unit_scores if not math.isnan(s)]
        scores.append(aggregate(defined, preset.aggregation, options.mix_weight))
        if return_details:
            details.append(
                {
                    "units": unit_details,
                    "dropped_acus": ex.dropped,
                    "dl_acu_candidates": ex.dl_candidates,
                    "document_resolved": ex.document if ex.document != sources[e] else None,
                    "summary_resolved": ex.summary if ex.summary != predictions[e] else None,
                }
            )
    return scores, details


@fewer_collections()
def score_batch(
    predictions: Sequence[str],
    sources: Sequence[str],
    *,
    engine: NLIEngine,
    decomposer,
    options: AcuOptions,
    coref: Callable[[Sequence[str]], list[str]],
    dl_units: Callable[[list[str], list[list[str]], NLIEngine], tuple[list[list[str]], list[list[dict[str, Any]]]]]
    | None = None,
    return_details: bool = False,
    parse_cache: ParseCache | None = None,
) -> dict[str, Any]:
    """Score a validated batch; see the module docstring for the steps, one function
    each: parse, summary units, discourse-link units, unit x sentence NLI, SD-ACU
    premises, expansion premises, NLI of the extra premises, aggregation.
    ``parse_cache``: where the documents and summaries are parsed (None: the default
    :class:`halluscope.resources.Resources`' cache for the default spaCy model)."""
    preset = options.resolved
    start_requested, start_scored, start_cached = engine.requested, engine.scored, engine.cached
    start_calls = decomposer.calls

    examples, spans = _parse_examples(
        predictions, sources, coref, get_parse_cache() if parse_cache is None else parse_cache
    )
    _summary_units(examples, spans, decomposer, engine, options)
    summary_calls = decomposer.calls - start_calls
    if dl_units is not None:
        _add_dl_units(examples, dl_units, engine)
    # 5. every unit against every document sentence, one call for the batch
    sentence_probs = _scored(engine, [(p.text, u.text) for ex in examples for u in ex.units for p in ex.sentences])
    doc_acu_premises = (
        _document_acu_premises(examples, spans, decomposer, sentence_probs, options) if options.sd_acu else {}
    )
    window_premises = _expanded_premises(examples, sentence_probs, options) if preset.expansion else {}
    extra_premises = (doc_acu_premises, window_premises)
    extra_probs = _scored(
        engine,
        [
            (p.text, examples[e].units[u].text)
            for table in extra_premises
            for (e, u), premises in table.items()
            for p in premises
        ],
    )
    scores, details = _aggregate_examples(
        examples,
        extra_premises,
        {**sentence_probs, **extra_probs},
        preset,
        options,
        predictions,
        sources,
        return_details,
    )

    result: dict[str, Any] = {
        "scores": scores,
        "nli_pairs_requested": engine.requested - start_requested,
        "nli_pairs_scored": engine.scored - start_scored,
        "nli_pairs_cached": engine.cached - start_cached,
        "decomposer_calls": decomposer.calls - start_calls,
        "decomposer_calls_summary": summary_calls,
        "decomposer_calls_document": decomposer.calls - start_calls - summary_calls,
    }
    if return_details:
        result["details"] = details
    return result
