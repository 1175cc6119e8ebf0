"""``python manage.py restore_games ARCHIVE.zip``: put a backup back.

Every game that can be stored is; each game left out gets one line on standard error saying
what is wrong and where, and the exit status is then 1. An archive that is not a backup, or
whose manifest is wrong, is refused whole in one line (exit status 1): nothing is stored.
"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from scoring.games.backup import one_line, restore_backup
from scoring.referee.engine import GameError


class Command(BaseCommand):
    help = "Store the games of a backup_games archive (each game that cannot be stored is named)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("archive", help="the zip file written by backup_games")

    def handle(self, *args, archive: str, **options) -> None:
        try:
            count, left_out = restore_backup(archive)
        except GameError as error:
            self.stderr.write(one_line(f"restore_games: {error}"))
            sys.exit(1)
        self.stdout.write(f"{count} game(s) restored from {archive}")
        for problem in left_out:
            self.stderr.write(one_line(f"restore_games: not restored: {problem}"))
        if left_out:
            sys.exit(1)
