"""The seq2seq decomposer: ACUs from a Hugging Face seq2seq model's generated claims
(Mind the Link §2.2, docs/papers.md#sd-acu; FENICE's claim extractor by default), and
:func:`split_claims`, which cuts one generated string into claims. The caching it
shares with the rule decomposer is :mod:`halluscope.acu.decompose`'s."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..registry import DECOMPOSER, MODELS, default_device, resolve
from .decompose import DEFAULT_CACHE_SIZE, _CachedDecomposer, dedupe_units

#: Abbreviations after which a period does not end a claim.
ABBREVIATIONS: frozenset[str] = frozenset(
    {
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "sr",
        "jr",
        "st",
        "mt",
        "gen",
        "col",
        "lt",
        "sgt",
        "capt",
        "gov",
        "sen",
        "rep",
        "rev",
        "hon",
        "pres",
        "inc",
        "ltd",
        "co",
        "corp",
        "dept",
        "univ",
        "no",
        "vs",
        "etc",
        "approx",
        "est",
        "fig",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "u.s",
        "u.k",
        "u.n",
        "e.g",
        "i.e",
        "a.m",
        "p.m",
    }
)

_BULLET = re.compile(r"^\s*(?:[-*\u2022]+|\(?\d{1,2}[.)])\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


def split_claims(output: str) -> list[str]:
    """Claims in one generated string (the claim extractor emits sentences, on one
    line or several, sometimes joined by ``"; "``): split on newlines, semicolons
    and sentence ends (not after an abbreviation or an initial like "J."); strip
    bullets and numbering; drop empties; dedupe (:func:`dedupe_units`)."""
    pieces: list[str] = []
    for line in re.split(r"[\r\n]+", output):
        line = _BULLET.sub("", line)
        for part in re.split(r";\s+", line):
            start = 0
            for match in _SENTENCE_END.finditer(part):
                before = part[start : match.start()].rstrip("\"')]")
                last_word = before.split()[-1] if before.split() else ""
                stem = last_word.rstrip(".!?").lower()
                if last_word.endswith(".") and (stem in ABBREVIATIONS or re.fullmatch(r"[a-z]", stem)):
                    continue
                pieces.append(part[start : match.start()])
                start = match.start()
            pieces.append(part[start:])
    claims = []
    for piece in pieces:
        piece = _BULLET.sub("", piece.strip()).strip()
        if piece:
            claims.append(piece)
    return dedupe_units(claims)


_DTYPES = ("float32", "float16", "bfloat16")


def _dtype_name(dtype) -> str:
    name = str(dtype).replace("torch.", "")
    if name not in _DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(_DTYPES)}; got {dtype!r}")
    return name


def _load_seq2seq(name: str, device: str, dtype: str):
    """(tokenizer, model) for a seq2seq checkpoint, never with remote code."""
    import torch
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(name, trust_remote_code=False)
    model = AutoModelForSeq2SeqLM.from_pretrained(name, trust_remote_code=False)
    model.to(device=device, dtype=getattr(torch, dtype))
    model.eval()
    return tokenizer, model


class Seq2SeqDecomposer(_CachedDecomposer):
    """ACUs from a Hugging Face seq2seq model (Mind the Link §2.2, docs/papers.md#sd-acu: T5-base, FENICE's
    claim extractor ``Babelscape/t5-base-summarization-claim-extractor``).

    Model resolution: ``model`` > env ``HALLUSCOPE_DECOMPOSER_MODEL`` > the hub
    name; loaded once per (model, device, dtype) by the process registry. Inputs
    are truncated to ``max_input_tokens``; uncached texts are sorted by length
    and generated in batches of ``batch_size`` under ``torch.inference_mode``
    (greedy when ``num_beams=1``); each output is split by :func:`split_claims`.
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        device: str | None = None,
        dtype="float32",
        batch_size: int = 16,
        max_new_tokens: int = 256,
        num_beams: int = 1,
        max_input_tokens: int = 512,
        cache_size: int = DEFAULT_CACHE_SIZE,
    ) -> None:
        if batch_size < 1 or max_new_tokens < 1 or num_beams < 1 or max_input_tokens < 1:
            raise ValueError("batch_size, max_new_tokens, num_beams and max_input_tokens must be >= 1")
        self.model_name = resolve(DECOMPOSER, model)
        self.device = device or default_device()
        self.dtype = _dtype_name(dtype)
        self.batch_size = batch_size
        self.max_new_tokens = max_new_tokens
        self.num_beams = num_beams
        self.max_input_tokens = max_input_tokens
        self.name = f"seq2seq:{self.model_name}"
        super().__init__(
            ("seq2seq", self.model_name, self.dtype, max_new_tokens, num_beams, max_input_tokens), cache_size
        )
        self._loaded = None

    def __repr__(self) -> str:
        return (
            f"Seq2SeqDecomposer({self.model_name!r}, device={self.device!r}, dtype={self.dtype!r}, "
            f"batch_size={self.batch_size}, max_new_tokens={self.max_new_tokens}, "
            f"num_beams={self.num_beams})"
        )

    def load(self):
        """(tokenizer, model), loaded on first use through the registry."""
        if self._loaded is None:
            device, dtype = self.device, self.dtype
            self._loaded = MODELS.get(
                DECOMPOSER, self.model_name, f"{device}|{dtype}", lambda name, _key: _load_seq2seq(name, device, dtype)
            )
        return self._loaded

    def generate(self, texts: Sequence[str]) -> list[str]:
        """The model's raw output string for each text (no cache, no splitting)."""
        import torch

        tokenizer, model = self.load()
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        outputs: list[str] = [""] * len(texts)
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            encoded = tokenizer(
                [texts[i] for i in chunk],
                return_tensors="pt",
                padding=True,
                truncation=True,
                max_length=self.max_input_tokens,
            )
            encoded = {k: v.to(model.device) for k, v in encoded.items() if k in ("input_ids", "attention_mask")}
            with torch.inference_mode():
                generated = model.generate(
                    **encoded, max_new_tokens=self.max_new_tokens, num_beams=self.num_beams, do_sample=False
                )
            for i, out in zip(chunk, tokenizer.batch_decode(generated, skip_special_tokens=True), strict=True):
                outputs[i] = out
        return outputs

    def _decompose_uncached(self, texts: list[str]) -> list[list[str]]:
        return [split_claims(output) for output in self.generate(texts)]
