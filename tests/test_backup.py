"""Backup and restore: nothing lost, every malformed archive refused in one line and nothing
stored, no zip bomb unpacked, and no half-written archive ever left behind."""

from __future__ import annotations

import copy
import io
import json
import os
import sqlite3
import struct
import subprocess
import sys
import tracemalloc
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import DataError, connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.games.backup import MANIFEST, BackupError, restore_backup, write_backup
from scoring.games.models import Game, Round, TurnClock
from scoring.referee.engine import GameError
from tests.helpers import NOBODY_CALLED

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = Path(__file__).parent / "examples"
BIG = 40_000_000  # a member this large must never be in memory at once


# --- nothing lost -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_backup_then_restore_into_an_empty_database_loses_nothing(client, tmp_path):
    games = [
        Game.objects.import_file((EXAMPLES / f"{v}.game.json").read_bytes())
        for v in ("tamoul", "dutch")
    ]
    open_ended = Game.objects.create(variant="tamalou", players=["Léa", "Marc"], first_dealer=1)
    client.post(
        f"/g/{open_ended.edit_key}/",
        {"number": 1, "save": "1", "total_0": "3", "total_1": "9", **NOBODY_CALLED},
    )
    first = Round.objects.get(game=open_ended)
    client.post(
        f"/g/{open_ended.edit_key}/rounds/{first.pk}/edit/",
        {"number": 1, "edits": 0, "save": "1", "total_0": "4", "total_1": "9"},
    )
    client.post(f"/g/{open_ended.edit_key}/end/")
    games.append(open_ended)
    blocked = Game.objects.import_file((EXAMPLES / "tambouille_blocked.game.json").read_bytes())
    games.append(blocked)

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
    assert out.getvalue() == f"4 game(s) written to {archive}\n"
    Game.objects.all().delete()
    call_command("restore_games", str(archive), stdout=out)
    assert snapshot() == before
    assert Game.objects.get(edit_key=open_ended.edit_key).score().finished
    assert Game.objects.get(edit_key=blocked.edit_key).score().winners == ["Ana", "Ben"]
    assert client.get(f"/s/{games[0].share_key}/").status_code == 200  # the links still work


@pytest.mark.django_db
def test_a_restored_evening_keeps_its_rematches_and_a_matchs_time_of_a_turn(client, tmp_path):
    first = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    second = first.rematch()
    third = second.rematch()
    match = Game.objects.create(variant="tambouille", players=["Ana", "Ben"])
    TurnClock.objects.create(game=match, seconds=90)
    alone = Game.objects.create(variant="tambouille", players=["Ana", "Ben"])  # no timer set
    archive = tmp_path / "backup.zip"
    call_command("backup_games", str(archive), stdout=io.StringIO())
    Game.objects.all().delete()
    call_command("restore_games", str(archive), stdout=io.StringIO())

    def rematch_of(game: Game) -> str | None:
        restored = Game.objects.get(edit_key=game.edit_key)
        return restored.next_game.edit_key if restored.next_game_id else None

    assert [rematch_of(g) for g in (first, second, third)] == [
        second.edit_key,
        third.edit_key,
        None,
    ]
    assert TurnClock.objects.get(game__edit_key=match.edit_key).seconds == 90
    assert not TurnClock.objects.filter(game__edit_key=alone.edit_key).exists()
    # The share link follows the table from game to game, as before the backup.
    moved = client.get(f"/s/{first.share_key}/live/", HTTP_HX_REQUEST="true")
    assert moved["HX-Redirect"] == f"/s/{second.share_key}/"


@pytest.mark.django_db
def test_an_archive_from_before_rematches_were_kept_restores(parts, tmp_path):
    for number in (1, 2):
        without(number, "next_game")(parts)
    call_command("restore_games", str(parts.write(tmp_path / "old.zip")), stdout=io.StringIO())
    assert Game.objects.filter(next_game__isnull=False).count() == 0
    assert Game.objects.count() == 3


