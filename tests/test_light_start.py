"""A light start (issue 29 item 3): ``import halluscope``, ``halluscope --help`` and
``--version`` load neither torch, spaCy nor transformers; the entry points load on first
use and are the same objects as their modules'."""

from __future__ import annotations

import json
import subprocess
import sys

#: ray too (issue 58): halluscope.ray imports it, ``import halluscope`` never does
HEAVY = ("torch", "spacy", "transformers", "sentence_transformers", "thinc", "ray")

CHECK = """
import contextlib, io, json, sys
{setup}
print(json.dumps(sorted(name for name in {heavy!r} if name in sys.modules)))
"""


def _loaded(setup: str) -> list:
    done = subprocess.run(
        [sys.executable, "-c", CHECK.format(setup=setup, heavy=HEAVY)], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_import_halluscope_loads_no_model_library():
    assert _loaded("import halluscope") == []
    assert _loaded("import halluscope.fusion; halluscope.fusion.check_weights({'qhi': 2})") == []


def test_the_ray_module_loads_ray_only_when_imported():
    """``import halluscope.ray`` loads no Ray either: ``score_dataset`` does, when called."""
    import importlib.util

    import pytest

    assert "ray" not in _loaded("import halluscope.ray, halluscope.ray.batches")
    if importlib.util.find_spec("ray") is None:
        pytest.skip("ray is not installed (pip install 'halluscope[ray]')")
    assert "ray" in _loaded("import halluscope.ray; halluscope.ray._ray()")


def test_help_and_version_load_no_model_library():
    for flag in ("--help", "--version"):
        setup = (
            "from halluscope.cli import main\nwith contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main([{flag!r}]) == 0"
        )
        assert _loaded(setup) == [], flag


def test_the_entry_points_load_on_first_use():
    import halluscope
    from halluscope import api, scorer

    assert halluscope.score_chi is api.score_chi and halluscope.Scorer is scorer.Scorer
    assert {"score_chi", "Scorer", "Resources", "ScoreResult"} <= set(dir(halluscope))
    try:
        _ = halluscope.no_such_name
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


def test_slow_model_loading_says_so_in_one_line_and_fast_loading_says_nothing(monkeypatch):
    import time

    from halluscope.cli import chunked_scoring as scoring
    from halluscope.scorer import Scorer

    def slow_load(self):
        time.sleep(0.3)
        return self

    notes: list = []
    monkeypatch.setattr(Scorer, "load", slow_load)
    monkeypatch.setattr(scoring, "LOADING_NOTE_AFTER_S", 0.05)
    scoring.load_models(["ehi", "qhi"], {"ehi": {}, "qhi": {}}, None, note=notes.append)
    assert notes == ["loading models for ehi...", "loading models for qhi..."]
    monkeypatch.setattr(scoring, "LOADING_NOTE_AFTER_S", 5.0)
    notes.clear()
    scoring.load_models(["ehi"], {"ehi": {}}, None, note=notes.append)
    time.sleep(0.1)
    assert notes == []


def test_no_progress_turns_off_the_bars_of_transformers_hub_and_datasets():
    import datasets.utils.logging as datasets_logging
    import huggingface_hub.utils as hub_utils
    import transformers.utils.logging as transformers_logging
    from halluscope.cli.chunked_scoring import quiet_third_party_progress

    try:
        quiet_third_party_progress()
        assert not transformers_logging.is_progress_bar_enabled()
        assert hub_utils.are_progress_bars_disabled()
        assert not datasets_logging.is_progress_bar_enabled()
    finally:
        transformers_logging.enable_progress_bar()
        hub_utils.enable_progress_bars()
        datasets_logging.enable_progress_bar()
