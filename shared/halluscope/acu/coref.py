"""Coreference resolution before decomposition (FIZZ eq. 1, Mind the Link §3.1.2 and
Algorithm 1 line 17; docs/papers.md#hosts-fizz-and-fenice, #dl-acu).

FIZZ resolves pronouns in the document and the summary before decomposing, so that
atomic facts cut out of their sentence still name their entities ("He joined
Spurs" -> "Emmanuel Adebayor joined Spurs"); DL-ACU resolves the pronouns of its
generated units against the summary with Maverick. :func:`resolve_coreference`
rewrites each text with its third-person pronouns replaced by their antecedents.

Backends:

* ``"none"``: texts unchanged.
* ``"rules"`` (offline default): rule-based pronoun resolution on the shared spaCy
  parse, see :func:`halluscope.acu.coref_rules.resolve_pronouns` for the rules.
* ``"maverick"``: ``maverick-coref`` (Martinelli et al., ACL 2024), the model used
  by Mind the Link, default ``sapienzanlp/maverick-mes-ontonotes``.
* ``"fastcoref"``: ``fastcoref``'s F-Coref, default ``biu-nlp/f-coref``.

The model backends are used only when their package is installed; otherwise a
:class:`CorefBackendNotAvailable` (both an ``ImportError`` and a
``ModelNotAvailableError``) names the package and how to install it. With a model
backend every cluster's pronoun mentions (he/him/his/she/her/hers/it/its/they/
them/their/theirs) are replaced by the cluster's first non-pronoun mention,
possessives as "X's" (the shared parse tells possessive "her" from object "her");
other mentions are left as written. Results are cached per (backend, model, text) in the
resources' text tables (:class:`halluscope.text_tables.TextTables`).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..registry import COREF, MODELS, ModelNotAvailableError, default_device, resolve
from ..text_tables import TextTables
from .coref_rules import _apply_edits, _fit_case, _pleonastic, _possessive, pronoun_edits
from .coref_words import PRONOUNS

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Token

BACKENDS: tuple[str, ...] = ("none", "rules", "maverick", "fastcoref")

#: The package each model backend needs, and how to install it.
BACKEND_PACKAGES: dict[str, tuple[str, str]] = {
    "maverick": ("maverick", "pip install maverick-coref"),
    "fastcoref": ("fastcoref", "pip install fastcoref"),
}

FASTCOREF_DEFAULT = "biu-nlp/f-coref"


class CorefBackendNotAvailable(ModelNotAvailableError, ImportError):
    """A coreference backend whose package is not installed."""


# -- model backends ------------------------------------------------------------


def _check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise ValueError(f"unknown coreference backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
    if backend in BACKEND_PACKAGES:
        package, install = BACKEND_PACKAGES[backend]
        if importlib.util.find_spec(package) is None:
            error = CorefBackendNotAvailable(
                f"the {backend!r} coreference backend needs the `{package}` package, which is not "
                f"installed. Install it with `{install}` (its model also needs the Hugging Face Hub "
                f"or a local copy), or use backend='rules' (offline) or 'none'."
            )
            error.name = package
            raise error


def _load_maverick(name: str, device: str):
    from maverick import Maverick

    return Maverick(hf_name_or_path=name, device=device)


def _load_fastcoref(name: str, device: str, nlp):
    from fastcoref import FCoref

    # fastcoref only tokenizes with spaCy; give it ours so it never downloads en_core_web_sm
    return FCoref(model_name_or_path=name, device=device, nlp=nlp, enable_progress_bar=False)


def _model_clusters(backend: str, model, texts: Sequence[str]) -> list[list[list[tuple[int, int]]]]:
    """Character clusters [(start, end exclusive), ...] per text from a model backend."""
    if backend == "maverick":
        out = []
        for text in texts:
            prediction = model.predict(text)
            clusters = prediction.get("clusters_char_offsets") or []
            # Maverick's character offsets are inclusive of the last character
            out.append([[(int(s), int(e) + 1) for s, e in cluster] for cluster in clusters])
        return out
    predictions = model.predict(texts=list(texts))
    return [
        [[(int(s), int(e)) for s, e in cluster] for cluster in p.get_clusters(as_strings=False)] for p in predictions
    ]


def _is_pronoun(text: str) -> bool:
    return text.strip().lower() in PRONOUNS or text.strip().lower() in {
        "i",
        "me",
        "my",
        "we",
        "us",
        "our",
        "you",
        "your",
        "this",
        "that",
        "these",
        "those",
        "who",
        "whom",
        "which",
        "himself",
        "herself",
        "itself",
        "themselves",
    }


def replace_cluster_pronouns(text: str, clusters: Sequence[Sequence[tuple[int, int]]], doc=None) -> str:
    """Replace each cluster's third-person pronoun mentions with the cluster's first
    non-pronoun mention (possessive "X's"; capitalised at sentence start). ``doc``,
    the parse of ``text``, tells possessive "her" (``PRP$``) from object "her"."""
    return _apply_edits(text, cluster_edits(text, clusters, doc))


def cluster_edits(text: str, clusters: Sequence[Sequence[tuple[int, int]]], doc=None) -> list[tuple[int, int, str]]:
    """(start, end, replacement) character edits of :func:`replace_cluster_pronouns`."""
    tags: dict[int, Token] = {}
    if doc is not None:
        tags = {t.idx: t for t in doc}
    edits = []
    for cluster in clusters:
        mentions = sorted((int(s), int(e)) for s, e in cluster)
        names = [(s, e) for s, e in mentions if not _is_pronoun(text[s:e])]
        if not names:
            continue
        s0, e0 = names[0]
        name = text[s0:e0].strip()
        for s, e in mentions:
            word = text[s:e].strip()
            features = PRONOUNS.get(word.lower())
            if features is None or s < e0:
                continue
            start = s + len(text[s:e]) - len(text[s:e].lstrip())
            token = tags.get(start)
            if token is not None and _pleonastic(token):
                continue
            possessive = features[2] or (token is not None and token.tag_ == "PRP$")
            sentence_start = (
                bool(token.is_sent_start) if token is not None else (start == 0 or text[:start].rstrip()[-1:] in ".!?")
            )
            replacement = _fit_case(name, sentence_start)
            if possessive:  # the pronoun's number stands for the cluster's
                replacement = _possessive(replacement, features[1] == "pl")
            edits.append((start, start + len(word), replacement))
    return edits


# -- entry point ---------------------------------------------------------------


def _checked(texts: Sequence[str], what: str) -> list[str]:
    if isinstance(texts, str):
        raise TypeError(f"{what} must be a sequence of texts, not one string")
    texts = list(texts)
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"{what}[{i}] must be a string, got {type(text).__name__}")
    return texts


def _model_name(backend: str, model: str | None) -> str:
    if backend == "maverick":
        return resolve(COREF, model)
    if backend == "fastcoref":
        return model or FASTCOREF_DEFAULT
    return backend


def _edits(
    texts: list[str], backend: str, model: str | None, device: str | None, spacy_model: str | None
) -> list[list[tuple[int, int, str]]]:
    """Pronoun edits of each (distinct) text with a backend other than "none"."""
    from ..resources import get_parse_cache

    parsed = get_parse_cache(spacy_model).get_many(texts)
    if backend == "rules":
        return [pronoun_edits(p.doc) for p in parsed]
    name = _model_name(backend, model)
    device = device or default_device()
    loader: Callable[[str, str], Any]
    if backend == "maverick":
        loader = _load_maverick
    else:  # the registry lock is held while loading: fetch spaCy first
        nlp = get_parse_cache(spacy_model).nlp
        loader = lambda model_name, dev: _load_fastcoref(model_name, dev, nlp)  # noqa: E731
    engine = MODELS.get(COREF, f"{backend}:{name}", device, lambda _key, dev: loader(name, dev))
    clusters = _model_clusters(backend, engine, texts)
    return [cluster_edits(t, c, p.doc) for t, c, p in zip(texts, clusters, parsed, strict=True)]


def resolve_coreference(
    texts: Sequence[str],
    backend: str = "rules",
    *,
    model: str | None = None,
    device: str | None = None,
    spacy_model: str | None = None,
    tables: TextTables | None = None,
) -> list[str]:
    """Each text with its third-person pronouns replaced by their antecedents.

    ``backend``: ``"none"``, ``"rules"`` (offline), ``"maverick"`` or ``"fastcoref"``
    (see the module docstring). ``model`` names a model backend's checkpoint
    (Maverick: explicit > env ``HALLUSCOPE_COREF_MODEL`` > the paper's
    ``sapienzanlp/maverick-mes-ontonotes``; fastcoref: explicit >
    ``biu-nlp/f-coref``); ``device`` defaults to the current CUDA device or CPU;
    ``spacy_model`` is the parse used by the rules and to tag possessives.
    Unknown backends raise ``ValueError``; a model backend whose package is missing
    raises :class:`CorefBackendNotAvailable` (even for an empty ``texts``, so a
    pipeline can fail early). Results are cached per (backend, model, spaCy model, text)
    in ``tables`` (default: the default resources' text tables,
    :class:`halluscope.text_tables.TextTables`).
    """
    _check_backend(backend)
    texts = _checked(texts, "texts")
    if backend == "none" or not texts:
        return texts
    if tables is None:
        from ..resources import get_resources

        tables = get_resources().text_tables
    key_of = {t: (resolve_coreference, backend, _model_name(backend, model), spacy_model, t) for t in texts}
    found = tables.found(key_of.values())
    done = {t: found[k] for t, k in key_of.items() if k in found}
    missing = [t for t in dict.fromkeys(texts) if t not in done]
    if missing:
        resolved = [
            _apply_edits(t, e)
            for t, e in zip(missing, _edits(missing, backend, model, device, spacy_model), strict=True)
        ]
        done.update(zip(missing, resolved, strict=True))
        tables.store((key_of[text], out) for text, out in zip(missing, resolved, strict=True))
    return [done[t] for t in texts]


def resolve_in_context(
    texts: Sequence[str],
    contexts: Sequence[str],
    backend: str = "rules",
    *,
    model: str | None = None,
    device: str | None = None,
    spacy_model: str | None = None,
) -> list[str]:
    """Each text with its pronouns resolved against antecedents in its context and
    in itself (Mind the Link Algorithm 1 line 17, ``Coref(a, context=S)``: a generated
    DL-ACU resolved against its summary). The context is read, never rewritten:
    the text is resolved as the paragraph after its context and only its own
    pronouns change."""
    _check_backend(backend)
    texts = _checked(texts, "texts")
    contexts = _checked(contexts, "contexts")
    if len(texts) != len(contexts):
        raise ValueError(f"got {len(texts)} texts but {len(contexts)} contexts")
    if backend == "none" or not texts:
        return texts
    joined = {}
    for text, context in zip(texts, contexts, strict=True):
        context = context.rstrip()
        prefix = context + "\n\n" if context else ""
        joined[(text, context)] = (prefix + text, len(prefix))
    pairs = list(joined)
    edits = _edits([joined[p][0] for p in pairs], backend, model, device, spacy_model)
    out = {}
    for pair, pair_edits in zip(pairs, edits, strict=True):
        offset = joined[pair][1]
        own = [(s - offset, e - offset, r) for s, e, r in pair_edits if s >= offset]
        out[pair] = _apply_edits(pair[0], own)
    return [out[(t, c.rstrip())] for t, c in zip(texts, contexts, strict=True)]
