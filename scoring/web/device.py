"""What this device keeps in its session (a signed cookie), newest first: the edit keys of its
games, and what the home page and the statistics show of them; the share keys of the games
it follows by their read-only link; the keys of its saved house rules.

Earlier versions kept the list in a plain cookie (``tamalou_games``), which anybody able to
set a cookie for the site could fill with keys of their choice: it is no longer read.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.db.models import Count, Max, Min, Q, QuerySet, Sum, Window
from django.db.models.functions import FirstValue
from django.http import HttpRequest

from scoring.games.models import Game, PlayerResult, Round, Table
from scoring.referee import engine, story
from scoring.referee.tambouille import Tambouille
from scoring.referee.variants import VARIANTS

# How many keys each list keeps, newest first. The session is a signed cookie, which a browser
# keeps only up to 4,096 bytes: with every list full it is some 3.6 KB (tests/web/test_home.py).
MAX_GAMES = 50
MAX_FOLLOWED = 30
MAX_RULE_SETS = 20
MAX_TABLES = 10


def device_games(request: HttpRequest) -> list[str]:
    return list(request.session.get("games", []))


def known_names(request: HttpRequest, most: int = 40) -> list[str]:
    """The names of the players of this device's tables and games, offered as a new game's
    names are typed: its tables' first, then its most recently changed games', each name
    once."""
    games = Game.objects.filter(edit_key__in=device_games(request)).order_by("-updated_at")
    tables = Table.objects.filter(edit_key__in=device_tables(request))
    names: dict[str, None] = {}
    for players in [
        *tables.values_list("players", flat=True),
        *games.values_list("players", flat=True),
    ]:
        names.update(dict.fromkeys(players))
    return list(names)[:most]


def put_first(request: HttpRequest, name: str, kept: list[str], key: str, most: int) -> None:
    """Put ``key`` first in the device's list ``name`` (now ``kept``), if it is not already."""
    if kept[:1] != [key]:
        request.session[name] = [key, *(k for k in kept if k != key)][:most]


def remember(request: HttpRequest, edit_key: str) -> None:
    """Put the game first in this device's list, if it is not already."""
    put_first(request, "games", device_games(request), edit_key, MAX_GAMES)


def device_rule_sets(request: HttpRequest) -> list[str]:
    return list(request.session.get("rule_sets", []))


def remember_rule_set(request: HttpRequest, key: str, *, own: bool = False) -> None:
    """Put the house rules first in this device's list, if they are not already; ``own``: this
    phone saved them, and only it may change them (a shared link only reads them)."""
    put_first(request, "rule_sets", device_rule_sets(request), key, MAX_RULE_SETS)
    if own:
        owned = list(request.session.get("own_rule_sets", []))
        put_first(request, "own_rule_sets", owned, key, MAX_RULE_SETS)


def owns_rule_set(request: HttpRequest, key: str) -> bool:
    return key in request.session.get("own_rule_sets", [])


def forget(request: HttpRequest, edit_key: str) -> None:
    """Take the game off this device's list (and so its statistics); the game stays."""
    request.session["games"] = [k for k in device_games(request) if k != edit_key]


def followed_games(request: HttpRequest) -> list[str]:
    """The share keys of the games this device opened by their read-only link."""
    return list(request.session.get("followed", []))


def follow(request: HttpRequest, share_key: str) -> None:
    """Put the game this device opened by its read-only link first in its followed list."""
    put_first(request, "followed", followed_games(request), share_key, MAX_FOLLOWED)


def unfollow(request: HttpRequest, share_key: str) -> None:
    request.session["followed"] = [k for k in followed_games(request) if k != share_key]


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


# --- statistics ------------------------------------------------------------------------------

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


# --- tables ---------------------------------------------------------------------------------


def device_tables(request: HttpRequest) -> list[str]:
    """The edit keys of the tables this device opened by their edit link."""
    return list(request.session.get("tables", []))


def followed_tables(request: HttpRequest) -> list[str]:
    """The read keys of the tables this device opened by their read-only link."""
    return list(request.session.get("followed_tables", []))


def remember_table(request: HttpRequest, edit_key: str) -> None:
    put_first(request, "tables", device_tables(request), edit_key, MAX_TABLES)


def follow_table(request: HttpRequest, read_key: str) -> None:
    put_first(request, "followed_tables", followed_tables(request), read_key, MAX_TABLES)


def forget_table(request: HttpRequest, table: Table) -> None:
    """Take the table off this device's lists (both links); the table stays."""
    request.session["tables"] = [k for k in device_tables(request) if k != table.edit_key]
    request.session["followed_tables"] = [
        k for k in followed_tables(request) if k != table.read_key
    ]


def phone_tables(request: HttpRequest) -> tuple[list[Table], list[Table]]:
    """This device's tables by their edit link, and those it follows by their read-only link
    only, most recently changed first."""
    own = list(Table.objects.filter(edit_key__in=device_tables(request)))
    read = Table.objects.filter(read_key__in=followed_tables(request))
    return own, list(read.exclude(pk__in=[table.pk for table in own]))
