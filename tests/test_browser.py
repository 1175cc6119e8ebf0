"""What only a browser shows: the htmx flows and the card picker, at a phone's 390×844."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Game, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"


def shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True)


def assert_fits_the_phone(page: Page) -> None:
    """No horizontal scrolling, and every button at least 44 px high."""
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    heights = page.eval_on_selector_all(
        "main button:not(.visually-hidden), main .button, main summary.button",
        "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect().height)",
    )
    assert heights and min(heights) >= 44


def pick(page: Page, player: str, *codes: str) -> None:
    page.locator(".hand-head .who", has_text=player).click()
    expect(page.locator(".hand.target .who")).to_have_text(player)
    for code in codes:
        button = page.locator(f'button[name=pick][value$=":{code}"]')
        button.click()
        expect(page.locator(".hand.target .chips")).to_contain_text(chip_text(code))


def chip_text(code: str) -> str:
    return code[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[code[-1]]


def totals(page: Page) -> list[tuple[str, str]]:
    """The standings as shown, best first: (name, running total)."""
    rows = page.locator(".standing")
    return [
        (
            rows.nth(i).locator(".name").inner_text().split()[0],
            rows.nth(i).locator(".total").inner_text(),
        )
        for i in range(rows.count())
    ]


def test_a_whole_game_on_a_phone(page: Page, live_server):
    page.goto(live_server.url)
    assert_fits_the_phone(page)
    shoot(page, "01-home")
    page.get_by_role("link", name="New game").click()
    shoot(page, "02-variants")
    page.get_by_role("link", name="Tamalou (classic)").click()
    for i, name in enumerate(["Léa", "Marc", "Nina", "Omar"]):
        page.fill(f"#id_name_{i}", name)
    page.fill("#id_rounds", "3")
    assert_fits_the_phone(page)
    shoot(page, "03-new-game")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("h1")).to_have_text("Tamalou (classic)")
    assert_fits_the_phone(page)

    # Round 1 with the card picker: Léa calls with K♦ 3♣ = 3.
    pick(page, "Léa", "KD", "3C")
    expect(page.locator(".hand.target .total")).to_have_text("3")
    expect(page.locator('button[name=pick][value$=":KD"]')).to_be_disabled()  # one deck
    pick(page, "Marc", "10H", "QS", "2D")
    expect(page.locator(".hand.target .total")).to_have_text("22")
    pick(page, "Nina", "4S", "AH")
    pick(page, "Omar", "KC", "9C")
    page.locator(".hand.target .chips button", has_text="9♣").click()  # one tap removes it
    expect(page.locator(".hand.target .chips")).not_to_contain_text("9♣")
    page.locator(".calls label", has_text="Léa").click()
    assert_fits_the_phone(page)
    shoot(page, "04-round-entry")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator(".round-form h2")).to_have_text("Round 2")
    assert totals(page) == [("Léa", "0"), ("Nina", "5"), ("Omar", "15"), ("Marc", "22")]

    # Round 2: typed totals for a table that only counts; Marc calls and fails.
    for i, total in enumerate(["19", "4", "3", "12"]):
        page.fill(f"#id_hand_{i}", total)
    page.locator(".calls label", has_text="Marc").click()
    page.get_by_role("button", name="Save round 2").click()
    expect(page.locator(".round-form h2")).to_have_text("Round 3")
    assert totals(page) == [("Nina", "5"), ("Léa", "19"), ("Marc", "26"), ("Omar", "27")]

    # Round 3: a mistake first (no hand for Omar), shown next to his field.
    pick(page, "Léa", "AS")
    page.get_by_role("button", name="Save round 3").click()
    expect(page.locator("#id_hand_1-error")).to_contain_text("Enter Marc's cards or hand total.")
    expect(page.locator("#id_hand_0")).to_have_value("AS")
    assert Round.objects.count() == 2
    pick(page, "Marc", "6D")
    pick(page, "Nina", "QH", "QC")
    page.fill("#id_hand_3", "")
    page.locator("summary", has_text="Emptied hands").click()
    page.locator(".extras label", has_text="Omar").click()
    page.locator(".calls label", has_text="Omar").click()
    page.get_by_role("button", name="Save round 3").click()

    # Three rounds agreed: the game is over.
    expect(page.locator(".winners")).to_contain_text("Winner: Léa")
    assert totals(page) == [("Léa", "20"), ("Nina", "25"), ("Omar", "27"), ("Marc", "32")]
    assert Game.objects.get().score().totals == {"Léa": 20, "Marc": 32, "Nina": 25, "Omar": 27}
    shoot(page, "05-finished")

    # Correct round 1: Léa had K♦ 9♣, not K♦ 3♣.
    page.locator("#round-1").get_by_role("link", name="Edit").click()
    expect(page.locator("#id_hand_0")).to_have_value("KD 3C")
    page.locator(".hand .chips button", has_text="3♣").click()
    expect(page.locator("#id_hand_0")).to_have_value("KD")
    page.locator('button[name=pick][value$=":9C"]').click()
    expect(page.locator("#id_hand_0")).to_have_value("KD 9C")
    assert_fits_the_phone(page)
    shoot(page, "06-edit-round")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("#round-1")).to_contain_text("edited")
    # Léa's 9 is over 5: the call fails, Nina (5) scores 0 as she is under Léa.
    assert Game.objects.get().score().totals == {"Léa": 29, "Marc": 32, "Nina": 20, "Omar": 27}
    expect(page.locator(".winners")).to_contain_text("Winner: Nina")
    assert totals(page) == [("Nina", "20"), ("Omar", "27"), ("Léa", "29"), ("Marc", "32")]
    shoot(page, "07-after-edit")


def test_dutch_toulousain_penalty_cards_with_the_picker(page: Page, live_server):
    game = Game.objects.create(variant="dutch_toulousain", players=["Léa", "Marc", "Nina"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    pick(page, "Léa", "6C")
    pick(page, "Marc", "3H")
    pick(page, "Nina", "KH", "2S")
    page.locator(".calls label", has_text="Léa").click()
    page.get_by_role("button", name="Pick the penalty cards").click()
    expect(page.locator(".callout")).to_have_text("The dutcher must draw 2 penalty cards.")
    page.locator('button[name=pick][value="pc:4D"]').click()
    page.locator('button[name=pick][value="pc:QC"]').click()
    expect(page.locator("#id_penalty_cards")).to_have_value("4D QC")
    shoot(page, "08-penalty-cards")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator(".round-form h2")).to_have_text("Round 2")
    expect(page.locator(".deal")).to_have_text("Léa deals, Nina plays first.")


def test_the_sheet_works_without_javascript_in_french(browser, live_server):
    """No JavaScript, a 360 px phone, and the default language: French."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(f"{live_server.url}/new/koubo/")
    page.fill("#id_name_0", "Léa")
    page.fill("#id_name_1", "Marc")
    page.get_by_role("button", name="Retirer le joueur 4").click()  # a full page round trip
    page.get_by_role("button", name="Retirer le joueur 3").click()
    page.get_by_role("button", name="Commencer la partie").click()
    pick(page, "Léa", "7S")
    pick(page, "Marc", "QD")
    page.get_by_role("button", name="Enregistrer la manche 1").click()
    expect(page.locator(".round-form h2")).to_have_text("Manche 2")
    assert Game.objects.get().score().totals == {"Léa": 7, "Marc": 3}
    assert_fits_the_phone(page)
    context.close()


