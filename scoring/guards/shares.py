"""Each client's share of a server process's time, under ASGI (``make run``, ``make serve``).

A flood of ordinary requests (pages, posts, a heavy game's file and CSV, each 4–28 ms of a
worker) from a few clients took the phones' p95 to ×3.84 (4 clients) and ×6.08 (6 clients) of
their quiet p95 on SQLite (``make probe``'s amplify and export attacks; with the share, ×1.24
and ×1.52): every request is one a phone may send, so none can be refused for what it
asks; what a client may take is its share. No server or library here has a limit of its own
per client (nginx's ``limit_req`` in front does it by counting requests: docs/deployment.md).

Each client (its address, an IPv6 /64: ``limits.client_group``) is served one request at a time
per process, and is charged the processor time its request's thread took until its answer
started (``noting_cpu`` around Django: not the reading of its body, which ``bodies.limit_bodies``
in front has done, nor the sending of its answer, nor the time it waited for the processor
while others ran: charged the wall time, every phone paid for the others when the machine was
busy, and with the test suite running beside the server a phone tapping a round every 1.5 s
waited over 5 s for its third save). Its account fills up again by ``CLIENT_SHARE`` of a
second each second, up to ``CLIENT_BURST`` seconds: a request that finds it overdrawn waits
(on the event loop, holding no thread) until it is paid back, never longer than
``CLIENT_WAIT`` seconds once its turn has come. A client with ``CLIENT_QUEUE`` requests here
already is answered 429 with Retry-After at once.

A table's evening takes well under 1 % of a process's time (``make bench``: some 35–60 ms a
round, a round a minute or more; the phones of a table often share one public address), and
eight phones opening a sheet at once some 0.2 s: within the share and the burst. The live
streams (``scoring/live``, which have their own counts) are not counted; static files are, at
the little time whitenoise takes to send one.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from dataclasses import dataclass, field

from django.conf import settings

from scoring.guards.limits import address_of, group_of
from scoring.live.stream import answer

log = logging.getLogger(__name__)

SPENT = "tamalou.cpu"  # in a request's scope: the processor time its thread took, once known


@dataclass
class Account:
    """A client's time in this process, in seconds."""

    balance: float  # what it may still take at once; below 0, what it must wait to pay back
    at: float  # when the balance was brought up to date (time.monotonic())
    queued: int = 0  # its requests here, served or waiting
    turn: asyncio.Lock = field(default_factory=asyncio.Lock)  # one of them served at a time

    def wait(self, now: float) -> float:
        """The seconds until the balance is paid back (0: it is not overdrawn)."""
        share = settings.CLIENT_SHARE
        self.balance = min(settings.CLIENT_BURST, self.balance + (now - self.at) * share)
        self.at = now
        return max(0.0, -self.balance / share)

    def idle(self, now: float) -> bool:
        return not self.queued and self.wait(now) == 0 and self.balance == settings.CLIENT_BURST


def share_time(application):
    """The ASGI ``application`` behind each client's share of this process's time."""
    accounts: dict[str, Account] = {}
    most = 10_000  # accounts kept before those that owe nothing and wait for nothing go

    def account_of(client: str, now: float) -> Account:
        nonlocal most
        if len(accounts) > most:
            for gone in [key for key, account in accounts.items() if account.idle(now)]:
                del accounts[gone]
            most = max(10_000, 2 * len(accounts))  # not again at every request
        if client not in accounts:
            accounts[client] = Account(balance=settings.CLIENT_BURST, at=now)
        return accounts[client]

    async def shared(scope, receive, send) -> None:
        client = client_of(scope) if scope["type"] == "http" else None
        if client is None or not settings.CLIENT_SHARE > 0:
            await application(scope, receive, send)
            return
        now = time.monotonic()
        account = account_of(client, now)
        if account.queued >= settings.CLIENT_QUEUE:
            await refused(send, account.wait(now))
            return
        account.queued += 1
        try:
            await account.turn.acquire()
            started: float | None = None  # when the request went to the application
            held = True  # its client's turn
            spent: list[float] = []  # filled by noting_cpu in the request's thread

            def charge() -> None:
                """Once the answer starts (or the request ends without one): the client is
                charged the time its request took, and its next request may go."""
                nonlocal held
                if held:
                    held = False
                    if started is not None:  # no wait past CLIENT_WAIT, however costly
                        now = time.monotonic()
                        account.wait(now)  # filled up to now, then charged
                        floor = -settings.CLIENT_SHARE * max(0.0, settings.CLIENT_WAIT)
                        took = spent[0] if spent else now - started  # else its wall time
                        account.balance = max(floor, account.balance - took)
                    account.turn.release()

            async def send_charged(message) -> None:
                if message["type"] == "http.response.start":
                    charge()
                await send(message)

            try:
                await asyncio.sleep(account.wait(time.monotonic()))
                started = time.monotonic()
                await application({**scope, SPENT: spent}, receive, send_charged)
            finally:
                charge()
        finally:
            account.queued -= 1

    return shared


def noting_cpu(wsgi_application):
    """The WSGI ``wsgi_application`` (Django, on a2wsgi's threads, which give it the ASGI
    scope as ``environ["asgi.scope"]``) noting in the scope the processor time its thread
    took until it started its answer: what ``share_time`` charges."""

    def application(environ, start_response):
        started = time.thread_time()
        spent = environ.get("asgi.scope", {}).get(SPENT)

        def start_noted(status, headers, exc_info=None):
            if spent is not None and not spent:
                spent.append(time.thread_time() - started)
            return start_response(status, headers, exc_info)

        return wsgi_application(environ, start_noted)

    return application


def client_of(scope) -> str | None:
    """The client of an ASGI request as ``limits.client_group`` counts it (read from the
    scope: a Django request made here could fail on what Django refuses later, with a 400);
    None when the request says no address at all (a Unix socket with no proxy header): such
    clients are not told apart, so none is counted."""
    header = settings.RATELIMIT_CLIENT_HEADER  # e.g. HTTP_X_FORWARDED_FOR
    name = header.removeprefix("HTTP_").replace("_", "-").lower().encode()
    headers = scope.get("headers", ())
    given = b",".join(v for n, v in headers if header and n.lower() == name)
    if not header and not warned and any(n.lower() == b"x-forwarded-for" for n, _ in headers):
        warn_of_proxy()
    address = address_of(given.decode("latin-1"), (scope.get("client") or ("",))[0])
    return None if address == "0.0.0.0" else group_of(address)


warned = False


def warn_of_proxy() -> None:
    """Said once per process: behind a proxy that is not named, every phone is one client."""
    global warned
    warned = True
    log.warning(
        "A request came through a proxy (X-Forwarded-For) but RATELIMIT_CLIENT_HEADER is not"
        " set: every phone counts as the proxy, one client with one share of the server's"
        " time. Set RATELIMIT_CLIENT_HEADER=HTTP_X_FORWARDED_FOR (docs/deployment.md)."
    )


async def refused(send, wait: float) -> None:
    """429: this client has taken its share for now. (In a line of text, in both languages:
    rendering the app's page would take a request thread, which is what the client has had.)"""
    text = (
        "Trop de demandes de votre part : réessayez dans un moment.\n"
        "Too many requests from you: try again in a moment.\n"
    )
    retry = str(max(1, math.ceil(wait))).encode()
    await answer(send, 429, text.encode(), [(b"retry-after", retry)])
