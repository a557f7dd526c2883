"""``halluscope report``: a self-contained HTML file built from a scores file written by
``halluscope score`` (both run in-process through ``halluscope.cli.main``), checked
as text and in headless Chromium."""

import html
import json
import math
import re

import pytest
from halluscope.cli import main
from halluscope.highlight import render_html, summary_highlights
from halluscope.report import build_report
from halluscope.report.stats import (
    agreement,
    binary_label,
    column_stats,
    column_values,
    dimension_breakdown,
    highlight_details,
    load_records,
    roc_auc,
    shown_indices,
)

EXAMPLES = [
    {
        "id": "faithful <id&1>",
        "source": "Microsoft acquired the startup GitHub in 2018. The deal was worth $7.5 billion.",
        "reference": "Microsoft acquired GitHub for $7.5 billion in 2018.",
        "prediction": "Microsoft acquired GitHub for $7.5 billion in 2018.",
        "label": 1,
    },
    {
        "id": "entity-swap",
        "source": "Barack Obama met Angela Merkel in Berlin on Tuesday to discuss the World Health "
        "Organization's budget.",
        "reference": 'Obama & Merkel met in "Berlin" <on Tuesday>.',
        "prediction": "Barack Obama and Emmanuel Macron discussed the budget in Paris.",
        "label": 0,
    },
    {
        "id": "markup",
        "source": "AT&T said profits rose 5% in 2023.",
        "reference": "",
        "prediction": 'AT&T <script>alert(1)</script> said "profits rose 5%".',
        "label": 1,
    },
    {"id": "empty", "source": "Sales rose 12% to $4.2 billion in 2023.", "reference": "", "prediction": "", "label": 1},
    {
        "id": "antonym",
        "source": "Acme Corp sold the factory to Globex in March. Its shares rose 5% on Monday.",
        "reference": "Acme Corp sold the factory in March.",
        "prediction": "Acme Corp bought the factory from Globex in March. Its shares fell 5% on Monday.",
        "label": 0,
    },
]
LABELS = [e["label"] for e in EXAMPLES]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """(records, HTML text, report path) for the examples scored with chi (their
    ``label`` kept in ``fields``); a second page, ``paged.html``, has pages of 2 rows."""
    folder = tmp_path_factory.mktemp("report")
    data = folder / "data.jsonl"
    data.write_text("".join(json.dumps(e) + "\n" for e in EXAMPLES), encoding="utf-8")
    scores, page = folder / "scores.jsonl", folder / "report.html"
    assert main(["score", "--input", str(data), "--output", str(scores), "--reference-field", "reference"]) == 0
    assert main(["report", "--input", str(scores), "--output", str(page)]) == 0
    assert main(["report", "--input", str(scores), "--output", str(folder / "paged.html"), "--page-size", "2"]) == 0
    return load_records(str(scores)), page.read_text(encoding="utf-8"), page


def test_report_is_self_contained(report):
    _, document, _ = report
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", document)
    assert "http://" not in document and "https://" not in document
    assert "<link" not in document and "<script src" not in document
    # inline SVG charts, no image files: with labels, one distribution per score (chi, ehi,
    # rhi, qhi, p_consistent), the ROC curves and the reliability of p_consistent
    assert "data:image" not in document
    assert re.findall(r'<svg class="hs-chart"[^>]*data-chart="(\w+)"', document) == ["histogram"] * 5 + [
        "roc",
        "reliability",
    ]


def test_one_row_per_example_with_escaped_texts(report):
    records, document, _ = report
    assert re.findall(r'<tr class="example" data-position="(\d+)"', document) == ["1", "2", "3", "4", "5"]
    assert html.escape("faithful <id&1>") in document
    assert html.escape('Obama & Merkel met in "Berlin" <on Tuesday>.') in document
    assert "<script>alert(1)" not in document and "&lt;script&gt;alert(1)&lt;/script&gt;" in document
    for record in records:
        assert render_html(record["prediction"], summary_highlights(highlight_details(record))) in document


