"""A score sheet as CSV, for spreadsheet users: the same text from the sheet's link and from
``manage.py export_game GAME --csv``.

Decisions: one row per round (``Round`` then the round number), then each player's score in
that round, then each player's running total after it, players in turn order; the header
row names the columns in the language in use. A player who is out (Dutch) has empty cells.
Numbers are written as the game file writes them (``-20``, ``4.5``: a dot, whatever the
language) and the separator is a comma (RFC 4180), UTF-8. A text cell that a spreadsheet
would take for a formula (a name starting with ``=``, ``+``, ``-``, ``@``) gets a ``'``.
"""

from __future__ import annotations

import csv
import io

from django.utils.translation import gettext as _

from scoring.referee.cards import format_points
from scoring.referee.engine import ScoreSheet

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(text: str) -> str:
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def sheet_csv(sheet: ScoreSheet) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    players = sheet.players
    writer.writerow(
        [
            text_cell(_("Round")),
            *(text_cell(_("%(name)s: score") % {"name": p}) for p in players),
            *(text_cell(_("%(name)s: total") % {"name": p}) for p in players),
        ]
    )
    for result in sheet.rounds:
        played = result.scores
        writer.writerow(
            [
                result.number,
                *(format_points(played[p]) if p in played else "" for p in players),
                *(format_points(result.totals[p]) if p in played else "" for p in players),
            ]
        )
    return out.getvalue()
