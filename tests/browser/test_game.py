"""What only a browser shows, on a touch phone (390×844 and 360×740, tapping): the card picker,
scroll positions, the keypad, the htmx flows (every page's fit, tap targets and both themes are
in test_accessibility.py)."""

from __future__ import annotations

import json
import mimetypes
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import Page, expect

from scoring.store.models import Game, Round
from tests.browser.helpers import (
    SCREENSHOTS,
    SHOOTING,
    assert_fits_the_phone,
    shoot,
    step,
    tap_card,
    totals,
)
from tests.helpers import ROOT
from tests.web.helpers import finished_dutch_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def chip(code: str) -> str:
    return code[:-1] + SUIT[code[-1]]


def new_game(page: Page, base: str, variant: str, names: list[str], rounds: str = "") -> None:
    page.goto(f"{base}/new/{variant}/")
    for i, name in enumerate(names):
        page.locator(f"#id_name_{i}").tap()
        page.keyboard.type(name)
    if rounds:
        page.locator("#builder summary").tap()  # the house rules
        page.locator("#id_rounds").fill(rounds)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".round-form h2")).to_be_visible()


def test_a_whole_game_on_a_touch_phone(phone: Page, live_server):
    page = phone
    page.goto(live_server.url)
    assert_fits_the_phone(page)
    shoot(page, f"01-home-{page.viewport_size['width']}")
    new_game(page, live_server.url, "tamalou", ["Léa", "Marc", "Nina", "Omar"], rounds="2")
    assert_fits_the_phone(page)

    # Round 1 with the picker: Léa calls with K♦ 3♣ = 3.
    expect(page.locator(".picker legend")).to_have_text("Add cards to Léa")
    tap_card(page, "KD")
    tap_card(page, "3C")
    expect(page.locator(".hand.target .total")).to_have_text("3")
    expect(page.locator('.picker button[value="KD"]')).to_be_disabled()  # one deck
    page.locator(".hand-head .who", has_text="Marc").tap()
    expect(page.locator(".picker legend")).to_have_text("Add cards to Marc")
    for code in ("10H", "QS", "2D"):
        tap_card(page, code)
    expect(page.locator(".hand.target .total")).to_have_text("22")
    page.locator(".hand-head .who", has_text="Nina").tap()
    tap_card(page, "4S")
    tap_card(page, "AH")
    page.locator(".hand-head .who", has_text="Omar").tap()
    tap_card(page, "KC")
    tap_card(page, "9C")
    page.locator(".hand.target .chips button", has_text="9♣").tap()  # one tap removes it
    expect(page.locator(".hand.target .chips")).not_to_contain_text("9♣")
    page.locator(".calls label", has_text="Léa").first.tap()
    assert_fits_the_phone(page)
    shoot(page, f"02-round-entry-{page.viewport_size['width']}")
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".round-form h2")).to_have_text("Round 2")
    assert totals(page) == [("Léa", "0"), ("Nina", "5"), ("Omar", "15"), ("Marc", "22")]

    # Round 2: a mistake first (no hand for Omar), shown next to his field, nothing lost.
    for seat, total in enumerate(["19", "4", "3"]):
        page.locator(f"#id_total_{seat}").fill(total)
    page.get_by_role("button", name="Save round 2").tap()
    omar = page.locator('.hand[data-seat="3"]')
    expect(omar.locator(".error")).to_have_text("Enter this player's cards or hand total.")
    expect(omar.locator(".error")).to_be_in_viewport()  # the message comes into view
    expect(page.locator("#id_total_0")).to_have_value("19")
    assert Round.objects.count() == 1
    page.locator("#id_total_3").fill("12")
    page.locator(".calls label", has_text="Marc").first.tap()
    page.get_by_role("button", name="Save round 2").tap()
    # Marc called with 4 but Nina had 3: Marc scores 4, Nina 0, Léa 19 and Omar 12.
    expect(page.locator(".winners")).to_contain_text("Winner: Nina")
    assert totals(page) == [("Nina", "5"), ("Léa", "19"), ("Marc", "26"), ("Omar", "27")]
    shoot(page, f"03-finished-{page.viewport_size['width']}")

    # Correct round 1: Léa had K♦ 9♣, not K♦ 3♣.
    page.locator("#round-1").get_by_role("link", name="Edit").tap()
    expect(page.locator('input[name="cards_0"]')).to_have_value("KD 3C")
    page.locator('.hand[data-seat="0"] .chips button', has_text="3♣").tap()
    tap_card(page, "9C")
    expect(page.locator('input[name="cards_0"]')).to_have_value("KD 9C")
    assert_fits_the_phone(page)
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("#round-1")).to_contain_text("edited")
    assert Game.objects.get().score().rounds[0].hand_totals["Léa"] == 9


