"""Live push (scoring/live/push.py, scoring/live/stream.py, static/js/stream.js): a save reaches the
streams open on its game, through PostgreSQL's NOTIFY across server processes (on SQLite, at
once within the process that saved, within a second in the others); a stream lost and opened
again catches up from the phone's ETag. The tests save through one server process and stream
through another."""

from __future__ import annotations

import asyncio
import contextlib
import os
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import override_settings
from playwright.sync_api import Page, expect

from bench.servers import children_of
from scoring.games.models import Game
from scoring.live import push, stream
from scoring.referee.engine import RoundEntry
from tests.helpers import NOBODY_CALLED, off_the_loop
from tests.test_production import Browser, app_servers

pytestmark = pytest.mark.django_db(transaction=True)


def next_event(stream) -> str:
    """The data of the stream's next ``state`` event (pings and ``retry`` skipped)."""
    name = data = ""
    while True:
        line = stream.readline().decode()
        assert line, "the stream ended"
        line = line.rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data = line[6:]
        elif line == "" and name == "state":
            return data


def live_part(phone: Browser, url: str, etag: str) -> tuple[int, str, str]:
    """(status, ETag, body) of a live part fetched with the ETag a phone shows."""
    request = urllib.request.Request(url, headers={"If-None-Match": etag})
    try:
        with phone.opener.open(request, timeout=30) as response:
            return response.status, response.headers["ETag"], response.read().decode()
    except urllib.error.HTTPError as answer:
        return answer.code, answer.headers["ETag"], ""


def new_game(phone: Browser, server: str) -> tuple[str, str]:
    """A Tamalou game for Léa and Marc: (edit key, share path such as ``s/KEY/``)."""
    form = phone.get(f"{server}/new/tamalou/")
    sheet = phone.post(
        f"{server}/new/tamalou/", form, {"name_0": "Léa", "name_1": "Marc", "action": "create"}
    )
    key = sheet.split('action="/g/')[1].split("/")[0]
    share = sheet.split('class="share-url">')[1].split("<")[0]
    return key, share.split("://", 1)[1].split("/", 1)[1]


def save_round(phone: Browser, server: str, key: str, number: int) -> None:
    page = phone.get(f"{server}/g/{key}/")
    posted = {"number": number, "save": "1", "total_0": "3", "total_1": "9", **NOBODY_CALLED}
    phone.post(f"{server}/g/{key}/", page, posted)


def test_a_save_is_pushed_to_the_stream_and_the_live_part_catches_up_from_the_etag(tmp_path):
    with app_servers(tmp_path, asgi=True) as (a, b):
        phone, viewer = Browser(), Browser()
        key, share = new_game(phone, a)
        with viewer.opener.open(f"{b}/{share}stream/", timeout=30) as stream:
            assert stream.headers["Content-Type"] == "text/event-stream"
            assert "Content-Encoding" not in stream.headers  # never held in a compressor
            shown = next_event(stream)
            assert live_part(viewer, f"{b}/{share}live/", shown)[:2] == (304, shown)

            save_round(phone, a, key, 1)
            told = next_event(stream)
            assert told != shown
            status, etag, body = live_part(viewer, f"{b}/{share}live/", shown)
            assert (status, etag) == (200, told) and "Manche 1</h3>" in body
            assert live_part(viewer, f"{b}/{share}live/", told)[:2] == (304, told)

        # A phone in English is told the ETag of the live part in English.
        english = Browser()
        english.opener.addheaders = [("Cookie", "django_language=en")]
        with english.opener.open(f"{b}/{share}stream/", timeout=30) as stream:
            etag = next_event(stream)
        assert etag != told
        assert live_part(english, f"{b}/{share}live/", etag)[:2] == (304, etag)

        # The stream lost; two saves meanwhile: the stream opened again tells the newest ETag
        # at once, and the phone's ETag fetches both rounds (nothing missed).
        save_round(phone, a, key, 2)
        save_round(phone, b, key, 3)
        with viewer.opener.open(f"{b}/{share}stream/", timeout=30) as stream:
            newest = next_event(stream)
        status, etag, body = live_part(viewer, f"{b}/{share}live/", told)
        assert (status, etag) == (200, newest)
        assert "Manche 2</h3>" in body and "Manche 3</h3>" in body


