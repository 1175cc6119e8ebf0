"""A table as one file (export, then import on another phone: the same players, rules, games
and standings) read as strictly as a game file, and tables kept by backups."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.referee import gamefile
from scoring.store.backup import BackupError, restore_backup, write_backup
from scoring.store.models import Game, Table
from scoring.store.tablefile import TABLE_FORMAT
from tests.web.helpers import evening_table, figures, phone

pytestmark = pytest.mark.django_db


def upload(client, data: dict | str | bytes, path: str = "/import/"):
    body = (
        data if isinstance(data, bytes) else (data if isinstance(data, str) else json.dumps(data))
    )
    body = body.encode() if isinstance(body, str) else body
    return client.post(path, {"file": SimpleUploadedFile("table.json", body)})


def test_a_table_file_holds_its_players_rules_and_every_game_as_its_export_writes_it():
    table, games = evening_table()
    client = phone()
    response = client.get(f"/t/{table.edit_key}/table.json")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="tamalou-table-')
    text = response.content.decode()
    data = json.loads(text)
    assert data["format"] == TABLE_FORMAT == "tamalou-ref.table/1"
    assert (data["name"], data["players"]) == ("Jeudis", table.players)
    table.refresh_from_db()
    assert data["rules"] == {"variant": "tamalou", "settings": {}, "rules_name": ""}
    ordered = sorted(games, key=lambda g: (g.created_at, g.pk))
    assert data["games"] == [json.loads(gamefile.dumps(g.game_file())) for g in ordered]
    assert len(data["started"]) == len(games)
    # No key in it: a game's id names it, it opens nothing.
    for game in games:
        assert game.edit_key not in text and game.share_key not in text
    assert table.edit_key not in text and table.read_key not in text
    assert client.get(f"/t/r/{table.read_key}/table.json").content.decode() == text
    assert client.get(f"/t/r/{table.edit_key}/table.json").status_code == 404


def test_a_table_file_imported_on_another_phone_is_the_same_table():
    table, games = evening_table()
    exported = phone().get(f"/t/{table.edit_key}/table.json").content
    other = phone()
    response = upload(other, exported)
    assert response.status_code == 302
    copy = Table.objects.exclude(pk=table.pk).get()
    assert response["Location"] == f"/t/{copy.edit_key}/"
    assert (copy.name, copy.players, copy.variant) == (table.name, table.players, "tamalou")
    copies = list(copy.games.order_by("created_at", "pk"))
    assert [g.game_file() for g in copies] == [
        g.game_file() for g in sorted(games, key=lambda g: (g.created_at, g.pk))
    ]
    assert all(g.imported for g in copies)
    # The same standings and evenings; this phone opens the games it imported to edit them.
    first = phone().get(f"/t/{table.edit_key}/")
    second = other.get(f"/t/{copy.edit_key}/")
    assert figures(first.context["overall"]) == figures(second.context["overall"])
    assert [(day, len(items)) for day, items in first.context["evenings"]] == [
        (day, len(items)) for day, items in second.context["evenings"]
    ]
    page = second.content.decode()
    assert all(f"/g/{g.edit_key}/" in page for g in copies)
    assert f'href="/t/{copy.edit_key}/"' in other.get("/").content.decode()


def valid_file() -> dict:
    table, _ = evening_table()
    data = json.loads(phone().get(f"/t/{table.edit_key}/table.json").content)
    Table.objects.all().delete()
    Game.objects.all().delete()
    return data


def test_a_tables_export_reads_its_games_rounds_in_one_query_whatever_their_number():
    table, games = evening_table()
    client = phone()

    def queries() -> int:
        with CaptureQueriesContext(connection) as done:
            assert client.get(f"/t/{table.edit_key}/table.json").status_code == 200
        return len(done)

    before = queries()
    for game in games:
        table.attach(game.rematch())
    assert queries() == before  # twice the games, as many queries


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["games"][1]["rounds"][0]["hands"].update(Zed=3), "game 2 of the table"),
        (lambda d: d["games"][0].update(format="nope"), "game 1 of the table: The format"),
        (lambda d: d.update(extra=1), "a table file has the keys"),
        (lambda d: d.pop("games"), "a table file has the keys"),
        (lambda d: d.update(name=""), "the name of the table must be 1 to 40 characters"),
        (lambda d: d.update(name="x" * 41), "the name of the table must be 1 to 40 characters"),
        (lambda d: d.update(players=["A", "a"]), "same name"),
        (lambda d: d.update(players="A"), "the table&#x27;s players must be a list"),
        (lambda d: d.update(rules={"variant": "poker"}), "unknown variant"),
        (lambda d: d.update(rules={"variant": "tamalou", "settings": {"rounds": -1}}), "rounds"),
        (lambda d: d.update(started=["2026-01-01"]), "&#x27;started&#x27; must list"),
        (lambda d: d.update(games={}), "must be a list of game objects"),
        (lambda d: d.update(games=d["games"][:1] * 501), "at most 500 games, not 501"),
        (lambda d: d.update(name="A\u0000B"), "control character"),
    ],
)
def test_a_wrong_table_file_is_refused_whole_saying_where(change, message):
    data = valid_file()
    change(data)
    client = phone()
    response = upload(client, data)
    assert response.status_code == 400
    assert message.casefold() in response.content.decode().casefold()
    assert not Table.objects.exists() and not Game.objects.exists()


def test_a_table_file_is_held_to_a_game_files_size():
    data = valid_file()
    data["games"] = data["games"] * 2000  # well past 2 MB
    response = upload(phone(), data)
    assert response.status_code == 413
    assert not Table.objects.exists() and not Game.objects.exists()


def test_the_import_page_reads_french_about_table_files():
    page = phone("fr").get("/import/").content.decode()
    assert "Un fichier de table" in page
    data = valid_file()
    data["games"][1]["rounds"][0]["hands"]["Zed"] = 3
    refused = upload(phone("fr"), data).content.decode()
    assert "Partie 2 de la table\u202f:" in refused


# --- backups ---------------------------------------------------------------------------------


def test_a_backup_keeps_the_tables_and_their_games(tmp_path):
    _, games = evening_table()
    empty = Table.objects.create(name="Vide")
    loose = gamefile.game_from_json(json.loads(gamefile.dumps(games[0].game_file())))
    alone = Game.objects.store(loose)  # a game of no table
    archive = tmp_path / "backup.json"
    call_command("backup_games", str(archive), stdout=io.StringIO())
    before = {
        t.edit_key: (t.read_key, t.name, t.players, t.variant, t.settings, t.created_at)
        for t in Table.objects.all()
    }
    members = {g.edit_key: g.table.edit_key if g.table else None for g in Game.objects.all()}
    Game.objects.all().delete()
    Table.objects.all().delete()
    out = io.StringIO()
    call_command("restore_games", str(archive), stdout=out)
    assert out.getvalue().startswith(f"{len(games) + 1} game(s), ")
    assert ", 2 table(s), " in out.getvalue()
    after = {
        t.edit_key: (t.read_key, t.name, t.players, t.variant, t.settings, t.created_at)
        for t in Table.objects.all()
    }
    assert after == before and empty.edit_key in after
    assert {g.edit_key: g.table.edit_key if g.table else None for g in Game.objects.all()} == (
        members
    )
    assert Game.objects.get(edit_key=alone.edit_key).table is None
    # Restored again: the tables are here already, and nothing is restored.
    with pytest.raises(BackupError, match=re.escape("already holds 6 game(s), 2 table(s)")):
        restore_backup(archive)


def table_row(rows: list[dict]) -> dict:
    return next(row for row in rows if row["model"] == "scoring.table")["fields"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda rows: table_row(rows).update(read_key=table_row(rows)["edit_key"]), "read_key"),
        (lambda rows: table_row(rows).update(extra=1), "Table has no field named 'extra'"),
        (lambda rows: table_row(rows).update(players=["A", "a"]), "same name"),
        (lambda rows: table_row(rows).update(variant="poker"), "unknown variant 'poker'"),
        (lambda rows: table_row(rows).update(name=""), "name: This field cannot be blank"),
        (lambda rows: rows.append(rows[0]), "the database refused it"),
        (
            lambda rows: next(r for r in rows if r["model"] == "scoring.game")["fields"].update(
                table=999_999
            ),
            "the database refused the backup",
        ),
    ],
)
def test_a_backup_with_a_wrong_table_is_refused_whole(tmp_path, change, message):
    evening_table()
    archive = tmp_path / "backup.json"
    write_backup(archive)
    rows = json.loads(archive.read_text())
    change(rows)
    target = tmp_path / "broken.json"
    target.write_text(json.dumps(rows))
    Game.objects.all().delete()
    Table.objects.all().delete()
    with pytest.raises(BackupError, match=message):
        restore_backup(target)
    assert not Game.objects.exists() and not Table.objects.exists()
