"""WCAG 2.2 AA on every kind of page, in both themes: axe-core (pinned in package-lock.json,
installed by `make js`) finds no violation; a keyboard walk over a sheet never lands on a
control hidden by the sticky save bar; controls are named by what they show; every page says
what it is (meta description, a sheet's link preview) and writes valid machine-readable times."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.store.models import Game, Round, Table
from tests.browser.helpers import NAMES, axe_violations, shoot
from tests.web.helpers import finished_dutch_game

# How much of the focused control is hidden: the share of a grid of points on it where
# another element (not one of its own) is on top, or that lies outside the screen.
HIDDEN_SHARE = """() => {
  const el = document.activeElement;
  const box = el.getBoundingClientRect();
  if (!box.width || !box.height) return {what: el.outerHTML.slice(0, 80), hidden: 0, size: 0};
  let hidden = 0, all = 0;
  for (let i = 1; i < 6; i++) for (let j = 1; j < 6; j++) {
    const x = box.left + box.width * i / 6, y = box.top + box.height * j / 6;
    all++;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) { hidden++; continue; }
    const top = document.elementFromPoint(x, y);
    const label = top && top.closest('label');
    if (!(top && (el.contains(top) || (label && label.contains(el))))) hidden++;
  }
  return {what: el.outerHTML.slice(0, 80), hidden: hidden / all, size: box.width * box.height};
}"""

# The contrast of the chart's SVG labels (axes, landmarks) with the chart's background; the
# page-wide contrast check reads HTML elements only, and axe leaves SVG text out.
CHART_LABELS = """() => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => v / 255)
      .map((v) => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const back = lum(getComputedStyle(document.getElementById('chart')).backgroundColor);
  return [...document.querySelectorAll('#chart text')].map((t) => {
    const a = lum(getComputedStyle(t).fill);
    return [t.textContent, (Math.max(a, back) + 0.05) / (Math.min(a, back) + 0.05)];
  });
}"""


def every_kind_of_page() -> list[str]:
    """A game in progress, a finished game, a Tambouille match, and the pages around them."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina", "Omar"])
    entry = Round.objects.create(
        game=game,
        position=1,
        data={
            "hands": {"Léa": ["KD", "3C"], "Marc": 22, "Nina": ["4S", "AH"], "Omar": 15},
            "caller": "Léa",
        },
    )
    Round.objects.create(
        game=game, position=2, data={"hands": {"Léa": 9, "Marc": 2, "Nina": 14, "Omar": 7}}
    )
    done = finished_dutch_game(["Léa", "Marc", "Nina", "Omar"])
    match = Game.objects.create(variant="tambouille", players=["Léa", "Marc", "Nina"])
    Round.objects.create(game=match, position=1, data={"hands": {"Léa": 3, "Marc": 9, "Nina": 5}})
    table = Table.objects.create(name="Jeudis chez Léa", players=["Léa", "Marc", "Nina", "Omar"])
    for member in (game, done, match):
        table.attach(member)
    return [
        f"/g/{game.edit_key}/",  # visited first: the home page and statistics list them
        f"/g/{done.edit_key}/",
        f"/s/{done.share_key}/",
        f"/g/{match.edit_key}/",
        f"/s/{match.share_key}/",
        f"/g/{game.edit_key}/rounds/{entry.pk}/edit/",
        f"/g/{game.edit_key}/rounds/{entry.pk}/delete/",
        "/",
        "/new/",
        "/new/cabo/",
        "/new/tambouille/",
        "/rules/",
        "/rules/dutch_toulousain/",
        "/rules/tambouille/",
        "/stats/",
        "/import/",
        f"/t/{table.edit_key}/?a=L%C3%A9a&b=Marc",  # a table: its standings, chart, face to face
        f"/t/r/{table.read_key}/",
        f"/t/{table.edit_key}/rename/",
        "/no-such-page/",
    ]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("scheme", "language"),
    [
        pytest.param("light", "en", marks=pytest.mark.browser_context_args(color_scheme="light")),
        pytest.param("dark", "fr", marks=pytest.mark.browser_context_args(color_scheme="dark")),
    ],
)
def test_axe_finds_no_violation_on_any_page_in_either_theme(
    page: Page, live_server, scheme, language
):
    """Light in English, dark in French (the default language)."""
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
    host = live_server.url.split("//", 1)[1].split(":")[0]
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "domain": host, "path": "/"}]
    )
    found = {}
    for path in every_kind_of_page():
        page.goto(live_server.url + path)
        names = page.evaluate(NAMES)
        violations = axe_violations(page)
        if page.locator("#chart").count():
            labels = page.evaluate(CHART_LABELS)
            assert len(labels) > 4, path
            violations += [f"chart label {t!r}: {r:.2f}" for t, r in labels if r < 4.5]
        if violations or names:
            found[path] = violations + names
    assert found == {}, "\n".join(f"{p}:\n  " + "\n  ".join(v) for p, v in found.items())


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_axe_finds_no_violation_in_french_with_a_round_being_picked(page: Page, live_server):
    """The default language, and a sheet as the table uses it: cards picked in a hand."""
    host = live_server.url.split("//", 1)[1].split(":")[0]
    page.context.add_cookies(
        [{"name": "django_language", "value": "fr", "domain": host, "path": "/"}]
    )
    game = Game.objects.create(variant="dutch_toulousain", players=["Léa", "Marc"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    for code in ("KD", "3C"):
        page.locator(f'.picker button[value="{code}"]').tap()
    expect(page.locator(".hand.target .chips button")).to_have_count(2)
    expect(page.locator(".hand.target .chips button").first).to_have_accessible_name("R♦, retirer")
    assert page.evaluate(NAMES) == []
    assert axe_violations(page) == []
    page.goto(f"{live_server.url}/")
    expect(page.get_by_role("button", name="EN English")).to_have_text("EN")
    assert axe_violations(page) == []


def tab_walk(page: Page, steps: int = 150) -> tuple[int, list[str]]:
    """Tab from the top of the page through every control: how many were reached, and those
    that were more than half hidden when focused."""
    page.locator("header a.brand").focus()  # the walk starts at the top, wherever a tap was
    seen, obscured = [], []
    for _ in range(steps):
        page.keyboard.press("Tab")
        state = page.evaluate(HIDDEN_SHARE)
        if state["what"] in seen[:1] or state["what"].startswith("<body"):
            break  # back to the first control, or out of the page: the walk is over
        seen.append(state["what"])
        if state["hidden"] > 0.5:
            obscured.append(f"{state['what']} ({state['hidden']:.0%} hidden)")
    return len(seen), obscured


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_tab_walk_over_a_sheet_never_lands_under_the_save_bar(phone: Page, live_server):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina", "Omar"])
    Round.objects.create(
        game=game, position=1, data={"hands": {"Léa": 3, "Marc": 22, "Nina": 5, "Omar": 15}}
    )
    phone.goto(f"{live_server.url}/g/{game.edit_key}/")
    phone.locator('.picker button[value="KD"]').tap()  # the picker open on Léa's hand
    expect(phone.locator(".hand.target .chips button")).to_have_count(1)
    reached, obscured = tab_walk(phone)
    assert obscured == []
    assert reached > 60  # the whole picker was walked through, the save button included
    width = phone.viewport_size["width"]
    shoot(phone, f"12-tab-walk-{width}")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_tab_walk_over_a_match_sheet_and_a_round_edit_is_never_hidden(page: Page, live_server):
    match = Game.objects.create(variant="tambouille", players=["Léa", "Marc", "Nina", "Omar"])
    Round.objects.create(
        game=match, position=1, data={"hands": {"Léa": 3, "Marc": 9, "Nina": 12, "Omar": 0}}
    )
    game = Game.objects.create(variant="dutch", players=["Léa", "Marc", "Nina"])
    entry = Round.objects.create(
        game=game, position=1, data={"hands": {"Léa": ["KD", "3C"], "Marc": 4, "Nina": 8}}
    )
    for path in (f"/g/{match.edit_key}/", f"/g/{game.edit_key}/rounds/{entry.pk}/edit/"):
        page.goto(live_server.url + path)
        reached, obscured = tab_walk(page)
        assert obscured == [], path
        assert reached > 5, path


# Without a browser: what every page says of itself, and its times.
