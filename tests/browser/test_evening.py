"""A table's evening on touch phones (390×844 and 360×740): the share link follows a rematch,
two Rematch taps make one game, a file imported twice is one game, Reopen and Remove with their
confirmations, and a 30-round, 8-player sheet that stays short."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from scoring.referee import engine
from scoring.store.models import Game
from tests.browser.helpers import SCREENSHOTS, SHOOTING, assert_fits_the_phone, shoot, step
from tests.helpers import EXAMPLES, evening_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def in_french(page: Page, live_server) -> None:
    page.context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])


def ended_game(page: Page, base: str) -> Game:
    """An open-ended game of one round, ended by the table, kept on this phone."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina"])
    page.goto(f"{base}/g/{game.edit_key}/")
    for seat, total in enumerate(["3", "12", "8"]):
        page.locator(f"#id_total_{seat}").fill(total)
    page.get_by_role("button", name="Save round 1").tap()
    page.locator("button[name=nobody_called]").tap()  # asked: nobody called this round
    expect(page.locator(".round-form h2")).to_have_text("Round 2")
    page.locator("summary", has_text="End the game now").tap()
    page.get_by_role("button", name="Yes, end the game").tap()
    expect(page.locator(".result .winners")).to_contain_text("Léa")
    return Game.objects.get(pk=game.pk)


def test_the_share_link_follows_a_rematch(phone: Page, live_server, browser):
    size = phone.viewport_size
    game = ended_game(phone, live_server.url)
    viewer = browser.new_context(
        viewport=size, has_touch=True, is_mobile=True, locale="fr-FR"
    ).new_page()
    viewer.goto(f"{live_server.url}/s/{game.share_key}/")
    expect(viewer.locator("#live-top .status")).to_contain_text("Partie terminée")

    phone.get_by_role("button", name="Rematch: same players, the deal moves on").tap()
    expect(phone.locator(".round-form h2")).to_have_text("Round 1")
    rematch = Game.objects.get(pk=game.pk).next_game
    assert phone.url == f"{live_server.url}/g/{rematch.edit_key}/"

    # The viewer's page moves on by itself (its next poll), to the rematch's read-only page.
    expect(viewer).to_have_url(f"{live_server.url}/s/{rematch.share_key}/", timeout=10_000)
    expect(viewer.locator(".callout")).to_contain_text("lecture seule")
    expect(viewer.locator(".round-form")).to_have_count(0)
    assert rematch.edit_key not in viewer.content()
    # And on from the rematch to its own rematch.
    phone.locator("summary", has_text="Rematch").tap()
    phone.get_by_role("button", name="Yes, start a new game").tap()
    expect(phone).not_to_have_url(f"{live_server.url}/g/{rematch.edit_key}/")
    third = Game.objects.get(pk=rematch.pk).next_game
    assert phone.url == f"{live_server.url}/g/{third.edit_key}/"
    expect(viewer).to_have_url(f"{live_server.url}/s/{third.share_key}/", timeout=10_000)
    assert_fits_the_phone(viewer)
    shoot(viewer, f"20-share-followed-the-rematch-{size['width']}")
    # Without JavaScript, the old read-only page links to the next game.
    still = browser.new_context(viewport=size, java_script_enabled=False, locale="fr-FR")
    old = still.new_page()
    old.goto(f"{live_server.url}/s/{game.share_key}/")
    shoot(old, f"20-share-without-javascript-{size['width']}")
    old.get_by_role("link", name="La partie suivante a commencé").click()
    assert old.url == f"{live_server.url}/s/{rematch.share_key}/"
    still.close()
    viewer.context.close()


def test_two_rematch_taps_make_one_game(phone: Page, live_server, browser):
    game = ended_game(phone, live_server.url)
    # The other phone keeps showing the finished game (without JavaScript, no live update
    # replaces its Rematch button with the way to the rematch).
    other = browser.new_context(
        viewport=phone.viewport_size, has_touch=True, is_mobile=True, java_script_enabled=False
    )
    second_phone = other.new_page()
    second_phone.context.add_cookies(
        [{"name": "django_language", "value": "en", "url": live_server.url}]
    )
    second_phone.goto(f"{live_server.url}/g/{game.edit_key}/")
    button = "Rematch: same players, the deal moves on"
    # A double tap on one phone: the second tap goes out before the first one's answer.
    rematch_button = phone.get_by_role("button", name=button)
    phone.evaluate(
        """(label) => {
          const b = [...document.querySelectorAll("button")]
            .find((e) => e.textContent.trim() === label);
          b.form.requestSubmit(b); b.form.requestSubmit(b);
        }""",
        button,
    )
    expect(phone.locator(".round-form h2")).to_have_text("Round 1")
    assert rematch_button.count() == 0
    # A tap on another phone that still shows the finished game.
    second_phone.get_by_role("button", name=button).tap()
    expect(second_phone.locator(".round-form h2")).to_have_text("Round 1")
    assert Game.objects.count() == 2
    assert second_phone.url == phone.url
    # Back on the finished game: the rematch is offered no more, it is one tap away.
    phone.go_back()
    phone.reload()
    expect(phone.get_by_role("button", name=button)).to_have_count(0)
    phone.get_by_role("link", name="Go to the next game").first.tap()
    expect(phone).to_have_url(second_phone.url)
    assert Game.objects.count() == 2
    other.close()


