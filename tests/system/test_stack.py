"""The production shape end to end: nginx with deploy/nginx.conf in front of gunicorn, as
`make stack` starts them (deploy/stack.sh), on free ports of loopback and a SQLite file of
its own. Every request goes through nginx; phones at different addresses are sockets bound
to different loopback addresses (127.0.0.2, ...), as a café's phones behind one public
address are one address to nginx."""

from __future__ import annotations

import contextlib
import gzip
import http.client
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

from tests.helpers import ROOT
from tests.servers import NoRedirect, Phone, free_port

# One stack for the module: its tests run in one test process (make test: --dist loadgroup).
pytestmark = [pytest.mark.system, pytest.mark.no_database, pytest.mark.xdist_group("stack")]

PLAYERS = ["Ana", "Ben", "Cal", "Dee"]
# The pytest process's own settings and make's, none of them the stack's.
NOT_FOR_THE_STACK = ("DJANGO_ALLOW_ASYNC_UNSAFE", "DEBUG", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")
STATIC = re.compile(r'/static/[^"\'\s]+\.[0-9a-f]{12}\.(?:css|js)')


@dataclass
class Stack:
    base: str
    port: int
    log: Path

    def access_log(self, nginx: bool, showing: str = "") -> list[str]:
        """nginx's access log lines (they start with "nginx ": deploy/stack.sh), or else
        gunicorn's, from the stack's output; once one of them holds ``showing`` (a request's
        line is written after its answer), or 5 s have passed."""
        deadline = time.monotonic() + 5
        while True:
            lines = self.log.read_text(errors="replace").splitlines()
            lines = [line for line in lines if '" ' in line and line.startswith("nginx ") == nginx]
            if not showing or any(showing in line for line in lines):
                return lines
            if time.monotonic() > deadline:
                return lines
            time.sleep(0.05)


def ensure_nginx() -> None:
    """Debian's nginx, which `make test` installs (`make nginx`) when it is missing."""
    if not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        pytest.fail("nginx is missing: `make nginx` installs Debian's")


@pytest.fixture(scope="module")
def stack(tmp_path_factory) -> Stack:
    ensure_nginx()
    work = tmp_path_factory.mktemp("stack")
    port, app_port = free_port(), free_port()
    while app_port == port:
        app_port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in NOT_FOR_THE_STACK}
    env.update(
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=f"sqlite:///{work / 'stack.sqlite3'}",
        STATIC_ROOT=str(work / "static"),
        STACK_DIR=str(work / "stack"),
        HOST="127.0.0.1",
        PORT=str(port),
        STACK_APP_PORT=str(app_port),
        WEB_CONCURRENCY="2",
        RATE_LIMIT_NEW_GAMES="3/10m",
    )
    log = work / "stack.log"
    with open(log, "ab") as output:  # appended to by the script, gunicorn and nginx alike
        script = subprocess.Popen(
            ["bash", "deploy/stack.sh"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert script.poll() is None, f"deploy/stack.sh stopped:\n{log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, f"no /healthz by nginx:\n{log.read_text()[-3000:]}"
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2) as answer:
                    if answer.status == 200 and answer.read() == b"ok":
                        break
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.2)
        yield Stack(base, port, log)
    finally:
        script.send_signal(signal.SIGTERM)
        try:
            status = script.wait(40)
        except subprocess.TimeoutExpired:
            os.killpg(script.pid, signal.SIGKILL)
            for pidfile in ("nginx.pid", "gunicorn.pid"):  # each in a session of its own
                with contextlib.suppress(OSError, ValueError):
                    os.kill(int((work / "stack" / pidfile).read_text()), signal.SIGKILL)
            pytest.fail(f"deploy/stack.sh did not stop on SIGTERM:\n{log.read_text()[-3000:]}")
    assert status == 0, log.read_text()[-3000:]
    for listening in (port, app_port):
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", listening), 1).close()


class FromAddress(urllib.request.HTTPHandler):
    """urllib's HTTP from a source address of loopback: another phone to nginx."""

    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address

    def http_open(self, req):
        return self.do_open(http.client.HTTPConnection, req, source_address=(self.address, 0))


