"""WordNet in matching: word-level support (words/matching.py), WordNet verbs and antonyms
in relation matching and text grounding, phrasal verbs, quantity claims left to QHI, and
the ``wordnet`` option's signature, on real spaCy ``en_core_web_sm`` parses and the real
Princeton WordNet 3.0 (Debian's wordnet-base).

Every expected value below was computed by hand and checked against a run. The two
``score_chi`` batches (WordNet on, WordNet off) are scored once per module and shared."""

from __future__ import annotations

import math

import pytest
from halluscope.api import score_chi
from halluscope.resources import get_lexicon, text_index
from halluscope.rhi.extract import extract_relations
from halluscope.rhi.grounding import relation_in_sentence
from halluscope.scoring_options import ScoringOptions
from halluscope.signature import signature
from halluscope.text.syntax import verb_lemma
from halluscope.units import RelationUnit
from halluscope.words.matching import content_words, support_words
from parsed import parse

NO_WORDNET = (
    "WordNet 3.0 is not installed: apt-get install wordnet-base wordnet-sense-index, "
    "or pip install nltk && python -c 'import nltk; nltk.download(\"wordnet\")'"
)

GITHUB = "Microsoft acquired the startup GitHub in 2018. The deal was worth $7.5 billion."
COUNCIL = "The council approved the plan."
CARROW = "Carrow took over Pilbara in 2019."

#: (summary, source) rows of the shared score_chi batches
ROWS = [
    ("Microsoft bought GitHub in 2018.", GITHUB),  # 0: WordNet troponym buy < acquire
    ("Microsoft purchased GitHub in 2018.", GITHUB),  # 1: WordNet troponym purchase < acquire
    ("Google acquired GitHub in 2018.", GITHUB),  # 2: wrong subject
    ("The council quickly rejected the plan.", COUNCIL),  # 3: antonym reject / approve
    ("Carrow took over Pilbara.", CARROW),  # 4: phrasal verb, same predicate
    ("Carrow took Pilbara.", CARROW),  # 5: the bare verb is another predicate
]

# the relation extractor's options in the scoring pipeline's defaults
#: the extraction settings of the default pipeline (formula="support")
PIPELINE_EXTRACTION = {"compound": True, "intransitive": "passive", "claims": True}


def indexed(text):
    """The text index of ``text``'s parse: what word support and grounding read."""
    return text_index(parse(text))


@pytest.fixture(scope="module")
def lex():
    lexicon = get_lexicon()
    if not lexicon.available:
        pytest.skip(NO_WORDNET)
    return lexicon


@pytest.fixture(scope="module")
def scored(lex):
    summaries, sources = zip(*ROWS, strict=True)
    return score_chi(list(summaries), list(sources), None, return_details=True)


@pytest.fixture(scope="module")
def scored_plain():
    summaries, sources = zip(*ROWS, strict=True)
    return score_chi(list(summaries), list(sources), None, return_details=True, wordnet=False)


def _rhi_unit(result, row):
    [unit] = result["details"][row]["rhi"]["units"]
    return unit


# -- 1. content words ----------------------------------------------------------------------


def test_content_words_one_entry_per_lemma_without_numbers_or_stop_words():
    doc = parse("The new CEO quickly bought 3 small companies in Paris and bought more.")
    words = content_words(doc)
    # "The", "in", "and" and "more" (an ADJ, but a stop word) are stop words, "3" is a
    # number (QHI's), the second "bought" repeats the lemma "buy", "." is punctuation
    assert [(w.key, w.pos, w.text, w.span, w.proper) for w in words] == [
        ("new", "adj", "new", (4, 7), False),
        ("ceo", "noun", "CEO", (8, 11), False),
        ("quickly", "adv", "quickly", (12, 19), False),
        ("buy", "verb", "bought", (20, 26), False),
        ("small", "adj", "small", (29, 34), False),
        ("company", "noun", "companies", (35, 44), False),
        ("paris", "noun", "Paris", (48, 53), True),
    ]
    assert all(w.kind == "word" for w in words)
    assert [w.key for w in content_words(doc, proper=False)] == ["new", "ceo", "quickly", "buy", "small", "company"]


# -- 2. support_words ------------------------------------------------------------------------

FIRM = "The firm bought a bakery."

#: (source, summary, per content word: (key, mode, detail, evidence text, evidence span));
#: mode None: unsupported
SUPPORT_CASES = {
    "same lemma": (
        FIRM,
        "The firm buys bakeries.",
        [
            ("firm", "same", "'firm' in the source", "firm", (4, 8)),
            ("buy", "same", "'bought' in the source", "bought", (9, 15)),
            ("bakery", "same", "'bakery' in the source", "bakery", (18, 24)),
        ],
    ),
    "synonym": (
        FIRM,
        "The firm purchased a bakery.",
        [
            ("firm", "same", "'firm' in the source", "firm", (4, 8)),
            ("purchase", "synonym", "purchase ~ buy (WordNet synonym)", "bought", (9, 15)),
            ("bakery", "same", "'bakery' in the source", "bakery", (18, 24)),
        ],
    ),
    "hypernym, and an unsupported word": (
        FIRM,
        "The company acquired a shop.",
        [
            ("company", None, None, None, None),
            ("acquire", "hypernym", "acquire ⊃ buy (WordNet hypernym)", "bought", (9, 15)),
            ("shop", "hypernym", "shop ⊃ bakery (WordNet hypernym)", "bakery", (18, 24)),
        ],
    ),
    "derivation": (
        GITHUB,
        "The acquisition was big.",
        [
            ("acquisition", "derivation", "acquisition ↔ acquire (WordNet derivation)", "acquired", (10, 18)),
            ("big", None, None, None, None),
        ],
    ),
    # "left" (the verb "leave") is supported by the source's adjective "left": the
    # written form counts, without WordNet too
    "written form": (
        "The car turned left.",
        "The bus left.",
        [
            ("bus", None, None, None, None),
            ("leave", "same", "'left' in the source", "left", (15, 19)),
        ],
    ),
}


