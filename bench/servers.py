"""Real gunicorn servers on loopback, for the benchmark and the multi-server tests."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn(env: dict, workers: int = 1, asgi: bool = False) -> Iterator[str]:
    """A gunicorn serving the project with ``env``; yields its base URL once it listens.
    ``asgi``: with uvicorn workers, as ``make serve`` (the live streams need them)."""
    with gunicorn_master(env, workers, asgi) as (url, _):
        yield url


@contextmanager
def gunicorn_master(
    env: dict, workers: int = 1, asgi: bool = False
) -> Iterator[tuple[str, subprocess.Popen]]:
    """The same, with gunicorn's master process: its children are the workers (``workers``)."""
    port = free_port()
    app = ["tamalou_ref.asgi:application", "-k", "uvicorn_worker.UvicornWorker"] if asgi else []
    command = [sys.executable, "-m", "gunicorn", *(app or ["tamalou_ref.wsgi"])]
    command += ["--bind", f"127.0.0.1:{port}"]
    command += ["--workers", str(workers), "--log-level", "warning"]
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}", server
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:  # uvicorn workers wait for streams still open
            # killed with their master, not orphaned (``workers`` here is their count)
            for worker in children_of(server.pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker, signal.SIGKILL)
            server.kill()
            server.wait(10)


def children_of(master: int) -> set[int]:
    """The pids of a gunicorn master's workers, its child processes (read from /proc, which
    every Linux has; /proc/PID/task/*/children needs a kernel option)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # the process ended meanwhile
        if int(fields[1]) == master and fields[0] != "Z":  # state, parent; not a zombie
            found.add(int(stat.parent.name))
    return found
