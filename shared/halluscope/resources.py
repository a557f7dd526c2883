"""The models and caches the CHI family scores with, in one object.

A :class:`Resources` owns, each made on first use:

* a :class:`~halluscope.parsing.ParseCache` per spaCy model (texts -> ``ParsedText``),
* a :class:`~halluscope.parsing.UnitCache` (the units extracted from each parse, per
  extractor setting; the parses themselves stay read-only),
* a :class:`~halluscope.text.index_cache.TextIndexCache` (the text indexes that
  grounding, attribution and word support read; what other modules derive from an
  index lives on it, :meth:`~halluscope.text.index.TextIndex.derived`),
* a :class:`~halluscope.text_tables.TextTables` (tables derived from whole texts: a
  source's casing table and written words, coreference resolutions),
* an :class:`~halluscope.embedding.Embedder` per (sentence model, device),
* a :class:`~halluscope.lexicon.lexical.Lexicon` per WordNet folder,
* an :class:`~halluscope.nli.NLIEngine` per (NLI model, device, dtype, max length,
  label map), with its cache of scored pairs (dlsd_acu).

The pipeline (:func:`halluscope.pipeline.score`) takes one as a parameter and hands
what it gets from it on to the matchers (docs/architecture.md#resources); nothing in it
reaches for a process-wide cache. The simple ``halluscope.score_*`` functions use the
process's default (:meth:`Resources.default`, :func:`get_resources`);
:class:`halluscope.Scorer` holds one (``Scorer(metric, resources=...)``), as
``bert_score.BERTScorer`` holds its model. Two Resources share no cache.

Models are the process's: spaCy pipelines and sentence encoders are loaded once per
(name, device; an encoder also per precision, docs/scaling.md#encoder-precision) by ``registry``
(default :data:`halluscope.registry.MODELS`; pass a
fresh :class:`~halluscope.registry.ModelRegistry` for private copies) and WordNet's
reader once per folder (:func:`halluscope.lexicon.wordnet.shared_wordnet`); none of their
settings is changed by a Resources. Every cache registers with
:mod:`halluscope.budget`, so the ``cache_mb`` budget bounds them all: a kind's share is
split among the live caches of that kind, those of every Resources together.

dlsd_acu (:mod:`halluscope.acu`) takes its NLI engine, the parses of its documents and
summaries and its coreference resolutions from the Resources it is given; its
decomposers and discourse-link components stay process-wide and parse through the
default Resources. Every cache and memo, with its owner: docs/architecture.md#caches-and-their-owners.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Mapping
from typing import TYPE_CHECKING, TypeVar

from .registry import MODELS, SENTENCE_ENCODER, SPACY, ModelRegistry, default_device, load_spacy, resolve
from .text_tables import DEFAULT_TEXT_TABLES_SIZE, TextTables

if TYPE_CHECKING:  # pragma: no cover
    from .embedding import Embedder
    from .lexicon.lexical import Lexicon
    from .nli import NLIEngine
    from .parsing import ParseCache, ParsedText
    from .text.index import TextIndex

Table = TypeVar("Table")


class Resources:
    """Loaded models and their caches for the CHI family (module docstring).

    ``registry``: where models are loaded (default: the process's); the sizes are
    each cache's entry bound (the memory budget bounds them in bytes as well)."""

    _default: Resources | None = None
    _default_lock = threading.Lock()

    def __init__(
        self,
        *,
        registry: ModelRegistry | None = None,
        parse_cache_size: int | None = None,
        unit_cache_size: int | None = None,
        index_cache_size: int | None = None,
        text_tables_size: int | None = None,
    ) -> None:
        from .parsing import DEFAULT_CACHE_SIZE, DEFAULT_UNIT_CACHE_SIZE, UnitCache
        from .text.index_cache import DEFAULT_INDEX_CACHE_SIZE, TextIndexCache

        self.registry = MODELS if registry is None else registry
        self._parse_cache_size = DEFAULT_CACHE_SIZE if parse_cache_size is None else parse_cache_size
        self._lock = threading.Lock()
        self._parse_caches: dict[str, ParseCache] = {}
        self._embedders: dict[tuple[str, str, str], Embedder] = {}
        self._lexicons: dict[str | None, Lexicon] = {}
        self._nli_engines: dict[tuple, NLIEngine] = {}
        #: the units of each parse per extractor setting
        self.unit_cache: UnitCache = UnitCache(DEFAULT_UNIT_CACHE_SIZE if unit_cache_size is None else unit_cache_size)
        #: the text index of each parsed Doc
        self.index_cache: TextIndexCache = TextIndexCache(
            DEFAULT_INDEX_CACHE_SIZE if index_cache_size is None else index_cache_size
        )
        #: tables derived from whole texts (casing tables, written words, coreference)
        self.text_tables: TextTables = TextTables(
            DEFAULT_TEXT_TABLES_SIZE if text_tables_size is None else text_tables_size
        )
        #: the calls (a metric and its options, :func:`halluscope.api.call_key`) scored to
        #: their end with these Resources in this process: every model such a call loads is
        #: loaded, so a pool of workers for the same call forks at once (docs/scaling.md#workers)
        self.loaded_calls: set[str] = set()

    @classmethod
    def default(cls) -> Resources:
        """The process's default Resources (made on first use), which the
        ``halluscope.score_*`` functions and this module's getters
        (``get_parse_cache``, ``get_embedder``, ``get_lexicon``, ``get_nli_engine``,
        ``text_index``) use."""
        with cls._default_lock:
            if cls._default is None:
                cls._default = cls()
            return cls._default

    def __repr__(self) -> str:
        return (
            f"Resources(parse caches {sorted(self._parse_caches)}, embedders {sorted(self._embedders)}, "
            f"lexicons {len(self._lexicons)}, NLI engines {len(self._nli_engines)}, "
            f"{len(self.unit_cache)} unit entries, "
            f"{len(self.index_cache)} text indexes, {len(self.text_tables)} text tables)"
        )

    # -- models and their caches ------------------------------------------------------

    def nlp(self, spacy_model: str | None = None):
        """The spaCy pipeline for ``spacy_model`` (resolved), loaded once per process
        (spaCy runs on the CPU: :func:`halluscope.registry.get_spacy`)."""
        return self.registry.get(SPACY, resolve(SPACY, spacy_model), "cpu", load_spacy)

    def parse_cache(self, spacy_model: str | None = None) -> ParseCache:
        """This Resources' parse cache for the resolved spaCy model."""
        from .parsing import ParseCache

        name = resolve(SPACY, spacy_model)
        with self._lock:
            cache = self._parse_caches.get(name)
        if cache is None:
            nlp = self.nlp(name)  # loaded outside this lock: the registry has its own
            with self._lock:
                cache = self._parse_caches.get(name)
                if cache is None:
                    cache = self._parse_caches[name] = ParseCache(nlp, maxsize=self._parse_cache_size)
        return cache

    def embedder(self, model: str | None = None, device: str | None = None, dtype: str = "auto") -> Embedder:
        """This Resources' embedder for (resolved sentence model, device, precision
        ``dtype`` resolves to there: :func:`halluscope.embedding.encoder_dtype`); the
        model loads when it first encodes. A call that wants another batch size takes a
        view (:meth:`halluscope.embedding.Embedder.with_batch_size`), never changes this one."""
        from .embedding import Embedder, encoder_dtype

        device = device or default_device()
        key = (resolve(SENTENCE_ENCODER, model), device, encoder_dtype(dtype, device))
        with self._lock:
            embedder = self._embedders.get(key)
            if embedder is None:
                embedder = self._embedders[key] = Embedder(key[0], key[1], registry=self.registry, dtype=key[2])
            return embedder

    def lexicon(self, path: str | None = None) -> Lexicon:
        """This Resources' WordNet :class:`~halluscope.lexicon.lexical.Lexicon` (default options)
        for ``path`` (None: the resolution order, docs/lexical.md): its own query caches
        over the process's reader (:func:`halluscope.lexicon.wordnet.shared_wordnet`); one per
        resolved folder. Without WordNet, a Lexicon that answers "same lemma" only."""
        from .lexicon.lexical import Lexicon
        from .lexicon.wordnet import shared_wordnet

        shared = shared_wordnet(path)
        key = None if shared is None else shared.source.location
        with self._lock:
            lexicon = self._lexicons.get(key)
            if lexicon is None:
                lexicon = self._lexicons[key] = Lexicon.over(shared)
            return lexicon

    def nli_engine(
        self,
        model: str | None = None,
        *,
        device: str | None = None,
        dtype: str = "float32",
        batch_size: int = 32,
        max_length: int = 512,
        label_map: Mapping[str, str] | None = None,
    ) -> NLIEngine:
        """This Resources' NLI engine for (resolved model, device, dtype, max_length,
        label_map), with its own cache of scored pairs over the process's model (loaded
        once by the registry when it first scores). ``batch_size`` changes no score and
        is not part of the key: the engine keeps the one it was made with."""
        from .nli.engine import NLIEngine, check_dtype, normalise_device
        from .registry import NLI

        name = resolve(NLI, model)
        key = (
            name,
            normalise_device(device),
            check_dtype(dtype),
            max_length,
            tuple(sorted(label_map.items())) if label_map else None,
        )
        with self._lock:
            engine = self._nli_engines.get(key)
            if engine is None:
                engine = self._nli_engines[key] = NLIEngine(
                    name, device=key[1], dtype=key[2], batch_size=batch_size, max_length=max_length, label_map=label_map
                )
            return engine

    # -- derived data -----------------------------------------------------------------

    def text_index(self, doc) -> TextIndex:
        """The :class:`~halluscope.text.index.TextIndex` of a parsed ``Doc``, built
        once while cached."""
        return self.index_cache.get(doc)

    def text_table(self, build: Callable[[str], Table], text: str) -> Table:
        """``build(text)`` (a table derived from a whole text: :mod:`halluscope.text_tables`),
        built once while cached."""
        return self.text_tables.of_text(build, text)

    def units(self, parsed: ParsedText, setting: Hashable, extract: Callable[[object], list]) -> list:
        """The units of ``parsed`` under an extractor ``setting`` (a hashable naming the
        extractor and its options), ``extract(parsed.doc)`` once while cached."""
        return self.unit_cache.get(parsed, setting, extract)

    def clear(self) -> None:
        """Empty every cache (models stay loaded)."""
        with self._lock:
            parse_caches, embedders, lexicons = (
                list(self._parse_caches.values()),
                list(self._embedders.values()),
                list(self._lexicons.values()),
            )
            engines = list(self._nli_engines.values())
        for cache in parse_caches:
            cache.clear()
        for embedder in embedders:
            embedder.clear()
        for lexicon in lexicons:
            lexicon.clear_cache()
        for engine in engines:
            engine.clear_cache()
        self.unit_cache.clear()
        self.index_cache.clear()
        self.text_tables.clear()


# -- the process's default, for callers outside a scoring call --------------------------
# A scoring call takes its Resources as a parameter and hands what it gets on
# (docs/architecture.md#resources); the getters below are the one place the process
# default is reached from, so no lower module imports this one.


def get_resources() -> Resources:
    """The process's default :class:`Resources` (:meth:`Resources.default`)."""
    return Resources.default()


def get_parse_cache(spacy_model: str | None = None, maxsize: int | None = None) -> ParseCache:
    """The default Resources' parse cache for the resolved spaCy model (made on first
    use); ``maxsize`` resizes it."""
    cache = Resources.default().parse_cache(spacy_model)
    if maxsize is not None:
        cache.maxsize = maxsize
    return cache


def get_embedder(model: str | None = None, device: str | None = None, dtype: str = "auto") -> Embedder:
    """The default Resources' embedder for (resolved sentence model, device, precision)."""
    return Resources.default().embedder(model, device, dtype)


def get_lexicon(path: str | None = None) -> Lexicon:
    """The default Resources' WordNet :class:`~halluscope.lexicon.lexical.Lexicon` for ``path``
    (None: the resolution order, docs/lexical.md); without WordNet, a Lexicon that
    answers "same lemma" only (one warning when it is made)."""
    return Resources.default().lexicon(path)


def get_nli_engine(
    model: str | None = None,
    *,
    device: str | None = None,
    dtype: str = "float32",
    batch_size: int = 32,
    max_length: int = 512,
    label_map: Mapping[str, str] | None = None,
) -> NLIEngine:
    """The default Resources' NLI engine (:meth:`Resources.nli_engine`; ``batch_size``
    changes no score and is not part of the key)."""
    return Resources.default().nli_engine(
        model, device=device, dtype=dtype, batch_size=batch_size, max_length=max_length, label_map=label_map
    )


def text_index(doc) -> TextIndex:
    """The default Resources' text index of a parsed ``Doc``."""
    return Resources.default().text_index(doc)


__all__ = [
    "Resources",
    "get_embedder",
    "get_lexicon",
    "get_nli_engine",
    "get_parse_cache",
    "get_resources",
    "text_index",
]
