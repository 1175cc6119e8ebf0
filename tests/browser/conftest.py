"""The browser tier's phone: Debian's Chromium (its headless shell) driven by Playwright, a
touch phone of one of the two sizes the app is drawn for, in English unless the test
switches."""

from __future__ import annotations

import shutil
import zlib

import pytest
from playwright.sync_api import expect

# What a test waits to see on the page, up to 10 s (Playwright's default is 5 s): on the
# 2-core CI machine, four test processes and their browsers share the cores, and a page's
# answer (the sheet after Start the game) can take more than 5 s. A check that holds at once
# still passes at once.
expect.set_options(timeout=10_000)

CHROMIUM = shutil.which("chromium-headless-shell") or "/usr/bin/chromium-headless-shell"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium, headless, without the background traffic a closed network refuses."""
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """A touch phone: taps, not clicks. Without the service worker, which fetches every
    rules page in both languages when it installs: the tests of what it keeps allow it."""
    return {
        **browser_context_args,
        "service_workers": "block",
        "viewport": PHONE,
        "locale": "en-GB",
        "has_touch": True,
        "is_mobile": True,
    }


@pytest.fixture
def page(page, live_server):
    """A phone that chose English with the language switch (French is the default). The test
    fails if the browser refused anything under the Content-Security-Policy."""
    host = live_server.url.split("//", 1)[1].split(":")[0]
    page.context.add_cookies(
        [{"name": "django_language", "value": "en", "domain": host, "path": "/"}]
    )
    refused: list[str] = []
    page.expose_function("reportRefused", lambda violation: refused.append(violation))
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', (e) =>"
        " window.reportRefused(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' '"
        " + e.sourceFile + ' ' + (e.target && e.target.outerHTML || '').slice(0, 120)));"
    )
    yield page
    assert refused == [], "the Content-Security-Policy refused something"


# The two phone sizes the app is drawn for.
PHONES = [(390, 844), (360, 740)]


@pytest.fixture
def phone(request, page):
    """The page on a touch phone of one of the two sizes, the one this test is given: tests
    take them in turn (by their names), so that each behaviour is seen once and both sizes
    are seen across the suite."""
    width, height = PHONES[zlib.crc32(request.node.name.encode()) % len(PHONES)]
    page.set_viewport_size({"width": width, "height": height})
    return page
