"""A game as a file to download: its game file (JSON) or its sheet as CSV, named after the
variant, the players and the day it began."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils import timezone

from scoring.referee import gamefile
from scoring.store.models import Game
from scoring.store.spreadsheet import file_name, sheet_csv


def attached(response: HttpResponse, game: Game, extension: str) -> HttpResponse:
    """The file to save, named after the game (``file_name``) and the day it began (TIME_ZONE)."""
    name = file_name(game.variant, game.players, timezone.localdate(game.created_at), extension)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def game_file_download(game: Game) -> HttpResponse:
    """The game file, as an import reads it."""
    text = gamefile.dumps(game.game_file())
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    return attached(response, game, "json")


def csv_download(game: Game) -> HttpResponse:
    """The sheet as CSV (see ``scoring.store.spreadsheet``), with a byte order mark so that
    spreadsheets opening it with a double tap read its accents as UTF-8."""
    sheet = game.score()
    response = HttpResponse("\ufeff" + sheet_csv(sheet), content_type="text/csv; charset=utf-8")
    return attached(response, game, "csv")
