"""What a table's page shows, read from its games' stored summaries (no game is scored: the
page costs what its number of games does, not its rounds): the standings over all and per
variant (``story.player_stats``), two players face to face, the games by evening, the wins
over time as a chart, over a period.

A game is shown by its edit link only to a phone that already holds that link (its session's
games) and reaches the table by its edit link; otherwise by its read-only link. A table's key
never leads to a game's edit key."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from fractions import Fraction
from itertools import groupby

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone

from scoring.games.models import Game, Table
from scoring.pages.device import device_games, device_tables, followed_tables, with_round_counts
from scoring.pages.forms.tables import KeepTableForm, TableViewForm
from scoring.pages.rules import differences
from scoring.pages.sheet import qr_svg
from scoring.referee import engine, story
from scoring.referee.tambouille import Tambouille
from scoring.referee.variants import VARIANTS

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
    """A game of the table as its page lists it."""

    game: Game
    summary: story.GameSummary
    own: bool  # by its edit link (this phone holds it)

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


def head_to_head(records: list[story.GameRecord], a: str, b: str) -> HeadToHead:
    """``a`` against ``b`` over the finished games both played (names ignoring case)."""
    duel = HeadToHead(a, b)
    for record in records:
        summary = record.summary
        if not summary.finished:
            continue
        seat = {p.casefold(): p for p in summary.players}
        mine, theirs = seat.get(a.casefold()), seat.get(b.casefold())
        if mine is None or theirs is None or mine == theirs:
            continue
        duel.together += 1
        ta, tb = summary.totals[mine], summary.totals[theirs]
        duel.a_points += ta
        duel.b_points += tb
        duel.a_ahead += ta < tb
        duel.b_ahead += tb < ta
        duel.a_won += mine in summary.winners
        duel.b_won += theirs in summary.winners
    return duel


def wins_chart(records: list[story.GameRecord], names: list[str]) -> dict | None:
    """Each player's wins counted game after game over the finished games, oldest first (from
    none before the first), as
    the lines of an inline SVG (drawn by ``table.html#chart``); None without a finished game
    won."""
    finished = sorted((r for r in records if r.summary.finished), key=lambda r: r.when)
    if not finished:
        return None
    keys = [name.casefold() for name in names]
    counts = dict.fromkeys(keys, 0)
    steps = [dict(counts)]  # from no win at all: one finished game is a line, not a point
    for record in finished:
        for winner in record.summary.winners:
            if winner.casefold() in counts:
                counts[winner.casefold()] += 1
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
        "first": timezone.localtime(finished[0].when),
        "last": timezone.localtime(finished[-1].when),
    }


def table_names(table: Table, games_players: Iterable[list[str]]) -> list[str]:
    """Every player of the table and of its games (``games_players``: each game's players),
    each once ignoring case: the table's seats first, then the others as first met."""
    names: dict[str, str] = {}
    for name in [*table.players, *(p for players in games_players for p in players)]:
        names.setdefault(name.casefold(), name)
    return list(names.values())


def listed_games(request: HttpRequest, table: Table, link: str, since) -> list[Listed]:
    """The table's games in the period, newest first, each with its summary and the link
    this phone may open it by."""
    games = table.games.defer("settings", "summary").order_by("-created_at")
    if since is not None:
        games = games.filter(created_at__gte=since)
    games = list(games)
    summaries = read_summaries(games)
    mine = set(device_games(request)) if link == "edit" else set()
    listed = []
    for game in games:
        listed.append(Listed(game, summaries[game.pk], game.edit_key in mine))
    return listed


# Each game's summary as read, by the game's version (every write renews it), kept by each
# server process as objects. `make bench`, a table's page (200 games), under make serve's
# server, in one sitting: none kept, p95 143.6 ms and 85.1 ms of CPU a request (over its 100 ms);
# kept in Django's LocMemCache, which pickles each, p95 87.7 ms (110.3 for one period), CPU
# 51.4 ms; kept here, p95 45.4 ms, CPU 35.3 ms. Emptied whole when full: a process then
# reads them again, once.
SUMMARIES: dict[str, story.GameSummary] = {}
MOST_SUMMARIES = 20_000


def read_summaries(games: list[Game]) -> dict[int, story.GameSummary]:
    """The summary of each of ``games`` (their summaries not loaded) by its id: those kept,
    and the others read in one query, each checked against its count of rounds
    (``Game.stored_summary``)."""
    found, missing = {}, {}
    for game in games:
        kept = SUMMARIES.get(game.version)
        if kept is None:
            missing[game.pk] = game
        else:
            found[game.pk] = kept
    if missing:
        if len(SUMMARIES) + len(missing) > MOST_SUMMARIES:
            SUMMARIES.clear()
        read = with_round_counts(Game.objects.filter(pk__in=missing))
        for pk, state, summary, count in read.values_list("pk", "state", "summary", "round_count"):
            game = missing[pk]
            game.summary, game.round_count = summary, count
            found[pk] = game.stored_summary()
            if state == game.state:  # not changed since it was listed
                SUMMARIES[game.version] = found[pk]
    return found


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
    listed = listed_games(request, table, link, None)
    names = table_names(table, (item.game.players for item in listed))
    view = TableViewForm(request.GET or None, names=names)
    period = view.value("period") or "all"
    since = period_start(period, timezone.now())
    if since is not None:
        listed = [item for item in listed if item.game.created_at >= since]
    records = [
        story.GameRecord(item.game.variant, item.summary, item.game.created_at, item)
        for item in listed
        if item.game.variant != Tambouille.key
    ]
    by_variant = story.player_stats(records)
    overall = over_all(by_variant)
    a, b = view.value("a"), view.value("b")
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
        "finished": sum(item.summary.finished for item in listed),
        "overall": overall,
        "variants": [
            (VARIANTS[key], rows) for key in VARIANTS if (rows := by_variant.get(key)) is not None
        ],
        "duel": head_to_head(records, a, b) if a and b and a.casefold() != b.casefold() else None,
        # The latest evenings (a year of Thursdays is a long page on a phone); every one on
        # the link that asks for them.
        "evenings": evenings(listed, None if view.value("evenings") else EVENINGS_SHOWN),
        "more_evenings": not view.value("evenings")
        and len({timezone.localdate(item.game.created_at) for item in listed}) > EVENINGS_SHOWN,
        "chart": wins_chart(records, names),
        "read_url": read_url,
        "read_qr": None if link == "edit" else qr_svg(read_url),
        "table_url": table_url,
        "table_qr": qr_svg(table_url) if table_url else None,
        "new_game_url": new_game_url(table) if link == "edit" else None,
        "rules": engine.GAMES.get(table.variant),
        "house": differences(table.variant, table.settings) if table.variant in VARIANTS else [],
        "last": last,
    }


def over_all(by_variant: dict[str, list[story.PlayerStats]]) -> list[story.PlayerStats]:
    """Each player's statistics over every variant, from theirs per variant (as
    ``story.player_stats`` orders them: most wins, most games, then by name)."""
    merged: dict[str, story.PlayerStats] = {}
    for rows in by_variant.values():
        for row in rows:
            into = merged.setdefault(row.name.casefold(), story.PlayerStats(row.name))
            into.games += row.games
            into.won += row.won
            into.calls += row.calls
            into.calls_succeeded += row.calls_succeeded
            into.hands += row.hands
            into.hand_points += row.hand_points
            bests = [b for b in (into.best, row.best) if b is not None]
            worsts = [w for w in (into.worst, row.worst) if w is not None]
            into.best = min(bests) if bests else None
            into.worst = max(worsts) if worsts else None
    return sorted(merged.values(), key=lambda s: (-s.won, -s.games, s.name.casefold(), s.name))


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
