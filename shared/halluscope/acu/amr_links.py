"""AMR discourse-link backend for DL-ACU (Mind the Link §3.1 and Algorithm 1; docs/papers.md#dl-acu).

Steps 1-3 of the paper's DL-ACU: parse a summary sentence to AMR (STOG), take the
edges labelled ``:cause``, ``:purpose`` or ``:time`` between two predicate nodes
(:func:`find_links`), cut the subgraph made of that edge plus the ``:ARG0``-``:ARG5``
out-edges of both ends (:func:`link_subgraph`), and turn it back into text (GTOS).
:class:`AmrLinkExtractor` runs the whole chain with amrlib's models.

Decisions beyond the paper (docs/papers.md#argument-neighbourhood):

* Inverse roles (``:cause-of``, ``:purpose-of``, ``:time-of``) are normalised to
  the forward direction (penman does this when it decodes a graph).
* Temporal markers: AMR writes "X before Y" as ``(x :time (b / before :op1 y))``.
  ``before``, ``after``, ``since`` and ``until`` are not predicates, so such a link
  would be lost; :func:`find_links` follows through the marker's ``:op1`` and reports
  ``(x, ":time", y)``, and :func:`link_subgraph` keeps the marker node (with its
  ``:op1`` edge and, if present, its ``:quant`` subtree, as in "two days after") so
  the generated text still says "before"/"after".
* The "whole subtree" of an argument follows the graph's original layout (so an
  entity's ``:name``/``:op`` and inverted roles such as ``:ARG0-of`` under it are
  kept), never enters the two link ends, and pulls in the definition of any
  re-entrant variable it references so the result stays a valid, self-contained graph.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection
from typing import Any

import penman
from penman.model import Model

from ..registry import AMR_GTOS, AMR_STOG, MODELS, ModelRole, default_device, resolve

#: Discourse-link roles ``L_dl`` of the paper (forward direction).
LINK_ROLES: tuple[str, ...] = (":cause", ":purpose", ":time")
#: Core argument roles ``A`` kept around both link ends.
ARG_ROLES: tuple[str, ...] = tuple(f":ARG{i}" for i in range(6))
#: Non-predicate concepts that AMR puts between a ``:time`` edge and the event it locates.
TIME_MARKERS: tuple[str, ...] = ("before", "after", "since", "until")

_PREDICATE = re.compile(r"^[a-z-]+-\d\d$")
_MODEL = Model()  # penman's default model: the one penman.decode normalises with

Triple = tuple[str, str, Any]


def is_predicate(concept: str | None) -> bool:
    """True for concepts that look like PropBank frames (``attack-01``)."""
    return concept is not None and _PREDICATE.match(concept) is not None


def _concepts(graph: penman.Graph) -> dict[str, str]:
    return {source: target for source, _, target in graph.instances()}


def _marker_target(graph: penman.Graph, concepts: dict[str, str], node: str) -> str | None:
    """The predicate under a temporal marker node (``before :op1 X`` -> X), if any."""
    if concepts.get(node) not in TIME_MARKERS:
        return None
    for edge in graph.edges(source=node, role=":op1"):
        if is_predicate(concepts.get(edge.target)):
            return edge.target
    return None


def find_links(graph: penman.Graph) -> list[tuple[str, str, str]]:
    """Discourse-link triples ``(head, role, tail)`` between predicates (Mind the Link §3.1.1).

    ``role`` is ``:cause``, ``:purpose`` or ``:time`` in the forward direction; head
    and tail are variables. ``:time`` edges into a ``before``/``after``/``since``/
    ``until`` node are followed through its ``:op1`` to the predicate.
    """
    concepts = _concepts(graph)
    links: list[tuple[str, str, str]] = []
    for edge in graph.edges():
        source, role, target = _MODEL.deinvert((edge.source, edge.role, edge.target))
        if role not in LINK_ROLES or not is_predicate(concepts.get(source)):
            continue
        tail = target if is_predicate(concepts.get(target)) else None
        if tail is None and role == ":time":
            tail = _marker_target(graph, concepts, target)
        if tail is not None and (source, role, tail) not in links:
            links.append((source, role, tail))
    return links


def _layout_children(graph: penman.Graph) -> dict[str, list[Triple]]:
    """Each node's branches as the graph's original layout nests them, as normalised triples."""
    children: dict[str, list[Triple]] = {}

    def walk(node: tuple[str, list]) -> None:
        var, branches = node
        for role, child in branches:
            if role == "/":
                continue
            child_var = child[0] if isinstance(child, tuple) else child
            triple = (
                _MODEL.deinvert((var, role, child_var)) if _MODEL.is_role_inverted(role) else (var, role, child_var)
            )
            children.setdefault(var, []).append(triple)
            if isinstance(child, tuple):
                walk(child)

    walk(penman.configure(graph).node)
    return children


def link_subgraph(
    graph: penman.Graph,
    link: tuple[str, str, str],
    extra_roles: Collection[str] = (),
) -> penman.Graph:
    """The subgraph ``G_tau`` of a link: the edge plus ARG_NEIGH of both ends (Algorithm 1, l. 15).

    Out-edges ``:ARG0``-``:ARG5`` of the two ends are kept with each argument's whole
    subtree; other roles of the two ends (``:wiki``, ``:name``, ``:op*``, modifiers)
    are dropped unless listed in ``extra_roles`` (e.g. ``(":polarity",)``). The top
    is the link's head; encode it with ``penman.encode``.
    """
    head, role, tail = link
    concepts = _concepts(graph)
    variables = set(concepts)
    children = _layout_children(graph)
    triples: list[Triple] = []
    seen: set[Triple] = set()
    defined: set[str] = set()

    def add(triple: Triple) -> None:
        if triple not in seen:
            seen.add(triple)
            triples.append(triple)

    def define(var: str) -> None:
        add((var, ":instance", concepts[var]))
        defined.add(var)

    def keep_subtree(var: str) -> None:
        """Keep ``var`` and everything the layout nests under it (not the link ends)."""
        if var in defined:
            return
        define(var)
        for triple in children.get(var, []):
            other = triple[2] if triple[0] == var else triple[0]
            if other in (head, tail):
                continue
            add(triple)
            if other in variables:
                keep_subtree(other)

    def keep_arguments(end: str) -> None:
        for source, edge_role, target in graph.triples:
            if source != end or edge_role not in wanted:
                continue
            add((source, edge_role, target))
            if target in variables and target not in (head, tail):
                keep_subtree(target)

    wanted = set(ARG_ROLES) | set(extra_roles)
    define(head)
    keep_arguments(head)
    direct = [e for e in graph.edges(source=head, role=role) if e.target == tail]
    if direct:
        add((head, role, tail))
    else:  # through a temporal marker: head :time marker :op1 tail
        marker = next(
            e.target for e in graph.edges(source=head, role=role) if _marker_target(graph, concepts, e.target) == tail
        )
        define(marker)
        add((head, role, marker))
        add((marker, ":op1", tail))
        for triple in children.get(marker, []):
            if triple[0] == marker and triple[1] == ":quant":
                add(triple)
                if triple[2] in variables:
                    keep_subtree(triple[2])
    define(tail)
    keep_arguments(tail)
    return penman.Graph(triples, top=head)


def encode_subgraph(graph: penman.Graph) -> str:
    """PENMAN text of a link subgraph (no metadata)."""
    return penman.encode(penman.Graph(graph.triples, top=graph.top))


# --------------------------------------------------------------------------- models


def amrlib_data_dir() -> str:
    """amrlib's default model folder (``site-packages/amrlib/data``)."""
    from amrlib import defaults

    return defaults.data_dir