def test_unsupported_units_are_marked(report):
    records, document, _ = report
    assert re.search(
        r'<mark class="hs-span hs-unsupported[^"]*hs-ehi[^"]*" title="[^"]*'
        r'ehi: unsupported \(Emmanuel Macron\)[^"]*">Emmanuel Macron</mark>',
        document,
    )
    assert re.search(r'<mark class="hs-span hs-unsupported[^"]*" title="[^"]*ehi: unsupported \(Paris\)', document)
    assert "unsupported: ehi: Emmanuel Macron, Paris" in document
    assert document.count('<span class="badge">reference-free</span>') == 2  # reference "" in two rows


def test_contradicted_units_and_words_are_marked(report):
    from halluscope.resources import get_lexicon

    if not get_lexicon().available:
        pytest.skip("WordNet 3.0 is not installed (apt-get install wordnet-base wordnet-sense-index)")
    records, document, _ = report
    row = next(r for r in records if r["id"] == "antonym")
    # "bought the factory" against "sold", and the active pair "shares fell" against "rose"
    assert [u["status"] for u in row["details"]["chi"]["rhi"]["units"]] == ["contradicted", "contradicted"]
    assert re.search(
        r'<mark class="hs-span hs-contradicted[^"]*hs-rhi[^"]*" title="[^"]*'
        r'rhi: contradicted \(Acme Corp bought the factory\)"> bought the factory</mark>',
        document,
    )
    assert re.search(
        r'<mark class="hs-span hs-contradicting[^"]*hs-rhi[^"]*" title="[^"]*rhi contradicts '
        r'&#x27;Acme Corp bought the factory&#x27;[^"]*buy ≠ sell \(WordNet antonym\)"> sold the factory'
        r"</mark>",
        document,
    )
    # and "fell 5%" against "rose 5%": the amount in the opposite direction (issue 25)
    assert (
        '<div class="contradicted">contradicted: rhi: Acme Corp bought the factory, shares fell; qhi: 5%</div>'
        in document
    )
    # buy/sell transfer possession, but "bought" and "sold" are said of one subject (Acme
    # Corp), which cannot be both buyer and seller: a sentence contradiction
    assert '<div class="contradicted">contradicted words: bought, fell</div>' in document
    assert '<mark class="hs-span hs-contradicted">contradicted</mark>' in document  # the legend


def test_statistics_table(report):
    records, document, _ = report
    for metric_score, label in ((("chi", "chi"), "chi"), (("chi", "ehi"), "chi.ehi")):
        stats = column_stats(column_values(records, metric_score))
        below = f"{100 * stats.share_below_cut:.1f}%"
        assert (
            f'<tr><td>{label}</td><td class="num">{stats.mean:.4f}</td><td class="num">{stats.median:.4f}</td>'
            f'<td class="num">{stats.defined}/{len(EXAMPLES)}</td><td class="num">{below}</td></tr>'
        ) in document
    # the empty summary: CHI 0 (formula="support": nothing checkable), its EHI undefined
    assert column_stats(column_values(records, ("chi", "chi"))).defined == len(EXAMPLES)
    empty = next(k for k, r in enumerate(records) if r["prediction"] == "")
    assert column_values(records, ("chi", "chi"))[empty] == 0.0
    assert math.isnan(column_values(records, ("chi", "ehi"))[empty])
    assert "metric:chi|" in document  # the signature, from the run's summary file


