"""Explanations of scores, written for players and translatable later.

A note keeps its English template and its values apart, so the web app can
translate the template and show numbers the local way, while game files and
``score_game`` get plain English. Templates are marked with ``gettext_noop`` so
Django's ``makemessages`` finds them without this module importing Django.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from scoring.referee.cards import SUIT_SYMBOLS, Card, format_points


def gettext_noop(message: str) -> str:
    """Mark a string for translation; translation happens where it is shown."""
    return message


class Plural(str):
    """A template in its singular form that also knows its plural; the note's ``count``
    value chooses between them (as ngettext does, in each language's own way)."""

    plural: str


def plural_noop(singular: str, plural: str) -> Plural:
    """Mark a singular and plural template for translation (``make messages`` finds them)."""
    text = Plural(singular)
    text.plural = plural
    return text


def english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


class Term(str):
    """A value inside a note that is itself a translatable word (a variant's name, a role)."""


@dataclass(frozen=True)
class Note:
    template: str
    params: tuple[tuple[str, object], ...] = ()

    def render(
        self,
        translate: Callable[[str], str] = str,
        number: Callable[[Fraction], str] = format_points,
        plural: Callable[[str, str, int], str] = english_plural,
    ) -> str:
        values = {key: _shown(value, translate, number, plural) for key, value in self.params}
        if isinstance(self.template, Plural):
            count = dict(self.params)["count"]
            return plural(self.template, self.template.plural, count).format(**values)
        return translate(self.template).format(**values)

    def __str__(self) -> str:
        return self.render()


# A note made of several notes (every setting at fault, a section of a rules page).
NOTES = gettext_noop("{notes}")


def notes_together(parts: Iterable[Note]) -> Note:
    return note(NOTES, notes=tuple(parts))


def _shown(value: object, translate: Callable[[str], str], number, plural=english_plural) -> object:
    if isinstance(value, tuple) and value and all(isinstance(v, Note) for v in value):
        return " ".join(v.render(translate, number, plural) for v in value)
    if isinstance(value, Card):
        return card_name(value, translate)
    if isinstance(value, tuple) and value and all(isinstance(v, Card) for v in value):
        return ", ".join(card_name(card, translate) for card in value)
    if isinstance(value, Fraction):
        return number(value)
    if isinstance(value, Term):
        return translate(value)
    return value


def note(template: str, **params: object) -> Note:
    return Note(template, tuple(params.items()))


def names(players: Iterable[str]) -> str:
    return ", ".join(players)


# How a card's rank is written for players (French: V, D, R); number ranks stay as they are.
RANK_SYMBOLS = {
    "A": gettext_noop("A"),
    "J": gettext_noop("J"),
    "Q": gettext_noop("Q"),
    "K": gettext_noop("K"),
}


def card_name(card: Card, translate: Callable[[str], str] = str) -> str:
    """A card as players read it in their language: ``K♥`` (French ``R♥``), ``joker``."""
    if card.is_joker:
        return translate(gettext_noop("joker"))
    rank = translate(RANK_SYMBOLS[card.rank]) if card.rank in RANK_SYMBOLS else card.rank
    return rank + SUIT_SYMBOLS[card.suit]
