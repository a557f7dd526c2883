"""halluscope.lexicon.lexical against the real Princeton WordNet 3.0 (Debian's wordnet-base).

Every expected relation below was checked against WordNet 3.0 first. The tests that need
WordNet skip, with the reason, where it is not installed; the rest (no-WordNet behaviour,
resolution errors, the cache copy) always run."""

from __future__ import annotations

import gzip
import logging
import os
import re
import shutil
import threading
import zipfile

import pytest
from halluscope.lexicon import lexical, wordnet
from halluscope.lexicon.lexical import Lexicon
from halluscope.lexicon.links import Link, normalise_lemma
from halluscope.lexicon.wordnet import LEXNAMES, WordNetSource, find_wordnet
from halluscope.resources import get_lexicon

NO_WORDNET = (
    "WordNet 3.0 is not installed: apt-get install wordnet-base wordnet-sense-index, "
    "or pip install nltk && python -c 'import nltk; nltk.download(\"wordnet\")'"
)


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    lexicon = get_lexicon()
    if not lexicon.available:
        pytest.skip(NO_WORDNET)
    return lexicon


@pytest.fixture()
def wordnet_files() -> str:
    """Debian's WordNet folder (the tests that build folders from its files need it)."""
    if wordnet._missing_files(wordnet.DEBIAN_WORDNET):
        pytest.skip("Debian's WordNet folder is not installed (apt-get install wordnet-base wordnet-sense-index)")
    pytest.importorskip("nltk", reason="NLTK is not installed (pip install nltk)")
    return wordnet.DEBIAN_WORDNET


@pytest.fixture()
def own_nltk_path(monkeypatch):
    """nltk.data.path restored after the test (loading appends the folder read)."""
    nltk = pytest.importorskip("nltk", reason="NLTK is not installed (pip install nltk)")
    monkeypatch.setattr(nltk.data, "path", list(nltk.data.path))
    return nltk.data.path


# -- relations on real WordNet -------------------------------------------------------


def test_signature_and_version(lex):
    assert lex.available and lex.wordnet_version == "3.0"
    assert lex.reader.get_version() == "3.0"
    assert lex.senses == 3 and lex.up_depth == 2 and lex.down_depth == 1


def test_synonym(lex):
    link = lex.link("buy", "purchase", "verb")
    assert link == Link("synonym", "buy", "purchase", "buy ~ purchase (WordNet synonym)")
    assert lex.link("happy", "glad", "adj").relation == "synonym"
    assert lex.link("quickly", "rapidly", "adv").relation == "synonym"


def test_hypernym_summary_more_general(lex):
    # buy.v.01 {buy, purchase} -> hypernym get.v.01 {get, acquire}: acquire's first sense
    link = lex.link("acquire", "purchase", "verb")
    assert link.relation == "hypernym"
    assert link.text == "acquire ⊃ purchase (WordNet hypernym)"
    assert lex.link("run", "sprint", "verb").relation == "hypernym"  # sprint.v.01 -> run.v.01
    assert lex.link("vehicle", "car", "noun").relation == "hypernym"  # two steps
    # instance hypernyms count: paris.n.01 is an instance of national_capital.n.01
    assert lex.link("city", "paris", "noun").relation == "hypernym"


def test_troponym_and_hyponym_summary_more_specific(lex):
    link = lex.link("buy", "acquire", "verb")
    assert link.relation == "troponym"
    assert link.text == "buy ⊂ acquire (WordNet troponym)"
    assert lex.link("murder", "kill", "verb").relation == "troponym"
    assert lex.link("car", "motor vehicle", "noun").relation == "hyponym"
    # down_depth=1: two steps below is not accepted (car -> motor_vehicle -> self-propelled)
    assert lex.link("car", "self-propelled vehicle", "noun") is None


def test_entailment_and_verb_group(lex):
    link = lex.link("sleep", "snore", "verb")
    assert link.relation == "entailment" and link.text == "sleep ⇐ snore (WordNet entailment)"
    assert lex.link("hear", "listen", "verb").relation == "entailment"
    assert lex.link("snore", "sleep", "verb") is None  # entailment runs source => summary
    assert lex.link("receive", "accept", "verb").relation == "verb_group"
    assert lex.link("accept", "receive", "verb").relation == "verb_group"


