"""What the home page and the statistics show of this phone's games: each game's line, and
the players' figures summed by the database over the games' rows."""

from __future__ import annotations

from fractions import Fraction

from django.db.models import Count, Q
from django.http import HttpRequest

from scoring.referee import engine, story
from scoring.referee.tambouille import Tambouille
from scoring.referee.variants import VARIANTS
from scoring.store.models import Game, PlayerResult
from scoring.store.results import game_lines, player_standings
from scoring.web.device import device_games, followed_games


def game_summaries(request: HttpRequest) -> list[dict]:
    """The games of this device for its home page: games in progress first, then the most
    recently changed, each with its leader."""
    return summaries_of(Game.objects.filter(edit_key__in=device_games(request)))


def followed_summaries(request: HttpRequest) -> list[dict]:
    """The games this device follows by their read-only link (those it has by their edit link
    are listed with its own), in the same order."""
    games = Game.objects.filter(share_key__in=followed_games(request))
    return summaries_of(games.exclude(edit_key__in=device_games(request)))


def summaries_of(games) -> list[dict]:
    games = list(with_round_counts(games.defer("summary")))
    lines = game_lines(games)
    summaries = []
    for game in games:
        line = lines[game.pk]
        summaries.append(
            {
                "game": game,
                "summary": line,
                "variant": engine.GAMES[game.variant],
                "leader": line.leader,
                "leader_total": line.leader_total,
            }
        )
    summaries.sort(key=lambda s: (s["summary"].finished, -s["game"].updated_at.timestamp()))
    return summaries


def with_round_counts(games):
    """Games with the count of their live rounds (``round_count``, which ``Game.live_count``
    reads), in the same query: how a game's rows are known to be the game's own, without a
    query a game."""
    return games.annotate(round_count=Count("rounds", filter=Q(rounds__deleted_at__isnull=True)))


def scored_games(request: HttpRequest):
    """This device's games whose points count (a match sheet has no points nor calls)."""
    games = Game.objects.filter(edit_key__in=device_games(request))
    return games.exclude(variant=Tambouille.key)


def game_records(request: HttpRequest) -> list[story.GameRecord]:
    """The scored games of this device, newest first, each with its outcome as its rows say
    (``ref``: the game)."""
    games = list(scored_games(request).defer("settings", "summary"))
    rows: dict[int, list[PlayerResult]] = {game.pk: [] for game in games}
    found = PlayerResult.objects.filter(game__in=list(rows)).order_by("game_id", "seat")
    for row in found.only("game_id", "player", "total", "finished", "won"):
        rows[row.game_id].append(row)
    records = []
    for game in games:
        mine = rows[game.pk]
        outcome = story.GameOutcome(
            players=tuple(row.player for row in mine),
            totals={row.player: Fraction(row.total) for row in mine},
            finished=any(row.finished for row in mine),
            winners=tuple(row.player for row in mine if row.won),
        )
        records.append(story.GameRecord(game.variant, outcome, game.created_at, game))
    return records


def stats_context(records: list[story.GameRecord]) -> dict:
    """What the statistics page shows of the games of ``records`` (``game_records``): each
    player's figures summed by the database over their rows, and their finished games of
    the same players."""
    results = PlayerResult.objects.filter(game__in=[record.ref.pk for record in records])
    # Names as first met in the games as listed: the most recently changed first.
    by_variant = player_standings(results, ["-game__updated_at", "-game_id"])
    return {
        "games": len(records),
        "finished": sum(record.summary.finished for record in records),
        "variants": [
            (VARIANTS[key], rows) for key in VARIANTS if (rows := by_variant.get(key)) is not None
        ],
        "tables": story.same_tables(records),
    }
