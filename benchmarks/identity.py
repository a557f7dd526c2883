"""Bit-identity dumps: scores, details and signatures written out exactly, so that a
refactor can prove it changed none of them (issue 59, "Done when").

    python -m benchmarks.identity --data ../shared/data --out /tmp/halluscope-identity \\
        --check benchmarks/identity.sha256 [--only NAME ...] [--parse-store DIR]

Each dump is a file in ``--out``; ``--out``/``SHA256SUMS`` lists their SHA-256 in
``sha256sum`` format. ``--check MANIFEST`` compares them with a committed manifest
(``benchmarks/identity.sha256``: made at the refactor's start commit, 8f66974, and made
again after a commit that changes scores on purpose, which CHANGELOG names) and exits 1
naming each dump that differs. Every dump runs in a fresh process (cold caches) with
``PYTHONHASHSEED=0`` (``repr-seed1`` with 1) and ``OMP_NUM_THREADS=1`` (one torch and
BLAS thread, so that a float reduction is summed in one order on any machine).

The dumps (:data:`DUMPS`):

* ``harness-chi`` -- ``harness.py``'s fold scores (the per-row scores each fold keeps,
  not the statistics) and signature of every configuration of ``NAMED_CONFIGS`` on
  the first ``--harness-limit`` rows of each of the eight validation folds (FRANK: of
  each of its cnndm/bbc parts) with the harness's pseudo-system rows in the same
  call; ``harness-dlsd`` the same for the eight dlsd_acu configurations (fizz and
  fenice, +SD, +DL, +SD+DL) with ``--nli-model tiny --decomposer rules`` on the first
  ``--dlsd-limit`` rows.
* ``fusion-design``, ``fusion-lockbox`` -- ``benchmarks.studies.fusion_study dump`` of
  each half, byte for byte (every row of the half).
* ``perturb`` -- ``perturb.py --json`` (design half, ``--per-type`` cases of each edit
  type, seed 0, without the paraphrase part); ``paraphrase`` -- ``paraphrase.py
  --json`` (the whole suite). Both tools write their own JSON: perturb rounds floats
  to 6 decimals (``result_files.json_safe``), paraphrase keeps them exact.
* ``repr-seed0``, ``repr-seed1`` -- ``repr`` of every result of ``score_chi``,
  ``score_ehi``, ``score_rhi`` and ``score_qhi`` with ``return_details=True`` on every
  row of every validation fold (FRANK with its references), under
  ``PYTHONHASHSEED=0`` and ``1``: the two files must be equal.
* ``dlsd-acu`` -- ``score_dlsd_acu`` with the tests' tiny NLI model
  (``benchmarks._common.tiny_nli_model``) and the rule decomposer, hosts fizz and
  fenice, SD-ACU off and on, DL-ACU none and dep, details included, on the first
  ``--dlsd-limit`` rows of summeval.
* ``chi-cold-workers1``, ``chi-warm-workers1``, ``chi-cold-workers2`` -- ``score_chi``
  with details on the first ``--slice-limit`` rows of frank-cnndm (with references):
  from cold caches with ``workers=1``, the same call again in that process (warm
  caches), and from cold caches in another process with ``workers=2``: the three
  files must be equal. These run without the parse store, so parsing is in them.

Floats are written with ``repr`` (exact; NaN as ``nan``). Stripped as
nondeterministic by nature: timings (any key with ``seconds`` or ``time`` in its name;
the harness's ``seconds``), paths (the tiny NLI model's temporary folder, written
``<tiny-nli>``; perturb's and paraphrase's ``args``/``suite`` paths) and the git state
perturb records. The dumps ``harness-*``, ``fusion-*``, ``perturb`` and ``repr-*``
seed the parse cache from a parse store (``benchmarks/studies/parse_store.py``: the
same parses without parsing), built by this run in ``--out``/``.parses`` from the
tree under test unless ``--parse-store`` names one; the fusion study and the parse
store read the repository's ``../shared/data``, whatever ``--data`` says.

Cost with the default limits: about 23 minutes of CPU, one single-threaded process
at a time (CPU seconds at the start commit 8f66974: parse store 147, harness-chi 52,
harness-dlsd 17, fusion-design 149, fusion-lockbox 147, perturb 66, paraphrase 13,
dlsd-acu 8, chi-cold-workers1 with chi-warm-workers1 16, chi-cold-workers2 16;
repr-seed0 374 after the formatting commit, repr-seed1 as much); the wall time is
about that on a quiet machine, two to three times it on a shared one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = "SHA256SUMS"
#: the parse store this run builds, inside ``--out`` (not a dump)
STORE_FOLDER = ".parses"
#: each step's output, inside ``--out``
LOG_FOLDER = ".logs"
#: dumps that must hold the same bytes: a hash seed, or caches and workers, changed nothing
MUST_AGREE = (("repr-seed0", "repr-seed1"), ("chi-cold-workers1", "chi-warm-workers1", "chi-cold-workers2"))
#: what the written tiny NLI folder is replaced by in a dump
TINY_NLI = "<tiny-nli>"


# ------------------------------------------------------------------------------ writing


def result_lines(label: str, result: Mapping[str, Any]) -> Iterator[str]:
    """One result as lines: ``# label`` with the ``repr`` of every key but ``details``
    (scores, means, signature, ...), then ``label [i]`` with the ``repr`` of row i's
    details. Keys naming a time are left out."""
    summary = {key: value for key, value in result.items() if key != "details" and not is_timing(key)}
    yield f"# {label} {summary!r}"
    for row, detail in enumerate(result.get("details") or ()):
        yield f"{label} [{row}] {detail!r}"


def is_timing(key: str) -> bool:
    """Whether a result key holds a time (nondeterministic by nature)."""
    return "seconds" in key or "time" in key


def write_lines(path: str, lines: Iterable[str]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(line + "\n")


def sha256_of(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def manifest_text(hashes: Mapping[str, str]) -> str:
    """``sha256sum`` format: ``<hex>  <name>`` per line, names sorted."""
    return "".join(f"{hashes[name]}  {name}\n" for name in sorted(hashes))


def read_manifest(path: str) -> dict[str, str]:
    """name -> hex digest of a ``sha256sum`` file."""
    hashes = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                digest, _, name = line.rstrip("\n").partition("  ")
                hashes[name.lstrip("*")] = digest
    return hashes


def compare(hashes: Mapping[str, str], expected: Mapping[str, str]) -> list[str]:
    """A line for each dump of ``hashes`` whose digest is not the ``expected`` one."""
    problems = []
    for name in sorted(hashes):
        if name not in expected:
            problems.append(f"{name}: not in the manifest")
        elif hashes[name] != expected[name]:
            problems.append(f"{name}: differs (sha256 {hashes[name][:12]}, expected {expected[name][:12]})")
    return problems


def disagreements(hashes: Mapping[str, str]) -> list[str]:
    """A line for each group of :data:`MUST_AGREE` whose dumps (those made) differ."""
    problems = []
    for group in MUST_AGREE:
        made = [name for name in group if name in hashes]
        if len({hashes[name] for name in made}) > 1:
            problems.append("not equal: " + ", ".join(made))
    return problems


# ------------------------------------------------------------------------------- inputs


def validation_folds(data: str, limit: int | None = None):
    """The eight LODO folds of the harness (``_common.load_folds``), first ``limit`` rows."""
    from benchmarks._common import SUMMAC_FOLDS, load_folds

    summac = [os.path.join(data, "summac", f"{name}_val.jsonl") for name in SUMMAC_FOLDS]
    return load_folds(summac, os.path.join(data, "frank", "frank_val.jsonl"), limit)


def seed_parses(store: str | None) -> None:
    if store:
        from benchmarks.studies.parse_store import seed_cache

        print(f"seeded {seed_cache(store)} parses from {store}", file=sys.stderr)


def one_torch_thread() -> None:
    import torch

    torch.set_num_threads(1)


# ------------------------------------------------------------------------------- pieces


def dump_harness_chi(out: str, args: argparse.Namespace) -> None:
    """Item 1: every named configuration through ``harness.run_job``."""
    from benchmarks.configurations import NAMED_CONFIGS, parse_configs

    seed_parses(args.parse_store)
    write_lines(out, harness_lines(args.data, parse_configs(list(NAMED_CONFIGS), {}), args.harness_limit))


def dump_harness_dlsd(out: str, args: argparse.Namespace) -> None:
    """Item 1, dlsd_acu: fizz and fenice with every variant, the tiny NLI model."""
    from benchmarks import harness
    from benchmarks.configurations import parse_configs

    one_torch_thread()
    configs = [
        config
        for host in ("fizz", "fenice")
        for config in parse_configs(["dlsd"], {"host": host, "nli_model": "tiny", "decomposer": "rules"})
    ]
    folder = harness.tiny_nli_folder()
    lines = harness_lines(args.data, configs, args.dlsd_limit)
    write_lines(out, (line.replace(folder, TINY_NLI) for line in lines))


def harness_lines(data: str, configs, limit: int) -> Iterator[str]:
    """Per file, configuration and dimension: the signature and each fold's scores, as
    ``harness.run_job`` computes them (pseudo-system rows in the same call)."""
    from benchmarks._common import SUMMAC_FOLDS
    from benchmarks.evaluation import Protocol
    from benchmarks.harness import FAILURES, run_job
    from benchmarks.jobs import build_jobs

    summac = [os.path.join(data, "summac", f"{name}_val.jsonl") for name in SUMMAC_FOLDS]
    jobs = build_jobs(summac, os.path.join(data, "frank", "frank_val.jsonl"), [], limit, "auto", True)
    cheap = Protocol(splits=1, seed=0, resamples=2, bootstrap_seed=0)
    for job in jobs:
        for name, rows in run_job(job, configs, cheap, log=lambda message: None).items():
            for row in rows:
                yield f"# {job.data.name} {name} {row['dimension']} {row['signature']!r}"
                for fold, values in row["folds"].items():
                    yield f"{job.data.name} {name} {row['dimension']} {fold} {values['scores']!r}"
    if FAILURES:
        raise RuntimeError("configurations failed: " + "; ".join(FAILURES))


def dump_fusion(half: str) -> Callable[[str, argparse.Namespace], None]:
    """Item 2: ``fusion_study dump --half HALF``, its file as written."""

    def dump(out: str, args: argparse.Namespace) -> None:
        command = [sys.executable, "-m", "benchmarks.studies.fusion_study", "dump", "--half", half, "--out", out]
        subprocess.run(command + (["--parses", args.parse_store] if args.parse_store else []), check=True)

    return dump


def dump_perturb(out: str, args: argparse.Namespace) -> None:
    """Item 3: ``perturb.py --json``, without its arguments and git state."""
    from benchmarks import perturb

    seed_parses(args.parse_store)
    written = out + ".raw"
    argv = ["--data", args.data, "--half", "design", "--per-type", str(args.per_type), "--seed", "0"]
    perturb.main(argv + ["--no-paraphrase", "--json", written])
    write_json_without(written, out, ("args", "git"))


def dump_paraphrase(out: str, args: argparse.Namespace) -> None:
    """Item 3: ``paraphrase.py --json``, without the suite's path."""
    from benchmarks import paraphrase

    written = out + ".raw"
    paraphrase.main(["--json", written])
    write_json_without(written, out, ("suite",))


