"""The Space and metric apps without a browser: the pure display functions against
direct API calls, their messages, and that every app builds."""

import math
import os
import re

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import halluscope.space.app  # noqa: E402,F401  (space.app, space.display, space.acu_display, space.limits below)
import halluscope.space.metric_module  # noqa: E402,F401
import pytest  # noqa: E402
from halluscope import api, space  # noqa: E402
from halluscope.examples import load_examples  # noqa: E402
from halluscope.space.acu_display import acu_for_display, allowed_nli_models  # noqa: E402
from halluscope.space.display import headline_markdown, score_for_display  # noqa: E402
from halluscope.space.limits import (
    MAX_REFERENCE_CHARS,
    MAX_REFERENCE_TOKENS,
    MAX_SOURCE_CHARS,  # noqa: E402
    MAX_SOURCE_TOKENS,
    MAX_SUMMARY_CHARS,
    MAX_SUMMARY_TOKENS,
    check_texts,
    count_tokens,
)
from halluscope.verdict import p_consistent  # noqa: E402
from tiny_models import tiny_nli_model  # noqa: E402

EXAMPLES = {example["id"]: example for example in load_examples()}
NLI_DEFAULT = "tals/albert-xlarge-vitaminc-mnli"


def _example(example_id):
    example = EXAMPLES[example_id]
    return example["source"], example["reference"], example["prediction"], example["publication_date"]


def _scores(display):
    return {row["metric"]: row["score"] for row in display["scores"]}


def _undefined_as_none(value):
    return None if math.isnan(value) else value


@pytest.mark.parametrize("example_id", ["entity-swap", "temporal-wrong", "reference-free-unfaithful"])
def test_chi_scores_equal_a_direct_score_chi_call(example_id):
    source, reference, summary, date = _example(example_id)
    display = score_for_display(source, reference, summary, ["chi"], publication_date=date)
    direct = api.score_chi([summary], [source], [reference], publication_dates=[date], return_details=True)
    assert display["ok"] and display["message"] == ""
    assert [row["metric"] for row in display["scores"]] == ["ehi", "rhi", "qhi", "chi", "p_consistent"]
    assert _scores(display) == {
        metric: _undefined_as_none(direct[f"{metric}_scores"][0])
        for metric in ("ehi", "rhi", "qhi", "chi", "p_consistent")
    }
    verdict = display["scores"][-1]["note"]
    assert verdict.startswith("consistent at the shipped cut" if direct["labels"][0] else "likely inconsistent")
    assert display["signature"] == direct["signature"]
    assert display["reference_free"] is (reference == "")
    row = direct["details"][0]
    for score_row in display["scores"][:3]:
        units = row[score_row["metric"]]["units"]
        assert score_row["summary units"] == len(units)
        assert score_row["unsupported"] == sum(u["status"] == "unsupported" for u in units)
        assert score_row["contradicted"] == sum(u["status"] == "contradicted" for u in units)
    words = row["words"]
    assert display["scores"][3]["note"].endswith(
        f"w = {words['score']:.0%}: {sum(u['status'] == 'supported' for u in words['units'])} of "
        f"{len(words['units'])} of the summary's content words the source supports, "
        f"{words['written_share']:.0%} of its content tokens found as written"
    )


def test_hallucinated_entity_is_marked_unsupported_and_evidence_marked_in_source():
    source, reference, summary, _ = _example("entity-swap")
    display = score_for_display(source, reference, summary, ["chi"])
    assert (
        '<mark class="hs-span hs-unsupported hs-ehi" title="ehi: unsupported (Emmanuel Macron)">Emmanuel Macron</mark>'
    ) in display["summary_html"]
    assert re.findall(r'<mark class="hs-span hs-unsupported[^"]*"[^>]*>([^<]*)</mark>', display["summary_html"]) == [
        "Emmanuel Macron",
        "UNESCO",
        "Paris",
    ]
    assert re.findall(r'<mark class="hs-span hs-evidence[^"]*"[^>]*>([^<]*)</mark>', display["source_html"]) == [
        "Barack Obama"
    ]
    # default formula="support": 1 of the 4 entities is in the source; no relation or quantity;
    # the source supports 3 of the 7 content words (Obama, discuss, budget; not Emmanuel,
    # Macron, UNESCO, Paris) and holds 3 of the 8 content tokens as written ("discussed"
    # is not among them, "Obama" is): w = (3/7 + 3/8) / 2, CHI = 0.99 x 0.25 + 0.01 x w x (0.9 + 0.1 x 0.25)
    assert headline_markdown(display) == (
        "EHI **0.2500** · RHI **undefined** · QHI **undefined** · CHI **0.2512** · "
        f"p(consistent) **{p_consistent(display['scores'][3]['score']):.4f}**"
    )
    assert display["scores"][3]["note"] == (
        "harmonic mean of the defined dimensions' supported shares (halluscope's support "
        "scores, not the papers' factor formulas), mixed with w = 40%: 3 of 7 of the summary's "
        "content words the source supports, 38% of its content tokens found as written"
    )
    paper = score_for_display(source, reference, summary, ["chi"], options={"formula": "paper", "intransitive": "none"})
    # the reference says only "Obama": it no longer vouches for "Barack Obama" (issue 25: a longer
    # name in the summary is a claim of its own)
    # the calibration holds for the default options only: no p_consistent row
    assert headline_markdown(paper) == "EHI **0.3124** · RHI **0.3333** · QHI **0.4000** · CHI **0.3448**"
    assert paper["scores"][3]["note"] == "harmonic mean of the defined dimensions (CHI paper eq. 21-22)"


