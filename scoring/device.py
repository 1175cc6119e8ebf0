"""The games of this device: a plain cookie listing their edit keys, newest first.

Not a signed session: it only holds keys the device already has (whoever holds a key can open
the game anyway), and reading a plain cookie costs nothing on every view of a sheet."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

COOKIE = "tamalou_games"
MAX_GAMES = 60


def device_games(request: HttpRequest) -> list[str]:
    if not hasattr(request, "_device_games"):
        raw = request.COOKIES.get(COOKIE, "")
        request._device_games = [key for key in raw.split(".") if key][:MAX_GAMES]
    return request._device_games


def remember(request: HttpRequest, edit_key: str) -> None:
    """Put the game first in this device's list, if it is not already."""
    games = device_games(request)
    if games[:1] != [edit_key]:
        request._device_games = [edit_key, *(k for k in games if k != edit_key)][:MAX_GAMES]
        request._device_games_changed = True


class DeviceGamesMiddleware:
    """Sends the device's list back when a view changed it."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if getattr(request, "_device_games_changed", False):
            response.set_cookie(
                COOKIE,
                ".".join(request._device_games),
                max_age=settings.SESSION_COOKIE_AGE,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
