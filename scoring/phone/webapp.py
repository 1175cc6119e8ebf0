"""The app on the home screen and without a connection: its web app manifest, and what its
service worker (``templates/sw.js``) keeps on the phone.

The service worker's caches are named after ``code_version()``: a deploy changes the worker's
text, the phone installs the new one, which deletes the old caches.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.referee.variants import VARIANTS

ROOT = Path(__file__).resolve().parent.parent.parent
CODE = ("scoring", "tamalou_ref", "templates", "static", "locale")
CODE_SUFFIXES = {".py", ".html", ".css", ".js", ".po"}


@cache
def code_version() -> str:
    """A digest of the code, templates, static files and translations this server runs: the
    service worker's version, so that a deploy gives phones a new worker."""
    digest = hashlib.sha256()
    for folder in CODE:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in CODE_SUFFIXES and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


# Light and dark theme colours (the bar of static/css/app.css, and the page behind it).
THEME_LIGHT = "#0b6e4f"
THEME_DARK = "#121417"
BACKGROUND = "#f7f5f0"

# Every script and stylesheet a page loads (a test checks the pages against this list), and
# every module of static/js (another test): the modules they import, pending.js, imported
# by offline.js while rounds entered offline wait, drafts.js and say.js (with speech.js) by
# round.js, offline.js and share.js by live.js.
SCRIPTS = [
    "js/live.js",
    "js/round.js",
    "js/picker.js",
    "js/next-field.js",
    "js/note.js",
    "js/new-game.js",
    "js/players.js",
    "js/offline.js",
    "js/share.js",
    "js/keep.js",
    "js/fields.js",
    "js/drafts.js",
    "js/say.js",
    "js/speech.js",
    "js/queue.js",
    "js/store.js",
    "js/pending.js",
    "js/match.js",
    "js/timer.js",
    "js/house.js",
    "js/steps.js",
    "django_htmx/htmx-2.min.js",
]
STYLES = ["css/app.css", "css/match.css", "css/stats.css", "css/house.css"]
ICONS = [
    # (file, size, purpose)
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-512.png", 512, "maskable"),
]
OTHER_FILES = ["icons/icon.svg", "icons/apple-touch-icon.png"]


def static_files() -> list[str]:
    """The URLs of the static files the service worker keeps (hashed names in production)."""
    files = [*STYLES, *SCRIPTS, *(icon for icon, _size, _purpose in ICONS), *OTHER_FILES]
    if settings.DEBUG:
        files.append("django_htmx/django-htmx.js")  # django-htmx adds it in development
    return [static(name) for name in files]


def rules_pages() -> list[str]:
    """Every rules page, kept in both languages."""
    return [
        reverse("rules"),
        *(reverse("rules_variant", args=[key]) for key in VARIANTS),
        reverse("rules_tambouille"),
    ]


def theme_colours(request) -> dict:
    """The colours of the phone's bar around the app, for the theme-color of every page."""
    return {"theme_light": THEME_LIGHT, "theme_dark": THEME_DARK}


def worker_config() -> str:
    """What the service worker is told, as JSON (``templates/sw.js`` puts it in a JavaScript
    string with ``escapejs``): its version, the static files and rules pages it keeps, the
    languages, and where the pages of a game are."""
    config = {
        "version": code_version(),
        "static": static_files(),
        "staticPrefix": settings.STATIC_URL,  # with its leading slash
        "rules": rules_pages(),
        "languages": [code for code, _name in settings.LANGUAGES],
        "defaultLanguage": settings.LANGUAGE_CODE,
    }
    return json.dumps(config)


def manifest() -> dict:
    """The web app manifest, in the language of the request."""
    return {
        "name": "Tamalou Ref",
        "short_name": "Tamalou",
        "description": _("Score sheet and referee for Tamalou, Cabo, Dutch and their cousins."),
        "lang": get_language(),
        "dir": "ltr",
        "id": "/",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_LIGHT,
        "background_color": BACKGROUND,
        "icons": [
            {
                "src": static(icon),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose,
            }
            for icon, size, purpose in ICONS
        ]
        + [{"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
