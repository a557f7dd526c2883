"""Isolation and determinism: one metric's caches never change another's scores, and
scores do not depend on the process's hash seed."""

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest
from halluscope import score_chi, score_dlsd_acu
from halluscope.acu.decompose import clear_decomposer_caches
from halluscope.resources import get_parse_cache

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUMMEVAL = "/work/shared/data/summac/summeval_val.jsonl"

SOURCES = [
    "Apple said on Monday that it had bought Beats Electronics. The deal cost $3 billion, the largest in "
    "its history. Analysts, who had expected a smaller price, said shares fell 2% after the news.",
    "Police arrested a man in Manchester on Sunday. He was charged with theft on Monday. The court "
    "released him on bail, his lawyer said.",
]
#: extractive summaries: each is a sentence of its source, the case where a sentence's
#: in-context parse and the same text parsed alone are two different parses
EXTRACTS = ["The deal cost $3 billion, the largest in its history.", "He was charged with theft on Monday."]
#: summaries for dlsd_acu whose best-entailed source sentences are those extracts
PARAPHRASES = [
    "Apple paid $3 billion for Beats, the largest deal in its history.",
    "A man was charged with theft on Monday after his arrest.",
]


def _overlap_nli(premises, hypotheses):
    """A deterministic stand-in for an NLI model: entailment = share of the
    hypothesis's words found in the premise (so SD-ACU picks the matching sentence)."""
    rows = []
    for premise, hypothesis in zip(premises, hypotheses, strict=True):
        words = set(hypothesis.lower().split())
        entailed = len(words & set(premise.lower().split())) / max(1, len(words))
        rows.append([entailed, (1 - entailed) / 2, (1 - entailed) / 2])
    return np.array(rows)


def _fresh_caches():
    get_parse_cache().clear()
    clear_decomposer_caches()


def test_dlsd_acu_leaves_only_whole_texts_in_the_shared_parse_cache():
    _fresh_caches()
    score_dlsd_acu(PARAPHRASES, SOURCES, decomposer="rules", coref="none", dl_acu="dep", nli_scorer=_overlap_nli)
    # the rule decomposer parsed the source sentences it decomposed (the extracts among
    # them) in their documents' context; none of those parses is left where score_chi
    # would read it as the parse of the same text on its own
    assert set(get_parse_cache().keys()) == set(SOURCES) | set(PARAPHRASES)


def test_scoring_dlsd_acu_first_does_not_change_chi():
    _fresh_caches()
    alone = score_chi(EXTRACTS, SOURCES, return_details=True)
    _fresh_caches()
    score_dlsd_acu(PARAPHRASES, SOURCES, decomposer="rules", coref="none", dl_acu="dep", nli_scorer=_overlap_nli)
    after = score_chi(EXTRACTS, SOURCES, return_details=True)
    assert [repr(x) for x in after["chi_scores"]] == [repr(x) for x in alone["chi_scores"]]
    assert after["details"] == alone["details"]


_SCRIPT = """
import json, sys
from halluscope import score_chi
rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")][:200]
result = score_chi([r["claim"] for r in rows], [r["document"] for r in rows], return_details=True)
json.dump({name: [repr(x) for x in result[name]] for name in ("chi_scores", "ehi_scores", "rhi_scores",
           "qhi_scores")} | {"details": repr(result["details"])}, sys.stdout)
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(SUMMEVAL), reason="needs the SummaC validation data")
def test_two_processes_with_different_hash_seeds_give_identical_scores():
    """The same 200 SummEval validation rows scored with chi in two processes whose
    PYTHONHASHSEED differ (set iteration order differs): every score and detail equal,
    bit for bit (compared through repr)."""
    outputs = []
    for seed in ("1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        completed = subprocess.run(
            [sys.executable, "-c", _SCRIPT, SUMMEVAL], capture_output=True, text=True, env=env, timeout=900, cwd=REPO
        )
        assert completed.returncode == 0, completed.stderr[-2000:]
        outputs.append(json.loads(completed.stdout))
    first, second = outputs
    assert len(first["chi_scores"]) == 200
    assert sum(not math.isnan(float(x)) for x in first["chi_scores"]) > 150  # a real sample, not all undefined
    for name in ("chi_scores", "ehi_scores", "rhi_scores", "qhi_scores"):
        assert first[name] == second[name], name
    assert first["details"] == second["details"]
