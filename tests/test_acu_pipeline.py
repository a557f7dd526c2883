"""Pipeline logic of dlsd_acu with an injected deterministic scorer and decomposer."""

import math
import re

import numpy as np
import pytest
from halluscope.acu.acu_options import AcuOptions
from halluscope.acu.scoring import aggregate, alignment_scores, score_batch
from halluscope.nli import NLIEngine


def words(text):
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def overlap_scorer(premises, hypotheses):
    """P(ent) = share of the hypothesis' words found in the premise; P(con) = 0."""
    rows = []
    for premise, hypothesis in zip(premises, hypotheses, strict=True):
        h = words(hypothesis)
        share = len(h & words(premise)) / len(h) if h else 0.0
        rows.append([share, 1.0 - share, 0.0])
    return np.array(rows)


class AndSplitter:
    """Splits on ' and ' (a stand-in for a model); counts texts actually decomposed."""

    name = "and-splitter"

    def __init__(self):
        self.calls = 0
        self.seen = []
        self._cache = {}

    def decompose(self, texts):
        out = []
        for text in texts:
            if text not in self._cache:
                self.calls += 1
                self.seen.append(text)
                parts = [p.strip(" .") for p in text.split(" and ")]
                self._cache[text] = list(dict.fromkeys(p + "." for p in parts if p))
            out.append(self._cache[text])
        return out


def identity(texts):
    return list(texts)


def run(predictions, sources, **options):
    engine = NLIEngine(scorer=overlap_scorer)
    decomposer = AndSplitter()
    result = score_batch(
        predictions,
        sources,
        engine=engine,
        decomposer=decomposer,
        options=AcuOptions(coref="none", **options),
        coref=identity,
        return_details=True,
    )
    return result, engine, decomposer


def test_alignments_and_aggregations():
    probs = np.array([[0.7, 0.2, 0.1], [0.2, 0.3, 0.5]])
    assert alignment_scores(probs, "ent").tolist() == pytest.approx([0.7, 0.2])
    assert alignment_scores(probs, "ent-contr").tolist() == pytest.approx([0.6, -0.3])
    assert alignment_scores(probs, "ent-neutral").tolist() == pytest.approx([0.5, -0.1])
    assert aggregate([0.2, 0.8, 0.5], "min") == 0.2
    assert aggregate([0.2, 0.8, 0.5], "mean") == pytest.approx(0.5)
    assert aggregate([0.2, 0.8, 0.5], "mix", 0.25) == pytest.approx(0.25 * 0.2 + 0.75 * 0.5)
    assert math.isnan(aggregate([], "min"))


def test_min_vs_mean_over_units():
    source = "Alice flew to Paris on Monday. Bob stayed home."
    summary = "Alice flew to Paris and Bob flew to Rome."
    fizz, _, _ = run([summary], [source], host="fizz", expansion=False, sd_acu=False, filter_acus=False)
    fenice, _, _ = run([summary], [source], host="fenice", alignment="ent", sd_acu=False, filter_acus=False)
    # units: "Alice flew to Paris." -> 1.0 (sentence 0); "Bob flew to Rome." -> 0.5
    # ("flew", "to" of its 4 words in sentence 0; only "bob" in sentence 1)
    units = [u["score"] for u in fizz["details"][0]["units"]]
    assert units == pytest.approx([1.0, 0.5])
    assert fizz["scores"] == pytest.approx([0.5])
    assert fenice["scores"] == pytest.approx([0.75])


def test_granularity_expansion_windows():
    source = "Alice went to Paris. There she met Bob. It rained."
    summary = "Alice met Bob."
    without, _, _ = run([summary], [source], expansion=False, sd_acu=False)
    # the best sentence entails the unit with 2/3: expand below a threshold of 0.9
    with_exp, _, _ = run([summary], [source], expansion=True, expansion_threshold=0.9, sd_acu=False)
    not_triggered, _, _ = run([summary], [source], expansion=True, expansion_threshold=0.5, sd_acu=False)
    assert not_triggered["scores"] == pytest.approx([2 / 3])
    assert without["scores"] == pytest.approx([2 / 3])  # "met", "bob" in sentence 1
    assert with_exp["scores"] == pytest.approx([1.0])  # window of sentences 0-1
    evidence = with_exp["details"][0]["units"][0]["evidence"]
    assert evidence["kind"] == "window" and evidence["sentence_indices"] == [0, 1]
    assert source[slice(*evidence["char_span"])] == "Alice went to Paris. There she met Bob."


