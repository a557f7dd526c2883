"""A light start (issue 29 item 3): ``import halluscope``, ``halluscope --help`` and
``--version`` load neither torch, spaCy nor transformers; the entry points load on first
use and are the same objects as their modules'."""
from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("torch", "spacy", "transformers", "sentence_transformers", "thinc")

CHECK = """
import contextlib, io, json, sys
{setup}
print(json.dumps(sorted(name for name in {heavy!r} if name in sys.modules)))
"""


def _loaded(setup: str) -> list:
    done = subprocess.run([sys.executable, "-c", CHECK.format(setup=setup, heavy=HEAVY)], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_import_halluscope_loads_no_model_library():
    assert _loaded("import halluscope") == []
    assert _loaded("import halluscope.fusion; halluscope.fusion.check_weights({'qhi': 2})") == []


def test_help_and_version_load_no_model_library():
    for flag in ("--help", "--version"):
        setup = ("from halluscope.cli import main\nwith contextlib.redirect_stdout(io.StringIO()):\n"
                 f"    assert main([{flag!r}]) == 0")
        assert _loaded(setup) == [], flag


def test_the_entry_points_load_on_first_use():
    import halluscope
    from halluscope import api, scorer

    assert halluscope.score_chi is api.score_chi and halluscope.Scorer is scorer.Scorer
    assert {"score_chi", "Scorer", "Resources", "ScoreResult"} <= set(dir(halluscope))
    try:
        halluscope.no_such_name
    except AttributeError as error:
        assert str(error) == "module 'halluscope' has no attribute 'no_such_name'"
    else:  # pragma: no cover
        raise AssertionError("no AttributeError")


def test_every_module_compiles_without_a_warning(repo_root):
    """No invalid escape sequence or other compile-time warning (``-W error`` users)."""
    import pathlib
    import warnings

    package = pathlib.Path(repo_root, "shared", "halluscope")
    said = []
    for path in sorted(package.rglob("*.py")):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                compile(path.read_text(encoding="utf-8"), str(path), "exec")
            except (SyntaxError, Warning) as problem:
                said.append(f"{path.relative_to(package)}: {problem}")
    assert said == []
