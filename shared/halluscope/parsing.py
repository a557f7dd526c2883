"""Parsed-document cache: each distinct text is parsed once while cached.

A :class:`halluscope.resources.Resources` holds one ``ParseCache`` per spaCy model (the
process's default one serves the ``halluscope.score_*`` functions), so a source shared
by 16 systems' summaries is parsed once. The cache is a bounded LRU over texts; misses
of one call are parsed together with ``nlp.pipe``. Texts longer than
``chunk_chars`` are cut at whitespace into chunks that are parsed separately and
joined with ``Doc.from_docs`` (character offsets are preserved exactly), so a
200k-character document is parsed in bounded memory.

Pathological runs are tokenised before spaCy sees them (:func:`guarded_doc`):
spaCy's tokenizer splits affixes one at a time, so a run of punctuation costs time
quadratic in its length (")" x 20,000: about a minute) and yields one token per
character. A run of at least :data:`GUARD_RUN` non-alphanumeric, non-space
characters, or a whitespace-free stretch of at least :data:`GUARD_CHUNK`
characters, becomes one token; the rest of such a text goes through spaCy's
tokenizer piece by piece. Texts without such runs are tokenised by spaCy itself,
unchanged; the Doc's text is the input text exactly, so every offset holds.
Measured by benchmarks/adversarial.py.

Two rules are added to spaCy's tokenizer. :func:`read_escaped_quotes` reads a
backslash-escaped quote ("qpr\\'s") as the quote. :func:`split_glued_parentheses`: a closing
parenthesis between a letter or digit and a capital letter is a token of its own. CNN
writes its dateline glued to the first word ("(CNN)Craig Hicks, who is charged ..."),
which spaCy's English rules keep as one token "CNN)Craig", tagged with "Hicks" as an
organisation; about 950 validation rows have a source that begins so
(docs/architecture.md#parsing-parsingpy-textcasingpy-registrypy).
"""

from __future__ import annotations

import re
import threading
import weakref
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy

from . import budget
from .lru import LRU

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc

DEFAULT_CACHE_SIZE = 4096
DEFAULT_CHUNK_CHARS = 20_000
#: texts per ``nlp.pipe`` batch for a pipeline without a transformer: on this project's
#: 2-core CPU machine en_core_web_sm parses 16 at a time 15-25% faster than 64 (400
#: SummEval and 400 FRANK rows' texts, docs/scaling.md#where-the-time-goes), with the same
#: annotations
DEFAULT_PARSE_BATCH = 16
#: the same for a transformer pipeline (en_core_web_trf), kept at the earlier 64: not
#: measured here, and a GPU wants larger batches
TRANSFORMER_PARSE_BATCH = 64
#: a run of this many non-alphanumeric, non-space characters is one token
GUARD_RUN = 100
#: a whitespace-free stretch of this many characters is one token
GUARD_CHUNK = 1000
# each alternative starts only where its run starts, so finding them takes linear time
_GUARDED = re.compile(rf"(?<!\S)\S{{{GUARD_CHUNK},}}|(?<![^\w\s])(?<!_)(?:[^\w\s]|_){{{GUARD_RUN},}}")


#: a closing parenthesis glued to the capitalised word after it: "(CNN)Craig" is
#: "(", "CNN", ")", "Craig"
GLUED_PARENTHESIS = r"(?<=[0-9A-Za-z])\)(?=[A-Z])"


def _add_rule(tokenizer, attribute: str, rule: str, first: bool) -> None:
    """Add ``rule`` to the tokenizer's ``prefix_search``, ``suffix_search`` or
    ``infix_finditer`` pattern, before spaCy's own alternatives (``first``) or after
    them; once, and not at all where that rule is no compiled pattern."""
    current = getattr(getattr(tokenizer, attribute), "__self__", None)
    pattern = getattr(current, "pattern", None)
    if not isinstance(pattern, str) or rule in pattern:
        return
    combined = re.compile(f"{rule}|{pattern}" if first else f"{pattern}|{rule}")
    setattr(tokenizer, attribute, combined.finditer if attribute == "infix_finditer" else combined.search)


