"""Perturbation suite: seeded single-error edits of human-labelled consistent summaries.
Does chi (and the index meant for that kind of error) score the edited summary lower
than the original, against the same source?

Cases: the consistent summaries (label 1) of every validation file (the SummaC files and
FRANK; a (source, summary) pair that two files hold counts once, and a pair labelled
inconsistent in any file is left out), with ``--half`` choosing the rows
(``_common.lockbox_half``). For each edit type (:data:`EDITS`) the rows are drawn in a
seeded order and the type's edit function is tried on each until ``--per-type`` cases
are found or the rows run out. An edit function takes ``(summary, source, rng,
summary_doc, source_doc, others)`` (the docs parsed by the spaCy model halluscope loads;
an all-lower-case summary, as FRANK's CNN/DM ones, parsed truecased against its source,
which keeps every offset; ``others``: the parsed sources of the other rows) and returns
the edited summary, or None when it does not apply.

Scoring, reference-free: the originals in one ``halluscope.api.score_chi`` call, each
type's edited summaries in one more. A case is caught by a score when the edited
summary's score is strictly lower than the original's (an undefined score on either
side: not caught). Reported per type: n, the share caught by chi, by the type's own
index (:data:`OWN_INDEX`: qhi for numbers, ehi for entities, rhi for antonyms, role swaps and
negation) with the number of cases where it is defined on both sides, the own index
again with an undefined original counted as 1 (as the harness ranks an undefined score:
an index that had no unit and finds the edit's contradiction caught it), and by the
word-overlap baseline ``_common.alnum_precision``; the share of edited summaries still
at chi >= 0.5; the own index on the cased summaries alone (most validation summaries are
all lower case, where a new name cannot be truecased). The false-alarm side: the share of
the paraphrase suite's faithful paraphrases with chi >= 0.5 (``paraphrase.py``), and of
the originals themselves.

    python -m benchmarks.perturb --data ../shared/data --half design --per-type 150
    python -m benchmarks.perturb --data ../shared/data --half design --per-type 150 --show-misses 5 --json /tmp/p.json
    python -m benchmarks.perturb --data ../shared/data --half lockbox --record docs/benchmarks/perturb-lockbox.json

``--record`` keeps the shares without the data's text (:func:`record_of`); the two
records in docs/benchmarks/ (``perturb-design.json``, ``perturb-lockbox.json``) make the
table of docs/benchmarks.md#what-the-indices-catch-controlled-single-error-edits
(``benchmarks.report.perturbation_section``).
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import random
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks._common import (
    CHI_SCORES,
    DIMENSIONS,
    HALVES,
    alnum_precision,
    alnum_tokens,
    load_dataset,
    normalise_text,
    percent,
)
from benchmarks.harness import json_safe

# ------------------------------------------------------------------------- reading numbers

_NUMBER = re.compile(
    r"""
    (?<![\w.,/:$£€¥-])
    (?P<currency>(?:US|A|C|HK|NZ|S)?[$£€¥])?
    (?P<int>\d{1,3}(?:,\d{3})+|\d+)
    (?:\.(?P<dec>\d+))?
    (?P<scale>\ ?(?:million|billion|trillion|bn|m|k)(?!\w))?
    (?P<percent>\ ?(?:%|per\ ?cent(?!\w)|percent(?!\w)))?
    (?!\w|[.,/:-]\d)
