"""House rules on the web: the builder on the new-game page (every control set, saved and read
back), saved sets (Save as…, the phone's list, their page, share and keep, changes), and a
game's rules on its sheet, its rules page, its rematch and its file."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from scoring.store.models import Game, RuleSet
from tests.web.helpers import players_shown

pytestmark = pytest.mark.django_db

PLAYERS = {"name_0": "Léa", "name_1": "Marc"}
# Tamalou as Mamie plays it: a joker at −5, K♥ at −1, a failed call costs 10.
MAMIE = {
    **PLAYERS,
    "joker_value": "-5",
    "one_0": "KH",
    "one_0_value": "-1",
    "call_penalty": "10",
    "rules_name": "Chez Mamie",
}
MAMIE_SETTINGS = {"joker_value": -5, "card_values": {"KH": -1}, "call_penalty": 10}


def field_value(page: str, name: str) -> str | None:
    """The value a text field shows (None: no such field)."""
    found = re.search(rf'<input type="text" name="{name}"[^>]*>', page)
    if found is None:
        return None
    value = re.search(r'value="([^"]*)"', found[0])
    return value[1] if value else ""


def errors_of(page: str, name: str) -> list[str]:
    """The errors shown in the builder row of field ``name``."""
    start = page.index(f'name="{name}"')
    row = page[start : page.index("</div>", start)]
    return re.findall(r'<p class="error" role="alert">(.*?)</p>', row)


def save_as(client, variant: str = "tamalou", **data) -> RuleSet | None:
    client.post(f"/new/{variant}/save-rules/", data)
    return RuleSet.objects.order_by("-pk").first()


# --- the builder ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant", ["tamalou", "gabo", "koubo", "dutch", "tamoul", "fontenaysien", "cabo_bruxellois"]
)
def test_the_builder_draws_every_setting_the_variant_declares(client, variant):
    from scoring.referee.variants import VARIANTS

    page = client.get(f"/new/{variant}/").content.decode()
    builder = page[page.index('id="builder"') :]
    assert "<details" in page[page.index('id="builder"') - 40 :][:60]
    for setting in VARIANTS[variant].house_settings:
        if setting.kind == "card_values":
            assert 'name="card_K"' in builder and 'name="one_0"' in builder
        elif setting.kind == "reset":
            assert 'name="reset_at"' in builder and 'name="reset_to"' in builder
        else:
            assert f'name="{setting.name}"' in builder
    assert 'name="rules_name"' in builder and f'formaction="/new/{variant}/save-rules/"' in builder


def test_the_grid_shows_each_rank_of_the_deck_with_its_value(client):
    page = client.get("/new/koubo/").content.decode()
    # Koubo's 32 cards: no 2 to 6; the jack is worth 2, the joker −1, a king red 0 black 11.
    assert field_value(page, "card_J") == "2" and field_value(page, "card_JOKER") == "-1"
    assert field_value(page, "card_5") is None and field_value(page, "card_7") == "7"
    assert field_value(page, "card_K") == ""  # its red and black kings differ
    king = page[page.index('name="card_K"') :]
    assert "♥♦</span> 0 · ♠♣ 11" in king[: king.index("</div>")]
    # Tamalou has a setting of its own for the joker: no second joker control on the grid.
    assert field_value(client.get("/new/tamalou/").content.decode(), "card_JOKER") is None


def test_the_52_card_deck_chosen_in_koubo_brings_its_small_cards(client):
    data = {**PLAYERS, "deck": "52", "jokers": "2"}
    page = client.post("/new/koubo/cards/", data).content.decode()
    assert field_value(page, "card_5") == "5" and field_value(page, "name_0") == "Léa"


def test_each_stepper_has_three_buttons_or_two_when_no_negative_value_is_allowed(client):
    page = client.get("/new/koubo/").content.decode()
    assert 'value="card_JOKER:±"' in page and 'value="call_bonus:±"' in page
    assert 'value="call_penalty:-1"' in page and 'value="call_penalty:±"' not in page
    assert 'inputmode="numeric"' in page[page.index('name="card_JOKER"') - 300 :][:600]


def test_a_changed_value_shows_the_variants_default_beside_it(client):
    page = client.post("/new/koubo/cards/", {**PLAYERS, "card_JOKER": "-5"})
    page = page.content.decode()
    joker = page[page.index('name="card_JOKER"') :]
    note = joker[: joker.index("</small>")]
    assert "default −1" in note and "hidden" not in note
    queen = page[page.index('name="card_Q"') :]
    assert "hidden" in queen[: queen.index("</small>")]  # unchanged: no note
    assert 'class="field house changed"' not in page  # no setting changed


def test_every_control_is_stored_with_the_game(client):
    data = {
        **PLAYERS,
        "rounds": "",  # koubo's 10 rounds lifted
        "decks": "2",
        "deck": "52",
        "jokers": "1",
        "card_J": "11",
        "card_Q": "12",
        "card_K": "13",
        "card_JOKER": "-1",
        "one_0": "KH",
        "one_0_value": "0",
        "one_1": "KD",
        "one_1_value": "0",
        "call_bonus": "0",
        "call_penalty": "10",
        "limit": "100",
        "reset_at": "100",
        "reset_to": "50",
        "rules_name": "Cabo à l'étranger",
    }
    response = client.post("/new/koubo/", data)
    game = Game.objects.get()
    assert response.status_code == 302 and game.rules_name == "Cabo à l'étranger"
    assert game.settings == {
        "rounds": None,
        "decks": 2,
        "deck": "52",
        "jokers": 1,
        "card_values": {"J": 11, "Q": 12, "K": 13, "KH": 0, "KD": 0},
        "call_bonus": 0,
        "call_penalty": 10,
        "limit": 100,
        "reset": {"at": 100, "to": 50},
    }


def test_tamalou_settings_half_game_and_the_threshold_are_stored(client):
    data = {**PLAYERS, "call_threshold": "3", "half_game": "on"}
    client.post("/new/fontenaysien/", data)
    assert Game.objects.get().settings == {"call_threshold": 3, "half_game": True}


def test_tamouls_reset_is_switched_off_by_emptying_it(client):
    data = {**PLAYERS, "reset_at": "", "reset_to": "", "call_threshold": "6,5"}
    client.post("/new/tamoul/", data)
    assert Game.objects.get().settings == {"reset": None}


def test_a_form_that_sends_no_setting_starts_the_variant_as_written(client):
    client.post("/new/koubo/", {**PLAYERS})
    assert Game.objects.get().settings == {}


@pytest.mark.parametrize(
    ("variant", "data", "field", "message"),
    [
        ("koubo", {"card_JOKER": "-51"}, "card_JOKER", "a number from"),
        ("koubo", {"card_Q": "2,5"}, "card_Q", "Enter a whole number."),
        ("koubo", {"card_Q": "abc"}, "card_Q", "Enter a number with the digits 0 to 9."),
        ("koubo", {"one_0": "KH"}, "one_0_value", "Enter this card"),
        ("koubo", {"one_0_value": "3"}, "one_0", "Choose the card this value is for."),
        ("koubo", {"call_penalty": "101"}, "call_penalty", "from 0 to 100"),
        ("koubo", {"limit": "5"}, "limit", "from 10 to 1000"),
        ("koubo", {"reset_at": "100"}, "reset_to", "Enter both totals, or neither for none."),
        ("koubo", {"reset_at": "50", "reset_to": "50"}, "reset_at", "cannot fall back to itself"),
        ("tamalou", {"call_threshold": "-1"}, "call_threshold", "from 0 to 100"),
    ],
)
def test_a_bad_value_is_shown_next_to_its_field_and_nothing_is_saved(
    client, variant, data, field, message
):
    for url in (f"/new/{variant}/", f"/new/{variant}/save-rules/"):
        posted = {**PLAYERS, **data, "rules_name": "Essai"}
        response = client.post(url, posted)
        page = response.content.decode()
        assert response.status_code == 400
        assert any(message in error for error in errors_of(page, field)), errors_of(page, field)
        assert field_value(page, "name_0") == "Léa"  # nothing typed is lost
    assert not Game.objects.exists() and not RuleSet.objects.exists()


def test_a_card_that_is_not_in_the_deck_is_refused_next_to_it(client):
    data = {**PLAYERS, "one_0": "5H", "one_0_value": "1"}
    page = client.post("/new/koubo/", {**data, "deck": "32"}).content.decode()
    # Koubo's 32 cards have no 5: the card list does not even offer it.
    assert any("5H" in error or "valid choice" in error for error in errors_of(page, "one_0"))
    assert not Game.objects.exists()


def test_the_builder_speaks_french(settings):
    client = Client()  # French is the default
    page = client.get("/new/tamalou/").content.decode()
    assert "Règles de la maison" in page and "Enregistrer sous…" in page
    assert "Nom de ces règles" in page and "Valeur des cartes" in page
    data = {**PLAYERS, "one_0": "KH", "rules_name": ""}
    page = client.post("/new/tamalou/save-rules/", data).content.decode()
    assert errors_of(page, "rules_name") == ["Donnez un nom à ces règles (1 à 40 caractères)."]
    assert errors_of(page, "one_0_value") == ["Indiquez la valeur de cette carte."]
    assert "Valeur du joker\u202f: un de moins" in page  # each button says its number
    assert "Valeur du joker\u202f: changer le signe" in page


# --- saved sets ---------------------------------------------------------------------------


def test_save_as_keeps_the_set_on_this_phone_and_lists_it(client):
    rule_set = save_as(client, **MAMIE)
    assert rule_set.name == "Chez Mamie" and rule_set.variant == "tamalou"
    assert rule_set.settings == MAMIE_SETTINGS
    page = client.get("/new/tamalou/").content.decode()
    assert f'name="rules" value="{rule_set.key}"' in page and f"/h/{rule_set.key}/" in page
    assert "Chez Mamie" in client.get("/").content.decode()
    assert f"?rules={rule_set.key}" in client.get("/new/").content.decode()
    assert not Game.objects.exists()  # saving the rules starts no game


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Give these rules a name (1 to 40 characters)."),
        ("   ", "Give these rules a name (1 to 40 characters)."),
        ("x" * 41, "at most 40 characters"),
        ("Chez\x07Mamie", "The name of the house rules has an invisible control character."),
    ],
)
def test_a_set_needs_a_name_of_1_to_40_characters(client, name, message):
    response = client.post("/new/tamalou/save-rules/", {**MAMIE, "rules_name": name})
    page = response.content.decode()
    assert response.status_code == 400
    assert any(message in error for error in errors_of(page, "rules_name"))
    assert not RuleSet.objects.exists()


def test_save_as_answers_with_a_redirect_to_the_set_and_the_players(client):
    """Post, redirect, get: Back and a reload after Save as send nothing again; the page
    the phone lands on shows the set just saved, in the builder, and the players typed."""
    players = {"name_0": "Léa", "name_1": "Marc", "name_2": "", "name_3": "Nina", "dealer": "3"}
    response = client.post("/new/tamalou/save-rules/", {**MAMIE, **players})
    rule_set = RuleSet.objects.get()
    assert response.status_code == 302
    where = urlsplit(response["Location"])
    assert where.path == "/new/tamalou/" and where.fragment == "builder"
    assert parse_qs(where.query, keep_blank_values=True) == {
        "saved": [rule_set.key],
        **{key: [value] for key, value in players.items()},
    }
    page = client.get(response["Location"]).content.decode()
    assert players_shown(page) == (["Léa", "Marc", "", "Nina"], 3)
    assert "Saved as “Chez Mamie”: this phone lists it with its house rules." in page
    assert f'href="/h/{rule_set.key}/"' in page
    assert '<details class="builder" id="builder" open>' in page
    assert field_value(page, "joker_value") == "-5" and field_value(page, "call_penalty") == "10"
    assert 'value="KH" selected' in page and field_value(page, "one_0_value") == "-1"
    assert field_value(page, "rules_name") == "Chez Mamie"
    assert f'name="rules" value="{rule_set.key}"' in page  # in this phone's list
    # The game starts with what that page shows.
    client.post("/new/tamalou/", {**MAMIE, **players})
    game = Game.objects.get()
    assert game.players == ["Léa", "Marc", "Nina"] and game.first_dealer == 2
    assert game.settings == MAMIE_SETTINGS and game.rules_name == "Chez Mamie"
    # Another phone sent that address is not told it saved the set.
    other = other_phone().get(response["Location"]).content.decode()
    assert "Saved as" not in other and "The house rules “Chez Mamie” are filled in." in other


def test_save_as_with_no_player_typed_redirects_to_the_set_alone(client):
    response = client.post("/new/tamalou/save-rules/", {**MAMIE, "name_0": "", "name_1": ""})
    rule_set = RuleSet.objects.get()
    assert response["Location"] == f"/new/tamalou/?saved={rule_set.key}#builder"


def test_picking_a_saved_set_fills_the_builder_and_keeps_the_players(client):
    rule_set = save_as(client, **MAMIE)
    data = {"name_0": "Zoé", "name_1": "Yann", "dealer": "1", "call_threshold": "3"}
    response = client.post("/new/tamalou/house-rules/", {**data, "rules": rule_set.key})
    assert response.status_code == 302
    assert (
        response["Location"]
        == f"/new/tamalou/?rules={rule_set.key}&name_0=Zo%C3%A9&name_1=Yann&dealer=1"
    )
    page = client.get(response["Location"]).content.decode()
    assert players_shown(page) == (["Zoé", "Yann"], 1)
    assert field_value(page, "joker_value") == "-5" and field_value(page, "one_0_value") == "-1"
    assert 'value="KH" selected' in page and field_value(page, "call_penalty") == "10"
    assert field_value(page, "call_threshold") == "5"  # back to the set's (the default)
    assert field_value(page, "rules_name") == "Chez Mamie"
    assert "The house rules “Chez Mamie” are filled in." in page


def test_a_set_of_another_variant_switches_variant_and_keeps_the_players(client):
    koubo = save_as(client, "koubo", **{"card_JOKER": "-3", "rules_name": "Koubo du jeudi"})
    players = {f"name_{row}": name for row, name in enumerate(["Léa", "Marc", "Nina", "Omar"])}
    page = client.get("/new/tamalou/").content.decode()
    button = f'name="rules" value="{koubo.key}" formaction="/new/tamalou/house-rules/"'
    assert button in page and "Koubo du jeudi · Koubo charentais<" in page
    response = client.post(
        "/new/tamalou/house-rules/", {**players, "dealer": "2", "rules": koubo.key}
    )
    assert response.status_code == 302
    assert response["Location"].startswith(f"/new/koubo/?rules={koubo.key}&name_0=L%C3%A9a&")
    page = client.get(response["Location"]).content.decode()
    assert "<h1>Koubo charentais</h1>" in page
    assert players_shown(page) == (["Léa", "Marc", "Nina", "Omar"], 2)
    assert field_value(page, "card_JOKER") == "-3"
    client.post(
        "/new/koubo/",
        {
            **players,
            "dealer": "2",
            "card_JOKER": "-3",
            "rules_name": "Koubo du jeudi",
        },
    )
    game = Game.objects.get()
    assert game.variant == "koubo" and game.players == ["Léa", "Marc", "Nina", "Omar"]
    assert game.first_dealer == 2 and game.settings == {"card_values": {"JOKER": -3}}


def test_other_variant_keeps_the_players_their_order_and_the_dealer(client):
    rule_set = save_as(client, **MAMIE)
    typed = {"name_0": "Léa", "name_1": "", "name_2": "Marc & Cie", "dealer": "2"}
    response = client.post("/new/tamalou/other/", {**typed, "joker_value": "-7"})
    assert response.status_code == 302
    assert response["Location"] == "/new/?name_0=L%C3%A9a&name_1=&name_2=Marc+%26+Cie&dealer=2"
    chooser = client.get(response["Location"]).content.decode()
    assert "The players typed are kept: Léa, Marc &amp; Cie." in chooser
    query = "name_0=L%C3%A9a&amp;name_1=&amp;name_2=Marc+%26+Cie&amp;dealer=2"
    assert f'href="/new/dutch/?{query}"' in chooser
    assert f'href="/new/tamalou/?rules={rule_set.key}&amp;{query}"' in chooser
    page = client.get("/new/dutch/?" + query.replace("&amp;", "&")).content.decode()
    assert "<h1>Dutch</h1>" in page and players_shown(page) == (["Léa", "", "Marc & Cie"], 2)
    client.post("/new/dutch/", {**typed})
    game = Game.objects.get()
    assert game.variant == "dutch" and game.players == ["Léa", "Marc & Cie"]
    assert game.first_dealer == 1  # Marc & Cie, whose row was the third


def test_other_variant_with_nothing_typed_is_the_plain_choice(client):
    response = client.post("/new/tamalou/other/", {"name_0": "", "name_1": " "})
    assert response["Location"] == "/new/"
    page = client.get("/new/").content.decode()
    assert 'href="/new/dutch/"' in page and "are kept" not in page


def test_the_players_kept_are_said_in_french(client):
    page = Client().get("/new/?name_0=L%C3%A9a&name_1=Marc&dealer=0").content.decode()
    assert "Les joueurs saisis sont gardés\u202f: Léa, Marc." in page


def test_a_link_with_more_players_than_the_variant_takes_loses_none(client):
    """Six names carried to Tambouille (2 to 4 players): all six rows show, so that the table
    removes the ones that do not play; the match starts once four are left."""
    names = ["Léa", "Marc", "Nina", "Omar", "Zoé", "Yann"]
    query = "&".join(f"name_{row}={name}" for row, name in enumerate(names))
    page = client.get(f"/new/tambouille/?{query}&dealer=5").content.decode()
    assert players_shown(page) == (names, 5)
    assert re.search(r'data-row="add" class="button js-only" hidden', page)


def test_start_a_game_with_these_rules_fills_the_form_from_the_link(client):
    rule_set = save_as(client, **MAMIE)
    page = client.get(f"/new/tamalou/?rules={rule_set.key}").content.decode()
    assert field_value(page, "joker_value") == "-5"
    assert field_value(page, "rules_name") == "Chez Mamie"
    assert '<details class="builder" id="builder" open>' in page
    client.post("/new/tamalou/", {**MAMIE})
    game = Game.objects.get()
    assert game.settings == MAMIE_SETTINGS and game.rules_name == "Chez Mamie"


def test_a_sets_page_has_its_rules_in_the_tables_numbers_a_link_and_a_qr_code(client):
    rule_set = save_as(client, **MAMIE)
    page = client.get(f"/h/{rule_set.key}/").content.decode()
    assert "<h1>Chez Mamie</h1>" in page
    assert "joker −5, K♥ −1, failed call +10" in page
    assert f"http://testserver/h/{rule_set.key}/" in page and "<svg" in page
    assert f'href="/new/tamalou/?rules={rule_set.key}"' in page
    assert "Start a game with these rules" in page
    assert "A failed caller adds 10 to their hand." in page  # the rules in its numbers
    # The card values of the whole rules text are the table's.
    king = page[page.index('<tr data-rank="K">') :]
    king = king[: king.index("</tr>")]
    assert '<span class="card red">K♥</span> −1 · <span class="card red">K♦</span> 0' in king
    assert '<span class="card">K♣</span> 15' in king
    joker = client.get(f"/h/{rule_set.key}/?card=JOKER", headers={"HX-Request": "true"})
    assert "Points: −5" in joker.content.decode() and "<html" not in joker.content.decode()
    heart_king = client.get(f"/h/{rule_set.key}/?card=KH").content.decode()
    assert "Points: −1" in heart_king


def other_phone() -> Client:
    """A second phone, in English, that has none of the first phone's sets."""
    phone = Client()
    phone.cookies["django_language"] = "en"
    return phone


