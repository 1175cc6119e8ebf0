"""``python manage.py backup_games ARCHIVE.zip``: every game in one archive.

The archive appears whole or not at all; a game that cannot be written is named in one line
on standard error (exit status 1).
"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from scoring.games.backup import BackupError, one_line, write_backup


class Command(BaseCommand):
    help = "Write every game (game files and what they do not hold) into one zip archive."

    def add_arguments(self, parser) -> None:
        parser.add_argument("archive", help="the zip file to write")

    def handle(self, *args, archive: str, **options) -> None:
        try:
            count = write_backup(archive)
        except BackupError as error:
            self.stderr.write(one_line(f"backup_games: {error}"))
            sys.exit(1)
        self.stdout.write(f"{count} game(s) written to {archive}")