def test_numbers_as_written_are_no_content_words():
    # numbers are QHI's, scales and currency words written with them too
    words = content_words(parse("Norvik paid 12bn kroner and 750m dollars for 10k shares, or 400 euros each."))
    assert [w.text for w in words] == ["Norvik", "paid", "shares"]
    # a currency word or scale elsewhere is a word
    assert [w.text for w in content_words(parse("The dollars were worth millions."))] == [
        "dollars",
        "worth",
        "millions",
    ]


@pytest.mark.parametrize("case", list(SUPPORT_CASES))
def test_support_words_names_the_relation(lex, case):
    source, summary, expected = SUPPORT_CASES[case]
    words = content_words(parse(summary))
    assert [w.key for w in words] == [row[0] for row in expected]
    matches = support_words(words, indexed(source), lex)
    found = [
        (w.key, None, None, None, None)
        if m is None
        else (w.key, m.mode, m.detail, m.evidence[0].text, m.evidence[0].span)
        for w, m in zip(words, matches, strict=True)
    ]
    assert found == expected
    assert all(m is None or (m.score == 1.0 and not m.contradicts) for m in matches)
    # without a lexicon only same-lemma / written-form support remains
    plain = support_words(words, indexed(source), None)
    assert [None if m is None else m.mode for m in plain] == ["same" if row[1] == "same" else None for row in expected]


def test_antonym_contradicts_a_word(lex):
    source = parse("The city opened a museum in May.")
    words = content_words(parse("The city closed a museum."))
    matches = support_words(words, text_index(source), lex)
    assert [w.key for w in words] == ["city", "close", "museum"]
    closed = matches[1]
    assert (closed.mode, closed.score, closed.contradicts, closed.detail) == (
        "antonym",
        0.0,
        True,
        "close ≠ open (WordNet antonym)",
    )
    assert (closed.evidence[0].text, closed.evidence[0].span) == ("opened", (9, 15))
    assert [m.contradicts for m in matches] == [False, True, False]
    # no lexicon, no antonymy: "closed" is merely unsupported
    assert support_words(words, text_index(source), None)[1] is None
    # verbs that transfer possession: "sold" against "bought" may be the converse (the
    # buyer's seller), so the word alone is unsupported, not contradicted
    sold = content_words(parse("The firm sold a bakery."))
    assert [w.key for w in sold] == ["firm", "sell", "bakery"]
    assert support_words(sold, indexed(FIRM), lex)[1] is None
    # and "lost" against "won" (one match seen from its two sides) ...
    lost = content_words(parse("The team lost the match."))
    assert support_words(lost, indexed("The team won the match."), lex)[1] is None
    # ... but "accepted" (receives) against "rejected" (no direction) is no converse: contradicted
    accepted = content_words(parse("The starlet accepted a move."))
    match = support_words(accepted, indexed("The starlet rejected a move to Chelsea."), lex)[1]
    assert (match.mode, match.contradicts, match.detail) == ("antonym", True, "accept ≠ reject (WordNet antonym)")


def test_proper_nouns_get_no_wordnet_support(lex):
    # a proper noun is the entities' business: only its own lemma or text supports it
    words = content_words(parse("Apple bought Beats."))
    assert [(w.key, w.proper) for w in words] == [("apple", True), ("buy", False), ("beats", True)]
    matches = support_words(words, indexed("The fruit company acquired the band."), lex)
    assert [None if m is None else m.mode for m in matches] == [None, "troponym", None]


# -- 3. relations through score_chi --------------------------------------------------------


def test_wordnet_verb_supports_a_relation_unit(scored):
    assert scored["rhi_scores"][:3] == [1.0, 1.0, 0.0]
    # every unit supported; w = mean(support share 3/3, share as written 3/4: "bought" and
    # "purchased" are not written in the source, Microsoft/GitHub/2018 are)
    assert scored["chi_scores"][:2] == [pytest.approx(0.99 + 0.01 * 0.875)] * 2
    for row, verb, text in ((0, "buy", "Microsoft bought GitHub"), (1, "purchase", "Microsoft purchased GitHub")):
        unit = _rhi_unit(scored, row)
        assert (unit["key"], unit["text"], unit["status"]) == (["microsoft", verb, "github"], text, "supported")
        # the source's triple is (microsoft, acquire, startup): the text grounding finds
        # subject and object in one sentence with a verb WordNet links to the unit's
        assert unit["in_source"] == {
            "mode": "cooccurrence",
            "score": 1.0,
            "detail": f"subject, object and predicate in one sentence; {verb} ⊂ acquire (WordNet troponym)",
            "evidence": [{"text": "Microsoft acquired the startup GitHub in 2018.", "span": [0, 46]}],
        }


def test_wrong_subject_stays_unsupported_with_wordnet(scored):
    unit = _rhi_unit(scored, 2)
    assert (unit["key"], unit["status"], unit["in_source"]) == (["google", "acquire", "github"], "unsupported", None)
    # the fusion is 0 (RHI 0); CHI = 0.01 x w x (0.9 + 0.1 M), w = mean(2/3 supported: Google
    # is not in the source; 3/4 as written: Google, acquired, GitHub, 2018), M the mean of
    # EHI 1/2 (Google, GitHub), RHI 0 and QHI 1 (2018): 1/2
    assert scored["details"][2]["words"]["support_share"] == pytest.approx(2 / 3)
    assert scored["details"][2]["words"]["written_share"] == pytest.approx(3 / 4)
    assert scored["chi_scores"][2] == pytest.approx(0.01 * (2 / 3 + 3 / 4) / 2 * (0.9 + 0.1 / 2))


def test_without_wordnet_the_paraphrased_verbs_are_unsupported(scored_plain):
    assert scored_plain["rhi_scores"][:3] == [0.0, 0.0, 0.0]
    for row in (0, 1, 2):
        unit = _rhi_unit(scored_plain, row)
        assert (unit["status"], unit["in_source"]) == ("unsupported", None)
    # "bought"/"purchased" lose their word support too: w = mean(2/3, 3/4), CHI = 0.01 x w x
    # (0.9 + 0.1 M), M the mean of EHI 1, RHI 0 and QHI 1
    for row in (0, 1):
        words = scored_plain["details"][row]["words"]
        assert [u["status"] for u in words["units"]] == ["supported", "unsupported", "supported"]
        assert scored_plain["chi_scores"][row] == pytest.approx(0.01 * (2 / 3 + 3 / 4) / 2 * (0.9 + 0.1 * 2 / 3))


