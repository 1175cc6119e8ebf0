"""What the games' rows (``PlayerResult``, written with each game) say, read by the database:
a list's line for each game (the home page, a table's evenings), and each player's
standings summed over a set of rows (the statistics, a table's page)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.db.models import Count, Max, Min, Q, QuerySet, Sum, Window
from django.db.models.functions import FirstValue

from scoring.referee import story
from scoring.store.models import Game, PlayerResult, Round


@dataclass(frozen=True)
class GameLine:
    """What a list of games says of one (the home page, a table's evenings): its rounds,
    whether it is finished and who won it, or who leads it (the lowest total of the players
    still in, the first in seat order of those tied)."""

    rounds: int
    finished: bool = False
    winners: tuple[str, ...] = ()
    leader: str | None = None
    leader_total: Fraction | None = None

    @classmethod
    def of_rows(cls, rounds: int, rows: list[PlayerResult]) -> GameLine:
        """From the game's rows in seat order (none: a game not yet scored, without a round)."""
        if not rows:
            return cls(rounds)
        leader = min([row for row in rows if row.in_game] or rows, key=lambda row: row.total)
        return cls(
            rounds,
            rows[0].finished,
            tuple(row.player for row in rows if row.won),
            leader.player,
            Fraction(leader.total),
        )

    @classmethod
    def of_summary(cls, summary: story.GameSummary) -> GameLine:
        totals = summary.totals
        leader = min(summary.in_game or summary.players, key=lambda p: totals[p])
        return cls(summary.rounds, summary.finished, summary.winners, leader, totals[leader])


def game_lines(games: list[Game]) -> dict[int, GameLine]:
    """The line of each of ``games`` by its id, from their rows, read in one query (and
    their live rounds counted in another, for those listed without ``with_round_counts``)."""
    uncounted = [game for game in games if "round_count" not in game.__dict__]
    if uncounted:
        live = Round.objects.live().filter(game__in=uncounted).values("game")
        counts = dict(live.annotate(count=Count("pk")).values_list("game", "count"))
        for game in uncounted:
            game.round_count = counts.get(game.pk, 0)
    rows: dict[int, list[PlayerResult]] = {game.pk: [] for game in games}
    found = PlayerResult.objects.filter(game__in=list(rows)).order_by("game_id", "seat")
    for row in found.only("game_id", "player", "rounds", "finished", "won", "in_game", "total"):
        rows[row.game_id].append(row)
    lines = {}
    for game in games:
        mine, count = rows[game.pk], game.live_count()
        if (mine[0].rounds if mine else 0) == count:
            lines[game.pk] = GameLine.of_rows(count, mine)
        else:
            # Rounds written around the game's own writes (a shell, a test): its summary,
            # scored when read (``Game.stored_summary``), tells the truth meanwhile.
            lines[game.pk] = GameLine.of_summary(game.stored_summary())
    return lines


# Each player's figures as ``story.player_stats`` counts them, summed by the database over
# the rows of games with a round (a game not started yet says nothing of anyone); ``won`` is
# only ever true in a finished game.
FIGURES = {
    "games": Count("pk", filter=Q(finished=True)),
    "won": Count("pk", filter=Q(won=True)),
    "calls": Sum("calls"),
    "calls_succeeded": Sum("calls_succeeded"),
    "hands": Sum("hands"),
    "hand_points": Sum("hand_points"),
    "best": Min("best"),
    "worst": Max("worst"),
}


def fraction(value: Decimal | None) -> Fraction | None:
    return None if value is None else Fraction(value)


def player_standings(
    rows: QuerySet[PlayerResult], newest: list[str], *, by_variant: bool = True
) -> dict[str, list[story.PlayerStats]]:
    """Each player's statistics over ``rows``, as ``story.player_stats`` counts them: per
    variant (``by_variant``; else over all, under the key ``""``), a player being a name
    ignoring case, shown as in the first game that has it in the order ``newest`` (the
    fields of a row that order games); most wins first, then most games, then by name."""
    counted = rows.filter(rounds__gt=0)
    keys = ["game__variant", "folded"] if by_variant else ["folded"]
    # Each player's name in one pass over the rows (a subquery in the grouped query would
    # be run again for every row it groups).
    first = Window(FirstValue("player"), partition_by=keys, order_by=[*newest, "seat"])
    names = {
        tuple(found): name
        for *found, name in counted.annotate(first=first)
        .values_list(*keys, "first")
        .order_by()
        .distinct()
    }
    standings: dict[str, list[story.PlayerStats]] = {}
    for found in counted.values(*keys).annotate(**FIGURES).order_by():
        standings.setdefault(found.get("game__variant", ""), []).append(
            story.PlayerStats(
                names[tuple(found[key] for key in keys)],
                games=found["games"],
                won=found["won"],
                calls=found["calls"],
                calls_succeeded=found["calls_succeeded"],
                hands=found["hands"],
                hand_points=Fraction(found["hand_points"]),
                best=fraction(found["best"]),
                worst=fraction(found["worst"]),
            )
        )
    for players in standings.values():
        players.sort(key=lambda s: (-s.won, -s.games, s.name.casefold(), s.name))
    return standings
