from __future__ import annotations

import pytest
from django.utils import translation

from scoring.referee.variants import VARIANTS
from scoring.web.display import say

pytestmark = pytest.mark.no_database


def test_home_page_says_what_the_app_is_and_lists_every_variant(client):
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Tamalou" in page and 'name="viewport"' in page
    for variant in VARIANTS.values():
        with translation.override("en"):
            summary = say(variant().summary_text)  # its numbers filled in, the page's way
        assert "{" not in summary and summary.replace("'", "&#x27;") in page


@pytest.mark.django_db
def test_a_phone_with_every_list_full_keeps_its_session_within_what_a_browser_keeps(client):
    """The phone's lists live in a signed cookie, which a browser drops past 4,096 bytes (the
    phone would then forget its newest games): with every list full and an undo pending, the
    cookie the next new game sets is within it, and that game is first on the home page."""
    from django.conf import settings

    from scoring.store.models import Game, new_key
    from scoring.web import device

    session = client.session
    for name, most in [
        ("games", device.MAX_GAMES),
        ("followed", device.MAX_FOLLOWED),
        ("rule_sets", device.MAX_RULE_SETS),
        ("own_rule_sets", device.MAX_RULE_SETS),
        ("tables", device.MAX_TABLES),
        ("followed_tables", device.MAX_TABLES),
    ]:
        session[name] = [new_key() for _ in range(most)]
    session["undo"] = {"game": new_key(), "round": 10**9, "number": 500}
    session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key

    answer = client.post("/new/tamalou/", {"name_0": "Léa", "name_1": "Marc"})
    assert answer.status_code == 302, answer.content.decode()[:500]
    cookie = answer.cookies[settings.SESSION_COOKIE_NAME]
    assert len(f"{cookie.key}={cookie.value}") <= 4096
    newest = Game.objects.get(players=["Léa", "Marc"])
    assert client.session["games"][0] == newest.edit_key
    assert len(client.session["games"]) == device.MAX_GAMES


@pytest.mark.django_db
def test_the_home_and_stats_pages_ask_as_many_queries_for_many_games_as_for_two(client):
    """The phone's games and those it follows are listed with their rounds counted in the
    query that reads them (a stored summary is checked against that count), not once a game."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.web.helpers import stored_game

    def queries(path: str) -> int:
        with CaptureQueriesContext(connection) as done:
            assert client.get(path).status_code == 200
        return len(done)

    def more_games(count: int) -> None:
        for _ in range(count):
            game = stored_game(["Léa", "Marc"], [[1, 2], [4, 5]])
            client.get(f"/g/{game.edit_key}/")  # on this phone
            client.get(f"/s/{stored_game(['Léa', 'Nina'], [[3, 1]]).share_key}/")  # followed

    more_games(2)
    home, stats = queries("/"), queries("/stats/")
    more_games(6)
    assert (queries("/"), queries("/stats/")) == (home, stats)
