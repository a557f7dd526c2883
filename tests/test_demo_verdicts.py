"""``make demo``'s verdicts (halluscope.demo): no row's verdict contradicts its p (a label
is p >= 0.5 under the default options), and they agree with the examples' faithful
column as often as the previous calibration's did (15 of 16: the reference-free faithful
summary, chi 0.881, is below the cut; docs/benchmarks.md#p_consistent-and-the-shipped-labels)."""

from __future__ import annotations

import re

from halluscope import demo
from halluscope.examples import load_examples


def test_no_demo_verdict_disagrees_with_p_at_least_one_half(capsys):
    examples = load_examples()
    assert demo.main(["--metric-path", "no-such-folder"]) == 0  # through score_chi
    printed = capsys.readouterr().out.splitlines()
    result = demo._compute(examples, "no-such-folder")
    p, labels = result["p_consistent_scores"], result["labels"]
    assert labels == [int(value >= 0.5) for value in p]
    for k, example in enumerate(examples):
        row = next(line for line in printed if line.startswith(example["id"] + " "))
        assert re.search(r"\b(in)?consistent$", row), row
        assert row.endswith(" consistent" if labels[k] else " inconsistent"), row
    agree = [k for k, example in enumerate(examples) if labels[k] == int(example["faithful"])]
    assert len(agree) == 15, [examples[k]["id"] for k in range(len(examples)) if k not in agree]
    assert "verdict: consistent where p >= 0.5, the shipped cut" in "\n".join(printed)
