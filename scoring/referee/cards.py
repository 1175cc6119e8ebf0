"""Playing cards: codes, suits, colours, and the exact numbers points are counted in.

Pure Python: nothing here imports Django, so the same code scores stored games
and game files.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")  # pique, cœur, carreau, trèfle
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset({"H", "D"})
JOKER = "JOKER"

_SYMBOL_TO_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}


class UnknownCard(ValueError):
    """A card code that names no card."""


@dataclass(frozen=True, order=True)
class Card:
    """One card; a joker has the rank JOKER and no suit."""

    rank: str
    suit: str | None = None

    @property
    def code(self) -> str:
        """Canonical game-file code: ``10H``, ``KS``, ``JOKER``."""
        return self.rank + (self.suit or "")

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    def __str__(self) -> str:
        """How players read it: ``10♥``, ``K♠``, ``joker``."""
        return "joker" if self.is_joker else self.rank + SUIT_SYMBOLS[self.suit]


@lru_cache(maxsize=512)
def parse_card(code: str) -> Card:
    """Read a card code: rank then suit letter or symbol, any case; or JOKER."""
    text = code.strip().upper()
    if text == JOKER:
        return Card(JOKER)
    rank, suit = text[:-1], _SYMBOL_TO_SUIT.get(text[-1:], text[-1:])
    if rank not in RANKS or suit not in SUITS:
        raise UnknownCard(code)
    return Card(rank, suit)


def full_deck(ranks: tuple[str, ...] = RANKS, jokers: int = 0) -> tuple[Card, ...]:
    """The cards of one deck of the given ranks, in rank then suit order."""
    cards = tuple(Card(rank, suit) for rank in ranks for suit in SUITS)
    return cards + (Card(JOKER),) * jokers


# Points are exact: whole numbers everywhere, halves in Tamoul.
Points = Fraction

HALF = Fraction(1, 2)


def points(value: int | float | str | Fraction) -> Fraction:
    """An exact number of points from a JSON number or a literal like ``"6.5"``."""
    return Fraction(value)


def json_number(value: Fraction) -> int | float:
    """A JSON number: an integer where whole, else the exact half as a float."""
    if value.denominator == 1:
        return int(value)
    return float(value)


def format_points(value: Fraction, decimal_separator: str = ".") -> str:
    """``4.5`` or ``-20``; halves are the only fractions the rules produce."""
    if value.denominator == 1:
        return str(int(value))
    return str(float(value)).replace(".", decimal_separator)
