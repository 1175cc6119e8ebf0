"""Backup and restore (``backup_games``, ``restore_games``): Django's JSON of every game,
round, table, rule set and turn clock, restored whole or not at all, on SQLite and on
PostgreSQL and from one to the other."""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import DataError, connection, transaction

from scoring.referee import story
from scoring.store import backup
from scoring.store.models import Game, PlayerResult, Round, RuleSet, Table, TurnClock
from tests.helpers import EXAMPLES, NOBODY_CALLED, ROOT
from tests.web.helpers import evening_table

KEPT = (Game, Round, Table, RuleSet, TurnClock)


def an_evening(client) -> Game:
    """Something of everything a backup holds: a table and its games, imported games, a
    corrected round and a deleted one, a game the table ended, a blocked match, a match
    whose timer runs, a rematch chain and a saved rule set. The match that starts the chain."""
    evening_table()
    for name in ("tamoul", "dutch", "tambouille_blocked"):
        Game.objects.import_file((EXAMPLES / f"{name}.game.json").read_bytes())
    ended = Game.objects.create(variant="tamalou", players=["Léa", "Marc"], first_dealer=1)
    for number, totals in ((1, ("3", "9")), (2, ("5", "1"))):
        saved = client.post(
            f"/g/{ended.edit_key}/",
            {"number": number, "save": "1", "total_0": totals[0], "total_1": totals[1]}
            | NOBODY_CALLED,
        )
        assert saved.status_code == 302
    first, second = Round.objects.filter(game=ended).order_by("position")
    corrected = client.post(
        f"/g/{ended.edit_key}/rounds/{first.pk}/edit/",
        {"number": 1, "edits": 0, "save": "1", "total_0": "4", "total_1": "9"},
    )
    assert corrected.status_code == 302
    ended.delete_round(second.pk)  # set aside: undo would put it back
    ended.end()
    assert Round.objects.filter(game=ended, edits=1, deleted_at__isnull=True).count() == 1
    match = Game.objects.create(variant="tambouille", players=["Ana", "Ben"])
    match.set_clock("time", 0, 90)
    match.set_clock("start", 0)
    match.rematch().rematch()
    RuleSet.objects.create(name="Chez Mamie", variant="tamalou", settings={"limit": 60})
    return match


def everything() -> tuple[dict, dict]:
    """Every row a backup holds, as stored, and what the app makes of each game."""
    rows = {model.__name__: list(model.objects.order_by("pk").values()) for model in KEPT}
    for row in rows["Game"]:
        del row["state"]  # a restored game is a new version: phones read it again
        del row["summary"]  # written again on restore: compared as the referee's, below
    games = {
        game.edit_key: (
            json.dumps(game.game_file(), sort_keys=True),
            repr(game.score()),
            story.summary_to_json(game.stored_summary()),
        )
        for game in Game.objects.all()
    }
    return rows, games


def results() -> list[dict]:
    """The players' rows (``PlayerResult``), without their own keys."""
    found = PlayerResult.objects.order_by("game_id", "seat").values()
    return [{k: v for k, v in row.items() if k != "id"} for row in found]


def wipe() -> None:
    for model in (Game, Table, RuleSet):
        model.objects.all().delete()


