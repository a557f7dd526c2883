"""halluscope.text.token_table: the columns read with one Doc.to_array call equal what the
Token API gives, on real spaCy parses; subtrees, projective or not."""

import gc

import pytest
from halluscope.collector import GEN0_THRESHOLD, fewer_collections
from halluscope.text.token_table import TokenTable
from parsed import parse

TEXT = (
    "The board of Carrow Mining didn't approve the £3.2bn bid on Tuesday. "
    "Shares in the firm, which owns mines in Chile, fell 5%.\n\nAnalysts said\u00a0little."
)


def test_columns_equal_the_token_api():
    doc = parse(TEXT)
    table = TokenTable(doc)
    assert len(table) == len(doc)
    assert table.lower == [t.lower_ for t in doc]
    assert table.lemma == [t.lemma_ for t in doc]
    assert table.pos == [t.pos_ for t in doc]
    assert table.dep == [t.dep_ for t in doc]
    assert table.head == [t.head.i for t in doc]
    assert table.is_stop == [t.is_stop for t in doc]
    assert table.is_punct == [t.is_punct for t in doc]
    assert table.is_space == [t.is_space for t in doc]
    assert table.start_char == [t.idx for t in doc]
    assert table.end_char == [t.idx + len(t) for t in doc]
    assert table.children == [[c.i for c in t.children] for t in doc]
    assert list(table.sentence_bounds()) == [(s.start, s.end) for s in doc.sents]
    assert len(list(table.sentence_bounds())) == 3


def test_subtree_words_are_the_subtrees_words():
    doc = parse(TEXT)
    table = TokenTable(doc)
    forms = [(t.lower_,) for t in doc]
    for token in doc:
        assert table.subtree_words(token.i, forms) == frozenset(t.lower_ for t in token.subtree)
    fell = next(t for t in doc if t.lower_ == "fell")
    assert table.subtree_words(fell.i, forms) == frozenset(
        "shares in the firm , which owns mines chile fell 5 % .".split() + ["\n\n"]
    )  # the break hangs from "fell"


def test_a_non_projective_subtree_is_walked_not_read_as_a_run():
    from spacy.tokens import Doc

    # "A hearing is scheduled on the issue today": "on the issue" hangs from "hearing"
    # across "is scheduled", so the subtree of "hearing" is not the run of tokens 0-6
    words = ["A", "hearing", "is", "scheduled", "on", "the", "issue", "today"]
    heads = [1, 3, 3, 3, 1, 6, 4, 3]
    deps = ["det", "nsubjpass", "auxpass", "ROOT", "prep", "det", "pobj", "npadvmod"]
    doc = Doc(parse("x").vocab, words=words, heads=heads, deps=deps)
    table = TokenTable(doc)
    forms = [(w.lower(),) for w in words]
    assert table.subtree_words(1, forms) == frozenset({"a", "hearing", "on", "the", "issue"})
    assert table.subtree_words(1, forms) == frozenset(t.lower_ for t in doc[1].subtree)
    assert table.subtree_words(3, forms) == frozenset(w.lower() for w in words)


def test_an_empty_doc_has_no_rows():
    table = TokenTable(parse(""))
    assert len(table) == 0 and table.children == [] and list(table.sentence_bounds()) == []


@pytest.fixture
def default_thresholds():
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*saved)


def test_fewer_collections_raises_the_first_threshold_and_puts_it_back(default_thresholds):
    with fewer_collections():
        assert gc.get_threshold() == (GEN0_THRESHOLD, 10, 10)
        with fewer_collections():  # nested: one setting
            assert gc.get_threshold() == (GEN0_THRESHOLD, 10, 10)
        assert gc.get_threshold() == (GEN0_THRESHOLD, 10, 10)  # the outer call still runs
    assert gc.get_threshold() == (700, 10, 10)
    with pytest.raises(KeyError):
        with fewer_collections():
            raise KeyError("x")
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.parametrize("setting", [(0, 10, 10), (100_000, 5, 5)])
def test_fewer_collections_keeps_a_threshold_set_higher_or_off(setting, default_thresholds):
    gc.set_threshold(*setting)
    with fewer_collections():
        assert gc.get_threshold() == setting
    assert gc.get_threshold() == setting


def test_the_pipeline_scores_under_it(default_thresholds, monkeypatch):
    import halluscope.pipeline as pipeline
    from halluscope import score_ehi

    seen = []
    real = pipeline.parse_batch
    monkeypatch.setattr(pipeline, "parse_batch", lambda *a, **k: seen.append(gc.get_threshold()) or real(*a, **k))
    score_ehi(["Ada wrote."], ["Ada Lovelace wrote notes."])
    assert seen == [(GEN0_THRESHOLD, 10, 10)] and gc.get_threshold() == (700, 10, 10)


def test_doc_text_is_the_docs_text_joined_once():
    from halluscope.text.token_table import doc_text

    doc = parse(TEXT)
    assert doc_text(doc) == doc.text == TEXT
    assert doc.user_data[("halluscope", "text")] == (len(doc), TEXT)
    # the kept text is read back, not joined anew: a Doc's text cannot change, so a kept
    # value that says otherwise shows the read (and a token count that no longer fits
    # makes it join again)
    doc.user_data[("halluscope", "text")] = (len(doc), "kept")
    assert doc_text(doc) == "kept"
    doc.user_data[("halluscope", "text")] = (len(doc) + 1, "kept")
    assert doc_text(doc) == TEXT


@pytest.mark.parametrize(
    "text, expected",
    [
        ("all lower case, 5 words", True),
        ("", True),
        ("123 ...", True),
        ("one Capital", False),
        ("ǅ title case only", True),
        ("ǅ and an Upper", False),
        ("ÉTÉ", False),
        ("straße", True),
    ],
)
def test_has_no_upper_is_the_per_character_test(text, expected):
    from halluscope.text.token_table import has_no_upper

    assert has_no_upper(text) is expected
    assert has_no_upper(text) is (not any(c.isupper() for c in text))
