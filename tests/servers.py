"""Real servers on loopback for the tests that drive them: gunicorn as ``make serve`` starts it
(deploy/gunicorn.conf.py), and a phone without JavaScript to talk to it."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.cookiejar import CookieJar
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Phone:
    """A browser without JavaScript: cookies, the CSRF token of the last page, plain forms."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(CookieJar()), NoRedirect()
        )
        self.token = ""

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as response:
            page = response.read().decode()
        self.token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        return page

    def post(self, path: str, data: dict) -> tuple[int, str]:
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": self.token}).encode()
        try:
            with self.opener.open(self.base + path, body, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer to look at (302 after a save), not a page to follow."""

    def redirect_request(self, *args, **kwargs):
        return None


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
