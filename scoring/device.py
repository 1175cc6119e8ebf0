"""The games of this device: their edit keys in its session (a signed cookie), newest first,
and what the home page and the statistics show of them.

Earlier versions kept the list in a plain cookie (``tamalou_games``), which anybody able to
set a cookie for the site could fill with keys of their choice: it is no longer read.
"""

from __future__ import annotations

from django.db.models import Count, Q
from django.http import HttpRequest

from scoring.models import Game
from scoring.referee import engine, story
from scoring.referee.tambouille import Tambouille
from scoring.referee.variants import VARIANTS

MAX_GAMES = 60


def device_games(request: HttpRequest) -> list[str]:
    return list(request.session.get("games", []))


def remember(request: HttpRequest, edit_key: str) -> None:
    """Put the game first in this device's list, if it is not already."""
    games = device_games(request)
    if games[:1] != [edit_key]:
        request.session["games"] = [edit_key, *(k for k in games if k != edit_key)][:MAX_GAMES]


def game_summaries(request: HttpRequest) -> list[dict]:
    """The games of this device for its home page: games in progress first, then the most
    recently changed, each with its leader."""
    summaries = []
    for game in with_round_counts(Game.objects.filter(edit_key__in=device_games(request))):
        summary = game.stored_summary(game.round_count)
        leader = min(summary.in_game or summary.players, key=lambda p: summary.totals[p])
        summaries.append(
            {
                "game": game,
                "summary": summary,
                "variant": engine.GAMES[game.variant],
                "leader": leader,
                "leader_total": summary.totals[leader],
            }
        )
    summaries.sort(key=lambda s: (s["summary"].finished, -s["game"].updated_at.timestamp()))
    return summaries


def with_round_counts(games):
    """Games with the count of their live rounds (``round_count``), in the same query: how a
    stored summary is known to be the game's own."""
    return games.annotate(round_count=Count("rounds", filter=Q(rounds__deleted_at__isnull=True)))


def game_records(request: HttpRequest) -> list[story.GameRecord]:
    """The scored games of this device (a match sheet has no points nor calls to count)."""
    games = Game.objects.filter(edit_key__in=device_games(request)).exclude(variant=Tambouille.key)
    return [
        story.GameRecord(game.variant, game.stored_summary(game.round_count), game.created_at, game)
        for game in with_round_counts(games)
    ]


def stats_context(records: list[story.GameRecord]) -> dict:
    """What the statistics page shows of ``records``."""
    by_variant = story.player_stats(records)
    return {
        "games": len(records),
        "finished": sum(record.summary.finished for record in records),
        "variants": [
            (VARIANTS[key], rows) for key in VARIANTS if (rows := by_variant.get(key)) is not None
        ],
        "tables": story.same_tables(records),
    }
