"""The perturbation suite's edit functions (benchmarks/perturbations/) on hand-written
summaries with hand-built parses (a blank spaCy pipeline, annotations set by hand: no
model is loaded and nothing is scored)."""

from __future__ import annotations

import random

import pytest

spacy = pytest.importorskip("spacy")
from spacy.tokens import Doc  # noqa: E402

from benchmarks.perturbations.caught import record_of  # noqa: E402
from benchmarks.perturbations.edit_types import EDITS, OWN_INDEX  # noqa: E402
from benchmarks.perturbations.names import (  # noqa: E402
    _clean_entity,
    _same_referent,
    _written_beside,
    entity_swap_other,
    entity_swap_source,
    role_swap,
)
from benchmarks.perturbations.numbers import (  # noqa: E402
    YEAR_SHIFTS,
    amount_shift,
    amount_x0_5,
    amount_x2,
    find_numbers,
    number_swap_source,
    ordinal_change,
    ordinal_suffix,
    year_shift,
)
from benchmarks.perturbations.text import changed_span  # noqa: E402
from benchmarks.perturbations.units import unit_change  # noqa: E402
from benchmarks.perturbations.words import antonym, negation  # noqa: E402

VOCAB = spacy.blank("en").vocab


class FirstRng:
    """A stand-in for random.Random that always takes the first option, the low end
    of a range, and leaves orders as they are: every edit below is hand-checkable."""

    def choice(self, seq):
        return list(seq)[0]

    def uniform(self, low, high):
        return low

    def random(self):
        return 0.0

    def shuffle(self, seq):
        return None


class LastRng(FirstRng):
    def choice(self, seq):
        return list(seq)[-1]


def _made(text, words, **annotations):
    """A Doc over ``text`` with these words (whitespace taken from the text) and annotations."""
    spaces, position = [], 0
    for word in words:
        position = text.index(word, position) + len(word)
        spaces.append(text[position : position + 1] == " ")
    made = Doc(VOCAB, words=words, spaces=spaces, **annotations)
    assert made.text == text
    return made


def doc(text, annotations):
    """A Doc over ``text`` from (word, pos, tag, entity IOB) tuples."""
    return _made(
        text,
        [a[0] for a in annotations],
        pos=[a[1] for a in annotations],
        tags=[a[2] for a in annotations],
        ents=[a[3] for a in annotations],
    )


def test_amounts_doubled_halved_and_shifted_in_the_same_format():
    rng = FirstRng()
    assert amount_x2("The deal was worth $400 million.", "", rng) == "The deal was worth $800 million."
    assert amount_x0_5("The deal was worth $400 million.", "", rng) == "The deal was worth $200 million."
    assert amount_x2("About 2,500 people came.", "", rng) == "About 5,000 people came."
    assert amount_x0_5("Sales rose 25% in May.", "", rng) == "Sales rose 12.5% in May."
    assert amount_x2("Prices rose 12.5 per cent.", "", rng) == "Prices rose 25.0 per cent."
    assert amount_x2("It cost £1.2bn.", "", rng) == "It cost £2.4bn."
    # first amount (no shuffle), up (choice -> 1), by 7%: 400 * 1.07 = 428
    assert amount_shift("The deal was worth $400 million.", "", rng) == "The deal was worth $428 million."
    # last choice -> down: 2,500 * 0.93 = 2,325
    assert amount_shift("About 2,500 people came.", "", LastRng()) == "About 2,325 people came."
    # 3 * 1.07 rounds back to 3: no edit; times, ranges, scores and ordinals are not amounts
    assert amount_shift("He scored 3 goals.", "", rng) is None
    for text in ("It opened at 10:30 on 12/05.", "They won 3-1.", "The 2nd test.", "In the 2014-15 season."):
        assert amount_x2(text, "", rng) is None, text
    assert amount_x2("No numbers here.", "", rng) is None


def test_numbers_inside_dates_are_not_amounts_but_durations_are():
    text = "On March 5 he served 5 years."
    parsed = doc(
        text,
        [
            ("On", "ADP", "IN", "O"),
            ("March", "PROPN", "NNP", "B-DATE"),
            ("5", "NUM", "CD", "I-DATE"),
            ("he", "PRON", "PRP", "O"),
            ("served", "VERB", "VBD", "O"),
            ("5", "NUM", "CD", "B-DATE"),
            ("years", "NOUN", "NNS", "I-DATE"),
            (".", "PUNCT", ".", "O"),
        ],
    )
    assert [n.start for n in find_numbers(text, parsed)] == [21]  # "5 years", not "March 5"
    assert amount_x2(text, "", FirstRng(), parsed) == "On March 5 he served 10 years."