""",
    re.X,
)
_SCALES = {"million": 1e6, "billion": 1e9, "trillion": 1e12, "bn": 1e9, "m": 1e6, "k": 1e3}
_CURRENCY_WORDS = re.compile(r"\s(?:pounds|dollars|euros|yuan|yen|rupees|pence|cents|francs|dollar|euro|pound)\b", re.I)
#: entity labels a number may carry to count as an amount (None: outside every entity)
_AMOUNT_LABELS = {"", "MONEY", "CARDINAL", "PERCENT", "QUANTITY", "DATE"}
_DURATION = re.compile(r"\b(?:years?|months?|weeks?|days?|decades?|hours?|minutes?|seconds?|centur(?:y|ies))\b", re.I)


@dataclass(frozen=True)
class Number:
    """A number written with digits: its span in the text, its parts as written and its
    kind (``money``, ``percent``, ``plain`` or ``year``)."""

    start: int
    end: int
    text: str
    currency: str
    integer: str
    decimals: str
    scale: str
    percent: str
    kind: str

    @property
    def written(self) -> float:
        """The number as written, before its scale (``$1.5 million`` -> 1.5)."""
        return float(self.integer.replace(",", "") + ("." + self.decimals if self.decimals else ""))

    @property
    def value(self) -> float:
        """The amount it denotes (``$1.5 million`` -> 1.5e6)."""
        return self.written * _SCALES.get(self.scale.strip().lower(), 1.0)


def _entity_at(doc, start: int, end: int) -> tuple[str, str]:
    """(label, text) of the entity of ``doc`` overlapping the characters
    [start, end), ("", "") when none."""
    if doc is None:
        return "", ""
    for ent in doc.ents:
        if ent.start_char < end and start < ent.end_char:
            return ent.label_, ent.text
    return "", ""


def find_numbers(text: str, doc=None) -> list[Number]:
    """The numbers written with digits in ``text`` that read as an amount or a year
    (not parts of dates, times, ranges, scores, versions or names). With ``doc`` (a
    parse of ``text`` or of a same-length truecased copy), numbers inside entities other
    than amounts and durations are left out, and a 1900-2099 number is a year only
    inside a DATE entity (an amount inside a CARDINAL, MONEY or QUANTITY one)."""
    found = []
    for match in _NUMBER.finditer(text):
        currency, integer = match.group("currency") or "", match.group("int")
        decimals, scale, percent = match.group("dec") or "", match.group("scale") or "", match.group("percent") or ""
        if scale.strip() in ("m", "k") and not currency:
            continue  # 5m: metres or million?
        if currency and percent:
            continue
        kind = "money" if currency or _CURRENCY_WORDS.match(text, match.end()) else ("percent" if percent else "plain")
        year_like = (
            kind == "plain" and not decimals and not scale and len(integer) == 4 and 1900 <= int(integer) <= 2099
        )
        label, entity = _entity_at(doc, match.start(), match.end())
        if doc is not None:
            if label not in _AMOUNT_LABELS:
                continue
            if year_like:
                if label == "DATE":
                    kind = "year"
                elif label not in ("CARDINAL", "MONEY", "QUANTITY"):
                    continue  # no entity: a year or a count? neither
            elif label == "DATE" and not _DURATION.search(entity):
                continue  # a day of a month, ...
        elif year_like:
            kind = "year"
        found.append(
            Number(match.start(), match.end(), match.group(), currency, integer, decimals, scale, percent, kind)
        )
    return found


def write_number(value: float, like: Number, decimals: int | None = None) -> str:
    """``value`` (before the scale) written as ``like`` is: its currency, thousands
    commas (when it has them), scale and per cent sign; with ``like``'s decimals, or
    more (up to 3) when ``value`` needs them, unless ``decimals`` is given."""
    if decimals is None:
        decimals = len(like.decimals)
        while decimals < 3 and abs(round(value, decimals) - value) > 1e-9 * max(1.0, abs(value)):
            decimals += 1
    body = f"{value:,.{decimals}f}" if "," in like.integer else f"{value:.{decimals}f}"
    return like.currency + body + like.scale + like.percent


def _replace(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def _amounts(summary: str, summary_doc) -> list[Number]:
    return [n for n in find_numbers(summary, summary_doc) if n.kind in ("money", "percent", "plain")]


def _scaled(summary: str, summary_doc, rng: random.Random, factor: float) -> str | None:
    candidates = [n for n in _amounts(summary, summary_doc) if n.written > 0]
    if not candidates:
        return None
    number = rng.choice(candidates)
    return _replace(summary, number.start, number.end, write_number(number.written * factor, number))


# ------------------------------------------------------------------------- the edit types


def amount_x2(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """An amount written with digits (money, per cent, a count) doubled, written in the
    same format: ``$400 million`` -> ``$800 million``."""
    return _scaled(summary, summary_doc, rng, 2.0)


def amount_x0_5(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """An amount halved, same format (decimals added when needed): ``25`` -> ``12.5``."""
    return _scaled(summary, summary_doc, rng, 0.5)


def amount_shift(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """An amount moved 7-15% up or down (``rng.choice((1, -1))``, ``rng.uniform(0.07,
    0.15)``), rounded to the decimals as written; the first amount (in ``rng.shuffle``
    order) whose rounded value differs and moved 4-20% after rounding."""
    candidates = [n for n in _amounts(summary, summary_doc) if n.written > 0]
    rng.shuffle(candidates)
    for number in candidates:
        sign = rng.choice((1, -1))
        factor = 1 + sign * rng.uniform(0.07, 0.15)
        places = len(number.decimals)
        new = round(number.written * factor, places)
        change = abs(new - number.written) / number.written
        if new != number.written and 0.04 <= change <= 0.2 and new > 0:
            return _replace(summary, number.start, number.end, write_number(new, number, places))
    return None


YEAR_SHIFTS = (-3, -2, -1, 1, 2, 3)


def year_shift(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """A year (1900-2099; with a parse, inside a DATE entity) shifted by one of
    :data:`YEAR_SHIFTS` (``rng.shuffle`` order), the first giving a year the source does
    not write (else the first)."""
    years = [n for n in find_numbers(summary, summary_doc) if n.kind == "year"]
    if not years:
        return None
    year = rng.choice(years)
    shifts = list(YEAR_SHIFTS)
    rng.shuffle(shifts)
    written = set(re.findall(r"\d+", source))
    new = next(
        (int(year.integer) + s for s in shifts if str(int(year.integer) + s) not in written),
        int(year.integer) + shifts[0],
    )
    return _replace(summary, year.start, year.end, str(new))


def number_swap_source(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """A number of the summary replaced by a different number of the same kind (money,
    per cent, plain, year) that the source writes, as the source writes it."""
    mine = find_numbers(summary, summary_doc)
    theirs = find_numbers(source, source_doc)
    rng.shuffle(mine)
    for number in mine:
        options = sorted(
            {
                n.text
                for n in theirs
                if n.kind == number.kind and not math.isclose(n.value, number.value) and n.text != number.text
            }
        )
        if options:
            return _replace(summary, number.start, number.end, rng.choice(options))
    return None


ENTITY_LABELS = ("PERSON", "ORG", "GPE")
#: names of one place (an entity swap among them is no error)
ALIASES = (
    {"us", "u.s.", "u.s", "usa", "u.s.a.", "united states", "america", "the united states"},
    {"uk", "u.k.", "britain", "great britain", "united kingdom", "the united kingdom"},
    {"un", "u.n.", "united nations", "the united nations"},
    {"eu", "e.u.", "european union", "the european union"},
)
_STOP = {"the", "of", "and", "for", "in", "on", "at", "a", "an", "de", "la", "al"}


def _clean_entity(text: str) -> str | None:
    """An entity's text usable as a replacement: ``the``/possessive stripped, one line,
    2-40 characters, every word but :data:`_STOP` words capitalised (a name as a cased
    source writes it: no "urbi et orbi", nothing from a lower-cased source); None
    otherwise."""
    text = re.sub(r"(?:'s|’s|')$", "", text.strip())
    text = re.sub(r"^(?:the|The)\s+", "", text).strip()
    if not (2 <= len(text) <= 40) or "\n" in text or "," in text or not any(c.isalpha() for c in text):
        return None  # (a comma: a list the parser read as one name, "Chelsea, Arsenal")
    words = re.findall(r"[^\W\d_][\w'.&-]*", text)
    if not words or any(not w[0].isupper() and w.lower() not in _STOP for w in words):
        return None
    return text


def _name_words(text: str) -> list[str]:
    """A lower-cased name's letter runs other than :data:`_STOP` words ("m&s" -> m, s)."""
    return [w for w in re.findall(r"[^\W\d_]+", text) if w not in _STOP]


