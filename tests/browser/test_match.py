"""Tambouille on a touch phone (390×844, tapping): entering turn rounds on the keypad, and
the thinking timer under Playwright's clock (no real waiting)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Page, expect

from scoring.store.models import Game
from tests.browser.helpers import assert_fits_the_phone, shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_match_on_a_touch_phone_from_the_new_match_to_the_winner(page: Page, live_server):
    page.goto(f"{live_server.url}/new/tambouille/")
    for i, name in enumerate(["Léa", "Marc", "Nina"]):
        page.locator(f"#id_name_{i}").tap()
        page.keyboard.type(name)
    page.locator("label.check").tap()  # the short version
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".deal")).to_contain_text("Léa dealt 20 cards to each player")
    assert_fits_the_phone(page)

    page.locator("#id_count_0").tap()
    for count in ("14", "12", "19"):  # the keypad's "next" key goes on, the last one saves
        page.keyboard.type(count)
        page.keyboard.press("Enter")
    expect(page.locator("#counts-form h2")).to_have_text("Turn round 2: cards left")
    expect(page.locator(".standing.leader")).to_contain_text("Marc")
    expect(page.locator("#round-1 td.won")).to_have_text("12")

    page.locator("#id_count_0").tap()
    page.keyboard.type("200")
    page.locator("#id_count_1").tap()
    page.keyboard.type("0")
    page.locator("#id_count_2").tap()
    page.keyboard.type("3")
    page.reload()  # the counts typed are kept on the phone
    for seat, count in enumerate(("200", "0", "3")):
        expect(page.locator(f"#id_count_{seat}")).to_have_value(count)
    expect(page.locator("#counts-form h2")).to_have_text("Turn round 2: cards left")
    page.get_by_role("button", name="Save turn round 2").tap()
    expect(page.locator("#counts-form [role=alert]").first).to_have_text(
        "Enter a number from 0 to 123."
    )
    expect(page.locator("#id_count_1")).to_have_value("0")  # nothing typed is lost
    page.locator("#id_count_0").fill("")
    page.locator("#id_count_0").tap()
    page.keyboard.type("9")
    page.get_by_role("button", name="Save turn round 2").tap()
    expect(page.locator(".result .winners")).to_have_text("Winner: Marc")
    expect(page.locator("#counts-form")).to_have_count(0)
    assert page.evaluate("localStorage.length") == 0  # no draft left once saved
    assert_fits_the_phone(page)
    shoot(page, "20-match-over-390")
    game = Game.objects.get()
    assert [r.data["hands"] for r in game.rounds.order_by("position")] == [
        {"Léa": 14, "Marc": 12, "Nina": 19},
        {"Léa": 9, "Marc": 0, "Nina": 3},
    ]


def test_the_thinking_timer_counts_from_its_start_time_and_signals_the_end(page: Page, live_server):
    page.set_viewport_size({"width": 360, "height": 740})
    game = Game.objects.create(variant="tambouille", players=["Léa", "Marc", "Nina"])
    page.add_init_script(
        "window.vibrations = [];"
        "navigator.vibrate = (p) => { window.vibrations.push(p); return true; };"
    )
    page.clock.install()
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    clock = page.locator("#clock")
    expect(clock.locator(".turn")).to_have_text("Marc is thinking")  # Léa deals
    expect(clock.locator(".time")).to_have_text("2:00")
    page.get_by_role("button", name="Start", exact=True).tap()
    expect(clock).to_have_class("clock running")
    expect(clock.locator(".time")).to_have_text(re.compile(r"^[12]:\d\d$"))  # counting down
    deadline = int(clock.get_attribute("data-deadline"))

    # A minute into the turn (Playwright's Python API reads a number as seconds).
    page.clock.pause_at(datetime.fromtimestamp((deadline - 60_500) / 1000, UTC))
    page.clock.run_for(500)
    expect(clock.locator(".time")).to_have_text("1:00")
    assert_fits_the_phone(page)
    shoot(page, "21-timer-running-360")
    page.reload()  # the screen slept, the page came back: the same time is left
    expect(page.locator("#clock .time")).to_have_text("1:00")

    share = page.context.new_page()
    share.goto(f"{live_server.url}/s/{game.share_key}/")
    expect(share.locator("#clock .turn")).to_have_text("Marc is thinking")
    expect(share.locator("#clock .time")).to_have_text("1:00")
    expect(share.locator("#clock button")).to_have_count(0)

    page.clock.fast_forward(60_000)
    expect(page.locator("#clock")).to_have_class("clock running up")
    expect(page.locator("#clock .time")).to_have_text("Time is up!")
    # "Running" no longer shows beside "Time is up!", on the other phone either.
    expect(page.locator("#clock .state")).to_have_text("2:00 a turn", use_inner_text=True)
    expect(share.locator("#clock .time")).to_have_text("Time is up!")
    expect(share.locator("#clock .state")).to_have_text("2:00 a turn", use_inner_text=True)
    assert page.evaluate("window.vibrations.length") == 1
    shoot(page, "22-timer-up-360")

    page.bring_to_front()
    page.get_by_role("button", name="Next: Nina").tap()
    expect(page.locator("#clock .turn")).to_have_text("Nina is thinking")
    expect(page.locator("#clock .order li.now")).to_have_text("Nina")
    share.clock.run_for(3_500)  # the read-only view's next poll
    expect(share.locator("#clock .turn")).to_have_text("Nina is thinking")


def test_the_time_of_a_turn_is_chosen_on_the_phone(page: Page, live_server):
    game = Game.objects.create(variant="tambouille", players=["Ana", "Ben"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    page.locator(".clock-time summary").tap()
    page.locator("#id_seconds").select_option("90")
    page.get_by_role("button", name="Set").tap()
    expect(page.locator("#clock .time")).to_have_text("1:30")
    expect(page.locator("#clock .state")).to_contain_text("1:30 a turn")
    assert Game.objects.get().clock.seconds == 90


def test_the_turn_rounds_of_four_long_names_fit_a_small_phone_in_french(browser, live_server):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True, locale="fr-FR"
    )
    names = ["Maximilienne", "Anne-Sophie", "Christophe", "Bartholomé"]
    game = Game.objects.create(variant="tambouille", players=names)
    for position, counts in enumerate([(30, 28, 25, 29), (22, 18, 21, 20)], 1):
        game.rounds.create(position=position, data={"hands": dict(zip(names, counts, strict=True))})
    page = context.new_page()
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    expect(page.locator("#round-2 td.won")).to_have_text("18")
    assert_fits_the_phone(page)
    # The table stays within the screen, and no count or button is cut or wrapped.
    assert page.eval_on_selector(".turns table", "t => t.getBoundingClientRect().right") <= 360
    assert (
        page.eval_on_selector_all(
            ".turns tbody td", "els => els.filter(e => e.scrollWidth > e.clientWidth).length"
        )
        == 0
    )
    shoot(page, "23-match-long-names-fr-360")
    context.close()