def write_json_without(written: str, out: str, keys: Sequence[str]) -> None:
    """The JSON file ``written`` again as ``out`` without the top-level ``keys``."""
    with open(written, encoding="utf-8") as handle:
        payload = json.load(handle)
    os.remove(written)
    with open(out, "w", encoding="utf-8") as handle:
        json.dump({k: v for k, v in payload.items() if k not in keys}, handle, indent=1, ensure_ascii=False)
        handle.write("\n")


def dump_repr(out: str, args: argparse.Namespace) -> None:
    """Item 4: chi, ehi, rhi and qhi with details on every row of every fold."""
    from halluscope import api

    seed_parses(args.parse_store)

    def lines() -> Iterator[str]:
        for fold, data in validation_folds(args.data).items():
            for metric in ("chi", "ehi", "rhi", "qhi"):
                function = getattr(api, f"score_{metric}")
                result = function(data.predictions, data.sources, data.references, return_details=True)
                yield from result_lines(f"{fold} {metric}", result)

    write_lines(out, lines())


def dump_dlsd(out: str, args: argparse.Namespace) -> None:
    """Item 5: dlsd_acu with the tiny NLI model on a slice of summeval."""
    import tempfile

    from halluscope import api

    from benchmarks._common import tiny_nli_model

    one_torch_thread()
    folder = tiny_nli_model(tempfile.mkdtemp(prefix="halluscope-identity-nli-"))
    data = validation_folds(args.data, args.dlsd_limit)["summeval"]

    def lines() -> Iterator[str]:
        for host in ("fizz", "fenice"):
            for sd_acu in (False, True):
                for dl_acu in ("none", "dep"):
                    options = {"host": host, "sd_acu": sd_acu, "dl_acu": dl_acu, "decomposer": "rules"}
                    result = api.score_dlsd_acu(
                        data.predictions, data.sources, nli_model=folder, return_details=True, **options
                    )
                    for line in result_lines(f"summeval {options}", result):
                        yield line.replace(folder, TINY_NLI)

    write_lines(out, lines())


