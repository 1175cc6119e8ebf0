"""``python manage.py export_game GAME``: print the game file of a stored game.

GAME is the game's URL path (as import_game prints it), its edit key, or its id. With
``--csv`` it prints the score sheet as CSV instead, as the sheet's CSV link gives it (without
the byte order mark the download starts with), its header in ``--language`` (French unless
told otherwise, as the site).
"""

from __future__ import annotations

import re
import sys

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import translation

from scoring.referee.gamefile import dumps
from scoring.store.models import Game
from scoring.store.spreadsheet import sheet_csv


def find_game(reference: str) -> Game | None:
    """A game by URL path (``/g/KEY/``, full URL too), edit key, or database id."""
    match = re.search(r"/g/([^/]+)", reference)
    key = match.group(1) if match else reference.strip()
    games = Game.objects
    if key.isdigit():
        return games.filter(pk=int(key)).first()
    return games.filter(edit_key=key).first()


class Command(BaseCommand):
    help = "Print the tamalou-ref.game/1 file of a stored game (its URL path, key or id)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game", help="the game's URL path, edit key or id")
        parser.add_argument(
            "--csv", action="store_true", help="print the score sheet as CSV (rounds × players)"
        )
        parser.add_argument(
            "--language",
            choices=[code for code, _name in settings.LANGUAGES],
            default=settings.LANGUAGE_CODE,
            help="the language of the CSV's header row",
        )

    def handle(self, *args, game: str, csv: bool, language: str, **options) -> None:
        found = find_game(game)
        if found is None:
            self.stderr.write(f"export_game: no game {game!r}.")
            sys.exit(1)
        if csv:
            with translation.override(language):
                self.stdout.write(sheet_csv(found.score()), ending="")
        else:
            self.stdout.write(dumps(found.game_file()), ending="")
