"""halluscope.resources.Resources: the CHI family's models and caches in one object,
passed down the pipeline (docs/architecture.md#resources)."""

import dataclasses
import gc

import pytest
from halluscope import Scorer, budget, score_chi
from halluscope.ehi.match import EntityMatcher
from halluscope.match import MatchJob
from halluscope.parsing import ParsedText, UnitCache
from halluscope.resources import Resources, get_embedder, get_lexicon, get_parse_cache, get_resources, text_index
from halluscope.text.index import build_text_index
from halluscope.units import EntityUnit

MB = 1 << 20

SOURCES = [
    "Microsoft acquired the startup GitHub in 2018. The deal was worth $7.5 billion, and Nat Friedman "
    "became its chief executive.",
    "Heavy rain flooded parts of Lagos on Sunday, and officials said 12 people had died.",
]
SUMMARIES = ["Microsoft bought GitHub in 2019 for $7.5 billion.", "Floods in Lagos killed 21 people."]
REFERENCES = ["Microsoft bought GitHub for $7.5 billion in 2018.", "Floods killed 12 people in Lagos."]


def test_two_resources_share_no_cache_but_the_models():
    first, second = Resources(), Resources()
    Scorer("chi", resources=first).score(SUMMARIES, SOURCES)
    parses = first.parse_cache()
    assert parses is not second.parse_cache() and parses is not get_parse_cache()
    assert set(SOURCES) | set(SUMMARIES) <= set(parses.keys())
    assert len(second.parse_cache()) == 0 and len(second.unit_cache) == 0 and len(second.index_cache) == 0
    # three extractor settings (ehi, rhi, qhi) for each of the four texts and for the probe
    # text Scorer.load scores; text indexes of the two sources (grounding, words), of the two
    # summaries (each has a supported entity to attribute) and of the probe
    assert len(first.unit_cache) == 3 * 4 + 3
    assert len(first.index_cache) == 2 + 2 + 1
    assert first.embedder() is not second.embedder() and first.lexicon() is not second.lexicon()
    # the models are the process's, loaded once
    assert first.parse_cache().nlp is second.parse_cache().nlp is get_parse_cache().nlp
    assert first.embedder().model is second.embedder().model
    assert first.lexicon().reader is second.lexicon().reader is get_lexicon().reader
    assert first.lexicon()._lock is second.lexicon()._lock  # one reader, one lock
    first.clear()
    assert (len(parses), len(first.unit_cache), len(first.index_cache)) == (0, 0, 0)
    assert first.parse_cache().nlp is second.parse_cache().nlp  # models stay loaded


def test_a_scorer_with_its_own_resources_scores_as_the_api():
    own = Resources()
    scorer = Scorer("chi", resources=own)
    assert scorer.resources is own and Scorer("chi", load=False).resources is Resources.default()
    result = scorer.score(SUMMARIES, SOURCES, REFERENCES, return_details=True)
    direct = score_chi(SUMMARIES, SOURCES, REFERENCES, return_details=True)
    assert result == direct and result.details == direct.details
    assert result["signature"] == direct["signature"]
    # the values: GitHub's year is wrong (2019 for 2018), Lagos's 21 deaths are not the source's 12
    # chi = 0.99 H + 0.01 w (0.9 + 0.1 M): H = 3 / (1.5 + 1 + 4), M = (2/3 + 1 + 0.25) / 3, w = 6/7;
    # then H = 0, M = 1/3, w = 0.575
    assert result["chi_scores"] == pytest.approx(
        [0.99 * 3 / 6.5 + 0.01 * 6 / 7 * (0.9 + 0.1 * (2 / 3 + 1.25) / 3), 0.01 * 0.575 * (0.9 + 0.1 / 3)]
    )
    assert result["ehi_scores"] == pytest.approx([2 / 3, 1.0])
    assert (result["rhi_scores"], result["qhi_scores"]) == ([1.0, 0.0], [0.25, 0.0])
    assert [(u["text"], u["status"]) for u in result.details[0]["qhi"]["units"]] == [
        ("2019", "unsupported"),
        ("$7.5 billion", "supported"),
    ]


