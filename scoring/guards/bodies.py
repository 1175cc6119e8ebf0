"""Request bodies under ASGI (``make run``, ``make serve``): none longer than
MAX_REQUEST_BYTES is read.

Django's ASGI handler reads a request's whole body (into a temporary file past 2.5 MB) before
any middleware sees the request, so ``encoding.Utf8Bodies``'s 413 came only once a 1.5 GB body
had been read to the disk, and a body that never came as long as its Content-Length said held
the request open. ``limit_bodies`` stands in front: a Content-Length over the limit goes to
Django with no body at all (Utf8Bodies answers 413 from that length, and the answer closes
the connection, so the rest is not read either); a body without one (chunked) is read up to
the limit, and past it goes the same way, with the length read so far. A body within the
limit reaches Django as it came, a chunked one with its length said (Django limits a form's
fields, and reads a multipart body, by its Content-Length).

uvicorn waits for a body as long as its client keeps the connection: 300 posts promising 2 MB
and sending 10 bytes were all held after 45 s, and 200 stalled imports held 417 MB of a
worker's memory (issue #34). A body from which nothing comes for REQUEST_BODY_IDLE_SECONDS
is answered 408, and the connection closed.

The live streams (``scoring/live/stream.py``) stand in front of this: they read no body, and see
their phone go by what the server says after it.
"""

from __future__ import annotations

import asyncio

from django.conf import settings

EMPTY = {"type": "http.request", "body": b"", "more_body": False}


def declared_length(scope) -> str | None:
    """The Content-Length header as sent, or None."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            return value.decode("latin-1")
    return None


def too_large(length: str | None, limit: int) -> bool:
    """A Content-Length past ``limit`` (here, and in ``encoding.Utf8Bodies`` under either
    server; one that is not a number the server itself refuses)."""
    if length is None or not (length.isascii() and length.isdigit()):
        return False
    return len(length) > 15 or int(length) > limit


def limit_bodies(application):
    """The ASGI ``application`` behind a limit of MAX_REQUEST_BYTES per request body."""

    async def limited(scope, receive, send) -> None:
        if scope["type"] != "http":
            await application(scope, receive, send)
            return
        limit = settings.MAX_REQUEST_BYTES
        length = declared_length(scope)
        if too_large(length, limit):
            await application(scope, unread(), closing(send))
            return
        chunks, size = [], 0
        while True:
            try:
                message = await asyncio.wait_for(receive(), settings.REQUEST_BODY_IDLE_SECONDS)
            except TimeoutError:
                await timed_out(closing(send))
                return
            if message["type"] != "http.request":  # the client went away: nothing to answer
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > limit:  # said nothing of its length, or sends more than it said
                await application(with_length(scope, size), unread(), closing(send))
                return
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if length is None:  # chunked: Django reads (and limits) a body by its Content-Length
            scope = with_length(scope, len(body))
        await application(scope, replayed(body, receive), send)

    return limited


async def timed_out(send) -> None:
    """408: the body stopped coming. (Said in a line of text: the client is not reading.)"""
    text = b"Request Timeout: the rest of the request did not come."
    headers = [(b"content-type", b"text/plain; charset=utf-8")]
    await send({"type": "http.response.start", "status": 408, "headers": headers})
    await send({"type": "http.response.body", "body": text})


def with_length(scope, size: int) -> dict:
    """``scope`` saying ``size`` as the body's length: the length read (of a chunked body;
    past the limit, which Django's middleware refuses, 413, without reading any body)."""
    headers = [(n, v) for n, v in scope["headers"] if n.lower() != b"content-length"]
    return {**scope, "headers": [*headers, (b"content-length", str(size).encode())]}


def closing(send):
    """A ``send`` whose answer closes the connection (``Connection: close``): the server would
    otherwise read the rest of the refused body, however long, to keep the connection."""

    async def send_and_close(message) -> None:
        if message["type"] == "http.response.start":
            headers = [(n, v) for n, v in message.get("headers", []) if n.lower() != b"connection"]
            message = {**message, "headers": [*headers, (b"connection", b"close")]}
        await send(message)

    return send_and_close


def unread():
    """A ``receive`` that gives the application an empty body, then nothing: what is left of
    the body is never read (Django, which would take it for a broken server, stops waiting
    once its 413 is sent, and the answer closes the connection)."""
    given = False

    async def body_left_unread():
        nonlocal given
        if not given:
            given = True
            return EMPTY
        await asyncio.Event().wait()  # never set: cancelled once the answer is sent

    return body_left_unread


def replayed(body: bytes, receive):
    """A ``receive`` that gives the body read already, in one message, then what the server
    says next."""
    given = False

    async def body_read():
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return body_read
