"""Tables through the test client: made from the home page or kept from a game, opened by
their edit and read-only links on other phones, a new game started from one (its players,
rules and dealer filled in, the game in the table), imports into one, and what a table's key
never opens (a game's edit link this phone does not hold)."""

from __future__ import annotations

import re

import pytest

from scoring.referee import gamefile
from scoring.store.models import Game, Table
from tests.web.helpers import phone, stored_game

pytestmark = pytest.mark.django_db


def make_table(client, name="Jeudis chez Léa", players="Léa\nMarc\nNina") -> Table:
    response = client.post("/t/new/", {"name": name, "players": players})
    assert response.status_code == 302
    table = Table.objects.get(name=name)
    assert response["Location"] == f"/t/{table.edit_key}/"
    return table


# --- making a table -------------------------------------------------------------------------


def test_a_table_made_on_the_home_page_is_kept_in_the_phones_list():
    client = phone()
    assert "New table" in client.get("/").content.decode()
    table = make_table(client, players="Léa\n  Marc \n\nNina\n")
    assert table.players == ["Léa", "Marc", "Nina"]  # as typed, trimmed, blank lines left out
    assert table.edit_key != table.read_key and len(table.edit_key) >= 22
    page = client.get(f"/t/{table.edit_key}/").content.decode()
    assert "Jeudis chez Léa" in page and "Léa, Marc, Nina" in page
    home = client.get("/").content.decode()
    assert f'href="/t/{table.edit_key}/"' in home
    assert f"/new/tamalou/?table={table.edit_key}" in home  # the next game, one tap


@pytest.mark.parametrize(
    ("language", "example"), [("en", "Thursdays at Léa&#x27;s"), ("fr", "Jeudis chez Léa")]
)
def test_the_name_box_of_a_new_table_shows_an_example_in_the_phones_language(language, example):
    home = phone(language).get("/").content.decode()
    assert f'placeholder="{example}"' in home


@pytest.mark.parametrize(
    ("name", "players", "field", "message"),
    [
        ("", "Léa\nMarc", "name", "Enter a name."),
        ("   ", "", "name", "Enter a name."),
        ("x" * 41, "", "name", "A name has at most 40 characters."),
        ("x" * 300, "", "name", "A name has at most 40 characters."),
        ("Bad\u0007name", "", "name", "The name has an invisible control character."),
        ("Jeudis", "Léa\nléa", "players", "same name"),
        ("Jeudis", "A" * 41, "players", "at most 40 characters"),
    ],
)
def test_a_table_refused_says_why_beside_the_field_and_makes_nothing(name, players, field, message):
    client = phone()
    response = client.post("/t/new/", {"name": name, "players": players})
    assert response.status_code == 400
    form = response.context["table_form"]
    assert any(message in error for error in form.errors[field])
    assert message.replace("'", "&#x27;") in response.content.decode()
    assert not Table.objects.exists()


def test_making_tables_is_rate_limited(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "table": "2/m"}
    client = phone()
    for n in range(2):
        assert client.post("/t/new/", {"name": f"T{n}"}).status_code == 302
    assert client.post("/t/new/", {"name": "T3"}).status_code == 429
    assert Table.objects.count() == 2


def test_keep_this_table_takes_the_games_players_and_rules_and_the_game():
    client = phone()
    game = stored_game(["Léa", "Marc", "Nina"], [[3, 10, 12]], rounds=5)
    game.rules_name = ""
    sheet = client.get(f"/g/{game.edit_key}/").content.decode()
    assert "Keep this table" in sheet
    response = client.post(f"/g/{game.edit_key}/table/", {"name": "Chez Marc"})
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/t/{table.edit_key}/"
    assert table.players == ["Léa", "Marc", "Nina"]
    assert (table.variant, table.settings) == ("tamalou", {"rounds": 5})
    game.refresh_from_db()
    assert game.table == table
    sheet = client.get(f"/g/{game.edit_key}/").content.decode()
    assert "Keep this table" not in sheet
    assert f'href="/t/{table.edit_key}/">Chez Marc</a>' in sheet
    # Kept once: a second post makes no other table and leaves the game where it is.
    client.post(f"/g/{game.edit_key}/table/", {"name": "Another"})
    assert Table.objects.count() == 1