def test_scores_do_not_depend_on_which_resources_or_how_warm():
    fresh = Resources()
    cold = Scorer("chi", resources=fresh, load=False).score(SUMMARIES, SOURCES)
    warm = Scorer("chi", resources=fresh, load=False).score(SUMMARIES, SOURCES)
    assert cold == warm == score_chi(SUMMARIES, SOURCES)
    assert fresh.unit_cache.extracted == 12  # the second call extracted nothing
    assert fresh.unit_cache.hits >= 12


def test_a_call_indexes_each_text_once_whatever_the_index_cache_holds():
    # the dimensions and the word support each read every row's text indexes in turn: a
    # cache that holds one index must not make the call build the others again
    tiny = Resources(index_cache_size=1)
    result = Scorer("chi", resources=tiny, load=False).score(SUMMARIES, SOURCES, REFERENCES)
    # indexed: the two sources, the two references (pools) and the two summaries (attribution)
    assert tiny.index_cache.built == 6 and len(tiny.index_cache) == 1
    assert result == score_chi(SUMMARIES, SOURCES, REFERENCES)


def test_a_call_holds_text_indexes_up_to_the_budget(restore_budget):
    budget.apply(0)  # nothing cached and nothing held: each reader of an index builds it
    bare = Resources()
    result = Scorer("chi", resources=bare, load=False).score(SUMMARIES, SOURCES, REFERENCES)
    # grounding in ehi and rhi reads the two sources and the two references (2 x 4); the
    # sentence contradictions (match.polarity, once for rhi and the words) read the two
    # summaries and the two sources (2 + 2), the words the two sources again (2); the swap
    # check (match.swaps) reads a summary and its source in each dimension where the
    # summary has a unit it checks (a supported one, or in qhi one the source lacks, for a
    # replaced value): both summaries in ehi and in qhi (2 x 4); attribution where the
    # summary has a supported unit: both summaries in ehi, the first alone in qhi (2 x 3);
    # the text rule for quantities (match.grounding.quantity_in_text) where a quantity is
    # left unmatched: "2019" and "21", each summary and its source (2 x 2); the copied-passage
    # check (match.copies, dimensions.base.copied_units) reads a summary and its source where
    # a unit is unmatched or contradicted: "2019" and "21" in qhi, (flood, kill, people) in
    # rhi (2 x 3)
    assert bare.index_cache.built == 2 * 4 + (2 + 2) + 2 + 2 * 4 + 2 * 3 + 2 * 2 + 2 * 3
    assert len(bare.index_cache) == 0
    assert result == score_chi(SUMMARIES, SOURCES, REFERENCES)


def test_the_pipeline_writes_nothing_onto_a_parse():
    assert [f.name for f in dataclasses.fields(ParsedText)] == ["text", "doc"]
    own = Resources()
    Scorer("chi", resources=own, load=False).score(SUMMARIES, SOURCES, REFERENCES)
    cache = own.parse_cache()
    for key in cache.keys():
        parsed = cache._entries.get(key)
        assert vars(parsed).keys() == {"text", "doc"}
    # the units live in the unit cache, one entry per (parse, setting)
    parsed = cache.get_many([SOURCES[1]])[0]
    settings = {setting for ident, setting in own.unit_cache._entries if ident == id(parsed)}
    assert settings == {("ehi",), ("qhi",), ("rhi", "compound", "all", True)}


def test_the_unit_cache_is_bounded_and_keeps_no_parse_alive():
    cache = UnitCache(maxsize=2, budgeted=False)
    parsed = ParsedText("a text", doc=None)
    calls = []

    def extract(doc):
        calls.append(doc)
        return ["u1", "u2"]

    assert cache.get(parsed, ("ehi",), extract) == ["u1", "u2"]
    assert cache.get(parsed, ("ehi",), extract) == ["u1", "u2"] and len(calls) == 1 and cache.hits == 1
    cache.get(parsed, ("qhi",), extract)
    cache.get(parsed, ("rhi",), extract)
    assert len(cache) == 2 and cache._entries.evicted == 1 and cache.extracted == 3
    assert cache._entries.weight == 2 * (budget.UNIT_ENTRY_FIXED + 2 * budget.UNIT_BYTES) == 2 * 1220
    ident = id(parsed)
    del parsed
    gc.collect()
    # the entry held only a weak reference: a new parse under a reused id misses
    other = ParsedText("another text", doc=None)
    if id(other) == ident:
        assert cache.get(other, ("qhi",), extract) == ["u1", "u2"] and cache.extracted == 4
    assert all(entry[0]() is None for entry in cache._entries.values())


