"""The one NLI engine: every entailment score in the project (docs/papers.md#models).

``NLIEngine.score(pairs)`` takes (premise, hypothesis) pairs and returns an
``(n, 3)`` float32 array of probabilities in the column order
``[ENTAILMENT, NEUTRAL, CONTRADICTION]``, rows in input order. A call is scored
at once: pairs are deduplicated, looked up in an LRU cache, the rest tokenized,
sorted by token length (longest first), batched, run under
``torch.inference_mode()``, and soft-maxed in float32.

Any transformers sequence-classification model loads (hub name or local folder,
never ``trust_remote_code``); columns are mapped from ``config.id2label`` by
name, never by index. Resolution: explicit > ``HALLUSCOPE_NLI_MODEL`` >
``tals/albert-xlarge-vitaminc-mnli``. An injected ``scorer`` replaces the model
and goes through the same dedup, cache and counters.

One module per step (docs/architecture.md#dlsd_acu-acu-nli):

- :mod:`.engine`: ``NLIEngine`` (cache, counters, the order of the steps); one engine
  per model, device, dtype, length and label map is held by a
  :class:`halluscope.resources.Resources` (``Resources.nli_engine``,
  ``halluscope.resources.get_nli_engine`` for the process's default);
- :mod:`.loading`: dtype and device names, loading the tokenizer and model once;
- :mod:`.labels`: model outputs to engine columns, by label name;
- :mod:`.features`: tokenisation (cached encodings, the pair template, the
  post-processor, the tokenizer), premise-only truncation;
- :mod:`.forward`: the batched forward pass and its out-of-memory back-off;
- :mod:`.injected_scorer`: the injected-scorer path.

Truncation: only the premise is truncated (``truncation="only_first"``) so the
hypothesis is kept whole. When the hypothesis alone leaves no room for a
premise token within ``max_length``, that pair is truncated ``"longest_first"``
(the hypothesis loses its tail too) rather than raising.

Dtypes: ``float32`` (default), ``float16``, ``bfloat16``. On CPU, float16 runs
for common encoders in recent torch but is slow and some models' ops may lack
half kernels there; use ``bfloat16`` on CPU. Probabilities are always computed
from float32 logits.

CUDA out-of-memory: the failing batch is retried at half the batch size (kept
for the rest of the call); at batch size 1 the error is re-raised.
"""

from __future__ import annotations

import logging

from . import features, labels
from .engine import NLIEngine, check_pairs
from .features import Pair, pair_template
from .forward import is_out_of_memory
from .injected_scorer import scorer_name
from .labels import CLASSES, CONTRADICTION, ENTAILMENT, NEUTRAL, label_columns, normalise_label
from .loading import DTYPES, check_dtype, load, normalise_device, torch_dtype

LOGGER = logging.getLogger("halluscope")

__all__ = [
    "CLASSES",
    "CONTRADICTION",
    "DTYPES",
    "ENTAILMENT",
    "LOGGER",
    "NEUTRAL",
    "NLIEngine",
    "Pair",
    "check_dtype",
    "is_out_of_memory",
    "label_columns",
    "normalise_device",
]

# the private names of the single module this package replaces (tests import _pair_template)
_pair_template = pair_template
_check_pairs = check_pairs
_normalise_label = normalise_label
_torch_dtype = torch_dtype
_load = load
_scorer_name = scorer_name
_PROBES = features._PROBES
_LABEL_SYNONYMS = labels._LABEL_SYNONYMS
