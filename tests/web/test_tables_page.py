"""A table's page through the test client: its standings over all and per variant equal a
recomputation from its games' files, the period it looks at, two players face to face, the
games by evening, and the chart of wins over time."""

from __future__ import annotations

import re
from datetime import timedelta
from fractions import Fraction

import pytest
from django.utils import timezone

from scoring.referee import engine
from scoring.store.models import Game, Table
from tests.web.helpers import SEATS, evening_table, figures, phone, recomputed, stored_game

pytestmark = pytest.mark.django_db


def test_the_standings_equal_a_recomputation_from_the_games_files():
    table, games = evening_table()
    response = phone().get(f"/t/{table.edit_key}/")
    assert response.status_code == 200
    overall, by_variant = recomputed(games)
    assert figures(response.context["overall"]) == figures(overall)
    shown = {variant.key: figures(rows) for variant, rows in response.context["variants"]}
    assert shown == {key: figures(rows) for key, rows in by_variant.items()}
    # And by hand, from the sheets ("lea", of the Gabo game, is another player until merged).
    lea = next(r for r in response.context["overall"] if r.name == "Léa")
    sheets = [engine.score_game(g.as_entry()) for g in games]
    assert (lea.won, lea.games) == (2, 2)
    assert lea.won == sum("Léa" in s.winners for s in sheets)
    assert lea.hands == 5 == sum("Léa" in r.scores for s in sheets for r in s.rounds)
    assert lea.hand_points == 3 + 5 + 0 + 12 + 6
    assert (lea.calls, lea.calls_succeeded) == (2, 2)
    assert "lea" in [r.name for r in response.context["overall"]]


def test_the_standings_are_shown_in_both_languages():
    table, _ = evening_table()
    page = phone().get(f"/t/{table.edit_key}/").content.decode()
    assert "Standings" in page and "Games by evening" in page and "Wins over time" in page
    assert re.search(r"<th scope=\"row\">Léa</th><td class=\"num\">\d+</td>", page)
    french = phone("fr").get(f"/t/{table.edit_key}/").content.decode()
    assert "Classement" in french and "Parties par soirée" in french
    assert "Victoires au fil du temps" in french and "Face-à-face" in french


def test_the_period_looks_at_this_month_this_year_or_everything():
    table, games = evening_table()
    now = timezone.localtime()  # the table's months are the server's (TIME_ZONE), not UTC's
    last_month = now.replace(day=1, hour=12) - timedelta(days=1)
    Game.objects.filter(pk=games[0].pk).update(created_at=now - timedelta(days=800))
    Game.objects.filter(pk=games[1].pk).update(created_at=last_month)
    client = phone()
    counts = {}
    for period in ("all", "year", "month"):
        response = client.get(f"/t/{table.edit_key}/?period={period}")
        counts[period] = response.context["games"]
        assert response.context["period"] == period
        label = {"all": "Everything", "year": "This year", "month": "This month"}[period]
        assert f'aria-current="page">{label}</a>' in response.content.decode()
    assert counts["all"] == 5 and counts["month"] == 3
    # Last month is this year, unless this is January.
    assert counts["year"] == (3 if now.month == 1 else 4)
    # A period no link gives is everything; nothing breaks.
    response = client.get(f"/t/{table.edit_key}/?period=decade&a=%00&b=x")
    assert response.status_code == 200 and response.context["period"] == "all"


def test_two_players_face_to_face():
    table, _ = evening_table()
    response = phone().get(f"/t/{table.edit_key}/", {"a": "Léa", "b": "Marc"})
    duel = response.context["duel"]
    # Finished games both played: the two Tamalou games of four (the one of three is not
    # over; in the Gabo game she is "lea", another name).
    assert duel.together == 2
    assert (duel.a_ahead, duel.b_ahead, duel.level, duel.a_won, duel.b_won) == (2, 0, 0, 2, 0)
    assert (duel.a_points, duel.b_points) == (Fraction(5 + 0), Fraction(10 + 9))
    page = response.content.decode()
    assert "2 finished games together" in page
    assert phone().get(f"/t/{table.edit_key}/", {"a": "Léa", "b": "Léa"}).context["duel"] is None


def test_the_games_by_evening_each_open_their_sheet():
    table, games = evening_table()
    yesterday = timezone.now() - timedelta(days=1)
    Game.objects.filter(pk=games[0].pk).update(created_at=yesterday)
    client = phone()
    for game in games[1:3]:
        client.get(f"/g/{game.edit_key}/")  # this phone holds these two
    response = client.get(f"/t/{table.edit_key}/")
    evenings = response.context["evenings"]
    assert [len(items) for _, items in evenings] == [4, 1]
    page = response.content.decode()
    for game in games:
        if game in games[1:3]:
            assert f'href="/g/{game.edit_key}/"' in page
        else:
            assert f'href="/s/{game.share_key}/"' in page and game.edit_key not in page


def test_the_chart_draws_each_winners_wins_game_after_game():
    table, _ = evening_table()
    page = phone().get(f"/t/{table.edit_key}/").content.decode()
    chart = re.search(r'<section id="wins-chart">.*?</section>', page, re.S).group(0)
    lines = re.findall(r'<polyline class="p\d[^"]*" points="([^"]+)"', chart)
    winners = {
        p
        for g in Game.objects.filter(table=table)
        if (s := g.stored_summary()).finished
        for p in s.winners
    }
    assert len(lines) == len({w.casefold() for w in winners})
    assert all(len(points.split()) == 4 for points in lines)  # none yet, then three games
    assert 'role="img"' in chart and "over 3 finished games" in chart


