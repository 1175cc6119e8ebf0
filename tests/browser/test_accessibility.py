"""WCAG 2.2 AA on every kind of page, in both themes: axe-core (pinned in package-lock.json,
installed by `make js`) finds no violation; a keyboard walk over a sheet never lands on a
control hidden by the sticky save bar; controls are named by what they show; every page says
what it is (meta description, a sheet's link preview) and writes valid machine-readable times."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from scoring.store.models import Game, Round, RuleSet
from tests.browser.helpers import (
    NAMES,
    STAND_IN,
    assert_fits_the_phone,
    axe_violations,
    busy_table,
    shoot,
)
from tests.web.helpers import finished_dutch_game, house_table

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


# Text whose contrast with the background behind it is under 4.5:1, HTML elements only (the
# chart's SVG labels have CHART_LABELS).
CONTRAST = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const low = [];
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.offsetParent) continue;
    const style = getComputedStyle(el);
    if (el.closest(':disabled')) continue;
    const a = lum(rgb(style.color)), b = lum(background(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const what = el.tagName + ' ' + el.textContent.trim().slice(0, 30);
    if (ratio < 4.5) low.push(what + ' ' + ratio.toFixed(2));
  }
  return low;
}"""

# SVG paints in document order: a landmark's label painted after every curve and marker is
# over them. The labels whose paint comes after the last polyline.
LABEL_ON_TOP = """() => {
  const curves = [...document.querySelectorAll("#chart polyline")];
  const last = curves[curves.length - 1];
  return [...document.querySelectorAll("#chart text.lm")]
    .filter((label) => last.compareDocumentPosition(label) & Node.DOCUMENT_POSITION_FOLLOWING)
    .map((label) => label.textContent);
}"""

EIGHT = ["Léa", "Marc", "Nina", "Omar", "Paul", "Zoé", "Inès", "Hugo"]

# What the walk reads on its pages, in the theme's language.
WORDS = {
    "en": {
        "chip": "K♦, remove",
        "said": "Marc four, Bob four, Nina penalty",
        "heard": "Heard: Marc 4.",
        "missed": [
            "Not understood: Bob.",
            "No number for Léa, Nina, Omar.",
            "No penalty points for Nina.",
        ],
        "chart": "Chart of the running totals after",
        "best": "Best round:",
        "winner": "Winner",
        "out": "100: out",
        "switch": ("FR Français", "FR"),
    },
    "fr": {
        "chip": "R♦, retirer",
        "said": "Marc quatre, Bob quatre, Nina pénalité",
        "heard": "Entendu\u202f: Marc 4.",
        "missed": [
            "Pas compris\u202f: Bob.",
            "Pas de nombre pour Léa, Nina, Omar.",
            "Pas de points de pénalité pour Nina.",
        ],
        "chart": "Graphique des totaux après",
        "best": "Meilleure manche",
        "winner": "Victoire",
        "out": "100\u202f: hors jeu",
        "switch": ("EN English", "EN"),
    },
}


def a_round_being_picked_and_said(page: Page, words: dict) -> None:
    """The sheet as the table uses it: two cards picked in Léa's hand, then a round said aloud
    that leaves what was heard and what was missed under the form's heading."""
    for code in ("KD", "3C"):
        page.locator(f'.picker button[value="{code}"]').tap()
    chips = page.locator(".hand.target .chips button")
    expect(chips).to_have_count(2)
    expect(chips.first).to_have_accessible_name(words["chip"])
    page.evaluate("(said) => window.toSay.push([[said]])", words["said"])
    page.locator("button[data-say]").tap()
    said = page.locator(".round-form .said")
    expect(said).to_contain_text(words["heard"])
    expect(said.locator(".missed")).to_have_text(words["missed"])