def chi_slice(args: argparse.Namespace):
    data = validation_folds(args.data, args.slice_limit)["frank-cnndm"]
    return data.predictions, data.sources, data.references


def dump_cold_and_warm(out: str, args: argparse.Namespace) -> None:
    """Item 6: the same chi call twice in a fresh process (``workers=1``); the second
    call's dump is written beside ``out`` as ``chi-warm-workers1``."""
    from halluscope import api

    predictions, sources, references = chi_slice(args)
    for path in (out, os.path.join(os.path.dirname(out), "chi-warm-workers1")):
        result = api.score_chi(predictions, sources, references, return_details=True, workers=1)
        write_lines(path, result_lines("frank-cnndm chi", result))


def dump_workers(out: str, args: argparse.Namespace) -> None:
    """Item 6: the chi call of :func:`dump_cold_and_warm` by two worker processes."""
    from halluscope import api

    predictions, sources, references = chi_slice(args)
    result = api.score_chi(predictions, sources, references, return_details=True, workers=2)
    write_lines(out, result_lines("frank-cnndm chi", result))


#: dump name -> (writer, hash seed, whether it reads the parse store); the writer of
#: ``chi-cold-workers1`` also writes ``chi-warm-workers1``
DUMPS: dict[str, tuple[Callable[[str, argparse.Namespace], None], int, bool]] = {
    "harness-chi": (dump_harness_chi, 0, True),
    "harness-dlsd": (dump_harness_dlsd, 0, True),
    "fusion-design": (dump_fusion("design"), 0, True),
    "fusion-lockbox": (dump_fusion("lockbox"), 0, True),
    "perturb": (dump_perturb, 0, True),
    "paraphrase": (dump_paraphrase, 0, False),
    "repr-seed0": (dump_repr, 0, True),
    "repr-seed1": (dump_repr, 1, True),
    "dlsd-acu": (dump_dlsd, 0, False),
    "chi-cold-workers1": (dump_cold_and_warm, 0, False),
    "chi-cold-workers2": (dump_workers, 0, False),
}
#: files a writer makes besides its own: name -> the dump that writes it
WRITTEN_BY = {"chi-warm-workers1": "chi-cold-workers1"}