def test_another_phone_opens_the_link_and_keeps_the_set(client):
    rule_set = save_as(client, **MAMIE)
    other = other_phone()
    page = other.get(f"/h/{rule_set.key}/").content.decode()
    assert "Keep them on this phone" in page
    assert f'value="{rule_set.key}"' not in other.get("/new/tamalou/").content.decode()
    response = other.post(f"/h/{rule_set.key}/keep/", follow=True)
    assert "“Chez Mamie” is in this phone&#x27;s house rules." in response.content.decode()
    assert "Keep them on this phone" not in response.content.decode()
    assert f'name="rules" value="{rule_set.key}"' in other.get("/new/tamalou/").content.decode()
    assert other.get(f"/h/{rule_set.key}/keep/").status_code == 405
    assert other.post("/h/nope/keep/").status_code == 404


def test_changing_a_set_never_changes_a_game_already_started(client):
    rule_set = save_as(client, **MAMIE)
    client.post("/new/tamalou/", {**MAMIE})
    game = Game.objects.get()
    page = client.get(f"/h/{rule_set.key}/edit/").content.decode()
    assert field_value(page, "joker_value") == "-5"
    assert field_value(page, "rules_name") == "Chez Mamie"
    data = {**{k: v for k, v in MAMIE.items() if k not in PLAYERS}, "joker_value": "-10"}
    response = client.post(f"/h/{rule_set.key}/edit/", {**data, "rules_name": "Chez Mamie 2"})
    assert response.status_code == 302
    rule_set.refresh_from_db()
    assert rule_set.settings["joker_value"] == -10 and rule_set.name == "Chez Mamie 2"
    game.refresh_from_db()
    assert game.settings == MAMIE_SETTINGS and game.rules_name == "Chez Mamie"
    bad = client.post(f"/h/{rule_set.key}/edit/", {**data, "joker_value": "-101"})
    assert bad.status_code == 400 and errors_of(bad.content.decode(), "joker_value")
    rule_set.refresh_from_db()
    assert rule_set.settings["joker_value"] == -10