def test_antonym_verb_makes_a_relation_unit_contradicted(scored):
    unit = _rhi_unit(scored, 3)
    assert unit["key"] == ["council", "reject", "plan"]
    assert unit["status"] == "contradicted"
    assert unit["in_source"] == {
        "mode": "antonym",
        "score": 0.0,
        "detail": "subject 1.00, object 1.00; reject ≠ approve (WordNet antonym)",
        "evidence": [{"text": "council approved the plan", "span": [4, 29]}],
    }
    # contradicted: RHI 0, no unit in I∩G; words council, plan supported, quickly
    # unsupported, reject contradicted (counted twice): support 2/5, written 2/4, w = 0.45;
    # CHI = 0.01 x w x 0.9 (RHI, the only dimension, is 0), halved for the contradiction
    rhi = scored["details"][3]["rhi"]
    assert (rhi["score"], rhi["counts"]["g"], rhi["counts"]["ig"]) == (0.0, 1, 0)
    assert scored["chi_scores"][3] == pytest.approx(0.5 * 0.01 * 0.45 * 0.9, abs=1e-12)


def test_without_wordnet_the_antonym_is_only_unsupported(scored_plain):
    unit = _rhi_unit(scored_plain, 3)
    assert (unit["status"], unit["in_source"]) == ("unsupported", None)
    assert scored_plain["rhi_scores"][3] == 0.0
    assert [u["status"] for u in scored_plain["details"][3]["words"]["units"]] == [
        "supported",
        "unsupported",
        "unsupported",
        "supported",
    ]


def test_text_grounding_finds_the_antonym_in_a_sentence(lex):
    # the source's triple is (city council, approve, plan), so no unit matches
    # (council, reject, plan); its sentence holds council, plan and the antonym verb
    source = parse("After a long debate the city council approved the plan on Monday.")
    assert [r.key for r in extract_relations(source, **PIPELINE_EXTRACTION)] == [("city council", "approve", "plan")]
    sentence = [{"text": "After a long debate the city council approved the plan on Monday.", "span": (0, 65)}]

    def ground(verb, lexicon):
        match = relation_in_sentence(RelationUnit("council", verb, "plan", "", (0, 0)), text_index(source), lexicon)
        if match is None:
            return None
        assert [{"text": e.text, "span": e.span} for e in match.evidence] == sentence
        return match.score, match.contradicts, match.detail

    # the antonym, same polarity: found, but contradicting (the match's mode name is
    # left out on purpose: only its contradicts flag decides the unit's status)
    assert ground("reject", lex) == (
        0.0,
        True,
        "subject, object and predicate in one sentence; reject ≠ approve (WordNet antonym)",
    )
    assert ground("endorse", lex) == (
        1.0,
        False,
        "subject, object and predicate in one sentence; endorse ⊂ approve (WordNet troponym)",
    )
    assert (
        relation_in_sentence(RelationUnit("council", "endorse", "plan", "", (0, 0)), text_index(source), lex).mode
        == "cooccurrence"
    )
    assert ground("approve", lex) == (1.0, False, "subject, object and predicate in one sentence")
    # no lexicon: a different verb is unrelated, neither support nor contradiction
    assert ground("reject", None) is None
    assert ground("endorse", None) is None


# -- 4. phrasal verbs ----------------------------------------------------------------------


def test_phrasal_verb_is_one_predicate():
    doc = parse("Carrow took over Pilbara.")
    took = doc[1]
    assert (took.text, took.lemma_) == ("took", "take")
    assert verb_lemma(took) == "take over"
    # the seeds' extraction (claims=False) keeps the bare lemma
    assert [r.key for r in extract_relations(doc)] == [("carrow", "take", "pilbara")]
    assert [r.key for r in extract_relations(doc, **PIPELINE_EXTRACTION)] == [("carrow", "take over", "pilbara")]
    # no particle, no change
    assert verb_lemma(parse("Carrow took Pilbara.")[1]) == "take"


def test_a_particle_tagged_as_a_preposition_before_of_is_a_particle(lex):
    # spaCy tags "out" in "pulled out of" as a preposition heading "of"; "pulled out" alone
    # has a prt: both are "pull out", which a rarer WordNet sense puts under "withdraw"
    pulled = parse("Lukas Brandt pulled out of the Australian Open.")[2]
    assert (pulled.text, [(c.text, c.dep_) for c in pulled.children if c.text == "out"]) == (
        "pulled",
        [("out", "prep")],
    )
    assert verb_lemma(pulled) == "pull out"
    assert verb_lemma(parse("The sponsor pulled out.")[2]) == "pull out"
    assert lex.link("pull out", "withdraw", "verb") is None
    assert lex.widened().link("pull out", "withdraw", "verb").relation == "troponym"
    # a preposition with its own object is no particle: "walked out the door"
    assert verb_lemma(parse("He walked out the door.")[1]) == "walk"


def test_phrasal_verb_through_score_chi(scored):
    over = _rhi_unit(scored, 4)
    assert (over["key"], over["status"], over["in_source"]["mode"]) == (
        ["carrow", "take over", "pilbara"],
        "supported",
        "exact",
    )
    # "took Pilbara" is another predicate than the source's "took over Pilbara"
    bare = _rhi_unit(scored, 5)
    assert (bare["key"], bare["status"], bare["in_source"]) == (["carrow", "take", "pilbara"], "unsupported", None)
    assert scored["rhi_scores"][4:] == [1.0, 0.0]


# -- 5. quantity claims are QHI's ----------------------------------------------------------


def test_quantity_verbs_make_no_relation():
    doubled = parse("The charity doubled its volunteers to 80.")
    assert [r.key for r in extract_relations(doubled, **PIPELINE_EXTRACTION)] == []
    assert [r.key for r in extract_relations(parse("The charity tripled its staff."), **PIPELINE_EXTRACTION)] == []
    # the seeds' extraction keeps the verb's relation
    assert [r.key for r in extract_relations(doubled)] == [("charity", "double", "volunteer")]
    # the same sentence with an ordinary verb has its relation
    assert [r.key for r in extract_relations(parse("The charity trained its volunteers."), **PIPELINE_EXTRACTION)] == [
        ("charity", "train", "volunteer")
    ]


