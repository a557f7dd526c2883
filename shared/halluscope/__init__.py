"""halluscope: hallucination indices for abstractive summaries.

Backend of the ``evaluate`` metrics ``ehi``, ``rhi``, ``qhi``, ``chi`` (and later
``dlsd_acu``). The public entry points are in :mod:`halluscope.api`.
"""
__version__ = "0.1.0"

from .api import score_chi, score_dlsd_acu, score_ehi, score_qhi, score_rhi  # noqa: E402,F401
