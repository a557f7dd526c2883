"""The hand-written paraphrase suite (benchmarks/paraphrase_suite.jsonl) and the pure
parts of its benchmark (benchmarks/paraphrase.py): structure only, no scoring."""

from __future__ import annotations

import math

import pytest

from benchmarks import paraphrase
from benchmarks.paraphrase import Case, load_suite, parse_option, suite_table, word_overlap

NAN = math.nan
CATEGORIES = (
    "verb-synonym",
    "verb-hypernym",
    "nominalisation",
    "voice",
    "phrasal-verb",
    "preposition-role",
    "antonym",
    "object-less-verb",
    "number-format",
    "date-format",
    "alias",
    "negation",
)


@pytest.fixture(scope="module")
def suite():
    return load_suite(paraphrase.DEFAULT_SUITE)


def test_suite_size_and_categories(suite):
    assert len(suite) >= 66
    counts = {name: sum(case.category == name for case in suite) for name in CATEGORIES}
    assert all(count >= 5 for count in counts.values()), counts
    assert {case.category for case in suite} == set(CATEGORIES)


def test_suite_ids_unique_and_fields_non_empty(suite):
    ids = [case.id for case in suite]
    assert len(ids) == len(set(ids))
    for case in suite:
        for name in paraphrase.FIELDS:
            value = getattr(case, name)
            assert isinstance(value, str) and value.strip(), (case.id, name)
        assert case.id.startswith(case.category + "-"), case.id


def test_suite_faithful_differs_from_unfaithful(suite):
    for case in suite:
        assert case.faithful != case.unfaithful, case.id
        assert case.faithful.strip() != case.source.strip(), case.id


def test_load_suite_rejects_a_row_without_a_field(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"id": "x-01", "category": "x", "source": "s", "faithful": "f", "unfaithful": "u"}\n\n', encoding="utf-8"
    )
    with pytest.raises(ValueError, match="note"):
        load_suite(str(path))


def test_word_overlap_hand_computed():
    # summary {the, cat, sat, on, mat}; source {a, cat, was, on, mat}: cat, on, mat = 3 of 5
    assert word_overlap("The cat sat on the mat.", "A cat was on a mat") == 0.6
    # [^\W_]+ splits on "$", ".", "_": summary {paid, 7, 5bn, total, to, zürich};
    # source {zürich, got, 7, 5, billion}: 7, zürich = 2 of 6
    assert word_overlap("Paid $7.5bn_total to Zürich", "ZÜRICH got 7 5 billion") == pytest.approx(1 / 3)
    assert word_overlap("...", "anything") == 0.0


def _cases():
    return [
        # base: faithful 4/4 = 1.0 vs unfaithful {ann, sold, a, car} 3/4 = 0.75 -> pass
        Case("a", "X", "Ann bought a car", "Ann bought a car", "Ann sold a car", "bought -> sold"),
        # base: 1/2 vs 1/2 -> tie, fails
        Case("b", "X", "Bo won", "Bo triumphed", "Bo lost", "won -> lost"),
        # base: 1/2 vs 2/2 -> fails
        Case("c", "Y", "Cy left", "Cy departed", "Cy left", "departed -> left"),
    ]


