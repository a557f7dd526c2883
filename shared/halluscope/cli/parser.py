"""The ``halluscope`` command line: its parser and :func:`main` (exit codes in
:mod:`halluscope.cli`)."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence

from .. import budget
from ..options import MAX_WORKERS
from .chunked_scoring import DEFAULT_CHUNK_SIZE, METRICS
from .command_errors import CommandError, LineError
from .ray_run import run_score_command
from .report_run import run_report
from .runs import REPORT_MAX_EXAMPLES, REPORT_PAGE_SIZE

# ---------------------------------------------------------------------------- parser


def _integer(what: str, low: int, high: int | None = None):
    """An argparse type: an integer from ``low`` to ``high`` (None: no upper bound),
    refused as "must be WHAT[ up to HIGH], got ..." otherwise."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            limit = "" if high is None else f" up to {high}"
            raise argparse.ArgumentTypeError(f"must be {what}{limit}, got {text}")
        return value

    return parse


_positive_int = _integer("a positive integer", 1)
#: ``--workers``: 0 (one per core) or a count of processes, bounded as the option is
_cores = _integer("0 (one per core) or a positive integer", 0, MAX_WORKERS)


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text}")
    return value


def _share(text: str) -> float:
    """``--actor-cpus``/``--actor-gpus``: a finite number >= 0."""
    value = _number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a number >= 0, got {text}")
    return value