def test_a_table_without_a_game_says_so():
    table = Table.objects.create(name="Vide")
    response = phone().get(f"/t/{table.edit_key}/")
    page = response.content.decode()
    assert "No round played at this table" in page and "wins-chart" not in page
    assert response.context["chart"] is None


def test_a_tambouille_match_is_listed_but_not_counted_in_the_standings():
    table = Table.objects.create(name="Tambouille", players=["A", "B"])
    match = Game.objects.create(variant="tambouille", players=["A", "B"])
    table.attach(match)
    response = phone().get(f"/t/{table.edit_key}/")
    assert response.context["overall"] == [] and len(response.context["evenings"]) == 1


def test_a_round_saved_shows_on_the_tables_page_at_once():
    table, games = evening_table()
    client = phone()
    before = client.get(f"/t/{table.edit_key}/").context["overall"]
    nina = next(r for r in before if r.name == "Nina")
    game = games[2]  # 2 rounds of 3, not over
    data = {"number": 3, "save": "1", "caller": "", "nobody_called": "1"}
    data |= {f"total_{seat}": str(total) for seat, total in enumerate((9, 9, 1))}
    assert client.post(f"/g/{game.edit_key}/", data).status_code == 302
    after = client.get(f"/t/{table.edit_key}/").context["overall"]
    fresh = next(r for r in after if r.name == "Nina")
    assert fresh.hands == nina.hands + 1 and fresh.games == nina.games + 1
    overall, _ = recomputed(list(table.games.all()))
    assert figures(after) == figures(overall)


def test_the_chart_of_many_games_draws_at_most_sixty_points_a_line():
    table = Table.objects.create(name="Long", players=["A", "B"])
    for n in range(130):
        game = stored_game(["A", "B"], [[n % 2, 1 - n % 2]], rounds=1)
        table.attach(game)
    page = phone().get(f"/t/{table.edit_key}/").content.decode()
    lines = re.findall(r'<polyline class="p\d[^"]*" points="([^"]+)"', page)
    assert len(lines) == 2 and all(len(points.split()) <= 61 for points in lines)
    assert [points.split()[-1].split(",")[1] for points in lines] == ["24.0", "24.0"]  # 65 each


def test_the_page_lists_the_latest_ten_evenings_and_every_one_on_its_link():
    table = Table.objects.create(name="Jeudis", players=["A", "B"])
    now = timezone.now()
    for day in range(12):
        game = stored_game(["A", "B"], [[1, 2]], rounds=1)
        Game.objects.filter(pk=game.pk).update(created_at=now - timedelta(days=7 * day))
        table.attach(game)
    client = phone()
    response = client.get(f"/t/{table.edit_key}/")
    assert len(response.context["evenings"]) == 10
    assert "?period=all&amp;evenings=True#evenings" in response.content.decode()
    every = client.get(f"/t/{table.edit_key}/?period=all&evenings=True")
    assert len(every.context["evenings"]) == 12 and not every.context["more_evenings"]
    assert "Toutes les soirées" in phone("fr").get(f"/t/{table.edit_key}/").content.decode()


def test_the_wins_chart_draws_in_french_with_points_for_decimals():
    """An SVG reads its coordinates with a decimal point: the French page wrote "24,0", and
    the chart's lines did not draw."""
    table, _ = evening_table()
    page = phone("fr").get(f"/t/{table.edit_key}/").content.decode()
    chart = re.search(r'<section id="wins-chart">.*?</section>', page, re.S).group(0)
    assert "Victoires" in chart or "victoires" in chart
    coordinates = re.findall(r' (?:x1|x2|y1|y2|x|y)="([^"]*)"', chart)
    assert coordinates and all(re.fullmatch(r"-?\d+(\.\d+)?", c) for c in coordinates)


def test_the_table_shares_its_own_link_and_the_read_only_one_shares_only_itself():
    """By its edit link, the table's page gives its own link (QR code, share button) for the
    table's regulars, and the read-only link beside it; by the read-only link, only that."""
    table, _ = evening_table()
    own = phone().get(f"/t/{table.edit_key}/").content.decode()
    panel = re.search(r'<details class="share">.*?</details>', own, re.S).group(0)
    assert f'href="http://testserver/t/{table.edit_key}/"' in panel
    assert f'data-share="http://testserver/t/{table.edit_key}/"' in panel
    assert f'href="http://testserver/t/r/{table.read_key}/"' in panel
    assert panel.count("<svg") == 1  # one QR code: the table's own
    read_only = phone().get(f"/t/r/{table.read_key}/").content.decode()
    assert table.edit_key not in read_only
    assert f'data-share="http://testserver/t/r/{table.read_key}/"' in read_only


def test_compare_answers_where_the_face_to_face_is():
    table, _ = evening_table()
    page = phone().get(f"/t/{table.edit_key}/").content.decode()
    assert re.search(r'<form method="get" action="#duel" class="duel">', page)


def test_one_finished_game_draws_its_winners_line():
    """A single finished game: the winner's line goes from no win to one (a line of one point
    drew nothing)."""
    table = Table.objects.create(name="Jeudis", players=SEATS)
    table.attach(stored_game(SEATS, [[3, 10, 12, 20]], rounds=1, callers=["Léa"]))
    page = phone().get(f"/t/{table.edit_key}/").content.decode()
    chart = re.search(r'<section id="wins-chart">.*?</section>', page, re.S).group(0)
    (line,) = re.findall(r'<polyline class="p\d[^"]*" points="([^"]+)"', chart)
    first, last = line.split()
    assert first.split(",")[1] != last.split(",")[1]  # it rises
