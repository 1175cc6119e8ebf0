"""The live stream of a sheet's link (Server-Sent Events), ``scoring.live.push``'s HTTP side.

Served on the event loop, beside Django rather than through it (``with_streams`` wraps the
ASGI application): Django runs each request's synchronous middleware in a thread of the
request's own, which a stream would hold, with a database connection, for as long as the
phone follows the game (PostgreSQL admits 100 connections). Here a stream costs no thread
and no connection: it reads the database twice, on a few shared threads (whose connections
are kept as a request thread's are). It says the phone's language (its cookie, else the
phone's) as Django would.
"""

from __future__ import annotations

import asyncio
import io
import re

from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language_from_request, override
from django.views.decorators.http import require_safe

from scoring.games.models import KEY_PATTERN, Game
from scoring.guards.errors import is_busy
from scoring.guards.limits import client_group
from scoring.live import push
from scoring.pages.http import etag_of

STREAM_PATH = re.compile(rf"^/(?P<link>[gs])/(?P<key>{KEY_PATTERN})/stream/\Z")
LINKS = {"g": "edit", "s": "share"}
HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"private, no-cache"),
    (b"x-accel-buffering", b"no"),  # nginx: pass each event on at once
    (b"x-content-type-options", b"nosniff"),
]


def with_streams(django_application):
    """The ASGI application: a sheet's ``…/stream/`` served here, everything else by Django."""

    async def application(scope, receive, send) -> None:
        if scope["type"] == "http":
            found = STREAM_PATH.match(scope["path"])
            if found is not None:
                await serve(scope, receive, send, LINKS[found["link"]], found["key"])
                return
        await django_application(scope, receive, send)

    return application


async def version_by_key(link: str, key: str) -> tuple[int, str, str] | None:
    return await push.read_database(Game.objects.version_by_key, link, key)


async def answer(send, status: int, text: bytes = b"", headers: list | None = None) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), *(headers or [])],
        }
    )
    await send({"type": "http.response.body", "body": text})


async def serve(scope, receive, send, link: str, key: str) -> None:
    """The ETags of the game's live part (``link``'s): the one now, then each new one, until
    the phone goes."""
    if scope["method"] not in ("GET", "HEAD"):
        await answer(send, 405, b"Method not allowed", [(b"allow", b"GET, HEAD")])
        return
    request = ASGIRequest(scope, io.BytesIO())
    try:
        request.get_host()  # Django's check of the Host (ALLOWED_HOSTS): served before Django
    except DisallowedHost:
        await answer(send, 400, b"Bad Request")
        return
    try:
        found = await version_by_key(link, key)
    except OperationalError as error:
        if not is_busy(error):
            raise
        # no database connection free in time: the phone polls meanwhile, as without streams
        await answer(send, 503, b"Busy: try again shortly", [(b"retry-after", b"5")])
        return
    if found is None:
        await answer(send, 404, b"Not found")
        return
    client = client_group(request)  # an IPv6 client by its /64, as the rate limits count
    language = get_language_from_request(request)
    game_id, edit_key, state = found
    if not push.hub.admit(client):  # the phone polls meanwhile
        if push.hub.full():  # this process follows as many streams as it may
            await answer(send, 503, b"Busy: try again shortly", [(b"retry-after", b"60")])
        else:
            await answer(send, 429, b"Too many streams", [(b"retry-after", b"60")])
        return
    try:
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        if scope["method"] == "HEAD":
            await send({"type": "http.response.body", "body": b""})
            push.hub.release(client)
            return
        await push.listening()
    except BaseException:
        push.hub.release(client)
        raise
    watch = push.hub.watch(game_id)
    watch.tell(None)  # read the state once more now that no change can pass unheard

    def etag(state: str) -> str:
        with override(language):
            return etag_of(Game.version_of(edit_key, state), link)

    async def state_now() -> str | None:
        row = await version_by_key(link, key)
        return row[2] if row else None

    events = push.events(watch, etag, state_now, client, state)
    first = await anext(events)  # begun: closing it gives the stream's place and watch back

    async def pump() -> None:
        await send({"type": "http.response.body", "body": first, "more_body": True})
        async for chunk in events:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})

    async def gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    tasks = [asyncio.ensure_future(pump()), asyncio.ensure_future(gone())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await events.aclose()  # the stream's place and watch given back


@require_safe
def no_stream(request: HttpRequest, key: str) -> HttpResponse:
    """Either link's stream where no ASGI server serves it (``with_streams``): a WSGI server
    would read an endless stream whole before sending anything. 204 tells the browser not to
    try again, and the phone keeps polling."""
    return HttpResponse(status=204)
