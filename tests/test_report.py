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
from halluscope.report import column_stats, column_values, highlight_details, load_records

EXAMPLES = [
    {"id": "faithful <id&1>",
     "source": "Microsoft acquired the startup GitHub in 2018. The deal was worth $7.5 billion.",
     "reference": "Microsoft acquired GitHub for $7.5 billion in 2018.",
     "prediction": "Microsoft acquired GitHub for $7.5 billion in 2018."},
    {"id": "entity-swap",
     "source": "Barack Obama met Angela Merkel in Berlin on Tuesday to discuss the World Health "
               "Organization's budget.",
     "reference": 'Obama & Merkel met in "Berlin" <on Tuesday>.',
     "prediction": "Barack Obama and Emmanuel Macron discussed the budget in Paris."},
    {"id": "markup", "source": "AT&T said profits rose 5% in 2023.", "reference": "",
     "prediction": 'AT&T <script>alert(1)</script> said "profits rose 5%".'},
    {"id": "empty", "source": "Sales rose 12% to $4.2 billion in 2023.", "reference": "", "prediction": ""},
    {"id": "antonym", "source": "Acme Corp sold the factory to Globex in March. Its shares rose 5% on Monday.",
     "reference": "Acme Corp sold the factory in March.",
     "prediction": "Acme Corp bought the factory from Globex in March. Its shares fell 5% on Monday."},
]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """(records, HTML text, report path) for the examples scored with chi."""
    folder = tmp_path_factory.mktemp("report")
    data = folder / "data.jsonl"
    data.write_text("".join(json.dumps(e) + "\n" for e in EXAMPLES), encoding="utf-8")
    scores, page = folder / "scores.jsonl", folder / "report.html"
    assert main(["score", "--input", str(data), "--output", str(scores), "--reference-field", "reference"]) == 0
    assert main(["report", "--input", str(scores), "--output", str(page)]) == 0
    return load_records(str(scores)), page.read_text(encoding="utf-8"), page


def test_report_is_self_contained(report):
    _, document, _ = report
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", document)
    assert "http://" not in document and "https://" not in document
    assert "<link" not in document and "<script src" not in document
    assert document.count('src="data:image/png;base64,') == 4  # one plot per score: chi, ehi, rhi, qhi


def test_one_row_per_example_with_escaped_texts(report):
    records, document, _ = report
    assert re.findall(r'<tr class="example" data-position="(\d+)">', document) == ["1", "2", "3", "4", "5"]
    assert html.escape("faithful <id&1>") in document
    assert html.escape('Obama & Merkel met in "Berlin" <on Tuesday>.') in document
    assert "<script>alert(1)" not in document and "&lt;script&gt;alert(1)&lt;/script&gt;" in document
    for record in records:
        assert render_html(record["prediction"], summary_highlights(highlight_details(record))) in document


def test_unsupported_units_are_marked(report):
    records, document, _ = report
    assert re.search(r'<mark class="hs-span hs-unsupported[^"]*hs-ehi[^"]*" title="[^"]*'
                     r'ehi: unsupported \(Emmanuel Macron\)[^"]*">Emmanuel Macron</mark>', document)
    assert re.search(r'<mark class="hs-span hs-unsupported[^"]*" title="[^"]*ehi: unsupported \(Paris\)', document)
    assert 'unsupported: ehi: Emmanuel Macron, Paris' in document
    assert document.count('<span class="badge">reference-free</span>') == 2  # reference "" in two rows


def test_contradicted_units_and_words_are_marked(report):
    from halluscope.lexical import get_lexicon

    if not get_lexicon().available:
        pytest.skip("WordNet 3.0 is not installed (apt-get install wordnet-base wordnet-sense-index)")
    records, document, _ = report
    row = next(r for r in records if r["id"] == "antonym")
    assert [u["status"] for u in row["details"]["chi"]["rhi"]["units"]] == ["contradicted"]
    assert re.search(r'<mark class="hs-span hs-contradicted[^"]*hs-rhi[^"]*" title="[^"]*'
                     r'rhi: contradicted \(Acme Corp bought the factory\)"> bought the factory</mark>', document)
    assert re.search(r'<mark class="hs-span hs-contradicting[^"]*hs-rhi[^"]*" title="[^"]*rhi contradicts '
                     r'&#x27;Acme Corp bought the factory&#x27;[^"]*buy ≠ sell \(WordNet antonym\)"> sold the factory'
                     r'</mark>', document)
    assert '<div class="contradicted">contradicted: rhi: Acme Corp bought the factory</div>' in document
    assert '<div class="contradicted">contradicted words: bought, fell</div>' in document
    assert '<mark class="hs-span hs-contradicted">contradicted</mark>' in document  # the legend


def test_statistics_table(report):
    records, document, _ = report
    for metric_score, label in ((("chi", "chi"), "chi"), (("chi", "ehi"), "chi.ehi")):
        stats = column_stats(column_values(records, metric_score))
        below = f"{100 * stats.share_below_cut:.1f}%"
        assert (f'<tr><td>{label}</td><td class="num">{stats.mean:.4f}</td><td class="num">{stats.median:.4f}</td>'
                f'<td class="num">{stats.defined}/{len(EXAMPLES)}</td><td class="num">{below}</td></tr>') in document
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
        order = 'rows => rows.map(row => Number(row.dataset.position))'
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
