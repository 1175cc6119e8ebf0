"""The story of a game through the test client: the score chart on the sheet and the
read-only view (following each new round), the end of a game, the CSV of a sheet, and the
statistics of the games a phone knows, in both languages."""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from scoring.referee import engine, gamefile
from scoring.store.models import Game, Round
from tests.helpers import EXAMPLES, NOBODY_CALLED

HTMX = {"HTTP_HX_REQUEST": "true"}

pytestmark = pytest.mark.django_db


def make_game(variant="tamalou", players=("Léa", "Marc", "Nina"), settings=None) -> Game:
    return Game.objects.create(variant=variant, players=list(players), settings=settings or {})


def save(client, game, number, totals, caller="", **headers):
    """A round of typed totals; without a caller, a round nobody called."""
    data = {"number": number, "save": "1", "caller": caller, **({} if caller else NOBODY_CALLED)}
    data.update({f"total_{i}": str(t) for i, t in enumerate(totals)})
    return client.post(f"/g/{game.edit_key}/", data, **headers)


def in_french(client, path: str):
    """The page as a phone that chose French sees it (its session kept)."""
    client.cookies["django_language"] = "fr"
    try:
        return client.get(path)
    finally:
        client.cookies["django_language"] = "en"


def chart_of(page: str) -> str:
    match = re.search(r'<figure class="chart" id="chart">.*?</figure>', page, re.S)
    assert match, "no chart on the page"
    return match.group(0)


def polylines(chart: str) -> list[list[tuple[float, float]]]:
    return [
        [tuple(map(float, point.split(","))) for point in points.split()]
        for points in re.findall(r'<polyline class="p\d" points="([^"]+)"', chart)
    ]


# --- the chart -------------------------------------------------------------------------------


def test_the_sheet_and_the_read_only_view_draw_the_running_totals(client):
    game = make_game("dutch", ("Léa", "Marc", "Nina"))
    save(client, game, 1, (40, 70, 5))
    save(client, game, 2, (40, 35, 5))  # Marc reaches 105: out
    save(client, game, 3, (10, "", 5))
    edit = chart_of(client.get(f"/g/{game.edit_key}/").content.decode())
    viewer = Client()
    viewer.cookies["django_language"] = "en"
    share = chart_of(viewer.get(f"/s/{game.share_key}/").content.decode())
    assert edit == share
    assert 'role="img"' in edit
    assert 'aria-label="Chart of the running totals after 3 rounds: Léa 90, Marc 105, Nina 15"' in (
        edit
    )
    lea, marc, nina = polylines(edit)
    assert (len(lea), len(marc), len(nina)) == (4, 3, 4)  # Marc stops where he went out
    assert [y for _, y in lea] == sorted((y for _, y in lea), reverse=True)  # 0, 40, 80, 90
    assert '<text class="lm"' in edit and "100: out" in edit  # Dutch's 100, from its rules
    assert [x for x, _ in lea] == [x for x, _ in nina]
    assert "<script" not in edit and "style=" not in edit


def shown_rounds(page: str) -> dict[int, str]:
    """Each round the history lists, with who dealt it."""
    found = re.findall(r'id="round-(\d+)".*?dealt by ([^<]+)<', page, re.S)
    return {int(number): dealer.strip() for number, dealer in found}


def assert_sheet_shows(client, game: Game, page: str) -> None:
    """The history lists the newest 30 rounds, each with who dealt it, and the chart draws
    every running total of every round where its value puts it, as worked out afresh from
    the stored rounds."""
    game = Game.objects.get(pk=game.pk)
    sheet = engine.score_game(game.as_entry())
    deals = engine.deals(sheet, game.first_dealer)
    count = len(sheet.rounds)
    expected = {n: deals[n - 1][0] for n in range(max(count - 29, 1), count + 1)}
    assert shown_rounds(page) == expected
    lines = polylines(chart_of(page))
    pairs = []
    for player, points in zip(sheet.players, lines, strict=True):
        totals = [Fraction(0)] + [r.totals[player] for r in sheet.rounds if player in r.scores]
        assert len(points) == len(totals)
        pairs += [(float(t), y) for t, (_, y) in zip(totals, points, strict=True)]
    (t0, y0), (t1, y1) = min(pairs), max(pairs)
    for total, y in pairs:  # the height falls as the total grows, in proportion
        assert abs(y - (y0 + (total - t0) * (y1 - y0) / (t1 - t0))) <= 0.11