def test_sd_acu_decomposes_only_top_k_sentences_and_reuses_sentence_scores():
    source = (
        "The rebels attacked the town and the army defended the bridge. "
        "Farmers sold wheat. Prices rose sharply and traders left."
    )
    summary = "The rebels attacked the town."
    result, engine, decomposer = run([summary], [source], sd_acu=True, top_k=1, expansion=False)
    # summary sentence decomposed once, then only the best document sentence (sentence 0)
    assert decomposer.seen == [
        "The rebels attacked the town.",
        "The rebels attacked the town and the army defended the bridge.",
    ]
    unit = result["details"][0]["units"][0]
    assert unit["score"] == 1.0
    assert unit["evidence"]["kind"] == "sentence" and unit["evidence"]["sentence_indices"] == [0]
    # pairs: 1 filter + 3 sentences + 2 document ACUs; the document ACU "The rebels
    # attacked the town." against the unit is the filter pair again: answered by the cache
    assert result["nli_pairs_requested"] == 6
    assert result["nli_pairs_scored"] == engine.scored == 5
    assert result["nli_pairs_cached"] == 1
    assert result["decomposer_calls"] == 2
    assert (result["decomposer_calls_summary"], result["decomposer_calls_document"]) == (1, 1)


def test_top_k_none_decomposes_every_document_sentence():
    source = (
        "The rebels attacked the town and the army defended the bridge. "
        "Farmers sold wheat. Prices rose sharply and traders left."
    )
    result, _, decomposer = run(["The rebels attacked the town."], [source], top_k=None, expansion=False)
    assert result["decomposer_calls"] == 1 + 3
    assert sorted(decomposer.seen[1:]) == sorted(
        [
            "The rebels attacked the town and the army defended the bridge.",
            "Farmers sold wheat.",
            "Prices rose sharply and traders left.",
        ]
    )


def test_document_acu_premise_wins_when_finer_grained():
    source = "Officials said the rebels attacked civilians and police arrested twelve men on Friday."
    summary = "Police arrested twelve men."
    sentence_only, _, _ = run([summary], [source], sd_acu=False, expansion=False, alignment="ent-neutral")
    with_sd, _, _ = run([summary], [source], sd_acu=True, expansion=False, alignment="ent-neutral")
    # with overlap scoring both premises contain every word: equal scores, sentence first
    assert sentence_only["scores"] == with_sd["scores"] == pytest.approx([1.0])


def test_filter_drops_acus_not_entailed_and_falls_back_to_the_sentence():
    class Hallucinating(AndSplitter):
        def decompose(self, texts):
            return [[t, "Zebras are purple."] for t in texts]

    engine = NLIEngine(scorer=overlap_scorer)
    result = score_batch(
        ["Alice flew to Paris."],
        ["Alice flew to Paris."],
        engine=engine,
        decomposer=Hallucinating(),
        options=AcuOptions(coref="none", sd_acu=False),
        coref=identity,
        return_details=True,
    )
    details = result["details"][0]
    assert [u["text"] for u in details["units"]] == ["Alice flew to Paris."]
    assert details["dropped_acus"] == [
        {"text": "Zebras are purple.", "sentence_index": 0, "reason": "not entailed by its summary sentence"}
    ]

    class Nonsense(AndSplitter):
        def decompose(self, texts):
            return [["Zebras are purple."] for _ in texts]

    result = score_batch(
        ["Alice flew to Paris."],
        ["Alice flew to Paris."],
        engine=engine,
        decomposer=Nonsense(),
        options=AcuOptions(coref="none", sd_acu=False),
        coref=identity,
        return_details=True,
    )
    assert [(u["text"], u["type"]) for u in result["details"][0]["units"]] == [("Alice flew to Paris.", "sentence")]