@pytest.mark.django_db
def test_a_backup_restored_again_leaves_out_every_game_already_here(tmp_path):
    Game.objects.import_file((EXAMPLES / "koubo.game.json").read_bytes())
    archive = tmp_path / "backup.zip"
    write_backup(archive)
    count, left_out = restore_backup(archive)
    assert count == 0 and len(left_out) == 1 and "already in this database" in left_out[0]
    assert Game.objects.count() == 1
    (tmp_path / "bad.zip").write_bytes(b"not a zip")
    with pytest.raises(GameError, match="not a Tamalou Ref backup"):
        restore_backup(tmp_path / "bad.zip")


# --- malformed archives -----------------------------------------------------------------------


@dataclass
class Parts:
    """A valid backup of two games taken apart, to be broken and put together again."""

    manifest: object
    members: dict[str, bytes]
    kept: Game  # a game left in the database, which a refused restore must not change
    raw: bytes | None = None  # the whole archive's bytes, if not a zip of the members
    compression: dict[str, int] = field(default_factory=dict)

    @property
    def entries(self) -> list[dict]:
        return self.manifest["games"]

    def game_file(self, number: int) -> dict:
        return json.loads(self.members[self.entries[number - 1]["file"]])

    def set_game_file(self, number: int, data: dict) -> None:
        self.members[self.entries[number - 1]["file"]] = json.dumps(data).encode()

    def write(self, path: Path) -> Path:
        if self.raw is not None:
            path.write_bytes(self.raw)
            return path
        members = dict(self.members)
        if self.manifest is not None:
            members[MANIFEST] = json.dumps(self.manifest).encode()
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in members.items():
                method = self.compression.get(name, zipfile.ZIP_DEFLATED)
                archive.writestr(name, data, compress_type=method)
        return path


@pytest.fixture
def parts(tmp_path) -> Parts:
    """Two games backed up then deleted, one other game kept: a restore would add two."""
    for variant in ("tamoul", "cabo_bruxellois"):
        Game.objects.import_file((EXAMPLES / f"{variant}.game.json").read_bytes())
    write_backup(tmp_path / "good.zip")
    with zipfile.ZipFile(tmp_path / "good.zip") as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    manifest = json.loads(members.pop(MANIFEST))
    Game.objects.all().delete()
    kept = Game.objects.import_file((EXAMPLES / "koubo.game.json").read_bytes())
    return Parts(manifest=manifest, members=members, kept=kept)


def database() -> list:
    """Everything a refused restore must leave as it was."""
    return [
        *Game.objects.order_by("pk").values_list(),
        *Round.objects.order_by("pk").values_list(),
    ]