def test_sorting_by_clicking_a_header_in_chromium(report, chromium_browser, tmp_path):
    records, _, page_path = report
    chi = column_values(records, ("chi", "chi"))
    lines = [r["line"] for r in records]
    ascending = sorted(range(len(records)), key=lambda k: (math.isnan(chi[k]), chi[k] if chi[k] == chi[k] else 0))
    descending = sorted(range(len(records)), key=lambda k: (math.isnan(chi[k]), -chi[k] if chi[k] == chi[k] else 0))
    assert [lines[k] for k in ascending] != lines  # so that sorting visibly changes the order

    page = chromium_browser.new_page(viewport={"width": 1200, "height": 1600})
    try:
        page.goto(page_path.as_uri())
        order = "rows => rows.map(row => Number(row.dataset.position))"
        assert page.eval_on_selector_all("#examples tbody tr", order) == lines
        page.click("#examples th:text-is('chi')")
        assert page.eval_on_selector_all("#examples tbody tr", order) == [lines[k] for k in ascending]
        assert page.get_attribute("#examples th:text-is('chi')", "aria-sort") == "ascending"
        page.click("#examples th:text-is('chi')")
        assert page.eval_on_selector_all("#examples tbody tr", order) == [lines[k] for k in descending]
        screenshot = tmp_path / "report.png"
        page.screenshot(path=str(screenshot), full_page=True)
    finally:
        page.close()
    data = screenshot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000


# -- agreement with labels, units per dimension, sampling, filter and pages ----------------------


def test_roc_auc_and_best_threshold_by_hand():
    # undefined counts as consistent (+inf). Positives 0.9, inf, 0.5; negatives 0.8, 0.3: of the six
    # (positive, negative) pairs only 0.5 < 0.8 is ordered wrongly -> AUC 5/6
    scores, labels = [0.9, 0.8, 0.3, math.nan, 0.5], [1, 0, 0, 1, 1]
    assert roc_auc(scores, labels) == pytest.approx(5 / 6)
    # balanced accuracy per threshold: 0.3 -> (1 + 0)/2, 0.5 -> (1 + 1/2)/2, 0.8 -> (2/3 + 1/2)/2,
    # 0.9 -> (2/3 + 1)/2 = 5/6 (the best), inf -> (1/3 + 1)/2
    result = agreement(scores, labels)
    assert (result.threshold, result.tp, result.fn, result.fp, result.tn) == (0.9, 2, 1, 0, 2)
    assert result.balanced_accuracy == pytest.approx(5 / 6)
    assert (result.n, result.positives, result.undefined) == (5, 3, 1)
    assert roc_auc([0.5, 0.5], [1, 0]) == 0.5  # a tie counts half
    assert math.isnan(roc_auc([0.1, 0.2], [1, 1]))  # one class only
    # equally good thresholds: 0.5 -> (2/2 + 1/2)/2 and 0.9 -> (1/2 + 2/2)/2; the lowest wins
    tied = agreement([0.1, 0.5, 0.5, 0.9], [0, 0, 1, 1])
    assert (tied.threshold, tied.balanced_accuracy, tied.tp, tied.fp) == (0.5, 0.75, 2, 1)
    assert tied.auc == pytest.approx((1 + 1 + 0.5 + 1) / 4)  # (0.5 vs 0.1), (0.9 vs both), (0.5 vs 0.5): half


@pytest.mark.parametrize(
    "value, label",
    [
        (1, 1),
        (0, 0),
        (True, 1),
        (False, 0),
        ("1", 1),
        (" 0 ", 0),
        ("true", 1),
        (1.0, 1),
        (0.0, 0),
        (2, None),
        ("yes", None),
        (0.5, None),
        (None, None),
        ([1], None),
    ],
)
def test_binary_labels(value, label):
    assert binary_label(value) == label


def test_dimension_breakdown_by_hand():
    def unit(status):
        return {"text": "x", "status": status, "start": 0, "end": 1}

    records = [
        {
            "details": {
                "chi": {
                    "ehi": {"units": [unit("supported"), unit("unsupported")]},
                    "rhi": {"units": []},
                    "qhi": {"units": [unit("contradicted")]},
                }
            }
        },
        {
            "details": {
                "chi": {"ehi": {"units": [unit("supported")]}, "rhi": {"units": [unit("supported")]}, "qhi": None}
            }
        },
        {"details": {"qhi": {"qhi": {"units": [unit("unsupported"), unit("supported")]}}}},
    ]
    rows = {row.dimension: row for row in dimension_breakdown(records)}
    assert [
        (r.examples, r.units, r.supported, r.unsupported, r.contradicted, r.flagged)
        for r in (rows["ehi"], rows["rhi"], rows["qhi"])
    ] == [(2, 3, 2, 1, 0, 1), (1, 1, 1, 0, 0, 0), (2, 3, 1, 1, 1, 2)]


