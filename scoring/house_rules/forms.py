"""The house rules builder: its fields, every one from the variant's declared settings
(``HouseRulesForm``); the new-game form adds the players to it
(``scoring.game.forms.new_game``). The steppers' buttons are the phone's (static/js/house.js):
without JavaScript the numbers are typed."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from fractions import Fraction

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from scoring.referee import engine
from scoring.referee.cards import JOKER, RANKS
from scoring.referee.engine import GameError
from scoring.referee.house import HouseSetting
from scoring.referee.notes import card_name
from scoring.referee.numbers import NotANumber, parse_number
from scoring.store.models import RuleSet
from scoring.web.display import points as points_text
from scoring.web.display import rank_name, say_detail, text_lazy
from scoring.web.fields import (
    NumberField,
    StepperInput,
    json_number,
    number_text,
)

SINGLE_CARD_ROWS = 4  # cards given a value of their own on the builder (K♥ −1)
CARD_VALUES, RESET = "card_values", "reset"  # the settings the builder shows as several fields


def setting_field(setting: HouseSetting) -> forms.Field:
    """The new-game form's field for a house setting, from its declaration."""
    label = text_lazy(setting.label)
    if setting.kind == "flag":
        return forms.BooleanField(
            label=label,
            required=False,
            help_text=text_lazy(setting.help) if setting.help else "",
        )
    if setting.kind == "choice":
        keys = {str(key): key for key, _ in setting.choices}
        return forms.TypedChoiceField(
            label=label,
            choices=[(key, text_lazy(text)) for key, text in setting.choices],
            coerce=keys.__getitem__,
            initial=setting.default,
            required=False,
            empty_value=setting.default,
            widget=forms.RadioSelect,
        )
    if setting.default is None:
        help_text = text_lazy(setting.help)
    else:
        value = Fraction(setting.default)
        default = {
            "default": points_text(value),
            "n": abs(int(value)) if value == int(value) else 2,
        }
        if setting.kind == "points":
            help_text = (
                ngettext_lazy("Default: %(default)s point.", "Default: %(default)s points.", "n")
                % default
            )
        else:
            help_text = gettext_lazy("Default: %(default)s.") % default
    widget = StepperInput(setting.low, setting.high, halves=setting.kind == "points")
    return NumberField(
        label=label, help_text=help_text, whole=setting.kind == "whole", widget=widget
    )


def card_value_field(label: str, setting: HouseSetting, halves: bool) -> NumberField:
    """A card's (or a rank's) value on the builder's grid, within the setting's bounds."""
    widget = StepperInput(setting.low, setting.high, halves=halves)
    return NumberField(label=label, whole=not halves, max_length=8, widget=widget)


@dataclass
class CardRow:
    """A rank (every card of it) or the joker on the builder's grid, with its default."""

    key: str
    name: str
    field: forms.BoundField
    default: Fraction | None  # None: the rank's red and black cards differ
    red: Fraction
    black: Fraction

    @property
    def changed(self) -> bool:
        try:
            value = parse_number(str(self.field.value() or ""))
        except NotANumber:
            return bool(str(self.field.value() or "").strip())
        return value != self.default