def test_another_phone_sees_a_new_round_within_5_seconds_without_reloading(
    page: Page, live_server, browser
):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    page.locator("summary", has_text="Show the scores on other phones").click()
    expect(page.locator(".qr svg")).to_be_visible()
    shoot(page, "09-share-qr")
    share_url = page.locator(".share-url").inner_text()

    viewer = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    statuses: list[int] = []
    viewer.on(
        "response",
        lambda r: statuses.append(r.status) if r.url.endswith("/live/") else None,
    )
    viewer.goto(share_url)
    viewer.evaluate("window.notReloaded = true")
    expect(viewer.locator(".callout")).to_contain_text("lecture seule")  # French by default
    viewer.wait_for_timeout(3500)  # at least one poll of an unchanged game
    assert 304 in statuses and 200 not in statuses

    for i, total in enumerate(["3", "12", "8"]):
        page.fill(f"#id_hand_{i}", total)
    page.locator(".calls label", has_text="Léa").click()
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator(".round-form h2")).to_have_text("Round 2")

    expect(viewer.locator("#history")).to_contain_text("Manche 1", timeout=5000)
    expect(viewer.locator(".standing").first).to_contain_text("Léa")
    assert viewer.evaluate("window.notReloaded") is True
    assert 200 in statuses
    shoot(viewer, "10-share-view")
    viewer.context.close()
