"""Tambouille on the phone: a new match, turn rounds, the end, the timer and the files,
through the test client."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from scoring.store.models import Game, TurnClock
from tests.helpers import EXAMPLES, exported_as

pytestmark = pytest.mark.django_db


@pytest.fixture
def fr():
    return Client()  # no language chosen: French, the default


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def new_match(client, *names: str, short: bool = False, dealer: int = 0) -> Game:
    data = {f"name_{row}": name for row, name in enumerate(names)}
    data |= {"dealer": str(dealer)}
    if short:
        data["short"] = "on"
    response = client.post("/new/tambouille/", data)
    assert response.status_code == 302, text(response)
    return Game.objects.get(edit_key=response["Location"].split("/")[2])


def save(client, game: Game, *counts, number: int | None = None, **headers):
    number = number or game.rounds.count() + 1
    data = {"number": str(number)} | {f"count_{seat}": str(c) for seat, c in enumerate(counts)}
    return client.post(f"/g/{game.edit_key}/", data, **headers)


def test_tambouille_is_offered_next_to_the_variants_with_its_short_version(client):
    assert "/new/tambouille/" in client.get("/new/").content.decode()
    page = client.get("/new/tambouille/").content.decode()
    assert 'name="short"' in page and "Half the cards are dealt." in page
    assert page.count('name="name_') == 4


def test_a_new_match_stores_players_dealer_and_short_and_shows_the_deal(client):
    game = new_match(client, "Léa", "Marc", "Nina", short=True, dealer=1)
    assert (game.variant, game.players, game.settings, game.first_dealer) == (
        "tambouille",
        ["Léa", "Marc", "Nina"],
        {"short": True},
        1,
    )
    page = text(client.get(f"/g/{game.edit_key}/"))
    assert "Marc dealt 20 cards to each player; Nina plays first." in page
    assert "short version" in page
    assert "Turn round 1: cards left" in page


@pytest.mark.parametrize(("players", "each"), [(2, 60), (3, 40), (4, 30)])
def test_the_sheet_shows_the_cards_dealt_to_each(client, players, each):
    game = new_match(client, *["Ana", "Ben", "Chloé", "Dan"][:players])
    assert f"dealt {each} cards to each player" in text(client.get(f"/g/{game.edit_key}/"))


def test_a_fifth_player_is_refused_and_the_page_has_four_names(client):
    response = client.post(
        "/new/tambouille/",
        {
            **{f"name_{r}": n for r, n in enumerate(["Ana", "Ben", "Chloé", "Dan", "Eve"])},
        },
    )
    assert response.status_code == 400
    assert "A game needs 2 to 4 players, not 5." in text(response)
    assert not Game.objects.exists()
    page = client.get("/new/tambouille/").content.decode()
    assert page.count('name="name_') == 4  # without JavaScript: four names, no more


def test_turn_rounds_are_stored_shown_over_the_turns_with_the_leader(client):
    game = new_match(client, "Léa", "Marc", "Nina")
    assert save(client, game, 38, 35, 39).status_code == 302
    assert save(client, game, 31, 33, 30).status_code == 302
    assert [r.data for r in game.rounds.order_by("position")] == [
        {"hands": {"Léa": 38, "Marc": 35, "Nina": 39}},
        {"hands": {"Léa": 31, "Marc": 33, "Nina": 30}},
    ]
    page = text(client.get(f"/g/{game.edit_key}/"))
    assert "2 turn rounds played" in page
    assert re.search(r"1 Nina leader 30 cards 2 Léa 31 cards 3 Marc 33 cards", page)
    assert "Turn round 3: cards left" in page


def test_the_match_ends_when_somebody_holds_no_card(client):
    game = new_match(client, "Léa", "Marc", "Nina")
    save(client, game, 14, 0, 0)
    page = text(client.get(f"/g/{game.edit_key}/"))
    assert "Match over" in page and "Winners: Marc, Nina" in page
    assert 'id="counts-form"' not in client.get(f"/g/{game.edit_key}/").content.decode()
    response = save(client, game, 1, 2, 3)
    assert response.status_code == 302
    assert "The match is over: no more turn rounds can be added." in text(
        client.get(response["Location"])
    )
    assert game.rounds.count() == 1


def test_blocked_ends_the_match_on_the_fewest_cards_after_a_confirmation(client):
    game = new_match(client, "Ana", "Ben")
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert "The match is blocked" not in page  # not before a turn round
    save(client, game, 7, 7)
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert '<details class="confirm">' in page and "Yes, the match is blocked" in page
    client.post(f"/g/{game.edit_key}/end/")
    game.refresh_from_db()
    assert game.ended
    page = text(client.get(f"/g/{game.edit_key}/"))
    assert "Winners: Ana, Ben" in page and "declared the match blocked" in page
    assert save(client, game, 3, 4).status_code == 302 and game.rounds.count() == 1


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("124", "Enter a number from 0 to 123."),
        ("-1", "Enter a number from 0 to 123."),
        ("2.5", "Enter a whole number."),
        ("x1", "Enter a number with the digits 0 to 9."),
        ("1234", "Enter at most 3 characters."),
        ("", "Enter how many cards Marc holds."),
    ],
)
def test_a_bad_count_is_refused_next_to_its_field_and_nothing_is_stored(client, typed, message):
    game = new_match(client, "Léa", "Marc")
    response = client.post(
        f"/g/{game.edit_key}/", {"number": "1", "count_0": "12", "count_1": typed}
    )
    assert response.status_code == 400
    html = response.content.decode()
    field = html.split('name="count_1"')[1].split("</div>")[0]
    assert message in field
    assert 'value="12"' in html.split('name="count_0"')[1][:80]
    assert game.rounds.count() == 0


def test_with_htmx_a_saved_turn_round_redraws_the_sheet_in_place(client):
    game = new_match(client, "Léa", "Marc")
    response = save(client, game, 20, 25, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Reswap"] == "outerHTML show:#totals:top"
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="game-body">')
    assert "Turn round 2: cards left" in html
    response = client.post(
        f"/g/{game.edit_key}/", {"number": "2", "count_0": "x"}, HTTP_HX_REQUEST="true"
    )
    assert "Enter a number with the digits 0 to 9." in response.content.decode()
    assert game.rounds.count() == 1


def test_the_same_turn_round_sent_twice_is_stored_once_and_another_is_kept_as_next(client):
    game = new_match(client, "Léa", "Marc")
    save(client, game, 20, 25, number=1)
    save(client, game, 20, 25, number=1)
    assert game.rounds.count() == 1
    response = save(client, game, 21, 24, number=1)
    assert response.status_code == 409
    page = text(response)
    assert "Turn round 1 was saved from another phone meanwhile." in page
    html = response.content.decode()
    assert 'name="number" value="2"' in html and 'value="21"' in html and 'value="24"' in html
    assert game.rounds.count() == 1


def test_a_turn_round_is_corrected_from_its_edit_page(client):
    game = new_match(client, "Léa", "Marc")
    save(client, game, 20, 25)
    entry = game.rounds.get()
    page = client.get(f"/g/{game.edit_key}/rounds/{entry.pk}/edit/").content.decode()
    assert 'value="20"' in page and 'value="25"' in page and "Delete this turn round" in page
    response = client.post(
        f"/g/{game.edit_key}/rounds/{entry.pk}/edit/",
        {"number": "1", "edits": "0", "count_0": "0", "count_1": "25"},
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.data == {"hands": {"Léa": 0, "Marc": 25}} and entry.edits == 1
    assert "Winner: Léa" in text(client.get(f"/g/{game.edit_key}/"))


def test_the_rules_page_says_what_the_match_sheet_decided_and_links_to_a_new_match(client, fr):
    page = client.get("/rules/tambouille/").content.decode()
    assert "/new/tambouille/" in page
    assert "What the match sheet decided" in page
    assert "60 each with 2 players, 40 with 3, 30 with 4" in page
    french = text(fr.get("/rules/tambouille/"))
    assert "Ce que la feuille de match a décidé" in french
    assert "Commencer une partie" in french


def test_the_match_sheet_is_in_french(fr):
    game = new_match(fr, "Léa", "Marc", "Nina")
    save(fr, game, 12, 15, 19)
    page = text(fr.get(f"/g/{game.edit_key}/"))
    assert "1 tour de table joué" in page
    assert "Léa a distribué 40 cartes à chaque joueur ; Marc joue en premier." in page
    assert "12 cartes" in page


# --- the thinking timer ----------------------------------------------------------------------


def tap(client, game: Game, action: str, turn: int | None = None, **extra):
    clock = TurnClock.objects.filter(game=game).first()
    turn = (clock.turn if clock else 0) if turn is None else turn
    return client.post(f"/g/{game.edit_key}/clock/{action}/", {"turn": str(turn), **extra})


def test_the_timer_starts_pauses_and_goes_to_the_next_player_in_turn_order(client):
    game = new_match(client, "Léa", "Marc", "Nina", dealer=2)  # Nina deals: Léa plays first
    page = text(client.get(f"/g/{game.edit_key}/"))
    assert "Léa is thinking 2:00 Paused · 2:00 a turn" in page
    assert "Next: Marc" in page
    assert tap(client, game, "start").status_code == 302
    clock = TurnClock.objects.get(game=game)
    assert clock.running and clock.turn == 0
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert f'data-deadline="{int(clock.deadline.timestamp() * 1000)}"' in page
    tap(client, game, "pause")
    clock.refresh_from_db()
    assert not clock.running and 0 <= clock.used < 120
    tap(client, game, "next")
    clock.refresh_from_db()
    assert clock.turn == 1 and clock.running and clock.used == 0
    assert "Marc is thinking" in text(client.get(f"/g/{game.edit_key}/"))


def test_the_time_left_comes_from_the_start_time_not_from_ticks():
    clock = TurnClock(seconds=120)
    start = timezone.now()
    clock.apply("start", start)
    assert clock.left(start + timedelta(seconds=45)) == 75
    assert clock.deadline == start + timedelta(seconds=120)
    clock.apply("pause", start + timedelta(seconds=45))
    assert clock.left(start + timedelta(hours=1)) == 75  # paused: the time stands still
    clock.apply("start", start + timedelta(seconds=100))
    assert clock.deadline == start + timedelta(seconds=175)
    assert clock.left(start + timedelta(seconds=500)) == 0
    clock.apply("pause", start + timedelta(seconds=500))
    clock.apply("start", start + timedelta(seconds=600))  # after the time was up: anew
    assert clock.left(start + timedelta(seconds=600)) == 120


def test_two_phones_tapping_next_for_the_same_turn_move_it_on_once(client):
    game = new_match(client, "Léa", "Marc", "Nina")
    tap(client, game, "next", turn=0)
    tap(client, game, "next", turn=0)
    assert TurnClock.objects.get(game=game).turn == 1


def test_the_time_of_a_turn_is_set_stored_and_shown(client):
    game = new_match(client, "Léa", "Marc")
    tap(client, game, "time", seconds="90")
    assert TurnClock.objects.get(game=game).seconds == 90
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert '<option value="90" selected>1:30</option>' in page
    assert "1:30 a turn" in text(client.get(f"/g/{game.edit_key}/"))


@pytest.mark.parametrize(
    ("action", "data", "refusal"),
    [
        ("time", {"seconds": "7"}, "Select a valid choice. 7 is not one of the available choices."),
        ("time", {}, "Choose the time of a turn."),
        ("start", {"turn": "x"}, None),  # the turn is the page's hidden copy: no field to show
    ],
)
def test_a_bad_timer_tap_changes_nothing(client, action, data, refusal):
    game = new_match(client, "Léa", "Marc")
    response = client.post(f"/g/{game.edit_key}/clock/{action}/", {"turn": "0", **data})
    assert response.status_code == 400
    assert refusal is None or refusal in text(response)
    assert not TurnClock.objects.filter(game=game).exists()


def test_a_timer_tap_of_no_kind_is_no_page(client):
    game = new_match(client, "Léa", "Marc")
    assert client.post(f"/g/{game.edit_key}/clock/explode/", {"turn": "0"}).status_code == 404
    assert client.post(f"/g/{game.edit_key}/clock/", {"turn": "0"}).status_code == 404
    assert not TurnClock.objects.filter(game=game).exists()


def test_the_read_only_view_shows_whose_turn_and_the_deadline_live_without_buttons(client):
    game = new_match(client, "Léa", "Marc")
    tap(client, game, "start")
    share = client.get(f"/s/{game.share_key}/").content.decode()
    clock = TurnClock.objects.get(game=game)
    assert f'data-deadline="{int(clock.deadline.timestamp() * 1000)}"' in share
    assert "Marc</strong> is thinking" in share  # Léa dealt: Marc plays first
    assert "/clock/" not in share and 'id="counts-form"' not in share
    live = client.get(f"/s/{game.share_key}/live/")
    etag = live["ETag"]
    assert client.get(f"/s/{game.share_key}/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    tap(client, game, "next")
    live = client.get(f"/s/{game.share_key}/live/", HTTP_IF_NONE_MATCH=etag)
    assert live.status_code == 200 and "Léa</strong> is thinking" in live.content.decode()
    assert client.post(f"/s/{game.share_key}/").status_code == 405


def test_the_timer_is_not_offered_on_a_tamalou_game(client):
    client.post("/new/tamalou/", {"name_0": "A", "name_1": "B"})
    game = Game.objects.get()
    assert client.post(f"/g/{game.edit_key}/clock/start/", {"turn": "0"}).status_code == 404


# --- files --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tambouille", "tambouille_blocked"])
def test_import_and_export_give_the_same_match_file(client, name):
    data = (EXAMPLES / f"{name}.game.json").read_bytes()
    with (EXAMPLES / f"{name}.game.json").open("rb") as upload:
        response = client.post("/import/", {"file": upload})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.ended == (name == "tambouille_blocked")
    exported = client.get(f"/g/{game.edit_key}/export/")
    assert exported_as(exported.content, game) == json.loads(data)
    expected = json.loads((EXAMPLES / f"{name}.scoresheet.json").read_text())
    assert text(client.get(f"/g/{game.edit_key}/")).count("Winner") == 1
    assert ", ".join(expected["winners"]) in text(client.get(f"/g/{game.edit_key}/"))


def test_a_match_file_with_a_fifth_player_is_refused_on_import(client):
    data = json.dumps(
        {
            "format": "tamalou-ref.game/1",
            "variant": "tambouille",
            "players": ["A", "B", "C", "D", "E"],
            "rounds": [],
        }
    )
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post("/import/", {"file": SimpleUploadedFile("m.json", data.encode())})
    assert response.status_code == 400
    assert "A game needs 2 to 4 players, not 5." in text(response)
    assert not Game.objects.exists()


def test_the_home_page_lists_the_match_with_its_leader(client):
    game = new_match(client, "Léa", "Marc")
    save(client, game, 20, 17)
    page = text(client.get("/"))
    assert "Tambouille" in page and "Leader: Marc (17)" in page


def test_a_match_declared_blocked_by_mistake_goes_on(client):
    game = new_match(client, "Ana", "Ben")
    save(client, game, 7, 9)
    client.post(f"/g/{game.edit_key}/end/")
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert "Not blocked after all: go on" in page
    client.post(f"/g/{game.edit_key}/resume/")
    game.refresh_from_db()
    assert not game.ended and not game.score().finished
    assert save(client, game, 3, 4).status_code == 302 and game.rounds.count() == 2


def test_the_last_turn_round_saved_with_htmx_shows_the_winners(client):
    game = new_match(client, "Léa", "Marc")
    response = save(client, game, 0, 25, HTTP_HX_REQUEST="true")
    assert response["HX-Reswap"] == "outerHTML show:#live-top:top"
    assert "Winner: Léa" in text(response)


def test_other_phones_lose_the_turn_round_form_once_the_match_is_over(client):
    game = new_match(client, "Léa", "Marc")
    save(client, game, 4, 25)
    live = client.get(f"/g/{game.edit_key}/live/").content.decode()
    assert 'hx-swap-oob="delete"' not in live and "The match is blocked" in live
    client.post(f"/g/{game.edit_key}/end/")
    live = client.get(f"/g/{game.edit_key}/live/").content.decode()
    assert '<div id="counts-form" hx-swap-oob="delete"></div>' in live
    assert "The match is blocked" not in live and "Winner: Léa" in live


def test_a_rematch_keeps_the_time_of_a_turn_and_moves_the_deal_on(client):
    game = new_match(client, "Léa", "Marc", "Nina")
    tap(client, game, "time", seconds="60")
    response = client.post(f"/g/{game.edit_key}/rematch/")
    rematch = Game.objects.get(edit_key=response["Location"].split("/")[2])
    assert (rematch.variant, rematch.players, rematch.first_dealer) == (
        "tambouille",
        ["Léa", "Marc", "Nina"],
        1,
    )
    assert rematch.clock.seconds == 60


def test_a_new_time_of_a_turn_starts_the_turn_again_with_it():
    clock = TurnClock(seconds=120)
    start = timezone.now()
    clock.apply("start", start)
    clock.apply("time", start + timedelta(seconds=100), 30)
    assert clock.running and clock.left(start + timedelta(seconds=100)) == 30
    paused = TurnClock(seconds=120, used=50)
    paused.apply("time", start, 60)
    assert not paused.running and paused.left(start) == 60


def test_the_exported_file_is_named_after_the_local_date(client):
    game = new_match(client, "Léa", "Marc")
    Game.objects.filter(pk=game.pk).update(
        created_at=timezone.make_aware(timezone.datetime(2026, 11, 22, 0, 30))  # Paris
    )
    response = client.get(f"/g/{game.edit_key}/export/")
    assert 'filename="tambouille-lea-marc-2026-11-22.json"' in response["Content-Disposition"]


def test_a_turn_round_kept_offline_is_sent_like_a_round(client):
    game = new_match(client, "Léa", "Marc")
    data = {"number": "1", "count_0": "20", "count_1": "17"}
    response = client.post(f"/g/{game.edit_key}/rounds/sync/", data)
    assert response.json() == {"saved": 1}
    assert game.rounds.get().data == {"hands": {"Léa": 20, "Marc": 17}}
    response = client.post(f"/g/{game.edit_key}/rounds/sync/", {**data, "count_1": "x"})
    assert response.status_code == 400
    assert response.json() == {"errors": ["Marc: Enter a number with the digits 0 to 9."]}
    assert game.rounds.count() == 1


def test_statistics_leave_tambouille_matches_out(client):
    game = new_match(client, "Léa", "Marc")
    save(client, game, 0, 25)
    page = text(client.get("/stats/"))
    assert "From the 0 games this phone knows (0 finished)" in page


def test_a_turn_round_saved_while_the_sheet_is_drawn_leaves_it_whole(client, monkeypatch):
    """Another phone's save lands after the sheet read the match's score, before it read its
    turn rounds: the page shows what it read (no 500), the next view the new turn round."""
    game = new_match(client, "Léa", "Marc", "Nina")
    assert save(client, game, 38, 35, 39).status_code == 302
    other = Client()
    other.cookies["django_language"] = "en"  # as this phone: the nested save sets the language
    score = Game.score

    def score_then_another_phone_saves(self):
        sheet = score(self)
        monkeypatch.setattr(Game, "score", score)
        assert save(other, game, 31, 33, 30, number=2).status_code == 302
        return sheet

    monkeypatch.setattr(Game, "score", score_then_another_phone_saves)
    page = client.get(f"/g/{game.edit_key}/")
    assert page.status_code == 200 and "1 turn round played" in text(page)
    assert "2 turn rounds played" in text(client.get(f"/g/{game.edit_key}/"))
