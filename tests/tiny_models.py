"""Tiny randomly initialised models the tests build (no hub): one builder each, shared
by the test files that need them."""

from __future__ import annotations

import os
from collections.abc import Iterable

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tiny_t5(words: Iterable[str], seed: int) -> tuple[object, object]:
    """A 1-layer T5 (d_model 16) and a word-level tokenizer over ``words`` (plus <pad>,
    </s>, <unk>), seeded with ``seed``. Generation suppresses <pad>, so greedy outputs
    depend on the input."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast, T5Config, T5ForConditionalGeneration

    vocab = {"<pad>": 0, "</s>": 1, "<unk>": 2}
    for word in words:
        vocab.setdefault(word, len(vocab))
    backend = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    backend.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend, pad_token="<pad>", eos_token="</s>", unk_token="<unk>"
    )
    torch.manual_seed(seed)
    config = T5Config(
        vocab_size=len(vocab),
        d_model=16,
        d_ff=32,
        d_kv=8,
        num_layers=1,
        num_decoder_layers=1,
        num_heads=2,
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
        initializer_factor=5.0,
    )
    model = T5ForConditionalGeneration(config)
    model.generation_config.suppress_tokens = [0]
    return model, tokenizer


def tiny_nli_model(folder) -> str:
    """The benchmarks' tiny NLI model (``benchmarks/_common.py``: a random BERT with
    all-MiniLM-L6-v2's vocabulary), saved to ``folder``."""
    from benchmarks._common import tiny_nli_model as build

    return build(str(folder))