def worker_of(server: str) -> int:
    """The pid of the one worker of the gunicorn serving ``server``: of the processes that
    hold its listening socket (the master and its worker), the master's child."""
    port = f"{int(server.rsplit(':', 1)[1]):04X}"
    listening = set()
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[1].endswith(f":{port}") and fields[3] == "0A":
                listening.add(f"socket:[{fields[9]}]")
    holders = set()
    for fd_dir in Path("/proc").glob("[0-9]*/fd"):
        with contextlib.suppress(OSError):
            if any(os.readlink(fd) in listening for fd in fd_dir.iterdir()):
                holders.add(int(fd_dir.parent.name))
    (worker,) = [pid for pid in holders if children_of(pid) & holders == set()] or [None]
    assert worker is not None, holders
    return worker


def held(pid: int) -> tuple[int, int]:
    """(threads, database connections) of a server process: its connections to PostgreSQL
    (sockets to port 5432), or its open handles on the SQLite file."""
    threads = len(list(Path(f"/proc/{pid}/task").iterdir()))
    if connection.vendor == "postgresql":
        port = f"{int(connection.settings_dict['PORT'] or 5432):04X}"
        inodes = {
            f"socket:[{line.split()[9]}]"
            for table in ("tcp", "tcp6")
            for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
            if line.split()[2].endswith(f":{port}") and line.split()[3] == "01"
        }
    else:
        inodes = None
    handles = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            handles += target in inodes if inodes is not None else target.endswith(".sqlite3")
    return threads, handles


def test_open_streams_hold_no_thread_and_no_database_connection(tmp_path):
    """Thousands of phones may follow games at once: an open stream holds neither a thread of
    the server nor a connection to its database (PostgreSQL admits 100), and each still hears
    every save."""
    with app_servers(tmp_path, asgi=True) as (a, b):
        phone = Browser()
        key, share = new_game(phone, a)
        viewer = Browser()
        with viewer.opener.open(f"{b}/{share}stream/", timeout=30) as first:
            next_event(first)  # the worker has served a stream: its listener is up
            worker = worker_of(b)
            threads, connections = held(worker)
            streams = [viewer.opener.open(f"{b}/{share}stream/", timeout=30) for _ in range(15)]
            try:
                shown = {next_event(stream) for stream in streams}
                assert len(shown) == 1
                now = held(worker)
                # the shared reading threads start as they are first needed: up to
                # DATABASE_THREADS of them, whatever the number of streams
                assert now[0] <= threads + push.DATABASE_THREADS, (threads, now)
                # and no connection held by a stream: those open are the reads in flight on
                # those threads at this moment (a stream's first, the poller's each second),
                # far fewer than the 15 streams
                assert now[1] <= connections + push.DATABASE_THREADS < len(streams), (
                    connections,
                    now,
                )
                save_round(phone, a, key, 1)
                told = {next_event(stream) for stream in streams}
                assert len(told) == 1 and told != shown
            finally:
                for stream in streams:
                    stream.close()


def test_the_stream_endpoint_refuses_what_it_cannot_serve_and_gives_every_place_back(tmp_path):
    """Served beside Django: an unknown key is 404, another method 405 (Allow says which), a
    HEAD is the stream's headers alone. None of them keeps one of the client's places (the
    servers' default, LIVE_STREAMS_PER_CLIENT=20)."""
    with app_servers(tmp_path, asgi=True) as (a, _):
        phone = Browser()
        _, share = new_game(phone, a)

        def ask(method: str, path: str):
            request = urllib.request.Request(f"{a}/{path}", method=method)
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return response.status, response.headers, response.read()
            except urllib.error.HTTPError as answer:
                return answer.code, answer.headers, answer.read()

        status, _, _ = ask("GET", "s/AAAAAAAAAAAAAAAAAAAAAA/stream/")
        assert status == 404
        status, headers, _ = ask("POST", f"{share}stream/")
        assert status == 405 and headers["Allow"] == "GET, HEAD"
        for _ in range(25):  # more than the client's places
            status, headers, body = ask("HEAD", f"{share}stream/")
            assert (status, headers["Content-Type"], body) == (200, "text/event-stream", b"")
        streams = [phone.opener.open(f"{a}/{share}stream/", timeout=30) for _ in range(20)]
        try:
            assert len({next_event(stream) for stream in streams}) == 1
            assert ask("GET", f"{share}stream/")[0] == 429  # the 21st
        finally:
            for stream in streams:
                stream.close()


