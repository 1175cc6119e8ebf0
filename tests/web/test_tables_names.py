"""A table's player renamed, and two names merged ("lea" into "Léa"): asked first, then
written in the table and in every one of its games (their rounds, summaries and score
sheets, through each game's own write), or refused with nothing changed."""

from __future__ import annotations

import pytest

from scoring.referee import engine, story
from scoring.store.models import Game, Round
from tests.web.helpers import evening_table, phone

pytestmark = pytest.mark.django_db


def rename(client, table, old, new, confirm=False):
    data = {"old": old, "new": new} | ({"confirm": "True"} if confirm else {})
    return client.post(f"/t/{table.edit_key}/rename/", data)


def test_a_rename_is_asked_then_written_everywhere_the_player_played():
    table, _games = evening_table()
    client = phone()
    page = client.get(f"/t/{table.edit_key}/rename/").content.decode()
    assert (
        '<option value="Nina">Nina</option>' in page and '<option value="lea">lea</option>' in page
    )
    states = {g.pk: g.state for g in Game.objects.all()}
    played = {g.pk for g in Game.objects.all() if "Nina" in g.players}
    asked = rename(client, table, "Nina", "Ninon")
    assert asked.status_code == 200
    text = asked.content.decode()
    assert "Nina is renamed Ninon: in the table and in its 4 games where Nina played." in text
    assert "Yes, rename" in text and 'name="confirm"' in text
    assert {g.pk: g.state for g in Game.objects.all()} == states  # nothing changed yet
    done = rename(client, table, "Nina", "Ninon", confirm=True)
    assert done.status_code == 302 and done["Location"] == f"/t/{table.edit_key}/"
    table.refresh_from_db()
    assert table.players == ["Léa", "Marc", "Ninon", "Olga", "lea"]  # lea sat out last
    for game in Game.objects.filter(table=table):
        assert "Nina" not in game.players
        # A new version where she played (the phones following it see it), none elsewhere.
        assert (game.state != states[game.pk]) == (game.pk in played)
        for stored in Round.objects.filter(game=game):
            assert "Nina" not in stored.data["hands"]
        # The summary and the sheet are the game's, scored afresh.
        fresh = story.summarize(engine.score_game(game.as_entry()))
        assert story.summary_to_json(fresh) == game.summary
        assert game.score().players == tuple(game.players)
    follow = client.get(f"/t/{table.edit_key}/").content.decode()
    assert "Nina is now Ninon in the table and its games." in follow
    assert "Ninon" in follow and ">Nina<" not in follow


def test_two_names_merged_count_as_one_player():
    table, _games = evening_table()
    client = phone()
    asked = rename(client, table, "lea", "Léa").content.decode()
    assert "lea and Léa become one player, Léa" in asked and "Yes, merge them" in asked
    rename(client, table, "lea", "Léa", confirm=True)
    table.refresh_from_db()
    assert table.players == ["Léa", "Marc", "Nina", "Olga"]
    gabo = Game.objects.get(variant="gabo")
    assert gabo.players == ["Léa", "Marc", "Olga"] and gabo.summary["winners"] == ["Léa"]
    page = client.get(f"/t/{table.edit_key}/", {"a": "Léa", "b": "Marc"})
    lea = next(r for r in page.context["overall"] if r.name == "Léa")
    assert (lea.games, lea.won) == (3, 3)
    assert "lea" not in [r.name for r in page.context["overall"]]
    assert page.context["duel"].together == 3


def test_a_merge_typed_in_another_case_keeps_the_spelling_the_table_has():
    table, _games = evening_table()
    client = phone()
    rename(client, table, "lea", "LÉA", confirm=True)
    table.refresh_from_db()
    assert table.players == ["Léa", "Marc", "Nina", "Olga"]
    names = {p for players in Game.objects.values_list("players", flat=True) for p in players}
    assert "Léa" in names and "LÉA" not in names


