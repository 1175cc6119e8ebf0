"""The sheet's history after every kind of change, by either link, in either language: the
newest round whole, the older ones folded to their line (their Edit on it, by the edit link
only), the newest 30 listed and a button for the others; and the card picker as each pick
leaves it."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.test import Client

from scoring.referee import engine
from scoring.referee.variants import VARIANTS
from scoring.store.models import Game
from scoring.templatetags.tamalou import card_in
from tests.helpers import NOBODY_CALLED, PLAYERS, evening_game

pytestmark = pytest.mark.django_db

TOTALS = {f"total_{seat}": str(seat + 2) for seat in range(len(PLAYERS))}
WORDS = {
    "en": {
        "round": "Round {n}",
        "dealt": "dealt by {dealer}",
        "edited": "edited",
        "show": "Show this round",
        "edit": "Edit",
        "earlier": "Show rounds 1 to {n}",
    },
    "fr": {
        "round": "Manche {n}",
        "dealt": "donnée par {dealer}",
        "edited": "corrigée",
        "show": "Afficher cette manche",
        "edit": "Corriger",
        "earlier": "Afficher les manches 1 à {n}",
    },
}


def rounds_on(page: str) -> dict[int, str]:
    """Each round the page lists, by number, as it draws it, newest first."""
    found = re.findall(r'<article class="round" id="round-(\d+)">(.*?)</article>', page, re.S)
    return {int(number): drawn for number, drawn in found}


def shows_history(game: Game, newest: int, edited: set[int] = frozenset()) -> None:
    """The sheet by either link in either language: round ``newest`` whole, the 29 before
    it folded to their line, the older ones behind one button; the rounds/ page with every
    round whole."""
    game = Game.objects.get(pk=game.pk)
    sheet = game.score()
    dealers = [dealer for dealer, _ in engine.deals(sheet, game.first_dealer)]
    oldest = max(newest - 29, 1)
    for language, words in WORDS.items():
        viewer = Client()
        viewer.cookies["django_language"] = language
        for link, key in (("g", game.edit_key), ("s", game.share_key)):
            page = viewer.get(f"/{link}/{key}/").content.decode()
            shown = rounds_on(page)
            assert list(shown) == list(range(newest, oldest - 1, -1)), (language, link)
            whole = shown.pop(newest)
            assert "<table>" in whole and "<details" not in whole
            assert ("/delete/" in whole) == (link == "g")
            for number, line in shown.items():  # folded: the line alone
                assert "<table>" not in line and f'hx-select="#round-{number} .round-body"' in line
                title = words["round"].format(n=number)
                dealt = words["dealt"].format(dealer=dealers[number - 1])
                assert f"<h3>{title}</h3>" in line and dealt in line
                assert f'href="/{link}/{key}/rounds/#round-{number}">{words["show"]}</a>' in line
                assert (f'<span class="tag">{words["edited"]}</span>' in line) == (number in edited)
                assert ("/edit/" in line) == (link == "g"), number
                pk = game.live_rounds()[number - 1].pk
                assert (
                    link == "s" or f'href="/g/{key}/rounds/{pk}/edit/">{words["edit"]}</a>' in line
                )
            earlier = words["earlier"].format(n=oldest - 1)
            assert (earlier in page) == (oldest > 1)
            everything = rounds_on(viewer.get(f"/{link}/{key}/rounds/").content.decode())
            assert list(everything) == list(range(newest, 0, -1))
            assert all("<table>" in drawn for drawn in everything.values())


def test_a_long_sheet_shows_every_change_by_either_link_in_either_language():
    game = evening_game(34, seed=21)
    phone = Client()
    edit = f"/g/{game.edit_key}/"
    shows_history(game, 34)

    # a saved round: the newest open, one more folded, the oldest listed no longer listed
    saved = {"number": "35", "save": "1", "caller": PLAYERS[0], **TOTALS}
    assert phone.post(edit, saved).status_code == 302
    shows_history(game, 35)

    # a card of a folded round swapped for one of the same value: the same scores, the new card
    stored = game.rounds.get(position=33)
    entry = stored.as_entry(33)
    hand = entry.hands[PLAYERS[2]]
    dealt = {card for cards in entry.hands.values() for card in cards}
    card = next(c for c in hand if c.rank in "2345678")
    other = next(c for c in VARIANTS["tamalou"]().deck() if c.rank == card.rank and c not in dealt)
    swapped = tuple(other if c == card else c for c in hand)
    game.replace_round(
        stored.pk, 0, dataclasses.replace(entry, hands={**entry.hands, PLAYERS[2]: swapped})
    )
    shows_history(game, 35, edited={33})
    whole = rounds_on(phone.get(f"{edit}rounds/").content.decode())[33]
    assert card_in(other, "en") in whole and card_in(card, "en") not in whole

    # a correction of the open round, then of a folded one (every later total changes)
    before = phone.get(edit).content.decode()
    for number in (35, 10):
        stored = game.rounds.get(position=number)
        fixed = {"number": str(number), "edits": "0", "save": "1", "caller": PLAYERS[1], **TOTALS}
        response = phone.post(f"{edit}rounds/{stored.pk}/edit/", fixed)
        assert response.status_code == 302
    shows_history(game, 35, edited={10, 33})
    assert rounds_on(phone.get(edit).content.decode())[35] != rounds_on(before)[35]

    # the last round deleted (the one before opens again), then put back
    last = game.rounds.live().get(position=35)
    assert phone.post(f"{edit}rounds/{last.pk}/delete/").status_code == 302
    shows_history(game, 34, edited={10, 33})
    assert phone.post(f"{edit}rounds/{last.pk}/restore/").status_code == 302
    shows_history(game, 35, edited={10, 33})

    # the game ended: no more round form, the rounds listed as before
    assert phone.post(f"{edit}end/").status_code == 302
    assert 'class="round-form' not in phone.get(edit).content.decode()
    shows_history(game, 35, edited={10, 33})


def test_a_refused_round_draws_its_picker_with_its_cards_used_and_its_target():
    """A round sent back with its refusals draws the picker for the hands it holds: a card
    used up (disabled) and whom the cards go to, not the picker kept for the empty round."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    phone = Client()
    phone.cookies["django_language"] = "en"
    edit = f"/g/{game.edit_key}/"
    empty = phone.get(edit).content.decode()
    assert 'name="pick" value="KH" class="pick red">' in empty and "Add cards to Léa" in empty
    sent = {"number": "1", "target": "1", "cards_0": "KH", "save": "1"}
    refused = phone.post(edit, sent | {"penalty-TOTAL_FORMS": "0"})
    page = refused.content.decode()
    assert refused.status_code == 400 and not game.rounds.exists()
    assert re.search(r'name="pick" value="KH"[^>]*disabled', page)
    assert 'name="cards_0" value="KH"' in page
    assert 'name="target" value="1"' in page and "Add cards to Marc" in page


