"""Real servers on loopback for the tests that drive them: gunicorn as ``make serve`` starts it
(deploy/gunicorn.conf.py), and a phone without JavaScript to talk to it."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
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

from django.db import connection

from tests.helpers import ROOT


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


@contextmanager
def app_servers(tmp_path: Path, **settings: str) -> Iterator[list[str]]:
    """Two gunicorn servers as ``make serve`` starts them, separate processes, one database:
    a load balancer's view (``settings``: environment variables)."""
    env = {
        **{k: v for k, v in os.environ.items() if k not in (*TEST_ONLY, "DATABASE_URL")},
        **PRODUCTION,
        "ALLOWED_HOSTS": "127.0.0.1",
        "HTTPS": "0",
        "STATIC_ROOT": str(tmp_path / "static"),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'shared.sqlite3'}",
        **settings,
    }
    if connection.vendor == "postgresql":
        import psycopg

        name = f"tamalou_servers_{os.getpid()}_{secrets.token_hex(4)}"
        params = connection.settings_dict
        admin = f"postgresql://{params['USER']}@{params['HOST']}:{params['PORT']}/postgres"
        with psycopg.connect(admin, autocommit=True) as pg:
            pg.execute(f'DROP DATABASE IF EXISTS "{name}"')
            pg.execute(f'CREATE DATABASE "{name}"')
        env["DATABASE_URL"] = admin.rsplit("/", 1)[0] + "/" + name
    for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True)
    try:
        with gunicorn(env) as first, gunicorn(env) as second:
            yield [first, second]
    finally:
        if connection.vendor == "postgresql":
            with psycopg.connect(admin, autocommit=True) as pg:
                pg.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# Set for this test process (Playwright's event loop; development defaults), not for a server.
TEST_ONLY = ("DJANGO_ALLOW_ASYNC_UNSAFE", "DEBUG", "SECRET_KEY")


PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "scores.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://scores.example.org",
}
