"""House settings: what a table may change in a variant, each declared once.

A variant lists the settings it takes (``Variant.house_settings``). Everything
else reads that declaration: the referee's check of a game's settings, the
new-game form (its fields, bounds, labels and help), the rules pages and the
game-file reader.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import ClassVar

from scoring.referee.notes import gettext_noop

MAX_ROUNDS = 999


class SettingError(ValueError):
    """A setting's value breaks its declaration: the note template and its values."""

    def __init__(self, message: str, **params: object) -> None:
        self.message, self.params = message, params
        super().__init__(message)


@dataclass(frozen=True)
class HouseSetting:
    """One house setting: its name in game files, its kind, default, bounds, label and help.

    Kinds: ``whole`` (a whole number, or None when ``optional``), ``points`` (whole, or a
    half in a variant with half points), ``flag`` (true or false), ``choice`` (one of
    ``choices``, each a value and its label).
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

    def but(self, **changes: object) -> HouseSetting:
        """The same setting with another default (or label, bounds) for one variant."""
        return replace(self, **changes)

    def check(self, value: object, *, halves: bool) -> object:
        """The value as the referee uses it, or a SettingError saying what is allowed."""
        if value is None and self.optional:
            return None
        if self.kind == "flag":
            if not isinstance(value, bool):
                raise SettingError(gettext_noop("{name} must be true or false."), name=self.name)
            return value
        if self.kind == "choice":
            allowed = [key for key, _ in self.choices]
            if isinstance(value, bool) or value not in allowed:
                raise SettingError(
                    gettext_noop("{name} must be one of: {allowed}."),
                    name=self.name,
                    allowed=", ".join(str(key) for key in allowed),
                )
            return value
        if self.kind == "whole":
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.out_of_bounds()
            number = Fraction(value)
        else:
            number = self.points(value, halves=halves)
        if not self.low <= number <= self.high:
            raise self.out_of_bounds()
        return int(number) if number.denominator == 1 else number

    def points(self, value: object, *, halves: bool) -> Fraction:
        if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
            raise self.out_of_bounds()
        if isinstance(value, float) and not math.isfinite(value):
            raise self.out_of_bounds()
        number = Fraction(value)
        if number.denominator != 1 and not (halves and number.denominator == 2):
            raise SettingError(
                gettext_noop("{name} is {value}: only whole points in this variant.")
                if not halves
                else gettext_noop("{name} is {value}: only whole or half points."),
                name=self.name,
                value=f"{float(number):g}",
            )
        return number

    def out_of_bounds(self) -> SettingError:
        if self.kind == "whole":
            message = gettext_noop("{name} must be a whole number from {low} to {high}.")
        else:
            message = gettext_noop("{name} must be a number from {low} to {high}.")
        return SettingError(message, name=self.name, low=self.low, high=self.high)


ROUNDS = HouseSetting(
    "rounds",
    "whole",
    default=None,
    optional=True,
    low=1,
    high=MAX_ROUNDS,
    label=gettext_noop("Number of rounds"),
    help=gettext_noop("Leave empty for an open-ended game."),
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


def defaults_of(settings: tuple[HouseSetting, ...]) -> Mapping[str, object]:
    return {setting.name: setting.default for setting in settings}


class HouseRules:
    """Rules that a table may change by house settings (a Tamalou variant, a Tambouille
    match): they list the settings they take; ``defaults`` is derived from that list."""

    key: ClassVar[str]
    name: ClassVar[str]
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
        (a SettingError says which is wrong; a name they do not take is a TypeError)."""
        declared = {setting.name: setting for setting in self.house_settings}
        unknown = set(settings) - set(declared)
        if unknown:
            raise TypeError(f"{self.key} takes no setting {sorted(unknown)}")
        self.settings: dict[str, object] = dict(self.defaults)
        for name, value in settings.items():
            self.settings[name] = declared[name].check(value, halves=self.half_points)