def test_a_long_games_sheet_lists_its_newest_rounds_with_their_deals_and_charts_them_all(client):
    game = make_game("tamalou", ("Léa", "Marc", "Nina", "Omar"))
    for number in range(1, 35):
        totals = [(number * 7 + seat * 5) % 23 for seat in range(4)]
        assert save(client, game, number, totals, caller="Léa").status_code == 302
    assert_sheet_shows(client, game, client.get(f"/g/{game.edit_key}/").content.decode())
    answer = save(client, game, 35, (1, 2, 3, 4), caller="Marc", **HTMX)  # the save's own page
    assert_sheet_shows(client, game, answer.content.decode())
    rounds = game.live_rounds()
    game.replace_round(rounds[33].pk, rounds[33].edits, game.entries([rounds[0]])[0])
    assert_sheet_shows(client, game, client.get(f"/g/{game.edit_key}/").content.decode())
    game.delete_round(rounds[34].pk)
    assert_sheet_shows(client, game, client.get(f"/g/{game.edit_key}/").content.decode())
    assert save(client, game, 35, (9, 0, 9, 9), caller="Marc").status_code == 302
    assert_sheet_shows(client, game, client.get(f"/g/{game.edit_key}/").content.decode())


def test_no_chart_before_the_first_round(client):
    game = make_game()
    assert 'class="chart"' not in client.get(f"/g/{game.edit_key}/").content.decode()