def test_year_shift_prefers_a_year_the_source_does_not_write():
    rng = FirstRng()  # shifts in order -3, -2, ...
    assert year_shift("He moved in 2012.", "", rng) == "He moved in 2009."
    assert year_shift("He moved in 2012.", "In 2009 and 2010 he ...", rng) == "He moved in 2011."
    assert year_shift("He paid $2012.", "", rng) is None  # money, not a year
    # with a parse: a year only inside a DATE entity
    text = "In 2012, 2000 people came."
    parsed = doc(
        text,
        [
            ("In", "ADP", "IN", "O"),
            ("2012", "NUM", "CD", "B-DATE"),
            (",", "PUNCT", ",", "O"),
            ("2000", "NUM", "CD", "B-CARDINAL"),
            ("people", "NOUN", "NNS", "O"),
            ("came", "VERB", "VBD", "O"),
            (".", "PUNCT", ".", "O"),
        ],
    )
    assert year_shift(text, "", LastRng(), parsed) == "In 2009, 2000 people came."
    assert amount_x2(text, "", rng, parsed) == "In 2012, 4000 people came."
    shifted = year_shift("He moved in 2012.", "", random.Random(0))
    assert shifted in {f"He moved in {2012 + s}." for s in YEAR_SHIFTS}
    assert shifted == year_shift("He moved in 2012.", "", random.Random(0))  # seeded


def test_number_swap_takes_a_source_number_of_the_same_kind():
    source = "The firm paid $5 million for 300 shares, 12% of the total, in 2010."
    assert number_swap_source("It paid $2 million.", source, FirstRng()) == "It paid $5 million."
    assert number_swap_source("It bought 400 shares.", source, FirstRng()) == "It bought 300 shares."
    assert number_swap_source("It holds 12%.", source, FirstRng()) is None  # the only per cent is equal
    assert number_swap_source("It happened in 2011.", source, FirstRng()) == "It happened in 2010."


def test_entity_swaps_from_another_source_and_from_the_same_source():
    summary = "John Smith visited Paris."
    parsed = doc(
        summary,
        [
            ("John", "PROPN", "NNP", "B-PERSON"),
            ("Smith", "PROPN", "NNP", "I-PERSON"),
            ("visited", "VERB", "VBD", "O"),
            ("Paris", "PROPN", "NNP", "B-GPE"),
            (".", "PUNCT", ".", "O"),
        ],
    )
    source = "John Smith, a friend of Mary Jones and of Jane Smith, visited Paris and Berlin."
    source_doc = doc(
        source,
        [
            ("John", "PROPN", "NNP", "B-PERSON"),
            ("Smith", "PROPN", "NNP", "I-PERSON"),
            (",", "PUNCT", ",", "O"),
            ("a", "DET", "DT", "O"),
            ("friend", "NOUN", "NN", "O"),
            ("of", "ADP", "IN", "O"),
            ("Mary", "PROPN", "NNP", "B-PERSON"),
            ("Jones", "PROPN", "NNP", "I-PERSON"),
            ("and", "CCONJ", "CC", "O"),
            ("of", "ADP", "IN", "O"),
            ("Jane", "PROPN", "NNP", "B-PERSON"),
            ("Smith", "PROPN", "NNP", "I-PERSON"),
            (",", "PUNCT", ",", "O"),
            ("visited", "VERB", "VBD", "O"),
            ("Paris", "PROPN", "NNP", "B-GPE"),
            ("and", "CCONJ", "CC", "O"),
            ("Berlin", "PROPN", "NNP", "B-GPE"),
            (".", "PUNCT", ".", "O"),
        ],
    )
    # same source: Jane Smith shares "smith" with John Smith -> Mary Jones
    assert entity_swap_source(summary, source, FirstRng(), parsed, source_doc) == "Mary Jones visited Paris."
    assert entity_swap_source(summary, source, LastRng(), parsed, source_doc) == "Mary Jones visited Paris."
    other_text = "Angela Merkel spoke in Rome."
    other = doc(
        other_text,
        [
            ("Angela", "PROPN", "NNP", "B-PERSON"),
            ("Merkel", "PROPN", "NNP", "I-PERSON"),
            ("spoke", "VERB", "VBD", "O"),
            ("in", "ADP", "IN", "O"),
            ("Rome", "PROPN", "NNP", "B-GPE"),
            (".", "PUNCT", ".", "O"),
        ],
    )
    assert entity_swap_other(summary, source, FirstRng(), parsed, source_doc, [source_doc, other]) is None
    assert entity_swap_other(summary, source, FirstRng(), parsed, source_doc, [other]) == "Angela Merkel visited Paris."
    assert entity_swap_other(summary, source, LastRng(), parsed, source_doc, [other]) == "John Smith visited Rome."
    # an all-lower-case summary gets a lower-case name
    lower = doc(
        "john smith visited paris.",
        [
            ("john", "PROPN", "NNP", "B-PERSON"),
            ("smith", "PROPN", "NNP", "I-PERSON"),
            ("visited", "VERB", "VBD", "O"),
            ("paris", "PROPN", "NNP", "B-GPE"),
            (".", "PUNCT", ".", "O"),
        ],
    )
    assert (
        entity_swap_other("john smith visited paris.", source, FirstRng(), lower, source_doc, [other])
        == "angela merkel visited paris."
    )
    assert _same_referent("US", "the United States") and _same_referent("Obama", "Barack Obama")
    assert _clean_entity("the Bank of England's") == "Bank of England"
    assert _same_referent("M&S", "Marks & Spencer") and _same_referent("the BBC", "British Broadcasting Corporation")
    assert not _same_referent("MS", "Manchester City") and not _same_referent("Libya", "Benghazi")
    assert _written_beside("Libya", "Benghazi", "an attack in Benghazi, Libya, last year")
    assert not _written_beside("Libya", "Benghazi", "Benghazi is a city in Libya.")
    assert _clean_entity("Chelsea, Arsenal") is None
    assert _clean_entity("Urbi et Orbi") is None and _clean_entity("roy hodgson") is None