def phone_at(stack: Stack, address: str) -> Phone:
    """A browser without JavaScript (tests/servers.py) at ``address``, sending its Origin on every
    request as a browser does on a form's POST (Django compares it with the Host nginx passes)."""
    phone = Phone(stack.base)
    phone.opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(CookieJar()), NoRedirect(), FromAddress(address)
    )
    phone.opener.addheaders = [("Origin", stack.base), ("Accept-Language", "en")]
    return phone


def new_game(phone: Phone) -> tuple[int, str | None, bytes]:
    """A new game's form read and posted: the answer's status, Retry-After and page."""
    phone.get("/new/tamalou/")
    names = {f"name_{seat}": name for seat, name in enumerate(PLAYERS)}
    form = {**names, "dealer": 0, "csrfmiddlewaretoken": phone.token}
    body = urllib.parse.urlencode(form).encode()
    try:
        with phone.opener.open(phone.base + "/new/tamalou/", body, timeout=10) as answer:
            return answer.status, answer.headers.get("Retry-After"), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Retry-After"), error.read()


def save_round(phone: Phone, key: str, totals: tuple[int, ...]) -> int:
    page = phone.get(f"/g/{key}/")
    number = re.search(r'name="number" value="(\d+)"', page).group(1)
    form = {"number": number, "save": 1, "nobody_called": 1}
    form |= {f"total_{seat}": str(total) for seat, total in enumerate(totals)}
    status, _ = phone.post(f"/g/{key}/", form)
    return status


def request(stack: Stack, path: str, source: str = "127.0.0.1", **headers):
    connection = http.client.HTTPConnection("127.0.0.1", stack.port, 10, (source, 0))
    try:
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


@pytest.fixture(scope="module")
def game(stack: Stack) -> tuple[str, str]:
    """A game made through nginx by a phone at 127.0.0.1: its edit and read-only keys."""
    phone = phone_at(stack, "127.0.0.1")
    assert new_game(phone)[0] == 302
    key = re.search(r'href="/g/([\w-]+)/"', phone.get("/")).group(1)
    share = re.search(r"/s/([\w-]+)/", phone.get(f"/g/{key}/")).group(1)
    return key, share


def test_a_game_is_made_saved_and_followed_through_nginx(stack, game):
    key, share = game
    phone = phone_at(stack, "127.0.0.1")
    assert save_round(phone, key, (3, 9, 0, 12)) == 302
    assert 'name="number" value="2"' in phone.get(f"/g/{key}/")
    for live in (f"/g/{key}/live/", f"/s/{share}/live/"):
        status, headers, body = request(stack, live)
        assert status == 200 and body and headers.get("ETag"), (live, status, headers)
        status, again, body = request(stack, live, **{"If-None-Match": headers["ETag"]})
        assert (status, body) == (304, b""), (live, status, again)


def test_static_files_come_from_nginx_cached_for_ever(stack):
    status, _, home = request(stack, "/")
    assert status == 200
    files = sorted(set(STATIC.findall(home.decode())))
    assert files, "no hashed /static/ file named in the home page"
    for path in files:
        status, headers, body = request(stack, path, **{"Accept-Encoding": "gzip"})
        assert status == 200 and body, (path, status)
        cache = headers.get("Cache-Control", "")
        assert int(re.search(r"max-age=(\d+)", cache).group(1)) >= 365 * 86400, (path, cache)
        assert headers.get("Expires", "").endswith("2037 23:55:55 GMT"), headers
    served = "\n".join(stack.access_log(nginx=True, showing=f"GET {files[-1]} "))
    assert all(f'"GET {path} HTTP/1.1" 200' in served for path in files)
    assert not [line for line in stack.access_log(nginx=False) if "/static/" in line]


def test_a_3_mb_body_is_refused_413_by_nginx_without_reaching_the_app(stack):
    connection = http.client.HTTPConnection("127.0.0.1", stack.port, 10)
    body = b"x" * 3_000_000
    headers = {"Content-Type": "application/octet-stream", "X-Probe": "too-large"}
    try:
        # nginx may answer from the head and close while the body is still being sent.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            connection.request("POST", "/import/?too-large", body=body, headers=headers)
        answer = connection.getresponse()
        status, page = answer.status, answer.read()
    finally:
        connection.close()
    assert status == 413
    assert b"<center>nginx</center>" in page  # nginx's own page, not the app's
    logged = stack.access_log(nginx=True, showing="/import/?too-large")
    refused = [line for line in logged if "/import/?too-large" in line]
    assert len(refused) == 1 and '" 413 ' in refused[0], refused
    assert not [line for line in stack.access_log(nginx=False) if "too-large" in line]


