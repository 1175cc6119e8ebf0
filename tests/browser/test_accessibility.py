"""WCAG 2.2 AA on every kind of page, in both themes: axe-core (pinned in package-lock.json,
installed by `make js`) finds no violation; a keyboard walk over a sheet never lands on a
control hidden by the sticky save bar; controls are named by what they show; every page says
what it is (meta description, a sheet's link preview) and writes valid machine-readable times."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from scoring.games.models import Game, Round, Table
from scoring.referee import gamefile
from scoring.templatetags.tamalou import machine_time
from tests.browser.helpers import NAMES, axe_violations, finished_dutch_game, shoot

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


def description_of(html: str) -> str:
    found = re.search(r'<meta name="description" content="([^"]+)">', html)
    assert found, "no meta description"
    return found.group(1)


@pytest.mark.django_db
def test_every_page_has_a_description_of_its_own(client):
    game = Game.objects.create(variant="tamoul", players=["Léa", "Marc"])
    Round.objects.create(game=game, position=1, data={"hands": {"Léa": 4, "Marc": 9}})
    pages = [
        "/",
        "/new/",
        "/new/tamoul/",
        "/rules/",
        "/rules/tamoul/",
        "/rules/tambouille/",
        "/stats/",
        "/import/",
        f"/g/{game.edit_key}/",
        "/no-such-page/",
    ]
    said = {}
    for path in pages:
        response = client.get(path)
        said[path] = description_of(response.content.decode())
    assert said["/rules/tamoul/"] != said["/rules/"] != said["/"]
    assert said["/new/tamoul/"] == said["/rules/tamoul/"]  # the variant's summary
    assert "Tamoul" in said["/"] and said["/no-such-page/"] == said["/"]
    assert "<" not in "".join(said.values())
    assert "Tambouille · Rules · Tamalou Ref</title>" in client.get("/rules/tambouille/").text


@pytest.mark.django_db
def test_a_shared_sheet_link_previews_the_variant_the_players_and_who_leads(client):
    game = Game.objects.create(variant="dutch", players=["Léa", "Marc", "Nina"])
    share = f"/s/{game.share_key}/"
    html = client.get(share).content.decode()
    assert description_of(html) == "Dutch · Léa, Marc, Nina · No round yet"
    assert '<meta property="og:title" content="Dutch · Tamalou Ref">' in html
    assert (
        '<meta property="og:description" content="Dutch · Léa, Marc, Nina · No round yet">' in html
    )

    # The page is cached per state of the game: a new round is a new description.
    game.add_round(1, gamefile.round_from_json({"hands": {"Léa": 7, "Marc": 3, "Nina": 3}}, 1))
    html = client.get(share).content.decode()
    assert (
        description_of(html) == "Dutch · Léa, Marc, Nina · 1 round played · Leaders: Marc, Nina (3)"
    )
    client.cookies["django_language"] = "fr"
    html = client.get(share).content.decode()
    assert (
        description_of(html)
        == "Dutch · Léa, Marc, Nina · 1 manche jouée · En tête\u202f: Marc, Nina (3)"
    )


@pytest.mark.django_db
def test_a_finished_game_and_a_match_describe_their_end_and_leader(client):
    done = finished_dutch_game(["Léa", "Marc", "Nina"])
    sheet = done.score()
    said = description_of(client.get(f"/s/{done.share_key}/").content.decode())
    assert said == f"Dutch · Léa, Marc, Nina · Game over · Winner: {sheet.winners[0]}"
    match = Game.objects.create(variant="tambouille", players=["Léa", "Marc"])
    Round.objects.create(game=match, position=1, data={"hands": {"Léa": 3, "Marc": 9}})
    html = client.get(f"/g/{match.edit_key}/").content.decode()
    assert description_of(html) == "Tambouille · Léa, Marc · 1 turn round played · Leader: Léa (3)"
    assert '<meta property="og:title" content="Tambouille · Tamalou Ref">' in html


MACHINE_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?([+-]\d\d:\d\d|Z)$")


@pytest.mark.django_db
def test_datetime_attributes_are_valid_html(client):
    moment = timezone.now().replace(microsecond=904019)
    assert MACHINE_TIME.match(machine_time(moment))
    assert machine_time(None) == ""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    Game.objects.filter(pk=game.pk).update(updated_at=moment)
    client.get(f"/g/{game.edit_key}/")  # this phone knows the game: the home page lists it
    match = Game.objects.create(variant="tambouille", players=["Léa", "Marc"])
    client.post(f"/g/{match.edit_key}/clock/", {"action": "start", "turn": 0})
    pages = ["/", "/stats/", f"/g/{match.edit_key}/"]
    found = []
    for path in pages:
        found += re.findall(r'datetime="([^"]*)"', client.get(path).content.decode())
    assert len(found) >= 2
    assert all(MACHINE_TIME.match(value) for value in found), found
    assert timezone.localtime(moment).isoformat(timespec="seconds") in found
