"""Error pages in the app's look and language with DEBUG on or off, odd URLs never a 500, and
every failure logged with a request id that its 500 page shows."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from django.db import connection
from django.test import Client, override_settings

from scoring.store.models import Game
from tests.helpers import NOBODY_CALLED, ROOT

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("debug", [True, False])
def test_unknown_pages_get_the_apps_404_in_the_readers_language(debug):
    with override_settings(DEBUG=debug):
        french = Client().get("/no-such-page/")
        english = Client().get("/g/not-a-key-of-any-game/", HTTP_ACCEPT_LANGUAGE="en")
    assert french.status_code == 404 and english.status_code == 404
    assert "Cette page n’existe pas" in french.content.decode()
    assert "This page does not exist" in english.content.decode()
    assert 'class="bar"' in english.content.decode()  # the app's own page, not Django's


@pytest.mark.parametrize(
    "path",
    [
        "/g/%00/",
        "/s/%00/",
        "/g/a%00b/live/",
        "/g/a%00b/export/",
        "/g/abc/rounds/1%00/delete/",
        "/g/abc/rounds/99999999999999999999/edit/",
        "/s/%C2%B2/",
        "/new/%00/",
        "/rules/%00/",
    ],
)
def test_odd_keys_in_urls_are_404_on_every_database(client, path):
    Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    assert client.get(path).status_code == 404
    assert client.post(path).status_code == 404


@pytest.mark.parametrize("debug", [True, False])
def test_a_failure_shows_the_apps_500_with_a_reference_that_the_log_carries(
    monkeypatch, caplog, debug
):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])

    def broken(self):
        raise RuntimeError("the referee fell over")

    monkeypatch.setattr(Game, "score", broken)
    phone = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    with override_settings(DEBUG=debug):
        response = phone.get(f"/g/{game.edit_key}/live/")
    page = response.content.decode()
    assert response.status_code == 500 and "Something went wrong on the server" in page
    reference = re.search(r"Reference: ([0-9a-f]{8})", page).group(1)
    logged = [r for r in caplog.records if getattr(r, "request", None) is not None]
    assert any(r.exc_info and r.request.id == reference for r in logged)


def test_with_debug_off_a_500_is_logged_with_its_traceback_on_stderr(tmp_path):
    """As under gunicorn: production settings, the log on stderr."""
    code = """
import django
django.setup()
from django.test import Client
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)
def broken(request):
    raise RuntimeError("the referee fell over")
import scoring.urls as urls
from django.urls import path
urls.urlpatterns.insert(0, path("", broken))
response = Client(raise_request_exception=False).get("/", HTTP_HOST="scores.example.org")
print(response.status_code)
print(response.content.decode())
"""
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE")},
        "DEBUG": "0",
        "SECRET_KEY": "x" * 50,
        "ALLOWED_HOSTS": "scores.example.org",
        "HTTPS": "0",
        "DATABASE_URL": "sqlite://:memory:",
        "DJANGO_SETTINGS_MODULE": "tamalou_ref.settings",
        "STATIC_ROOT": str(tmp_path / "static"),
    }
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    status, page = [*done.stdout.split("\n", 1), done.stderr][:2]
    assert status == "500"
    reference = re.search(r"Référence\u202f: ([0-9a-f]{8})", page).group(1)  # French by default
    assert f"[request {reference}] django.request: Internal Server Error: /" in done.stderr
    assert "Traceback" in done.stderr and "RuntimeError: the referee fell over" in done.stderr


def pool_exhausted():
    """What Django raises when PostgreSQL's pool has no connection free in time."""
    from django.db import OperationalError
    from psycopg_pool import PoolTimeout

    try:
        raise PoolTimeout("couldn't get a connection after 10.00 sec")
    except PoolTimeout as cause:
        raise OperationalError(str(cause)) from cause