def the_end_of_a_game(page: Page, words: dict) -> None:
    """Eight players' running totals in a chart as wide as the phone, each line its own colour
    in this theme, the variant's 100 line labelled over the curves; the best round, the
    winner."""
    width = page.viewport_size["width"]
    chart = page.get_by_role("img", name=words["chart"])
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box["width"] > width - 60 and box["x"] >= 0 and box["x"] + box["width"] <= width
    expect(page.locator("#chart polyline")).to_have_count(8)
    expect(page.locator("#moments")).to_contain_text(words["best"])
    expect(page.locator(".result .winners")).to_contain_text(words["winner"])
    colours = page.eval_on_selector_all(
        "#chart polyline", "els => els.map(e => getComputedStyle(e).stroke)"
    )
    assert len(set(colours)) == 8, colours
    expect(page.locator("#chart text.lm")).to_have_text(words["out"])
    page.locator("#chart").scroll_into_view_if_needed()
    assert page.evaluate(LABEL_ON_TOP) == [words["out"]]


def the_language_switch(page: Page, words: dict) -> None:
    name, shown = words["switch"]
    expect(page.get_by_role("button", name=name)).to_have_text(shown)


def the_statistics_of_two_dutch_games(page: Page, words: dict) -> None:
    expect(page.locator("#stats-dutch .player-stats")).to_have_count(8)
    eight = page.locator("table.over-time").filter(
        has=page.locator("caption", has_text=", ".join(EIGHT))
    )
    expect(eight.locator("tbody tr")).to_have_count(2)


def every_kind_of_page(scheme: str) -> list[tuple[str, Callable[[Page, dict], None] | None]]:
    """Each kind of page once (its template), and what is done or read on it before it is
    checked: a game in progress with a round being entered, its read-only view, a finished
    game, a Tambouille match and a turn round's correction, a round's correction and deletion,
    the home page, the new-game pages, a set of house rules and its editor, the rules pages,
    the statistics, the import, a busy table with its face to face, its renaming, a missing
    page. Two pages of one kind take turns between the themes: the read-only view of the game
    or of the match, one variant's rules or another's."""
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
    done = finished_dutch_game(EIGHT)
    again = finished_dutch_game(EIGHT, 9)
    match = Game.objects.create(variant="tambouille", players=["Léa", "Marc", "Nina", "Omar"])
    turn = Round.objects.create(
        game=match, position=1, data={"hands": {"Léa": 3, "Marc": 9, "Nina": 12, "Omar": 0}}
    )
    table = busy_table()
    for member in (game, done, match):
        table.attach(member)
    next_at = house_table()
    rule_set = RuleSet.objects.create(
        name="Chez Mamie",
        variant="tamalou",
        settings={"joker_value": -5, "card_values": {"KH": -1}, "call_penalty": 10},
    )
    light = scheme == "light"
    return [
        (f"/g/{again.edit_key}/", None),  # the phone's games, for the home page and statistics
        (f"/g/{game.edit_key}/", a_round_being_picked_and_said),
        (f"/s/{game.share_key}/" if light else f"/s/{match.share_key}/", None),
        (f"/g/{done.edit_key}/", the_end_of_a_game),
        (f"/g/{match.edit_key}/", None),
        (f"/g/{game.edit_key}/rounds/{entry.pk}/edit/", None),
        (f"/g/{match.edit_key}/rounds/{turn.pk}/edit/", None),
        (f"/g/{game.edit_key}/rounds/{entry.pk}/delete/", None),
        ("/", the_language_switch),
        ("/new/", None),
        (f"/new/tamalou/?table={next_at.edit_key}", None),  # the table's house rules, folded
        ("/new/tambouille/", None),
        (f"/h/{rule_set.key}/", None),
        (f"/h/{rule_set.key}/edit/", None),
        ("/rules/", None),
        ("/rules/tamoul/" if light else "/rules/dutch_toulousain/", None),
        ("/rules/tambouille/", None),
        ("/stats/", the_statistics_of_two_dutch_games),
        ("/import/", None),
        (f"/t/{table.edit_key}/?a=L%C3%A9a&b=Marc-Antoine", None),  # standings, face to face
        (f"/t/{table.edit_key}/rename/", None),
        ("/no-such-page/", None),
    ]