def test_summary_without_units_shows_what_its_chi_is():
    source = "Undeterred by the fact that he was unable to use his hands, the man sprints off."
    display = score_for_display(source, "", "He was unable to fly and dance.", ["chi"])
    assert headline_markdown(display) == (
        "EHI **undefined** · RHI **undefined** · QHI **undefined** · "
        f"CHI **0.3333** · p(consistent) **{p_consistent(1 / 3):.4f}** "
        "(reference-free)"
    )
    # the source supports "unable", not "fly" or "dance", and writes only "unable" of them
    assert display["scores"][3]["note"] == (
        "no units in any dimension: w = 33%: 1 of 3 of the summary's content words the source supports, "
        "33% of its content tokens found as written"
    )


#: one relation (council, approve, budget) in the source and the reference, one quantity
#: (5 million dollars) in the source only; no named entity anywhere; none in the summary
BUDGET_SOURCE = "The council approved the new budget. It costs 5 million dollars."
BUDGET_REFERENCE = "The council approved a budget."


def test_undefined_notes_say_which_texts_lack_units():
    display = score_for_display(BUDGET_SOURCE, BUDGET_REFERENCE, "A new budget.", ["chi"])
    assert {row["metric"]: row["note"] for row in display["scores"][:3]} == {
        "ehi": "undefined: no entities in the summary, the source or the reference",
        "rhi": "undefined: no relations in the summary (1 in the source, 1 in the reference)",
        "qhi": "undefined: no quantities in the summary or the reference (1 in the source)",
    }
    # reference-free: the reference is not named
    free = score_for_display(BUDGET_SOURCE, "", "A new budget.", ["rhi"])
    assert [(row["metric"], row["score"], row["note"]) for row in free["scores"]] == [
        ("rhi", None, "undefined: no relations in the summary (1 in the source)")
    ]
    # formula="paper" with a reference: a dimension is undefined only when all three texts lack
    # its units, so RHI and QHI are defined and EHI's note names all three texts
    paper = score_for_display(BUDGET_SOURCE, BUDGET_REFERENCE, "A new budget.", ["chi"], options={"formula": "paper"})
    notes = {row["metric"]: row["note"] for row in paper["scores"][:3]}
    assert notes["ehi"] == "undefined: no entities in the summary, the source or the reference"
    assert notes["rhi"] == "relations, RHI* softmax (CHI paper eq. 8-14)"


def test_undefined_note_from_counts():
    counts = {"counts": {"g": 0, "i": 3, "r": 0}}
    assert space.display.undefined_note("rhi", counts, False) == (
        "undefined: no relations in the summary or the reference (3 in the source)"
    )
    assert (
        space.display.undefined_note("qhi", counts, True) == "undefined: no quantities in the summary (3 in the source)"
    )
    assert space.display.undefined_note("ehi", {"counts": {"g": 0, "i": 0, "r": 2}}, False) == (
        "undefined: no entities in the summary or the source (2 in the reference)"
    )
    assert space.display.undefined_note("ehi", None, False) == "undefined: no entities to compare"


#: "bought" against "sold" (same subject and object) and "fell" against "rose": WordNet antonyms
CONTRADICTED_SOURCE = "Acme Corp sold the factory to Globex in March. Its shares rose 5% on Monday."
CONTRADICTED_SUMMARY = "Acme Corp bought the factory from Globex in March. Its shares fell 5% on Monday."


@pytest.fixture(scope="module")
def wordnet():
    from halluscope.resources import get_lexicon

    if not get_lexicon().available:
        pytest.skip(
            "WordNet 3.0 is not installed: apt-get install wordnet-base wordnet-sense-index, "
            "or python -c 'import nltk; nltk.download(\"wordnet\")'"
        )


