"""Each game's rows, one a player (``PlayerResult``), always equal what the referee computes
from the stored rounds: after saves through the page, corrections, deletions, restores, the
end and resumption of a game, a rename and a merge, imports, backups and the migration that
made them. The home page, the statistics and a table's page read those rows (the database
sums them) and nothing else: every server shows the same.

Runs on SQLite and, with DATABASE_URL, on PostgreSQL."""

from __future__ import annotations

import importlib
import io
from fractions import Fraction
from itertools import combinations

import pytest
from django.apps import apps
from django.core.management import call_command

from scoring.referee import engine, story
from scoring.store.models import Game, PlayerResult, Round, Table
from scoring.store.results import GameLine
from tests.helpers import EXAMPLES
from tests.web.helpers import evening_table, figures, phone, recomputed, save_round, url

pytestmark = pytest.mark.django_db
SCORED = sorted(p.name for p in EXAMPLES.glob("*.game.json") if "tambouille" not in p.name)
MATCHES = sorted(p.name for p in EXAMPLES.glob("tambouille*.game.json"))


def expected_rows(game: Game) -> list[tuple]:
    """Each player's row worked out from the referee's sheet of the rounds read straight
    from the database (not through the summary the rows are written from)."""
    game = Game.objects.get(pk=game.pk)
    rounds = list(Round.objects.filter(game=game, deleted_at__isnull=True).order_by("position"))
    sheet = engine.score_game(game.as_entry(game.entries(rounds)))
    rows = []

    def ranked(p):  # docs/rules.md: the winners, then the players still in, then those out
        return (p not in sheet.winners, p not in sheet.in_game, sheet.totals[p])

    for seat, player in enumerate(sheet.players):
        scores = [r.scores[player] for r in sheet.rounds if player in r.scores]
        judged = [r for r in sheet.rounds if r.caller == player and r.caller_succeeded is not None]
        rows.append(
            (
                seat,
                player,
                player.casefold(),
                len(sheet.rounds),
                sheet.finished,
                sheet.finished and player in sheet.winners,
                player in sheet.in_game,
                sheet.totals[player],
                1 + sum(ranked(other) < ranked(player) for other in sheet.players),
                len(scores),
                sum(
                    (r.hand_totals[player] for r in sheet.rounds if player in r.scores), Fraction(0)
                ),
                min(scores, default=None),
                max(scores, default=None),
                len(judged),
                sum(bool(r.caller_succeeded) for r in judged),
            )
        )
    return rows


def stored_rows(game: Game) -> list[tuple]:
    def exact(value):
        return None if value is None else Fraction(value)

    return [
        (
            row.seat,
            row.player,
            row.folded,
            row.rounds,
            row.finished,
            row.won,
            row.in_game,
            exact(row.total),
            row.place,
            row.hands,
            exact(row.hand_points),
            exact(row.best),
            exact(row.worst),
            row.calls,
            row.calls_succeeded,
        )
        for row in PlayerResult.objects.filter(game=game).order_by("seat")
    ]


def assert_rows(game: Game) -> None:
    assert stored_rows(game) == expected_rows(game)


# --- written with every change ------------------------------------------------------------------


