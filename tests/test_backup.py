"""Backup and restore: nothing lost."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from scoring.backup import restore_backup, write_backup
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
