"""How the referee's numbers and sentences are shown to people: in their language,
with numbers written the local way (0,5 in French) and a real minus sign (U+2212), in the
numbers a note or a page computes (``points``) and in the numbers its texts write
(``typeset``: "-50 wins", "(their hand - the lowest hand)"). Game files, ``score_game``'s
JSON and the CSV keep the ASCII hyphen: programs read them."""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

import segno
from django.utils import formats
from django.utils.functional import lazy
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext

from scoring.referee.cards import JOKER, RANKS, parse_card
from scoring.referee.engine import GameError
from scoring.referee.house import HouseSetting
from scoring.referee.notes import RANK_SYMBOLS, Note, card_name, gettext_noop

RANK_NAMES = {
    "A": gettext_noop("Ace"),
    "J": gettext_noop("Jack"),
    "Q": gettext_noop("Queen"),
    "K": gettext_noop("King"),
    "JOKER": gettext_noop("Joker"),
}


MINUS = "\u2212"
# A hyphen before a number that does not follow a word or a number ("-50", "(-4"; not "2026-11",
# "Mi-partie"), and a hyphen between spaces, which the texts use only for a subtraction
# (their dashes are – and —).
NEGATIVE = re.compile(r"(?<![\w\-−.,])-(?=[0-9])")
SUBTRACTION = re.compile(r"(?<= )-(?= )")


def typeset(text: str) -> str:
    """A text as shown to people: its negative numbers and subtractions with a minus sign."""
    return SUBTRACTION.sub(MINUS, NEGATIVE.sub(MINUS, text))


def text(message: str) -> str:
    """One of the referee's texts (a variant's summary, rule, decision, setting) in the
    reader's language, typeset."""
    return typeset(gettext(message))


def plural_text(singular: str, plural: str, count: int) -> str:
    return typeset(ngettext(singular, plural, count))


text_lazy = lazy(text, str)


def points(value: Fraction | int | None) -> str:
    if value is None:
        return "–"
    value = Fraction(value)
    if value.denominator == 1:
        shown = str(int(value))
    else:
        shown = formats.number_format(float(value), decimal_pos=1, use_l10n=True)
    return shown.replace("-", MINUS)


def number_attr(value: Fraction | int) -> str:
    """A number for a data attribute that scripts read: ``0.5``, ``-2``."""
    value = Fraction(value)
    return str(int(value)) if value.denominator == 1 else str(float(value))


def minutes(seconds: int) -> str:
    """A time as a clock shows it: 2:00, 1:30, 0:05."""
    return f"{seconds // 60}:{seconds % 60:02d}"


def say(what: Note | GameError) -> str:
    """A note or a refusal in the reader's language, a sentence of its own; a refusal with
    its round and player."""
    shown = what.render(translate=text, number=points, plural=plural_text)
    return shown[:1].upper() + shown[1:]


def say_detail(error: GameError, sentence: bool = True) -> str:
    """A refusal without its round and player, for next to the field at fault: a sentence of
    its own (capitalised), or the end of one."""
    detail = error.note.render(translate=text, number=points, plural=plural_text)
    return detail[:1].upper() + detail[1:] if sentence else detail


def rank_name(rank: str) -> str:
    return gettext(RANK_NAMES[rank]) if rank in RANK_NAMES else rank


def house_value(setting: HouseSetting, value: object) -> str:
    """A house setting's value as a player reads it: ``R♥ −1, joker −5`` (card values),
    ``100 → 50`` (a reset), a choice's label, a number the local way."""
    if setting.kind == "choice":
        return text(dict(setting.choices)[value])
    if setting.kind == "card_values":
        return ", ".join(f"{card_key_name(key)} {points(worth)}" for key, worth in value.items())
    if setting.kind == "reset":
        return (
            gettext("none") if value is None else f"{points(value['at'])} → {points(value['to'])}"
        )
    if setting.kind == "flag":
        return gettext("yes") if value else gettext("no")
    return points(value) if value is not None else gettext("none")


def card_key_name(key: str) -> str:
    """A card_values key as players read it: a rank (``D`` for every queen in French), one
    card (``R♥``) or the joker."""
    if key == JOKER:
        return gettext("joker")
    if key in RANKS:
        return gettext(RANK_SYMBOLS[key]) if key in RANK_SYMBOLS else key
    return card_name(parse_card(key), gettext)


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """The share link as an inline SVG QR code, drawn on the server (no image, no script)."""
    code = segno.make(url, error="m")
    return mark_safe(code.svg_inline(dark="#1c2430", light="#ffffff", border=2, omitsize=True))
