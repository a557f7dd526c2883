"""Entity extraction for EHI (CHI paper §3.2; docs/papers.md#ehi, #entity-and-quantity-labels).

Rules:

* **Which entities.** spaCy NER mentions (``doc.ents``) with a non-numeric label
  (:data:`NON_NUMERIC_LABELS`); numeric labels (CARDINAL, MONEY, DATE, ...) are
  quantities and belong to QHI.
* **Identity.** A mention's ``key`` is :func:`canonical_entity` of its text (NFKC,
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
  (:mod:`halluscope.casing`), so the words the source writes are capitalised, but a
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
  extraction (``Dimension.complete``): the source's (:func:`named_in_lowercase`) and, with
  WordNet, those the source never writes (:func:`introduced_names`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from ..token_table import doc_text, has_no_upper
from ..units import UNKNOWN_NAME, EntityUnit, IntroducedName, RecoveredEntity
from .quantities.dates import is_written_day, month_before_day
from .quantities.mentions import score_start

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Token

NON_NUMERIC_LABELS: frozenset[str] = frozenset(
    {
        "PERSON",
        "NORP",
        "FAC",
        "ORG",
        "GPE",
        "LOC",
        "PRODUCT",
        "EVENT",
        "WORK_OF_ART",
        "LAW",
        "LANGUAGE",
    }
)

#: Function words skipped when forming an acronym's initials (docs/papers.md#entity-and-quantity-labels).
ACRONYM_STOPWORDS: frozenset[str] = frozenset({"of", "the", "and", "for", "&"})

#: Leading honorifics dropped from PERSON names ("Ms McLean" is "McLean").
HONORIFICS: frozenset[str] = frozenset(
    {
        "mr",
        "mrs",
        "ms",
        "miss",
        "mx",
        "dr",
        "prof",
        "sir",
        "dame",
        "rev",
    }
)

#: typographic quotes and primes as straight quotes, one character each (offsets are kept)
QUOTE_MAP = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "`": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
    }
)
_WS = re.compile(r"\s+")
_LEADING_THE = re.compile(r"^the\s+", re.IGNORECASE)
_POSSESSIVE = re.compile(r"(?<=[\w.\\]) ?'s$", re.IGNORECASE)  # "Obama's", tokenised "obama 's"
_PTB_BRACKETS = re.compile(r"-(lrb|rrb|lsb|rsb|lcb|rcb)-", re.IGNORECASE)
_PTB_MAP = {"lrb": "(", "rrb": ")", "lsb": "[", "rsb": "]", "lcb": "{", "rcb": "}"}
#: a word written twice or more in a row, the second time in any case: a generated
#: summary's stutter ("the gliese 581d 581d planet", "dayna dayna dobias") names what
#: the word once names; a name that repeats a word ("Walla Walla") reads the same on
#: both sides of a match
_STUTTER = re.compile(r"(?<![\w'])([\w'.-]+)(?:\s+\1)+(?![\w'])", re.IGNORECASE)
_WORDLIKE = re.compile(r"^\w+(?:[-'.]\w+)*\.?$")  # "united", "saint-germain", "jr."
_DOTTED = re.compile(r"^(?:[A-Za-z]\.)+[A-Za-z]\.?$")  # "U.S", "u.s.", "D.C"


def _is_edge_punct(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat.startswith("P") or cat in ("Sk", "Sm")


#: the joins a tokenised text writes with spaces around them, as the source writes them:
#: "african - american" (African-American), "the queen 's guard" (the Queen's Guard),
#: "st james ' park" (St James' Park)
_SPACED_JOINS = (
    (re.compile(r"(?<=\w) - (?=\w)"), "-"),
    (re.compile(r"(?<=\w) '(?=s\b)"), "'"),
    (re.compile(r"(?<=s) ' (?=\w)"), "' "),
)


def _strip_edges(text: str) -> str:
    start, end = 0, len(text)
    while start < end and (_is_edge_punct(text[start]) or text[start].isspace()):
        start += 1
    while end > start and (_is_edge_punct(text[end - 1]) or text[end - 1].isspace()):
        end -= 1
    return text[start:end]


def surface_form(text: str, label: str | None = None) -> str:
    """``text`` normalised like :func:`canonical_entity` but with its case kept
    (used for the capitalisation and all-caps tests of acronym/partial-name rules)."""
    text = unicodedata.normalize("NFKC", text).translate(QUOTE_MAP)
    if "-" in text:
        text = _PTB_BRACKETS.sub(lambda m: _PTB_MAP[m.group(1).lower()], text)
    text = _WS.sub(" ", text).strip()
    if " - " in text or " '" in text:
        for spaced, joined in _SPACED_JOINS:
            text = spaced.sub(joined, text)
    if " " in text:
        text = _STUTTER.sub(r"\1", text)
    while True:
        before = text
        text = _strip_edges(text)
        text = _LEADING_THE.sub("", text)
        text = _POSSESSIVE.sub("", text)
        if text == before:
            break
    if label == "PERSON":
        tokens = text.split(" ")
        if len(tokens) > 1 and tokens[0].rstrip(".").casefold() in HONORIFICS:
            text = _strip_edges(" ".join(tokens[1:]))
    return text


def canonical_entity(text: str, label: str | None = None) -> str:
    """Canonical key of an entity mention: NFKC, curly quotes made straight,
    whitespace collapsed, surrounding punctuation/quotes stripped, a leading "the "
    and a possessive 's removed (repeated until stable), casefolded. PTB bracket
    tokens ("-lrb-") become brackets and a tokenised possessive ("obama 's") counts
    as one (lowercased, tokenised corpora such as CNN/DM summaries). With
    ``label="PERSON"`` a leading honorific (Mr, Mrs, Ms, Dr, Sir, ...) is dropped too.

    >>> canonical_entity("the BBC's")
    'bbc'
    """
    return surface_form(text, label).casefold()


def undotted(key: str) -> str:
    """``key`` without dots (spacing collapsed): "u.s" -> "us", "st. louis" -> "st louis"."""
    return _WS.sub(" ", key.replace(".", "")).strip()


def acronym_form(surface: str) -> str | None:
    """The acronym a surface form spells, or None: a single all-caps token of 2-10
    letters once dots and "&" are removed ("WHO", "U.S" -> "US", "AT&T" -> "ATT"),
    or dotted single letters in any case ("u.s." -> "US", as in lowercased corpora)."""
    if " " in surface:
        return None
    if _DOTTED.match(surface):
        return surface.replace(".", "").upper()
    letters = surface.replace(".", "").replace("&", "")
    if 2 <= len(letters) <= 10 and letters.isalpha() and letters.isupper():
        return letters
    return None


def lowercase_acronym(surface: str, longest: int) -> str | None:
    """An all-lowercase word of 2 to ``longest`` letters read as an acronym, as
    lowercased corpora write them ("fbi" -> "FBI"); None otherwise. Callers decide when
    a lower-case word may be one (an entity label, a source name with those initials)."""
    if 2 <= len(surface) <= longest and surface.isalpha() and surface.islower():
        return surface.upper()
    return None


@functools.lru_cache(maxsize=1 << 14)  # a pure function of a name, asked of each name many times a call
def initials(surface: str) -> frozenset[str]:
    """Upper-case initials of the content words of a multi-word name (of/the/and/for/&
    skipped), with and without splitting hyphenated words: "World Health
    Organization" -> {"WHO"}; "Trans-Pacific Partnership" -> {"TP", "TPP"}. Empty
    when fewer than two content words or when a content word is not capitalised,
    unless the whole name is lower case (a lowercased corpus: case tells nothing)."""
    out = set()
    lowered = surface == surface.lower()
    for split_hyphens in (False, True):
        words = surface.replace("-", " ").split() if split_hyphens else surface.split()
        content = [w for w in words if w.casefold() not in ACRONYM_STOPWORDS]
        if len(content) < 2:
            continue
        letters = []
        for word in content:
            first = next((c for c in word if c.isalnum()), "")
            if not first or not (first.isupper() or lowered):
                break
            letters.append(first.upper())
        else:
            out.add("".join(letters))
    return frozenset(out)


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


#: words many organisation and place names share, which alone never identify one (the
#: "distinctive word" of :mod:`halluscope.match.entities`' partial names, and what
#: :func:`_name_part` leaves out): "City" is in Manchester City and Leicester City,
#: "United" in Manchester United and Leeds United. Casefolded.
GENERIC_NAME_WORDS: frozenset[str] = frozenset(
    {
        # clubs
        "city",
        "united",
        "real",
        "town",
        "county",
        "club",
        "fc",
        "afc",
        "cf",
        "sc",
        "ac",
        "athletic",
        "sporting",
        "rovers",
        "wanderers",
        "albion",
        "olympic",
        # organisations
        "university",
        "college",
        "school",
        "academy",
        "bank",
        "group",
        "party",
        "company",
        "co",
        "corp",
        "corporation",
        "inc",
        "ltd",
        "plc",
        "llc",
        "holdings",
        "association",
        "council",
        "committee",
        "commission",
        "department",
        "ministry",
        "agency",
        "office",
        "institute",
        "foundation",
        "society",
        "union",
        "league",
        "federation",
        "organisation",
        "organization",
        "news",
        "times",
        "daily",
        "airlines",
        "airways",
        "motors",
        "sports",
        "media",
        # places and qualifiers
        "national",
        "international",
        "state",
        "states",
        "republic",
        "kingdom",
        "federal",
        "royal",
        "new",
        "north",
        "south",
        "east",
        "west",
        "northern",
        "southern",
        "eastern",
        "western",
        "central",
        "general",
        "saint",
        "st",
        "san",
        "santa",
        "de",
        "del",
        "la",
        "le",
        "los",
        "el",
    }
)


#: the labels of source names looked for in a lower-cased summary (:func:`named_in_lowercase`)
RECOVERED_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "EVENT"})
#: the shortest name looked for: shorter keys ("us", "un") are common words in lower case
RECOVERED_MIN_CHARS = 4


def named_in_lowercase(
    summary_text: str, summary_units: Sequence[EntityUnit], source_units: Sequence[EntityUnit]
) -> list[EntityUnit]:
    """The source's names a lower-cased summary writes where its own parse found no
    entity (docs/papers.md#ehi-names-in-lower-case-summaries): in a summary without an
    upper-case letter spaCy's small model misses many names even after truecasing
    ("premier league's hold", "real klaas-jan huntelaar's loss"), and a name it misses
    can be neither supported nor found in another name's place. Each source entity of
    :data:`RECOVERED_LABELS` whose key (at least :data:`RECOVERED_MIN_CHARS` characters)
    the summary holds as whole words, outside every unit it has, becomes a unit at its
    first such place, with the source's label (a :class:`RecoveredEntity`, which EHI
    keeps only when the swap check contradicts it). Then, where the summary writes only
    part of a source name of two words or more, its last word (:func:`_name_part`) is
    such a unit too: a person's surname ("doyne" of "Maggie Doyne"), an organisation's or
    place's last word unless it is generic ("palace" of "Crystal Palace", never "city" of
    "Manchester City"), and so are a name's initials (:func:`_written_initials`: "iom" for
    "the International Organization for Migration"), with the name's key. Cased summaries
    are left as parsed."""
    if not _all_lower_case(summary_text):
        return []
    taken = [unit.span for unit in summary_units]
    known = {unit.key for unit in summary_units}
    lowered = summary_text.casefold()
    # where each word of the summary starts: a key is looked for only where its first word
    # is written, never by scanning the whole summary once per source name
    word_starts: dict[str, list[int]] = {}
    for word in _WORD_RUN.finditer(lowered):
        word_starts.setdefault(word.group(), []).append(word.start())
    found: list[EntityUnit] = []

    def recover(written: str, key: str, label: str) -> None:
        """The first place ``written`` stands outside every unit, as a unit of ``key``."""
        if key in known:
            return
        for span in _whole_word_places(written, lowered, word_starts):
            if not any(start < span[1] and span[0] < end for start, end in taken):
                found.append(RecoveredEntity(key=key, text=summary_text[span[0] : span[1]], span=span, label=label))
                taken.append(span)
                known.add(key)
                return

    recovered = [unit for unit in source_units if unit.label in RECOVERED_LABELS]
    for unit in recovered:
        if len(unit.key) >= RECOVERED_MIN_CHARS:
            recover(unit.key, unit.key, unit.label)
    for unit in recovered:
        part = _name_part(unit)
        if part is not None:
            recover(part, part, unit.label)
        # a name's own initials ("iom" for "the International Organization for Migration",
        # whose acronym the parse merged into the long name) keep the name's key
        for acronym in _written_initials(unit):
            recover(acronym, unit.key, unit.label)
    return found


#: the fewest letters of a name's initials looked for in a lower-cased summary ("un" is a word)
RECOVERED_MIN_INITIALS = 3


def _written_initials(unit: EntityUnit) -> list[str]:
    """The lower-cased initials of a source name of two content words or more
    (:func:`initials`), of at least :data:`RECOVERED_MIN_INITIALS` letters, no stop word."""
    return sorted(
        a.lower() for a in initials(unit.text) if len(a) >= RECOVERED_MIN_INITIALS and a.lower() not in _stop_words()
    )


@functools.lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


def _name_part(unit: EntityUnit) -> str | None:
    """The last word of a source name of two words or more that names it alone in a
    lower-cased summary (:func:`named_in_lowercase`): at least :data:`RECOVERED_MIN_CHARS`
    characters, no stop word, and for a name other than a person's not one of
    :data:`GENERIC_NAME_WORDS` ("city" of "Manchester City"); None otherwise."""
    words = unit.key.split()
    if len(words) < 2:
        return None
    last = words[-1]
    if len(last) < RECOVERED_MIN_CHARS or not last.isalpha() or last in _stop_words():
        return None
    if unit.label != "PERSON" and last in GENERIC_NAME_WORDS:
        return None
    return last


def _month_of_a_day(token) -> bool:
    """A month's short form before a day number ("aug 3"), which WordNet does not know
    and a lower-cased summary's name rules would read as a name: QHI reads it as a date."""
    doc = token.doc
    return token.i + 1 < len(doc) and month_before_day(token.text, doc[token.i + 1].text)