def test_two_taps_on_keep_this_table_that_both_found_the_game_in_no_table_make_one_table():
    """Two taps (a double tap, or two phones) whose requests both read the game before either
    kept it: the second waits for the first on the game's lock, then makes no other table."""
    game = stored_game(["Léa", "Marc"], [[3, 10]])
    first, second = Game.objects.get(pk=game.pk), Game.objects.get(pk=game.pk)
    kept = first.keep_in_table("Chez Marc")
    assert second.keep_in_table("Chez Léa") is None
    assert list(Table.objects.all()) == [kept]
    game.refresh_from_db()
    assert game.table == kept


def test_keep_this_table_without_a_name_says_so_on_the_sheet():
    client = phone()
    game = stored_game(["Léa", "Marc"], [[3, 10]])
    response = client.post(f"/g/{game.edit_key}/table/", {"name": " "})
    assert response.status_code == 400
    assert "Enter a name." in response.content.decode()
    assert not Table.objects.exists()
    game.refresh_from_db()
    assert game.table is None


def test_a_games_key_never_leads_to_its_tables_edit_link():
    owner, other = phone(), phone()
    table = make_table(owner)
    game = stored_game(["Léa", "Marc"], [[3, 10]])
    table.attach(game)
    page = other.get(f"/g/{game.edit_key}/").content.decode()
    assert table.edit_key not in page and table.read_key not in page
    assert "Jeudis chez Léa" in page  # its name only


def test_a_phone_following_a_game_lists_it_and_its_table_read_only():
    """A game's read-only link: the phone lists the game and its table, both read-only (the
    table's page then by its read-only link, never its edit link)."""
    owner, viewer = phone(), phone()
    table = make_table(owner)
    game = stored_game(["Léa", "Marc"], [[3, 10]])
    table.attach(game)
    sheet = viewer.get(f"/s/{game.share_key}/").content.decode()
    assert table.edit_key not in sheet
    assert f'href="/t/r/{table.read_key}/"' in sheet
    home = viewer.get("/").content.decode()
    assert f'href="/s/{game.share_key}/"' in home and f'href="/t/r/{table.read_key}/"' in home
    assert table.edit_key not in home and game.edit_key not in home
    assert table.edit_key not in viewer.get(f"/t/r/{table.read_key}/").content.decode()


# --- a new game from the table -----------------------------------------------------------------


def test_a_new_game_from_the_table_takes_its_players_rules_and_next_dealer():
    client = phone()
    table = make_table(client, players="Léa\nMarc\nNina\nOlga\nPaul")
    first = stored_game(["Léa", "Marc", "Nina", "Olga", "Paul"], [[1, 2, 3, 4, 5]], rounds=8)
    Game.objects.filter(pk=first.pk).update(first_dealer=1, rules_name="Chez Léa")
    first.refresh_from_db()
    table.attach(first)
    page = client.get(f"/new/tamalou/?table={table.edit_key}")
    form = page.context["form"]
    assert [form[f"name_{n}"].value() for n in range(5)] == ["Léa", "Marc", "Nina", "Olga", "Paul"]
    assert form["dealer"].value() == "2"  # Marc dealt the last game: Nina deals this one
    assert form["rounds"].value() == "8" and form["rules_name"].value() == "Chez Léa"
    assert form["table"].value() == table.edit_key
    html = page.content.decode()
    assert "Jeudis chez Léa" in html
    # Start the game: the form as the page shows it, posted back.
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data = {k: v for k, v in data.items() if v is not False and not form.fields[k].disabled}
    response = client.post("/new/tamalou/", data)
    assert response.status_code == 302
    game = Game.objects.exclude(pk=first.pk).get()
    assert response["Location"] == f"/g/{game.edit_key}/"
    assert game.table == table and game.players == table.players
    assert (game.first_dealer, game.settings, game.rules_name) == (2, {"rounds": 8}, "Chez Léa")


