"""The score sheet through the test client: pages, database effects, htmx fragments."""

from __future__ import annotations

import json
import re

import pytest

from scoring.store.models import Game, Round
from tests.helpers import EXAMPLES, NOBODY_CALLED, exported_as
from tests.web.helpers import HTMX, hand_fields, save_round, url

pytestmark = pytest.mark.django_db


def make_game(variant="tamalou", players=("Léa", "Marc", "Nina"), settings=None) -> Game:
    return Game.objects.create(variant=variant, players=list(players), settings=settings or {})


def hand_box(page: str, seat: int) -> str:
    """The part of the round form that shows one player's hand (and its messages)."""
    start = page.index(f'data-seat="{seat}"')
    end = page.find("data-seat=", start + 1)
    return page[start : end if end > 0 else len(page)]


# --- new game -----------------------------------------------------------------------


def test_new_game_lists_every_variant_with_its_description(client):
    page = client.get("/new/").content.decode()
    assert "/new/tamoul/" in page and "/new/dutch_toulousain/" in page
    assert "exactly 100 falls back to 50" in page


def test_new_game_shows_the_settings_of_its_variant_with_defaults(client):
    page = client.get("/new/tamalou/").content.decode()
    assert 'name="call_threshold"' in page and "Default: 5 points." in page
    assert 'name="joker_value"' in page and 'name="half_game"' not in page
    assert 'name="half_game"' in client.get("/new/fontenaysien/").content.decode()


def test_new_game_creates_the_game_in_turn_order_with_settings_and_dealer(client):
    response = client.post(
        "/new/gabo/",
        {
            "name_0": "  Léa ",
            "name_1": "",
            "name_2": "Marc",
            "name_3": "Nina",
            "dealer": "2",
            "rounds": "5",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == url(game)
    assert game.players == ["Léa", "Marc", "Nina"]
    assert game.settings == {"rounds": 5} and game.first_dealer == 1
    assert "Marc</strong> deals" in client.get(url(game)).content.decode()


def test_the_names_this_phone_played_with_are_offered_on_its_next_new_game(client):
    """The names were not remembered between games (only a rematch reused them), and the name
    fields turned the browser's own suggestions off."""
    from django.test import Client

    for names in (["Léa", "Marc"], ["Nina", "Léa", "Omar"]):
        data = {f"name_{i}": name for i, name in enumerate(names)}
        assert client.post("/new/tamalou/", data).status_code == 302
    page = client.get("/new/gabo/").content.decode()
    offered = re.search(r'<datalist id="known-names">(.*?)</datalist>', page).group(1)
    assert re.findall(r'<option value="([^"]*)"', offered) == ["Nina", "Léa", "Omar", "Marc"]
    inputs = re.findall(r'<input[^>]*name="name_\d+"[^>]*>', page)
    assert inputs and all('list="known-names"' in tag for tag in inputs)
    assert not any('autocomplete="off"' in tag for tag in inputs)
    # Chosen from the list, a name is a name like any typed.
    data = {"name_0": "Omar", "name_1": "Marc"}
    client.post("/new/gabo/", data)
    assert Game.objects.latest("pk").players == ["Omar", "Marc"]
    # Another phone is offered none of them.
    other = Client().get("/new/gabo/").content.decode()
    assert re.search(r'<datalist id="known-names"></datalist>', other)


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Léa", "léa"], "is the same name as"),
        (["Léa", ""], "A game needs 2 to 8 players, not 1."),
        (["Léa", "x" * 41], "at most 40 characters"),
    ],
)
def test_new_game_refuses_bad_players_and_creates_nothing(client, names, message):
    data = {f"name_{i}": name for i, name in enumerate(names)}
    response = client.post("/new/tamalou/", data)
    assert response.status_code == 400 and message in response.content.decode()
    assert not Game.objects.exists()


def test_new_game_refuses_a_setting_out_of_range(client):
    data = {"name_0": "Léa", "name_1": "Marc", "rounds": "0"}
    page = client.post("/new/tamalou/", data).content.decode()
    assert "“Number of rounds” must be a whole number from 1 to 999." in page
    assert not Game.objects.exists()


