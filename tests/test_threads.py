"""Scoring from several threads at once (issue 28 item 4): a shared Scorer with a tiny
memory budget gives, over more than 100 concurrent calls, no exception and the very
scores of sequential calls; an embedder's pinned vectors are each thread's own."""

from __future__ import annotations

import json
import threading

import numpy as np
from halluscope import Scorer
from halluscope.embedding import Embedder

SOURCES = [
    "Microsoft acquired the startup GitHub in 2018. The deal was worth $7.5 billion.",
    "The city council of Springfield voted 7 to 2 on Tuesday to build a new bridge.",
    "Heavy rain flooded parts of Lagos on Sunday, and officials said 12 people had died.",
    "Acme sold the plant to Globex in March for $400 million.",
]
SUMMARIES = [
    "Microsoft bought GitHub for $9 billion in 2019.",
    "Springfield's council rejected the bridge 2 to 7.",
    "Floods in Lagos killed 12 people on Sunday.",
    "Globex bought the plant from Acme in May.",
]


def test_a_shared_scorer_under_threads_scores_as_sequential_calls(restore_budget):
    scorer = Scorer("chi", cache_mb=1)  # 1 MB: the caches evict all the time
    pairs = [(k, (k + 1) % 4) for k in range(4)]
    sequential = {
        pair: json.dumps(scorer.score([SUMMARIES[i] for i in pair], [SOURCES[i] for i in pair])["chi_scores"])
        for pair in pairs
    }
    errors, differ, calls = [], [], []

    def work(thread: int) -> None:
        for call in range(13):
            pair = pairs[(thread + call) % 4]
            try:
                result = scorer.score([SUMMARIES[i] for i in pair], [SOURCES[i] for i in pair])
                calls.append(1)
                if json.dumps(result["chi_scores"]) != sequential[pair]:
                    differ.append((pair, result["chi_scores"]))
            except Exception as error:  # noqa: BLE001 - every exception is a failure to report
                errors.append(repr(error))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and differ == [] and len(calls) == 104


def test_another_thread_s_prepare_does_not_take_this_thread_s_vectors():
    embedder = Embedder(maxsize=0)  # nothing stays cached: only the pins hold vectors
    embedder.prepare(["the cat sat"])
    mine = embedder.vector("the cat sat")
    other = threading.Thread(target=embedder.prepare, args=(["a dog ran"],))
    other.start()
    other.join()
    before = embedder.encoded
    assert np.array_equal(embedder.vector("the cat sat"), mine)  # still pinned for this thread
    assert embedder.encoded == before  # read from the pin, not encoded again