def test_a_copula_stating_an_amount_makes_no_relation():
    def keys(text, **options):
        return [r.key for r in extract_relations(parse(text), **options)]

    # "was 1.2bn kroner" is an amount: QHI's claim, as in the source's "a profit of 1.2 billion kroner"
    assert keys("Norvik Energy's net profit for 2023 was 1.2bn kroner.", **PIPELINE_EXTRACTION) == []
    assert keys("The fee was 12 million pounds.", **PIPELINE_EXTRACTION) == []
    # the papers' extraction keeps it
    assert keys("Norvik Energy's net profit for 2023 was 1.2bn kroner.") == [("profit", "be", "kroner")]
    # a rank or a person is no amount
    assert keys("Her 2010 marriage was actually her second.", **PIPELINE_EXTRACTION) == [("marriage", "be", "second")]
    assert keys("The winner was a 25-year-old man.", **PIPELINE_EXTRACTION) == [("winner", "be", "man")]
    # a verb's object that is a sum of money the parser did not tag is QHI's too ("750"
    # counts "m", a compound of "dollars"); the papers' extraction keeps it
    assert keys("Baltic Connect agreed to pay 750m dollars for half of LatNet.", **PIPELINE_EXTRACTION) == []
    assert keys("Baltic Connect agreed to pay 750m dollars.") == [("connect", "pay", "dollar")]
    assert keys("Baltic Connect agreed to pay the dollars.", **PIPELINE_EXTRACTION) == [
        ("baltic connect", "pay", "dollar")
    ]
    # through score_chi: RHI has no unit left, QHI supports the amount
    result = score_chi(
        ["Norvik Energy's net profit for 2023 was 1.2bn kroner."],
        ["Norvik Energy reported a net profit of 1.2 billion kroner for 2023."],
    )
    assert math.isnan(result["rhi_scores"][0]) and result["qhi_scores"][0] == 1.0


def test_nouns_inside_numeric_mentions_make_no_nominal_triple():
    doc = parse("The retailer made $2.5 billion in the first half of the year.")
    assert [(e.text, e.label_) for e in doc.ents] == [("$2.5 billion", "MONEY"), ("the first half of the year", "DATE")]
    keys = [r.key for r in extract_relations(doc, **PIPELINE_EXTRACTION)]
    assert ("half", "of", "year") not in keys
    assert keys == []  # "billion" is a number: no (retailer, make, ...) triple either
    # a noun outside a numeric mention keeps its nominal triple
    assert [
        (r.key, r.source)
        for r in extract_relations(parse("The president of the club resigned."), **PIPELINE_EXTRACTION)
    ] == [(("president", "of", "club"), "nominal")]


# -- 6. signature and the option -----------------------------------------------------------


def test_signature_names_wordnet(scored, scored_plain):
    assert "|wn:3.0|" in scored["signature"]
    assert "|wn:none|" in scored_plain["signature"]
    # WordNet's two marks: the lexicon, and EHI's place mode (docs/papers.md#ehi-places-and-demonyms)
    assert "+place|" in scored["signature"] and "+place" not in scored_plain["signature"]
    assert scored["signature"].replace("|wn:3.0|", "|wn:none|").replace("+place|", "|") == scored_plain["signature"]


def test_paper_formula_has_wordnet_off_by_default(lex):
    assert ScoringOptions(formula="paper").wordnet is False
    assert ScoringOptions().wordnet is True
    result = score_chi(["Microsoft bought GitHub."], [GITHUB], None, formula="paper")
    assert "|formula:paper|" in result["signature"] and "|wn:none|" in result["signature"]
    # asked for explicitly, the seed formula may use it
    on = signature("chi", ("ehi", "rhi", "qhi"), ScoringOptions(formula="paper", wordnet=True), True)
    assert "|wn:3.0|" in on
    # no relation dimension, no lexicon in the signature
    assert "wn:" not in signature("qhi", ("qhi",), ScoringOptions(), False)


def test_wordnet_option_must_be_bool_or_path():
    with pytest.raises(TypeError, match="`wordnet`"):
        score_chi(["a"], ["b"], None, wordnet=3)
    with pytest.raises(TypeError, match="`wordnet`"):
        ScoringOptions(wordnet=1.0)


# -- 7. word-level details -----------------------------------------------------------------


def test_word_details_count_supported_words(scored):
    words = scored["details"][3]["words"]
    # council (same), quickly (unsupported), rejected (antonym of approved), plan (same)
    assert [(u["key"], u["pos"], u["text"], u["span"], u["status"]) for u in words["units"]] == [
        ("council", "noun", "council", [4, 11], "supported"),
        ("quickly", "adv", "quickly", [12, 19], "unsupported"),
        ("reject", "verb", "rejected", [20, 28], "contradicted"),
        ("plan", "noun", "plan", [33, 37], "supported"),
    ]
    # a contradicted word is not supported and counts twice: support 2/5, written 2/4
    assert words["score"] == pytest.approx((2 / 5 + 2 / 4) / 2, abs=1e-12)
    rejected = words["units"][2]["in_source"]
    assert rejected == {
        "mode": "antonym",
        "score": 0.0,
        "detail": "reject ≠ approve (WordNet antonym)",
        "evidence": [{"text": "approved", "span": [12, 20]}],
    }
    assert words["units"][1]["in_source"] is None


def test_word_statuses_and_scores_of_every_row(scored):
    statuses = {"supported", "unsupported", "contradicted"}
    for detail in scored["details"]:
        units = detail["words"]["units"]
        assert {u["status"] for u in units} <= statuses
        supported = sum(u["status"] == "supported" for u in units)
        contradicted = sum(u["status"] == "contradicted" for u in units)
        assert detail["words"]["support_share"] == pytest.approx(supported / (len(units) + contradicted))
        assert detail["words"]["score"] == pytest.approx(
            (detail["words"]["support_share"] + detail["words"]["written_share"]) / 2
        )
        assert not math.isnan(detail["chi"])
    # rows 0, 1, 4: every word supported (bought/purchased by WordNet); row 5: "took" ~ "took";
    # row 3: 2 of 4 words supported, "rejected" contradicted and counted twice: 2/5
    assert [d["words"]["support_share"] for d in scored["details"]] == pytest.approx([1.0, 1.0, 2 / 3, 2 / 5, 1.0, 1.0])
    bought = scored["details"][0]["words"]["units"][1]
    assert (bought["key"], bought["in_source"]["mode"], bought["in_source"]["detail"]) == (
        "buy",
        "troponym",
        "buy ⊂ acquire (WordNet troponym)",
    )


