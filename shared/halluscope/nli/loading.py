"""Model loading: dtype and device names, and the tokenizer and model of a
transformers sequence-classification NLI model, loaded once per (model, device,
dtype) through :data:`halluscope.registry.MODELS` (which logs each load).

Any such model loads (hub name or local folder, never ``trust_remote_code``);
which one is resolved explicit > ``HALLUSCOPE_NLI_MODEL`` > the paper's default
(docs/papers.md#models). Dtypes: ``float32`` (default), ``float16``,
``bfloat16``; on CPU use ``bfloat16`` (float16 is slow there and some ops may lack
half kernels).
"""

from __future__ import annotations

from typing import Any

from ..registry import MODELS, NLI, default_device

DTYPES = ("float32", "float16", "bfloat16")


def check_dtype(dtype: Any) -> str:
    """The dtype's name if it is float32/float16/bfloat16 (string or torch dtype)."""
    name = str(dtype).replace("torch.", "")
    if name not in DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(DTYPES)}; got {dtype!r}")
    return name


def normalise_device(device: str | None) -> str:
    """``"cpu"``, ``"cuda:<i>"`` (``"cuda"`` = the current device) or torch's name for others."""
    if device is None:
        return default_device()
    import torch

    try:
        parsed = torch.device(device)
    except (RuntimeError, TypeError) as error:
        raise ValueError(f"unknown device {device!r}: {error}") from error
    if parsed.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(f"device {device!r} requested but CUDA is not available")
        index = torch.cuda.current_device() if parsed.index is None else parsed.index
        if index >= torch.cuda.device_count():
            raise ValueError(f"device {device!r}: only {torch.cuda.device_count()} CUDA devices")
        return f"cuda:{index}"
    return str(parsed)


def torch_dtype(name: str) -> Any:
    """The torch dtype of a name from :data:`DTYPES`."""
    import torch

    return {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}[name]


def load(name: str, device: str, dtype: str) -> tuple[Any, Any]:
    """(tokenizer, model) of ``name``, the model on ``device`` in ``dtype``, in eval mode."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(name, trust_remote_code=False)
    model = AutoModelForSequenceClassification.from_pretrained(name, trust_remote_code=False)
    model.to(device=device, dtype=torch_dtype(dtype))
    model.eval()
    return tokenizer, model


def load_registered(name: str, device: str, dtype: str) -> tuple[Any, Any]:
    """:func:`load` once per process for (name, device, dtype): the registry keeps it."""
    return MODELS.get(NLI, name, f"{device}|{dtype}", lambda name, _key: load(name, device, dtype))


def capped_max_length(tokenizer: Any, max_length: int) -> int:
    """``max_length``, lowered to the tokenizer's ``model_max_length`` where that is a
    real limit (tokenizers without one report a huge number)."""
    model_max = getattr(tokenizer, "model_max_length", None)
    if isinstance(model_max, int) and 4 <= model_max < 1_000_000:
        return min(max_length, model_max)
    return max_length
