"""Text and numbers are checked once, where they enter (forms, imports): what is stored can
always be shown, exported and backed up, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json

import pytest

from scoring.referee.engine import GameError
from scoring.referee.gamefile import read_game
from scoring.store.models import Game, Round
from tests.helpers import EXAMPLES

pytestmark = pytest.mark.django_db


def example_with(change) -> str:
    data = json.loads((EXAMPLES / "cabo_bruxellois.game.json").read_text())
    change(data)
    return json.dumps(data)  # ensure_ascii: "\ud800" stays an escape, as a crafted file has it


def set_reason(text):
    def change(data):
        data["rounds"][0]["penalties"] = [{"player": "Léa", "points": 2, "reason": text}]

    return change


@pytest.mark.parametrize("text", ["\ud800", "a\u0000b", "\udfff end", "bell\u0007"])
def test_a_file_with_text_that_cannot_be_stored_is_refused_naming_where(text):
    with pytest.raises(GameError, match=r"rounds\[0\]\.penalties\[0\]\.reason holds a control"):
        read_game(example_with(set_reason(text)))


def test_a_player_name_used_as_a_key_is_checked_too():
    def change(data):
        hands = data["rounds"][0]["hands"]
        hands["Lé\u0000a"] = hands.pop("Léa")

    with pytest.raises(GameError, match=r"hands\.Lé\\x00a \(a key\) holds a control"):
        read_game(example_with(change))


@pytest.mark.parametrize("text", ["\ud800", "\u0000"])
def test_importing_such_a_file_stores_nothing_and_says_why(client, tmp_path, text):
    path = tmp_path / "crafted.json"
    path.write_text(example_with(set_reason(text)))
    with path.open("rb") as upload:
        response = client.post("/import/", {"file": upload})
    assert response.status_code == 400 and "holds a control character" in response.content.decode()
    assert not Game.objects.exists() and not Round.objects.exists()


def test_a_reason_with_a_control_character_is_refused_next_to_it(client):
    game = Game.objects.create(variant="cabo_bruxellois", players=["Léa", "Marc"])
    posted = {"number": "1", "save": "1", "total_0": "3", "total_1": "4"}
    posted |= {"penalty-TOTAL_FORMS": "1", "penalty-INITIAL_FORMS": "0"}
    posted |= {"penalty-0-player": "Marc", "penalty-0-points": "2", "penalty-0-reason": "a\u0007b"}
    response = client.post(f"/g/{game.edit_key}/", posted)
    assert response.status_code == 400 and not Round.objects.exists()
    assert "Remove the control character from the reason." in response.content.decode()


def test_nine_names_are_refused_not_cut_to_eight(client):
    names = {f"name_{i}": f"P{i}" for i in range(9)}
    response = client.post("/new/tamalou/", {**names})
    assert response.status_code == 400 and not Game.objects.exists()
    assert "A game needs 2 to 8 players, not 9." in response.content.decode()


THRESHOLD = "“A call is allowed with at most”"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("-1", f"{THRESHOLD} must be a number from 0 to 100."),
        ("101", f"{THRESHOLD} must be a number from 0 to 100."),
        ("5,5", f"{THRESHOLD} is 5.5: only whole points in this variant."),
        ("²", "Enter a number with the digits 0 to 9."),
    ],
)
def test_a_house_setting_out_of_its_bounds_is_refused_next_to_it(client, value, message):
    data = {"name_0": "Léa", "name_1": "Marc", "call_threshold": value}
    page = client.post("/new/tamalou/", data).content.decode()
    assert not Game.objects.exists()
    field = page[page.index('id="id_call_threshold"') :]
    assert message in field[: field.index("</div>")]


def test_a_setting_at_its_bounds_is_taken(client):
    data = {"name_0": "Léa", "name_1": "Marc", "call_threshold": "0", "rounds": "999"}
    assert client.post("/new/tamalou/", {**data}).status_code == 302
    assert Game.objects.get().settings == {"call_threshold": 0, "rounds": 999}


def test_a_name_longer_than_40_characters_is_refused_next_to_its_field(client):
    data = {"name_0": "Léa", "name_1": "x" * 41}
    page = client.post("/new/tamalou/", data).content.decode()
    row = page[page.index('name="name_1"') :]
    assert "at most 40 characters" in row[: row.index("</li>")]
    assert 'maxlength="40"' in page


def test_the_100_to_50_tag_shows_only_after_the_round_that_did_it(client):
    game = Game.objects.create(variant="tamoul", players=["Léa", "Marc"])
    Round.objects.create(game=game, position=1, data={"hands": {"Léa": 90, "Marc": 3}})
    Round.objects.create(game=game, position=2, data={"hands": {"Léa": 10, "Marc": 3}})
    before = client.get(f"/g/{game.edit_key}/").content.decode()
    assert '<span class="tag">100 → 50</span>' in before
    Round.objects.create(game=game, position=3, data={"hands": {"Léa": 4, "Marc": 3}})
    Game.objects.filter(pk=game.pk).update(state="after-round-3")  # a new version, as a write
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    standings = page[
        page.index('id="totals"') : page.index("</section>", page.index('id="totals"'))
    ]
    assert "100 → 50" in page  # the chart's line is always there; the tag is not
    assert "100 → 50" not in standings


def test_the_rules_page_shows_the_games_house_values(client):
    page = client.get("/rules/tamalou/?joker_value=20&card=JOKER").content.decode()
    assert "Points: 20" in page and "Joker value 20" in page
    assert "Points: 0" in client.get("/rules/tamalou/?card=JOKER").content.decode()
    odd = client.get("/rules/tamalou/?joker_value=%00&call_threshold=²&card=JOKER")
    assert odd.status_code == 200 and "Points: 0" in odd.content.decode()


def test_a_broken_hidden_field_is_said_at_the_top_of_the_form(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    posted = {"number": "²", "save": "1", "total_0": "3", "total_1": "4"}
    response = client.post(f"/g/{game.edit_key}/", posted)
    assert response.status_code == 400 and "Enter a whole number." in response.content.decode()
    page = client.post("/new/tamalou/", {"name_0": "Léa", "name_1": "Marc", "dealer": "²"})
    assert page.status_code == 400 and "Select a valid choice." in page.content.decode()
    assert not Round.objects.exists() and Game.objects.count() == 1


def test_a_setting_of_thousands_of_digits_in_the_rules_link_is_left_out(client):
    response = client.get("/rules/dutch/?decks=" + "9" * 5000)
    assert response.status_code == 200


@pytest.mark.parametrize("language", ["en", "fr"])
def test_names_with_emoji_are_kept_and_an_invisible_character_is_refused_by_its_field(
    client, language
):
    client.cookies["django_language"] = language
    names = {"name_0": "Chef 👩\u200d🍳", "name_1": "👨\u200d👩\u200d👧", "name_2": "Zoé 🇫🇷"}
    bad = client.post("/new/tamalou/", {**names, "name_1": "Ma\u200brc"})
    page = bad.content.decode()
    row = page[page.index('name="name_1"') :]
    message = {
        "en": "Player 2: the name has an invisible control character.",
        "fr": "Joueur 2 : le nom contient un caractère de contrôle invisible.",
    }[language]
    assert message.replace(" :", "\u202f:") in row[: row.index("</li>")]
    assert not Game.objects.exists()
    assert client.post("/new/tamalou/", {**names}).status_code == 302
    game = Game.objects.get()
    assert game.players == list(names.values())
    sheet = client.get(f"/g/{game.edit_key}/").content.decode()
    assert all(name in sheet for name in names.values())
