"""Backup and restore: nothing lost, and no half-written archive ever left behind."""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from scoring.backup import MANIFEST, restore_backup, write_backup
from scoring.engine import GameError
from scoring.models import Game, Round
from scoring.views import store_game_file

EXAMPLES = Path(__file__).parent / "examples"


# --- nothing lost -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_backup_then_restore_into_an_empty_database_loses_nothing(client, tmp_path):
    games = [
        store_game_file((EXAMPLES / f"{v}.game.json").read_bytes()) for v in ("tamoul", "dutch")
    ]
    open_ended = Game.objects.create(variant="tamalou", players=["Léa", "Marc"], first_dealer=1)
    client.post(
        f"/g/{open_ended.edit_key}/", {"number": 1, "save": "1", "hand_0": "3", "hand_1": "9"}
    )
    first = Round.objects.get(game=open_ended)
    client.post(
        f"/g/{open_ended.edit_key}/rounds/{first.pk}/edit/",
        {"number": 1, "edits": 0, "save": "1", "hand_0": "4", "hand_1": "9"},
    )
    client.post(f"/g/{open_ended.edit_key}/end/")
    games.append(open_ended)

    def snapshot() -> list:
        rows = []
        for game in Game.objects.order_by("edit_key"):
            rounds = list(game.live_rounds())
            rows.append(
                (
                    game.edit_key,
                    game.share_key,
                    game.variant,
                    game.players,
                    game.settings,
                    game.first_dealer,
                    game.ended,
                    game.created_at,
                    game.updated_at,
                    [(r.data, r.edits, r.created_at) for r in rounds],
                    json.dumps(game.game_file(), sort_keys=True),
                    repr(game.score()),
                )
            )
        return rows

    before = snapshot()
    archive = tmp_path / "backup.zip"
    out = io.StringIO()
    call_command("backup_games", str(archive), stdout=out)
    assert out.getvalue() == f"3 game(s) written to {archive}\n"
    Game.objects.all().delete()
    call_command("restore_games", str(archive), stdout=out)
    assert snapshot() == before
    assert Game.objects.get(edit_key=open_ended.edit_key).score().finished
    assert client.get(f"/s/{games[0].share_key}/").status_code == 200  # the links still work


@pytest.mark.django_db
def test_restore_is_all_or_nothing(tmp_path):
    store_game_file((EXAMPLES / "koubo.game.json").read_bytes())
    archive = tmp_path / "backup.zip"
    write_backup(archive)
    with pytest.raises(GameError, match="already in this database"):
        restore_backup(archive)
    assert Game.objects.count() == 1
    (tmp_path / "bad.zip").write_bytes(b"not a zip")
    with pytest.raises(GameError, match="not a Tamalou Ref backup"):
        restore_backup(tmp_path / "bad.zip")


# --- writing a backup -------------------------------------------------------------------------


def backup_refused(path: Path) -> str:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit:
        call_command("backup_games", str(path), stdout=out, stderr=err)
    assert exit.value.code == 1
    assert out.getvalue() == ""
    assert "Traceback" not in err.getvalue()
    lines = err.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("backup_games: ")
    return lines[0]


def lone_surrogate_in_a_reason(game: Game) -> str:
    first = game.live_rounds()[0]
    penalty = {"player": game.players[0], "points": 5, "reason": "\ud800"}
    Round.objects.filter(pk=first.pk).update(data={**first.data, "penalties": [penalty]})
    return "rounds[0].penalties[0].reason in its game file"


def lone_surrogate_in_a_setting(game: Game) -> str:
    Game.objects.filter(pk=game.pk).update(settings={**game.settings, "note": "a\udfff"})
    return "settings.note in its game file"


@pytest.mark.django_db
@pytest.mark.parametrize("spoil", [lone_surrogate_in_a_reason, lone_surrogate_in_a_setting])
def test_a_game_that_cannot_be_written_is_named_and_no_archive_is_left(tmp_path, spoil):
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's jsonb refuses lone surrogates: such a game cannot be stored")
    store_game_file((EXAMPLES / "tamoul.game.json").read_bytes())
    bad = store_game_file((EXAMPLES / "dutch.game.json").read_bytes())
    place = spoil(bad)
    older = tmp_path / "older.zip"
    older.write_bytes(b"yesterday's backup")

    line = backup_refused(older)
    assert f"game {bad.edit_key} (id {bad.pk}) cannot be written: {place}" in line
    assert older.read_bytes() == b"yesterday's backup"  # kept, not half overwritten
    backup_refused(tmp_path / "new.zip")
    assert sorted(os.listdir(tmp_path)) == ["older.zip"]  # no partial file, no temporary one


@pytest.mark.django_db
def test_a_backup_that_cannot_be_written_says_so_in_one_line(tmp_path):
    store_game_file((EXAMPLES / "tamoul.game.json").read_bytes())
    assert "No such file or directory" in backup_refused(tmp_path / "missing" / "backup.zip")
    (tmp_path / "folder").mkdir()
    assert "cannot write" in backup_refused(tmp_path / "folder")
    assert sorted(os.listdir(tmp_path)) == ["folder"] and not os.listdir(tmp_path / "folder")


@pytest.mark.django_db
def test_a_backup_replaces_an_older_archive_whole(tmp_path):
    store_game_file((EXAMPLES / "tamoul.game.json").read_bytes())
    target = tmp_path / "backup.zip"
    target.write_bytes(b"yesterday's backup")
    assert write_backup(target) == 1
    with zipfile.ZipFile(target) as archive:
        names = archive.namelist()
        manifest = json.loads(archive.read(MANIFEST).decode("utf-8"))
        game_file = archive.read(manifest["games"][0]["file"]).decode("utf-8")
    assert names[-1] == MANIFEST and len(names) == 2
    assert "Léa" in game_file  # UTF-8, not \u escapes
    assert sorted(os.listdir(tmp_path)) == ["backup.zip"]