def test_changed_seats_and_a_player_sitting_out_are_the_tables_next_seats():
    client = phone()
    table = make_table(client, players="Léa\nMarc\nNina")
    data = {"name_0": "Nina", "name_1": "Léa", "dealer": "0", "table": table.edit_key}
    response = client.post("/new/gabo/", data)
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.players == ["Nina", "Léa", "Marc"]  # Marc sat out: kept, after them
    assert table.variant == "gabo"
    assert Game.objects.get().table == table


def test_a_table_key_that_is_no_tables_starts_a_game_of_no_table():
    client = phone()
    data = {"name_0": "A", "name_1": "B", "table": "nope"}
    assert client.post("/new/tamalou/", data).status_code == 302
    assert Game.objects.get().table is None
    page = client.get("/new/tamalou/?table=%00bad").content.decode()
    assert "Start the game" in page


def test_a_game_started_from_the_table_is_offered_on_every_page_of_the_one_before():
    """The next game started from the table's page (not by Rematch) is where the
    finished game's scorers and viewers go on: its sheet links it by the link each phone
    holds, and a viewer's live part moves on to it by itself."""
    client = phone()
    table = make_table(client, players="Léa\nMarc")
    game = stored_game(["Léa", "Marc"], [[3, 10]], rounds=1)
    table.attach(game)
    viewer = phone("fr")
    share = f"/s/{game.share_key}/"
    etag = viewer.get(f"{share}live/")["ETag"]
    data = {"name_0": "Léa", "name_1": "Marc", "dealer": "1", "table": table.edit_key}
    assert client.post("/new/gabo/", data).status_code == 302
    new = Game.objects.get(variant="gabo")
    game.refresh_from_db()
    assert game.next_game == new
    sheet = client.get(f"/g/{game.edit_key}/").content.decode()
    assert f'href="/g/{new.edit_key}/"' in sheet and "Go to the next game" in sheet
    page = viewer.get(share).content.decode()
    assert f'href="/s/{new.share_key}/"' in page and new.edit_key not in page
    live = viewer.get(f"{share}live/", headers={"HX-Request": "true", "If-None-Match": etag})
    assert live.status_code == 200 and live["HX-Redirect"] == f"/s/{new.share_key}/"
    # A third game from the table follows the second, not the first again.
    assert client.post("/new/gabo/", data).status_code == 302
    new.refresh_from_db()
    game.refresh_from_db()
    assert game.next_game == new and new.next_game == Game.objects.latest("created_at")


def test_a_rematch_stays_at_the_table():
    client = phone()
    table = make_table(client)
    game = stored_game(["Léa", "Marc"], [[3, 10]], rounds=1)
    table.attach(game)
    client.post(f"/g/{game.edit_key}/rematch/")
    game.refresh_from_db()
    assert game.next_game.table == table


def test_a_game_imported_from_the_tables_page_joins_it(tmp_path):
    client = phone()
    table = make_table(client)
    page = client.get(f"/t/{table.edit_key}/").content.decode()
    assert f"/import/?table={table.edit_key}" in page
    made = stored_game(["Léa", "Marc"], [[3, 10]])
    path = tmp_path / "game.json"
    path.write_text(gamefile.dumps(made.game_file()))
    with path.open("rb") as file:
        response = client.post(f"/import/?table={table.edit_key}", {"file": file})
    assert response.status_code == 302
    imported = Game.objects.get(imported=True)
    assert imported.table == table


# --- two phones, and what each key opens ------------------------------------------------------


def test_games_started_on_either_phone_appear_on_both_each_by_the_link_it_may_open():
    one, two = phone(), phone("fr")
    table = make_table(one)
    assert two.get(f"/t/{table.edit_key}/").status_code == 200  # the link, sent to phone two
    data = {"name_0": "Léa", "name_1": "Marc", "table": table.edit_key}
    one.post("/new/tamalou/", data)
    two.post("/new/tamalou/", data)
    from_one, from_two = Game.objects.order_by("pk")
    assert from_one.table == from_two.table == table
    page_one = one.get(f"/t/{table.edit_key}/").content.decode()
    page_two = two.get(f"/t/{table.edit_key}/").content.decode()
    # Each phone opens its own game by its edit link, the other's read-only.
    assert f"/g/{from_one.edit_key}/" in page_one and f"/s/{from_two.share_key}/" in page_one
    assert from_two.edit_key not in page_one
    assert f"/g/{from_two.edit_key}/" in page_two and f"/s/{from_one.share_key}/" in page_two
    assert from_one.edit_key not in page_two
    assert "Parties par soirée" in page_two  # phone two reads French


