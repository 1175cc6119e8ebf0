"""Every game at once, in one archive, and back into an empty database with nothing lost.

The archive is a zip of ordinary game files (each importable on its own) and a manifest
with what a game file does not hold: the game's two links, who dealt first, whether the
table ended it, when it was made and last changed, how often each round was corrected, the
rematch it leads to (``next_game``: the edit key of another game of the archive, so that
the share link still follows the table from game to game) and a match's time of a turn
(``turn_seconds``). Archives written before those two were kept have neither. The tables
(``tables``: each one's two keys, name, players, rules, dates, and the edit keys of its games
in the archive) are kept since tables exist; older archives have none.

Writing goes to a temporary file beside the target, renamed into place only when the whole
archive is written: a failed backup leaves no partial archive and keeps any older one.
Reading is strict, like reading a game file: an archive that is not exactly what
``write_backup`` makes is refused whole with a BackupError saying what is wrong and where,
and members are read in chunks up to a limit, so a zip bomb is never unpacked.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import zipfile
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import Q

from scoring.games.models import KEY_PATTERN, MAX_TABLE_PLAYERS, Game, Table, TurnClock
from scoring.referee import engine, gamefile
from scoring.referee.engine import GameError
from scoring.referee.tambouille import TURN_CHOICES, Tambouille

MANIFEST = "manifest.json"
FORMAT = "tamalou-ref.backup/1"
MAX_MANIFEST_BYTES = 20_000_000  # some 40,000 games of an evening each
# Every game file of a backup together, unpacked: each may have 2 MB, so that a small archive
# of well-packed files cannot have the restore read and score for hours.
MAX_GAMES_BYTES = 2_000_000_000
CHUNK_BYTES = 64 * 1024
# What models.new_key makes (URL-safe base64), and what the key columns hold.
KEY_SHAPE = re.compile(KEY_PATTERN)
MAX_EDITS = 2**31 - 1  # a PositiveIntegerField on every database
MANIFEST_KEYS = {"format", "games"}
OPTIONAL_MANIFEST_KEYS = frozenset({"tables"})  # kept since tables exist
TABLE_ENTRY_KEYS = {
    "edit_key",
    "read_key",
    "name",
    "players",
    "variant",
    "settings",
    "rules_name",
    "created_at",
    "updated_at",
    "games",
}
ENTRY_KEYS = {
    "file",
    "edit_key",
    "share_key",
    "first_dealer",
    "ended",
    "created_at",
    "updated_at",
    "rounds",
}
# Kept since the rematch chain and the timer's time were backed up; older archives lack them.
OPTIONAL_ENTRY_KEYS = frozenset({"next_game", "turn_seconds"})
ROUND_KEYS = {"edits", "created_at"}
# What write_backup uses, and the methods whose unpacking is bounded chunk by chunk.
COMPRESSIONS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED}
KEYS_PER_QUERY = 500


class BackupError(GameError):
    """A backup that cannot be written, or an archive refused: what is wrong and where."""


def one_line(text: str) -> str:
    """A message for a terminal: one line, anything unprintable (line breaks, escape codes,
    lone surrogates) written as a Python escape."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def shown(value: object) -> str:
    """A value read from an archive, quoted short and safe to print."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 60 else text[:50] + "…" + text[-5:]


# --- writing -----------------------------------------------------------------------------


def write_backup(target: str | os.PathLike) -> int:
    """Write every game to the file ``target``; return how many. The file appears whole or
    not at all (an older one at that path is kept if writing fails)."""
    target = Path(target)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        # Created as open() would (the umask decides), never over an existing file.
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as error:
        raise _cannot_write(target, error) from None
    try:
        with os.fdopen(descriptor, "wb") as file:
            count = _write_archive(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException as error:
        temporary.unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise _cannot_write(target, error) from None
        raise
    _sync_directory(target.parent)
    return count


def _cannot_write(target: Path, error: OSError) -> BackupError:
    return BackupError(
        "cannot write {path}: {problem}.", path=str(target), problem=error.strerror or error
    )


def _sync_directory(directory: Path) -> None:
    """Make the rename itself durable, where the system allows it."""
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _write_archive(file) -> int:
    manifest = []
    with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as archive:
        games = Game.objects.select_related("next_game", "clock").order_by("pk")
        for game in games.iterator():
            name = f"games/{game.edit_key}.game.json"
            try:
                data = game.game_file()  # its id too
            except GameError as error:
                raise BackupError(
                    "game {key} (id {id}) cannot be read back: {problem}",
                    key=game.edit_key,
                    id=game.pk,
                    problem=str(error),
                ) from None
            data["settings"] = game.settings  # as stored: `ended` is kept apart
            if not data["settings"]:
                del data["settings"]
            entry = {
                "file": name,
                "edit_key": game.edit_key,
                "share_key": game.share_key,
                "first_dealer": game.first_dealer,
                "ended": game.ended,
                "created_at": game.created_at.isoformat(),
                "updated_at": game.updated_at.isoformat(),
                "rounds": [
                    {"edits": r.edits, "created_at": r.created_at.isoformat()}
                    for r in game.live_rounds()
                ],
                "next_game": game.next_game.edit_key if game.next_game_id else None,
            }
            clock = getattr(game, "clock", None)
            if clock is not None:
                entry["turn_seconds"] = clock.seconds
            _check_encodable(game, data, "its game file")
            _check_encodable(game, entry, "its manifest entry")
            archive.writestr(name, gamefile.dumps(data).encode("utf-8"))
            manifest.append(entry)
        tables = []
        for table in Table.objects.order_by("pk").prefetch_related("games"):
            entry = {
                "edit_key": table.edit_key,
                "read_key": table.read_key,
                "name": table.name,
                "players": table.players,
                "variant": table.variant,
                "settings": table.settings,
                "rules_name": table.rules_name,
                "created_at": table.created_at.isoformat(),
                "updated_at": table.updated_at.isoformat(),
                "games": sorted(game.edit_key for game in table.games.all()),
            }
            if _unencodable(entry, "") is not None:
                raise BackupError(
                    "table {id} cannot be written: it holds text that is not valid Unicode.",
                    id=table.pk,
                )
            tables.append(entry)
        text = json.dumps(
            {"format": FORMAT, "games": manifest, "tables": tables}, ensure_ascii=False, indent=1
        )
        archive.writestr(MANIFEST, text.encode("utf-8"))
    return len(manifest)


def _check_encodable(game: Game, data: object, what: str) -> None:
    place = _unencodable(data, "")
    if place is not None:
        raise BackupError(
            "game {key} (id {id}) cannot be written: {place} in {what} holds text that is not "
            "valid Unicode (a lone surrogate); correct or delete that game, then back up again.",
            key=game.edit_key,
            id=game.pk,
            place=place or "a value",
            what=what,
        )


def _unencodable(value: object, path: str) -> str | None:
    """Where in ``value`` a string cannot be written as UTF-8 (a JSON path), or None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return path or "the value"
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            found = _unencodable(key, f"{path} (a key)") or _unencodable(item, f"{path}.{key}")
            if found is not None:
                return found.lstrip(".")
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = _unencodable(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


# --- reading -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A manifest entry, its shape checked."""

    number: int
    file: str
    edit_key: str
    share_key: str
    first_dealer: int
    ended: bool
    created_at: datetime
    updated_at: datetime
    rounds: list[dict[str, Any]]
    next_game: str | None = None  # the edit key of its rematch, another game of the archive
    turn_seconds: int | None = None  # a match's time of a turn

    @property
    def where(self) -> str:
        return f"{self.file} (game {self.number} of {MANIFEST})"


@dataclass(frozen=True)
class TableEntry:
    """A table of the manifest, its shape checked."""

    number: int
    edit_key: str
    read_key: str
    name: str
    players: list[str]
    variant: str
    settings: dict
    rules_name: str
    created_at: datetime
    updated_at: datetime
    games: list[str]  # the edit keys of its games in the archive

    @property
    def where(self) -> str:
        return f"table {self.number} of {MANIFEST}"


def restore_backup(source: str | os.PathLike) -> tuple[int, list[str]]:
    """Store every game of a backup that can be stored: how many, and what was not, one line
    for each game left out (what is wrong and where). A game whose links already reach a game
    here is left out, so a backup goes into an empty (or different) database; a game left out
    stores nothing, and does not keep the others out (a game's rematch left out: the game is
    stored without it). An archive that is not a backup, or whose manifest is wrong, is refused
    whole (BackupError): nothing is stored."""
    try:
        archive = zipfile.ZipFile(source)
    except OSError as error:
        raise BackupError(
            "cannot read {path}: {problem}.", path=str(source), problem=error.strerror or error
        ) from None
    except (zipfile.BadZipFile, ValueError, EOFError, OverflowError, NotImplementedError) as error:
        raise BackupError(
            "this is not a Tamalou Ref backup: {path} is not a zip archive ({problem}).",
            path=str(source),
            problem=str(error) or type(error).__name__,
        ) from None
    with archive:
        entries, tables = _read_manifest(archive)
        too_large = BackupError(
            "the games of this backup unpack to more than {size} MB.",
            size=MAX_GAMES_BYTES // 1_000_000,
        )
        if sum(archive.getinfo(entry.file).file_size for entry in entries) > MAX_GAMES_BYTES:
            raise too_large  # what the archive says: a first check, before any game is read
        read, stored, left_out = 0, [], []
        try:
            with transaction.atomic():
                for entry in entries:
                    try:
                        with transaction.atomic():  # a game left out leaves nothing behind
                            _refuse_known_keys([entry])
                            read += _restore_game(archive, entry)
                    except BackupError as error:
                        left_out.append(str(error))
                        continue
                    except DatabaseError as error:  # a value this database cannot hold
                        problem = (str(error).splitlines() or [type(error).__name__])[0]
                        left_out.append(f"{entry.where}: the database refused it: {problem}")
                        continue
                    if read > MAX_GAMES_BYTES:
                        raise too_large
                    stored.append(entry)
                kept = {entry.edit_key for entry in stored}
                for entry in stored:
                    if entry.next_game in kept:
                        rematch = Game.objects.filter(edit_key=entry.next_game).values("pk")
                        Game.objects.filter(edit_key=entry.edit_key).update(next_game=rematch)
                for table in tables:
                    problem = _restore_table(table, kept)
                    if problem is not None:
                        left_out.append(problem)
        except DatabaseError as error:
            raise BackupError(
                "the database refused the games, so none was restored: {problem}",
                problem=(str(error).splitlines() or [type(error).__name__])[0],
            ) from None
    return len(stored), left_out


def _restore_table(entry: TableEntry, kept: set[str]) -> str | None:
    """Store the table of ``entry``, its games those of the archive stored (``kept``, their
    edit keys); what was wrong if it is left out (its keys already reach a table here)."""
    keys = [entry.edit_key, entry.read_key]
    if Table.objects.filter(Q(edit_key__in=keys) | Q(read_key__in=keys)).exists():
        return (
            f"{entry.where}: the table is already in this database (a table here has one of "
            "its keys)."
        )
    table = Table.objects.create(
        edit_key=entry.edit_key,
        read_key=entry.read_key,
        name=entry.name,
        players=entry.players,
        variant=entry.variant,
        settings=entry.settings,
        rules_name=entry.rules_name,
        created_at=entry.created_at,
        updated_at=entry.updated_at,
    )
    Game.objects.filter(edit_key__in=[k for k in entry.games if k in kept]).update(table=table)
    return None


def _read_member(archive: zipfile.ZipFile, name: str, limit: int, where: str) -> bytes:
    """A member's bytes, read in chunks and given up on as soon as there are too many."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise BackupError(
            "{where}: the archive has no file {name}.", where=where, name=name
        ) from None
    if info.is_dir():
        raise BackupError("{where}: {name} is a folder.", where=where, name=name)
    if info.flag_bits & 0x1:
        raise BackupError("{where}: {name} is encrypted.", where=where, name=name)
    if info.compress_type not in COMPRESSIONS:
        raise BackupError(
            "{where}: {name} is compressed in a way backups never are (method {method}).",
            where=where,
            name=name,
            method=info.compress_type,
        )
    too_large = BackupError(
        "{where}: {name} is larger than {size} MB.",
        where=where,
        name=name,
        size=limit // 1_000_000,
    )
    if info.file_size > limit:  # what the archive says: a first check only
        raise too_large
    chunks: list[bytes] = []
    total = 0
    try:
        with archive.open(info) as stream:
            while chunk := stream.read(CHUNK_BYTES):
                total += len(chunk)
                if total > limit:
                    break
                chunks.append(chunk)
    # RuntimeError covers NotImplementedError (a zip feature this module lacks).
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, RuntimeError) as error:
        raise BackupError(
            "{where}: {name} is damaged ({problem}).",
            where=where,
            name=name,
            problem=str(error) or type(error).__name__,
        ) from None
    if total > limit:
        raise too_large
    return b"".join(chunks)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise BackupError(
                "{file}: the key {key} is given twice in one object.", file=MANIFEST, key=shown(key)
            )
        result[key] = value
    return result


def _refuse_constant(name: str) -> None:
    raise BackupError(
        "{file} is not valid JSON: {name} is not a number JSON allows.", file=MANIFEST, name=name
    )


def _read_manifest(archive: zipfile.ZipFile) -> tuple[list[Entry], list[TableEntry]]:
    names: set[str] = set()
    for info in archive.infolist():
        if info.filename in names:
            raise BackupError("the archive holds two files named {name}.", name=info.filename)
        names.add(info.filename)
    data = _read_member(archive, MANIFEST, MAX_MANIFEST_BYTES, "this is not a Tamalou Ref backup")
    try:
        manifest = json.loads(
            data.decode("utf-8-sig"),
            object_pairs_hook=_no_duplicate_keys,
            parse_constant=_refuse_constant,
            parse_int=gamefile.parse_int,
            parse_float=gamefile.parse_float,
        )
    except BackupError:
        raise
    except GameError as error:  # a number too long, refused before Python converts it
        raise BackupError("{file}: {problem}", file=MANIFEST, problem=str(error)) from None
    except (ValueError, RecursionError) as error:
        if isinstance(error, UnicodeDecodeError):
            problem = "it is not UTF-8 text"
        elif isinstance(error, RecursionError):
            problem = "it is nested too deeply"
        else:
            problem = (str(error).splitlines() or [type(error).__name__])[0]
        raise BackupError(
            "{file} is not valid JSON: {problem}.", file=MANIFEST, problem=problem
        ) from None
    if not isinstance(manifest, dict):
        raise BackupError(
            "{file} must be an object, not {value}.", file=MANIFEST, value=shown(manifest)
        )
    _check_keys(manifest, MANIFEST_KEYS, MANIFEST, OPTIONAL_MANIFEST_KEYS)
    if manifest["format"] != FORMAT:
        raise BackupError(
            "this is not a Tamalou Ref backup: the format in {file} must be {wanted}, not {given}.",
            file=MANIFEST,
            wanted=shown(FORMAT),
            given=shown(manifest["format"]),
        )
    games = manifest["games"]
    if not isinstance(games, list):
        raise BackupError(
            "{file}: 'games' must be a list, not {value}.", file=MANIFEST, value=shown(games)
        )
    entries = [_check_entry(raw, number) for number, raw in enumerate(games, 1)]

    seen: dict[str, str] = {}
    for entry in entries:
        for what in ("file", "edit_key", "share_key"):
            value = getattr(entry, what)
            # Keys are compared across both columns: a share link must never edit a game.
            kind = "file" if what == "file" else "key"
            if (kind, value) in seen:
                raise BackupError(
                    "game {number} of {file}: its {what} {value} is also the {other}.",
                    number=entry.number,
                    file=MANIFEST,
                    what=what,
                    value=shown(value),
                    other=seen[(kind, value)],
                )
            seen[(kind, value)] = f"{what} of game {entry.number}"
    for entry in entries:
        if entry.file not in names:
            raise BackupError(
                "{where}: the archive has no file {name}.", where=entry.where, name=entry.file
            )
    _check_rematches(entries)
    named = {entry.file for entry in entries} | {MANIFEST}
    for info in archive.infolist():
        if not info.is_dir() and info.filename not in named:
            raise BackupError(
                "the archive holds {name}, which {file} does not name: it may be incomplete.",
                name=info.filename,
                file=MANIFEST,
            )
    raw_tables = manifest.get("tables", [])
    if not isinstance(raw_tables, list):
        raise BackupError(
            "{file}: 'tables' must be a list, not {value}.", file=MANIFEST, value=shown(raw_tables)
        )
    tables = [_check_table(raw, number) for number, raw in enumerate(raw_tables, 1)]
    _check_tables(tables, {entry.edit_key for entry in entries})
    return entries, tables


def _check_rematches(entries: list[Entry]) -> None:
    """Each ``next_game`` names another game of the archive, the rematch of one game only,
    and following them never comes back to a game (a table's evening goes one way)."""
    by_key = {entry.edit_key: entry for entry in entries}
    before: dict[str, Entry] = {}
    for entry in entries:
        if entry.next_game is None:
            continue
        following = by_key.get(entry.next_game)
        if following is None or following is entry:
            raise BackupError(
                "{where}: 'next_game' must be the edit key of another game of the archive, not "
                "{value}.",
                where=entry.where,
                value=shown(entry.next_game),
            )
        if entry.next_game in before:
            raise BackupError(
                "{where}: its 'next_game' is already the rematch of game {other}.",
                where=entry.where,
                other=before[entry.next_game].number,
            )
        before[entry.next_game] = entry
    # Each game is the rematch of one at most: the links make chains, or circles. Each chain
    # is followed once from its first game; a game no chain reaches is on a circle.
    reached: set[str] = set()
    for entry in entries:
        if entry.edit_key in before:
            continue  # not the first game of its chain
        key = entry.edit_key
        while key is not None:
            reached.add(key)
            key = by_key[key].next_game
    for entry in entries:
        if entry.edit_key not in reached:
            raise BackupError(
                "{where}: its rematches lead back to it ('next_game').", where=entry.where
            )


def _refusal(where: str, key: str, wanted: str, value: object) -> BackupError:
    """A manifest entry's ``key`` that is not what it must be."""
    return BackupError(
        "{where}: '{key}' must be {wanted}, not {value}.",
        where=where,
        key=key,
        wanted=wanted,
        value=shown(value),
    )


def _check_keys(
    data: dict, required: set[str], where: str, optional: frozenset[str] = frozenset()
) -> None:
    allowed = required | optional
    for key in data:
        if key not in allowed:
            raise BackupError(
                "{where}: unknown key {key} (allowed: {allowed}).",
                where=where,
                key=shown(key),
                allowed=", ".join(sorted(allowed)),
            )
    for key in sorted(required - set(data)):
        raise BackupError("{where}: the key '{key}' is missing.", where=where, key=key)


def _check_entry(raw: object, number: int) -> Entry:
    where = f"game {number} of {MANIFEST}"
    if not isinstance(raw, dict):
        raise BackupError("{where} must be an object, not {value}.", where=where, value=shown(raw))
    _check_keys(raw, ENTRY_KEYS, where, OPTIONAL_ENTRY_KEYS)

    def refuse(key: str, wanted: str) -> BackupError:
        return _refusal(where, key, wanted, raw[key])

    if not isinstance(raw["file"], str) or not raw["file"]:
        raise refuse("file", "the name of a file in the archive")
    for key in ("edit_key", "share_key"):
        if not isinstance(raw[key], str) or not KEY_SHAPE.fullmatch(raw[key]):
            raise refuse(key, "1 to 32 letters, digits, '-' or '_'")
    first_dealer = raw["first_dealer"]
    if type(first_dealer) is not int or first_dealer < 0:
        raise refuse("first_dealer", "a whole number from 0")
    next_game = raw.get("next_game")
    if next_game is not None and (
        not isinstance(next_game, str) or not KEY_SHAPE.fullmatch(next_game)
    ):
        raise refuse("next_game", "null or the edit key of another game of the archive")
    turn_seconds = raw.get("turn_seconds")
    if turn_seconds is not None and (
        type(turn_seconds) is not int or turn_seconds not in TURN_CHOICES
    ):
        raise refuse("turn_seconds", "null or one of " + ", ".join(map(str, TURN_CHOICES)))
    if type(raw["ended"]) is not bool:
        raise refuse("ended", "true or false")
    rounds = raw["rounds"]
    if not isinstance(rounds, list):
        raise refuse("rounds", "a list")
    checked_rounds = []
    for position, item in enumerate(rounds, 1):
        at = f"{where}, round {position}"
        if not isinstance(item, dict):
            raise BackupError(
                "{where} must be an object, not {value}.", where=at, value=shown(item)
            )
        _check_keys(item, ROUND_KEYS, at)
        edits = item["edits"]
        if type(edits) is not int or not 0 <= edits <= MAX_EDITS:
            raise BackupError(
                "{where}: 'edits' must be a whole number from 0 to {most}, not {value}.",
                where=at,
                most=MAX_EDITS,
                value=shown(edits),
            )
        checked_rounds.append({"edits": edits, "created_at": _moment(item, "created_at", at)})
    return Entry(
        number=number,
        file=raw["file"],
        edit_key=raw["edit_key"],
        share_key=raw["share_key"],
        first_dealer=first_dealer,
        ended=raw["ended"],
        created_at=_moment(raw, "created_at", where),
        updated_at=_moment(raw, "updated_at", where),
        rounds=checked_rounds,
        next_game=next_game,
        turn_seconds=turn_seconds,
    )


def _check_table(raw: object, number: int) -> TableEntry:
    where = f"table {number} of {MANIFEST}"
    if not isinstance(raw, dict):
        raise BackupError("{where} must be an object, not {value}.", where=where, value=shown(raw))
    _check_keys(raw, TABLE_ENTRY_KEYS, where)

    def refuse(key: str, wanted: str) -> BackupError:
        return _refusal(where, key, wanted, raw[key])

    for key in ("edit_key", "read_key"):
        if not isinstance(raw[key], str) or not KEY_SHAPE.fullmatch(raw[key]):
            raise refuse(key, "1 to 32 letters, digits, '-' or '_'")
    if raw["edit_key"] == raw["read_key"]:
        raise refuse("read_key", "another key than its edit key")
    name = raw["name"]
    if (
        not isinstance(name, str)
        or not name.strip()
        or len(name) > engine.MAX_NAME_LENGTH
        or engine.unstorable(name)
    ):
        raise refuse("name", f"1 to {engine.MAX_NAME_LENGTH} characters")
    players = raw["players"]
    try:
        if not isinstance(players, list):
            raise refuse("players", "a list of names")
        engine.check_players(players, 0, MAX_TABLE_PLAYERS)
    except GameError as error:
        raise BackupError("{where}: {problem}", where=where, problem=str(error)) from None
    variant, settings, rules_name = raw["variant"], raw["settings"], raw["rules_name"]
    if not isinstance(variant, str) or (variant and variant not in engine.GAMES):
        raise refuse("variant", "empty or a variant's key")
    if not isinstance(settings, dict):
        raise refuse("settings", "an object")
    try:
        if variant:
            engine.check_settings(variant, settings)
        elif settings:
            raise refuse("settings", "empty when the table has no variant")
    except GameError as error:
        raise BackupError("{where}: {problem}", where=where, problem=str(error)) from None
    if (
        not isinstance(rules_name, str)
        or len(rules_name) > engine.MAX_NAME_LENGTH
        or engine.unstorable(rules_name)
    ):
        raise refuse("rules_name", f"0 to {engine.MAX_NAME_LENGTH} characters")
    games = raw["games"]
    if not isinstance(games, list) or not all(
        isinstance(key, str) and KEY_SHAPE.fullmatch(key) for key in games
    ):
        raise refuse("games", "a list of the edit keys of games of the archive")
    return TableEntry(
        number=number,
        edit_key=raw["edit_key"],
        read_key=raw["read_key"],
        name=name,
        players=players,
        variant=variant,
        settings=settings,
        rules_name=rules_name,
        created_at=_moment(raw, "created_at", where),
        updated_at=_moment(raw, "updated_at", where),
        games=games,
    )


def _check_tables(tables: list[TableEntry], game_keys: set[str]) -> None:
    """Each table's keys are its own (a read key never edits a table), and each of its games
    is a game of the archive in no other table."""
    seen: dict[str, str] = {}
    owner: dict[str, TableEntry] = {}
    for table in tables:
        for what in ("edit_key", "read_key"):
            key = getattr(table, what)
            if key in seen:
                raise BackupError(
                    "{where}: its {what} {value} is also the {other}.",
                    where=table.where,
                    what=what,
                    value=shown(key),
                    other=seen[key],
                )
            seen[key] = f"{what} of table {table.number}"
        for key in table.games:
            if key not in game_keys:
                raise BackupError(
                    "{where}: 'games' names {value}, which is no game of the archive.",
                    where=table.where,
                    value=shown(key),
                )
            if key in owner:
                raise BackupError(
                    "{where}: game {value} is already a game of table {other}.",
                    where=table.where,
                    value=shown(key),
                    other=owner[key].number,
                )
            owner[key] = table


def _moment(data: dict, key: str, where: str) -> datetime:
    """An ISO 8601 date and time with its UTC offset (a time without one is ambiguous)."""
    value = data[key]

    def refuse(problem: str) -> BackupError:
        return BackupError(
            "{where}: '{key}' {problem}, not {value}.",
            where=where,
            key=key,
            problem=problem,
            value=shown(value),
        )

    wanted = "must be an ISO 8601 date and time such as 2025-06-01T21:30:00+02:00"
    if not isinstance(value, str):
        raise refuse(wanted)
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise refuse(wanted) from None
    if moment.utcoffset() is None:
        raise refuse("must give its UTC offset (such as +02:00 or Z)")
    try:
        in_utc = moment.astimezone(UTC)
    except OverflowError:
        in_utc = None
    if in_utc is None or not 1 < in_utc.year < 9999:
        raise refuse("must be between the years 2 and 9998")
    return moment


def _refuse_known_keys(entries: list[Entry]) -> None:
    """Refuse the games of ``entries`` if any of their links already reaches a game here."""
    owner = {}
    for entry in entries:
        owner[entry.edit_key] = entry
        owner[entry.share_key] = entry
    keys = list(owner)
    for start in range(0, len(keys), KEYS_PER_QUERY):
        part = keys[start : start + KEYS_PER_QUERY]
        rows = Game.objects.filter(Q(edit_key__in=part) | Q(share_key__in=part))
        for edit_key, share_key in rows.values_list("edit_key", "share_key")[:1]:
            entry = owner.get(edit_key) or owner[share_key]
            raise BackupError(
                "{where}: the game is already in this database (a game here has one of its keys).",
                where=entry.where,
            )


def _restore_game(archive: zipfile.ZipFile, entry: Entry) -> int:
    """Store the game of ``entry``; the bytes its file unpacked to."""
    data = _read_member(archive, entry.file, gamefile.MAX_FILE_BYTES, entry.where)
    try:
        parsed = gamefile.read_game(data)
        ended = entry.ended or parsed.blocked_after is not None
        # Checked as the stored game will be scored (an ended game ends after its rounds).
        game = Game(variant=parsed.variant, players=list(parsed.players), ended=ended)
        game.settings = dict(parsed.settings)
        engine.score_game(game.as_entry(list(parsed.rounds)))
    except GameError as error:
        raise BackupError("{where}: {problem}", where=entry.where, problem=str(error)) from None
    if entry.first_dealer >= len(parsed.players):
        raise BackupError(
            "{where}: 'first_dealer' must be below the number of players ({count}), not {value}.",
            where=entry.where,
            count=len(parsed.players),
            value=entry.first_dealer,
        )
    if len(entry.rounds) != len(parsed.rounds):
        raise BackupError(
            "{where}: 'rounds' lists {listed} round(s), but the game file has {count}.",
            where=entry.where,
            listed=len(entry.rounds),
            count=len(parsed.rounds),
        )
    if entry.turn_seconds is not None and parsed.variant != Tambouille.key:
        raise BackupError(
            "{where}: 'turn_seconds' is the time of a turn of a Tambouille match, and this "
            "game is {variant}.",
            where=entry.where,
            variant=parsed.variant,
        )
    game = Game.objects.store(
        parsed,
        rounds=entry.rounds,
        edit_key=entry.edit_key,
        share_key=entry.share_key,
        first_dealer=entry.first_dealer,
        ended=ended,
        created_at=entry.created_at,
        updated_at=entry.updated_at,
    )
    if entry.turn_seconds is not None:
        TurnClock.objects.create(game=game, seconds=entry.turn_seconds)
    return len(data)