def problems_of(page: Page) -> list[str]:
    """What is wrong with the page as it is: a control under 44 px or a page wider than the
    phone, text of too little contrast, a control named otherwise than it shows, what axe
    finds (every <details> opened), a chart label of too little contrast."""
    problems = []
    try:
        assert_fits_the_phone(page)
    except AssertionError as error:
        problems.append(f"does not fit the phone: {error}")
    problems += [f"contrast: {low}" for low in page.evaluate(CONTRAST)]
    problems += page.evaluate(NAMES)
    problems += axe_violations(page)
    if page.locator("#chart").count():
        labels = page.evaluate(CHART_LABELS)
        if len(labels) <= 4:
            problems.append(f"the chart has {len(labels)} labels")
        problems += [f"chart label {t!r}: {r:.2f}" for t, r in labels if r < 4.5]
    return problems


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("scheme", "language", "width", "height"),
    [
        pytest.param(
            "light", "en", 390, 844, marks=pytest.mark.browser_context_args(color_scheme="light")
        ),
        pytest.param(
            "dark", "fr", 360, 740, marks=pytest.mark.browser_context_args(color_scheme="dark")
        ),
    ],
)
def test_every_kind_of_page_fits_reads_well_and_has_no_axe_violation(
    page: Page, live_server, scheme, language, width, height
):
    """Light in English at 390×844, dark in French (the default language) at 360×740: one
    phone walks through every kind of page; each failure is listed with its page and step."""
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
    page.set_viewport_size({"width": width, "height": height})
    host = live_server.url.split("//", 1)[1].split(":")[0]
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "domain": host, "path": "/"}]
    )
    page.add_init_script(STAND_IN)
    words = WORDS[language]
    found = {}
    for path, step in every_kind_of_page(scheme):
        page.goto(live_server.url + path)
        problems = []
        if step:
            try:
                step(page, words)
            except AssertionError as error:
                problems.append(f"{step.__name__}: {error}")
        problems += problems_of(page)
        if problems:
            found[path] = problems
        shoot(page, f"walk-{scheme}-{width}-{path.strip('/').replace('/', '-')[:40] or 'home'}")
    assert found == {}, "\n".join(f"{p}:\n  " + "\n  ".join(v) for p, v in found.items())


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
def test_a_tab_walk_over_a_sheet_a_match_and_a_round_edit_never_lands_on_a_hidden_control(
    phone: Page, live_server
):
    """A sheet with the picker open (the sticky save bar below it), a match sheet, a round's
    correction: no control is more than half hidden when the keyboard reaches it."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina", "Omar"])
    Round.objects.create(
        game=game, position=1, data={"hands": {"Léa": 3, "Marc": 22, "Nina": 5, "Omar": 15}}
    )
    match = Game.objects.create(variant="tambouille", players=["Léa", "Marc", "Nina", "Omar"])
    Round.objects.create(
        game=match, position=1, data={"hands": {"Léa": 3, "Marc": 9, "Nina": 12, "Omar": 0}}
    )
    dutch = Game.objects.create(variant="dutch", players=["Léa", "Marc", "Nina"])
    entry = Round.objects.create(
        game=dutch, position=1, data={"hands": {"Léa": ["KD", "3C"], "Marc": 4, "Nina": 8}}
    )
    phone.goto(f"{live_server.url}/g/{game.edit_key}/")
    phone.locator('.picker button[value="KD"]').tap()  # the picker open on Léa's hand
    expect(phone.locator(".hand.target .chips button")).to_have_count(1)
    reached, obscured = tab_walk(phone)
    assert obscured == [], "the sheet"
    assert reached > 60, "the sheet"  # the whole picker was walked through, Save included
    shoot(phone, f"12-tab-walk-{phone.viewport_size['width']}")
    for path in (f"/g/{match.edit_key}/", f"/g/{dutch.edit_key}/rounds/{entry.pk}/edit/"):
        phone.goto(live_server.url + path)
        reached, obscured = tab_walk(phone)
        assert obscured == [], path
        assert reached > 5, path