def refused(path: Path) -> str:
    """Run restore_games on a malformed archive: the one line it prints on stderr."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit:
        call_command("restore_games", str(path), stdout=out, stderr=err)
    assert exit.value.code == 1
    assert out.getvalue() == ""
    assert "Traceback" not in err.getvalue()
    lines = err.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("restore_games: ")
    return lines[0]


def entry(number: int, key: str, value: object) -> Callable[[Parts], None]:
    def change(parts: Parts) -> None:
        parts.entries[number - 1][key] = value

    return change


def without(number: int, key: str) -> Callable[[Parts], None]:
    def change(parts: Parts) -> None:
        del parts.entries[number - 1][key]

    return change


def round_of(number: int, key: str, value: object) -> Callable[[Parts], None]:
    def change(parts: Parts) -> None:
        parts.entries[number - 1]["rounds"][0][key] = value

    return change


def raw_manifest(text: bytes) -> Callable[[Parts], None]:
    def change(parts: Parts) -> None:
        parts.manifest = None
        parts.members[MANIFEST] = text

    return change


def whole(data: bytes) -> Callable[[Parts], None]:
    def change(parts: Parts) -> None:
        parts.raw = data

    return change


def other_game_keys(parts: Parts) -> None:
    parts.entries[1]["share_key"] = parts.kept.share_key


def game_key_twice(parts: Parts) -> None:
    parts.entries[1]["edit_key"] = parts.entries[0]["edit_key"]


def share_key_is_an_edit_key(parts: Parts) -> None:
    parts.entries[1]["share_key"] = parts.entries[0]["edit_key"]


def same_file_twice(parts: Parts) -> None:
    parts.entries[1]["file"] = parts.entries[0]["file"]


def unknown_card_in_the_second_game(parts: Parts) -> None:
    data = parts.game_file(2)
    first_hand = next(iter(data["rounds"][0]["hands"]))
    data["rounds"][0]["hands"][first_hand] = ["ZZ"]
    parts.set_game_file(2, data)


def second_game_not_json(parts: Parts) -> None:
    parts.members[parts.entries[1]["file"]] = b"{not json"


def second_game_raw(data: bytes) -> Callable[[Parts], None]:
    def change(parts: Parts) -> None:
        parts.members[parts.entries[1]["file"]] = data

    return change


def second_game_a_score_sheet(parts: Parts) -> None:
    parts.members[parts.entries[1]["file"]] = (EXAMPLES / "koubo.scoresheet.json").read_bytes()


def second_game_too_large(parts: Parts) -> None:
    parts.members[parts.entries[1]["file"]] = b" " * 2_000_001


def one_round_less(parts: Parts) -> None:
    parts.entries[0]["rounds"].pop()


def first_dealer_past_the_players(parts: Parts) -> None:
    parts.entries[0]["first_dealer"] = len(parts.game_file(1)["players"])


def an_unnamed_file(parts: Parts) -> None:
    parts.members["games/extra.game.json"] = parts.members[parts.entries[0]["file"]]


def bzip2_member(parts: Parts) -> None:
    parts.compression[parts.entries[0]["file"]] = zipfile.ZIP_BZIP2


def a_member_twice(parts: Parts) -> None:
    name = parts.entries[0]["file"]
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Duplicate name": the point of this archive
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr(MANIFEST, json.dumps(parts.manifest))
            for member, data in parts.members.items():
                archive.writestr(member, data)
            archive.writestr(name, parts.members[name])
    parts.raw = buffer.getvalue()


def a_zip_too_new(parts: Parts) -> None:
    """The version needed to extract, in the central directory, beyond what zipfile reads."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(MANIFEST, json.dumps(parts.manifest))
    data = bytearray(buffer.getvalue())
    struct.pack_into("<H", data, data.index(b"PK\x01\x02") + 6, 64)
    parts.raw = bytes(data)


def damaged_member(parts: Parts) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr(MANIFEST, json.dumps(parts.manifest))
        for member, data in parts.members.items():
            archive.writestr(member, data)
    data = buffer.getvalue()
    at = data.index(b'"players"')  # in the first game file, stored as it is
    parts.raw = data[:at] + b"'" + data[at + 1 :]


def rematch_of_itself(parts: Parts) -> None:
    parts.entries[0]["next_game"] = parts.entries[0]["edit_key"]


def rematches_in_a_circle(parts: Parts) -> None:
    parts.entries[0]["next_game"] = parts.entries[1]["edit_key"]
    parts.entries[1]["next_game"] = parts.entries[0]["edit_key"]


def one_rematch_of_two(parts: Parts) -> None:
    """Game 2 is the rematch of game 1, and of a third game added to the archive."""
    parts.entries[0]["next_game"] = parts.entries[1]["edit_key"]
    third = {**copy.deepcopy(parts.entries[0]), "file": "games/third.game.json"}
    third |= {"edit_key": "ThirdGame", "share_key": "ThirdShare"}
    parts.members["games/third.game.json"] = parts.members[parts.entries[0]["file"]]
    parts.entries.append(third)


NOT_A_BACKUP = "this is not a Tamalou Ref backup"
G1 = "game 1 of manifest.json"
G2 = "game 2 of manifest.json"

