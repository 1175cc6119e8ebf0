"""Every game at once, in one archive, and back into an empty database with nothing lost.

The archive is a zip of ordinary game files (each importable on its own) and a manifest
with what a game file does not hold: the game's two links, who dealt first, whether the
table ended it, when it was made and last changed, and how often each round was corrected.

Writing goes to a temporary file beside the target, renamed into place only when the whole
archive is written: a failed backup leaves no partial archive and keeps any older one.
"""

from __future__ import annotations

import json
import os
import secrets
import zipfile
from datetime import datetime
from pathlib import Path

from django.db import transaction

from scoring import engine, gamefile
from scoring.engine import GameError
from scoring.models import Game

MANIFEST = "manifest.json"
FORMAT = "tamalou-ref.backup/1"


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
        for game in Game.objects.order_by("pk").iterator():
            name = f"games/{game.edit_key}.game.json"
            try:
                data = gamefile.game_to_json(game.as_engine_game())
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
            }
            _check_encodable(game, data, "its game file")
            _check_encodable(game, entry, "its manifest entry")
            archive.writestr(name, gamefile.dumps(data).encode("utf-8"))
            manifest.append(entry)
        text = json.dumps({"format": FORMAT, "games": manifest}, ensure_ascii=False, indent=1)
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


def restore_backup(source) -> int:
    """Store every game of a backup; all or nothing. Existing games with the same links are
    refused, so a backup goes into an empty (or different) database."""
    try:
        archive = zipfile.ZipFile(source)
        manifest = json.loads(archive.read(MANIFEST))
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as error:
        raise GameError("this is not a Tamalou Ref backup: {problem}", problem=str(error)) from None
    if manifest.get("format") != FORMAT:
        raise GameError("this is not a Tamalou Ref backup ({format}).", format=FORMAT)
    with transaction.atomic():
        for entry in manifest["games"]:
            restore_game(archive, entry)
    return len(manifest["games"])


def restore_game(archive: zipfile.ZipFile, entry: dict) -> None:
    parsed = gamefile.read_game(archive.read(entry["file"]))
    settings = dict(parsed.settings)
    if entry["ended"]:
        settings["rounds"] = max(len(parsed.rounds), 1)
    engine.score_game(engine.Game(parsed.variant, parsed.players, parsed.rounds, settings))
    if Game.objects.filter(edit_key=entry["edit_key"]).exists():
        raise GameError("the game {file} is already in this database.", file=entry["file"])
    Game.objects.store(
        parsed,
        rounds=[
            {"edits": r["edits"], "created_at": datetime.fromisoformat(r["created_at"])}
            for r in entry["rounds"]
        ],
        edit_key=entry["edit_key"],
        share_key=entry["share_key"],
        first_dealer=entry["first_dealer"],
        ended=entry["ended"],
        created_at=datetime.fromisoformat(entry["created_at"]),
        updated_at=datetime.fromisoformat(entry["updated_at"]),
    )
