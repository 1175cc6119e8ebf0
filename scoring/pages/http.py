"""The HTTP side of the views, in one place: conditional GET (ETag/304), the page cache,
compression and Cache-Control, applied to a view by ``sheet_cache`` (the sheet's pages) or
``private`` (what carries a key); and the request type views take (``HtmxHttpRequest``).

A sheet page is rendered once per state of the game and per kind of request (see
``page_key``), compressed once (``scoring.precompressed``), then given each request's own
CSRF token, which is all that differs between two phones looking at the same sheet. The
views themselves only say what the page shows (``scoring.pages.sheet``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import CSRF_TOKEN_LENGTH, get_token
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.vary import vary_on_cookie
from django_htmx.middleware import HtmxDetails

from scoring.caching import cache_key
from scoring.games.models import Game
from scoring.pages.device import remember
from scoring.precompressed import PrecompressedPage

# Stands for the CSRF token in a page rendered once and served to everyone.
CSRF_PLACEHOLDER = "csrf-token-of-this-request-4f1c9a"
PAGE_SECONDS = 86400


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it."""

    htmx: HtmxDetails


def private(view):
    """A page or file that carries an edit key (or a game's whole content, by either link):
    kept by no shared cache, checked again by the phone, and in the phone's language."""
    return vary_on_cookie(cache_control(private=True, no_cache=True)(view))


def etag_of(version: str, link: str) -> str:
    """Changes with every saved change to the game, and with how it is shown."""
    return '"' + cache_key("etag", version, get_language(), link)[5:25] + '"'


def page_key(request: HttpRequest, version: str, link: str) -> str:
    """Everything a cached sheet page (or its live part) depends on besides the CSRF token:
    the game as stored, the link it was reached by, the language, the scheme and host (the
    share link is absolute) and the path. Never the query string: a sheet shows nothing of it
    (its language switch goes back to the bare path), so ``?q=N`` is the same page, served
    from the same entry, and a stranger cannot grow the cache with it."""
    where = (request.scheme, request.get_host(), request.path)
    return cache_key("page", version, link, get_language(), *where)


def cacheable(request: HttpRequest, link: str, edit_key: str) -> bool:
    """Whether this request sees what every other one sees. Not so with something of its
    own to show (a message, an undo banner)."""
    if len(messages.get_messages(request)):
        return False
    if link == "edit" and settings.SESSION_COOKIE_NAME in request.COOKIES:
        undo = request.session.get("undo")
        return not (undo and undo.get("game") == edit_key)
    return True


def precompressed(request: HttpRequest, key: str, render: Callable[[], HttpResponse]):
    """The page kept under ``key`` (rendered by ``render`` when missing), with this
    request's CSRF token, gzipped when the phone accepts it. A page missing is rendered once
    however many ask for it at the same moment (every phone following a game asks for its
    live part as soon as a save is pushed): the others wait for it."""
    page = cache.get(key)
    if page is None:
        with one_at_a_time(key):
            page = cache.get(key)  # rendered meanwhile by the request this one waited for
            if page is None:
                response = render()
                if not isinstance(response, TemplateResponse) or response.status_code != 200:
                    return response
                context = {**response.context_data, "csrf_token": CSRF_PLACEHOLDER}
                html = render_to_string(response.template_name, context, request)
                page = PrecompressedPage.make(
                    without_indentation(html).encode(),
                    CSRF_PLACEHOLDER.encode(),
                    CSRF_TOKEN_LENGTH,
                )
                cache.set(key, page, PAGE_SECONDS)
    token = get_token(request).encode()
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(page.gzip(token))
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(page.plain(token))
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def without_indentation(html: str) -> str:
    """``html`` with each run of white space that holds a line break made one line break
    (the sheet has no <pre> or <textarea>): ``re.sub(r"\\s*\n\\s*", "\n", html)``, in a tenth
    of its time on a sheet (the pattern tried every space of the page)."""
    first, *rest = html.split("\n")
    if not rest:
        return html
    *middle, last = rest
    return "\n".join([first.rstrip(), *filter(None, map(str.strip, middle)), last.lstrip()])


RENDER_WAIT = 5  # seconds
_rendering: dict[str, threading.Lock] = {}  # the pages being rendered in this process
_rendering_guard = threading.Lock()


@contextmanager
def one_at_a_time(key: str) -> Iterator[None]:
    """Hold the lock of ``key`` in this process (requests are threads, under WSGI as under
    ASGI): who comes while a page is being rendered waits for it."""
    with _rendering_guard:
        lock = _rendering.setdefault(key, threading.Lock())
    # Not for ever: past RENDER_WAIT (a render stuck on the database), render without it.
    held = lock.acquire(timeout=RENDER_WAIT)
    try:
        yield
    finally:
        if held:
            lock.release()
        with _rendering_guard:
            if _rendering.get(key) is lock and not lock.locked():
                del _rendering[key]


def sheet_cache(link: str, *, live: bool = False, private: bool = False):
    """Serve a GET or HEAD of a sheet view (``view(request, key)``, reached by its ``link``,
    "edit" or "share") from the page cache; other methods go to the view. The view returns a
    ``TemplateResponse``. ``live``: the part other phones poll, answered 304 while its ETag
    holds. ``private``: the page carries the edit key (``Cache-Control: private, no-cache``).
    Opening an edit page puts the game first in the phone's list."""

    def decorator(view):
        @wraps(view)
        def cached_view(request: HttpRequest, key: str) -> HttpResponse:
            response = view(request, key) if request.method not in ("GET", "HEAD") else None
            if response is None:
                response = cached(request, key)
            if live or private:
                patch_cache_control(response, no_cache=True, private=True)
                patch_vary_headers(response, ("Cookie",))
            return response

        def cached(request: HttpRequest, key: str) -> HttpResponse:
            found = Game.objects.version_by_key(link, key)
            if found is None:
                raise Http404
            _, edit_key, state = found
            if link == "edit" and not live:
                remember(request, edit_key)
            version = Game.version_of(edit_key, state)
            etag = etag_of(version, link) if live else None
            if etag is not None and etag in request.headers.get("If-None-Match", ""):
                response = HttpResponse(status=304)
            elif cacheable(request, link, edit_key):
                key_ = page_key(request, version, link)
                response = precompressed(request, key_, lambda: view(request, key))
            else:
                response = view(request, key)
            if etag is not None:
                response["ETag"] = etag
            return response

        return cached_view

    return decorator
