"""The name runs between two words (halluscope.text.name_runs), found without a pattern
per pair of words: hand-read cases, and the same spans as the per-pair regular
expression they replace (docs/scaling.md#where-the-time-goes) on seeded generated texts."""

import random
import re

from halluscope.text.index import _lowered
from halluscope.text.name_runs import MAX_RUN_WORDS, SMALL_WORDS, names_before, names_between


def between(text, left, right):
    return [text[a:b] for a, b in names_between(text, _lowered(text), left, right)]


def before(text, right):
    return [text[a:b] for a, b in names_before(text, _lowered(text), right)]


def test_the_shortest_run_between_the_two_words_an_article_skipped():
    text = "They secure Arsenal's hold on it, and secure the Chelsea hold, not secure arsenal hold."
    assert between(text, "secure", "hold") == ["Arsenal's", "Chelsea"]
    assert names_between(text, _lowered(text), "secure", "hold") == [(12, 21), (49, 56)]
    # the left word in any case, whole: "insecure" is not "secure"
    assert between("Insecure Arsenal hold. SECURE Chelsea hold", "secure", "hold") == ["Chelsea"]


def test_a_run_holds_small_words_and_at_most_six_words():
    assert between("won the Tour de France title", "won", "title") == ["Tour de France"]
    assert between("at the Bank of England on Monday", "at", "on") == ["Bank of England"]
    six = "by Al Bo Cy Di Ed Fa today"
    assert between(six, "by", "today") == ["Al Bo Cy Di Ed Fa"] and MAX_RUN_WORDS == 6
    assert between("by Al Bo Cy Di Ed Fa Gu today", "by", "today") == []
    assert "de" in SMALL_WORDS and between("by A the the B today", "by", "today") == []


def test_a_shorter_word_lets_the_right_word_follow_inside_it():
    """The word ends where the right word can follow: "Smith's" read as "Smith" then "s"."""
    assert between("for Smith's sake", "for", "s") == ["Smith"]
    assert between("to the U.S. and back", "to", "s") == ["U"]


def test_the_sentence_start_and_end():
    assert between('"The Queen visited', "", "visited") == ["Queen"]
    # an opening article is skipped, even one that belongs to the name
    assert between("An Post said so", "", "said") == ["Post"]
    assert between("said by Lord Coe.", "by", "") == ["Lord Coe."]  # a full stop may end a word
    assert between("said by Lord Coe today.", "by", "") == []


def test_runs_before_a_word_open_a_word():
    text = "Surrounded by her father, Amanda Knox, 27, broke down; O'Neil, 27, wept"
    assert before(text, "27") == ["Amanda Knox", "O'Neil"]
    assert before("McDonald, 27, said", "27") == ["McDonald"]


# the per-pair patterns these functions replace (sessions 19-24), kept here as the oracle
_NAME_RUN = (
    r"[A-Z][\w'’.&-]*(?:\s+(?:(?:de|of|the|and|von|van|der|la|le|du|da|del|&)\s+)?"
    r"[A-Z][\w'’.&-]*){0,5}?"
)


def _followed_by(right):
    return r"[\W_]+(?i:" + re.escape(right) + r")(?![^\W_])"


def _pattern_between(left, right):
    opening = (
        r"(?<![^\W_])(?i:" + re.escape(left) + r")[\W_]+(?:(?i:the|an?)\s+)?" if left else r"^\W*(?:(?:The|An?)\s+)?"
    )
    return re.compile(opening + r"(" + _NAME_RUN + r")" + (_followed_by(right) if right else r"\W*$"))


def _pattern_before(right):
    return re.compile(r"(?<![^\W_])(" + _NAME_RUN + r")" + _followed_by(right))


_PIECES = [
    "The",
    "the",
    "A",
    "a",
    "An",
    "an",
    "Ann",
    "Bank",
    "of",
    "England",
    "Tour",
    "de",
    "France",
    "del",
    "Potro",
    "O'Neil",
    "U.S.",
    "Al-Qaeda",
    "Chelsea's",
    "Arsenal",
    "hold",
    "secure",
    "said",
    "in",
    "Mr.",
    "&",
    "AT&T",
    "X_Y",
    "Über",
    "Van",
    "van",
    "der",
    "s",
    "'s",
    "’s",
    "Smith",
    "won",
    "Old",
    "Trafford",
    ",",
    ".",
    "-",
    "(",
    '"',
    "27",
    "_",
    "la",
    "Le",
    "du",
    "von",
    "and",
]
_SEPARATORS = [" ", " ", " ", "  ", "\n", ", ", "-", ""]


def test_the_same_spans_as_the_per_pair_patterns_on_generated_texts():
    rng = random.Random(25)
    found = 0
    for _ in range(4000):
        text = "".join(rng.choice(_PIECES) + rng.choice(_SEPARATORS) for _ in range(rng.randint(1, 14))).strip()
        lowered = _lowered(text)
        words = re.findall(r"[^\W_]+", lowered) + ["", "zz"]
        left, right = rng.choice(words), rng.choice(words)
        expected = [m.span(1) for m in _pattern_between(left, right).finditer(text)]
        assert names_between(text, lowered, left, right) == expected, (text, left, right)
        found += bool(expected)
        if right:
            expected = [m.span(1) for m in _pattern_before(right).finditer(text)]
            assert names_before(text, lowered, right) == expected, (text, right)
            found += bool(expected)
    assert found > 1000  # the texts do hold runs


def test_a_word_with_a_long_run_of_punctuation_reads_as_the_pattern_did():
    """Each end tried inside a word reuses the non-word run found after the end before it
    (linear in the word; the per-pair pattern backtracked through it quadratically)."""
    text = "by A" + "'" * 300 + " Z" + "-" * 300 + " end"
    lowered = _lowered(text)
    for left, right in (("by", "end"), ("by", ""), ("", "end")):
        expected = [m.span(1) for m in _pattern_between(left, right).finditer(text)]
        assert names_between(text, lowered, left, right) == expected
    assert names_between(text, lowered, "by", "end") == [(3, len(text) - 4)]
    assert names_before(text, lowered, "end") == [m.span(1) for m in _pattern_before("end").finditer(text)]
