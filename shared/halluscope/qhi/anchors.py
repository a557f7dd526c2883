"""Anchors: the head noun of the noun phrase a quantity belongs to."""

from __future__ import annotations

from ..text.number_words import _TIME_UNIT_FORMS, CURRENCY_WORDS, SCALE_WORDS
from .measures import _lookup_unit
from .numbers import _HAS_DIGIT


def _is_quantity_token(token) -> bool:
    low = token.lower_
    return (
        token.like_num
        or token.pos_ in ("NUM", "SYM")
        or low in SCALE_WORDS
        or low in CURRENCY_WORDS
        or low in _TIME_UNIT_FORMS
        or low in ("%", "percent", "cent", "per", "pounds", "pound")
        or bool(_HAS_DIGIT.search(token.text))
        or (token.is_alpha and _lookup_unit(token.text) is not None)
    )


def _subject_of(verb, memo: dict[int, str] | None = None) -> str:
    """Lemma of the verb's nominal subject, "" when none. ``memo`` (token index ->
    subject, for one Doc) keeps a verb that governs many quantities from being
    searched once per quantity: its children span its whole subtree."""
    if memo is not None and verb.i in memo:
        return memo[verb.i]
    subject = ""
    for child in verb.children:
        if child.dep_ in ("nsubj", "nsubjpass") and child.pos_ in ("NOUN", "PROPN"):
            subject = child.lemma_.lower()
            break
    if memo is not None:
        memo[verb.i] = subject
    return subject


def anchor_of(span, inside: bool = False, memo: dict[int, str] | None = None) -> str:
    """Lemma of the head of the noun phrase a quantity belongs to (CHI paper §3.4.1, docs/papers.md#qhi):
    the noun it modifies ("5 million people" -> people; "$4.2 billion acquisition
    price" -> price), the noun after "of" ("five of the players" -> player), the
    noun a preposition attaches it to ("revenue of $3.4 billion" -> revenue), or
    the subject of the verb it is an argument of ("Revenue grew 18%" -> revenue);
    "" when none. ``inside``: the mention's own head noun is what is counted
    ("400 migrants"). ``memo``: see :func:`_subject_of` (one dict per Doc)."""
    root = span.root
    if inside and root.pos_ in ("NOUN", "PROPN") and not _is_quantity_token(root):
        return root.lemma_.lower()
    for child in root.children:
        if child.dep_ == "prep" and child.lower_ == "of":
            for pobj in child.children:
                if pobj.dep_ == "pobj" and pobj.pos_ in ("NOUN", "PROPN") and not _is_quantity_token(pobj):
                    return pobj.lemma_.lower()
    token = root
    while token.dep_ == "conj" and token.head is not token and token.head.pos_ in ("NUM", "NOUN", "SYM"):
        token = token.head  # "$2 billion in March and $3 billion in April": the first conjunct's anchor
    head = token.head
    if head is token:
        return ""
    if head.pos_ in ("NOUN", "PROPN") and token.dep_ != "pobj" and not _is_quantity_token(head):
        return head.lemma_.lower()
    if token.dep_ == "pobj" and head.dep_ in ("prep", "agent", "dative"):
        governor = head.head
        if governor.pos_ in ("NOUN", "PROPN") and not _is_quantity_token(governor):
            return governor.lemma_.lower()
        if governor.pos_ in ("VERB", "AUX"):
            return _subject_of(governor, memo)
        return ""
    if head.pos_ in ("VERB", "AUX") and token.dep_ not in ("nsubj", "nsubjpass"):
        return _subject_of(head, memo)
    return ""
