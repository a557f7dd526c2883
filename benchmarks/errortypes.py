"""Error-type protocol on FRANK val: does each index separate consistent summaries from
summaries with one kind of error, and better than word overlap?

FRANK val is scored once, with its references, by ``halluscope.api.score_chi(...,
return_details=True)`` (chi and its dimensions ehi, rhi, qhi). For each FRANK error type
T (EntE, CircE, RelE, OutE; and ``any``: every inconsistent summary) the rows compared
are the consistent summaries (label 1) against the summaries with ``has_T = 1``; the
other inconsistent rows are left out. Printed per type and index, ROC-AUC (%,
``measures.roc_auc``: P(consistent scores higher), ties 1/2):

* the index over the rows where it is defined (not NaN; chi: every row, an undefined
  chi ranking on top as everywhere in the harness), with n (consistent / with T);
* ``alnum``: the all-token baseline ``_common.alnum_precision`` on the same rows;
* ``own``: an own-kind overlap over the rows where it is defined, with its n:
  for ehi the share of the summary's entity tokens (lower-cased alphanumeric tokens of
  spaCy entities with a non-numeric label) found among the source's alphanumeric
  tokens; for qhi the share of the summary's number tokens (spaCy tokens with a digit)
  found among the source's tokens (both over distinct tokens; spaCy is the model
  halluscope loads; an all-lower-case summary, as FRANK's CNN/DM ones are, is truecased
  against its source with ``halluscope.text.casing.truecase`` first, as chi does).

Pooled over the rows read, then per fold (``frank-cnndm``, ``frank-bbc``) and the mean
of the two folds.

    python -m benchmarks.errortypes --frank ../shared/data/frank/frank_val.jsonl --half design
    python -m benchmarks.errortypes --frank F --half design --limit 50 --json /tmp/errortypes.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from benchmarks._common import CHI_SCORES, HALVES, alnum_precision, alnum_tokens, load_dataset, percent
from benchmarks.measures import roc_auc
from benchmarks.result_files import json_safe

#: the FRANK error types compared (``has_<T>``); ``any`` = every inconsistent summary
TYPES = ("EntE", "CircE", "RelE", "OutE")
ANY = "any"
INDICES = CHI_SCORES
#: the own-kind overlap of an index
OWN_KIND = {"ehi": "entity_overlap", "qhi": "number_overlap"}
#: spaCy entity labels that are numbers, dates or amounts (not counted as entities)
NUMERIC_LABELS = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"})
FOLDS = ("frank-cnndm", "frank-bbc")
POOLED = "all"
MEAN = "fold mean"


def _nan(value: float | None) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def entity_overlap(summary_doc, source_tokens: set) -> float | None:
    """Share of the summary's distinct entity tokens (alphanumeric, lower-cased, of the
    entities whose label is not in :data:`NUMERIC_LABELS`) among ``source_tokens``;
    None when the summary has no such token."""
    tokens = {t for ent in summary_doc.ents if ent.label_ not in NUMERIC_LABELS for t in alnum_tokens(ent.text)}
    return sum(t in source_tokens for t in tokens) / len(tokens) if tokens else None


def number_overlap(summary_doc, source_doc) -> float | None:
    """Share of the summary's distinct number tokens (spaCy tokens containing a digit,
    lower-cased) among the source's spaCy tokens (lower-cased); None without one."""
    numbers = {t.text.lower() for t in summary_doc if any(c.isdigit() for c in t.text)}
    if not numbers:
        return None
    vocabulary = {t.text.lower() for t in source_doc}
    return sum(n in vocabulary for n in numbers) / len(numbers)


def own_kind_overlaps(predictions: Sequence[str], sources: Sequence[str]) -> dict[str, list[float | None]]:
    """Per row, :func:`entity_overlap` and :func:`number_overlap`, parsed with the
    spaCy model of halluscope's default resources (its parse cache)."""
    from halluscope.resources import get_resources
    from halluscope.text.casing import truecase

    cache = get_resources().parse_cache()
    shown = [
        truecase(p, s) if not any(c.isupper() for c in p) else p for p, s in zip(predictions, sources, strict=True)
    ]
    summary_docs = [parsed.doc for parsed in cache.get_many(shown)]
    source_docs = [parsed.doc for parsed in cache.get_many(list(sources))]
    entities, numbers = [], []
    for summary_doc, source_doc, source in zip(summary_docs, source_docs, sources, strict=True):
        entities.append(entity_overlap(summary_doc, set(alnum_tokens(source))))
        numbers.append(number_overlap(summary_doc, source_doc))
    return {"entity_overlap": entities, "number_overlap": numbers}