def test_suite_table_hand_computed():
    faithful = {"chi": [0.8, 0.4, NAN], "ehi": [0.9, NAN, 0.6], "rhi": [NAN, NAN, NAN]}
    unfaithful = {"chi": [0.3, 0.4, 0.2], "ehi": [0.95, 0.1, 0.5], "rhi": [0.5, NAN, 0.5]}
    table = suite_table(_cases(), faithful, unfaithful)
    assert table["metrics"] == ["chi", "ehi", "rhi"]
    assert list(table["categories"]) == ["X", "Y"]
    x, y, overall = table["categories"]["X"], table["categories"]["Y"], table["overall"]
    # chi over every case: a 0.8 > 0.3 passes; b ties; c is undefined
    assert x["n"] == 2 and x["chi"] == {"n": 2, "pair": 0.5, "half": 0.5}
    assert y["n"] == 1 and y["chi"] == {"n": 1, "pair": 0.0, "half": 0.0}
    assert overall["n"] == 3 and overall["chi"] == {"n": 3, "pair": 1 / 3, "half": 1 / 3}
    # ehi where both are defined: a (0.9 < 0.95) and c (0.6 > 0.5)
    assert x["ehi"] == {"n": 1, "pair": 0.0, "half": 1.0}
    assert y["ehi"] == {"n": 1, "pair": 1.0, "half": 1.0}
    assert overall["ehi"] == {"n": 2, "pair": 0.5, "half": 1.0}
    # rhi: never defined on both sides
    assert overall["rhi"] == {"n": 0, "pair": None, "half": None}
    assert x["base"] == {"n": 2, "pair": 0.5}
    assert y["base"] == {"n": 1, "pair": 0.0}
    assert overall["base"] == {"n": 3, "pair": 1 / 3}
    failures = table["failures"]
    assert [f["id"] for f in failures] == ["b", "c"]
    assert failures[0] == {"id": "b", "category": "X", "faithful": 0.4, "unfaithful": 0.4, "note": "won -> lost"}
    assert math.isnan(failures[1]["faithful"]) and failures[1]["unfaithful"] == 0.2


def test_suite_table_takes_a_plain_chi_list_and_checks_lengths():
    table = suite_table(_cases(), [0.8, 0.6, 0.7], [0.3, 0.4, 0.1])
    assert table["metrics"] == ["chi"]
    assert table["overall"]["chi"] == {"n": 3, "pair": 1.0, "half": 1.0}
    assert table["failures"] == []
    with pytest.raises(ValueError):
        suite_table(_cases(), [0.8, 0.6], [0.3, 0.4])


def test_parse_option_reads_json_values():
    assert parse_option("lexical_weight=0") == ("lexical_weight", 0)
    assert parse_option("derived=false") == ("derived", False)
    assert parse_option('weights={"qhi": 2}') == ("weights", {"qhi": 2})
    assert parse_option("normalize=minmax") == ("normalize", "minmax")


# ------------------------------------------------------------------ behaviour on chi

#: cases where default chi does not yet rank the faithful paraphrase above the minimal
#: unfaithful edit (measured; benchmarks/paraphrase.py lists them with their scores). Each
#: is a strict xfail: a case that starts passing must be moved out of this set.
KNOWN_PAIR_FAILURES = frozenset(
    {
        "negation-03",
        "negation-04",
        "negation-05",
        "negation-06",
        "nominalisation-05",
        "object-less-verb-02",
        "object-less-verb-03",
        "phrasal-verb-01",
        "phrasal-verb-04",
        "preposition-role-05",
        "verb-hypernym-01",
        "verb-hypernym-06",
        "verb-synonym-02",
        "verb-synonym-03",
    }
)
#: the share of faithful paraphrases with chi >= 0.5 this version reaches (60 of 72)
FAITHFUL_HALF_FLOOR = 60 / 72


@pytest.fixture(scope="module")
def scored(suite):
    result = paraphrase.score_suite(suite)
    faithful, unfaithful = paraphrase.split_scores(result, len(suite))
    return {case.id: (f, u) for case, f, u in zip(suite, faithful["chi"], unfaithful["chi"], strict=True)}


def _suite_ids():
    return [
        pytest.param(case.id, marks=pytest.mark.xfail(strict=True, reason="known miss: " + case.note))
        if case.id in KNOWN_PAIR_FAILURES
        else case.id
        for case in load_suite(paraphrase.DEFAULT_SUITE)
    ]


@pytest.mark.parametrize("case_id", _suite_ids())
def test_chi_ranks_the_faithful_paraphrase_above_the_unfaithful_edit(scored, case_id):
    faithful, unfaithful = scored[case_id]
    assert faithful > unfaithful


def test_paraphrase_suite_shares(suite, scored):
    """The suite's headline numbers (issue 13 asks for 95% / 90%; these are the floors
    this version holds, see the chi card)."""
    pairs = sum(f > u for f, u in scored.values()) / len(suite)
    faithful_half = sum(f >= 0.5 for f, _ in scored.values()) / len(suite)
    assert pairs == (len(suite) - len(KNOWN_PAIR_FAILURES)) / len(suite)
    assert faithful_half >= FAITHFUL_HALF_FLOOR