def test_saves_corrections_deletions_restores_an_end_and_a_resumption_keep_the_rows(client):
    """Dutch: a limit that knocks players out (their totals stay, they lead no more)."""
    game = Game.objects.create(variant="dutch", players=["Léa", "Marc", "Nina"])
    client.get(url(game))
    assert not PlayerResult.objects.filter(game=game).exists()  # no round, nothing to count
    for number, hands in enumerate(
        [
            {"Léa": "30", "Marc": "2", "Nina": "40"},
            {"Léa": "40", "Marc": "3", "Nina": "30"},
            {"Léa": "35", "Marc": "1", "Nina": "9"},
        ],
        1,
    ):
        assert save_round(client, game, number, hands, caller="Marc").status_code == 302
        assert_rows(game)
    lea = PlayerResult.objects.get(game=game, player="Léa")
    assert not lea.in_game and lea.total == 105 and lea.place == 3
    first = Round.objects.get(game=game, position=1)
    game.replace_round(first.pk, 0, engine.RoundEntry(hands={"Léa": 2, "Marc": 9, "Nina": 4}))
    assert_rows(game)
    assert PlayerResult.objects.get(game=game, player="Léa").in_game
    last = Round.objects.get(game=game, position=3)
    assert client.post(f"{url(game)}rounds/{last.pk}/delete/", {"confirm": "1"}).status_code == 302
    assert_rows(game)
    assert client.post(f"{url(game)}rounds/{last.pk}/restore/").status_code == 302
    assert_rows(game)
    assert client.post(f"{url(game)}end/").status_code == 302
    assert_rows(game)
    assert PlayerResult.objects.filter(game=game, won=True).count() == 1
    assert client.post(f"{url(game)}resume/").status_code == 302
    assert_rows(game)
    assert not PlayerResult.objects.filter(game=game, finished=True).exists()


def test_halves_are_kept_exactly(client):
    game = Game.objects.create(variant="tamoul", players=["Léa", "Marc"])
    save_round(client, game, 1, {"Léa": "6.5", "Marc": "9"}, caller="Léa")
    save_round(client, game, 2, {"Léa": "2", "Marc": "1.5"}, caller="Léa")
    assert_rows(game)
    assert any(Fraction(r.total).denominator == 2 for r in PlayerResult.objects.filter(game=game))


