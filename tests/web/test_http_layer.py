"""The web layer as a phone sees it: one round form that saves itself, chosen by the game; the
live part answered 304 while the game is unchanged; pages compressed; Cache-Control on
everything that carries a key; HEAD like GET without the body."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from scoring.game.forms.rounds import HandsForm, RoundForm
from scoring.game.match import CountsForm
from scoring.store.models import Conflict, Game, Round
from tests.helpers import NOBODY_CALLED

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def game(variant: str = "tamalou") -> Game:
    return Game.objects.create(variant=variant, players=["Léa", "Marc"])


# --- one round form ---------------------------------------------------------------------------


def test_each_game_gives_its_own_round_form():
    assert RoundForm.for_game(game()) is HandsForm
    assert RoundForm.for_game(game("tambouille")) is CountsForm
    assert issubclass(CountsForm, RoundForm) and issubclass(HandsForm, RoundForm)


def test_the_round_form_saves_a_round_and_reads_it_back():
    played = game()
    posted = {"number": "1", "total_0": "3", "total_1": "4", **NOBODY_CALLED}
    assert HandsForm(posted, game=played, number=1).save()
    assert Round.objects.get(game=played).data["hands"] == {"Léa": 3, "Marc": 4}
    shown = HandsForm.as_stored(played, Round.objects.get(game=played), 1)
    assert shown["total_0"].value() == "3" and shown["total_1"].value() == "4"


def test_the_counts_form_corrects_a_turn_round_and_reads_it_back():
    match = game("tambouille")
    assert CountsForm({"number": "1", "count_0": "5", "count_1": "6"}, game=match, number=1).save()
    stored = Round.objects.get(game=match)
    data = {"number": "1", "edits": "0", "count_0": "2", "count_1": "6"}
    assert CountsForm(data, game=match, number=1, editing=stored).save()
    stored.refresh_from_db()
    assert stored.data["hands"] == {"Léa": 2, "Marc": 6} and stored.edits == 1
    assert CountsForm.as_stored(match, stored, 1)["count_0"].value() == "2"


def test_the_referees_refusal_lands_on_the_field_at_fault_and_nothing_is_stored():
    played = game("koubo")
    form = HandsForm({"number": "1", "cards_0": "7S", "cards_1": "5S"}, game=played, number=1)
    with translation.override("en"):
        assert not form.save()
        assert "There is no 5♠ in the Koubo charentais deck" in str(form.errors["total_1"])
    posted = {"number": "1", "cards_0": "ZZ", "total_1": "4"}
    form = HandsForm(posted, game=played, number=1)
    with translation.override("en"):
        assert not form.save()
        assert "Unknown card ZZ" in str(form.errors["cards_0"])
    assert not Round.objects.exists()


def test_a_round_saved_elsewhere_first_is_a_conflict_for_the_view_to_show():
    played = game()
    first = {"number": "1", "total_0": "3", "total_1": "4", **NOBODY_CALLED}
    assert HandsForm(first, game=played, number=1).save()
    late = HandsForm({**first, "total_0": "9", "total_1": "9"}, game=played, number=1)
    with pytest.raises(Conflict):
        late.save()
    assert Round.objects.count() == 1


# --- the sheet's pages --------------------------------------------------------------------


def test_two_hosts_get_their_own_share_link(client):
    played = game()
    here = client.get(f"/g/{played.edit_key}/").content.decode()
    there = client.get(f"/g/{played.edit_key}/", HTTP_HOST="127.0.0.1").content.decode()
    assert f"http://testserver/s/{played.share_key}/" in here
    assert f"http://127.0.0.1/s/{played.share_key}/" in there
    assert "testserver" not in there


def test_the_live_part_answers_304_until_a_round_is_saved(client):
    played = game()
    first = client.get(f"/s/{played.share_key}/live/")
    second = client.get(f"/s/{played.share_key}/live/")
    assert first.content == second.content and 'id="live-top"' in first.content.decode()
    etag = first["ETag"]
    assert client.get(f"/s/{played.share_key}/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    client.post(
        f"/g/{played.edit_key}/", {"number": "1", "total_0": "3", "total_1": "4", **NOBODY_CALLED}
    )
    changed = client.get(f"/s/{played.share_key}/live/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "+4" in changed.content.decode()


def test_the_etag_the_page_writes_is_the_one_its_live_part_answers(client):
    """The page's script sends back the version it shows (data-etag) as If-None-Match."""
    played = game()
    page = client.get(f"/s/{played.share_key}/").content.decode()
    shown = re.search(r'data-etag="([^"]+)"', page).group(1).replace("&quot;", '"')
    assert client.get(f"/s/{played.share_key}/live/", HTTP_IF_NONE_MATCH=shown).status_code == 304


