"""Installable, and useful when the connection drops, on a touch phone at 390×844: the manifest
and the service worker, reading kept pages offline in the phone's language, a round entered
offline that survives closing the browser and is saved once when the connection returns, and
a round another phone saved meanwhile, both shown and the table's choice applied."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring.store.models import Game, Round
from tests.browser.conftest import CHROMIUM
from tests.browser.helpers import (
    SCREENSHOTS,
    SHOOTING,
    assert_fits_the_phone,
    controlled,
    draft_holds,
    kept,
    no_draft_left,
    shoot,
    step,
    tap_card,
    totals,
)
from tests.helpers import rnd

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.browser_context_args(service_workers="allow"),  # what the worker keeps
]

PLAYERS = ["Léa", "Marc", "Nina", "Omar"]

PHONE_LANGUAGE = """async (language) => {
  const deadline = Date.now() + 15000;
  while (Date.now() < deadline) {
    const known = await (await caches.open("tamalou-meta")).match("/sw.js?language");
    if (known && (await known.text()) === language) return true;
    await new Promise((tick) => setTimeout(tick, 50));
  }
  return false;
}"""

# The page's scripts never hear that the browser is online again.
NO_ONLINE_EVENT = """{
  const listen = window.addEventListener;
  window.addEventListener = function (type, ...rest) {
    if (type !== "online") listen.call(this, type, ...rest);
  };
}"""


def enter_typed_round(page: Page, hands: list[str], caller: str) -> None:
    for seat, total in enumerate(hands):
        page.locator(f"#id_total_{seat}").tap()
        page.keyboard.type(total)
    page.locator(".calls label", has_text=caller).first.tap()


def test_installable_the_manifest_and_a_worker_in_control(page: Page, live_server):
    page.goto(live_server.url)
    manifest = page.evaluate(
        """async () => {
          const response = await fetch(document.querySelector("link[rel=manifest]").href);
          const body = await response.json();
          const icons = [];
          for (const icon of body.icons) {
            const image = await fetch(icon.src);
            icons.push([icon.sizes, icon.purpose || "any", image.status,
                        image.headers.get("Content-Type")]);
          }
          return { status: response.status, type: response.headers.get("Content-Type"),
                   body, icons };
        }"""
    )
    assert manifest["status"] == 200 and manifest["type"] == "application/manifest+json"
    body = manifest["body"]
    assert body["name"] == "Tamalou Ref" and body["short_name"] == "Tamalou"
    assert body["display"] == "standalone" and body["start_url"] == "/"
    assert body["lang"] == "en"
    assert ["192x192", "any", 200, "image/png"] in manifest["icons"]
    assert ["512x512", "any", 200, "image/png"] in manifest["icons"]
    assert ["512x512", "maskable", 200, "image/png"] in manifest["icons"]
    assert controlled(page) == f"{live_server.url}/sw.js"
    scope = page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).scope")
    assert scope == f"{live_server.url}/"
    # "Add to home screen" opens the start page, which the worker keeps like any other.
    assert kept(page, "/")


def test_offline_the_sheet_as_last_shown_and_the_rules_open_as_last_known(page: Page, live_server):
    """The sheet kept follows what the screen shows (a round saved online, without a reload,
    is in it); offline, it opens as last known, and so do the rules pages the worker kept."""
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    game.add_round(1, rnd({"Léa": 3, "Marc": 12, "Nina": 8, "Omar": 20}, caller="Léa"))
    sheet = f"/g/{game.edit_key}/"
    page.goto(live_server.url + sheet)
    controlled(page)
    with step("kept online"):
        assert kept(page, sheet) and kept(page, "/rules/dutch/") and kept(page, "/rules/", "fr")
        enter_typed_round(page, ["5", "2", "9", "11"], "Marc")  # saved online, no reload
        page.get_by_role("button", name="Save round 2").tap()
        expect(page.locator(".round-form h2")).to_have_text("Round 3")
        assert kept(page, sheet, showing='id="round-2"')
        online_totals = totals(page)

    with step("the sheet offline"):
        page.context.set_offline(True)
        page.reload()
        banner = page.locator("#offline-banner")
        expect(banner).to_be_visible()
        expect(banner).to_have_text(re.compile(r"^Offline: last known state, since .*\d{1,2}:\d\d"))
        assert totals(page) == online_totals
        expect(page.locator("#history #round-1")).to_be_visible()
        expect(page.locator("#history #round-2")).to_be_visible()
        expect(page.locator(".round-form h2")).to_have_text("Round 3")
        assert_fits_the_phone(page)
        shoot(page, "20-offline-sheet-390")

    with step("the rules offline"):
        # The sheet's link to its rules carries the house settings: the variant's page opens.
        page.locator(".rules-link").tap()
        expect(page.locator("h1")).to_have_text("Tamalou (classic)")
        expect(banner).to_be_visible()
        page.locator("header.bar").get_by_role("link", name="Rules").tap()
        expect(page.locator("h1")).to_have_text("Rules")  # the list of rules, not the page before
        expect(banner).to_be_visible()
        page.get_by_role("link", name=re.compile(r"^Dutch")).first.tap()
        expect(page.locator("h1")).to_contain_text("Dutch")
        expect(banner).to_contain_text("last known state")
        shoot(page, "21-offline-rules-390")

    with step("back online, though the browser does not say so"):
        # No "online" event (it can come before the network works, or not at all): the
        # server's first answer is enough to bring the sheet as it is now.
        page.add_init_script(NO_ONLINE_EVENT)
        page.goto(live_server.url + sheet)  # the kept copy
        expect(banner).to_contain_text("last known state")
        game.add_round(3, rnd({"Léa": 4, "Marc": 0, "Nina": 6, "Omar": 9}, caller="Marc"))
        page.context.set_offline(False)
        expect(page.locator("#history #round-3")).to_be_visible()
        expect(banner).to_be_hidden()
        expect(page.locator(".round-form h2")).to_have_text("Round 4")
        expect(page.locator(".round-form h2")).to_have_text("Round 4")


def test_offline_pages_follow_the_language_the_phone_chose(page: Page, live_server):
    page.goto(f"{live_server.url}/rules/")
    controlled(page)
    page.get_by_role("button", name="Français").tap()  # the switch: French from now on
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.evaluate(PHONE_LANGUAGE, "fr")
    assert kept(page, "/rules/gabo/", "fr") and kept(page, "/rules/gabo/", "en")

    page.context.set_offline(True)
    page.goto(f"{live_server.url}/rules/gabo/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#offline-banner")).to_have_text(
        re.compile(r"^Hors connexion\u202f: dernier état connu, depuis le ")
    )


def test_the_home_page_keeps_the_last_sheet_of_every_game_of_the_phone(page: Page, live_server):
    games = [Game.objects.create(variant="tamalou", players=PLAYERS) for _ in range(2)]
    for game in games:  # the phone opens both: they are its games
        page.goto(f"{live_server.url}/g/{game.edit_key}/")
        controlled(page)
    # Another phone enters a round in the first game; this one only opens its home page.
    Game.objects.get(pk=games[0].pk).add_round(1, rnd({p: 5 for p in PLAYERS}))
    page.goto(live_server.url)
    assert kept(page, f"/g/{games[0].edit_key}/", showing='id="round-1"')
    page.context.set_offline(True)
    page.goto(f"{live_server.url}/g/{games[0].edit_key}/")
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("#history #round-1")).to_be_visible()
    page.goto(f"{live_server.url}/g/{games[1].edit_key}/")
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator(".round-form h2")).to_have_text("Round 1")


def test_a_deploy_replaces_the_kept_files_and_pages(page: Page, live_server, monkeypatch):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    sheet = f"/g/{game.edit_key}/"
    page.goto(live_server.url + sheet)
    first = controlled(page) and page.evaluate("async () => await caches.keys()")
    assert kept(page, sheet)
    old = next(name for name in first if name.startswith("tamalou-static-")).split("-")[-1]

    monkeypatch.setattr("scoring.phone.webapp.code_version", lambda: "0123456789abcdef")  # new code
    Game.objects.get(pk=game.pk).add_round(1, rnd({p: 5 for p in PLAYERS}))
    page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
    names = page.evaluate(
        """async () => {
          const deadline = Date.now() + 60000; // the new worker fetches every rules page first
          while (Date.now() < deadline) {
            const names = await caches.keys();
            if (!names.some((name) => name.endsWith(arguments[0]))) return names;
            await new Promise((tick) => setTimeout(tick, 50));
          }
          return caches.keys();
        }""".replace("arguments[0]", f'"{old}"')
    )
    assert sorted(names) == [
        "tamalou-meta",
        "tamalou-pages-en-0123456789abcdef",
        "tamalou-pages-fr-0123456789abcdef",
        "tamalou-static-0123456789abcdef",
    ]
    assert kept(page, sheet, showing='id="round-1"') == "tamalou-pages-en-0123456789abcdef"
    page.context.set_offline(True)
    page.reload()  # the sheet kept again by the new worker, with its files
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("#history #round-1")).to_be_visible()


def test_a_round_entered_offline_survives_closing_the_browser_and_is_saved_once(
    playwright, browser_type_launch_args, browser_context_args, live_server, tmp_path
):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    sheet = f"{live_server.url}/g/{game.edit_key}/"

    def open_browser():
        context = playwright.chromium.launch_persistent_context(
            tmp_path / "profile",
            **{**browser_type_launch_args, "executable_path": CHROMIUM},
            **{**browser_context_args, "service_workers": "allow"},
        )
        host = live_server.url.split("//", 1)[1].split(":")[0]
        english = {"name": "django_language", "value": "en", "domain": host, "path": "/"}
        context.add_cookies([english])
        return context, context.pages[0] if context.pages else context.new_page()

    context, page = open_browser()
    page.goto(sheet)
    controlled(page)
    assert kept(page, f"/g/{game.edit_key}/")

    context.set_offline(True)
    # Léa's hand with the picker, the others typed.
    tap_card(page, "KD")
    tap_card(page, "3C")
    page.locator(".hand-head .who", has_text="Marc").tap()
    for seat, total in ((1, "12"), (2, "8"), (3, "20")):
        page.locator(f"#id_total_{seat}").tap()
        page.keyboard.type(total)
    page.locator(".calls label", has_text="Léa").first.tap()
    draft_holds(page, "Léa")  # drafts.js came from the worker
    page.get_by_role("button", name="Save round 1").tap()

    pending = page.locator("#pending")
    expect(pending).to_be_visible()
    no_draft_left(page)  # kept offline: no draft of it left
    expect(pending.locator(".pending-round h3")).to_have_text("Round 1")
    expect(pending).to_contain_text("pending: not yet scored by the referee")
    expect(pending.locator(".pending-hands li").first).to_have_text("Léa K♦ 3♣")
    expect(pending.locator(".call")).to_have_text("Léa called Tamalou")
    expect(page.locator(".round-form h2")).to_have_text("Round 2")  # the next one, offline too
    expect(page.locator('input[name="cards_0"]')).to_have_value("")
    assert_fits_the_phone(page)
    shoot(page, "22-offline-round-pending-390")
    assert Round.objects.count() == 0
    context.close()  # the browser is closed with the round on the phone

    context, page = open_browser()
    context.set_offline(True)
    page.goto(sheet)  # the kept sheet, with the round still pending
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("#pending .pending-round h3")).to_have_text("Round 1")
    assert Round.objects.count() == 0

    context.set_offline(False)  # the connection returns: the round is sent and scored
    expect(page.locator("#history #round-1")).to_be_visible()
    expect(page.locator("#pending")).to_be_hidden()
    expect(page.locator("#offline-banner")).to_be_hidden()
    assert totals(page) == [("Léa", "0"), ("Nina", "8"), ("Marc", "12"), ("Omar", "20")]
    expect(page.locator(".round-form h2")).to_have_text("Round 2")
    page.reload()
    expect(page.locator("#history #round-1")).to_be_visible()
    stored = Round.objects.get()  # exactly once
    assert stored.data["hands"] == {"Léa": ["KD", "3C"], "Marc": 12, "Nina": 8, "Omar": 20}
    assert stored.data["caller"] == "Léa"
    context.close()


def test_a_round_another_phone_saved_meanwhile_is_shown_with_mine_and_the_table_chooses(
    page: Page, live_server
):
    """Three rounds kept offline while another phone saved the same round: each time both are
    shown, and the table keeps theirs and drops mine, adds mine as the next round, or replaces
    theirs with mine."""
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    controlled(page)
    theirs = {"Léa": 5, "Marc": 6, "Nina": 7, "Omar": 9}
    mine = {"Léa": 3, "Marc": 12, "Nina": 8, "Omar": 20}
    conflict = page.locator("#pending .pending-conflict")

    def both_shown(number: int) -> None:
        """Mine kept offline as round ``number``, theirs saved meanwhile: both are shown."""
        page.context.set_offline(True)
        enter_typed_round(page, [str(mine[p]) for p in PLAYERS], "Léa")
        page.get_by_role("button", name=f"Save round {number}").tap()
        expect(page.locator("#pending")).to_be_visible()
        Game.objects.get(pk=game.pk).add_round(number, rnd(theirs))  # another phone
        page.context.set_offline(False)
        expect(conflict).to_be_visible()
        expect(conflict).to_contain_text(f"Round {number} was saved from another phone meanwhile.")
        expect(conflict.locator(".theirs .round")).to_contain_text("Nobody called")
        expect(conflict.locator(".theirs tbody tr").nth(3)).to_contain_text("Omar")
        expect(conflict.locator(".theirs tbody tr").nth(3)).to_contain_text("9")
        expect(page.locator("#pending .pending-hands li").nth(3)).to_have_text("Omar 20")

    def stored() -> list[dict]:
        return [r.data["hands"] for r in Round.objects.order_by("position")]

    with step("keep theirs, drop mine"):
        both_shown(1)
        assert_fits_the_phone(page)
        shoot(page, "23-offline-conflict-390")
        assert stored() == [theirs]
        conflict.get_by_role("button", name="Keep theirs, drop mine").tap()
        expect(page.locator("#pending")).to_be_hidden()
        expect(page.locator("#history #round-1")).to_be_visible()  # the live sheet
        expect(page.locator(".round-form h2")).to_have_text("Round 2")
        assert stored() == [theirs]

    with step("add mine as the next round"):
        both_shown(2)
        conflict.get_by_role("button", name="Add mine as round 3").tap()
        expect(page.locator("#history #round-3")).to_be_visible()
        expect(page.locator("#pending")).to_be_hidden()
        expect(page.locator(".round-form h2")).to_have_text("Round 4")
        assert stored() == [theirs, theirs, mine]

    with step("replace theirs with mine"):
        both_shown(4)
        conflict.get_by_role("button", name="Replace theirs with mine").tap()
        expect(page.locator("#history #round-4")).to_contain_text("edited")
        expect(page.locator("#pending")).to_be_hidden()
        assert stored() == [theirs, theirs, mine, mine]
        assert Round.objects.get(position=4).edits == 1
        page.reload()
        expect(page.locator("#pending")).to_be_hidden()  # nothing left on the phone


def test_a_round_the_referee_refuses_comes_back_into_the_form(page: Page, live_server):
    page.set_viewport_size({"width": 360, "height": 740})  # the smaller phone
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    controlled(page)
    page.context.set_offline(True)
    enter_typed_round(page, ["3", "12", "8"], "Léa")  # Omar's hand forgotten
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("#pending")).to_be_visible()
    page.context.set_offline(False)

    refused = page.locator("#pending .pending-refused")
    expect(refused).to_be_visible()
    expect(refused.locator(".refusals")).to_have_text(
        "Omar: Enter this player's cards or hand total."
    )
    assert_fits_the_phone(page)
    shoot(page, "24-offline-refused-360")
    refused.get_by_role("button", name="Correct it in the form").tap()
    expect(page.locator("#pending")).to_be_hidden()
    expect(page.locator(".round-form h2")).to_have_text("Round 1")
    expect(page.locator("#id_total_1")).to_have_value("12")
    page.locator("#id_total_3").tap()
    page.keyboard.type("20")
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".round-form h2")).to_have_text("Round 2")
    assert Round.objects.get().data["hands"] == {"Léa": 3, "Marc": 12, "Nina": 8, "Omar": 20}


def test_offline_a_match_sheet_opens_and_a_turn_round_says_it_is_not_saved(page: Page, live_server):
    game = Game.objects.create(variant="tambouille", players=["Léa", "Marc"])
    sheet = f"/g/{game.edit_key}/"
    page.goto(live_server.url + sheet)
    controlled(page)
    assert kept(page, sheet)

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("#clock .turn")).to_have_text("Marc is thinking")
    page.locator("#id_count_0").tap()
    page.keyboard.type("21")
    page.locator("#id_count_1").tap()
    page.keyboard.type("17")
    page.get_by_role("button", name="Save turn round 1").tap()
    expect(page.locator("#counts-form .offline-alert")).to_contain_text(
        "No connection: this turn round is not saved."
    )
    expect(page.locator("#id_count_0")).to_have_value("21")
    expect(page.locator("#id_count_1")).to_have_value("17")

    page.context.set_offline(False)  # back online: the counts typed stay (no reload)
    page.evaluate("() => new Promise((done) => setTimeout(done, 0))")
    expect(page.locator("#id_count_0")).to_have_value("21")
    page.get_by_role("button", name="Save turn round 1").tap()
    expect(page.locator("#round-1 td.won")).to_have_text("17")
    assert [r.data for r in game.rounds.all()] == [{"hands": {"Léa": 21, "Marc": 17}}]


def test_rounds_entered_offline_one_after_another_are_each_saved_once(page: Page, live_server):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    controlled(page)
    page.context.set_offline(True)
    for number, hands in ((1, ["3", "12", "8", "20"]), (2, ["7", "2", "9", "11"])):
        enter_typed_round(page, hands, "Nobody")
        page.get_by_role("button", name=f"Save round {number}").tap()
        # Nobody called: the phone asks first, as the server would, and keeps nothing yet.
        question = page.locator(".calls .who-called")
        expect(question).to_be_in_viewport()
        expect(question).to_have_attribute("role", "alert")
        expect(page.locator("#pending .pending-round")).to_have_count(number - 1)
        expect(page.locator("#id_total_3")).to_have_value(hands[3])
        if number == 1:
            shoot(page, "25-offline-nobody-called-390")
        question.get_by_role("button", name="Save: nobody called").tap()
        expect(page.locator(".round-form h2")).to_have_text(f"Round {number + 1}")
        expect(question).to_be_hidden()  # the next round is not asked about yet
    expect(page.locator("#pending .pending-round")).to_have_count(2)
    expect(page.locator("#pending .call").first).to_have_text("Nobody called")
    assert Round.objects.count() == 0

    page.context.set_offline(False)
    expect(page.locator("#history #round-2")).to_be_visible()
    expect(page.locator("#pending")).to_be_hidden()
    expect(page.locator("#offline-banner")).to_be_hidden()
    assert [r.data["hands"] for r in Round.objects.order_by("position")] == [
        {"Léa": 3, "Marc": 12, "Nina": 8, "Omar": 20},
        {"Léa": 7, "Marc": 2, "Nina": 9, "Omar": 11},
    ]


@pytest.mark.parametrize(
    ("language", "size", "emptied", "shown"),
    [
        ("en", (390, 844), ["Nina"], ["Emptied hand: Nina", "Penalty points", "Marc +5 (late)"]),
        (
            "fr",
            (360, 740),
            ["Léa", "Nina"],
            ["Mains vidées\u202f: Léa et Nina", "Points de pénalité", "Marc +5 (en retard)"],
        ),
    ],
)
def test_a_round_kept_offline_shows_its_emptied_hands_and_penalty_points(
    page: Page, live_server, language, size, emptied, shown
):
    """The kept card says all the round holds, in the page's language: beside the hands and
    the caller, who emptied their hand and each penalty with its reason, as they are saved."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    host = live_server.url.split("//", 1)[1].split(":")[0]
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "domain": host, "path": "/"}]
    )
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    controlled(page)
    page.context.set_offline(True)
    enter_typed_round(page, ["0", "12", "0", "20"], "Léa")
    page.locator(".extras summary").tap()
    for name in emptied:
        page.locator(".extras label", has_text=name).tap()
    page.locator("select[name=penalty-0-player]").select_option("Marc")
    page.locator("input[name=penalty-0-points]").tap()
    page.keyboard.type("5")
    page.locator("input[name=penalty-0-reason]").tap()
    reason = shown[2].split("(")[1].rstrip(")")
    page.keyboard.type(reason)
    page.locator("button[name=save]").tap()

    card = page.locator("#pending .pending-round")
    expect(card).to_be_visible()
    expect(card.locator(".pending-emptied")).to_have_text(shown[0])
    expect(card.locator(".pending-penalties p")).to_have_text(shown[1])
    expect(card.locator(".pending-penalties li")).to_have_text([shown[2]])
    assert_fits_the_phone(page)
    card.scroll_into_view_if_needed()
    if SHOOTING:
        page.screenshot(path=SCREENSHOTS / f"25-offline-kept-extras-{language}-{size[0]}.png")

    page.context.set_offline(False)  # sent as kept, and saved as the card said
    expect(page.locator("#history #round-1")).to_be_visible()
    stored = Round.objects.get().data
    assert stored["emptied"] == emptied
    assert stored["penalties"] == [{"player": "Marc", "points": 5, "reason": reason}]
