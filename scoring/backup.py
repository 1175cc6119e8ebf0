"""Every game at once, in one archive, and back into an empty database with nothing lost.

The archive is a zip of ordinary game files (each importable on its own) and a manifest
with what a game file does not hold: the game's two links, who dealt first, whether the
table ended it, when it was made and last changed, and how often each round was corrected.
"""

from __future__ import annotations

import json
import zipfile
from datetime import datetime

from django.db import transaction

from scoring.models import Game
from scoring.referee import engine, gamefile
from scoring.referee.engine import GameError

MANIFEST = "manifest.json"
FORMAT = "tamalou-ref.backup/1"


def write_backup(target) -> int:
    """Write every game to ``target`` (a path or a binary file); return how many."""
    manifest = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for game in Game.objects.order_by("pk").iterator():
            rounds = game.live_rounds()
            name = f"games/{game.edit_key}.game.json"
            data = gamefile.game_to_json(game.as_entry())
            data["settings"] = game.settings  # as stored: `ended` is kept apart
            if not data["settings"]:
                del data["settings"]
            archive.writestr(name, gamefile.dumps(data))
            manifest.append(
                {
                    "file": name,
                    "edit_key": game.edit_key,
                    "share_key": game.share_key,
                    "first_dealer": game.first_dealer,
                    "ended": game.ended,
                    "created_at": game.created_at.isoformat(),
                    "updated_at": game.updated_at.isoformat(),
                    "rounds": [
                        {"edits": r.edits, "created_at": r.created_at.isoformat()} for r in rounds
                    ],
                }
            )
        archive.writestr(MANIFEST, json.dumps({"format": FORMAT, "games": manifest}, indent=1))
    return len(manifest)


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
    engine.score_game(engine.GameEntry(parsed.variant, parsed.players, parsed.rounds, settings))
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
