"""The Space and a metric app in a real browser (headless Chromium via Playwright):
fill the boxes, press Score, read the scores and the highlighted panels."""

import contextlib
import os
import re
import socket

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import pytest  # noqa: E402
from halluscope.examples import load_examples  # noqa: E402
from halluscope.space.display import SCORE_COLUMNS  # noqa: E402

EXAMPLE = {example["id"]: example for example in load_examples()}["entity-swap"]
#: first scoring in a fresh process loads spaCy and MiniLM; later ones take about a second
SCORE_TIMEOUT_MS = 90_000
SCORE_NUMBER = re.compile(r"CHI \*?\*?0\.\d{4}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def _serving(app):
    """``app`` launched on a free localhost port in this process; yields its URL."""
    port = _free_port()
    app.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=port, quiet=True)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        app.close()


@pytest.fixture
def page(chromium_browser):
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 1600})
    browser_page = context.new_page()
    yield browser_page
    context.close()


def _marked(page, selector):
    return page.locator(selector).all_inner_texts()


#: per header cell of a table: its text, the width of its longest word in the cell's own
#: font (canvas measureText), the cell's content width (without padding) and its number of
#: text lines (one client rect per line box)
HEADER_WIDTHS_JS = """table => {
  const context = document.createElement('canvas').getContext('2d');
  return [...table.querySelectorAll('thead th')].map(cell => {
    const style = getComputedStyle(cell);
    context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const words = cell.textContent.trim().split(/\\s+/);
    const range = document.createRange();
    range.selectNodeContents(cell);
    return {header: cell.textContent.trim(),
            word: Math.max(...words.map(word => context.measureText(word).width)),
            content: cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
            lines: range.getClientRects().length};
  });
}"""

#: whether any cell of a table, or the table itself, is wider than the room it is shown in
OVERFLOW_JS = """wrap => ({
  wrap: wrap.scrollWidth - wrap.clientWidth,
  cells: Math.max(...[...wrap.querySelectorAll('td')].map(cell => cell.scrollWidth - cell.clientWidth)),
  right: wrap.querySelector('table').getBoundingClientRect().right - wrap.getBoundingClientRect().right,
})"""


def _assert_readable_table(page, selector, headers):
    """Every header on one line and no narrower than its longest word; no cell and no part
    of the table cut off or scrolled out of view."""
    cells = page.locator(f"{selector} table").evaluate(HEADER_WIDTHS_JS)
    assert [cell["header"] for cell in cells] == list(headers)
    for cell in cells:
        assert cell["word"] > 0 and cell["word"] <= cell["content"] + 0.5, cell
        assert cell["lines"] == 1, cell
    overflow = page.locator(f"{selector} .hs-table-wrap").evaluate(OVERFLOW_JS)
    assert max(overflow.values()) <= 0.5, overflow


