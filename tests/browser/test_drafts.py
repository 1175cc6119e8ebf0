"""Nothing typed is lost (drafts.js): the round being entered comes back after a reload, the
language switch, the rules and Back, closing the browser; it goes once saved or cleared, and
never shows on another game. The ± key enters negatives without a minus key. Touch phones at
390×844 and 360×740, in French and English."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from scoring.referee import engine
from scoring.store.models import Game, Round
from tests.browser.helpers import (
    assert_fits_the_phone,
    draft_holds,
    no_draft_left,
    shoot,
    step,
    tap_card,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXT = {
    "en": {"save": "Save round {n}", "round": "Round {n}", "rules": "Cards & rules"},
    "fr": {
        "save": "Enregistrer la manche {n}",
        "round": "Manche {n}",
        "rules": "Cartes et règles",
    },
}


def speak(page: Page, live_server, language: str) -> None:
    host = urlsplit(live_server.url).hostname
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "domain": host, "path": "/"}]
    )


def type_a_round(page: Page) -> None:
    """Léa's 7♥ picked, Marc's 9 typed, Nina's −3 with the ± key, Léa called, Marc −2
    penalty points (± again) for peeking."""
    tap_card(page, "7H")
    page.locator("#id_total_1").tap()
    page.keyboard.type("9")
    page.locator('.hand[data-seat="2"] button[name=negate]').tap()
    page.keyboard.type("3")  # the keypad stayed on Nina's total: no minus key needed
    page.locator(".calls label", has_text="Léa").first.tap()
    page.locator("details.extras summary").tap()
    page.locator("#id_penalty-0-player").select_option("Marc")
    page.locator('button[name=negate][value="penalty-0-points"]').tap()
    page.keyboard.type("2")
    page.locator("#id_penalty-0-reason").tap()
    page.keyboard.type("peeked")
    draft_holds(page, "peeked")


def assert_round_shown(page: Page) -> None:
    expect(page.locator('.hand[data-seat="0"] .chips')).to_contain_text("7♥")
    expect(page.locator("#id_total_1")).to_have_value("9")
    expect(page.locator("#id_total_2")).to_have_value("-3")
    expect(page.locator('input[name=caller][value="Léa"]')).to_be_checked()
    expect(page.locator("#id_penalty-0-player")).to_have_value("Marc")
    expect(page.locator("#id_penalty-0-points")).to_have_value("-2")
    expect(page.locator("#id_penalty-0-reason")).to_have_value("peeked")
    expect(page.locator("details.extras")).to_have_attribute("open", "")


def test_a_round_being_typed_survives_reload_language_rules_and_closing(
    phone: Page, live_server, browser
):
    language = "fr"
    page = phone
    speak(page, live_server, language)
    text = TEXT[language]
    game = Game.objects.create(variant="cabo_bruxellois", players=["Léa", "Marc", "Nina"])
    other = Game.objects.create(variant="cabo_bruxellois", players=["Léa", "Marc", "Nina"])
    sheet = f"{live_server.url}/g/{game.edit_key}/"
    page.goto(sheet)
    type_a_round(page)
    size = f"{page.viewport_size['width']}-{language}"
    shoot(page, f"21-draft-typed-{size}")

    page.reload()
    assert_round_shown(page)

    other_language = "en" if language == "fr" else "fr"
    page.locator(f"form.lang button[value={other_language}]").tap()
    expect(page.locator("html")).to_have_attribute("lang", other_language)
    assert_round_shown(page)
    page.locator(f"form.lang button[value={language}]").tap()
    expect(page.locator("html")).to_have_attribute("lang", language)
    assert_round_shown(page)

    page.get_by_role("link", name=text["rules"]).tap()
    page.wait_for_url("**/rules/**")
    page.go_back()
    assert_round_shown(page)
    page.get_by_role("link", name=text["rules"]).tap()
    page.wait_for_url("**/rules/**")
    page.go_back()
    page.reload()  # Back to a page no longer in memory
    assert_round_shown(page)

    page.goto(f"{live_server.url}/g/{other.edit_key}/")  # never shown on another game
    expect(page.locator("#id_total_1")).to_have_value("")
    expect(page.locator('input[name=caller][value=""]')).to_be_checked()

    # The browser closed and opened again: what it keeps on disk, in a new browser.
    kept = page.context.storage_state()
    page.context.close()
    again = browser.new_context(
        storage_state=kept,
        viewport=page.viewport_size,
        has_touch=True,
        is_mobile=True,
    )
    page = again.new_page()
    page.goto(sheet)
    assert_round_shown(page)
    shoot(page, f"22-draft-back-{size}")

    page.get_by_role("button", name=text["save"].format(n=1)).tap()
    expect(page.locator(".round-form h2")).to_have_text(text["round"].format(n=2))
    stored = Round.objects.get(game=game).data
    assert stored["hands"] == {"Léa": ["7H"], "Marc": 9, "Nina": -3}
    assert stored["caller"] == "Léa"
    assert stored["penalties"] == [{"player": "Marc", "points": -2, "reason": "peeked"}]
    no_draft_left(page)
    page.reload()
    expect(page.locator(".round-form h2")).to_have_text(text["round"].format(n=2))
    expect(page.locator("#id_total_1")).to_have_value("")
    expect(page.locator("#id_total_2")).to_have_value("")
    again.close()


def test_a_card_removed_from_a_hand_stays_removed_after_a_reload(phone: Page, live_server):
    """A tap on a chip's ✕ removes the card from the draft too (the chip itself is gone once
    tapped: the draft had kept the card, and a reload brought it back into the hand)."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina"])
    phone.goto(f"{live_server.url}/g/{game.edit_key}/")
    for code in ("KH", "AS", "5D"):
        tap_card(phone, code)
    draft_holds(phone, "KH AS 5D")
    phone.locator('.hand[data-seat="0"] .chips button[data-card="5D"]').tap()
    expect(phone.locator('.hand[data-seat="0"] .total')).to_have_text("1")
    draft_holds(phone, '"KH AS"')
    phone.reload()
    expect(phone.locator("#id_cards_0")).to_have_value("KH AS")
    expect(phone.locator('.hand[data-seat="0"] .chips button')).to_have_count(2)
    expect(phone.locator('.hand[data-seat="0"] .total')).to_have_text("1")
    expect(phone.locator(".picker button[value='5D']")).to_be_enabled()