def _all_lower_case(text: str) -> bool:
    """Whether a summary is written all in lower case, the texts the lower-case name rules
    read, and keeps its length when casefolded ("ß" would not: spans would shift)."""
    return has_no_upper(text) and len(text.casefold()) == len(text)


_WORD_RUN = re.compile(r"\w+")
_WORD_CHAR = re.compile(r"\w")


def _whole_word_places(key: str, lowered: str, word_starts: dict[str, list[int]]) -> Iterable[tuple[int, int]]:
    """The spans where ``lowered`` writes ``key`` as whole words, in text order
    (no word character right before or after it), read at the starts of ``key``'s first word (``word_starts``:
    word -> its starts in ``lowered``)."""
    first = _WORD_RUN.match(key)
    if first is None:  # a key that does not begin with a word character: scan
        for hit in re.finditer(r"(?<!\w)" + re.escape(key) + r"(?!\w)", lowered):
            yield hit.span()
        return
    for start in word_starts.get(first.group(), ()):
        end = start + len(key)
        if lowered.startswith(key, start) and _WORD_CHAR.match(lowered, end) is None:
            yield start, end


def written_words(source_text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The casefolded words a source writes, and those it writes with a capital. A scoring
    call reads them through its resources' text tables, once per source while cached,
    however many summaries of it it scores (:meth:`halluscope.resources.Resources.text_table`)."""
    written = _WORD_RUN.findall(source_text)
    return (
        frozenset(word.casefold() for word in written),
        frozenset(word.casefold() for word in written if word[0].isupper()),
    )


#: the shortest word looked at as a name a lower-cased summary introduces (:func:`introduced_names`)
INTRODUCED_MIN_CHARS = 3
#: the Penn Treebank's bracket tokens, written as words in tokenised corpora ("-lrb-")
PTB_BRACKET_WORDS = frozenset({"lrb", "rrb", "lsb", "rsb", "lcb", "rcb"})
#: the parts of speech a word WordNet does not have must be parsed as to count as a name
#: (an adverb too: the small model reads an unknown lower-case word opening a sentence as
#: one, "nelly are individuals who ..."; a verb it does not know is usually a real verb,
#: "codenamed")
UNKNOWN_WORD_TAGS = frozenset({"NOUN", "PROPN", "ADJ", "ADV"})


def introduced_names(
    summary_text: str,
    summary_doc,
    summary_units: Sequence[EntityUnit],
    source_text: str,
    name_kind: Callable[[str], str | None],
    words_of: Callable[[str], tuple[frozenset[str], frozenset[str]]] = written_words,
) -> list[IntroducedName]:
    """The names a lower-cased summary introduces that its parse did not tag
    (docs/papers.md#ehi-names-in-lower-case-summaries). In a summary without an
    upper-case letter, a word is a name candidate when it has at least
    :data:`INTRODUCED_MIN_CHARS` letters only, is no stop word and no PTB bracket word
    ("lrb"), lies outside every unit the summary has, the source never writes it (in any
    case), and ``name_kind(word)`` (:meth:`halluscope.lexical.Lexicon.name_kind`) is a
    kind of name: WordNet knows it only as a proper noun of a person, place or group, or
    not at all (then the parse must read it as a noun, an adjective or an adverb:
    :data:`UNKNOWN_WORD_TAGS`), or is a common word
    the parse reads as a proper noun ("house of commons", "the premier league": kind
    ``"UNKNOWN"``). Adjacent candidates are one name
    ("eamonn holmes"). A name next to a unit of the summary, or before a word (no stop
    word) the source writes with a capital anywhere (a sentence start included), is left
    out: it is part of
    that name ("barack" before the source's "Obama", which the cased summary's partial-name
    match would support; "holmes" after a unit "eamonn", which is counted already). After
    such a word it is a new surname and counts ("klinge" after the source's "Thomas").
    Each name is an :class:`IntroducedName` labelled with its first known kind (else
    ``"UNKNOWN"``); EHI finds no support for it. Cased summaries are left as parsed.
    ``words_of(source_text)``: the source's :func:`written_words` (a scoring call passes
    its resources' cached tables)."""
    if not _all_lower_case(summary_text):
        return []
    source_words, capitalised = words_of(source_text)
    in_unit = _coverage(summary_units, len(summary_text))

    def inside_unit(token) -> bool:
        return bool(in_unit[token.idx])

    def kind_of(token) -> str | None:
        word = token.text.casefold()
        if (
            not token.is_alpha
            or len(word) < INTRODUCED_MIN_CHARS
            or token.is_stop
            or word in PTB_BRACKET_WORDS
            or word in source_words
            or inside_unit(token)
            or _month_of_a_day(token)
        ):
            return None
        kind = name_kind(word)
        if kind is None and token.pos_ == "PROPN" and token.ent_iob_ == "O":
            return UNKNOWN_NAME  # a common word the parse reads as part of a name it did not tag
        if kind == UNKNOWN_NAME and token.pos_ not in UNKNOWN_WORD_TAGS:
            return None
        return kind

    def part_of_a_name(token, after: bool) -> bool:
        # a unit on either side; a word the source capitalises only after the run (the run
        # is then a first name or a title of that name, not a new surname after it)
        # (a stop word is never that: the source's sentence-initial "In" or "Or" says nothing)
        return token.is_alpha and (
            inside_unit(token) or (after and not token.is_stop and token.text.casefold() in capitalised)
        )

    runs: list[list[tuple[Token, str]]] = []
    for token in summary_doc:
        kind = kind_of(token)
        if kind is None:
            continue
        if runs and runs[-1][-1][0].i == token.i - 1:
            runs[-1].append((token, kind))
        else:
            runs.append([(token, kind)])
    found: list[IntroducedName] = []
    for run in runs:
        first, last = run[0][0], run[-1][0]
        if (first.i > 0 and part_of_a_name(summary_doc[first.i - 1], after=False)) or (
            last.i + 1 < len(summary_doc) and part_of_a_name(summary_doc[last.i + 1], after=True)
        ):
            continue
        start, end = first.idx, last.idx + len(last.text)
        label = next((kind for _, kind in run if kind != UNKNOWN_NAME), UNKNOWN_NAME)
        text = summary_text[start:end]
        found.append(IntroducedName(key=canonical_entity(text), text=text, span=(start, end), label=label))
    return found


#: the dependency of a modifier that makes an organisation noun a name (:func:`introduced_organisations`)
NAME_MODIFIER_DEPS = frozenset({"compound"})
#: the most words such a name has, its noun included: a modifier further away is not read
#: (each name's span is then bounded, and the whole search linear in the summary)
ORGANISATION_MAX_WORDS = 6


def introduced_organisations(
    summary_text: str,
    summary_doc,
    summary_units: Sequence[EntityUnit],
    source_text: str,
    is_organisation: Callable[[str], bool],
    words_of: Callable[[str], tuple[frozenset[str], frozenset[str]]] = written_words,
) -> list[IntroducedName]:
    """The organisations a lower-cased summary names in common words that its source
    never writes (docs/papers.md#ehi-names-in-lower-case-summaries): a noun whose first
    WordNet sense is an organisation (``is_organisation``,
    :meth:`halluscope.lexical.Lexicon.is_organisation`: "league", "party", "agency") with
    a noun modifier (:data:`NAME_MODIFIER_DEPS`) of at least
    :data:`INTRODUCED_MIN_CHARS` letters, no stop word, that the source never writes in
    any case: "the premier league", "a state agency" against a source that writes neither
    "premier" nor "state". The name runs from its first such modifier to the noun (at most
    :data:`ORGANISATION_MAX_WORDS` words), outside every unit the summary has, and is an
    :class:`IntroducedName` labelled ``"ORG"``: EHI finds no support for it. An adjective
    is no such modifier ("the main party"), nor is a word the source writes ("the oil
    company" against a source about oil workers). Cased summaries are left as parsed
    (spaCy tags their names). ``words_of``: as for :func:`introduced_names`."""
    if not _all_lower_case(summary_text):
        return []
    source_words, _ = words_of(source_text)
    covered = _coverage(summary_units, len(summary_text))
    found: list[IntroducedName] = []
    for token in summary_doc:
        if token.pos_ not in ("NOUN", "PROPN"):
            continue
        modifiers = [
            c for c in token.children if c.dep_ in NAME_MODIFIER_DEPS and 0 < token.i - c.i < ORGANISATION_MAX_WORDS
        ]
        unwritten = [
            m
            for m in modifiers
            if m.is_alpha
            and len(m.text) >= INTRODUCED_MIN_CHARS
            and not m.is_stop
            and m.text.casefold() not in source_words
        ]
        if not unwritten:
            continue
        start, end = min(m.idx for m in unwritten), token.idx + len(token.text)
        if covered.find(1, start, end) != -1 or not is_organisation(token.lemma_.lower()):
            continue
        text = summary_text[start:end]
        found.append(IntroducedName(key=canonical_entity(text), text=text, span=(start, end), label="ORG"))
        covered[start:end] = b"\x01" * (end - start)
    return found


def _coverage(units: Sequence[EntityUnit], length: int) -> bytearray:
    """1 at every character of a text of ``length`` that one of ``units`` covers: an
    overlap test then reads a span's characters, not every unit (linear, not units x tokens)."""
    covered = bytearray(length + 1)
    for start, end in (unit.span for unit in units):
        start, end = max(0, start), min(end, length)
        if start < end:
            covered[start:end] = b"\x01" * (end - start)
    return covered
