"""Long texts (docs/scaling.md#long-texts): aligning a summary sentence, attributing a unit
and grounding a triple read the source sentences a word index proposes, not every
sentence, so a call's work after parsing grows linearly with the texts. Real spaCy parses."""

import pytest
from halluscope.api import score_ehi
from halluscope.match import attribution as attribution_module
from halluscope.match.claims import aligned_sentence
from halluscope.resources import get_resources
from halluscope.text.index import CANDIDATE_DF

#: one more sentence than CANDIDATE_DF, so the words every sentence has propose none
N = CANDIDATE_DF + 50


@pytest.fixture(scope="module")
def resources():
    return get_resources()


@pytest.fixture(scope="module")
def long_source(resources):
    nlp = resources.nlp(None)
    text = " ".join(f"Smith met officer N{i} in Leeds." for i in range(N))
    index = resources.text_index(nlp(text))
    assert len(index.sentences) == N
    return text, index


def test_a_word_most_sentences_hold_proposes_none_in_a_long_text(resources, long_source):
    _, index = long_source
    nlp = resources.nlp(None)
    summary = resources.text_index(nlp("Smith met officer N17 in Leeds. Smith met the officer in Leeds."))
    # "smith", "met"/"meet", "officer", "leeds": N sentences each, more than CANDIDATE_DF
    assert index.sharing(summary.sentences[0].content) == [17]  # "n17" alone proposes
    assert aligned_sentence(summary.sentences[0], index) == 17
    # only common words: nothing is proposed, so nothing is aligned
    assert index.sharing(summary.sentences[1].content) == []
    assert aligned_sentence(summary.sentences[1], index) is None


def test_in_a_text_of_up_to_candidate_df_sentences_every_shared_word_proposes(resources):
    nlp = resources.nlp(None)
    source = resources.text_index(nlp("The river flooded the town. The mayor thanked the volunteers. The mayor left."))
    summary = resources.text_index(nlp("The mayor thanked the firefighters."))
    assert source.sharing(summary.sentences[0].content) == [1, 2]
    assert aligned_sentence(summary.sentences[0], source) == 1


def test_holding_all_is_the_sentences_that_hold_every_word(resources):
    nlp = resources.nlp(None)
    source = resources.text_index(
        nlp("Police arrested Smith. Smith thanked the police. The police left. Jones arrived.")
    )
    for words in (["police"], ["police", "smith"], ["smith", "police", "arrest"], ["jones"], ["nobody"]):
        expected = [k for k, s in enumerate(source.sentences) if all(w in s.words for w in words)]
        assert list(source.holding_all(words)) == expected
    assert list(source.holding_all(["police", "smith"])) == [0, 1]
    assert list(source.holding_all([])) == [0, 1, 2, 3]


def test_attributing_a_unit_reads_the_proposed_sentences_only(long_source, monkeypatch):
    text, _ = long_source
    reads = []
    overlap = attribution_module._overlap

    def counted(context, content, idf):
        reads.append(content)
        return overlap(context, content, idf)

    monkeypatch.setattr(attribution_module, "_overlap", counted)
    # a sentence the source writes word for word is aligned to that passage, no sentence
    # read (halluscope.match.copies); "on Friday", which the source does not write (and no
    # sentence holds), makes this one no copy
    result = score_ehi(["Smith met officer N17 in Leeds."], [text], None, return_details=True)
    assert reads == [] and [u["attribution"] for u in result["details"][0]["ehi"]["units"]] == [1.0, 1.0, 1.0]
    result = score_ehi(["Smith met officer N17 in Leeds on Friday."], [text], None, return_details=True)
    units = result["details"][0]["ehi"]["units"]
    assert [u["text"] for u in units] == ["Smith", "N17", "Leeds"]
    # Smith and Leeds each read sentence 17 (proposed by "n17", and holding the name) and
    # sentence 0 (where the match's evidence is); N17, whose context has only words every
    # sentence holds, reads its evidence's sentence 17 alone: 5 reads, where every
    # sentence was read for every unit before (3 * N)
    assert len(reads) == 5
    # sentence 17 holds every name and is the best aligned: full credit
    assert [u["attribution"] for u in units] == [1.0, 1.0, 1.0]
