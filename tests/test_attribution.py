"""Attribution (halluscope.match.attribution): supported units weighted by whether the
source sentence holding them also holds the rest of their summary sentence."""

import math

import pytest
from halluscope.api import score_chi, score_ehi
from halluscope.match.attribution import ATTRIBUTION_FLOOR, credit

SOURCE = "Bueno played for Villa. Smith played for Derby. Bueno scored 3 goals on Sunday."


def _units(doc):
    from halluscope.ehi.extract import extract_entities

    return extract_entities(doc)


def _attributions(result):
    return [(u["text"], u["attribution"]) for u in result["details"][0]["ehi"]["units"]]


def test_a_recombined_fact_is_credited_by_hand_computed_attribution():
    # content words per source sentence (N = 3): {bueno, play(ed), villa}, {smith, play(ed),
    # derby}, {bueno, score(d), 3, goal, sunday}; idf = ln(1 + 3/df): bueno, play, played ln 2.5,
    # derby, villa, smith ln 4.
    result = score_ehi(["Bueno played for Derby."], [SOURCE], None, return_details=True)
    ln25, ln4 = math.log(2.5), math.log(4)
    # Bueno: context {play, played, derby}; best sentence is Smith's (2 ln 2.5 + ln 4), the
    # sentences holding Bueno reach 2 ln 2.5 (Villa's) and 0 (the goals)
    bueno = 2 * ln25 / (2 * ln25 + ln4)
    # Derby: context {bueno, play, played}; best is Villa's (3 ln 2.5), Derby's own has 2 ln 2.5
    derby = 2 / 3
    # the default (formula="support") also reads Derby in its place: the aligned sentence
    # "Bueno played for Villa" has Villa where the summary has Derby, a swap
    # (halluscope.ehi.swaps): contradicted, no credit, counted twice
    assert _attributions(result) == [("Bueno", pytest.approx(bueno)), ("Derby", None)]
    derby_unit = result["details"][0]["ehi"]["units"][1]
    assert (derby_unit["status"], derby_unit["in_source"]["mode"]) == ("contradicted", "swapped")
    assert result["ehi_scores"] == [pytest.approx((0.5 + 0.5 * bueno) / 3)]
    # Derby's attribution is read where no swap is looked for: the attribution weighs a
    # supported unit found elsewhere (the function itself, on the same units)
    from halluscope.match.attribution import attributions
    from halluscope.resources import get_resources

    resources = get_resources()
    nlp = resources.nlp(None)
    summary, source = nlp("Bueno played for Derby."), nlp(SOURCE)
    from halluscope.ehi.match import EntityMatcher
    from halluscope.match import MatchJob

    units = _units(summary)
    [found] = EntityMatcher().match_batch([MatchJob(units, _units(source), {}, None)])
    assert [m.mode for m in found] == ["exact", "exact"]
    assert attributions(units, found, resources.text_index(summary), resources.text_index(source)) == [
        pytest.approx(bueno),
        pytest.approx(derby),
    ]
    assert ATTRIBUTION_FLOOR == 0.5 and credit(None) == 0.0 and credit(0.25) == 0.625


def test_a_fact_stated_where_the_source_states_it_keeps_full_credit():
    result = score_ehi(["Bueno played for Villa."], [SOURCE], None, return_details=True)
    assert _attributions(result) == [("Bueno", 1.0), ("Villa", 1.0)]
    assert result["ehi_scores"] == [1.0]


def test_a_unit_mentioned_twice_is_judged_by_its_best_mention():
    # "Bueno" first appears in the Villa sentence; the goals sentence holds the rest
    result = score_ehi(["Bueno scored on Sunday."], [SOURCE], None, return_details=True)
    assert _attributions(result)[0] == ("Bueno", 1.0)


def test_attribution_off_and_under_the_paper_formula():
    plain = score_ehi(["Bueno played for Derby."], [SOURCE], None, attribution=False, return_details=True)
    # Bueno counts 1 (no weight); Derby, swapped for Villa, is contradicted: 1 / (2 + 1)
    assert plain["ehi_scores"] == [1 / 3]
    assert "attribution" not in plain["details"][0]["ehi"]["units"][0]
    assert "|attr:none|" in plain["signature"]
    assert "|attr:none|" in score_ehi(["Bueno played for Derby."], [SOURCE], None, formula="paper")["signature"]
    with pytest.raises(ValueError, match="attribution"):
        score_chi(["Bueno played for Derby."], [SOURCE], None, formula="paper", attribution=True)
    with pytest.raises(TypeError, match="attribution"):
        score_chi(["Bueno played for Derby."], [SOURCE], None, attribution="yes")


def test_relation_triples_are_not_weighted_so_faithful_fusion_keeps_full_credit():
    # each triple is stated in one source sentence; the summary fuses the two sentences
    source = "Police arrested the suspect after a chase. The suspect had robbed a bank."
    result = score_chi(["Police arrested the suspect who had robbed a bank."], [source], None, return_details=True)
    units = result["details"][0]["rhi"]["units"]
    assert [(u["key"], u["status"]) for u in units] == [
        (["police", "arrest", "suspect"], "supported"),
        (["suspect", "rob", "bank"], "supported"),
    ]
    assert all("attribution" not in u for u in units)
    assert result["chi_scores"] == [1.0]


def test_overlap_is_the_exact_sum_whatever_the_set_order():
    """Issue 15: a set yields its words in an order that follows the process's hash seed,
    and a plain float sum's last bit followed that order (10 of 800 scores of 200 SummEval
    rows differed between PYTHONHASHSEED=1 and 2). The overlap is now the exactly rounded
    sum (math.fsum), the same in every order."""
    import math
    import random

    from halluscope.match.attribution import _overlap

    rng = random.Random(0)
    idf = {f"w{k}": math.log(1 + rng.uniform(1, 40)) for k in range(60)}
    words = frozenset(idf)
    exact = math.fsum(idf.values())
    assert _overlap(words, words, idf) == exact
    # a plain left-to-right sum of the same values depends on their order
    orders = {sum(rng.sample(list(idf.values()), len(idf))) for _ in range(50)}
    assert len(orders) > 1
    assert _overlap(words, frozenset(list(idf)[:30]), idf) == math.fsum(list(idf.values())[:30])