def test_without_javascript_the_players_are_a_plain_list_of_names(client):
    """The page draws a name field for each player the variant may have, every one sent:
    without JavaScript the table types the names it needs, the empty ones are left out, and
    the first player deals. new-game.js hides the spare rows (data-spare) and shows the rows'
    buttons (.js-only), which send nothing."""
    page = client.get("/new/tamalou/").content.decode()
    assert page.count('<li class="player-row">') == 4
    assert page.count('<li class="player-row" data-spare>') == 4  # up to 8 players
    assert not re.search(r'name="name_\d+"[^>]* disabled', page)
    assert re.search(r'data-row="add" class="button js-only"', page)
    assert 'type="submit" name="action"' not in page  # no row's button posts the form
    typed = ["Léa", "", "Marc", "", "", "Nina", "", ""]
    data = {f"name_{row}": name for row, name in enumerate(typed)}
    assert client.post("/new/tamalou/", data).status_code == 302
    game = Game.objects.get()
    assert game.players == ["Léa", "Marc", "Nina"] and game.first_dealer == 0
    page = client.get("/new/tambouille/").content.decode()
    assert page.count('<li class="player-row"') == 4  # 2 to 4 players: no spare row
    assert re.search(r'data-row="add" class="button js-only" hidden', page)


# --- entering rounds -------------------------------------------------------------------


def test_a_saved_round_is_stored_as_entered_and_scored_on_the_sheet(client):
    game = make_game()
    response = save_round(
        client, game, 1, {"Léa": "KD 3C", "Marc": "10H QS 2D", "Nina": "4"}, caller="Léa"
    )
    assert response.status_code == 302
    stored = Round.objects.get(game=game)
    assert stored.data == {
        "hands": {"Léa": ["KD", "3C"], "Marc": ["10H", "QS", "2D"], "Nina": 4},
        "caller": "Léa",
    }
    page = client.get(url(game)).content.decode()
    assert "Léa called Tamalou with 3 and was strictly lowest" in page
    assert "Round 2" in page


