"""Real gunicorn servers on loopback, for the benchmark and the multi-server tests."""

from __future__ import annotations

import contextlib
import os
import re
import shlex
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
def gunicorn(env: dict, workers: int = 1) -> Iterator[str]:
    """A gunicorn serving the project with ``env``, as ``make serve`` does
    (deploy/gunicorn.conf.py); yields its base URL once it listens."""
    with gunicorn_master(env, workers) as (url, _):
        yield url


@contextmanager
def gunicorn_master(env: dict, workers: int = 1) -> Iterator[tuple[str, subprocess.Popen]]:
    """The same, with gunicorn's master process: its children are the workers (``workers``)."""
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py"]
    command += ["tamalou_ref.wsgi", "--bind", f"127.0.0.1:{port}"]
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
        except subprocess.TimeoutExpired:  # workers still finishing their requests
            # killed with their master, not orphaned
            for worker in children_of(server.pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker, signal.SIGKILL)
            server.kill()
            server.wait(10)


def make_serve_command(port: int) -> tuple[dict, list[str]]:
    """The command that starts the server in `make serve` (as `make -n serve` prints it, with
    this environment's WEB_CONCURRENCY if set), on ``port`` of loopback: the variables it sets,
    and its arguments."""
    printed = subprocess.run(
        ["make", "-n", "serve", "HOST=127.0.0.1", f"PORT={port}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.replace("\\\n", " ")
    words = shlex.split([line for line in printed.splitlines() if "gunicorn" in line][-1])
    assigned = {}
    while re.fullmatch(r"[A-Z_]+=.*", words[0]):
        name, _, value = words.pop(0).partition("=")
        assigned[name] = value
    return assigned, words


def as_wsgi(words: list[str], threads: int = 4) -> list[str]:
    """The same command serving the WSGI application with gthread workers (no live streams)."""
    words = list(words)
    at = words.index("tamalou_ref.asgi:application")
    assert words[at + 1 : at + 3] == ["-k", "tamalou_ref.worker.Worker"], words
    words[at : at + 3] = [
        "tamalou_ref.wsgi:application",
        "-k",
        "gthread",
        "--threads",
        str(threads),
    ]
    return words


@contextmanager
def served(
    env: dict, log: Path, wsgi: bool = False, wrap: list[str] | None = None
) -> Iterator[tuple[str, int]]:
    """The server as `make serve` starts it (its command line, from the Makefile), with
    ``env``; ``wsgi``: the WSGI application under gthread workers instead. Its output (the
    access log) is dropped, its error log written to ``log``. ``wrap``: a command it runs under
    (a profiler). Yields the base URL and the pid of gunicorn's master once every worker
    answers."""
    port = free_port()
    assigned, words = make_serve_command(port)
    if wsgi:
        words = as_wsgi(words)
    workers = int(words[words.index("--workers") + 1])
    command = [*(wrap or []), *words]
    with open(log, "ab") as errors:
        server = subprocess.Popen(
            command, cwd=ROOT, env={**env, **assigned}, stdout=subprocess.DEVNULL, stderr=errors
        )
    master = server.pid
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if wrap:  # the profiler's child is gunicorn's master
                master = min(children_of(server.pid), default=server.pid)
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                if len(children_of(master)) == workers:
                    break
            except OSError:
                pass
            assert server.poll() is None, f"the server stopped: {command}, see {log}"
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}", master
    finally:
        if wrap:
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(master, signal.SIGTERM)
        else:
            server.terminate()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            for worker in children_of(master):
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