def restored(path: Path, *options: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    call_command("restore_games", str(path), *options, stdout=out, stderr=err)
    assert err.getvalue() == ""
    return out.getvalue()


# --- nothing lost -----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["backup.json", "backup.json.gz"])
def test_backup_then_restore_into_an_empty_database_loses_nothing(client, tmp_path, name):
    match = an_evening(client)
    before, before_results = everything(), results()
    path = tmp_path / name
    out = io.StringIO()
    call_command("backup_games", str(path), stdout=out)
    games, rounds = Game.objects.count(), Round.objects.count()
    assert out.getvalue() == (
        f"{games} game(s), {rounds} round(s), 1 table(s), 1 rule set(s) and 3 turn clock(s) "
        f"written to {path}\n"
    )
    assert path.read_bytes().startswith(b"\x1f\x8b") == name.endswith(".gz")
    wipe()
    assert restored(path) == out.getvalue().replace("written to", "restored from")
    assert everything() == before
    # The players' rows are the referee's again, for every game (those a game had before its
    # first change too, as migrating makes them).
    after = results()
    assert [row for row in after if row["game_id"] in {r["game_id"] for r in before_results}] == (
        before_results
    )
    assert {row["game_id"] for row in after} == set(Game.objects.values_list("pk", flat=True))
    # The links still work, and the share link follows the evening from game to rematch.
    evening = Game.objects.get(edit_key=match.edit_key)
    assert client.get(f"/s/{evening.share_key}/").status_code == 200
    moved = client.get(f"/s/{evening.share_key}/live/", HTTP_HX_REQUEST="true")
    assert moved["HX-Redirect"] == f"/s/{evening.next_game.share_key}/"


@pytest.mark.django_db
def test_djangos_loaddata_reads_a_backup_too(tmp_path):
    """The file is a plain Django fixture: an operator's last resort needs no code of ours
    (it writes no players' rows: the games' next changes do)."""
    Game.objects.import_file((EXAMPLES / "koubo.game.json").read_bytes())
    before = list(Game.objects.values_list("edit_key", "players"))
    backup.write_backup(tmp_path / "backup.json.gz")
    wipe()
    call_command("loaddata", str(tmp_path / "backup.json.gz"), verbosity=0)
    assert list(Game.objects.values_list("edit_key", "players")) == before


@pytest.mark.django_db
def test_the_apps_next_rows_get_keys_after_the_restored_ones(tmp_path):
    """PostgreSQL's sequences do not follow keys given: the restore sets them past."""
    game = Game.objects.import_file((EXAMPLES / "koubo.game.json").read_bytes())
    backup.write_backup(tmp_path / "backup.json")
    far = Game.objects.order_by("-pk").first().pk + 1000
    rows = json.loads((tmp_path / "backup.json").read_text())
    for row in rows:
        if row["model"] == "scoring.game":
            row["pk"] = far
        elif row["model"] == "scoring.round":
            row["pk"] += far
            row["fields"]["game"] = far
    (tmp_path / "far.json").write_text(json.dumps(rows))
    wipe()
    restored(tmp_path / "far.json")
    rematch = Game.objects.get(pk=far).rematch()
    assert rematch.pk > far and rematch.uid != game.uid
    assert Round.objects.create(game=rematch, position=1, data={}).pk > far + 1


@pytest.mark.django_db
def test_text_utf8_cannot_hold_is_written_as_its_escape(tmp_path):
    """SQLite keeps a lone surrogate in a JSON column (written around the app): the backup
    writes it rather than failing, and it reads back as it was. PostgreSQL refuses to store
    such text at all."""
    game = Game.objects.import_file((EXAMPLES / "koubo.game.json").read_bytes())
    odd = Game.objects.filter(pk=game.pk)
    if connection.vendor == "postgresql":
        with pytest.raises(DataError), transaction.atomic():
            odd.update(settings={"note": "a\udfff"})
        return
    odd.update(settings={"note": "a\udfff"})
    backup.write_backup(tmp_path / "backup.json")
    rows = json.loads((tmp_path / "backup.json").read_bytes().decode("utf-8"))
    assert rows[0]["fields"]["settings"] == {"note": "a\udfff"}


# --- from one database to the other -----------------------------------------------------------


@contextmanager
def the_other_database(tmp_path: Path) -> Iterator[str]:
    """A DATABASE_URL of the other kind than the suite's: a SQLite file when the suite runs
    on PostgreSQL; else a database created (and dropped) on the PostgreSQL server of
    POSTGRES_URL, as ``make test`` gives it (skipped when none answers, unless
    REQUIRE_POSTGRES is set)."""
    if connection.vendor == "postgresql":
        yield f"sqlite:///{tmp_path / 'other.sqlite3'}"
        return
    import psycopg

    url = os.environ.get("POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/tamalou")
    server, name = url.rsplit("/", 1)[0], f"tamalou_backup_{os.getpid()}"
    try:
        with psycopg.connect(f"{server}/postgres", autocommit=True, connect_timeout=3) as pg:
            pg.execute(f'DROP DATABASE IF EXISTS "{name}"')
            pg.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError:
        if os.environ.get("REQUIRE_POSTGRES"):
            raise
        pytest.skip(f"no PostgreSQL answers at {server}")
    try:
        yield f"{server}/{name}"
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True, connect_timeout=3) as pg:
            pg.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.django_db
