"""The rules pages and the languages: every variant in French and English, values and powers
read from the engine's own definitions, and no French string left untranslated."""

from __future__ import annotations

import re
import shutil
from html import unescape
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from scoring.referee.cards import parse_card
from scoring.referee.engine import GameEntry, score_game
from scoring.referee.gamefile import round_from_json
from scoring.referee.variants import VARIANTS
from scoring.store.models import Game
from tests.helpers import NOBODY_CALLED, ROOT

CATALOGUE = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def fr():
    return Client()  # no language chosen: French, the default


def text(response) -> str:
    """The page's visible words, tags removed, entities decoded."""
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


# --- the pages -------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_rules_page_in_french(fr, variant):
    response = fr.get(f"/rules/{variant}/")
    page = text(response)
    assert response.status_code == 200 and 'lang="fr"' in response.content.decode()
    for title in ("Mise en place", "Un tour de jeu", "Compter une manche", "Fin de la partie"):
        assert title in page
    assert "Valeur des cartes" in page and "Ce que l’appli a tranché" in page
    assert "Là où les règles d’origine divergent" in page
    assert "Set-up" not in page and "Scoring a round" not in page


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_rules_page_in_english(client, variant):
    response = client.get(f"/rules/{variant}/")
    page = text(response)
    assert response.status_code == 200 and 'lang="en"' in response.content.decode()
    for title in ("Set-up", "A turn", "Scoring a round", "End of the game", "Card values"):
        assert title in page
    assert "Mise en place" not in page
    settled = VARIANTS[variant].settled
    assert settled and all(point.replace("'", "’") in page.replace("'", "’") for point in settled)


def test_rules_fill_in_the_variant_threshold_and_call(client, fr):
    assert "call “Gabo” at the start" in text(client.get("/rules/gabo/"))
    assert "worth 7 or less" in text(client.get("/rules/gabo/"))
    assert "Annoncez « Tamoul » avec 6,5 points ou moins" in text(fr.get("/rules/tamoul/"))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_values_table_is_the_engines(client, variant):
    rules = VARIANTS[variant]()
    page = client.get(f"/rules/{variant}/").content.decode()
    rows = dict(re.findall(r'<tr data-rank="([^"]+)">(.*?)</tr>', page, re.S))
    expected_ranks = [*rules.values.ranks, *(["JOKER"] if rules.values.jokers else [])]
    assert list(rows) == expected_ranks
    for rank, row in rows.items():
        cell = unescape(re.sub(r"<[^>]+>", "", row.split('class="num">')[1])).replace("−", "-")
        if rank == "JOKER":
            assert cell.strip() == str(rules.value(parse_card("JOKER"))).replace("1/2", "0.5")
            continue
        red, black = rules.value(parse_card(rank + "H")), rules.value(parse_card(rank + "S"))
        shown = [float(n) for n in re.findall(r"-?\d+(?:\.\d)?", cell) if n not in ("",)]
        assert shown == ([float(red)] if red == black else [float(red), float(black)])


def test_tamalou_says_what_a_misused_power_costs(client, fr):
    assert "the turn is cancelled and the player draws a penalty card" in text(
        client.get("/rules/gabo/")
    )
    assert "le tour est annulé" in text(fr.get("/rules/tamalou/"))


def test_koubo_values_table_has_no_2_to_6(client):
    page = client.get("/rules/koubo/").content.decode()
    assert 'data-rank="7"' in page and 'data-rank="6"' not in page and 'data-rank="2"' not in page


@pytest.mark.parametrize(
    ("variant", "code", "value", "power"),
    [
        ("tamalou", "KS", "15", "Look at an opponent's card, then swap it"),
        ("tamalou", "KH", "0", "No power: it only counts for its points."),
        ("tamalou", "7D", "7", "Look at one of your own cards."),
        ("tamalou", "JOKER", "0", "No power"),
        ("koubo", "QH", "3", "showing them to that opponent"),
        ("koubo", "9C", "9", "Look at one of your own cards."),
        ("dutch", "7C", "7", "Swap one of your cards with another player's."),
        ("dutch", "QS", "12", "Look at one card of an opponent."),
        ("tamoul", "KD", "0.5", "No power"),
        ("tamoul", "10S", "10", "swap it with one of yours if you like"),
        ("cabo_bruxellois", "KH", "−2", "No power"),
        ("dutch_toulousain", "KH", "0", "give the top card of the pile"),
        ("dutch_toulousain", "KC", "13", "No effect."),
        ("dutch_toulousain", "JD", "11", "You must swap 2 cards"),
    ],
)
def test_card_lookup(client, variant, code, value, power):
    page = text(client.get(f"/rules/{variant}/?card={code}"))
    assert f"Points: {value}" in page and power in page
    fragment = client.get(f"/rules/{variant}/?card={code}", **HTMX).content.decode()
    assert fragment.lstrip().startswith('<div id="card-panel"') and "<html" not in fragment
    assert power.replace("'", "&#x27;") in fragment