def test_the_chart_follows_each_new_round_on_the_other_phones(client):
    game = make_game()
    save(client, game, 1, (3, 9, 8), caller="Léa")
    viewer = Client()
    viewer.cookies["django_language"] = "en"
    first = viewer.get(f"/s/{game.share_key}/live/")
    assert len(polylines(chart_of(first.content.decode()))[0]) == 2
    assert viewer.get(
        f"/s/{game.share_key}/live/", HTTP_IF_NONE_MATCH=first["ETag"]
    ).status_code == (304)
    save(client, game, 2, (4, 1, 8), caller="Marc")
    second = viewer.get(f"/s/{game.share_key}/live/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    assert '<div id="story" hx-swap-oob="true">' in second.content.decode()
    chart = chart_of(second.content.decode())
    assert len(polylines(chart)[0]) == 3 and "after 2 rounds: Léa 4, Marc 9, Nina 16" in chart
    # The cached read-only page is a page of the new state too.
    assert "after 2 rounds" in viewer.get(f"/s/{game.share_key}/").content.decode()


def test_a_round_saved_with_htmx_redraws_the_chart(client):
    game = make_game()
    save(client, game, 1, (3, 9, 8), caller="Léa")
    response = save(client, game, 2, (4, 1, 8), caller="Marc", **HTMX)
    page = response.content.decode()
    assert '<div id="story" hx-swap-oob="true">' in page
    assert "after 2 rounds: Léa 4, Marc 9, Nina 16" in chart_of(page)


# --- the end of a game ---------------------------------------------------------------------


def test_a_finished_game_shows_the_ranking_the_chart_and_its_moments(client):
    game = make_game("tamoul")
    for number, (totals, caller) in enumerate(
        [((2, 30, 8), "Léa"), ((9, 1, 7), "Marc"), ((60, 1, 5), "Marc"), ((4, 3, 90), "Léa")], 1
    ):
        assert save(client, game, number, totals, caller=caller).status_code == 302
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert "Game over" in page and "Winner: Marc" in page and "Loser" not in page
    assert 'id="chart"' in page and "100 → 50; over: the end" in page
    moments = page[page.index('id="moments"') :]
    assert "Best round:</strong> Léa, −20 in round 1" in moments
    assert (
        "Biggest comeback:</strong> Marc trailed the lowest total by 50 after round 1, and won."
        in (moments)
    )
    assert re.search(r"Léa</th><td class=\"num\">1</td><td class=\"num\">1</td>", moments)
    assert re.search(r"Marc</th><td class=\"num\">2</td><td class=\"num\">0</td>", moments)
    assert "Rematch: same players, the deal moves on" in page
    standings = re.findall(r'<span class="name">(\w+)', page)
    assert standings[:3] == ["Marc", "Léa", "Nina"]
    french = in_french(client, f"/g/{game.edit_key}/")
    text = french.content.decode()
    assert "Meilleure manche\u202f:</strong> Léa, −20 à la manche 1" in text
    assert "Moments de la partie" in text and "Graphique des totaux" in text


def test_a_dutch_game_everybody_left_at_once_places_its_winner_first(client):
    """Léa goes out first with 101; Marc (115) and Nina (120) go out together: Marc, the
    closest to 100, wins and is placed first, though Léa has fewer points (docs/rules.md)."""
    game = make_game("dutch")
    rounds = [{"Léa": 101, "Marc": 50, "Nina": 60}, {"Marc": 65, "Nina": 60}]
    for number, hands in enumerate(rounds, 1):
        Round.objects.create(game=game, position=number, data={"hands": hands})
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    ranking = re.findall(r'<span class="rank">(\d+)</span>\s*<span class="name">(\w+)', page)
    assert ranking == [("1", "Marc"), ("2", "Léa"), ("3", "Nina")]
    assert "Winner: Marc" in page
    # Marc went out too (his tag says so), but the winner's name is not crossed out.
    rows = re.findall(r'<li class="standing([^"]*)">\s*<span class="rank">\d+</span>', page)
    assert rows == [" leader", " out", " out"]


def test_an_ended_game_shows_its_moments_with_the_card_in_hands_most_often(client):
    game = make_game("tamalou", ("Léa", "Marc"))
    for number, (lea, marc) in enumerate([("KS 3H", "QS 2C"), ("3H 2C", "KS QD")], 1):
        Round.objects.create(
            game=game, position=number, data={"hands": {"Léa": lea.split(), "Marc": marc.split()}}
        )
    client.post(f"/g/{game.edit_key}/end/")
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert "The cards in hands most often:" in page
    assert re.search(r"2♣</span> .*3♥</span> .*K♠</span> \(2 times\)", page)


def test_the_joker_counts_among_the_cards_in_hands_most_often_whatever_ties(client):
    """Four cards held twice each, the joker among them (last in deck order): every
    one is named, the joker too."""
    game = make_game("tamalou", ("Léa", "Marc"))
    hands = [("KS 3H JOKER", "QS 2C"), ("3H 2C", "KS JOKER QD")]
    for number, (lea, marc) in enumerate(hands, 1):
        Round.objects.create(
            game=game, position=number, data={"hands": {"Léa": lea.split(), "Marc": marc.split()}}
        )
    client.post(f"/g/{game.edit_key}/end/")
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert re.search(r"2♣</span> .*3♥</span> .*K♠</span> .*joker</span> \(2 times\)", page)


def test_rematch_keeps_the_players_and_moves_the_deal_on_each_time(client):
    game = make_game("koubo", ("Léa", "Marc", "Nina"), {"rounds": 1})
    game.first_dealer = 2
    game.save()
    save(client, game, 1, (3, 9, 8), caller="Léa")
    assert "Game over" in client.get(f"/g/{game.edit_key}/").content.decode()
    first = Game.objects.get(edit_key=client.post(f"/g/{game.edit_key}/rematch/")["Location"][3:-1])
    second = Game.objects.get(
        edit_key=client.post(f"/g/{first.edit_key}/rematch/")["Location"][3:-1]
    )
    assert (first.players, first.settings, first.first_dealer) == (game.players, {"rounds": 1}, 0)
    assert second.first_dealer == 1 and not first.rounds.exists()
    assert "<strong>Marc</strong> deals" in client.get(f"/g/{second.edit_key}/").content.decode()


# --- the CSV of a sheet ----------------------------------------------------------------------


def test_the_csv_of_a_sheet_from_both_links_and_the_command(client):
    game = Game.objects.import_file((EXAMPLES / "tamoul.game.json").read_bytes())
    edit = client.get(f"/g/{game.edit_key}/sheet.csv")
    share = client.get(f"/s/{game.share_key}/sheet.csv")
    assert edit["Content-Type"] == "text/csv; charset=utf-8"
    stamp = timezone.localdate(game.created_at).isoformat()  # the table's day, as the file says
    names = "-".join(p.lower().replace("é", "e") for p in game.players)
    assert edit["Content-Disposition"] == f'attachment; filename="tamoul-{names}-{stamp}.csv"'
    assert edit.content == share.content
    text = edit.content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:])))
    sheet = game.score()
    players = list(sheet.players)
    assert rows[0] == [
        "Round",
        *(f"{p}: score" for p in players),
        *(f"{p}: total" for p in players),
    ]
    assert rows[-1][: 1 + len(players)] == ["Final total", *("" for p in players)]
    assert [Fraction(v) for v in rows[-1][1 + len(players) :]] == [sheet.totals[p] for p in players]
    for row, result in zip(rows[1:-1], sheet.rounds, strict=True):
        assert int(row[0]) == result.number
        assert [Fraction(v) for v in row[1 : 1 + len(players)]] == [
            result.scores[p] for p in players
        ]
        assert [Fraction(v) for v in row[1 + len(players) :]] == [result.totals[p] for p in players]
    out = StringIO()
    call_command("export_game", game.edit_key, "--csv", "--language", "en", stdout=out)
    assert out.getvalue() == text[1:]
    french = StringIO()
    call_command("export_game", f"/g/{game.edit_key}/", "--csv", stdout=french)
    assert french.getvalue().startswith("Manche,Léa\u202f: score,")
    assert (
        in_french(client, f"/g/{game.edit_key}/sheet.csv").content[3:] == french.getvalue().encode()
    )


