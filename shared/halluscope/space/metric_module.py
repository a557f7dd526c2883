"""A metric app's route to its evaluate module: each request scores with a fresh
instance of the folder's ``<name>.py``, kept in memory (docs/space.md#through-the-evaluate-module)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any


class MetricModule:
    """The evaluate module of one metric folder (``metrics/<name>/``), as its app
    uses it.

    The script is loaded when the app is built, so a module that does not load or is
    not the app's metric stops the app at start. :meth:`compute` loads a fresh
    instance per request (``evaluate.load`` of a local folder takes a few
    milliseconds) with ``keep_in_memory=True``: a request stopped by the app's time
    budget in the middle of ``compute`` leaves no Arrow writer, cache file or file
    lock behind for the next one, and two requests never share an instance's stored
    rows. Models are not reloaded: they are cached by the process.
    """

    def __init__(self, folder: str, name: str) -> None:
        self.folder = os.path.abspath(folder)
        self.name = name
        module = self.load()
        if module.name != name:
            raise ValueError(f"{self.folder} holds the evaluate module {module.name!r}, not {name!r}")

    def load(self, **model_options: Any):
        """A fresh instance of the folder's module, its rows kept in memory;
        ``model_options`` go to ``evaluate.load`` (e.g. dlsd_acu's ``nli_model``)."""
        import evaluate

        return evaluate.load(self.folder, keep_in_memory=True, **model_options)

    def compute(
        self,
        predictions: Sequence[str],
        sources: Sequence[str],
        references: Sequence[Any] | None = None,
        *,
        model_options: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """``compute`` of a fresh instance: the plain dict the module returns."""
        module = self.load(**dict(model_options or {}))
        return module.compute(predictions=list(predictions), references=references, sources=list(sources), **options)
