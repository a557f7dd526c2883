"""Pointers users can follow: every ``docs/*.md#anchor`` named in the code, the metric
cards, the docs and the Space resolves to a heading of that file, every relative
Markdown link resolves to a file, and nothing points to documents users never see
(the project's internal design notes and numbered source documents)."""

from __future__ import annotations

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
USER_FACING = sorted(
    [ROOT / "README.md", ROOT / "CHANGELOG.md"]
    + list((ROOT / "docs").glob("*.md"))
    + list((ROOT / "metrics").glob("*/*.md"))
    + list((ROOT / "metrics").glob("*/*.py"))
    + list((ROOT / "spaces").rglob("*.md"))
    + list((ROOT / "spaces").rglob("*.py"))
    + list((ROOT / "shared" / "halluscope").rglob("*.py"))
)
# the report's Markdown templates, whose links are read from docs/, where they are rendered
TEMPLATES = sorted((ROOT / "benchmarks" / "templates").glob("*.md"))
# the pointers of the benchmarks (their templates included) and the tests are checked too
LINKED = (
    USER_FACING + sorted(list((ROOT / "benchmarks").rglob("*.py")) + list((ROOT / "tests").glob("*.py"))) + TEMPLATES
)
# "docs/papers.md#softmax-index", "papers.md#ehi" (from inside docs/)
ANCHOR_REF = re.compile(r"(?:docs/)?([a-z_]+\.md)#([a-z0-9_-]+)")
MD_LINK = re.compile(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)")
# 'docs/cli.md, "Interrupted runs"': a section named by its heading, quoted
QUOTED_SECTION = re.compile(r"docs/([a-z_]+\.md),\s+\"([^\"]+)\"")
INTERNAL = re.compile(r"DESIGN(?:\.md)? ?§|\bseed 00\d|\b00[0-4] §")


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped except
    hyphens, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def headings(path: pathlib.Path) -> list:
    """The file's headings in plain words: lower case, without "#" and backticks."""
    return [
        line.lstrip("#").replace("`", "").strip().lower()
        for line in path.read_text().splitlines()
        if line.startswith("#")
    ]


def anchors(path: pathlib.Path) -> set:
    return {slug(line.lstrip("#")) for line in path.read_text().splitlines() if line.startswith("#")}


def test_slug_follows_github():
    assert slug("Zero denominators and undefined dimensions") == "zero-denominators-and-undefined-dimensions"
    assert slug("Hosts: FIZZ and FENICE") == "hosts-fizz-and-fenice"
    assert slug("DL-ACU entailment premise") == "dl-acu-entailment-premise"


@pytest.mark.parametrize("path", LINKED, ids=lambda p: str(p.relative_to(ROOT)))
def test_anchors_and_links_resolve(path):
    text = path.read_text()
    broken = []
    for name, anchor in ANCHOR_REF.findall(text):
        target = ROOT / "docs" / name
        if target.exists() and anchor not in anchors(target):
            broken.append(f"{name}#{anchor}")
    for name, section in QUOTED_SECTION.findall(text):
        target = ROOT / "docs" / name
        wanted = " ".join(section.replace("`", "").lower().split())
        # the heading itself, or its start ("Interrupted runs" for "Interrupted runs: nothing is lost")
        if target.exists() and not any(h == wanted or h.startswith(wanted + ":") for h in headings(target)):
            broken.append(f'{name}, "{section}"')
    if path.suffix == ".md":
        folder = ROOT / "docs" if path in TEMPLATES else path.parent
        for link in MD_LINK.findall(text):
            if not link.startswith("http") and not (folder / link).resolve().exists():
                broken.append(link)
    assert broken == []


@pytest.mark.parametrize("path", LINKED, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_pointer_to_documents_users_never_see(path):
    """Neither the package, the apps, the docs, the benchmarks nor the tests cite a
    document outside the repository: they point to docs/."""
    assert INTERNAL.findall(path.read_text()) == []


def test_the_checks_find_what_they_look_for():
    assert ANCHOR_REF.findall("see docs/papers.md#ehi and papers.md#qhi") == [
        ("papers.md", "ehi"),
        ("papers.md", "qhi"),
    ]
    assert MD_LINK.findall("[p](../../docs/papers.md#ehi) [w](https://x.org/a.md)") == [
        "../../docs/papers.md",
        "https://x.org/a.md",
    ]
    cited = "(DESIGN" + " §4.4) and seed" + " 004 and 000" + " §3.1"  # written in parts: this file is checked too
    assert INTERNAL.findall(cited) == ["DESIGN" + " §", "seed" + " 004", "000" + " §"]
    quoted = '(docs/cli.md, "Interrupted runs") and docs/' + 'cli.md, "x"'  # split: this file is checked too
    assert QUOTED_SECTION.findall(quoted) == [("cli.md", "Interrupted runs"), ("cli.md", "x")]
