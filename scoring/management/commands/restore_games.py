"""``python manage.py restore_games FILE [--replace]``: put a ``backup_games`` file back.

Everything or nothing, in one transaction: into a database that holds no game, table or rule
set, or with ``--replace`` in place of those it holds. Every game is checked by the referee
and stored as the app stores a game it scored (its summary and players' rows written again).
A file refused (damaged, not a backup, a row the database refuses, a game the referee
refuses, a database that is not empty) is said in one line on standard error, nothing is
restored and the exit status is 1.
"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from scoring.store.backup import BackupError, counted, one_line, restore_backup


class Command(BaseCommand):
    help = (
        "Restore a backup_games file, whole or not at all, into a database without games "
        "(or, with --replace, in place of its games, tables and rule sets)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the file written by backup_games")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="delete the games, tables and rule sets the database holds, then restore",
        )

    def handle(self, *args, file: str, replace: bool, **options) -> None:
        try:
            counts = restore_backup(file, replace=replace)
        except BackupError as error:
            self.stderr.write(one_line(f"restore_games: {error} Nothing was restored."))
            sys.exit(1)
        self.stdout.write(f"{counted(counts)} restored from {file}")
