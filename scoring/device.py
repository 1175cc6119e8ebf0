"""What this device keeps: the edit keys of its games and the keys of its house rules, in its
session, newest first."""

from __future__ import annotations

import re

from django.http import HttpRequest

MAX_GAMES = 60
MAX_RULE_SETS = 30
OLD_COOKIE = "tamalou_games"  # where earlier versions kept the list: dot-separated keys
KEY = re.compile(r"[A-Za-z0-9_-]{1,32}")


def device_games(request: HttpRequest) -> list[str]:
    if "games" not in request.session and OLD_COOKIE in request.COOKIES:
        kept = [k for k in request.COOKIES[OLD_COOKIE].split(".") if KEY.fullmatch(k)]
        request.session["games"] = kept[:MAX_GAMES]  # carried over once, nothing lost
    return list(request.session.get("games", []))


def put_first(request: HttpRequest, name: str, kept: list[str], key: str, most: int) -> None:
    """Put ``key`` first in the device's list ``name`` (now ``kept``), if it is not already."""
    if kept[:1] != [key]:
        request.session[name] = [key, *(k for k in kept if k != key)][:most]


def remember(request: HttpRequest, edit_key: str) -> None:
    """Put the game first in this device's list, if it is not already."""
    put_first(request, "games", device_games(request), edit_key, MAX_GAMES)


def device_rule_sets(request: HttpRequest) -> list[str]:
    return list(request.session.get("rule_sets", []))


def remember_rule_set(request: HttpRequest, key: str) -> None:
    """Put the house rules first in this device's list, if they are not already."""
    put_first(request, "rule_sets", device_rule_sets(request), key, MAX_RULE_SETS)
