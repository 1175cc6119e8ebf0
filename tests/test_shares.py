"""Each client's share of a server process's time under ASGI (scoring/guards/shares.py): a
client that has taken its share waits, or past its queue gets 429, while the others are served
at once. Issue #34: four clients looping over costly requests took a phone's p95 to ×3.84 of
its quiet p95, six pulling a heavy game's file and CSV to ×6.08 (``make probe``)."""

from __future__ import annotations

import asyncio
import time

import pytest

from scoring.guards.shares import SPENT, noting_cpu, share_time
from tests.helpers import run_async

pytestmark = pytest.mark.no_database


def scope(path: str = "/g/abc/", client: str = "192.0.2.1", **headers: str) -> dict:
    given = [(name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()]
    return {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1"), *given],
        "client": (client, 5000),
    }


class Server:
    """The guard in front of an application that takes ``seconds`` for each request: what
    reached the application, in order, and what each client was answered."""

    def __init__(self, seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.reached: list[str] = []
        self.application = share_time(self.serve)

    async def serve(self, scope, receive, send) -> None:
        forwarded = dict(scope["headers"]).get(b"x-forwarded-for", b"").decode()
        who = forwarded or (scope["client"] or ("no address",))[0]
        self.reached.append(who if scope["path"] == "/g/abc/" else f"{who} {scope['path']}")
        await asyncio.sleep(self.seconds)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"page"})

    async def get(self, request: dict) -> tuple[int, dict, bytes]:
        sent: list[dict] = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        await self.application(request, receive, send)
        body = b"".join(m.get("body", b"") for m in sent[1:])
        return sent[0]["status"], dict(sent[0]["headers"]), body

    async def one_after_another(self, count: int) -> float:
        """The seconds ``count`` requests of one client take, each sent once answered."""
        started = time.monotonic()
        for _ in range(count):
            await self.get(scope())
        return time.monotonic() - started


@pytest.fixture
def tight(settings):
    """A share of a tenth of a second each second, nothing at once, two seconds' wait at most."""
    settings.CLIENT_SHARE, settings.CLIENT_BURST, settings.CLIENT_WAIT = 0.1, 0.0, 2.0
    settings.CLIENT_QUEUE = 16
    return settings


def test_a_client_past_its_share_waits_while_another_is_served_at_once(tight):
    server = Server(seconds=0.05)  # 0.05 s taken: paid back in half a second

    async def evening():
        await server.get(scope(client="192.0.2.1"))
        ended = time.monotonic()
        again = asyncio.create_task(server.get(scope(client="192.0.2.1")))
        other = asyncio.create_task(server.get(scope(client="192.0.2.2")))
        answers = await asyncio.gather(again, other)
        return answers, time.monotonic() - ended

    answers, waited = run_async(evening())
    assert [status for status, _, _ in answers] == [200, 200]  # waited, not refused
    assert server.reached == ["192.0.2.1", "192.0.2.2", "192.0.2.1"]
    assert waited >= 0.45


def test_a_client_is_served_one_request_at_a_time_and_past_its_queue_gets_429(tight):
    tight.CLIENT_SHARE, tight.CLIENT_BURST, tight.CLIENT_QUEUE = 1.0, 10.0, 2
    server = Server(seconds=0.2)

    async def at_once():
        return await asyncio.gather(*(server.get(scope(client="192.0.2.1")) for _ in range(3)))

    answers = run_async(at_once())
    assert [status for status, _, _ in answers] == [200, 200, 429]
    _, headers, page = answers[2]
    assert headers[b"retry-after"] == b"1"
    assert "Trop de demandes de votre part" in page.decode()
    assert "Too many requests from you" in page.decode()
    assert server.reached == ["192.0.2.1", "192.0.2.1"]  # the refused one never reached it


def test_a_costly_request_costs_its_client_at_most_the_longest_wait(tight):
    """An import that took a second would have cost ten seconds' wait at a tenth a second."""
    tight.CLIENT_WAIT = 0.3
    server = Server(seconds=1.0)

    async def evening():
        await server.get(scope())
        server.seconds = 0.0
        ended = time.monotonic()
        await server.get(scope())
        return time.monotonic() - ended

    waited = run_async(evening())
    assert 0.25 <= waited < 0.9


def test_the_first_requests_of_a_client_are_served_at_once_within_its_burst(tight):
    tight.CLIENT_BURST = 10.0
    server = Server(seconds=0.05)
    assert run_async(server.one_after_another(4)) < 0.2 + 0.5  # their own time; no 0.5 s wait


def test_a_request_with_no_address_is_not_counted(tight):
    """A Unix socket with no proxy header: such clients cannot be told apart, and counted as
    one they would each wait for all the others."""
    server = Server(seconds=0.5)

    async def at_once():
        started = time.monotonic()
        await asyncio.gather(*(server.get({**scope(), "client": None}) for _ in range(2)))
        return time.monotonic() - started

    assert run_async(at_once()) < 0.9  # side by side; one after the other, 3 s at least


def test_an_ipv4_phone_on_a_dual_stack_socket_is_its_own_client(tight):
    """Mapped into IPv6 (::ffff:a.b.c.d), every IPv4 phone fell into one /64: one client."""
    server = Server(seconds=0.05)

    async def evening():
        await server.get(scope(client="::ffff:192.0.2.1"))
        again = asyncio.create_task(server.get(scope(client="::ffff:192.0.2.1")))
        other = asyncio.create_task(server.get(scope(client="::ffff:192.0.2.2")))
        await asyncio.gather(again, other)

    run_async(evening())
    assert server.reached == ["::ffff:192.0.2.1", "::ffff:192.0.2.2", "::ffff:192.0.2.1"]


