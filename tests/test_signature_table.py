"""The signature table (docs/architecture.md#the-signature-table): every option that can
change a score or a label is recorded by a field of its metric's table, each field once,
and the readers of signatures (the verdict, the ranges, the Space) read it back through
the same table. The strings themselves are pinned by tests/test_signature_golden.py."""

from __future__ import annotations

import pytest
from halluscope.options import METRICS, OPTIONS, options_for
from halluscope.signature import every_field, metric_table, recorded_option
from halluscope.signature_text import Field, read_fields, write_fields
from halluscope.verdict import absent_reason


@pytest.mark.parametrize("metric", METRICS)
def test_every_option_that_changes_a_score_is_read_by_a_field(metric):
    read = {name for field in metric_table(metric) for name in field.reads}
    changing = {name for name, option in options_for(metric).items() if option.changes_scores}
    assert changing - read == set()


def test_only_where_and_how_fast_the_models_run_is_left_out_of_every_signature():
    left_out = {option.name for option in OPTIONS if not option.changes_scores}
    assert left_out == {"batch_size", "device", "workers", "cache_mb"}


def test_every_field_reads_declared_options_only():
    declared = {option.name for option in OPTIONS}
    assert {name for field in every_field() for name in field.reads} - declared == set()


@pytest.mark.parametrize("metric", METRICS)
def test_a_table_names_each_field_once(metric):
    abbreviations = [field.abbreviation for field in metric_table(metric)]
    assert len(abbreviations) == len(set(abbreviations))
    assert abbreviations[:2] == ["halluscope", "metric"]


def test_the_chi_table_in_order():
    assert [field.abbreviation for field in metric_table("chi")] == [
        "halluscope", "metric", "spacy", "case", "formula", "norm", "ground", "attr", "refs",
        "ent", "rhi", "rel", "slots", "pairs", "wn", "sim", "enc", "qty",
        "fusion", "w", "lex", "lexidx", "cal", "cut",
    ]  # fmt: skip
    assert [field.abbreviation for field in metric_table("qhi")][-2:] == ["refs", "qty"]


def test_a_field_is_written_and_read_back():
    class Call:
        metric = "toy"
        size = 2

    fields = (
        Field("metric", (), lambda call: call.metric),
        Field("size", ("size",), lambda call: str(call.size)),
        Field("gone", ("other",), lambda call: None),
    )
    assert write_fields(fields, Call()) == "metric:toy|size:2"
    assert read_fields("metric:toy|size:2|enc:a:b") == {"metric": "toy", "size": "2", "enc": "a:b"}
    assert read_fields(None) == {} and read_fields(42) == {}


def test_a_field_names_its_options_and_those_that_give_its_default():
    assert Field("ent", ("entity_synonyms",), str, also=("formula",)).named == "entity_synonyms, or formula"
    assert Field("qty", ("epsilon", "derived", "temporal"), str).named == "epsilon, derived, temporal"
    assert Field("align", ("alignment",), str, also=("host",)).reads == ("alignment", "host")


def test_the_verdict_names_the_options_from_the_table():
    assert (
        absent_reason(["ent", "sim", "fusion"])
        .split("differ in ")[1]
        .startswith("ent (entity_synonyms, or formula), sim (similarity_threshold), fusion, so")
    )


def test_an_option_is_read_back_from_the_field_that_records_it():
    signature = "halluscope:0.1.0|metric:rhi|formula:paper|rhi:softmax|sim:0.9"
    assert recorded_option(signature, "formula") == "paper"
    assert recorded_option(signature, "variant") == "softmax"
    assert recorded_option(signature, "similarity_threshold") == "0.9"
    assert recorded_option(signature, "alignment") is None
    assert recorded_option("metric:dlsd_acu|host:fenice|align:ent-neutral", "alignment") == "ent-neutral"
    assert recorded_option(None, "formula") is None
