"""Word-level support: which content words of a summary does the source hold?

New content words are the commonest hallucination of abstractive systems, and most of
them are no entity, relation or number ("restitution" written as "damages", a
"record" that was a "rise"). The CHI family's units see none of them. This module
checks every content word of the summary against the source (docs/lexical.md):

* a **content word** is a token that is not a stop word, punctuation or space, whose
  part of speech is in :data:`WORD_POS` (nouns, verbs, adjectives, adverbs; proper
  nouns too, see below) and which is not part of a number as written (numbers are
  QHI's: "1.2bn", the "m" of "750m", the "dollars" of "750m dollars"); one unit per
  distinct lemma, its first mention;
* it is **supported** by the source when the source has a token of the same lemma or
  written form (relation ``same``, any part of speech), or, through WordNet
  (:class:`halluscope.lexicon.lexical.Lexicon`), a lemma linked to it: synonym, hypernym
  (the summary says something more general), troponym/hyponym (one step more
  specific), verb entailment or verb group, each only from a source token of the
  word's own part of speech (WordNet's relations hold within one: the noun "increase"
  at the end of a source does not support the verb "climbed" as a troponym, nor the
  noun "wound" the verb "shot"), or a derivational form across parts of speech
  ("acquisition" ~ "acquire", "death" ~ "die");
* it is **contradicted** when it is not supported and the source holds one of its
  WordNet antonyms in the same part of speech ("fell" against "rose"), except for two
  verbs that may be the two sides of one transfer (buy/sell, lend/borrow with opposite
  :meth:`~halluscope.lexicon.lexical.Lexicon.transfer_direction`, and win/lose; not
  accept/reject), where a word without its arguments cannot tell a converse
  ("Moldova will borrow from Germany" for "Germany
  will lend to Moldova") from a contradiction: the relation units, which have roles,
  decide those;
* else it is **unsupported**.

Each supported word's :class:`~halluscope.units.Match` says which relation held
(``mode`` = the relation, ``detail`` = e.g. "buy ~ purchase (WordNet synonym)") and
points at the source token; a contradicted word's match has ``contradicts=True``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..match.opposites import may_be_converse
from ..text.index import TextIndex, content_flags, is_content, linkable
from ..text.names import acronym_form, initials, lowercase_acronym, surface_form
from ..text.number_words import CURRENCY_WORDS, SCALE_WORDS, SCALED_NUMBER
from ..text.token_table import TokenTable, doc_text
from ..units import Match, TextEvidence

#: spaCy coarse tags of content words and the WordNet part of speech each is looked up as
WORD_POS: dict[str, str] = {"NOUN": "noun", "PROPN": "noun", "VERB": "verb", "ADJ": "adj", "ADV": "adv"}


@dataclass(frozen=True)
class WordUnit:
    """One distinct content word of a summary: its lemma (lower case, the ``key``), its
    WordNet part of speech, the text and character span of its first mention."""

    key: str
    pos: str
    text: str
    span: tuple[int, int]
    proper: bool = False
    kind: str = field(default="word", init=False)


def _is_word(token) -> bool:
    return (
        token.pos_ in WORD_POS
        and is_content(token)
        and not token.like_num
        and any(c.isalpha() for c in token.text)
        and not _writes_a_number(token)
    )


def _writes_a_number(token) -> bool:
    """Whether the token is part of a number as written: a number with its scale glued
    on ("1.2bn"), a scale glued to the number before it (the "m" of "750m"), or a
    currency word right after a number or its scale ("750m dollars", "400 kroner")."""
    if SCALED_NUMBER.fullmatch(token.text):
        return True
    if token.i == 0:
        return False
    before = token.doc[token.i - 1]
    low = token.lower_
    if low in SCALE_WORDS and before.like_num and before.idx + len(before.text) == token.idx:
        return True
    return low in CURRENCY_WORDS and (
        before.like_num or before.lower_ in SCALE_WORDS or bool(SCALED_NUMBER.fullmatch(before.text))
    )


def content_words(doc, proper: bool = True) -> list[WordUnit]:
    """The summary's content words, one per lemma, in text order (module docstring);
    ``proper=False`` leaves out proper nouns (the entities' business)."""
    seen = set()
    out: list[WordUnit] = []
    for token in doc:
        if not _is_word(token) or (not proper and token.pos_ == "PROPN"):
            continue
        lemma = token.lemma_.lower()
        if lemma in seen:
            continue
        seen.add(lemma)
        out.append(
            WordUnit(
                lemma, WORD_POS[token.pos_], token.text, (token.idx, token.idx + len(token)), token.pos_ == "PROPN"
            )
        )
    return out


@dataclass(frozen=True)
class SourceWords:
    """The forms of a source text that can support a word: lower-cased text and lemma
    of every token, each with the first token that has it (``forms``), and the same of
    its content tokens alone (``content``), the only ones WordNet links may reach: a
    source's "was" must not support "sold" as its troponym. ``by_pos`` holds the
    content forms again per WordNet part of speech (:data:`WORD_POS` of the token's
    spaCy tag): every link but a derivation needs the summary word's own."""

    forms: dict[str, tuple[str, tuple[int, int]]]
    content: dict[str, tuple[str, tuple[int, int]]]
    by_pos: dict[str, dict[str, tuple[str, tuple[int, int]]]] = field(default_factory=dict)
    # the initials of the source's multi-word names ("FBI" for "Federal Bureau of
    # Investigation"), each with the first name that has them
    acronyms: dict[str, tuple[str, tuple[int, int]]] = field(default_factory=dict)

    @classmethod
    def build(cls, index: TextIndex) -> SourceWords:
        """:meth:`of` the index's ``Doc`` (what :meth:`TextIndex.derived` calls)."""
        return cls.of(index.doc)

    @classmethod
    def of(cls, doc) -> SourceWords:
        forms: dict[str, tuple[str, tuple[int, int]]] = {}
        content: dict[str, tuple[str, tuple[int, int]]] = {}
        by_pos: dict[str, dict[str, tuple[str, tuple[int, int]]]] = {pos: {} for pos in set(WORD_POS.values())}
        table, text = TokenTable(doc), doc_text(doc)  # the columns, not a Token per token
        content_token = content_flags(table)
        for i, lower in enumerate(table.lower):
            if table.is_punct[i] or table.is_space[i]:
                continue
            start, end = table.start_char[i], table.end_char[i]
            where = (text[start:end], (start, end))
            pos = WORD_POS.get(table.pos[i])
            for form in (lower, table.lemma[i].lower()):
                forms.setdefault(form, where)
                if content_token[i] and linkable(form):
                    content.setdefault(form, where)
                    if pos is not None:
                        by_pos[pos].setdefault(form, where)
        acronyms: dict[str, tuple[str, tuple[int, int]]] = {}
        for ent in doc.ents:
            for letters in sorted(initials(surface_form(ent.text, ent.label_))):
                acronyms.setdefault(letters, (ent.text, (ent.start_char, ent.end_char)))
        return cls(forms, content, by_pos, acronyms)


def _acronym(text: str) -> str | None:
    """The acronym a summary word spells: an all-caps (or dotted) form (:func:`acronym_form`),
    or a lower-case word of 2-6 letters as written in a lower-cased summary ("fbi")."""
    return acronym_form(text) or lowercase_acronym(text, 6)


def support_word(word: WordUnit, source: SourceWords, lexicon=None) -> Match | None:
    """How the source supports (or contradicts) one word; None when unsupported."""
    for form in (word.key, word.text.lower()):
        hit = source.forms.get(form)
        if hit is not None:
            return Match("same", (TextEvidence(*hit),), 1.0, f"'{hit[0]}' in the source")
    letters = _acronym(word.text)
    if letters is not None and letters in source.acronyms:
        name, span = source.acronyms[letters]
        return Match("acronym", (TextEvidence(name, span),), 1.0, f"{word.text} = {name} (acronym)")
    if lexicon is None or word.proper:
        return None
    supporters = lexicon.supporters(word.key, word.pos)
    same_pos = source.by_pos.get(word.pos, {})
    small, large = (
        (supporters, source.content) if len(supporters) < len(source.content) else (source.content, supporters)
    )
    # the smaller side iterated; a link within one part of speech needs a source token of it
    shared = [
        lemma for lemma in small if lemma in large and (lemma in same_pos or supporters.relation(lemma) == "derivation")
    ]
    if shared:
        lemma = min(shared)  # deterministic whatever the set order
        link = supporters[lemma]
        # not a derivation: shared above holds it only when same_pos does
        where = same_pos[lemma] if link.relation != "derivation" else source.content[lemma]
        return Match(link.relation, (TextEvidence(*where),), 1.0, link.text)
    for lemma in sorted(lexicon.antonyms(word.key, word.pos) & same_pos.keys()):
        if word.pos == "verb" and may_be_converse(word.key, lemma, lexicon):
            continue  # a converse or a contradiction: a word alone has no roles to tell
        link = lexicon.link(word.key, lemma, word.pos)
        return Match("antonym", (TextEvidence(*same_pos[lemma]),), 0.0, link.text, contradicts=True)
    return None


def source_words(index: TextIndex) -> SourceWords:
    """:meth:`SourceWords.of` the indexed source, built once per source and kept with
    its text index (:class:`halluscope.text.index.TextIndex`): a source shared by
    16 summaries is read once."""
    return index.derived(SourceWords)


def support_words(words: Sequence[WordUnit], source: TextIndex, lexicon=None) -> list[Match | None]:
    """:func:`support_word` for each word against one indexed source."""
    indexed = source_words(source)
    return [support_word(word, indexed, lexicon) for word in words]