@pytest.mark.parametrize(
    "a, b, pos",
    [
        ("win", "lose", "verb"),
        ("buy", "sell", "verb"),
        ("open", "close", "verb"),
        ("rise", "fall", "verb"),
        ("increase", "decrease", "verb"),
        ("accept", "reject", "verb"),
        ("alive", "dead", "adj"),
        ("increase", "decrease", "noun"),
    ],
)
def test_antonyms_both_ways(lex, a, b, pos):
    assert lex.link(a, b, pos).relation == "antonym"
    assert lex.link(b, a, pos).relation == "antonym"
    assert b in lex.antonyms(a, pos) and a in lex.antonyms(b, pos)
    assert b not in lex.supporters(a, pos)


def test_antonymy_through_synonyms(lex):
    # WordNet puts antonymy on lemmas (buy <-> sell); "purchase" shares buy.v.01
    assert lex.link("sell", "purchase", "verb").text == "sell ≠ purchase (WordNet antonym)"
    assert lex.antonyms("purchase", "verb") == frozenset({"sell"})
    assert lex.antonyms("win", "verb") == frozenset({"lose", "fall behind", "recede"})


def test_indirect_opposites_one_step_up_or_down(lex):
    # a verb: the antonyms of its hypernyms (ban is a way to forbid, forbid <-> permit) ...
    assert lex.antonyms("ban", "verb") == frozenset()
    assert {"allow", "permit", "let"} <= lex.opposites("ban", "verb")
    # ... and the troponyms of its antonyms (plunge is a way to fall, fall <-> rise)
    assert "plunge" in lex.opposites("rise", "verb") and "plunge" not in lex.antonyms("rise", "verb")
    # an adjective: its direct antonyms only ("small" is similar to "young" in one sense)
    assert lex.opposites("small", "adj") == lex.antonyms("small", "adj") == frozenset({"big", "large"})
    assert lex.antonyms("win", "verb") <= lex.opposites("win", "verb")


def test_derivation_through_supporters(lex):
    acquisition = lex.supporters("acquisition", "noun")
    assert acquisition["acquire"].relation == "derivation"
    assert acquisition["acquire"].text == "acquisition ↔ acquire (WordNet derivation)"
    assert lex.supporters("die", "verb")["death"].relation == "derivation"
    assert lex.link("investigation", "investigate", "noun").relation == "derivation"
    assert lex.link("acquire", "acquisition", "verb").relation == "derivation"


def test_unrelated_and_surprising_pairs(lex):
    assert lex.link("buy", "table", "verb") is None
    # WordNet 3.0's "startup" is "the act of setting in operation", not a young company
    assert lex.link("company", "startup", "noun") is None
    # company.n.01 sits under institution, firm.n.01 under business: no link within depth
    assert lex.link("company", "firm", "noun") is None
    assert lex.link("take over", "acquire", "verb") is None
    # senses=3 admits the second sense of "buy" (bribe.v.01); senses=1 does not
    assert lex.link("buy", "bribe", "verb").relation == "synonym"
    assert Lexicon(lex.reader, senses=1).link("buy", "bribe", "verb") is None


def test_same_lemma_and_normalisation(lex):
    assert lex.link("Buy", "buy ", "verb").relation == "same"
    assert lex.link("take_over", "usurp", "verb") == lex.link("Take over", "usurp", "verb")
    assert lex.link("take over", "usurp", "verb").relation == "synonym"
    supporters = lex.supporters("take_over", "verb")
    assert supporters["take over"].relation == "same"
    assert "seize" in supporters and "take_over" not in supporters
    assert all("_" not in key for key in supporters)
    assert normalise_lemma("  Take_Over ") == "take over"


