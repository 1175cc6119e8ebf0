"""A score sheet as CSV, for spreadsheet users: the same text from the sheet's link and from
``manage.py export_game GAME --csv``.

Decisions: one row per round (``Round`` then the round number), then each player's score in
that round, then each player's running total after it, players in turn order; the header
row names the columns in the language in use. A player who is out (Dutch) has empty cells
in the rounds after his last one. A last row holds every player's final total (a player who
is out at the total he went out on), so one row gives the whole result.
Numbers are written as the game file writes them (``-20``, ``4.5``: an ASCII hyphen and a
dot, whatever the language, so that spreadsheets read them as numbers) and the separator is
a comma (RFC 4180), UTF-8. A field holding ``,`` or ``;`` (what French spreadsheets split
on), a quote or a line break is quoted, so a name like ``a;=2+5;`` stays one cell. A text
cell that a spreadsheet would take for a formula (starting with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return) gets a ``'``, and so does such a character after a ``,`` or ``;``
inside a text (``a;'=2+5;``): a spreadsheet splitting on the other separator never starts a
cell with a formula either.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable

from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring.referee.cards import format_points
from scoring.referee.engine import ScoreSheet

QUOTED_IF = (",", ";", '"', "\r", "\n")
LONGEST_NAME = 80  # characters of a file name before the date; past it, the players are left out


# Where a spreadsheet may start a cell: the field's start, or after a separator when it splits
# on another one than this file's (French spreadsheets split on ";").
CELL_START = re.compile(r"(^|[,;])(?=[=+\-@\t\r])")


def text_cell(text: str) -> str:
    """Text that no spreadsheet takes for a formula, whichever separator it splits on: a
    ``'`` before a formula's first character at the start and after each ``,`` or ``;``."""
    return CELL_START.sub(r"\1'", text)


def field(value: object) -> str:
    text = str(value)
    if any(char in text for char in QUOTED_IF):
        return '"' + text.replace('"', '""') + '"'
    return text


def row(values: Iterable[object]) -> str:
    return ",".join(field(value) for value in values) + "\r\n"


def sheet_csv(sheet: ScoreSheet) -> str:
    players = sheet.players
    lines = [
        row(
            [
                text_cell(_("Round")),
                *(text_cell(_("%(name)s: score") % {"name": p}) for p in players),
                *(text_cell(_("%(name)s: total") % {"name": p}) for p in players),
            ]
        )
    ]
    for result in sheet.rounds:
        played = result.scores
        lines.append(
            row(
                [
                    result.number,
                    *(format_points(played[p]) if p in played else "" for p in players),
                    *(format_points(result.totals[p]) if p in played else "" for p in players),
                ]
            )
        )
    if sheet.rounds:
        lines.append(
            row(
                [
                    text_cell(_("Final total")),
                    *("" for _p in players),
                    *(format_points(sheet.totals[p]) for p in players),
                ]
            )
        )
    return "".join(lines)


def file_name(variant: str, players: Iterable[str], day: datetime.date, extension: str) -> str:
    """``tamoul-lea-marc-nina-2026-11-24.csv``: a game's file (CSV or JSON) named after its
    variant, its players (in ASCII, as far as their names have letters; left out when too
    long) and the day it started."""
    variant = slugify(variant.replace("_", "-"))
    names = "-".join(filter(None, (slugify(p) for p in players)))
    start = f"{variant}-{names}" if names and len(variant + names) < LONGEST_NAME else variant
    return f"{start}-{day.isoformat()}.{extension}"
