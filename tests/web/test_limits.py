"""What a stranger cannot do to the server: create things past a rate (429, the app's page, in
both languages), send a body past its size (413), or have a hostile file hold a worker."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from scoring.guards.limits import parse_rate
from scoring.guards.models import RateBucket
from scoring.store.models import Game, Round
from tests.helpers import EXAMPLES

pytestmark = pytest.mark.django_db

NEW_GAME = {"name_0": "Léa", "name_1": "Marc"}


def phone(address: str = "192.0.2.1", language: str = "en", **headers) -> Client:
    client = Client(REMOTE_ADDR=address, **headers)
    client.cookies["django_language"] = language
    return client


def a_file(content: bytes, name: str = "game.json"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content, content_type="application/json")


@pytest.fixture
def tight(settings):
    """Rates of 3 per day, so that a test never crosses a window's end while it runs."""
    settings.RATE_LIMITS = {"new-game": "3/d", "import": "3/d", "sync": "3/d", "rule-set": "3/d"}


def test_new_games_past_the_rate_get_the_apps_429_page_and_create_nothing(tight):
    client = phone()
    for _ in range(3):
        assert client.post("/new/tamalou/", NEW_GAME).status_code == 302
    refused = client.post("/new/tamalou/", NEW_GAME)
    page = refused.content.decode()
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert "Too many requests in a short time" in page and 'class="bar"' in page
    assert "Nothing was saved" in page
    assert Game.objects.count() == 3
    french = phone(language="fr").post("/new/tamalou/", NEW_GAME).content.decode()
    assert "Trop de demandes en peu de temps" in french


def test_the_new_game_pages_buttons_that_create_nothing_are_not_counted(tight):
    """Each has an address of its own, which the limit does not count."""
    client = phone()
    typed = {"name_0": "Léa", "name_1": ""}
    for _ in range(2):
        for tap in ("preview", "cards"):
            assert client.post(f"/new/tamalou/{tap}/", typed).status_code == 200
        assert client.post("/new/tamalou/other/", typed).status_code == 302
    for _ in range(3):
        assert client.post("/new/tamalou/", NEW_GAME).status_code == 302


def test_each_client_address_has_its_own_count(tight):
    for _ in range(3):
        phone("192.0.2.1").post("/new/tamalou/", NEW_GAME)
    assert phone("192.0.2.1").post("/new/tamalou/", NEW_GAME).status_code == 429
    assert phone("192.0.2.2").post("/new/tamalou/", NEW_GAME).status_code == 302
    assert phone("2001:db8:1::5").post("/new/tamalou/", NEW_GAME).status_code == 302


def test_behind_a_proxy_the_address_it_names_is_counted(tight, settings):
    settings.RATELIMIT_CLIENT_HEADER = "HTTP_X_FORWARDED_FOR"
    proxy = "198.51.100.7"
    for _ in range(3):
        phone(proxy, HTTP_X_FORWARDED_FOR="203.0.113.9, 192.0.2.1").post("/new/tamalou/", NEW_GAME)
    again = phone(proxy, HTTP_X_FORWARDED_FOR="192.0.2.1")
    assert again.post("/new/tamalou/", NEW_GAME).status_code == 429
    other = phone(proxy, HTTP_X_FORWARDED_FOR="192.0.2.2")
    assert other.post("/new/tamalou/", NEW_GAME).status_code == 302
    nonsense = phone(proxy, HTTP_X_FORWARDED_FOR="not an address, \x00")  # the proxy counts
    assert nonsense.post("/new/tamalou/", NEW_GAME).status_code == 302
    assert Game.objects.count() == 5


def test_a_rematch_counts_as_a_new_game(tight):
    client = phone()
    client.post("/new/tamalou/", NEW_GAME)
    game = Game.objects.get()
    # A game has one rematch: the next one is the rematch's own.
    second = client.post(f"/g/{game.edit_key}/rematch/")
    assert second.status_code == 302
    assert client.post(f"{second['Location']}rematch/").status_code == 302
    assert client.post(f"{second['Location']}rematch/").status_code == 429
    assert Game.objects.count() == 3


def test_imports_past_the_rate_are_refused(tight):
    client = phone()
    content = (EXAMPLES / "tamoul.game.json").read_bytes()
    for _ in range(3):
        assert client.post("/import/", {"file": a_file(content)}).status_code == 302
    assert client.post("/import/", {"file": a_file(content)}).status_code == 429
    assert Game.objects.count() == 3


def test_syncs_past_the_rate_are_refused_and_the_phone_keeps_its_round(tight):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    client = phone()
    for number in (1, 2, 3):
        posted = {"number": number, "total_0": "3", "total_1": "9", "save": "1"}
        assert client.post(f"/g/{game.edit_key}/rounds/sync/", posted).json() == {"saved": number}
    posted = {"number": 4, "total_0": "3", "total_1": "9", "save": "1"}
    refused = client.post(f"/g/{game.edit_key}/rounds/sync/", posted)
    assert refused.status_code == 429  # not JSON: pending.js keeps the round and tries later
    assert Round.objects.filter(game=game).count() == 3


def test_copies_of_a_shared_set_past_the_rate_get_the_429_page_and_save_nothing(tight):
    """A phone a set was shared with saves a copy each time: a probe made 100 in 3 seconds."""
    from scoring.store.models import RuleSet

    shared = RuleSet.objects.create(name="Chez Mamie", variant="tamalou")
    stranger = phone("192.0.2.7")
    saved = {"rules_name": "Chez nous", "joker_value": "-5"}
    for _ in range(3):
        assert stranger.post(f"/h/{shared.key}/edit/", saved).status_code == 302
    redrawn = stranger.post(f"/h/{shared.key}/edit/cards/", saved)
    assert redrawn.status_code == 200  # another deck's cards: nothing saved, not counted
    refused = stranger.post(f"/h/{shared.key}/edit/", saved)
    assert refused.status_code == 429 and "Too many" in refused.content.decode()
    # a save is counted whatever else the post says (a step the page no longer sends)
    assert stranger.post(f"/h/{shared.key}/edit/", {**saved, "step": "x"}).status_code == 429
    assert RuleSet.objects.count() == 1 + 3
    assert phone("192.0.2.8").post(f"/h/{shared.key}/edit/", saved).status_code == 302


