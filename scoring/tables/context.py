"""What a table's page shows, summed by the database over its games' rows (``PlayerResult``,
which every change to a game writes: no game is scored, no game's summary read, and every
server shows the same): the standings over all and per variant (as ``story.player_stats``
counts them), two players face to face, the games by evening, the wins over time as a
chart, over a period.

A game is shown by its edit link only to a phone that already holds that link (its session's
games) and reaches the table by its edit link; otherwise by its read-only link. A table's key
never leads to a game's edit key."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from fractions import Fraction
from itertools import groupby

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery, Sum
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone

from scoring.referee import engine
from scoring.referee.tambouille import Tambouille
from scoring.referee.variants import VARIANTS
from scoring.rules.context import differences
from scoring.store.models import Game, PlayerResult, Table
from scoring.store.results import GameLine, game_lines, player_standings
from scoring.tables.forms import KeepTableForm, TableViewForm
from scoring.web.device import device_games, device_tables, followed_tables
from scoring.web.display import qr_svg

# The chart's lines take the score chart's eight colours (``.p0`` … ``.p7`` in app.css, each
# kept at 3:1 in both themes); the ninth player and later are dashed.
SEAT_COLOURS = 8
EVENINGS_SHOWN = 10  # the evenings the table's page lists unless asked for all
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 160, 24
CHART_POINTS = 60  # at most, on each line


def find_table(link: str, key: str) -> Table:
    """The table reached by its edit (``link="edit"``) or read key."""
    return get_object_or_404(Table, **{Table.column(link): key})


def period_start(period: str, now: datetime) -> datetime | None:
    """When the period began (in the site's time zone); None: everything."""
    now = timezone.localtime(now)
    if period == "month":
        return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    if period == "year":
        return now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    return None


@dataclass
class Listed:
    """A game of the table as its page lists it (``game.finished``: whether it is)."""

    game: Game
    own: bool  # by its edit link (this phone holds it)
    summary: GameLine | None = None  # its line, read for the evenings shown

    @property
    def href(self) -> str:
        """Its edit link if this phone holds it, else its read-only link."""
        if self.own:
            return reverse("edit", args=[self.game.edit_key])
        return reverse("share", args=[self.game.share_key])


@dataclass
class HeadToHead:
    a: str
    b: str
    together: int = 0  # finished games both played
    a_ahead: int = 0  # of those, a finished with the lower total
    b_ahead: int = 0
    a_won: int = 0  # games won (a win shared counts for each)
    b_won: int = 0
    a_points: Fraction = Fraction(0)  # totals over those games
    b_points: Fraction = Fraction(0)

    @property
    def level(self) -> int:
        return self.together - self.a_ahead - self.b_ahead


def head_to_head(rows: QuerySet[PlayerResult], a: str, b: str) -> HeadToHead:
    """``a`` against ``b`` over the finished games of ``rows`` both played (names ignoring
    case, and not the same): ``a``'s rows, each beside ``b``'s total and win in its game."""
    theirs = rows.filter(game=OuterRef("game"), folded=b.casefold())
    mine = (
        rows.filter(finished=True, folded=a.casefold())
        .annotate(
            their_total=Subquery(theirs.values("total")[:1]),
            they_won=Subquery(theirs.values("won")[:1]),
        )
        .filter(their_total__isnull=False)
    )
    found = mine.aggregate(
        together=Count("pk"),
        a_ahead=Count("pk", filter=Q(total__lt=F("their_total"))),
        b_ahead=Count("pk", filter=Q(total__gt=F("their_total"))),
        a_won=Count("pk", filter=Q(won=True)),
        b_won=Count("pk", filter=Q(they_won=True)),
        a_points=Sum("total"),
        b_points=Sum("their_total"),
    )
    points = {key: Fraction(found[key] or 0) for key in ("a_points", "b_points")}
    return HeadToHead(a, b, **{**found, **points})


def wins_chart(finished: list[Game], rows: QuerySet[PlayerResult], names: list[str]) -> dict | None:
    """Each player's wins counted game after game over the ``finished`` games, oldest first
    (from none before the first), their winners read from ``rows``, as the lines of an
    inline SVG (drawn by ``table.html#chart``); None without a finished game won."""
    if not finished:
        return None
    winners: dict[int, list[str]] = {}
    for game_id, folded in rows.filter(won=True).values_list("game_id", "folded"):
        winners.setdefault(game_id, []).append(folded)
    keys = [name.casefold() for name in names]
    counts = dict.fromkeys(keys, 0)
    steps = [dict(counts)]  # from no win at all: one finished game is a line, not a point
    for game in finished:
        for winner in winners.get(game.pk, []):
            if winner in counts:
                counts[winner] += 1
        steps.append(dict(counts))
    most = max(counts.values())
    if most == 0:
        return None
    width, height, pad = CHART_WIDTH, CHART_HEIGHT, CHART_PAD
    span = max(len(steps) - 1, 1)
    # A point every few games when there are many (the chart is some 320 px wide): each
    # line still ends at each player's wins over every game.
    every = max(1, -(-len(steps) // CHART_POINTS))
    drawn = [*range(0, len(steps) - 1, every), len(steps) - 1]

    def x(i: int) -> float:
        return round(pad + (width - 2 * pad) * i / span, 1)

    def y(n: int) -> float:
        return round(height - pad - (height - 2 * pad) * n / most, 1)

    lines = []
    for i, (name, key) in enumerate(zip(names, keys, strict=True)):
        if not counts[key]:
            continue
        points = " ".join(f"{x(n)},{y(steps[n][key])}" for n in drawn)
        lines.append(
            {
                "name": name,
                "wins": counts[key],
                "seat": i % SEAT_COLOURS,
                "dashed": i >= SEAT_COLOURS,
                "points": points,
            }
        )
    lines.sort(key=lambda line: -line["wins"])
    return {
        "width": width,
        "height": height,
        "lines": lines,
        "games": len(finished),
        "most": most,
        "top": y(most),
        "bottom": y(0),
        "left": x(0),
        "right": x(span),
        "first": timezone.localtime(finished[0].created_at),
        "last": timezone.localtime(finished[-1].created_at),
    }


def table_names(table: Table, games_players: Iterable[list[str]]) -> list[str]:
    """Every player of the table and of its games (``games_players``: each game's players),
    each once ignoring case: the table's seats first, then the others as first met."""
    names: dict[str, str] = {}
    for name in [*table.players, *(p for players in games_players for p in players)]:
        names.setdefault(name.casefold(), name)
    return list(names.values())


def listed_games(request: HttpRequest, table: Table, link: str) -> list[Listed]:
    """The table's games, newest first, each with the link this phone may open it by and
    whether it is finished (from its rows)."""
    finished = PlayerResult.objects.filter(game=OuterRef("pk"), finished=True)
    games = table.games.defer("settings", "summary").annotate(finished=Exists(finished))
    games = games.order_by("-created_at")
    mine = set(device_games(request)) if link == "edit" else set()
    return [Listed(game, game.edit_key in mine) for game in games]


def evenings(listed: list[Listed], most: int | None) -> list[tuple[date, list[Listed]]]:
    """The games grouped by the day they were started (local time), newest first: the
    ``most`` latest evenings (None: all of them)."""
    by_day = groupby(listed, key=lambda item: timezone.localdate(item.game.created_at))
    shown = []
    for day, items in by_day:
        if most is not None and len(shown) == most:
            break
        shown.append((day, list(items)))
    return shown


def table_context(request: HttpRequest, table: Table, link: str) -> dict:
    """Everything the table's page shows, by its edit ``link`` or its read-only one."""
    listed = listed_games(request, table, link)
    names = table_names(table, (item.game.players for item in listed))
    view = TableViewForm(request.GET or None, names=names)
    period = view.value("period") or "all"
    since = period_start(period, timezone.now())
    # The rows of the games whose points count (a match sheet has no points nor calls).
    results = PlayerResult.objects.filter(game__table=table)
    results = results.exclude(game__variant=Tambouille.key)
    if since is not None:
        listed = [item for item in listed if item.game.created_at >= since]
        results = results.filter(game__created_at__gte=since)
    # Names as first met in the games as listed: the newest first.
    newest = ["-game__created_at", "-game_id"]
    by_variant = player_standings(results, newest)
    overall = player_standings(results, newest, by_variant=False).get("", [])
    a, b = view.value("a"), view.value("b")
    shown = evenings(listed, None if view.value("evenings") else EVENINGS_SHOWN)
    lines = game_lines([item.game for _, items in shown for item in items])
    for _, items in shown:
        for item in items:
            item.summary = lines[item.game.pk]
    finished = sorted(
        (
            item.game
            for item in listed
            if item.game.finished and item.game.variant != Tambouille.key
        ),
        key=lambda game: game.created_at,
    )
    read_url = request.build_absolute_uri(reverse("table_read", args=[table.read_key]))
    # The table's own link, shared from its page (a game's edit link it never leads to).
    own = reverse("table", args=[table.edit_key]) if link == "edit" else None
    table_url = request.build_absolute_uri(own) if own else None
    last = listed[0].game if listed else None
    return {
        "table": table,
        "read_only": link == "read",
        "key": table.edit_key if link == "edit" else table.read_key,
        "view": view,
        "period": period,
        "periods": [(value, label) for value, label in view.fields["period"].choices],
        "games": len(listed),
        "finished": sum(item.game.finished for item in listed),
        "overall": overall,
        "variants": [
            (VARIANTS[key], rows) for key in VARIANTS if (rows := by_variant.get(key)) is not None
        ],
        "duel": head_to_head(results, a, b) if a and b and a.casefold() != b.casefold() else None,
        # The latest evenings (a year of Thursdays is a long page on a phone); every one on
        # the link that asks for them.
        "evenings": shown,
        "more_evenings": not view.value("evenings")
        and len({timezone.localdate(item.game.created_at) for item in listed}) > EVENINGS_SHOWN,
        "chart": wins_chart(finished, results, names),
        "read_url": read_url,
        "read_qr": None if link == "edit" else qr_svg(read_url),
        "table_url": table_url,
        "table_qr": qr_svg(table_url) if table_url else None,
        "new_game_url": new_game_url(table) if link == "edit" else None,
        "rules": engine.GAMES.get(table.variant),
        "house": differences(table.variant, table.settings) if table.variant in VARIANTS else [],
        "last": last,
    }


def new_game_url(table: Table) -> str:
    """The new-game page filled from the table: its variant (Tamalou before its first
    game), and (``new_game_start``) its players, rules and next dealer."""
    variant = table.variant if table.variant in engine.GAMES else "tamalou"
    return reverse("new_game_variant", args=[variant]) + f"?table={table.edit_key}"


def game_table(request: HttpRequest, game: Game, link: str) -> dict:
    """What a game's sheet says of its table: a link to it by the link this phone holds (its
    edit link, or its read-only one, which a game's read-only link gives: never its edit
    link), and on the edit link of a game of no table, "Keep this table"."""
    table = game.table if game.table_id is not None else None
    url = None
    if table is not None and table.edit_key in device_tables(request) and link == "edit":
        url = reverse("table", args=[table.edit_key])
    elif table is not None and (
        table.read_key in followed_tables(request) or table.edit_key in device_tables(request)
    ):
        url = reverse("table_read", args=[table.read_key])
    return {
        "game_table": table,
        "game_table_url": url,
        "keep_form": KeepTableForm() if table is None and link == "edit" else None,
    }