def test_contradicted_units_and_words_are_shown_as_contradicted(wordnet):
    display = score_for_display(CONTRADICTED_SOURCE, "", CONTRADICTED_SUMMARY, ["chi"])
    assert display["ok"] and "|wn:3.0|" in display["signature"]
    rows = {row["metric"]: row for row in display["scores"]}
    # (acme corp, buy, factory) against "sold", and the active pair (share, fall) against
    # "rose": beside a triple an active subject-verb pair counts only when the source
    # contradicts it
    assert (rows["rhi"]["summary units"], rows["rhi"]["unsupported"], rows["rhi"]["contradicted"]) == (2, 0, 2)
    # "fell 5%" against "rose 5%": the same amount in the opposite direction (issue 25)
    assert (rows["ehi"]["contradicted"], rows["qhi"]["contradicted"], rows["chi"]["contradicted"]) == (0, 1, None)
    assert rows["rhi"]["score"] == 0.0  # a contradicted unit counts as unsupported
    # the chi note: the words score, and the words the source contradicts ("bought" against
    # "sold" of the same subject, Acme Corp: a sentence contradiction, since one party
    # cannot be both seller and buyer); w = (7/11 + 8/10) / 2, the contradicted "bought"
    # and "fell" each counted twice in the supported share
    assert rows["chi"]["note"] == (
        "harmonic mean of the defined dimensions' supported shares (halluscope's support "
        "scores, not the papers' factor formulas), mixed with w = 72%: 7 of 9 of the summary's content "
        "words the source supports, 80% of its content tokens found as written; contradicted by the source: "
        "bought, fell"
    )
    assert re.findall(r'<mark class="hs-span hs-contradicted[^"]*"[^>]*>([^<]*)</mark>', display["summary_html"]) == [
        "Acme Corp",
        " bought the factory",
        "shares fell",
        "5%",
    ]
    assert "hs-unsupported" not in display["summary_html"]
    assert re.findall(r'<mark class="hs-span hs-contradicting[^"]*"[^>]*>([^<]*)</mark>', display["source_html"]) == [
        "Acme Corp",
        " sold the factory",
        "shares rose",
        "5%",
    ]
    assert "buy ≠ sell (WordNet antonym)" in display["source_html"]
    assert {"dimension": "rhi", "bar": "RHI contradicted", "value": 2.0} in display["chart"]
    assert not any(bar["bar"] == "EHI contradicted" for bar in display["chart"])  # only where there are any
    assert "hs-contradicted" in space.display.LEGEND_HTML and "hs-contradicting" in space.display.LEGEND_HTML


def test_wordnet_option_reaches_the_score(wordnet):
    names = [option.name for option in space.app.METRIC_OPTIONS["rhi"]]
    shown = [option.default for option in space.app.METRIC_OPTIONS["rhi"]]
    shown[names.index("wordnet")] = "off"
    off = score_for_display(
        CONTRADICTED_SOURCE, "", CONTRADICTED_SUMMARY, ["rhi"], options=space.app.app_options("rhi", shown)
    )
    assert "|wn:none|" in off["signature"]
    assert (off["scores"][0]["unsupported"], off["scores"][0]["contradicted"]) == (1, 0)
    assert "hs-contradicted" not in off["summary_html"] and "hs-unsupported" in off["summary_html"]
    shown = [option.default for option in space.app.METRIC_OPTIONS["chi"]]
    shown[[option.name for option in space.app.METRIC_OPTIONS["chi"]].index("wordnet")] = "off"
    chi_off = score_for_display(
        CONTRADICTED_SOURCE, "", CONTRADICTED_SUMMARY, ["chi"], options=space.app.space_options(["chi"], shown)
    )
    assert "|wn:none|" in chi_off["signature"] and "contradicted by the source" not in chi_off["scores"][-1]["note"]


def test_single_metrics_equal_their_own_api_calls_and_show_only_their_dimension():
    source, reference, summary, _ = _example("relation-role-swap")
    chi = score_for_display(source, reference, summary, ["chi"])
    ehi = score_for_display(source, reference, summary, ["ehi"])
    rhi = score_for_display(source, reference, summary, ["rhi"])
    assert [row["metric"] for row in ehi["scores"]] == ["ehi"]
    assert _scores(ehi)["ehi"] == _undefined_as_none(api.score_ehi([summary], [source], [reference])["ehi_scores"][0])
    # the Space's RHI alone is RHI* (the variant CHI fuses), so it equals chi's rhi
    assert _scores(rhi) == {"rhi": _scores(chi)["rhi"]}
    assert "hs-rhi" not in ehi["summary_html"] and "hs-rhi" in rhi["summary_html"]
    assert {bar["dimension"] for bar in rhi["chart"]} == {"rhi"}
    linear = score_for_display(source, reference, summary, ["rhi"], options={"variant": "linear", "formula": "paper"})
    direct = api.score_rhi([summary], [source], [reference], formula="paper")
    assert _scores(linear) == {"rhi": direct["rhi_scores"][0], "rhi_norm": direct["rhi_norm_scores"][0]}
    two = score_for_display(source, reference, summary, ["qhi", "ehi"])
    assert [row["metric"] for row in two["scores"]] == ["ehi", "qhi"]
    assert _scores(two) == {"ehi": _scores(chi)["ehi"], "qhi": _scores(chi)["qhi"]}