def test_the_live_part_is_in_the_phones_language():
    played = game()
    french = Client().get(f"/s/{played.share_key}/live/", HTTP_ACCEPT_LANGUAGE="fr")
    english = Client().get(f"/s/{played.share_key}/live/", HTTP_ACCEPT_LANGUAGE="en")
    assert french["ETag"] != english["ETag"]
    again = Client().get(
        f"/s/{played.share_key}/live/",
        HTTP_ACCEPT_LANGUAGE="en",
        HTTP_IF_NONE_MATCH=french["ETag"],
    )
    assert again.status_code == 200


def test_an_unknown_key_is_a_404_on_the_live_part(client):
    assert client.get("/s/nothing-here/live/").status_code == 404
    assert client.get("/g/nothing-here/live/", HTTP_IF_NONE_MATCH='"x"').status_code == 404


# --- Cache-Control and HEAD -------------------------------------------------------------------


def private(response) -> bool:
    control = {part.strip() for part in response.get("Cache-Control", "").split(",")}
    return {"private", "no-cache"} <= control


def test_everything_that_carries_a_key_is_private_and_checked_again(client):
    from scoring.store.models import RuleSet

    played = game()
    client.post(
        f"/g/{played.edit_key}/", {"number": "1", "total_0": "3", "total_1": "4", **NOBODY_CALLED}
    )
    stored = Round.objects.get()
    urls = [
        f"/g/{played.edit_key}/",
        f"/g/{played.edit_key}/rounds/{stored.pk}/edit/",
        f"/g/{played.edit_key}/rounds/{stored.pk}/delete/",
        f"/g/{played.edit_key}/live/",
        f"/s/{played.share_key}/",
        f"/s/{played.share_key}/live/",
        "/",  # the phone's games, by their edit links
        "/stats/",
        f"/h/{RuleSet.objects.create(name='Chez Mamie', variant='tamalou').key}/",
        f"/h/{RuleSet.objects.get().key}/edit/",
        "/new/",  # the phone's house rules, by their keys
        "/new/tamalou/",
    ]
    exports = [f"/{k}/{key}/{f}" for k, key in (("g", played.edit_key), ("s", played.share_key))
               for f in ("export/", "sheet.csv")]  # fmt: skip
    for url in [*urls, *exports]:
        response = client.get(url)
        assert response.status_code == 200 and private(response), url
    for url in exports:
        assert "Cookie" in client.get(url)["Vary"], url
    refused = client.post(f"/g/{played.edit_key}/", {"number": "2", "total_0": "x"})
    assert refused.status_code == 400 and private(refused)


def test_head_on_the_edit_link_answers_like_get(client):
    played = game()
    got = client.get(f"/g/{played.edit_key}/")
    head = client.head(f"/g/{played.edit_key}/")
    assert head.status_code == 200 and head["Content-Type"] == got["Content-Type"]
    assert private(head) and head.content == b""
    assert client.head(f"/g/{played.edit_key}x/").status_code == 404


def test_a_message_or_an_undo_shows_only_on_the_phone_it_is_for(client):
    played = game()
    client.post(
        f"/g/{played.edit_key}/", {"number": "1", "total_0": "3", "total_1": "4", **NOBODY_CALLED}
    )
    stored = Round.objects.get()
    client.get(f"/g/{played.edit_key}/")
    client.post(f"/g/{played.edit_key}/rounds/{stored.pk}/delete/")
    page = client.get(f"/g/{played.edit_key}/").content.decode()
    assert re.search(r"/rounds/\d+/restore/", page)
    other = Client()
    other.cookies["django_language"] = "en"
    assert not re.search(r"/rounds/\d+/restore/", other.get(f"/g/{played.edit_key}/").text)


@pytest.mark.django_db
def test_every_page_a_phone_opens_answers_head_as_get_without_its_body(client):
    """HEAD is GET without the body (RFC 9110): the round's edit and delete pages answered 405,
    and a form page must not take it for a post."""
    from scoring.store.models import RuleSet

    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    posted = {"number": 1, "save": "1", "total_0": "3", "total_1": "9", **NOBODY_CALLED}
    client.post(f"/g/{game.edit_key}/", posted)
    stored = Round.objects.get(game=game)
    rule_set = RuleSet.objects.create(name="Chez Mamie", variant="tamalou")
    before = (Game.objects.count(), Round.objects.count(), RuleSet.objects.count())
    for url in (
        f"/g/{game.edit_key}/",
        f"/g/{game.edit_key}/rounds/{stored.pk}/edit/",
        f"/g/{game.edit_key}/rounds/{stored.pk}/delete/",
        "/new/tamalou/",
        "/import/",
        f"/h/{rule_set.key}/edit/",
    ):
        head, get = client.head(url), client.get(url)
        assert head.status_code == get.status_code == 200, url
        assert head.content == b"" and head["Content-Type"] == get["Content-Type"], url
    assert (Game.objects.count(), Round.objects.count(), RuleSet.objects.count()) == before