# -- 8. polarity, roles and nominalisation in the source text ---------------------------------


def _relation_units(summaries, source):
    result = score_chi(summaries, [source] * len(summaries), None, return_details=True)
    return [
        [(u["key"], u["status"], (u["in_source"] or {}).get("detail")) for u in d["rhi"]["units"]]
        for d in result["details"]
    ]


def test_polarity_contradicts_and_antonyms_under_negation_support():
    rows = _relation_units(
        [
            "The council did not approve the plan.",
            "The council approved the plan.",
            "The council did not reject the plan.",
        ],
        "The council rejected the plan on Monday.",
    )
    assert rows[0] == [
        (
            ["council", "not_approve", "plan"],
            "supported",
            "subject, object and predicate in one sentence; approve ≠ reject (WordNet antonym); opposite polarity",
        )
    ]
    assert rows[1][0][:2] == (["council", "approve", "plan"], "contradicted")
    assert rows[2] == [
        (
            ["council", "not_reject", "plan"],
            "contradicted",
            "subject, object and predicate in one sentence; opposite polarity",
        )
    ]


def test_negative_governor_is_read_the_same_way_in_the_source_text():
    # "declined to approve" is not_approve for the extractor and for text grounding alike:
    # the source sentence no longer grounds the positive triple (its "approve" has no
    # subject of its own, so it cannot place the roles for a contradiction either)
    rows = _relation_units(
        ["The board approved the merger.", "The board did not approve the merger."],
        "The board declined to approve the merger.",
    )
    # the sentence contradiction (halluscope.match.polarity) reads the same polarity and
    # finds the claim by its object: the positive triple is contradicted
    assert rows[0] == [
        (
            ["board", "approve", "merger"],
            "contradicted",
            "'approve' affirmed here, negated in the aligned source sentence ('approve')",
        )
    ]
    assert rows[1] == [(["board", "not_approve", "merger"], "supported", "exact")]


def test_a_converse_of_a_transfer_supports_and_a_role_swap_contradicts():
    # buy/sell are WordNet antonyms in verb.possession: Globex, only in the "to" phrase
    # of "sold", bought the factory; Acme, the seller, did not buy it
    rows = _relation_units(
        ["Globex bought the factory from Acme.", "Acme bought the factory.", "Globex sold the factory."],
        "Acme sold the factory to Globex in May.",
    )
    assert rows[0] == [
        (
            ["globex", "buy", "factory"],
            "supported",
            "the converse: subject in the predicate's other arguments, object in its object; "
            "buy ≠ sell (WordNet antonym), one transfer seen from the other party",
        )
    ]
    assert rows[1][0][:2] == (["acme", "buy", "factory"], "contradicted")
    # the same verb with the parties swapped is neither
    assert rows[2] == [(["globex", "sell", "factory"], "unsupported", None)]


def test_an_antonym_outside_transfers_is_no_converse():
    # open/close are antonyms but no transfer (verb.contact): the visitors in "to
    # visitors" did not open the museum
    rows = _relation_units(["The visitors opened the museum."], "The city closed the museum to visitors.")
    # no converse; the aligned sentence's "closed" is said of the same museum: a
    # sentence contradiction (halluscope.match.polarity), so the triple is contradicted
    assert rows == [
        [
            (
                ["visitor", "open", "museum"],
                "contradicted",
                "'open' against the opposite 'closed' of the aligned source sentence",
            )
        ]
    ]


def test_transfers_possession(lex):
    assert [lex.transfers_possession(v) for v in ("buy", "sell", "lend", "borrow", "lose", "open", "close")] == [
        True,
        True,
        True,
        True,
        True,
        False,
        False,
    ]


def test_a_rarer_verb_sense_counts_when_the_arguments_agree(lex):
    # fire/dismiss share only their fourth senses (displace.v.03): not linked at word
    # level or in the first three senses, linked for a triple whose subject and object match
    assert lex.link("fire", "dismiss", "verb") is None
    assert lex.widened().link("fire", "dismiss", "verb").text == "fire ~ dismiss (WordNet synonym)"
    assert lex.widened() is lex.widened() and lex.widened().senses == 64
    source = "Atlas Motors dismissed its finance chief on Friday."
    rows = _relation_units(["Atlas Motors fired its finance chief.", "Atlas Motors fired its lawyer."], source)
    assert rows[0] == [
        (
            ["atlas motors", "fire", "finance chief"],
            "supported",
            "subject 1.00, verb 1.00, object 1.00; "
            "fire ~ dismiss (WordNet synonym, a rarer sense; the arguments agree)",
        )
    ]
    assert rows[1] == [(["atlas motors", "fire", "lawyer"], "unsupported", None)]
    words = content_words(parse("Atlas Motors fired its finance chief."))
    assert support_words(words, indexed(source), lex)[2] is None and words[2].key == "fire"


def test_role_swap_through_a_preposition_is_contradicted():
    # the captain is only in the source verb's "to" phrase: the parties of the transfer
    # are swapped (docs/lexical.md#transfers), a contradiction, not a grounding
    source = "The coach gave the trophy to the captain."
    rows = _relation_units(["The captain gave the trophy to the coach.", "The coach gave the trophy."], source)
    assert rows == [
        [(["captain", "give", "trophy"], "contradicted", "giver and receiver swapped ('give' gives, 'give' gives)")],
        [(["coach", "give", "trophy"], "supported", "exact")],
    ]