def test_a_round_of_four_cards_each_takes_18_taps_the_grid_in_view_without_jumps(
    phone: Page, live_server
):
    """Each card a tap, the picker moving on to the next player after four cards: the grid
    stays in view and the page never jumps; the caller and Save make 18 taps."""
    page = phone
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina", "Omar"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    page.locator(".picker").scroll_into_view_if_needed()  # not a tap: the thumb is there
    height = page.viewport_size["height"]
    taps = 0
    hands = [["AS", "2S", "3S", "4S"], ["5S", "6S", "7S", "8S"], ["9S", "AH", "2H", "3H"]]
    hands.append(["4H", "5H", "6H", "7H"])
    before = page.evaluate("window.scrollY")
    for code in [code for cards in hands for code in cards]:
        tap_card(page, code)
        taps += 1
        grid = page.locator(f'.picker button[value="{code}"]').bounding_box()
        assert grid["y"] < height and grid["y"] + 48 > 0, f"the grid left the screen at {code}"
        after = page.evaluate("window.scrollY")
        assert abs(after - before) < 150, f"the page jumped by {after - before} px at {code}"
        before = after
    expect(page.locator(".hand").nth(3).locator(".chips")).to_contain_text("7♥")
    page.locator(".calls label", has_text="Léa").first.tap()
    page.get_by_role("button", name="Save round 1").tap()
    taps += 2
    expect(page.locator(".round-form h2")).to_have_text("Round 2")
    assert taps <= 18
    stored = Round.objects.get().data["hands"]
    assert stored == {name: cards for name, cards in zip(game.players, hands, strict=True)}


def test_typed_rounds_on_the_numeric_keypad(phone: Page, live_server):
    """A round typed in 6 taps (the keypad's "next" key goes from one total to the next); after
    the save the totals are in view, a quick second tap where Save was sends nothing, and
    typing goes on through a live update; a tap on a typed total selects it, so that typing
    replaces it."""
    page = phone
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina", "Omar"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    with step("a round in 6 taps"):
        assert page.locator("#id_total_0").get_attribute("inputmode") == "decimal"
        page.locator("#id_total_0").tap()
        taps = 1
        for i, digits in enumerate(["3", "12", "8", "20"]):
            page.keyboard.type(digits)
            expect(page.locator(".hand").nth(i).locator(".total")).to_have_text(digits)
            if i < 3:
                page.keyboard.press("Enter")  # the keypad's "next" key
                taps += 1
                expect(page.locator(f"#id_total_{i + 1}")).to_be_focused()
        page.locator(".calls label", has_text="Léa").first.tap()
        save = page.get_by_role("button", name="Save round 1")
        save.scroll_into_view_if_needed()
        box = save.bounding_box()
        save.tap()
        taps += 2
        expect(page.locator(".round-form h2")).to_have_text("Round 2")
        assert taps <= 6
        assert Round.objects.get().data["hands"] == {"Léa": 3, "Marc": 12, "Nina": 8, "Omar": 20}

    with step("after the save"):
        expect(page.locator("#totals")).to_be_in_viewport()
        # A quick second tap where Save was: nothing is sent, a hint says why, no error shows.
        posts: list[str] = []
        page.on(
            "request",
            lambda request: posts.append(request.url) if request.method == "POST" else None,
        )
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect(page.locator(".round-form .empty-hint")).to_have_text("Enter the hands first.")
        assert posts == []
        expect(page.locator(".round-form .error")).to_have_count(0)
        assert Round.objects.count() == 1
        # Typing after the save works, and a live update of the sheet keeps what was typed.
        page.locator("#id_total_1").tap()
        page.keyboard.type("7")
        with page.expect_response(lambda r: "/live/" in r.url, timeout=10_000):
            pass
        expect(page.locator("#id_total_1")).to_have_value("7")
        expect(page.locator(".hand").nth(1).locator(".total")).to_have_text("7")

    with step("a tap on a typed total selects it"):
        page.locator("#id_total_0").tap()
        page.keyboard.type("6")
        page.locator("#id_total_1").tap()  # 7 is selected
        page.keyboard.type("4")
        expect(page.locator("#id_total_1")).to_have_value("4")
        page.locator("#id_total_0").tap()  # back to the first: 6 is selected
        page.keyboard.type("5")
        expect(page.locator("#id_total_0")).to_have_value("5")
        page.locator("#id_total_1").tap()
        page.keyboard.press("Backspace")
        expect(page.locator("#id_total_1")).to_have_value("")


