"""The games of this device: their edit keys in its session, newest first, and what the home
page and the statistics show of them."""

from __future__ import annotations

import re

from django.http import HttpRequest

from scoring.models import KEY_PATTERN, Game
from scoring.referee import engine, story
from scoring.referee.tambouille import Tambouille
from scoring.referee.variants import VARIANTS

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


def forget(request: HttpRequest, edit_key: str) -> None:
    """Take the game off this device's list (and so its statistics); the game stays."""
    request.session["games"] = [k for k in device_games(request) if k != edit_key]


def game_summaries(request: HttpRequest) -> list[dict]:
    """The games of this device for its home page: games in progress first, then the most
    recently changed, each with its leader."""
    summaries = []
    for game in Game.objects.filter(edit_key__in=device_games(request)):
        sheet = game.score()
        leader = min(sheet.in_game or sheet.players, key=lambda p: sheet.totals[p])
        summaries.append(
            {
                "game": game,
                "sheet": sheet,
                "variant": engine.GAMES[game.variant],
                "leader": leader,
                "leader_total": sheet.totals[leader],
            }
        )
    summaries.sort(key=lambda s: (s["sheet"].finished, -s["game"].updated_at.timestamp()))
    return summaries


def game_records(request: HttpRequest) -> list[story.GameRecord]:
    """The scored games of this device (a match sheet has no points nor calls to count)."""
    return [
        story.GameRecord(game.variant, game.score(), game.created_at, game)
        for game in Game.objects.filter(edit_key__in=device_games(request)).exclude(
            variant=Tambouille.key
        )
    ]


def stats_context(records: list[story.GameRecord]) -> dict:
    """What the statistics page shows of ``records``."""
    by_variant = story.player_stats(records)
    return {
        "games": len(records),
        "finished": sum(record.sheet.finished for record in records),
        "variants": [
            (VARIANTS[key], rows) for key in VARIANTS if (rows := by_variant.get(key)) is not None
        ],
        "tables": story.same_tables(records),
    }