def test_the_counts_are_rows_of_the_database_every_server_shares(tight):
    """The limits count in the database, not in a process's memory: a bucket per client and
    kind of write, emptied by each request it counts."""
    client = phone()
    for _ in range(3):
        client.post("/new/tamalou/", NEW_GAME)
    bucket = RateBucket.objects.get()
    assert bucket.key == "new-game:192.0.2.1" and bucket.tokens < 1


def test_a_bucket_fills_again_at_its_rates_pace():
    assert parse_rate("30/10m") == (30, 600) and parse_rate("5/s") == (5, 1)
    with pytest.raises(ValueError):
        parse_rate("30 a minute")
    assert [RateBucket.take("k", 2, 60) for _ in range(3)] == [True, True, False]
    RateBucket.objects.filter(key="k").update(updated_at=timezone.now() - timedelta(seconds=31))
    assert RateBucket.take("k", 2, 60) and not RateBucket.take("k", 2, 60)  # one back, 30 s each
    RateBucket.objects.filter(key="k").update(updated_at=timezone.now() - timedelta(days=9))
    assert [RateBucket.take("k", 2, 60) for _ in range(3)] == [True, True, False]  # full, no more


def test_the_default_rates_let_a_busy_table_play_its_evening():
    """Twelve games, twelve imports and a game of 60 rounds sent from offline, one phone."""
    client = phone()
    for _ in range(12):
        assert client.post("/new/tamalou/", NEW_GAME).status_code == 302
    content = (EXAMPLES / "tamoul.game.json").read_bytes()
    for _ in range(12):
        assert client.post("/import/", {"file": a_file(content)}).status_code == 302
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"], settings={})
    for number in range(1, 61):
        posted = {"number": number, "total_0": "0", "total_1": "1", "save": "1"}
        answer = client.post(f"/g/{game.edit_key}/rounds/sync/", posted)
        assert answer.json().get("saved") == number, answer.content


# --- sizes ---------------------------------------------------------------------------------


def test_a_body_past_the_limit_is_refused_413_before_it_is_read(settings):
    settings.MAX_REQUEST_BYTES = 1000
    client = phone()
    response = client.post("/import/", {"file": a_file(b" " * 2000)})
    assert response.status_code == 413
    assert "This request is too large" in response.content.decode()
    assert not Game.objects.exists()


def test_a_file_over_2_mb_under_the_body_limit_is_refused_next_to_the_field():
    response = phone().post("/import/", {"file": a_file(b" " * 2_000_100)})
    page = response.content.decode()
    assert response.status_code == 400
    assert 'class="error" role="alert">The file is larger than 2 MB.' in page


def test_form_fields_past_djangos_limit_are_a_clean_413():
    response = phone().post("/new/tamalou/", {**NEW_GAME, "name_2": "x" * 250_000})
    assert response.status_code == 413
    assert "This request is too large" in response.content.decode()
    assert not Game.objects.exists()


def test_the_probes_key_bomb_is_refused_next_to_the_field_within_a_second():
    """Timed in CPU time of this process, which serves the test client's request: the other
    jobs of a busy machine do not count (`make probe` sends it through the stack)."""
    bomb = ("{" + ",".join(f'"k{i}":0' for i in range(150_000)) + "}").encode()
    assert 1_600_000 < len(bomb) < 2_000_000
    started = time.process_time()
    response = phone().post("/import/", {"file": a_file(bomb)})
    elapsed = time.process_time() - started
    assert response.status_code == 400 and elapsed < 1, elapsed
    assert 'role="alert">An object of the file has more than 64 keys.' in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("debug", [True, False])
def test_a_latin_1_form_with_a_csrf_cookie_and_origin_is_the_apps_400(settings, debug):
    """With DEBUG on too: Django's debug page would read the body again."""
    settings.DEBUG = debug
    client = Client(enforce_csrf_checks=True, REMOTE_ADDR="192.0.2.1")
    client.cookies["csrftoken"] = "a" * 32
    client.cookies["django_language"] = "en"
    response = client.post(
        "/new/tamalou/",
        "name_0=L%E9a&name_1=Marc&action=create",
        content_type="application/x-www-form-urlencoded; charset=latin-1",
        HTTP_ORIGIN="http://testserver",
        HTTP_X_CSRFTOKEN="a" * 32,
    )
    assert response.status_code == 400
    assert "This request could not be read" in response.content.decode()
    assert not Game.objects.exists()


# --- what each limit counts ----------------------------------------------------------------


def test_house_rules_saved_under_a_name_are_counted_with_the_saved_sets(tight):
    """Save as… on the new-game page creates a set: counted with the sets saved on their own
    page (RATE_LIMIT_RULE_SETS), not with the new games, which the phone can still start."""
    from scoring.store.models import RuleSet

    stranger = phone("192.0.2.11")
    saving = {**NEW_GAME, "rules_name": "Chez nous", "step": "x"}
    for _ in range(3):
        assert stranger.post("/new/tamalou/save-rules/", saving).status_code == 302  # to the set
    assert stranger.post("/new/tamalou/save-rules/", saving).status_code == 429
    assert RuleSet.objects.count() == 3
    assert stranger.post("/new/tamalou/", NEW_GAME).status_code == 302