def test_shown_indices_are_an_even_sample():
    assert shown_indices(4, 10) == [0, 1, 2, 3]
    assert shown_indices(10, 4) == [0, 2, 5, 7]


def test_agreement_table_confusion_and_dimensions(report):
    records, document, _ = report
    assert [r["fields"] for r in records] == [{"label": label} for label in LABELS]
    assert (
        "<p>Labels from the field <code>label</code> (1 = consistent): 5 labelled examples, 3 consistent and 2 "
        "inconsistent.</p>"
    ) in document
    for column, label in ((("chi", "chi"), "chi"), (("chi", "qhi"), "chi.qhi")):
        result = agreement(column_values(records, column), LABELS)
        threshold = "+inf" if math.isinf(result.threshold) else f"{result.threshold:.4f}"
        assert (
            f'<tr><td>{label}</td><td class="num">{result.auc:.4f}</td><td class="num">'
            f'{result.balanced_accuracy:.4f}</td><td class="num">{threshold}</td><td class="num">{result.tp}</td>'
            f'<td class="num">{result.fn}</td><td class="num">{result.fp}</td><td class="num">{result.tn}</td>'
            f'<td class="num">{result.undefined}</td></tr>'
        ) in document
        assert f'<table class="confusion" data-score="{label}"><caption>{label} &ge; {threshold}</caption>' in document
        assert (
            f'<tr><th>label 1</th><td class="num hit">{result.tp}</td><td class="num miss">{result.fn}</td></tr>'
        ) in document
    # the faithful summary (1) scores above the entity swap and the antonyms (0): CHI separates them
    chi = agreement(column_values(records, ("chi", "chi")), LABELS)
    assert chi.auc > 0.5
    for row in dimension_breakdown(records):
        assert (
            f'<tr><td>{row.dimension}</td><td class="num">{row.examples}/5</td><td class="num">{row.units}</td>'
            f'<td class="num">{row.supported}</td><td class="num">{row.unsupported}</td><td class="num">'
            f'{row.contradicted}</td><td class="num">{row.flagged}</td></tr>'
        ) in document
    assert [row.dimension for row in dimension_breakdown(records)] == ["ehi", "rhi", "qhi"]
    assert re.findall(r'<tr class="example" data-position="\d+" data-label="(\d)">', document) == [
        "1",
        "0",
        "1",
        "1",
        "0",
    ]


def test_no_labels_no_agreement(report):
    records, _, _ = report
    unlabelled = [{k: v for k, v in r.items() if k != "fields"} for r in records]
    for document in (build_report(unlabelled), build_report(records, label_field="")):  # '' reads no labels
        assert "Agreement with labels" not in document and 'id="label-filter"' not in document
        assert re.findall(r'data-chart="(\w+)"', document) == ["histogram"] * 5 + ["bars"]
    with pytest.raises(ValueError, match=r"^record 1 \(line 1\): the label field 'label' holds 0\.5, not a label"):
        build_report([dict(r, fields={"label": 0.5}) for r in records])


def test_long_files_show_an_even_sample_and_say_so(report):
    records, _, _ = report
    document = build_report(records, max_examples=2)
    assert re.findall(r'<tr class="example" data-position="(\d+)"', document) == ["1", "3"]
    assert (
        '<p class="note" id="sampled">This page shows 2 of the 5 examples, an even sample (about one in 2.5, '
        "the first included); the statistics, plots and agreement above use all of them. Write more with "
        "<code>--max-examples</code>.</p>"
    ) in document
    assert "5 labelled examples" in document  # the agreement still uses every record
    assert 'id="sampled"' not in build_report(records)


def test_sources_left_out_of_the_scores_file(report):
    records, _, _ = report
    document = build_report([{k: v for k, v in r.items() if k != "source"} for r in records])
    assert document.count("source not in the scores file (--no-sources-in-output)") == 5
    assert "<summary>source</summary>" not in document