def test_antonyms_keep_inflection_and_case():
    rng = FirstRng()
    assert antonym("Sales rose 5%", "", rng) == "Sales fell 5%"
    assert antonym("Increased demand lifted prices.", "", rng) == "Decreased demand lifted prices."
    assert antonym("The team won after the break.", "", rng) == "The team lost after the break."
    assert antonym("The team won after the break.", "", LastRng()) == "The team won before the break."
    text = "More people came, Rose said."
    parsed = doc(
        text,
        [
            ("More", "ADJ", "JJR", "O"),
            ("people", "NOUN", "NNS", "O"),
            ("came", "VERB", "VBD", "O"),
            (",", "PUNCT", ",", "O"),
            ("Rose", "PROPN", "NNP", "B-PERSON"),
            ("said", "VERB", "VBD", "O"),
            (".", "PUNCT", ".", "O"),
        ],
    )
    assert antonym(text, "", LastRng(), parsed) == "Fewer people came, Rose said."  # Rose the name stays
    text = "It costs more money and prices went up to $5."
    parsed = doc(
        text,
        [
            ("It", "PRON", "PRP", "O"),
            ("costs", "VERB", "VBZ", "O"),
            ("more", "ADJ", "JJR", "O"),
            ("money", "NOUN", "NN", "O"),
            ("and", "CCONJ", "CC", "O"),
            ("prices", "NOUN", "NNS", "O"),
            ("went", "VERB", "VBD", "O"),
            ("up", "ADP", "RP", "O"),
            ("to", "ADP", "IN", "O"),
            ("$", "SYM", "$", "B-MONEY"),
            ("5", "NUM", "CD", "I-MONEY"),
            (".", "PUNCT", ".", "O"),
        ],
    )
    assert antonym(text, "", LastRng(), parsed) == "It costs less money and prices went up to $5."
    assert antonym("Nothing to flip here.", "", rng) is None
    text = "The show was picked up."
    parsed = doc(
        text,
        [
            ("The", "DET", "DT", "O"),
            ("show", "NOUN", "NN", "O"),
            ("was", "AUX", "VBD", "O"),
            ("picked", "VERB", "VBN", "O"),
            ("up", "ADP", "RP", "O"),
            (".", "PUNCT", ".", "O"),
        ],
    )
    assert antonym(text, "", rng, parsed) is None  # a particle


