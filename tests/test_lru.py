"""halluscope.lru.LRU: the one bounded cache."""
import pytest

from halluscope.lru import LRU


def test_least_recent_is_evicted_and_reads_refresh():
    cache = LRU(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1          # a is now the most recent
    cache.put("c", 3)                   # evicts b
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