def test_a_deleted_round_is_renamed_too_and_comes_back_under_the_new_name():
    table, games = evening_table()
    client = phone()
    game = games[2]
    client.get(f"/g/{game.edit_key}/")
    first = game.live_rounds()[0]
    client.post(f"/g/{game.edit_key}/rounds/{first.pk}/delete/")
    rename(client, table, "Marc", "Marco", confirm=True)
    client.post(f"/g/{game.edit_key}/rounds/{first.pk}/restore/")
    game.refresh_from_db()
    assert len(game.live_rounds()) == 2
    assert all("Marco" in r.data["hands"] for r in game.live_rounds())


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("Marc", "Léa", "Marc and Léa played together in 4 of the table&#x27;s games"),
        ("Marc", "marc", None),  # a change of case only: allowed
        ("Marc", "Marc", "This is already the player&#x27;s name."),
        ("Marc", "", "Enter a name."),
        ("Marc", "x" * 41, "A name has at most 40 characters."),
        ("Marc", "x" * 300, "A name has at most 40 characters."),
        ("Marc", "Ma\u0000rc", "Null characters are not allowed."),
        ("Nobody", "Zed", "Select a valid choice."),
    ],
)
def test_a_rename_refused_says_why_and_changes_nothing(old, new, message):
    table, _ = evening_table()
    client = phone()
    states = sorted(Game.objects.values_list("state", flat=True))
    response = rename(client, table, old, new)
    if message is None:
        assert response.status_code == 200
        return
    assert response.status_code == 400
    assert message in response.content.decode()
    response = rename(client, table, old, new, confirm=True)
    assert response.status_code == 400
    assert sorted(Game.objects.values_list("state", flat=True)) == states
    table.refresh_from_db()
    assert table.players == ["Léa", "Marc", "Nina", "Olga", "lea"]


def test_only_the_tables_edit_link_renames():
    table, _ = evening_table()
    client = phone()
    assert client.get(f"/t/{table.read_key}/rename/").status_code == 404
    assert client.post(f"/t/r/{table.read_key}/rename/", {"old": "Marc"}).status_code == 404
    assert "/rename/" not in client.get(f"/t/r/{table.read_key}/").content.decode()


def test_the_rename_page_reads_french():
    table, _ = evening_table()
    client = phone("fr")
    page = client.get(f"/t/{table.edit_key}/rename/").content.decode()
    assert "Renommer ou fusionner des joueurs" in page
    asked = rename(client, table, "Nina", "Ninon").content.decode()
    assert "Nina est renommé Ninon\u202f: dans la table" in asked


def test_a_round_typed_before_a_rename_is_saved_under_the_new_names():
    """The scorer's page was drawn before another phone renamed a player: the round keeps the
    seats it was typed for, and is stored under the names the game has now (it was refused:
    "Bo does not play in this game")."""
    game = Game.objects.create(variant="tamalou", players=["Bo", "Léa"])
    # The scorer's read of the game, then the rename, then its save (as a slow request).
    read = Game.objects.get(pk=game.pk)
    read.read_with_rounds()
    Game.objects.get(pk=game.pk).rename_player("Bo", "Bob")
    read.add_round(1, engine.RoundEntry(hands={"Bo": 3, "Léa": 5}, caller="Bo"))
    assert Round.objects.get().data == {"hands": {"Bob": 3, "Léa": 5}, "caller": "Bob"}
    corrected = engine.RoundEntry(hands={"Bob": 4, "Léa": 5}, caller="Léa")
    Game.objects.get(pk=game.pk).rename_player("Léa", "Lea")
    read.refresh_from_db()
    read.players = ["Bob", "Léa"]  # as the correction's page showed them
    read.replace_round(Round.objects.get().pk, 0, corrected)
    assert Round.objects.get().data == {"hands": {"Bob": 4, "Lea": 5}, "caller": "Lea"}
