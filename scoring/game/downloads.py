"""A game as a file to download: its game file (JSON) or its sheet as CSV, named after the
variant and the day it began."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils import timezone

from scoring.games import tablefile
from scoring.games.models import Game, Table
from scoring.games.spreadsheet import file_name as csv_file_name
from scoring.games.spreadsheet import sheet_csv
from scoring.referee import gamefile


def game_file_download(game: Game) -> HttpResponse:
    """The game file, as an import reads it."""
    text = gamefile.dumps(game.game_file())
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    stamp = timezone.localdate(game.created_at).isoformat()
    response["Content-Disposition"] = f'attachment; filename="tamalou-{game.variant}-{stamp}.json"'
    return response


def csv_download(game: Game) -> HttpResponse:
    """The sheet as CSV (see ``scoring.games.spreadsheet``), with a byte order mark so that
    spreadsheets opening it with a double tap read its accents as UTF-8."""
    sheet = game.score()
    response = HttpResponse("\ufeff" + sheet_csv(sheet), content_type="text/csv; charset=utf-8")
    name = csv_file_name(sheet, timezone.localdate(game.created_at))
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def table_file_download(table: Table) -> HttpResponse:
    """The table's file (``scoring.games.tablefile``): its players, rules and games. No key
    is in it: a game's id names it, it opens nothing."""
    text = tablefile.dumps(tablefile.table_file(table))
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="tamalou-table-{stamp}.json"'
    return response
