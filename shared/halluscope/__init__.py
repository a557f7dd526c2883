"""halluscope: hallucination indices for abstractive summaries.

Backend of the ``evaluate`` metrics ``ehi``, ``rhi``, ``qhi``, ``chi`` and
``dlsd_acu``. The public entry points: the functions of :mod:`halluscope.api`
(``score_chi`` ...), :class:`halluscope.Scorer` (load once, score many) and their
result, :class:`halluscope.ScoreResult`; options in :mod:`halluscope.options`; the
models and caches they score with, :class:`halluscope.Resources`.

``import halluscope`` is light: the entry points load on first use (PEP 562), so that
``import halluscope`` and ``halluscope --version`` need neither spaCy nor torch. The
shipped dimensions are registered at import (:mod:`halluscope.shipped`, itself light).
"""

from typing import Any

from . import shipped  # noqa: E402,F401  (registers ehi, rhi, qhi in dimension_registry)
from .version import __version__  # noqa: F401  (written once, in version.py)

#: public name -> the module that defines it, imported on first use
_LAZY = {
    "score_chi": "api",
    "score_dlsd_acu": "api",
    "score_ehi": "api",
    "score_qhi": "api",
    "score_rhi": "api",
    "Resources": "resources",
    "ScoreResult": "results",
    "Scorer": "scorer",
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'halluscope' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