def test_the_read_only_view_links_its_own_csv_and_not_the_edit_key(client):
    game = make_game()
    save(client, game, 1, (3, 9, 8), caller="Léa")
    edit = client.get(f"/g/{game.edit_key}/").content.decode()
    share = Client().get(f"/s/{game.share_key}/").content.decode()
    assert f'href="/g/{game.edit_key}/sheet.csv"' in edit
    assert f'href="/s/{game.share_key}/sheet.csv"' in share and game.edit_key not in share
    assert client.post(f"/s/{game.share_key}/sheet.csv").status_code == 405


def test_a_knocked_out_player_has_empty_cells_and_a_formula_like_name_is_quoted(client):
    game = make_game("dutch", ("=Léa", "Marc", "Nina"))
    save(client, game, 1, (40, 100, 5))
    save(client, game, 2, (1, "", 5))
    rows = list(
        csv.reader(io.StringIO(client.get(f"/g/{game.edit_key}/sheet.csv").content.decode()[1:]))
    )
    assert rows[0][1] == "'=Léa: score"
    assert rows[2] == ["2", "1", "", "5", "41", "", "10"]
    # The last row holds every player's final total, Marc's the one he went out on.
    assert rows[3] == ["Final total", "", "", "", "41", "100", "10"]
    assert len(rows) == 4


def test_the_final_totals_row_in_french_and_negative_numbers_stay_ascii(client):
    game = Game.objects.import_file((EXAMPLES / "koubo.game.json").read_bytes())
    stored = game.score()
    text = in_french(client, f"/g/{game.edit_key}/sheet.csv").content.decode()[1:]
    rows = list(csv.reader(io.StringIO(text)))
    final = [str(stored.totals[p]) for p in stored.players]
    assert rows[-1] == ["Total final", *("" for p in final), *final]
    assert "−" not in text and any(v.startswith("-") for row in rows[1:] for v in row[1:])


