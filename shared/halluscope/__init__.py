"""halluscope: hallucination indices for abstractive summaries.

Backend of the ``evaluate`` metrics ``ehi``, ``rhi``, ``qhi``, ``chi`` and
``dlsd_acu``. The public entry points: the functions of :mod:`halluscope.api`
(``score_chi`` ...), :class:`halluscope.Scorer` (load once, score many) and their
result, :class:`halluscope.ScoreResult`; options in :mod:`halluscope.options`; the
models and caches they score with, :class:`halluscope.Resources`.
"""
from .version import __version__  # noqa: F401  (written once, in version.py)

from .api import score_chi, score_dlsd_acu, score_ehi, score_qhi, score_rhi  # noqa: E402,F401
from .resources import Resources  # noqa: E402,F401
from .results import ScoreResult  # noqa: E402,F401
from .scorer import Scorer  # noqa: E402,F401