def test_supporters_agree_with_link(lex):
    for word, pos in (("acquire", "verb"), ("die", "verb"), ("company", "noun"), ("dead", "adj")):
        supporters = lex.supporters(word, pos)
        assert supporters[word].relation == "same"
        for lemma in list(supporters)[:200]:
            assert supporters[lemma] == lex.link(word, lemma, pos)
        assert not set(supporters) & lex.antonyms(word, pos)
    assert lex.supporters("acquire", "verb") is lex.supporters("Acquire", "verb")  # cached


def test_links_are_link_of_each_source_word_in_order(lex):
    sources = ["purchase", "sell", "Acquire", "take_over", "", "win", "buy", "lose", "  ", "rebrand", "get"]
    for word, pos in (
        ("buy", "verb"),
        ("win", "verb"),
        ("acquire", "verb"),
        ("rise", "verb"),
        ("", "verb"),
        ("rebrand", "verb"),
        ("company", "noun"),
    ):
        assert lex.links(word, sources, pos) == [lex.link(word, source, pos) for source in sources]
    found = lex.links("buy", ["purchase", "sell", "buy", ""], "verb")
    assert [None if link is None else link.relation for link in found] == ["synonym", "antonym", "same", None]
    assert lex.links("buy", [], "verb") == []
    bare = Lexicon(None)
    assert bare.links("buy", ["buy", "Buy ", "purchase"], "verb") == [
        bare.link("buy", s, "verb") for s in ["buy", "Buy ", "purchase"]
    ]
    assert [link and link.relation for link in bare.links("buy", ["buy", "purchase"], "verb")] == ["same", None]


def test_pos_is_checked(lex):
    with pytest.raises(ValueError, match="pos must be one of verb, noun, adj, adv"):
        lex.link("buy", "purchase", "VERB")


def test_thread_safe_queries(lex):
    words = ["make", "take", "give", "company", "city", "run", "report", "state", "find", "increase"]
    expected = {w: dict(Lexicon(lex.reader).supporters(w, "verb").items()) for w in words}
    fresh = Lexicon(lex.reader)
    results, errors = {}, []

    def work(word):
        try:
            results[word] = dict(fresh.supporters(word, "verb").items())
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(w,)) for w in words * 3]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and results == expected


# -- without WordNet ---------------------------------------------------------------


def test_nltk_synset_cache_is_trimmed_past_its_cap(lex, monkeypatch):
    # NLTK's reader keeps every synset it parses; past READER_SYNSET_CAP a query that
    # reads WordNet drops the older half of that cache, and the answers stay the same
    fresh = Lexicon.over(wordnet.shared_wordnet())
    before = fresh.link("buy", "acquire", "verb")
    cache = fresh.reader._synset_offset_cache
    held = sum(len(per_pos) for per_pos in cache.values())
    assert held > 3
    monkeypatch.setattr(lexical, "READER_SYNSET_CAP", 3)
    again = Lexicon.over(wordnet.shared_wordnet())
    assert again.link("buy", "acquire", "verb") == before
    assert sum(len(per_pos) for per_pos in cache.values()) < held
    assert again.link("sell", "buy", "verb").relation == "antonym"


def test_the_older_half_of_each_part_of_speech_is_dropped(monkeypatch):
    class Reader:
        _synset_offset_cache = {"n": {k: k for k in range(10)}, "v": {k: k for k in range(4)}}

    monkeypatch.setattr(lexical, "READER_SYNSET_CAP", 13)
    lexicon = Lexicon(Reader())
    lexicon._trim_reader()  # 14 synsets > 13: half of each part of speech, and one more, go
    assert Reader._synset_offset_cache == {"n": {k: k for k in range(6, 10)}, "v": {3: 3}}
    lexicon._trim_reader()  # 5 synsets: under the cap, nothing goes
    assert Reader._synset_offset_cache == {"n": {k: k for k in range(6, 10)}, "v": {3: 3}}


def test_lexicon_without_wordnet_answers_same_lemma_only():
    lexicon = Lexicon()
    assert not lexicon.available and lexicon.wordnet_version == "none" and lexicon.root is None
    assert lexicon.link("buy", "Buy", "verb") == Link("same", "buy", "buy", "buy = buy (same lemma)")
    assert lexicon.link("buy", "purchase", "verb") is None
    assert dict(lexicon.supporters("Take_over", "verb")) == {
        "take over": Link("same", "take over", "take over", "take over = take over (same lemma)")
    }
    assert lexicon.antonyms("win", "verb") == frozenset()
    with pytest.raises(ValueError, match="senses"):
        Lexicon(senses=0)


