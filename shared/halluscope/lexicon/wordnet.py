"""Where Princeton WordNet 3.0 comes from, and its reader, loaded once per folder for
the process (the queries are :mod:`halluscope.lexicon.lexical`; docs/lexical.md).


The database is read with NLTK's ``WordNetCorpusReader``; see ``docs/lexical.md`` for
installing it and for examples of real answers.

Where WordNet comes from (first found wins; :func:`find_wordnet` tells which without
loading it):

1. an explicit ``path``: a folder in WordNet's database format (``data.verb``,
   ``index.noun``, ``verb.exc``, ...). A path that does not exist, or lacks the database
   files, is a ``ValueError`` naming it, never a silent fall-through;
2. NLTK's data folders: ``nltk.data.find("corpora/wordnet")``, unzipped or zipped
   (``corpora/wordnet.zip``, as ``nltk.download("wordnet")`` leaves it);
3. Debian's folder :data:`DEBIAN_WORDNET` (``apt-get install wordnet-base
   wordnet-sense-index``).

Every source must be WordNet 3.0 (``reader.get_version()``); an explicit folder of another
version is a ``ValueError``, an automatic one is skipped with a warning. When nothing is
found (or NLTK is not installed) :func:`load_wordnet` returns None and logs one warning on
the ``"halluscope"`` logger saying how to install WordNet; nothing raises at import.
A :class:`Lexicon` without WordNet still answers, only ever with "same lemma", and says so
in its :attr:`Lexicon.wordnet_version` (``"none"``, against ``"3.0"``), which the
signature's ``wn`` field writes.

A folder is read in place when NLTK can read it in place: it holds the ``lexnames`` table
and its files are plain files. Debian's folder has no ``lexnames`` (NLTK needs it) and may
be read-only, and NLTK >= 3.10 refuses corpus files that are symbolic or hard links and
corpus folders outside its data roots. Such a folder is therefore copied once (about 36 MB
for WordNet 3.0), with the :data:`LEXNAMES` table written beside the copies, into
``$HALLUSCOPE_CACHE/wordnet-3.0`` (Debian's folder) or ``$HALLUSCOPE_CACHE/wordnet-<hash>``
(any other folder); ``HALLUSCOPE_CACHE`` defaults to ``$XDG_CACHE_HOME/halluscope``, i.e.
``~/.cache/halluscope``. A copy is checked against its source (sizes and modification
times) and rebuilt when they differ. When the cache cannot be written, the copy goes into a
private temporary folder removed with its reader. The folder read is appended to
``nltk.data.path``, NLTK's documented way of authorising a corpus in a custom location.

"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import stat
import tempfile
import threading
import warnings
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

LOGGER = logging.getLogger("halluscope")


#: Debian's WordNet 3.0 database (packages ``wordnet-base`` and ``wordnet-sense-index``).
DEBIAN_WORDNET = "/usr/share/wordnet"


#: Environment variable naming halluscope's cache folder.
CACHE_ENV = "HALLUSCOPE_CACHE"


#: The only WordNet version this module reads.
WORDNET_VERSION = "3.0"


#: WordNet 3.0's ``lexnames`` file (lexnames(5WN)): lexicographer file number, name, and
#: syntactic category (1 noun, 2 verb, 3 adjective, 4 adverb). NLTK's reader needs it;
#: Debian's packages do not ship it.
LEXNAMES = "".join(
    f"{number:02d}\t{name}\t{category}\n"
    for number, (name, category) in enumerate(
        (
            ("adj.all", 3),
            ("adj.pert", 3),
            ("adv.all", 4),
            ("noun.Tops", 1),
            ("noun.act", 1),
            ("noun.animal", 1),
            ("noun.artifact", 1),
            ("noun.attribute", 1),
            ("noun.body", 1),
            ("noun.cognition", 1),
            ("noun.communication", 1),
            ("noun.event", 1),
            ("noun.feeling", 1),
            ("noun.food", 1),
            ("noun.group", 1),
            ("noun.location", 1),
            ("noun.motive", 1),
            ("noun.object", 1),
            ("noun.person", 1),
            ("noun.phenomenon", 1),
            ("noun.plant", 1),
            ("noun.possession", 1),
            ("noun.process", 1),
            ("noun.quantity", 1),
            ("noun.relation", 1),
            ("noun.shape", 1),
            ("noun.state", 1),
            ("noun.substance", 1),
            ("noun.time", 1),
            ("verb.body", 2),
            ("verb.change", 2),
            ("verb.cognition", 2),
            ("verb.communication", 2),
            ("verb.competition", 2),
            ("verb.consumption", 2),
            ("verb.contact", 2),
            ("verb.creation", 2),
            ("verb.emotion", 2),
            ("verb.motion", 2),
            ("verb.perception", 2),
            ("verb.possession", 2),
            ("verb.social", 2),
            ("verb.stative", 2),
            ("verb.weather", 2),
            ("adj.ppl", 3),
        )
    )
)


#: Database files a folder must hold to count as WordNet.
REQUIRED_FILES: tuple[str, ...] = tuple(
    f"{kind}.{pos}" for kind in ("data", "index") for pos in ("noun", "verb", "adj", "adv")
) + tuple(f"{pos}.exc" for pos in ("noun", "verb", "adj", "adv"))


#: Further files NLTK's reader may open (sense keys, sense counts); copied when present.
OPTIONAL_FILES: tuple[str, ...] = ("index.sense", "cntlist.rev")


INSTALL_HINT = (
    "install it with `apt-get install wordnet-base wordnet-sense-index` "
    "(Debian/Ubuntu) or `python -c 'import nltk; nltk.download(\"wordnet\")'`"
)


@dataclass(frozen=True)
class WordNetSource:
    """Where WordNet was found: ``kind`` is "explicit", "nltk" or "debian"; ``location`` the
    folder (or NLTK's path of the resource, possibly inside a zip file)."""

    kind: str
    location: str


def find_wordnet(path: str | None = None) -> WordNetSource | None:
    """The WordNet source the resolution order picks, without loading it (None: none found).

    An explicit ``path`` that does not exist or lacks the database files is a
    ``ValueError`` naming it. Without NLTK, which reads every source, this is None."""
    if path is not None:
        return WordNetSource("explicit", _check_folder(path))
    if not _nltk_installed():
        return None
    found = _sources()
    return found[0][0] if found else None


def _sources() -> list[tuple[WordNetSource, Callable[[], Any]]]:
    """The resolution order after an explicit path, each source with how to read it:
    NLTK's data folders, then Debian's folder (those present)."""
    found: list[tuple[WordNetSource, Callable[[], Any]]] = []
    pointer = _nltk_wordnet()
    if pointer is not None:
        found.append((WordNetSource("nltk", str(getattr(pointer, "path", pointer))), lambda: _new_reader(pointer)))
    if not _missing_files(DEBIAN_WORDNET):
        found.append((WordNetSource("debian", DEBIAN_WORDNET), lambda: _folder_reader(DEBIAN_WORDNET)))
    return found


def load_wordnet(path: str | None = None) -> Any | None:
    """An NLTK ``WordNetCorpusReader`` over WordNet 3.0 found in the resolution order, or
    None (with one warning on the ``"halluscope"`` logger saying how to install it).

    An explicit ``path`` that does not exist, lacks the database files or is not WordNet
    3.0 is a ``ValueError`` naming it."""
    loaded = load_reader(path)
    return None if loaded is None else loaded[0]


def load_reader(path: str | None) -> tuple[Any, WordNetSource] | None:
    """The reader and where it was found (:func:`load_wordnet`), or None."""
    if path is not None:
        folder = _check_folder(path)
        if not _nltk_installed():
            LOGGER.warning(
                "WordNet folder %s cannot be read: NLTK is not installed "
                "(pip install nltk); lexical relations answer 'same lemma' only",
                folder,
            )
            return None
        reader = _folder_reader(folder)
        version = reader.get_version()
        if version != WORDNET_VERSION:
            raise ValueError(f"WordNet folder {folder!r} holds WordNet {version}, not {WORDNET_VERSION}")
        return reader, WordNetSource("explicit", folder)
    if not _nltk_installed():
        LOGGER.warning(
            "WordNet is not available: NLTK is not installed (pip install nltk), "
            "and WordNet itself is needed too: %s. Lexical relations answer "
            "'same lemma' only (signature wn:none)",
            INSTALL_HINT,
        )
        return None
    for source, build in _sources():
        try:
            reader = build()
            version = reader.get_version()
        except Exception as exc:  # a broken copy must not hide the next source
            LOGGER.warning(
                "WordNet at %s could not be read (%s: %s); trying the next source",
                source.location,
                type(exc).__name__,
                exc,
            )
            continue
        if version == WORDNET_VERSION:
            return reader, source
        LOGGER.warning("WordNet at %s is version %s, not %s; skipped", source.location, version, WORDNET_VERSION)
    LOGGER.warning(
        "WordNet %s is not available: %s. Lexical relations answer 'same lemma' only (signature wn:none)",
        WORDNET_VERSION,
        INSTALL_HINT,
    )
    return None


def _nltk_installed() -> bool:
    try:
        import nltk  # noqa: F401
    except ImportError:
        return False
    return True


def _nltk_wordnet() -> Any:
    """NLTK's path pointer to its WordNet (a folder, or the folder inside lexicon/wordnet.zip)."""
    try:
        import nltk.data
    except ImportError:
        return None
    for resource in ("corpora/wordnet", "corpora/wordnet.zip/wordnet/"):
        try:
            return nltk.data.find(resource)
        except (LookupError, OSError, ValueError):
            continue
    return None


def _check_folder(path: str) -> str:
    folder = os.path.abspath(os.path.expanduser(os.fspath(path)))
    if not os.path.isdir(folder):
        raise ValueError(
            f"WordNet folder {folder!r} does not exist"
            if not os.path.exists(folder)
            else f"WordNet path {folder!r} is not a folder"
        )
    missing = _missing_files(folder)
    if missing:
        raise ValueError(f"{folder!r} is not a WordNet database folder: it lacks {', '.join(missing)}")
    return folder


def _missing_files(folder: str) -> list[str]:
    return [name for name in REQUIRED_FILES if not os.path.isfile(os.path.join(folder, name))]


def _readable_in_place(folder: str) -> bool:
    """Whether NLTK (including 3.10's checks) reads the folder as it is: ``lexnames`` is
    there and every file is a plain, singly linked file that no other account can write."""
    for name in (*REQUIRED_FILES, *OPTIONAL_FILES, "lexnames"):
        file = os.path.join(folder, name)
        try:
            info = os.lstat(file)
        except FileNotFoundError:
            if name in OPTIONAL_FILES:
                continue
            return False
        if (
            not stat.S_ISREG(info.st_mode)
            or info.st_nlink != 1
            or info.st_uid not in (0, os.geteuid())
            or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        ):
            return False
    return True


def cache_dir() -> str:
    """halluscope's cache folder: ``$HALLUSCOPE_CACHE``, else ``$XDG_CACHE_HOME/halluscope``,
    else ``~/.cache/halluscope``."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return os.path.abspath(os.path.expanduser(explicit))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(os.path.abspath(base), "halluscope")


def _folder_reader(folder: str) -> Any:
    if _readable_in_place(folder):
        return _new_reader(folder)
    root, temporary = _prepared_copy(folder)
    reader = _new_reader(root)
    if temporary:
        weakref.finalize(reader, shutil.rmtree, root, True)
    return reader


def _manifest(folder: str) -> dict[str, Any]:
    files = {}
    for name in (*REQUIRED_FILES, *OPTIONAL_FILES):
        try:
            info = os.stat(os.path.join(folder, name))
        except FileNotFoundError:
            continue
        files[name] = [info.st_size, info.st_mtime_ns]
    return {"source": os.path.realpath(folder), "files": files, "lexnames": hashlib.sha1(LEXNAMES.encode()).hexdigest()}


def _copy_is_current(copy: str, manifest: dict[str, Any]) -> bool:
    try:
        with open(os.path.join(copy, "manifest.json"), encoding="utf-8") as handle:
            if json.load(handle) != manifest:
                return False
    except (OSError, ValueError):
        return False
    return (
        all(
            os.path.isfile(os.path.join(copy, name)) and os.path.getsize(os.path.join(copy, name)) == size
            for name, (size, _mtime) in manifest["files"].items()
        )
        and os.path.isfile(os.path.join(copy, "lexnames"))
        and _readable_in_place(copy)
    )


def _fill(target: str, folder: str, manifest: dict[str, Any]) -> None:
    for name in manifest["files"]:
        shutil.copyfile(os.path.join(folder, name), os.path.join(target, name))
        os.chmod(os.path.join(target, name), 0o644)
    with open(os.path.join(target, "lexnames"), "w", encoding="utf-8") as handle:
        handle.write(LEXNAMES)
    os.chmod(os.path.join(target, "lexnames"), 0o644)
    with open(os.path.join(target, "manifest.json"), "w", encoding="utf-8") as handle:
        json.dump(manifest, handle)


def _prepared_copy(folder: str) -> tuple[str, bool]:
    """A folder NLTK reads in place with ``folder``'s database and the lexnames table:
    (path, whether it is a temporary folder to remove with the reader)."""
    manifest = _manifest(folder)
    real = manifest["source"]
    name = (
        "wordnet-3.0"
        if real == os.path.realpath(DEBIAN_WORDNET)
        else "wordnet-" + hashlib.sha1(real.encode()).hexdigest()[:12]
    )
    base = cache_dir()
    final = os.path.join(base, name)
    if _copy_is_current(final, manifest):
        return final, False
    try:
        os.makedirs(base, exist_ok=True)
        staging = tempfile.mkdtemp(prefix=f".{name}-", dir=base)
    except OSError as exc:
        LOGGER.info(
            "cache folder %s is not writable (%s); WordNet is copied to a temporary folder for this process", base, exc
        )
        staging = tempfile.mkdtemp(prefix=f"halluscope-{name}-")
        _fill(staging, folder, manifest)
        return staging, True
    try:
        _fill(staging, folder, manifest)
        os.chmod(staging, 0o755)
        if _copy_is_current(final, manifest):  # another process made it meanwhile
            return final, False
        if os.path.lexists(final):  # stale: move it aside first (another process may too)
            stale = tempfile.mkdtemp(prefix=f".{name}-stale-", dir=base)
            try:
                os.replace(final, os.path.join(stale, "old"))
            except OSError:
                pass
            shutil.rmtree(stale, ignore_errors=True)
        try:
            os.rename(staging, final)
        except OSError:  # another process put a copy there first
            if not _copy_is_current(final, manifest):
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return final, False


def _new_reader(root: Any) -> Any:
    import nltk.data
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class _WordNet30Reader(WordNetCorpusReader):
        def map_wn(self, version: str = "wordnet") -> Any:
            # NLTK >= 3.9 maps the loaded synsets onto those of the corpus named
            # `version` ("wordnet", i.e. nltk_data's WordNet 3.0) for multilingual use,
            # and compares get_version() ("3.0") with that *name*, so it always loads
            # nltk_data's copy: a LookupError without one. For 3.0 data the map is the
            # identity, and no multilingual reader is passed.
            if version == "wordnet" and self.get_version() == WORDNET_VERSION:
                return None
            return super().map_wn(version)

    if type(root) is str and root not in nltk.data.path:
        nltk.data.path.append(root)  # NLTK >= 3.10 reads corpora only under its data roots
    with warnings.catch_warnings():
        # "The multilingual functions are not available": no OMW reader, on purpose
        warnings.simplefilter("ignore", UserWarning)
        return _WordNet30Reader(root, None)


@dataclass(frozen=True)
class SharedWordNet:
    """A WordNet reader loaded once for the process, where it was found, and the lock
    every :class:`Lexicon` reading it holds (NLTK's reader seeks in shared file
    handles). The reader is the model; the query caches belong to each Lexicon."""

    reader: Any
    source: WordNetSource
    lock: Any


_READERS_LOCK = threading.Lock()


_READERS: dict[str | None, SharedWordNet | None] = {}


def shared_wordnet(path: str | None = None) -> SharedWordNet | None:
    """The process's WordNet reader for ``path`` (None: the resolution order), loaded
    once per resolved folder and shared by every :class:`halluscope.resources.Resources`;
    thread-safe. None without WordNet (the one warning is logged when first asked)."""
    key = None if path is None else os.path.abspath(os.path.expanduser(os.fspath(path)))
    with _READERS_LOCK:
        if key in _READERS:
            return _READERS[key]
        if key is None:  # the folder the order picks may be loaded already
            found = find_wordnet()
            if found is not None and found.location in _READERS:
                _READERS[None] = _READERS[found.location]
                return _READERS[None]
        loaded = load_reader(key)
        shared = None if loaded is None else SharedWordNet(loaded[0], loaded[1], threading.RLock())
        _READERS[key] = shared
        if shared is not None:
            _READERS.setdefault(shared.source.location, shared)
        return shared


def reopen_files_after_fork() -> None:
    """Give every loaded reader files of its own; a forked worker calls this first
    (:mod:`halluscope.workers`). NLTK's reader keeps its data files open and seeks in
    them, and a fork shares each open file's offset with the parent: two processes
    reading at once would read each other's positions (garbled synsets). The reader
    opens its files again when next asked. No lock is taken: in the child, only the
    forking thread exists."""
    for shared in {id(value): value for value in _READERS.values() if value is not None}.values():
        reader = shared.reader
        reader._data_file_map = {}
        reader._key_count_file = None
        reader._key_synset_file = None