def test_chart_shows_factor_profiles_with_a_reference():
    source, reference, summary, _ = _example("entity-swap")
    display = score_for_display(source, reference, summary, ["chi"], options={"formula": "paper"})
    row = api.score_chi([summary], [source], [reference], return_details=True, formula="paper")["details"][0]
    assert display["chart"] == [
        {"dimension": d, "bar": f"{d.upper()} {name}", "value": value}
        for d in ("ehi", "rhi", "qhi")
        for name, value in row[d]["factors"].items()
    ]
    assert display["chart_note"].startswith("Factor profile of EHI, RHI, QHI")


def test_chart_shows_unit_counts_when_reference_free():
    source, _, summary, _ = _example("reference-free-unfaithful")
    display = score_for_display(source, "", summary, ["ehi", "qhi"])
    row = api.score_chi([summary], [source], [""], return_details=True)["details"][0]
    expected = []
    for dimension in ("ehi", "qhi"):
        statuses = [u["status"] for u in row[dimension]["units"]]
        expected += [
            {"dimension": dimension, "bar": f"{dimension.upper()} {status}", "value": float(statuses.count(status))}
            for status in ("supported", "unsupported")
        ]
    assert display["chart"] == expected
    assert display["chart_note"].startswith("Supported and unsupported summary units of EHI, QHI")


@pytest.mark.parametrize(
    "field, limit", [("source", MAX_SOURCE_CHARS), ("reference", MAX_REFERENCE_CHARS), ("summary", MAX_SUMMARY_CHARS)]
)
def test_over_long_input_gives_a_message_not_a_truncation(field, limit):
    texts = {"source": "The cat sat.", "reference": "", "summary": "The cat sat."}
    texts[field] = "a" * (limit + 1)
    display = score_for_display(texts["source"], texts["reference"], texts["summary"], ["chi"])
    assert display["ok"] is False and display["scores"] == [] and display["summary_html"] == ""
    assert display["message"].startswith(
        f"The {field} is too long: {limit + 1:,} characters, this app "
        f"accepts at most {limit:,}. Shorten it (nothing was cut)"
    )
    texts[field] = "a" * limit
    check_texts(texts["source"], texts["summary"], texts["reference"])  # at the cap: accepted


