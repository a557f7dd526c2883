"""Where a run of ``halluscope score`` writes: the output and summary paths checked before
anything is scored (none overwrites another or the input, each can be written), and the
advisory lock a run holds on its output (docs/cli.md, "Interrupted runs")."""

from __future__ import annotations

import argparse
import contextlib
import os
import stat
import sys
import tempfile
from typing import Any, TextIO

from ..workers import keep_from_workers
from .command_errors import CommandError, FileError
from .readers import STDIO

#: the advisory lock a run holds on its output (:class:`OutputLock`)
LOCK_SUFFIX = ".lock"


def summary_path_for(output: str) -> str:
    """``scores.jsonl`` -> ``scores.summary.json``."""
    stem, extension = os.path.splitext(output)
    return (stem if extension.lower() in (".jsonl", ".json", ".ndjson") else output) + ".summary.json"


def _same_path(first: str, second: str) -> bool:
    """Whether two paths name one file (compared resolved, and by inode when both exist)."""
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def is_stream(path: str) -> bool:
    """An existing output that is not a regular file (a character device such as
    /dev/null, a FIFO): written through, never replaced by a file of the same name."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _check_writable(path: str, flag: str) -> None:
    """``path`` can be written: its folder exists and takes a new file (a file is made
    there and removed: a read-only or pseudo filesystem such as /proc is refused before
    anything is scored), and it is not a folder itself; a device or FIFO is written
    through."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileError(f"{flag} {path}: the folder {folder} does not exist")
    if os.path.isdir(path):
        raise FileError(f"{flag} {path}: is a folder, not a file")
    if is_stream(path):
        return
    try:
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".halluscope-probe-")
        os.close(handle)
        os.remove(probe)
    except OSError as error:
        raise FileError(f"{flag} {path}: cannot write in {folder} ({error.strerror or error})") from None


class OutputLock:
    """An advisory lock on ``<output>.lock`` held while a run writes ``output``: a second
    run on the same output fails at once (exit 2) instead of interleaving its records.
    The file holds the run's PID; a run ends by removing it, so a lock file found free
    was left by a run that ended without releasing it (``kill -9``): it is taken over,
    with a line saying so. Workers close their copy of the descriptor
    (:func:`halluscope.workers.keep_from_workers`), so the lock ends with the run.
    Where ``fcntl`` does not exist (Windows) there is no lock."""

    def __init__(self, output: str, log: TextIO | None = None) -> None:
        self.path = output + LOCK_SUFFIX
        self.log = log or sys.stderr
        self._fd: int | None = None
        self._kept = contextlib.ExitStack()

    def __enter__(self) -> OutputLock:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX
            return self
        if os.path.islink(self.path):
            raise FileError(f"{self.path} is a symbolic link; halluscope does not follow it: remove it")
        left_behind = os.path.exists(self.path)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise CommandError(
                f"--output {self.path[: -len(LOCK_SUFFIX)]}: another halluscope run is writing it "
                f"(it holds {self.path}); wait for it to end or choose another output"
            ) from None
        self._fd = fd
        self._kept.enter_context(keep_from_workers(fd))
        if left_behind:
            holder = os.read(fd, 32).decode("ascii", "replace").strip()
            said = f" (pid {holder})" if holder.isdigit() else ""
            print(f"note: taking over {self.path}, left by a run that ended without releasing it{said}", file=self.log)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._kept.close()
        if self._fd is not None:
            try:
                os.remove(self.path)
            except OSError:
                pass
            os.close(self._fd)  # closing releases the lock
            self._fd = None


def check_output_paths(args: argparse.Namespace) -> str | None:
    """Refuse outputs that would overwrite each other or the input, or that cannot be
    created; return the summary path (None: no summary file, with ``--output -`` and
    no ``--summary-output``)."""
    if args.output == STDIO or is_stream(args.output):  # written through: no partial, no summary beside it
        if args.resume:
            raise CommandError(
                "--resume needs an output file: with --output - (or a device or FIFO) the records "
                "go straight through, with no partial file to continue"
            )
        if args.summary_output is not None:
            _check_writable(args.summary_output, "--summary-output")
            if args.input != STDIO and _same_path(args.summary_output, args.input):
                raise FileError(f"--summary-output {args.summary_output} is the --input file; choose another name")
        return args.summary_output
    summary_output = args.summary_output or summary_path_for(args.output)
    _check_writable(args.output, "--output")
    _check_writable(summary_output, "--summary-output")
    if _same_path(args.output, summary_output):
        raise FileError(
            f"--summary-output {summary_output} is the --output file: the summary would "
            "overwrite the scores; choose another name"
        )
    for path, flag in ((args.output, "--output"), (summary_output, "--summary-output")):
        if args.input != STDIO and _same_path(path, args.input):
            raise FileError(f"{flag} {path} is the --input file; choose another name")
    return summary_output