def test_the_read_only_link_shows_games_by_their_read_only_links_only():
    owner, reader = phone(), phone()
    table = make_table(owner)
    data = {"name_0": "Léa", "name_1": "Marc", "table": table.edit_key}
    owner.post("/new/tamalou/", data)
    game = Game.objects.get()
    # Even the phone that holds the game's edit link reads the read-only page read-only.
    for client in (owner, reader):
        page = client.get(f"/t/r/{table.read_key}/").content.decode()
        assert f"/s/{game.share_key}/" in page
        assert game.edit_key not in page and table.edit_key not in page
        assert "/rename/" not in page and "New game at this table" not in page
    home = reader.get("/").content.decode()
    assert f'href="/t/r/{table.read_key}/"' in home and table.edit_key not in home
    assert reader.get(f"/t/{table.read_key}/").status_code == 404  # a read key opens no edit page
    assert reader.post(f"/t/r/{table.read_key}/").status_code == 405


def test_the_tables_page_shows_its_read_only_link_and_qr_code():
    client = phone()
    table = make_table(client)
    page = client.get(f"/t/{table.edit_key}/").content.decode()
    assert f"http://testserver/t/r/{table.read_key}/" in page
    assert "<svg" in page and 'data-share="http://testserver/t/r/' in page


def test_a_table_taken_off_the_phone_stays():
    client = phone()
    table = make_table(client)
    page = client.get(f"/t/{table.edit_key}/").content.decode()
    assert f"/t/{table.edit_key}/forget/" in page
    assert client.post(f"/t/{table.edit_key}/forget/").status_code == 302
    assert table.edit_key not in client.get("/").content.decode()
    assert Table.objects.filter(pk=table.pk).exists()
    reader = phone()
    reader.get(f"/t/r/{table.read_key}/")
    reader.post(f"/t/r/{table.read_key}/remove/")
    assert table.read_key not in reader.get("/").content.decode()


def test_unknown_or_malformed_table_keys_are_404s():
    client = phone()
    for path in ("/t/nope/", "/t/r/nope/", "/t/nope/rename/", "/t/%00/", "/t/r/" + "a" * 40 + "/"):
        assert client.get(path).status_code == 404


def test_a_table_page_names_no_key_of_a_game_this_phone_lacks_in_its_html():
    owner, other = phone(), phone()
    table = make_table(owner)
    game = stored_game(["Léa", "Marc"], [[3, 10]])
    table.attach(game)
    page = other.get(f"/t/{table.edit_key}/").content.decode()
    assert re.findall(r"/g/([A-Za-z0-9_-]+)/", page) == []


def test_the_tables_players_are_offered_as_names_are_typed():
    client = phone()
    make_table(client, players="Zoé\nYann")
    page = client.get("/new/tamalou/").content.decode()
    assert '<option value="Zoé"></option><option value="Yann"></option>' in page


def test_a_phone_keeps_its_ten_latest_tables():
    client = phone()
    tables = [make_table(client, name=f"T{n}") for n in range(11)]
    home = client.get("/").content.decode()
    assert f"/t/{tables[0].edit_key}/" not in home
    assert all(f"/t/{table.edit_key}/" in home for table in tables[1:])


def test_the_tables_page_names_the_house_settings_of_its_last_game():
    """A limit and a number of rounds: named on the table's page, which named
    only the variant."""
    client = phone()
    table = make_table(client, players="Léa\nMarc")
    game = stored_game(["Léa", "Marc"], [[3, 10]], variant="tamoul", rounds=3)
    Game.objects.filter(pk=game.pk).update(settings={"rounds": 3, "limit": 150})
    game.refresh_from_db()
    table.attach(game)
    page = client.get(f"/t/{table.edit_key}/").content.decode()
    line = page[page.index("House rules of its last game:") :].split("</p>")[0]
    assert "Tamoul" in line and "rounds 3" in line and "limit 150" in line