MALFORMED = {
    # the archive
    "not a zip": (whole(b"not a zip"), "is not a zip archive"),
    "empty file": (whole(b""), "is not a zip archive"),
    "no manifest": (
        lambda p: setattr(p, "manifest", None),
        f"{NOT_A_BACKUP}: the archive has no file manifest.json",
    ),
    "a member twice": (a_member_twice, "two files named games/"),
    "an unnamed file": (an_unnamed_file, "holds games/extra.game.json, which manifest.json"),
    "a zip too new": (a_zip_too_new, "is not a zip archive (zip file version 6.4)"),
    # the manifest
    "manifest not JSON": (raw_manifest(b"{"), "manifest.json is not valid JSON: Expecting"),
    "manifest not UTF-8": (raw_manifest(b'"\xff"'), "manifest.json is not valid JSON: it is not"),
    "manifest NaN": (raw_manifest(b'{"format": NaN}'), "NaN is not a number JSON allows"),
    "manifest nested": (raw_manifest(b"[" * 200_000), "manifest.json is not valid JSON"),
    "manifest long number": (
        raw_manifest(b'{"games": ' + b"9" * 5000 + b"}"),
        "manifest.json: the file holds a number longer than 30 digits",
    ),
    "manifest key twice": (
        raw_manifest(b'{"games": [], "games": []}'),
        'manifest.json: the key "games" is given twice',
    ),
    "manifest a list": (raw_manifest(b"[]"), "manifest.json must be an object, not a list"),
    "manifest a string": (raw_manifest(b'"x"'), 'manifest.json must be an object, not "x"'),
    "manifest unknown key": (
        lambda p: p.manifest.update(extra=1),
        'manifest.json: unknown key "extra"',
    ),
    "no format": (lambda p: p.manifest.pop("format"), "manifest.json: the key 'format' is missing"),
    "wrong format": (
        lambda p: p.manifest.update(format="tamalou-ref.backup/2"),
        f'{NOT_A_BACKUP}: the format in manifest.json must be "tamalou-ref.backup/1", not',
    ),
    "games not a list": (
        lambda p: p.manifest.update(games="x"),
        "manifest.json: 'games' must be a list, not \"x\"",
    ),
    "games an object": (lambda p: p.manifest.update(games={}), "'games' must be a list"),
    # an entry
    "entry not an object": (
        lambda p: p.entries.__setitem__(1, "x"),
        f'{G2} must be an object, not "x"',
    ),
    "entry unknown key": (entry(2, "extra", 1), f'{G2}: unknown key "extra"'),
    **{
        f"entry without {key}": (without(2, key), f"{G2}: the key '{key}' is missing")
        for key in (
            "file",
            "edit_key",
            "share_key",
            "first_dealer",
            "ended",
            "created_at",
            "updated_at",
            "rounds",
        )
    },
    "file missing from the zip": (
        entry(2, "file", "games/nope.game.json"),
        f"games/nope.game.json ({G2}): the archive has no file games/nope.game.json",
    ),
    "file a number": (entry(2, "file", 3), f"{G2}: 'file' must be the name of a file"),
    "edit_key a number": (entry(2, "edit_key", 5), f"{G2}: 'edit_key' must be 1 to 32"),
    "edit_key empty": (entry(2, "edit_key", ""), f"{G2}: 'edit_key' must be 1 to 32"),
    "edit_key too long": (entry(2, "edit_key", "a" * 33), f"{G2}: 'edit_key' must be 1 to 32"),
    "edit_key with a slash": (entry(2, "edit_key", "a/b"), "'edit_key' must be 1 to 32"),
    "edit_key with a newline": (entry(2, "edit_key", "ab\n"), 'not "ab\\n"'),
    "edit_key a lone surrogate": (entry(2, "edit_key", "\ud800"), 'not "\\ud800"'),
    "share_key with a dot": (entry(1, "share_key", "a.b"), f"{G1}: 'share_key' must be 1 to"),
    "first_dealer negative": (entry(1, "first_dealer", -1), "'first_dealer' must be a whole"),
    "first_dealer text": (entry(1, "first_dealer", "1"), "'first_dealer' must be a whole"),
    "first_dealer a bool": (entry(1, "first_dealer", True), "'first_dealer' must be a whole"),
    "first_dealer a float": (entry(1, "first_dealer", 1.0), "'first_dealer' must be a whole"),
    "ended text": (entry(1, "ended", "yes"), f"{G1}: 'ended' must be true or false, not \"yes\""),
    "ended a number": (entry(1, "ended", 1), "'ended' must be true or false, not 1"),
    "ended null": (entry(1, "ended", None), "'ended' must be true or false, not null"),
    "created_at naive": (
        entry(1, "created_at", "2025-06-01T21:30:00"),
        f"{G1}: 'created_at' must give its UTC offset",
    ),
    "created_at a date": (entry(1, "created_at", "2025-06-01"), "must give its UTC offset"),
    "created_at not a time": (
        entry(1, "created_at", "yesterday"),
        "'created_at' must be an ISO 8601 date and time",
    ),
    "created_at a number": (entry(1, "created_at", 5), "must be an ISO 8601 date and time"),
    "created_at out of range": (
        entry(1, "created_at", "0001-01-01T00:00:00+01:00"),
        "must be between the years",
    ),
    "updated_at naive": (
        entry(2, "updated_at", "2025-06-01 21:30"),
        f"{G2}: 'updated_at' must give its UTC offset",
    ),
    "rounds text": (entry(1, "rounds", "x"), f"{G1}: 'rounds' must be a list"),
    "round not an object": (
        lambda p: p.entries[0]["rounds"].__setitem__(0, 3),
        f"{G1}, round 1 must be an object, not 3",
    ),
    "round unknown key": (round_of(1, "extra", 1), f'{G1}, round 1: unknown key "extra"'),
    "round without edits": (
        lambda p: p.entries[0]["rounds"][0].pop("edits"),
        "round 1: the key 'edits' is missing",
    ),
    "round edits negative": (round_of(1, "edits", -1), "'edits' must be a whole number from 0"),
    "round edits text": (round_of(1, "edits", "2"), "'edits' must be a whole number"),
    "round edits a bool": (round_of(1, "edits", False), "'edits' must be a whole number"),
    "round edits too many": (round_of(1, "edits", 2**31), "'edits' must be a whole number"),
    "round created_at naive": (
        round_of(1, "created_at", "2025-06-01T21:30:00"),
        "round 1: 'created_at' must give its UTC offset",
    ),
    "round created_at invalid": (
        round_of(1, "created_at", "2025-13-01T21:30:00Z"),
        "round 1: 'created_at' must be an ISO 8601",
    ),
    # the game files
    # the keys
    "edit key twice": (game_key_twice, f"{G2}: its edit_key"),
    "share key is an edit key": (share_key_is_an_edit_key, "is also the edit_key of game 1"),
    "same file twice": (same_file_twice, f"{G2}: its file"),
    # the rematches and a match's time of a turn
    "rematch not in the archive": (
        entry(1, "next_game", "NoSuchGame"),
        f"({G1}): 'next_game' must be the edit key of another game of the archive, not "
        '"NoSuchGame"',
    ),
    "rematch of itself": (rematch_of_itself, f"({G1}): 'next_game' must be the edit key of"),
    "rematch not a key": (entry(2, "next_game", 7), f"{G2}: 'next_game' must be null or"),
    "rematches in a circle": (rematches_in_a_circle, "its rematches lead back to it"),
    "one rematch of two games": (one_rematch_of_two, "is already the rematch of game"),
    "time of a turn not offered": (
        entry(1, "turn_seconds", 7),
        f"{G1}: 'turn_seconds' must be null or one of 30, 60, ",
    ),
}