def test_an_import_twice_makes_one_game(phone: Page, live_server, tmp_path):
    language = "fr"
    in_french(phone, live_server)
    data = json.loads((EXAMPLES / "koubo.game.json").read_text())
    upload = tmp_path / "koubo.json"
    upload.write_text(json.dumps({**data, "id": "evening-42"}))
    button = {"en": "Import", "fr": "Importer"}[language]
    urls = []
    for _ in range(2):
        phone.goto(f"{live_server.url}/import/")
        phone.locator("input[type=file]").set_input_files(upload)
        phone.get_by_role("button", name=button, exact=True).tap()
        expect(phone.locator("#totals")).to_be_visible()
        urls.append(phone.url)
    game = Game.objects.get()
    assert urls == [f"{live_server.url}/g/{game.edit_key}/"] * 2
    phone.goto(f"{live_server.url}/stats/")
    expect(phone.locator(".hint").first).to_contain_text(
        {"en": "From the 1 game this phone knows", "fr": "1"}[language]
    )
    phone.goto(f"{live_server.url}/")
    expect(phone.locator(".games > li")).to_have_count(1)


def confirm(phone: Page, scope, summary: str, yes: str, shot: str) -> None:
    """Tap a button that asks first (``_confirm.html``), look at the question, say yes."""
    scope.locator("summary", has_text=summary).tap()
    expect(scope.get_by_role("button", name=yes)).to_be_visible()
    assert_fits_the_phone(phone)
    shoot(phone, shot)
    scope.get_by_role("button", name=yes).tap()


def test_reopen_and_remove_with_their_confirmations(phone: Page, live_server):
    language = "en"
    words = {
        "en": (
            "Reopen the game",
            "Yes, reopen the game",
            "Round 2",
            "Remove from this phone",
            "Yes, remove it from this phone",
            "The game was removed from this phone.",
        ),
        "fr": (
            "Rouvrir la partie",
            "Oui, rouvrir la partie",
            "Manche 2",
            "Retirer de ce téléphone",
            "Oui, la retirer de ce téléphone",
            "La partie a été retirée de ce téléphone.",
        ),
    }[language]
    reopen, yes_reopen, round_two, remove, yes_remove, removed = words
    game = ended_game(phone, live_server.url)
    if language == "fr":
        in_french(phone, live_server)
        phone.reload()
    size = phone.viewport_size["width"]
    confirm(phone, phone, reopen, yes_reopen, f"21-reopen-confirm-{language}-{size}")
    expect(phone.locator(".round-form h2")).to_have_text(round_two)
    assert not Game.objects.get(pk=game.pk).ended

    phone.goto(f"{live_server.url}/")
    item = phone.locator(".games > li").filter(has=phone.locator(f'a[href="/g/{game.edit_key}/"]'))
    confirm(phone, item, remove, yes_remove, f"22-remove-confirm-{language}-{size}")
    expect(phone.locator(".messages")).to_contain_text(removed)
    expect(phone.locator(f'a[href="/g/{game.edit_key}/"]')).to_have_count(0)
    assert Game.objects.filter(pk=game.pk).exists()
    phone.goto(f"{live_server.url}/s/{game.share_key}/")  # its links still open it
    expect(phone.locator("#totals")).to_be_visible()