def test_an_invalid_round_shows_the_error_next_to_the_field_and_saves_nothing(client):
    game = make_game("koubo", ("Léa", "Marc"))
    response = save_round(client, game, 1, {"Léa": "7S", "Marc": "5S"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "There is no 5♠ in the Koubo charentais deck" in hand_box(page, 1)
    assert 'name="cards_1" value="5S"' in page  # what was entered is kept
    assert not Round.objects.exists()


def test_a_missing_hand_is_refused(client):
    game = make_game()
    response = save_round(client, game, 1, {"Léa": "3", "Marc": "", "Nina": "4"})
    assert "Enter this player&#x27;s cards or hand total." in hand_box(response.content.decode(), 1)
    assert not Round.objects.exists()


def test_picker_only_offers_the_cards_of_the_variant(client):
    page = client.get(url(make_game("koubo", ("Léa", "Marc")))).content.decode()
    picks = re.findall(r'name="pick" value="([^"]+)"', page)
    assert "7H" in picks and "5H" not in picks and "JOKER" in picks
    values = json.loads(re.search(r'id="picker-values"[^>]*>(.*?)</script>', page).group(1))
    assert set(values) == set(picks)  # the script knows each card the picker offers
    page = client.get(url(make_game("dutch", ("Léa", "Marc")))).content.decode()
    assert "JOKER" not in re.findall(r'name="pick" value="([^"]+)"', page)


def test_saving_with_htmx_returns_the_next_form_and_the_sheet_it_changed(client):
    game = make_game()
    hands = {"total_0": "3", "total_1": "22", "total_2": "5", "caller": "Léa"}
    response = client.post(url(game), {"number": 1, "save": "1", **hands}, **HTMX)
    page = response.content.decode()
    assert response["HX-Reswap"] == "outerHTML show:#totals:top"
    assert page.lstrip().startswith('<form method="post"') and "Round 2" in page
    assert '<div id="live-top" hx-swap-oob="true"' in page and "Léa called Tamalou" in page
    assert Round.objects.count() == 1
    hands = {"total_0": "4", "total_1": "2", "total_2": "5", **NOBODY_CALLED}
    page = client.post(url(game), {"number": 2, "save": "1", **hands}, **HTMX).content.decode()
    # The history, whole: the new round on top, open, and the one before it folded under it.
    history = page[page.index('<section id="history" class="history" hx-swap-oob="true"') :]
    new, folded = (
        history.index('<article class="round" id="round-2">'),
        history.index('<article class="round" id="round-1">'),
    )
    assert new < folded
    assert "<table>" in history[new:folded] and "<table>" not in history[folded:]
    assert 'hx-select="#round-1 .round-body"' in history[folded:]  # folded: opened on a tap
    page = client.post(url(game), {"number": 3, "save": "1", **hands}, **HTMX).content.decode()
    assert page.index('id="round-3"') < page.index('id="round-2"') < page.index('id="round-1"')


def test_saving_an_invalid_round_with_htmx_returns_the_form_with_errors(client):
    game = make_game()
    response = client.post(
        url(game),
        {"number": 1, "save": "1", "cards_0": "ZZ", "total_1": "1", "total_2": "2"},
        **HTMX,
    )
    page = response.content.decode()
    assert "HX-Retarget" not in response and page.lstrip().startswith("<form")
    assert "Unknown card ZZ" in page and not Round.objects.exists()


def test_a_round_entered_twice_for_the_same_number_is_stored_once(client):
    game = make_game()
    save_round(client, game, 1, {"Léa": "3", "Marc": "9", "Nina": "8"}, **NOBODY_CALLED)
    response = save_round(client, game, 1, {"Léa": "1", "Marc": "2", "Nina": "3"}, **NOBODY_CALLED)
    assert "Round 1 was saved from another phone meanwhile" in response.content.decode()
    assert Round.objects.count() == 1


def test_dutch_toulousain_says_how_many_penalty_cards_to_draw(client):
    game = make_game("dutch_toulousain", ("Léa", "Marc", "Nina"))
    data = {
        "number": 1,
        "cards_0": "6C",
        "cards_1": "3H",
        "cards_2": "2S",
        "caller": "Léa",
        "choose": "pc",
    }
    page = client.post(url(game), data).content.decode()
    assert "The caller must draw 2 penalty cards." in page
    save = {**data, "save": "1", "penalty_cards": "4D"}
    del save["choose"]
    page = client.post(url(game), save).content.decode()
    assert "who draws 2 penalty cards, not 1" in page and not Round.objects.exists()
    save["penalty_cards"] = "4D QC"
    assert client.post(url(game), save).status_code == 302
    assert Round.objects.get().data["penalty_cards"] == ["4D", "QC"]


def test_tamoul_half_points_and_counter_call_through_the_form(client):
    game = make_game("tamoul", ("Léa", "Marc", "Nina"))
    data = {"cards_0": "KH QD 3S", "cards_1": "2C AS", "cards_2": "JC 5H", "counter_caller": "Marc"}
    save_round(client, game, 1, {}, caller="Léa", **data)
    sheet = Game.objects.get(pk=game.pk).score()
    assert sheet.totals == {"Léa": 4.5, "Marc": -20, "Nina": 20}


def test_penalty_points_with_a_reason(client):
    game = make_game("cabo_bruxellois", ("Léa", "Marc"))
    extra = {
        "penalty-0-player": "Marc",
        "penalty-0-points": "2",
        "penalty-0-reason": "wrong quick discard",
    }
    save_round(client, game, 1, {"Léa": "1", "Marc": "4"}, **extra, **NOBODY_CALLED)
    assert Round.objects.get().data["penalties"] == [
        {"player": "Marc", "points": 2, "reason": "wrong quick discard"}
    ]
    assert "Marc: 2 penalty points (wrong quick discard)." in client.get(url(game)).content.decode()


def test_no_round_can_be_added_after_the_game_ended(client):
    game = make_game(settings={"rounds": 1})
    save_round(client, game, 1, {"Léa": "3", "Marc": "9", "Nina": "8"}, **NOBODY_CALLED)
    page = client.get(url(game)).content.decode()
    assert "Winner: Léa" in page and 'name="save"' not in page
    response = save_round(client, game, 2, {"Léa": "3", "Marc": "9", "Nina": "8"})
    assert response.status_code == 302 and Round.objects.count() == 1


@pytest.mark.parametrize(
    "data",
    [
        {"number": "abc", "save": "1"},
        {"pick": "9:KH"},
        {"pick": "garbage"},
        {"unpick": "0:zz"},
        {"number": "1", "save": "1", "total_0": "1" * 300, "caller": "Zoé"},
        {"number": "1", "save": "1", "total_0": "99999999", "total_1": "-5", "total_2": "4,5"},
    ],
)
def test_garbage_never_gives_a_500(client, data):
    game = make_game()
    response = client.post(url(game), data)
    # Every post is a save (the picker's taps are the phone's): refused, its errors shown.
    assert response.status_code == 400
    assert not Round.objects.exists()


def test_unknown_game_is_404(client):
    assert client.get("/g/not-a-key/").status_code == 404


# --- corrections ------------------------------------------------------------------------


def test_editing_a_round_recomputes_the_totals_and_marks_it_edited(client):
    game = make_game()
    save_round(client, game, 1, {"Léa": "3", "Marc": "9", "Nina": "8"}, caller="Léa")
    save_round(client, game, 2, {"Léa": "5", "Marc": "1", "Nina": "2"}, **NOBODY_CALLED)
    first = Round.objects.get(position=1)
    edit = f"{url(game)}rounds/{first.pk}/edit/"
    page = client.get(edit).content.decode()
    assert 'value="3"' in page and 'value="Léa" id="id_caller_1" checked' in page
    data = {
        "number": 1,
        "edits": 0,
        "total_0": "3",
        "total_1": "2",
        "total_2": "8",
        "caller": "Léa",
        "save": "1",
    }
    response = client.post(edit, data)
    back = url(game) + "?open=1#round-1"
    assert response.status_code == 302 and response["Location"] == back
    first.refresh_from_db()
    assert first.edits == 1 and first.data["hands"]["Marc"] == 2
    assert Game.objects.get(pk=game.pk).score().totals == {
        "Léa": 8,
        "Marc": 1,
        "Nina": 10,
    }  # Marc 0 + 1, Léa 3 + 5
    assert "edited" in client.get(url(game)).content.decode()


def test_a_corrected_round_is_shown_whole_where_the_correction_goes_back_to(client):
    """The sheet opens at the corrected round with its new scores in view, not folded to its
    line; one the sheet no longer lists is shown on the page of every round."""
    game = make_game()
    for n in range(1, 34):
        save_round(client, game, n, {"Léa": "3", "Marc": "9", "Nina": str(n % 7)}, **NOBODY_CALLED)
    for number, listed in ((10, True), (2, False)):
        stored = Round.objects.get(game=game, position=number)
        edit = f"{url(game)}rounds/{stored.pk}/edit/"
        data = {"number": number, "edits": 0, "save": "1", "total_0": "4", "total_1": "9"}
        back = client.post(edit, data | {"total_2": "1"})["Location"]
        page = client.get(back).text
        article = page.split(f'id="round-{number}"')[1].split("</article>")[0]
        assert "<details" not in article and "+4" in article, number
        assert back.startswith(url(game) if listed else f"{url(game)}rounds/"), back


def test_editing_a_round_that_changed_meanwhile_is_refused(client):
    game = make_game()
    save_round(client, game, 1, {"Léa": "3", "Marc": "9", "Nina": "8"}, **NOBODY_CALLED)
    entry = Round.objects.get()
    Round.objects.filter(pk=entry.pk).update(edits=1)  # another phone saved a correction
    data = {"number": 1, "edits": 0, "total_0": "4", "total_1": "9", "total_2": "8", "save": "1"}
    response = client.post(f"{url(game)}rounds/{entry.pk}/edit/", data)
    assert "changed from another phone meanwhile" in response.content.decode()
    entry.refresh_from_db()
    assert entry.data["hands"]["Léa"] == 3


def test_an_edit_that_breaks_a_later_round_is_refused(client):
    game = make_game("dutch", ("Léa", "Marc", "Nina"))
    save_round(client, game, 1, {"Léa": "50", "Marc": "9", "Nina": "8"}, **NOBODY_CALLED)
    save_round(client, game, 2, {"Léa": "40", "Marc": "9", "Nina": "8"}, **NOBODY_CALLED)
    first = Round.objects.get(position=1)
    data = {"number": 1, "edits": 0, "total_0": "100", "total_1": "9", "total_2": "8", "save": "1"}
    page = client.post(f"{url(game)}rounds/{first.pk}/edit/", data).content.decode()
    assert "This would make round 2 invalid: Léa is out of the game and has no hand." in page
    first.refresh_from_db()
    assert first.data["hands"]["Léa"] == 50


def test_deleting_a_round_asks_first_then_renumbers_and_can_be_undone(client):
    game = make_game()
    for n, lea in enumerate(["1", "2", "3"], 1):
        save_round(client, game, n, {"Léa": lea, "Marc": "9", "Nina": "8"}, **NOBODY_CALLED)
    second = Round.objects.get(position=2)
    delete = f"{url(game)}rounds/{second.pk}/delete/"
    asking = client.get(delete).content.decode()
    assert "Delete round 2?" in asking
    shown = asking.split('id="round-2"')[1].split("</article>")[0]  # the round being deleted
    assert all(name in shown for name in ("Léa", "Marc", "Nina")) and "+2" in shown
    assert Round.objects.live().count() == 3  # asking deletes nothing
    client.post(delete)
    assert Game.objects.get(pk=game.pk).score().totals == {"Léa": 4, "Marc": 18, "Nina": 16}
    page = client.get(url(game)).content.decode()
    assert "Round 2 deleted." in page and "Round 3</h3>" not in page
    client.post(f"{url(game)}rounds/{second.pk}/restore/")
    assert Game.objects.get(pk=game.pk).score().totals == {"Léa": 6, "Marc": 27, "Nina": 24}
    assert "Round 2 deleted." not in client.get(url(game)).content.decode()


def test_a_word_after_undo_goes_with_the_next_round_saved_with_htmx(client):
    """'The round is back.' shows once; the next round saved without a reload takes it off
    the page (its answer redraws the place of the app's words), on a sheet as on a match."""
    for game, hands in (
        (make_game(), {"Léa": "1", "Marc": "9", "Nina": "8"}),
        (make_game("tambouille", ("Léa", "Marc")), None),
    ):
        if hands is None:  # a match: cards left after each turn round
            first = {"number": 1, "save": "1", "count_0": "5", "count_1": "6"}
            client.post(url(game), first)
        else:
            save_round(client, game, 1, hands, **NOBODY_CALLED)
        stored = Round.objects.get(game=game)
        client.post(f"{url(game)}rounds/{stored.pk}/delete/")
        client.post(f"{url(game)}rounds/{stored.pk}/restore/")
        page = client.get(url(game)).text
        assert "The round is back." in page and 'id="messages"' in page
        if hands is None:
            data = {"number": 2, "save": "1", "count_0": "4", "count_1": "6"}
        else:
            data = {"number": 2, "save": "1", **hand_fields(game, hands), **NOBODY_CALLED}
        saved = client.post(url(game), data, HTTP_HX_REQUEST="true").text
        words = re.search(
            r'<div id="messages"[^>]*hx-swap-oob="true"[^>]*>(.*?)</div>', saved, re.S
        )
        assert words is not None and words.group(1).strip() == "", saved[:300]
        assert "The round is back." not in client.get(url(game)).text


def test_deleting_a_round_that_later_rounds_depend_on_is_refused(client):
    game = make_game("dutch", ("Léa", "Marc", "Nina"))
    save_round(client, game, 1, {"Léa": "100", "Marc": "9", "Nina": "8"}, **NOBODY_CALLED)
    save_round(client, game, 2, {"Marc": "9", "Nina": "8"}, **NOBODY_CALLED)
    first = Round.objects.get(position=1)
    response = client.post(f"{url(game)}rounds/{first.pk}/delete/")
    assert response.status_code == 400 and "no hand for Léa" in response.content.decode()
    assert Round.objects.live().count() == 2


# --- the end, rematch, import, export -----------------------------------------------------


def test_ending_an_open_ended_game_names_the_winner(client):
    game = make_game()
    save_round(client, game, 1, {"Léa": "3", "Marc": "9", "Nina": "8"}, **NOBODY_CALLED)
    client.post(f"{url(game)}end/")
    game.refresh_from_db()
    assert game.ended and Game.objects.get(pk=game.pk).score().winners == ["Léa"]
    exported = json.loads(client.get(f"{url(game)}export/").content)
    # The file says the table ended it (its settings as created: open-ended).
    assert exported["ended"] is True and "settings" not in exported


def test_rematch_is_one_tap_with_the_same_players_and_settings(client):
    game = make_game("koubo", ("Léa", "Marc"), {"rounds": 3})
    response = client.post(f"{url(game)}rematch/")
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == url(rematch)
    assert (rematch.variant, rematch.players, rematch.settings) == (
        "koubo",
        ["Léa", "Marc"],
        {"rounds": 3},
    )
    assert rematch.first_dealer == 1


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.game.json")), ids=lambda p: p.name)
def test_import_then_export_gives_the_same_file(client, path):
    with path.open("rb") as upload:
        response = client.post("/import/", {"file": upload})
    game = Game.objects.get()
    assert response["Location"] == url(game)
    exported = client.get(f"{url(game)}export/")
    assert exported["Content-Disposition"].startswith("attachment;")
    assert exported_as(exported.content, game) == json.loads(path.read_text())


def test_the_file_every_holder_of_a_link_pulls_is_the_game_as_it_stands(client):
    """The file is drawn once for each version of the game and kept: both links get that
    file, and a round saved since is in the next one pulled."""
    game = make_game()
    save_round(client, game, 1, {"Léa": "3", "Marc": "7", "Nina": "9"}, caller="Léa")
    first = client.get(f"{url(game)}export/").content
    assert client.get(f"/s/{game.share_key}/export/").content == first
    assert len(json.loads(first)["rounds"]) == 1
    save_round(client, game, 2, {"Léa": "4", "Marc": "0", "Nina": "2"}, caller="Marc")
    after = json.loads(client.get(f"/s/{game.share_key}/export/").content)
    assert len(after["rounds"]) == 2
    assert after["rounds"][-1] == {"hands": {"Léa": 4, "Marc": 0, "Nina": 2}, "caller": "Marc"}


def test_import_refuses_a_bad_file_and_stores_nothing(client, tmp_path):
    bad = json.loads((EXAMPLES / "koubo.game.json").read_text())
    bad["rounds"][1]["hands"]["Marc"] = ["5S"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with path.open("rb") as upload:
        response = client.post("/import/", {"file": upload})
    assert response.status_code == 400
    assert "Round 2, Marc: there is no 5♠" in response.content.decode()
    assert not Game.objects.exists() and not Round.objects.exists()


def test_home_lists_this_devices_games_in_progress_first(client):
    done = Game.objects.import_file((EXAMPLES / "koubo.game.json").read_bytes())
    live = Game.objects.import_file((EXAMPLES / "tamoul.game.json").read_bytes())
    other = make_game()  # never opened on this device
    client.get(url(done))
    client.get(url(live))
    page = client.get("/").content.decode()
    assert page.index(url(live)) < page.index(url(done))
    assert url(other) not in page
    assert "Leader: Léa (−15.5)" in page or "Leader: Léa (−15,5)" in page
    assert "Won by Marc" in page


def test_import_and_export_commands(tmp_path):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("import_game", str(EXAMPLES / "fontenaysien.game.json"), stdout=out)
    path = out.getvalue().strip()
    game = Game.objects.get()
    assert path == url(game)
    for reference in (path, game.edit_key, str(game.pk)):
        exported = StringIO()
        call_command("export_game", reference, stdout=exported)
        assert exported_as(exported.getvalue(), game) == json.loads(
            (EXAMPLES / "fontenaysien.game.json").read_text()
        )


@pytest.mark.parametrize(
    "path", ["/", "/manifest.json", "/rules/", "/rules/tambouille/", "/stats/"]
)
@pytest.mark.django_db
def test_pages_that_read_answer_head_like_get(client, path):
    head, get = client.head(path), client.get(path)
    assert head.status_code == get.status_code == 200
    assert head.content == b"" and head["Content-Type"] == get["Content-Type"]


@pytest.mark.django_db
def test_the_csv_is_named_after_the_local_date(client):
    from django.utils import timezone

    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    midnight_past = timezone.make_aware(timezone.datetime(2026, 11, 23, 0, 30))  # Paris
    Game.objects.filter(pk=game.pk).update(created_at=midnight_past)
    response = client.get(f"/g/{game.edit_key}/sheet.csv")
    assert 'filename="tamalou-lea-marc-2026-11-23.csv"' in response["Content-Disposition"]


def test_a_refused_correction_says_why_the_game_would_end_earlier(client):
    game = make_game("tamoul", ("Léa", "Marc", "Omar"))
    for n in (1, 2):
        save_round(client, game, n, {"Léa": "3", "Marc": "5", "Omar": "40"}, **NOBODY_CALLED)
    first = Round.objects.get(game=game, position=1)
    edit = f"{url(game)}rounds/{first.pk}/edit/"
    data = {"number": 1, "edits": 0, "save": "1", "total_0": "3", "total_1": "5"}
    page = client.post(edit, data | {"total_2": "120"}).text
    assert "round 2 invalid" in page and "Omar went past 100" in page
    assert Round.objects.get(pk=first.pk).edits == 0
