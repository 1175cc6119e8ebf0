"""The summary each game keeps (where it stands after its last round, each player's figures)
always equals what the referee computes from the stored rounds: after saves through the page,
corrections, deletions, restores, the end and resumption of a game, imports and backups.
A saved round adds its figures to it; the statistics and the home page read it.

Runs on SQLite and, with DATABASE_URL, on PostgreSQL."""

from __future__ import annotations

import dataclasses
import io
import json
import pickle
import re
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command

from scoring.games.models import Game, Round, StoredSheet
from scoring.referee import engine, gamefile, story
from tests.test_sheet import save_round, url

pytestmark = pytest.mark.django_db
EXAMPLES = Path(__file__).parent / "examples"


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
    # What the page shows is the referee's sheet of every round, scored again; the change
    # stored it, so that no server scores the game again to show it.
    cache.clear()
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.score() == engine.score_game(fresh.as_entry())
    assert StoredSheet.read(fresh.pk, fresh.sheet_key()) == fresh.score()
    # The size of its file, which the next round is checked against, is the export's.
    assert fresh.file_bytes == len(gamefile.dumps(fresh.game_file()).encode())
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


def test_a_round_saved_while_the_sheet_before_is_cached_extends_that_sheet(client):
    """Tamoul's reset (exactly 100 falls back to 50): the new sheet is the cached one with
    one more round, equal to scoring the whole game again."""
    game = Game.objects.create(variant="tamoul", players=["Léa", "Marc"])
    save_round(client, game, 1, {"Léa": "60", "Marc": "0"}, caller="Marc")
    client.get(url(game))  # the sheet of this state is cached now
    game = Game.objects.get(pk=game.pk)
    game.add_round(2, engine.RoundEntry(hands={"Léa": 40, "Marc": 1}, caller="Marc"))
    kept = assert_kept(game)
    assert kept.totals["Léa"] == 50  # 60 + 40 = 100 → 50
    fresh = Game.objects.get(pk=game.pk)
    assert game.score() == engine.score_game(fresh.as_entry())


def test_corrections_and_saves_on_one_loaded_game_keep_its_stored_sheet_exact(client):
    """A correction keeps the stored rounds before it as they were stored and scores on
    from there; on the same loaded game, one change after another (each starts from the
    sheet the one before kept), the stored sheet stays the referee's sheet of every round."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina"])
    for number in range(1, 7):
        hands = {"Léa": str(number), "Marc": str(2 * number), "Nina": "3"}
        save_round(client, game, number, hands, caller="Marc")
    game = Game.objects.get(pk=game.pk)
    before = game.score()
    rounds = list(game.rounds.live().order_by("position"))
    game.replace_round(rounds[3].pk, 0, engine.RoundEntry(hands={"Léa": 9, "Marc": 2, "Nina": 1}))
    assert game.score().rounds[:3] == before.rounds[:3]
    assert assert_kept(game).totals != story.summarize(before).totals
    game.replace_round(rounds[5].pk, 0, engine.RoundEntry(hands={"Léa": 0, "Marc": 9, "Nina": 3}))
    assert_kept(game)
    game.add_round(7, engine.RoundEntry(hands={"Léa": 1, "Marc": 2, "Nina": 3}, caller="Léa"))
    assert assert_kept(game).rounds == 7
    changed = game.score()
    game.replace_round(rounds[0].pk, 0, engine.RoundEntry(hands={"Léa": 8, "Marc": 2, "Nina": 9}))
    assert assert_kept(game).totals != story.summarize(changed).totals


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


@pytest.mark.parametrize("older", ["whole", "framed"])
def test_a_sheet_stored_by_older_code_is_scored_afresh(client, older):
    """A sheet stored in a format of the code before, even under the key the game has now:
    the previous one (one pickle of the whole sheet, no standing apart), or the one before
    (a frame of the count of rounds and the standing, then a frame per round's result, each
    its length in 4 bytes and a pickle). The page shows the referee's sheet, no error, and the
    sheet is stored again in today's format."""
    game = Game.objects.create(variant="tamoul", players=["Léa", "Marc"])
    save_round(client, game, 1, {"Léa": "60", "Marc": "0"}, caller="Marc")
    save_round(client, game, 2, {"Léa": "40", "Marc": "1"}, caller="Marc")
    game = Game.objects.get(pk=game.pk)
    sheet = engine.score_game(game.as_entry())

    def frame(value) -> bytes:
        data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
        return len(data).to_bytes(4, "big") + data

    wrong = dataclasses.replace(sheet, totals={"Léa": 1, "Marc": 2})  # would show if read
    if older == "whole":
        stored = {"data": pickle.dumps(wrong, pickle.HIGHEST_PROTOCOL), "standing": b""}
    else:
        data = frame((len(sheet.rounds), dataclasses.replace(wrong, rounds=[])))
        stored = {"data": data + b"".join(frame(result) for result in sheet.rounds)}
    # Older code kept no running totals nor newest rounds beside it (the migration adds them empty).
    stored |= {"running": b"", "recent": b""}
    StoredSheet.objects.filter(game=game).update(key=game.sheet_key(), **stored)
    cache.clear()

    page = client.get(url(game))
    assert page.status_code == 200
    shown = re.findall(r'<span class="total">([−-]?\d+)</span>', page.content.decode())
    assert [int(t.replace("−", "-")) for t in shown] == [-40, 50]
    assert sheet.totals == {"Léa": 50, "Marc": -40}  # Léa's 60 + 40 = 100 → 50
    assert StoredSheet.read(game.pk, game.sheet_key()) == sheet


