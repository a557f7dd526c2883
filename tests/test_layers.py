"""The package's layers (docs/architecture.md#layers): imports run one way, and no index
package imports another. Read from the source with ``ast``, every import counted,
including those inside functions."""

from __future__ import annotations

import ast
import os

import halluscope
import pytest

PACKAGE = os.path.dirname(halluscope.__file__)

#: the index packages: none imports another
INDICES = ("ehi", "rhi", "qhi")
#: what each lower layer may not import
FORBIDDEN = {
    "text": INDICES + ("words", "match", "dimensions", "lexicon", "pipeline", "batch", "resources"),
    "lexicon": INDICES + ("words", "match", "dimensions", "text", "pipeline", "batch", "resources"),
    "match": INDICES + ("words", "dimensions", "pipeline", "batch"),
    "words": INDICES + ("dimensions", "pipeline"),
    "dimensions": INDICES + ("words", "pipeline", "shipped"),
    "units": INDICES + ("words", "match", "text", "lexicon", "dimensions"),
}


def _imports(path: str, module: str) -> set[str]:
    """The halluscope modules that the file at ``path`` (module ``module``) imports."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    package = module.split(".")[: -1 if not path.endswith("__init__.py") else None]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("halluscope")}


def _modules() -> list[tuple[str, str]]:
    out = []
    for folder, _, files in os.walk(PACKAGE):
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                parts = os.path.relpath(path, os.path.dirname(PACKAGE))[:-3].split(os.sep)
                out.append((path, ".".join(parts[:-1] if parts[-1] == "__init__" else parts)))
    return out


def _part(module: str) -> str:
    """The top-level part of the package a module belongs to: ``halluscope.qhi.match`` -> ``qhi``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


MODULES = _modules()


def test_the_modules_are_found():
    parts = {_part(module) for _, module in MODULES}
    assert {"text", "lexicon", "match", "words", "ehi", "rhi", "qhi", "dimensions", "units"} <= parts


@pytest.mark.parametrize("index", INDICES)
def test_no_index_package_imports_another(index):
    others = set(INDICES) - {index}
    offending = {
        (module, target)
        for path, module in MODULES
        if _part(module) == index
        for target in _imports(path, module)
        if _part(target) in others
    }
    assert offending == set()


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_lower_layer_imports_nothing_above_it(layer):
    offending = {
        (module, target)
        for path, module in MODULES
        if _part(module) == layer
        for target in _imports(path, module)
        if _part(target) in FORBIDDEN[layer]
    }
    assert offending == set()


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    """The reader counts a lazy import, as the dimensions use them."""
    path = tmp_path / "probe.py"
    path.write_text("def f():\n    from ..qhi.match import QuantityMatcher\n", encoding="utf-8")
    assert "halluscope.qhi.match" in _imports(str(path), "halluscope.ehi.probe")
