"""`make load`, short: eight phones on one game through gunicorn, one correcting round 1, and
a worker killed midway (bench/load.py). Nothing acknowledged is lost, nothing is stored twice,
and the totals shown are the referee's over the rounds as stored.

Runs on a SQLite file of its own, or, in `make test`'s PostgreSQL pass, on a fresh database of
the same server (created and dropped here; the test database is not touched)."""

from __future__ import annotations

import urllib.parse

import pytest
from django.db import connection

from bench.load import fresh_database, run
from scoring.games.models import Game
from tests.helpers import NOBODY_CALLED

pytestmark = pytest.mark.load


def postgres_server() -> str | None:
    """The suite's PostgreSQL server, when the suite runs on one."""
    if connection.vendor != "postgresql":
        return None
    params = connection.settings_dict
    user = urllib.parse.quote(params["USER"] or "")
    if params["PASSWORD"]:
        user += ":" + urllib.parse.quote(params["PASSWORD"])
    return f"postgresql://{user}@{params['HOST'] or 'localhost'}:{params['PORT'] or 5432}/postgres"


def test_phones_a_correction_and_a_killed_worker_lose_and_duplicate_nothing(tmp_path):
    with fresh_database(tmp_path, postgres_server()) as database:
        # The time limit only bounds a broken run; a sound one ends when 12 rounds are saved.
        report = run(database, tmp_path, phones=8, rounds=12, kill_after=4, seconds=30)
    print("\n".join(report.lines()))
    assert report.lost == []
    assert report.duplicated == []
    assert report.totals == report.recomputed and len(report.totals) == 4
    assert report.failures == []
    assert report.stored == 12
    assert report.killed and report.respawned_in is not None
    assert report.count("add", "saved") + report.unknown_stored == 12


@pytest.mark.django_db
def test_a_round_sent_again_after_its_answer_was_lost_is_not_offered_as_a_new_round(client):
    """A worker killed after the commit, before the answer: the phone saves the same form
    again. Once another phone has saved the next round, the app says round 1 'was saved from
    another phone' and offers this phone's hands as round 3: one tap stores them twice.
    (Sent again while still the last round it is recognised: the double-tap case.)"""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    url = f"/g/{game.edit_key}/"
    first = {"number": 1, "save": "1", "total_0": "3", "total_1": "9", **NOBODY_CALLED}
    assert client.post(url, first).status_code == 302  # stored; the answer never arrives
    other = client.__class__()
    assert other.post(url, {**first, "number": 2, "total_0": "4"}).status_code == 302
    response = client.post(url, first)  # Save again
    if response.status_code == 409:
        page = response.content.decode()
        assert "was saved from another phone" not in page  # it is this phone's own round
        assert 'name="number" value="3"' not in page  # not offered again as a new round
    else:
        assert response.status_code == 302
    assert len(game.rounds.all()) == 2
