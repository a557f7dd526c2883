"""The code blocks of the documentation run as written.

Every fenced ```python and ```bash block of README.md, docs/*.md and the metric cards
(metrics/*/README.md) is either run here or marked, on the line right before its opening
fence, with one HTML comment (invisible on GitHub and the Hub):

* ``<!-- not run: REASON -->``: not run; REASON starts with one of :data:`NOT_RUN_REASONS`
  ("needs the Hugging Face Hub", "needs a GPU", "a long run", "installs packages", ...);
* ``<!-- run as: FILE ARGS -->``: a script; it is written to FILE in the working
  directory and run there with ``python FILE ARGS`` (the docs' own command line for it).

How the blocks run (:func:`test_docs_code_blocks_run`, one test per markdown file):

* the python blocks of one file run in order, in this process, in one namespace, like
  the cells of a notebook: a later block may use the names an earlier one defined, and
  each block defines its own inputs (small ``predictions``/``sources`` lists);
* bash blocks run with ``bash -euo pipefail``, ``.venv/bin`` first on ``PATH``;
* everything runs in a temporary working directory that links the repository's top-level
  entries (so ``evaluate.load("metrics/chi")`` and ``.venv/bin/python benchmarks/...``
  resolve as from the repository root) and holds the input files the docs' commands
  name: ``summaries.jsonl`` and ``corpus.jsonl``, the project's examples
  (:func:`halluscope.examples.load_examples`; fields id, source, reference, prediction);
* Hub models a block names are replaced, in the block's text, by tiny local models
  before it runs (:data:`HUB_SUBSTITUTES`): ``"t5-small"`` by the path of a 1-layer T5
  and its word-level tokenizer that ``tests/tiny_models.py`` builds, saved with
  ``save_pretrained``; ``HF_HUB_OFFLINE=1`` makes any other Hub access fail loudly.
"""

from __future__ import annotations

import glob
import json
import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass

import pytest
from tiny_models import REPO, tiny_t5

pytestmark = pytest.mark.slow

#: what a ``<!-- not run: ... -->`` reason starts with
NOT_RUN_REASONS = (
    "needs the Hugging Face Hub",
    "needs a GPU",
    "needs a launcher",
    "a long run",
    "installs packages",
    "rewrites the repository's files",
    "starts Ray",
)
#: the markdown files whose blocks are checked
DOC_FILES = sorted(
    ["README.md"]
    + [os.path.relpath(p, REPO) for p in glob.glob(os.path.join(REPO, "docs", "*.md"))]
    + [os.path.relpath(p, REPO) for p in glob.glob(os.path.join(REPO, "metrics", "*", "README.md"))]
)
#: Hub model names (as quoted in a block) -> the tiny local model that replaces them
HUB_SUBSTITUTES = ("t5-small",)

#: a fence, possibly indented (a block inside a list item), closed at the same indentation
_FENCE = re.compile(r"^([ \t]*)```(python|bash)[ \t]*\n(.*?)^\1```[ \t]*$", re.M | re.S)
_MARKER = re.compile(r"^[ \t]*<!--\s*(not run|run as):\s*(.*?)\s*-->\s*$")
_ANY_MARKER = re.compile(r"<!--\s*(not run|run as)\b")


@dataclass
class Block:
    path: str
    line: int
    language: str
    code: str
    marker: str | None = None  # "not run" | "run as"
    argument: str = ""


def blocks_of(path: str) -> list[Block]:
    """The python and bash blocks of the markdown file ``path`` (relative to the
    repository), with the marker on the line before each, if any."""
    text = open(os.path.join(REPO, path), encoding="utf-8").read()
    found = []
    for match in _FENCE.finditer(text):
        before = text[: match.start()]
        previous = before.rstrip("\n").rsplit("\n", 1)[-1] if before.endswith("\n") else ""
        marker = _MARKER.match(previous)
        found.append(
            Block(
                path,
                before.count("\n") + 1,
                match.group(2),
                textwrap.dedent(match.group(3)),
                marker.group(1) if marker else None,
                marker.group(2) if marker else "",
            )
        )
    return found


