"""House games stored by the app: import, export, backups, rematch, the sheet's rules link,
and their notes and refusals in French and English."""

from __future__ import annotations

import io
import json
import re
from html import unescape

import pytest
from django.core.management import call_command
from django.test import Client

from scoring.store.models import Game
from tests.helpers import EXAMPLES, exported_as

HOUSE = sorted(EXAMPLES.glob("house_*.game.json"))

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.fixture
def fr():
    return Client()  # no language chosen: French, the default


@pytest.mark.parametrize("path", HOUSE, ids=lambda p: p.name.split(".")[0])
def test_import_then_export_gives_back_every_setting_and_the_rules_name(path):
    out = io.StringIO()
    call_command("import_game", str(path), stdout=out)
    game = Game.objects.get()
    original = json.loads(path.read_text())
    assert game.rules_name == original["rules_name"] and game.settings == original["settings"]
    exported = io.StringIO()
    call_command("export_game", out.getvalue().strip(), stdout=exported)
    assert exported_as(exported.getvalue(), game) == original


def test_a_backup_restores_house_games_with_their_rules_name(tmp_path):
    games = [Game.objects.import_file(path.read_bytes()) for path in HOUSE]
    before = {g.edit_key: (g.rules_name, g.settings, g.game_file()) for g in games}
    archive = tmp_path / "backup.zip"
    call_command("backup_games", str(archive), stdout=io.StringIO())
    Game.objects.all().delete()
    call_command("restore_games", str(archive), stdout=io.StringIO())
    after = {g.edit_key: (g.rules_name, g.settings, g.game_file()) for g in Game.objects.all()}
    assert after == before


def test_a_rematch_keeps_the_house_rules_and_their_name(client):
    game = Game.objects.import_file((EXAMPLES / "house_tamalou_les_cousins.game.json").read_bytes())
    response = client.post(f"/g/{game.edit_key}/rematch/")
    rematch = Game.objects.get(edit_key=response["Location"].split("/")[2])
    assert rematch.rules_name == "Les cousins" and rematch.settings == game.settings
    assert rematch.game_file()["rules_name"] == "Les cousins"


def test_the_sheets_rules_link_shows_the_games_card_values_and_numbers(client):
    game = Game.objects.import_file((EXAMPLES / "house_tamalou_les_cousins.game.json").read_bytes())
    sheet = client.get(f"/g/{game.edit_key}/").content.decode()
    link = unescape(re.search(r'href="(/rules/tamalou/\?[^"]+)"', sheet).group(1))
    assert "card_values=JOKER%3A-5%2CKH%3A-1" in link and "limit=60" in link
    page = text(client.get(link))
    assert "Card values joker −5, K♥ −1 · Successful call scores −5" in page
    assert "Failed call costs 5 · Game limit 60" in page
    assert "strictly fewer points than everyone else scores −5" in page
    assert "A failed caller adds 5 to their hand." in page
    assert "The game ends after a round in which a total goes over 60." in page
    king = re.search(r'<tr data-rank="K">(.*?)</tr>', client.get(link).content.decode(), re.S)
    assert "K♥</span> −1" in king.group(1)


def test_the_rules_page_of_a_tamoul_without_its_reset_says_so(client, fr):
    page = text(client.get("/rules/tamoul/?reset=&limit=150&call_bonus=-10"))
    assert "falls back" not in page.split("End of the game")[1].split("Card powers")[0]
    assert "The game ends after a round in which a total goes over 150." in page
    assert "scores −10; otherwise their hand + 20" in page
    page = text(fr.get("/rules/tamoul/"))
    assert "Après chaque manche, un total de 100 pile retombe à 50." in page


def test_house_notes_say_the_tables_numbers_in_french_and_english(client, fr):
    game = Game.objects.import_file(
        (EXAMPLES / "house_koubo_cabo_international.game.json").read_bytes()
    )
    # Every round whole: a sheet folds the rounds older than its newest.
    english = text(client.get(f"/g/{game.edit_key}/rounds/"))
    assert "Alice called Koubo with 5 but was not strictly lowest: 5 + 10 = 15." in english
    assert "Bob called Koubo with 2 and was strictly lowest: 0 in place of the hand total." in (
        english
    )
    assert "Alice reached exactly 100 and falls back to 50." in english
    french = text(fr.get(f"/g/{game.edit_key}/rounds/"))
    assert "Alice a annoncé Koubo avec 5 mais n’avait pas strictement le moins : 5 + 10 = 15." in (
        french
    )
    assert "Alice a atteint 100 pile et retombe à 50." in french


def test_cabo_step_3_says_true_arithmetic_in_french(fr):
    game = Game.objects.create(variant="cabo_bruxellois", players=["Léa", "Marc"])
    fr.post(
        f"/g/{game.edit_key}/",
        {"number": 1, "save": "1", "cards_0": "KH", "total_1": "-3", "caller": "Léa"},
    )
    page = text(fr.get(f"/g/{game.edit_key}/"))
    assert "Léa a annoncé Cabo avec −2 mais quelqu’un avait −3 : −2 + 1 = −1, compté 0." in page


def test_every_bad_setting_of_an_imported_file_is_said_at_once_in_words(client, fr):
    data = json.loads((EXAMPLES / "house_cabo_chez_mamie.game.json").read_text())
    data["settings"] = {"call_penalty": 101, "limit": 5, "card_values": {"JOKER": 1}}
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "game.json"
    page = text(client.post("/import/", {"file": upload}))
    assert (
        "“Card values”: there is no joker in this deck. “Failed call costs” must be a whole "
        "number from 0 to 100. “Game limit” must be a whole number from 10 to 1000."
    ) in page
    upload.seek(0)
    page = text(fr.post("/import/", {"file": upload}))
    assert (
        "« Valeur des cartes » : il n’y a pas de joker dans ce jeu. « Annonce ratée » doit "
        "être un nombre entier de 0 à 100."
    ) in page
    assert not Game.objects.exists()


def test_summaries_say_the_games_numbers_and_the_picker_its_card_values(client):
    page = text(client.get("/rules/koubo/?call_bonus=0&call_penalty=10&deck=52"))
    assert "52 cards and jokers, 10 rounds; a right Koubo scores 0, a wrong one +10." in page
    assert "Half points; call with 6.5 or less for −20" in text(client.get("/rules/tamoul/"))
    assert "exactly 100 falls back to 50" in text(client.get("/rules/tamoul/?reset="))
    game = Game.objects.create(
        variant="tamalou",
        players=["Léa", "Marc"],
        settings={"card_values": {"KH": -1, "JOKER": -5}},
    )
    sheet = client.get(f"/g/{game.edit_key}/").content.decode()
    values = json.loads(re.search(r'id="picker-values"[^>]*>(.*?)</script>', sheet).group(1))
    assert values["KH"] == [-1, 1] and values["JOKER"] == [-5, 2] and values["KD"] == [0, 1]