def test_clear_empties_the_form_and_its_draft(phone: Page, live_server):
    game = Game.objects.create(variant="koubo", players=["Léa", "Marc", "Nina"])
    phone.goto(f"{live_server.url}/g/{game.edit_key}/")
    type_a_round(phone)
    clear = phone.locator(".round-form details.clear")
    clear.get_by_text("Clear", exact=True).tap()  # it asks first: nothing is emptied yet
    expect(clear.get_by_text("Empty everything typed in this form?")).to_be_visible()
    expect(phone.locator("#id_total_1")).not_to_have_value("")
    assert_fits_the_phone(phone)
    shoot(phone, "clear-asks-first")
    clear.get_by_role("link", name="Yes, clear the form").tap()
    expect(clear).not_to_have_attribute("open", "")
    expect(phone.locator("#id_total_1")).to_have_value("")
    # the page stays at the form's heading (the picker moving back to Léa scrolled it away)
    expect(phone.locator(".round-form .round-head h2")).to_be_in_viewport()
    expect(phone.locator(".round-form details.extras")).not_to_have_attribute("open", "")
    expect(phone.locator('.hand[data-seat="0"] .chips')).to_be_empty()
    expect(phone.locator(".picker button[value='7H']")).to_be_enabled()
    no_draft_left(phone)
    phone.reload()
    expect(phone.locator("#id_total_2")).to_have_value("")
    expect(phone.locator('input[name=caller][value=""]')).to_be_checked()
    assert not Round.objects.exists()


