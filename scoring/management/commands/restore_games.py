"""``python manage.py restore_games ARCHIVE.zip``: put a backup back, all or nothing.

An archive that is not exactly what backup_games writes is refused whole: one line on
standard error says what is wrong and where, the exit status is 1, and nothing is stored.
"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from scoring.games.backup import one_line, restore_backup
from scoring.referee.engine import GameError


class Command(BaseCommand):
    help = "Store every game of a backup_games archive (refused whole if any game is wrong)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("archive", help="the zip file written by backup_games")

    def handle(self, *args, archive: str, **options) -> None:
        try:
            count = restore_backup(archive)
        except GameError as error:
            self.stderr.write(one_line(f"restore_games: {error}"))
            sys.exit(1)
        self.stdout.write(f"{count} game(s) restored from {archive}")