def test_nothing_found_logs_one_warning(monkeypatch, own_nltk_path, caplog, tmp_path):
    own_nltk_path[:] = []
    monkeypatch.setattr(wordnet, "DEBIAN_WORDNET", str(tmp_path / "no-wordnet"))
    assert find_wordnet() is None
    with caplog.at_level(logging.WARNING, logger="halluscope"):
        lexicon = Lexicon.load()
    assert not lexicon.available and lexicon.wordnet_version == "none"
    warnings = [r for r in caplog.records if r.name == "halluscope"]
    assert len(warnings) == 1
    assert "apt-get install wordnet-base wordnet-sense-index" in warnings[0].getMessage()
    assert 'nltk.download("wordnet")' in warnings[0].getMessage()


# -- resolution order ------------------------------------------------------------------


def test_missing_explicit_path_is_a_value_error(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(ValueError, match=re.escape(str(missing))):
        find_wordnet(str(missing))
    with pytest.raises(ValueError, match=re.escape(str(missing))):
        Lexicon.load(str(missing))
    with pytest.raises(ValueError, match="lacks data.noun"):
        find_wordnet(str(tmp_path))


def test_explicit_path_wins(wordnet_files, own_nltk_path, monkeypatch, tmp_path):
    folder = tmp_path / "wn"
    folder.mkdir()
    for name in wordnet.REQUIRED_FILES + wordnet.OPTIONAL_FILES:
        (folder / name).symlink_to(os.path.join(wordnet_files, name))
    (folder / "lexnames").write_text(LEXNAMES)
    monkeypatch.setenv(wordnet.CACHE_ENV, str(tmp_path / "cache"))
    assert find_wordnet(str(folder)) == WordNetSource("explicit", str(folder))
    lexicon = Lexicon.load(str(folder))
    assert lexicon.source == WordNetSource("explicit", str(folder))
    # NLTK >= 3.10 refuses symlinked corpus files: the folder is read from a private copy
    assert os.path.dirname(lexicon.root) == str(tmp_path / "cache")
    assert lexicon.link("buy", "purchase", "verb").relation == "synonym"


def test_folder_with_plain_files_is_read_in_place(wordnet_files, tmp_path):
    folder = tmp_path / "wn"
    folder.mkdir()
    assert not wordnet._readable_in_place(wordnet_files)  # Debian's: no lexnames
    for name in wordnet.REQUIRED_FILES:
        (folder / name).write_bytes(b"")
    (folder / "lexnames").write_text(LEXNAMES)
    assert wordnet._readable_in_place(str(folder))
    os.chmod(folder / "data.verb", 0o666)  # NLTK refuses a world-writable corpus file
    assert not wordnet._readable_in_place(str(folder))


def test_nltk_data_zip_before_debian(wordnet_files, own_nltk_path, tmp_path):
    data = tmp_path / "nltk_data"
    (data / "corpora").mkdir(parents=True)
    with zipfile.ZipFile(data / "corpora" / "wordnet.zip", "w", zipfile.ZIP_STORED) as archive:
        for name in wordnet.REQUIRED_FILES:
            archive.write(os.path.join(wordnet_files, name), f"wordnet/{name}")
        archive.writestr("wordnet/lexnames", LEXNAMES)
    own_nltk_path[:] = [str(data)]
    found = find_wordnet()
    assert found.kind == "nltk" and "wordnet.zip" in found.location
    lexicon = Lexicon.load()
    assert lexicon.source.kind == "nltk" and "wordnet.zip" in lexicon.root
    assert lexicon.link("sleep", "snore", "verb").relation == "entailment"


def test_debian_is_last_and_process_default_is_shared(lex):
    assert get_lexicon() is lex
    if lex.source.kind == "debian":
        assert get_lexicon(wordnet.DEBIAN_WORDNET) is lex


# -- the cache copy -------------------------------------------------------------------


def _fake_wordnet(folder):
    folder.mkdir()
    for name in wordnet.REQUIRED_FILES:
        (folder / name).write_text(f"{name}\n")
    return str(folder)


def test_cache_copy_is_reused_and_rebuilt_when_stale(monkeypatch, tmp_path):
    source = _fake_wordnet(tmp_path / "src")
    monkeypatch.setenv(wordnet.CACHE_ENV, str(tmp_path / "cache"))
    copy, temporary = wordnet._prepared_copy(source)
    assert not temporary and os.path.dirname(copy) == str(tmp_path / "cache")
    with open(os.path.join(copy, "lexnames"), encoding="utf-8") as handle:
        assert handle.read() == LEXNAMES
    assert wordnet._readable_in_place(copy)
    stamp = os.stat(os.path.join(copy, "data.verb")).st_mtime_ns
    assert wordnet._prepared_copy(source) == (copy, False)
    assert os.stat(os.path.join(copy, "data.verb")).st_mtime_ns == stamp  # not copied again
    with open(os.path.join(source, "data.verb"), "w", encoding="utf-8") as handle:
        handle.write("changed\n")
    assert wordnet._prepared_copy(source) == (copy, False)
    with open(os.path.join(copy, "data.verb"), encoding="utf-8") as handle:
        assert handle.read() == "changed\n"
    assert sorted(os.listdir(tmp_path / "cache")) == [os.path.basename(copy)]


def test_unwritable_cache_falls_back_to_a_temporary_folder(monkeypatch, tmp_path):
    source = _fake_wordnet(tmp_path / "src")
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv(wordnet.CACHE_ENV, str(tmp_path / "a-file" / "cache"))
    copy, temporary = wordnet._prepared_copy(source)
    try:
        assert temporary and os.path.isfile(os.path.join(copy, "lexnames"))
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def test_lexnames_table_matches_the_man_page():
    lines = LEXNAMES.splitlines()
    assert len(lines) == 45
    assert lines[0] == "00\tadj.all\t3" and lines[-1] == "44\tadj.ppl\t3"
    assert lines[29] == "29\tverb.body\t2" and lines[3] == "03\tnoun.Tops\t1"
    page = "/usr/share/man/man5/lexnames.5WN.gz"
    if os.path.exists(page):
        with gzip.open(page, "rt", encoding="utf-8") as handle:
            table = [line.split("\t")[:2] for line in handle if re.match(r"\d\d\t", line)]
        assert [[number, name.strip()] for number, name in table] == [line.split("\t")[:2] for line in lines]


def test_knows_says_whether_wordnet_has_the_word_in_that_part_of_speech(lex):
    assert lex.knows("buy", "verb") and lex.knows("bought", "verb")  # base forms count
    assert lex.knows("take over", "verb") and lex.knows("startup", "noun")
    assert not lex.knows("rebrand", "verb") and not lex.knows("unfriend", "verb")
    assert not lex.knows("quickly", "verb") and not lex.knows("", "verb")
    assert not Lexicon(None).knows("buy", "verb")


@pytest.mark.parametrize(
    "name, places",
    [
        ("Kenya", {"kenya.n.01"}),
        ("Kenyan", {"kenya.n.01"}),  # pertainym of the adjective
        ("Kenyans", {"kenya.n.01"}),  # plural, through its base form
        ("south korean", {"south_korea.n.01"}),  # case and spaces ignored
        ("Britain", {"united_kingdom.n.01"}),
        ("British", {"great_britain.n.02", "united_kingdom.n.01"}),  # Great_Britain's two senses
        ("Welsh", {"wales.n.01"}),  # one of five "Welsh" lemmas pertains to Wales
        ("Europe", {"europe.n.01"}),  # a continent is filed as noun.object
        ("Muslim", set()),  # pertains to Islamism, no place
        ("Labour", set()),
        ("Nairobi", {"nairobi.n.01"}),
    ],
)
def test_places_of_a_name(lex, name, places):
    assert lex.places(name) == places


def test_places_without_wordnet_are_empty():
    assert Lexicon(None).places("Kenya") == frozenset()