def test_a_correction_clears_back_to_the_round_as_stored_or_keeps_its_draft_and_saves(
    phone: Page, live_server
):
    """Clear on a correction brings back the round as stored (the link went to the page's own
    address with #round-form: only a jump to the form, the changes and the question left as
    they were). A correction typed then keeps its draft across a reload, and saves to the
    sheet's address."""
    game = Game.objects.create(variant="koubo", players=["Léa", "Marc"])
    game.add_round(1, engine.RoundEntry(hands={"Léa": 3, "Marc": 5}))
    stored = Round.objects.get()
    edit = f"{live_server.url}/g/{game.edit_key}/rounds/{stored.pk}/edit/"
    phone.goto(edit)
    with step("Clear brings back the round as stored"):
        phone.locator("#id_total_1").fill("12")
        draft_holds(phone, "12")
        clear = phone.locator(".round-form details.clear")
        clear.get_by_text("Clear", exact=True).tap()
        clear.get_by_role("link", name="Yes, clear the form").tap()
        expect(phone.locator("#id_total_1")).to_have_value("5")  # as stored
        expect(phone.locator("#id_total_0")).to_have_value("3")
        expect(phone.locator(".round-form details.clear")).not_to_have_attribute("open", "")
        no_draft_left(phone)
        assert Round.objects.get().data["hands"] == {"Léa": 3, "Marc": 5}

    with step("a correction keeps its draft and saves to the sheet's address"):
        phone.locator("#id_total_0").fill("")
        phone.locator('.hand[data-seat="0"] button[name=negate]').tap()
        phone.keyboard.type("2")
        draft_holds(phone, "-2")
        phone.reload()
        expect(phone.locator("#id_total_0")).to_have_value("-2")
        expect(phone.locator("#id_total_1")).to_have_value("5")
        phone.get_by_role("button", name="Save round 1").tap()
        expect(phone.locator(".round-form h2")).to_have_text("Round 2")
        assert urlsplit(phone.url).path == f"/g/{game.edit_key}/"
        stored.refresh_from_db()
        assert stored.data["hands"] == {"Léa": -2, "Marc": 5}
        no_draft_left(phone)
        phone.goto(edit)
        expect(phone.locator("#id_total_0")).to_have_value("-2")  # as stored, no old draft
        shoot(phone, f"23-correction-{phone.viewport_size['width']}")


def second_scorer(browser, sheet: str) -> Page:
    """Another phone with the edit link, in French at 360×740."""
    other = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True, locale="fr-FR"
    ).new_page()
    other.goto(sheet)
    return other


def test_a_round_saved_by_another_phone_holds_the_hands_typed_here_until_the_table_chooses(
    page: Page, live_server, browser
):
    """Two scorers type round 1: the other phone saves first. This phone is told in
    place, sees the saved round, and its hands stay at round 1 (a Save there is refused) across
    a reload, until a tap saves them as round 2 on purpose."""
    game = Game.objects.create(variant="koubo", players=["Léa", "Marc"])
    sheet = f"{live_server.url}/g/{game.edit_key}/"
    page.goto(sheet)
    page.locator("#id_total_0").tap()
    page.keyboard.type("4")
    page.locator("#id_total_1").tap()
    page.keyboard.type("6")
    draft_holds(page, "6")

    other = second_scorer(browser, sheet)
    other.locator("#id_total_0").fill("1")
    other.locator("#id_total_1").fill("2")
    other.locator(".calls label", has_text="Marc").first.tap()
    other.get_by_role("button", name="Enregistrer la manche 1").tap()
    expect(other.locator(".round-form h2")).to_have_text("Manche 2")
    other.context.close()

    notice = page.locator(".overtaken")
    expect(notice).to_contain_text("Round 1 was just saved from another phone", timeout=10_000)
    expect(page.locator("#round-1")).to_be_visible()  # the saved round, on the sheet
    expect(page.locator(".round-form h2")).to_have_text("Round 1")
    expect(page.locator("#id_total_0")).to_have_value("4")
    expect(page.locator(".save-bar")).to_be_hidden()  # no "Save round 1" beside the notice
    shoot(page, f"24-overtaken-{page.viewport_size['width']}")
    page.reload()
    expect(notice).to_contain_text("Round 1 was just saved from another phone")
    expect(page.locator("#id_total_1")).to_have_value("6")
    expect(page.locator(".save-bar")).to_be_hidden()
    page.locator(".calls label", has_text="Léa").first.tap()
    notice.get_by_role("button", name="Save mine as round 2").tap()
    expect(page.locator(".round-form h2")).to_have_text("Round 3")
    expect(page.locator(".save-bar")).to_be_visible()
    assert [r.data["hands"] for r in Round.objects.order_by("position")] == [
        {"Léa": 1, "Marc": 2},
        {"Léa": 4, "Marc": 6},
    ]
    no_draft_left(page)