# A game the restore cannot store, the archive otherwise good: that game is left out and named,
# the other one restored.
GAME_LEFT_OUT = {
    "damaged member": (damaged_member, "is damaged (Bad CRC-32"),
    "bzip2 member": (bzip2_member, "compressed in a way backups never are"),
    "first_dealer past the players": (
        first_dealer_past_the_players,
        "'first_dealer' must be below the number of players (3), not 3",
    ),
    "one round less": (one_round_less, "'rounds' lists 1 round(s), but the game file has 2"),
    "game file not JSON": (second_game_not_json, f"({G2}): the file is not valid JSON"),
    "game file a score sheet": (second_game_a_score_sheet, f"({G2}): the game file has"),
    "game file breaks the rules": (unknown_card_in_the_second_game, "unknown card 'ZZ'"),
    "game file too large": (second_game_too_large, f"({G2}): games/"),
    "game file long number": (
        second_game_raw(b'{"format": ' + b"1" * 4301 + b"}"),
        f"({G2}): the file holds a number longer than 30 digits",
    ),
    "game file key bomb": (
        second_game_raw(("{" + ",".join(f'"k{i}":0' for i in range(150_000)) + "}").encode()),
        f"({G2}): an object of the file has more than 64 keys",
    ),
    "key already in the database": (other_game_keys, "is already in this database"),
    "time of a turn of a variant": (
        entry(1, "turn_seconds", 120),
        f"({G1}): 'turn_seconds' is the time of a turn of a Tambouille match, and this game",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize(("change", "message"), MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_archive_is_refused_in_one_line_and_nothing_stored(
    parts, tmp_path, change, message
):
    change(parts)
    before = database()
    line = refused(parts.write(tmp_path / "bad.zip"))
    assert message in line
    assert database() == before


def left_out(path: Path) -> tuple[str, list[str]]:
    """Run restore_games on an archive with games it cannot store: what it says on standard
    output, and its lines on standard error (one for each game left out)."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit:
        call_command("restore_games", str(path), stdout=out, stderr=err)
    assert exit.value.code == 1
    assert "Traceback" not in err.getvalue()
    lines = err.getvalue().splitlines()
    assert all(line.startswith("restore_games: not restored: ") for line in lines), lines
    return out.getvalue(), lines


@pytest.mark.django_db
@pytest.mark.parametrize(("change", "message"), GAME_LEFT_OUT.values(), ids=GAME_LEFT_OUT.keys())
def test_a_game_that_cannot_be_stored_is_named_and_the_other_is_restored(
    parts, tmp_path, change, message
):
    """The whole archive was refused for one game: its other games were not restored."""
    change(parts)
    before = Game.objects.count()
    out, lines = left_out(parts.write(tmp_path / "bad.zip"))
    assert out.startswith("1 game(s) restored from")
    assert len(lines) == 1 and message in lines[0]
    assert Game.objects.count() == before + 1
    restored = Game.objects.latest("pk")
    assert restored.live_count() == len(restored.game_file()["rounds"]) > 0


@pytest.mark.django_db
def test_the_parts_make_a_good_archive_unless_broken(parts, tmp_path):
    """The malformed archives above differ from a good one only by what each case breaks."""
    out = io.StringIO()
    call_command("restore_games", str(parts.write(tmp_path / "good.zip")), stdout=out)
    assert out.getvalue().startswith("2 game(s) restored from")


@pytest.mark.django_db
def test_a_missing_or_unreadable_archive_is_refused_in_one_line(tmp_path):
    assert "cannot read" in refused(tmp_path / "missing.zip")
    assert "cannot read" in refused(tmp_path)  # a folder


@pytest.mark.django_db
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_damage_to_an_archive_is_a_clean_refusal(parts, data):
    """Random changes to the bytes of a stored (uncompressed) backup, or to one value of its
    manifest: a clean refusal that stores nothing, or a restore; never another exception."""
    manifest = copy.deepcopy(parts.manifest)  # the fixture is shared by every example
    if data.draw(st.booleans(), label="change a manifest value"):
        games = manifest["games"]
        number = data.draw(st.integers(0, len(games) - 1))
        key = data.draw(st.sampled_from(sorted(games[number])))
        values = st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40),
            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner),
            max_leaves=5,
        )
        games[number][key] = data.draw(values)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, content in {**parts.members, MANIFEST: json.dumps(manifest).encode()}.items():
            archive.writestr(name, content)
    raw = bytearray(buffer.getvalue())
    for _ in range(data.draw(st.integers(0, 4), label="bytes changed")):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] = data.draw(st.integers(0, 255))
    before = database()
    with transaction.atomic():  # each example starts from the same database
        try:
            restore_backup(io.BytesIO(bytes(raw)))
        except BackupError:
            assert database() == before
        transaction.set_rollback(True)


# --- zip bombs --------------------------------------------------------------------------------


def bomb(parts: Parts, path: Path, size: int) -> Path:
    """The backup with its second game file replaced by ``size`` spaces, deflated to little,
    and written without ever holding them in memory."""
    name = parts.entries[1]["file"]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json.dumps(parts.manifest))
        archive.writestr(parts.entries[0]["file"], parts.members[parts.entries[0]["file"]])
        with archive.open(name, "w") as member:
            chunk = b" " * 1_000_000
            for _ in range(size // len(chunk)):
                member.write(chunk)
    return path


def understate(path: Path, name: str, size: int) -> None:
    """Make the local header and the central directory claim ``name`` holds ``size`` bytes."""
    data = bytearray(path.read_bytes())
    encoded = name.encode()
    for signature, size_at, name_length_at, name_at in (
        (b"PK\x03\x04", 22, 26, 30),  # local file header
        (b"PK\x01\x02", 24, 28, 46),  # central directory
    ):
        start = 0
        while (start := data.find(signature, start)) != -1:
            (length,) = struct.unpack_from("<H", data, start + name_length_at)
            if data[start + name_at : start + name_at + length] == encoded:
                struct.pack_into("<I", data, start + size_at, size)
            start += 4
    path.write_bytes(bytes(data))


def peak_memory_of(function: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.django_db
def test_a_zip_bomb_is_refused_without_unpacking_it(parts, tmp_path):
    path = bomb(parts, tmp_path / "bomb.zip", BIG)
    assert path.stat().st_size < 200_000
    before = Game.objects.count()
    said: list[tuple[str, list[str]]] = []
    peak = peak_memory_of(lambda: said.append(left_out(path)))
    assert peak < 5_000_000, peak
    (out, lines) = said[0]
    assert f"({G2}): games/" in lines[0] and "is larger than 2 MB" in lines[0]
    assert out.startswith("1 game(s) restored") and Game.objects.count() == before + 1


@pytest.mark.django_db
def test_a_member_whose_header_understates_its_size_is_read_only_so_far(parts, tmp_path):
    path = bomb(parts, tmp_path / "bomb.zip", BIG)
    understate(path, parts.entries[1]["file"], 1_500_000)
    with zipfile.ZipFile(path) as archive:
        assert archive.getinfo(parts.entries[1]["file"]).file_size == 1_500_000
    before = Game.objects.count()
    said: list[tuple[str, list[str]]] = []
    peak = peak_memory_of(lambda: said.append(left_out(path)))
    assert peak < 8_000_000, peak
    (out, lines) = said[0]
    assert f"({G2}): games/" in lines[0] and "is damaged" in lines[0]
    assert out.startswith("1 game(s) restored") and Game.objects.count() == before + 1


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
    Game.objects.import_file((EXAMPLES / "tamoul.game.json").read_bytes())
    bad = Game.objects.import_file((EXAMPLES / "dutch.game.json").read_bytes())
    if connection.vendor != "sqlite":
        # PostgreSQL's jsonb refuses lone surrogates: such a game cannot even be stored there.
        with pytest.raises(DataError), transaction.atomic():
            spoil(bad)
        return
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
    Game.objects.import_file((EXAMPLES / "tamoul.game.json").read_bytes())
    assert "No such file or directory" in backup_refused(tmp_path / "missing" / "backup.zip")
    (tmp_path / "folder").mkdir()
    assert "cannot write" in backup_refused(tmp_path / "folder")
    assert sorted(os.listdir(tmp_path)) == ["folder"] and not os.listdir(tmp_path / "folder")


@pytest.mark.django_db
def test_a_backup_replaces_an_older_archive_whole(tmp_path):
    Game.objects.import_file((EXAMPLES / "tamoul.game.json").read_bytes())
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


# --- the real command line --------------------------------------------------------------------


@pytest.fixture(scope="module")
def command_line(tmp_path_factory):
    """A database of its own with one game, its backup, and a way to run manage.py on it."""
    where = tmp_path_factory.mktemp("command_line")
    env = {
        **{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
        "DATABASE_URL": f"sqlite:///{where / 'db.sqlite3'}",
    }

    def manage(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    assert manage("migrate", "-v0").returncode == 0
    assert manage("import_game", str(EXAMPLES / "tamoul.game.json")).returncode == 0
    done = manage("backup_games", str(where / "backup.zip"))
    assert done.returncode == 0, done.stderr
    return where, manage


def rows(database: Path) -> list:
    with sqlite3.connect(database) as db:
        return [
            db.execute("SELECT * FROM scoring_game ORDER BY id").fetchall(),
            db.execute("SELECT * FROM scoring_round ORDER BY id").fetchall(),
        ]


def probe_archive(where: Path, manifest: object, members: dict[str, bytes] | None = None) -> Path:
    path = where / "probe.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(MANIFEST, json.dumps(manifest))
        for name, data in (members or {}).items():
            archive.writestr(name, data)
    return path


COMMAND_LINE_CASES = {
    "an entry with only a file": (
        {"format": "tamalou-ref.backup/1", "games": [{"file": "games/x.game.json"}]},
        "game 1 of manifest.json: the key 'created_at' is missing",
    ),
    "games not a list": ({"format": "tamalou-ref.backup/1", "games": "x"}, "must be a list"),
    "a manifest that is a list": ([], "manifest.json must be an object, not a list"),
    "not a zip": (b"not a zip", "is not a zip archive"),
}


@pytest.mark.parametrize(
    ("manifest", "message"), COMMAND_LINE_CASES.values(), ids=COMMAND_LINE_CASES.keys()
)
def test_restore_games_on_the_command_line_refuses_in_one_line(command_line, manifest, message):
    where, manage = command_line
    if isinstance(manifest, bytes):
        path = where / "probe.zip"
        path.write_bytes(manifest)
    else:
        path = probe_archive(where, manifest)
    before = rows(where / "db.sqlite3")
    done = manage("restore_games", str(path))
    assert done.returncode == 1
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("restore_games: ") and message in done.stderr
    assert rows(where / "db.sqlite3") == before


def test_restore_games_on_the_command_line_names_each_game_left_out(command_line):
    """The backup restored into the database it was made from: its game is there already."""
    where, manage = command_line
    before = rows(where / "db.sqlite3")
    done = manage("restore_games", str(where / "backup.zip"))
    assert done.returncode == 1
    assert done.stdout == f"0 game(s) restored from {where / 'backup.zip'}\n"
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("restore_games: not restored: games/")
    assert "is already in this database" in done.stderr
    assert rows(where / "db.sqlite3") == before


def test_restore_games_on_the_command_line_names_a_missing_member(command_line):
    """The probe's KeyError: a manifest naming a file the zip does not hold."""
    where, manage = command_line
    with zipfile.ZipFile(where / "backup.zip") as archive:
        manifest = json.loads(archive.read(MANIFEST))
    manifest["games"][0]["file"] = "games/missing.game.json"
    manifest["games"][0].update(edit_key="x", share_key="y")  # not the game already stored
    done = manage("restore_games", str(probe_archive(where, manifest)))
    assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        "restore_games: games/missing.game.json (game 1 of manifest.json): the archive has no "
        "file games/missing.game.json."
    ]


@pytest.mark.django_db
def test_games_that_unpack_past_the_limit_are_refused_before_any_is_read(
    parts, tmp_path, monkeypatch
):
    """Game files may have 2 MB each: a small archive of many well-packed ones must not have
    the restore read and score for hours."""
    from scoring.games import backup

    sizes = [len(data) for name, data in parts.members.items()]
    monkeypatch.setattr(backup, "MAX_GAMES_BYTES", sum(sizes) - 1)
    before = database()
    line = refused(parts.write(tmp_path / "big.zip"))
    assert line.endswith(
        f"the games of this backup unpack to more than {(sum(sizes) - 1) // 1_000_000} MB."
    )
    assert database() == before
    monkeypatch.setattr(backup, "MAX_GAMES_BYTES", sum(sizes))
    out = io.StringIO()
    call_command("restore_games", str(parts.write(tmp_path / "just.zip")), stdout=out)
    assert out.getvalue().startswith("2 game(s) restored from")
