"""Source-informed truecasing (halluscope.text.casing) and parses shown as the caller's text."""

from halluscope.api import score_chi
from halluscope.parsing import with_text
from halluscope.resources import get_parse_cache
from halluscope.text.casing import casing_table, truecase

SOURCE = "Leon Yeaman, 55, was killed by a single punch from Phillip Pama in Brisbane on Friday. Pama was granted bail."


def test_words_take_the_sources_form_and_sentences_start_with_a_capital():
    text = "leon yeaman was killed in brisbane. he was 55."
    assert truecase(text, SOURCE) == "Leon Yeaman was killed in Brisbane. He was 55."


def test_texts_with_a_capital_and_lower_cased_sources_are_left_alone():
    assert truecase("leon yeaman met Pama.", SOURCE) == "leon yeaman met Pama."
    assert truecase("leon yeaman died.", SOURCE.lower()) == "leon yeaman died."


def test_sentence_initial_capitals_do_not_vote_but_all_capitals_do():
    source = "Police came. The police said NASA helped. NASA is an agency. US and us."
    table = casing_table(source)
    assert "police" not in table and "the" not in table  # "Police", "The" open sentences
    assert table["nasa"] == "NASA"
    assert "us" not in table  # "US" once, "us" once: not more frequent
    assert truecase("the police said nasa helped.", source) == "The police said NASA helped."


def test_offsets_survive_characters_whose_lower_case_is_longer():
    source = "İstanbul hosted Ankara officials in İzmir."
    text = "istanbul hosted ankara officials."
    cased = truecase(text, source)
    assert cased == "Istanbul hosted Ankara officials."
    assert len(cased) == len(text)


def test_with_text_keeps_annotations_under_the_callers_text():
    cache = get_parse_cache()
    [cased] = cache.get_many(["Leon Yeaman was killed in Brisbane."])
    view = with_text(cased.doc, "leon yeaman was killed in brisbane.")
    assert view.text == "leon yeaman was killed in brisbane."
    assert [(e.text, e.label_) for e in view.ents] == [(e.text.lower(), e.label_) for e in cased.doc.ents]
    assert [t.dep_ for t in view] == [t.dep_ for t in cased.doc]
    assert [t.head.i for t in view] == [t.head.i for t in cased.doc]
    assert [s.text for s in view.sents] == [s.text.lower() for s in cased.doc.sents]


def test_truecasing_finds_lower_cased_names_and_keeps_the_callers_text():
    summary = "leon yeaman was killed by phillip pama in brisbane . pama was granted bail ."
    cased = score_chi([summary], [SOURCE], None, return_details=True)
    units = cased["details"][0]["ehi"]["units"]
    assert [(u["text"], u["span"]) for u in units] == [
        ("leon yeaman", [0, 11]),
        ("phillip pama", [26, 38]),
        ("brisbane", [42, 50]),
    ]
    assert all(summary[u["span"][0] : u["span"][1]] == u["text"] for u in units)
    as_is = score_chi([summary], [SOURCE], None, truecase=False, return_details=True)
    assert [u["text"] for u in as_is["details"][0]["ehi"]["units"]] == ["leon yeaman", "brisbane"]
    assert "|case:source|" in cased["signature"] and "|case:as-is|" in as_is["signature"]


def test_with_text_carries_only_the_annotations_a_parse_has():
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    doc = nlp("Obama met Merkel. They talked.")
    view = with_text(doc, "obama met merkel. they talked.")
    assert [s.text for s in view.sents] == ["obama met merkel.", "they talked."]
    assert not view.has_annotation("DEP") and not view.has_annotation("ENT_IOB")