def test_a_slow_answer_to_this_phones_own_save_is_not_taken_for_another_phones(
    page: Page, live_server
):
    """The round is stored, but its answer is slow to come back: meanwhile the live part
    already shows it. The phone does not say another phone saved it; the answer moves the
    form on to the next round."""
    game = Game.objects.create(variant="koubo", players=["Léa", "Marc"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    held = []
    page.route(
        "**/g/*/",
        lambda route: held.append(route) if route.request.method == "POST" else route.continue_(),
    )
    page.locator("#id_total_0").tap()
    page.keyboard.type("3")
    page.locator("#id_total_1").tap()
    page.keyboard.type("5")
    page.locator(".calls label", has_text="Léa").first.tap()
    page.get_by_role("button", name="Save round 1").tap()
    for _ in range(50):  # the save, held on its way
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the save was not sent"
    answer = held[0].fetch()  # the server stores the round; its answer waits
    assert Round.objects.count() == 1
    expect(page.locator("#round-1")).to_be_visible(timeout=10_000)  # the live part has it
    page.wait_for_timeout(2_500)  # another poll or two
    expect(page.locator(".overtaken")).to_be_hidden()
    held[0].fulfill(response=answer)
    expect(page.locator(".round-form h2")).to_have_text("Round 2")
    expect(page.locator(".overtaken")).to_be_hidden()
    no_draft_left(page)
    assert Round.objects.count() == 1


def test_the_same_round_typed_on_two_phones_is_stored_once(page: Page, live_server, browser):
    """The issue's evening: both phones type round 1 with the same hands, caller Léa. The
    second Save, held by the live update, is refused at round 1 and stores nothing; a Save that
    met no live update (polls cut) is the same round: stored once, and said so."""
    game = Game.objects.create(variant="koubo", players=["Léa", "Marc"])
    sheet = f"{live_server.url}/g/{game.edit_key}/"
    page.goto(sheet)
    for phone in (page,):
        phone.locator("#id_total_0").fill("3")
        phone.locator("#id_total_1").fill("5")
        phone.locator(".calls label", has_text="Léa").first.tap()
    other = second_scorer(browser, sheet)
    other.route("**/live/", lambda route: route.abort())
    other.locator("#id_total_0").fill("3")
    other.locator("#id_total_1").fill("5")
    other.locator(".calls label", has_text="Léa").first.tap()

    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".round-form h2")).to_have_text("Round 2")
    other.get_by_role("button", name="Enregistrer la manche 1").tap()
    expect(other.locator(".messages")).to_contain_text("La manche 1 était déjà enregistrée")
    expect(other.locator(".round-form h2")).to_have_text("Manche 2")
    other.context.close()
    assert Round.objects.count() == 1


