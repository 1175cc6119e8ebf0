"""``python manage.py export_game GAME``: print the game file of a stored game.

GAME is the game's URL path (as import_game prints it), its edit key, or its id.
"""

from __future__ import annotations

import re
import sys

from django.core.management.base import BaseCommand

from scoring.models import Game
from scoring.referee.gamefile import dumps


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

    def handle(self, *args, game: str, **options) -> None:
        found = find_game(game)
        if found is None:
            self.stderr.write(f"export_game: no game {game!r}.")
            sys.exit(1)
        self.stdout.write(dumps(found.game_file()), ending="")