def test_the_history_and_chart_drawn_once_differ_by_link_language_and_page():
    """A game's history and chart are kept once drawn for its version: a phone on the other
    link, in the other language or on the page of every round still sees its own."""
    game = evening_game(34, seed=3)
    french, english = Client(), Client()
    french.cookies["django_language"], english.cookies["django_language"] = "fr", "en"
    edit, share = f"/g/{game.edit_key}/", f"/s/{game.share_key}/"
    for url in (edit, f"{edit}live/", share, f"{share}live/", f"{edit}rounds/"):
        assert french.get(url).status_code == 200  # each drawn and kept in French first
    assert "Manche 34" in french.get(share).text and "Corriger" not in french.get(share).text
    assert "Corriger" in french.get(edit).text
    for url in (edit, f"{edit}live/", share):
        page = english.get(url).text
        assert "Round 34" in page and "Manche" not in page, url
        assert "Chart of the running totals after 34 rounds" in page, url
    assert "Edit" not in english.get(share).text
    whole = french.get(f"{edit}rounds/").text
    assert len(rounds_on(whole)) == 34 and "<details hx-get" not in whole
    listed = french.get(edit).text
    assert len(rounds_on(listed)) == 30 and "Afficher les manches 1 à 4" in listed


def test_a_phone_following_a_finished_game_gets_a_rematch_button_that_works_for_it():
    """The live part is partly kept and shared: what it gives each phone of its own (the
    rematch's CSRF token) still works for that phone."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"], settings={"rounds": 1})
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    for phone in (first, second):
        phone.get(f"/g/{game.edit_key}/")
    token = re.search(
        r'name="csrfmiddlewaretoken" value="([^"]+)"', first.get(f"/g/{game.edit_key}/").text
    )
    posted = {"csrfmiddlewaretoken": token.group(1), "number": "1", "save": "1", **NOBODY_CALLED}
    first.post(f"/g/{game.edit_key}/", posted | {"total_0": "3", "total_1": "4"})
    first.get(f"/g/{game.edit_key}/live/", HTTP_HX_REQUEST="true")  # drawn, parts kept
    live = second.get(f"/g/{game.edit_key}/live/", HTTP_HX_REQUEST="true").text
    assert "Rematch" in live or "Revanche" in live
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', live).group(1)
    answer = second.post(f"/g/{game.edit_key}/rematch/", {"csrfmiddlewaretoken": token})
    assert answer.status_code == 302 and Game.objects.count() == 2
