"""The web layer's shape: one round form that saves itself, chosen by the game; views that only
look up, bind, save and render; the sheet's HTTP caching in one decorator, with a cache that
strangers cannot grow and Cache-Control on everything that carries a key."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from scoring.games.models import Conflict, Game, Round
from scoring.memorycache import BoundedMemoryCache
from scoring.pages import http as httpcache
from scoring.pages.forms import HandsForm, RoundForm
from scoring.pages.match import CountsForm

pytestmark = pytest.mark.django_db

VIEWS = Path(__file__).resolve().parent.parent / "scoring" / "views.py"
GAME_WRITES = {"add_round", "replace_round", "delete_round", "restore_round", "end", "resume"}
GAME_WRITES |= {"set_clock", "rematch", "import_file", "create", "store"}


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
    form = HandsForm({"number": "1", "total_0": "3", "total_1": "4"}, game=played, number=1)
    assert form.save()
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
    assert HandsForm({"number": "1", "total_0": "3", "total_1": "4"}, game=played, number=1).save()
    late = HandsForm({"number": "1", "total_0": "9", "total_1": "9"}, game=played, number=1)
    with pytest.raises(Conflict):
        late.save()
    assert Round.objects.count() == 1


def test_the_views_only_look_up_bind_save_and_render():
    source = VIEWS.read_text()
    tree = ast.parse(source)
    assert len(source.splitlines()) < 400
    assert "is_match" not in source
    called = {
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    }
    assert not called & GAME_WRITES
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            assert node.end_lineno - node.lineno < 30, node.name
            if node.args.args and node.args.args[0].arg == "request":
                assert ast.unparse(node.args.args[0].annotation) == "HtmxHttpRequest"


# --- the page cache ---------------------------------------------------------------------------


def page_key(path: str = "/g/k/", host: str = "testserver", version="v1", link="edit", lang="en"):
    request = RequestFactory().get(path, HTTP_HOST=host)
    with translation.override(lang):
        return httpcache.page_key(request, version, link)


def test_requests_differing_in_one_key_input_get_their_own_page():
    keys = {
        page_key(),
        page_key(version="v2"),
        page_key(link="share"),
        page_key(lang="fr"),
        page_key(host="127.0.0.1"),
        page_key(path="/g/k/live/"),
    }
    assert len(keys) == 6
    assert page_key(path="/g/k/?q=1") == page_key()  # built from the path alone


def test_two_hosts_get_their_own_share_link(client):
    played = game()
    here = client.get(f"/g/{played.edit_key}/").content.decode()
    there = client.get(f"/g/{played.edit_key}/", HTTP_HOST="127.0.0.1").content.decode()
    assert f"http://testserver/s/{played.share_key}/" in here
    assert f"http://127.0.0.1/s/{played.share_key}/" in there
    assert "testserver" not in there


def test_a_foreign_query_string_creates_no_cache_entry_and_no_render(client, monkeypatch):
    played = game()
    client.get(f"/s/{played.share_key}/")
    entries = len(cache._cache)
    rendered = []
    real = httpcache.render_to_string
    monkeypatch.setattr(
        httpcache, "render_to_string", lambda *a, **k: rendered.append(1) or real(*a, **k)
    )
    for n in range(5):
        response = client.get(f"/s/{played.share_key}/?q={n}")
        assert response.status_code == 200 and f"q={n}" not in response.content.decode()
    assert rendered == []
    assert len(cache._cache) == entries
    assert client.get(f"/s/{played.share_key}/").status_code == 200
    assert len(cache._cache) == entries


def test_live_without_an_etag_is_rendered_once_per_state(client, monkeypatch):
    played = game()
    rendered = []
    real = httpcache.render_to_string
    monkeypatch.setattr(
        httpcache, "render_to_string", lambda *a, **k: rendered.append(1) or real(*a, **k)
    )
    first = client.get(f"/s/{played.share_key}/live/")
    second = client.get(f"/s/{played.share_key}/live/")
    assert first.content == second.content and 'id="live-top"' in first.content.decode()
    assert rendered == [1]
    etag = first["ETag"]
    assert client.get(f"/s/{played.share_key}/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    client.post(f"/g/{played.edit_key}/", {"number": "1", "total_0": "3", "total_1": "4"})
    changed = client.get(f"/s/{played.share_key}/live/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert rendered == [1, 1]


def test_the_cache_is_bounded_in_bytes_least_recently_used_first():
    bounded = BoundedMemoryCache("bounded-test", {"OPTIONS": {"MAX_BYTES": 3000}})
    bounded.clear()
    for n in range(10):
        bounded.set(f"page{n}", b"x" * 900)
        assert bounded.bytes_held <= 3000
    assert bounded.get("page9") is not None and bounded.get("page0") is None
    bounded.get("page7")  # read: kept over page8
    bounded.set("page10", b"x" * 900)
    assert bounded.get("page7") is not None and bounded.get("page8") is None
    bounded.set("huge", b"x" * 5000)
    assert bounded.get("huge") is None and bounded.bytes_held <= 3000
    bounded.set("count", 1)
    assert bounded.incr("count", 4) == 5 and bounded.get("count") == 5
    bounded.delete("count")
    held = bounded.bytes_held
    bounded.clear()
    assert held > 0 and bounded.bytes_held == 0


def test_the_bounded_cache_keeps_any_key_of_the_apps_without_a_memcached_warning():
    """Its keys never reach a memcached: Django's check of each character is skipped (the
    suite turns warnings into errors, so a warning fails this test)."""
    bounded = BoundedMemoryCache("bounded-keys", {})
    odd = "round entry:" + "é" * 300  # a space, accents, over memcached's 250 characters
    bounded.set(odd, "drawn")
    assert bounded.get(odd) == "drawn" and bounded.get(odd + "x") is None


def test_the_sites_cache_is_the_bounded_one():
    assert isinstance(cache._cache, dict) and hasattr(cache, "bytes_held")


# --- Cache-Control and HEAD -------------------------------------------------------------------


def private(response) -> bool:
    control = {part.strip() for part in response.get("Cache-Control", "").split(",")}
    return {"private", "no-cache"} <= control


def test_everything_that_carries_a_key_is_private_and_checked_again(client):
    from scoring.games.models import RuleSet

    played = game()
    client.post(f"/g/{played.edit_key}/", {"number": "1", "total_0": "3", "total_1": "4"})
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


def test_a_message_or_an_undo_is_never_served_from_the_cache(client):
    played = game()
    client.post(f"/g/{played.edit_key}/", {"number": "1", "total_0": "3", "total_1": "4"})
    stored = Round.objects.get()
    client.get(f"/g/{played.edit_key}/")  # cached
    client.post(f"/g/{played.edit_key}/rounds/{stored.pk}/delete/")
    page = client.get(f"/g/{played.edit_key}/").content.decode()
    assert re.search(r"/rounds/\d+/restore/", page)
    other = Client()
    other.cookies["django_language"] = "en"
    assert not re.search(r"/rounds/\d+/restore/", other.get(f"/g/{played.edit_key}/").text)


def test_a_page_asked_for_by_many_at_once_is_rendered_once(monkeypatch):
    """Every phone following a game asks for its live part as soon as a save is pushed: the
    first renders it, the others wait for it instead of rendering it again."""
    import threading

    from django.template.response import TemplateResponse

    factory = RequestFactory()
    renders, go, changed = [], threading.Event(), threading.Condition()
    missed: list[str] = []  # the threads that found no page in the cache, in order
    real = httpcache.cache

    class Watched:
        def get(self, key, *args, **kwargs):
            found = real.get(key, *args, **kwargs)
            if found is None:
                with changed:
                    missed.append(threading.current_thread().name)
                    changed.notify_all()
            return found

        def __getattr__(self, name):
            return getattr(real, name)

    monkeypatch.setattr(httpcache, "cache", Watched())

    def ask(name: str, answers: dict) -> None:
        request = factory.get("/g/K/live/")

        def view():
            with changed:
                renders.append(name)
                changed.notify_all()
            assert go.wait(10)
            return TemplateResponse(request, "404.html", {})

        answers[name] = httpcache.precompressed(request, "page:once", view).content

    answers: dict[str, bytes] = {}
    first = threading.Thread(target=ask, args=("first", answers), name="first")
    first.start()
    with changed:
        assert changed.wait_for(lambda: renders == ["first"], 10)
    second = threading.Thread(target=ask, args=("second", answers), name="second")
    second.start()
    with changed:  # the second found no page either: the first is still rendering it
        assert changed.wait_for(lambda: "second" in missed, 10)
    go.set()
    first.join(10)
    second.join(10)
    assert renders == ["first"]
    # The same page, each with its own CSRF token.
    token = rb"\b[A-Za-z0-9]{64}\b"  # Django's CSRF tokens
    same = [re.sub(token, b"", answers[name]) for name in ("first", "second")]
    assert same[0] == same[1] and b"<html" in same[0]


@given(st.text(alphabet=st.sampled_from("ab<> \t\n\r\u00a0\u202f\u2028\x0b"), max_size=40))
def test_a_page_loses_its_indentation_as_the_pattern_would_take_it(html):
    assert httpcache.without_indentation(html) == re.sub(r"\s*\n\s*", "\n", html)


@pytest.mark.django_db
def test_every_page_a_phone_opens_answers_head_as_get_without_its_body(client):
    """HEAD is GET without the body (RFC 9110): the round's edit and delete pages answered 405,
    and a form page must not take it for a post."""
    from scoring.games.models import RuleSet

    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    client.post(f"/g/{game.edit_key}/", {"number": 1, "save": "1", "total_0": "3", "total_1": "9"})
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