def test_a_form_follows_the_live_round_or_holds_what_is_typed_until_discarded(
    page: Page, live_server
):
    """Another phone saves a round: a form with nothing typed moves on to the next round by
    itself; a form with something typed holds it at its round, until "Discard my round"."""
    game = Game.objects.create(variant="koubo", players=["Léa", "Marc"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    with step("nothing typed: the form follows the live round"):
        game.add_round(1, engine.RoundEntry(hands={"Léa": 1, "Marc": 2}))  # another phone
        expect(page.locator("button[name=save]")).to_have_text("Save round 2", timeout=10_000)
        expect(page.locator(".overtaken")).to_be_hidden()

    with step("something typed: held at its round, then discarded"):
        page.locator("#id_total_0").tap()
        page.keyboard.type("4")
        draft_holds(page, "4")
        game.add_round(2, engine.RoundEntry(hands={"Léa": 1, "Marc": 2}))  # another phone
        notice = page.locator(".overtaken")
        notice.get_by_role("button", name="Discard my round").tap(timeout=10_000)
        expect(notice).to_be_hidden()
        expect(page.locator(".round-form h2")).to_have_text("Round 3")
        expect(page.locator("#id_total_0")).to_have_value("")
        no_draft_left(page)
        assert Round.objects.count() == 2


def test_held_hands_let_go_when_that_round_is_deleted_again_or_the_form_is_cleared(
    page: Page, live_server
):
    """Hands held at round 1, which another phone saved: it deletes round 1 again, and the
    notice goes (Save round 1 is back); saved again, then Clear here: the form moves on."""
    game = Game.objects.create(variant="koubo", players=["Léa", "Marc"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    page.locator("#id_total_0").tap()
    page.keyboard.type("5")
    draft_holds(page, "5")
    notice = page.locator(".overtaken")
    with step("that round deleted on the other phone"):
        saved = game.add_round(1, engine.RoundEntry(hands={"Léa": 1, "Marc": 2}))
        expect(notice).to_be_visible(timeout=10_000)
        game.delete_round(saved.pk)
        expect(notice).to_be_hidden(timeout=10_000)
        expect(page.locator(".save-bar")).to_be_visible()
        expect(page.locator("button[name=save]")).to_have_text("Save round 1")
        expect(page.locator("#id_total_0")).to_have_value("5")
    with step("saved again, then cleared here"):
        game.add_round(1, engine.RoundEntry(hands={"Léa": 1, "Marc": 2}))
        expect(notice).to_be_visible(timeout=10_000)
        page.locator("details.clear summary").tap()
        page.locator("a[data-clear]").tap()
        expect(notice).to_be_hidden()
        expect(page.locator(".round-form h2")).to_have_text("Round 2")
        expect(page.locator(".save-bar")).to_be_visible()
        no_draft_left(page)


def test_a_game_ended_on_another_phone_takes_the_form_away(page: Page, live_server):
    """Dutch's open-ended game, ended by the other scorer: no Save round 2 is left to tap."""
    game = Game.objects.create(variant="dutch", players=["Léa", "Marc"])
    game.add_round(1, engine.RoundEntry(hands={"Léa": 1, "Marc": 2}, caller="Léa"))
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    page.locator("#id_total_0").tap()
    page.keyboard.type("4")
    Game.objects.get(pk=game.pk).end()  # another phone
    expect(page.locator("#live-top .winners")).to_be_visible(timeout=10_000)
    expect(page.locator("#round-form")).to_have_count(0)
    expect(page.locator("main")).to_contain_text("The game is over: no more rounds can be added.")
    no_draft_left(page)


def test_a_round_saved_elsewhere_first_keeps_mine_as_the_next_until_discarded(
    page: Page, live_server
):
    """No live update came (polls refused): the save meets the conflict, the draft follows the
    hands to the next round number, and "Discard my round" drops it."""
    game = Game.objects.create(variant="koubo", players=["Léa", "Marc"])
    page.route("**/live/", lambda route: route.abort())
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    page.locator("#id_total_0").tap()
    page.keyboard.type("4")
    page.locator("#id_total_1").tap()
    page.keyboard.type("6")
    page.locator(".calls label", has_text="Léa").first.tap()
    game.add_round(1, engine.RoundEntry(hands={"Léa": 1, "Marc": 2}))  # another phone
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".conflict")).to_contain_text("Round 1 was saved from another phone")
    expect(page.locator(".round-form h2")).to_have_text("Round 2")
    draft_holds(page, '"number":"2"')
    page.reload()
    expect(page.locator(".round-form h2")).to_have_text("Round 2")
    expect(page.locator("#id_total_1")).to_have_value("6")
    page.get_by_role("button", name="Save round 2").tap()
    expect(page.locator(".round-form h2")).to_have_text("Round 3")
    no_draft_left(page)
    assert Round.objects.count() == 2

    page.locator("#id_total_0").tap()
    page.keyboard.type("5")
    game.add_round(3, engine.RoundEntry(hands={"Léa": 1, "Marc": 2}))
    page.locator("#id_total_1").tap()
    page.keyboard.type("7")
    page.locator(".calls label", has_text="Léa").first.tap()
    page.get_by_role("button", name="Save round 3").tap()
    page.get_by_role("link", name="Discard my round").tap()
    expect(page.locator(".round-form h2")).to_have_text("Round 4")
    expect(page.locator("#id_total_0")).to_have_value("")
    no_draft_left(page)
    assert Round.objects.count() == 3


def test_the_round_that_ended_the_game_leaves_no_draft_for_the_next(phone: Page, live_server):
    """A round that takes a player past the limit ends the game (its answer has no form); once
    a correction reopens the game, the next round's form is empty, not that round again."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"], settings={"limit": 20})
    phone.goto(f"{live_server.url}/g/{game.edit_key}/")
    phone.locator("#id_total_0").fill("3")
    phone.locator("#id_total_1").fill("30")
    phone.locator(".calls label", has_text="Léa").first.tap()
    draft_holds(phone, "30")
    phone.get_by_role("button", name="Save round 1").tap()
    expect(phone.locator(".result .winners")).to_contain_text("Léa")
    no_draft_left(phone)
    phone.locator("#round-1").get_by_role("link", name="Edit").tap()
    phone.locator("#id_total_1").fill("5")
    phone.get_by_role("button", name="Save round 1").tap()
    expect(phone.locator(".round-form h2")).to_have_text("Round 2")
    expect(phone.locator("#id_total_0")).to_have_value("")
    expect(phone.locator("#id_total_1")).to_have_value("")
    expect(phone.locator('.calls input[value=""]').first).to_be_checked()  # Nobody


def test_totals_typed_before_the_scripts_start_survive_a_reload(phone: Page, live_server):
    """A quick thumb on a slow phone: the totals are typed while round.js is still on its way
    (held here until they are in); once it runs, they are kept as a draft and a reload shows
    them."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina"])
    held = []
    phone.route("**/js/round*.js", lambda route: held.append(route))
    phone.goto(f"{live_server.url}/g/{game.edit_key}/", wait_until="commit")
    for seat, total in enumerate(["5", "12", "7"]):
        phone.locator(f"#id_total_{seat}").tap()
        phone.keyboard.type(total)
    assert held, "round.js was not asked for while the totals were typed"
    for route in held:
        route.continue_()
    phone.unroute("**/js/round*.js")
    phone.wait_for_function(
        "() => Object.keys(localStorage).some((k) => k.startsWith('tamalou-ref:draft:'))"
    )
    draft_holds(phone, "12")
    phone.reload()
    for seat, total in enumerate(["5", "12", "7"]):
        expect(phone.locator(f"#id_total_{seat}")).to_have_value(total)


