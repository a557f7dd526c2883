"""A 2-node Ray cluster the tests run inside a network and PID namespace of their own
(tests/test_ray_cluster.py): ``python ray_cluster.py JOB.json``.

JOB holds ``port`` (the head's), ``folder`` (where each step leaves a file the test
watches) and ``runs``: argument lists of ``halluscope`` run one after the other with
``--ray-address 127.0.0.1:PORT``. The script starts a head and a second node with
``ray start --block`` (2 CPUs each, so that a 1-CPU task of the read or sort stages
fits beside a half-CPU actor; both with the custom resource ``scorer: 1``, the
second also with ``second_node: 1``), waits until both are up, writes ``ready``, runs
each command (``run-K.started``, then ``run-K.rc``, ``run-K.out``, ``run-K.err``) and
stops exactly the two nodes it started: SIGTERM to each ``ray start --block``, then
SIGKILL to what is left in their sessions. It never runs ``ray stop``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

NODE_WAIT_S = 60


def start_node(ray: str, folder: str, name: str, extra: list[str], resources: dict[str, float]) -> subprocess.Popen:
    """``ray start --block`` of one node, in a session of its own, logging into ``folder``."""
    command = [
        ray,
        "start",
        "--block",
        "--num-cpus",
        "2",
        "--object-store-memory",
        str(80 * 1024 * 1024),
        "--resources",
        json.dumps(resources),
        "--temp-dir",
        os.path.join(folder, name),  # short: Ray's Unix sockets live under it
        *extra,
    ]
    log = open(os.path.join(folder, f"{name}.log"), "w", encoding="utf-8")
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def wait_for_nodes(address: str, count: int) -> None:
    """Return once ``count`` nodes of the cluster at ``address`` are alive."""
    import ray

    deadline = time.monotonic() + NODE_WAIT_S
    while True:
        try:
            ray.init(address=address, log_to_driver=False)
            break
        except Exception:  # noqa: BLE001 - the head is still starting
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    try:
        while sum(node["Alive"] for node in ray.nodes()) < count:
            if time.monotonic() > deadline:
                raise TimeoutError(f"fewer than {count} nodes after {NODE_WAIT_S} s: {ray.nodes()}")
            time.sleep(0.5)
    finally:
        ray.shutdown()


def stop_node(process: subprocess.Popen) -> None:
    """SIGTERM to the node's ``ray start --block``, then SIGKILL to its session's rest."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for entry in os.listdir("/proc"):  # this PID namespace's processes (--mount-proc)
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                if os.getsid(int(entry)) == process.pid:
                    os.kill(int(entry), signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def main(job_path: str) -> None:
    with open(job_path, encoding="utf-8") as handle:
        job = json.load(handle)
    folder, address = job["folder"], f"127.0.0.1:{job['port']}"
    ray = os.path.join(os.path.dirname(sys.executable), "ray")
    head = start_node(
        ray,
        folder,
        "head",
        ["--head", "--port", str(job["port"]), "--dashboard-port", str(job["port"] + 1)],
        {"scorer": 1},
    )
    second = None
    try:
        second = start_node(ray, folder, "second", ["--address", address], {"scorer": 1, "second_node": 1})
        wait_for_nodes(address, 2)
        open(os.path.join(folder, "ready"), "w").close()
        for number, argv in enumerate(job["runs"], start=1):
            stem = os.path.join(folder, f"run-{number}")
            open(stem + ".started", "w").close()
            with open(stem + ".out", "w") as out, open(stem + ".err", "w") as err:
                command = [sys.executable, "-m", "halluscope.cli", *argv, "--ray-address", address]
                code = subprocess.run(command, stdout=out, stderr=err).returncode
            with open(stem + ".rc", "w") as rc:
                rc.write(str(code))
    finally:
        for node in (second, head):
            if node is not None:
                stop_node(node)


if __name__ == "__main__":
    main(sys.argv[1])
