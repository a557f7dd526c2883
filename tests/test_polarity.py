"""Contradictions inside aligned sentences (halluscope.match.polarity): real spaCy parses,
WordNet where a rule needs it."""
import pytest

from halluscope.match.polarity import OPPOSITE_WORDS, aligned_sentence, sentence_flips
from halluscope.resources import get_resources


@pytest.fixture(scope="module")
def resources():
    return get_resources()


def flips(resources, summary, source, lexicon=None):
    nlp = resources.nlp(None)
    found = sentence_flips(resources.text_index(nlp(summary)), resources.text_index(nlp(source)), lexicon)
    return [(f.text, f.span, f.match.mode, f.match.evidence[0].text, f.match.detail) for f in found]


def test_opposites_are_symmetric():
    assert OPPOSITE_WORDS["before"] == {"after"} and OPPOSITE_WORDS["after"] == {"before"}
    assert OPPOSITE_WORDS["more"] == {"less", "fewer"} and OPPOSITE_WORDS["fewer"] == {"more"}


def test_a_direction_word_against_its_opposite_in_the_aligned_sentence(resources):
    source = "The boss was booked during the match. His underwear was on show after the boss ripped his trousers."
    summary = "His underwear was on show before the boss ripped his trousers."
    assert flips(resources, summary, source) == [
        ("before", (26, 32), "opposite", "after", "'before' against the opposite 'after' of the aligned source sentence")]
    # the same words with "after" kept: nothing flips
    assert flips(resources, "His underwear was on show after the boss ripped his trousers.", source) == []


def test_an_opposite_elsewhere_in_the_source_does_not_count(resources):
    # "after" is in the source, but not in the sentence the summary sentence is aligned to
    source = "After the vote the hall emptied. Members arrived before the debate on the budget."
    assert flips(resources, "Members arrived before the budget debate.", source) == []


def test_a_negation_added_or_dropped(resources):
    source = "A stray dog in Washington state has used up three of her lives."
    assert flips(resources, "A stray dog in Washington state has not used up three of her lives.", source) == [
        ("used", (40, 44), "negation", "used", "'use up' negated here, affirmed in the aligned source sentence ('used')")]
    assert flips(resources, "The dog in Washington state did use up three lives.",
                 "The dog in Washington state did not use up three lives.") == [
        ("use", (32, 35), "negation", "use", "'use up' affirmed here, negated in the aligned source sentence ('use')")]
    # the same polarity on both sides, or the lemma with both polarities in the source: no flip
    assert flips(resources, "The dog in Washington state has used up three lives.", source) == []
    assert flips(resources, "The club was not happy with the referee.",
                 "The club was happy with the result but was not happy with the referee.") == []


def test_wordnet_antonyms_with_converse_transfers_left_out(resources):
    lexicon = resources.lexicon()
    if not lexicon.available:
        pytest.skip("WordNet 3.0 is not installed")
    source = "The starlet rejected a move to Chelsea last week."
    assert flips(resources, "The starlet accepted a move to Chelsea last week.", source, lexicon) == [
        ("accepted", (12, 20), "opposite", "rejected",
         "'accept' against the opposite 'rejected' of the aligned source sentence")]
    assert flips(resources, "The starlet accepted a move to Chelsea last week.", source) == []  # no lexicon
    # sold / bought: one transfer seen from its two parties
    assert flips(resources, "Globex bought the factory from Acme in March.", "Acme sold the factory to Globex in March.",
                 lexicon) == []


def test_alignment_needs_shared_content(resources):
    nlp = resources.nlp(None)
    source = resources.text_index(nlp("The river flooded the town. The mayor thanked the volunteers."))
    summary = resources.text_index(nlp("The mayor thanked the firefighters and volunteers."))
    assert aligned_sentence(summary.sentences[0], source) == 1
    lonely = resources.text_index(nlp("Volunteers came."))
    assert aligned_sentence(lonely.sentences[0], source) is None  # one shared content word only


def test_no_negation_flip_where_a_negative_word_negates(resources):
    # "has no plans to close" negates through a determiner, which effective_negation does not read
    source = "The bank has no plans to close any branches in Wales."
    assert flips(resources, "The bank does not plan to close any branches in Wales.", source) == []


def test_an_opposite_must_be_said_of_the_same_thing(resources):
    # "first" modifies "time", the source's "last" modifies "season": no opposite
    source = "Hereford have been expelled from the Conference for the first time since the end of last season."
    assert flips(resources, "Hereford have been expelled for the first time since last season.", source) == []
    assert flips(resources, "Hereford have been expelled from the Conference for the last time.",
                 "Hereford have been expelled from the Conference for the first time.") == [
        ("last", (56, 60), "opposite", "first", "'last' against the opposite 'first' of the aligned source sentence")]
    # a verb's opposite must share an argument with it
    lexicon = resources.lexicon()
    if not lexicon.available:
        pytest.skip("WordNet 3.0 is not installed")
    assert flips(resources, "Police detained the activists in Beijing on Monday.",
                 "Police released the journalists in Beijing on Monday after the activists were detained.",
                 lexicon) == []
    assert [f[:3] for f in flips(resources, "Police detained the journalists in Beijing on Monday.",
                                 "Police released the journalists in Beijing on Monday.", lexicon)] == [
        ("detained", (7, 15), "opposite")]


def test_a_verbs_opposite_written_as_another_part_of_speech_is_no_flip(resources):
    # "okay" (an antonym of the verb "reject") is an adjective here: no predicate, no
    # shared argument, no flip (and no crash: found on the lockbox half)
    lexicon = resources.lexicon()
    if not lexicon.available:
        pytest.skip("WordNet 3.0 is not installed")
    assert flips(resources, "The council rejected the plan on Tuesday.",
                 "The council said the plan was okay on Tuesday.", lexicon) == []