def test_dl_units_hook_adds_tagged_units():
    def link_units(summaries, host_units, engine):
        assert summaries == ["Alice flew to Paris."] and host_units == [["Alice flew to Paris."]]
        assert isinstance(engine, NLIEngine)
        return [["Alice flew to Paris before Bob."]], [[{"text": "Alice flew to Paris before Bob.", "kept": True}]]

    engine = NLIEngine(scorer=overlap_scorer)
    result = score_batch(
        ["Alice flew to Paris."],
        ["Alice flew to Paris. Bob came later."],
        engine=engine,
        decomposer=AndSplitter(),
        options=AcuOptions(coref="none", sd_acu=False, expansion=False),
        coref=identity,
        dl_units=link_units,
        return_details=True,
    )
    units = result["details"][0]["units"]
    assert [(u["text"], u["type"]) for u in units] == [
        ("Alice flew to Paris.", "acu"),
        ("Alice flew to Paris before Bob.", "dl_acu"),
    ]
    assert units[1]["score"] == pytest.approx(4 / 6)  # "bob", "before" are not in sentence 0
    assert result["scores"] == pytest.approx([4 / 6])
    assert result["details"][0]["dl_acu_candidates"] == [{"text": "Alice flew to Paris before Bob.", "kept": True}]


def test_empty_summary_has_no_unit_and_scores_nan():
    result, _, _ = run(["   "], ["Alice flew to Paris."])
    assert math.isnan(result["scores"][0])
    assert result["details"][0]["units"] == []


def test_options_are_validated():
    with pytest.raises(ValueError, match="host"):
        AcuOptions(host="summac")
    with pytest.raises(ValueError, match="top_k"):
        AcuOptions(top_k=0)
    with pytest.raises(ValueError, match="aggregation"):
        AcuOptions(aggregation="max")
    with pytest.raises(ValueError, match="alignment"):
        AcuOptions(alignment="ent-only")


def test_repeated_summary_sentences_across_examples_are_decomposed_once():
    summaries = ["Alice met Bob.", "Alice met Bob. Carol left.", "Alice met Bob."]
    result, _, decomposer = run(summaries, ["Alice met Bob. Carol left."] * 3, sd_acu=False, expansion=False)
    assert decomposer.seen == ["Alice met Bob.", "Carol left."]
    assert [[u["text"] for u in d["units"]] for d in result["details"]] == [
        ["Alice met Bob."],
        ["Alice met Bob.", "Carol left."],
        ["Alice met Bob."],
    ]
    assert result["scores"] == [1.0, 1.0, 1.0]


def test_sentence_texts_and_seeded_parses_equal_spacy_s_own():
    """The pipeline's shortcuts give what spaCy gives: a sentence's text is sliced from
    its document (``Span.text``, also for a document parsed in chunks) and is listed
    once per document object; the in-context parses lent to the decomposer are
    ``Span.as_doc()`` byte for byte and never enter the shared parse cache."""
    from halluscope.acu.scoring import _context_builders, _sentences
    from halluscope.parsing import ParseCache
    from halluscope.resources import get_parse_cache

    nlp = get_parse_cache().nlp
    texts = [
        "  Tim Cook, Apple's CEO, said on Monday that sales rose.  The firm, based in "
        "Cupertino, hired 500 people and opened two stores in New York City. \n\n Analysts were "
        "surprised.",
        "Dr. Smith arrived.\tShe left at 5 p.m. and  never came back!",
    ]
    chunked = ParseCache(nlp, chunk_chars=60)
    docs = [parsed.doc for parsed in chunked.get_many(texts)] + [nlp(text) for text in texts]
    assert len(docs[0].text) > 60  # the first one is joined from chunks
    memo, spans = {}, {}
    for doc in docs:
        listed = _sentences(doc, spans, memo)
        expected = [(s.text.strip(), (s.start_char, s.end_char)) for s in doc.sents if s.text.strip()]
        assert [(p.text, p.char_span) for p in listed] == expected
        assert [p.sentence_indices for p in listed] == [(k,) for k in range(len(expected))]
        again = _sentences(doc, {}, memo)
        assert [p.text for p in again] == [p.text for p in listed] and again is not listed
    for text, span in spans.items():
        assert span.text == text

    builders = _context_builders(spans, list(spans) + ["not a sentence of these texts"])
    assert set(builders) == set(spans)  # texts without a span get no builder
    for text, span in spans.items():
        assert builders[text]().to_bytes() == span.as_doc().to_bytes(), text
    # the rule decomposer reads the in-context parses inside the block and leaves the
    # shared parse cache alone
    from halluscope.acu.decompose import clear_decomposer_caches, context_parses
    from halluscope.acu.rule_decomposer import RuleDecomposer

    clear_decomposer_caches()
    shared = get_parse_cache()
    shared.clear()
    with context_parses(builders):
        RuleDecomposer().decompose(list(spans))
    assert len(shared) == 0
