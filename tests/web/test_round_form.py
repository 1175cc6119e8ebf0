"""Every control of the round form round-trips, and no page shows one game's or one request's
content to another."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from scoring.referee import engine, gamefile
from scoring.referee.variants import VARIANTS
from scoring.store.models import Game, Round
from tests.helpers import NOBODY_CALLED

pytestmark = pytest.mark.django_db

PLAYERS = ["Léa", "Marc", "Nina"]


def every_control(variant: str) -> tuple[dict, dict]:
    """A round filling every field the variant's form offers: the posted data, and the round
    the game file must hold afterwards."""
    posted = {
        "number": "1",
        "save": "1",
        "cards_0": "AH AD",
        "total_1": "9",
        "emptied": ["Nina"],
        "caller": "Léa",
        "penalty-TOTAL_FORMS": "2",
        "penalty-INITIAL_FORMS": "0",
        "penalty-0-player": "Marc",
        "penalty-0-points": "2",
        "penalty-0-reason": "wrong quick discard",
        "penalty-1-player": "Léa",
        "penalty-1-points": "-1",
        "penalty-1-reason": "",
    }
    expected = {
        "hands": {"Léa": ["AH", "AD"], "Marc": 9, "Nina": []},
        "caller": "Léa",
        "emptied": ["Nina"],
        "penalties": [
            {"player": "Marc", "points": 2, "reason": "wrong quick discard"},
            {"player": "Léa", "points": -1},
        ],
    }
    if VARIANTS[variant].counter_call:
        posted["counter_caller"] = "Marc"
        expected["counter_caller"] = "Marc"
    if VARIANTS[variant].penalty_cards:
        posted["penalty_cards"] = "4C"  # Nina's 0 beat Léa's 2: one card
        expected["penalty_cards"] = ["4C"]
    return posted, expected


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_control_of_the_round_form_is_stored_and_exported(client, variant):
    game = Game.objects.create(variant=variant, players=PLAYERS)
    posted, expected = every_control(variant)
    response = client.post(f"/g/{game.edit_key}/", posted)
    assert response.status_code == 302, response.content.decode()[-3000:]
    assert Round.objects.get(game=game).data == expected
    exported = json.loads(client.get(f"/g/{game.edit_key}/export/").content)
    assert exported["rounds"] == [expected]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_edit_page_shows_every_stored_control_and_saves_it_back_unchanged(client, variant):
    game = Game.objects.create(variant=variant, players=PLAYERS)
    posted, expected = every_control(variant)
    client.post(f"/g/{game.edit_key}/", posted)
    entry = Round.objects.get(game=game)
    edit = f"/g/{game.edit_key}/rounds/{entry.pk}/edit/"
    page = client.get(edit).content.decode()
    assert 'name="cards_0" value="AH AD"' in page and 'name="total_1"' in page
    assert re.search(r'name="total_1" value="9"', page)
    assert re.search(
        r'value="Nina"[^>]*name="emptied"|name="emptied" value="Nina"[^>]* checked', page
    )
    assert 'name="penalty-0-reason" value="wrong quick discard"' in page
    assert re.search(r'name="penalty-1-points" value="-1"', page)
    # What the page shows, posted back as it is, stores the same round.
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', page))
    data = {k: v for k, v in fields.items() if not k.startswith(("csrf", "pick", "unpick"))}
    data |= {"save": "1", "emptied": ["Nina"], "caller": "Léa"}
    data |= {"penalty-0-player": "Marc", "penalty-1-player": "Léa"}
    if "counter_caller" in expected:
        data["counter_caller"] = "Marc"
    for name in ("choose", "add_penalty", "negate"):
        data.pop(name, None)
    assert client.post(edit, data).status_code == 302
    entry.refresh_from_db()
    assert entry.data == expected and entry.edits == 1


def test_penalty_text_without_a_player_is_refused_not_dropped(client):
    game = Game.objects.create(variant="cabo_bruxellois", players=["Léa", "Marc"])
    posted = {"number": "1", "save": "1", "total_0": "3", "total_1": "4"}
    posted |= {"penalty-TOTAL_FORMS": "1", "penalty-INITIAL_FORMS": "0"}
    posted |= {"penalty-0-points": "2", "penalty-0-reason": "wrong quick discard"}
    response = client.post(f"/g/{game.edit_key}/", posted)
    assert response.status_code == 400 and not Round.objects.exists()
    assert "Choose who gets the penalty." in response.content.decode()


@pytest.mark.parametrize("reason", ["slow \x07", "a\tb", "esc \x1b[31m", "a\x85b"])
def test_a_penalty_reason_with_a_control_character_is_refused(client, reason):
    """Found by tests/web/test_fuzz.py: a control character was stored in a reason, so the game's
    export held a string that a game file may not hold, and did not import again."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    posted = {"number": "1", "save": "1", "total_0": "3", "total_1": "4"}
    posted |= {"penalty-0-player": "Marc", "penalty-0-points": "2", "penalty-0-reason": reason}
    response = client.post(f"/g/{game.edit_key}/", posted)
    assert response.status_code == 400 and not Round.objects.exists()
    assert "Remove the control character from the reason." in response.content.decode()


