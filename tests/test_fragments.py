"""Parts of the sheet drawn once and kept (Django's ``{% cache %}``, in the
``template_fragments`` cache): each round of the history.
A sheet drawn from kept parts is the sheet drawn afresh, after every kind of change, by
either link, in either language; and each key changes with each thing its part shows."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.core.cache import caches
from django.test import Client
from django.utils import translation

from bench.fixtures import PLAYERS, evening_game
from scoring.games.models import Game
from scoring.pages.sheet import history
from scoring.referee.variants import VARIANTS

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r"\b[A-Za-z0-9]{64}\b")  # a CSRF token, masked afresh in each page
TOTALS = {f"total_{seat}": str(seat + 2) for seat in range(len(PLAYERS))}


def drawn(viewer: Client, url: str, *, kept: bool) -> str:
    """The page at ``url`` drawn anew: from the parts kept, or from nothing."""
    caches["default"].clear()  # the whole pages
    if not kept:
        caches["template_fragments"].clear()
    response = viewer.get(url)
    assert response.status_code == 200
    return TOKEN.sub("", response.content.decode())


def pages(game: Game) -> list[str]:
    edit, share = f"/g/{game.edit_key}/", f"/s/{game.share_key}/"
    return [edit, f"{edit}live/", f"{edit}rounds/", share, f"{share}live/", f"{share}rounds/"]


def same_drawn_either_way(game: Game, newest: int) -> None:
    for language in ("fr", "en"):
        viewer = Client()
        viewer.cookies["django_language"] = language
        for url in pages(game):
            drawn(viewer, url, kept=True)  # every part kept, as phones following it see it
            kept = drawn(viewer, url, kept=True)
            assert f'id="round-{newest}"' in kept and f'id="round-{newest + 1}"' not in kept
            assert kept == drawn(viewer, url, kept=False), (language, url)


def test_a_sheet_drawn_from_kept_parts_is_the_sheet_drawn_afresh_after_every_change():
    game = evening_game(34, seed=21)
    phone = Client()
    edit = f"/g/{game.edit_key}/"
    same_drawn_either_way(game, 34)

    # a saved round: the newest open, one more folded, the oldest listed no longer listed
    saved = {"number": "35", "save": "1", "caller": PLAYERS[0], **TOTALS}
    assert phone.post(edit, saved).status_code == 302
    same_drawn_either_way(game, 35)

    # a card of an open round swapped for one of the same value (the same scores, other cards)
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
    same_drawn_either_way(game, 35)

    # a correction of an open round, then of a folded one (every later total changes)
    for number in (34, 10):
        stored = game.rounds.get(position=number)
        fixed = {"number": str(number), "edits": "0", "save": "1", "caller": PLAYERS[1], **TOTALS}
        response = phone.post(f"{edit}rounds/{stored.pk}/edit/", fixed)
        assert response.status_code == 302
        same_drawn_either_way(game, 35)

    # the last round deleted (the one before opens again), then put back
    last = game.rounds.live().get(position=35)
    assert phone.post(f"{edit}rounds/{last.pk}/delete/").status_code == 302
    same_drawn_either_way(game, 34)
    assert phone.post(f"{edit}rounds/{last.pk}/restore/").status_code == 302
    same_drawn_either_way(game, 35)

    # the game ended: no more round form, the rounds without their buttons changing
    assert phone.post(f"{edit}end/").status_code == 302
    same_drawn_either_way(game, 35)


def test_a_picked_card_and_another_target_draw_their_own_picker():
    """Without JavaScript a tap posts the round so far: the picker shows a card used up
    (disabled) and whom the cards go to, not the picker kept for the empty round."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    phone = Client()
    phone.cookies["django_language"] = "en"
    edit = f"/g/{game.edit_key}/"
    empty = phone.get(edit).content.decode()
    assert 'name="pick" value="KH" class="pick red">' in empty and "Add cards to Léa" in empty
    tapped = {"number": "1", "target": "0", "pick": "KH", "penalty-TOTAL_FORMS": "0"}
    page = phone.post(edit, tapped).content.decode()
    assert re.search(r'name="pick" value="KH"[^>]*disabled', page)
    assert 'name="cards_0" value="KH"' in page
    chosen = phone.post(edit, {"number": "1", "choose": "1", "penalty-TOTAL_FORMS": "0"})
    page = chosen.content.decode()
    assert 'name="target" value="1"' in page and "Add cards to Marc" in page
    assert not re.search(r'name="pick" value="KH"[^>]*disabled', page)


def keys_of(game: Game, link: str = "edit", language: str = "fr") -> dict[int, str]:
    with translation.override(language):
        return {h["result"].number: h["fragment"] for h in history(game, game.score(), link=link)}


def test_each_round_is_kept_under_a_key_of_everything_it_shows():
    game = evening_game(34, seed=22)
    keys = keys_of(game)
    assert len(set(keys.values())) == len(keys) == 30  # the listed rounds, each its own
    assert keys_of(game, link="share").keys() == keys.keys()
    assert set(keys_of(game, link="share").values()).isdisjoint(keys.values())
    assert set(keys_of(game, language="en").values()).isdisjoint(keys.values())
    twin = evening_game(34, seed=22)  # the same rounds: other links in them
    assert set(keys_of(twin).values()).isdisjoint(keys.values())

    # the same state read again: the same keys
    assert keys_of(Game.objects.get(pk=game.pk)) == keys

    # another dealer first: every round's "dealt by" changes
    Game.objects.filter(pk=game.pk).update(first_dealer=1)
    dealt = keys_of(Game.objects.get(pk=game.pk))
    assert set(dealt.values()).isdisjoint(keys.values())
    Game.objects.filter(pk=game.pk).update(first_dealer=0)

    # a correction of round 31 changes round 31 (edited) and the open round's totals; the
    # other folded rounds show no totals and keep their keys
    game = Game.objects.get(pk=game.pk)
    stored = game.rounds.get(position=31)
    game.replace_round(stored.pk, 0, dataclasses.replace(stored.as_entry(31), caller=None))
    corrected = keys_of(Game.objects.get(pk=game.pk))
    assert all(corrected[n] == keys[n] for n in [*range(5, 31), 32, 33])
    assert corrected[31] != keys[31] and corrected[34] != keys[34]
