"""halluscope.budget: one memory budget split among the process's caches
(docs/scaling.md#memory)."""

import sys

import numpy as np
import pytest
from halluscope import api, budget, resources
from halluscope.errors import OptionError
from halluscope.lru import LRU

MB = 1 << 20


def test_shares_split_the_budget_by_kind_then_by_cache():
    assert budget.shares(100) == {
        "parses": 43 * MB,
        "units": 5 * MB,
        "text_indexes": 20 * MB,
        "embeddings": 15 * MB,
        "nli": 5 * MB,
        "lexicon": 10 * MB,
        "derived": 2 * MB,
    }
    # a Lexicon and its widened twin: one cache each
    split = budget.shares(512, {"parses": 2, "lexicon": 2})
    assert split["parses"] == int(512 * MB * 0.43) // 2 == 115_427_246
    assert split["lexicon"] == int(512 * MB * 0.10) // 2 == 26_843_545
    assert split["embeddings"] == int(512 * MB * 0.15) == 80_530_636
    assert sum(budget.SHARES.values()) == pytest.approx(1.0)


def test_entry_weights():
    vector = np.zeros(384, dtype=np.float32)
    key = "a" * 10
    assert budget.weigh_array(key, vector) == 1536 + 112 + 56 + sys.getsizeof(key) == 1763
    assert budget.weigh_array(("nli", "p", "h"), np.zeros(3, dtype=np.float32)) == (
        12 + 112 + 56 + 2 * sys.getsizeof("p") + sys.getsizeof("nli")
    )
    doc = resources.get_parse_cache().nlp.make_doc("Ada wrote notes in 1843.")  # 6 tokens
    assert budget.weigh_doc("Ada wrote notes in 1843.", doc) == 2000 + 180 * 6 + sys.getsizeof(
        "Ada wrote notes in 1843."
    )
    from halluscope.text.index import build_text_index

    parsed = resources.get_parse_cache().get_many(["Ada wrote notes in 1843."])[0].doc
    # the index by its text's 24 characters, plus the Doc of 6 tokens it keeps alive
    assert budget.weigh_index(12345, (parsed, build_text_index(parsed))) == 145 * 24 + 2000 + 180 * 6 + 64
    assert budget.weigh_units((1, ("ehi",)), (None, ["a unit", "another"])) == 300 + 2 * 460
    assert budget.weigh_container(("buy", "v"), frozenset({"purchase", "acquire"})) == (
        sys.getsizeof(frozenset({"purchase", "acquire"})) + 200 + 56 + sys.getsizeof("buy") + sys.getsizeof("v")
    )
    # a text table: its key's text and its value, a tuple weighed part by part
    words = (frozenset({"ada", "wrote"}), frozenset({"ada"}))
    assert budget.weigh_derived((len, "Ada wrote."), words) == 56 + 64 + sys.getsizeof("Ada wrote.") + (
        sys.getsizeof(words) + sys.getsizeof(words[0]) + 200 + sys.getsizeof(words[1]) + 100
    )
    assert budget.weigh_derived((len, "b", "he ran"), "Bo ran") == 56 + 64 + sys.getsizeof("b") + sys.getsizeof(
        "he ran"
    ) + sys.getsizeof("Bo ran")


def test_registered_caches_follow_the_budget(restore_budget):
    entry = {"bytes": MB}
    first = budget.register("nli", LRU(100, weigh=lambda key, value: entry["bytes"]))
    assert budget.apply(10) == 10 and budget.current_mb() == 10
    live = budget.usage()["nli"]["caches"]
    assert first.max_weight == MB * 10 // 20 // live  # 5% of 10 MB, split among the live NLI caches
    # an entry fills this cache's share exactly, however many NLI engines other tests left alive
    entry["bytes"] = first.max_weight
    for key in range(5):
        first.put(key, None)
    assert len(first) == 1 and first.evicted == 4
    assert budget.apply(None) == 10  # None keeps the budget in force
    budget.apply(0)
    assert len(first) == 0 and first.max_weight == 0


