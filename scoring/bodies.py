"""Request bodies under ASGI (``make run``, ``make serve``): none longer than
MAX_REQUEST_BYTES is read.

Django's ASGI handler reads a request's whole body (into a temporary file past 2.5 MB) before
any middleware sees the request, so ``encoding.Utf8Bodies``'s 413 came only once a 1.5 GB body
had been read to the disk, and a body that never came as long as its Content-Length said held
the request open. ``limit_bodies`` stands in front: a Content-Length over the limit goes to
Django with no body at all (Utf8Bodies answers 413 from that length, the body left unread);
a body without one (chunked) is read up to the limit, and past it goes the same way, with
the length read so far. A body within the limit reaches Django as it came.
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
    """A Content-Length past ``limit``, read as Utf8Bodies reads it (one that is not a number
    the server itself refuses)."""
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
            await application(scope, unread(), send)
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: nothing to answer
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > limit:  # said nothing of its length, or sends more than it said
                await application(refused(scope, size), unread(), send)
                return
            if not message.get("more_body", False):
                break
        await application(scope, replayed(b"".join(chunks), receive), send)

    return limited


def refused(scope, size: int) -> dict:
    """``scope`` saying the body's length as read so far: past the limit, which Django's
    middleware refuses (413) without reading any body."""
    headers = [(n, v) for n, v in scope["headers"] if n.lower() != b"content-length"]
    return {**scope, "headers": [*headers, (b"content-length", str(size).encode())]}


def unread():
    """A ``receive`` that gives the application an empty body, then nothing: the server would
    go on with the body left unread, which Django takes for a broken server. Django stops
    waiting once its answer (413, at once) is sent; the server then closes the connection."""
    given = False

    async def body_left_unread():
        nonlocal given
        if not given:
            given = True
            return EMPTY
        await asyncio.Event().wait()  # never set: cancelled when the answer is sent

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