def test_transfer_direction(lex):
    verbs = (
        "give",
        "donate",
        "sell",
        "lend",
        "ship",
        "export",
        "receive",
        "buy",
        "borrow",
        "win",
        "steal",
        "sign",
        "move",
    )
    assert [lex.transfer_direction(v) for v in verbs] == [
        "gives",
        "gives",
        "gives",
        "gives",
        "gives",
        "gives",
        "receives",
        "receives",
        "receives",
        "receives",
        None,
        None,
        None,
    ]


#: what the default pipeline extracts: every object-less verb is paired, to be checked
#: for contradictions only (intransitive="passive" under formula="support")
WITH_ACTIVE_PAIRS = {**PIPELINE_EXTRACTION, "intransitive": "all"}


def test_a_verb_keeps_its_to_and_from_arguments_as_roles():
    [lend] = extract_relations(parse("Germany will lend 400 million euros to Moldova."), **WITH_ACTIVE_PAIRS)
    # a sum of money is QHI's: no object slot under claims, so the pair keeps its roles
    assert (lend.key, lend.roles) == (("germany", "lend", ""), (("to", "moldova"),))
    [lend] = extract_relations(parse("Germany will lend 400 million euros to Moldova."), compound=True)
    assert lend.key == ("germany", "lend", "euro")
    # a dative noun is a "to" argument; objects that are all quantities leave a pair
    # with its roles (counted where the source settles it, under "passive")
    [give] = extract_relations(parse("The company gave the hospital $10 million."), **WITH_ACTIVE_PAIRS)
    assert (give.key, give.source, give.roles) == (("company", "give", ""), "intransitive", (("to", "hospital"),))
    [borrow] = extract_relations(parse("Moldova will borrow €400 million from Germany."), **WITH_ACTIVE_PAIRS)
    assert (borrow.key, borrow.roles) == (("moldova", "borrow", ""), (("from", "germany"),))
    # no role, no new unit; nor for an object that is no quantity but has no slot (a pronoun)
    assert extract_relations(parse("Moldova will borrow €400 million."), **WITH_ACTIVE_PAIRS) == []
    assert extract_relations(parse("The company gave it to the hospital."), **WITH_ACTIVE_PAIRS) == []


LOAN = "Germany will lend 400 million euros to Moldova to upgrade its power grid."
ARM = "The Canadian Space Agency shipped a robotic arm to JAXA last month."
TRADE = "Acme sold a truck to Globex. Globex sold a van to Acme."


def test_a_transfer_is_checked_by_its_parties(lex):
    rows = _relation_units(
        ["Moldova will borrow €400 million from Germany.", "Moldova will lend €400 million to Germany."], LOAN
    )
    # the converse states the same transfer: the active pair, the summary's only relation,
    # is supported; the swapped parties contradict it
    assert rows == [
        [
            (
                ["moldova", "borrow", ""],
                "supported",
                "the same transfer: the same giver and receiver ('borrow' receives, 'lend' gives)",
            )
        ],
        [(["moldova", "lend", ""], "contradicted", "giver and receiver swapped ('lend' gives, 'lend' gives)")],
    ]
    rows = _relation_units(
        [
            "JAXA received a robotic arm from the Canadian Space Agency.",
            "The Canadian Space Agency received a robotic arm from JAXA.",
        ],
        ARM,
    )
    assert rows == [
        [
            (
                ["jaxa", "receive", "arm"],
                "supported",
                "the same transfer: the same giver and receiver ('receive' receives, 'ship' gives)",
            )
        ],
        [
            (
                ["canadian space agency", "receive", "arm"],
                "contradicted",
                "giver and receiver swapped ('receive' receives, 'ship' gives)",
            )
        ],
    ]


def test_a_transfer_needs_its_object_and_a_trade_is_no_swap(lex):
    rows = _relation_units(["Globex sold a car to Acme.", "Acme sold a van to Globex."], TRADE)
    # another object is another transfer: neither supported nor swapped
    assert rows[0] == [(["globex", "sell", "car"], "unsupported", None)]
    # the van went from Globex to Acme: Acme selling it to Globex swaps the parties
    assert rows[1] == [
        (["acme", "sell", "van"], "contradicted", "giver and receiver swapped ('sell' gives, 'sell' gives)")
    ]
    # the truck went from Acme to Globex, which the swapped van sale does not deny
    assert _relation_units(["Acme sold a truck to Globex."], TRADE) == [
        [(["acme", "sell", "truck"], "supported", "exact")]
    ]


def test_a_swapped_transfer_halves_chi(lex):
    result = score_chi(["Moldova will lend €400 million to Germany."], [LOAN], None, return_details=True)
    # rhi: 0 supported of 1 unit (counted twice, contradicted) -> 0, so H = 0;
    # words: moldova, lend, germany all in the source -> support share 1; written: 5 of
    # the 6 content tokens (Moldova lend € 400 million Germany; "€" is not in the source)
    # -> w = (1 + 5/6) / 2 = 11/12; CHI = 0.01 w (0.9 + 0.1 M), M the mean of EHI 1
    # (Moldova, Germany), RHI 0 and QHI 1 (€400 million), halved for the contradicted unit
    assert result["details"][0]["words"]["score"] == pytest.approx(11 / 12, abs=1e-12)
    assert result["rhi_scores"][0] == 0.0
    assert result["chi_scores"][0] == pytest.approx(0.5 * 0.01 * 11 / 12 * (0.9 + 0.1 * 2 / 3), abs=1e-12)


def test_nominalised_predicate_grounds_a_triple_in_its_roles():
    source = (
        "Brenner Group completed its acquisition of the Austrian cable maker Kabelwerk Steyr on Friday. "
        "The purchase makes Brenner the largest cable producer."
    )
    rows = _relation_units(
        ["Brenner Group acquired the cable maker Kabelwerk Steyr.", "The cable maker acquired Brenner Group."], source
    )
    assert rows[0] == [
        (
            ["brenner group", "acquire", "maker kabelwerk steyr"],
            "supported",
            "subject, object and a nominalised predicate in one sentence; acquire ↔ acquisition (WordNet derivation)",
        )
    ]
    assert rows[1] == [(["cable maker", "acquire", "brenner group"], "unsupported", None)]