def test_the_phone_that_saves_folds_the_round_before_the_new_one(phone: Page, live_server):
    """Saving with htmx redraws only what changed: the new round comes whole on top and the
    round before it folds, as a reload would show them (no page load in between)."""
    page = phone
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    loads: list[str] = []
    page.on("load", lambda _: loads.append(page.url))
    for number in (1, 2, 3):
        for seat, total in enumerate([str(number), "12", "8"]):
            page.locator(f"#id_total_{seat}").fill(total)
        if number == 2:  # a round of another phone's, shown beside one kept offline
            page.evaluate(
                """document.querySelector('#pending .pending-rounds').innerHTML =
                '<div class="theirs"><article class="round" id="round-1">theirs</article></div>'"""
            )
        page.locator(".calls label", has_text="Léa").first.tap()
        page.get_by_role("button", name=f"Save round {number}").tap()
        expect(page.locator(".round-form h2")).to_have_text(f"Round {number + 1}")
        rounds = page.locator("#history-rounds > article.round")
        expect(rounds).to_have_count(number)
        expect(rounds.first).to_have_id(f"round-{number}")
        expect(rounds.first.locator("table")).to_have_count(1)  # whole
        for older in range(1, number):
            article = rounds.nth(older)
            expect(article).to_have_id(f"round-{number - older}")
            expect(article.locator("details:not([open])")).to_have_count(1)  # folded
    assert loads == []
    expect(page.locator("#pending .theirs #round-1")).to_have_text("theirs")  # not the history's
    page.locator("#round-2 summary").tap()  # a folded round opens on a tap
    expect(page.locator("#round-2 table")).to_have_count(1)
    shoot(page, "saved-three-rounds")


def test_penalty_points_with_reasons_through_the_phone(page: Page, live_server):
    game = Game.objects.create(variant="cabo_bruxellois", players=["Léa", "Marc", "Nina"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    for seat, total in enumerate(["3", "9", "7"]):
        page.locator(f"#id_total_{seat}").fill(total)
    page.locator("summary", has_text="Emptied hands").tap()
    page.locator("#id_penalty-0-player").select_option("Marc")
    page.locator("#id_penalty-0-points").fill("2")
    page.locator("#id_penalty-0-reason").fill("wrong quick discard")
    page.get_by_role("button", name="Another penalty").tap()
    expect(page.locator("#id_penalty-1-player")).to_be_in_viewport()  # no jump elsewhere
    expect(page.locator("#id_penalty-0-reason")).to_have_value("wrong quick discard")
    expect(page.locator("#id_total_1")).to_have_value("9")
    page.locator("#id_penalty-1-player").select_option("Nina")
    page.locator("#id_penalty-1-points").fill("2")
    shoot(page, "04-penalties")
    # Nobody was tapped as the caller: asked first, the penalties still there.
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".calls .who-called")).to_be_in_viewport()
    expect(page.locator("#id_penalty-1-player")).to_have_value("Nina")
    expect(page.locator("#id_penalty-0-reason")).to_have_value("wrong quick discard")
    assert not Round.objects.exists()
    page.get_by_role("button", name="Save: nobody called").tap()
    expect(page.locator(".round-form h2")).to_have_text("Round 2")
    assert Round.objects.get().data["penalties"] == [
        {"player": "Marc", "points": 2, "reason": "wrong quick discard"},
        {"player": "Nina", "points": 2},
    ]
    expect(page.locator("#history")).to_contain_text(
        "Marc: 2 penalty points (wrong quick discard)."
    )


def test_the_picker_names_the_players_of_its_own_game(page: Page, live_server):
    new_game(page, live_server.url, "tamalou", ["Alice", "Bob", "Chloé", "Dan"])
    tap_card(page, "AS")
    new_game(page, live_server.url, "tamalou", ["Ana", "Ben", "Cyd", "Dom"])
    expect(page.locator(".picker legend")).to_have_text("Add cards to Ana")
    page.locator(".hand-head .who", has_text="Cyd").tap()
    expect(page.locator(".picker legend")).to_have_text("Add cards to Cyd")
    tap_card(page, "2S")
    expect(page.locator('.hand[data-seat="2"] .chips')).to_contain_text("2♠")