@pytest.mark.parametrize("separator", [",", ";"])
def test_a_name_with_separators_stays_one_cell_and_never_a_formula(client, separator):
    """French spreadsheets split on ";": a name like ``a;=2+5;`` is quoted, so it cannot
    spill a formula into a cell of its own, whichever separator the spreadsheet uses."""
    game = make_game("tamalou", ("a;=2+5;", "b,=1+1", "-Marc", "@x"))
    save(client, game, 1, (3, 9, 8, 4), caller="a;=2+5;")
    text = client.get(f"/g/{game.edit_key}/sheet.csv").content.decode()[1:]
    header = text.split("\r\n")[0]
    assert header.startswith(
        "Round,\"a;'=2+5;: score\",\"b,'=1+1: score\",'-Marc: score,'@x: score,"
    )
    rows = list(csv.reader(io.StringIO(text), delimiter=separator))
    cells = [cell for row in rows for cell in row]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "@"))]
    assert [cell for cell in cells if cell.startswith("-")] == []  # no negative score here
    comma_rows = list(csv.reader(io.StringIO(text)))
    assert comma_rows[0][1:3] == ["a;'=2+5;: score", "b,'=1+1: score"]


def test_the_csv_is_named_after_the_variant_and_the_players(client):
    game = make_game("cabo_bruxellois", ("Zoé", "👩‍🍳", "Ana Lu"))
    stamp = timezone.localdate(game.created_at).isoformat()  # the table's day, as the file says
    response = client.get(f"/s/{game.share_key}/sheet.csv")
    name = f"cabo-bruxellois-zoe-ana-lu-{stamp}.csv"
    assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    many = make_game("dutch", [f"Quelqu'un de très long {i}" for i in range(8)])
    response = client.get(f"/g/{many.edit_key}/sheet.csv")
    assert response["Content-Disposition"] == f'attachment; filename="dutch-{stamp}.csv"'


def test_the_csv_command_refuses_an_unknown_game(capsys):
    with pytest.raises(SystemExit) as stop:
        call_command("export_game", "nope", "--csv")
    assert stop.value.code == 1
    assert "no game 'nope'" in capsys.readouterr().err


# --- statistics across games -----------------------------------------------------------------


def recompute(games: list[Game]) -> dict[tuple[str, str], dict]:
    """The statistics straight from the stored rows: typed totals, callers and the referee's
    verdict on each whole game, without scoring.referee.story."""
    found: dict[tuple[str, str], dict] = {}
    for game in games:
        rounds = [r.data for r in Round.objects.filter(game=game, deleted_at=None)]
        sheet = engine.score_game(
            engine.GameEntry(
                game.variant,
                tuple(game.players),
                tuple(gamefile.round_from_json(d, n) for n, d in enumerate(rounds, 1)),
                game.effective_settings(),
            )
        )
        for player in game.players:
            row = found.setdefault(
                (game.variant, player),
                {"games": 0, "won": 0, "hands": [], "calls": 0, "ok": 0, "scores": []},
            )
            row["games"] += sheet.finished
            row["won"] += sheet.finished and player in sheet.winners
            row["hands"] += [Fraction(d["hands"][player]) for d in rounds]
            row["scores"] += [r.scores[player] for r in sheet.rounds]
        for data, result in zip(rounds, sheet.rounds, strict=True):
            if data.get("caller"):
                found[(game.variant, data["caller"])]["calls"] += 1
                found[(game.variant, data["caller"])]["ok"] += bool(result.caller_succeeded)
    return found


