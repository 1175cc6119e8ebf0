"""Points, cards and explanations shown the local way (0,5 in French)."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.utils import formats
from django.utils.translation import gettext

from scoring.cards import Card
from scoring.notes import Note

register = template.Library()


@register.filter
def points(value: Fraction | int | None) -> str:
    if value is None:
        return "–"
    value = Fraction(value)
    if value.denominator == 1:
        return str(int(value)).replace("-", "−")
    return formats.number_format(float(value), decimal_pos=1, use_l10n=True).replace("-", "−")


@register.filter
def signed(value: Fraction | int) -> str:
    text = points(value)
    return text if text.startswith("−") or value == 0 else f"+{text}"


@register.filter
def explain(note: Note) -> str:
    return note.render(translate=gettext, number=points)


@register.inclusion_tag("_card.html")
def card(card: Card, value=None):
    return {"card": card, "value": value}
