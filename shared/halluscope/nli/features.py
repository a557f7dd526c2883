"""Model inputs for a batch of (premise, hypothesis) pairs: the tokenisation paths
of the NLI engine (docs/architecture.md#dlsd_acu-acu-nli).

Truncation: only the premise is truncated (``truncation="only_first"``), so the
hypothesis is kept whole. When the hypothesis alone leaves no room for a premise
token within ``max_length``, that pair is truncated ``"longest_first"`` (the
hypothesis loses its tail too) rather than raising.

Four paths build the same tensors (``input_ids``, ``attention_mask`` and, where
the model takes them, ``token_type_ids``; right-padded). With a fast tokenizer,
each distinct text is tokenised once per engine (document sentences recur across
every unit) by a copy of its Rust backend (:func:`pair_backend`,
:func:`encode_texts`), and a pair is its premise's tokens, cut to the room the
whole hypothesis leaves, joined by the model's own special tokens, then padded
(:func:`cached_features`). The special tokens come from:

1. the pair template (:func:`pair_template`, :func:`arrays_from_template`), read
   off the backend's post-processor once, then a few array operations per batch;
2. the post-processor itself, pair by pair (:func:`arrays_from_post_processor`),
   where no template reproduces it.

Otherwise (slow tokenizer, left padding or truncation, or a batch where a
hypothesis leaves no room for the premise) the tokenizer builds the batch:

3. one tokenizer call per batch (:func:`tokenizer_features`);
4. per pair (:func:`encode_pairs`, :func:`encode_pair`) when that call refuses.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np

LOGGER = logging.getLogger("halluscope")

Pair = tuple[str, str]
#: ``(prefix, middle, suffix, prefix_types, middle_types, suffix_types, type_a, type_b)``
Template = tuple[list[int], list[int], list[int], list[int], list[int], list[int], int, int]
#: ``(ids, type ids, attention mask)`` of a batch, int64 ``(n, longest)`` arrays
Arrays = tuple[np.ndarray, np.ndarray, np.ndarray]

#: distinct texts kept tokenised per engine; beyond it the store starts again empty
MAX_ENCODINGS = 200_000

#: Texts whose token ids probe a post-processor's pair template (any tokenizer gives
#: them some tokens; their lengths differ so the template is checked at several offsets).
_PROBES = (("a", "b c"), ("d e f g", "h"), ("i j", "k l m n o"))


def pair_backend(tokenizer: Any) -> Any | None:
    """A copy of the fast tokenizer's Rust backend without truncation or padding, or
    ``None`` where pairs cannot be built from cached encodings (slow tokenizer, left
    padding or truncation, no pad token)."""
    import copy

    backend: Any = getattr(tokenizer, "backend_tokenizer", None)  # the tokenizers package's Tokenizer
    usable = (
        backend is not None
        and getattr(tokenizer, "padding_side", "right") == "right"
        and getattr(tokenizer, "truncation_side", "right") == "right"
        and tokenizer.pad_token_id is not None
    )
    if not usable:
        return None
    backend = copy.deepcopy(backend)
    backend.no_truncation()
    backend.no_padding()
    return backend


def pair_template(backend: Any) -> Template | None:
    """The pair template of a Rust tokenizer's post-processor, read off probe pairs:
    ``(prefix, middle, suffix, prefix_types, middle_types, suffix_types, type_a,
    type_b)`` such that the pair (A, B) is ``prefix + A + middle + B + suffix`` with
    type ids ``prefix_types + [type_a] * len(A) + middle_types + [type_b] * len(B) +
    suffix_types`` (BERT's ``[CLS] A [SEP] B [SEP]``, RoBERTa's ``<s> A </s></s> B
    </s>``, ...). ``None`` when no such template reproduces every probe exactly: the
    engine then asks the post-processor for each pair."""
    try:
        probes = []
        for first, second in _PROBES:
            a, b = (backend.encode(text, add_special_tokens=False) for text in (first, second))
            out = backend.post_process(a, b, add_special_tokens=True)
            probes.append((a.ids, b.ids, out.ids, out.type_ids))
    except Exception as error:  # a backend without this API: the engine asks per pair
        LOGGER.debug("NLI: no pair template from the tokenizer backend (%s: %s)", type(error).__name__, error)
        return None
    a_ids, b_ids, out_ids, out_types = probes[0]
    if not a_ids or not b_ids:
        return None
    n_special = len(out_ids) - len(a_ids) - len(b_ids)
    for start_a in range(n_special + 1):
        for middle_length in range(n_special - start_a + 1):
            start_b = start_a + len(a_ids) + middle_length
            end_b = start_b + len(b_ids)
            template = (
                out_ids[:start_a],
                out_ids[start_a + len(a_ids) : start_b],
                out_ids[end_b:],
                out_types[:start_a],
                out_types[start_a + len(a_ids) : start_b],
                out_types[end_b:],
                out_types[start_a] if start_a < len(out_types) else 0,
                out_types[start_b] if start_b < len(out_types) else 0,
            )
            prefix, middle, suffix, prefix_types, middle_types, suffix_types, type_a, type_b = template
            if all(
                ids == prefix + a + middle + b + suffix
                and types == (prefix_types + [type_a] * len(a) + middle_types + [type_b] * len(b) + suffix_types)
                for a, b, ids, types in probes
            ):
                return template
    return None


def encode_texts(
    encodings: dict[str, Any], pairs: Sequence[Pair], backend: Any, *, ids_only: bool, limit: int = MAX_ENCODINGS
) -> None:
    """Tokenise into ``encodings`` (in one batch) every text of ``pairs`` not there
    yet, without special tokens: its token ids (an int64 array) with ``ids_only``
    (the pair template is known), else its ``Encoding``. Past ``limit`` texts the
    store is emptied first."""
    missing = [t for t in dict.fromkeys(t for pair in pairs for t in pair) if t not in encodings]
    if not missing:
        return
    if len(encodings) + len(missing) > limit:
        encodings.clear()
    if ids_only:  # ids only: the batch call that skips offsets, where there is one
        encode = getattr(backend, "encode_batch_fast", backend.encode_batch)
        encoded = encode(missing, add_special_tokens=False)
        encodings.update(
            (text, np.array(encoding.ids, dtype=np.int64)) for text, encoding in zip(missing, encoded, strict=True)
        )
    else:
        encodings.update(zip(missing, backend.encode_batch(missing, add_special_tokens=False), strict=True))


def arrays_from_template(
    chunk: Sequence[Pair],
    encodings: dict[str, np.ndarray],
    template: Template,
    *,
    max_length: int,
    special_tokens: int,
    pad_id: int,
) -> Arrays | None:
    """(ids, type ids, mask) of a batch, with the pair template, a few array
    operations per batch: prefix, then the premise's tokens (cut to the room the
    hypothesis leaves), middle, the hypothesis's tokens, suffix, then padding.
    ``None`` when a hypothesis leaves no room for the premise."""
    prefix, middle, suffix, prefix_types, middle_types, suffix_types, type_a, type_b = template
    premises = [encodings[p] for p, _ in chunk]
    hypotheses = [encodings[h] for _, h in chunk]
    n = len(chunk)
    hypothesis_lengths = np.fromiter(map(len, hypotheses), dtype=np.int64, count=n)
    room = max_length - special_tokens - hypothesis_lengths
    if int(room.min()) < 1:
        return None
    premise_lengths = np.minimum(np.fromiter(map(len, premises), dtype=np.int64, count=n), room)
    a_start = len(prefix)
    a_end = a_start + premise_lengths
    b_start = a_end + len(middle)
    b_end = b_start + hypothesis_lengths
    lengths = b_end + len(suffix)
    columns = np.arange(int(lengths.max()))
    ids = np.full((n, columns.size), pad_id, dtype=np.int64)
    types = np.zeros((n, columns.size), dtype=np.int64)
    rows = np.arange(n)
    for starts, tokens, token_types in (
        (0, prefix, prefix_types),
        (a_end, middle, middle_types),
        (b_end, suffix, suffix_types),
    ):
        for j, (token, token_type) in enumerate(zip(tokens, token_types, strict=True)):
            ids[rows, starts + j] = token
            types[rows, starts + j] = token_type
    in_a = (columns >= a_start) & (columns < a_end[:, None])  # row-major: row by row, in order
    in_b = (columns >= b_start[:, None]) & (columns < b_end[:, None])
    ids[in_a] = np.concatenate([p[:m] for p, m in zip(premises, premise_lengths.tolist(), strict=True)])
    ids[in_b] = np.concatenate(hypotheses)
    types[in_a] = type_a
    types[in_b] = type_b
    mask = (columns < lengths[:, None]).astype(np.int64)
    return ids, types, mask


def arrays_from_post_processor(
    chunk: Sequence[Pair], encodings: dict[str, Any], backend: Any, *, max_length: int, special_tokens: int, pad_id: int
) -> Arrays | None:
    """(ids, type ids, mask) of a batch, each pair from the backend's post-processor.
    ``None`` when a hypothesis leaves no room for the premise."""
    import tokenizers

    id_rows, type_rows = [], []
    for premise, hypothesis in chunk:
        p, h = encodings[premise], encodings[hypothesis]
        room = max_length - special_tokens - len(h.ids)
        if room < 1:
            return None
        if len(p.ids) > room:
            p = tokenizers.Encoding.merge([p], growing_offsets=True)  # a copy to cut
            p.truncate(room)
        row = backend.post_process(p, h, add_special_tokens=True)
        id_rows.append(row.ids)
        type_rows.append(row.type_ids)
    # right padding: the cells of row k before its length, filled in row order
    lengths = np.fromiter(map(len, id_rows), dtype=np.int64, count=len(id_rows))
    filled = np.arange(int(lengths.max())) < lengths[:, None]
    total = int(lengths.sum())
    ids = np.full(filled.shape, pad_id, dtype=np.int64)
    ids[filled] = np.fromiter(chain.from_iterable(id_rows), dtype=np.int64, count=total)
    types = np.zeros(filled.shape, dtype=np.int64)
    types[filled] = np.fromiter(chain.from_iterable(type_rows), dtype=np.int64, count=total)
    return ids, types, filled.astype(np.int64)


def cached_features(
    chunk: Sequence[Pair],
    encodings: dict[str, Any],
    backend: Any,
    template: Template | None,
    tokenizer: Any,
    *,
    max_length: int,
    special_tokens: int,
) -> dict[str, Any] | None:
    """The tensors of a batch from the cached per-text encodings of its texts (see
    :func:`encode_texts`), with the pair template where there is one, else the
    post-processor. ``None`` when a hypothesis leaves no room for the premise."""
    import torch

    if template is not None:
        arrays = arrays_from_template(
            chunk,
            encodings,
            template,
            max_length=max_length,
            special_tokens=special_tokens,
            pad_id=tokenizer.pad_token_id,
        )
    else:
        arrays = arrays_from_post_processor(
            chunk,
            encodings,
            backend,
            max_length=max_length,
            special_tokens=special_tokens,
            pad_id=tokenizer.pad_token_id,
        )
    if arrays is None:
        return None
    ids, types, mask = arrays
    features = {"input_ids": torch.from_numpy(ids), "attention_mask": torch.from_numpy(mask)}
    if "token_type_ids" in getattr(tokenizer, "model_input_names", ()):
        features["token_type_ids"] = torch.from_numpy(types)
    return features


def tokenizer_features(tokenizer: Any, chunk: Sequence[Pair], max_length: int) -> Any:
    """The tensors of a batch from one tokenizer call with premise-only truncation;
    if the tokenizer refuses (a hypothesis that leaves no room for the premise),
    :func:`encode_pairs` and a pad."""
    premises = [p for p, _ in chunk]
    hypotheses = [h for _, h in chunk]
    try:
        return tokenizer(
            premises, hypotheses, truncation="only_first", max_length=max_length, padding=True, return_tensors="pt"
        )
    except Exception as error:  # some pair needs the per-pair truncation
        LOGGER.debug("NLI: padded batch tokenisation failed (%s: %s); per-pair encoding", type(error).__name__, error)
        return tokenizer.pad(encode_pairs(tokenizer, chunk, max_length), return_tensors="pt")


def encode_pairs(tokenizer: Any, pairs: Sequence[Pair], max_length: int) -> list[dict[str, list[int]]]:
    """Token features per pair: premise-only truncation where the hypothesis fits,
    ``"longest_first"`` where it does not."""
    hypotheses = [h for _, h in pairs]
    special = tokenizer.num_special_tokens_to_add(pair=True)
    hyp_lengths = [len(ids) for ids in tokenizer(hypotheses, add_special_tokens=False)["input_ids"]]
    # at least one premise token must survive for "only_first" to succeed
    fits = [length + special + 1 <= max_length for length in hyp_lengths]
    features: list[dict[str, list[int]] | None] = [None] * len(pairs)
    for strategy, wanted in (("only_first", True), ("longest_first", False)):
        chosen = [i for i, fit in enumerate(fits) if fit == wanted]
        if not chosen:
            continue
        premises = [pairs[i][0] for i in chosen]
        hyps = [pairs[i][1] for i in chosen]
        try:
            encoded = tokenizer(premises, hyps, truncation=strategy, max_length=max_length)
            flat = [{key: encoded[key][j] for key in encoded.keys()} for j in range(len(chosen))]
        except Exception as error:  # a tokenizer whose pair tokens differ from the lone count
            LOGGER.debug(
                "NLI: batch tokenisation (%s) failed (%s: %s); encoding pair by pair",
                strategy,
                type(error).__name__,
                error,
            )
            flat = [
                encode_pair(tokenizer, premise, hyp, max_length) for premise, hyp in zip(premises, hyps, strict=True)
            ]
        for i, feature in zip(chosen, flat, strict=True):
            features[i] = feature
    return features  # type: ignore[return-value]


def encode_pair(tokenizer: Any, premise: str, hypothesis: str, max_length: int) -> dict[str, list[int]]:
    """One pair's token features: ``"only_first"`` truncation, else ``"longest_first"``."""
    try:
        return dict(tokenizer(premise, hypothesis, truncation="only_first", max_length=max_length))
    except Exception as error:  # the premise alone cannot make room: cut both
        LOGGER.debug(
            "NLI: only_first truncation failed (%s: %s); truncating longest_first", type(error).__name__, error
        )
        return dict(tokenizer(premise, hypothesis, truncation="longest_first", max_length=max_length))
