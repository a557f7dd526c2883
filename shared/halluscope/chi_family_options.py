"""The CHI family's option rows (chi, ehi, rhi, qhi), in the order
:data:`halluscope.options.OPTIONS` lists them: that order is the CLI's flags, the
cards' tables, the API signatures and the Space's controls.

The rows stay in this one central table rather than in the index packages
(``ehi/``, ``rhi/``, ``qhi/``): the table is read at import time by layers below the
indices (validation, :class:`~halluscope.scoring_options.ScoringOptions`' defaults), so
rows declared in the index packages would make the lowest layer import the highest.
"""

from __future__ import annotations

import math

from .fusion import INDEX_SHARE
from .option_types import (
    CHI_FAMILY,
    ENCODER_DTYPES,
    FORMULAS,
    GROUNDINGS,
    INTRANSITIVE_MODES,
    NORMALIZATIONS,
    RELATION_MATCHING,
    RELATION_SLOTS,
    RHI_VARIANTS,
    Control,
    Option,
)
from .verdict import load_calibration

_ALL = CHI_FAMILY
_REL = ("chi", "rhi")
_QTY = ("chi", "qhi")

#: the CHI family's options, in declaration order
CHI_FAMILY_OPTIONS: tuple[Option, ...] = (
    Option(
        "formula",
        "support",
        "choice",
        choices=FORMULAS,
        metrics=_ALL,
        doc=(
            '"support" (default) scores each dimension as the share of the summary\'s units '
            "supported by the source, directly or through a reference unit that is itself in the "
            'source; "paper" applies the papers\' factor formulas (softmax, or the linear RHI) '
            "wherever a reference is given. Rows without a reference are the supported share under "
            "both (docs/papers.md)."
        ),
        control=Control(
            "radio", "formula (support: share of summary units the source supports; paper: the papers' factor formulas)"
        ),
    ),
    Option(
        "grounding",
        "text",
        "choice",
        choices=GROUNDINGS,
        metrics=_ALL,
        doc=(
            '"text" (default) also accepts an entity found in the source\'s text, a relation '
            "whose subject, object and verb share one source sentence without swapped roles, or a "
            'quantity the source writes with the word next to it ("flight 448"), when the '
            'extractor missed the source\'s unit; "units" matches units against units only, as '
            "the papers do."
        ),
        control=Control(
            "radio",
            "grounding (text: also look for units in the source text; units: unit against unit, as the papers do)",
        ),
    ),
    Option(
        "variant",
        "linear",
        "choice",
        choices=RHI_VARIANTS,
        metrics=("rhi",),
        field="rhi_variant",
        doc=(
            '"linear" (default): the RHI paper\'s RHI; "softmax": the CHI paper\'s RHI*, the one CHI '
            'fuses. Matters under formula="paper" (and in the counts\' factors).'
        ),
        control=Control(
            "radio", "variant under formula=paper (linear: RHI paper; softmax: RHI*, the one CHI fuses)", apps=("rhi",)
        ),
    ),
    Option(
        "normalize",
        "paper",
        "choice",
        choices=NORMALIZATIONS,
        metrics=_ALL,
        doc=('scale of the paper formulas: "paper" (default) as written, "minmax" rescaled to [0, 1] (see the card).'),
        control=Control("radio", "normalize (paper: the formula as written; minmax: rescaled to [0, 1])"),
    ),
    Option(
        "relation_matching",
        "slots",
        "choice",
        choices=RELATION_MATCHING,
        metrics=_REL,
        doc=(
            '"slots" (default): a summary triple matches a source triple slot by slot (lemma, '
            'WordNet, then MiniLM cosine); "sentence": the CHI paper\'s cosine of the triples as '
            'sentences; "exact": same lemmas only.'
        ),
        control=Control("radio", "relation matching"),
    ),
    Option(
        "similarity_threshold",
        0.85,
        "number",
        bounds=(0.0, 1.0),
        metrics=_REL,
        doc=("cosine threshold of semantic relation matching."),
        control=Control("slider", "relation similarity threshold", bounds=(0.5, 1.0, 0.01)),
    ),
    Option(
        "epsilon",
        0.05,
        "number",
        bounds=(0.0, 1.0),
        open_high=True,
        metrics=_QTY,
        doc=("relative tolerance of quantity matching."),
        control=Control("slider", "quantity tolerance epsilon", bounds=(0.0, 0.5, 0.01)),
    ),
    Option(
        "derived",
        True,
        "bool",
        metrics=_QTY,
        field="derived_quantities",
        doc=(
            "accept sums, differences, multiples and ratios of source quantities, only where the "
            'summary\'s words state the operation ("combined", "doubled", "rose by").'
        ),
        control=Control("checkbox", "derived quantities (sums, ratios)", apps=("qhi",)),
    ),
    Option(
        "temporal",
        True,
        "bool",
        metrics=_QTY,
        field="temporal_quantities",
        doc=("resolve relative and calendar dates against the publication date."),
        control=Control("checkbox", "resolve relative dates", apps=("qhi",)),
    ),
    Option(
        "truecase",
        True,
        "bool",
        metrics=_ALL,
        doc=(
            "True (default) parses a summary or reference written without any capital letter with "
            'the source\'s casing restored ("alaska" -> "Alaska"), so that spaCy finds its names; '
            "spans and unit texts stay the caller's. False parses every text as given, as the "
            "papers do."
        ),
        control=Control("checkbox", "truecase (parse an all-lower-case summary with the source's casing)"),
    ),
    Option(
        "attribution",
        None,
        "optional_bool",
        metrics=_ALL,
        doc=(
            'under formula="support" (None: on) a supported entity or quantity counts 0.5 + 0.5 x '
            "a(u), where a(u) in [0, 1] says how well the source sentences holding the unit also "
            "hold the rest of its summary sentence; False counts every supported unit as 1. "
            'Relation triples are not weighted. formula="paper" has no such weight.'
        ),
        control=Control(
            "radio",
            "attribution (credit an entity or quantity less when the source "
            "states it in another sentence; default: on under formula=support)",
            shown=("default", "on", "off"),
            meanings=(("default", None), ("on", True), ("off", False)),
            apps=("chi", "ehi", "qhi"),
        ),
    ),
    Option(
        "relation_slots",
        "compound",
        "choice",
        choices=RELATION_SLOTS,
        metrics=_REL,
        doc=(
            '"compound" (default) makes a triple\'s subject and object the head noun with its '
            'compound modifiers ("bill gates"); "head" keeps the RHI paper\'s single-token slots.'
        ),
        control=Control("radio", "relation slots (compound: 'bill gates'; head: the paper's single word)"),
    ),
    Option(
        "intransitive",
        "passive",
        "choice",
        choices=INTRANSITIVE_MODES,
        metrics=_REL,
        doc=(
            '"passive" (default) also checks a subject-verb pair for each agentless passive '
            '("Thomas was arrested" -> (thomas, arrest, "")), "all" for every verb without an '
            'object ("output grew"); the source must give the verb that subject in the same role. '
            'Under formula="support", "passive" also extracts active object-less verbs and counts '
            'such a pair where the source settles it: contradicted ("the team lost" against "won"), '
            "or supported in a text that states no other relation. "
            '"none" keeps the RHI paper\'s triples only.'
        ),
        control=Control(
            "radio",
            "subject-verb pairs for verbs without an object (passive: "
            "'Thomas was arrested'; all: also 'output grew'; none: the paper)",
        ),
    ),
    Option(
        "wordnet",
        None,
        "wordnet",
        metrics=_REL,
        doc=(
            "WordNet 3.0 (read with NLTK; docs/lexical.md) in relation matching and, in CHI, "
            'word-level support w. None (default): on under formula="support", off under '
            '"paper"; True/False; or the path of a WordNet database folder (implies on). A '
            "relation verb WordNet links to the source's (synonym, hypernym, troponym, "
            'entailment, verb group: "bought" for "acquired") is the same predicate; an antonym '
            'verb with the same subject and object makes the unit "contradicted". Signature '
            "wn:3.0, or wn:none when off or WordNet is not installed."
        ),
        control=Control(
            "radio",
            "WordNet (relation verbs: synonyms, hypernyms, troponyms count as the "
            "same predicate, antonyms contradict; content words likewise; default: on under "
            "formula=support, off under paper)",
            shown=("default", "on", "off"),
            meanings=(("default", None), ("on", True), ("off", False)),
            apps=_REL,
        ),
    ),
    Option(
        "lexical_weight",
        None,
        "number",
        bounds=(0.0, 1.0),
        allow_none=True,
        metrics=("chi",),
        doc=(
            f"λ in CHI = (1 - λ) x fused + λ x w x ({1 - INDEX_SHARE:g} + {INDEX_SHARE:g} x the dimensions' mean), "
            "w the mean of "
            "the share of the summary's content words the source supports (by lemma, written form or "
            "WordNet) and the share of its content tokens found as written; None: 0.01 under "
            'formula="support", 0 under "paper"; 0 turns it off.'
        ),
        control=Control(
            "radio",
            "lexical weight λ (CHI = (1 - λ) x units + λ x share of the summary's "
            "content words the source supports; default: 0.01 under formula=support, 0 "
            "under paper)",
            shown=("default", "0", "0.01", "0.1"),
            meanings=(("default", None), ("0", 0.0), ("0.01", 0.01), ("0.1", 0.1)),
            apps=("chi",),
        ),
    ),
    Option(
        "threshold",
        load_calibration().cut,
        "number",
        bounds=(0.0, 1.0),
        allow_none=True,
        metrics=("chi",),
        doc=(
            "the cut of the binary `labels` (1 = consistent: p_consistent >= threshold); the "
            "default is the shipped cut, 0.5: p_consistent is calibrated at even odds, where the cut "
            "of the best mean balanced accuracy by leave-one-dataset-out is 0.5, so a default label "
            "never contradicts its p (docs/benchmarks.md#p_consistent-and-the-shipped-labels); "
            "None: no labels."
        ),
    ),
    Option(
        "weights",
        None,
        "weights",
        metrics=("chi",),
        doc=(
            'weighted harmonic mean of the dimensions, e.g. {"qhi": 2}; a dimension not named weighs 1; '
            "empty, NaN, negative or non-numeric weights are refused. Weights are relative: equal weights "
            'of 1, 2, 4, ... (and {"qhi": 1}) fuse exactly as None does and keep its signature and '
            "p_consistent; any other weights are written in the signature (docs/api.md#signatures)."
        ),
    ),
    Option(
        "entity_synonyms",
        None,
        "text_mapping",
        metrics=("chi", "ehi"),
        doc=("alias -> canonical entity name, added to the built-in aliases."),
    ),
    Option(
        "batch_size",
        64,
        "int",
        bounds=(1, math.inf),
        metrics=_REL,
        changes_scores=False,
        doc="sentence-encoder batch size.",
    ),
    Option(
        "spacy_model",
        None,
        "name",
        metrics=_ALL,
        model=True,
        model_files=("config.cfg", "meta.json"),
        doc=("spaCy pipeline name or path (default: the offline en_core_web_sm, docs/scaling.md)."),
    ),
    Option(
        "sentence_model",
        None,
        "name",
        metrics=_REL,
        model=True,
        model_files=("modules.json", "config.json"),
        doc="sentence-transformers model name or path (default: the offline all-MiniLM-L6-v2).",
    ),
    Option(
        "device",
        None,
        "name",
        metrics=_REL,
        model=True,
        # the signature names the precision the device leads "auto" to (enc's @bf16), not the device
        changes_scores=False,
        doc=('torch device of the sentence encoder ("cpu", "cuda", "cuda:1"; default: CUDA when available).'),
    ),
    Option(
        "encoder_dtype",
        "auto",
        "choice",
        choices=ENCODER_DTYPES,
        metrics=_REL,
        model=True,
        doc=(
            "precision of the sentence encoder's matrix products: auto = bfloat16 where the device "
            "computes it natively (a CPU with AVX-512 BF16 or AMX, a CUDA device with bfloat16), "
            "else float32; the signature names it when it is not float32 (docs/scaling.md#encoder-precision)."
        ),
    ),
)
