"""Entity extraction for EHI (CHI paper §3.2; docs/papers.md#ehi, #entity-and-quantity-labels).

Rules:

* **Which entities.** spaCy NER mentions (``doc.ents``) with a non-numeric label
  (:data:`NON_NUMERIC_LABELS`); numeric labels (CARDINAL, MONEY, DATE, ...) are
  quantities and belong to QHI.
* **Identity.** A mention's ``key`` is :func:`~halluscope.text.names.canonical_entity` of its text (NFKC,
  casefold, leading "the", possessive 's, spacing, surrounding punctuation; for
  PERSON also a leading honorific such as "Mr"/"Dr"). Mentions with the same key
  are one unit whatever their labels (spaCy's GPE/ORG/PERSON labels are noisy), as
  in the paper's "string-level deduplication via case-insensitive exact match".
* **Within-text coreference**, applied to the mentions of *one* text only:

  - *dotted forms*: keys equal once dots are removed ("U.S." and "US") are one unit;
  - *acronyms* (the paper's "acronym expansion", e.g. WHO -> World Health
    Organization): an all-caps mention equal to the initials of exactly one longer
    entity of the same text, or introduced in parentheses after it
    ("the World Health Organization (WHO)"), joins that entity;
  - *partial names*: a PERSON mention whose tokens are a prefix or suffix of exactly
    one longer PERSON name of the same text ("Barack Obama ... Obama") joins it.
    An ambiguous short form ("Clinton" beside "Hillary Clinton" and "Bill Clinton")
    stays a unit of its own.

  A merged unit takes the key, text and span of its longest form; units are listed
  in order of their first mention. A unit's ``label`` is the most frequent label of
  its mentions (ties go to the earliest), which smooths spaCy's label noise.
* **Names in text written without capitals** (lower-cased corpora such as FRANK's
  BART summaries). The pipeline parses such a text truecased against its source
  (:mod:`halluscope.text.casing`), so the words the source writes are capitalised, but a
  word the source never writes stays lower case and NER often cuts it off the name:
  in "manchester united signed the striker." against a source about "Manchester
  City", sm finds only "manchester", which the source vouches for. In a text with
  no upper-case letter, an entity is therefore extended to the right over each
  following token of its sentence that the parse reads as a proper noun (PROPN,
  a word, outside every entity), that truecasing left in lower case (the source
  never writes it capitalised; the parse's lemma keeps the truecased form), and of
  which the entity's last word is a ``compound`` modifier, i.e. the head its name
  was cut off from: "manchester united" is one unit, which the source does not
  support. A word the source does capitalise was seen by NER, which left it out
  ("alaska flight left" against "Alaska Airlines Flight 448" stays "alaska"). Only
  to the right: the words before a
  name that NER left out are mostly titles and roles ("director michael
  redwood", "midfielder anna evans"), which are no part of it. Not caught: a
  lower-case word the parse does not read as a proper noun ("joined manchester
  united from ajax", "beat manchester united 2-1", where sm tags "united" as a
  verb), a first name cut off on the left, and a name NER misses altogether (in
  "barack obama visited paris." against "Obama visited Paris." the source writes
  "Obama" only at a sentence start, so truecasing leaves "obama" lower case and sm
  finds no name).
* **Place names NER cuts short in text with capitals.** sm tags only "Madrid" (GPE) of
  "Real Madrid", so the club passed against "Atletico Madrid" as a partial name. An
  organisation, place or facility mention takes in the capitalised proper nouns before
  it that are ``compound`` modifiers of a word of the name and outside every entity
  (:func:`_cased_start`). Not a person's: the capitalised words before a person's name
  are titles ("President Obama"). On the design half this changed one summary's CHI
  (by 0.003) and no perturbation case (session 26).
* Mentions whose canonical form is empty are dropped.
* Names a lower-cased summary writes that its parse missed are added by EHI after
  extraction (``Dimension.complete``): the source's
  (:func:`~halluscope.ehi.recovered_names.named_in_lowercase`) and, with
  WordNet, those the source never writes (:func:`~halluscope.ehi.recovered_names.introduced_names`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..text.names import _WORDLIKE, NON_NUMERIC_LABELS, acronym_form, initials, surface_form, undotted
from ..text.number_spans import is_written_day, score_start
from ..text.token_table import doc_text, has_no_upper
from ..units import EntityUnit

if TYPE_CHECKING:
    pass


class _Mention:
    __slots__ = ("key", "surface", "text", "span", "label", "order", "alias_of")

    def __init__(
        self,
        key: str,
        surface: str,
        text: str,
        span: tuple[int, int],
        label: str,
        order: int,
        alias_of: int | None = None,
    ) -> None:
        self.key = key
        self.surface = surface
        self.text = text
        self.span = span
        self.label = label
        self.order = order
        self.alias_of = alias_of  # order of the mention this one was introduced as "(ABBR)" of


def _lowercase_end(ent) -> int:
    """End (token index) of ``ent`` in a lower-cased text, extended over the proper
    nouns that follow it as heads of its compound (module docstring): each next token
    tagged PROPN, outside every entity, not starting a sentence, made of letters and
    digits (inner hyphens, apostrophes, dots allowed: not the ``women\\`` of an
    escaped "women\\'s"), with a lower-case lemma (the parse's lemma keeps the case of
    the truecased text: "Flight" was written by the source), of which the token
    before it is a ``compound`` modifier."""
    doc = ent.doc
    end = ent.end
    while end < len(doc):
        token = doc[end]
        if (
            token.pos_ != "PROPN"
            or token.ent_iob_ != "O"
            or token.is_sent_start
            or not _WORDLIKE.match(token.text)
            or not token.lemma_.islower()
        ):
            break
        if not (doc[end - 1].dep_ == "compound" and doc[end - 1].head.i == end):
            break
        end += 1
    return end


#: labels whose names NER cuts at a place they hold ("Real Madrid": sm tags "Madrid" GPE)
_LEFT_EXTENDED = frozenset({"GPE", "LOC", "ORG", "FAC"})


def _cased_start(ent) -> int:
    """Start (token index) of ``ent`` extended to the left over the capitalised proper
    nouns before it that are ``compound`` modifiers of a word of the name, outside every
    entity: "Real Madrid", where sm tags only "Madrid" (GPE). Not for people, whose
    capitalised words before the name are titles ("President Obama")."""
    doc = ent.doc
    start = ent.start
    while start > 0:
        token = doc[start - 1]
        if (
            token.pos_ != "PROPN"
            or token.ent_iob_ != "O"
            or not token.text[:1].isupper()
            or not _WORDLIKE.match(token.text)
        ):
            break
        if not (token.dep_ == "compound" and start <= token.head.i < ent.end):
            break
        start -= 1
    return start


#: " at " before a capitalised word inside a recognised name: sm runs a team on over the
#: ground it plays at ("Burnley at Turf Moor", tagged ORG), which is two names
_AT_PLACE = re.compile(r"\s+at\s+(?=[A-Z])")


#: the labels whose names :data:`_AT_PLACE` splits (a title, "Breakfast at Tiffany's",
#: is one name)
_PLACED_LABELS = frozenset({"ORG", "PERSON", "GPE", "LOC", "FAC", "NORP"})


def _mentions(doc, labels: frozenset[str]) -> list[_Mention]:
    """Mentions of ``doc.ents`` with ``labels``. An entity holding a parenthesis,
    "Name (ABBR)" (or spaCy's truncated "Name (ABBR"), is cut into the name, the
    parenthesised text and any text after it; a parenthesised acronym becomes an
    alias of the name before it, anything else a mention of its own. In a text
    without any upper-case letter an entity first takes in the proper nouns it is a
    compound of (:func:`_lowercase_end`). A match score that ends an entity is cut off
    ("Montserrat 4-3", :func:`~.quantities.mentions.score_start`), a name of
    :data:`_PLACED_LABELS` with " at " before a capitalised word is two ("Burnley at Turf
    Moor"), and a day of a month is no mention ("Sep 28, 2025",
    :func:`~.quantities.dates.is_written_day`) (docs/papers.md#names-that-run-on)."""
    out: list[_Mention] = []
    lowercased = has_no_upper(doc_text(doc))
    for ent in doc.ents:
        label = ent.label_
        if label not in labels or is_written_day(ent.text):
            continue  # "Sep 28, 2025", which sm tags a LAW: a date (QHI's), not a name
        text, start = ent.text, ent.start_char
        end = score_start(ent)  # "Montserrat 4-3": the score is QHI's, not the name's
        if lowercased and end == ent.end:
            end = _lowercase_end(ent)
        first = _cased_start(ent) if not lowercased and label in _LEFT_EXTENDED else ent.start
        if (first, end) != (ent.start, ent.end):
            text, start = doc[first:end].text, doc[first].idx
        open_at = text.find("(")
        place = _AT_PLACE.search(text) if open_at < 0 and label in _PLACED_LABELS else None
        if place is not None and text[:1].isupper():  # "Burnley at Turf Moor": two names
            pieces = [(text[: place.start()], start, False), (text[place.end() :], start + place.end(), False)]
        elif open_at < 0:
            pieces = [(text, start, False)]
        else:
            close = text.find(")", open_at)
            close = close if close >= 0 else len(text)
            pieces = [
                (text[:open_at], start, False),
                (text[open_at + 1 : close], start + open_at + 1, True),
                (text[close + 1 :], start + close + 1, False),
            ]
        head_order: int | None = None
        for piece, piece_start, is_paren in pieces:
            stripped = piece.strip()
            if not stripped:
                continue
            piece_start += len(piece) - len(piece.lstrip())
            surface = surface_form(stripped, label)
            key = surface.casefold()
            if not key:
                continue
            alias_of = None
            if is_paren and head_order is not None and acronym_form(surface) is not None:
                alias_of = head_order
            mention = _Mention(
                key, surface, stripped, (piece_start, piece_start + len(stripped)), label, len(out), alias_of
            )
            if not is_paren:
                head_order = mention.order
            out.append(mention)
    return out


class _Groups:
    """Union-find over mention groups; the root keeps the representative mention."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def add(self, i: int) -> None:
        self.parent.setdefault(i, i)

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union_into(self, child: int, root: int) -> None:
        self.parent[self.find(child)] = self.find(root)


def extract_entities(
    doc, labels: Iterable[str] = NON_NUMERIC_LABELS, merge_acronyms: bool = True, merge_partial_names: bool = True
) -> list[EntityUnit]:
    """Deduplicated named entities of a spaCy ``doc`` (EHI, CHI paper §3.2).

    Same canonical key -> one unit (label-agnostic); then, within this text only,
    dotted variants, acronyms (``merge_acronyms``) and partial PERSON names
    (``merge_partial_names``) join their longest form. See the module docstring."""
    labels = frozenset(labels)
    mentions = _mentions(doc, labels)
    if not mentions:
        return []

    # 1. exact canonical key (first mention represents the group)
    first_by_key: dict[str, int] = {}
    groups = _Groups()
    members: dict[int, list[_Mention]] = {}
    for m in mentions:
        first_order = first_by_key.setdefault(m.key, m.order)
        groups.add(first_order)
        members.setdefault(first_order, []).append(m)
    reps = [mentions[i] for i in first_by_key.values()]  # in order of first mention

    # 2. dotted variants: "u.s" and "us"
    by_undotted: dict[str, int] = {}
    for rep in reps:
        target = by_undotted.setdefault(undotted(rep.key), rep.order)
        if target != rep.order:
            groups.union_into(rep.order, target)

    def merge_into_longest(short: _Mention, candidates: Sequence[_Mention]) -> None:
        roots = {groups.find(c.order) for c in candidates}
        roots.discard(groups.find(short.order))
        if len(roots) == 1:
            groups.union_into(short.order, roots.pop())

    # 3. acronyms: explicit "(ABBR)" first, then initials of exactly one longer entity
    if merge_acronyms:
        for m in mentions:
            if m.alias_of is not None:
                groups.union_into(first_by_key[m.key], first_by_key[mentions[m.alias_of].key])
        expansions: dict[str, list[_Mention]] = {}
        for rep in reps:
            for ini in initials(rep.surface):
                expansions.setdefault(ini, []).append(rep)
        for rep in reps:
            acro = acronym_form(rep.surface)
            if acro and acro in expansions:
                merge_into_longest(rep, expansions[acro])

    # 4. partial PERSON names: prefix/suffix of exactly one longer PERSON name
    if merge_partial_names:
        person = [r for r in reps if any(m.label == "PERSON" for m in members[r.order])]
        tokens = {r.order: tuple(r.key.split(" ")) for r in person}
        by_first: dict[str, list[_Mention]] = {}
        by_last: dict[str, list[_Mention]] = {}
        for r in person:
            if len(tokens[r.order]) > 1:
                by_first.setdefault(tokens[r.order][0], []).append(r)
                by_last.setdefault(tokens[r.order][-1], []).append(r)
        # longest first, so a short form sees the roots its longer forms joined
        for short in sorted(person, key=lambda r: -len(tokens[r.order])):
            st = tokens[short.order]
            n = len(st)
            longer = [r for r in by_first.get(st[0], ()) if len(tokens[r.order]) > n and tokens[r.order][:n] == st]
            longer += [r for r in by_last.get(st[-1], ()) if len(tokens[r.order]) > n and tokens[r.order][-n:] == st]
            if longer:
                merge_into_longest(short, longer)

    # 5. assemble: one unit per root, represented by its longest form
    collected: dict[int, list[_Mention]] = {}
    for rep in reps:
        collected.setdefault(groups.find(rep.order), []).extend(members[rep.order])
    units = []
    for ms in collected.values():
        ms.sort(key=lambda m: m.order)
        longest = max(ms, key=lambda m: (len(m.key.split(" ")), len(m.key), -m.order))
        counts = Counter(m.label for m in ms)  # insertion order = first-mention order
        label = max(counts, key=counts.__getitem__)  # ties: the earliest label wins
        units.append((ms[0].order, EntityUnit(key=longest.key, text=longest.text, span=longest.span, label=label)))
    units.sort(key=lambda pair: pair[0])
    return [u for _, u in units]
