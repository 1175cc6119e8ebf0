"""Error pages in the app's look and the reader's language, and a trace of every failure.

Every request gets a short id. A 500 page shows it with the time, and the log line of the
failure (with its traceback, on stderr: see LOGGING in the settings) carries the same id,
so what a player reads can be matched to what the server logged.
"""

from __future__ import annotations

import logging
import secrets

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.utils import timezone
from psycopg_pool import PoolTimeout

from scoring.referee.engine import GameError

PAGES = {404: "404.html", 500: "500.html"}
logger = logging.getLogger(__name__)


def page(request: HttpRequest, status: int) -> HttpResponse:
    context = {"request_id": getattr(request, "id", "-"), "when": timezone.now()}
    response = render(request, PAGES[status], context, status=status)
    response.app_page = True
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return page(request, 404)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A request that cannot be read (another charset than UTF-8, a broken body, too many
    fields), or too large (413). Unlike Django's own view this one does not check the CSRF
    token: that reads the body again, which raised once more (a 500)."""
    status = 413 if isinstance(exception, RequestDataTooBig) else 400
    response = render(request, "400.html", {"status": status}, status=status)
    response.app_page = True
    return response


def too_many_requests(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A client past a rate limit (scoring/guards/limits.py): nothing was stored."""
    response = render(request, "429.html", status=429)
    response["Retry-After"] = "60"
    response.app_page = True
    return response


def is_busy(exception: Exception) -> bool:
    """The database could not be reached in time because of the load, not a fault: no
    connection free in the pool (PostgreSQL), or the write lock held past the wait (SQLite)."""
    if not isinstance(exception, OperationalError):
        return False
    return isinstance(exception.__cause__, PoolTimeout) or "database is locked" in str(exception)


def is_unavailable(exception: Exception) -> bool:
    """The database did not answer: too busy (``is_busy``), or down (its connections dropped,
    its server stopped, its disk full or failing). Not the request's fault: 503."""
    return isinstance(exception, (OperationalError, InterfaceError))


def busy(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The server's answer when too many phones ask at once, or the database is down: 503,
    try again shortly. The request's transaction (a save) was rolled back whole. Load is
    logged in a line; any other failure of the database with its traceback (on SQLite, a
    table missing after a forgotten migrate fails the same way as a full disk)."""
    load = is_busy(exception)
    if load:
        logger.warning("Database busy, answered 503: %s", exception, extra={"request": request})
    else:
        logger.error(
            "Database unavailable, answered 503: %s",
            exception,
            exc_info=exception,
            extra={"request": request},
        )
    response = render(request, "503.html", {"busy": load}, status=503)
    response["Retry-After"] = "5"
    response.app_page = True
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    try:
        return page(request, 500)
    except Exception:  # the page itself cannot be drawn: say the essential in plain text
        logger.exception("The 500 page failed", extra={"request": request})
        reference = getattr(request, "id", "-")
        return HttpResponseServerError(
            f"Server error. Reference: {reference}", content_type="text/plain; charset=utf-8"
        )


class ErrorPages:
    """Gives each request its id; with DEBUG on, shows the app's 404 and 500 pages in place
    of Django's debug pages too (the traceback is still logged). With DEBUG off, Django
    calls ``not_found`` and ``server_error`` itself (handler404, handler500)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.id = secrets.token_hex(4)
        response = self.get_response(request)
        if (
            settings.DEBUG
            and response.status_code in PAGES
            and not getattr(response, "app_page", False)
            and not getattr(response, "streaming", False)
        ):
            return page(request, response.status_code)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception):
        """A stored game the referee now refuses (stored under older rules): say why, with the
        way to keep its rounds, instead of a bare 500. A database too busy or down: 503."""
        if is_unavailable(exception):
            return busy(request, exception)
        if not isinstance(exception, GameError):
            return None
        logger.error("A stored game no longer scores: %s", exception, extra={"request": request})
        context = {"request_id": getattr(request, "id", "-"), "when": timezone.now()}
        context["problem"] = exception  # said by the template's `explain`
        response = render(request, "500.html", context, status=409)
        response.app_page = True
        return response


class RequestId(logging.Filter):
    """Puts the id of the request a log record is about into the record (``-`` if none)."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        record.request_id = getattr(request, "id", "-")
        return True