def test_a_stream_hears_each_write_in_its_own_process(transactional_db):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])

    def write() -> str:  # in a thread of its own: its connection is closed with it
        try:
            game.add_round(1, RoundEntry(hands={"Léa": 3, "Marc": 9}))
            return game.state
        finally:
            connection.close()

    async def scenario() -> tuple[bytes, bytes, str]:
        await push.listening()
        assert push.hub.admit("test")
        watch = push.hub.watch(game.pk)
        events = push.events(watch, lambda state: state, lambda: None, "test", game.state)
        first = await anext(events)
        state = await sync_to_async(write)()
        second = await asyncio.wait_for(anext(events), 10)
        await events.aclose()
        return first, second, state

    before = game.state
    first, second, state = off_the_loop(lambda: asyncio.run(scenario()))
    assert first == b"retry: 3000\nevent: state\ndata: " + before.encode() + b"\n\n"
    assert second == b"event: state\ndata: " + state.encode() + b"\n\n" and state != before
    assert push.hub.streams() == 0  # a closed stream leaves nothing behind
    assert push.hub.admit("test")  # and gave its place back
    push.hub.release("test")


def test_a_stream_asked_for_when_no_database_connection_is_free_is_a_503(monkeypatch):
    """The stream endpoint beside Django: no connection free in the pool in time (a saturated
    server) answers 503 with Retry-After, not a 500; the phone polls meanwhile. It takes no
    place of the client's."""
    from tests.test_errors import pool_exhausted

    async def busy(read, *args):
        pool_exhausted()

    monkeypatch.setattr(push, "read_database", busy)
    sent = []

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/s/x/stream/",
        "headers": [(b"host", b"127.0.0.1")],
    }
    off_the_loop(lambda: asyncio.run(stream.serve(scope, receive, send, "share", "x")))
    assert sent[0]["status"] == 503
    assert (b"retry-after", b"5") in sent[0]["headers"]
    assert push.hub.admit("127.0.0.1")  # no place was taken
    push.hub.release("127.0.0.1")


@override_settings(LIVE_STREAMS_PER_CLIENT=2)
def test_streams_per_client_are_limited():
    hub = push.Hub()
    assert hub.admit("10.0.0.1") and hub.admit("10.0.0.1")
    assert not hub.admit("10.0.0.1")
    assert hub.admit("10.0.0.2")  # another client has its own count
    hub.release("10.0.0.1")
    assert hub.admit("10.0.0.1")


@override_settings(LIVE_STREAMS_PER_CLIENT=2, LIVE_STREAMS_PER_PROCESS=3)
def test_a_process_follows_at_most_its_streams_in_all():
    """2,432 streams from 100 addresses were admitted over three processes; saves took 460
    ms instead of 45."""
    hub = push.Hub()
    assert hub.admit("10.0.0.1") and hub.admit("10.0.0.2") and hub.admit("10.0.0.3")
    assert hub.full() and not hub.admit("10.0.0.4")
    hub.release("10.0.0.2")
    assert not hub.full() and hub.admit("10.0.0.4")


def test_an_ipv6_client_is_counted_by_its_64_as_the_rate_limits_count_it(rf):
    from scoring.guards.limits import client_group

    one = [rf.get("/", REMOTE_ADDR=f"2001:db8:1:2::{n:x}") for n in (1, 0xBEEF)]
    other = rf.get("/", REMOTE_ADDR="2001:db8:1:3::1")
    assert client_group(one[0]) == client_group(one[1]) != client_group(other)
    assert client_group(rf.get("/", REMOTE_ADDR="192.0.2.7")) == "192.0.2.7"


