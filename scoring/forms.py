"""Forms: a new game, and a round as the table enters it.

The round form has a field per player holding card codes ("KH 3C") or a typed
total; the card picker only edits those fields, so the same form works as
plain HTML and with htmx. Validation is the engine's: the round is scored
together with the rest of the game and the engine's message lands next to the
field at fault.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.display import say, say_detail
from scoring.referee import engine
from scoring.referee.cards import Card, UnknownCard, parse_card
from scoring.referee.engine import GameError, Penalty
from scoring.referee.notes import gettext_noop
from scoring.referee.variants import VARIANTS, Variant
from scoring.referee.variants.base import Play

NUMBER = re.compile(r"^[+-]?\d{1,6}(?:[.,]\d{1,6})?$")
PICKER_TARGET_PENALTY = "pc"


def parse_hand(text: str) -> tuple[Card, ...] | Fraction:
    """Card codes separated by spaces or commas, or a number (``4,5`` as well as ``4.5``)."""
    text = text.strip()
    if NUMBER.match(text):
        return Fraction(text.replace(",", "."))
    cards = []
    for code in re.split(r"[\s,;]+", text):
        if not code:
            continue
        try:
            cards.append(parse_card(code))
        except UnknownCard:
            raise GameError(
                gettext_noop("unknown card {code} (codes look like 10H, KS, AD or JOKER)."),
                code=code,
            ) from None
    return tuple(cards)


def cards_of(text: str) -> list[Card]:
    """The cards a field holds so far, for the picker; a typed total holds none."""
    try:
        hand = parse_hand(text)
    except GameError:
        return []
    return list(hand) if isinstance(hand, tuple) else []


@dataclass
class HandView:
    """What the round form shows for one player."""

    seat: int
    name: str
    field: forms.BoundField
    cards: list[Card]
    total: Fraction | None
    is_target: bool


class RoundForm(forms.Form):
    """One round. ``game`` is the stored game; ``editing`` the round being corrected, if any."""

    number = forms.IntegerField(widget=forms.HiddenInput)
    edits = forms.IntegerField(widget=forms.HiddenInput, required=False)
    notice = ""  # why the form is shown again as saved elsewhere
    conflict: dict | None = None  # the round another phone saved first
    target = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, game, players_in_round, number, editing=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        self.variant: Variant = VARIANTS[game.variant](**game.effective_settings())
        self.players_in_round = list(players_in_round)
        self.round_number = number
        self.editing = editing
        self.seats = {name: game.players.index(name) for name in self.players_in_round}

        who = [(name, name) for name in self.players_in_round]
        for name, seat in self.seats.items():
            self.fields[f"hand_{seat}"] = forms.CharField(
                label=name, required=False, max_length=300
            )
        self.fields["caller"] = forms.ChoiceField(
            label=gettext_lazy("Who called?"),
            choices=[("", gettext_lazy("Nobody")), *who],
            required=False,
            widget=forms.RadioSelect,
        )
        if self.variant.counter_call:
            self.fields["counter_caller"] = forms.ChoiceField(
                label=gettext_lazy("Contre-Tamoul by"),
                choices=[("", gettext_lazy("Nobody")), *who],
                required=False,
                widget=forms.RadioSelect,
            )
        self.fields["emptied"] = forms.MultipleChoiceField(
            label=gettext_lazy("Got rid of all their cards"),
            choices=who,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        for row in range(self.penalty_rows):
            self.fields[f"penalty_player_{row}"] = forms.ChoiceField(
                label=gettext_lazy("Player"), choices=[("", "—"), *who], required=False
            )
            self.fields[f"penalty_points_{row}"] = forms.CharField(
                label=gettext_lazy("Points"),
                required=False,
                max_length=8,
                widget=forms.TextInput(attrs={"inputmode": "decimal", "placeholder": "+2"}),
            )
            self.fields[f"penalty_reason_{row}"] = forms.CharField(
                label=gettext_lazy("Reason"),
                required=False,
                max_length=200,
                widget=forms.TextInput(attrs={"placeholder": gettext_lazy("Reason")}),
            )
        if self.variant.penalty_cards:
            self.fields["penalty_cards"] = forms.CharField(
                label=gettext_lazy("Penalty cards drawn by the dutcher"),
                required=False,
                max_length=300,
            )

    # --- what the picker and the page show --------------------------------------

    @property
    def penalty_rows(self) -> int:
        source = self.data if self.is_bound else self.initial
        filled = sum(1 for key in source if key.startswith("penalty_player_"))
        return max(filled, 1)

    def value(self, name: str) -> str:
        return str(self[name].value() or "")

    @cached_property
    def picker_target(self) -> str:
        """Whose cards the picker adds to: a seat number, or the penalty cards."""
        target = self.value("target")
        targets = {str(seat) for seat in self.seats.values()} | {PICKER_TARGET_PENALTY}
        return target if target in targets else str(self.seats[self.players_in_round[0]])

    @cached_property
    def hands(self) -> list[HandView]:
        views = []
        for name, seat in self.seats.items():
            text = self.value(f"hand_{seat}")
            try:
                hand = parse_hand(text) if text.strip() else None
            except GameError:
                hand = None
            total = None
            if isinstance(hand, tuple):
                if all(self.variant.in_deck(card) for card in hand):
                    total = sum((self.variant.value(card) for card in hand), Fraction(0))
            elif hand is not None:
                total = hand
            field, is_target = self[f"hand_{seat}"], self.picker_target == str(seat)
            views.append(HandView(seat, name, field, cards_of(text), total, is_target))
        return views

    def options(self, name: str) -> list[dict]:
        """A choice field's options with whether each is chosen, for inputs written by hand
        in the template (Django's widget templates cost most of the page's render time)."""
        value = self[name].value()
        chosen = {str(v) for v in value} if isinstance(value, list | tuple) else {str(value or "")}
        return [
            {"value": key, "label": label, "checked": str(key) in chosen, "id": f"id_{name}_{i}"}
            for i, (key, label) in enumerate(self.fields[name].choices)
        ]

    def caller_options(self) -> list[dict]:
        return self.options("caller")

    def counter_caller_options(self) -> list[dict]:
        return self.options("counter_caller")

    def emptied_options(self) -> list[dict]:
        return self.options("emptied")

    def penalty_fields(self) -> list[dict]:
        rows = []
        for row in range(self.penalty_rows):
            fields = {
                part: self[f"penalty_{part}_{row}"] for part in ("player", "points", "reason")
            }
            errors = [error for field in fields.values() for error in field.errors]
            rows.append({**fields, "errors": errors})
        return rows

    def penalty_card_list(self) -> list[Card]:
        return cards_of(self.value("penalty_cards")) if self.variant.penalty_cards else []

    def used_cards(self) -> dict[Card, int]:
        used: dict[Card, int] = {}
        for view in self.hands:
            for card in view.cards:
                used[card] = used.get(card, 0) + 1
        for card in self.penalty_card_list():
            used[card] = used.get(card, 0) + 1
        return used

    @cached_property
    def picker_cards(self) -> list[tuple[Card, Fraction, bool]]:
        """The deck in rank order, each card with its value and whether it is used up."""
        used = self.used_cards()
        cards = []
        for card in self.variant.deck():
            copies = self.variant.decks * (self.variant.values.jokers if card.is_joker else 1)
            cards.append((card, self.variant.value(card), used.get(card, 0) >= copies))
        return cards

    @cached_property
    def picker_key(self) -> str:
        """Everything the picker grid depends on: its cache key."""
        used = ",".join(card.code for card, _, spent in self.picker_cards if spent)
        settings = (self.variant.decks, self.variant.settings.get("joker_value"))
        return f"{self.variant.key}|{settings}|{self.picker_target}|{used}"

    def penalty_cards_due(self) -> int | None:
        """Dutch toulousain: how many cards the dutcher must draw, once the hands are in."""
        caller = self.value("caller")
        if not self.variant.penalty_cards or caller not in self.seats:
            return None
        totals = {view.name: view.total for view in self.hands}
        if any(total is None for total in totals.values()):
            return None
        return self.variant.penalty_cards_due(
            Play(order=tuple(self.players_in_round), totals=totals, caller=caller)
        )

    # --- validation ---------------------------------------------------------------

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        hands: dict[str, object] = {}
        for name, seat in self.seats.items():
            text = data.get(f"hand_{seat}", "").strip()
            if not text:
                if name in data.get("emptied", []):
                    hands[name] = ()
                    continue
                self.add_error(
                    f"hand_{seat}",
                    _("Enter %(name)s's cards or hand total.") % {"name": name},
                )
                continue
            try:
                hands[name] = parse_hand(text)
            except GameError as error:
                self.add_error(f"hand_{seat}", say_detail(error))
        penalties = []
        for row in range(self.penalty_rows):
            player = data.get(f"penalty_player_{row}") or ""
            points = (data.get(f"penalty_points_{row}") or "").strip()
            reason = (data.get(f"penalty_reason_{row}") or "").strip()
            if not player and not points:
                continue
            if not player:
                self.add_error(f"penalty_player_{row}", _("Choose who gets the penalty."))
                continue
            if not NUMBER.match(points):
                self.add_error(f"penalty_points_{row}", _("Enter a number of points."))
                continue
            penalties.append(Penalty(player, Fraction(points.replace(",", ".")), reason))
        penalty_cards: tuple[Card, ...] = ()
        if self.variant.penalty_cards:
            try:
                parsed = parse_hand(data.get("penalty_cards", "") or "")
            except GameError as error:
                self.add_error("penalty_cards", say_detail(error))
                parsed = ()
            if not isinstance(parsed, tuple):
                self.add_error("penalty_cards", _("Enter the cards drawn, not a total."))
                parsed = ()
            penalty_cards = parsed
        if self.errors:
            return data
        self.round = engine.RoundEntry(
            hands=hands,
            caller=data.get("caller") or None,
            counter_caller=data.get("counter_caller") or None,
            emptied=tuple(data.get("emptied", [])),
            penalties=tuple(penalties),
            penalty_cards=penalty_cards,
        )
        try:
            self.sheet = self.score_with_this_round()
        except GameError as error:
            self.add_engine_error(error)
        return data

    def score_with_this_round(self) -> engine.ScoreSheet:
        rounds = [entry.as_engine_round(n) for n, entry in enumerate(self.game.live_rounds(), 1)]
        index = self.round_number - 1
        if self.editing is not None:
            rounds[index] = self.round
        else:
            rounds.append(self.round)
        return engine.score_game(self.game.as_engine_game(rounds))

    def add_engine_error(self, error: GameError) -> None:
        if error.round != self.round_number:
            self.add_error(
                None,
                _("This would make round %(round)s invalid: %(error)s")
                % {"round": error.round, "error": say_detail(error)}
                if error.round
                else say(error),
            )
            return
        field = None
        if error.field == "hands" and error.player in self.seats:
            field = f"hand_{self.seats[error.player]}"
        elif error.field in ("caller", "counter_caller", "emptied", "penalty_cards"):
            field = error.field if error.field in self.fields else None
        elif error.field == "penalties":
            for row in range(self.penalty_rows):
                if self.cleaned_data.get(f"penalty_player_{row}") == error.player:
                    field = f"penalty_points_{row}"
                    break
        self.add_error(field, say_detail(error) if field else say(error))


class NewGameForm(forms.Form):
    """Variant settings and 2–8 players in turn order; rows are added, removed, moved up."""

    dealer = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)

    SETTING_FIELDS = {
        "rounds": lambda default: forms.IntegerField(
            label=gettext_lazy("Number of rounds"),
            required=False,
            min_value=1,
            max_value=999,
            help_text=gettext_lazy("Leave empty for an open-ended game.")
            if default is None
            else gettext_lazy("Default: %(default)s.") % {"default": default},
        ),
        "call_threshold": lambda default: forms.DecimalField(
            label=gettext_lazy("A call is allowed with at most"),
            required=False,
            max_digits=4,
            decimal_places=1,
            localize=True,
            help_text=gettext_lazy("Default: %(default)s points.")
            % {"default": str(float(default)).removesuffix(".0")},
        ),
        "joker_value": lambda default: forms.IntegerField(
            label=gettext_lazy("Joker value"),
            required=False,
            min_value=-100,
            max_value=100,
            help_text=gettext_lazy("Default: %(default)s.") % {"default": default},
        ),
        "half_game": lambda default: forms.BooleanField(
            label=gettext_lazy("Half game (ends at 50 and -25)"), required=False
        ),
        "decks": lambda default: forms.TypedChoiceField(
            label=gettext_lazy("Decks"),
            choices=[(1, gettext_lazy("One deck")), (2, gettext_lazy("Two decks"))],
            coerce=int,
            initial=1,
            required=False,
            empty_value=1,
            widget=forms.RadioSelect,
        ),
    }

    def __init__(self, *args, variant: str, rows: int = 4, **kwargs):
        super().__init__(*args, **kwargs)
        self.variant = VARIANTS[variant]
        self.rows = rows
        for row in range(rows):
            self.fields[f"name_{row}"] = forms.CharField(
                label=gettext_lazy("Player %(n)s") % {"n": row + 1},
                required=False,
                max_length=100,
            )
        for name, default in self.variant.defaults.items():
            self.fields[name] = self.SETTING_FIELDS[name](default)

    @property
    def dealer_row(self) -> int:
        value = str(self["dealer"].value() or 0)
        return int(value) if value.isdigit() else 0

    def name_fields(self):
        return [self[f"name_{row}"] for row in range(self.rows)]

    def setting_fields(self):
        return [self[name] for name in self.variant.defaults]

    def clean(self):
        data = super().clean()
        raw = [data.get(f"name_{row}", "") for row in range(self.rows)]
        kept = [(row, name) for row, name in enumerate(raw) if name and name.strip()]
        try:
            self.players = engine.check_players([name for _, name in kept])
        except GameError as error:
            detail = say_detail(error)
            self.add_error(None, detail[0].upper() + detail[1:])
            return data
        settings = {}
        for name, default in self.variant.defaults.items():
            value = data.get(name)
            if value is None or value == "" or value == default:
                continue
            if name == "call_threshold":
                value = Fraction(value)
                value = int(value) if value.denominator == 1 else float(value)
            if name == "half_game" and not value:
                continue
            settings[name] = value
        try:
            engine.check_settings(self.variant.key, settings)
        except GameError as error:
            field = (error.field or "").removeprefix("settings.")
            self.add_error(field if field in self.fields else None, say_detail(error))
        self.settings = settings
        dealer_row = data.get("dealer") or 0
        rows_kept = [row for row, _ in kept]
        self.first_dealer = rows_kept.index(dealer_row) if dealer_row in rows_kept else 0
        return data
