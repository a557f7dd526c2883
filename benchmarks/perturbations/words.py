"""Edits of words: an antonym or a reversed direction (``rose`` -> ``fell``,
``more`` -> ``fewer``), and a negation inserted or removed."""

from __future__ import annotations

import re

from benchmarks.perturbations.text import _replace, match_case


def _pairs(*groups: str) -> dict[str, str]:
    """``"a b"`` groups -> {a: b, b: a}; the first mapping of a word wins."""
    table: dict[str, str] = {}
    for group in groups:
        for pair in group.split(","):
            a, b = pair.split()
            table.setdefault(a, b)
            table.setdefault(b, a)
    return table


#: word -> its antonym or reversed direction, inflection kept
ANTONYMS = _pairs(
    "rose fell, rise fall, rises falls, rising falling, risen fallen",
    "increased decreased, increase decrease, increases decreases, increasing decreasing",
    "won lost, win lose, wins loses, winning losing",
    "accepted rejected, accept reject, accepts rejects, accepting rejecting",
    "approved rejected, approve reject, approves rejects, approving rejecting",
    "allowed banned, allow ban, allows bans, allowing banning",
    "after before, first last, higher lower, highest lowest, high low",
    "up down, above below, larger smaller, largest smallest, bigger smaller, biggest smallest",
    "better worse, best worst, raised lowered, strong weak, stronger weaker",
    "guilty innocent, legal illegal, positive negative, opened closed, early late, earlier later",
    "supported opposed, support oppose, supports opposes, bought sold, buy sell, buys sells, buying selling",
    "hired fired, north south, east west, northern southern, eastern western",
    "older younger, oldest youngest, agreed refused, succeeded failed, survived died, dead alive",
    "maximum minimum, inside outside, male female, gained lost, gains losses",
)
#: parts of speech an antonym may replace (not nouns or names: "Rose", "the fall")
ANTONYM_POS = {"VERB", "AUX", "ADJ", "ADV", "ADP", "SCONJ", "PART"}
_COUNTABLE_TAGS = {"NNS", "NNPS", "CD"}


def antonym(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """A verb, adjective, comparative or direction of :data:`ANTONYMS` flipped
    (``rose`` -> ``fell``, ``more`` -> ``fewer``/``less``, ...), case kept; with a parse
    only in :data:`ANTONYM_POS`, outside names, dates and times, not a phrasal verb's
    particle, not ``up to``."""
    candidates = []
    if summary_doc is not None:
        tokens = list(summary_doc)
        for i, token in enumerate(tokens):
            word = token.text.lower()
            if word not in ANTONYMS and word not in ("more", "less", "fewer"):
                continue
            if token.pos_ not in ANTONYM_POS or (token.ent_type_ and token.ent_type_ != "ORDINAL"):
                continue
            if token.tag_ == "RP" or token.dep_ == "prt":
                continue  # a phrasal verb's particle: "picked up" is no "picked down"
            following = tokens[i + 1] if i + 1 < len(tokens) else None
            if word == "up" and following is not None and following.lower_ == "to":
                continue
            if word == "more":
                new = (
                    "fewer"
                    if following is not None and (following.tag_ in _COUNTABLE_TAGS or following.lower_ == "than")
                    else "less"
                )
            elif word in ("less", "fewer"):
                new = "more"
            else:
                new = ANTONYMS[word]
            candidates.append((token.idx, token.idx + len(token.text), new))
    else:
        for match in re.finditer(r"[A-Za-z]+", summary):
            word = match.group().lower()
            if word in ANTONYMS or word in ("less", "fewer"):
                candidates.append((match.start(), match.end(), ANTONYMS.get(word, "more")))
    if not candidates:
        return None
    start, end, new = rng.choice(candidates)
    return _replace(summary, start, end, match_case(new, summary[start:end]))


#: finite auxiliaries' tags
_FINITE = {"VBZ", "VBD", "VBP", "MD"}
#: what spaCy leaves of a contracted auxiliary when "n't" is split off
_CONTRACTED = {"ca": "can", "wo": "will", "sha": "shall"}


def negation(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """``not`` inserted after the summary's first finite auxiliary (``was`` -> ``was
    not``, ``has won`` -> ``has not won``; none when it is already negated), or one
    negation removed (``not``/``n't`` after an auxiliary, ``never`` anywhere; ``can't``
    -> ``can``): one of these, ``rng.choice``. Needs a parse."""
    if summary_doc is None:
        return None
    tokens = list(summary_doc)
    options = []
    first = next((t for t in tokens if t.pos_ == "AUX" and t.tag_ in _FINITE), None)
    if first is not None:
        following = tokens[first.i + 1] if first.i + 1 < len(tokens) else None
        if following is None or following.lower_ not in ("not", "n't", "never", "nt"):
            end = first.idx + len(first.text)
            options.append((end, end, " not"))
    for token in tokens:
        word = token.lower_
        previous = tokens[token.i - 1] if token.i > 0 else None
        after_aux = previous is not None and previous.pos_ == "AUX"
        following = tokens[token.i + 1] if token.i + 1 < len(tokens) else None
        if word in ("not", "n't") and after_aux and not (following is not None and following.lower_ == "only"):
            start, end = token.idx, token.idx + len(token.text)
            if word == "n't" and previous.lower_ in _CONTRACTED:
                start = previous.idx
                options.append((start, end, match_case(_CONTRACTED[previous.lower_], previous.text)))
                continue
            while start > 0 and summary[start - 1] == " ":
                start -= 1
            options.append((start, end, ""))
        elif word == "never":
            start, end = token.idx, token.idx + len(token.text)
            while end < len(summary) and summary[end] == " ":
                end += 1
            new = ""
            if token.text[:1].isupper() and end < len(summary):
                # "Never had he..." -> capitalise what follows
                new, end = summary[end].upper(), end + 1
            options.append((start, end, new))
    if not options:
        return None
    start, end, new = rng.choice(options)
    return _replace(summary, start, end, new)