def find_model_dir(name: str) -> str:
    """The folder for an amrlib model ``name``: a path, or a folder in amrlib's data dir.

    In the data dir, ``name``, ``model_<name>`` and ``model_<name>-v*`` (newest
    version) are tried in turn; raises ``FileNotFoundError`` naming what was tried.
    """
    if os.path.isdir(name):
        return name
    base = amrlib_data_dir()
    candidates = [os.path.join(base, name), os.path.join(base, f"model_{name}")]
    if os.path.isdir(base):
        versions = sorted(e for e in os.listdir(base) if e.startswith(f"model_{name}-v"))
        candidates += [os.path.join(base, e) for e in reversed(versions)]
    for candidate in candidates:
        if os.path.isdir(candidate):
            return candidate
    raise FileNotFoundError(f"no amrlib model folder {name!r}: not a folder, and none of {candidates} exists")


def tolerant_generate(generate: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a Hugging Face ``generate`` so kwargs newer transformers reject are dropped.

    amrlib 0.8.1 passes ``early_stopping``/``max_length``/``num_beams``/... as it did
    with transformers 4.x; newer versions reject some of them with a ``TypeError``
    ("unexpected keyword argument 'x'") or ``ValueError`` ("model_kwargs are not used
    by the model: ['x']"). The call is retried without every kwarg the message
    quotes (never the inputs); any other error is re-raised unchanged.
    """

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        while True:
            try:
                return generate(*args, **kwargs)
            except (TypeError, ValueError) as error:
                quoted = set(re.findall(r"'(\w+)'", str(error)))
                offending = [k for k in kwargs if k in quoted and k not in ("input_ids", "attention_mask")]
                if not offending:
                    raise
                for key in offending:
                    kwargs.pop(key)

    wrapper.__wrapped__ = generate  # type: ignore[attr-defined]
    return wrapper


def _patch_generate(inference: Any) -> Any:
    """Install :func:`tolerant_generate` on the HF model inside an amrlib Inference."""
    model: Any = getattr(inference, "model", None)  # amrlib's Inference is untyped
    generate = getattr(model, "generate", None)
    if generate is not None and not hasattr(generate, "__wrapped__"):
        model.generate = tolerant_generate(generate)
    return inference


def _loader(role: ModelRole, batch_size: int) -> Callable[[str, str], Any]:
    def load(name: str, device: str) -> Any:
        import amrlib

        folder = find_model_dir(name)
        load_model = amrlib.load_stog_model if role is AMR_STOG else amrlib.load_gtos_model
        return _patch_generate(load_model(model_dir=folder, device=device, batch_size=batch_size))

    return load


class AmrLinkExtractor:
    """DL-ACU candidates from AMR: STOG parse -> discourse links -> subgraphs -> GTOS text.

    Models come from amrlib (Mind the Link uses bjascob/amrlib-models): ``stog_model`` /
    ``gtos_model`` are a folder or a model name looked up in amrlib's data folder;
    resolution is explicit > ``HALLUSCOPE_AMR_STOG``/``HALLUSCOPE_AMR_GTOS`` >
    ``parse_xfm_bart_large``/``generate_t5wtense``. Each is loaded lazily, once per
    process and device, through the registry; a missing one raises
    ``ModelNotAvailableError``. ``parse_failures`` counts sentences amrlib could not
    parse (they yield no links).
    """

    def __init__(
        self,
        stog_model: str | None = None,
        gtos_model: str | None = None,
        device: str | None = None,
        batch_size: int = 8,
        use_tense: bool = True,
        extra_roles: Collection[str] = (),
    ) -> None:
        self.stog_name = resolve(AMR_STOG, stog_model)
        self.gtos_name = resolve(AMR_GTOS, gtos_model)
        self.device = device
        self.batch_size = batch_size
        self.use_tense = use_tense
        self.extra_roles = tuple(extra_roles)
        self.parse_failures = 0

    def _model(self, role: ModelRole, name: str) -> Any:
        device = self.device or default_device()
        return MODELS.get(role, name, device, _loader(role, self.batch_size))

    @property
    def stog(self) -> Any:
        """The amrlib sentence-to-graph model (loaded on first use)."""
        return self._model(AMR_STOG, self.stog_name)

    @property
    def gtos(self) -> Any:
        """The amrlib graph-to-sentence model (loaded on first use)."""
        return self._model(AMR_GTOS, self.gtos_name)

    def parse(self, sentences: list[str]) -> list[penman.Graph | None]:
        """AMR graphs of ``sentences``; None (and a counted failure) where parsing failed.

        Failures are amrlib's None, text penman cannot decode, and an empty graph.
        """
        if not sentences:
            return []
        raw = self.stog.parse_sents(list(sentences), add_metadata=True, disable_progress=True)
        graphs: list[penman.Graph | None] = []
        for text in raw:
            graph = None
            if text is not None:
                try:
                    graph = penman.decode(text)
                except penman.DecodeError:
                    graph = None
                if graph is not None and graph.top is None:  # amrlib's "()" for undecodable output
                    graph = None
            if graph is None:
                self.parse_failures += 1
            graphs.append(graph)
        return graphs

    def generate(self, subgraphs: list[str]) -> list[str]:
        """GTOS texts for PENMAN strings (amrlib returns ``(sentences, clipped)``)."""
        if not subgraphs:
            return []
        out = self.gtos.generate(list(subgraphs), disable_progress=True, use_tense=self.use_tense)
        texts = out[0] if isinstance(out, tuple) else out
        return [str(t).strip() for t in texts]

    def extract(self, sentences: list[str]) -> list[list[dict[str, str]]]:
        """Per sentence, ``{"text", "relation", "graph"}`` for each discourse link.

        ``relation`` is ``cause``/``purpose``/``time``; ``graph`` is the subgraph's
        PENMAN text. All subgraphs of the batch go to GTOS in one call; the text given
        to GTOS carries the sentence as ``# ::snt`` metadata (amrlib's tense tagging
        aligns against it).
        """
        results: list[list[dict[str, str]]] = [[] for _ in sentences]
        pending: list[tuple[int, str, str, str]] = []
        for index, (sentence, graph) in enumerate(zip(sentences, self.parse(sentences), strict=True)):
            if graph is None:
                continue
            for link in find_links(graph):
                sub = link_subgraph(graph, link, self.extra_roles)
                plain = encode_subgraph(sub)
                with_meta = penman.encode(penman.Graph(sub.triples, top=sub.top, metadata={"snt": sentence}))
                pending.append((index, link[1].lstrip(":"), plain, with_meta))
        texts = self.generate([p[3] for p in pending])
        for (index, relation, plain, _), text in zip(pending, texts, strict=True):
            results[index].append({"text": text, "relation": relation, "graph": plain})
        return results