def test_a_phone_the_set_was_shared_with_changes_its_own_copy(client):
    rule_set = save_as(client, **MAMIE)
    other = other_phone()
    page = other.get(f"/h/{rule_set.key}/edit/").content.decode()
    assert "saved as this phone's own copy" in page
    data = {**{k: v for k, v in MAMIE.items() if k not in PLAYERS}, "joker_value": "-10"}
    response = other.post(f"/h/{rule_set.key}/edit/", {**data, "rules_name": "Chez nous"})
    copy = RuleSet.objects.exclude(pk=rule_set.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/h/{copy.key}/"
    assert copy.settings["joker_value"] == -10 and copy.name == "Chez nous"
    rule_set.refresh_from_db()
    assert rule_set.settings["joker_value"] == -5 and rule_set.name == "Chez Mamie"
    # The copy is the other phone's own: changing it again changes it in place.
    other.post(f"/h/{copy.key}/edit/", {**data, "joker_value": "-7", "rules_name": "Chez nous"})
    copy.refresh_from_db()
    assert copy.settings["joker_value"] == -7 and RuleSet.objects.count() == 2
    assert "shared with this phone" not in other.get(f"/h/{copy.key}/edit/").content.decode()


def test_another_deck_on_the_change_page_draws_its_cards_and_saves_nothing(client):
    """Without JavaScript, "Show the cards of the deck chosen above" posts the change page's
    form to an address of its own: the grid of that deck, what was typed kept."""
    rule_set = save_as(client, "koubo", **{"card_JOKER": "-3", "rules_name": "Koubo du jeudi"})
    page = client.get(f"/h/{rule_set.key}/edit/").content.decode()
    assert f'formaction="/h/{rule_set.key}/edit/cards/"' in page
    assert field_value(page, "card_5") is None
    data = {"deck": "52", "jokers": "2", "card_JOKER": "-4", "rules_name": "Koubo du jeudi"}
    answer = client.post(f"/h/{rule_set.key}/edit/cards/", data)
    page = answer.content.decode()
    assert answer.status_code == 200 and field_value(page, "card_5") == "5"
    assert field_value(page, "card_JOKER") == "-4"
    rule_set.refresh_from_db()
    assert rule_set.settings == {"card_values": {"JOKER": -3}}  # nothing saved
    assert client.get(f"/h/{rule_set.key}/edit/cards/").status_code == 405


def test_an_unknown_set_is_not_found(client):
    assert client.get("/h/unknown-key/").status_code == 404
    assert client.get("/h/unknown-key/edit/").status_code == 404
    page = client.post("/new/tamalou/house-rules/", {**PLAYERS, "rules": "unknown"})
    assert page.status_code == 404 and not Game.objects.exists()


def test_a_sets_page_in_french(client):
    rule_set = save_as(client, **MAMIE)
    page = Client().get(f"/h/{rule_set.key}/").content.decode()
    assert "joker −5, R♥ −1, annonce ratée +10" in page
    assert "Commencer une partie avec ces règles" in page


# --- games ------------------------------------------------------------------------------


def mamie_game(client) -> Game:
    client.post("/new/tamalou/", {**MAMIE})
    return Game.objects.get()


def test_the_sheet_names_the_rules_and_what_they_change(client):
    game = mamie_game(client)
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert '<p class="house-line">Chez Mamie: joker −5, K♥ −1, failed call +10</p>' in page
    french = Client().get(f"/g/{game.edit_key}/").content.decode()
    assert "Chez Mamie\u202f: joker −5, R♥ −1, annonce ratée +10" in french
    plain = Game.objects.create(variant="tamalou", players=["A", "B"])
    assert "house-line" not in client.get(f"/g/{plain.edit_key}/").content.decode()


def test_cards_and_rules_from_the_sheet_show_that_games_rules(client):
    game = mamie_game(client)
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    link = re.search(r'class="rules-link" href="([^"]+)"', page)[1].replace("&amp;", "&")
    assert "card_values=KH%3A-1" in link
    rules = client.get(link.split("#")[0] + "&card=KH").content.decode()
    assert "Points: −1" in rules and "Failed call costs 10" in rules


def test_a_rematch_keeps_the_settings_and_the_name(client):
    game = mamie_game(client)
    response = client.post(f"/g/{game.edit_key}/rematch/")
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert response.url == f"/g/{rematch.edit_key}/"
    assert rematch.settings == MAMIE_SETTINGS and rematch.rules_name == "Chez Mamie"


def test_the_exported_file_carries_every_setting_and_the_rules_name(client):
    game = mamie_game(client)
    exported = json.loads(client.get(f"/g/{game.edit_key}/export/").content)
    assert exported["settings"] == MAMIE_SETTINGS and exported["rules_name"] == "Chez Mamie"
    assert list(exported).index("rules_name") == list(exported).index("settings") + 1


# --- offline ------------------------------------------------------------------------------


def test_the_worker_keeps_the_pages_of_saved_sets_like_the_sheets(client):
    worker = client.get("/sw.js").content.decode()
    assert r"const SHEET_PAGE = /^\/[gh]\/[A-Za-z0-9_-]+\/$/;" in worker
    rule_set = save_as(client, **MAMIE)
    # The home page links to them: offline.js asks the worker to keep what it links to.
    assert f'href="/h/{rule_set.key}/"' in client.get("/").content.decode()


def test_a_sample_round_is_scored_under_the_rules_being_built(client):
    data = {**PLAYERS, "call_bonus": "-3"}
    page = client.post("/new/tamalou/preview/", data).content.decode()
    preview = page[page.index('id="preview"') :]
    preview = preview[: preview.index("</section>")]
    assert "A sample round under these rules" in preview and "<table>" in preview
    assert field_value(page, "call_bonus") == "-3" and field_value(page, "name_0") == "Léa"
    htmx = {"HX-Request": "true"}
    fragment = client.post("/new/tamalou/preview/", data, headers=htmx).content.decode()
    assert fragment.lstrip().startswith('<section id="preview"') and "<html" not in fragment
    # Tamalou's example: the caller succeeds, and scores the bonus instead of 0.
    assert scores(fragment) == ["−3", "+22", "+5"]
    plain = client.post("/new/tamalou/preview/", {**data, "call_bonus": "0"}, headers=htmx)
    assert scores(plain.content.decode()) == ["0", "+22", "+5"]
    refused = client.post("/new/tamalou/preview/", {**data, "call_bonus": "500"}, headers=htmx)
    fragment = refused.content.decode()
    assert "Correct the values above to see it." in fragment and "<table>" not in fragment
    assert not Game.objects.exists() and not RuleSet.objects.exists()


def scores(fragment: str) -> list[str]:
    return re.findall(r'<td class="num">(.*?)</td>', fragment)


@pytest.mark.parametrize("sent", ["\x00", "abc\x00", "é", "a" * 33, "../x"])
def test_a_set_asked_for_by_no_key_at_all_is_the_variants_own_rules_or_a_404(client, sent):
    """A NUL (PostgreSQL refuses to be asked about one) or anything no key can be, in the
    link's ?rules= or ?saved= or a set's button: the page without a set, or a 404; never a
    500, nothing stored."""
    for query in ("rules", "saved"):
        page = client.get("/new/tamalou/", {query: sent})
        assert page.status_code == 200
        assert 'id="id_name_0"' in page.content.decode()
    tapped = client.post("/new/tamalou/house-rules/", {"rules": sent, "name_0": "Léa"})
    assert tapped.status_code == 404
    assert not RuleSet.objects.exists() and not Game.objects.exists()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_sample_round_holds_the_cards_the_house_rules_value_otherwise(client, language):
    """Mamie's joker at −5 and K♥ at −1: the sample round puts them in the hands (the example
    holds neither), scored at their house values; with the variant's own values it does not."""
    client.cookies["django_language"] = language
    htmx = {"HX-Request": "true"}
    data = {k: v for k, v in MAMIE.items() if k != "rules_name"}
    fragment = client.post("/new/tamalou/preview/", data, headers=htmx).content.decode()
    hands = re.findall(r'<th scope="row">(\w+)</th><td>(.*?)</td>', fragment)
    shown = {name: re.sub(r"<[^>]+>", "", hand) for name, hand in hands}
    king, queen = ("K", "Q") if language == "en" else ("R", "D")
    assert shown["Léa"] == f"{king}♦ {king}♥ = −1"  # K♥ at −1
    assert shown["Marc"] == f"10♥ {queen}♠ joker = 15"  # 10 + 10 − 5
    plain = client.post("/new/tamalou/preview/", PLAYERS, headers=htmx)
    assert "K♥" not in plain.content.decode() and "joker" not in plain.content.decode()
