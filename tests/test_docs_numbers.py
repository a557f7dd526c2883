"""Numbers the documentation shows are the numbers the code gives (issue 29 item 6):
each is recomputed here from the command or call the text shows beside it."""

from __future__ import annotations

import os
import re

from halluscope.cli import main
from tiny_models import REPO

EXAMPLES = os.path.join("shared", "halluscope", "data", "examples.jsonl")


def _doc(name: str) -> str:
    with open(os.path.join(REPO, name), encoding="utf-8") as handle:
        return handle.read()


def _score_examples(tmp_path, capsys, *extra: str) -> str:
    """The summary the CLI prints for the project's examples, with the output folder and
    the signature after its spaCy field cut as docs/cli.md cuts them."""
    output = tmp_path / "scores.jsonl"
    assert (
        main(
            [
                "score",
                "--input",
                os.path.join(REPO, EXAMPLES),
                "--output",
                str(output),
                "--no-progress",
                "--reference-field",
                "reference",
                *extra,
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out.replace(os.path.join(REPO, ""), "").replace(str(tmp_path) + os.sep, "")
    return re.sub(r"(\|spacy:[^|]*\|).*", r"\1...", printed)


def test_the_cli_summary_in_the_docs_is_what_the_command_prints(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    block = re.search(
        r"```text\n\$ halluscope score --input shared/halluscope/data/examples.jsonl.*?\n"
        r"    --publication-date-field publication_date\n(.*?)```",
        _doc("docs/cli.md"),
        re.S,
    )
    assert block is not None
    assert _score_examples(tmp_path, capsys, "--publication-date-field", "publication_date") == block.group(1)
    undated = re.search(
        r"without `--publication-date-field` the relative dates stay unresolved\s+and CHI's "
        r"mean is (0\.\d{4})",
        _doc("docs/cli.md"),
    )
    assert undated is not None
    printed = _score_examples(tmp_path, capsys)
    assert re.search(r"^chi +(0\.\d{4}) ", printed, re.M).group(1) == undated.group(1)


def test_the_verdict_in_the_readme_quick_start_is_what_chi_returns():
    from halluscope import score_chi

    said = re.search(r"# the verdict: \[(0\.\d+)\.\.\.\] \[(\d)\]", _doc("README.md"))
    assert said is not None
    result = score_chi(
        ["Microsoft bought GitHub for $9 billion in 2019."],
        ["Microsoft acquired the startup GitHub in 2018. The deal was worth $7.5 billion."],
        ["Microsoft acquired GitHub for $7.5 billion in 2018."],
    )
    assert f"{result['p_consistent_scores'][0]:.10f}".startswith(said.group(1))
    assert result["labels"] == [int(said.group(2))]


def _benchmark_row(text: str, measure: str, tag: str, configuration: str, dimension: str) -> dict:
    """One row of a generated LODO table of docs/benchmarks.md, by fold (and "mean")."""
    section = text.split(f"#### LODO {measure} (%), tag {tag}\n", 1)[1]
    lines = [line for line in section.lstrip("\n").split("\n\n", 1)[0].splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[:2] == [configuration, dimension]:
            return dict(zip(header, cells, strict=True))
    raise AssertionError(f"no row {configuration} / {dimension} in tag {tag}")


#: the chi card's LODO rows -> (tag, configuration, dimension) of docs/benchmarks.md's tables
CARD_ROWS = {
    "baseline `alnum-types`": ("session8", "baseline", "alnum-types"),
    'papers (`formula="paper"`': ("after", "chi-paper", "chi"),
    "previous default (tag `start`": ("start", "chi", "chi"),
    "default without WordNet": ("after", "chi-no-wordnet", "chi"),
    "default with pairs for every object-less verb": ("after", "chi-all-pairs", "chi"),
    "default without the lexical weight": ("after", "chi-no-lexical", "chi"),
    "**default**": ("session8", "chi", "chi"),
}


def test_the_chi_cards_lodo_table_is_the_generated_benchmark_tables():
    card, benchmarks = _doc("metrics/chi/README.md"), _doc("docs/benchmarks.md")
    table = [line for line in card.split("| | cogensumm |", 1)[1].split("\n\n", 1)[0].splitlines()[2:]]
    folds = [
        "cogensumm",
        "xsumfaith",
        "polytope",
        "factcc",
        "summeval",
        "summac-frank",
        "frank-cnndm",
        "frank-bbc",
        "mean",
    ]
    checked = 0
    for line in table:
        cells = [cell.strip().replace("**", "") for cell in line.strip("|").split("|")]
        label = next((name for name in CARD_ROWS if line.startswith(f"| {name}")), None)
        assert label is not None, f"a card row with no benchmark table behind it: {cells[0]}"
        tag, configuration, dimension = CARD_ROWS[label]
        accuracy = _benchmark_row(benchmarks, "balanced accuracy", tag, configuration, dimension)
        auc = _benchmark_row(benchmarks, "ROC-AUC", tag, configuration, dimension)
        for fold, cell in zip(folds, cells[1:], strict=True):
            said = re.fullmatch(r"(\d+\.\d)(?: \((\d+\.\d)\))?", cell)
            assert said is not None, cell
            assert said.group(1) == accuracy[fold], (label, fold)
            if said.group(2) is not None:
                assert said.group(2) == auc[fold], (label, fold)
            checked += 1
    assert checked == 7 * 9


def test_the_calibration_the_docs_state_is_the_shipped_one():
    import json

    from halluscope.verdict import CALIBRATION_FILE, load_calibration, p_consistent

    shipped = load_calibration()
    with open(CALIBRATION_FILE, encoding="utf-8") as handle:
        commit = json.load(handle)["fitted_on"]["commit"]
    at_cut = shipped.knots_chi[shipped.knots_p.index(shipped.cut)]  # the knot where p = 0.5
    low, high, knots = p_consistent(0.0), p_consistent(1.0), len(shipped.knots_chi)
    card = " ".join(_doc("metrics/chi/README.md").split())
    assert (
        f"a centred isotonic calibration of chi ({knots} knots, interpolated linearly), from {low:.3f} "
        f"(chi 0) to {high:.3f} (chi 1)"
    ) in card
    assert f"cut {shipped.cut:g}, i.e. chi >= {at_cut:.3f}:" in card
    benchmarks = " ".join(_doc("docs/benchmarks.md").split())
    assert (
        f"calibration `{shipped.version}`, fitted at {commit}): {knots} knots, p = 0.5 at chi {at_cut:.3f}; "
        f"p runs from {low:.3f} (chi 0) to {high:.3f} (chi 1)"
    ) in benchmarks


def test_the_lexical_term_the_docs_write_is_fusion_index_share():
    """Every "w (0.9 + 0.1 M)" the docs and docstrings write is fusion.INDEX_SHARE's."""
    from halluscope.fusion import INDEX_SHARE

    written = r"\(\s*(\d\.\d+)\s*\+\s*(\d\.\d+)\s*(?:x|·)\s*(?:M\b|the dimensions)"
    files = [
        "shared/halluscope/api.py",
        "metrics/chi/README.md",
        "metrics/chi/chi.py",
        "CHANGELOG.md",
        "tests/test_wordnet_matching.py",
    ]
    found = [(name, m.groups()) for name in files for m in re.finditer(written, _doc(name))]
    assert len(found) >= 5, found
    assert {pair for _, pair in found} == {(f"{1 - INDEX_SHARE:g}", f"{INDEX_SHARE:g}")}, found


def test_the_perturbation_section_is_rendered_from_the_committed_records():
    """docs/benchmarks.md's table of controlled edits is the two records' (design and
    lockbox half) as benchmarks/report.py renders them, and the chi card's figures are
    the lockbox record's."""
    import json

    from benchmarks.report import PERTURBATION_RECORDS, perturbation_section

    section = perturbation_section(os.path.join(REPO, "docs", "benchmarks"))
    assert section.startswith("## What the indices catch")
    assert section in _doc("docs/benchmarks.md")
    records = []
    for name in PERTURBATION_RECORDS:
        with open(os.path.join(REPO, "docs", "benchmarks", name), encoding="utf-8") as handle:
            records.append(json.load(handle))
    assert [r["args"]["half"] for r in records] == ["design", "lockbox"]
    assert records[0]["git"]["commit"] == records[1]["git"]["commit"]
    assert not any(r["git"]["shared_dirty"] for r in records)
    card = " ".join(_doc("metrics/chi/README.md").split())
    lockbox = records[1]["summary"]
    for edit in ("amount_x2", "number_swap_source", "entity_swap_source", "antonym", "negation"):
        said = re.search(rf"`{edit}` (\d+\.\d)% \((\w+) (\d+\.\d)%, word overlap (\d+\.\d)%\)", card)
        assert said is not None, edit
        assert said.groups() == (
            f"{100 * lockbox[edit]['chi']:.1f}",
            lockbox[edit]["index"],
            f"{100 * lockbox[edit]['own']:.1f}",
            f"{100 * lockbox[edit]['alnum']:.1f}",
        )


def _lodo_record(half: str) -> dict:
    import json

    with open(os.path.join(REPO, "docs", "benchmarks", f"lodo-{half}.json"), encoding="utf-8") as handle:
        return json.load(handle)


def _mean(per_fold: dict, key: str) -> float:
    return sum(scores[key] for scores in per_fold.values()) / len(per_fold)


def test_the_chi_cards_lockbox_figures_are_the_lodo_records():
    """The card's LODO by half (design, lockbox) is docs/benchmarks/lodo-*.json's chi
    against the baseline: means over the eight folds and the folds above it by BA."""
    card = " ".join(_doc("metrics/chi/README.md").split())
    for half, opening, against in (
        ("design", "on the design half chi", "against the baseline's"),
        ("lockbox", "on the lockbox half", "against"),
    ):
        record = _lodo_record(half)
        chi, base = record["lodo"]["chi"], record["lodo"]["alnum"]
        above = sum(chi[fold]["ba"] > base[fold]["ba"] for fold in chi)
        expected = (
            f"{opening} {_mean(chi, 'ba'):.1f} ({_mean(chi, 'auc'):.1f}) {against} "
            f"{_mean(base, 'ba'):.1f} ({_mean(base, 'auc'):.1f}), above it on {above} of {len(chi)} folds"
        )
        assert expected in card, expected
        assert f"at commit {record['commit']}" in card


def test_the_numbers_behind_the_defaults_are_the_renderers():
    """docs/benchmarks.md's "Numbers behind the defaults" (speed runs included) is the text
    benchmarks/report.py renders: an edit of the page alone is lost at the next render."""
    from benchmarks.report import template

    assert template("defaults").strip() in _doc("docs/benchmarks.md")
