"""``python manage.py backup_games ARCHIVE.zip``: every game in one archive."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from scoring.backup import write_backup


class Command(BaseCommand):
    help = "Write every game (game files and what they do not hold) into one zip archive."

    def add_arguments(self, parser) -> None:
        parser.add_argument("archive", help="the zip file to write")

    def handle(self, *args, archive: str, **options) -> None:
        count = write_backup(archive)
        self.stdout.write(f"{count} game(s) written to {archive}")