def test_a_30_round_8_player_sheet_stays_short(phone: Page, live_server):
    game = evening_game(30, seed=11)
    size = phone.viewport_size
    phone.goto(f"{live_server.url}/g/{game.edit_key}/")
    height = phone.evaluate("document.documentElement.scrollHeight")
    chart_top = phone.locator("#chart").bounding_box()["y"]
    shoot(phone, f"23-long-sheet-{size['width']}")
    # It was 17,000 px, then 7,700 with three rounds whole; 6,750 with the folded rounds points.
    assert height < 7000, height
    assert chart_top < 1000, chart_top  # it was ~2,400 px down
    assert_fits_the_phone(phone)
    shoot(phone, f"23-long-sheet-{size['width']}")
    if SHOOTING:
        phone.screenshot(path=SCREENSHOTS / f"23-long-sheet-{size['width']}-screen.png")
    # An older round: its line opens it, its Edit button is one tap.
    folded = phone.locator("#round-5")
    folded.scroll_into_view_if_needed()
    assert folded.locator("table").count() == 0  # not in the first load
    folded.locator("summary h3").tap()
    expect(folded.locator("table")).to_be_visible()  # fetched when opened
    expect(folded.locator("tbody tr")).to_have_count(8)
    # opened, its rest brings Edit and Delete: the line's own Edit gives way
    expect(folded.get_by_role("link", name="Edit")).to_have_count(1)
    expect(folded.get_by_role("link", name="Delete")).to_have_count(1)
    if SHOOTING:
        phone.screenshot(path=SCREENSHOTS / f"23-long-sheet-{size['width']}-round-5.png")
    phone.locator("#round-2").get_by_role("link", name="Edit").tap()
    expect(phone).to_have_url(re.compile(r"/rounds/\d+/edit/$"))
    expect(phone.locator("h1, h2").first).to_be_visible()
    assert "Round 2" in phone.content()


def test_a_round_a_viewer_opened_stays_open_when_the_sheet_updates_live(phone: Page, live_server):
    game = evening_game(30, seed=12)
    phone.goto(f"{live_server.url}/s/{game.share_key}/")
    folded = phone.locator("#round-5")
    folded.scroll_into_view_if_needed()
    folded.locator("summary h3").tap()
    expect(folded.locator("tbody tr")).to_have_count(8)
    # Another phone saves round 31: the viewer's sheet updates by itself.
    game.add_round(31, engine.RoundEntry(hands=dict.fromkeys(game.players, 3)))
    expect(phone.locator("#round-31")).to_be_attached(timeout=15_000)
    expect(phone.locator("#round-1")).not_to_be_attached()  # the history was redrawn
    expect(folded.locator("details")).to_have_attribute("open", "")
    expect(folded.locator("tbody tr")).to_have_count(8)
    shoot(phone, f"23-opened-round-kept-{phone.viewport_size['width']}")


def test_the_oldest_rounds_a_viewer_brought_stay_when_the_sheet_updates_live(
    phone: Page, live_server
):
    game = evening_game(34, seed=13)
    phone.goto(f"{live_server.url}/s/{game.share_key}/")
    phone.get_by_role("link", name="Show rounds 1 to 4").tap()
    expect(phone.locator("#round-2 tbody tr")).to_have_count(8)  # rounds 1 to 4, whole
    # Another phone saves round 35: the history is redrawn with the newest 30 rounds.
    game.add_round(35, engine.RoundEntry(hands=dict.fromkeys(game.players, 3)))
    expect(phone.locator("#round-35")).to_be_attached(timeout=15_000)
    expect(phone.locator("#round-2 tbody tr")).to_have_count(8)  # brought again
    expect(phone.locator("#round-1")).to_be_attached()
    expect(phone.locator("#history .earlier")).to_have_count(0)


def test_the_share_panel_shares_the_read_only_link_or_copies_it(phone: Page, live_server):
    """Sharing was a QR code and a raw address: no share sheet, no copy button. Where the
    phone has a share sheet, the button opens it with the read-only link; elsewhere (a phone
    in French here) it copies the link."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    link = f"{live_server.url}/s/{game.share_key}/"
    with step("a share sheet"):
        phone.add_init_script(
            "window.shared = []; navigator.share = (data) => { window.shared.push(data.url);"
            " return Promise.resolve(); };"
        )
        phone.goto(f"{live_server.url}/g/{game.edit_key}/")
        button = phone.locator(".share button[data-share]")
        expect(button).to_be_hidden()  # until the panel is opened
        phone.locator("summary", has_text="Show the scores on other phones").tap()
        expect(button).to_have_text("Share the link")
        button.tap()
        assert phone.evaluate("window.shared") == [link]
        assert_fits_the_phone(phone)

    with step("no share sheet, in French"):
        in_french(phone, live_server)
        phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
        phone.add_init_script("delete Navigator.prototype.share; delete navigator.share;")
        phone.reload()
        phone.locator("summary", has_text="Afficher les scores sur d’autres téléphones").tap()
        expect(button).to_have_text("Copier le lien")
        button.tap()
        expect(button).to_have_text("Lien copié")
        assert phone.evaluate("navigator.clipboard.readText()") == link
