"""The reason for every flagged unit, in the details and in plain sight (issue 27 item 3):
a contradicted unit names the source text against it and the rule, an unsupported one
the nearest source unit and why it is not a match (Dimension.nearest)."""

from __future__ import annotations

import pytest
from halluscope import score_chi
from halluscope.dimensions import get as dimension
from halluscope.highlight import reasons_html, unit_reasons
from halluscope.units import EntityUnit, QuantityUnit, RelationUnit

SOURCE = "Acme Corp sold the factory to Globex in March. The deal was worth $400 million."
SUMMARY = "Acme Corp bought the factory from Globex in March. The deal was worth $800 million."


@pytest.fixture(scope="module")
def details():
    return score_chi([SUMMARY], [SOURCE], return_details=True)["details"][0]


def test_every_flagged_unit_has_its_reason(details):
    assert unit_reasons(details) == [
        (
            "rhi",
            "contradicted",
            "Acme Corp bought the factory",
            "the source says 'Acme Corp sold the factory': subject 1.00, object 1.00; buy ≠ sell (WordNet antonym)",
        ),
        # the aligned source sentence has another amount where the summary has this one
        (
            "qhi",
            "contradicted",
            "$800 million",
            "the source says '$400 million': the aligned source sentence has '$400 million' where the summary "
            "has '$800 million' (npadvmod of 'worth'); no source value matches the summary's",
        ),
    ]
    # said in no other amount's place: unsupported, with the nearest source amount
    elsewhere = score_chi(
        ["Acme Corp sold the factory to Globex in March for $800 million."], [SOURCE], return_details=True
    )["details"][0]
    assert unit_reasons(elsewhere) == [
        (
            "qhi",
            "unsupported",
            "$800 million",
            "nearest in the source: '$400 million', 50% apart, and no derivation of it is stated",
        )
    ]
    amount = next(u for u in elsewhere["qhi"]["units"] if u["text"] == "$800 million")
    assert amount["nearest_in_source"] == {
        "text": "$400 million",
        "span": [66, 78],
        "reason": "50% apart, and no derivation of it is stated",
    }
    assert SOURCE[66:78] == "$400 million"


def test_the_reasons_are_escaped_html():
    row = {
        "ehi": {
            "units": [
                {
                    "text": "<b>X</b>",
                    "span": [0, 8],
                    "status": "unsupported",
                    "nearest_in_source": {"text": "<i>Y</i>", "span": [0, 1], "reason": "a & b"},
                }
            ]
        }
    }
    assert reasons_html(row) == (
        '<ul class="hs-reasons"><li class="hs-reason hs-unsupported"><b>&lt;b&gt;X&lt;/b&gt;</b> (ehi, unsupported): '
        "nearest in the source: &#x27;&lt;i&gt;Y&lt;/i&gt;&#x27;, a &amp; b</li></ul>"
    )
    assert reasons_html({"ehi": {"units": [{"text": "X", "span": [0, 1], "status": "supported"}]}}) == ""


def test_nearest_per_dimension():
    quantity = QuantityUnit("money", "USD", 800e6, "$800 million", (0, 12))
    pool = [
        QuantityUnit("money", "USD", 400e6, "$400 million", (5, 17)),
        QuantityUnit("money", "USD", 1e6, "$1m", (0, 3)),
        QuantityUnit("percent", "%", 800e6, "x", (0, 1)),
    ]
    assert dimension("qhi").nearest(quantity, pool) == (pool[0], "50% apart, and no derivation of it is stated")
    assert dimension("qhi").nearest(quantity, pool[2:]) is None  # nothing of its kind
    entity = EntityUnit("atletico madrid", "Atletico Madrid", (0, 15), "ORG")
    others = [EntityUnit("real madrid", "Real Madrid", (0, 11), "ORG"), EntityUnit("uefa", "UEFA", (20, 24), "ORG")]
    assert dimension("ehi").nearest(entity, others) == (others[0], "shares only 'madrid': another name")
    assert dimension("ehi").nearest(entity, others[1:]) == (
        others[1],
        "another ORG of the source; no alias or partial name links them",
    )
    triple = RelationUnit("acme", "buy", "factory", "Acme bought the factory", (0, 23))
    pool = [
        RelationUnit("globex", "buy", "plant", "Globex bought a plant", (0, 21)),
        RelationUnit("acme", "close", "factory", "Acme closed the factory", (30, 53)),
    ]
    assert dimension("rhi").nearest(triple, pool) == (pool[0], "the same verb with other arguments")
    assert dimension("rhi").nearest(triple, pool[1:]) == (
        pool[1],
        "the same parties with another verb, which WordNet and the encoder do not link",
    )