def test_dutch_toulousain_penalty_cards_with_the_picker(page: Page, live_server):
    game = Game.objects.create(variant="dutch_toulousain", players=["Léa", "Marc", "Nina"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    tap_card(page, "6C")
    page.locator(".hand-head .who", has_text="Marc").tap()
    tap_card(page, "3H")
    page.locator(".hand-head .who", has_text="Nina").tap()
    tap_card(page, "KH")
    tap_card(page, "2S")
    page.locator(".calls label", has_text="Léa").first.tap()
    page.get_by_role("button", name="Pick the penalty cards").tap()
    expect(page.locator(".picker legend")).to_have_text("Add penalty cards")  # as without JS
    tap_card(page, "4D")
    tap_card(page, "QC")
    expect(page.locator("input[name=penalty_cards]")).to_have_value("4D QC")
    shoot(page, "05-penalty-cards")
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".round-form h2")).to_have_text("Round 2")
    expect(page.locator(".deal")).to_have_text("Léa deals, Nina plays first.")


def test_the_sheet_works_without_javascript_in_french(browser, live_server):
    """No JavaScript, a 360 px touch phone asking for French: plain fields, each total typed
    (the card picker is the phone's script), the question about the caller from the server."""
    context = browser.new_context(
        java_script_enabled=False,
        viewport={"width": 360, "height": 740},
        has_touch=True,
        is_mobile=True,
        locale="fr-FR",
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/new/koubo/")
    page.fill("#id_name_0", "Léa")
    page.fill("#id_name_1", "Marc")
    page.get_by_role("button", name="Commencer la partie").tap()
    expect(page.locator("#picker")).to_be_hidden()
    expect(page.locator("button[name=pick]").first).to_be_hidden()
    # Every button shown does something without a script: none is a script's (type=button);
    # the players are named as text beside their totals.
    assert page.locator("button[type=button]:visible").all_inner_texts() == []
    expect(page.locator(".hand .who-name")).to_have_text(["Léa", "Marc"])
    page.fill("#id_total_0", "7")
    page.fill("#id_total_1", "3")
    page.get_by_role("button", name="Enregistrer la manche 1").tap()  # nobody tapped as caller
    expect(page.locator(".who-called")).to_contain_text("Personne n’a annoncé dans cette manche")
    expect(page.locator("#id_total_1")).to_have_value("3")  # kept
    assert not Round.objects.exists()
    if SHOOTING:
        page.screenshot(path=SCREENSHOTS / "06-no-javascript-fr-asked-screen.png")
    page.locator("button[name=nobody_called]").tap()
    expect(page.locator(".round-form h2")).to_have_text("Manche 2")
    assert Game.objects.get().score().totals == {"Léa": 7, "Marc": 3}
    assert_fits_the_phone(page)
    shoot(page, "06-no-javascript-fr")
    context.close()


def test_a_round_saved_without_its_caller_asks_beside_the_callers_in_french(browser, live_server):
    """A 360 px phone in French saves a round with nobody tapped as the caller: nothing is
    stored, the question shows beside the caller's choice, both in view, with every card and
    total still there; its button stores the round as one nobody called."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True, locale="fr-FR"
    )
    page = context.new_page()
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina", "Omar"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    tap_card(page, "KD")
    tap_card(page, "3C")
    for seat, total in ((1, "12"), (2, "8"), (3, "20")):
        page.locator(f"#id_total_{seat}").fill(total)
    page.get_by_role("button", name="Enregistrer la manche 1").tap()
    question = page.locator(".calls .who-called")
    expect(question).to_have_attribute("role", "alert")
    expect(question.locator("p")).to_have_text(
        "Personne n’a annoncé dans cette manche\u202f? Touchez qui a annoncé, "
        "ou enregistrez-la comme une manche sans annonce."
    )
    expect(question).to_be_in_viewport()
    expect(page.locator(".calls label", has_text="Personne")).to_be_in_viewport()
    expect(page.locator(".calls label", has_text="Omar")).to_be_in_viewport()
    assert not Round.objects.exists()
    expect(page.locator('input[name="cards_0"]')).to_have_value("KD 3C")
    expect(page.locator(".hand").first.locator(".chips")).to_contain_text("3♣")
    expect(page.locator("#id_total_3")).to_have_value("20")
    assert_fits_the_phone(page)
    if SHOOTING:
        page.screenshot(path=SCREENSHOTS / "12-nobody-called-fr-360-screen.png")
    answer = question.locator("button[name=nobody_called]")
    expect(answer).to_have_text("Enregistrer sans annonce")
    answer.tap()
    expect(page.locator(".round-form h2")).to_have_text("Manche 2")
    assert Round.objects.get().data == {
        "hands": {"Léa": ["KD", "3C"], "Marc": 12, "Nina": 8, "Omar": 20}
    }
    expect(page.locator("#round-1")).to_contain_text("Personne n’a annoncé")
    context.close()


def test_another_phone_sees_a_new_round_without_reloading(page: Page, live_server, browser):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    page.locator("summary", has_text="Show the scores on other phones").tap()
    expect(page.locator(".qr svg")).to_be_visible()
    share_url = page.locator(".share-url").inner_text()

    viewer = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="fr-FR"
    ).new_page()
    statuses: list[int] = []
    viewer.on("response", lambda r: statuses.append(r.status) if "/live/" in r.url else None)
    viewer.goto(share_url)
    viewer.evaluate("window.notReloaded = true")
    expect(viewer.locator(".callout")).to_contain_text("lecture seule")
    with viewer.expect_response(lambda r: "/live/" in r.url, timeout=10_000):
        pass  # at least one poll of an unchanged game
    assert statuses and set(statuses) == {304}

    for seat, total in enumerate(["3", "12", "8"]):
        page.locator(f"#id_total_{seat}").fill(total)
    page.locator(".calls label", has_text="Léa").first.tap()
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".round-form h2")).to_have_text("Round 2")

    expect(viewer.locator("#history")).to_contain_text("Manche 1", timeout=10_000)
    expect(viewer.locator("#chart polyline")).to_have_count(3)  # the chart came with it
    assert viewer.evaluate("window.notReloaded") is True and 200 in statuses
    shoot(viewer, "07-share-view")
    viewer.context.close()


def test_enter_in_a_name_goes_to_the_next_name_and_keeps_the_dealer(page: Page, live_server):
    page.goto(f"{live_server.url}/new/tamalou/")
    dealer = page.get_by_role("button", name="Player 2 deals first")
    dealer.tap()
    expect(dealer).to_have_attribute("aria-pressed", "true")  # the rows are drawn again first
    page.locator("#id_name_0").tap()
    for name in ("Léa", "Marc", "Nina"):
        page.keyboard.type(name)
        page.keyboard.press("Enter")
    expect(page.locator("#id_name_3")).to_be_focused()
    page.keyboard.type("Omar")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".deal")).to_have_text("Marc deals, Nina plays first.")


class SlowServer:
    """A slow connection: each request to ``path`` is held, unanswered, while the test types
    on, until ``answer()``; from then on the connection is back and requests go through as they
    come. Every request is noted in ``sent``."""

    def __init__(self, page: Page, path: str):
        self.page, self.held, self.sent, self.urls, self.back = page, [], [], [], False
        page.route(f"**{path}**", self.hold)

    def hold(self, route) -> None:
        request = route.request
        self.sent.append((request.method, request.post_data_json or {}))
        self.urls.append(request.url)
        if self.back:
            route.continue_()
        else:
            self.held.append(route)

    def answer(self) -> None:
        self.back = True
        while self.held:
            self.held.pop(0).continue_()


def expect_players(page: Page, names: list[str]) -> None:
    """The new-game form shows these names, row by row (its hidden rows left out)."""
    shown = page.locator(".player-row:not([hidden]) input")
    expect(shown).to_have_count(len(names))
    for row, name in enumerate(names):
        expect(shown.nth(row)).to_have_value(name)


def test_new_game_rows_on_a_slow_connection_lose_no_typed_name(phone: Page, live_server):
    """Five names typed on a slow connection, with Add a player, ↑, ✕ and the dealer tapped
    between them, were wiped by the server's answers. The rows are changed on the phone:
    nothing is sent, and what is typed stays; a sample round of the house rules that answers
    late changes no name either."""
    page = phone
    width = page.viewport_size["width"]
    page.goto(f"{live_server.url}/new/tamalou/")
    slow = SlowServer(page, "/new/tamalou/")
    page.get_by_role("button", name="Remove player 4").tap()
    page.get_by_role("button", name="Remove player 3").tap()
    expect(page.get_by_role("button", name="Remove player 1")).to_be_hidden()  # 2 at least
    page.locator("#id_name_0").tap()
    page.keyboard.type("Léa")
    page.keyboard.press("Enter")
    page.keyboard.type("Marc")
    for name in ("Nina", "Omar", "Zoé"):
        page.get_by_role("button", name="Add a player").tap()
        expect(page.locator(".player-row:not([hidden]) input").last).to_be_focused()
        page.keyboard.type(name)
    page.get_by_role("button", name="Move player 5 up").tap()  # Zoé before Omar
    page.get_by_role("button", name="Player 2 deals first").tap()  # Marc
    page.get_by_role("button", name="Add a player").tap()
    page.keyboard.type("Paul")
    page.get_by_role("button", name="Remove player 6").tap()
    # A house rule changed: the sample round is asked for, and answers late.
    page.locator("#builder summary").tap()
    with page.expect_request(f"{live_server.url}/new/tamalou/preview/"):
        page.locator('button[name="step"][value="joker_value:-1"]').tap()
    page.locator("#id_name_2").tap()
    page.keyboard.press("End")
    page.keyboard.type("-Rose")
    expect(page.locator("#id_name_2")).to_have_value("Nina-Rose")
    page.locator("#id_name_0").tap()
    page.keyboard.press("End")
    page.keyboard.type("h")  # Léah, while the sample round's answer is on its way
    assert slow.urls == [f"{live_server.url}/new/tamalou/preview/"]  # all that was sent
    slow.answer()
    expect(page.locator("#preview table")).to_be_visible()
    expect_players(page, ["Léah", "Marc", "Nina-Rose", "Zoé", "Omar"])
    expect(page.get_by_role("button", name="Player 2 deals first")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert_fits_the_phone(page)
    shoot(page, f"31-new-game-rows-{width}")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".round-form h2")).to_be_visible()
    game = Game.objects.get()
    assert game.players == ["Léah", "Marc", "Nina-Rose", "Zoé", "Omar"]
    assert game.first_dealer == 1 and game.settings == {"joker_value": -1}
    expect(page.locator(".deal")).to_have_text("Marc deals, Nina-Rose plays first.")


def test_new_game_rows_move_a_refusal_with_its_name(page: Page, live_server):
    """A name refused (an invisible character) keeps its message when its row moves up."""
    page.goto(f"{live_server.url}/new/tamalou/")
    page.locator("#id_name_0").fill("Léa")
    page.locator("#id_name_2").fill("Ma\u200brc")
    page.get_by_role("button", name="Start the game").tap()
    refused = page.locator(".player-row", has=page.locator(".error"))
    expect(refused.locator("input")).to_have_id("id_name_2")
    page.get_by_role("button", name="Move player 3 up").tap()
    expect(refused.locator("input")).to_have_id("id_name_1")
    expect(refused.locator("input")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#id_name_2")).not_to_have_attribute("aria-invalid", "true")
    page.get_by_role("button", name="Remove player 2").tap()
    expect(page.locator(".player-row .error")).to_have_count(0)
    expect_players(page, ["Léa", "", ""])


def test_new_game_without_javascript_is_a_plain_list_of_names_kept_across_variants(
    browser, live_server
):
    """No JavaScript: no row's button, a name field for each player the variant may have (the
    empty ones left out, the first player deals); Other variant posts the form to its own
    address and the names come back on the next page; Enter starts the game. In French at
    360×740 (the sheet without JavaScript is in French too)."""
    width, height, language = 360, 740, "fr"
    context = browser.new_context(
        java_script_enabled=False,
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
        locale={"fr": "fr-FR", "en": "en-GB"}[language],
    )
    add, other, kept, first_deals = (
        "Ajouter un joueur",
        "Autre variante",
        "Les joueurs saisis sont gardés\u202f: Léa, Nina, Marc.",
        "Le premier joueur distribue en premier.",
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/new/tamalou/")
    expect(page.locator(".player-row input")).to_have_count(8)
    expect(page.get_by_role("button", name=add)).to_be_hidden()
    expect(page.locator("#players")).to_contain_text(first_deals)
    page.locator("#id_name_0").fill("Léa")
    page.locator("#id_name_2").fill("Nina")
    page.locator("#id_name_3").fill("Marc")
    page.get_by_role("button", name=other).tap()
    expect(page.locator("main")).to_contain_text(kept)
    assert_fits_the_phone(page)
    shoot(page, f"32-other-variant-{language}-{width}")
    page.locator("a.choice", has_text="Dutch").first.tap()
    expect_players(page, ["Léa", "", "Nina", "Marc", "", "", "", ""])
    assert_fits_the_phone(page)
    page.locator("#id_name_3").press("Enter")
    expect(page.locator(".round-form h2")).to_be_visible()
    game = Game.objects.get()
    assert game.variant == "dutch" and game.players == ["Léa", "Nina", "Marc"]
    assert game.first_dealer == 0
    context.close()


# Each landmark's label as the phone shows it: its text, whether its text lies inside its plate
# (in the chart's units, half a unit of give) and both inside the chart's box on the screen,
# whether the plate is painted after every curve, and which curves cross the plate (their
# segments, and their markers half a marker around each point).
LABELS_SEEN = """() => {
  const svg = document.querySelector("#chart > svg");
  const curves = [...svg.querySelectorAll("polyline")];
  const reach = Number(svg.querySelector("marker").getAttribute("markerWidth")) / 2 - 0.2;
  const within = (a, b, give) => a.left >= b.left - give && a.right <= b.right + give
    && a.top >= b.top - give && a.bottom <= b.bottom + give;
  const box = (b) => ({ left: b.x, right: b.x + b.width, top: b.y, bottom: b.y + b.height });
  const crosses = (r, [xa, ya], [xb, yb]) => {
    let start = 0, end = 1;
    for (const [p, q] of [[xa - xb, xa - r.left], [xb - xa, r.right - xa],
                          [ya - yb, ya - r.top], [yb - ya, r.bottom - ya]]) {
      if (p === 0) { if (q < 0) return false; continue; }
      const t = q / p;
      if (p < 0) start = Math.max(start, t); else end = Math.min(end, t);
    }
    return start <= end;
  };
  const screen = svg.getBoundingClientRect();
  return [...svg.querySelectorAll("text.lm")].map((text) => {
    const plate = text.previousElementSibling;
    const shape = box(plate.getBBox());
    const grown = { left: shape.left - reach, right: shape.right + reach,
                    top: shape.top - reach, bottom: shape.bottom + reach };
    const crossing = curves.filter((curve) => {
      const points = [...curve.points].map((p) => [p.x, p.y]);
      return points.some((p, i) => i > 0 && crosses(shape, points[i - 1], p))
        || points.some((p) => crosses(grown, p, p));
    });
    return {
      text: text.textContent,
      onPlate: plate.matches("rect.lm") && within(box(text.getBBox()), shape, 0.5),
      inChart: within(text.getBoundingClientRect(), screen, 0)
        && within(plate.getBoundingClientRect(), screen, 0),
      overCurves: curves.every((curve) =>
        curve.compareDocumentPosition(plate) & Node.DOCUMENT_POSITION_FOLLOWING),
      crossedBy: crossing.map((curve) => curve.getAttribute("class")),
    };
  });
}"""


def game_of(variant: str, hands: list[list[int]], settings: dict | None = None) -> Game:
    """A game of four played with typed totals, Léa calling every round."""
    players = ["Léa", "Marc", "Nina", "Omar"]
    game = Game.objects.create(variant=variant, players=players, settings=settings or {})
    for number, row in enumerate(hands, 1):
        data = {"hands": dict(zip(players, row, strict=True)), "caller": "Léa"}
        Round.objects.create(game=game, position=number, data=data)
    return game


LABELS = {
    "en": {
        "dutch": ["100: out"],
        "tamalou": ["Over 100: the end"],
        "tamoul": ["100 → 50; over: the end"],
        "fontenaysien": ["100: lost", "−50: won"],
    },
    "fr": {
        "dutch": ["100\u202f: hors jeu"],
        "tamalou": ["Au-delà de 100\u202f: fin"],
        "tamoul": ["100 → 50\u202f; au-delà\u202f: fin"],
        "fontenaysien": ["100\u202f: perdu", "−50\u202f: gagné"],
    },
}


def test_every_landmark_label_is_whole_in_the_chart_and_no_curve_crosses_it(
    page: Page, live_server
):
    """Each variant's landmark labels, in English at 390 px and in French (the longer labels)
    at 360 px: the whole text on its plate inside the chart, where no player's line or marker
    passes (the Dutch game's eight lines cross its 100 near the right end, and the label moves
    left of them), the plate painted over the curves."""
    host = live_server.url.split("//", 1)[1].split(":")[0]
    games = {
        "dutch": finished_dutch_game(
            ["Léa", "Marc", "Nina", "Omar", "Paul", "Zoé", "Inès", "Hugo"]
        ),
        "tamalou": game_of("tamalou", [[30, 40, 45, 20], [30, 40, 45, 20]], {"limit": 100}),
        "tamoul": game_of("tamoul", [[3, 40, 45, 20], [30, 40, 45, 20]]),
        "fontenaysien": game_of("fontenaysien", [[0, 12, 7, 20], [0, 30, 3, 20]]),
    }
    for language, width, height in (("en", 390, 844), ("fr", 360, 740)):
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "domain": host, "path": "/"}]
        )
        page.set_viewport_size({"width": width, "height": height})
        for name, game in games.items():
            page.goto(f"{live_server.url}/g/{game.edit_key}/")
            page.locator("#chart").scroll_into_view_if_needed()
            seen = page.evaluate(LABELS_SEEN)
            assert [label["text"] for label in seen] == LABELS[language][name]
            for label in seen:
                assert label["onPlate"] and label["inChart"] and label["overCurves"], label
                assert label["crossedBy"] == [], label
            if SHOOTING:
                page.locator("#chart").screenshot(
                    path=SCREENSHOTS / f"12-chart-{name}-{language}-{width}.png"
                )


def test_the_scripts_as_shipped_still_parse(browser, settings, tmp_path):
    """Production ships the app's modules hashed, each import naming the hashed file
    (tamalou_ref/staticfiles.py): a sheet served from the collected files under its own
    Content-Security-Policy runs them (the picker answers a tap), and every module imports."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "tamalou_ref.staticfiles.ShippedStaticFiles"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    settings.DEBUG = False
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina"])
    sheet = Client().get(f"/g/{game.edit_key}/")
    hashed = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]

    requested = set()

    def serve(route):
        path = urlsplit(route.request.url).path
        file = tmp_path / path.removeprefix("/static/")
        requested.add(path)
        if path == f"/g/{game.edit_key}/":
            policy = sheet["Content-Security-Policy"]
            headers = {
                "Content-Type": "text/html; charset=utf-8",
                "Content-Security-Policy": policy,
            }
            route.fulfill(body=sheet.content, headers=headers)
        elif path.startswith("/static/") and file.is_file():
            route.fulfill(path=file, content_type=mimetypes.guess_type(file.name)[0])
        else:
            route.fulfill(status=404)

    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route("http://shipped.test/**", serve)
    page.goto(f"http://shipped.test/g/{game.edit_key}/")
    page.locator('.picker button[value="KH"]').click()
    expect(page.locator('.hand[data-seat="0"] .chips .chip')).to_have_count(1)
    sources = sorted((ROOT / "static" / "js").glob("*.js"))
    for path in sources:
        url = f"/static/{hashed[f'js/{path.name}']}"
        assert page.evaluate("(url) => import(url).then(() => true)", url), path.name
    assert errors == []
    shipped_names = {f"/static/{name}" for name in hashed.values()}
    assert {path for path in requested if path.startswith("/static/")} <= shipped_names
    page.close()