def split_glued_parentheses(nlp) -> None:
    """Add :data:`GLUED_PARENTHESIS` to the infixes of ``nlp``'s tokenizer (once; a
    tokenizer whose infix rule is not a compiled pattern is left as it is)."""
    _add_rule(nlp.tokenizer, "infix_finditer", GLUED_PARENTHESIS, first=False)


#: the quotes and clitics that models trained on escaped text write with a backslash
#: before each quote (QPR\'s, \'no\', don\'t, ``troubling\'\'): the plain forms
ESCAPED_QUOTE_FORMS = (
    "'s",
    "'S",
    "n't",
    "N'T",
    "'ll",
    "'LL",
    "'re",
    "'RE",
    "'ve",
    "'VE",
    "'m",
    "'M",
    "'d",
    "'D",
    "''",
    "'",
    '"',
)
#: where an escaped quote is cut off a token: at its end (a possessive or clitic with
#: it), at its start, and between two words
ESCAPED_QUOTE_SUFFIX = r"n\\'t$|N\\'T$|\\'(?:[sSmMdD]|re|RE|ll|LL|ve|VE)$|\\'\\'$|\\['\"]$"
ESCAPED_QUOTE_PREFIX = r"^\\'\\'|^\\['\"]"
ESCAPED_QUOTE_INFIX = r"\\'\\'|\\['\"]"


def escaped(form: str) -> str:
    """``form`` with a backslash before each quote ("'s" -> "\\'s")."""
    return form.replace("'", "\\'").replace('"', '\\"')


def read_escaped_quotes(nlp) -> None:
    """Read a backslash-escaped quote as the quote (docs/architecture.md#escaped-quotes):
    spaCy's own rules make "qpr\\" of "qpr\\'s" a token, which the recogniser tags a
    name. Adds :data:`ESCAPED_QUOTE_SUFFIX`, ``_PREFIX`` and ``_INFIX`` to ``nlp``'s
    tokenizer (once; the suffix and prefix rules before spaCy's; a rule that is not a
    compiled pattern is left as it is), so "qpr\\'s" is "qpr" and "\\'s", and gives each
    escaped form of :data:`ESCAPED_QUOTE_FORMS` its plain form's lexical attributes
    (norm, lower case, prefix, suffix, shape, flags). Those are all the tagger, parser
    and recogniser read of a token, and the attribute ruler matches on lower case: a
    text with escaped quotes gets the parse and lemmas of the text without the
    backslashes, while the ``Doc``'s text, and every offset, stays as written."""
    _add_rule(nlp.tokenizer, "suffix_search", ESCAPED_QUOTE_SUFFIX, first=True)
    _add_rule(nlp.tokenizer, "prefix_search", ESCAPED_QUOTE_PREFIX, first=True)
    _add_rule(nlp.tokenizer, "infix_finditer", ESCAPED_QUOTE_INFIX, first=False)
    for form in ESCAPED_QUOTE_FORMS:
        plain, written = nlp.vocab[form], nlp.vocab[escaped(form)]
        for attribute in ("norm_", "lower_", "prefix_", "suffix_", "shape_", "flags"):
            setattr(written, attribute, getattr(plain, attribute))


@dataclass
class ParsedText:
    """A text and its spaCy ``Doc``. Nothing is written onto it after parsing: the units
    extracted from it are memoised in a :class:`UnitCache` beside the parse cache."""

    text: str
    doc: Doc


