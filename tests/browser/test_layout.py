"""The phone's layout (360–430 px wide, one thumb, tapping): a table's next game opens with its
house settings folded into one line and "Start the game" on the first screen, still sent
when folded and still changed when unfolded, with JavaScript or without; a busy table's
page, the statistics page and a sheet of eight players fit the phone, no cell of their
tables cut off."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from scoring.store.models import Game, Round
from tests.browser.helpers import (
    SCREENSHOTS,
    SHOOTING,
    assert_fits_the_phone,
    busy_table,
    shoot,
)
from tests.web.helpers import HOUSE, HOUSE_SEATS, finished_dutch_game, house_table

# Every cell of the page's tables that leaves the screen, or whose text leaves its cell
# (a header kept only for screen readers, 1 px wide, is not shown).
CUT_OFF = """() => [...document.querySelectorAll('main table')].flatMap((table) =>
  [...table.querySelectorAll('caption, th, td')].filter((cell) => {
    const box = cell.getBoundingClientRect();
    if (box.width <= 1 || !cell.offsetParent) return false;
    return box.left < 0 || box.right > innerWidth + 0.5 || cell.scrollWidth > cell.clientWidth + 1;
  }).map((cell) => cell.outerHTML.slice(0, 100)))"""


def phone_in(browser: Browser, live_server, width, height, language, js=True, scheme="light"):
    """A touch phone of that size, in that language (the switch's cookie), JavaScript on or
    off, in the light or dark theme."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
        java_script_enabled=js,
        locale={"fr": "fr-FR", "en": "en-GB"}[language],
        color_scheme=scheme,
    )
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [{"name": "django_language", "value": language, "domain": host, "path": "/"}]
    )
    return context


# --- the next game from a table ---------------------------------------------------------------


def start_box_bottom(page: Page) -> float:
    box = page.locator("#new-game > button.primary.wide").bounding_box()
    assert box is not None
    return box["y"] + box["height"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_tables_next_game_starts_on_the_first_screen_its_house_rules_in_one_line(
    browser: Browser, live_server
):
    """In French at 360×740, where the line is longest and the screen shortest."""
    width, height, language = 360, 740, "fr"
    # "reset" in French is the referee's word (the .po), whichever it is.
    line = re.compile("^Règles de la maison\u202f: manches 3, limite 100, \\S+ 100 → 50\\s*$")
    table = house_table()
    context = phone_in(browser, live_server, width, height, language)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{table.edit_key}/")
    page.locator("#table-actions a.primary").tap()  # New game at this table
    expect(page.locator("#id_name_3")).to_have_value("Omar")
    assert start_box_bottom(page) <= height  # Start the game, without scrolling
    assert page.evaluate("scrollY") == 0
    builder = page.locator("#builder")
    expect(builder).not_to_have_attribute("open", "")
    expect(builder.locator("summary")).to_have_text(line, use_inner_text=True)
    assert_fits_the_phone(page)
    shoot(page, f"phone-next-game-{language}-{width}")
    # Started as it opens: the folded house rules are sent with the players.
    page.locator("#new-game > button.primary.wide").tap()
    expect(page.locator(".round-form h2")).to_be_visible()
    game = Game.objects.order_by("-pk").first()
    assert game.settings == HOUSE and game.players == HOUSE_SEATS and game.table == table
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("js", [True, False], ids=["javascript", "no-javascript"])
def test_the_folded_house_rules_unfold_and_change(browser: Browser, live_server, js):
    table = house_table()
    context = phone_in(browser, live_server, 360, 740, "en", js=js)
    page = context.new_page()
    page.goto(f"{live_server.url}/new/tamalou/?table={table.edit_key}")
    assert start_box_bottom(page) <= 740
    page.locator("#builder summary").tap()
    expect(page.locator("#builder")).to_have_attribute("open", "")
    summary = page.locator("#builder summary")
    expect(summary).to_have_text("House rules", use_inner_text=True)  # the fields say them
    expect(page.locator("#id_limit")).to_have_value("100")
    page.locator("#id_limit").fill("150")
    page.locator("#id_rounds").fill("")
    shoot(page, f"phone-next-game-unfolded-{'js' if js else 'nojs'}-360")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".round-form h2")).to_be_visible()
    game = Game.objects.order_by("-pk").first()
    assert game.table == table
    assert game.settings == {"limit": 150, "reset": {"at": 100, "to": 50}}
    context.close()


# --- wide tables -----------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_busy_tables_page_and_its_statistics_fit_the_small_phone(browser: Browser, live_server):
    """In French at 360×740, where the longer words have the least room."""
    width, height, language = 360, 740, "fr"
    table = busy_table()
    context = phone_in(browser, live_server, width, height, language)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{table.edit_key}/?a=L%C3%A9a&b=Marc-Antoine")
    expect(page.locator("#standings tbody tr")).to_have_count(6)
    expect(page.locator("#duel table")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(CUT_OFF) == []
    # Each player's round figures say what they are.
    first = page.locator("#standings tbody tr").first
    expect(first.locator("td[data-label]").nth(1)).to_have_attribute("data-label", "Main moyenne")
    assert_fits_the_phone(page)
    shoot(page, f"phone-table-{language}-{width}")
    if SHOOTING:
        page.locator("#standings").screenshot(
            path=SCREENSHOTS / f"phone-table-standings-{language}-{width}.png"
        )

    for game in table.games.all():  # this phone's games
        page.goto(f"{live_server.url}/g/{game.edit_key}/")
    page.goto(f"{live_server.url}/stats/")
    expect(page.locator("table.over-time")).to_have_count(2)  # five players, and six
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(CUT_OFF) == []
    expect(page.locator("table.by-game td.won").first).to_contain_text("★")
    assert_fits_the_phone(page)
    shoot(page, f"phone-stats-{width}")
    if SHOOTING:
        page.locator("table.over-time").first.screenshot(
            path=SCREENSHOTS / f"phone-stats-over-time-{width}.png"
        )
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_sheet_of_eight_long_names_fits_the_small_phone(page: Page, live_server):
    names = ["Marie-Bérénice", "Jean-Christophe", "Nina", "Omar", "Paul", "Léa", "Maximilien"]
    game = finished_dutch_game([*names, "Zoé"])
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.url}/g/{game.edit_key}/rounds/")  # every round whole
    expect(page.locator(".round table")).to_have_count(game.rounds.count())
    expect(page.locator(".calls-table")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate(CUT_OFF) == []
    shoot(page, "phone-sheet-eight-players-360")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_match_of_four_shows_every_name_over_its_column_on_the_small_phone(
    browser: Browser, live_server
):
    """Tambouille's turn rounds in French at 360 px: "Tour", four names and the edit column."""
    game = Game.objects.create(variant="tambouille", players=["Léa", "Marc", "Nina", "Omar"])
    for position, counts in enumerate([(14, 12, 19, 11), (9, 3, 12, 8)], start=1):
        hands = dict(zip(game.players, counts, strict=True))
        Round.objects.create(game=game, position=position, data={"hands": hands})
    context = phone_in(browser, live_server, 360, 740, "fr")
    page = context.new_page()
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    expect(page.locator(".turns thead th").nth(4)).to_have_text("Omar")
    assert page.evaluate(CUT_OFF) == []
    context.close()