def _same_referent(a: str, b: str) -> bool:
    """Whether two entity texts may name the same thing: one contains the other, they
    share a content word, one is written as the other's initials ("M&S", "Marks &
    Spencer") or they are known aliases (case-insensitive)."""
    x, y = a.lower().strip(), b.lower().strip()
    if x in y or y in x:
        return True
    if (set(alnum_tokens(x)) - _STOP) & (set(alnum_tokens(y)) - _STOP):
        return True
    for short, long in ((x, y), (y, x)):  # "m&s" written as the initials of "marks & spencer"
        letters = "".join(_name_words(short))
        if len(letters) >= 2 and letters == "".join(w[0] for w in _name_words(long)):
            return True
    return any(x in group and y in group for group in ALIASES)


def _written_beside(a: str, b: str, source: str) -> bool:
    """Whether the source writes the two names one right after the other, a comma between
    ("Benghazi, Libya": a place and the place that holds it, so the one says the other)."""
    x, y = re.escape(a.lower()), re.escape(b.lower())
    return re.search(rf"(?<!\w)(?:{x}\s*,\s*{y}|{y}\s*,\s*{x})(?!\w)", source.lower()) is not None


def _summary_entities(summary_doc) -> list:
    return [
        e
        for e in (summary_doc.ents if summary_doc is not None else ())
        if e.label_ in ENTITY_LABELS and "\n" not in e.text
    ]


def _written_like(new: str, summary: str) -> str:
    """``new`` lower-cased when the summary is written all in lower case."""
    return new if any(c.isupper() for c in summary) else new.lower()


def _swap_entity(summary: str, entity, new: str) -> str:
    return _replace(summary, entity.start_char, entity.end_char, _written_like(new, summary))