def test_statistics_equal_a_recomputation_from_the_stored_games(client):
    games = [make_game("koubo", ("Léa", "Marc"), {"rounds": 2}) for _ in range(3)]
    games.append(make_game("tamalou", ("Léa", "Marc", "Nina")))
    plays = [
        [((2, 9), "Léa"), ((7, 3), "Marc")],
        [((6, 5), "Léa"), ((1, 7), "")],
        [((4, 4), "Marc")],  # not finished
    ]
    for game, rounds in zip(games, plays, strict=False):
        for number, (totals, caller) in enumerate(rounds, 1):
            assert save(client, game, number, totals, caller=caller).status_code == 302
    save(client, games[3], 1, (5, 12, 7), caller="Léa")
    elsewhere = make_game("koubo", ("Léa", "Marc"))  # another phone's game
    save(Client(), elsewhere, 1, (1, 30))

    response = client.get("/stats/")
    expected = recompute(games)
    shown = {
        (variant.key, row.name): row
        for variant, rows in response.context["variants"]
        for row in rows
    }
    assert set(shown) == set(expected)
    for key, want in expected.items():
        row = shown[key]
        assert (row.games, row.won) == (want["games"], want["won"])
        assert (row.calls, row.calls_succeeded) == (want["calls"], want["ok"])
        assert row.average_hand == sum(want["hands"]) / len(want["hands"])
        assert (row.best, row.worst) == (min(want["scores"]), max(want["scores"]))
    [table] = response.context["tables"]
    assert table.players == ["Léa", "Marc"] and len(table.games) == 2
    page = response.content.decode()
    assert "From the 4 games this phone knows (2 finished)" in page
    assert f"/g/{games[0].edit_key}/" in page and elsewhere.edit_key not in page


def test_statistics_are_written_in_the_pages_language(client):
    game = make_game("tamoul", ("Léa", "Marc"))
    save(client, game, 1, ("6.5", 9), caller="Léa")
    save(client, game, 2, (2, "1.5"), caller="Léa")
    english = client.get("/stats/").content.decode()
    assert "<dd>4.3</dd>" in english  # Léa's average hand: (6.5 + 2) / 2 = 4.25
    assert "<dd>1 of 2 (50%)</dd>" in english and "<dd>−20</dd>" in english
    french = in_french(client, "/stats/").content.decode()
    assert "<dd>4,3</dd>" in french and "<dd>1 sur 2 (50\u00a0%)</dd>" in french
    assert "Statistiques" in french


def test_statistics_of_a_phone_without_games_say_so_and_home_links_to_them(client):
    page = client.get("/stats/").content.decode()
    assert "No round played on this phone yet" in page
    assert 'href="/stats/"' in client.get("/").content.decode()


def test_the_count_of_finished_games_agrees_with_its_number_in_both_languages(client):
    """ "(1 terminées)" was the plural of the games, not of the finished ones."""
    games = [make_game("koubo", ("Léa", "Marc"), {"rounds": 2}) for _ in range(3)]
    for game in games:
        save(client, game, 1, (2, 9), caller="Léa")
    save(client, games[0], 2, (4, 4))
    french = in_french(client, "/stats/").content.decode()
    assert "D’après les 3 parties que connaît ce téléphone (1 terminée)" in french
    client.cookies["django_language"] = "en"
    english = client.get("/stats/").content.decode()
    assert "From the 3 games this phone knows (1 finished)" in english
    save(client, games[2], 2, (1, 9))
    french = in_french(client, "/stats/").content.decode()
    assert "D’après les 3 parties que connaît ce téléphone (2 terminées)" in french


def test_every_stored_fact_of_a_round_is_on_its_sheet(client):
    """Emptied hands, penalties and their reasons, the caller, the counter-caller
    and the penalty cards stored with a round are each shown where the round is."""
    data = {
        "format": gamefile.GAME_FORMAT,
        "variant": "dutch",
        "players": ["Léa", "Marc", "Nina"],
        "rounds": [
            {
                "hands": {"Léa": 0, "Marc": 7, "Nina": 9},
                "caller": "Marc",
                "emptied": ["Léa"],
                "penalties": [{"player": "Nina", "points": 5, "reason": "looked at a card"}],
            }
        ],
    }
    game = Game.objects.store(gamefile.game_from_json(data))
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    history = page[page.index('id="history"') :]
    assert "Emptied hand: Léa" in history
    assert "Marc called Dutch" in history
    assert "Nina: 5 penalty points (looked at a card)" in history
    shared = client.get(f"/s/{game.share_key}/").content.decode()
    assert "Emptied hand: Léa" in shared
