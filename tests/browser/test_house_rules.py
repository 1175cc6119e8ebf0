"""The house rules builder on a touch phone (390×844 and 360×740, tapping): Chez Mamie's rules
set with the steppers (a joker at −5 without a minus key), saved under their name, a game
started with them, a round entered, and the settings read back from the exported file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring.store.models import Game, RuleSet
from tests.browser.helpers import (
    assert_fits_the_phone,
    controlled,
    kept,
    shoot,
    tap_card,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def stepper(page: Page, name: str, label: str):
    return page.locator(f'button[name="step"][value="{name}:{label}"]')


def test_chez_mamie_is_built_saved_played_and_exported(phone: Page, live_server):
    page = phone
    width = page.viewport_size["width"]
    page.goto(f"{live_server.url}/new/tamalou/")
    for i, name in enumerate(["Léa", "Marc"]):
        page.locator(f"#id_name_{i}").tap()
        page.keyboard.type(name)
    page.locator("#builder summary").tap()
    expect(page.locator("#id_joker_value")).to_be_visible()

    # A joker at −5 with the − button: the keypad may have no minus key.
    joker = page.locator("#id_joker_value")
    assert joker.get_attribute("inputmode") == "decimal"
    for _ in range(5):
        stepper(page, "joker_value", "-1").tap()
    expect(joker).to_have_value("-5")
    expect(page.locator(".field.house.changed")).to_have_count(1)  # the joker's row, marked

    # K♥ on its own at −1; a rank's default shows beside it once changed.
    page.locator("#id_one_0").select_option("KH")
    stepper(page, "one_0_value", "-1").tap()
    expect(page.locator("#id_one_0_value")).to_have_value("-1")
    queen = page.locator(".card-row", has=page.locator("#id_card_Q"))
    expect(queen.locator(".default")).to_be_hidden()
    stepper(page, "card_Q", "+1").tap()
    expect(queen.locator(".default")).to_be_visible()
    expect(queen.locator(".default")).to_have_text("default 10")
    stepper(page, "card_Q", "-1").tap()
    expect(queen.locator(".default")).to_be_hidden()

    # A failed call costs 10: typed on the numeric keypad.
    page.locator("#id_call_penalty").fill("")
    page.locator("#id_call_penalty").tap()
    page.keyboard.type("10")
    page.locator("#id_rules_name").tap()
    page.keyboard.type("Chez Mamie")
    expect(page.locator("#id_rules_name")).to_have_value("Chez Mamie")
    # The sample round is scored again under the changed rules (htmx, on change).
    expect(page.locator("#preview table")).to_be_visible()
    assert_fits_the_phone(page)
    shoot(page, f"20-house-rules-{width}")

    page.get_by_role("button", name="Save as…").tap()
    expect(page.locator("#builder .banner")).to_contain_text("Saved as “Chez Mamie”")
    rule_set = RuleSet.objects.get()
    assert rule_set.settings == {
        "joker_value": -5,
        "card_values": {"KH": -1},
        "call_penalty": 10,
    }
    expect(page.locator("#id_name_1")).to_have_value("Marc")  # the players stay
    expect(page.locator(".rule-sets button", has_text="Chez Mamie")).to_be_visible()

    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".house-line")).to_have_text("Chez Mamie: joker −5, K♥ −1, failed call +10")
    game = Game.objects.get()
    assert game.rules_name == "Chez Mamie" and game.settings == rule_set.settings

    # A round: the picker counts K♥ at −1 and the joker at −5.
    tap_card(page, "KH")
    tap_card(page, "JOKER")
    expect(page.locator(".hand.target .total")).to_have_text("−6")
    page.locator("#id_total_1").fill("12")
    page.locator(".calls label", has_text="Léa").first.tap()
    shoot(page, f"21-house-round-{width}")
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".round-form h2")).to_have_text("Round 2")
    game.refresh_from_db()
    assert game.rounds.count() == 1
    assert game.score().rounds[0].hand_totals["Léa"] == -6

    with page.expect_download() as download:
        page.get_by_role("link", name="Export the game file").tap()
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert exported["settings"] == {
        "joker_value": -5,
        "card_values": {"KH": -1},
        "call_penalty": 10,
    }
    assert exported["rules_name"] == "Chez Mamie"
    assert exported["rounds"][0]["hands"]["Léa"] == ["KH", "JOKER"]

    # The set's own page: its rules in the table's numbers, to share.
    page.goto(f"{live_server.url}/h/{rule_set.key}/")
    expect(page.locator(".differences")).to_have_text("joker −5, K♥ −1, failed call +10")
    page.locator(".share summary").tap()
    expect(page.locator(".share .qr svg")).to_be_visible()
    assert_fits_the_phone(page)
    shoot(page, f"22-house-rules-page-{width}")


def test_save_as_redirects_so_back_and_reload_send_nothing_again(page: Page, live_server):
    """After Save as…, Back asked to confirm a form resubmission. The save answers
    with a redirect to the page showing the set just saved, with the players typed: a reload
    or Back sends nothing again, and the names stay. In French at 360×740 (the builder's other
    tests are in English)."""
    width, height, language = 360, 740, "fr"
    page.set_viewport_size({"width": width, "height": height})
    host = live_server.url.split("//", 1)[1].split(":")[0]
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "domain": host, "path": "/"}]
    )
    deals, save, saved = (
        "Le joueur 3 distribue en premier",
        "Enregistrer sous…",
        "Enregistrées sous «\u202fChez Mamie\u202f»",
    )
    posts = []  # the posts that change something (not the sample round's)

    def note(request):
        if request.method == "POST" and not request.url.endswith("/preview/"):
            posts.append(request.url.removeprefix(live_server.url))

    page.on("request", note)
    page.goto(f"{live_server.url}/new/tamalou/")
    for i, name in enumerate(["Léa", "Marc", "Nina"]):
        page.locator(f"#id_name_{i}").tap()
        page.keyboard.type(name)
    page.get_by_role("button", name=deals).tap()
    page.locator("#builder summary").tap()
    stepper(page, "joker_value", "-1").tap()
    stepper(page, "joker_value", "-1").tap()
    page.locator("#id_rules_name").fill("Chez Mamie")
    page.locator("#id_rules_name").press("Enter")  # closes the keyboard, sends nothing
    expect(page.locator("#id_rules_name")).not_to_be_focused()
    assert posts == []  # the dealer is chosen on the phone
    page.get_by_role("button", name=save).tap()
    expect(page.locator("#builder .banner")).to_contain_text(saved)
    expect(page.locator("#builder .banner")).to_be_in_viewport()  # where Save as was
    rule_set = RuleSet.objects.get()
    assert f"/new/tamalou/?saved={rule_set.key}&name_0=L%C3%A9a&" in page.url
    assert posts == ["/new/tamalou/save-rules/"]
    for i, name in enumerate(["Léa", "Marc", "Nina", ""]):
        expect(page.locator(f"#id_name_{i}")).to_have_value(name)
    expect(page.get_by_role("button", name=deals)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#id_joker_value")).to_have_value("-2")
    assert_fits_the_phone(page)
    shoot(page, f"23-saved-as-{language}-{width}")
    page.reload()
    expect(page.locator("#builder .banner")).to_contain_text(saved)
    expect(page.locator("#id_name_2")).to_have_value("Nina")
    page.go_back()
    expect(page).to_have_url(f"{live_server.url}/new/tamalou/")
    page.go_forward()
    expect(page.locator("#id_name_1")).to_have_value("Marc")
    assert (
        posts == ["/new/tamalou/save-rules/"] and RuleSet.objects.count() == 1
    )  # nothing sent again
    page.locator("form#new-game > button.primary.wide").tap()
    expect(page.locator(".house-line")).to_contain_text("Chez Mamie")
    game = Game.objects.get()
    assert game.players == ["Léa", "Marc", "Nina"] and game.first_dealer == 2
    assert game.settings == {"joker_value": -2} and game.rules_name == "Chez Mamie"


def test_choosing_another_deck_redraws_the_card_grid_in_place(page: Page, live_server):
    page.goto(f"{live_server.url}/new/koubo/")
    page.locator("#id_name_0").tap()
    page.keyboard.type("Léa")
    page.locator("#builder summary").tap()
    expect(page.locator("#id_card_5")).to_have_count(0)  # koubo's 32 cards
    stepper(page, "card_JOKER", "-1").tap()  # a step stays on the phone: nothing is sent
    expect(page.locator("#id_card_JOKER")).to_have_value("-2")
    # The sample round follows the change (htmx): the joker at −2 is in its hands.
    expect(page.locator("#preview table")).to_be_visible()
    page.locator("label", has_text="52 cards (ace to king)").tap()
    expect(page.locator("#id_card_5")).to_have_value("5")
    expect(page.locator("#id_card_JOKER")).to_have_value("-2")  # kept through the redraw
    expect(page.locator("#id_name_0")).to_have_value("Léa")
    assert_fits_the_phone(page)
    page.locator("#id_rules_name").fill("Koubo 52")
    page.get_by_role("button", name="Save as…").tap()
    expect(page.locator("#builder .banner")).to_contain_text("Koubo 52")
    assert RuleSet.objects.get().settings == {"deck": "52", "card_values": {"JOKER": -2}}


def test_a_saved_set_or_another_variant_keeps_the_names_typed(phone: Page, live_server):
    """A saved set of another variant, listed on the new-game page, and Other
    variant opened another page without the names typed; they come with their order and the
    dealer, and the game starts with them under the set's rules."""
    page = phone
    width = page.viewport_size["width"]
    page.goto(f"{live_server.url}/new/koubo/")
    page.locator("#builder summary").tap()
    page.locator("label", has_text="52 cards (ace to king)").tap()
    expect(page.locator("#id_card_5")).to_have_value("5")
    page.locator("#id_rules_name").fill("Koubo 52")
    page.get_by_role("button", name="Save as…").tap()
    expect(page.locator("#builder .banner")).to_contain_text("Koubo 52")
    koubo = RuleSet.objects.get()
    page.get_by_role("button", name="Other variant").tap()
    page.locator("a.choice", has_text="Tamalou (classic)").tap()
    for i, name in enumerate(["Léa", "Marc", "Nina"]):
        page.locator(f"#id_name_{i}").tap()
        page.keyboard.type(name)
    page.get_by_role("button", name="Move player 3 up").tap()
    page.get_by_role("button", name="Player 3 deals first").tap()  # Marc
    choice = page.get_by_role("button", name="Koubo 52 · Koubo charentais")
    assert_fits_the_phone(page)
    choice.scroll_into_view_if_needed()
    shoot(page, f"24-sets-of-other-variants-{width}")
    choice.tap()
    expect(page.locator("h1")).to_have_text("Koubo charentais")
    assert f"rules={koubo.key}" in page.url
    for i, name in enumerate(["Léa", "Nina", "Marc", ""]):
        expect(page.locator(f"#id_name_{i}")).to_have_value(name)
    expect(page.get_by_role("button", name="Player 3 deals first")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator("#builder .banner")).to_contain_text("“Koubo 52” are filled in")
    page.get_by_role("button", name="Other variant").tap()
    expect(page.locator("main")).to_contain_text("The players typed are kept: Léa, Nina, Marc.")
    page.go_back()  # the Koubo page again, as it came
    expect(page.locator("#id_name_2")).to_have_value("Marc")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".round-form h2")).to_be_visible()
    game = Game.objects.get()
    assert game.variant == "koubo" and game.players == ["Léa", "Nina", "Marc"]
    assert game.first_dealer == 2 and game.settings == koubo.settings == {"deck": "52"}
    assert game.rules_name == "Koubo 52"


@pytest.mark.browser_context_args(service_workers="allow")
def test_the_phones_saved_rules_open_offline_as_last_known(page: Page, live_server):
    page.goto(f"{live_server.url}/new/tamalou/")
    controlled(page)
    page.locator("#builder summary").tap()
    for _ in range(5):
        stepper(page, "joker_value", "-1").tap()
    page.locator("#id_rules_name").fill("Chez Mamie")
    page.get_by_role("button", name="Save as…").tap()
    expect(page.locator("#builder .banner")).to_contain_text("Chez Mamie")
    rule_set = RuleSet.objects.get()
    # Changed from another phone: this one only opens its home page, which names its sets.
    RuleSet.objects.filter(pk=rule_set.pk).update(settings={"joker_value": -6})
    page.goto(live_server.url)
    path = f"/h/{rule_set.key}/"
    assert kept(page, path, showing="joker −6")
    page.context.set_offline(True)
    page.goto(live_server.url + path)
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator(".differences")).to_have_text("joker −6")
    expect(page.locator("h1")).to_have_text("Chez Mamie")
