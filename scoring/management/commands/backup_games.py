"""``python manage.py backup_games FILE``: every game, round, table, rule set and turn clock
as Django's JSON (what ``dumpdata`` writes), gzip-compressed when FILE ends in ``.gz``.

The file appears whole or not at all; a backup that cannot be written says why in one line
on standard error (exit status 1).
"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from scoring.store.backup import BackupError, counted, one_line, write_backup


class Command(BaseCommand):
    help = (
        "Write every game, round, table, rule set and turn clock to FILE as Django's JSON "
        "(gzip-compressed when FILE ends in .gz)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the file to write, such as backup.json.gz")

    def handle(self, *args, file: str, **options) -> None:
        try:
            counts = write_backup(file)
        except BackupError as error:
            self.stderr.write(one_line(f"backup_games: {error}"))
            sys.exit(1)
        self.stdout.write(f"{counted(counts)} written to {file}")