def test_the_environment_sets_the_budget_unless_a_call_does(monkeypatch, restore_budget):
    budget.reset()
    assert budget.current_mb() == budget.DEFAULT_MB == 96
    monkeypatch.setenv(budget.ENV, "64")
    assert budget.reset() == 64
    budget.apply(32)
    assert budget.current_mb() == 32
    monkeypatch.setenv(budget.ENV, "lots")
    monkeypatch.setattr(budget, "_SET_MB", None)
    with pytest.raises(OptionError, match="HALLUSCOPE_CACHE_MB must be an integer number of MB >= 0, got 'lots'"):
        budget.current_mb()
    monkeypatch.delenv(budget.ENV)


def test_the_option_is_checked():
    with pytest.raises(OptionError, match=r"`cache_mb` must be an integer in \[0, 1048576\] or None, got -1"):
        api.score_chi(["A b."], ["A b."], cache_mb=-1)
    with pytest.raises(OptionError, match=r"`cache_mb` must be an integer in \[0, 1048576\] or None, got 1.5"):
        api.score_ehi(["A b."], ["A b."], cache_mb=1.5)


SOURCES = [
    "Microsoft acquired the startup GitHub in 2018. The deal was worth $7.5 billion, and Nat Friedman became "
    "its chief executive. GitHub had about 28 million developers at the time.",
    "The city council of Springfield voted 7 to 2 on Tuesday to build a new bridge over the river. "
    "Construction will cost $40 million and start next spring, the mayor said.",
    "Heavy rain flooded parts of Lagos on Sunday, and officials said 12 people had died. The governor "
    "ordered schools closed for three days.",
]
SUMMARIES = [
    "Microsoft bought GitHub in 2019 for $7.5 billion.",
    "Springfield's council approved a $40 million bridge by a vote of 7 to 2.",
    "Floods in Lagos killed 21 people, and the governor closed schools for a week.",
]


def test_a_tiny_budget_evicts_and_leaves_every_score_unchanged(restore_budget):
    budget.reset()
    default = api.score_chi(SUMMARIES, SOURCES, return_details=False)
    cache = resources.get_parse_cache()
    assert len(cache) >= 6  # three sources and three summaries cached
    tiny = api.score_chi(SUMMARIES, SOURCES, cache_mb=1)
    # 1 MB: 43% of it for parses; a source parse of about 40 tokens weighs about 22 kB
    assert cache._entries.max_weight == int(MB * 0.43) // budget.usage()["parses"]["caches"]
    assert cache._entries.weight <= cache._entries.max_weight
    zero = api.score_chi(SUMMARIES, SOURCES, cache_mb=0)
    assert len(cache) == 0 and budget.usage()["text_indexes"]["entries"] == 0
    assert budget.usage()["units"]["entries"] == 0
    assert budget.usage()["embeddings"]["entries"] == 0
    assert budget.usage()["derived"]["entries"] == 0
    for result in (tiny, zero):
        assert result["chi_scores"] == default["chi_scores"]
        for dimension in ("ehi", "rhi", "qhi"):
            assert result[f"{dimension}_scores"] == default[f"{dimension}_scores"]
        assert result["signature"] == default["signature"]


def test_every_scoring_call_returns_freed_memory(monkeypatch):
    if not sys.platform.startswith("linux"):
        pytest.skip("malloc_trim is glibc's")
    assert budget._TRIM is not None
    calls = []
    monkeypatch.setattr(budget, "release_free_memory", lambda: calls.append(1) or True)
    api.score_qhi(["It cost $5."], ["It cost $5."])
    api.score_chi(["It cost $5."], ["It cost $5."])
    assert len(calls) == 2
    # and after a failing call too: the batch's memory is freed either way
    with pytest.raises(OptionError):
        api.score_chi(["It cost $5."], ["It cost $5."], cache_mb=-1)
    assert len(calls) == 2  # options are checked before anything is scored or allocated


def test_malloc_trim_returns_a_freed_large_block():
    if not sys.platform.startswith("linux"):
        pytest.skip("malloc_trim is glibc's")

    def rss_mb() -> float:
        with open("/proc/self/status", encoding="ascii") as handle:
            return next(int(line.split()[1]) / 1024 for line in handle if line.startswith("VmRSS:"))

    # many small blocks (below glibc's mmap threshold) freed: the heap keeps them
    blocks = [bytearray(60_000) for _ in range(3000)]  # ~180 MB
    for block in blocks:
        block[::4096] = b"x" * len(block[::4096])  # touch every page
    held = rss_mb()
    del blocks
    budget.release_free_memory()
    assert rss_mb() < held - 100