def test_behind_a_proxy_each_phone_it_names_has_its_own_share(tight):
    tight.RATELIMIT_CLIENT_HEADER = "HTTP_X_FORWARDED_FOR"
    server = Server(seconds=0.05)
    proxy = "10.0.0.1"

    async def evening():
        await server.get(scope(client=proxy, x_forwarded_for="203.0.113.1"))
        again = server.get(scope(client=proxy, x_forwarded_for="203.0.113.1"))
        other = server.get(scope(client=proxy, x_forwarded_for="203.0.113.2"))
        return await asyncio.gather(again, other)

    run_async(evening())
    assert server.reached == ["203.0.113.1", "203.0.113.2", "203.0.113.1"]


def test_an_ipv6_phone_is_one_client_over_its_whole_network(tight):
    server = Server(seconds=0.05)

    async def evening():
        await server.get(scope(client="2001:db8::1"))
        again = asyncio.create_task(server.get(scope(client="2001:db8::2")))  # the same /64
        other = asyncio.create_task(server.get(scope(client="2001:db8:1::1")))
        await asyncio.gather(again, other)

    run_async(evening())
    assert server.reached == ["2001:db8::1", "2001:db8:1::1", "2001:db8::2"]


def test_with_no_share_set_nobody_waits(tight):
    tight.CLIENT_SHARE = 0
    server = Server(seconds=0.05)
    assert run_async(server.one_after_another(4)) < 0.2 + 0.5


def test_the_served_application_holds_a_flooding_client_to_its_share(tight):
    """Django as `make serve` serves it (tamalou_ref.asgi's pages: a2wsgi's threads, with
    noting_cpu): each page is charged the processor time its thread took, and a client that
    has taken its share waits while a phone from another address has its page first."""
    from tamalou_ref.asgi import pages

    tight.CLIENT_SHARE, tight.CLIENT_WAIT = 0.001, 1.0  # any page: a second's wait
    finished: list[str] = []
    charged: list[tuple[list, float]] = []

    async def django(scope, receive, send):  # what share_time hands on, seen after the page
        started = time.monotonic()
        await pages(scope, receive, send)
        charged.append((scope[SPENT], time.monotonic() - started))

    application = share_time(django)  # accounts of its own

    async def get(client: str) -> int:
        sent: list[dict] = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        request = {**scope("/rules/tamalou/", client), "asgi": {"version": "3.0"}}
        request |= {"http_version": "1.1", "scheme": "http", "raw_path": b"/rules/tamalou/"}
        request |= {"root_path": "", "server": ("127.0.0.1", 8000)}
        await application(request, receive, send)
        finished.append(client)
        return sent[0]["status"]

    async def evening():
        first = await get("192.0.2.1")
        return [first, *await asyncio.gather(get("192.0.2.1"), get("192.0.2.2"))]

    assert run_async(asyncio.wait_for(evening(), 30)) == [200, 200, 200]
    assert finished == ["192.0.2.1", "192.0.2.2", "192.0.2.1"]
    assert all(len(spent) == 1 and 0 < spent[0] <= took for spent, took in charged)


def test_a_proxy_left_unnamed_is_told_of_once_in_the_log(tight, caplog, monkeypatch):
    from scoring.guards import shares

    monkeypatch.setattr(shares, "warned", False)  # a process that has not said it yet
    server = Server()
    with caplog.at_level("WARNING", logger="scoring.guards.shares"):
        for _ in range(3):
            run_async(server.get(scope(client="10.0.0.1", x_forwarded_for="203.0.113.1")))
    told = [r.getMessage() for r in caplog.records if "RATELIMIT_CLIENT_HEADER" in r.getMessage()]
    assert len(told) == 1
    assert server.reached == ["203.0.113.1"] * 3


def test_a_client_is_charged_the_processor_time_its_request_took_not_its_wait(tight):
    """On a busy machine a request takes longer than its own work: charged that, every phone
    paid for the others' (a phone tapping a round every 1.5 s waited over 5 s for a save)."""
    server = Server(seconds=0.3)  # 0.3 s on the clock, 1 ms of the processor
    served = server.serve

    async def serve(scope, receive, send):
        scope[SPENT].append(0.001)  # as noting_cpu notes it in the request's thread
        await served(scope, receive, send)

    server.application = share_time(serve)

    async def evening():
        await server.get(scope())
        server.seconds = 0.0
        ended = time.monotonic()
        await server.get(scope())
        return time.monotonic() - ended

    assert run_async(evening()) < 1.0  # charged 0.3 s, it would have waited 2 s


def test_the_processor_time_noted_is_the_threads_own_not_the_clock():
    spent: list[float] = []

    def django(environ, start_response):
        time.sleep(0.2)  # waiting, as for the processor or the database: no processor time
        sum(range(200_000))  # its own work
        start_response("200 OK", [])
        return [b"page"]

    environ = {"asgi.scope": {SPENT: spent}}
    assert noting_cpu(django)(environ, lambda status, headers, exc_info=None: None) == [b"page"]
    assert len(spent) == 1 and 0 < spent[0] < 0.15