def test_a_new_game_being_typed_survives_a_reload_and_the_language_switch(phone: Page, live_server):
    """The new-game form as it was left (its rows, names, dealer and a house rule) after a
    reload and the FR/EN switch; sent, it is dropped: the next new game starts empty."""
    page = phone
    page.goto(f"{live_server.url}/new/tamalou/")
    for row, name in enumerate(("Léa", "Marc", "Nina", "Omar")):
        page.locator(f"#id_name_{row}").fill(name)
    page.get_by_role("button", name="Add a player").tap()
    page.keyboard.type("Zoé")
    page.get_by_role("button", name="Player 2 deals first").tap()
    page.locator("#builder summary").tap()
    page.locator('button[name="step"][value="joker_value:-1"]').tap()
    joker = page.locator("#id_joker_value")
    changed = joker.input_value()
    names = ["Léa", "Marc", "Nina", "Omar", "Zoé"]

    def as_left() -> None:
        shown = page.locator(".player-row:not([hidden]) input")
        expect(shown).to_have_count(5)
        for row, name in enumerate(names):
            expect(shown.nth(row)).to_have_value(name)
        expect(page.locator("#players button[data-row='deal-1']")).to_have_attribute(
            "aria-pressed", "true"
        )
        expect(joker).to_have_value(changed)

    page.reload()
    as_left()
    page.locator("form.lang button[value=fr]").tap()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    as_left()
    assert_fits_the_phone(page)
    page.get_by_role("button", name="Commencer la partie").tap()
    expect(page.locator(".round-form h2")).to_have_text("Manche 1")
    game = Game.objects.get()
    assert game.players == names and game.first_dealer == 1
    assert game.settings == {"joker_value": int(changed)}
    page.goto(f"{live_server.url}/new/tamalou/")
    expect(page.locator("#id_name_0")).to_have_value("")