def test_a_round_saved_on_a_sheet_stored_by_older_code_is_scored_with_the_whole_game(client):
    """The save after a deploy: the stored sheet does not read, so the game is scored afresh
    with the new round, and its summary made again from that sheet."""
    game = Game.objects.create(variant="dutch", players=["Léa", "Marc", "Nina"])
    save_round(client, game, 1, {"Léa": "30", "Marc": "2", "Nina": "40"}, caller="Marc")
    game = Game.objects.get(pk=game.pk)
    old = pickle.dumps(game.score(), pickle.HIGHEST_PROTOCOL)
    StoredSheet.objects.filter(game=game).update(data=old, standing=b"")
    Game.objects.filter(pk=game.pk).update(summary=None)
    response = save_round(client, game, 2, {"Léa": "40", "Marc": "3", "Nina": "30"}, caller="Marc")
    assert response.status_code == 302
    kept = assert_kept(game)
    assert kept.rounds == 2 and kept.totals["Léa"] == 70


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


def test_a_saved_round_scores_that_round_alone(client, monkeypatch):
    """A long game stays quick to save: the new round is scored on from the stored sheet,
    the rounds before it neither read nor scored again; so is a correction of the last
    round. The stored sheet is still the referee's sheet of every round."""
    game = twelve_rounds(client, "tamoul")
    scored = count_scored(monkeypatch)
    game = Game.objects.get(pk=game.pk)
    assert game.live_count() == 12 and not game.score().finished
    game.add_round(13, engine.RoundEntry(hands={"Léa": 5, "Marc": 9, "Nina": 2}, caller="Nina"))
    last = game.live_rounds()[-1]
    game.replace_round(last.pk, 0, engine.RoundEntry(hands={"Léa": 7, "Marc": 1, "Nina": 2}))
    assert scored == [1, 1]
    assert assert_kept(game).rounds == 13


def test_a_saved_round_does_not_read_the_results_of_the_rounds_before_it(client, monkeypatch):
    """A save's work does not grow with the game: round 13 is scored from where the stored
    sheet stands after round 12, and its result added after theirs, which are never read:
    here they are not even readable, and the save goes through scoring round 13 alone, its
    summary exact. The sheet read next does not read, so it is scored afresh: the page is
    still right."""
    game = twelve_rounds(client, "dutch")
    StoredSheet.objects.filter(game=game).update(data=b"not the results of rounds 1 to 12")
    scored = count_scored(monkeypatch)
    hands = {"Léa": "5", "Marc": "9", "Nina": "2"}
    assert save_round(client, game, 13, hands, caller="Nina").status_code == 302
    assert scored == [1]
    monkeypatch.undo()
    assert assert_kept(game).rounds == 13
    assert "Round 13" in client.get(url(game)).content.decode()


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


