"""Tambouille's match sheet on the phone: the cards each player still holds after every turn
round, and the thinking timer. The referee's rules are in ``referee/tambouille.py``."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.game.forms.rounds import RoundForm
from scoring.referee import engine
from scoring.referee.engine import GameError
from scoring.referee.tambouille import CARDS, TURN_CHOICES, Tambouille
from scoring.store.models import Game, TurnClock
from scoring.web.display import minutes, say, say_detail
from scoring.web.fields import NumberField


class CountsForm(RoundForm):
    """One turn round: how many cards each player still holds (hand and pile), 0–123.
    ``editing`` is the stored turn round being corrected, if any."""

    variants = (Tambouille.key,)
    page = "match.html"
    form_partial = "match.html#game_body"
    saved_partial = "match.html#saved"
    game_over_text = gettext_lazy("The match is over: no more turn rounds can be added.")

    def __init__(self, data=None, *, game: Game, number: int, editing=None, initial=None, **kwargs):
        super().__init__(data, game=game, number=number, editing=editing, initial=initial, **kwargs)
        for seat, name in enumerate(game.players):
            field = NumberField(label=name, whole=True, max_length=3)
            field.widget.attrs.update({"enterkeyhint": "next", "placeholder": "0–123"})
            self.fields[f"count_{seat}"] = field

    @staticmethod
    def initial_for(game: Game, entry: engine.RoundEntry, edits: int = 0) -> dict:
        """The form's values showing a stored turn round (the inverse of ``clean``)."""
        initial: dict = {"edits": edits}
        for name, count in entry.hands.items():
            initial[f"count_{game.players.index(name)}"] = str(int(count))
        return initial

    def count_fields(self) -> list[forms.BoundField]:
        return [self[f"count_{seat}"] for seat in range(len(self.game.players))]

    def clean(self):
        data = super().clean()
        counts = {}
        for seat, name in enumerate(self.game.players):
            key = f"count_{seat}"
            if key in self.errors:
                continue
            count = data.get(key)
            if count is None:
                self.add_error(key, _("Enter how many cards %(name)s holds.") % {"name": name})
            elif not 0 <= count <= CARDS:
                self.add_error(key, _("Enter a number from 0 to %(most)s.") % {"most": CARDS})
            else:
                counts[name] = int(count)
        if not self.errors:
            self.round = engine.RoundEntry(hands=counts)
        return data

    def add_referee_error(self, error: GameError) -> None:
        """Put the referee's refusal next to the count at fault (or above the form)."""
        if error.field == "hands" and error.player in self.game.players:
            field = f"count_{self.game.players.index(error.player)}"
            self.add_error(field, say_detail(error))
        else:
            self.add_error(None, say(error))

    def corrected_text(self) -> str:
        return _("Turn round %(n)s corrected.") % {"n": self.round_number}

    def shown_after_save(self, finished: bool) -> str:
        # The next turn round: the standings. The last one: the winners, above them.
        return "#live-top" if finished else "#totals"

    def anchor_after_save(self, finished: bool) -> str:
        return "" if finished else "#totals"


class ClockForm(forms.Form):
    """A tap on the thinking timer (``action``, which its address says): start, pause, next
    player, or the time of a turn (``seconds``)."""

    ACTIONS = ("start", "pause", "next", "time")
    turn = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    seconds = forms.TypedChoiceField(
        label=gettext_lazy("Time of a turn"),
        choices=[(str(s), minutes(s)) for s in TURN_CHOICES],
        coerce=int,
        required=False,
    )

    def __init__(self, *args, action: str = "time", **kwargs):
        super().__init__(*args, **kwargs)
        self.action = action

    def clean(self):
        data = super().clean()
        if self.action == "time" and not data.get("seconds"):
            self.add_error("seconds", _("Choose the time of a turn."))
        return data

    def save(self, game: Game) -> bool:
        """Apply the tap to ``game``'s timer, unless the form is refused or the match over."""
        if not self.is_valid() or game.score().finished:
            return False
        data = self.cleaned_data
        game.set_clock(self.action, data["turn"], data.get("seconds"))
        return True


def find_match(key: str) -> Game:
    """The Tambouille match reached by its edit key (any other game has no timer: 404)."""
    return get_object_or_404(Game, edit_key=key, variant=Tambouille.key)


def turn_order(game: Game) -> list[str]:
    """The players in the order they play: the dealer's neighbour first."""
    first = (game.first_dealer + 1) % len(game.players)
    return game.players[first:] + game.players[:first]


def clock_of(game: Game) -> TurnClock:
    """The match's timer as stored, or a fresh one (first player, paused, 2 minutes)."""
    return TurnClock.objects.filter(game=game).first() or TurnClock(game=game)


def clock_context(game: Game, clock: TurnClock) -> dict:
    order = turn_order(game)
    now = timezone.now()
    deadline = clock.deadline
    return {
        "clock": clock,
        "order": order,
        "player": order[clock.turn % len(order)],
        "next_player": order[(clock.turn + 1) % len(order)],
        "left": minutes(round(clock.left(now))) if not clock.running else None,
        "deadline_ms": int(deadline.timestamp() * 1000) if deadline else None,
        "deadline": deadline,
        "time_form": ClockForm(initial={"seconds": clock.seconds, "turn": clock.turn}),
        # The start, pause and next buttons' own copy of the turn they are meant for.
        "buttons_form": ClockForm(initial={"turn": clock.turn}, auto_id=False),
    }


def turn_rounds(game: Game, sheet: engine.ScoreSheet) -> list[dict]:
    """Each turn round for the table, newest first, with its stored entry: the sheet's rounds,
    read after it (if another phone saved or deleted one meanwhile, each result still meets its
    own round; the next view shows the change)."""
    rows = []
    stored_rounds = game.live_rounds()[: len(sheet.rounds)]
    for stored, result in zip(stored_rounds, sheet.rounds, strict=False):
        rows.append(
            {
                "entry": stored,  # the stored ``Round`` (its id for the edit link)
                "number": result.number,
                "counts": [(p, result.totals[p], p in result.winners) for p in game.players],
            }
        )
    return rows[::-1]


def match_context(
    request: HttpRequest, game: Game, form: CountsForm | None, link: str, clock: TurnClock
) -> dict:
    """What the match sheet shows: cards dealt, who plays first, the counts over the turn
    rounds, who leads, the end, and the timer."""
    sheet = game.score()
    variant = game.rules()
    fewest = variant.fewest(sheet.totals) if sheet.rounds else []
    return {
        "dealt": variant.dealt(len(game.players)),
        "short": variant.settings["short"],
        "dealer": game.players[game.first_dealer % len(game.players)],
        "leaders": [] if sheet.finished else fewest,
        "turn_rounds": turn_rounds(game, sheet),
        "clock_urls": {a: reverse(f"clock_{a}", args=[game.edit_key]) for a in ClockForm.ACTIONS},
        **clock_context(game, clock),
    }