def _auc_on(
    values: Sequence[float | None], labels: Sequence[int], rows: Sequence[int], keep_undefined: bool = False
) -> dict[str, Any]:
    """ROC-AUC of ``values`` over ``rows`` (those with a defined value unless
    ``keep_undefined``), with the rows used and the class sizes."""
    used = [i for i in rows if keep_undefined or not _nan(values[i])]
    scores = [math.nan if _nan(values[i]) else values[i] for i in used]
    ys = [labels[i] for i in used]
    return {"rows": used, "n_consistent": sum(ys), "n_error": len(ys) - sum(ys), "auc": roc_auc(scores, ys)}


def compare(
    scores: dict[str, list[float]],
    alnum: list[float],
    own: dict[str, list[float | None]],
    labels: list[int],
    flags: dict[str, list[int]],
    scopes: dict[str, list[int]],
) -> dict[str, Any]:
    """type -> index -> scope -> {n_consistent, n_error, auc, alnum_auc, own_*}."""
    out: dict[str, Any] = {}
    for error in list(TYPES) + [ANY]:
        has = flags[error] if error != ANY else [1 - y for y in labels]
        per_index: dict[str, Any] = {}
        for index in INDICES:
            per_scope: dict[str, Any] = {}
            for scope, scope_rows in scopes.items():
                rows = [i for i in scope_rows if labels[i] == 1 or has[i] == 1]
                binary = [1 if labels[i] == 1 else 0 for i in range(len(labels))]
                measured = _auc_on(scores[index], binary, rows, keep_undefined=index == "chi")
                entry = {
                    "n_consistent": measured["n_consistent"],
                    "n_error": measured["n_error"],
                    "auc": measured["auc"],
                    "alnum_auc": _auc_on(alnum, binary, measured["rows"])["auc"],
                }
                if index in OWN_KIND:
                    kind = OWN_KIND[index]
                    overlap = _auc_on(own[kind], binary, rows)
                    entry.update(
                        own_kind=kind,
                        own_auc=overlap["auc"],
                        own_n_consistent=overlap["n_consistent"],
                        own_n_error=overlap["n_error"],
                    )
                per_scope[scope] = entry
            folds = [per_scope[f] for f in FOLDS if f in per_scope]
            if len(folds) == len(FOLDS):

                def mean(key, folds=folds):
                    values = [f.get(key) for f in folds]
                    return math.nan if any(_nan(v) for v in values) else sum(values) / len(values)

                per_scope[MEAN] = {"auc": mean("auc"), "alnum_auc": mean("alnum_auc")}
                if index in OWN_KIND:
                    per_scope[MEAN]["own_auc"] = mean("own_auc")
            per_index[index] = per_scope
        out[error] = per_index
    return out