def test_card_lookup_for_a_card_not_in_the_deck_or_unknown(client, fr):
    assert "is not in the Koubo charentais deck." in text(client.get("/rules/koubo/?card=5S"))
    assert "n’est pas dans le paquet du Koubo charentais." in text(fr.get("/rules/koubo/?card=5S"))
    assert "There is no card “ZZ”." in text(client.get("/rules/koubo/?card=ZZ"))
    assert "Points : 0,5" in text(fr.get("/rules/tamoul/?card=KH"))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_worked_example_is_scored_by_the_engine(client, variant):
    rules = VARIANTS[variant]
    example = rules.example
    sheet = score_game(
        GameEntry(variant, tuple(example["players"]), (round_from_json(example["round"], 1),))
    )
    page = text(client.get(f"/rules/{variant}/"))
    for note in sheet.rounds[0].notes:
        assert str(note).replace("-", "−") in page.replace("-", "−")


def test_unknown_variant_is_404(client):
    assert client.get("/rules/belote/").status_code == 404


def test_tambouille_is_marked_as_a_different_game_without_points(client, fr):
    assert "nobody scores points" in text(client.get("/rules/tambouille/"))
    page = text(fr.get("/rules/tambouille/"))
    assert "personne ne marque de points" in page and "123 cartes-lettres" in page
    assert "/rules/tambouille/" in fr.get("/rules/").content.decode()


@pytest.mark.django_db
def test_the_sheet_reaches_the_card_lookup_of_its_variant_in_one_tap(client):
    """The sheet's "Cards & rules" link names the sheet by its read-only link, so the rules
    page's address (which a player may pass on) carries no edit key; the way back is the edit
    link on the phone that keeps the game, the read-only one on any other."""
    game = Game.objects.create(variant="koubo", players=["Léa", "Marc"])
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    back = f"%2Fs%2F{game.share_key}%2F"
    assert f'href="/rules/koubo/?back={back}#cards"' in page
    assert game.edit_key not in re.search(r'<a class="rules-link" href="([^"]+)"', page)[1]
    rules = client.get(f"/rules/koubo/?back={back}").content.decode()
    assert f'href="/g/{game.edit_key}/">← Back to the score sheet' in rules
    assert f"back={back}" in rules  # the page's own links keep the read-only link
    other = Client()  # another phone, in English too
    other.cookies["django_language"] = "en"
    passed_on = other.get(f"/rules/koubo/?back={back}").content.decode()
    assert f'href="/s/{game.share_key}/">← Back to the score sheet' in passed_on
    assert game.edit_key not in passed_on
    for elsewhere in ("https://evil/", f"/g/{game.edit_key}/"):
        answer = client.get("/rules/koubo/", {"back": elsewhere}).content.decode()
        assert "Back to the score sheet" not in answer
    house = Game.objects.create(
        variant="tamalou", players=["Léa", "Marc"], settings={"joker_value": 20}
    )
    page = client.get(f"/g/{house.edit_key}/").content.decode()
    assert (
        f'href="/rules/tamalou/?joker_value=20&amp;back=%2Fs%2F{house.share_key}%2F#cards"' in page
    )


def card_panel(page: str) -> str:
    """The words of the rules page's card panel (the answer to a tapped card)."""
    panel = re.search(r'<div id="card-panel"[^>]*>(.*?)</div>', page, re.S)
    assert panel, "no card panel"
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", panel[1]))).strip()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Tap a card to see its value and its power in this variant."),
        ("fr", "Touchez une carte pour voir sa valeur et son pouvoir dans cette variante."),
    ],
)
@pytest.mark.parametrize(("variant", "settings"), [("koubo", {}), ("tamalou", {"joker_value": 20})])
def test_the_sheets_cards_and_rules_link_lands_on_a_card_panel_that_says_something(
    language, words, variant, settings
):
    """The sheet's "Cards & rules" link lands on #cards with no card chosen: the card panel
    was an empty white card there. It says what to do until a card is tapped, then answers."""
    visitor = Client()
    visitor.cookies["django_language"] = language
    game = Game.objects.create(variant=variant, players=["Léa", "Marc"], settings=settings)
    sheet = visitor.get(f"/g/{game.edit_key}/").content.decode()
    link = unescape(re.search(r'<a class="rules-link" href="([^"]+)"', sheet)[1])
    assert link.endswith("#cards") and "back=" in link
    page = visitor.get(link.removesuffix("#cards")).content.decode()
    cards = page[page.index('<section id="cards"') :]
    assert card_panel(cards) == words
    assert cards.index('id="card-panel"') < cards.index('class="lookup-grid"')
    assert len(re.findall(r'<a class="pick', cards)) == len(VARIANTS[variant](**settings).deck())
    # A tap on a card (its link, as the page gives it) fills the same panel with its answer.
    tap = unescape(re.search(r'<a class="pick[^"]*" href="([^"]+)"', cards)[1])
    answer = visitor.get(link.split("?")[0] + tap.removesuffix("#cards")).content.decode()
    assert ("Points" in card_panel(answer)) and words not in card_panel(answer)