def test_space_scores_and_highlights_in_the_browser(page, tmp_path, monkeypatch):
    from halluscope.space.app import build_space

    monkeypatch.delenv("HALLUSCOPE_NLI_MODEL", raising=False)
    monkeypatch.delenv("HALLUSCOPE_SPACE_NLI_MODELS", raising=False)
    with _serving(build_space()) as url:
        page.goto(url)
        page.locator("#hs-source textarea").fill(EXAMPLE["source"])
        page.locator("#hs-reference textarea").fill(EXAMPLE["reference"])
        page.locator("#hs-summary textarea").fill(EXAMPLE["prediction"])
        page.locator("#hs-score").click()
        page.locator("#hs-summary-html mark.hs-unsupported").first.wait_for(timeout=SCORE_TIMEOUT_MS)

        headline = page.locator("#hs-headline").inner_text()
        # default formula="support": 1 of the 4 entities is in the source; no relation or quantity;
        # w = (3/7 + 3/8) / 2 (test_space.py): CHI = 0.99 x 0.25 + 0.01 x w x (0.9 + 0.1 x 0.25)
        assert headline.startswith("EHI 0.2500 · RHI undefined · QHI undefined · CHI 0.2512 · p(consistent) 0.")
        assert "0.2500" in page.locator("#hs-scores").inner_text()
        assert page.locator("#hs-status").inner_text() == "Scored."
        # the notes say which texts lack units: the source has relations and quantities
        notes = page.locator("#hs-scores tbody tr td:last-child").all_inner_texts()
        assert notes[:3] == [
            "entities (CHI paper eq. 2-7)",
            "undefined: no relations in the summary (3 in the source, 1 in the reference)",
            "undefined: no quantities in the summary or the reference (2 in the source)",
        ]
        assert notes[3].startswith(
            "harmonic mean of the defined dimensions' supported shares (halluscope's support scores, "
            "not the papers' factor formulas), mixed with w = 40%"
        )
        _assert_readable_table(page, "#hs-scores", SCORE_COLUMNS)
        assert _marked(page, "#hs-summary-html mark.hs-unsupported") == ["Emmanuel Macron", "UNESCO", "Paris"]
        assert _marked(page, "#hs-summary-html mark.hs-supported") == ["Barack Obama"]
        assert _marked(page, "#hs-source-html mark.hs-evidence") == ["Barack Obama"]
        # the page CSS is applied: unsupported units are red
        colour = page.locator("#hs-summary-html mark.hs-unsupported").first.evaluate(
            "mark => getComputedStyle(mark).backgroundColor"
        )
        assert colour == "rgb(254, 202, 202)"

        shot = tmp_path / "space.png"
        page.screenshot(path=str(shot), full_page=True)
        data = shot.read_bytes()
        assert len(data) > 1000 and data.startswith(b"\x89PNG\r\n\x1a\n")

        # the dlsd_acu tab without an NLI model: a plain message inside the tab, below its
        # button, naming the model; nothing above the tabs, no bold, no traceback
        tab = page.get_by_role("tab", name="dlsd_acu (NLI model)")
        tab.click()
        page.locator("#hs-acu-score").click()
        status = page.locator("#hs-acu-status")
        status.filter(has_text="is not available").wait_for(timeout=SCORE_TIMEOUT_MS)
        assert status.inner_text() == (
            "The NLI model tals/albert-xlarge-vitaminc-mnli is not available in this app, so dlsd_acu cannot "
            "score here. The CHI-family metrics (chi, ehi, rhi, qhi) do not need it. To score with dlsd_acu, "
            "run halluscope on your own computer (see the dlsd_acu metric card)."
        )
        assert status.locator("strong, b").count() == 0
        assert status.evaluate("node => getComputedStyle(node.querySelector('p') || node).fontWeight") == "400"
        panel = page.get_by_role("tabpanel")
        assert panel.locator("#hs-acu-status").count() == 1
        assert status.bounding_box()["y"] > page.locator("#hs-acu-score").bounding_box()["y"] > tab.bounding_box()["y"]
        assert "Traceback" not in page.content()
        page.screenshot(path=str(tmp_path / "space-acu.png"), full_page=True)


def test_chi_app_example_click_fills_the_boxes_and_scores(page, repo_root):
    from halluscope.space.app import build_metric_app
    from playwright.sync_api import expect

    # as metrics/chi/app.py builds it: scoring through the folder's evaluate module
    with _serving(build_metric_app("chi", module_folder=os.path.join(repo_root, "metrics", "chi"))) as url:
        page.goto(url)
        page.get_by_text("entity-swap (hallucinated)", exact=True).click()
        expect(page.locator("#hs-summary textarea")).to_have_value(EXAMPLE["prediction"])
        expect(page.locator("#hs-source textarea")).to_have_value(EXAMPLE["source"])
        expect(page.locator("#hs-reference textarea")).to_have_value(EXAMPLE["reference"])
        page.locator("#hs-score").click()
        page.locator("#hs-summary-html mark.hs-unsupported").first.wait_for(timeout=SCORE_TIMEOUT_MS)
        assert SCORE_NUMBER.search(page.locator("#hs-headline").inner_text())
        assert _marked(page, "#hs-summary-html mark.hs-unsupported") == ["Emmanuel Macron", "UNESCO", "Paris"]
        _assert_readable_table(page, "#hs-scores", SCORE_COLUMNS)

        # an over-long summary: a message, and the boxes keep the text (nothing cut)
        long_summary = "word " * 700
        page.locator("#hs-summary textarea").fill(long_summary)
        page.locator("#hs-score").click()
        page.locator("#hs-status").filter(has_text="too long").wait_for(timeout=SCORE_TIMEOUT_MS)
        assert (
            page.locator("#hs-status")
            .inner_text()
            .startswith("The summary is too long: 3,500 characters, this app accepts at most 3,000.")
        )
        assert page.locator("#hs-summary textarea").input_value() == long_summary
