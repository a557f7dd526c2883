"""halluscope.lru.LRU: the one bounded cache."""

import pytest
from halluscope.lru import LRU


def test_least_recent_is_evicted_and_reads_refresh():
    cache = LRU(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # a is now the most recent
    cache.put("c", 3)  # evicts b
    assert list(cache) == ["a", "c"] and cache.evicted == 1
    assert cache.get("b") is None and cache.get("b", 0) == 0
    cache.resize(1)
    assert list(cache) == ["c"] and cache.evicted == 2


def test_size_zero_stores_nothing_and_bad_sizes_fail():
    cache = LRU(0)
    assert cache.put("a", 1) == 1 and len(cache) == 0
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="an LRU size must be an integer >= 0"):
            LRU(bad)


def test_weighted_lru_evicts_by_total_weight():
    cache = LRU(10, weigh=lambda key, value: len(value), max_weight=6)
    cache.put("a", "xx")
    cache.put("b", "yyy")
    assert cache.weight == 5 and list(cache) == ["a", "b"]
    cache.get("a")  # a is now the most recent
    cache.put("c", "zz")  # 7 > 6: evicts b (3), leaving a (2) + c (2)
    assert list(cache) == ["a", "c"] and cache.weight == 4 and cache.evicted == 1
    cache.put("a", "wwww")  # replacing a re-weighs it: 4 + 2
    assert cache.weight == 6 and list(cache) == ["c", "a"]
    cache.put("d", "1234567")  # heavier than the bound on its own: not stored
    assert "d" not in cache and cache.weight == 6 and cache.evicted == 2
    cache.resize(max_weight=4)  # shrinking evicts c (2): a (4) stays
    assert list(cache) == ["a"] and cache.weight == 4 and cache.evicted == 3
    cache.resize(max_weight=None)  # no byte bound: the count bound remains
    for key in "bcdefghijkl":
        cache.put(key, "x")
    # 12 keys put, the 10 most recent kept: a ("wwww") and b are evicted
    assert list(cache) == list("cdefghijkl") and cache.weight == 10
    cache.clear()
    assert len(cache) == 0 and cache.weight == 0


def test_weighted_lru_needs_a_weigh_function_and_sane_bounds():
    with pytest.raises(ValueError, match="needs a weigh function"):
        LRU(3, max_weight=10)
    with pytest.raises(ValueError, match="an LRU max_weight must be an integer >= 0 or None"):
        LRU(3, weigh=lambda k, v: 1, max_weight=-1)
    cache = LRU(3, weigh=lambda k, v: 1, max_weight=0)
    assert cache.put("a", 1) == 1 and len(cache) == 0 and cache.evicted == 1