def test_wordnet_links_within_one_part_of_speech(lex):
    # the source's "increase" and "wound" are nouns: WordNet's troponyms are verb to
    # verb, so neither supports a summary verb (before: "climb ⊂ increase", "shoot ⊂ wound")
    source = parse("Unemployment fell. Tourism accounted for much of the increase. The guard had a wound.")
    words = content_words(parse("Unemployment climbed and the guard was shot."))
    assert [(w.key, w.pos) for w in words] == [
        ("unemployment", "noun"),
        ("climb", "verb"),
        ("guard", "noun"),
        ("shoot", "verb"),
    ]
    matches = support_words(words, text_index(source), lex)
    assert [None if m is None else m.mode for m in matches] == ["same", None, "same", None]
    # a verb of the source still supports it, and a derivation crosses parts of speech
    verbs = parse("Unemployment rose. Microsoft acquired GitHub.")
    words = content_words(parse("Unemployment climbed after the acquisition."))
    found = [
        (w.key, m.mode, m.detail, m.evidence[0].text)
        for w, m in zip(words, support_words(words, text_index(verbs), lex), strict=True)
    ]
    assert found == [
        ("unemployment", "same", "'Unemployment' in the source", "Unemployment"),
        ("climb", "troponym", "climb ⊂ rise (WordNet troponym)", "rose"),
        ("acquisition", "derivation", "acquisition ↔ acquire (WordNet derivation)", "acquired"),
    ]
    # an antonym contradicts only in the word's own part of speech: the noun "fall"
    # does not contradict the verb "rise", the verb "fell" does
    assert support_words(content_words(parse("Prices rose.")), indexed("A fall in prices."), lex)[1] is None
    rose = support_words(content_words(parse("Prices rose.")), indexed("Prices fell."), lex)[1]
    assert (rose.mode, rose.contradicts, rose.evidence[0].text) == ("antonym", True, "fell")


# -- 9. contradictions: active subject-verb pairs, their weight, negation's direction ------------

TEAM = "The team won on Sunday."


def test_active_pairs_count_where_the_source_settles_them(lex):
    result = score_chi(
        ["The team lost.", "The team won.", "The team collapsed."], [TEAM] * 3, None, return_details=True
    )
    rows = [[(u["key"], u["status"]) for u in d["rhi"]["units"]] for d in result["details"]]
    # "lost" against "won": the pair is kept, contradicted (lose ≠ win, WordNet antonym)
    assert rows[0] == [(["team", "lose", ""], "contradicted")]
    # a supported pair counts in a summary that states no other relation; an unfound one
    # counts nowhere (docs/papers.md#active-pairs)
    assert rows[1] == [(["team", "win", ""], "supported")] and rows[2] == []
    # row 0: rhi = 0 supported / (1 unit + 1 more for the contradiction) = 0, so H = 0;
    # words: team supported, lose unsupported (win/lose transfer possession: a word alone
    # is no contradiction) -> support 1/2, written {team, lost}: 1/2 -> w = 1/2;
    # CHI = 0.01 w x 0.9 (RHI, the only dimension, is 0), halved for the contradicted unit
    assert result["chi_scores"][0] == pytest.approx(0.5 * 0.01 * 0.5 * 0.9, abs=1e-12)
    # row 1: RHI 1 -> CHI = 0.99 x 1 + 0.01 x w 1 x (0.9 + 0.1 x 1) = 1;
    # row 2: no unit in any dimension -> CHI = w = (1/2 + 1/2) / 2
    assert result["rhi_scores"][:2] == [0.0, 1.0] and math.isnan(result["rhi_scores"][2])
    assert result["chi_scores"][1:] == pytest.approx([1.0, 0.5], abs=1e-12)
    # every object-less verb as a unit (intransitive="all"): "collapsed" is unsupported
    counted = score_chi(["The team collapsed."], [TEAM], None, intransitive="all")
    assert counted["chi_scores"][0] == pytest.approx(0.01 * 0.5 * 0.9, abs=1e-12)


def test_a_supported_active_pair_does_not_count_beside_a_triple(lex):
    source = "The team won on Sunday. The team signed Jones on Monday."
    rows = _relation_units(
        ["The team won and signed Smith.", "The team won and signed Jones.", "The team lost and signed Jones."], source
    )
    # beside a triple the supported pair "won" is left out: the unsupported triple alone
    # decides (rhi 0), as without the pair
    assert [[unit[:2] for unit in row] for row in rows] == [
        [(["team", "sign", "smith"], "unsupported")],
        [(["team", "sign", "jones"], "supported")],
        # a contradicted pair counts beside a triple too
        [(["team", "lose", ""], "contradicted"), (["team", "sign", "jones"], "supported")],
    ]


def test_paper_formula_makes_no_active_pairs(lex):
    result = score_chi(["The team lost."], [TEAM], None, formula="paper", return_details=True)
    assert result["details"][0]["rhi"]["units"] == []


def test_a_contradicted_unit_counts_as_two_unsupported(lex):
    result = score_chi(
        ["Acme lost the cup and signed Jones."],
        ["Acme won the cup in May. Acme signed Jones in June."],
        None,
        return_details=True,
    )
    units = [(u["key"], u["status"]) for u in result["details"][0]["rhi"]["units"]]
    assert units == [(["acme", "lose", "cup"], "contradicted"), (["acme", "sign", "jones"], "supported")]
    # 1 supported of 2 units, the contradicted one counted twice: 1/3
    assert result["rhi_scores"][0] == pytest.approx(1 / 3, abs=1e-12)