def test_statistics_read_the_kept_summaries(client):
    """A summary changed behind the app's back shows on /stats/: the page reads it, and
    scores no game."""
    game = Game.objects.import_file((EXAMPLES / "koubo.game.json").read_bytes())
    client.get(url(game))
    stored = dict(Game.objects.get(pk=game.pk).summary)
    player = stored["players"][0]
    stored["figures"] = {**stored["figures"], player: [1, "7", "-12345", "-12345", 0, 0]}
    Game.objects.filter(pk=game.pk).update(summary=stored)
    page = client.get("/stats/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "−12345" in page or "-12345" in page
    json.dumps(stored)  # a summary is plain JSON


def test_a_server_just_started_shows_the_stored_sheet_without_scoring_the_game(client, monkeypatch):
    """Nothing cached: the sheet page reads the sheet the last save stored; the referee
    scores nothing (it would fail here)."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    save_round(client, game, 1, {"Léa": "3", "Marc": "9"}, caller="Léa")
    save_round(client, game, 2, {"Léa": "20", "Marc": "1"}, caller="Marc")
    game = Game.objects.get(pk=game.pk)
    expected = engine.score_game(game.as_entry()).totals
    cache.clear()

    def fails(_game):
        raise AssertionError("the game was scored again")

    monkeypatch.setattr(engine, "score_game", fails)
    sheet = client.get(url(game)).content.decode()
    shown = [int(t) for t in re.findall(r'<span class="total">(-?\d+)</span>', sheet)]
    assert shown == sorted(int(expected[p]) for p in ("Léa", "Marc"))
    assert expected["Léa"] != expected["Marc"]


def test_a_stored_sheet_that_does_not_match_the_game_is_scored_again(client):
    """Unreadable data, or a sheet of the game as it was before a change made outside the
    app (here, ended by an update of the row): scored again from the rounds, and stored."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    save_round(client, game, 1, {"Léa": "3", "Marc": "9"}, caller="Léa")
    game = Game.objects.get(pk=game.pk)
    StoredSheet.objects.filter(game=game).update(data=b"not a sheet")
    cache.clear()
    assert Game.objects.get(pk=game.pk).score() == engine.score_game(game.as_entry())
    assert StoredSheet.read(game.pk, game.sheet_key()) == engine.score_game(game.as_entry())

    Game.objects.filter(pk=game.pk).update(ended=True)  # the state token unchanged
    cache.clear()
    ended = Game.objects.get(pk=game.pk)
    assert ended.score().finished and ended.score().winners == ["Léa"]
    assert StoredSheet.read(ended.pk, ended.sheet_key()) == ended.score()
    assert StoredSheet.objects.filter(game=game).count() == 1


def test_a_timer_tap_and_a_rematch_keep_the_stored_sheet_for_their_new_state(client, monkeypatch):
    """Neither changes what the game is scored from: the state they make keeps the stored
    sheet, so the next page scores nothing (before, it scored the whole game again)."""
    from tests.test_match_sheet import new_match, save, tap

    match = new_match(client, "Léa", "Marc", "Nina")
    assert save(client, match, 3, 2, 5).status_code == 302
    assert not Game.objects.get(pk=match.pk).score().finished  # its timer runs
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    save_round(client, game, 1, {"Léa": "3", "Marc": "9"}, caller="Léa")
    expected = {g.pk: Game.objects.get(pk=g.pk).score() for g in (match, game)}
    states = {g.pk: Game.objects.get(pk=g.pk).state for g in (match, game)}

    assert tap(client, match, "start").status_code == 302
    assert client.post(f"/g/{game.edit_key}/rematch/").status_code == 302
    cache.clear()  # a server just started: only what the database holds

    def fails(_game):
        raise AssertionError("the game was scored again")

    monkeypatch.setattr(engine, "score_game", fails)
    for pk, sheet in expected.items():
        changed = Game.objects.get(pk=pk)
        assert changed.state != states[pk]  # a new state, told to the phones following it
        assert StoredSheet.read(pk, changed.sheet_key()) == sheet
        assert changed.score() == sheet
    for g in (match, game):
        assert client.get(f"/g/{g.edit_key}/").status_code == 200


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
