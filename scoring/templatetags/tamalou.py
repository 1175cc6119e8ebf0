"""Points, cards and explanations shown the local way (0,5 in French)."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.utils.html import format_html

from scoring import display
from scoring.referee.cards import Card
from scoring.referee.notes import Note

register = template.Library()


@register.filter
def points(value: Fraction | int | None) -> str:
    return display.points(value)


@register.filter
def signed(value: Fraction | int) -> str:
    text = display.points(value)
    return text if text.startswith("−") or value == 0 else f"+{text}"


@register.filter
def explain(note: Note) -> str:
    return display.say(note)


@register.filter
def card(card: Card) -> str:
    """A card as players read it, red suits in red: ``10♥``."""
    return format_html('<span class="card{}">{}</span>', " red" if card.is_red else "", card)
