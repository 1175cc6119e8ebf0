from __future__ import annotations

import pytest
from django.utils import translation

from scoring.pages.display import say
from scoring.referee.variants import VARIANTS

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

    from scoring.games.models import Game, new_key
    from scoring.pages import device

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

    answer = client.post("/new/tamalou/", {"name_0": "Léa", "name_1": "Marc", "action": "create"})
    assert answer.status_code == 302, answer.content.decode()[:500]
    cookie = answer.cookies[settings.SESSION_COOKIE_NAME]
    assert len(f"{cookie.key}={cookie.value}") <= 4096
    newest = Game.objects.get(players=["Léa", "Marc"])
    assert client.session["games"][0] == newest.edit_key
    assert len(client.session["games"]) == device.MAX_GAMES
