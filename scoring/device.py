"""The games of this device: their edit keys in its session, newest first."""

from __future__ import annotations

import re

from django.http import HttpRequest

from scoring.models import KEY_PATTERN

MAX_GAMES = 60
OLD_COOKIE = "tamalou_games"  # where earlier versions kept the list: dot-separated keys
KEY = re.compile(KEY_PATTERN)


def device_games(request: HttpRequest) -> list[str]:
    if "games" not in request.session and OLD_COOKIE in request.COOKIES:
        kept = [k for k in request.COOKIES[OLD_COOKIE].split(".") if KEY.fullmatch(k)]
        request.session["games"] = kept[:MAX_GAMES]  # carried over once, nothing lost
    return list(request.session.get("games", []))


def remember(request: HttpRequest, edit_key: str) -> None:
    """Put the game first in this device's list, if it is not already."""
    games = device_games(request)
    if games[:1] != [edit_key]:
        request.session["games"] = [edit_key, *(k for k in games if k != edit_key)][:MAX_GAMES]
