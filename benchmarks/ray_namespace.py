"""Running Ray on loopback only, for the tests and the benchmarks that start it
(tests/test_ray.py, benchmarks/scale_ray.py; docs/scaling.md#ray-data).

Ray 2.60 rewrites ``127.0.0.1`` to the machine's interface address, and this project's
workplace allows test traffic to loopback addresses only. So a process that starts Ray
runs inside a network namespace of its own, where loopback is the only address, and a
PID namespace of its own, so that every Ray process ends with it (``ray stop`` is never
run: it would stop every Ray process on the machine). Nothing here imports Ray.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import shlex
import signal
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

#: the namespace: its own network (loopback only, up), PIDs (every process in it ends
#: when its first process does; --kill-child: when unshare is killed) and /proc
NAMESPACE = ["unshare", "--net", "--pid", "--fork", "--kill-child", "--mount-proc", "--map-root-user"]


def namespace_problem() -> str:
    """Why Ray cannot be run here in a namespace of its own ('' when it can)."""
    if importlib.util.find_spec("ray") is None:
        return "ray is not installed (pip install 'halluscope[ray]')"
    try:
        probe = subprocess.run(
            [*NAMESPACE, "sh", "-c", "ip link set lo up"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"unshare could not run: {error}"
    if probe.returncode != 0:
        return f"unshare is not permitted here: {probe.stderr.strip()}"
    return ""


def ray_environment() -> dict[str, str]:
    """This process's environment (PYTHONPATH: this checkout) with what Ray 2.60 needs
    here: a token of its own, no 30 s drain on shutdown, no usage report."""
    return {
        **os.environ,
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": secrets.token_hex(16),
        "RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S": "0",
        "RAY_USAGE_STATS_ENABLED": "0",
    }


def short_folder() -> Path:
    """A new folder with a short path: Ray's Unix sockets live under it (~107 characters)."""
    return Path(tempfile.mkdtemp(prefix="hr", dir="/tmp"))


def start_in_namespace(command: Sequence[str], env: dict[str, str] | None = None) -> subprocess.Popen:
    """``command`` in a new network and PID namespace with loopback up, its stdout and
    stderr joined in one text pipe; the namespace ends when the command does."""
    script = shlex.join(command)
    return subprocess.Popen(
        [*NAMESPACE, "sh", "-c", f"ip link set lo up && {script}; exit $?"],
        env=ray_environment() if env is None else env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def communicate_or_kill(process: subprocess.Popen, timeout: float) -> tuple[str, str | None]:
    """A namespaced process's stdout and stderr once it ends. After ``timeout`` seconds
    it is killed with everything in its namespace, and ``subprocess.TimeoutExpired``
    carries what it had written (``.output``)."""
    try:
        return process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # unshare --kill-child takes the namespace down
        out, err = process.communicate()
        raise subprocess.TimeoutExpired(process.args, timeout, output=out, stderr=err) from None
