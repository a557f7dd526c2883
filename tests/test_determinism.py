"""Isolation and determinism: one metric's caches never change another's scores, and
scores do not depend on the process's hash seed (on the validation data where it is,
``$HALLUSCOPE_DATA`` or ``../shared/data``, else on the package's example set, so that
the test runs in a clean clone)."""

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest
from halluscope import score_chi, score_dlsd_acu
from halluscope.acu.decompose import clear_decomposer_caches
from halluscope.examples import load_examples
from halluscope.resources import get_parse_cache

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

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


#: where the validation data lies: $HALLUSCOPE_DATA, else ../shared/data beside the repository
DATA_ENV = "HALLUSCOPE_DATA"
#: the SummEval validation file under that folder, and how many of its rows are scored
SUMMEVAL = os.path.join("summac", "summeval_val.jsonl")
SUMMEVAL_ROWS = 200


def data_folder() -> str:
    """The validation data's folder: ``$HALLUSCOPE_DATA``, else ``../shared/data``
    relative to the repository (which a clean clone does not have)."""
    return os.environ.get(DATA_ENV) or os.path.join(os.path.dirname(REPO), "shared", "data")


def determinism_rows() -> tuple[str, list[dict]]:
    """The rows the hash-seed test scores and where they come from: the first 200 of
    SummEval's validation file where the data is (an explicit ``$HALLUSCOPE_DATA``
    without that file is an error, not a fallback), else the package's own example set
    (halluscope/data/examples.jsonl: 16 rows with references and publication dates), so
    that the test runs in a clean clone too. Each row: prediction, source, reference
    ("" none), publication_date (None)."""
    path = os.path.join(data_folder(), SUMMEVAL)
    if os.path.exists(path) or os.environ.get(DATA_ENV):
        with open(path, encoding="utf-8") as handle:
            rows = [json.loads(line) for line in handle][:SUMMEVAL_ROWS]
        return path, [
            {"prediction": r["claim"], "source": r["document"], "reference": "", "publication_date": None} for r in rows
        ]
    keys = ("prediction", "source", "reference", "publication_date")
    return "halluscope/data/examples.jsonl", [{key: example[key] for key in keys} for example in load_examples()]


_SCRIPT = """
import json, sys
from halluscope import score_chi
rows = json.load(open(sys.argv[1], encoding="utf-8"))
result = score_chi([r["prediction"] for r in rows], [r["source"] for r in rows], [r["reference"] for r in rows],
                   publication_dates=[r["publication_date"] for r in rows], return_details=True)
json.dump({name: [repr(x) for x in result[name]] for name in ("chi_scores", "ehi_scores", "rhi_scores",
           "qhi_scores")} | {"details": repr(result["details"]), "signature": result["signature"]}, sys.stdout)
"""


def test_the_rows_come_from_the_data_folder_or_the_example_set(monkeypatch, tmp_path):
    monkeypatch.setenv(DATA_ENV, str(tmp_path))
    (tmp_path / "summac").mkdir()
    row = {"claim": "A b.", "document": "A b c.", "label": 1}
    (tmp_path / SUMMEVAL).write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert determinism_rows() == (
        str(tmp_path / SUMMEVAL),
        [{"prediction": "A b.", "source": "A b c.", "reference": "", "publication_date": None}],
    )
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "elsewhere"))
    with pytest.raises(FileNotFoundError):
        determinism_rows()  # a folder named on purpose and missing: no silent fallback
    monkeypatch.delenv(DATA_ENV)
    monkeypatch.setattr(sys.modules[__name__], "REPO", str(tmp_path / "clone"))  # a clone without ../shared/data
    origin, rows = determinism_rows()
    assert origin == "halluscope/data/examples.jsonl" and len(rows) == len(load_examples()) == 16
    assert rows[0]["reference"] and any(r["publication_date"] for r in rows)


@pytest.mark.slow
def test_two_processes_with_different_hash_seeds_give_identical_scores(tmp_path):
    """The same rows (:func:`determinism_rows`: 200 SummEval validation rows where the
    data is, else the package's example set) scored with chi in two processes whose
    PYTHONHASHSEED differ (set iteration order differs): every score, detail and the
    signature equal, bit for bit (compared through repr)."""
    origin, rows = determinism_rows()
    rows_file = tmp_path / "rows.json"
    rows_file.write_text(json.dumps(rows), encoding="utf-8")
    outputs = []
    for seed in ("1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        completed = subprocess.run(
            [sys.executable, "-c", _SCRIPT, str(rows_file)],
            capture_output=True,
            text=True,
            env=env,
            timeout=900,
            cwd=REPO,
        )
        assert completed.returncode == 0, completed.stderr[-2000:]
        outputs.append(json.loads(completed.stdout))
    first, second = outputs
    assert len(first["chi_scores"]) == len(rows), origin
    defined = sum(not math.isnan(float(x)) for x in first["chi_scores"])
    assert defined > 0.75 * len(rows), origin  # a real sample, not all undefined
    for name in ("chi_scores", "ehi_scores", "rhi_scores", "qhi_scores", "signature"):
        assert first[name] == second[name], name
    assert first["details"] == second["details"]
