"""What the browser tests share: screenshots when asked, the phone's fit and tap targets, axe,
taps on the card picker, and what the service worker and the drafts hold."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Page

from scoring.store.models import Table
from tests.helpers import ROOT
from tests.web.helpers import stored_game

SCREENSHOTS = ROOT / "screenshots"


# A busy table: six players, some of long names, nine games of three variants.
CROWD = ["Léa", "Marc-Antoine", "Nina", "Omar", "Paul", "Bérénice"]


def busy_table() -> Table:
    """Nine finished games of four rounds each: five or six players, three variants, calls."""
    table = Table.objects.create(name="Jeudis chez Léa", players=CROWD)
    rng = random.Random(3)
    for n in range(9):
        variant = ["tamalou", "gabo", "dutch"][n % 3] if n % 4 else "tamalou"
        players = CROWD if n % 2 else CROWD[:5]
        rounds = [[rng.randint(0, 30) for _ in players] for _ in range(4)]
        callers = [rng.choice(players) for _ in rounds]
        game = stored_game(
            players, rounds, variant=variant, settings={"rounds": 4}, callers=callers
        )
        table.attach(game)
    return table


SHOOTING = os.environ.get("SCREENSHOTS") == "1"  # screenshots only when asked for


def shoot(page: Page, name: str) -> None:
    """A full-page screenshot in screenshots/, to look at, when asked for (SCREENSHOTS=1)."""
    if not SHOOTING:
        return
    SCREENSHOTS.mkdir(exist_ok=True)
    if SHOOTING:
        page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True)


def assert_fits_the_phone(page: Page) -> None:
    """No horizontal scrolling, and every control in the page at least 44 px high."""
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    small = page.eval_on_selector_all(
        "main a, main button, main summary, main select, main input:not([type=hidden]),"
        " main label:has(input), header a, header button",
        """els => els.filter(e => e.offsetParent && !e.closest('.notes, .hint, .share-url'))
          .filter(e => !(e.matches('input[type=radio], input[type=checkbox]')))
          .filter(e => e.getBoundingClientRect().height < 44)
          .map(e => e.outerHTML.slice(0, 90))""",
    )
    assert small == []


@contextmanager
def step(name: str) -> Iterator[None]:
    """One step of a journey: a failure inside it says which step failed."""
    try:
        yield
    except AssertionError as error:
        raise AssertionError(f"{name}: {error}") from error


def tap_card(page: Page, code: str) -> None:
    page.locator(f'.picker button[value="{code}"]').tap()


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


# Buttons, links and summaries that show words: their accessible name starts with those words
# (a voice user says what he sees), and stays short.
NAMES = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('a, button, summary, [role=button]')) {
    if (!el.offsetParent) continue;
    const shown = el.innerText.replace(/\\s+/g, ' ').replace(/✕/g, '').trim();
    const named = (el.getAttribute('aria-label') || '').replace(/\\s+/g, ' ').trim();
    if (!named || !/[\\p{L}\\p{N}]/u.test(shown)) continue;
    if (!named.toLowerCase().startsWith(shown.toLowerCase()) || named.length > 60)
      bad.push(el.outerHTML.slice(0, 120) + ' is named ' + named);
  }
  return bad;
}"""


def axe_violations(page: Page) -> list[str]:
    """axe-core evaluated into the page by the browser's debugging protocol: no script tag,
    nothing for the Content-Security-Policy to refuse."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    return page.evaluate(RUN_AXE, TAGS)


def controlled(page: Page) -> str:
    return page.evaluate(CONTROLLED)


def kept(page: Page, path: str, language: str = "en", showing: str = "") -> str | None:
    """The cache that keeps the page at ``path`` in ``language`` (showing that text), once
    it does."""
    return page.evaluate(KEPT, [path, language, showing])


def draft_holds(page: Page, text: str) -> None:
    """Wait until the draft kept on the phone holds ``text`` (it is written as it is typed)."""
    assert page.evaluate(DRAFTS_HOLD, text), f"no draft holds {text!r}"


def no_draft_left(page: Page) -> None:
    assert page.evaluate(DRAFTS_HOLD, None), "a draft is left"


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


# axe on the page as it is, every <details> opened first so that what they hide is checked too.
RUN_AXE = """async (tags) => {
  document.querySelectorAll('details').forEach((d) => { d.open = true; });
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                          resultTypes: ['violations']});
  return result.violations.map((v) => v.id + ' (' + v.impact + '): ' + v.help + ' — '
    + v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ': ' + n.failureSummary
      .replace(/\\s+/g, ' ')).join(' | '));
}"""


# Conditions waited on in the page (Playwright's wait_for_function evaluates a string, which
# the Content-Security-Policy forbids): each resolves as soon as it holds, or gives up.
CONTROLLED = """async () => {
  if (!navigator.serviceWorker.controller) await new Promise((done) =>
    navigator.serviceWorker.addEventListener("controllerchange", done, { once: true }));
  return navigator.serviceWorker.controller.scriptURL;
}"""


KEPT = """async ([path, language, showing]) => {
  const url = new URL(path, location.href).href;
  const deadline = Date.now() + 15000;
  while (Date.now() < deadline) {
    for (const name of await caches.keys()) {
      if (!name.startsWith(`tamalou-pages-${language}-`)) continue;
      const found = await (await caches.open(name)).match(url);
      const text = found ? await found.text() : "";
      if (text.includes("data-kept-at=") && text.includes(showing)) return name;
    }
    await new Promise((tick) => setTimeout(tick, 50));
  }
  return null;
}"""


# Waited on in the page (wait_for_function evaluates a string, which the Content-Security-Policy
# forbids): the drafts kept hold `text` (none are left, for null), polled until they do.
DRAFTS_HOLD = """async (text) => {
  const kept = () => Object.keys(localStorage)
    .filter((k) => k.startsWith('tamalou-ref:draft:')).map((k) => localStorage.getItem(k));
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (text === null ? kept().length === 0 : kept().some((d) => d.includes(text))) return true;
    await new Promise((tick) => setTimeout(tick, 20));
  }
  return false;
}"""


# A stand-in for the browser's speech recognition: each start() "hears" the next list of
# results queued in window.toSay (each result a list of alternatives), one result at a time as
# Chrome's continuous recognition gives them, then ends; or, for a text queued, fails with that
# error. It notes the language it was asked
# to listen in (window.listenedIn).
STAND_IN = """
window.toSay = [];
window.listenedIn = [];
class StandIn {
  start() {
    window.listenedIn.push(this.lang);
    if (typeof window.toSay[0] === "string") {  // an error: "not-allowed", "network"…
      const error = window.toSay.shift();
      setTimeout(() => { this.onerror?.({ error }); this.stop(); }, 30);
      return;
    }
    const results = (window.toSay.shift() || []).map((alternatives) => Object.assign(
      alternatives.map((transcript) => ({ transcript, confidence: 0.9 })), { isFinal: true }));
    let index = 0;
    const next = () => {
      if (this.ended) return;
      if (index < results.length) {
        this.onresult?.({ resultIndex: index, results: results.slice(0, index + 1) });
        index += 1;
        setTimeout(next, 30);
      } else this.stop();
    };
    setTimeout(next, 30);
  }
  stop() {
    if (this.ended) return;
    this.ended = true;
    setTimeout(() => this.onend?.(), 0);
  }
}
window.SpeechRecognition = StandIn;
window.webkitSpeechRecognition = StandIn;
"""