@pytest.mark.parametrize(
    "field, limit",
    [("source", MAX_SOURCE_TOKENS), ("reference", MAX_REFERENCE_TOKENS), ("summary", MAX_SUMMARY_TOKENS)],
)
def test_text_of_many_tokens_within_the_character_cap_is_refused(field, limit):
    # "$1m " is three tokens in four characters: 0.75 a character, where prose has about 0.2
    assert (limit // 3 + 1) * 4 <= {"source": MAX_SOURCE_CHARS}.get(field, MAX_SUMMARY_CHARS)
    texts = {"source": "The cat sat.", "reference": "", "summary": "The cat sat."}
    texts[field] = "$1m " * (limit // 3 + 1)
    assert count_tokens(texts[field]) == limit // 3 * 3 + 3
    display = score_for_display(texts["source"], texts["reference"], texts["summary"], ["chi"])
    assert display["ok"] is False and display["scores"] == []
    assert display["message"].startswith(
        f"The {field} is too long: {limit // 3 * 3 + 3:,} tokens (words, numbers "
        f"and symbols), this app accepts at most {limit:,}. Shorten it"
    )
    texts[field] = "$1m " * (limit // 3) + "x " * (limit % 3)  # exactly the cap: accepted
    assert count_tokens(texts[field]) == limit
    check_texts(texts["source"], texts["summary"], texts["reference"])


@pytest.mark.parametrize(
    "source, summary, metrics, message",
    [
        ("", "A summary.", ["chi"], "The source is empty: paste the document the summary was written from."),
        ("  \n ", "A summary.", ["chi"], "The source is empty: paste the document the summary was written from."),
        (None, "A summary.", ["chi"], "The source is empty: paste the document the summary was written from."),
        ("A source.", " ", ["chi"], "The summary is empty: paste the summary to check."),
        ("A source.", "A summary.", [], "Choose at least one metric."),
        ("A source.", "A summary.", ["chi", "bleu"], "Unknown metric 'bleu': choose among chi, ehi, rhi, qhi."),
    ],
)
def test_bad_input_gives_a_message(source, summary, metrics, message):
    display = score_for_display(source, "", summary, metrics)
    assert (display["ok"], display["message"]) == (False, message)


def test_errors_inside_scoring_become_messages(monkeypatch):
    source, reference, summary, _ = _example("entity-swap")
    refused = score_for_display(source, reference, summary, ["qhi"], publication_date="someday")
    assert refused["message"] == (
        "The input was refused: row 0: `publication_dates` 'someday' is not an ISO date (YYYY-MM-DD)"
    )

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(api, "score_metric", broken)  # the Space scores through score_metric
    failed = score_for_display(source, reference, summary, ["chi"])
    assert (failed["ok"], failed["message"]) == (False, "Scoring failed (RuntimeError): boom")


def test_allowed_nli_models_come_from_the_registry_and_the_owner(monkeypatch):
    monkeypatch.delenv("HALLUSCOPE_NLI_MODEL", raising=False)
    monkeypatch.delenv(space.acu_display.SPACE_NLI_MODELS_ENV, raising=False)
    assert allowed_nli_models() == [NLI_DEFAULT]
    monkeypatch.setenv(space.acu_display.SPACE_NLI_MODELS_ENV, " /models/a ,org/b,, /models/a")
    monkeypatch.setenv("HALLUSCOPE_NLI_MODEL", "/models/main")
    assert allowed_nli_models() == ["/models/main", NLI_DEFAULT, "/models/a", "org/b"]


def test_dlsd_without_a_model_says_so_in_plain_words(monkeypatch, caplog):
    monkeypatch.delenv("HALLUSCOPE_NLI_MODEL", raising=False)
    monkeypatch.delenv(space.acu_display.SPACE_NLI_MODELS_ENV, raising=False)
    source, _, summary, _ = _example("entity-swap")
    with caplog.at_level("WARNING", logger="halluscope.space"):
        display = acu_for_display(source, summary)
    assert display["ok"] is False and display["units"] == [] and display["model"] == NLI_DEFAULT
    assert display["message"] == (
        f"The NLI model {NLI_DEFAULT} is not available in this app, so dlsd_acu cannot score here. "
        "The CHI-family metrics (chi, ehi, rhi, qhi) do not need it. To score with dlsd_acu, run "
        "halluscope on your own computer (see the dlsd_acu metric card)."
    )
    # the loader's words are for the server log, not the visitor
    assert [
        record.getMessage().startswith(f"NLI model {NLI_DEFAULT} could not be loaded: ") for record in caplog.records
    ] == [True]
    # shown as plain text in the tab: no bold, the model name escaped
    status = space.app._acu_updates(display)[0]
    assert status == space.limits.markdown_text(display["message"]) and not status.startswith("**")


def test_score_table_is_escaped_html_with_one_row_per_dimension():
    source, reference, summary, _ = _example("entity-swap")
    table = space.display.score_table_html(score_for_display(source, reference, summary, ["ehi"]))
    assert table == (
        '<div class="hs-table-wrap"><table class="hs-table"><thead><tr><th scope="col">metric</th>'
        '<th scope="col">score</th><th scope="col">summary units</th><th scope="col">unsupported</th>'
        '<th scope="col">contradicted</th><th scope="col">note</th></tr></thead><tbody><tr><td>ehi</td>'
        '<td class="hs-num">0.2500</td><td class="hs-num">4</td><td class="hs-num">3</td>'
        '<td class="hs-num">0</td><td class="hs-wide">entities (CHI paper eq. 2-7)</td></tr></tbody></table></div>'
    )
    assert space.display.table_html(["a", "b"], [["<b>x</b>", None]]) == (
        '<div class="hs-table-wrap"><table class="hs-table"><thead><tr><th scope="col">a</th>'
        '<th scope="col">b</th></tr></thead><tbody><tr><td>&lt;b&gt;x&lt;/b&gt;</td><td></td></tr></tbody>'
        "</table></div>"
    )
    assert space.display.score_table_html(space.display._empty_display("no")) == ""


def test_dlsd_refuses_models_the_owner_did_not_offer(monkeypatch):
    monkeypatch.delenv("HALLUSCOPE_NLI_MODEL", raising=False)
    monkeypatch.delenv(space.acu_display.SPACE_NLI_MODELS_ENV, raising=False)
    display = acu_for_display("The cat sat.", "The cat sat.", nli_model="/etc")
    assert display["message"] == (
        f"The NLI model '/etc' is not one this app offers: choose among {NLI_DEFAULT} "
        "(the Space owner adds models with HALLUSCOPE_SPACE_NLI_MODELS)."
    )
    assert acu_for_display("", "The cat sat.")["message"] == (
        "The source is empty: paste the document the summary was written from."
    )


def test_dlsd_with_an_offered_model_lists_units_with_scores(tmp_path, monkeypatch):
    model = tiny_nli_model(tmp_path / "tiny-nli")
    monkeypatch.delenv("HALLUSCOPE_NLI_MODEL", raising=False)
    monkeypatch.setenv(space.acu_display.SPACE_NLI_MODELS_ENV, model)
    source, _, summary, _ = _example("acquisition-faithful")
    display = acu_for_display(source, summary, nli_model=model)
    direct = api.score_dlsd_acu([summary], [source], nli_model=model, decomposer="rules", return_details=True)
    row = direct["details"][0]
    assert display["ok"] is True and display["message"] == "" and display["model"] == model
    assert display["score"] == direct["dlsd_acu_scores"][0]
    assert display["units"] == [
        {"unit": u["text"], "type": u["type"], "score": u["score"], "evidence": u["evidence"]["text"]}
        for u in row["units"]
    ]
    assert len(display["units"]) >= 1 and all(0.0 <= u["score"] <= 1.0 for u in display["units"])
    assert display["signature"] == direct["signature"]
    evidence = re.findall(r'<mark class="hs-span hs-evidence hs-acu"[^>]*>([^<]*)</mark>', display["source_html"])
    assert evidence and all(text in source for text in evidence)


@pytest.mark.slow
def test_every_app_builds():
    import gradio as gr

    assert isinstance(space.app.build_space(), gr.Blocks)
    for name in ("chi", "ehi", "rhi", "qhi", "dlsd_acu"):
        assert isinstance(space.app.build_metric_app(name), gr.Blocks), name
    with pytest.raises(ValueError, match="no app for metric 'bleu'"):
        space.app.build_metric_app("bleu")


def test_app_options_are_api_keywords_with_the_api_defaults():
    import inspect

    functions = {"chi": api.score_chi, "ehi": api.score_ehi, "rhi": api.score_rhi, "qhi": api.score_qhi}
    for name, function in functions.items():
        parameters = inspect.signature(function).parameters
        controls = space.app.METRIC_OPTIONS[name]
        shown_defaults = [option.default for option in controls]
        for keyword, value in space.app.app_options(name, shown_defaults).items():
            assert keyword in parameters, (name, keyword)
            assert value == parameters[keyword].default, (name, keyword, value)
    assert {"truecase", "attribution", "relation_slots", "intransitive", "wordnet"} <= {
        option.name for option in space.app.METRIC_OPTIONS["chi"]
    }
    assert "wordnet" in {option.name for option in space.app.METRIC_OPTIONS["rhi"]}
    assert "wordnet" not in {
        option.name for option in space.app.METRIC_OPTIONS["ehi"] + space.app.METRIC_OPTIONS["qhi"]
    }
    for name in ("attribution", "wordnet"):
        option = next(o for o in space.app.METRIC_OPTIONS["chi"] if o.name == name)
        assert [option.api_value(v) for v in ("default", "on", "off")] == [None, True, False]


def test_app_option_values_reach_the_score():
    source = "The police search for Thomas has widened after he vanished on Monday."
    shown = [option.default for option in space.app.METRIC_OPTIONS["rhi"]]
    names = [option.name for option in space.app.METRIC_OPTIONS["rhi"]]
    shown[names.index("intransitive")] = "all"
    on = score_for_display(source, "", "Thomas vanished.", ["rhi"], options=space.app.app_options("rhi", shown))
    shown[names.index("intransitive")] = "none"
    off = score_for_display(source, "", "Thomas vanished.", ["rhi"], options=space.app.app_options("rhi", shown))
    assert _scores(on)["rhi"] == 1.0 and _scores(off)["rhi"] is None  # no triple without the pair
    assert "|pairs:all|" in on["signature"] and "|pairs:none|" in off["signature"]


def test_space_options_panel_gives_each_choice_the_options_it_takes():
    shown = [option.default for option in space.app.METRIC_OPTIONS["chi"]]
    names = [option.name for option in space.app.METRIC_OPTIONS["chi"]]
    shown[names.index("formula")] = "paper"
    shown[names.index("epsilon")] = 0.2
    every = space.app.app_options("chi", shown)
    # chi, or several metrics, is one score_chi call: every option; a single metric: its app's
    assert space.app.space_options(["chi"], shown) == every == space.app.space_options(["ehi", "qhi"], shown)
    assert space.app.space_options(["ehi"], shown) == {
        "formula": "paper",
        "grounding": "text",
        "normalize": "paper",
        "truecase": True,
        "attribution": None,
    }
    assert space.app.space_options(["qhi"], shown)["epsilon"] == 0.2
    assert "intransitive" not in space.app.space_options(["qhi"], shown)
    source, reference, summary, date = _example("entity-swap")
    display = score_for_display(source, reference, summary, ["ehi"], options=space.app.space_options(["ehi"], shown))
    assert display["ok"] and "|formula:paper|" in display["signature"]


def _front_matter(path):
    text = open(path, encoding="utf-8").read()
    block = text.split("---\n")[1]
    return dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(" "))


def test_app_files_and_space_cards_agree(repo_root):
    import gradio

    major = gradio.__version__.split(".")[0]
    cards = [os.path.join(repo_root, "spaces", "halluscope", "README.md")]
    cards += [os.path.join(repo_root, "metrics", name, "README.md") for name in space.app.METRIC_APPS]
    for card in cards:
        front = _front_matter(card)
        assert (front["sdk"], front["app_file"]) == ("gradio", "app.py"), card
        assert front["sdk_version"].split(".")[0] == major, card
        folder = os.path.dirname(card)
        assert os.path.isfile(os.path.join(folder, "app.py")), folder
        requirements = open(os.path.join(folder, "requirements.txt"), encoding="utf-8").read().splitlines()
        assert "gradio>=5,<7" in requirements or "halluscope[offline,nli,space]==0.1.0" in requirements, folder
    for name in space.app.METRIC_APPS:
        app = open(os.path.join(repo_root, "metrics", name, "app.py"), encoding="utf-8").read()
        assert f'build_metric_app("{name}", module_folder=os.path.dirname(os.path.abspath(__file__)))' in app


# -- each metric app scores through its folder's evaluate module (issue 56) ----------------


def _metric_app(repo_root, name):
    """``metrics/<name>/app.py`` run as a Space runs it, but not launched: its app."""
    import runpy

    return runpy.run_path(os.path.join(repo_root, "metrics", name, "app.py"), run_name="space_app")["app"]


def _score_callback(app):
    """The function behind the app's score button (its ``/score`` endpoint)."""
    (function,) = [f for f in app.fns.values() if f.api_name == space.app.SCORE_ENDPOINT]
    return function.fn


@pytest.mark.slow
@pytest.mark.parametrize("name", ["chi", "ehi", "rhi", "qhi"])
def test_metric_app_scores_through_its_module(name, repo_root, monkeypatch):
    """The app's button scores through ``metrics/<name>/<name>.py``: the shown scores
    and highlighting are the module's (equal to the API's), and a module that fails
    makes the app say so."""
    import gradio as gr
    import halluscope.evaluate_support

    app = _metric_app(repo_root, name)
    source, reference, summary, date = _example("entity-swap")
    shown = [option.default for option in space.app.METRIC_OPTIONS[name]]
    dated = [date] if space.app.METRIC_SPECS[name].takes_dates else []
    outputs = _score_callback(app)(source, reference, summary, *dated, *shown)
    # what the page shows is what the API route shows (the chart, a gradio object, aside)
    through_api = space.app._chi_updates(
        gr,
        score_for_display(
            source,
            reference,
            summary,
            (name,),
            publication_date=dated[0] if dated else None,
            options=space.app.app_options(name, shown),
        ),
    )
    assert outputs[:4] + outputs[5:] == through_api[:4] + through_api[5:]
    status, headline, _, _, _, summary_html, _, signature = outputs
    direct = api.score_metric(
        name,
        [summary],
        [source],
        [reference],
        **space.app.app_options(name, shown),
        **({"publication_dates": [date]} if dated else {}),
    )
    assert status == "Scored." and signature == direct["signature"]
    assert f"{name.upper()} **{space.display.format_score(direct[f'{name}_scores'][0])}**" in headline
    assert ("hs-unsupported" in summary_html) == (name in ("chi", "ehi"))  # Macron, UNESCO, Paris

    def broken(self, *args, **kwargs):
        raise RuntimeError(f"the {self.metric_id} module broke")

    monkeypatch.setattr(halluscope.evaluate_support.HalluscopeMetric, "_score", broken)
    status = _score_callback(app)(source, reference, summary, *dated, *shown)[0]
    assert status == f"**{space.limits.markdown_text(f'Scoring failed (RuntimeError): the {name} module broke')}**"


@pytest.mark.slow
def test_dlsd_app_scores_through_its_module(repo_root, tmp_path, monkeypatch):
    import halluscope.evaluate_support

    model = tiny_nli_model(tmp_path / "tiny-nli")
    monkeypatch.delenv("HALLUSCOPE_NLI_MODEL", raising=False)
    monkeypatch.setenv(space.acu_display.SPACE_NLI_MODELS_ENV, model)
    app = _metric_app(repo_root, "dlsd_acu")
    source, _, summary, _ = _example("acquisition-faithful")
    status, headline, units, _, signature = _score_callback(app)(source, summary, model, "fizz", "dep", "rules")
    direct = api.score_dlsd_acu([summary], [source], nli_model=model, decomposer="rules", dl_acu="dep")
    assert status == "Scored." and signature == direct["signature"]
    assert headline.startswith(f"DLSD_ACU **{space.display.format_score(direct['dlsd_acu_scores'][0])}**")
    assert units.count("<tr>") >= 2  # a header and at least one unit

    def broken(self, *args, **kwargs):
        raise RuntimeError("the dlsd_acu module broke")

    monkeypatch.setattr(halluscope.evaluate_support.HalluscopeMetric, "_score", broken)
    status = _score_callback(app)(source, summary, model, "fizz", "dep", "rules")[0]
    assert status == space.limits.markdown_text("Scoring failed (RuntimeError): the dlsd_acu module broke")


@pytest.mark.slow
def test_a_request_stopped_inside_the_module_leaves_the_app_usable(repo_root, monkeypatch, tmp_path):
    """A request past its time budget is stopped inside the module's ``compute`` (after
    evaluate stored its rows); the next request, with a fresh module instance, scores
    as if nothing had happened. The rows stay in memory: no file (no Arrow cache, no
    lock) is ever written to evaluate's cache folder."""
    import threading

    import evaluate.config
    import halluscope.evaluate_support

    cache = tmp_path / "evaluate-cache"
    monkeypatch.setattr(evaluate.config, "HF_METRICS_CACHE", str(cache))
    module = space.metric_module.MetricModule(os.path.join(repo_root, "metrics", "qhi"), "qhi")
    source, reference, summary, date = _example("temporal-wrong")
    stopped, real_score = threading.Event(), halluscope.evaluate_support.HalluscopeMetric._score

    def runaway(self, *args, **kwargs):
        try:
            while True:
                pass
        finally:
            stopped.set()

    monkeypatch.setattr(halluscope.evaluate_support.HalluscopeMetric, "_score", runaway)
    display = score_for_display(
        source, reference, summary, ["qhi"], publication_date=date, module=module, time_budget_s=0.5
    )
    assert display["ok"] is False and display["message"].startswith("Scoring took longer than 0.5 s")
    assert stopped.wait(30)
    monkeypatch.setattr(halluscope.evaluate_support.HalluscopeMetric, "_score", real_score)
    after = score_for_display(source, reference, summary, ["qhi"], publication_date=date, module=module)
    direct = api.score_qhi([summary], [source], [reference], publication_dates=[date], return_details=True)
    assert after["ok"] is True and _scores(after)["qhi"] == _undefined_as_none(direct["qhi_scores"][0])
    assert cache.is_dir() and [path for path in cache.rglob("*") if not path.is_dir()] == []


def test_metric_module_refuses_a_folder_of_another_metric(repo_root):
    with pytest.raises(ValueError, match=r"holds the evaluate module 'ehi', not 'chi'"):
        space.metric_module.MetricModule(os.path.join(repo_root, "metrics", "ehi"), "chi")


# -- hygiene: user text is text, every request has a time budget, requests queue ----------

TRACKER = '<img src="http://127.0.0.1:9/track.png">'


def test_markdown_text_shows_markup_as_written():
    assert space.limits.markdown_text(TRACKER) == r'&lt;img src="http\://127\.0\.0\.1\:9/track\.png"&gt;'
    assert space.limits.markdown_text("**bold** [link](http://x) # h & `code`") == (
        r"\*\*bold\*\* \[link\]\(http\://x\) \# h &amp; \`code\`"
    )


def test_a_publication_date_with_html_is_shown_as_text():
    import gradio as gr

    source, reference, summary, _ = _example("temporal-relative")
    display = score_for_display(source, reference, summary, ["chi"], publication_date=TRACKER)
    assert display["ok"] is False and TRACKER in display["message"]  # the message quotes it as given
    status = space.app._chi_updates(gr, display)[0]
    assert "<img" not in status and "&lt;img" in status
    assert status == "**" + space.limits.markdown_text(display["message"]) + "**"


def test_guarded_callbacks_escape_the_error_text():
    def failing(*args):
        raise RuntimeError(TRACKER)

    status, *rest = space.app._guarded(failing, 3)()
    assert status == f"**Something went wrong (RuntimeError): {space.limits.markdown_text(TRACKER)}**"
    assert rest == [None, None]


def test_a_request_past_its_time_budget_is_stopped_with_a_message():
    import threading

    stopped = threading.Event()

    def runaway():
        try:
            while True:  # Python bytecode: the stop lands at once
                pass
        finally:
            stopped.set()

    with pytest.raises(space.limits.BudgetExceeded, match=r"^Scoring took longer than 0\.2 s, this app's time budget"):
        space.limits.run_with_budget(runaway, budget=0.2)
    assert stopped.wait(30)  # the thread really stopped
    assert space.limits.run_with_budget(lambda x: x + 1, 41, budget=30) == 42  # and the next request runs
    with pytest.raises(ZeroDivisionError):  # the function's own errors are raised as they are
        space.limits.run_with_budget(lambda: 1 / 0, budget=30)


def test_score_for_display_reports_an_exceeded_budget(monkeypatch):
    def slow(*args, **kwargs):
        while True:
            pass

    monkeypatch.setattr(space.display, "_run_chi_family", slow)
    source, reference, summary, _ = _example("temporal-relative")
    display = score_for_display(source, reference, summary, ["chi"], time_budget_s=0.2)
    assert display["ok"] is False
    assert display["message"].startswith("Scoring took longer than 0.2 s, this app's time budget per request")
    monkeypatch.setenv(space.limits.TIME_BUDGET_ENV, "12.5")
    assert space.limits.time_budget() == 12.5
    monkeypatch.setenv(space.limits.TIME_BUDGET_ENV, "-1")
    assert space.limits.time_budget() == space.limits.DEFAULT_TIME_BUDGET


def test_apps_queue_with_a_concurrency_limit(monkeypatch):
    monkeypatch.setenv(space.limits.CONCURRENCY_ENV, "2")
    monkeypatch.setenv(space.limits.QUEUE_SIZE_ENV, "5")
    app = space.app.build_metric_app("qhi")
    assert app._queue.max_size == 5 and app._queue.default_concurrency_limit == 2
    monkeypatch.delenv(space.limits.CONCURRENCY_ENV)
    monkeypatch.delenv(space.limits.QUEUE_SIZE_ENV)
    default = space.app.build_space()
    assert default._queue.max_size == space.limits.DEFAULT_QUEUE_SIZE == 16
    assert default._queue.default_concurrency_limit == space.limits.DEFAULT_CONCURRENCY == 1