def test_filter_label_menu_and_pages_in_chromium(report, chromium_browser):
    records, _, page_path = report
    lines = [r["line"] for r in records]
    page = chromium_browser.new_page(viewport={"width": 1200, "height": 1600})
    visible = "rows => rows.filter(row => !row.hidden).map(row => Number(row.dataset.position))"
    try:
        page.goto(page_path.with_name("paged.html").as_uri())
        assert page.eval_on_selector_all("#examples tbody tr", visible) == lines[:2]
        assert page.inner_text("#page-info") == "page 1 of 3 (5 of 5 examples match)"
        assert page.is_disabled("#page-previous") and not page.is_disabled("#page-next")
        page.click("#page-next")
        assert page.eval_on_selector_all("#examples tbody tr", visible) == lines[2:4]
        page.click("#page-next")
        assert page.eval_on_selector_all("#examples tbody tr", visible) == lines[4:]
        assert page.is_disabled("#page-next")
        # the label menu: the two inconsistent examples, one page
        page.select_option("#label-filter", "0")
        assert page.eval_on_selector_all("#examples tbody tr", visible) == [
            line for line, label in zip(lines, LABELS, strict=True) if label == 0
        ]
        assert page.inner_text("#page-info") == "page 1 of 1 (2 of 5 examples match)"
        page.select_option("#label-filter", "")
        # the filter box searches every text of a row, the source included (case-insensitive)
        page.fill("#filter", "macron")
        assert page.eval_on_selector_all("#examples tbody tr", visible) == [lines[1]]
        page.fill("#filter", "angela merkel")  # only in the entity-swap's source
        assert page.eval_on_selector_all("#examples tbody tr", visible) == [lines[1]]
        page.fill("#filter", "")
        # sorting by label goes back to the first page: 0, 0 first
        page.click("#examples th:text-is('label')")
        assert page.eval_on_selector_all("#examples tbody tr", visible) == [
            line for line, label in zip(lines, LABELS, strict=True) if label == 0
        ]
        assert page.is_visible("#agreement") and page.is_visible(".confusion")
        page.screenshot(path=str(page_path.with_name("paged.png")), full_page=True)
    finally:
        page.close()
    assert page_path.with_name("paged.png").read_bytes().startswith(b"\x89PNG")


def test_charts_render_in_chromium_and_script_in_any_field_stays_text(report, chromium_browser, tmp_path):
    records, _, page_path = report
    # a scores file whose id and label field carry markup: it must show as text (a score's
    # name cannot: a name its metric does not return is refused, see below)
    evil = "<script>window.__evil = 1; alert(1)</script>"
    crafted = [dict(record, id=evil, fields={evil: record["fields"]["label"]}) for record in records]
    crafted_page = tmp_path / "crafted.html"
    crafted_page.write_text(build_report(crafted, title=evil, label_field=evil), encoding="utf-8")
    dialogs = []
    page = chromium_browser.new_page(viewport={"width": 1200, "height": 1600})
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        for path in (page_path, crafted_page):
            page.goto(path.as_uri())
            boxes = page.eval_on_selector_all(
                "svg.hs-chart",
                "charts => charts.map(c => [c.dataset.chart, c.getBoundingClientRect().width, "
                "c.getBoundingClientRect().height, c.querySelectorAll('polyline, circle, rect').length])",
            )
            assert [b[0] for b in boxes][-2:] == ["roc", "reliability"]
            assert all(width > 300 and height > 200 and marks > 1 for _, width, height, marks in boxes), boxes
        assert page.evaluate("window.__evil") is None and dialogs == []
        assert page.title() == evil  # the title shown as text
        assert page.locator("p", has_text="Labels from the field <script>window.__evil").count() == 1
        assert page.locator("#examples td", has_text="window.__evil").count() == len(records)
    finally:
        page.close()


# -- the report never shows a meaningless number (issue 57) --------------------------------------


