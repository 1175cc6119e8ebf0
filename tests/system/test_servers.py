"""Production readiness: settings, headers, fixed query counts, compression, migrations,
and two app servers sharing one database (backup and restore: tests/web/test_backup.py)."""

from __future__ import annotations

import gzip
import os
import re
import subprocess
import sys
import urllib.request
from http.cookiejar import CookieJar

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.store.models import Game
from tests.helpers import NOBODY_CALLED, ROOT, evening_game
from tests.servers import PRODUCTION, TEST_ONLY, app_servers


def manage(*args: str, env: dict, check: bool = False) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in TEST_ONLY}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=check,
    )


# --- settings and headers -------------------------------------------------------------------


# The module's two servers boot once: its tests run in one test process (--dist loadgroup).
pytestmark = pytest.mark.xdist_group("servers")


def test_deploy_check_passes_with_the_production_environment_of_the_readme():
    done = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout


def test_production_refuses_to_start_without_a_secret_key():
    done = manage("check", env={"DEBUG": "0"})
    assert done.returncode != 0 and "Set SECRET_KEY when DEBUG is off." in done.stderr


@pytest.mark.django_db
def test_security_headers_on_every_page(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    for url in ("/", f"/g/{game.edit_key}/", f"/s/{game.share_key}/", "/rules/koubo/"):
        response = client.get(url)
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert response["X-Frame-Options"] == "DENY"
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "same-origin"


@pytest.mark.django_db
def test_no_pending_migrations():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # exits 1 if missing


# --- the cost of the sheet page -------------------------------------------------------------


@pytest.mark.django_db
def test_the_sheet_costs_a_fixed_number_of_queries(client):
    """However long the game, a sheet reads its game and rounds in the same few queries: none
    per round."""
    counts = []
    for rounds in (3, 30, 45):
        game = evening_game(rounds, seed=rounds)
        url = f"/g/{game.edit_key}/"
        client.get(url)
        cache.clear()
        with CaptureQueriesContext(connection) as drawn:
            assert client.get(url).status_code == 200
        counts.append(len(drawn))
    assert counts[0] == counts[1] == counts[2] <= 8, counts


@pytest.mark.django_db
def test_a_page_shows_a_new_round_at_once(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    url = f"/g/{game.edit_key}/"
    assert "Round 1</h3>" not in client.get(url).content.decode()
    client.post(url, {"number": 1, "save": "1", "total_0": "3", "total_1": "9", **NOBODY_CALLED})
    assert "Round 1</h3>" in client.get(url).content.decode()


@pytest.mark.django_db
def test_each_phone_gets_its_own_csrf_token(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    other = client.__class__()
    first = client.get(f"/g/{game.edit_key}/").content.decode()
    second = other.get(f"/g/{game.edit_key}/").content.decode()
    token = first.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert token not in second


def without_tokens(page: str) -> str:
    """A page with its CSRF tokens blanked (each response masks the token afresh)."""
    return re.sub(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+', r"\1", page)


@pytest.mark.django_db
def test_the_sheet_is_sent_compressed_to_browsers_that_accept_it(client):
    game = evening_game(30)
    url = f"/g/{game.edit_key}/"
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    page = gzip.decompress(packed.content).decode()
    assert len(packed.content) < len(plain.content) / 5
    assert without_tokens(page) == without_tokens(plain.content.decode())
    assert len(packed.content) < 20_000  # the budget is 40 KB with CSS and JS
    assert page.count("<polyline") == 8  # with the score chart of 30 rounds and 8 players


# --- two app servers ------------------------------------------------------------------------


class Browser:
    def __init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def get(self, url: str) -> str:
        with self.opener.open(url, timeout=30) as response:
            return response.read().decode()

    def post(self, url: str, page: str, data: dict) -> str:
        token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
        with self.opener.open(url, body, timeout=30) as response:
            return response.read().decode()


def new_game(phone: Browser, server: str) -> tuple[str, str]:
    """A Tamalou game for Léa and Marc: (edit key, share path such as ``s/KEY/``)."""
    form = phone.get(f"{server}/new/tamalou/")
    sheet = phone.post(f"{server}/new/tamalou/", form, {"name_0": "Léa", "name_1": "Marc"})
    key = sheet.split('action="/g/')[1].split("/")[0]
    share = sheet.split('class="share-url">')[1].split("<")[0]
    return key, share.split("://", 1)[1].split("/", 1)[1]


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory):
    """Two servers booted once for the module's tests (its tests run in one test process:
    make test's --dist loadgroup), closing their database connection after each request
    (on PostgreSQL, a pool of connections per process)."""
    with app_servers(tmp_path_factory.mktemp("servers"), CONN_MAX_AGE="0") as servers:
        yield servers


def test_requests_alternating_between_two_app_servers(two_servers):
    a, b = two_servers
    phone, other_phone = Browser(), Browser()
    form = phone.get(f"{a}/new/tamalou/")
    sheet = phone.post(f"{a}/new/tamalou/", form, {"name_0": "Léa", "name_1": "Marc"})
    key = sheet.split('action="/g/')[1].split("/")[0]
    share = sheet.split('class="share-url">')[1].split("<")[0].replace("http://127.0.0.1", "")
    share = share.split(":", 1)[1].split("/", 1)[1]

    assert f"/g/{key}/" in phone.get(f"{b}/")  # the device's game list: a cookie, any server
    viewer_before = other_phone.get(f"{a}/{share}")
    assert "Manche 1</h3>" not in viewer_before

    page = phone.get(f"{b}/g/{key}/")  # the form from server B, saved through server A
    posted = {"number": 1, "save": "1", "total_0": "3", "total_1": "9", **NOBODY_CALLED}
    phone.post(f"{a}/g/{key}/", page, posted)
    for server in (a, b):  # no server shows a stale sheet, page or live part
        assert "Manche 1</h3>" in other_phone.get(f"{server}/{share}")
        assert "Manche 1</h3>" in phone.get(f"{server}/g/{key}/")
        assert "Manche 1</h3>" in other_phone.get(f"{server}/{share}live/")


def test_a_body_said_past_the_limit_is_refused_413_before_it_is_read(two_servers):
    """A Content-Length of 300 MB with 1 KB sent: 413 at once, the rest never waited for (the
    proxy in front refuses it first; this is the app's own check, for a request that reaches
    it some other way)."""
    import socket
    from urllib.parse import urlsplit

    head = "POST /import/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    address = (urlsplit(two_servers[0]).hostname, urlsplit(two_servers[0]).port)
    with socket.create_connection(address) as sock:
        sock.sendall(f"{head}Content-Length: 300000000\r\n\r\n".encode() + b"{" * 1024)
        sock.settimeout(30)  # the wait for an answer that comes at once; not a pause
        assert sock.makefile("rb").readline().startswith(b"HTTP/1.1 413 ")


def test_connections_closed_after_each_request_serve_every_page(two_servers):
    """CONN_MAX_AGE=0: on PostgreSQL, a pool of connections per process (DATABASE_POOL). Every
    page that read the database was a 500 there (the pool was given its check twice)."""
    a, b = two_servers
    phone = Browser()
    key, share = new_game(phone, a)
    for server in (a, b):
        for path in (f"/g/{key}/", f"/{share}", f"/{share}live/", f"/g/{key}/export/", "/"):
            assert phone.get(server + path)  # an answer that is not a 2xx raises


def test_make_serves_workers_refuse_a_header_past_8_kb_with_431(two_servers):
    """A header of 12 KB: gunicorn's own limit (deploy/gunicorn.conf.py) answers 431, and the
    worker serves the next request."""
    import socket
    from urllib.parse import urlsplit

    address = (urlsplit(two_servers[0]).hostname, urlsplit(two_servers[0]).port)
    with socket.create_connection(address) as sock:
        sock.settimeout(30)  # the wait for an answer that comes at once; not a pause
        big = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 12_288
        sock.sendall(big + b"\r\n\r\n")
        assert sock.makefile("rb").readline().startswith(b"HTTP/1.1 431 ")
    with socket.create_connection(address) as sock:
        sock.settimeout(30)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert sock.makefile("rb").readline().startswith(b"HTTP/1.1 200 ")


def test_a_flood_of_new_games_from_one_client_at_once_passes_no_limit(tmp_path, monkeypatch):
    """Sixty posts at once, twenty at a time, over two servers: thirty games, thirty 429s.
    The counts were read then written, and on PostgreSQL 63 to 96 games were made past 30."""
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setenv("RATE_LIMIT_NEW_GAMES", "30/d")  # no window ends while it runs

    class Refused(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None  # the 302 itself is the answer

    with app_servers(tmp_path) as servers:
        page = Browser().get(f"{servers[0]}/new/tamalou/")
        token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
        opener = urllib.request.build_opener(Refused)

        def create(number: int) -> int:
            server = servers[number % 2]
            body = {"name_0": "Léa", "name_1": "Marc"}
            body = urllib.parse.urlencode({**body, "csrfmiddlewaretoken": "a" * 32}).encode()
            request = urllib.request.Request(f"{server}/new/tamalou/", body)
            request.add_header("Cookie", f"csrftoken={'a' * 32}")
            try:
                with opener.open(request, timeout=60) as answer:
                    return answer.status
            except urllib.error.HTTPError as answer:
                return answer.code

        assert token  # the form is there
        with ThreadPoolExecutor(20) as pool:
            answers = sorted(pool.map(create, range(60)))
    assert answers == [302] * 30 + [429] * 30, answers