def entity_swap_other(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """A PERSON/ORG/GPE entity replaced by an entity of the same label from another
    source document (``others``, up to 30 draws), one that neither this source nor the
    summary mentions and that may not name the same thing."""
    entities = _summary_entities(summary_doc)
    if not entities or not others:
        return None
    entity = rng.choice(entities)
    source_lower, summary_lower = source.lower(), summary.lower()
    for _ in range(30):
        other = rng.choice(others)
        if other is source_doc or other.text == source:
            continue
        options = sorted({c for c in (_clean_entity(e.text) for e in other.ents if e.label_ == entity.label_) if c})
        if not options:
            continue
        new = rng.choice(options)
        if (
            new.lower() not in source_lower
            and new.lower() not in summary_lower
            and not _same_referent(new, entity.text)
        ):
            return _swap_entity(summary, entity, new)
    return None


def entity_swap_source(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """A PERSON/ORG/GPE entity replaced by a different entity of the same label that the
    same source mentions: not a substring or superstring of it, no shared content word,
    not its initials, no known alias, not already in the summary, not written beside it
    with a comma ("Benghazi, Libya")."""
    entities = _summary_entities(summary_doc)
    if not entities or source_doc is None:
        return None
    rng.shuffle(entities)
    summary_lower = summary.lower()
    for entity in entities:
        options = sorted(
            {
                c
                for c in (_clean_entity(e.text) for e in source_doc.ents if e.label_ == entity.label_)
                if c
                and not _same_referent(c, entity.text)
                and c.lower() not in summary_lower
                and not _written_beside(c, entity.text, source)
            }
        )
        if options:
            return _swap_entity(summary, entity, rng.choice(options))
    return None


#: the labels of names whose roles :func:`role_swap` exchanges
ROLE_LABELS = ("PERSON", "ORG", "GPE", "NORP")


def _name_headed_by(token, summary_doc) -> tuple[int, int] | None:
    """The characters of the name (an entity of :data:`ROLE_LABELS`) whose root is
    ``token``, a leading "the" left out; None when no such name, when the name does not
    hold every word of the noun's compound ("raheem" of "raheem sterling" outside the
    entity), or when the noun is coordinated ("Ronaldo and Casillas")."""
    if token.dep_ == "conj" or any(c.dep_ in ("conj", "cc") for c in token.children):
        return None
    for entity in summary_doc.ents:
        if entity.label_ in ROLE_LABELS and entity.root.i == token.i and "\n" not in entity.text:
            if any(c.dep_ in ("compound", "flat") and not entity.start <= c.i < entity.end for c in token.children):
                return None
            start = entity.start_char
            if entity[0].lower_ == "the" and len(entity) > 1:
                start = entity[1].idx
            return start, entity.end_char
    return None


def role_swap(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """The names of a verb's subject and direct object exchanged: "Bayern Munich beat
    Porto" -> "Porto beat Bayern Munich". An active verb with one ``nsubj`` and one
    ``dobj``, or a passive verb with one ``nsubjpass`` and one agent ("Porto were beaten
    by Bayern"), each the root of a PERSON/ORG/GPE/NORP name that may not name the same
    thing as the other; each name keeps its own case. The edit adds and removes no
    word, so word overlap cannot see it."""
    if summary_doc is None:
        return None
    options = []
    for token in summary_doc:
        if token.pos_ not in ("VERB", "AUX"):
            continue
        subjects = [c for c in token.children if c.dep_ == "nsubj"]
        objects = [c for c in token.children if c.dep_ == "dobj"]
        if not subjects and not objects:  # a passive with its agent: "Y was beaten by X"
            subjects = [c for c in token.children if c.dep_ == "nsubjpass"]
            objects = [g for c in token.children if c.dep_ == "agent" for g in c.children if g.dep_ == "pobj"]
        if len(subjects) != 1 or len(objects) != 1:
            continue
        first, second = _name_headed_by(subjects[0], summary_doc), _name_headed_by(objects[0], summary_doc)
        if first is None or second is None:
            continue
        first, second = sorted((first, second))
        if first[1] > second[0]:
            continue
        a, b = summary[first[0] : first[1]], summary[second[0] : second[1]]
        if not _same_referent(a, b):
            options.append((first, second))
    if not options:
        return None
    (a0, a1), (b0, b1) = rng.choice(options)
    return summary[:a0] + summary[b0:b1] + summary[a1:b0] + summary[a0:a1] + summary[b1:]


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


def match_case(new: str, old: str) -> str:
    """``new`` in the case of ``old``: ALL CAPS, Capitalised or as given."""
    if len(old) > 1 and old.isupper():
        return new.upper()
    if old[:1].isupper():
        return new[:1].upper() + new[1:]
    return new


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


#: unit (lower case) -> (singular, plural) of the unit it becomes; "pounds" (money or
#: weight?) and "per cent" are never changed
UNITS = {
    "km": ("mile", "miles"),
    "kilometres": ("mile", "miles"),
    "kilometers": ("mile", "miles"),
    "kilometre": ("mile", "miles"),
    "kilometer": ("mile", "miles"),
    "miles": ("kilometre", "kilometres"),
    "mile": ("kilometre", "kilometres"),
    "mph": ("km/h", "km/h"),
    "km/h": ("mph", "mph"),
    "kg": ("lb", "lbs"),
    "kilograms": ("pound", "pounds"),
    "kilogram": ("pound", "pounds"),
    "lbs": ("kg", "kg"),
    "lb": ("kg", "kg"),
    "°c": ("°F", "°F"),
    "°f": ("°C", "°C"),
    "celsius": ("Fahrenheit", "Fahrenheit"),
    "fahrenheit": ("Celsius", "Celsius"),
    "million": ("billion", "billion"),
    "billion": ("million", "million"),
    "trillion": ("billion", "billion"),
    "bn": ("m", "m"),
    "metres": ("foot", "feet"),
    "meters": ("foot", "feet"),
    "metre": ("foot", "feet"),
    "meter": ("foot", "feet"),
    "feet": ("metre", "metres"),
    "foot": ("metre", "metres"),
    "ft": ("m", "m"),
    "cm": ("inch", "inches"),
    "inches": ("centimetre", "centimetres"),
    "inch": ("centimetre", "centimetres"),
    "litres": ("gallon", "gallons"),
    "liters": ("gallon", "gallons"),
    "gallons": ("litre", "litres"),
    "hours": ("minute", "minutes"),
    "hour": ("minute", "minutes"),
    "minutes": ("hour", "hours"),
    "minute": ("hour", "hours"),
    "days": ("week", "weeks"),
    "day": ("week", "weeks"),
    "weeks": ("day", "days"),
    "week": ("day", "days"),
    "months": ("year", "years"),
    "month": ("year", "years"),
    "years": ("month", "months"),
    "year": ("month", "months"),
    "acres": ("hectare", "hectares"),
    "hectares": ("acre", "acres"),
}
_UNIT = re.compile(
    r"(?<![\w.,])(?P<num>\d+(?:[.,]\d+)*)(?P<gap>\s?-?)(?P<unit>km/h|°[CcFf]|(?:degrees?\s)?(?:"
    + "|".join(sorted((re.escape(u) for u in UNITS if not u.startswith("°")), key=len, reverse=True))
    + r"))(?![\w/])",
    re.I,
)


def unit_change(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """The unit after a number swapped (:data:`UNITS`: km <-> miles, °C <-> °F, kg <->
    lbs, million <-> billion, metres <-> feet, hours <-> minutes, days <-> weeks, months
    <-> years, ...), the number kept; singular after 1, the unit's case kept."""
    options = []
    for match in _UNIT.finditer(summary):
        unit = match.group("unit")
        prefix = ""
        if unit.lower().startswith("degree"):
            prefix, unit = unit[: unit.index(" ") + 1], unit[unit.index(" ") + 1 :]
        key = unit.lower()
        if key not in UNITS or (prefix and key not in ("celsius", "fahrenheit", "c", "f")):
            continue
        singular, plural = UNITS[key]
        new = singular if match.group("num") == "1" or match.group("gap").endswith("-") else plural
        if key in ("celsius", "fahrenheit") or key.startswith("°"):
            new = singular
        elif unit[:1].isupper() and not unit.isupper():
            new = match_case(new, unit)
        start = match.start("unit") + len(prefix)
        options.append((start, match.end("unit"), new))
    if not options:
        return None
    start, end, new = rng.choice(options)
    return _replace(summary, start, end, new)


ORDINAL_WORDS = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
)
_ORDINAL = re.compile(r"(?<![\w.,])(?P<n>\d+)(?P<suffix>st|nd|rd|th)(?!\w)", re.I)


def ordinal_suffix(n: int) -> str:
    """``1`` -> ``st``, ``2`` -> ``nd``, ``11`` -> ``th``, ``23`` -> ``rd``."""
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _other_ordinals(n: int) -> list[int]:
    return [m for m in (n + 1, n - 1, n + 2) if m >= 1 and m != n]


def ordinal_change(summary, source, rng, summary_doc=None, source_doc=None, others=()) -> str | None:
    """An ordinal changed to a neighbour (n+1, n-1, n+2; ``rng.choice``): a word
    (``first`` -> ``second``, up to ``twentieth``; with a parse only an adjective: not
    ``a second`` the noun, ``was first arrested`` the adverb) or digits (``2nd`` ->
    ``3rd``); never before ``of`` (``a third of``: a fraction)."""
    options = []
    for match in re.finditer(r"[A-Za-z]+", summary):
        word = match.group().lower()
        if word not in ORDINAL_WORDS or re.match(r"\s+of\b", summary[match.end() :], re.I):
            continue
        if summary_doc is not None:
            token = next((t for t in summary_doc if t.idx == match.start()), None)
            if token is None or token.pos_ != "ADJ":
                continue
        n = ORDINAL_WORDS.index(word) + 1
        choices = [m for m in _other_ordinals(n) if m <= len(ORDINAL_WORDS)]
        options.append((match.start(), match.end(), [match_case(ORDINAL_WORDS[m - 1], match.group()) for m in choices]))
    for match in _ORDINAL.finditer(summary):
        n = int(match.group("n"))
        suffix = match.group("suffix")
        options.append(
            (
                match.start(),
                match.end(),
                [
                    f"{m}{ordinal_suffix(m).upper() if suffix.isupper() else ordinal_suffix(m)}"
                    for m in _other_ordinals(n)
                ],
            )
        )
    if not options:
        return None
    start, end, choices = rng.choice(options)
    return _replace(summary, start, end, rng.choice(choices))


#: edit type -> edit function
EDITS: dict[str, Callable[..., str | None]] = {
    "amount_x2": amount_x2,
    "amount_x0.5": amount_x0_5,
    "amount_shift": amount_shift,
    "year_shift": year_shift,
    "number_swap_source": number_swap_source,
    "entity_swap_other": entity_swap_other,
    "entity_swap_source": entity_swap_source,
    "antonym": antonym,
    "negation": negation,
    "unit_change": unit_change,
    "ordinal_change": ordinal_change,
    "role_swap": role_swap,
}
#: edit type -> the index meant to catch it
OWN_INDEX = {
    **{
        name: "qhi"
        for name in (
            "amount_x2",
            "amount_x0.5",
            "amount_shift",
            "year_shift",
            "number_swap_source",
            "unit_change",
            "ordinal_change",
        )
    },
    "entity_swap_other": "ehi",
    "entity_swap_source": "ehi",
    "antonym": "rhi",
    "negation": "rhi",
    "role_swap": "rhi",
}
BASELINE = "alnum"


def changed_span(original: str, edited: str) -> tuple[int, int, int, str, str]:
    """(start, end in the original, end in the edited, old text, new text) of the one
    stretch where the two differ (common prefix and suffix removed)."""
    start = 0
    while start < min(len(original), len(edited)) and original[start] == edited[start]:
        start += 1
    end_o, end_e = len(original), len(edited)
    while end_o > start and end_e > start and original[end_o - 1] == edited[end_e - 1]:
        end_o, end_e = end_o - 1, end_e - 1
    # whole words: "first" -> "last" differ in "fir" / "la" only
    while start > 0 and original[start - 1].isalnum() and edited[start - 1].isalnum():
        start -= 1
    while end_o < len(original) and end_e < len(edited) and original[end_o].isalnum():
        end_o, end_e = end_o + 1, end_e + 1
    return start, end_o, end_e, original[start:end_o], edited[start:end_e]


# ------------------------------------------------------------------------------- the pool


@dataclass
class Row:
    """One consistent (source, summary) pair of the pool: which file(s) it came from."""

    files: tuple[str, ...]
    source: str
    summary: str


def load_pool(data: str, half: str | None) -> tuple[list[Row], dict[str, int]]:
    """The consistent pairs of every validation file under ``data`` (``summac/*_val.jsonl``
    and ``frank/frank_val.jsonl``) in the ``half``, each pair once (whitespace-normalised),
    pairs labelled inconsistent in any file left out. Also per file the consistent rows
    read."""
    paths = sorted(glob.glob(os.path.join(data, "summac", "*_val.jsonl")))
    frank = os.path.join(data, "frank", "frank_val.jsonl")
    named = [(p, None) for p in paths] + ([(frank, "FRANK")] if os.path.exists(frank) else [])
    if not named:
        raise SystemExit(f"no validation files under {data}")
    pairs: dict[tuple[str, str], dict[str, Any]] = {}
    counts: dict[str, int] = {}
    for path, name in named:
        dataset = load_dataset(path, name=name, half=half)
        counts[dataset.name] = sum(dataset.labels)
        for source, summary, label in zip(dataset.sources, dataset.predictions, dataset.labels, strict=True):
            key = (normalise_text(source), normalise_text(summary))
            entry = pairs.setdefault(key, {"files": [], "source": source, "summary": summary, "bad": False})
            entry["bad"] |= label != 1
            if label == 1 and dataset.name not in entry["files"]:
                entry["files"].append(dataset.name)
    rows = [
        Row(tuple(e["files"]), e["source"], e["summary"])
        for e in pairs.values()
        if not e["bad"] and e["files"] and e["summary"].strip()
    ]
    return rows, counts


def parse_pool(rows: Sequence[Row]):
    """(summary docs, source docs, distinct source docs) with halluscope's spaCy model
    and parse cache; an all-lower-case summary parsed truecased against its source."""
    from halluscope.resources import get_resources
    from halluscope.text.casing import truecase

    cache = get_resources().parse_cache()
    cache.maxsize = max(cache.maxsize, 4 * len(rows) + 4096)
    shown = [r.summary if any(c.isupper() for c in r.summary) else truecase(r.summary, r.source) for r in rows]
    summary_docs = [p.doc for p in cache.get_many(shown)]
    distinct = list(dict.fromkeys(r.source for r in rows))
    parsed = dict(zip(distinct, (p.doc for p in cache.get_many(distinct)), strict=True))
    return summary_docs, [parsed[r.source] for r in rows], [parsed[s] for s in distinct]


def draw_cases(
    rows: Sequence[Row], summary_docs, source_docs, distinct_docs, edit: str, per_type: int, seed: int
) -> list[dict[str, Any]]:
    """Up to ``per_type`` cases of one edit type: rows in a seeded order
    (``random.Random(f"{seed}:{edit}")``), the edit tried on each."""
    rng = random.Random(f"{seed}:{edit}")
    order = list(range(len(rows)))
    rng.shuffle(order)
    function = EDITS[edit]
    cases = []
    for i in order:
        if len(cases) >= per_type:
            break
        row = rows[i]
        try:
            edited = function(row.summary, row.source, rng, summary_docs[i], source_docs[i], distinct_docs)
        except Exception as error:  # noqa: BLE001 - an edit bug must not end the suite; report it
            print(f"{edit}: edit failed on row {i}: {type(error).__name__}: {error}", file=sys.stderr)
            continue
        if edited is None or edited == row.summary or not edited.strip():
            continue
        start, end_o, end_e, old, new = changed_span(row.summary, edited)
        cases.append(
            {
                "type": edit,
                "row": i,
                "files": list(row.files),
                "original": row.summary,
                "edited": edited,
                "cased": any(c.isupper() for c in row.summary),
                "old": old,
                "new": new,
                "span_original": [start, end_o],
                "span_edited": [start, end_e],
            }
        )
    return cases


# ----------------------------------------------------------------------------- scoring


def _defined(value) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def _lower(edited, original) -> bool:
    return _defined(edited) and _defined(original) and edited < original


def _lower_from_top(edited, original) -> bool:
    """Caught when an undefined original counts as 1, as the harness ranks an undefined
    score: an index with no unit in the original that finds a contradicted or unsupported
    one in the edit ("won" against the source's "lost": rhi NaN -> 0) caught it."""
    return _defined(edited) and edited < (original if _defined(original) else 1.0)


def _scores(result, i: int) -> dict[str, float]:
    detail = result["details"][i]
    return {"chi": float(result["chi_scores"][i]), **{d: float(detail[d]["score"]) for d in DIMENSIONS}}


def summarise(cases: Sequence[dict[str, Any]], edit: str) -> dict[str, Any]:
    """Per type: n and the shares caught (edited strictly lower) by chi, the own index
    and the baseline; the own index's cases defined on both sides."""
    index = OWN_INDEX[edit]
    n = len(cases)

    def share(key):
        return sum(c["caught"][key] for c in cases) / n if n else None

    return {
        "n": n,
        "index": index,
        "chi": share("chi"),
        "own": share(index),
        "alnum": share(BASELINE),
        "own_from_top": share(index + "_from_top"),
        "own_defined": sum(
            _defined(c["scores_original"][index]) and _defined(c["scores_edited"][index]) for c in cases
        ),
        "own_defined_edited": sum(_defined(c["scores_edited"][index]) for c in cases),
        "chi_edited_ge_half": share("chi_edited_ge_half"),
        "cased": sum(c["cased"] for c in cases),
        "own_cased": (
            sum(c["caught"][index] for c in cases if c["cased"]) / sum(c["cased"] for c in cases)
            if any(c["cased"] for c in cases)
            else None
        ),
        "files": {f: sum(f in c["files"] for c in cases) for f in sorted({f for c in cases for f in c["files"]})},
    }


def markdown(summary: dict[str, dict[str, Any]], per_type: int) -> str:
    lines = [
        "| edit type | n | chi caught % | own index | own caught % | own caught %, undefined original = 1 | "
        "own defined (both / edited) | alnum caught % | edited chi ≥ 0.5 % | cased n | own caught % (cased) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for edit, s in summary.items():
        short = " (pool exhausted)" if s["n"] < per_type else ""
        lines.append(
            f"| {edit} | {s['n']}{short} | {percent(s['chi'])} | {s['index']} | {percent(s['own'])} | "
            f"{percent(s['own_from_top'])} | {s['own_defined']} / {s['own_defined_edited']} | "
            f"{percent(s['alnum'])} | "
            f"{percent(s['chi_edited_ge_half'])} | {s['cased']} | {percent(s['own_cased'])} |"
        )
    return "\n".join(lines)


#: the keys of a run kept by :func:`record_of` (no summary or source text of the data)
RECORD_KEYS = ("args", "git", "signature", "pool", "summary", "originals", "paraphrase")


def record_of(payload: dict[str, Any]) -> dict[str, Any]:
    """The part of a ``--json`` payload that may be committed (``--record``): the run's
    arguments, commit, signature, pool sizes and shares, without the cases and sources,
    which hold the validation files' text (never copied into the repository). Each
    type's summary gains ``own_missed``: how many edits its own index missed, and of
    those how many had the original at 0 (``at_zero``: it cannot score lower) or
    undefined (``undefined``)."""
    record = {key: payload[key] for key in RECORD_KEYS if key in payload}
    summary = {}
    for edit, shares in record.get("summary", {}).items():
        index = shares["index"]
        missed = [c for c in payload.get("cases", []) if c["type"] == edit and not c["caught"][index]]
        originals = [c["scores_original"][index] for c in missed]
        summary[edit] = {
            **shares,
            "own_missed": {
                "n": len(missed),
                "at_zero": sum(_defined(v) and v == 0 for v in originals),
                "undefined": sum(not _defined(v) for v in originals),
            },
        }
    if summary:
        record["summary"] = summary
    return record


def _unit_lines(detail: dict[str, Any], span: Sequence[int], limit: int = 6) -> list[str]:
    """The index's units, those overlapping ``span`` first (marked ``*``)."""
    units = detail.get("units") or []

    def overlaps(u):
        s = u.get("span") or [-1, -1]
        return s[0] < max(span[1], span[0] + 1) and span[0] < s[1]

    ordered = sorted(units, key=lambda u: not overlaps(u))
    out = []
    for unit in ordered[:limit]:
        found = unit.get("in_source") or {}
        text = unit.get("text") or " ".join(str(unit.get(k)) for k in ("subject", "relation", "object") if unit.get(k))
        key = unit.get("key")
        out.append(
            f"      {'*' if overlaps(unit) else ' '} {text!r:<40} {unit.get('status')}: "
            f"{found.get('mode')} {str(found.get('detail'))[:110]}"
            + (f"  key {json.dumps(key, default=str)[:80]}" if isinstance(key, (list, tuple)) else "")
        )
    if len(units) > limit:
        out.append(f"        ... {len(units) - limit} more")
    if not units:
        out.append("        (no units)")
    return out


def _num(value) -> str:
    return f"{value:.3f}" if _defined(value) else "nan"


def _around(text: str, span: Sequence[int], width: int = 150) -> str:
    """``text`` within ``width`` characters of ``span``, the span in [[ ]]."""
    start, end = span
    left = max(0, start - width)
    right = min(len(text), end + width)
    return (
        ("..." if left else "")
        + text[left:start]
        + "[["
        + text[start:end]
        + "]]"
        + text[end:right]
        + ("..." if right < len(text) else "")
    ).replace("\n", " ")


def print_misses(cases: Sequence[dict[str, Any]], edit: str, count: int) -> None:
    index = OWN_INDEX[edit]
    every = [c for c in cases if not c["caught"][index]]
    missed = every[:count]
    print(
        f"\n### {edit}: {index} misses {len(every)} of {len(cases)} cases"
        + (f"; the first {len(missed)}:" if missed else "")
    )
    for case in missed:
        o, e = case["scores_original"], case["scores_edited"]
        print(f"- [{'/'.join(case['files'])}] {case['old']!r} -> {case['new']!r}")
        print(f"    original: {_around(case['original'], case['span_original'])}")
        print(f"    edited:   {_around(case['edited'], case['span_edited'])}")
        print(
            "    "
            + "  ".join(f"{k} {_num(o[k])} -> {_num(e[k])}" for k in CHI_SCORES)
            + f"  alnum {_num(o[BASELINE])} -> {_num(e[BASELINE])}"
        )
        print(f"    {index} units of the edited summary:")
        for line in _unit_lines(case["details_edited"], case["span_edited"]):
            print(line)
        print(f"    {index} units of the original:")
        for line in _unit_lines(case["details_original"], case["span_original"], limit=3):
            print(line)


def paraphrase_false_alarms() -> dict[str, Any]:
    """The paraphrase suite: the share of faithful paraphrases with chi >= 0.5, and of
    cases with chi(faithful) > chi(unfaithful)."""
    from benchmarks.paraphrase import load_suite, score_suite, split_scores, suite_table

    cases = load_suite()
    faithful, unfaithful = split_scores(score_suite(cases), len(cases))
    overall = suite_table(cases, faithful, unfaithful)["overall"]["chi"]
    return {
        "cases": len(cases),
        "faithful_chi_ge_half": overall["half"],
        "pair": overall["pair"],
        "below_half": [c.id for c, f in zip(cases, faithful["chi"], strict=True) if not (_defined(f) and f >= 0.5)],
    }


def run_suite(
    data: str,
    half: str,
    per_type: int,
    seed: int,
    types: Sequence[str],
    log=lambda m: print(m, file=sys.stderr, flush=True),
) -> dict[str, Any]:
    from halluscope import api

    start = time.perf_counter()
    rows, counts = load_pool(data, half)
    summary_docs, source_docs, distinct_docs = parse_pool(rows)
    log(
        f"pool: {len(rows)} consistent pairs, {len(distinct_docs)} sources ({half} half; consistent rows per file "
        + ", ".join(f"{k} {v}" for k, v in counts.items())
        + f"), parsed in {time.perf_counter() - start:.0f} s"
    )
    cases_by_type = {}
    for edit in types:
        cases_by_type[edit] = draw_cases(rows, summary_docs, source_docs, distinct_docs, edit, per_type, seed)
    used = sorted({c["row"] for cases in cases_by_type.values() for c in cases})
    log(
        "drawn: "
        + ", ".join(f"{k} {len(v)}" for k, v in cases_by_type.items())
        + f" ({time.perf_counter() - start:.0f} s)"
    )
    original = api.score_chi([rows[i].summary for i in used], [rows[i].source for i in used], None, return_details=True)
    position = {row: k for k, row in enumerate(used)}
    signature = original.get("signature")
    log(f"originals scored: {len(used)} ({time.perf_counter() - start:.0f} s)")
    summary = {}
    all_cases = []
    for edit, cases in cases_by_type.items():
        index = OWN_INDEX[edit]
        if cases:
            result = api.score_chi(
                [c["edited"] for c in cases], [rows[c["row"]].source for c in cases], None, return_details=True
            )
        for k, case in enumerate(cases):
            row = rows[case["row"]]
            p = position[case["row"]]
            case["scores_original"] = {**_scores(original, p), BASELINE: alnum_precision(row.summary, row.source)}
            case["scores_edited"] = {**_scores(result, k), BASELINE: alnum_precision(case["edited"], row.source)}
            case["caught"] = {
                m: _lower(case["scores_edited"][m], case["scores_original"][m]) for m in (*CHI_SCORES, BASELINE)
            }
            case["caught"][index + "_from_top"] = _lower_from_top(
                case["scores_edited"][index], case["scores_original"][index]
            )
            case["caught"]["chi_edited_ge_half"] = (
                _defined(case["scores_edited"]["chi"]) and case["scores_edited"]["chi"] >= 0.5
            )
            case["details_original"] = original["details"][p][index]
            case["details_edited"] = result["details"][k][index]
        summary[edit] = summarise(cases, edit)
        all_cases += cases
        log(f"{edit}: {len(cases)} scored ({time.perf_counter() - start:.0f} s)")
    originals_chi = [float(original["chi_scores"][k]) for k in range(len(used))]
    return {
        "pool": {"pairs": len(rows), "sources": len(distinct_docs), "consistent_rows_per_file": counts},
        "signature": signature,
        "summary": summary,
        "cases": all_cases,
        "originals": {
            "n": len(used),
            "chi_ge_half": sum(_defined(v) and v >= 0.5 for v in originals_chi) / max(1, len(used)),
        },
        "rows_used": used,
        "rows": rows,
        "seconds": time.perf_counter() - start,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, help="folder with summac/*_val.jsonl and frank/frank_val.jsonl")
    parser.add_argument(
        "--half",
        default="all",
        choices=list(HALVES),
        help="rows: all, design (outside the lockbox) or lockbox (_common.lockbox_half)",
    )
    parser.add_argument("--per-type", type=int, default=150, help="cases per edit type (fewer when the rows run out)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--type", action="append", choices=list(EDITS), help="only these edit types (repeatable)")
    parser.add_argument("--json", metavar="OUT", help="write the cases, their scores and the table here")
    parser.add_argument(
        "--show-misses",
        type=int,
        default=0,
        metavar="K",
        help="print K cases per type that the type's own index misses, with its units",
    )
    parser.add_argument(
        "--record",
        metavar="OUT",
        help="write the shares alone, without the data's text (record_of: the form docs/benchmarks/ keeps)",
    )
    parser.add_argument("--no-paraphrase", action="store_true", help="skip the paraphrase suite's false alarms")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HALLUSCOPE_CACHE_MB", "2048")  # every source's parse stays between the calls
    from benchmarks.errortypes import git_state

    outcome = run_suite(args.data, args.half, args.per_type, args.seed, args.type or list(EDITS))
    paraphrase = None if args.no_paraphrase else paraphrase_false_alarms()
    state = git_state()
    pool = outcome["pool"]
    print(
        f"perturbation suite: {args.data} half={args.half} seed={args.seed} per-type={args.per_type}; pool "
        f"{pool['pairs']} consistent pairs from {pool['sources']} sources; {outcome['seconds']:.0f} s; commit "
        f"{state['commit']}" + (" (+ uncommitted changes in shared/)" if state["shared_dirty"] else "")
    )
    print(f"signature: {outcome['signature']}")
    print("caught = the edited summary's score strictly lower than the original's (undefined: not caught)\n")
    print(markdown(outcome["summary"], args.per_type))
    print(
        f"\nfalse alarms: originals (human-labelled consistent) with chi >= 0.5: "
        f"{percent(outcome['originals']['chi_ge_half'])}% of {outcome['originals']['n']}",
        end="",
    )
    if paraphrase is not None:
        print(
            f"; paraphrase suite faithful chi >= 0.5: {percent(paraphrase['faithful_chi_ge_half'])}% of "
            f"{paraphrase['cases']} (pair ranking {percent(paraphrase['pair'])}%)"
        )
    else:
        print()
    if args.show_misses:
        by_type: dict[str, list[dict[str, Any]]] = {}
        for case in outcome["cases"]:
            by_type.setdefault(case["type"], []).append(case)
        for edit, cases in by_type.items():
            print_misses(cases, edit, args.show_misses)
    if args.json or args.record:
        rows = outcome["rows"]
        used_sources = list(dict.fromkeys(rows[c["row"]].source for c in outcome["cases"]))
        source_id = {s: k for k, s in enumerate(used_sources)}
        payload = {
            "args": vars(args),
            "git": state,
            "signature": outcome["signature"],
            "pool": pool,
            "summary": outcome["summary"],
            "originals": outcome["originals"],
            "paraphrase": paraphrase,
            "cases": [
                {**{k: v for k, v in c.items() if k != "row"}, "source_id": source_id[rows[c["row"]].source]}
                for c in outcome["cases"]
            ],
            "sources": used_sources,
        }
        for path, content in ((args.json, payload), (args.record, record_of(payload))):
            if path:
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
                with open(path, "w", encoding="utf-8") as handle:
                    json.dump(json_safe(content), handle, indent=1, ensure_ascii=False, default=str)
                print(f"\nwrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