@pytest.mark.parametrize("charset", ["utf-7", "unicode_escape", "latin-1"])
def test_a_form_posted_in_another_charset_than_utf8_is_refused(client, charset):
    """Found by tests/web/test_fuzz.py: a multipart form in UTF-7 decoded '+2AA-' to a lone
    surrogate. In a penalty reason SQLite stored it and every page of the game failed (500),
    PostgreSQL failed to store it (500); in any field the page showing the form again failed
    (500). Browsers post UTF-8, as the pages are; anything else is refused."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    Round.objects.create(game=game, position=1, data={"hands": {"Léa": 3, "Marc": 4}})
    fields = {"number": "1", "save": "1", "total_0": "3", "total_1": "4"}
    fields |= {"penalty-0-player": "Marc", "penalty-0-points": "2"}
    fields |= {"penalty-0-reason": "slow " + "\ud800".encode("utf-7").decode()}
    boundary = "b0undary"
    body = (
        b"".join(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
            f"{value}\r\n".encode()
            for name, value in fields.items()
        )
        + f"--{boundary}--\r\n".encode()
    )
    content_type = f"multipart/form-data; boundary={boundary}; charset={charset}"
    for url in (
        f"/g/{game.edit_key}/",
        f"/g/{game.edit_key}/rounds/{Round.objects.get().pk}/edit/",
    ):
        response = client.generic("POST", url, body, content_type=content_type)
        assert response.status_code == 400
    assert list(Round.objects.values_list("data", "edits")) == [
        ({"hands": {"Léa": 3, "Marc": 4}}, 0)
    ]
    assert client.get(f"/g/{game.edit_key}/").status_code == 200


def test_without_javascript_a_round_takes_penalties_in_the_rows_the_form_shows(client):
    """No "Another penalty" without JavaScript: the form always has two empty rows past
    those filled, and a plain post of them stores every penalty."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert 'name="penalty-TOTAL_FORMS" value="3"' in page and 'name="penalty-2-player"' in page
    posted = {"number": "1", "save": "1", "total_0": "3", "total_1": "9", **NOBODY_CALLED}
    posted |= {"penalty-TOTAL_FORMS": "3", "penalty-INITIAL_FORMS": "0"}
    posted |= {"penalty-0-player": "Marc", "penalty-0-points": "2", "penalty-0-reason": "peeked"}
    posted |= {"penalty-1-player": "Léa", "penalty-1-points": "1"}
    assert client.post(f"/g/{game.edit_key}/", posted).status_code == 302
    stored = Round.objects.get()
    assert stored.data["penalties"] == [
        {"player": "Marc", "points": 2, "reason": "peeked"},
        {"player": "Léa", "points": 1},
    ]
    corrected = client.get(f"/g/{game.edit_key}/rounds/{stored.pk}/edit/").content.decode()
    assert 'name="penalty-TOTAL_FORMS" value="4"' in corrected  # the two, and two empty