def _resources(text: str) -> dict[str, float]:
    """``--actor-resources``: a JSON object of resource names to numbers >= 0."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, dict) or not all(
        isinstance(amount, (int, float)) and not isinstance(amount, bool) and 0 <= amount < math.inf
        for amount in value.values()
    ):
        raise argparse.ArgumentTypeError(
            f'must be a JSON object of resource names to numbers, e.g. {{"scorer": 1}}, got {text!r}'
        )
    return {str(name): float(amount) for name, amount in value.items()}


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, ``error: ...``, exit code 2
    (argparse's own print the usage first)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"error: {self.prog}: {message} (see {self.prog} --help)\n")


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each option's default (``none`` for None and an empty list), unless the
    help text already says it; flags and required options have none to show."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if (
            action.required
            or not action.option_strings
            or action.default in (False, argparse.SUPPRESS)
            or "default" in text
            or isinstance(action, argparse._VersionAction)
        ):
            return text
        if action.default is None or action.default == []:
            return text + " (default: none)"
        return text + " (default: %(default)s)"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``halluscope`` command (every option has help text;
    defaults are shown by the help formatter)."""
    from ..option_types import DECOMPOSERS, HOSTS
    from ..options import PRESETS
    from ..version import __version__

    parser = _Parser(
        prog="halluscope",
        description="Hallucination metrics for summaries (docs/cli.md).",
        formatter_class=_HelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"halluscope {__version__}", help="print the version and exit"
    )
    commands = parser.add_subparsers(dest="command", metavar="{score,report}", parser_class=_Parser)

    score = commands.add_parser(
        "score",
        help="score a JSONL/CSV file or a datasets folder",
        description="Score every example; write one JSON line per example (docs/cli.md).",
        formatter_class=_HelpFormatter,
    )
    score.add_argument(
        "--input",
        required=True,
        help=".jsonl or .csv file, a folder from Dataset.save_to_disk, or - for JSONL on stdin",
    )
    score.add_argument(
        "--output",
        default=None,
        help="JSONL file, one line per example (written to <output>.partial until the run ends), "
        "or - for stdout (no partial file, no --resume); required unless --engine ray",
    )
    score.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="local: this process (and --workers); ray: Ray Data actors, on --ray-address or a "
        "local Ray, writing --output-dir (docs/cli.md#scoring-on-ray)",
    )
    score.add_argument(
        "--output-dir",
        default=None,
        metavar="DIR",
        help="--engine ray: a new or empty folder for the shards (part-*.jsonl or part-*.parquet) and summary.json",
    )
    score.add_argument(
        "--output-format",
        choices=("jsonl", "parquet"),
        default=None,
        help="--engine ray: the shards' format (default: jsonl; Parquet's columns: docs/cli.md#scoring-on-ray)",
    )
    score.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDR",
        help="--engine ray: the Ray cluster to join (default: start a local Ray on this machine's cores)",
    )
    score.add_argument(
        "--actors",
        type=_positive_int,
        default=None,
        metavar="N",
        help="--engine ray: scoring actors (default: from 1 up to the cluster's CPUs over --actor-cpus, less one)",
    )
    score.add_argument(
        "--actor-cpus",
        type=_share,
        default=None,
        metavar="N",
        help="--engine ray: CPUs each actor reserves (default: 1; e.g. 0.5 leaves room for reading and writing)",
    )
    score.add_argument(
        "--actor-gpus",
        type=_share,
        default=None,
        metavar="N",
        help="--engine ray: GPUs each actor reserves (default: 0)",
    )
    score.add_argument(
        "--actor-resources",
        type=_resources,
        default=None,
        metavar="JSON",
        help="--engine ray: custom Ray resources each actor reserves, e.g. '{\"scorer\": 1}' "
        "(actors go to the nodes that have them)",
    )
    score.add_argument(
        "--ray-temp-dir",
        default=None,
        metavar="DIR",
        help="--engine ray without --ray-address: the local Ray's temporary folder (keep it short: Unix socket paths)",
    )
    score.add_argument("--metrics", default="chi", help=f"comma list of {', '.join(METRICS)}")
    score.add_argument(
        "--source-field",
        default=None,
        help="field holding the source document (default: source, refused when its values look "
        "like labels and another field holds the documents)",
    )
    score.add_argument("--prediction-field", default="prediction", help="field holding the summary to score")
    score.add_argument(
        "--reference-field",
        default=None,
        help="field with the reference summary: a string or a list of strings (default: none, a "
        'reference-free run; "" or null in a row: reference-free for that row; '
        "docs/api.md#what-a-reference-may-be)",
    )
    score.add_argument("--id-field", default="id", help="field copied to each record's id when present")
    score.add_argument(
        "--publication-date-field",
        default=None,
        help='field with the source\'s publication date (ISO, YYYY-MM-DD; "" or null: none), '
        'which resolves relative dates ("last Tuesday") for qhi and chi',
    )
    score.add_argument(
        "--keep-fields",
        default="all",
        metavar="all|none|NAME,...",
        help="the input's other fields copied into each record's \"fields\" (e.g. label, for "
        "the report's agreement view)",
    )
    score.add_argument(
        "--no-sources-in-output",
        action="store_true",
        help="leave the source text out of the records (the report then shows no source)",
    )
    score.add_argument(
        "--limit",
        type=_positive_int,
        default=None,
        metavar="N",
        help="score only the first N valid examples (the rest of the input is not read)",
    )
    score.add_argument("--split", default=None, help="split of a saved DatasetDict (needed when it has several)")
    score.add_argument(
        "--on-error",
        choices=("stop", "skip"),
        default="stop",
        help="on a malformed line, missing field or rejected value: stop (exit 1) or skip it",
    )
    score.add_argument(
        "--chunk-size",
        type=_positive_int,
        default=DEFAULT_CHUNK_SIZE,
        help="examples per API call; scores do not depend on it",
    )
    score.add_argument(
        "--preset",
        choices=tuple(PRESETS),
        default=None,
        help="a preset of options for every metric (paper: the papers' formulas)",
    )
    score.add_argument(
        "--device",
        default="auto",
        help="torch device of chi, rhi and dlsd_acu: auto (CUDA when available, else cpu), cpu, cuda, cuda:1, ...",
    )
    score.add_argument(
        "--batch-size",
        type=_positive_int,
        default=None,
        help="model batch size (default: the API's, 64 for the encoder, 32 for NLI)",
    )
    score.add_argument(
        "--cache-mb",
        type=_positive_int,
        default=None,
        metavar="MB",
        help=f"memory budget of the caches in MB (default: ${budget.ENV} or {budget.DEFAULT_MB}; "
        "docs/scaling.md#memory)",
    )
    score.add_argument(
        "--workers",
        type=_cores,
        default=None,
        metavar="N",
        help="processes scoring ehi, rhi, qhi and chi: 1 (default) this one, N a pool of N, 0 one "
        "per core; never changes a score (docs/scaling.md#workers)",
    )
    score.add_argument(
        "--nli-model",
        default=None,
        help="dlsd_acu: NLI model name or local folder (default: the API's, tals/albert-xlarge-vitaminc-mnli)",
    )
    score.add_argument("--decomposer", choices=DECOMPOSERS, default="seq2seq", help="dlsd_acu: ACU decomposer")
    score.add_argument("--host", choices=HOSTS, default="fizz", help="dlsd_acu: host pipeline")
    score.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a keyword of the metrics' API functions (halluscope.score_<metric>), for every "
        "chosen metric that takes it: formula=paper, truecase=false, intransitive=none, "
        "weights='{\"qhi\": 2}'; VALUE is read as JSON when it parses, else as text; "
        "repeat for several",
    )
    score.add_argument(
        "--summary-output",
        default=None,
        help="JSON summary file (default: the output's name with .summary.json; none with --output -)",
    )
    score.add_argument("--no-progress", action="store_true", help="no progress bar")
    score.add_argument(
        "--resume",
        action="store_true",
        help="continue an interrupted run from the last complete record of <output>.partial "
        "(same command otherwise); rows edited since they were scored are scored again "
        "(docs/cli.md#resuming-after-the-input-changed)",
    )
    score.set_defaults(handler=run_score_command)

    report = commands.add_parser(
        "report",
        help="write a self-contained HTML report of a scores file",
        description="One HTML file: statistics, distributions, agreement with labels, every example (docs/cli.md).",
        formatter_class=_HelpFormatter,
    )
    report.add_argument(
        "--input",
        required=True,
        help="scores JSONL written by `halluscope score`, or the --output-dir of `halluscope score --engine ray`",
    )
    report.add_argument("--output", required=True, help="HTML file to write")
    report.add_argument(
        "--summary", default=None, help="summary JSON of the run (default: the input's .summary.json when present)"
    )
    report.add_argument(
        "--cut", type=_number, default=0.5, help="the report gives the share of defined scores below this value"
    )
    report.add_argument(
        "--label-field",
        default=None,
        help="kept input field with 0/1 labels (1 = consistent; docs/cli.md#labels-the-report-accepts): "
        "the report shows ROC-AUC, balanced accuracy and a confusion table per score (default: "
        "label, when the records have it); a field named here must be there; '' for none",
    )
    report.add_argument(
        "--page-size", type=_positive_int, default=REPORT_PAGE_SIZE, help="examples per page of the examples table"
    )
    report.add_argument(
        "--max-examples",
        type=_positive_int,
        default=REPORT_MAX_EXAMPLES,
        help="examples written into the page (statistics use all; past this, an even sample "
        "is shown and the page says so)",
    )
    report.add_argument("--title", default=None, help="page title (default: halluscope report)")
    report.set_defaults(handler=run_report)
    return parser


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def command() -> int:
    """The ``halluscope`` executable (and ``python -m halluscope.cli``): :func:`main`, then
    the process's objects frozen out of the garbage collector, so that the interpreter
    ends at once instead of walking the loaded models' objects one last time (2-3 s
    on a 2-core machine, after every run and after Ctrl-C; docs/cli.md#exit-codes)."""
    import gc

    code = main()
    gc.freeze()
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit code:
    0 done, 1 a bad input row or a scoring error, 2 a mistake in the command (usage,
    metric, option, device, model, field, path or file), 130 interrupted, 141 the
    reader of ``--output -`` went away (docs/cli.md#exit-codes)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version, a usage error (already printed)
        return exit_.code if isinstance(exit_.code, int) else 2
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.handler(args)
    except LineError as error:
        print(f"error: {_one_line(error)}", file=sys.stderr)
        return 1
    except CommandError as error:
        print(f"error: {_one_line(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader of --output - went away (`| head`): end quietly, with the shell's
        # code for SIGPIPE, and keep Python from complaining when it flushes stdout
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
