"""Packaging (docs/hub.md): the wheel and sdist build and pass ``twine check``, the wheel
carries every module and the package data, and a metric folder copied alone into an
empty directory installs its backend from its own ``requirements.txt`` (the halluscope
line pointed at the built wheel instead of the git tag) into a fresh virtual
environment, where ``evaluate.load(<folder>).compute(...)`` gives exactly the repo's
``halluscope.score_qhi`` result.

The fresh environment sees this environment's site-packages for the heavy third-party
dependencies (torch, spaCy, the offline models) through a ``.pth`` file, whose directory
lines are added to ``sys.path`` without running that directory's own ``.pth`` files, so
the editable halluscope install stays invisible and halluscope can only come from the
wheel. ``pip --no-index`` then proves the folder's requirements resolve with nothing
downloaded.
"""

import email
import glob
import json
import os
import shutil
import site
import subprocess
import sys
import textwrap
import zipfile

import halluscope
import pytest
from packaging.requirements import Requirement

REPOSITORY = "git+https://github.com/halluscope/halluscope"
FOLDERS = {
    "chi": {"offline"},
    "ehi": {"offline"},
    "qhi": {"offline"},
    "rhi": {"offline"},
    "dlsd_acu": {"offline", "nli"},
}
SPACE_EXTRAS = {"offline", "nli", "space"}

ROWS = {
    "predictions": ["Sales rose to $2.5 billion in the first half.", "The company hired 400 engineers in 2019."],
    "references": ["First-half sales were $2.5 billion.", ""],
    "sources": [
        "Sales were $1.2 billion in Q1 and $1.3 billion in Q2.",
        "The company hired 40 engineers in 2019 and 12 more in 2020.",
    ],
}


def _requirement_lines(path):
    """The requirement lines of a requirements file (no comments, no pip options)."""
    with open(path, encoding="utf-8") as handle:
        lines = [line.strip() for line in handle]
    return [line for line in lines if line and not line.startswith(("#", "-"))]


def _halluscope_line(path):
    lines = [line for line in _requirement_lines(path) if Requirement(line).name == "halluscope"]
    assert len(lines) == 1, path
    return lines[0]


def _folders(repo_root):
    folders = {os.path.join(repo_root, "metrics", name): extras for name, extras in FOLDERS.items()}
    folders[os.path.join(repo_root, "spaces", "halluscope")] = SPACE_EXTRAS
    return folders


def test_every_folder_installs_halluscope_from_the_release_tag(repo_root):
    """Each metric folder and the Space pin halluscope to the git tag of this version
    with the extras its script needs, and the copied script's import-error text is the
    same install command (evaluate shows the ``# From:`` text after ``pip install``)."""
    tag = f"@v{halluscope.__version__}"
    for folder, extras in _folders(repo_root).items():
        line = _halluscope_line(os.path.join(folder, "requirements.txt"))
        requirement = Requirement(line)
        assert (requirement.url, requirement.extras) == (REPOSITORY + tag, extras)
        assert "gradio>=5,<7" in _requirement_lines(os.path.join(folder, "requirements.txt"))
        name = os.path.basename(folder)
        if name == "halluscope":
            continue
        with open(os.path.join(folder, f"{name}.py"), encoding="utf-8") as handle:
            imports = [text for text in handle if text.startswith("import halluscope")]
        assert len(imports) == 2
        for text in imports:
            assert f'# From: "{line}" (install torch first; on CPU: pip install torch --index-url ' in text


def test_every_release_tag_in_the_repository_is_this_version(repo_root):
    """The install line appears in docs, cards and scripts: all name ``v<__version__>``,
    so a version bump that forgets one fails here."""
    import re

    paths = [os.path.join(repo_root, name) for name in ("README.md", "CHANGELOG.md")]
    paths += glob.glob(os.path.join(repo_root, "docs", "*.md"))
    paths += glob.glob(os.path.join(repo_root, "metrics", "*", "*"))
    paths += glob.glob(os.path.join(repo_root, "spaces", "halluscope", "*"))
    tags = {}
    for path in paths:
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                for tag in re.findall(r"github\.com/halluscope/halluscope@([^\s\"'`#]+)", handle.read()):
                    tags.setdefault(tag, set()).add(os.path.relpath(path, repo_root))
    assert set(tags) == {f"v{halluscope.__version__}"}, tags
    assert {
        "README.md",
        "docs/hub.md",
        "metrics/qhi/qhi.py",
        "metrics/qhi/requirements.txt",
        "spaces/halluscope/requirements.txt",
    } <= tags[f"v{halluscope.__version__}"]


