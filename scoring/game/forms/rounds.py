"""A round as the table enters it, and the one way it is saved.

A Tamalou round form (``HandsForm``) has, per player, a field of card codes (filled by the
card picker; shown as text only without JavaScript, when it holds cards) and a field for a
typed total (the numeric keypad); penalty points are a formset. The form only reads what was
typed into a ``RoundEntry``; the referee checks the round with the whole game when it is
saved (``Game.add_round``), and its refusal lands next to the field at fault
(``add_referee_error``). The picker, the ± keys and another penalty row are
static/js/round.js's alone: without JavaScript the table types each total, into the few
penalty rows the form always shows."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from functools import cached_property

from django import forms
from django.forms.utils import ErrorDict, ErrorList
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.game.forms.cards import PENALTY_TARGET, HandView, cards_of, read_cards
from scoring.game.forms.penalties import PenaltyFormSet
from scoring.game.speech import SPEECH_TEXTS, SPEECH_WORDS
from scoring.referee import engine
from scoring.referee.cards import Card
from scoring.referee.engine import GameError
from scoring.referee.notes import card_name
from scoring.referee.numbers import NotANumber, parse_number
from scoring.referee.variants import VARIANTS, Variant
from scoring.referee.variants.base import Play
from scoring.web.display import points as points_text
from scoring.web.display import say, say_detail
from scoring.web.fields import (
    NumberField,
    Segmented,
    SegmentedBoxes,
    json_number,
)

ROUND_FORMS: dict[str, type[RoundForm]] = {}  # a variant's own round form, by its key


# A field of card codes as text (the picker's alone with JavaScript: app.css hides it then).
CODES = {
    "class": "card-codes no-js-only",
    "autocomplete": "off",
    "autocapitalize": "characters",
    "spellcheck": "false",
}


class RoundForm(forms.Form):
    """A round of a stored game as the table enters it, and the one way it is saved.

    ``number`` is the round's number; ``editing`` the stored round being corrected, if any;
    ``asked``: the phone already asked what the table may have forgotten (a round kept
    offline, static/js/keep.js), so the form does not ask again.
    Each kind of game has its form (``for_game``): a subclass declares its fields, reads them
    into ``self.round`` (a ``RoundEntry``) in ``clean``, gives the inverse (``initial_for``),
    puts the referee's refusals on its fields (``add_referee_error``) and names the templates
    that show it. Views then only bind it, call ``save()`` and render what it names.
    """

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    edits = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    notice = ""  # why the form is shown again as saved elsewhere
    sent_again = False  # saved: the same round was stored already (sent twice, or by two phones)
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

    def __init__(
        self, data=None, *, game, number: int, editing=None, initial=None, asked=False, **kwargs
    ):
        super().__init__(data, initial={"number": number, **(initial or {})}, **kwargs)
        self.game, self.round_number, self.editing = game, number, editing
        self.asked = asked

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
        """Show the posted values without their errors (kept after another phone's round)."""
        self._errors = ErrorDict()
        return self

    def save(self) -> bool:
        """Store the round: the next one (at its posted number), or the correction of
        ``editing``. Returns whether it was stored; the referee's refusal lands on the field at
        fault. ``Conflict`` (another phone changed the game first) is the caller's to show."""
        if not self.is_valid() or self.has_any_error():
            return False
        try:
            if self.editing is None:
                stored = self.game.add_round(self.cleaned_data["number"], self.round)
                self.sent_again = stored.sent_again
            else:
                edits = self.cleaned_data.get("edits")
                self.game.replace_round(self.editing.pk, edits, self.round)
        except GameError as error:
            self.add_referee_error(error)
            return False
        return True

    def sent_again_text(self) -> str:
        return _(
            "Round %(number)s was already saved with these same hands, from this phone or "
            "another: it is stored once."
        ) % {"number": self.cleaned_data["number"]}

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
    emptied hands, penalties.

    Where the variant's rounds end with a call, a round saved with nobody as the caller is
    not stored at once: the form asks whether nobody called (``caller_forgotten``), beside
    its other refusals; the button under the question posts ``nobody_called``, which the
    form then keeps (hidden) while it is shown again."""

    target = forms.CharField(widget=forms.HiddenInput, required=False, max_length=4)
    nobody_called = forms.BooleanField(required=False, widget=forms.HiddenInput)
    who_called_question = gettext_lazy(
        "Nobody called this round? Tap who called, or save it as a round nobody called."
    )
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
            # The picker's codes, hidden; a hand that holds cards (a correction, a refusal)
            # shows them as text too, so that a page without JavaScript can change them.
            held = (self.data if self.is_bound else self.initial).get(f"cards_{seat}")
            self.fields[f"cards_{seat}"] = forms.CharField(
                label=_("%(name)s: cards") % {"name": name},
                required=False,
                max_length=400,
                widget=forms.TextInput(attrs=CODES) if held else forms.HiddenInput,
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
                widget=forms.TextInput(attrs=CODES),
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
                continue
            try:  # each hand on its own first, so that every hand at fault is said at once
                engine.hand_total(self.variant, hands[name], round=self.round_number, player=name)
            except GameError as error:
                self.add_referee_error(error)
        penalty_cards = self.parse_cards("penalty_cards") if self.variant.penalty_cards else []
        if self.caller_forgotten(data, emptied):
            question = forms.ValidationError(self.who_called_question, code="nobody_called")
            self.add_error("caller", question)
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

    def caller_forgotten(self, data: dict, emptied: list[str]) -> bool:
        """Nobody is the caller in a round that ends with a call (``Variant.ends_with_a_call``):
        the table may have forgotten to tap who called. Not when the table answered that nobody
        did (``nobody_called``), nor when the phone asked already (``asked``), nor on the
        correction of a round stored without a caller (the table said so when it was saved, or
        it came from a game file)."""
        if data.get("caller") or "caller" in self.errors or data.get("nobody_called") or self.asked:
            return False
        if self.editing is not None and self.editing.as_entry(self.round_number).caller is None:
            return False
        return self.variant.ends_with_a_call(emptied)

    @property
    def asks_who_called(self) -> bool:
        """Whether the form, shown again, asks if nobody called (``caller_forgotten``)."""
        return self.has_error("caller", "nobody_called")

    def parse_cards(self, name: str) -> list[Card]:
        cards, unknown = read_cards(self.cleaned_data.get(name) or "")
        for code in unknown:
            text = _("Unknown card %(code)s: remove it and pick the card again.")
            self.add_error(name, text % {"code": code})
        return cards

    def is_empty(self) -> bool:
        """Nothing at all was entered: a tap on Save over a fresh form. A hand ticked as
        emptied is entered: it needs no typed total (its total is 0, an empty hand, as in a
        game file), so a round where every hand is emptied is a round."""
        fields = [f"{kind}_{seat}" for seat in self.seats.values() for kind in ("cards", "total")]
        typed = any(str(self.data.get(name) or "").strip() for name in fields)
        penalties = any(form.has_changed() for form in self.penalties.forms)
        emptied = self.cleaned_data.get("emptied") or "emptied" in self.errors
        return not (typed or penalties or emptied or self.cleaned_data.get("penalty_cards"))

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
    def shows_card_codes(self) -> bool:
        """Whether a hand's cards are shown as text (for a page without JavaScript)."""
        return any(
            f.widget.input_type == "text" for n, f in self.fields.items() if n.startswith("cards_")
        )

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

    def speech(self) -> dict:
        """What the phone needs to fill this form from a round said aloud (the microphone
        button, static/js/say.js): whether the game has half points and negative totals, the
        lowest and highest totals a hand can reach, every
        variant's call word (a table says "Tamalou" whatever it plays), and the words and
        texts of ``SPEECH_WORDS`` and ``SPEECH_TEXTS`` in the page's language. The players'
        names are the form's own."""
        words = {
            kind: [word.strip() for word in str(text).split("|") if word.strip()]
            for kind, text in SPEECH_WORDS.items()
            if kind != "counter" or self.variant.counter_call
        }
        return {
            "halves": self.variant.half_points,
            "negatives": self.negative_totals,
            "lowest": json_number(self.variant.lowest_possible_hand),
            "highest": json_number(self.variant.highest_possible_hand),
            "calls": sorted({variant.call_word for variant in VARIANTS.values()}),
            "words": words,
            "texts": {key: str(text) for key, text in SPEECH_TEXTS.items()},
        }

    def penalties_open(self) -> bool:
        """Whether the emptied-hands and penalties part is shown open."""
        return bool(
            self.value("emptied")
            or self.errors.get("emptied")
            or any(form.has_changed() or form.errors for form in self.penalties.forms)
        )
