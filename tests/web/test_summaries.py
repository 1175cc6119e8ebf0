"""The summary each game keeps (where it stands after its last round, each player's figures)
always equals what the referee computes from the stored rounds: after saves through the page,
corrections, deletions, restores, the end and resumption of a game, imports and backups.
A saved round adds its figures to it; the game's pages read it, and the statistics sum its
players' rows (tests/web/test_player_results.py).

Runs on SQLite and, with DATABASE_URL, on PostgreSQL."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from scoring.referee import engine, gamefile, story
from scoring.store.models import Game, PlayerResult, Round
from tests.helpers import EXAMPLES
from tests.web.helpers import save_round, url

pytestmark = pytest.mark.django_db


def recomputed(game: Game) -> story.GameSummary:
    """The summary computed again from the rounds read straight from the database."""
    game = Game.objects.get(pk=game.pk)
    rounds = list(Round.objects.filter(game=game, deleted_at__isnull=True).order_by("position"))
    return story.summarize(engine.score_game(game.as_entry(game.entries(rounds))))


def assert_kept(game: Game) -> story.GameSummary:
    stored = Game.objects.get(pk=game.pk).summary
    assert stored is not None
    kept = story.summary_from_json(stored)
    assert kept == recomputed(game)
    return kept


def test_saves_corrections_deletions_and_restores_keep_the_summary_exact(client):
    """Dutch: a limit that knocks players out; each save scored from the stored summary."""
    game = Game.objects.create(variant="dutch", players=["Léa", "Marc", "Nina"])
    client.get(url(game))
    for number, hands in enumerate(
        [
            {"Léa": "30", "Marc": "2", "Nina": "40"},
            {"Léa": "40", "Marc": "3", "Nina": "30"},
            {"Léa": "35", "Marc": "1", "Nina": "9"},
        ],
        1,
    ):
        response = save_round(client, game, number, hands, caller="Marc")
        assert response.status_code == 302, response.content.decode()[:500]
        assert assert_kept(game).rounds == number
    kept = assert_kept(game)
    assert kept.progress.eliminated == ("Léa",) and kept.totals["Léa"] == 105
    assert kept.figures["Marc"].calls == 3 and kept.figures["Marc"].calls_succeeded == 3

    first = Round.objects.get(game=game, position=1)
    game.replace_round(first.pk, 0, engine.RoundEntry(hands={"Léa": 2, "Marc": 9, "Nina": 4}))
    kept = assert_kept(game)
    assert kept.progress.eliminated == () and kept.totals["Léa"] == 77

    last = Round.objects.get(game=game, position=3)
    response = client.post(f"{url(game)}rounds/{last.pk}/delete/", {"confirm": "1"})
    assert response.status_code == 302
    assert Round.objects.get(pk=last.pk).deleted_at is not None
    assert assert_kept(game).rounds == 2
    response = client.post(f"{url(game)}rounds/{last.pk}/restore/")
    assert response.status_code == 302
    assert assert_kept(game).rounds == 3


def test_a_game_ended_and_resumed_keeps_its_summary(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    save_round(client, game, 1, {"Léa": "3", "Marc": "9"}, caller="Léa")
    assert client.post(f"{url(game)}end/").status_code == 302
    kept = assert_kept(game)
    assert kept.finished and kept.winners == ("Léa",)
    home = client.get("/").content.decode()
    assert "Léa" in home
    assert client.post(f"{url(game)}resume/").status_code == 302
    assert not assert_kept(game).finished
    save_round(client, game, 2, {"Léa": "5", "Marc": "1"}, caller="Marc")
    assert assert_kept(game).rounds == 2


def test_a_refused_round_changes_no_summary(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    save_round(client, game, 1, {"Léa": "3", "Marc": "9"}, caller="Léa")
    before = Game.objects.get(pk=game.pk).summary
    response = save_round(client, game, 2, {"Léa": "3", "Marc": "999"}, caller="Léa")
    assert response.status_code == 400 and "impossible" in response.content.decode()
    assert Game.objects.get(pk=game.pk).summary == before
    assert Round.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.game.json")))
def test_an_imported_game_keeps_its_summary(name):
    game = Game.objects.import_file((EXAMPLES / name).read_bytes())
    assert_kept(game)


def twelve_rounds(client, variant: str) -> Game:
    game = Game.objects.create(variant=variant, players=["Léa", "Marc", "Nina"])
    for number in range(1, 13):
        hands = {"Léa": "1", "Marc": str(number % 4 + 2), "Nina": "3"}
        assert save_round(client, game, number, hands, caller="Léa").status_code == 302
    return game


def count_scored(monkeypatch) -> list[int]:
    """How many rounds each scoring from a standing scores, from now on."""
    scored: list[int] = []
    continue_game = engine.continue_game

    def counting(rules, before, rounds):
        scored.append(len(rounds))
        return continue_game(rules, before, rounds)

    monkeypatch.setattr(engine, "continue_game", counting)
    return scored


def test_restored_games_keep_their_summaries(tmp_path):
    for name in ("dutch", "tamoul", "koubo"):
        Game.objects.import_file((EXAMPLES / f"{name}.game.json").read_bytes())
    ended = Game.objects.get(variant="koubo")
    ended.end()
    archive = tmp_path / "backup.zip"
    call_command("backup_games", str(archive), stdout=io.StringIO())
    Game.objects.all().delete()
    call_command("restore_games", str(archive), stdout=io.StringIO())
    assert Game.objects.count() == 3
    for game in Game.objects.all():
        assert_kept(game)
    assert story.summary_from_json(Game.objects.get(variant="koubo").summary).finished


def test_a_game_without_a_kept_summary_is_summarized_when_read_and_kept_at_its_next_change(
    client,
):
    """Rows from before summaries were kept (or written around the app): a read computes the
    summary and writes nothing; the next change keeps it."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    Round.objects.create(game=game, position=1, data={"hands": {"Léa": 4, "Marc": 2}})
    client.get(url(game))
    assert client.session.get("games") == [game.edit_key]
    home = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 round" in home
    assert Game.objects.get(pk=game.pk).summary is None
    save_round(client, game, 2, {"Léa": "3", "Marc": "9"}, caller="Léa")
    assert assert_kept(game).rounds == 2