def _build(repo_root, outdir):
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(outdir), repo_root],
        check=True,
        capture_output=True,
        text=True,
    )
    wheels = glob.glob(os.path.join(outdir, "*.whl"))
    sdists = glob.glob(os.path.join(outdir, "*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, os.listdir(outdir)
    return wheels[0], sdists[0]


def _check_wheel(wheel, repo_root):
    version = halluscope.__version__
    assert os.path.basename(wheel) == f"halluscope-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = email.message_from_bytes(archive.read(f"halluscope-{version}.dist-info/METADATA"))
    package = os.path.join(repo_root, "shared", "halluscope")
    on_disk = {
        os.path.relpath(path, os.path.dirname(package)).replace(os.sep, "/")
        for path in glob.glob(os.path.join(package, "**", "*.py"), recursive=True)
    }
    assert on_disk - names == set()
    assert "halluscope/data/examples.jsonl" in names
    assert "halluscope/data/p_consistent.json" in names  # chi's calibration, read when options load
    assert {"halluscope/report/page.css", "halluscope/report/examples_table.js"} <= names  # the report's page
    assert f"halluscope-{version}.dist-info/licenses/LICENSE" in names
    assert metadata["Version"] == version
    assert metadata["License-Expression"] == "Apache-2.0"
    assert "Changelog, https://github.com/halluscope/halluscope/blob/main/CHANGELOG.md" in metadata.get_all(
        "Project-URL"
    )


def _venv_with_visible_site_packages(path):
    """A fresh venv whose sys.path ends with this environment's site-packages (pip
    included: ``--without-pip`` keeps ensurepip's old setuptools from shadowing ours)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True, capture_output=True)
    python = os.path.join(path, "bin", "python")
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with open(os.path.join(purelib, "zz_parent_site_packages.pth"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(site.getsitepackages()) + "\n")
    return python


def _clean_env(tmp_path):
    env = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    env.update(
        PIP_CONFIG_FILE=os.devnull,
        PIP_NO_INDEX="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        TOKENIZERS_PARALLELISM="false",
        HF_MODULES_CACHE=str(tmp_path / "modules"),
        PYTHONPATH="",
    )
    return env


LOAD = textwrap.dedent("""\
    import json, sys
    import evaluate
    try:
        module = evaluate.load(sys.argv[1])
    except ImportError as error:
        print(json.dumps({"import_error": str(error)}))
        raise SystemExit(0)
    import halluscope
    rows = json.loads(sys.argv[2])
    result = module.compute(**rows)
    print(json.dumps({"file": halluscope.__file__, "version": halluscope.__version__, "result": result}))
""")


def _load(python, folder, cwd, env):
    done = subprocess.run(
        [python, "-c", LOAD, folder, json.dumps(ROWS)], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_copied_metric_folder_runs_from_the_built_wheel(repo_root, tmp_path):
    wheel, sdist = _build(repo_root, tmp_path / "dist")
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", wheel, sdist], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    _check_wheel(wheel, repo_root)

    empty = tmp_path / "empty"
    empty.mkdir()
    folder = shutil.copytree(
        os.path.join(repo_root, "metrics", "qhi"), empty / "qhi", ignore=shutil.ignore_patterns("__pycache__")
    )
    assert sorted(os.listdir(folder)) == ["README.md", "app.py", "qhi.py", "requirements.txt"]
    env = _clean_env(tmp_path)
    python = _venv_with_visible_site_packages(tmp_path / "venv")

    # without halluscope, loading the copied folder names the exact install command
    line = _halluscope_line(os.path.join(folder, "requirements.txt"))
    missing = _load(python, str(folder), str(empty), env)
    assert f"""using 'pip install "{line}" (install torch first""" in missing["import_error"]

    # the folder's requirements, with the halluscope line resolved against the built wheel
    requirement = Requirement(line)
    with open(os.path.join(folder, "requirements.txt"), encoding="utf-8") as handle:
        text = handle.read()
    local = tmp_path / "requirements-wheel.txt"
    local.write_text(
        text.replace(
            line, f"halluscope[{','.join(sorted(requirement.extras))}] @ {'file://' + os.path.abspath(wheel)}"
        ),
        encoding="utf-8",
    )
    installed = subprocess.run(
        [python, "-m", "pip", "install", "-r", str(local)],
        cwd=str(empty),
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]

    loaded = _load(python, str(folder), str(empty), env)
    assert loaded["file"].startswith(str(tmp_path / "venv") + os.sep), loaded["file"]
    assert loaded["version"] == halluscope.__version__
    expected = json.loads(json.dumps(halluscope.score_qhi(ROWS["predictions"], ROWS["sources"], ROWS["references"])))
    assert loaded["result"] == expected
    assert loaded["result"]["qhi_defined"] == 2