def _write_records(path, records):
    """A scores file as `halluscope score` writes it, but with whatever the records hold
    (``Infinity`` and ``NaN`` written as JSON's extension spells them)."""
    path.write_text("".join(json.dumps(record, allow_nan=True) + "\n" for record in records), encoding="utf-8")
    return str(path)


def _report(scores, page, capsys, *arguments):
    """(exit code, stderr) of `halluscope report` on ``scores``."""
    code = main(["report", "--input", str(scores), "--output", str(page), *arguments])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    "metric, name, value, problem",
    [
        ("chi", "chi", 1.5, "scores.chi.chi is 1.5, outside its range [0, 1]"),
        ("chi", "ehi", -3.0, "scores.chi.ehi is -3.0, outside its range [0, 1]"),
        ("chi", "rhi", 1.25, "scores.chi.rhi is 1.25, outside its range [0, 1]"),  # CHI fuses RHI*, not the linear RHI
        ("chi", "p_consistent", 1.0000001, "scores.chi.p_consistent is 1.0000001, outside its range [0, 1]"),
        ("chi", "chi", 10**400, f"scores.chi.chi is {str(10**400)[:40]}, outside its range [0, 1]"),
        (
            "chi",
            "qhi",
            math.inf,
            "scores.chi.qhi is Infinity, not a score (a number in [0, 1], or null when undefined)",
        ),
        (
            "chi",
            "chi",
            -math.inf,
            "scores.chi.chi is -Infinity, not a score (a number in [0, 1], or null when undefined)",
        ),
        ("chi", "chi", "0.5", 'scores.chi.chi must be a number or null, got "0.5"'),
        ("chi", "chi", True, "scores.chi.chi must be a number or null, got true"),
        ("chi", "bleu", 0.5, "scores.chi.bleu: not a score of chi (its scores: chi, ehi, rhi, qhi, p_consistent)"),
        ("bleu", "bleu", 0.5, "scores.bleu: not a metric of halluscope (chi, ehi, rhi, qhi, dlsd_acu)"),
        ("rhi", "rhi", 2.5, "scores.rhi.rhi is 2.5, outside its range [0, 2]"),  # the widest: no summary
        ("rhi", "rhi_norm", 1.5, "scores.rhi.rhi_norm is 1.5, outside its range [0, 1]"),
        ("dlsd_acu", "dlsd_acu", -1.5, "scores.dlsd_acu.dlsd_acu is -1.5, outside its range [-1, 1]"),
    ],
)
def test_a_score_that_is_no_score_is_refused_naming_its_line(metric, name, value, problem, report, tmp_path, capsys):
    records, _, _ = report
    edited = json.loads(json.dumps(records))
    edited[2]["scores"].setdefault(metric, {})[name] = value
    scores, page = _write_records(tmp_path / "scores.jsonl", edited), tmp_path / "report.html"
    assert _report(scores, page, capsys) == (2, f"error: {scores} line 3: {problem}\n")
    assert not page.exists()
    with pytest.raises(ValueError, match=re.escape(f"record 3 (line 3): {problem}")):
        build_report(edited)  # the Python API refuses them too


def test_nan_is_an_undefined_score(report, tmp_path, capsys):
    records, _, _ = report
    edited = json.loads(json.dumps(records))
    edited[0]["scores"]["chi"]["chi"] = math.nan  # NaN, as Python's json writes it: undefined, as null
    scores, page = _write_records(tmp_path / "scores.jsonl", edited), tmp_path / "report.html"
    assert _report(scores, page, capsys) == (0, "")
    stats = column_stats([math.nan] + column_values(records, ("chi", "chi"))[1:])
    assert (stats.defined, stats.total) == (4, 5)
    assert (
        f'<tr><td>chi</td><td class="num">{stats.mean:.4f}</td><td class="num">{stats.median:.4f}</td>'
        '<td class="num">4/5</td>'
    ) in page.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def rhi_paper(tmp_path_factory):
    """The examples scored by the rhi metric under the paper preset (the linear RHI in
    [0, 2]): the scores file, its summary, and the summary a support run writes."""
    folder = tmp_path_factory.mktemp("rhi")
    data = folder / "data.jsonl"
    data.write_text("".join(json.dumps(e) + "\n" for e in EXAMPLES), encoding="utf-8")
    scores, support = folder / "scores.jsonl", folder / "support.jsonl"
    for output, preset in ((scores, ["--preset", "paper"]), (support, [])):
        assert (
            main(
                [
                    "score",
                    "--input",
                    str(data),
                    "--output",
                    str(output),
                    "--metrics",
                    "rhi",
                    "--reference-field",
                    "reference",
                    "--no-progress",
                    *preset,
                ]
            )
            == 0
        )
    return {
        "scores": scores,
        "summary": folder / "scores.summary.json",
        "support_summary": folder / "support.summary.json",
        "records": load_records(str(scores)),
    }