@pytest.mark.parametrize(
    "unit, source, expected",
    [
        # "would not discuss" does not deny "spoke" (speak ⊃ discuss: more general)
        (RelationUnit("rodgers", "speak", "", "", (0, 0), "intransitive"), "Rodgers would not discuss the case.", None),
        # "discussed" denies "did not speak" (discussing is speaking)
        (
            RelationUnit("rodgers", "not_speak", "", "", (0, 0), "intransitive"),
            "Rodgers discussed the case.",
            "the predicate with this subject; speak ⊃ discuss (WordNet hypernym); opposite polarity",
        ),
        # "did not acquire" denies "bought" (buy ⊂ acquire), "bought" denies "did not acquire",
        # but "did not buy" does not deny "acquired" (it may have been acquired otherwise)
        (
            RelationUnit("microsoft", "buy", "github", "", (0, 0)),
            "Microsoft did not acquire GitHub.",
            "subject, object and predicate in one sentence; buy ⊂ acquire (WordNet troponym); opposite polarity",
        ),
        (
            RelationUnit("microsoft", "not_acquire", "github", "", (0, 0)),
            "Microsoft bought GitHub.",
            "subject, object and predicate in one sentence; acquire ⊃ buy (WordNet hypernym); opposite polarity",
        ),
        (RelationUnit("microsoft", "acquire", "github", "", (0, 0)), "Microsoft did not buy GitHub.", None),
        # the same verb under the other polarity
        (
            RelationUnit("rodgers", "discuss", "", "", (0, 0), "intransitive"),
            "Rodgers did not discuss it.",
            "the predicate with this subject; opposite polarity",
        ),
    ],
)
def test_negation_contradicts_only_when_the_positive_verb_implies_the_other(lex, unit, source, expected):
    match = relation_in_sentence(unit, indexed(source), lex)
    if expected is None:
        assert match is None
    else:
        assert (match.contradicts, match.detail) == (True, expected)


def test_an_acronym_is_supported_by_its_expansion_in_the_source(lex):
    source = parse("The Federal Bureau of Investigation arrested a man in Austin.")
    words = content_words(parse("The FBI and the CIA arrested him."))
    matches = dict(zip([w.key for w in words], support_words(words, text_index(source), lex), strict=True))
    assert (matches["fbi"].mode, matches["fbi"].detail) == (
        "acronym",
        "FBI = The Federal Bureau of Investigation (acronym)",
    )
    assert matches["fbi"].evidence[0].span == (0, 35)
    assert matches["cia"] is None
    # as written in a lower-cased summary
    [fbi] = [w for w in content_words(parse("the fbi arrested him.")) if w.key == "fbi"]
    assert support_words([fbi], text_index(source), lex)[0].mode == "acronym"


def test_a_head_noun_synonym_matches_a_slot(lex):
    # "shop" and "store" share WordNet's first synset (cosine 0.66, below 0.85); the
    # other words of the slot must be the same, and a more general head is no synonym
    source = "Its online sales grew by 31%, while sales in its 750 physical stores were flat."
    rows = _relation_units(
        ["Sales in its shops were flat.", "Sales in its outlets were flat.", "Sales in its warehouses were flat."],
        source,
    )
    assert rows[0] == [
        (["sale", "in", "shop"], "supported", "subject 1.00, verb 1.00, object 1.00; shop ~ store (WordNet synonym)")
    ]
    assert rows[1][0][:2] == (["sale", "in", "outlet"], "unsupported")
    assert rows[2][0][:2] == (["sale", "in", "warehouse"], "unsupported")


def test_slot_link_needs_the_same_modifiers_and_a_synonym_head(lex):
    from halluscope.rhi.match import RelationMatcher

    matcher = RelationMatcher(lexicon=lex)
    assert matcher.slot_link("physical shop", "physical store").text == "shop ~ store (WordNet synonym)"
    assert matcher.slot_link("online shop", "physical store") is None
    assert matcher.slot_link("shop", "physical store") is None
    assert matcher.slot_link("store", "store") is None  # equal strings score 1.0 without a link
    assert matcher.slot_link("vehicle", "truck") is None  # a hypernym, not a synonym
    assert RelationMatcher(lexicon=None).slot_link("shop", "store") is None


def test_an_acronym_matches_the_slot_of_the_name_it_abbreviates(lex):
    from halluscope.rhi.match import RelationMatcher
    from halluscope.rhi.slot_links import acronym_link

    source = "The World Health Organization criticised the ministry on Friday."
    rows = _relation_units(["The WHO criticised the ministry.", "The WTO criticised the ministry."], source)
    assert rows[0] == [
        (
            ["who", "criticise", "ministry"],
            "supported",
            "subject 1.00, verb 1.00, object 1.00; who = world health organization (acronym)",
        )
    ]
    assert rows[1][0][:2] == (["wto", "criticise", "ministry"], "unsupported")
    # either side may be the acronym; two letters are enough, a pronoun never is one
    assert acronym_link(["united", "nations"], ["un"]).text == "united nations = un (acronym)"
    assert acronym_link(["us"], ["united", "states"]) is None
    assert acronym_link(["who"], ["world", "health"]) is None
    assert acronym_link(["who"], ["who"]) is None
    # without a lexicon too
    assert RelationMatcher(lexicon=None).slot_link("un", "united nations").relation == "acronym"


def test_a_nominal_triple_is_grounded_by_the_verb_its_noun_derives_from(lex):
    source = (
        "The Mexican Senate approved a judicial reform on Thursday by 86 votes to 41. "
        "Former president Eduardo Salinas died on Sunday."
    )
    rows = _relation_units(
        [
            "The approval of a judicial reform came on Thursday.",
            "The rejection of a judicial reform came on Thursday.",
            "The approval of a tax reform came on Thursday.",
            "The death of Eduardo Salinas was announced.",
        ],
        source,
    )
    assert rows[0] == [
        (
            ["approval", "of", "reform"],
            "supported",
            "the noun stated as its verb, with the same argument; approval ↔ approve (WordNet derivation)",
        )
    ]
    assert rows[1] == [(["rejection", "of", "reform"], "unsupported", None)]
    # "tax" is not in the source sentence
    assert rows[2] == [(["approval", "of", "tax reform"], "unsupported", None)]
    # "of" takes the verb's subject too: "Salinas died"
    assert rows[3][0] == (
        ["death", "of", "eduardo salinas"],
        "supported",
        "the noun stated as its verb, with the same argument; death ↔ die (WordNet derivation)",
    )


def test_a_negated_verb_does_not_ground_its_nominalisation(lex):
    match = relation_in_sentence(
        RelationUnit("approval", "of", "reform", "", (0, 0), "nominal"),
        indexed("The Senate did not approve the reform."),
        lex,
    )
    assert match is None
    match = relation_in_sentence(
        RelationUnit("approval", "of", "reform", "", (0, 0), "nominal"),
        indexed("The Senate approved the reform."),
        None,
    )
    assert match is None  # no lexicon, no derivation
