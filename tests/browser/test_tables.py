"""A table on two touch phones (390×844 in English, 360×740 in French, tapping): made on one,
opened on the other by its link, games started on either appearing on both, the next game
four taps at most from the home page, and the read-only link that never edits."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring.store.models import Game, Table
from tests.browser.helpers import SCREENSHOTS, SHOOTING, assert_fits_the_phone, shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def taps_to_first_round(page: Page, home: str, table_name: str) -> int:
    """From the home page to the first round of a new game at the table, counting taps."""
    page.goto(home)
    taps = 0
    page.get_by_role("link", name=re.compile(f"· {table_name}")).tap()  # New game · …
    taps += 1
    page.locator("#new-game > button.primary.wide").tap()  # Start the game
    taps += 1
    expect(page.locator(".round-form h2")).to_be_visible()
    return taps


def test_a_table_on_two_phones(page: Page, live_server, browser):
    base = live_server.url
    one = page
    one.set_viewport_size({"width": 390, "height": 844})
    # Phone one makes the table on the home page: its name and five players.
    one.goto(base)
    one.locator("#tables summary", has_text="New table").tap()
    one.locator("#id_name").tap()
    one.keyboard.type("Jeudis chez Léa")
    one.locator("#id_players").tap()
    one.keyboard.type("Léa\nMarc\nNina\nOmar\nPaul")
    assert_fits_the_phone(one)
    one.get_by_role("button", name="Make the table").tap()
    expect(one.locator("h1")).to_have_text("Jeudis chez Léa")
    table = Table.objects.get()
    assert table.players == ["Léa", "Marc", "Nina", "Omar", "Paul"]

    one.goto(base)
    assert_fits_the_phone(one)
    shoot(one, "tables-00-home-390")
    # Home → the first round of a game with the table's five players: two taps.
    taps = taps_to_first_round(one, base, "Jeudis chez Léa")
    assert taps <= 4
    expect(one.locator(".standing .name")).to_have_count(5)
    first = Game.objects.get()
    assert first.table == table and first.players == table.players
    # A round, so that the table has something to add up.
    for seat, total in enumerate(["3", "12", "7", "20", "9"]):
        one.locator(f"#id_total_{seat}").fill(total)
    one.locator(".calls label", has_text="Léa").first.tap()
    one.get_by_role("button", name="Save round 1").tap()
    expect(one.locator(".round-form h2")).to_have_text("Round 2")
    assert_fits_the_phone(one)
    shoot(one, "tables-01-sheet-in-a-table-390")

    # Phone two (French, 360 px) opens the table's own link, sent by phone one.
    two_context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True, locale="fr-FR"
    )
    two = two_context.new_page()
    two.goto(f"{base}/t/{table.edit_key}/")
    expect(two.locator("h1")).to_have_text("Jeudis chez Léa")
    expect(two.locator("#evenings")).to_contain_text("Parties par soirée")
    # Phone one's game, by its read-only link only: phone two does not hold it.
    assert f"/g/{first.edit_key}/" not in two.content()
    expect(two.locator(f'#evenings a[href="/s/{first.share_key}/"]')).to_be_visible()
    assert_fits_the_phone(two)
    shoot(two, "tables-02-table-fr-360")
    # Its home page keeps the table; a game from there takes the names (with the next dealer).
    taps = taps_to_first_round(two, base, "Jeudis chez Léa")
    assert taps <= 4
    second = Game.objects.exclude(pk=first.pk).get()
    assert second.table == table and second.players == table.players
    assert second.first_dealer == 1  # Léa dealt the first game: Marc deals this one

    # Both games on both phones, each phone opening its own game to edit it.
    one.goto(f"{base}/t/{table.edit_key}/")
    expect(one.locator(f'#evenings a[href="/g/{first.edit_key}/"]')).to_be_visible()
    expect(one.locator(f'#evenings a[href="/s/{second.share_key}/"]')).to_be_visible()
    two.goto(f"{base}/t/{table.edit_key}/")
    expect(two.locator(f'#evenings a[href="/g/{second.edit_key}/"]')).to_be_visible()
    expect(two.locator(f'#evenings a[href="/s/{first.share_key}/"]')).to_be_visible()
    expect(one.locator("#standings")).to_contain_text("Léa")
    assert_fits_the_phone(one)
    shoot(one, "tables-03-table-en-390")

    # The table's own link (its QR code), and beside it the read-only link, on a third phone.
    one.locator("details.share summary").tap()
    own_url, read_url = one.locator("details.share .share-url").all_inner_texts()
    assert own_url.endswith(f"/t/{table.edit_key}/")
    one.context.grant_permissions(["clipboard-read", "clipboard-write"])
    one.reload()
    one.locator("details.share summary").tap()
    buttons = one.locator("details.share button[data-share]")
    expect(buttons).to_have_text(["Copy the link", "Copy the link"])
    buttons.nth(1).tap()
    expect(buttons.nth(1)).to_have_text("Link copied")
    assert one.evaluate("navigator.clipboard.readText()") == read_url
    shoot(one, "tables-07-share-390")
    assert read_url.endswith(f"/t/r/{table.read_key}/")
    reader_context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True, locale="en-GB"
    )
    reader = reader_context.new_page()
    reader.goto(read_url)
    html = reader.content()
    assert table.edit_key not in html
    assert first.edit_key not in html and second.edit_key not in html
    expect(reader.get_by_text("New game at this table")).to_have_count(0)
    reader.goto(base)
    expect(reader.locator(f'#tables a[href="/t/r/{table.read_key}/"]')).to_be_visible()
    assert_fits_the_phone(reader)
    shoot(reader, "tables-04-home-read-only-360")

    # Paul is renamed on phone one, once confirmed; phone two sees it in its game.
    one.goto(f"{base}/t/{table.edit_key}/rename/")
    one.locator("#id_old").select_option("Paul")
    one.locator("#id_new").fill("Paulo")
    one.get_by_role("button", name="Rename").tap()
    expect(one.locator("#confirm-rename")).to_contain_text("Paul is renamed Paulo")
    assert_fits_the_phone(one)
    shoot(one, "tables-05-rename-confirm-390")
    one.get_by_role("button", name="Yes, rename").tap()
    expect(one.locator(".messages")).to_contain_text("Paul is now Paulo")
    two.goto(f"{base}/g/{second.edit_key}/")
    expect(two.locator("#totals")).to_contain_text("Paulo")
    two_context.close()
    reader_context.close()


def test_keep_this_table_from_a_games_sheet(page: Page, live_server):
    base = live_server.url
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{base}/new/gabo/")
    for i, name in enumerate(["Zoé", "Yann", "Xavier"]):
        page.locator(f"#id_name_{i}").tap()
        page.keyboard.type(name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".round-form h2")).to_be_visible()
    page.locator("#keep-table summary").tap()
    page.locator("#keep-table #id_name").fill("Les voisins")
    assert_fits_the_phone(page)
    if SHOOTING:
        page.locator("#keep-table").screenshot(
            path=SCREENSHOTS / "tables-06-keep-this-table-360.png"
        )
    page.locator("#keep-table button[type=submit]").tap()
    expect(page.locator("h1")).to_have_text("Les voisins")
    expect(page.locator(".messages")).to_contain_text("The table is kept")
    assert Table.objects.get().players == ["Zoé", "Yann", "Xavier"]
    assert Game.objects.get().table.name == "Les voisins"