def test_the_linear_rhi_is_checked_against_the_range_its_summary_gives(rhi_paper, tmp_path, capsys):
    values = column_values(rhi_paper["records"], ("rhi", "rhi"))
    above = next(k for k, value in enumerate(values) if value > 1)  # [0, 1] would refuse this run
    page = tmp_path / "report.html"
    assert _report(rhi_paper["scores"], page, capsys) == (0, "")  # its summary, beside it: formula:paper
    # the rhi chart spans [0, 2]: ticks 0, 1, 2
    chart = re.search(
        r'<svg class="hs-chart"[^>]*aria-label="rhi" data-chart="histogram">.*?</svg>', page.read_text(encoding="utf-8")
    ).group(0)
    assert re.findall(r'text-anchor="middle">([\d.]+)</text>', chart) == ["0", "1", "2"]
    # the same file against the summary of a support run: [0, 1]
    code, err = _report(rhi_paper["scores"], page, capsys, "--summary", str(rhi_paper["support_summary"]))
    assert (code, err) == (
        2,
        f"error: {rhi_paper['scores']} line {above + 1}: scores.rhi.rhi is "
        f"{json.dumps(values[above])}, outside its range [0, 1]\n",
    )
    # without a summary the formula is not known: the widest range, [0, 2]
    alone = tmp_path / "alone.jsonl"
    alone.write_bytes(rhi_paper["scores"].read_bytes())
    assert _report(alone, page, capsys) == (0, "")


def test_a_named_label_field_no_record_has_is_refused(report, tmp_path, capsys):
    records, _, _ = report
    scores, page = _write_records(tmp_path / "scores.jsonl", records), tmp_path / "report.html"
    assert _report(scores, page, capsys, "--label-field", "verdict") == (
        2,
        f"error: --label-field verdict: no record of {scores} has this field (fields.verdict or a top-level "
        "verdict); the records' kept fields: label\n",
    )
    nulls = _write_records(tmp_path / "nulls.jsonl", [dict(r, fields={"verdict": None}) for r in records])
    assert _report(nulls, page, capsys, "--label-field", "verdict") == (
        2,
        f"error: --label-field verdict: the field is null or empty in every record of {nulls}: no labels to "
        "compare with\n",
    )
    assert not page.exists()
    # the default field absent: no agreement view, as without labels
    unlabelled = _write_records(
        tmp_path / "unlabelled.jsonl", [{k: v for k, v in r.items() if k != "fields"} for r in records]
    )
    assert _report(unlabelled, page, capsys) == (0, "")
    assert "Agreement with labels" not in page.read_text(encoding="utf-8")
    # a top-level field counts, and --label-field '' reads none
    top = _write_records(tmp_path / "top.jsonl", [dict(r, verdict=r["fields"]["label"]) for r in records])
    assert _report(top, page, capsys, "--label-field", "verdict") == (0, "")
    assert "Labels from the field <code>verdict</code> (1 = consistent): 5 labelled" in page.read_text("utf-8")
    assert _report(scores, page, capsys, "--label-field", "") == (0, "")
    assert "Agreement with labels" not in page.read_text(encoding="utf-8")


