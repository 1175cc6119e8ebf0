"""How the referee's numbers and sentences are shown to people: in their language,
with numbers written the local way (0,5 in French) and a real minus sign."""

from __future__ import annotations

from fractions import Fraction

from django.utils import formats
from django.utils.translation import gettext, ngettext

from scoring.referee.engine import GameError
from scoring.referee.notes import Note, gettext_noop

RANK_NAMES = {
    "A": gettext_noop("Ace"),
    "J": gettext_noop("Jack"),
    "Q": gettext_noop("Queen"),
    "K": gettext_noop("King"),
    "JOKER": gettext_noop("Joker"),
}


def points(value: Fraction | int | None) -> str:
    if value is None:
        return "–"
    value = Fraction(value)
    if value.denominator == 1:
        text = str(int(value))
    else:
        text = formats.number_format(float(value), decimal_pos=1, use_l10n=True)
    return text.replace("-", "−")


def minutes(seconds: int) -> str:
    """A time as a clock shows it: 2:00, 1:30, 0:05."""
    return f"{seconds // 60}:{seconds % 60:02d}"


def say(what: Note | GameError) -> str:
    """A note or a refusal in the reader's language, a sentence of its own; a refusal with
    its round and player."""
    text = what.render(translate=gettext, number=points, plural=ngettext)
    return text[:1].upper() + text[1:]


def say_detail(error: GameError, sentence: bool = True) -> str:
    """A refusal without its round and player, for next to the field at fault: a sentence of
    its own (capitalised), or the end of one."""
    detail = error.note.render(translate=gettext, number=points, plural=ngettext)
    return detail[:1].upper() + detail[1:] if sentence else detail


def rank_name(rank: str) -> str:
    return gettext(RANK_NAMES[rank]) if rank in RANK_NAMES else rank
