"""Parts of the sheet drawn once and kept (Django's ``{% cache %}``, in the
``template_fragments`` cache): each round of the history and the round form's card picker.
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
from scoring.pages.forms import RoundForm
from scoring.pages.sheet import history
from scoring.referee import engine
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


def test_the_picker_is_kept_under_a_key_of_everything_it_shows():
    def form(variant="tamalou", settings=None, data=None) -> RoundForm:
        players = ["Léa", "Marc"]
        game = Game.objects.create(variant=variant, players=players, settings=settings or {})
        return RoundForm.for_game(game)(data, game=game, number=1)

    def key(variant="tamalou", settings=None, data=None, language="fr") -> str:
        with translation.override(language):
            return form(variant, settings, data).picker_key

    same = key()
    assert key() == same  # another game, the same rules and round: the same picker
    assert key(language="en") != same  # K♥ is R♥ in French
    assert key(settings={"card_values": {"KH": -1}}) != same  # a value
    with translation.override("fr"):
        # a variant's deck and values: the same picker, the same key (some differ)
        others = {v for v in VARIANTS if form(v).picker_cards != form().picker_cards}
        assert others and others < set(VARIANTS)
        for variant in VARIANTS:
            assert (key(variant) == same) == (variant not in others), variant
    posted = {"number": "1", "penalty-TOTAL_FORMS": "0"}
    assert key(data={**posted, "target": "1"}) != same  # whom the cards go to
    # a card in a hand on the server's side (a pick without JavaScript, a correction): that
    # picker is the round's own, drawn and not kept
    assert key(data={**posted, "cards_0": "KH"}) is None


def test_a_new_rounds_form_is_kept_under_a_key_of_everything_it_shows():
    def game_of(players=("Léa", "Marc", "Nina"), variant="tamalou", settings=None) -> Game:
        return Game.objects.create(variant=variant, players=list(players), settings=settings or {})

    def key(game: Game, language: str = "fr", data=None) -> str | None:
        game = Game.objects.get(pk=game.pk)
        number = game.live_count() + 1
        with translation.override(language):
            return RoundForm.for_game(game)(data, game=game, number=number).fresh_key

    first = game_of()
    before = key(first)
    assert before is not None
    first.add_round(1, engine.RoundEntry(hands={"Léa": 3, "Marc": 9, "Nina": 4}))
    assert key(first) == before  # the form after a save is the one before it
    assert key(game_of()) == before  # another game, the same players and rules
    assert key(first, language="en") != before
    assert key(game_of(settings={"card_values": {"KH": -1}})) != before  # a value
    assert key(game_of(players=("Léa", "Marc", "Zoé"))) != before
    assert key(game_of(players=("Marc", "Léa", "Nina"))) != before  # other seats
    assert key(game_of(variant="koubo")) != before  # a counter-call, jokers
    # anything in it is the form's own: posted (a refusal, a tap), or a stored round shown
    assert key(first, data={"number": "2", "penalty-TOTAL_FORMS": "0"}) is None
    stored = first.rounds.get()
    assert RoundForm.for_game(first).as_stored(first, stored, 1).fresh_key is None


def test_another_games_kept_form_is_the_form_drawn_afresh():
    first, second = (Game.objects.create(variant="koubo", players=PLAYERS) for _ in range(2))
    for language in ("fr", "en"):
        viewer = Client()
        viewer.cookies["django_language"] = language
        drawn(viewer, f"/g/{first.edit_key}/", kept=True)  # its form kept
        kept = drawn(viewer, f"/g/{second.edit_key}/", kept=True)
        assert kept == drawn(viewer, f"/g/{second.edit_key}/", kept=False), language