ACCEPTED_LABELS = [
    (1, 1),
    (0, 0),
    (True, 1),
    (False, 0),
    (1.0, 1),
    (0.0, 0),
    ("1", 1),
    ("0", 0),
    (" TRUE ", 1),
    ("false", 0),
    ("1.0", 1),
    ("0.0", 0),
]


def test_every_documented_label_form_is_read(report, tmp_path, capsys):
    records, _, _ = report
    rows = [dict(records[k % len(records)], fields={"label": value}) for k, (value, _) in enumerate(ACCEPTED_LABELS)]
    rows += [
        dict(records[0], fields={"label": None}),
        dict(records[1], fields={"label": " "}),
        dict(records[2], fields={}),
    ]  # no label: null, blank text, absent
    scores, page = _write_records(tmp_path / "scores.jsonl", rows), tmp_path / "report.html"
    assert _report(scores, page, capsys) == (0, "")
    positives = sum(label for _, label in ACCEPTED_LABELS)
    assert (
        f"{len(ACCEPTED_LABELS)} labelled examples, {positives} consistent and "
        f"{len(ACCEPTED_LABELS) - positives} inconsistent; 3 without a label.</p>"
    ) in page.read_text("utf-8")
    assert [binary_label(value) for value, _ in ACCEPTED_LABELS] == [label for _, label in ACCEPTED_LABELS]


@pytest.mark.parametrize(
    "value, shown",
    [
        ("yes", '"yes"'),
        (2, "2"),
        (0.5, "0.5"),
        (-1, "-1"),
        ([1], "[1]"),
        ({"label": 1}, '{"label": 1}'),
        ("10", '"10"'),
    ],
)
def test_a_label_that_is_no_label_is_refused_naming_its_line(value, shown, report, tmp_path, capsys):
    records, _, _ = report
    rows = [dict(r, fields={"label": value if k == 1 else r["fields"]["label"]}) for k, r in enumerate(records)]
    scores, page = _write_records(tmp_path / "scores.jsonl", rows), tmp_path / "report.html"
    assert _report(scores, page, capsys) == (
        2,
        f"error: {scores} line 2: the label field 'label' holds {shown}, not a label (0/1, 0.0/1.0, true/false, "
        'or those as text ("0"/"1", "0.0"/"1.0", "true"/"false", any case); null or "": no label); pass '
        "--label-field with the field that holds 0/1 labels, or --label-field '' for a report without the "
        "agreement view\n",
    )
    assert not page.exists()


def test_one_label_class_leaves_auc_and_balanced_accuracy_undefined(report):
    records, _, _ = report
    result = agreement([0.2, 0.9, math.nan], [1, 1, 1])
    assert math.isnan(result.auc) and math.isnan(result.balanced_accuracy) and math.isnan(result.threshold)
    assert (result.n, result.positives, result.undefined, result.tp, result.fn, result.fp, result.tn) == (
        3,
        3,
        1,
        0,
        0,
        0,
        0,
    )
    assert result.undefined_because == (
        "every labelled example is consistent (label 1); ROC-AUC and balanced accuracy need examples of both classes"
    )
    assert agreement([0.2], [0]).undefined_because.startswith("every labelled example is inconsistent (label 0)")
    assert agreement([0.2, 0.9], [1, 0]).undefined_because is None
    for label, present in ((1, "consistent (label 1)"), (0, "inconsistent (label 0)")):
        document = build_report([dict(r, fields={"label": label}) for r in records])
        rows = re.search(r'<table id="agreement">.*?</table>', document, re.S).group(0)
        assert rows.count('<td class="num">undefined</td>') == 3 * 5  # AUC, BA, threshold of 5 scores
        assert "nan" not in rows and "1.0000" not in rows
        assert (
            f'<p class="note" id="agreement-undefined">ROC-AUC, balanced accuracy and the best threshold are '
            f"undefined: every labelled example is {present}; ROC-AUC and balanced accuracy need examples of "
            "both classes.</p>"
        ) in document
        assert 'class="confusion"' not in document and 'data-chart="roc"' not in document
