"""Points, cards and explanations shown the local way (0,5 in French, R♥ for K♥)."""

from __future__ import annotations

import math
from datetime import datetime
from fractions import Fraction
from functools import lru_cache

from django import template
from django.utils import timezone, translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from scoring.referee.cards import Card
from scoring.referee.engine import GameError
from scoring.referee.notes import Note
from scoring.referee.notes import card_name as name_of_card
from scoring.web import display

register = template.Library()


@register.filter
def points(value: Fraction | int | None) -> str:
    """Points written the local way, with a true minus sign: ``−2``, ``0,5`` in French."""
    return display.points(value)


@register.filter
def signed(value: Fraction | int) -> str:
    """Points with their sign, a plus too: ``+5``, ``−2``, ``0``."""
    text = display.points(value)
    return text if text.startswith("−") or value == 0 else f"+{text}"


@register.filter
def number_attr(value: Fraction | int) -> str:
    """A number for a data attribute that scripts read: ``0.5``, ``-2``."""
    return display.number_attr(value)


@register.filter
def explain(note: Note | GameError) -> str:
    return display.say(note)


@register.filter
def referee_text(message: str) -> str:
    """One of the referee's texts (a summary, a rule, a setting's label) in the page's
    language, with true minus signs: ``{{ variant.summary|referee_text }}``."""
    return display.text(message)


@register.filter
def card_name(card: Card) -> str:
    """A card as players read it in the page's language: ``R♥`` in French, ``K♥`` in English."""
    return name_of_card(card, gettext)


@register.filter
def card(card: Card) -> str:
    """A card as players read it, red suits in red (the open rounds of a sheet show some 100)."""
    return card_in(card, get_language())


@register.filter
def cards(hand) -> str:
    """Cards as players read them, a space between two: ``{{ row.cards|cards }}`` draws a
    hand at once (the open rounds of a sheet show some 100 cards: a tag each cost more)."""
    language = get_language()
    return mark_safe(" ".join([card_in(c, language) for c in hand]))  # each one escaped


@lru_cache(maxsize=256)  # the 54 cards of a deck, in either language
def card_in(card: Card, language: str) -> str:
    with translation.override(language):
        return format_html(
            '<span class="card{}">{}</span>', " red" if card.is_red else "", card_name(card)
        )


@register.filter
def turn_time(seconds: int) -> str:
    """The time of a turn as a clock shows it: ``2:00``."""
    return display.minutes(seconds)


@register.filter
def whole(value: Fraction | int) -> int:
    """A whole number of things (cards left), for a plural that counts them."""
    return int(value)


@register.filter
def percent(value: Fraction | None) -> str:
    """A share as a whole percentage, written the local way (``67 %`` in French)."""
    if value is None:
        return "–"
    return gettext("%(percent)s%%") % {"percent": round(Fraction(value) * 100)}


@register.filter
def decimal(value: Fraction | None) -> str:
    """A number to a tenth, halves rounded up, written the local way (``4,3`` in French)."""
    if value is None:
        return "–"
    return display.points(Fraction(math.floor(Fraction(value) * 10 + Fraction(1, 2)), 10))


@register.filter
def machine_time(moment: datetime | None) -> str:
    """A moment for a ``datetime`` attribute: ISO 8601 in the local time zone, to the second
    (HTML allows at most 3 digits of a second's fraction; ``|date:'c'`` writes 6)."""
    if moment is None:
        return ""
    return timezone.localtime(moment).isoformat(timespec="seconds")
