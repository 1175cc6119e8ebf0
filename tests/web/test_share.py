"""The share link, live updates without re-downloading, and the security of both links."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils.html import escape

from scoring.store.models import Game, Round
from tests.helpers import NOBODY_CALLED

pytestmark = pytest.mark.django_db
NASTY = "<script>alert(1)</script>"


def make_game(players=("Léa", "Marc"), variant="tamalou") -> Game:
    return Game.objects.create(variant=variant, players=list(players))


def save(client, game, number, *totals, **extra):
    data = {"number": number, "save": "1", **extra}
    data.update({f"total_{i}": str(t) for i, t in enumerate(totals)})
    return client.post(f"/g/{game.edit_key}/", data)


def test_keys_are_long_random_and_distinct():
    games = [make_game() for _ in range(20)]
    keys = [g.edit_key for g in games] + [g.share_key for g in games]
    assert len(set(keys)) == 40
    assert all(len(key) >= 22 for key in keys)  # 16 random bytes, URL-safe base64


def test_no_game_is_reachable_by_its_database_id(client):
    game = make_game()
    for url in (f"/g/{game.pk}/", f"/s/{game.pk}/", f"/g/{game.pk}/export/"):
        assert client.get(url).status_code == 404


def test_share_page_shows_totals_and_history_without_any_form(client):
    game = make_game()
    save(client, game, 1, 3, 9, caller="Léa")
    page = client.get(f"/s/{game.share_key}/").content.decode()
    assert "Read-only view" in page and "Léa called Tamalou with 3" in page
    assert 'name="save"' not in page and '<form method="post"' not in page.split("<main")[1]
    assert "/rounds/" not in page  # no edit or delete links
    assert game.edit_key not in page
    assert f"/s/{game.share_key}/export/" in page and "/rules/tamalou/" in page


def test_the_edit_sheet_shows_the_share_link_and_its_qr_code(client):
    game = make_game()
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    assert f"http://testserver/s/{game.share_key}/" in page
    assert "<svg" in page and 'class="qr"' in page


@pytest.mark.parametrize(
    "suffix",
    ["", "live/", "export/", "rounds/1/edit/", "rounds/1/delete/", "end/", "rematch/", "x"],
)
def test_every_write_request_on_the_share_link_is_refused(client, suffix):
    game = make_game()
    save(client, game, 1, 3, 9, **NOBODY_CALLED)
    for method in (client.post, client.put, client.delete, client.patch):
        response = method(f"/s/{game.share_key}/{suffix}", {"number": 2, "save": "1"})
        assert response.status_code == (405 if suffix in ("", "live/", "export/") else 404)
    assert Round.objects.count() == 1 and Game.objects.count() == 1


def test_unknown_share_key_is_404(client):
    assert client.get("/s/nope/").status_code == 404


@pytest.mark.parametrize("link", ["edit", "share"])
def test_live_view_answers_304_while_nothing_changed(client, link):
    game = make_game()
    key = game.edit_key if link == "edit" else game.share_key
    url = f"/{'g' if link == 'edit' else 's'}/{key}/live/"
    first = client.get(url, HTTP_HX_REQUEST="true")
    etag = first["ETag"]
    assert first.status_code == 200 and 'id="live-top"' in first.content.decode()
    assert f'data-etag="{escape(etag)}"' in first.content.decode()
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag

    save(client, game, 1, 3, 9, caller="Léa")
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    page = changed.content.decode()
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "1 round played" in page
    assert 'id="history" class="history" hx-swap-oob="true"' in page and "Round 1" in page


def test_live_etag_depends_on_the_language(client):
    game = make_game()
    english = client.get(f"/s/{game.share_key}/live/")["ETag"]
    french = Client().get(f"/s/{game.share_key}/live/")["ETag"]
    assert english != french


def test_names_and_reasons_are_shown_as_text_everywhere(client):
    game = make_game(players=(NASTY, "Marc"), variant="cabo_bruxellois")
    extra = {"penalty-0-player": "Marc", "penalty-0-points": "2", "penalty-0-reason": NASTY}
    save(client, game, 1, 3, 9, caller=NASTY, **extra)
    assert Round.objects.count() == 1
    for url in (f"/g/{game.edit_key}/", f"/s/{game.share_key}/", "/", f"/s/{game.share_key}/live/"):
        page = client.get(url).content.decode()
        assert NASTY not in page, url
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, url


def test_forms_need_the_csrf_token_and_htmx_sends_it_in_a_header():
    strict = Client(enforce_csrf_checks=True)
    strict.cookies["django_language"] = "en"
    game = make_game()
    page = strict.get(f"/g/{game.edit_key}/").content.decode()
    refused = strict.post(
        f"/g/{game.edit_key}/",
        {"number": 1, "save": "1", "total_0": "3", "total_1": "9", **NOBODY_CALLED},
    )
    assert refused.status_code == 403 and not Round.objects.exists()
    token = page.split('"X-CSRFToken": "')[1].split('"')[0]
    accepted = strict.post(
        f"/g/{game.edit_key}/",
        {"number": 1, "save": "1", "total_0": "3", "total_1": "9", **NOBODY_CALLED},
        HTTP_X_CSRFTOKEN=token,
        HTTP_HX_REQUEST="true",
    )
    assert accepted.status_code == 200 and Round.objects.count() == 1


def test_a_phone_that_opened_a_share_link_lists_the_game_read_only(client):
    """A phone that followed a game by its link did not list it."""
    from django.test import Client

    game = make_game()
    save(client, game, 1, 3, 9, **NOBODY_CALLED)
    viewer = Client()
    viewer.cookies["django_language"] = "en"
    viewer.get(f"/s/{game.share_key}/")
    home = viewer.get("/").content.decode()
    assert "Games this phone follows" in home and f'href="/s/{game.share_key}/"' in home
    assert "Leader: Léa (3) · 1 round ·" in " ".join(re.sub(r"<[^>]+>", " ", home).split())
    assert game.edit_key not in home  # a share key never leads to the edit key
    assert "Games on this phone" not in home and viewer.get("/stats/").context["games"] == 0
    # Removed from the list, after a confirmation: the game stays, its link still opens it.
    assert "Yes, remove it from this phone" in home
    assert viewer.get(f"/followed/{game.share_key}/remove/").status_code == 405
    answer = viewer.post(f"/followed/{game.share_key}/remove/", follow=True)
    assert "Games this phone follows" not in answer.content.decode()
    assert viewer.get(f"/s/{game.share_key}/").status_code == 200
    # The scorer's phone, which has the game by its edit link, lists it once, as its own.
    client.get(f"/s/{game.share_key}/")
    own = client.get("/").content.decode()
    assert "Games this phone follows" not in own and f"/g/{game.edit_key}/" in own


def test_the_followed_games_in_french(client):
    game = make_game()
    client.cookies["django_language"] = "fr"
    client.get(f"/s/{game.share_key}/")
    home = client.get("/").content.decode()
    assert "Parties suivies sur ce téléphone" in home
    assert "son lien en lecture seule l’ouvre toujours" in home


@pytest.mark.parametrize("link", ["share", "edit"])
def test_a_link_that_appears_with_the_first_round_comes_with_the_live_part(client, link):
    """A sheet opened before round 1 offers no spreadsheet; the live part that
    brings round 1 brings its link too, without a reload."""
    game = make_game()
    key = game.share_key if link == "share" else game.edit_key
    prefix = "s" if link == "share" else "g"
    page = client.get(f"/{prefix}/{key}/").content.decode()
    assert "sheet.csv" not in page
    assert save(Client(), game, 1, 3, 4, **NOBODY_CALLED).status_code == 302
    live = client.get(f"/{prefix}/{key}/live/", headers={"HX-Request": "true"}).content.decode()
    assert f'href="/{prefix}/{key}/sheet.csv"' in live
    assert 'id="game-actions" hx-swap-oob="true"' in live
