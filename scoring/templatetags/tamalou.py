"""Points, cards and explanations shown the local way (0,5 in French)."""

from __future__ import annotations

from fractions import Fraction

from django import template

from scoring import display
from scoring.cards import Card
from scoring.notes import Note

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


@register.inclusion_tag("_card.html")
def card(card: Card):
    return {"card": card}
