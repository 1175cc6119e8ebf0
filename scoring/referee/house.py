"""House settings: what a table may change in a variant, each declared once.

A variant lists the settings it takes (``Variant.house_settings``), each with its own
default there. Everything else reads that declaration: the referee's check of a game's
settings, the new-game form (its fields, bounds, labels and help), the rules pages, the
sheet's link to them and the game-file reader.

How a form reads each kind (``HouseSetting.kind``) — the value it passes to the referee
is the one a game file holds (``settings``):

- ``whole``: one number field, whole numbers from ``low`` to ``high``; empty means
  ``None`` when ``optional`` (no agreed number, no limit), else the default.
- ``points``: one number field from ``low`` to ``high``, whole, or a half where the
  variant has half points (``Variant.half_points``).
- ``flag``: one checkbox (true or false).
- ``choice``: radio buttons, one per ``choices`` entry (its value and its label); the
  value keeps its type (``deck`` is the text "52" or "32", ``jokers`` the number 0–2).
- ``card_values``: a mapping card key → points, each from ``low`` to ``high`` (halves
  only where the variant has them). A key is a rank ("Q": every queen), one card's code
  ("KH": that card only, it wins over its rank) or "JOKER". Draw it from
  ``Variant(deck=…, jokers=…).card_value_rows()``: one row per rank of the chosen deck
  (and the joker when there is one), with the value each card has by default; a card
  whose value differs from its rank's gets its own key. Send only the keys that differ
  from the default (``{}``: every card as the variant says).
- ``reset``: ``None`` (off) or ``{"at": A, "to": B}``; ``parts`` gives each number's key,
  label and bounds; B ≠ A. Two number fields: both empty means ``None``.

``text()`` and ``from_text()`` write and read a value as one query-string item (the rules
page opened from a sheet carries the game's settings in its address).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import ClassVar

from scoring.referee.cards import JOKER, RANKS, UnknownCard, parse_card
from scoring.referee.notes import Note, Term, gettext_noop, note
from scoring.referee.numbers import NotANumber, parse_number

MAX_ROUNDS = 999


class SettingError(ValueError):
    """A setting's value breaks its declaration: the note template and its values.

    ``setting`` is the setting's name in game files (for the field at fault); the
    message names it in words (its label, a translatable Term)."""

    def __init__(self, message: str, setting: str = "", **params: object) -> None:
        self.message, self.setting, self.params = message, setting, params
        super().__init__(message)

    @property
    def note(self) -> Note:
        return note(self.message, **self.params)


class SettingErrors(ValueError):
    """Every setting at fault at once, in the order the variant lists its settings."""

    def __init__(self, errors: list[SettingError]) -> None:
        self.errors = errors
        super().__init__("; ".join(str(error.note) for error in errors))


def _number(value: object) -> Fraction | None:
    """A JSON or Python number as an exact Fraction, None if it is not a finite number."""
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return Fraction(value)


def _plain(number: Fraction) -> int | Fraction:
    return int(number) if number.denominator == 1 else number


@dataclass(frozen=True)
class HouseSetting:
    """One house setting: its name in game files, its kind, default, bounds, label and help.

    Kinds (see the module's docstring for how a form reads each): ``whole`` (a whole number,
    or None when ``optional``), ``points`` (whole, or a half in a variant with half
    points), ``flag`` (true or false), ``choice`` (one of ``choices``, each a value and its
    label), ``card_values`` (card key → points from ``low`` to ``high``) and ``reset``
    (None, or "at" → "to" within ``parts``).
    """

    name: str
    kind: str
    default: object
    label: str
    help: str = ""
    low: int | None = None
    high: int | None = None
    optional: bool = False
    choices: tuple[tuple[object, str], ...] = ()
    # reset: ("at", label, low, high), ("to", label, low, high)
    parts: tuple[tuple[str, str, int, int], ...] = ()

    def but(self, **changes: object) -> HouseSetting:
        """The same setting with another default (or label, bounds) for one variant."""
        return replace(self, **changes)

    def error(self, message: str, **params: object) -> SettingError:
        return SettingError(message, self.name, name=Term(self.label), **params)

    def check(self, value: object, *, halves: bool) -> object:
        """The value as the referee uses it, or a SettingError saying what is allowed."""
        if value is None and self.optional:
            return None
        if self.kind == "flag":
            if not isinstance(value, bool):
                raise self.error(gettext_noop("“{name}” must be true or false."))
            return value
        if self.kind == "choice":
            allowed = [key for key, _ in self.choices]
            if not any(type(key) is type(value) and key == value for key in allowed):
                raise self.error(
                    gettext_noop("“{name}” must be one of: {allowed}."),
                    allowed=", ".join(str(key) for key in allowed),
                )
            return value
        if self.kind == "card_values":
            return self.check_card_values(value, halves=halves)
        if self.kind == "reset":
            return self.check_reset(value)
        if self.kind == "whole":
            number = _number(value)
            if number is None or number.denominator != 1 or not isinstance(value, int):
                raise self.out_of_bounds()
        else:
            number = self.points(value, halves=halves)
        if not self.low <= number <= self.high:
            raise self.out_of_bounds()
        return _plain(number)

    def points(self, value: object, *, halves: bool, card: str | None = None) -> Fraction:
        number = _number(value)
        if number is None:
            raise self.out_of_bounds(card)
        if number.denominator != 1 and not (halves and number.denominator == 2):
            where = {"card": card} if card else {}
            if card:
                message = (
                    gettext_noop("“{name}”, {card}: {value} is not a whole number of points.")
                    if not halves
                    else gettext_noop("“{name}”, {card}: {value} is not a whole or half point.")
                )
            else:
                message = (
                    gettext_noop("“{name}” is {value}: only whole points in this variant.")
                    if not halves
                    else gettext_noop("“{name}” is {value}: only whole or half points.")
                )
            raise self.error(message, value=f"{float(number):g}", **where)
        return number

    def out_of_bounds(self, card: str | None = None) -> SettingError:
        if card:
            return self.error(
                gettext_noop("“{name}”, {card}: a number from {low} to {high}."),
                card=card,
                low=self.low,
                high=self.high,
            )
        if self.kind == "whole":
            message = gettext_noop("“{name}” must be a whole number from {low} to {high}.")
        else:
            message = gettext_noop("“{name}” must be a number from {low} to {high}.")
        return self.error(message, low=self.low, high=self.high)

    def check_card_values(self, value: object, *, halves: bool) -> dict[str, int | Fraction]:
        """Each key a rank, a card code or JOKER (whether the deck has it is the variant's
        check, ``Variant.check_card_values``), each value within bounds."""
        if not isinstance(value, Mapping):
            raise self.error(
                gettext_noop(
                    "“{name}” must map cards (a rank, a card such as KH, or JOKER) to points."
                )
            )
        values: dict[str, int | Fraction] = {}
        for key, worth in value.items():
            card_key = card_value_key(key)
            if card_key is None:
                raise self.error(
                    gettext_noop("“{name}”: '{key}' is not a rank, a card (such as KH) or JOKER."),
                    key=key,
                )
            if card_key in values:
                raise self.error(gettext_noop("“{name}”: {key} is given twice."), key=card_key)
            number = self.points(worth, halves=halves, card=card_key)
            if not self.low <= number <= self.high:
                raise self.out_of_bounds(card_key)
            values[card_key] = _plain(number)
        return values

    def check_reset(self, value: object) -> dict[str, int] | None:
        (at_key, _, at_low, at_high), (to_key, _, to_low, to_high) = self.parts
        if not isinstance(value, Mapping) or set(value) != {at_key, to_key}:
            raise self.error(
                gettext_noop("“{name}” must be off, or a total “at” that falls back “to” another.")
            )
        at, to = _number(value[at_key]), _number(value[to_key])
        whole = all(
            isinstance(v, int) and not isinstance(v, bool) for v in (value[at_key], value[to_key])
        )
        if not whole or not (at_low <= at <= at_high and to_low <= to <= to_high):
            raise self.error(
                gettext_noop(
                    "“{name}”: a total of exactly {at_low} to {at_high} falls back to a "
                    "whole number from {to_low} to {to_high}."
                ),
                at_low=at_low,
                at_high=at_high,
                to_low=to_low,
                to_high=to_high,
            )
        if at == to:
            raise self.error(gettext_noop("“{name}”: {at} cannot fall back to itself."), at=int(at))
        return {at_key: int(at), to_key: int(to)}

    # --- one query-string item ---------------------------------------------

    def text(self, value: object) -> str:
        """The value as one query-string item: ``JOKER:-5,KH:-1``, ``100:50``, ``6.5``. Card
        values in the order of their keys, whatever order the database kept them in
        (PostgreSQL's jsonb does not keep the order they were written in)."""
        if self.kind == "card_values":
            return ",".join(f"{key}:{_text(worth)}" for key, worth in sorted(value.items()))
        if self.kind == "reset":
            return "" if value is None else f"{value['at']}:{value['to']}"
        if value is None:
            return ""
        return _text(value)

    def from_text(self, text: str, *, halves: bool) -> object:
        """A query-string item back as a checked value; SettingError when it is not one."""
        try:
            if self.kind == "flag":
                value: object = text == "True"
            elif self.kind == "choice":
                value = next((key for key, _ in self.choices if str(key) == text), text)
            elif self.kind == "card_values":
                pairs = [item.partition(":") for item in text.split(",") if item]
                value = {key: _from_text(worth) for key, _, worth in pairs}
            elif self.kind == "reset":
                at, _, to = text.partition(":")
                value = None if not text else {"at": _from_text(at), "to": _from_text(to)}
            else:
                value = None if not text and self.optional else _from_text(text)
        except NotANumber:
            raise self.out_of_bounds() from None
        return self.check(value, halves=halves)


def _text(value: object) -> str:
    number = _number(value)
    if number is None:
        return str(value)
    return str(int(number)) if number.denominator == 1 else f"{float(number):g}"


def _from_text(text: str) -> int | float:
    number = parse_number(text)
    return int(number) if number.denominator == 1 else float(number)


def card_value_key(key: object) -> str | None:
    """A card_values key in its canonical form (``"Q"``, ``"KH"``, ``"JOKER"``), or None."""
    if not isinstance(key, str):
        return None
    text = key.strip().upper()
    if text in RANKS or text == JOKER:
        return text
    try:
        return parse_card(text).code
    except UnknownCard:
        return None


ROUNDS = HouseSetting(
    "rounds",
    "whole",
    default=None,
    optional=True,
    low=1,
    high=MAX_ROUNDS,
    label=gettext_noop("Number of rounds"),
    help=gettext_noop("Leave empty to set no number of rounds."),
)
CALL_THRESHOLD = HouseSetting(
    "call_threshold",
    "points",
    default=5,
    low=0,
    high=100,
    label=gettext_noop("A call is allowed with at most"),
)
JOKER_VALUE = HouseSetting(
    "joker_value",
    "points",
    default=0,
    low=-100,
    high=100,
    label=gettext_noop("Joker value"),
)
DECKS = HouseSetting(
    "decks",
    "choice",
    default=1,
    choices=((1, gettext_noop("One deck")), (2, gettext_noop("Two decks"))),
    label=gettext_noop("Decks"),
)
DECK = HouseSetting(
    "deck",
    "choice",
    default="52",
    choices=(
        ("52", gettext_noop("52 cards (ace to king)")),
        ("32", gettext_noop("32 cards (ace, 7 to king)")),
    ),
    label=gettext_noop("Deck"),
)
JOKERS = HouseSetting(
    "jokers",
    "choice",
    default=0,
    choices=(
        (0, gettext_noop("No joker")),
        (1, gettext_noop("1 joker")),
        (2, gettext_noop("2 jokers")),
    ),
    label=gettext_noop("Jokers per deck"),
    help=gettext_noop("A joker the variant does not have is worth 0 unless its value is set."),
)
CARD_VALUES = HouseSetting(
    "card_values",
    "card_values",
    default={},
    low=-50,
    high=50,
    label=gettext_noop("Card values"),
    help=gettext_noop(
        "A rank (every queen), one card (K♥ alone: it wins over its rank) or the joker."
    ),
)
CALL_BONUS = HouseSetting(
    "call_bonus",
    "whole",
    default=0,
    low=-100,
    high=100,
    label=gettext_noop("Successful call scores"),
    help=gettext_noop("The caller's round score in place of the hand total."),
)
CALL_PENALTY = HouseSetting(
    "call_penalty",
    "whole",
    default=0,
    low=0,
    high=100,
    label=gettext_noop("Failed call costs"),
    help=gettext_noop("Added to the failed caller's hand total."),
)
LIMIT = HouseSetting(
    "limit",
    "whole",
    default=None,
    optional=True,
    low=10,
    high=1000,
    label=gettext_noop("Game limit"),
    help=gettext_noop(
        "The game ends after a round in which a total goes over it. Leave empty for none."
    ),
)
RESET = HouseSetting(
    "reset",
    "reset",
    default=None,
    optional=True,
    parts=(
        ("at", gettext_noop("A total of exactly"), 1, 1000),
        ("to", gettext_noop("falls back to"), -1000, 1000),
    ),
    label=gettext_noop("Fall back"),
    help=gettext_noop("After each round a running total of exactly this falls back to that."),
)


def defaults_of(settings: tuple[HouseSetting, ...]) -> Mapping[str, object]:
    return {setting.name: setting.default for setting in settings}


class HouseRules:
    """Rules that a table may change by house settings (a Tamalou variant, a Tambouille
    match): they list the settings they take; ``defaults`` is derived from that list."""

    key: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]  # one line, for the variant picker
    house_settings: ClassVar[tuple[HouseSetting, ...]]
    defaults: ClassVar[Mapping[str, object]]
    half_points: ClassVar[bool] = False
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "house_settings" in cls.__dict__:
            cls.defaults = defaults_of(cls.house_settings)

    def __init__(self, **settings: object) -> None:
        """These rules with these house settings, each checked against its declaration
        (SettingErrors lists every setting at fault; a name they do not take is a
        TypeError)."""
        declared = {setting.name: setting for setting in self.house_settings}
        unknown = set(settings) - set(declared)
        if unknown:
            raise TypeError(f"{self.key} takes no setting {sorted(unknown)}")
        self.settings: dict[str, object] = dict(self.defaults)
        self.given = frozenset(settings)  # the settings the table set, default or not
        errors = []
        for setting in self.house_settings:
            if setting.name in settings:
                try:
                    self.settings[setting.name] = setting.check(
                        settings[setting.name], halves=self.half_points
                    )
                except SettingError as error:
                    errors.append(error)
        errors.extend(self.check_together({e.setting for e in errors}))
        order = [setting.name for setting in self.house_settings]
        errors.sort(key=lambda error: order.index(error.setting))
        if errors:
            raise SettingErrors(errors)

    def check_together(self, wrong: set[str]) -> list[SettingError]:
        """What no single setting can say alone (a card value for a card not in the chosen
        deck); ``wrong`` are the settings already refused."""
        return []

    @property
    def summary_text(self) -> Note:
        """The one-line summary (``summary``) as a note; a variant fills in its numbers."""
        return note(self.summary)

    def setting(self, name: str) -> HouseSetting:
        return next(setting for setting in self.house_settings if setting.name == name)
