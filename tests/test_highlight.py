"""Highlight spans read from details, and their HTML (hand-built details)."""

from halluscope.highlight import (
    CSS,
    STATUSES,
    Highlight,
    acu_evidence_highlights,
    contradicted_units,
    render_html,
    source_highlights,
    summary_highlights,
    unsupported_units,
)

ROW = {
    "ehi": {
        "units": [
            {
                "text": "Apple",
                "span": [0, 5],
                "status": "supported",
                "in_source": {"detail": "exact apple", "evidence": [{"text": "Apple", "span": [4, 9]}]},
            },
        ]
    },
    "rhi": {
        "units": [
            {"text": "Apple bought Beats", "span": [0, 18], "status": "unsupported", "in_source": None},
        ]
    },
    "qhi": None,
}


def test_summary_and_source_spans():
    summary = summary_highlights(ROW)
    assert [(m.start, m.end, m.dimension, m.status) for m in summary] == [
        (0, 5, "ehi", "supported"),
        (0, 18, "rhi", "unsupported"),
    ]
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
    row = {
        "ehi": {
            "units": [
                {"text": "Derby", "span": [17, 22], "status": "supported", "attribution": 2 / 3},
                {"text": "Bueno", "span": [0, 5], "status": "supported", "attribution": 1.0},
            ]
        }
    }
    assert [m.note for m in summary_highlights(row)] == [
        "ehi: supported (Bueno)",
        "ehi: supported (Derby), attribution 0.67: stated elsewhere in the source",
    ]


#: a triple whose verb is the antonym of the source's (status "contradicted"): its
#: in_source match points at the contradicting source sentence
CONTRADICTED = {
    "ehi": {
        "units": [
            {
                "text": "Acme",
                "span": [0, 4],
                "status": "supported",
                "in_source": {"detail": "exact acme", "evidence": [{"text": "Acme", "span": [0, 4]}]},
            },
        ]
    },
    "rhi": {
        "units": [
            {
                "text": "Acme bought the plant",
                "span": [0, 21],
                "status": "contradicted",
                "in_source": {
                    "detail": "subject 1.00, object 1.00; buy ≠ sell (WordNet antonym)",
                    "evidence": [{"text": "Acme sold the plant", "span": [0, 19]}],
                },
            },
            {"text": "Acme closed", "span": [23, 34], "status": "unsupported", "in_source": None},
        ]
    },
}


def test_a_contradicted_unit_is_marked_apart_from_unsupported_ones():
    summary = summary_highlights(CONTRADICTED)
    assert [(m.start, m.end, m.dimension, m.status, m.note) for m in summary] == [
        (0, 4, "ehi", "supported", "ehi: supported (Acme)"),
        (0, 21, "rhi", "contradicted", "rhi: contradicted (Acme bought the plant)"),
        (23, 34, "rhi", "unsupported", "rhi: unsupported (Acme closed)"),
    ]
    html = render_html("Acme bought the plant; Acme closed.", summary)
    # contradicted wins over supported on "Acme", and keeps its own colour next to unsupported
    assert (
        '<mark class="hs-span hs-contradicted hs-ehi hs-rhi" title="ehi: supported (Acme); '
        'rhi: contradicted (Acme bought the plant)">Acme</mark>'
    ) in html
    assert (
        '<mark class="hs-span hs-contradicted hs-rhi" title="rhi: contradicted (Acme bought the plant)">'
        " bought the plant</mark>" in html
    )
    assert (
        '<mark class="hs-span hs-unsupported hs-rhi" title="rhi: unsupported (Acme closed)">Acme closed</mark>' in html
    )
    assert unsupported_units(CONTRADICTED) == {"ehi": [], "rhi": ["Acme closed"]}
    assert contradicted_units(CONTRADICTED) == {"ehi": [], "rhi": ["Acme bought the plant"]}
    assert ".hs-contradicted {" in CSS and ".hs-contradicting {" in CSS
    assert STATUSES[0] == "contradicted"


def test_the_source_text_that_contradicts_a_unit_is_not_drawn_as_evidence():
    source = source_highlights(CONTRADICTED)
    assert [(m.start, m.end, m.dimension, m.status) for m in source] == [
        (0, 4, "ehi", "evidence"),
        (0, 19, "rhi", "contradicting"),
    ]
    assert source[1].note == (
        "rhi contradicts 'Acme bought the plant': subject 1.00, object 1.00; buy ≠ sell (WordNet antonym)"
    )
    html = render_html("Acme sold the plant.", source)
    assert html.startswith('<div class="hs-text"><mark class="hs-span hs-contradicting hs-ehi hs-rhi"')
    assert "hs-evidence" not in html  # the contradicting mark covers all of "Acme"
