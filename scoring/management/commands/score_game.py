"""``python manage.py score_game PATH``: print the score sheet of a game file."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from scoring.referee.engine import GameError, score_game
from scoring.referee.gamefile import MAX_FILE_BYTES, dumps, read_game, sheet_to_json
from scoring.store.backup import one_line


def read_source(path: str) -> bytes:
    """The bytes of a file, or of standard input for ``-``; refused when unreadable."""
    try:
        if path == "-":
            return sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        with open(path, "rb") as source:
            return source.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise GameError(f"cannot read {path}: {error.strerror or error}.") from None


class Command(BaseCommand):
    help = "Score a tamalou-ref.game/1 file and print its score sheet as JSON."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="the game file, or - for standard input")

    def handle(self, *args, path: str, **options) -> None:
        try:
            sheet = score_game(read_game(read_source(path)))
        except GameError as error:
            self.stderr.write(one_line(f"score_game: {error}"))
            sys.exit(1)
        self.stdout.write(dumps(sheet_to_json(sheet)), ending="")
