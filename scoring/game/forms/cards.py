"""Cards as the round form reads them (the picker's codes, one hidden field per hand) and
shows them back (``HandView``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from django import forms

from scoring.referee.cards import Card, UnknownCard, parse_card

PENALTY_TARGET = "pc"  # the picker's target for Dutch toulousain's penalty cards


def read_cards(text: str) -> tuple[list[Card], list[str]]:
    """The cards of a field of card codes, and the codes that name no card."""
    cards, unknown = [], []
    for code in re.split(r"[\s,;]+", text or ""):
        if code:
            try:
                cards.append(parse_card(code))
            except UnknownCard:
                unknown.append(code)
    return cards, unknown


def cards_of(text: str) -> list[Card]:
    """The cards of a field of card codes; a code that names no card is left out."""
    return read_cards(text)[0]


@dataclass
class HandView:
    """What the round form shows for one player."""

    seat: int
    name: str
    cards_field: forms.BoundField
    total_field: forms.BoundField
    cards: list[Card]
    total: Fraction | None
    is_target: bool
