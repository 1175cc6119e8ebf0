"""The app on the home screen and offline, as the server sees it: the manifest, the service
worker, the icons, the Content-Security-Policy, and the endpoint that receives a round
entered offline (what the browser does with them is in tests/browser/test_offline.py)."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.urls import reverse

from scoring.phone import webapp
from scoring.phone.webapp import code_version
from scoring.referee.variants import VARIANTS
from scoring.store.models import Game, Round

pytestmark = pytest.mark.django_db

PLAYERS = ["Léa", "Marc", "Nina"]


def worker_config(text: str) -> dict:
    """The worker's configuration: JSON in a JavaScript string (escapejs writes \\uXXXX escapes,
    which a JSON string reads the same)."""
    found = re.search(r'^const CONFIG = JSON\.parse\("(.*)"\);$', text, re.MULTILINE)
    assert found, "the worker names its configuration"
    assert not re.search(r"[<>'\"]", found[1]), "nothing in it can close the string or a tag"
    return json.loads(json.loads(f'"{found[1]}"'))


def png_size(path: str) -> tuple[int, int]:
    data = Path(finders.find(path)).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_answers_at_its_path_and_follows_the_language(client):
    english = client.get("/manifest.json")
    assert english["Content-Type"] == "application/manifest+json"
    assert "no-cache" in english["Cache-Control"]
    assert "Cookie" in english["Vary"] and "Accept-Language" in english["Vary"]
    manifest = json.loads(english.content)
    assert manifest["name"] == "Tamalou Ref" and manifest["short_name"] == "Tamalou"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["lang"] == "en" and manifest["description"].startswith("Score sheet")
    assert manifest["theme_color"] == webapp.THEME_LIGHT

    client.cookies["django_language"] = "fr"
    french = json.loads(client.get("/manifest.json").content)
    assert french["lang"] == "fr" and french["description"].startswith("Feuille de score")


def test_the_manifest_icons_exist_at_the_sizes_they_declare(client):
    icons = json.loads(client.get("/manifest.json").content)["icons"]
    pngs = [icon for icon in icons if icon["type"] == "image/png"]
    assert {icon["sizes"] for icon in pngs} >= {"192x192", "512x512"}
    assert any(icon["purpose"] == "maskable" for icon in pngs)
    for icon in pngs:
        path = icon["src"].removeprefix("/static/")
        width, height = png_size(path)
        assert f"{width}x{height}" == icon["sizes"]
    assert png_size("icons/apple-touch-icon.png") == (180, 180)
    svg = [icon for icon in icons if icon["type"] == "image/svg+xml"]
    assert svg and Path(finders.find("icons/icon.svg")).read_text().startswith("<svg")


def test_every_page_links_the_manifest_icons_and_both_theme_colours(client):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    for url in ("/", f"/g/{game.edit_key}/", "/rules/", "/rules/gabo/", "/new/tamalou/"):
        html = client.get(url).content.decode()
        assert '<link rel="manifest" href="/manifest.json">' in html, url
        assert 'rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png"' in html
        assert (
            f'<meta name="theme-color" content="{webapp.THEME_LIGHT}"'
            ' media="(prefers-color-scheme: light)">' in html
        )
        assert (
            f'<meta name="theme-color" content="{webapp.THEME_DARK}"'
            ' media="(prefers-color-scheme: dark)">' in html
        )


def test_the_theme_colours_are_the_colours_of_the_page():
    css = Path(finders.find("css/app.css")).read_text()
    light, dark = css.split("@media (prefers-color-scheme: dark)")[:2]
    assert f"--accent: {webapp.THEME_LIGHT}" in light  # the bar of the light theme
    assert f"--paper: {webapp.THEME_DARK}" in dark  # the page of the dark theme
    assert f"--paper: {webapp.BACKGROUND}" in light


def test_the_service_worker_is_served_from_the_root_never_cached_long(client):
    response = client.get("/sw.js")
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert "no-cache" in response["Cache-Control"]
    config = worker_config(response.content.decode())
    assert config["version"] == code_version()  # a deploy changes the worker, so its caches
    assert config["languages"] == ["fr", "en"]
    assert set(config["rules"]) == {
        "/rules/",
        "/rules/tambouille/",
        *(f"/rules/{key}/" for key in VARIANTS),
    }
    for url in config["static"]:
        assert finders.find(url.removeprefix("/static/")), url


def test_the_worker_keeps_every_script_and_stylesheet_a_page_loads(client):
    config = worker_config(client.get("/sw.js").content.decode())
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    for url in ("/", f"/g/{game.edit_key}/", "/rules/gabo/", "/new/tamalou/"):
        html = client.get(url).content.decode()
        loaded = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
        assert "/static/js/live.js" in loaded  # which imports offline.js once the page loaded
        assert set(loaded) <= set(config["static"]), url


def test_the_worker_keeps_every_module_a_script_may_import():
    """Modules are imported by others (pending.js and keep.js only at the moment they are
    needed, perhaps offline): the worker keeps every one of static/js, and each import names
    one of them."""
    folder = Path(finders.find("js/offline.js")).parent
    modules = {f"js/{path.name}" for path in folder.glob("*.js")}
    assert modules == {name for name in webapp.SCRIPTS if name.startswith("js/")}
    for path in folder.glob("*.js"):
        for name in re.findall(r"""(?:from |import\()"\./([\w-]+\.js)";?""", path.read_text()):
            assert f"js/{name}" in modules, (path.name, name)


def test_the_worker_names_its_files_as_production_serves_them(client, settings, tmp_path):
    """Production serves hashed names (collected with a manifest): the worker keeps those."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    settings.DEBUG = False
    config = worker_config(client.get("/sw.js").content.decode())
    files = [*webapp.STYLES, *webapp.SCRIPTS, *webapp.ICONS, *webapp.OTHER_FILES]
    assert len(config["static"]) == len(files) and config["staticPrefix"] == "/static/"
    for url in config["static"]:
        assert re.search(r"\.[0-9a-f]{12}\.(js|css|png|svg)$", url), url
        assert (tmp_path / url.removeprefix("/static/")).is_file(), url
    match = Game.objects.create(variant="tambouille", players=["Léa", "Marc"])
    for page in ("/", f"/g/{match.edit_key}/", "/stats/"):
        html = client.get(page).content.decode()
        loaded = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
        assert set(loaded) <= set(config["static"]), page
    assert "/static/django_htmx/django-htmx.js" not in str(config["static"])  # development only


def test_the_policy_allows_the_worker_and_the_manifest_from_the_app_only(client):
    policy = client.get("/")["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["worker-src"] == "'self'"
    assert directives["manifest-src"] == "'self'"
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"


def test_without_javascript_the_page_shows_nothing_of_the_offline_parts(client):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    html = client.get(f"/g/{game.edit_key}/").content.decode()
    assert re.search(r'<p id="offline-banner"[^>]* hidden', html)
    assert re.search(r'<section id="pending"[^>]* hidden', html)
    share = client.get(f"/s/{game.share_key}/").content.decode()
    assert 'id="pending"' not in share  # a read-only sheet enters no rounds


# --- a round entered offline, sent when the connection is back ------------------------------


def typed(number: int, *totals: str, caller: str = "") -> dict:
    data = {"number": str(number), "save": "1", "caller": caller}
    data |= {f"total_{seat}": total for seat, total in enumerate(totals)}
    return data


def sync(client, game: Game, data: dict):
    return client.post(reverse("sync_round", args=[game.edit_key]), data)


def test_a_round_sent_from_offline_is_scored_and_stored_once_however_often_sent(client):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    for _attempt in range(3):  # its answer was lost: the phone sends it again
        response = sync(client, game, typed(1, "3", "12", "8", caller="Léa"))
        assert response.status_code == 200
        assert response.json() == {"saved": 1}
    assert Round.objects.count() == 1
    assert Round.objects.get().data["hands"] == {"Léa": 3, "Marc": 12, "Nina": 8}
    assert Game.objects.get(pk=game.pk).score().totals == {"Léa": 0, "Marc": 12, "Nina": 8}


def test_a_round_kept_offline_without_a_caller_is_not_asked_about_again(client):
    """The phone asked whether nobody called before keeping it (static/js/keep.js); the sync,
    with no page to ask on, stores it as kept. Saved from the sheet, it is asked about."""
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    assert sync(client, game, typed(1, "5", "6", "7")).json() == {"saved": 1}
    assert Round.objects.get().data == {"hands": {"Léa": 5, "Marc": 6, "Nina": 7}}
    asked = client.post(f"/g/{game.edit_key}/", typed(2, "5", "6", "7"))
    assert asked.status_code == 400 and 'class="who-called" role="alert"' in asked.text
    assert Round.objects.count() == 1


def test_a_round_another_phone_saved_first_comes_back_with_theirs(client):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    assert sync(client, game, typed(1, "5", "6", "7")).status_code == 200  # the other phone
    response = sync(client, game, typed(1, "3", "12", "8", caller="Léa"))
    assert response.status_code == 409
    answer = response.json()
    assert answer["conflict"] == 1 and answer["next"] == 2 and answer["edits"] == 0
    theirs = answer["theirs"]
    assert 'id="round-1"' in theirs and "Nobody called" in theirs
    assert '<th scope="row">Nina</th>' in theirs and ">7<" in theirs
    assert "Edit" not in theirs  # the choice is made in the pending round, not there
    assert Round.objects.count() == 1
    assert Round.objects.get().data["hands"] == {"Léa": 5, "Marc": 6, "Nina": 7}


def test_the_table_adds_the_offline_round_as_the_next_one(client):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    sync(client, game, typed(1, "5", "6", "7"))
    assert sync(client, game, typed(2, "3", "12", "8", caller="Léa")).json() == {"saved": 2}
    hands = [r.data["hands"] for r in Round.objects.order_by("position")]
    assert hands == [{"Léa": 5, "Marc": 6, "Nina": 7}, {"Léa": 3, "Marc": 12, "Nina": 8}]


def test_the_table_replaces_theirs_with_the_offline_round(client):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    sync(client, game, typed(1, "5", "6", "7"))
    mine = typed(1, "3", "12", "8", caller="Léa") | {"replace": "1", "edits": "0"}
    assert sync(client, game, mine).json() == {"saved": 1}
    stored = Round.objects.get()
    assert stored.data["hands"] == {"Léa": 3, "Marc": 12, "Nina": 8} and stored.edits == 1
    # Replacing again from the same answer (edits 0) would undo a correction made since.
    again = sync(client, game, typed(1, "1", "1", "1") | {"replace": "1", "edits": "0"})
    assert again.status_code == 409 and again.json()["edits"] == 1
    assert Round.objects.get().data["hands"] == {"Léa": 3, "Marc": 12, "Nina": 8}


def test_a_round_past_the_next_number_is_a_conflict_with_nothing_to_replace(client):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    response = sync(client, game, typed(3, "3", "12", "8"))
    assert response.status_code == 409
    assert response.json() == {"conflict": 3, "next": 1, "theirs": None, "edits": None}
    replace = sync(client, game, typed(1, "3", "12", "8") | {"replace": "1", "edits": "0"})
    assert replace.status_code == 409 and Round.objects.count() == 0


def test_a_refused_offline_round_says_why_next_to_the_players_name_and_saves_nothing(client):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    response = sync(client, game, typed(1, "3", "", "8"))
    assert response.status_code == 400
    assert response.json() == {"errors": ["Marc: Enter this player's cards or hand total."]}
    client.cookies["django_language"] = "fr"
    french = sync(client, game, typed(1, "3", "douze", "8")).json()["errors"]
    assert len(french) == 1 and french[0].startswith("Marc")
    assert french[0] != "Marc: Enter this player's cards or hand total."  # said in French
    assert Round.objects.count() == 0


@pytest.mark.parametrize(
    "data",
    [{}, {"number": "0"}, {"number": "x"}, {"number": "1", "replace": "1", "edits": "-1"}],
    ids=["no number", "zero", "not a number", "bad edits"],
)
def test_a_malformed_offline_round_is_refused_in_words(client, data):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    sync(client, game, typed(1, "5", "6", "7"))
    response = sync(client, game, data | {"total_0": "1", "total_1": "2", "total_2": "3"})
    assert response.status_code == 400
    assert response.json()["errors"] and all(response.json()["errors"])
    assert Round.objects.count() == 1


def test_an_offline_round_for_a_finished_game_is_refused(client):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    sync(client, game, typed(1, "5", "6", "7"))
    game.end()
    response = sync(client, game, typed(2, "3", "12", "8"))
    assert response.status_code == 400
    assert response.json() == {"errors": ["The game is over: no more rounds can be added."]}
    assert Round.objects.count() == 1


def test_the_offline_endpoint_takes_posts_on_edit_links_only(client):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    assert client.get(reverse("sync_round", args=[game.edit_key])).status_code == 405
    share = client.post(f"/g/{game.share_key}/rounds/sync/", typed(1, "1", "2", "3"))
    assert share.status_code == 404
    assert Round.objects.count() == 0


def test_the_pending_round_speaks_the_language_of_the_page(client):
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    client.cookies["django_language"] = "fr"
    html = client.get(f"/g/{game.edit_key}/").content.decode()
    pending = html[
        html.index('<section id="pending"') : html.index(
            "</section>", html.index('<section id="pending"')
        )
    ]
    assert 'data-text="Manche {n}"' in pending
    assert 'data-text="{name} a annoncé Tamalou"' in pending
    assert "en attente\u202f: pas encore comptée par l’arbitre" in pending
    assert 'data-text="Ajouter la mienne comme manche {n}"' in pending
    assert "Remplacer la leur par la mienne" in pending
    banner = re.search(r'<p id="offline-banner"[^>]*>', html)[0]
    assert 'data-kept="Hors connexion\u202f: dernier état connu, depuis le {time}."' in banner


def test_a_round_sent_with_a_blank_penalty_bookkeeping_is_read_as_sent(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    data = {"number": "1", "total_0": "3", "total_1": "9", "save": "1"}
    data |= {"penalty-TOTAL_FORMS": "", "penalty-INITIAL_FORMS": ""}
    response = client.post(f"/g/{game.edit_key}/rounds/sync/", data)
    assert response.json() == {"saved": 1}
    assert Round.objects.get().data == {"hands": {"Léa": 3, "Marc": 9}}