def test_resources_caches_register_with_the_budget(restore_budget):
    before = budget.usage()
    own = Resources()
    after = budget.usage()
    assert after["units"]["caches"] == before["units"]["caches"] + 1
    assert after["text_indexes"]["caches"] == before["text_indexes"]["caches"] + 1
    budget.apply(1)
    units = budget.usage()["units"]["caches"]
    assert own.unit_cache._entries.max_weight == int(MB * 0.05) // units
    assert own.index_cache._entries.max_weight == int(MB * 0.20) // budget.usage()["text_indexes"]["caches"]
    Scorer("chi", resources=own, load=False).score(SUMMARIES, SOURCES)
    assert own.unit_cache._entries.weight <= own.unit_cache._entries.max_weight
    budget.apply(0)
    assert len(own.unit_cache) == 0 and len(own.index_cache) == 0
    del own
    gc.collect()
    assert budget.usage()["units"]["caches"] == before["units"]["caches"]


def test_a_call_batch_size_is_a_view_on_the_embedder():
    own = Resources()
    embedder = own.embedder()
    Scorer("chi", resources=own, load=False, batch_size=3).score(SUMMARIES, SOURCES)
    assert embedder.batch_size == 64 and own.embedder() is embedder and embedder.encoded > 0


def test_matchers_read_the_pool_index_the_job_carries():
    doc = get_parse_cache().get_many(["The crew of Alaska Airlines Flight 448 landed safely."])[0].doc
    alaska = EntityUnit("alaska", "alaska", (0, 6), "GPE")
    matcher = EntityMatcher(text_grounding=True)
    [[without]] = matcher.match_batch([MatchJob([alaska], [])])
    [[grounded]] = matcher.match_batch([MatchJob([alaska], [], pool_index=build_text_index(doc))])
    assert without is None
    assert (grounded.mode, grounded.evidence[0].text, grounded.evidence[0].span) == ("text", "Alaska", (12, 18))


def test_the_getters_answer_from_the_default_resources():
    default = get_resources()
    assert default is Resources.default()
    assert get_parse_cache() is default.parse_cache()
    assert get_embedder() is default.embedder()
    assert get_lexicon() is default.lexicon()
    doc = get_parse_cache().get_many(["Ada wrote notes in 1843."])[0].doc
    assert text_index(doc) is default.text_index(doc) is default.index_cache.get(doc)


def test_dlsd_acu_scores_with_the_engine_and_parses_of_its_resources(tmp_path):
    from halluscope.api import score_dlsd_acu, score_metric
    from tiny_models import tiny_nli_model

    folder = tiny_nli_model(tmp_path / "nli")
    options = {"nli_model": folder, "device": "cpu", "decomposer": "rules", "coref": "none", "dl_acu": "none"}
    own = Resources()
    result = score_metric("dlsd_acu", SUMMARIES, SOURCES, resources=own, **options)
    engine = own.nli_engine(folder, device="cpu")
    # its own engine scored the pairs; the default Resources' engine is another one
    assert engine.requested > 0 and engine is not get_resources().nli_engine(folder, device="cpu")
    assert get_resources().nli_engine(folder, device="cpu").requested == 0
    # the documents and summaries were parsed in its parse cache (no coreference rewrite)
    assert set(SOURCES) | set(SUMMARIES) <= set(own.parse_cache().keys())
    # the same scores as the default Resources, whose engine then scores the same pairs
    default = score_dlsd_acu(SUMMARIES, SOURCES, **options)
    assert default.per_example["dlsd_acu"] == result.per_example["dlsd_acu"]
    assert get_resources().nli_engine(folder, device="cpu").requested == engine.requested
    own.clear()
    assert len(own.parse_cache()) == 0
