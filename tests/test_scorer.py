"""halluscope.Scorer: options checked and models loaded once, score many."""

import pytest
from halluscope import Scorer, ScoreResult, score_chi, score_qhi
from halluscope.errors import InputError, OptionError

SOURCES = [
    "Police arrested Thomas in Leeds on Monday.",
    "Apple sold 3 million phones in 2019.",
    "The mayor opened the bridge in May.",
    "Sales rose 5% to $2 billion.",
]
SUMMARIES = [
    "Police arrested Thomas in York.",
    "Apple sold 3 million phones.",
    "The mayor closed the bridge.",
    "Sales rose 5%.",
]


def test_bad_options_fail_when_the_scorer_is_made():
    with pytest.raises(OptionError, match="`epsilon` must be a number in \\[0, 1\\), got 2"):
        Scorer("qhi", epsilon=2, load=False)
    with pytest.raises(OptionError, match="unknown metric 'bleu'"):
        Scorer("bleu", load=False)


def test_score_equals_the_api_and_keeps_the_signature():
    scorer = Scorer("chi", preset="paper", grounding="text")
    assert repr(scorer) == "Scorer('chi', preset='paper', grounding='text')"
    result = scorer.score(SUMMARIES, SOURCES)
    direct = score_chi(SUMMARIES, SOURCES, preset="paper", grounding="text")
    assert isinstance(result, ScoreResult) and result == direct
    assert scorer.signature == direct.signature and "formula:paper" in scorer.signature
    assert scorer.resolved["relation_matching"] == "sentence" and scorer.resolved["grounding"] == "text"


def test_score_batches_yields_one_result_per_batch_that_merge_into_one_run():
    scorer = Scorer("qhi")
    rows = [
        {"prediction": p, "source": s, "publication_date": "2020-05-04" if k == 2 else None}
        for k, (s, p) in enumerate(zip(SOURCES, SUMMARIES, strict=True))
    ]
    results = list(scorer.score_batches(rows, batch_size=3, progress=False))
    assert [r.num_rows for r in results] == [3, 1]
    merged = ScoreResult.merge(results)
    assert (
        merged.per_example
        == score_qhi(SUMMARIES, SOURCES, None, publication_dates=[None, None, "2020-05-04", None]).per_example
    )


def test_score_batches_names_the_row_of_a_bad_input():
    scorer = Scorer("ehi")
    rows = [(SUMMARIES[0], SOURCES[0]), (SUMMARIES[1], SOURCES[1]), (None, SOURCES[2])]
    with pytest.raises(InputError) as caught:
        list(scorer.score_batches(rows, batch_size=2, progress=False))
    assert caught.value.row == 2 and caught.value.field == "predictions"
    assert str(caught.value) == "row 2: `predictions` is None; expected a string (in the batch starting at row 2)"
    with pytest.raises(InputError, match="row 0: a row needs the keys 'prediction' and 'source'; missing"):
        list(scorer.score_batches([{"source": "x"}], progress=False))
    with pytest.raises(InputError, match="ehi resolves no dates"):
        scorer.score(SUMMARIES, SOURCES, publication_dates=[None] * 4)


def test_score_takes_the_order_and_keywords_of_score_chi_and_warns_on_swapped_texts():
    import warnings

    scorer = Scorer("ehi")
    positional = scorer.score(SUMMARIES, SOURCES)
    assert scorer.score(sources=SOURCES, predictions=SUMMARIES) == positional
    assert positional.per_example["ehi"] == score_chi(SUMMARIES, SOURCES).per_example["ehi"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the right order warns of nothing
        scorer.score(SUMMARIES, SOURCES)
    # every text here is longer than its partner and 42 + 36 + 35 + 28 = 141 characters
    # against 31 + 28 + 28 + 14 = 101: 1.4 times, under the 2.0 that reads as swapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scorer.score(SOURCES, SUMMARIES)
    long_sources = [s + " The rest of the article follows at length." * 2 for s in SOURCES]
    with pytest.warns(
        UserWarning,
        match=r"every prediction is longer than its source \(4\.8 times as long "
        r"in all\): are predictions and sources swapped\?",
    ):
        scorer.score(long_sources, SUMMARIES)


def test_score_dataset_scores_by_column_in_row_order_and_names_a_missing_column():
    import datasets

    documents = SOURCES * 3
    summaries = SUMMARIES * 3
    dataset = datasets.Dataset.from_dict({"document": documents, "summary": summaries, "label": [1] * 12})
    scorer = Scorer("chi")
    result = scorer.score_dataset(
        dataset, prediction_column="summary", source_column="document", batch_size=5, progress=False
    )
    assert result.num_rows == 12
    assert result.per_example == score_chi(summaries, documents).per_example
    scored = dataset.add_column("chi", result.per_example["chi"])
    assert scored.column_names == ["document", "summary", "label", "chi"]
    with pytest.raises(
        InputError,
        match=r"the dataset has no column 'prediction' for the predictions \(its "
        r"columns: document, summary, label\); pass prediction_column=",
    ):
        scorer.score_dataset(dataset, source_column="document")
