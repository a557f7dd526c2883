"""The dimension as the unit of code (docs/architecture.md#dimensions): the registry the
engine, fusion and the metric specs read, and the steps of "How to add a dimension"
walked through with a toy dimension (the capitalised words inside a sentence)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass

import pytest
from halluscope import dimensions, shipped
from halluscope.dimensions.base import Dimension
from halluscope.errors import OptionError
from halluscope.fusion import check_weights
from halluscope.options import METRIC_SPECS
from halluscope.pipeline import score
from halluscope.scoring_options import ScoringOptions
from halluscope.signature_text import Field
from halluscope.units import Match


def test_the_registry_holds_the_three_indices_in_order():
    assert shipped.SHIPPED_DIMENSIONS == ("ehi", "rhi", "qhi")
    assert [d.units for d in dimensions.DIMENSIONS.values()] == ["entities", "relations", "quantities"]
    assert [name for name, d in dimensions.DIMENSIONS.items() if d.attributed] == ["ehi", "qhi"]
    # each shipped dimension's metric spec agrees with it: it scores that dimension and
    # outputs its score and the extra scores it can carry; CHI fuses every one of them
    for name, dimension in dimensions.DIMENSIONS.items():
        assert METRIC_SPECS[name].dimensions == (name,)
        assert METRIC_SPECS[name].outputs == (name,) + tuple(dimension.extra_notes)
    assert METRIC_SPECS["chi"].dimensions == shipped.SHIPPED_DIMENSIONS
    with pytest.raises(ValueError, match="unknown dimension 'nope'"):
        dimensions.get("nope")
    with pytest.raises(ValueError, match="new name"):
        dimensions.register(dimensions.get("ehi"))


def test_an_option_that_changes_extraction_is_in_the_unit_setting():
    relations = dimensions.get("rhi")
    flat = ScoringOptions(relation_slots="head")
    assert relations.unit_setting(ScoringOptions()) != relations.unit_setting(flat)
    assert dimensions.get("ehi").unit_setting(flat) == ("ehi",)


@dataclass(frozen=True)
class Capital:
    text: str
    span: tuple
    key: str


class CapitalMatcher:
    def match_batch(self, jobs):
        out = []
        for job in jobs:
            pool = {unit.key: unit for unit in job.pool}
            out.append([Match("exact", (pool[q.key],)) if q.key in pool else None for q in job.queries])
        return out


class Capitals(Dimension):
    """Step 1: a Dimension subclass with its attributes, extractor, matcher and factors."""

    name = "toy"
    title = "TOY: capitalised words"
    units = "capitalised words"
    equations = "a test"

    def extractor(self, options):
        def extract(doc):
            seen = {}
            for token in doc:
                if token.is_title and not token.is_sent_start:
                    seen.setdefault(
                        token.lower_, Capital(token.text, (token.idx, token.idx + len(token)), token.lower_)
                    )
            return list(seen.values())

        return extract

    def matcher(self, options, resources):
        return CapitalMatcher()

    def factors(self, counts):
        from halluscope.factors import entity_factors

        return entity_factors(counts)

    signature_fields = (Field("toy", (), lambda call: "capitals"),)


@pytest.fixture
def toy():
    added = dimensions.register(Capitals())  # step 2: one register call
    yield added
    dimensions.unregister("toy")
    assert "toy" not in dimensions.DIMENSIONS


def test_a_toy_dimension_scores_through_the_registry(toy):
    summary = "The Mayor met Alice in Paris."
    source = "Alice met the mayor in Paris."  # 'Alice' opens the sentence: not a unit here
    # step 3: score with it. Summary units mayor, alice, paris; the source's pool: paris
    result = score(["toy"], [summary], [source], options=ScoringOptions(formula="paper"), return_details=True)
    assert result.per_example["toy"] == [pytest.approx(1 / 3)]
    units = result.details[0]["toy"]["units"]
    assert [(u["text"], u["span"], u["status"]) for u in units] == [
        ("Mayor", [4, 9], "unsupported"),
        ("Alice", [14, 19], "unsupported"),
        ("Paris", [23, 28], "supported"),
    ]
    assert "|toy:capitals" in result.signature
    # CHI fuses it beside a shipped dimension, and `weights` takes its name
    both = score(["qhi", "toy"], [summary], [source], options=ScoringOptions(formula="paper"), fuse=True)
    assert both.per_example["qhi"] == [pytest.approx(float("nan"), nan_ok=True)]
    assert both.per_example["chi"] == [pytest.approx(1 / 3)]  # qhi undefined (no number): toy alone
    assert check_weights({"toy": 2.0}) == {"ehi": 0.5, "rhi": 0.5, "qhi": 0.5, "toy": 1.0}


def test_the_registry_is_filled_by_any_import_of_the_package():
    # fusion reads the names from halluscope.dimension_registry, which imports nothing;
    # importing any module of the package registers the shipped dimensions first
    code = "from halluscope.fusion import check_weights; print(sorted(check_weights({'qhi': 2}).items()))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[('ehi', 0.5), ('qhi', 1.0), ('rhi', 0.5)]"


def test_weights_refuse_a_dimension_that_is_not_registered():
    with pytest.raises(OptionError, match="unknown dimensions \\['toy'\\]"):
        check_weights({"toy": 2.0})
