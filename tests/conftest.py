import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Under CI the property tests draw the same examples on every run (derandomised, no
# example database), so CI passes or fails on the code, not on the draw; locally they
# explore new examples each run, and a failure prints the example to turn into a test.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def repo_root() -> str:
    return REPO


@pytest.fixture
def restore_budget(monkeypatch):
    """No HALLUSCOPE_CACHE_MB during the test, and the default memory budget after it."""
    from halluscope import budget

    monkeypatch.delenv(budget.ENV, raising=False)
    yield
    budget.reset()


def _chromium_path():
    import shutil

    return shutil.which("chromium") or shutil.which("chromium-browser")


#: flags for Debian's Chromium on a machine with a closed network, as root
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def chromium_browser():
    """A headless Playwright Chromium (Debian's binary); skipped with a reason when
    the binary or the ``playwright`` package is missing (``.ci/run`` installs both)."""
    path = _chromium_path()
    if path is None:
        pytest.skip("no Chromium binary on PATH (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


#: fixtures that start another process, a browser or a training run: a test using one
#: is marked ``slow`` (``pytest -m "not slow"`` skips it; ``make test`` runs everything)
SLOW_FIXTURES = frozenset({"chromium_browser", "page", "launched", "subprocess_run", "tiny_seq2seq"})


def pytest_collection_modifyitems(config, items):
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def parse():
    """``parse(text)``: the spaCy Doc of a text through the default parse cache (tests/parsed.py)."""
    from parsed import parse as parse_text

    return parse_text