def test_a_refused_round_and_a_timer_tap_change_no_row(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    save_round(client, game, 1, {"Léa": "3", "Marc": "9"}, caller="Léa")
    before = list(PlayerResult.objects.filter(game=game).values_list("pk", flat=True))
    assert save_round(client, game, 2, {"Léa": "3", "Marc": "999"}).status_code == 400
    game.join(Table.objects.create(name="Jeudis"))  # a new version, the same rounds
    assert list(PlayerResult.objects.filter(game=game).values_list("pk", flat=True)) == before
    assert_rows(game)


def test_the_winner_of_a_dutch_game_everybody_left_at_once_has_the_first_place(client):
    """Léa goes out first with 101; Marc (115) and Nina (120) go out together: Marc wins, and
    his row says the first place though Léa has fewer points."""
    game = Game.objects.create(variant="dutch", players=["Léa", "Marc", "Nina"])
    rounds = [{"Léa": "101", "Marc": "50", "Nina": "60"}, {"Marc": "65", "Nina": "60"}]
    for number, hands in enumerate(rounds, 1):
        assert save_round(client, game, number, hands, caller="Marc").status_code == 302
    assert_rows(game)
    places = dict(PlayerResult.objects.filter(game=game).values_list("player", "place"))
    assert places == {"Marc": 1, "Léa": 2, "Nina": 3}


def test_a_rename_and_a_merge_carry_the_rows_and_the_standings_follow():
    table, _ = evening_table()
    table.rename("Nina", "Ninon")
    table.rename("lea", "Léa")
    games = list(table.games.all())
    for game in games:
        assert_rows(game)
    assert not PlayerResult.objects.filter(player__in=["Nina", "lea"]).exists()
    response = phone().get(f"/t/{table.edit_key}/")
    overall, by_variant = recomputed(games)
    assert figures(response.context["overall"]) == figures(overall)
    shown = {variant.key: figures(rows) for variant, rows in response.context["variants"]}
    assert shown == {key: figures(rows) for key, rows in by_variant.items()}
    assert {r.name for r in response.context["overall"]} == {"Léa", "Marc", "Ninon", "Olga"}


@pytest.mark.parametrize("name", SCORED + MATCHES)
def test_an_imported_game_has_its_rows(name):
    assert_rows(Game.objects.import_file((EXAMPLES / name).read_bytes()))


def test_restored_games_have_their_rows_and_a_deleted_game_takes_its_own(tmp_path):
    for name in ("dutch", "tamoul", "koubo", "tambouille_blocked"):
        Game.objects.import_file((EXAMPLES / f"{name}.game.json").read_bytes())
    Game.objects.get(variant="koubo").end()
    archive = tmp_path / "backup.zip"
    call_command("backup_games", str(archive), stdout=io.StringIO())
    Game.objects.all().delete()
    assert not PlayerResult.objects.exists()
    call_command("restore_games", str(archive), stdout=io.StringIO())
    assert Game.objects.count() == 4
    for game in Game.objects.all():
        assert_rows(game)
    Game.objects.get(variant="koubo").delete()
    assert set(PlayerResult.objects.values_list("game__variant", flat=True)) == {
        "dutch",
        "tamoul",
        "tambouille",
    }


def test_the_migrations_make_the_rows_of_every_game_stored_before(client):
    """0017 makes the rows (each place by total), 0018 places the winners first."""
    made = importlib.import_module("scoring.migrations.0017_player_results")
    placed = importlib.import_module("scoring.migrations.0018_winners_placed_first")
    for name in SCORED + MATCHES:
        Game.objects.import_file((EXAMPLES / name).read_bytes())
    Game.objects.filter(variant="koubo").first().end()
    empty = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    dutch = Game.objects.create(variant="dutch", players=["Léa", "Marc", "Nina"])
    rounds = [{"Léa": "101", "Marc": "50", "Nina": "60"}, {"Marc": "65", "Nina": "60"}]
    for number, hands in enumerate(rounds, 1):
        assert save_round(client, dutch, number, hands, caller="Marc").status_code == 302
    PlayerResult.objects.all().delete()
    made.fill_results(apps, None)
    assert PlayerResult.objects.get(game=dutch, player="Marc").place == 2  # by total
    placed.place_winners_first(apps, None)
    for game in Game.objects.all():
        assert_rows(game)
    assert PlayerResult.objects.filter(game=empty, rounds=0).count() == 2


# --- what the pages read ---------------------------------------------------------------------


def every_variant_table() -> tuple[Table, list[Game], object]:
    """Every example game (Tambouille matches too, which count for nothing) at one table, by
    a phone that holds them all."""
    table = Table.objects.create(name="Tout", players=[])
    client = phone()
    games = []
    for name in SCORED + MATCHES:
        game = Game.objects.import_file((EXAMPLES / name).read_bytes())
        table.attach(game)
        client.get(url(game))
        games.append(game)
    return table, games, client


def duel_recomputed(games: list[Game], a: str, b: str) -> tuple:
    """``a`` against ``b`` over the finished scored games both played, from their sheets."""
    together = a_ahead = b_ahead = a_won = b_won = 0
    a_points = b_points = Fraction(0)
    for game in games:
        sheet = engine.score_game(game.as_entry())
        seat = {p.casefold(): p for p in sheet.players}
        mine, theirs = seat.get(a.casefold()), seat.get(b.casefold())
        if game.is_match or not sheet.finished or mine is None or theirs is None:
            continue
        together += 1
        ta, tb = sheet.totals[mine], sheet.totals[theirs]
        a_points, b_points = a_points + ta, b_points + tb
        a_ahead, b_ahead = a_ahead + (ta < tb), b_ahead + (tb < ta)
        a_won, b_won = a_won + (mine in sheet.winners), b_won + (theirs in sheet.winners)
    return together, a_ahead, b_ahead, a_won, b_won, a_points, b_points


def test_every_variants_standings_and_duels_equal_a_recomputation():
    table, games, client = every_variant_table()
    scored = [g for g in games if not g.is_match]
    response = client.get(f"/t/{table.edit_key}/")
    overall, by_variant = recomputed(scored)
    assert figures(response.context["overall"]) == figures(overall)
    shown = {variant.key: figures(rows) for variant, rows in response.context["variants"]}
    assert shown == {key: figures(rows) for key, rows in by_variant.items()}
    assert response.context["finished"] == sum(g.stored_summary().finished for g in games)
    stats = client.get("/stats/")
    shown = {variant.key: figures(rows) for variant, rows in stats.context["variants"]}
    assert shown == {key: figures(rows) for key, rows in by_variant.items()}
    names = sorted({p for g in scored for p in g.players})
    for a, b in combinations(names, 2):
        duel = client.get(f"/t/{table.edit_key}/", {"a": a, "b": b}).context["duel"]
        got = (duel.together, duel.a_ahead, duel.b_ahead, duel.a_won, duel.b_won)
        assert (*got, duel.a_points, duel.b_points) == duel_recomputed(games, a, b)


def test_every_games_line_on_the_home_page_equals_its_summarys():
    """Finished or not, its winners in seat order, its rounds, its leader (the lowest total
    of the players still in)."""
    _, games, client = every_variant_table()
    home = client.get("/")
    lines = {s["game"].pk: s["summary"] for s in home.context["summaries"]}
    assert set(lines) == {g.pk for g in games}
    for game in games:
        assert lines[game.pk] == GameLine.of_summary(story.summarize(game.score()))


def test_the_pages_read_the_rows_not_the_summaries():
    """Rows changed behind the app's back show on the table's page (standings, face to face,
    wins over time, the evenings), /stats/ and the home page; the summaries are not read."""
    table, games = evening_table()
    client = phone()
    for game in games:
        client.get(url(game))
    Game.objects.update(summary=None)  # a summary read would be scored again: the same
    marc = PlayerResult.objects.filter(player="Marc", finished=True, game__variant="tamalou")
    assert marc.update(won=True, hand_points=1000) == 2
    page = client.get(f"/t/{table.edit_key}/", {"a": "Léa", "b": "Marc"})
    row = next(r for r in page.context["overall"] if r.name == "Marc")
    assert row.won == 2 and row.hand_points >= 2000  # he won none
    assert page.context["duel"].b_won == 2
    assert {line["name"]: line["wins"] for line in page.context["chart"]["lines"]}["Marc"] == 2
    items = [item for _, items in page.context["evenings"] for item in items]
    assert sum("Marc" in item.summary.winners for item in items) == 2
    stats = client.get("/stats/")
    [(_, rows)] = [(v, rows) for v, rows in stats.context["variants"] if v.key == "tamalou"]
    assert next(r for r in rows if r.name == "Marc").won == 2
    home = client.get("/").content.decode()
    assert "Won by Léa, Marc" in home


def test_a_game_whose_rounds_were_written_around_the_app_is_still_told_right_on_the_home_page(
    client,
):
    """Its rows (none here) are not its rounds': its line is its summary, scored when read."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    Round.objects.create(game=game, position=1, data={"hands": {"Léa": 4, "Marc": 2}})
    client.get(url(game))
    home = client.get("/").content.decode()
    assert "Leader: Marc (2)" in home and "1 round" in home
    assert not PlayerResult.objects.filter(game=game).exists()  # a read writes nothing


def test_statistics_name_a_player_as_in_the_newest_game():
    """Names ignoring case: "LÉA" and "Léa" are one player, named as in the game changed
    last (as ``story.player_stats`` names them, reading the newest first)."""
    client = phone()
    older = Game.objects.create(variant="tamalou", players=["LÉA", "Marc"], settings={"rounds": 1})
    newer = Game.objects.create(variant="tamalou", players=["Léa", "Marc"], settings={"rounds": 1})
    for game in (older, newer):
        client.get(url(game))
        hands = {game.players[0]: "3", "Marc": "9"}
        assert save_round(client, game, 1, hands, caller=game.players[0]).status_code == 302
    [(_, rows)] = client.get("/stats/").context["variants"]
    assert [(r.name, r.games, r.won) for r in rows] == [("Léa", 2, 2), ("Marc", 2, 0)]
    records = [story.GameRecord("tamalou", story.summarize(g.score()), 0) for g in (newer, older)]
    assert figures(rows) == figures(story.player_stats(records)["tamalou"])
