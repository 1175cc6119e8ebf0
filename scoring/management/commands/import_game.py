"""``python manage.py import_game PATH``: store a game file, print its page's URL path."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand
from django.urls import reverse

from scoring.management.commands.score_game import read_source
from scoring.referee.engine import GameError
from scoring.store.backup import one_line
from scoring.store.models import Game


class Command(BaseCommand):
    help = "Store a tamalou-ref.game/1 file as a game and print the URL path of its page."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="the game file, or - for standard input")

    def handle(self, *args, path: str, **options) -> None:
        try:
            game = Game.objects.import_file(read_source(path))
        except GameError as error:
            self.stderr.write(one_line(f"import_game: {error}"))
            sys.exit(1)
        self.stdout.write(reverse("edit", args=[game.edit_key]))