def test_a_wsgi_server_tells_the_phone_to_poll_instead(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])

    def status(method, url: str) -> int:
        return off_the_loop(lambda: method(url).status_code)

    assert status(client.get, f"/g/{game.edit_key}/stream/") == 204
    assert status(client.get, f"/s/{game.share_key}/stream/") == 204
    assert status(client.get, "/s/AAAAAAAAAAAAAAAAAAAAAA/stream/") in (204, 404)
    assert status(client.post, f"/g/{game.edit_key}/stream/") == 405


def phone(browser, **extra):
    return browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True, **extra
    ).new_page()


@pytest.mark.browser
def test_two_phones_the_viewer_sees_a_save_pushed_and_catches_up_after_hiding(
    page: Page, browser, tmp_path
):
    with app_servers(tmp_path, asgi=True) as (a, b):
        key, share = new_game(Browser(), a)
        viewer = phone(browser, locale="fr-FR")
        lives: list[int] = []
        viewer.on("response", lambda r: lives.append(r.status) if "/live/" in r.url else None)
        with viewer.expect_response(lambda r: "/stream/" in r.url, timeout=10_000):
            viewer.goto(f"{b}/{share}")
        viewer.evaluate("window.notReloaded = true")

        page.goto(f"{a}/g/{key}/")
        page.locator("#id_total_0").fill("3")
        page.locator("#id_total_1").fill("9")
        page.locator(".calls label", has_text="Léa").first.tap()
        page.get_by_role("button", name="Save round 1").tap()
        expect(page.locator(".round-form h2")).to_have_text("Round 2")
        # Pushed: fetched once at the stream's word, no poll meanwhile.
        expect(viewer.locator("#history")).to_contain_text("Manche 1", timeout=5_000)
        assert lives == [200]

        # Hidden: the stream closes; a save meanwhile; shown: caught up from the ETag.
        viewer.evaluate(
            """() => { Object.defineProperty(document, 'hidden', {value: true, configurable: true});
            document.dispatchEvent(new Event('visibilitychange')); }"""
        )
        page.locator("#id_total_0").fill("4")
        page.locator("#id_total_1").fill("8")
        page.locator(".calls label", has_text="Marc").first.tap()
        page.get_by_role("button", name="Save round 2").tap()
        expect(page.locator(".round-form h2")).to_have_text("Round 3")
        expect(viewer.locator("#history")).not_to_contain_text("Manche 2")
        with viewer.expect_response(lambda r: "/live/" in r.url, timeout=10_000):
            viewer.evaluate(
                """() => { Object.defineProperty(document, 'hidden', {value: false});
                document.dispatchEvent(new Event('visibilitychange')); }"""
            )
        expect(viewer.locator("#history")).to_contain_text("Manche 2")
        expect(viewer.locator("#history article.round")).to_have_count(2)  # nothing doubled
        assert viewer.evaluate("window.notReloaded") is True and lives == [200, 200]
        viewer.context.close()
        page.context.close()


def test_the_live_sides_threads_keep_their_connections_from_one_stream_to_the_next(monkeypatch):
    """A stream opened reads the database twice, on the live side's few threads. Each of them
    keeps its connection as a request's thread does (CONN_MAX_AGE): closed after every read,
    each stream opened made two connections, and on PostgreSQL a backend started and ended for
    each (`make probe`: 300 streams held 2-8 s each, and the phone's saves waited)."""
    import threading

    from django.db import connections

    monkeypatch.setattr(push, "DATABASE", ThreadPoolExecutor(push.DATABASE_THREADS))
    used = []  # the connections themselves: kept alive here, so none is mistaken for another

    def read():
        assert Game.objects.count() == 0
        used.append(connections["default"].connection)

    async def open_streams():
        for _ in range(20):
            await push.read_database(read)

    try:
        off_the_loop(lambda: asyncio.run(open_streams()))
    finally:  # each thread closes what it kept: the test database is dropped at the end
        everyone = threading.Barrier(push.DATABASE_THREADS)

        def close():
            connections.close_all()
            everyone.wait(10)

        for done in [push.DATABASE.submit(close) for _ in range(push.DATABASE_THREADS)]:
            done.result()
        push.DATABASE.shutdown()
    assert len({id(kept) for kept in used}) <= push.DATABASE_THREADS
