"""The HTTP side of the sheet's views, with Django's own tools: conditional GET of the live
part by the game's version (``condition``), Cache-Control and Vary for what carries a key
(``private``); and the request type views take (``HtmxHttpRequest``). Compression is
``GZipMiddleware``'s (settings.py).
"""

from __future__ import annotations

import hashlib

from django.http import HttpRequest
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition
from django.views.decorators.vary import vary_on_cookie
from django_htmx.middleware import HtmxDetails

from scoring.store.models import Game


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it."""

    htmx: HtmxDetails


def private(view):
    """A page or file that carries an edit key (or a game's whole content, by either link):
    kept by no shared cache, checked again by the phone, and in the phone's language."""
    return vary_on_cookie(cache_control(private=True, no_cache=True)(view))


def etag_of(version: str, link: str) -> str:
    """The ETag of a sheet's live part: it changes with every saved change to the game (its
    ``version``) and with how the part is shown (the link it is reached by, the language).
    The page writes it for its script, which sends it back as If-None-Match."""
    seed = f"{version}\x1f{link}\x1f{get_language()}"
    return '"' + hashlib.sha256(seed.encode()).hexdigest()[:20] + '"'


def live_etag(link: str):
    """``condition``'s ETag function for the live part reached by ``link``: one query, the
    game's version; None for a key that opens no game (the view answers 404)."""

    def etag(request: HttpRequest, key: str) -> str | None:
        found = Game.objects.version_by_key(link, key)
        return None if found is None else etag_of(Game.version_of(*found[1:]), link)

    return etag


def live_part(link: str):
    """A sheet's live part, polled by every phone that follows the game: 304 while the game
    is as the phone shows it, never kept by a shared cache."""

    def decorator(view):
        return private(condition(etag_func=live_etag(link))(view))

    return decorator
