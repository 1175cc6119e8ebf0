"""The games of this device: their edit keys in its session, newest first."""

from __future__ import annotations

import re

from django.http import HttpRequest

MAX_GAMES = 60
OLD_COOKIE = "tamalou_games"  # where earlier versions kept the list: dot-separated keys
KEY = re.compile(r"[A-Za-z0-9_-]{1,32}")


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


def forget(request: HttpRequest, edit_key: str) -> None:
    """Take the game off this device's list (and so its statistics); the game stays."""
    request.session["games"] = [k for k in device_games(request) if k != edit_key]