def test_negation_inserted_after_the_first_auxiliary_or_removed():
    text = "The bill was passed and has been signed."
    parsed = doc(
        text,
        [
            ("The", "DET", "DT", "O"),
            ("bill", "NOUN", "NN", "O"),
            ("was", "AUX", "VBD", "O"),
            ("passed", "VERB", "VBN", "O"),
            ("and", "CCONJ", "CC", "O"),
            ("has", "AUX", "VBZ", "O"),
            ("been", "AUX", "VBN", "O"),
            ("signed", "VERB", "VBN", "O"),
            (".", "PUNCT", ".", "O"),
        ],
    )
    assert negation(text, "", FirstRng(), parsed) == "The bill was not passed and has been signed."
    text = "He did not win but can't stop."
    parsed = doc(
        text,
        [
            ("He", "PRON", "PRP", "O"),
            ("did", "AUX", "VBD", "O"),
            ("not", "PART", "RB", "O"),
            ("win", "VERB", "VB", "O"),
            ("but", "CCONJ", "CC", "O"),
            ("ca", "AUX", "MD", "O"),
            ("n't", "PART", "RB", "O"),
            ("stop", "VERB", "VB", "O"),
            (".", "PUNCT", ".", "O"),
        ],
    )
    # first auxiliary already negated: the options are the two removals
    assert negation(text, "", FirstRng(), parsed) == "He did win but can't stop."
    assert negation(text, "", LastRng(), parsed) == "He did not win but can stop."
    text = "She has never lost."
    parsed = doc(
        text,
        [
            ("She", "PRON", "PRP", "O"),
            ("has", "AUX", "VBZ", "O"),
            ("never", "ADV", "RB", "O"),
            ("lost", "VERB", "VBN", "O"),
            (".", "PUNCT", ".", "O"),
        ],
    )
    assert negation(text, "", LastRng(), parsed) == "She has lost."
    assert negation(text, "", FirstRng(), None) is None  # needs a parse


def test_unit_change_keeps_the_number():
    rng = FirstRng()
    assert unit_change("He ran 5 km on Sunday.", "", rng) == "He ran 5 miles on Sunday."
    assert unit_change("He ran 1 mile.", "", rng) == "He ran 1 kilometre."
    assert unit_change("It was 30°C outside.", "", rng) == "It was 30°F outside."
    assert unit_change("It weighs 20kg.", "", rng) == "It weighs 20lbs."
    assert unit_change("The deal was worth $400 million.", "", rng) == "The deal was worth $400 billion."
    assert unit_change("He served a 5-year term.", "", rng) == "He served a 5-month term."
    assert unit_change("Prices rose 5 per cent.", "", rng) is None
    assert unit_change("It weighs 5 pounds.", "", rng) is None  # money or weight?