def test_names_with_joined_emoji_are_typed_kept_and_shown(browser, live_server):
    """👩‍🍳 (a joiner), 👨‍👩‍👧 (two), a flag and a skin tone: typed on the phone, the game starts
    with them; a zero width space is refused next to its field, in the page's language (English,
    the phone's, at 390×844)."""
    width, height, language = 390, 844, "en"
    context = browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
        locale={"fr": "fr-FR", "en": "en-GB"}[language],
    )
    page = context.new_page()
    names = ["Chef 👩\u200d🍳", "👨\u200d👩\u200d👧", "Zoé 🇫🇷", "👍🏽 Marc"]
    page.goto(f"{live_server.url}/new/cabo_bruxellois/")
    page.locator("#id_name_0").fill(names[0])
    page.locator("#id_name_1").fill("Ma\u200brc")
    start = "Start the game"
    page.get_by_role("button", name=start).tap()
    expect(page.locator("main")).to_contain_text("invisible control character")
    assert not Game.objects.exists()
    for seat, name in enumerate(names):
        page.locator(f"#id_name_{seat}").fill(name)
    page.get_by_role("button", name=start).tap()
    expect(page.locator(".standings")).to_contain_text(names[1])
    assert Game.objects.get().players == names
    for name in names:
        expect(page.locator("main")).to_contain_text(name)
    assert_fits_the_phone(page)
    shoot(page, f"30-emoji-names-{language}-{width}")
    context.close()  # its sheet polls for live updates: not after the test's server is gone


def test_a_card_tapped_low_in_the_grid_shows_its_answer_in_view(phone: Page, live_server):
    """The rules page's answer panel is above the grid: a tap on a card far below it brings
    the answer into view (it changed ~320 px above the screen, and nothing seemed to happen)."""
    page = phone
    page.goto(f"{live_server.url}/rules/tamalou/#cards")
    last = page.locator(".lookup-grid a.pick").last
    last.evaluate("card => card.scrollIntoView({block: 'start'})")  # the thumb low in the grid
    expect(page.locator("#card-panel")).not_to_be_in_viewport()
    last.tap()
    expect(page.locator("#card-panel strong.big")).to_be_visible()
    expect(page.locator("#card-panel")).to_be_in_viewport()
    shoot(page, f"rules-card-answer-{page.viewport_size['width']}")