def test_statistics_read_the_kept_rows(client):
    """A player's row changed behind the app's back shows on /stats/: the page sums the rows
    the game's writes keep (``PlayerResult``), and scores no game nor reads its summary."""
    game = Game.objects.import_file((EXAMPLES / "koubo.game.json").read_bytes())
    client.get(url(game))
    json.dumps(Game.objects.get(pk=game.pk).summary)  # a summary is plain JSON
    player = game.players[0]
    PlayerResult.objects.filter(game=game, player=player).update(best=-12345, worst=-12345)
    page = client.get("/stats/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "−12345" in page or "-12345" in page


def test_no_round_makes_a_game_whose_file_its_import_would_refuse(client, monkeypatch):
    """130 rounds of 16 penalties with 200-character reasons made a 2.37 MB file that no
    restore or import took back. Past the most a file holds (2 MB; 3,000 bytes here), the
    round is refused beside the form and nothing is saved; a file that large is not imported
    either."""
    monkeypatch.setattr(gamefile, "MAX_FILE_BYTES", 3000)
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    penalty = {"penalty-TOTAL_FORMS": "1", "penalty-INITIAL_FORMS": "0"}
    long_reason = {
        "penalty-0-player": "Léa",
        "penalty-0-points": "1",
        "penalty-0-reason": "x" * 200,
    }
    number = 0
    while True:
        number += 1
        answer = save_round(
            client, game, number, {"Léa": "3", "Marc": "7"}, caller="Léa", **penalty, **long_reason
        )
        if answer.status_code != 302:
            break
        assert_kept(game)
    assert answer.status_code == 400
    assert "larger than 0 MB, the most a game file may hold" in answer.content.decode()
    assert Game.objects.get(pk=game.pk).live_count() == number - 1
    assert Round.objects.filter(game=game).first().data["penalties"][0]["reason"] == "x" * 200
    exported = client.get(f"{url(game)}export/").content
    assert len(exported) <= 3000
    assert Game.objects.import_file(exported).live_count() == number - 1
    bigger = json.loads(exported)
    bigger["rounds"].append(bigger["rounds"][-1])
    with pytest.raises(engine.GameError, match="the most a game file may hold"):
        Game.objects.import_file(json.dumps(bigger))