# ------------------------------------------------------------------------------ running


def piece_environment(seed: int) -> dict[str, str]:
    environment = dict(os.environ, PYTHONHASHSEED=str(seed), OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    environment.setdefault("HF_HUB_OFFLINE", "1")
    environment.setdefault("TRANSFORMERS_OFFLINE", "1")
    environment.setdefault("TOKENIZERS_PARALLELISM", "false")
    return environment


def forwarded_options(args: argparse.Namespace) -> list[str]:
    return [
        "--data",
        args.data,
        "--out",
        args.out,
        "--harness-limit",
        str(args.harness_limit),
        "--dlsd-limit",
        str(args.dlsd_limit),
        "--slice-limit",
        str(args.slice_limit),
        "--per-type",
        str(args.per_type),
    ] + (["--parse-store", args.parse_store] if args.parse_store else [])


def run_logged(command: Sequence[str], seed: int, log: str) -> tuple[float, float]:
    """Run ``command`` with :func:`piece_environment`, its output to the file ``log``;
    its wall time and CPU time (its processes' user + system) in seconds. A failure
    raises, with the end of the log."""
    start, cpu = time.perf_counter(), children_cpu_seconds()
    with open(log, "w", encoding="utf-8") as handle:
        finished = subprocess.run(
            command, stdout=handle, stderr=subprocess.STDOUT, env=piece_environment(seed), cwd=REPOSITORY
        )
    if finished.returncode != 0:
        with open(log, encoding="utf-8") as handle:
            tail = handle.read()[-4000:]
        raise RuntimeError(f"{' '.join(command)} exited with {finished.returncode}; the end of {log}:\n{tail}")
    return time.perf_counter() - start, children_cpu_seconds() - cpu


def children_cpu_seconds() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_piece(name: str, args: argparse.Namespace) -> tuple[float, float]:
    """Run one dump in a fresh process (output to ``--out``/``.logs/NAME``); its wall
    and CPU seconds."""
    command = [sys.executable, "-m", "benchmarks.identity", "--piece", name] + forwarded_options(args)
    return run_logged(command, DUMPS[name][1], os.path.join(args.out, LOG_FOLDER, name))


def build_store(folder: str, logs: str) -> tuple[float, float]:
    command = [sys.executable, "-m", "benchmarks.studies.parse_store", "build", "--out", folder]
    return run_logged(command, 0, os.path.join(logs, "parse-store"))


def run_all(args: argparse.Namespace, names: Sequence[str]) -> None:
    """Make the dumps ``names`` in ``args.out`` (a parse store first when one is
    needed and none given), printing the wall and CPU time of each step."""
    steps: list[tuple[str, Callable[[], tuple[float, float]]]] = []
    if not args.parse_store and any(DUMPS[name][2] for name in names):
        args.parse_store = os.path.join(args.out, STORE_FOLDER)
        steps.append(("(parse store)", lambda: build_store(args.parse_store, os.path.join(args.out, LOG_FOLDER))))
    steps += [(name, lambda name=name: run_piece(name, args)) for name in names]
    for name, step in steps:
        wall, cpu = step()
        print(f"{name:<20} {wall:7.0f} s wall {cpu:7.0f} s CPU", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, help="folder with summac/*_val.jsonl and frank/frank_val.jsonl")
    parser.add_argument("--out", required=True, help="folder the dumps and SHA256SUMS are written to")
    parser.add_argument("--only", nargs="+", choices=sorted(DUMPS), help="make these dumps only")
    parser.add_argument("--check", metavar="MANIFEST", help="compare with this manifest; exit 1 if a dump differs")
    parser.add_argument("--parse-store", help="an existing parse store to seed from (default: build one in --out)")
    parser.add_argument("--harness-limit", type=int, default=40, help="harness-chi: rows per fold")
    parser.add_argument("--dlsd-limit", type=int, default=8, help="harness-dlsd and dlsd-acu: rows per fold")
    parser.add_argument("--slice-limit", type=int, default=60, help="chi-*-workers*: rows of frank-cnndm")
    parser.add_argument("--per-type", type=int, default=20, help="perturb: cases per edit type")
    parser.add_argument("--piece", choices=sorted(DUMPS), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    os.makedirs(os.path.join(args.out, LOG_FOLDER), exist_ok=True)
    if args.piece:
        DUMPS[args.piece][0](os.path.join(args.out, args.piece), args)
        return 0

    names = args.only or list(DUMPS)
    total = time.perf_counter()
    run_all(args, names)
    made = list(names) + [extra for extra, writer in WRITTEN_BY.items() if writer in names]
    hashes = {name: sha256_of(os.path.join(args.out, name)) for name in made}
    with open(os.path.join(args.out, MANIFEST), "w", encoding="utf-8") as handle:
        handle.write(manifest_text(hashes))
    print(f"total: {time.perf_counter() - total:.0f} s; wrote {os.path.join(args.out, MANIFEST)}")
    problems = disagreements(hashes)
    if args.check:
        problems += compare(hashes, read_manifest(args.check))
    for problem in problems:
        print(problem, file=sys.stderr)
    if args.check and not problems:
        print(f"all {len(hashes)} dumps match {args.check}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