def test_cards_and_a_different_typed_total_are_refused_with_both_kept(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    posted = {"number": "1", "save": "1", "cards_0": "KD 3C", "total_0": "7", "total_1": "4"}
    page = client.post(f"/g/{game.edit_key}/", posted).content.decode()
    assert "The cards make 3, not 7" in page and not Round.objects.exists()
    assert 'name="cards_0" value="KD 3C"' in page and 'name="total_0" value="7"' in page


def test_without_javascript_a_round_entered_with_cards_is_corrected_to_a_typed_total(client):
    """The picker is the phone's: a page without JavaScript shows a hand's cards as text,
    which it can empty (the typed total then counts) or change."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    posted = {"number": "1", "save": "1", "cards_0": "KD 3C", "total_1": "4", **NOBODY_CALLED}
    assert client.post(f"/g/{game.edit_key}/", posted).status_code == 302
    stored = Round.objects.get()
    edit = f"/g/{game.edit_key}/rounds/{stored.pk}/edit/"
    page = client.get(edit).content.decode()
    assert re.search(r'<input type="text" name="cards_0" value="KD 3C"', page)
    assert '<label class="no-js-only card-codes-label" for="id_cards_0">Léa: cards</label>' in page
    assert "Empty a player's cards to count the total typed." in page
    assert re.search(r'<input type="hidden" name="cards_1"', page)  # Marc's hand had no cards
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', page))
    corrected = {k: fields[k] for k in ("number", "edits", "total_1")} | NOBODY_CALLED
    corrected |= {"save": "1", "cards_0": "", "total_0": "12"}
    assert client.post(edit, corrected).status_code == 302
    stored.refresh_from_db()
    assert stored.data["hands"] == {"Léa": 12, "Marc": 4}
    changed = {k: fields[k] for k in ("number", "total_1")} | NOBODY_CALLED
    changed |= {"save": "1", "edits": "1", "cards_0": "k♦ 10h"}
    assert client.post(edit, changed).status_code == 302
    stored.refresh_from_db()
    assert stored.data["hands"] == {"Léa": ["KD", "10H"], "Marc": 4}


def test_a_card_typed_wrong_without_javascript_is_said_next_to_it(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    posted = {"number": "1", "save": "1", "cards_0": "KD 3X", "total_1": "4", **NOBODY_CALLED}
    response = client.post(f"/g/{game.edit_key}/", posted)
    page = response.content.decode()
    assert response.status_code == 400 and not Round.objects.exists()
    assert "Unknown card 3X" in page
    assert re.search(r'<input type="text" name="cards_0" value="KD 3X"', page)


def test_without_javascript_dutch_toulousain_penalty_cards_are_typed(client):
    game = Game.objects.create(variant="dutch_toulousain", players=["Léa", "Marc", "Nina"])
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert re.search(r'<input type="text" name="penalty_cards"[^>]*class="card-codes', page)
    assert '<label class="visually-hidden" for="id_penalty_cards">' in page
    posted = {"number": "1", "save": "1", "total_0": "2", "total_1": "9", "total_2": "0"}
    posted |= {"caller": "Léa", "penalty_cards": "4c"}  # Nina's 0 beat Léa's 2: one card
    assert client.post(f"/g/{game.edit_key}/", posted).status_code == 302
    assert Round.objects.get().data["penalty_cards"] == ["4C"]


def test_a_total_of_many_digits_is_said_impossible_not_an_unknown_card(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    posted = {"number": "1", "save": "1", "total_0": "999999999999", "total_1": "4"}
    page = client.post(f"/g/{game.edit_key}/", posted).content.decode()
    assert "A hand total of 999999999999 is impossible" in page


@pytest.mark.parametrize("digits", ["١٢", "²", "１２", "12a", "1e3", "--3"])
def test_numbers_take_the_digits_0_to_9_only(client, digits):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    posted = {"number": "1", "save": "1", "total_0": digits, "total_1": "4"}
    response = client.post(f"/g/{game.edit_key}/", posted)
    assert response.status_code == 400 and not Round.objects.exists()
    assert "Enter a number with the digits 0 to 9." in response.content.decode()


def test_a_second_tap_on_save_over_a_fresh_form_says_one_thing_and_stores_nothing(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    first = {"number": "1", "save": "1", "total_0": "3", "total_1": "4", **NOBODY_CALLED}
    client.post(f"/g/{game.edit_key}/", first)
    page = client.post(f"/g/{game.edit_key}/", {"number": "2", "save": "1"}).content.decode()
    assert page.count('role="alert"') == 0 and "Enter the hands first." in page  # no red
    assert Round.objects.count() == 1


def test_the_same_round_sent_twice_is_stored_once_without_a_conflict(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    posted = {"number": "1", "save": "1", "total_0": "3", "total_1": "4", **NOBODY_CALLED}
    assert client.post(f"/g/{game.edit_key}/", posted).status_code == 302
    assert client.post(f"/g/{game.edit_key}/", posted).status_code == 302
    assert Round.objects.count() == 1


def test_two_phones_saving_the_same_round_store_it_once_and_the_second_is_told(client):
    """Two scorers type round 1 with the same hands and caller; the second Save
    (without JavaScript, or with htmx) stores nothing more and says the round was there."""
    game = Game.objects.create(variant="koubo", players=["Léa", "Marc", "Nina"])
    posted = {"number": "1", "save": "1", "total_0": "3", "total_1": "4", "total_2": "9"}
    posted["caller"] = "Nina"
    Client().post(f"/g/{game.edit_key}/", posted)
    page = client.post(f"/g/{game.edit_key}/", posted, follow=True).content.decode()
    assert "Round 1 was already saved with these same hands" in page
    assert "Save round 2" in page
    page = client.post(f"/g/{game.edit_key}/", posted, headers={"HX-Request": "true"})
    assert "Round 1 was already saved with these same hands" in page.content.decode()
    assert Round.objects.count() == 1


def test_other_hands_for_a_round_saved_meanwhile_are_refused_at_its_number(client):
    """The second scorer's other hands for round 1 are not stored as round 2 by the Save that
    meant round 1: the page says so and holds them for round 2, saved only by another tap."""
    game = Game.objects.create(variant="koubo", players=["Léa", "Marc", "Nina"])
    first = {"number": "1", "save": "1", "total_0": "3", "total_1": "4", "total_2": "9"}
    Client().post(f"/g/{game.edit_key}/", {**first, "caller": "Nina"})
    mine = {**first, "total_0": "5", "caller": "Léa"}
    response = client.post(f"/g/{game.edit_key}/", mine)
    page = response.content.decode()
    assert response.status_code == 409 and Round.objects.count() == 1
    assert "Round 1 was saved from another phone meanwhile." in page
    assert 'name="number" value="2"' in page and 'name="total_0" value="5"' in page
    assert client.post(f"/g/{game.edit_key}/", {**mine, "number": "2"}).status_code == 302
    assert [r.data["caller"] for r in Round.objects.order_by("position")] == ["Nina", "Léa"]


def test_card_names_are_in_the_page_language():
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    french = Client()
    page = french.post(
        f"/g/{game.edit_key}/", {"number": "1", "cards_0": "KH QS JC", "choose": "0"}
    ).content.decode()
    assert ">R♥ <" in page and ">D♠ <" in page and ">V♣ <" in page  # the chips
    assert 'data-card="KH"' in page  # the game file keeps its codes


# --- a round nobody called -------------------------------------------------------------------

QUESTION = "Nobody called this round? Tap who called, or save it as a round nobody called."
ANSWER = '<button type="submit" name="nobody_called" value="1" class="button">'


def asks(page: str) -> bool:
    """Whether the page asks if nobody called (the question is on every round form of a game
    whose rounds end with a call, hidden until it is asked)."""
    return 'class="who-called" role="alert"' in page


def calls_box(page: str) -> str:
    """The caller's choice on the round form, and what is shown beside it."""
    start = page.index('<fieldset class="calls">')
    return page[start : page.index("</fieldset>", start)]


def round_typed(**fields) -> dict:
    """Round 1 as a table enters it: cards, a typed total and a penalty, nobody tapped as caller."""
    posted = {"number": "1", "save": "1", "cards_0": "KD 3C", "total_1": "9"}
    posted |= {"penalty-TOTAL_FORMS": "1", "penalty-INITIAL_FORMS": "0"}
    posted |= {"penalty-0-player": "Marc", "penalty-0-points": "2", "penalty-0-reason": "peeked"}
    return posted | fields


@pytest.mark.parametrize("htmx", [False, True])
def test_a_round_saved_with_nobody_as_caller_is_asked_about_before_it_is_stored(client, htmx):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    headers = {"HX-Request": "true"} if htmx else {}
    asked = client.post(f"/g/{game.edit_key}/", round_typed(), headers=headers)
    page = asked.content.decode()
    assert asked.status_code == (200 if htmx else 400) and not Round.objects.exists()
    assert page.lstrip().startswith("<form") is htmx  # with htmx, the form answers in place
    assert asks(page) and QUESTION in calls_box(page) and ANSWER in calls_box(page)
    # Nothing typed is lost: the cards, the total, the penalty and its reason.
    assert 'name="cards_0" value="KD 3C"' in page and 'name="total_1" value="9"' in page
    assert '<option value="Marc" selected>' in page and 'name="penalty-0-points" value="2"' in page
    assert 'name="penalty-0-reason" value="peeked"' in page
    answered = client.post(f"/g/{game.edit_key}/", round_typed(**NOBODY_CALLED), headers=headers)
    assert answered.status_code == (200 if htmx else 302)
    assert Round.objects.get().data == {
        "hands": {"Léa": ["KD", "3C"], "Marc": 9},
        "penalties": [{"player": "Marc", "points": 2, "reason": "peeked"}],
    }
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert "Nobody called: everyone scores their hand total." in page and "Round 2" in page
    assert not asks(page)


@pytest.mark.parametrize("htmx", [False, True])
def test_a_round_with_its_caller_tapped_is_stored_at_once(client, htmx):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    headers = {"HX-Request": "true"} if htmx else {}
    saved = client.post(f"/g/{game.edit_key}/", round_typed(caller="Léa"), headers=headers)
    assert saved.status_code == (200 if htmx else 302)
    assert Round.objects.get().data["caller"] == "Léa"
    assert not asks(saved.content.decode())


def test_the_question_comes_with_every_other_refusal_and_its_answer_is_kept(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina"])
    posted = {"number": "1", "save": "1", "total_0": "3", "total_1": "x"}  # and no hand for Nina
    page = client.post(f"/g/{game.edit_key}/", posted).content.decode()
    assert asks(page) and "Enter a number with the digits 0 to 9." in page
    assert "Enter this player&#x27;s cards or hand total." in page
    assert not Round.objects.exists()
    # Answered while a hand is still missing: that is said; the answer stays in the form.
    posted |= {"total_1": "9", **NOBODY_CALLED}
    page = client.post(f"/g/{game.edit_key}/", posted).content.decode()
    assert not asks(page) and "Enter this player&#x27;s cards or hand total." in page
    assert re.search(r'<input type="hidden" name="nobody_called" value="1"', page)
    assert not Round.objects.exists()
    # Save, with the answer as the form now holds it: stored, not asked again.
    assert client.post(f"/g/{game.edit_key}/", posted | {"total_2": "8"}).status_code == 302
    assert "caller" not in Round.objects.get().data


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_whose_rounds_end_with_a_call_asks(client, variant):
    """docs/rules.md, Every variant: in every Tamalou variant a round ends when a player calls."""
    game = Game.objects.create(variant=variant, players=["Léa", "Marc"])
    posted = {"number": "1", "save": "1", "total_0": "3", "total_1": "9"}
    page = client.post(f"/g/{game.edit_key}/", posted).content.decode()
    assert asks(page) and not Round.objects.exists()
    assert client.post(f"/g/{game.edit_key}/", posted | NOBODY_CALLED).status_code == 302


def test_a_turn_round_of_tambouille_ends_with_no_call_and_is_not_asked_about(client):
    game = Game.objects.create(variant="tambouille", players=["Léa", "Marc"])
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert "who-called" not in page and 'name="caller"' not in page
    posted = {"number": "1", "save": "1", "count_0": "5", "count_1": "6"}
    assert client.post(f"/g/{game.edit_key}/", posted).status_code == 302


@pytest.mark.parametrize(("variant", "asked"), [("fontenaysien", False), ("tamalou", True)])
def test_an_emptied_hand_ends_a_fontenaysien_round_without_a_call(client, variant, asked):
    """Fontenaysien: a player who discards all their cards ends the round at once; in Tamalou
    he must still call at his next turn."""
    game = Game.objects.create(variant=variant, players=["Léa", "Marc"])
    posted = {"number": "1", "save": "1", "total_0": "0", "total_1": "9", "emptied": ["Léa"]}
    answer = client.post(f"/g/{game.edit_key}/", posted)
    assert asks(answer.content.decode()) is asked
    assert Round.objects.exists() is not asked


def test_a_correction_asks_only_when_it_takes_the_caller_away(client):
    """A round stored without a caller (the table said so, or a game file) is corrected at once;
    one stored with its caller and corrected to nobody is asked about first."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    client.post(
        f"/g/{game.edit_key}/",
        {"number": "1", "save": "1", "total_0": "3", "total_1": "9", **NOBODY_CALLED},
    )
    client.post(
        f"/g/{game.edit_key}/",
        {"number": "2", "save": "1", "total_0": "2", "total_1": "9", "caller": "Léa"},
    )
    first, second = Round.objects.order_by("position")

    def correct(stored, number, **fields):
        fixed = {"number": str(number), "edits": "0", "save": "1", "total_0": "4", "total_1": "9"}
        return client.post(f"/g/{game.edit_key}/rounds/{stored.pk}/edit/", fixed | fields)

    assert correct(first, 1).status_code == 302
    asked = correct(second, 2)
    assert asked.status_code == 400 and asks(asked.content.decode())
    second.refresh_from_db()
    assert second.data == {"hands": {"Léa": 2, "Marc": 9}, "caller": "Léa"} and second.edits == 0
    assert correct(second, 2, **NOBODY_CALLED).status_code == 302
    second.refresh_from_db()
    assert second.data == {"hands": {"Léa": 4, "Marc": 9}} and second.edits == 1


# --- caches ---------------------------------------------------------------------------------


def sheet(client: Client, game: Game, query: str = "", **headers) -> str:
    return client.get(f"/g/{game.edit_key}/{query}", **headers).content.decode()


def test_two_games_that_differ_only_in_their_names_get_their_own_pages(client):
    first = Game.objects.create(variant="tamalou", players=["Alice", "Bob"])
    second = Game.objects.create(variant="tamalou", players=["Ana", "Ben"])
    assert "Alice" in sheet(client, first)
    page = sheet(client, second)
    assert "Ana" in page and "Alice" not in page and "Add cards to Ana" in page


def test_a_query_string_changes_nothing_on_a_sheet(client):
    """The sheet shows nothing of its query string (the language switch goes back to the
    bare path), so ``?from=qr-code`` is the same page as the cache serves without it."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    with_query = sheet(client, game, "?from=qr-code")
    assert "from=qr-code" not in with_query
    assert f'name="next" value="/g/{game.edit_key}/"' in with_query


def test_the_language_and_the_link_each_get_their_own_page(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    assert "Round 1" in sheet(client, game)
    assert "Manche 1" in sheet(Client(), game)
    shared = client.get(f"/s/{game.share_key}/").content.decode()
    assert 'name="save"' not in shared and 'name="save"' in sheet(client, game)


def test_a_round_sent_again_after_later_rounds_is_not_offered_as_a_new_one(client):
    """Its answer was lost (a phone's connection, a server restart) and it is sent again."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    first = {"number": "1", "save": "1", "total_0": "3", "total_1": "4", **NOBODY_CALLED}
    client.post(f"/g/{game.edit_key}/", first)
    client.post(f"/g/{game.edit_key}/", {**first, "number": "2", "total_0": "7"})
    again = client.post(f"/g/{game.edit_key}/", first)
    assert again.status_code == 302 and Round.objects.count() == 2
    changed = client.post(f"/g/{game.edit_key}/", {**first, "total_1": "5"})
    assert changed.status_code == 409 and Round.objects.count() == 2


# --- the new-game form ----------------------------------------------------------------------

SETTING_VALUES = {
    "rounds": ("7", 7),
    "call_threshold": ("3", 3),
    "joker_value": ("-2", -2),
    "half_game": ("on", True),
    "decks": ("2", 2),
    "jokers": ("1", 1),
    "call_bonus": ("-4", -4),
    "call_penalty": ("6", 6),
    "limit": ("200", 200),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_control_of_the_new_game_form_is_stored(client, variant):
    data = {"name_0": "Léa", "name_1": "Marc", "name_2": "Nina", "dealer": "2"}
    expected = {}
    for setting in VARIANTS[variant].house_settings:
        if setting.kind in ("card_values", "reset"):
            continue  # the house-rules builder's
        if setting.name == "deck":  # the other deck
            posted = stored = "52" if setting.default == "32" else "32"
        else:
            posted, stored = SETTING_VALUES[setting.name]
        data[setting.name] = posted
        expected[setting.name] = stored
    response = client.post(f"/new/{variant}/", {**data})
    assert response.status_code == 302, response.content.decode()[-2000:]
    game = Game.objects.get()
    assert game.players == ["Léa", "Marc", "Nina"] and game.first_dealer == 2
    assert game.settings == expected
    exported = json.loads(client.get(f"/g/{game.edit_key}/export/").content)
    assert exported["settings"] == expected


# --- what a fresh review found -----------------------------------------------------------


def test_the_plain_cookie_of_an_earlier_version_is_not_read(client):
    """Anybody able to set a cookie for the site could have listed games of their choice."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    client.cookies["tamalou_games"] = game.edit_key
    assert f"/g/{game.edit_key}/" not in client.get("/").content.decode()
    client.get(f"/g/{game.edit_key}/")  # opened: now in the signed session
    assert f"/g/{game.edit_key}/" in client.get("/").content.decode()


def test_a_round_of_an_ended_game_can_be_deleted_and_put_back(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    for n in (1, 2, 3):
        posted = {"number": n, "save": "1", "total_0": n, "total_1": 9, **NOBODY_CALLED}
        client.post(f"/g/{game.edit_key}/", posted)
    client.post(f"/g/{game.edit_key}/end/")
    second = Round.objects.get(game=game, position=2)
    client.post(f"/g/{game.edit_key}/rounds/{second.pk}/delete/")
    assert Game.objects.get(pk=game.pk).score().totals == {"Léa": 4, "Marc": 18}
    response = client.post(f"/g/{game.edit_key}/rounds/{second.pk}/restore/", follow=True)
    assert "The round is back." in response.content.decode()
    assert Game.objects.get(pk=game.pk).score().totals == {"Léa": 6, "Marc": 27}
    posted = {"number": 4, "save": "1", "total_0": 1, **NOBODY_CALLED}
    added = client.post(f"/g/{game.edit_key}/", posted)
    assert added.status_code == 302 and Round.objects.live().filter(game=game).count() == 3


def test_a_put_back_that_cannot_happen_says_so_and_clears_the_banner(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    posted = {"number": 1, "save": "1", "total_0": 3, "total_1": 9, **NOBODY_CALLED}
    client.post(f"/g/{game.edit_key}/", posted)
    entry = Round.objects.get()
    client.post(f"/g/{game.edit_key}/rounds/{entry.pk}/delete/")
    client.post(f"/g/{game.edit_key}/rounds/{entry.pk}/restore/")
    page = client.post(f"/g/{game.edit_key}/rounds/{entry.pk}/restore/", follow=True)
    assert "This round is no longer there to put back." in page.content.decode()
    assert "Round 1 deleted." not in page.content.decode()


def test_a_stored_game_the_referee_now_refuses_gets_a_page_that_says_why(client):
    game = Game.objects.create(
        variant="tamalou", players=["Léa", "Marc"], settings={"call_threshold": -1}
    )
    response = client.get(f"/g/{game.edit_key}/")
    assert response.status_code == 409
    assert "“A call is allowed with at most” must be a number from 0 to 100." in (
        response.content.decode()
    )


def test_saving_with_htmx_after_the_game_ended_elsewhere_reloads_the_sheet(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"], settings={"rounds": 1})
    first = {"number": 1, "save": "1", "total_0": 3, "total_1": 9, **NOBODY_CALLED}
    client.post(f"/g/{game.edit_key}/", first)
    posted = {"number": 2, "save": "1", "total_0": 4, "total_1": 9}
    response = client.post(f"/g/{game.edit_key}/", posted, HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == f"/g/{game.edit_key}/" and Round.objects.count() == 1


def test_the_share_link_follows_the_scheme_the_page_was_asked_for(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    plain = client.get(f"/g/{game.edit_key}/").content.decode()
    secure = client.get(f"/g/{game.edit_key}/", secure=True).content.decode()
    assert f"http://testserver/s/{game.share_key}/" in plain
    assert f"https://testserver/s/{game.share_key}/" in secure


@pytest.mark.parametrize(
    ("variant", "signed_totals"), [("tamalou", False), ("koubo", True), ("cabo_bruxellois", True)]
)
def test_a_sign_key_beside_numbers_only_where_a_card_is_negative(client, variant, signed_totals):
    game = Game.objects.create(variant=variant, players=["Léa", "Marc"])
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert ('name="negate" value="total_0"' in page) is signed_totals
    assert ('name="negate" value="total_1"' in page) is signed_totals
    assert ('name="negate" value="penalty-0-points"' in page) is signed_totals
    assert re.search(r'name="total_0"[^>]*inputmode="decimal"', page)


@pytest.mark.parametrize("htmx", [False, True])
def test_after_a_correction_the_address_is_the_sheets(client, htmx):
    game = Game.objects.create(variant="koubo", players=["Léa", "Marc"])
    first = {"number": "1", "save": "1", "total_0": "3", "total_1": "5", **NOBODY_CALLED}
    client.post(f"/g/{game.edit_key}/", first)
    stored = Round.objects.get()
    headers = {"HX-Request": "true"} if htmx else {}
    answer = client.post(
        f"/g/{game.edit_key}/rounds/{stored.pk}/edit/",
        {"number": "1", "edits": "0", "save": "1", "total_0": "-2", "total_1": "5"},
        headers=headers,
    )
    sheet = f"/g/{game.edit_key}/?open=1#round-1"  # the sheet, the corrected round whole
    assert (answer.headers["HX-Redirect"] if htmx else answer.headers["Location"]) == sheet
    stored.refresh_from_db()
    assert stored.data["hands"] == {"Léa": -2, "Marc": 5}


def penalty_rows(count: int, start: int = 0) -> dict:
    rows = {}
    for row in range(start, start + count):
        rows |= {f"penalty-{row}-player": "Marc", f"penalty-{row}-points": "1"}
    return rows


@pytest.mark.parametrize("where", ["sheet", "sync"])
def test_a_round_takes_at_most_16_penalties_and_refuses_more_saying_so(client, where):
    """Django's max_num drew no more than 16 rows but took up to 1,016 (a probe stored 99)."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    url = f"/g/{game.edit_key}/" if where == "sheet" else f"/g/{game.edit_key}/rounds/sync/"
    round_ = {"number": "1", "total_0": "3", "total_1": "9", "save": "1", **NOBODY_CALLED}
    round_ |= {"penalty-INITIAL_FORMS": "0"}
    for rows in (penalty_rows(17), penalty_rows(1, start=100)):
        sent = {**round_, **rows, "penalty-TOTAL_FORMS": str(len(rows) // 2)}
        refused = client.post(url, sent)
        assert refused.status_code == 400 and not Round.objects.exists()
        assert "A round has at most 16 penalties." in refused.content.decode()
    saved = client.post(url, {**round_, **penalty_rows(16), "penalty-TOTAL_FORMS": "16"})
    assert saved.status_code == (302 if where == "sheet" else 200)
    assert len(Round.objects.get(game=game).data["penalties"]) == 16


def test_a_penalty_count_of_5000_digits_is_no_500(client):
    """Python refuses to read a number of 4,300 digits or more (a review found this one)."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    posted = {"number": "1", "save": "1", "penalty-TOTAL_FORMS": "9" * 5000}
    answer = client.post(f"/g/{game.edit_key}/", {**posted, "penalty-INITIAL_FORMS": "0"})
    assert answer.status_code == 400 and not Round.objects.exists()


def test_a_dealer_of_5000_digits_is_no_500(client):
    posted = {"name_0": "Léa", "name_1": "Marc", "dealer": "9" * 5000}
    page = client.post("/new/tamalou/", posted)
    assert page.status_code == 400 and "Start the game" in page.content.decode()
    assert not Game.objects.exists()


def test_every_hand_at_fault_is_said_on_the_first_save(client):
    """A blank total, a hand below the deck's lowest and a half point where the variant has
    none: one save says all three, each beside its own field, and keeps what was typed."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina", "Omar"])
    posted = {"number": "1", "save": "1", "total_1": "4,5", "total_2": "-3", "total_3": "7"}
    posted |= {"penalty-TOTAL_FORMS": "0", "penalty-INITIAL_FORMS": "0"}
    client.cookies["django_language"] = "en"
    answer = client.post(f"/g/{game.edit_key}/", posted)
    assert answer.status_code == 400 and Round.objects.count() == 0
    page = answer.text

    def said_beside(seat: int) -> str:
        field = page.split(f'name="total_{seat}"')[1]
        return field.split('name="total_')[0]

    assert "Enter this player" in said_beside(0)
    assert "there are no half points" in said_beside(1) and 'value="4,5"' in page
    assert "impossible" in said_beside(2) and 'value="-3"' in page
    assert "error" not in said_beside(3).split("</div>")[0]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_post_naming_penalty_row_99999_draws_at_most_16_rows(client, htmx):
    """A 150-byte post made the server build and draw 1,016 penalty rows (an 800 KB answer,
    seconds of a worker): now it is refused, saying why, with the 16 rows a round can have."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    sent = {"number": "1", "save": "1", "total_0": "3", "total_1": "9", "penalty-99999-points": "1"}
    refused = client.post(f"/g/{game.edit_key}/", sent, **headers)
    page = refused.content.decode()
    assert "A round has at most 16 penalties." in page and not Round.objects.exists()
    assert page.count('name="penalty-') <= 16 * 3 + 4  # 16 rows of 3 fields, the counts
    assert len(refused.content) < 100_000


# --- a round whose every hand is emptied ------------------------------------------------------


def referee_scores(variant: str, players: list[str], round_data: dict) -> dict:
    """The scores of one round as the referee gives them from a game file holding it."""
    game = {"format": gamefile.GAME_FORMAT, "variant": variant, "players": players}
    text = json.dumps(game | {"rounds": [round_data]})
    return engine.score_game(gamefile.read_game(text)).rounds[0].scores


def hands_first(page: str) -> bool:
    """Whether the form says "Enter the hands first." (not only holds it for round.js)."""
    return 'role="status">Enter the hands first.' in page


@pytest.mark.parametrize("htmx", [False, True])
def test_a_fontenaysien_round_whose_every_hand_is_emptied_needs_no_total(client, htmx):
    """A round in which every hand is ticked as emptied and no total is typed is a round (it
    was refused with "Enter the hands first."): each emptied hand is an empty hand, scored as
    the referee scores the same round from a game file, -10 each."""
    game = Game.objects.create(variant="fontenaysien", players=PLAYERS)
    headers = {"HX-Request": "true"} if htmx else {}
    posted = {"number": "1", "save": "1", "emptied": PLAYERS}
    saved = client.post(f"/g/{game.edit_key}/", posted, headers=headers)
    assert saved.status_code == (200 if htmx else 302), saved.content.decode()[-3000:]
    assert not hands_first(saved.content.decode())
    stored = Round.objects.get(game=game).data
    assert stored == {"hands": {name: [] for name in PLAYERS}, "emptied": PLAYERS}
    expected = referee_scores("fontenaysien", PLAYERS, stored)
    assert expected == dict.fromkeys(PLAYERS, -10)
    game = Game.objects.get(pk=game.pk)
    assert game.score().rounds[0].scores == expected
    assert game.score().totals == expected


def test_an_emptied_hand_needs_no_total_beside_hands_that_have_one(client):
    game = Game.objects.create(variant="fontenaysien", players=PLAYERS)
    posted = {"number": "1", "save": "1", "total_1": "9", "cards_2": "3H 2H", "emptied": ["Léa"]}
    assert client.post(f"/g/{game.edit_key}/", posted).status_code == 302
    assert Round.objects.get(game=game).data["hands"] == {
        "Léa": [],
        "Marc": 9,
        "Nina": ["3H", "2H"],
    }
    assert Game.objects.get(pk=game.pk).score().rounds[0].scores == {
        "Léa": -10,
        "Marc": 10,
        "Nina": 5,
    }


def test_an_emptied_hand_alone_asks_for_the_other_hands_not_for_the_hands_first(client):
    game = Game.objects.create(variant="fontenaysien", players=PLAYERS)
    posted = {"number": "1", "save": "1", "emptied": ["Léa"]}
    response = client.post(f"/g/{game.edit_key}/", posted)
    page = response.content.decode()
    assert response.status_code == 400 and not Round.objects.exists()
    assert not hands_first(page)
    assert page.count("Enter this player&#x27;s cards or hand total.") == 2