def test_every_marker_is_well_formed_and_right_before_a_block():
    for path in DOC_FILES:
        text = open(os.path.join(REPO, path), encoding="utf-8").read()
        blocks = blocks_of(path)
        marked = sum(block.marker is not None for block in blocks)
        assert len(_ANY_MARKER.findall(text)) == marked, f"{path}: a marker not right before a code block"
        for block in blocks:
            if block.marker == "not run":
                assert block.argument.startswith(NOT_RUN_REASONS), (path, block.line, block.argument)
            if block.marker == "run as":
                assert block.language == "python" and re.fullmatch(r"[\w.-]+\.py( \S+)*", block.argument), (
                    path,
                    block.line,
                    block.argument,
                )


def test_the_docs_have_blocks_that_run():
    counts = {path: sum(block.marker != "not run" for block in blocks_of(path)) for path in DOC_FILES}
    # a file that is only prose or only marked blocks has 0; these are the ones with runnable code
    assert {path for path, count in counts.items() if count} >= {
        "README.md",
        "docs/trainer.md",
        "docs/scaling.md",
        "docs/lexical.md",
        "docs/cli.md",
        "metrics/chi/README.md",
        "metrics/ehi/README.md",
        "metrics/qhi/README.md",
        "metrics/rhi/README.md",
    }


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """The working directory of the blocks: links to the repository's top-level entries,
    the example files, and the tiny models of :data:`HUB_SUBSTITUTES`."""
    from halluscope.examples import load_examples

    folder = tmp_path_factory.mktemp("docs-code")
    for name in os.listdir(REPO):
        if name != ".git":
            os.symlink(os.path.join(REPO, name), folder / name)
    rows = [{key: example[key] for key in ("id", "source", "reference", "prediction")} for example in load_examples()]
    for name in ("summaries.jsonl", "corpus.jsonl"):
        (folder / name).write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    words = " ".join(row["source"] + " " + row["reference"] for row in rows).split()
    model, tokenizer = tiny_t5(words + ["Obama", "met", "Merkel", "in", "Berlin."], seed=0)
    model.save_pretrained(folder / "tiny-t5")
    tokenizer.save_pretrained(folder / "tiny-t5")
    return folder


def _substituted(code: str, workdir) -> str:
    """``code`` with each quoted name of :data:`HUB_SUBSTITUTES` replaced by the quoted
    path of its tiny model."""
    for name in HUB_SUBSTITUTES:
        for quoted in (f'"{name}"', f"'{name}'"):
            code = code.replace(quoted, repr(str(workdir / "tiny-t5")))
    return code


def _environment(workdir) -> dict:
    env = dict(
        os.environ,
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        PYTHONPATH=os.path.join(REPO, "shared"),
    )
    env["PATH"] = os.path.join(REPO, ".venv", "bin") + os.pathsep + env.get("PATH", "")
    return env


def _run_process(command: list, block: Block, workdir) -> None:
    done = subprocess.run(command, cwd=workdir, env=_environment(workdir), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (
        f"{block.path}:{block.line} exited {done.returncode}\n"
        f"stdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}"
    )


@pytest.mark.parametrize(
    "path", [path for path in DOC_FILES if any(block.marker != "not run" for block in blocks_of(path))]
)
def test_docs_code_blocks_run(path, workdir, monkeypatch):
    monkeypatch.chdir(workdir)
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE"):
        monkeypatch.setenv(name, "1")
    namespace = {"__name__": "__docs__"}
    for block in blocks_of(path):
        if block.marker == "not run":
            continue
        code = _substituted(block.code, workdir)
        if block.language == "bash":
            _run_process(["bash", "-euo", "pipefail", "-c", code], block, workdir)
        elif block.marker == "run as":
            script, *arguments = block.argument.split()
            (workdir / script).write_text(code, encoding="utf-8")
            _run_process([sys.executable, script, *arguments], block, workdir)
        else:
            exec(compile(code, f"{path}:{block.line}", "exec"), namespace)  # noqa: S102 - the docs' own code