# --- the languages -------------------------------------------------------------------------


def test_a_first_visit_follows_the_phone_and_french_when_it_asks_for_neither():
    phone = Client()
    english = text(phone.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9"))
    assert "New game" in english and "Nouvelle partie" not in english
    french = text(phone.get("/", HTTP_ACCEPT_LANGUAGE="fr-BE,fr;q=0.9,en;q=0.5"))
    assert "Nouvelle partie" in french
    for neither in ("de-DE,de;q=0.9", ""):
        page = text(phone.get("/", HTTP_ACCEPT_LANGUAGE=neither))
        assert "Nouvelle partie" in page and "New game" not in page


def test_the_language_chosen_with_the_switch_wins_over_the_phone(fr):
    fr.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    page = text(fr.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9"))
    assert "Nouvelle partie" in page and "New game" not in page


def test_the_language_switch_is_on_every_page_and_remembered(fr):
    for url in ("/", "/new/", "/rules/", "/rules/tamoul/", "/import/"):
        assert 'action="/i18n/setlang/"' in fr.get(url).content.decode()
    response = fr.post("/i18n/setlang/", {"language": "en", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert "Rules" in text(fr.get("/rules/")) and "Règles" not in text(fr.get("/rules/"))


@pytest.mark.django_db
def test_engine_explanations_and_refusals_are_translated(fr):
    game = Game.objects.create(variant="tamoul", players=["Léa", "Marc"])
    url = f"/g/{game.edit_key}/"
    fr.post(url, {"number": 1, "save": "1", "cards_0": "KH AS", "total_1": "9", "caller": "Léa"})
    page = text(fr.get(url))
    assert "Léa a annoncé Tamoul avec 1,5 et avait strictement le moins : −20." in page
    assert "1,5" in page and "Manche 2" in page
    refused = text(fr.post(url, {"number": 2, "save": "1", "cards_0": "5S", "cards_1": "ZZ"}))
    assert "Carte inconnue ZZ" in refused


@pytest.mark.django_db
def test_numbers_are_shown_the_local_way(client, fr):
    game = Game.objects.create(variant="tamoul", players=["Léa", "Marc"])
    posted = {"number": 1, "save": "1", "total_0": "4.5", "total_1": "9", **NOBODY_CALLED}
    client.post(f"/g/{game.edit_key}/", posted)
    assert "4.5" in text(client.get(f"/g/{game.edit_key}/"))
    assert "4,5" in text(fr.get(f"/g/{game.edit_key}/"))


def po_entries(path: Path) -> dict[str, list[str]]:
    """msgid → msgstr(s) of a .po file, with the fuzzy flag as a msgstr of None."""
    entries: dict[str, list[str]] = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        ids = re.findall(r'^msgid "(.*)"\n((?:".*"\n?)*)', block, re.M)
        if not ids:
            continue
        msgid = ids[0][0] + "".join(re.findall(r'"(.*)"', ids[0][1]))
        strings = re.findall(r'^msgstr(?:\[\d\])? "(.*)"\n?((?:".*"\n?)*)', block, re.M)
        values = [first + "".join(re.findall(r'"(.*)"', rest)) for first, rest in strings]
        entries[msgid] = [None] if "#, fuzzy" in block else values
    entries.pop("", None)
    return entries


def test_no_french_string_is_left_untranslated(tmp_path, monkeypatch):
    """Extract every string of the templates and code afresh, in a copy of the sources so
    the committed catalogue is not touched; each string must be translated there."""
    copy = tmp_path / "src"
    for name in ("scoring", "templates", "tamalou_ref"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "locale").mkdir()
    monkeypatch.chdir(copy)
    with override_settings(LOCALE_PATHS=[copy / "locale"]):
        call_command("makemessages", locale=["fr"], no_location=True, verbosity=0)
    extracted = po_entries(copy / "locale" / "fr" / "LC_MESSAGES" / "django.po")
    committed = po_entries(CATALOGUE)
    assert len(extracted) > 300
    missing = [msgid for msgid in extracted if msgid not in committed]
    untranslated = [m for m, values in committed.items() if not all(values)]
    assert missing == [], "run `make messages` and translate these"
    assert untranslated == []