def test_a_backup_moves_to_the_other_database_and_back(client, tmp_path):
    """SQLite to PostgreSQL and back, or PostgreSQL to SQLite and back: the real commands on
    a database of the other kind, then restored here, give the same rows and sheets."""
    an_evening(client)
    before = everything()
    here, there = tmp_path / "here.json", tmp_path / "there.json.gz"
    call_command("backup_games", str(here), stdout=io.StringIO())
    with the_other_database(tmp_path) as url:
        env = {
            **{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
            "DATABASE_URL": url,
            "DJANGO_SETTINGS_MODULE": "tamalou_ref.settings",
        }

        def manage(*args: str) -> subprocess.CompletedProcess:
            return subprocess.run(
                [sys.executable, "manage.py", *args],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )

        assert manage("migrate", "-v0").returncode == 0
        done = manage("restore_games", str(here))
        assert (done.returncode, done.stderr) == (0, "")
        assert done.stdout.startswith(f"{Game.objects.count()} game(s), ")
        assert manage("backup_games", str(there)).returncode == 0
        # The next game stored there gets keys of its own (PostgreSQL: the sequences moved).
        added = manage("import_game", str(EXAMPLES / "koubo.game.json"))
        assert added.returncode == 0, added.stderr
        again = manage("restore_games", str(there))
        assert (again.returncode, again.stdout) == (1, "")
        assert again.stderr.startswith("restore_games: this database already holds ")
        assert len(again.stderr.splitlines()) == 1
    wipe()
    restored(there)
    assert everything() == before


# --- a database that holds games --------------------------------------------------------------


@pytest.mark.django_db
def test_a_restore_over_games_is_refused_unless_replace(tmp_path):
    backed_up = Game.objects.import_file((EXAMPLES / "koubo.game.json").read_bytes())
    backup.write_backup(tmp_path / "backup.json")
    wipe()
    here = Game.objects.import_file((EXAMPLES / "dutch.game.json").read_bytes())
    Table.objects.create(name="Jeudis")
    before = database()
    line = refused(tmp_path / "backup.json")
    assert line == (
        "restore_games: this database already holds 1 game(s), 1 table(s) and 0 rule set(s): "
        "restore into an empty database, or add --replace to delete them and restore the "
        "backup in their place. Nothing was restored."
    )
    assert database() == before
    restored(tmp_path / "backup.json", "--replace")
    assert list(Game.objects.values_list("edit_key", flat=True)) == [backed_up.edit_key]
    assert not Table.objects.exists() and not PlayerResult.objects.filter(game_id=here.pk)


# --- refused files ----------------------------------------------------------------------------


def database() -> list:
    """Everything a refused restore must leave as it was."""
    return [list(model.objects.order_by("pk").values_list()) for model in (*KEPT, PlayerResult)]


def refused(path: Path, *options: str) -> str:
    """Run restore_games on a file it refuses: the one line it prints on stderr."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit:
        call_command("restore_games", str(path), *options, stdout=out, stderr=err)
    assert exit.value.code == 1
    assert out.getvalue() == ""
    lines = err.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("restore_games: ")
    assert lines[0].endswith(" Nothing was restored.")
    return lines[0]


def rows_of(model: str, rows: list[dict]) -> list[dict]:
    return [row for row in rows if row["model"] == f"scoring.{model}"]


def changed(change: Callable[[list[dict]], object]) -> Callable[[bytes], bytes]:
    def damage(good: bytes) -> bytes:
        rows = json.loads(good)
        change(rows)
        return json.dumps(rows).encode()

    return damage


def field(model: str, name: str, value: object, number: int = 0) -> Callable[[bytes], bytes]:
    return changed(lambda rows: rows_of(model, rows)[number]["fields"].__setitem__(name, value))


def a_zip(good: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("manifest.json", "{}")
    return buffer.getvalue()


def an_unknown_card(rows: list[dict]) -> None:
    hands = rows_of("round", rows)[0]["fields"]["data"]["hands"]
    hands[next(iter(hands))] = ["ZZ"]


def a_key_twice(rows: list[dict]) -> None:
    games = rows_of("game", rows)
    games[1]["fields"]["edit_key"] = games[0]["fields"]["edit_key"]


REFUSED = {
    "empty": (lambda good: b"", "is not valid JSON (Expecting value: line 1 column 1"),
    "cut short": (lambda good: good[: len(good) // 2], "it is damaged, or not a backup_games"),
    "gzip cut short": (lambda good: gzip.compress(good)[:-20], "its gzip compression is broken"),
    "not UTF-8": (lambda good: b'["\xff"]', "byte 2 is not UTF-8 text"),
    "an old zip archive": (a_zip, "is a zip archive, the backup of versions before"),
    "a game file": (
        lambda good: (EXAMPLES / "tamoul.game.json").read_bytes(),
        'is a "tamalou-ref.game/1" file, not a backup',
    ),
    "an object": (lambda good: b'{"games": []}', "it holds a JSON object, not a list of rows"),
    "a list of numbers": (lambda good: b"[1]", "object 1 is not a row as Django writes them"),
    "another app's rows": (
        lambda good: b'[{"model": "auth.user", "pk": 1, "fields": {}}]',
        'object 1 is a row of "auth.user", which backup_games never writes',
    ),
    "players' rows": (
        changed(lambda rows: rows.append({"model": "scoring.playerresult", "pk": 1, "fields": {}})),
        '"scoring.playerresult", which backup_games never writes',
    ),
    "an unknown field": (field("game", "colour", "red"), "Game has no field named 'colour'"),
    "a bad date": (field("game", "created_at", "yesterday"), "value has an invalid format"),
    "a key too long": (field("game", "edit_key", "x" * 40), "edit_key: Ensure this value has"),
    "a round of no game": (field("round", "game", 999_999), "the database refused the backup"),
    "a key twice": (changed(a_key_twice), "the database refused it"),
    "a card the referee refuses": (changed(an_unknown_card), "is refused by the referee: Round 1"),
    "a dealer past the players": (
        field("game", "first_dealer", 9),
        "its first dealer (9) is not one of its 3 players",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize(("damage", "message"), REFUSED.values(), ids=REFUSED.keys())
def test_a_damaged_or_foreign_file_is_refused_in_one_line_and_nothing_is_restored(
    tmp_path, damage, message
):
    """With --replace, so that a refusal must also keep the games already here."""
    for name in ("tamoul", "cabo_bruxellois"):
        Game.objects.import_file((EXAMPLES / f"{name}.game.json").read_bytes())
    backup.write_backup(tmp_path / "good.json")
    wipe()
    Game.objects.import_file((EXAMPLES / "koubo.game.json").read_bytes())
    before = database()
    (tmp_path / "bad.json").write_bytes(damage((tmp_path / "good.json").read_bytes()))
    assert message in refused(tmp_path / "bad.json", "--replace")
    assert database() == before
    restored(tmp_path / "good.json", "--replace")  # the file each case damages is good


@pytest.mark.django_db
def test_a_missing_or_unreadable_file_is_refused_in_one_line(tmp_path):
    assert "cannot read" in refused(tmp_path / "missing.json")
    assert "cannot read" in refused(tmp_path)  # a folder


# --- writing ----------------------------------------------------------------------------------


def backup_refused(path: Path) -> str:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit:
        call_command("backup_games", str(path), stdout=out, stderr=err)
    assert exit.value.code == 1
    assert out.getvalue() == ""
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("backup_games: cannot write "), lines
    return lines[0]


@pytest.mark.django_db
def test_a_backup_appears_whole_or_not_at_all(tmp_path, monkeypatch):
    Game.objects.import_file((EXAMPLES / "tamoul.game.json").read_bytes())
    target = tmp_path / "backup.json.gz"
    target.write_bytes(b"yesterday's backup")
    serialize = backup.serializers.serialize

    def disk_full(*args, stream, **kwargs):
        stream.write("[")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(backup.serializers, "serialize", disk_full)
    assert "No space left on device" in backup_refused(target)
    assert target.read_bytes() == b"yesterday's backup"  # kept, not half overwritten
    assert sorted(os.listdir(tmp_path)) == ["backup.json.gz"]  # no temporary file left
    monkeypatch.setattr(backup.serializers, "serialize", serialize)
    call_command("backup_games", str(target), stdout=io.StringIO())
    assert json.loads(gzip.decompress(target.read_bytes()))[0]["model"] == "scoring.game"
    assert sorted(os.listdir(tmp_path)) == ["backup.json.gz"]
    assert "No such file or directory" in backup_refused(tmp_path / "missing" / "backup.json")