def markdown(results: dict[str, Any]) -> str:
    """Two tables: pooled (with n), per fold and their mean."""
    lines = [
        "Pooled: ROC-AUC (%) consistent vs with the error type; index over its defined rows, alnum on the "
        "same rows, own-kind overlap over its own defined rows.",
        "",
        "| type | index | n (1 / T) | index | alnum | own-kind | own n (1 / T) |",
        "|---|---|---|---|---|---|---|",
    ]
    for error, per_index in results.items():
        for index, per_scope in per_index.items():
            e = per_scope[POOLED]
            own = f"{percent(e['own_auc'])}" if "own_auc" in e else ""
            own_n = f"{e['own_n_consistent']} / {e['own_n_error']}" if "own_auc" in e else ""
            lines.append(
                f"| {error} | {index} | {e['n_consistent']} / {e['n_error']} | {percent(e['auc'])} | "
                f"{percent(e['alnum_auc'])} | {own} | {own_n} |"
            )
    present = [s for s in list(FOLDS) + [MEAN] if s in next(iter(next(iter(results.values())).values()))]
    if present:
        lines += [
            "",
            "Per fold: index / alnum / own-kind ROC-AUC (%) (n: consistent / with the type).",
            "",
            "| type | index | " + " | ".join(present) + " |",
            "|---|---|" + "---|" * len(present),
        ]
        for error, per_index in results.items():
            for index, per_scope in per_index.items():
                cells = []
                for scope in present:
                    e = per_scope[scope]
                    cell = f"{percent(e['auc'])} / {percent(e['alnum_auc'])}"
                    if "own_auc" in e:
                        cell += f" / {percent(e['own_auc'])}"
                    if "n_consistent" in e:
                        cell += f" ({e['n_consistent']}/{e['n_error']})"
                    cells.append(cell)
                lines.append(f"| {error} | {index} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def git_state() -> dict[str, str | None]:
    """The repository's short commit and whether shared/ has uncommitted changes."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        commit = (
            subprocess.run(
                ["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10
            ).stdout.strip()
            or None
        )
        dirty = subprocess.run(
            ["git", "-C", here, "status", "--porcelain", "--untracked-files=no", "shared"],
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout.strip()
        return {"commit": commit, "shared_dirty": bool(dirty)}
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "shared_dirty": None}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frank", required=True, help="FRANK val jsonl (article, summary, reference, has_<T>)")
    parser.add_argument(
        "--half",
        default="all",
        choices=list(HALVES),
        help="rows: all, design (outside the lockbox) or lockbox (_common.lockbox_half)",
    )
    parser.add_argument("--limit", type=int, help="first N rows of each of FRANK's cnndm / bbc parts (after --half)")
    parser.add_argument("--json", metavar="OUT", help="write the numbers here")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HALLUSCOPE_CACHE_MB", "2048")  # keep every source's parse between the two passes
    from halluscope import api

    data = load_dataset(args.frank, args.limit, name="FRANK", limit_per_group=True, half=args.half)
    if not data.error_flags or any(t not in data.error_flags for t in TYPES):
        parser.error(f"{args.frank}: needs the has_<T> flags of {', '.join(TYPES)}")
    start = time.perf_counter()
    result = api.score_chi(data.predictions, data.sources, data.references, return_details=True)
    seconds = time.perf_counter() - start
    scores = {"chi": [float(s) for s in result["chi_scores"]]}
    for index in INDICES[1:]:
        scores[index] = [float(detail[index]["score"]) for detail in result["details"]]
    alnum = [alnum_precision(p, s) for p, s in zip(data.predictions, data.sources, strict=True)]
    own = own_kind_overlaps(data.predictions, data.sources)
    scopes: dict[str, list[int]] = {POOLED: list(range(len(data)))}
    for fold in FOLDS:
        rows = [i for i, g in enumerate(data.groups or []) if f"frank-{g}" == fold]
        if rows:
            scopes[fold] = rows
    results = compare(scores, alnum, own, data.labels, data.error_flags, scopes)
    state = git_state()
    print(
        f"FRANK {args.frank} half={args.half} limit={args.limit}: {len(data)} rows "
        f"({sum(data.labels)} consistent; "
        + ", ".join(f"{t} {sum(data.error_flags[t])}" for t in TYPES)
        + f"), chi with references in {seconds:.0f} s; commit {state['commit']}"
        + (" (+ uncommitted changes in shared/)" if state["shared_dirty"] else "")
    )
    print(f"signature: {result.get('signature')}\n")
    print(markdown(results))
    if args.json:
        payload = {
            "file": args.frank,
            "half": args.half,
            "limit": args.limit,
            "rows": len(data),
            "git": state,
            "signature": result.get("signature"),
            "seconds": seconds,
            "results": results,
            "per_row": [
                {
                    "label": data.labels[i],
                    "group": (data.groups or [None] * len(data))[i],
                    **{f"has_{t}": data.error_flags[t][i] for t in TYPES},
                    **{k: scores[k][i] for k in INDICES},
                    "alnum": alnum[i],
                    **{k: own[k][i] for k in own},
                }
                for i in range(len(data))
            ],
        }
        directory = os.path.dirname(os.path.abspath(args.json))
        os.makedirs(directory, exist_ok=True)
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(json_safe(payload), handle, indent=1)
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
