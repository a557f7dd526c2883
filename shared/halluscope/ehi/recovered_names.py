"""Names the parser did not tag: a name a lower-cased summary writes that the source
writes capitalised, and names a text introduces that WordNet does not know
(docs/papers.md#ehi; :class:`~halluscope.units.RecoveredEntity`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from ..text.names import canonical_entity, initials
from ..text.number_spans import month_before_day
from ..text.token_table import has_no_upper
from ..units import UNKNOWN_NAME, EntityUnit, IntroducedName, RecoveredEntity

if TYPE_CHECKING:
    from spacy.tokens import Token

#: words many organisation and place names share, which alone never identify one (the
#: "distinctive word" of :mod:`halluscope.ehi.match`' partial names, and what
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
    case), and ``name_kind(word)`` (:meth:`halluscope.lexicon.lexical.Lexicon.name_kind`) is a
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
    :meth:`halluscope.lexicon.lexical.Lexicon.is_organisation`: "league", "party", "agency") with
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