def split_for_parsing(text: str, chunk_chars: int) -> list[str]:
    """Cut ``text`` into pieces of at most about ``chunk_chars`` characters whose
    concatenation is exactly ``text``. Cuts prefer paragraph breaks, then sentence
    ends, then any whitespace; each piece keeps its trailing whitespace."""
    if len(text) <= chunk_chars:
        return [text]
    pieces = []
    start = 0
    while len(text) - start > chunk_chars:
        window = text[start : start + chunk_chars]
        cut = -1
        for pattern in (r"\n\s*\n\s*", r"[.!?][\"')\]]*\s+", r"\s+"):
            ends = [m.end() for m in re.finditer(pattern, window)]
            ends = [e for e in ends if e > chunk_chars // 2]
            if ends:
                cut = ends[-1]
                break
        if cut <= 0:
            cut = chunk_chars  # no whitespace at all: a hard cut
        pieces.append(text[start : start + cut])
        start += cut
    pieces.append(text[start:])
    return pieces


def guarded_doc(nlp, text: str):
    """The tokenised ``Doc`` of ``text`` (no pipeline component run yet):
    ``nlp.make_doc(text)`` unless ``text`` holds a pathological run (module
    docstring), which then becomes one token while the text around it is tokenised
    by spaCy piece by piece. ``doc.text == text`` always; cost linear in
    ``len(text)``."""
    from spacy.tokens import Doc

    if _GUARDED.search(text) is None:
        return nlp.make_doc(text)
    words: list[str] = []
    spaces: list[bool] = []

    def add_piece(piece: str) -> None:
        if piece:
            for token in nlp.tokenizer(piece):
                words.append(token.text)
                spaces.append(bool(token.whitespace_))

    position = 0
    for run in _GUARDED.finditer(text):
        add_piece(text[position : run.start()])
        words.append(run.group())
        position = run.end()
        spaces.append(text.startswith(" ", position))  # one following space is the token's own
        position += spaces[-1]
    add_piece(text[position:])
    return Doc(nlp.vocab, words=words, spaces=spaces)


#: what a ``Doc`` holds when no component has set a tensor (spaCy's own empty value)
_NO_TENSOR = numpy.zeros((0,), dtype="float32")


def without_tensor(doc):
    """``doc`` without the tok2vec output its pipeline left on it (``doc.tensor``, 96
    floats a token with en_core_web_sm): the tagger, parser and recogniser have used it,
    and nothing halluscope reads after parsing does (en_core_web_sm has no word vectors,
    so no ``Token.vector`` falls back to it). A cached parse keeps only its annotations."""
    doc.tensor = _NO_TENSOR
    return doc


def default_parse_batch(nlp) -> int:
    """:data:`TRANSFORMER_PARSE_BATCH` for a pipeline with a transformer component, else
    :data:`DEFAULT_PARSE_BATCH`."""
    names = getattr(nlp, "pipe_names", ())
    return TRANSFORMER_PARSE_BATCH if any("transformer" in name for name in names) else DEFAULT_PARSE_BATCH


class ParseCache:
    """Bounded LRU of ``ParsedText`` for one spaCy pipeline: at most ``maxsize``
    entries and, as a cache of the process (``budgeted``), the parse caches' share of
    the memory budget (:mod:`halluscope.budget`; an entry weighs about 500 bytes a
    token).

    ``batch_size``: texts per ``nlp.pipe`` batch (None: :func:`default_parse_batch`).

    Counters: ``parsed`` (texts actually run through spaCy), ``hits``, ``misses``.
    """

    def __init__(
        self,
        nlp,
        maxsize: int = DEFAULT_CACHE_SIZE,
        chunk_chars: int = DEFAULT_CHUNK_CHARS,
        batch_size: int | None = None,
        budgeted: bool = True,
    ) -> None:
        self.nlp = nlp
        self.chunk_chars = chunk_chars
        self.batch_size = batch_size or default_parse_batch(nlp)
        # keys: a text, or (analysed text, shown text) for get_shown_as
        self._entries: LRU[ParsedText] = LRU(maxsize, weigh=budget.weigh_doc)
        self._lock = threading.Lock()
        if budgeted:
            budget.register("parses", self._entries, self._lock)
        self.parsed = 0
        self.hits = 0
        self.misses = 0
        # chunks are parsed one at a time, so spaCy's own length guard never trips (the
        # pipeline may be shared: its limit is only ever raised, and only when needed)
        if self.nlp.max_length < chunk_chars * 2:
            self.nlp.max_length = chunk_chars * 2

    def __len__(self) -> int:
        return len(self._entries)

    def keys(self) -> list[object]:
        """The cached keys, least recent first: a text, or (analysed, shown) for
        :meth:`get_shown_as`."""
        with self._lock:
            return list(self._entries)

    def get_many(self, texts: Sequence[str]) -> list[ParsedText]:
        """Parsed texts in the order given; every distinct missing text parsed once."""
        with self._lock:
            missing: list[str] = []
            seen = set()
            for text in texts:
                if text in self._entries:
                    self.hits += 1
                    self._entries.get(text)  # now the most recent
                elif text not in seen:
                    self.misses += 1
                    seen.add(text)
                    missing.append(text)
                else:
                    self.hits += 1
            parsed = dict(zip(missing, self._parse(missing), strict=True))
            fresh = {text: ParsedText(text=text, doc=doc) for text, doc in parsed.items()}
            # every text of the call is returned, even when the call holds more
            # distinct texts than the cache keeps
            result = [fresh[text] if text in fresh else self._entries.get(text) for text in texts]
            for text, entry in fresh.items():
                self._entries.put(text, entry)
            # under the lock, every text not parsed here is one the cache holds: no None
            return result  # type: ignore[return-value]

    def get_shown_as(self, analysed: Sequence[str], shown: Sequence[str]) -> list[ParsedText]:
        """Parses of ``analysed`` texts presented as the ``shown`` texts (same length,
        differing only in case, e.g. truecased summaries shown as the caller wrote
        them): where the two differ, the entry's ``text`` and ``doc.text`` are the
        shown text and its annotations those of the analysed parse
        (:func:`with_text`). Such entries are cached under the pair."""
        if len(analysed) != len(shown):
            raise ValueError("one shown text per analysed text")
        parses = self.get_many(analysed)
        result = []
        for text, view, parse in zip(analysed, shown, parses, strict=True):
            if text == view:
                result.append(parse)
                continue
            key = (text, view)
            with self._lock:
                entry = self._entries.get(key)
                if entry is None:
                    entry = self._entries.put(key, ParsedText(text=view, doc=with_text(parse.doc, view)))
            result.append(entry)
        return result

    def seed(self, docs: dict[str, object]) -> int:
        """Add already-parsed texts (e.g. the sentences of a parsed document, as
        ``span.as_doc()``) so that later requests for them need no parse. Returns how
        many were new."""
        added = 0
        with self._lock:
            for text, doc in docs.items():
                if text not in self._entries:
                    self._entries.put(text, ParsedText(text=text, doc=without_tensor(doc)))
                    added += 1
        return added

    @property
    def maxsize(self) -> int:
        return self._entries.maxsize

    @maxsize.setter
    def maxsize(self, value: int) -> None:
        with self._lock:
            self._entries.resize(value)

    def _parse(self, texts: list[str]) -> Iterable:
        from spacy.tokens import Doc

        # longest first: spaCy parses a call's texts faster when the long sources lead than
        # when the short summaries do, as a call lists them (docs/scaling.md#where-the-time-goes);
        # each text's parse is the same either way
        short = sorted((t for t in texts if len(t) <= self.chunk_chars), key=len, reverse=True)
        docs: dict[str, object] = {}
        tokenised = (guarded_doc(self.nlp, t) for t in short)
        for text, doc in zip(short, self.nlp.pipe(tokenised, batch_size=self.batch_size), strict=True):
            docs[text] = doc
        for text in texts:
            if text in docs:
                continue
            chunks = split_for_parsing(text, self.chunk_chars)
            chunk_docs = list(self.nlp.pipe((guarded_doc(self.nlp, c) for c in chunks), batch_size=1))
            # the chunks' tensors are dropped anyway (:func:`without_tensor`): not concatenated
            # spaCy 3.8 takes exclude=; its doc.pyi does not declare it
            docs[text] = Doc.from_docs(chunk_docs, ensure_whitespace=False, exclude=["tensor"])  # type: ignore[call-arg]
        self.parsed += len(texts)
        return [without_tensor(docs[t]) for t in texts]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


#: token annotations carried over by :func:`with_text`, each when the parse has it;
#: sentence starts follow HEAD when there is a parse, else they are carried themselves
_CARRIED = (
    ("TAG", ("TAG",)),
    ("POS", ("POS",)),
    ("MORPH", ("MORPH",)),
    ("LEMMA", ("LEMMA",)),
    ("DEP", ("DEP", "HEAD")),
    ("ENT_IOB", ("ENT_IOB", "ENT_TYPE")),
)


def with_text(doc, text: str):
    """A ``Doc`` over ``text`` with ``doc``'s tokens and annotations (tags, lemmas,
    parse, entities). ``text`` must have ``doc.text``'s length and token boundaries
    (it may differ in case, as a truecased text does from its original)."""
    from spacy.tokens import Doc

    if len(text) != len(doc.text):
        raise ValueError("with_text needs a text of the same length as the parsed one")
    words = [text[t.idx : t.idx + len(t)] for t in doc]
    spaces = [bool(t.whitespace_) for t in doc]
    view = Doc(doc.vocab, words=words, spaces=spaces)
    attributes = [name for probe, names in _CARRIED if doc.has_annotation(probe) for name in names]
    if "HEAD" not in attributes and doc.has_annotation("SENT_START"):
        attributes.append("SENT_START")
    if len(doc) and attributes:
        # doc.pyi types the list as list[int | str], which a list[str] is not (list is invariant)
        view.from_array(attributes, doc.to_array(attributes))  # type: ignore[arg-type]
    return view


#: entries of a unit cache: a parse and an extractor setting each (three dimensions, one
#: setting each, for every text of a full parse cache)
DEFAULT_UNIT_CACHE_SIZE = 3 * DEFAULT_CACHE_SIZE


class UnitCache:
    """The units extracted from parsed texts, once per (parse, extractor setting): a
    bounded LRU (at most ``maxsize`` entries and, ``budgeted``, the units' share of the
    memory budget, :mod:`halluscope.budget`) beside the parse cache, so that the parse
    objects stay read-only.

    Keyed by the identity of the :class:`ParsedText` (whose ``Doc`` the units come
    from) and the setting; an entry keeps only a weak reference to its parse, so it
    never keeps a ``Doc`` alive, and it answers only for that very parse (an id reused
    by a later parse misses). Counters: ``extracted`` (extractor runs), ``hits``."""

    def __init__(self, maxsize: int = DEFAULT_UNIT_CACHE_SIZE, budgeted: bool = True) -> None:
        self._entries: LRU[tuple[weakref.ref, list]] = LRU(maxsize, weigh=budget.weigh_units)
        self._lock = threading.Lock()
        if budgeted:
            budget.register("units", self._entries, self._lock)
        self.extracted = 0
        self.hits = 0

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def maxsize(self) -> int:
        return self._entries.maxsize

    def get(self, parsed: ParsedText, setting: Hashable, extract: Callable[[object], list]) -> list:
        """The units of ``parsed`` under ``setting``: cached, else ``extract(parsed.doc)``
        (run outside the lock) and cached."""
        key = (id(parsed), setting)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0]() is parsed:
                self.hits += 1
                return entry[1]
        units = extract(parsed.doc)
        with self._lock:
            self.extracted += 1
            self._entries.put(key, (weakref.ref(parsed), units))
        return units

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