@pytest.mark.parametrize("debug", [True, False])
def test_a_database_too_busy_to_answer_is_a_503_to_try_again_not_a_500(debug, caplog):
    """Past what the server can hold, a request that
    gets no database connection in time is told to try again shortly."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])

    def busy(*args):
        pool_exhausted()

    with override_settings(DEBUG=debug), connection.execute_wrapper(busy):
        french = Client().get(f"/g/{game.edit_key}/")
        english = Client().get(f"/s/{game.share_key}/live/", HTTP_ACCEPT_LANGUAGE="en")
    assert french.status_code == 503 and english.status_code == 503
    assert french["Retry-After"] == "5"
    assert "Le serveur est occupé" in french.content.decode()
    assert "Nothing was lost" in english.content.decode()
    logged = [r for r in caplog.records if r.name == "scoring.guards.errors"]
    assert [(r.levelname, r.exc_info) for r in logged] == [("WARNING", None)] * 2  # load: a line


def test_a_save_the_busy_database_breaks_off_stores_nothing(monkeypatch):
    """SQLite's write lock held past the wait while a round is being stored: 503, and the
    round's transaction rolled back whole (the game's state token too)."""
    from django.db import OperationalError

    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    state = game.state

    def locked(*args, **kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr("scoring.store.models.Game._new_state", locked)  # the round written
    client = Client()
    posted = {"number": "1", "save": "1", "total_0": "3", "total_1": "9", **NOBODY_CALLED}
    response = client.post(f"/g/{game.edit_key}/", posted)
    assert response.status_code == 503
    game.refresh_from_db()
    assert game.rounds.count() == 0 and game.state == state


@pytest.mark.parametrize(
    "fault",
    [
        "terminating connection due to administrator command",  # PostgreSQL dropped it
        "server closed the connection unexpectedly",  # PostgreSQL stopped
        "database or disk is full",  # SQLite on a full disk
        "disk I/O error",  # SQLite on a failing disk
    ],
)
def test_a_database_that_is_down_is_a_503_to_try_again_and_a_save_stores_nothing(fault, caplog):
    """Every page while the database is down, and a save: 503 with Retry-After, saying what
    happened in the reader's language; nothing stored. The operator's log has each failure
    with its traceback (not load: a fault to look at)."""
    from django.db import OperationalError

    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    state = game.state

    def down(*args):
        raise OperationalError(fault)

    with connection.execute_wrapper(down):
        french = Client().get(f"/g/{game.edit_key}/")
        english = Client().get(f"/s/{game.share_key}/live/", HTTP_ACCEPT_LANGUAGE="en")
        saved = Client().post(
            f"/g/{game.edit_key}/", {"number": "1", "save": "1", "total_0": "3", "total_1": "9"}
        )
    assert [r.status_code for r in (french, english, saved)] == [503, 503, 503]
    assert french["Retry-After"] == "5"
    assert "Le serveur ne peut pas joindre sa base de données" in french.content.decode()
    assert "cannot reach its database" in english.content.decode()
    game.refresh_from_db()
    assert game.rounds.count() == 0 and game.state == state
    logged = [r for r in caplog.records if r.name == "scoring.guards.errors"]
    assert [r.levelname for r in logged] == ["ERROR"] * 3
    assert all(r.exc_info and str(r.exc_info[1]) == fault for r in logged)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_stored_round_the_referee_now_refuses_is_named_on_a_409_not_a_500(language):
    """A game stored under older rules that the referee now refuses (here a round holding a
    card the deck has not got): its sheet says which round and why, and that its rounds are
    kept, in the reader's language."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    game.rounds.create(position=1, data={"hands": {"Léa": ["ZZ"], "Marc": [5]}})
    phone = Client(raise_request_exception=False)
    phone.cookies["django_language"] = language
    response = phone.get(f"/g/{game.edit_key}/")
    assert response.status_code == 409
    page = response.content.decode()
    said = {
        "en": r"<p>Round 1, Léa: unknown card .{1,8}ZZ",
        "fr": r"<p>Manche 1, Léa\W+carte inconnue .{1,8}ZZ",
    }
    assert re.search(said[language], page)
