"""A game as a file to download: its game file (JSON) or its sheet as CSV, named after the
variant and the day it began."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils import timezone

from scoring.models import Game
from scoring.referee import gamefile
from scoring.spreadsheet import sheet_csv


def game_file_download(game: Game) -> HttpResponse:
    response = HttpResponse(
        gamefile.dumps(game.game_file()), content_type="application/json; charset=utf-8"
    )
    stamp = timezone.localdate(game.created_at).isoformat()
    response["Content-Disposition"] = f'attachment; filename="tamalou-{game.variant}-{stamp}.json"'
    return response


def csv_download(game: Game) -> HttpResponse:
    """The sheet as CSV (see ``scoring.spreadsheet``), with a byte order mark so that
    spreadsheets opening it with a double tap read its accents as UTF-8."""
    response = HttpResponse(
        "\ufeff" + sheet_csv(game.score()), content_type="text/csv; charset=utf-8"
    )
    stamp = timezone.localdate(game.created_at).isoformat()
    response["Content-Disposition"] = f'attachment; filename="tamalou-{game.variant}-{stamp}.csv"'
    return response