def test_ordinal_change():
    rng = FirstRng()
    assert ordinal_change("It was her first win.", "", rng) == "It was her second win."
    assert ordinal_change("He came 2nd in the race.", "", rng) == "He came 3rd in the race."
    assert ordinal_change("He came 2nd in the race.", "", LastRng()) == "He came 4th in the race."
    assert ordinal_change("The 21st century.", "", rng) == "The 22nd century."
    text = "Wait a second."
    parsed = doc(
        text,
        [("Wait", "VERB", "VB", "O"), ("a", "DET", "DT", "O"), ("second", "NOUN", "NN", "O"), (".", "PUNCT", ".", "O")],
    )
    assert ordinal_change(text, "", rng, parsed) is None  # the noun
    text = "She was first arrested."
    parsed = doc(
        text,
        [
            ("She", "PRON", "PRP", "O"),
            ("was", "AUX", "VBD", "O"),
            ("first", "ADV", "RB", "B-ORDINAL"),
            ("arrested", "VERB", "VBN", "O"),
            (".", "PUNCT", ".", "O"),
        ],
    )
    assert ordinal_change(text, "", rng, parsed) is None  # the adverb
    assert ordinal_change("A third of pupils.", "", rng) is None  # a fraction
    assert [ordinal_suffix(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "st",
        "nd",
        "rd",
        "th",
        "th",
        "th",
        "th",
        "st",
        "nd",
        "rd",
        "st",
        "th",
    ]


def test_changed_span_and_registry():
    assert changed_span("Sales rose 5%", "Sales fell 5%") == (6, 10, 10, "rose", "fell")
    assert changed_span("his first race", "his last race") == (4, 9, 8, "first", "last")  # whole words
    assert set(EDITS) == set(OWN_INDEX)
    assert OWN_INDEX["entity_swap_other"] == "ehi" and OWN_INDEX["negation"] == "rhi"


def parsed(text, annotations):
    """A Doc over ``text`` from (word, pos, dep, head index, entity IOB) tuples."""
    return _made(
        text,
        [a[0] for a in annotations],
        pos=[a[1] for a in annotations],
        deps=[a[2] for a in annotations],
        heads=[a[3] for a in annotations],
        ents=[a[4] for a in annotations],
    )


def test_role_swap_exchanges_the_subject_and_object_names():
    active = "Bayern Munich beat Porto."
    doc_active = parsed(
        active,
        [
            ("Bayern", "PROPN", "compound", 1, "B-ORG"),
            ("Munich", "PROPN", "nsubj", 2, "I-ORG"),
            ("beat", "VERB", "ROOT", 2, "O"),
            ("Porto", "PROPN", "dobj", 2, "B-ORG"),
            (".", "PUNCT", "punct", 2, "O"),
        ],
    )
    assert role_swap(active, "", FirstRng(), doc_active) == "Porto beat Bayern Munich."
    passive = "Porto were beaten by the Bavarians."
    doc_passive = parsed(
        passive,
        [
            ("Porto", "PROPN", "nsubjpass", 2, "B-ORG"),
            ("were", "AUX", "auxpass", 2, "O"),
            ("beaten", "VERB", "ROOT", 2, "O"),
            ("by", "ADP", "agent", 2, "O"),
            ("the", "DET", "det", 5, "B-NORP"),
            ("Bavarians", "PROPN", "pobj", 3, "I-NORP"),
            (".", "PUNCT", "punct", 2, "O"),
        ],
    )
    # the leading "the" stays where it was
    assert role_swap(passive, "", FirstRng(), doc_passive) == "Bavarians were beaten by the Porto."
    # a name that leaves out a word of its noun's compound, a coordinated object, one referent twice: no edit
    partial = parsed(
        "Rodgers reminded Raheem Sterling.",
        [
            ("Rodgers", "PROPN", "nsubj", 1, "B-PERSON"),
            ("reminded", "VERB", "ROOT", 1, "O"),
            ("Raheem", "PROPN", "compound", 3, "O"),
            ("Sterling", "PROPN", "dobj", 1, "B-PERSON"),
            (".", "PUNCT", "punct", 1, "O"),
        ],
    )
    assert role_swap("Rodgers reminded Raheem Sterling.", "", FirstRng(), partial) is None
    coordinated = parsed(
        "Rodgers reminded Sterling and Ibe.",
        [
            ("Rodgers", "PROPN", "nsubj", 1, "B-PERSON"),
            ("reminded", "VERB", "ROOT", 1, "O"),
            ("Sterling", "PROPN", "dobj", 1, "B-PERSON"),
            ("and", "CCONJ", "cc", 2, "O"),
            ("Ibe", "PROPN", "conj", 2, "B-PERSON"),
            (".", "PUNCT", "punct", 1, "O"),
        ],
    )
    assert role_swap("Rodgers reminded Sterling and Ibe.", "", FirstRng(), coordinated) is None
    same = parsed(
        "Barack Obama thanked Obama.",
        [
            ("Barack", "PROPN", "compound", 1, "B-PERSON"),
            ("Obama", "PROPN", "nsubj", 2, "I-PERSON"),
            ("thanked", "VERB", "ROOT", 2, "O"),
            ("Obama", "PROPN", "dobj", 2, "B-PERSON"),
            (".", "PUNCT", "punct", 2, "O"),
        ],
    )
    assert role_swap("Barack Obama thanked Obama.", "", FirstRng(), same) is None
    assert OWN_INDEX["role_swap"] == "rhi"


def test_a_record_keeps_the_shares_and_none_of_the_datas_text():
    payload = {
        "args": {"half": "design"},
        "git": {"commit": "abc1234", "shared_dirty": False},
        "signature": "s",
        "pool": {"pairs": 2},
        "originals": {"n": 2},
        "paraphrase": None,
        "sources": ["A source text."],
        "summary": {"antonym": {"n": 3, "index": "rhi", "chi": 1.0}},
        "cases": [
            {
                "type": "antonym",
                "original": "A summary.",
                "edited": "An edit.",
                "caught": {"rhi": caught},
                "scores_original": {"rhi": original},
            }
            for caught, original in ((False, 0.0), (False, None), (True, 1.0))
        ],
    }
    record = record_of(payload)
    assert list(record) == ["args", "git", "signature", "pool", "summary", "originals", "paraphrase"]
    assert record["summary"]["antonym"]["own_missed"] == {"n": 2, "at_zero": 1, "undefined": 1}
    assert not any(text in str(record) for text in ("A summary.", "An edit.", "A source text."))
