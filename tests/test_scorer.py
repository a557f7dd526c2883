"""halluscope.Scorer: options checked and models loaded once, score many."""
import pytest

from halluscope import Scorer, ScoreResult, score_chi, score_qhi
from halluscope.errors import InputError, OptionError

SOURCES = ["Police arrested Thomas in Leeds on Monday.", "Apple sold 3 million phones in 2019.",
           "The mayor opened the bridge in May.", "Sales rose 5% to $2 billion."]
SUMMARIES = ["Police arrested Thomas in York.", "Apple sold 3 million phones.", "The mayor closed the bridge.",
             "Sales rose 5%."]


def test_bad_options_fail_when_the_scorer_is_made():
    with pytest.raises(OptionError, match="`epsilon` must be a number in \\[0, 1\\), got 2"):
        Scorer("qhi", epsilon=2, load=False)
    with pytest.raises(OptionError, match="unknown metric 'bleu'"):
        Scorer("bleu", load=False)


def test_score_equals_the_api_and_keeps_the_signature():
    scorer = Scorer("chi", preset="paper", grounding="text")
    assert repr(scorer) == "Scorer('chi', preset='paper', grounding='text')"
    result = scorer.score(SOURCES, SUMMARIES)
    direct = score_chi(SUMMARIES, SOURCES, preset="paper", grounding="text")
    assert isinstance(result, ScoreResult) and result == direct
    assert scorer.signature == direct.signature and "formula:paper" in scorer.signature
    assert scorer.resolved["relation_matching"] == "sentence" and scorer.resolved["grounding"] == "text"


def test_score_batches_yields_one_result_per_batch_that_merge_into_one_run():
    scorer = Scorer("qhi")
    rows = [{"source": s, "summary": p, "publication_date": "2020-05-04" if k == 2 else None}
            for k, (s, p) in enumerate(zip(SOURCES, SUMMARIES))]
    results = list(scorer.score_batches(rows, batch_size=3, progress=False))
    assert [r.num_rows for r in results] == [3, 1]
    merged = ScoreResult.merge(results)
    assert merged.per_example == score_qhi(SUMMARIES, SOURCES, None,
                                           publication_dates=[None, None, "2020-05-04", None]).per_example


def test_score_batches_names_the_row_of_a_bad_input():
    scorer = Scorer("ehi")
    rows = [(SOURCES[0], SUMMARIES[0]), (SOURCES[1], SUMMARIES[1]), (SOURCES[2], None)]
    with pytest.raises(InputError) as caught:
        list(scorer.score_batches(rows, batch_size=2, progress=False))
    assert caught.value.row == 2 and caught.value.field == "predictions"
    assert str(caught.value) == "row 2: `predictions` is None; expected a string (in the batch starting at row 2)"
    with pytest.raises(InputError, match="row 0: a row needs the keys 'source' and 'summary'; missing"):
        list(scorer.score_batches([{"source": "x"}], progress=False))
    with pytest.raises(InputError, match="ehi resolves no dates"):
        scorer.score(SOURCES, SUMMARIES, publication_dates=[None] * 4)
