"""The games of this device: their edit keys in its session (a signed cookie), newest first.

Earlier versions kept the list in a plain cookie (``tamalou_games``), which anybody able to
set a cookie for the site could fill with keys of their choice: it is no longer read.
"""

from __future__ import annotations

from django.http import HttpRequest

MAX_GAMES = 60


def device_games(request: HttpRequest) -> list[str]:
    return list(request.session.get("games", []))


def remember(request: HttpRequest, edit_key: str) -> None:
    """Put the game first in this device's list, if it is not already."""
    games = device_games(request)
    if games[:1] != [edit_key]:
        request.session["games"] = [edit_key, *(k for k in games if k != edit_key)][:MAX_GAMES]
