from __future__ import annotations

import copy
import os
import shutil

import pytest

# Playwright's sync API runs an event loop in the test thread; the test's own ORM calls are
# still synchronous, so Django's guard against async contexts does not apply to them.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session", autouse=True)
def own_cache_folder(tmp_path_factory):
    """Each test process keeps the sheet parts it draws in a folder of its own (and so do the
    servers it starts): a test that clears the cache clears no other process's."""
    from django.conf import settings
    from django.test import override_settings

    folder = str(tmp_path_factory.mktemp("cache"))
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["LOCATION"] = folder
    os.environ["CACHE_DIR"] = folder
    with override_settings(CACHES=caches):
        yield


@pytest.fixture
def client(client):
    """Most page tests read English; French (the default) has tests of its own."""
    client.cookies["django_language"] = "en"
    return client


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
    """A touch phone: taps, not clicks."""
    return {
        **browser_context_args,
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