def test_five_phones_behind_one_address_polling_every_2_s_are_never_refused(stack, game):
    """A table: five phones behind one café address open the sheet with its files, then each
    asks for the live part every 2 s, with the ETag it shows, for 10 s; one saves a round
    midway, which every other phone then receives."""
    key, _ = game
    cafe = "127.0.0.4"
    answers: dict[int, list[int]] = {}
    seen_new: dict[int, bool] = {}
    errors: list[str] = []

    def phone(index: int) -> None:
        statuses = answers.setdefault(index, [])
        connection = http.client.HTTPConnection("127.0.0.1", stack.port, 10, (cafe, 0))
        try:
            connection.request("GET", f"/g/{key}/", headers={"Accept-Encoding": "gzip"})
            answer = connection.getresponse()
            page = answer.read()
            statuses.append(answer.status)
            etag = first = None
            for path in sorted(set(STATIC.findall(gzip_or_plain(page, answer)))):
                connection.request("GET", path)
                answer = connection.getresponse()
                answer.read()
                statuses.append(answer.status)
            started = time.monotonic()
            for poll in range(6):
                time.sleep(max(0, started + 2 * poll - time.monotonic()))
                if index == 0 and poll == 2:
                    statuses.append(save_round(phone_at(stack, cafe), key, (1, 2, 3, 4)))
                connection.request("GET", f"/g/{key}/live/", headers=conditional(etag))
                answer = connection.getresponse()
                answer.read()
                statuses.append(answer.status)
                if answer.status == 200:
                    etag = answer.getheader("ETag")
                    first = first or etag
                    seen_new[index] = etag != first  # the round saved midway reached it
        except Exception as error:  # reported below, with every phone's answers
            errors.append(f"phone {index}: {error!r}")
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(index,)) for index in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors, (errors, answers)
    every = [status for statuses in answers.values() for status in statuses]
    assert set(every) <= {200, 302, 304}, answers
    assert sum(status == 304 for status in every) >= 15, answers
    assert seen_new == dict.fromkeys(range(5), True), (seen_new, answers)


def test_one_address_opening_sheets_in_a_loop_is_slowed_not_the_others(stack, game):
    """Whole pages are limited to 3 a second per address after 30 at once (the sheet is the
    referee scoring the game); the live parts keep their own, larger, limit."""
    _, share = game
    loop = [request(stack, f"/s/{share}/", "127.0.0.9")[0] for _ in range(45)]
    assert loop[:30] == [200] * 30 and 429 in loop[30:], loop
    status, _, page = request(stack, f"/s/{share}/", "127.0.0.9")
    assert status == 429 and b"<center>nginx</center>" in page  # refused by the proxy
    assert request(stack, f"/s/{share}/live/", "127.0.0.9")[0] == 200
    assert request(stack, f"/s/{share}/", "127.0.0.10")[0] == 200


def gzip_or_plain(page: bytes, answer) -> str:
    compressed = answer.getheader("Content-Encoding") == "gzip"
    return (gzip.decompress(page) if compressed else page).decode()


def conditional(etag: str | None) -> dict:
    return {"If-None-Match": etag} if etag else {}


def test_the_app_counts_phones_not_the_proxy(stack):
    """RATE_LIMIT_NEW_GAMES=3/10m in the stack: the app's limit is per phone's address, which
    it reads from nginx's X-Real-IP."""
    first, second = phone_at(stack, "127.0.0.2"), phone_at(stack, "127.0.0.3")
    assert [new_game(first)[0] for _ in range(3)] == [302, 302, 302]
    status, retry_after, page = new_game(first)
    assert status == 429
    assert retry_after == "60" and b"<center>nginx</center>" not in page  # the app's answer
    assert new_game(second)[0] == 302


def test_a_half_sent_head_is_closed_by_nginx_within_25_s(stack):
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", stack.port), 5, ("127.0.0.5", 0)) as half:
        half.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        half.settimeout(25)
        received = b""
        try:
            while chunk := half.recv(4096):
                received += chunk
        except ConnectionResetError:
            pass
        except TimeoutError:
            pytest.fail("nginx kept a half-sent head open for 25 s")
    waited = time.monotonic() - started
    assert waited < 25
    assert not received.startswith(b"HTTP/1.1 2"), received[:200]
