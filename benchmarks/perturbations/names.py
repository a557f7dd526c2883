"""Edits of names: a PERSON/ORG/GPE entity replaced by one from another source or from
the same source, and the names of a verb's subject and object exchanged; with the
tests of whether two names may name the same thing."""

from __future__ import annotations

import re

from benchmarks._common import alnum_tokens
from benchmarks.perturbations.text import _replace

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
