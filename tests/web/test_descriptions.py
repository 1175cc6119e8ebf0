"""What a page says of itself: its description, the preview a shared link shows, and
machine-readable times."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from scoring.referee import gamefile
from scoring.store.models import Game, Round
from scoring.templatetags.tamalou import machine_time
from tests.web.helpers import finished_dutch_game


def description_of(html: str) -> str:
    found = re.search(r'<meta name="description" content="([^"]+)">', html)
    assert found, "no meta description"
    return found.group(1)


@pytest.mark.django_db
def test_every_page_has_a_description_of_its_own(client):
    game = Game.objects.create(variant="tamoul", players=["Léa", "Marc"])
    Round.objects.create(game=game, position=1, data={"hands": {"Léa": 4, "Marc": 9}})
    pages = [
        "/",
        "/new/",
        "/new/tamoul/",
        "/rules/",
        "/rules/tamoul/",
        "/rules/tambouille/",
        "/stats/",
        "/import/",
        f"/g/{game.edit_key}/",
        "/no-such-page/",
    ]
    said = {}
    for path in pages:
        response = client.get(path)
        said[path] = description_of(response.content.decode())
    assert said["/rules/tamoul/"] != said["/rules/"] != said["/"]
    assert said["/new/tamoul/"] == said["/rules/tamoul/"]  # the variant's summary
    assert "Tamoul" in said["/"] and said["/no-such-page/"] == said["/"]
    assert "<" not in "".join(said.values())
    assert "Tambouille · Rules · Tamalou Ref</title>" in client.get("/rules/tambouille/").text


@pytest.mark.django_db
def test_a_shared_sheet_link_previews_the_variant_the_players_and_who_leads(client):
    game = Game.objects.create(variant="dutch", players=["Léa", "Marc", "Nina"])
    share = f"/s/{game.share_key}/"
    html = client.get(share).content.decode()
    assert description_of(html) == "Dutch · Léa, Marc, Nina · No round yet"
    assert '<meta property="og:title" content="Dutch · Tamalou Ref">' in html
    assert (
        '<meta property="og:description" content="Dutch · Léa, Marc, Nina · No round yet">' in html
    )

    # The page is cached per state of the game: a new round is a new description.
    game.add_round(1, gamefile.round_from_json({"hands": {"Léa": 7, "Marc": 3, "Nina": 3}}, 1))
    html = client.get(share).content.decode()
    assert (
        description_of(html) == "Dutch · Léa, Marc, Nina · 1 round played · Leaders: Marc, Nina (3)"
    )
    client.cookies["django_language"] = "fr"
    html = client.get(share).content.decode()
    assert (
        description_of(html)
        == "Dutch · Léa, Marc, Nina · 1 manche jouée · En tête\u202f: Marc, Nina (3)"
    )


@pytest.mark.django_db
def test_a_finished_game_and_a_match_describe_their_end_and_leader(client):
    done = finished_dutch_game(["Léa", "Marc", "Nina"])
    sheet = done.score()
    said = description_of(client.get(f"/s/{done.share_key}/").content.decode())
    assert said == f"Dutch · Léa, Marc, Nina · Game over · Winner: {sheet.winners[0]}"
    match = Game.objects.create(variant="tambouille", players=["Léa", "Marc"])
    Round.objects.create(game=match, position=1, data={"hands": {"Léa": 3, "Marc": 9}})
    html = client.get(f"/g/{match.edit_key}/").content.decode()
    assert description_of(html) == "Tambouille · Léa, Marc · 1 turn round played · Leader: Léa (3)"
    assert '<meta property="og:title" content="Tambouille · Tamalou Ref">' in html


@pytest.mark.django_db
def test_datetime_attributes_are_valid_html(client):
    moment = timezone.now().replace(microsecond=904019)
    assert MACHINE_TIME.match(machine_time(moment))
    assert machine_time(None) == ""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    Game.objects.filter(pk=game.pk).update(updated_at=moment)
    client.get(f"/g/{game.edit_key}/")  # this phone knows the game: the home page lists it
    match = Game.objects.create(variant="tambouille", players=["Léa", "Marc"])
    client.post(f"/g/{match.edit_key}/clock/start/", {"turn": 0})
    pages = ["/", "/stats/", f"/g/{match.edit_key}/"]
    found = []
    for path in pages:
        found += re.findall(r'datetime="([^"]*)"', client.get(path).content.decode())
    assert len(found) >= 2
    assert all(MACHINE_TIME.match(value) for value in found), found
    assert timezone.localtime(moment).isoformat(timespec="seconds") in found


MACHINE_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?([+-]\d\d:\d\d|Z)$")
