"""Highlight spans read from details, and their HTML (hand-built details)."""
from halluscope.highlight import (Highlight, acu_evidence_highlights, render_html,
                                  source_highlights, summary_highlights, unsupported_units)

ROW = {
    "ehi": {"units": [
        {"text": "Apple", "span": [0, 5], "status": "supported",
         "in_source": {"detail": "exact apple", "evidence": [{"text": "Apple", "span": [4, 9]}]}},
    ]},
    "rhi": {"units": [
        {"text": "Apple bought Beats", "span": [0, 18], "status": "unsupported", "in_source": None},
    ]},
    "qhi": None,
}


def test_summary_and_source_spans():
    summary = summary_highlights(ROW)
    assert [(m.start, m.end, m.dimension, m.status) for m in summary] == [
        (0, 5, "ehi", "supported"), (0, 18, "rhi", "unsupported")]
    source = source_highlights(ROW)
    assert [(m.start, m.end, m.dimension, m.status) for m in source] == [(4, 9, "ehi", "evidence")]
    assert unsupported_units(ROW) == {"ehi": [], "rhi": ["Apple bought Beats"]}


def test_overlaps_cut_into_pieces_and_unsupported_wins():
    html = render_html("Apple bought Beats <now>", summary_highlights(ROW))
    # "Apple" is covered by both marks, " bought Beats" only by rhi, the tail by none
    assert html.count("<mark") == 2
    assert '<mark class="hs-span hs-unsupported hs-ehi hs-rhi"' in html
    assert '<mark class="hs-span hs-unsupported hs-rhi"' in html
    assert html.endswith(" &lt;now&gt;</div>")


def test_out_of_range_span_is_clipped_and_text_kept():
    html = render_html("ab", [Highlight(1, 10, "ehi", "supported")])
    assert html == '<div class="hs-text">a<mark class="hs-span hs-supported hs-ehi" title="">b</mark></div>'


def test_acu_evidence_only_on_the_unrewritten_document():
    unit = {"text": "x", "score": 0.9, "evidence": {"char_span": [3, 7]}}
    assert [(m.start, m.end) for m in acu_evidence_highlights({"units": [unit]})] == [(3, 7)]
    assert acu_evidence_highlights({"units": [unit], "document_resolved": "rewritten"}) == []


def test_a_unit_stated_elsewhere_says_so_in_its_note():
    row = {"ehi": {"units": [
        {"text": "Derby", "span": [17, 22], "status": "supported", "attribution": 2 / 3},
        {"text": "Bueno", "span": [0, 5], "status": "supported", "attribution": 1.0},
    ]}}
    assert [m.note for m in summary_highlights(row)] == [
        "ehi: supported (Bueno)",
        "ehi: supported (Derby), attribution 0.67: stated elsewhere in the source"]
