"""Every cache has one owner (docs/architecture.md#caches-and-their-owners): the memoised
functions are listed in halluscope.memos, what is derived from texts belongs to a
Resources, what is derived from a text index lives on the index, keyed by its type."""

import ast
from pathlib import Path

import pytest
from halluscope import budget, memos, score_chi
from halluscope.ehi.recovered_names import written_words
from halluscope.resources import Resources
from halluscope.scorer import Scorer
from halluscope.text.casing import casing_table
from halluscope.text.index import TextIndex
from halluscope.text_tables import TextTables

PACKAGE = Path(memos.__file__).parent
MEMO_DECORATORS = {"lru_cache", "cache"}


def _decorator_name(decorator: ast.expr) -> str | None:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(target, ast.Attribute):
        return target.attr
    if isinstance(target, ast.Name):
        return target.id
    return None


def memoised_in_source() -> set[tuple[str, str]]:
    """(module, function) of every function of the package's source decorated with
    ``functools.lru_cache`` or ``functools.cache``, read with ``ast``."""
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                _decorator_name(d) in MEMO_DECORATORS for d in node.decorator_list
            ):
                found.add((module, node.name))
    return found


def test_every_memoised_function_is_listed_once():
    listed = [(memo.module, memo.name) for memo in memos.MEMOS]
    assert len(listed) == len(set(listed))
    assert set(listed) == memoised_in_source()


def test_the_source_scan_sees_both_spellings(tmp_path):
    assert ("halluscope.text.index", "word_stem") in memoised_in_source()  # @functools.lru_cache(...)
    assert ("halluscope.cli.chunked_scoring", "takes_dates") in memoised_in_source()  # @functools.cache


def test_every_listed_memo_is_a_memoised_function():
    for memo in memos.MEMOS:
        assert callable(memo.function(import_module=True).cache_clear), memo


def test_clear_memos_empties_the_memos_of_small_keys_and_keeps_the_tables():
    from halluscope.qhi.measures import unit_lexicon
    from halluscope.text.index import word_stem

    word_stem("richards")
    unit_lexicon()
    memos.clear_memos()
    assert word_stem.cache_info().currsize == 0
    assert unit_lexicon.cache_info().currsize == 1
    memos.clear_memos(loaded_once=True)
    assert unit_lexicon.cache_info().currsize == 0
    assert word_stem("richards") == "richard"


def test_text_tables_build_once_per_function_and_text():
    calls = []

    def count_words(text: str) -> int:
        calls.append(text)
        return len(text.split())

    tables = TextTables(budgeted=False)
    assert tables.of_text(count_words, "a b c") == 3
    assert tables.of_text(count_words, "a b c") == 3
    assert tables.of_text(len, "a b c") == 5  # another function: another table
    assert calls == ["a b c"] and len(tables) == 2 and tables.built == 2
    tables.store([(("key", "text"), "value")])
    assert tables.found([("key", "text"), ("other", "text")]) == {("key", "text"): "value"}
    tables.clear()
    assert len(tables) == 0


SOURCE = "Leon Yeaman, 55, was killed in Brisbane. Police said Yeaman was driving home."
SUMMARY = "leon yeaman was killed in brisbane ."


def test_a_call_keeps_its_source_tables_in_its_resources_and_clear_empties_them():
    owner, other = Resources(), Resources()
    Scorer("chi", resources=owner).score([SUMMARY], [SOURCE])
    assert owner.text_tables.found([(casing_table, SOURCE), (written_words, SOURCE)]) == {
        (casing_table, SOURCE): casing_table(SOURCE),
        (written_words, SOURCE): written_words(SOURCE),
    }
    assert len(other.text_tables) == 0  # two Resources share no cache
    owner.clear()
    assert len(owner.text_tables) == 0


def test_text_tables_follow_the_budget(restore_budget):
    tables = Resources().text_tables
    assert tables._entries.max_weight == budget.shares(budget.current_mb(), budget_counts("derived"))["derived"]
    score_chi([SUMMARY], [SOURCE], cache_mb=0)
    assert tables._entries.max_weight == 0


def budget_counts(kind: str) -> dict[str, int]:
    return {kind: budget.usage()[kind]["caches"]}


class _Lowered(str):
    """A type derived from an index, counting its builds."""

    builds = 0

    @classmethod
    def build(cls, index: TextIndex) -> "_Lowered":
        cls.builds += 1
        return cls(index.lowered)


def test_a_text_index_builds_what_is_derived_from_it_once_per_type():
    index = TextIndex("a text", [])
    assert index.derived(_Lowered) == "a text" and type(index.derived(_Lowered)) is _Lowered
    assert _Lowered.builds == 1
    assert TextIndex("a text", []).derived(_Lowered) == "a text"
    assert _Lowered.builds == 2  # another index: its own


@pytest.mark.parametrize("name", ["memo", "_memo"])
def test_a_text_index_has_no_string_keyed_memo(name):
    assert not hasattr(TextIndex("a text", []), name)