class HouseRulesForm(forms.Form):
    """A variant's house settings as the builder shows them, every field from the settings'
    declarations (``Variant.house_settings``), and the name the table gives them. The card
    values are a grid: one field per rank (and the joker), and a few single cards (K♥)."""

    rules_name = forms.CharField(
        label=gettext_lazy("Name of these rules"),
        required=False,
        max_length=engine.MAX_NAME_LENGTH,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "placeholder": gettext_lazy("Chez Mamie")}
        ),
    )

    def __init__(self, *args, variant: str, naming: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.variant = engine.GAMES[variant]
        self.naming = naming  # the name is required (saving the rules under it)
        self.takes = {setting.name: setting for setting in self.variant.house_settings}
        for setting in self.variant.house_settings:
            if setting.kind == CARD_VALUES:
                continue  # after the deck's own settings, which decide its cards
            if setting.kind == RESET:
                for part, label, low, high in setting.parts:
                    self.fields[f"reset_{part}"] = NumberField(
                        label=gettext_lazy(label), whole=True, widget=StepperInput(low, high)
                    )
            else:
                self.fields[setting.name] = setting_field(setting)
        for name, value in self.initial_of(self.variant.defaults).items():
            self.fields[name].initial = value
        if CARD_VALUES in self.takes:
            self.add_card_fields(self.takes[CARD_VALUES])
        self.builder_names = (set(self.fields) - set(self.base_fields)) | {"rules_name"}
        for field in self.fields.values():
            if isinstance(field.widget, StepperInput):
                field.widget.what = field.label  # the buttons say which number they change

    @classmethod
    def showing(cls, rule_set, data=None, **kwargs) -> HouseRulesForm:
        """The form showing a saved set (picked on the new-game page): ``data`` typed
        elsewhere (the players) stays, the builder's fields show the set."""
        blank = cls(variant=rule_set.variant, **kwargs)
        kept = {k: v for k, v in (data or {}).items() if k not in blank.builder_names}
        initial = kept | cls.initial_of(rule_set.settings, rule_set.name)
        return cls(variant=rule_set.variant, initial=initial, **kwargs)

    def shown_rules(self) -> tuple[dict, str] | None:
        """The settings the builder's fields show and the name they are given: as sent (a
        bound form), or as the page opens (the table's last game's); None while a field of
        the builder is refused, which the builder then shows unfolded."""
        if self.is_bound and any(self[name].errors for name in self.builder_names):
            return None
        if self.is_bound:
            data = self.data
        else:
            values = {name: self[name].value() for name in self.builder_names}
            data = {name: "" if value is None else value for name, value in values.items()}
        checked = HouseRulesForm(data, variant=self.variant.key)
        if not checked.is_valid():
            return None
        return checked.settings, checked.rules_name

    # --- the card grid ------------------------------------------------------------------

    def deck_rules(self):
        """The variant with the deck as the form sets it now (deck, jokers, decks), no card
        values changed: what each card is worth by default."""
        chosen = {}
        for name in ("deck", "jokers", "decks"):
            if name in self.takes and name in self.fields:
                value = self[name].value()
                field = self.fields[name]
                with contextlib.suppress(forms.ValidationError, KeyError, TypeError):
                    chosen[name] = field.clean(value)
        try:
            return self.variant(**chosen)
        except (ValueError, TypeError):
            return self.variant()

    def add_card_fields(self, setting: HouseSetting) -> None:
        """A field per rank of the chosen deck (and the joker, unless the variant has its own
        setting for it), then the single cards."""
        halves = self.variant.half_points
        rules = self.deck_rules()
        self.grid = []
        for row in rules.card_value_rows():
            if row["key"] == JOKER and "joker_value" in self.takes:
                continue
            red = next((c["default"] for c in row["cards"] if c["card"].is_red), None)
            black = next((c["default"] for c in row["cards"] if not c["card"].is_red), red)
            label = rank_name(row["key"])
            field = self.fields[f"card_{row['key']}"] = card_value_field(label, setting, halves)
            field.initial = number_text(row["default"])
            self.grid.append((row["key"], label, row["default"], red, black))
        choices = [("", "—")] + [
            (card.code, card_name(card, _)) for card in rules.deck() if not card.is_joker
        ]
        for row in range(SINGLE_CARD_ROWS):
            self.fields[f"one_{row}"] = forms.ChoiceField(
                label=gettext_lazy("Card %(n)s") % {"n": row + 1}, choices=choices, required=False
            )
            self.fields[f"one_{row}_value"] = card_value_field(
                gettext_lazy("Value of card %(n)s") % {"n": row + 1}, setting, halves
            )

    def card_rows(self) -> list[CardRow]:
        return [
            CardRow(key, label, self[f"card_{key}"], default, red, black)
            for key, label, default, red, black in getattr(self, "grid", [])
        ]

    def single_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        if not hasattr(self, "grid"):
            return []
        return [(self[f"one_{row}"], self[f"one_{row}_value"]) for row in range(SINGLE_CARD_ROWS)]

    def setting_fields(self):
        return [self[name] for name in self.takes if name in self.fields]

    def reset_fields(self):
        return [self["reset_at"], self["reset_to"]] if "reset_at" in self.fields else []

    @property
    def reset_setting(self) -> HouseSetting | None:
        return self.takes.get(RESET)

    def deck_fields(self) -> set[str]:
        """The settings that change which cards the grid shows."""
        return {"deck", "jokers"} & set(self.takes) if CARD_VALUES in self.takes else set()

    def changed_settings(self) -> set[str]:
        """The settings whose field shows another value than the variant's default."""
        changed = set()
        for name in self.takes:
            if name in self.fields:
                shown, default = self[name].value(), self.fields[name].initial
                if str("" if shown is None else shown) != str("" if default is None else default):
                    changed.add(name)
        return changed

    # --- settings <-> fields ----------------------------------------------------------

    @classmethod
    def initial_of(cls, settings, name: str = "") -> dict:
        """The fields' values showing these settings (the inverse of ``clean``); set on the
        fields as their initial values, so given only what differs from the defaults."""
        initial: dict = {}
        if name:
            initial["rules_name"] = name
        for key, value in settings.items():
            if key == CARD_VALUES:
                singles = 0
                for code, worth in (value or {}).items():
                    if code == JOKER or code in RANKS:
                        initial[f"card_{code}"] = number_text(worth)
                    elif singles < SINGLE_CARD_ROWS:
                        initial[f"one_{singles}"] = code
                        initial[f"one_{singles}_value"] = number_text(worth)
                        singles += 1
            elif key == RESET:
                at, to = reset_parts(value)
                initial["reset_at"], initial["reset_to"] = number_text(at), number_text(to)
            elif isinstance(value, bool):
                initial[key] = value
            elif isinstance(value, int | float | Fraction):
                initial[key] = number_text(value)
            else:
                initial[key] = "" if value is None else value
        return initial

    def read_card_values(self, data) -> dict:
        values = {}
        for row in self.card_rows():
            value = data.get(f"card_{row.key}")
            if value is not None and value != row.default:
                values[row.key] = value
        for row in range(SINGLE_CARD_ROWS):
            code, value = data.get(f"one_{row}"), data.get(f"one_{row}_value")
            if code and value is None:
                self.add_error(f"one_{row}_value", _("Enter this card's value."))
            elif value is not None and not code:
                self.add_error(f"one_{row}", _("Choose the card this value is for."))
            elif code:
                values[code] = value
        return {key: json_number(value) for key, value in values.items()}

    def clean(self):
        data = super().clean()
        settings = {}
        for name, setting in self.takes.items():
            if setting.kind == CARD_VALUES:
                value = self.read_card_values(data)
                if value:
                    settings[name] = value
                continue
            if setting.kind == RESET:
                at, to = data.get("reset_at"), data.get("reset_to")
                if at is None and to is None and "reset_at" not in self.data:
                    continue  # not sent: the variant's own
                value = None if at is None and to is None else {"at": at, "to": to}
                if value is not None and (at is None or to is None):
                    self.add_error(
                        "reset_at" if at is None else "reset_to",
                        _("Enter both totals, or neither for none."),
                    )
                    continue
                if value is not None:
                    value = {part: json_number(number) for part, number in value.items()}
                if value != setting.default:
                    settings[name] = value
                continue
            value = data.get(name)
            if setting.kind == "flag":
                value = bool(value)
            elif value is None or value == "":
                if not setting.optional or name not in self.data:
                    continue  # left empty (or not sent): the variant's own
                value = None  # no agreed number of rounds, no limit
            if value == setting.default:
                continue
            settings[name] = json_number(value) if isinstance(value, Fraction) else value
        if not self.errors:
            try:
                engine.check_settings(self.variant.key, settings)
            except GameError as error:
                for problem in error.problems:
                    self.add_error(self.field_at_fault(problem), say_detail(problem))
        self.settings = settings
        self.rules_name = (data.get("rules_name") or "").strip()
        if self.rules_name and "rules_name" not in self.errors:
            try:
                self.rules_name = engine.check_rules_name(self.rules_name)
            except GameError as error:
                self.add_error("rules_name", say_detail(error))
        elif self.naming and "rules_name" not in self.errors:
            self.add_error("rules_name", _("Give these rules a name (1 to 40 characters)."))
        return data

    def field_at_fault(self, error: GameError) -> str | None:
        """The field showing the setting a refusal names."""
        name = (error.field or "").removeprefix("settings.")
        if name == RESET:
            return "reset_at"
        if name == CARD_VALUES:
            params = dict(error.note.params)
            key = params.get("card") or params.get("key")
            key = key if isinstance(key, str) else JOKER  # the joker is named in words
            for row in range(SINGLE_CARD_ROWS):
                if key and self.cleaned_data.get(f"one_{row}") == key:
                    return f"one_{row}"
            return f"card_{key}" if f"card_{key}" in self.fields else None
        return name if name in self.fields else None

    def save_rules(self, rule_set=None):
        """Keep these settings under their name: a new set, or ``rule_set`` changed."""
        if rule_set is None:
            rule_set = RuleSet(variant=self.variant.key)
        rule_set.name, rule_set.settings = self.rules_name, self.settings
        rule_set.updated_at = timezone.now()
        rule_set.save()
        return rule_set


def reset_parts(value) -> tuple[object, object]:
    """The total a reset acts on and what it becomes, however the referee holds it."""
    if value is None:
        return None, None
    if isinstance(value, dict):
        return value.get("at"), value.get("to")
    return getattr(value, "at", None), getattr(value, "to", None)
