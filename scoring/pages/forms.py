"""Forms: a new game, a round as the table enters it, and every other change to a game. Each
form that changes a game owns its ``save()``: it calls the ``Game`` method (which locks,
checks with the referee and stores) and puts the refusal on the field at fault.

Every control is a form field rendered by Django's form machinery, so each has a
name, a value and its errors from one place. A Tamalou round form has, per player, a
hidden field of card codes (filled by the card picker) and a visible field for
a typed total (the numeric keypad); penalty points are a formset. The form only
reads what was typed into a ``RoundEntry``; the referee checks the round with the
whole game when it is saved (``Game.add_round``), and its refusal lands next to
the field at fault (``add_referee_error``).
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from django import forms
from django.forms.utils import ErrorDict, ErrorList
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from scoring.games.models import Game, RuleSet
from scoring.pages.device import device_games
from scoring.pages.display import points as points_text
from scoring.pages.display import rank_name, say, say_detail, text_lazy
from scoring.referee import engine, gamefile
from scoring.referee.cards import JOKER, RANKS, Card, UnknownCard, parse_card
from scoring.referee.engine import GameError, Penalty, unstorable
from scoring.referee.house import HouseSetting
from scoring.referee.notes import card_name
from scoring.referee.numbers import NotANumber, parse_number
from scoring.referee.variants import Variant
from scoring.referee.variants.base import Play

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


class NumberField(forms.Field):
    """A number typed on the phone's numeric keypad: digits 0–9, a sign, ``.`` or ``,``
    (``4,5`` as well as ``4.5``). Read by the one number parser every field uses."""

    def __init__(self, *, whole: bool = False, max_length: int = 16, **kwargs) -> None:
        kwargs.setdefault("required", False)
        mode = "numeric" if whole else "decimal"
        attrs = {"inputmode": mode, "autocomplete": "off", "maxlength": str(max_length)}
        kwargs.setdefault("widget", forms.TextInput(attrs=attrs))
        super().__init__(**kwargs)
        self.whole, self.max_length = whole, max_length

    def to_python(self, value) -> Fraction | None:
        text = str(value or "").strip()
        if not text:
            return None
        if len(text) > self.max_length:
            raise forms.ValidationError(
                _("Enter at most %(n)s characters.") % {"n": self.max_length}, code="long"
            )
        try:
            number = parse_number(text)
        except NotANumber:
            raise forms.ValidationError(
                _("Enter a number with the digits 0 to 9."), code="number"
            ) from None
        if self.whole and number.denominator != 1:
            raise forms.ValidationError(_("Enter a whole number."), code="whole")
        return number


# --- a new game, and the house rules -------------------------------------------------

SINGLE_CARD_ROWS = 4  # cards given a value of their own on the builder (K♥ −1)
CARD_VALUES, RESET = "card_values", "reset"  # the settings the builder shows as several fields


def number_text(value) -> str:
    """A number as a field shows it: typed back as is (``-5``, ``6.5``)."""
    if value is None or value == "":
        return ""
    value = Fraction(value)
    return str(int(value)) if value.denominator == 1 else str(float(value))


class StepperInput(forms.TextInput):
    """A number on the numeric keypad between a − and a + button, and ± to change its sign (a
    phone's numeric keypad may have no minus key). Without JavaScript the buttons post the
    step (``apply_step``); static/js/house.js steps in place."""

    template_name = "widgets/stepper.html"

    def __init__(self, low: int | None = None, high: int | None = None, *, halves=False):
        attrs = {"inputmode": "decimal" if halves else "numeric", "autocomplete": "off"}
        attrs |= {"class": "step-value", "data-low": low, "data-high": high}
        super().__init__({key: value for key, value in attrs.items() if value is not None})
        self.low = low

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["widget"]["signed"] = self.low is None or self.low < 0
        context["widget"]["what"] = getattr(self, "what", "")  # its field's label
        return context


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

    @property
    def builder_changed(self) -> bool:
        """Whether the builder shows anything else than the variant's own rules."""
        return bool(
            self.changed_settings()
            or any(row.changed for row in self.card_rows())
            or any(value.value() for _, value in self.single_rows())
            or any(self[name].errors for name in self.builder_names)
        )

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


def json_number(value) -> int | float:
    """A number as game files write it."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def reset_parts(value) -> tuple[object, object]:
    """The total a reset acts on and what it becomes, however the referee holds it."""
    if value is None:
        return None, None
    if isinstance(value, dict):
        return value.get("at"), value.get("to")
    return getattr(value, "at", None), getattr(value, "to", None)


def apply_step(data, step: str) -> None:
    """A tap on a stepper's button without JavaScript: ``name:+1``, ``name:-1`` or ``name:±``
    changes the number posted in field ``name`` (nothing, if it is not a number)."""
    name, _, how = step.partition(":")
    if name not in data or how not in ("+1", "-1", "±"):
        return
    try:
        value = parse_number(str(data.get(name) or "0"))
    except NotANumber:
        return
    value = -value if how == "±" else value + int(how)
    data[name] = number_text(value)


class NewGameForm(HouseRulesForm):
    """Variant settings and its players (2–8, Tambouille 2–4) in turn order; rows are added,
    removed, moved up. With ``only_rules``, only the house rules are read (to save them
    under their name, or to score a sample round with them)."""

    dealer = forms.TypedChoiceField(
        choices=[(str(row), row) for row in range(engine.MAX_PLAYERS)],
        coerce=int,
        empty_value=0,
        required=False,
        widget=forms.HiddenInput,
    )

    def __init__(self, *args, variant: str, rows: int = 4, only_rules=False, **kwargs):
        super().__init__(*args, variant=variant, **kwargs)
        self.rows, self.only_rules = rows, only_rules  # only_rules: the players are not read
        for row in range(rows):
            label = gettext_lazy("Player %(n)s") % {"n": row + 1}
            attrs = {"autocomplete": "off", "autocapitalize": "words", "placeholder": label}
            self.fields[f"name_{row}"] = forms.CharField(
                label=label,
                required=False,
                max_length=engine.MAX_NAME_LENGTH,
                widget=forms.TextInput(attrs=attrs),
            )

    @property
    def dealer_row(self) -> int:
        return small_number(str(self["dealer"].value() or 0), 0)

    def name_fields(self):
        return [self[f"name_{row}"] for row in range(self.rows)]

    def clean(self):
        data = super().clean()
        kept = [
            (row, data[f"name_{row}"].strip())
            for row in range(self.rows)
            if (data.get(f"name_{row}") or "").strip()
        ]
        if not self.only_rules:
            try:
                self.players = engine.check_players(
                    [name for _, name in kept], self.variant.min_players, self.variant.max_players
                )
            except GameError as error:
                position = dict(error.note.params).get("position")
                field = f"name_{kept[position - 1][0]}" if position else None
                self.add_error(field, say_detail(error))
        rows_kept = [row for row, _ in kept]
        dealer = data.get("dealer") or 0
        self.first_dealer = rows_kept.index(dealer) if dealer in rows_kept else 0
        return data

    def save(self) -> Game:
        """The new game, once the form is valid: these players under these rules (a copy of
        the settings and of their name)."""
        return Game.objects.create(
            variant=self.variant.key,
            players=list(self.players),
            settings=self.settings,
            rules_name=self.rules_name,
            first_dealer=self.first_dealer,
        )


def small_number(text: str, otherwise: int) -> int:
    """A posted count, index or seat, ``otherwise`` when it is not a whole number of at most
    six digits (Python refuses to read one of 4,300 digits: a 500)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else otherwise


def apply_row_action(data, rows: int, action: str, most: int = engine.MAX_PLAYERS) -> int:
    """A tap on a player row's button in the posted new-game ``data``: add (up to ``most``
    rows), remove or move up a row, or choose the dealer. Returns the new number of rows."""
    names = [data.get(f"name_{row}", "") for row in range(rows)]
    dealer = data.get("dealer", "0")
    dealer = small_number(dealer, 0)
    verb, _, index = action.partition("-")
    i = small_number(index, -1)
    if verb == "add" and rows < most:
        names.append("")
    elif verb == "remove" and 0 <= i < rows and rows > engine.MIN_PLAYERS:
        names.pop(i)
        dealer = dealer - 1 if dealer > i else (0 if dealer == i else dealer)
    elif verb == "up" and 0 < i < rows:
        names[i - 1], names[i] = names[i], names[i - 1]
        dealer = {i: i - 1, i - 1: i}.get(dealer, dealer)
    elif verb == "deal" and 0 <= i < rows:
        dealer = i
    for row in range(max(rows, len(names)) + 1):
        data.pop(f"name_{row}", None)
    for row, name in enumerate(names):
        data[f"name_{row}"] = name
    data["dealer"] = str(dealer)
    return len(names)


# --- a round ----------------------------------------------------------------------------


def no_control_character(text: str) -> None:
    """Free text kept in a game file has no control character or lone surrogate, as a game
    file must not (``engine.unstorable``): the game's export must import again."""
    if unstorable(text):
        raise forms.ValidationError(_("Remove the control character from the reason."))


class PenaltyForm(forms.Form):
    """Penalty points given to one player in a round, with the reason."""

    player = forms.ChoiceField(label=gettext_lazy("Player"), required=False)
    points = NumberField(label=gettext_lazy("Points"), max_length=8)
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        required=False,
        max_length=engine.MAX_REASON_LENGTH,
        validators=[no_control_character],
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, players: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—"), *((p, p) for p in players)]
        self.fields["reason"].widget.attrs["placeholder"] = _("Reason")

    def clean(self):
        data = super().clean()
        player, points = data.get("player"), data.get("points")
        reason = (data.get("reason") or "").strip()
        if self.errors or not (player or points is not None or reason):
            return data
        if not player:
            self.add_error("player", _("Choose who gets the penalty."))
        if points is None:
            self.add_error("points", _("Enter a number of points."))
        if not self.errors:
            self.penalty = Penalty(player, points, reason)
        return data


class BasePenaltyFormSet(forms.BaseFormSet):
    default_error_messages = {
        "too_many_forms": ngettext_lazy(
            "A round has at most %(num)d penalty.", "A round has at most %(num)d penalties.", "num"
        )
    }


# At most 16 rows, refused past that (Django's max_num alone draws no more, but takes 1,000).
PenaltyFormSet = forms.formset_factory(
    PenaltyForm, BasePenaltyFormSet, extra=0, min_num=1, max_num=16, validate_max=True
)


class Segmented(forms.RadioSelect):
    """Radio buttons side by side, each in its label (``.segmented``): Django's own options,
    laid out by ``widgets/segmented.html`` without the ``<div>`` around each."""

    template_name = "widgets/segmented.html"


class SegmentedBoxes(forms.CheckboxSelectMultiple):
    """Checkboxes drawn as ``Segmented`` draws radio buttons."""

    template_name = "widgets/segmented.html"


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


ROUND_FORMS: dict[str, type[RoundForm]] = {}  # a variant's own round form, by its key


class RoundForm(forms.Form):
    """A round of a stored game as the table enters it, and the one way it is saved.

    ``number`` is the round's number; ``editing`` the stored round being corrected, if any.
    Each kind of game has its form (``for_game``): a subclass declares its fields, reads them
    into ``self.round`` (a ``RoundEntry``) in ``clean``, gives the inverse (``initial_for``),
    puts the referee's refusals on its fields (``add_referee_error``) and names the templates
    that show it. Views then only bind it, call ``save()`` and render what it names.
    """

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    edits = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    notice = ""  # why the form is shown again as saved elsewhere
    conflict: dict | None = None  # the round another phone saved first
    round: engine.RoundEntry  # what was entered, once valid
    page = "game.html"  # the sheet this form is on
    form_partial = "game.html#round_form"  # the form redrawn with its refusals (htmx)
    saved_partial = "game.html#saved"  # what a save redraws (htmx)
    game_over_text = gettext_lazy("The game is over: no more rounds can be added.")

    variants: tuple[str, ...] = ()  # the variants (keys) whose rounds this form enters

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        ROUND_FORMS.update(dict.fromkeys(cls.__dict__.get("variants", ()), cls))

    @staticmethod
    def for_game(game) -> type[RoundForm]:
        """The round form of this game's variant (Tamalou's hands unless it has its own)."""
        return ROUND_FORMS.get(game.variant, HandsForm)

    def __init__(self, data=None, *, game, number: int, editing=None, initial=None, **kwargs):
        super().__init__(data, initial={"number": number, **(initial or {})}, **kwargs)
        self.game, self.round_number, self.editing = game, number, editing

    @classmethod
    def as_stored(cls, game, stored, number: int) -> RoundForm:
        """The form showing stored round ``stored`` (a ``Round``), number ``number``."""
        initial = cls.initial_for(game, stored.as_entry(number), stored.edits)
        return cls(game=game, number=number, editing=stored, initial=initial)

    @staticmethod
    def initial_for(game, entry: engine.RoundEntry, edits: int = 0) -> dict:
        """The form's initial values showing a stored round (the inverse of ``clean``)."""
        raise NotImplementedError

    def add_referee_error(self, error: GameError) -> None:
        """Put the referee's refusal next to the field at fault."""
        raise NotImplementedError

    def has_any_error(self) -> bool:
        return bool(self.errors)

    def quiet(self) -> RoundForm:
        """Show the posted values without their errors (a picker tap without JavaScript, or
        another phone's round)."""
        self._errors = ErrorDict()
        return self

    def picker_tap(self) -> bool:
        """Apply a tap on a button that only changes the form (no save); whether it was one."""
        return False

    def save(self) -> bool:
        """Store the round: the next one (at its posted number), or the correction of
        ``editing``. Returns whether it was stored; the referee's refusal lands on the field at
        fault. ``Conflict`` (another phone changed the game first) is the caller's to show."""
        if not self.is_valid() or self.has_any_error():
            return False
        try:
            if self.editing is None:
                self.game.add_round(self.cleaned_data["number"], self.round)
            else:
                edits = self.cleaned_data.get("edits")
                self.game.replace_round(self.editing.pk, edits, self.round)
        except GameError as error:
            self.add_referee_error(error)
            return False
        return True

    def corrected_text(self) -> str:
        return _("Round %(number)s corrected.") % {"number": self.round_number}

    def shown_after_save(self, finished: bool) -> str:
        """Where the page scrolls to once the round is saved (an element's id)."""
        return "#totals"

    def anchor_after_save(self, finished: bool) -> str:
        """The same, for the page reloaded without JavaScript (``""``: its top)."""
        return "#totals"


class HandsForm(RoundForm):
    """A Tamalou round: each player's cards (the card picker) or typed total, who called,
    emptied hands, penalties."""

    target = forms.CharField(widget=forms.HiddenInput, required=False, max_length=4)
    nothing_entered = False

    def __init__(self, data=None, *, game, number: int, editing=None, initial=None, **kwargs):
        super().__init__(data, game=game, number=number, editing=editing, initial=initial, **kwargs)
        self.variant: Variant = game.rules()
        # A typed hand total may be negative exactly when some card of the deck is: then the
        # totals and penalty points get a ± key (iOS's decimal keypad has no minus key).
        self.negative_totals = self.variant.lowest_possible_hand < 0
        self.players_in_round = game.players_in_round(number)
        self.seats = {name: game.players.index(name) for name in self.players_in_round}
        self.initial.setdefault("target", str(next(iter(self.seats.values()))))
        who = [(name, name) for name in self.players_in_round]
        for name, seat in self.seats.items():
            self.fields[f"cards_{seat}"] = forms.CharField(
                required=False, max_length=400, widget=forms.HiddenInput
            )
            self.fields[f"total_{seat}"] = NumberField(label=name)
            self.fields[f"total_{seat}"].widget.attrs.update(
                {"enterkeyhint": "next", "placeholder": _("total")}
            )
        self.fields["caller"] = forms.ChoiceField(
            label=gettext_lazy("Who called?"),
            choices=[("", gettext_lazy("Nobody")), *who],
            required=False,
            widget=Segmented,
        )
        if self.variant.counter_call:
            self.fields["counter_caller"] = forms.ChoiceField(
                label=capfirst(_("%(call)s by") % {"call": self.variant.counter_call_word}),
                choices=[("", gettext_lazy("Nobody")), *who],
                required=False,
                widget=Segmented,
            )
        self.fields["emptied"] = forms.MultipleChoiceField(
            label=gettext_lazy("Got rid of all their cards"),
            choices=who,
            required=False,
            widget=SegmentedBoxes,
        )
        if self.variant.penalty_cards:
            self.fields["penalty_cards"] = forms.CharField(
                label=gettext_lazy("Penalty cards drawn by the caller"),
                required=False,
                max_length=400,
                widget=forms.HiddenInput,
            )
        if data is not None:
            # Posted without the formset's management form, with it blank or not a count, or
            # counting fewer rows than were sent (penalty-TOTAL_FORMS=0 silently dropped every
            # penalty): count the rows that were sent.
            rows = [re.match(r"penalty-(\d+)-", key) for key in data]
            sent = max((int(row[1][:5]) + 1 for row in rows if row), default=0)
            total = str(data.get("penalty-TOTAL_FORMS", "")).strip()
            given = total.lstrip("0") or "0"
            if not total or not (given.isascii() and given.isdigit() and int(given[:4]) >= sent):
                data = data.copy()
                data["penalty-TOTAL_FORMS"] = str(sent)
                if not str(data.get("penalty-INITIAL_FORMS", "")).strip():
                    data["penalty-INITIAL_FORMS"] = "0"
                self.data = data
        penalty_initial = (initial or {}).get("penalties") or None
        self.penalties = PenaltyFormSet(
            data,
            prefix="penalty",
            initial=penalty_initial,
            form_kwargs={"players": self.players_in_round},
        )

    # --- round <-> form -------------------------------------------------------------

    @staticmethod
    def initial_for(game, entry: engine.RoundEntry, edits: int = 0) -> dict:
        """The form's initial values showing a stored round (the inverse of ``clean``)."""
        initial: dict = {"edits": edits}
        for name, hand in entry.hands.items():
            seat = game.players.index(name)
            if isinstance(hand, tuple):
                initial[f"cards_{seat}"] = " ".join(card.code for card in hand)
            else:
                initial[f"total_{seat}"] = points_text(Fraction(hand)).replace("−", "-")
        initial["caller"] = entry.caller or ""
        initial["counter_caller"] = entry.counter_caller or ""
        initial["emptied"] = list(entry.emptied)
        initial["penalties"] = [
            {
                "player": p.player,
                "points": points_text(Fraction(p.points)).replace("−", "-"),
                "reason": p.reason,
            }
            for p in entry.penalties
        ]
        initial["penalty_cards"] = " ".join(card.code for card in entry.penalty_cards)
        return initial

    def clean(self):
        data = super().clean()
        penalties_valid = self.penalties.is_valid()
        if "number" in self.errors:
            return data
        if self.is_empty():
            self.nothing_entered = True  # a tap on Save over a fresh form: no error to show
            raise forms.ValidationError(_("Enter the hands first."), code="empty")
        hands: dict[str, object] = {}
        emptied = data.get("emptied", [])
        for name, seat in self.seats.items():
            if f"total_{seat}" in self.errors:
                continue  # said already; every other hand is still checked
            cards = self.parse_cards(f"cards_{seat}")
            total = data.get(f"total_{seat}")
            if cards:
                known = all(self.variant.in_deck(card) for card in cards)
                worth = sum((self.variant.value(c) for c in cards), Fraction(0)) if known else None
                if total is not None and worth is not None and total != worth:
                    self.add_error(
                        f"total_{seat}",
                        _("The cards make %(cards)s, not %(total)s: remove a card or the total.")
                        % {"cards": points_text(worth), "total": points_text(total)},
                    )
                hands[name] = tuple(cards)
            elif total is not None:
                hands[name] = total
            elif name in emptied:
                hands[name] = ()
            else:
                self.add_error(f"total_{seat}", _("Enter this player's cards or hand total."))
        penalty_cards = self.parse_cards("penalty_cards") if self.variant.penalty_cards else []
        if self.errors or not penalties_valid:
            return data
        self.round = engine.RoundEntry(
            hands=hands,
            caller=data.get("caller") or None,
            counter_caller=data.get("counter_caller") or None,
            emptied=tuple(emptied),
            penalties=tuple(
                form.penalty for form in self.penalties.forms if hasattr(form, "penalty")
            ),
            penalty_cards=tuple(penalty_cards),
        )
        return data

    def parse_cards(self, name: str) -> list[Card]:
        cards, unknown = read_cards(self.cleaned_data.get(name) or "")
        for code in unknown:
            text = _("Unknown card %(code)s: remove it and pick the card again.")
            self.add_error(name, text % {"code": code})
        return cards

    def is_empty(self) -> bool:
        """Nothing at all was entered: a tap on Save over a fresh form."""
        fields = [f"{kind}_{seat}" for seat in self.seats.values() for kind in ("cards", "total")]
        typed = any(str(self.data.get(name) or "").strip() for name in fields)
        penalties = any(form.has_changed() for form in self.penalties.forms)
        return not typed and not penalties and not self.cleaned_data.get("penalty_cards")

    def add_referee_error(self, error: GameError) -> None:
        """Put the referee's refusal next to the field at fault."""
        if error.round != self.round_number:
            self.add_error(
                None,
                _("This would make round %(round)s invalid: %(error)s")
                % {"round": error.round, "error": say_detail(error, sentence=False)}
                if error.round
                else say(error),
            )
            return
        field, form = None, self
        if error.field == "hands" and error.player in self.seats:
            field = f"total_{self.seats[error.player]}"
        elif error.field in ("caller", "counter_caller", "emptied", "penalty_cards"):
            field = error.field if error.field in self.fields else None
        elif error.field == "penalties":
            for penalty_form in self.penalties.forms:
                if penalty_form.cleaned_data.get("player") == error.player:
                    field, form = "points", penalty_form
                    break
        form.add_error(field, say_detail(error) if field else say(error))

    def quiet(self) -> HandsForm:
        super().quiet()
        for form in self.penalties.forms:
            form._errors = ErrorDict()
        self.penalties._errors = []
        self.penalties._non_form_errors = ErrorList()
        return self

    def has_any_error(self) -> bool:
        return bool(self.errors) or not self.penalties.is_valid()

    def picker_tap(self) -> bool:
        return apply_picker_action(self.data, self.variant.hand_size, list(self.seats.values()))

    # --- what the page shows ---------------------------------------------------------

    def value(self, name: str) -> str:
        return str(self[name].value() or "") if name in self.fields else ""

    @cached_property
    def picker_target(self) -> str:
        """Whose cards the picker adds to: a seat number, or the penalty cards."""
        target = self.value("target")
        targets = {str(seat) for seat in self.seats.values()}
        if self.variant.penalty_cards:
            targets.add(PENALTY_TARGET)
        return target if target in targets else str(next(iter(self.seats.values())))

    @cached_property
    def hands(self) -> list[HandView]:
        """Each player's hand as the page shows it (read once the posted data is final)."""
        views = []
        for name, seat in self.seats.items():
            cards = cards_of(self.value(f"cards_{seat}"))
            total = None
            if cards and all(self.variant.in_deck(card) for card in cards):
                total = sum((self.variant.value(card) for card in cards), Fraction(0))
            elif not cards:
                try:
                    total = parse_number(self.value(f"total_{seat}"))
                except NotANumber:
                    total = None
            views.append(
                HandView(
                    seat,
                    name,
                    self[f"cards_{seat}"],
                    self[f"total_{seat}"],
                    cards,
                    total,
                    self.picker_target == str(seat),
                )
            )
        return views

    def penalty_card_list(self) -> list[Card]:
        return cards_of(self.value("penalty_cards"))

    @cached_property
    def picker_target_name(self) -> str | None:
        """The name of the player whose hand the picker adds to (None: the penalty cards)."""
        return next((hand.name for hand in self.hands if hand.is_target), None)

    @cached_property
    def picker_cards(self) -> list[list[dict]]:
        """The deck as the picker shows it, a row of ranks per suit (jokers last): each card
        with its code, name and points, and whether all its copies at the table are in hands
        this round (its button then disabled)."""
        in_hands = [card for view in self.hands for card in view.cards]
        used = Counter(card.code for card in [*in_hands, *self.penalty_card_list()])
        rows: dict[str | None, list[dict]] = {}
        for card in self.variant.deck():
            kind = (" red" if card.is_red else "") + (" joker" if card.is_joker else "")
            rows.setdefault(card.suit, []).append(
                {
                    "code": card.code,
                    "name": card_name(card, _),
                    "classes": kind,
                    "points": points_text(self.variant.value(card)),
                    "used": used[card.code] >= self.variant.copies(card),
                }
            )
        return list(rows.values())

    def picker_values(self) -> dict[str, list]:
        """What the page's script needs of each card besides its code (its button's value)
        and its name (its button's text): its value, to add up a hand, and its copies at the
        table, to grey a card out once all are in hands. Written once for the picker
        (``json_script``), not on each of its buttons."""
        return {
            card.code: [json_number(self.variant.value(card)), self.variant.copies(card)]
            for card in self.variant.deck()
        }

    def penalty_cards_due(self) -> int | None:
        """How many penalty cards the caller must draw, once the hands are in."""
        caller = self.value("caller")
        if not self.variant.penalty_cards or caller not in self.seats:
            return None
        totals = {view.name: view.total for view in self.hands}
        if any(total is None for total in totals.values()):
            return None
        return self.variant.penalty_cards_due(
            Play(order=tuple(self.players_in_round), totals=totals, caller=caller)
        )

    def penalties_open(self) -> bool:
        """Whether the emptied-hands and penalties part is shown open."""
        return bool(
            self.value("emptied")
            or self.errors.get("emptied")
            or len(self.penalties.forms) > 1
            or any(form.has_changed() or form.errors for form in self.penalties.forms)
        )


def apply_picker_action(data, hand_size: int, seats: list[int]) -> bool:
    """A tap without JavaScript (the picker's buttons are submit buttons): add a card, remove
    one, choose whose hand to fill, change a number's sign (the ± key), or add a penalty row,
    in the posted ``data``. Returns whether the request was such a tap (and not a save). The
    picker moves on to the next player once a hand has ``hand_size`` cards."""
    if "pick" in data:
        # A card's button sends its code; the form's ``target`` says whose hand it goes to
        # (a page drawn before sent "target:code"). A target no longer in the round (a
        # player knocked out meanwhile) is the first player's, as the picker's heading says.
        target, _, code = data["pick"].rpartition(":")
        target = target or data.get("target", "")
        if target != PENALTY_TARGET and target not in {str(seat) for seat in seats}:
            target = str(seats[0])
        field = "penalty_cards" if target == PENALTY_TARGET else f"cards_{target}"
        codes = [card.code for card in cards_of(data.get(field, ""))]
        with contextlib.suppress(UnknownCard):
            codes.append(parse_card(code).code)
        data[field] = " ".join(codes)
        data["target"] = target
        if target != PENALTY_TARGET and len(codes) >= hand_size:
            data["target"] = next_target(data, target, hand_size, seats)
        return True
    if "unpick" in data:
        target, _, index = data["unpick"].partition(":")
        field = "penalty_cards" if target == PENALTY_TARGET else f"cards_{target}"
        codes = [card.code for card in cards_of(data.get(field, ""))]
        at = small_number(index, -1)
        if 0 <= at < len(codes):
            codes.pop(at)
        data[field] = " ".join(codes)
        data["target"] = target
        return True
    if "choose" in data:
        data["target"] = data["choose"]
        return True
    if "negate" in data:
        name = data["negate"]
        if SIGNED_FIELD.fullmatch(name):
            data[name] = negated(data.get(name, ""))
        return True
    if "add_penalty" in data:
        total = data.get("penalty-TOTAL_FORMS", "1")
        count = small_number(total, 1)
        data["penalty-TOTAL_FORMS"] = str(min(count + 1, PenaltyFormSet.max_num))
        return True
    return False


SIGNED_FIELD = re.compile(r"total_\d{1,2}|penalty-\d{1,2}-points")  # the fields with a ± key


def negated(text: str) -> str:
    """A typed number with its sign changed by the ± key ("5" ↔ "-5", "" → "-"): iOS's
    decimal keypad has no minus key, so the sign is never typed."""
    text = str(text).strip()
    return text[1:] if text.startswith(("-", "−")) else "-" + text.removeprefix("+")


def next_target(data, target: str, hand_size: int, seats: list[int]) -> str:
    """The next player after ``target`` whose hand is still short and has no typed total."""
    seat = small_number(target, -1)
    if seat not in seats:
        return target
    start = seats.index(seat)
    for seat in seats[start + 1 :]:
        if len(cards_of(data.get(f"cards_{seat}", ""))) < hand_size and not data.get(
            f"total_{seat}"
        ):
            return str(seat)
    return target


class SyncForm(forms.Form):
    """How a round entered offline is sent (static/js/offline.js): the number it takes, and
    whether it replaces the round another phone stored there (the table chose so)."""

    number = forms.IntegerField(min_value=1, max_value=10_000)
    replace = forms.BooleanField(required=False)
    misplaced = False  # the round is not where the phone expected it: a conflict

    def __init__(self, data, *, game, **kwargs) -> None:
        super().__init__(data, **kwargs)
        self.game = game

    def clean(self):
        data = super().clean()
        number, replace = data.get("number"), data.get("replace")
        if number is None:
            return data
        count = len(self.game.live_rounds())
        self.misplaced = number > count + 1 or (replace and number > count)
        adding = not self.misplaced and not replace and number == count + 1
        if adding and self.game.score().finished:
            raise forms.ValidationError(_("The game is over: no more rounds can be added."))
        return data

    def round_form(self) -> RoundForm:
        """The round form of the round sent, bound to its own fields: the next round, or the
        correction of the round stored at its number."""
        number = self.cleaned_data["number"]
        editing = self.game.live_rounds()[number - 1] if self.cleaned_data["replace"] else None
        form_class = RoundForm.for_game(self.game)
        return form_class(self.data.copy(), game=self.game, number=number, editing=editing)


def error_texts(form: forms.Form) -> list[str]:
    """Every refusal of a form (and of a round form's penalty rows), each with its field's
    label, for an answer without a page to show them in."""
    texts = []
    forms_ = [form, *getattr(getattr(form, "penalties", None), "forms", [])]
    for one in forms_:
        for name, errors in one.errors.items():
            label = one.fields[name].label if name in one.fields else None
            for error in errors:
                texts.append(f"{label}: {error}" if label else str(error))
    penalties = getattr(form, "penalties", None)
    if penalties is not None:
        texts.extend(str(error) for error in penalties.non_form_errors())
    return texts


# --- the other changes to a game -----------------------------------------------------------


class GameChangeForm(forms.Form):
    """A tap that changes a stored game: ``save()`` calls the game's method (``change``) and
    returns whether it was done; the referee's refusal becomes the form's ``error``, worded
    by ``refusal``. ``Conflict`` (another phone changed the game first) is the caller's."""

    def __init__(self, data=None, *, game, **kwargs) -> None:
        super().__init__(data, **kwargs)
        self.game = game

    def change(self) -> None:
        raise NotImplementedError

    def refusal(self, problem: GameError) -> str:
        return say(problem)

    def save(self) -> bool:
        if not self.is_valid():
            return False
        try:
            self.change()
        except GameError as problem:
            self.add_error(None, self.refusal(problem))
            return False
        return True

    @property
    def error(self) -> str | None:
        errors = self.non_field_errors()
        return errors[0] if errors else None


class DeleteRoundForm(GameChangeForm):
    """Set a stored round aside (undo puts it back)."""

    def __init__(self, data=None, *, game, stored, number: int, **kwargs) -> None:
        super().__init__(data, game=game, **kwargs)
        self.stored, self.number = stored, number

    def change(self) -> None:
        self.game.delete_round(self.stored.pk)

    def refusal(self, problem: GameError) -> str:
        return _("Round %(number)s cannot be deleted: %(error)s") % {
            "number": self.number,
            "error": say(problem),
        }


class RestoreRoundForm(GameChangeForm):
    """Put a deleted round back where it was."""

    def __init__(self, data=None, *, game, round_id: int, **kwargs) -> None:
        super().__init__(data, game=game, **kwargs)
        self.round_id = round_id

    def change(self) -> None:
        self.game.restore_round(self.round_id)

    def refusal(self, problem: GameError) -> str:
        return _("The round cannot be put back: %(error)s") % {"error": say(problem)}


class EndGameForm(GameChangeForm):
    """The table ends a game in progress now (the lowest total wins)."""

    def clean(self):
        sheet = self.game.score()
        if sheet.finished or not sheet.rounds:
            raise forms.ValidationError(
                _("Only a game in progress with at least one round can be ended.")
            )
        return super().clean()

    def change(self) -> None:
        self.game.end()


class ResumeGameForm(GameChangeForm):
    """The table ended the game (or declared the match blocked) by mistake: it goes on. A game
    its own rules ended is not reopened, nor one the table has left for its rematch."""

    def clean(self):
        if not self.game.ended:
            raise forms.ValidationError(
                _("This game ended by its own rules: it cannot be reopened.")
            )
        if self.game.next_game_id is not None:
            raise forms.ValidationError(
                _("A rematch was made from this game: it cannot be reopened.")
            )
        return super().clean()

    def change(self) -> None:
        self.game.resume()


class RematchForm(GameChangeForm):
    """The same players and settings again, the deal moved on by one seat (``created``)."""

    def change(self) -> None:
        self.created = self.game.rematch()


class ImportForm(forms.Form):
    """A game file sent from the phone (``file``), stored whole or refused whole. A file
    whose id is that of a copy this phone imported (``mine``: its games' edit keys) opens
    that copy."""

    def __init__(self, *args, mine: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.mine = mine

    @classmethod
    def bind(cls, request) -> ImportForm:
        """The form of this request: the file it posted, if any, and this phone's games."""
        if request.method == "POST":
            return cls(request.POST, request.FILES, mine=device_games(request))
        return cls(mine=device_games(request))

    def clean(self):
        if self.files.get("file") is None:
            raise forms.ValidationError(_("Choose a game file to import."))
        return super().clean()

    def save(self) -> bool:
        if not self.is_valid():
            return False
        try:
            self.game = Game.objects.import_file(
                self.files["file"].read(gamefile.MAX_FILE_BYTES + 1), mine=self.mine
            )
        except GameError as problem:
            self.add_error(None, say(problem))
            return False
        return True

    @property
    def error(self) -> str | None:
        errors = self.non_field_errors() if self.is_bound else []
        return errors[0] if errors else None
