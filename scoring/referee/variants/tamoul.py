"""Tamoul: half points, contre-Tamoul, and 100 falls back to 50.

The rules as players read them: /rules/tamoul/ (rules_variant.html).
"""

from __future__ import annotations

from fractions import Fraction

from scoring.referee.house import CALL_THRESHOLD
from scoring.referee.notes import Note, gettext_noop, note
from scoring.referee.variants.base import (
    CALL_SETTINGS,
    END_SETTINGS,
    QUICK_DISCARD,
    SETUP_52,
    TURN,
    CardValues,
    Outcome,
    Play,
    Power,
    RedBlack,
    Variant,
    call_succeeds,
    caller_or_lowest_others,
    failed_call_note,
    house_settings,
    no_caller,
    why_caller_failed,
)


class Tamoul(Variant):
    key = "tamoul"
    name = gettext_noop("Tamoul")
    summary = gettext_noop(
        "Half points; call with {threshold} or less for {bonus}, risk a contre-Tamoul; "
        "exactly {reset_at} falls back to {reset_to}."
    )
    call_word = "Tamoul"
    values = CardValues(
        numbers=range(2, 11),
        A=1,
        J=15,
        Q=RedBlack(red=1, black=15),
        K=RedBlack(red=Fraction(1, 2), black=15),
    )
    house_settings = house_settings(
        CALL_THRESHOLD,
        then=(*CALL_SETTINGS, *END_SETTINGS),
        call_threshold=Fraction(13, 2),
        call_bonus=-20,
        call_penalty=20,
        limit=100,
        reset={"at": 100, "to": 50},
    )
    half_points = True
    settled = (
        gettext_noop(
            "When a contre-Tamoul is right, the caller scores just their hand, without the +20."
        ),
        gettext_noop(
            "A total of exactly 100 falls back to 50 after the round; the game ends only when a "
            "total goes over 100."
        ),
    )
    counter_call = True
    counter_call_word = "contre-Tamoul"
    decisions = (
        gettext_noop(
            "A counter-caller with as many points as the caller is wrong: only fewer is right."
        ),
        gettext_noop(
            "The round is won by a right counter-caller, else by a successful caller, "
            "else by the lowest hand among the other players."
        ),
    )
    rules = {
        "setup": SETUP_52,
        "turn": TURN,
        "quick_discard": QUICK_DISCARD,
        "call": gettext_noop(
            "Call “{call}” with {threshold} points or less. During the last turn one other "
            "player may say “contre-Tamoul” if they think they have even fewer points. Card "
            "powers cannot target the player who said {call}."
        ),
        "scoring": gettext_noop(
            "A caller with {threshold} or less and strictly fewer points than everyone else "
            "scores {bonus}; otherwise their hand + {penalty}. A right contre-Tamoul (strictly "
            "fewer than the caller) scores {bonus} and the caller just scores their hand; a "
            "wrong one scores their hand + {penalty} and the caller is scored as usual. Red "
            "kings are worth half a point: halves are kept exactly."
        ),
        "end": gettext_noop("The lowest total wins."),
    }
    powers = (
        Power(("7",), gettext_noop("Look at one of your own cards.")),
        Power(("8",), gettext_noop("Look at one card of an opponent.")),
        Power(("9",), gettext_noop("Swap one of your cards with an opponent's, blind.")),
        Power(
            ("10",),
            gettext_noop("Look at an opponent's card and swap it with one of yours if you like."),
        ),
    )
    example = {
        "players": ["Léa", "Marc", "Nina"],
        "round": {
            "hands": {"Léa": ["KH", "QD", "3S"], "Marc": ["2C", "AS"], "Nina": ["JC", "5H"]},
            "caller": "Léa",
            "counter_caller": "Marc",
        },
    }

    def score(self, play: Play) -> Outcome:
        if play.caller is None:
            return no_caller(play)
        caller, counter = play.caller, play.counter_caller
        total = play.t(caller)
        bonus, penalty = self.call_bonus, self.call_penalty
        scores = dict(play.totals)
        notes: list[Note] = []

        if counter is not None and play.t(counter) < total:
            # The counter-caller was right: he takes the bonus, the caller just scores his hand.
            scores[counter] = bonus
            notes.append(
                note(
                    gettext_noop(
                        "{counter} said contre-Tamoul with {counter_total}, fewer than "
                        "{caller}'s {total}: {bonus} for {counter}; {caller} scores the hand "
                        "total, {total}."
                    ),
                    counter=counter,
                    counter_total=play.t(counter),
                    caller=caller,
                    total=total,
                    bonus=bonus,
                )
            )
            winners, succeeded = [counter], False
        else:
            if counter is not None:
                scores[counter] = play.t(counter) + penalty
                notes.append(
                    note(
                        gettext_noop(
                            "{counter} said contre-Tamoul with {counter_total}, not fewer "
                            "than {caller}'s {total}: {counter_total} + {penalty} = {score}."
                        ),
                        counter=counter,
                        counter_total=play.t(counter),
                        caller=caller,
                        total=total,
                        penalty=penalty,
                        score=scores[counter],
                    )
                )
            succeeded = call_succeeds(self, play)
            if succeeded:
                scores[caller] = bonus
                notes.append(
                    note(
                        gettext_noop(
                            "{caller} called {call} with {total} and was strictly lowest: {bonus}."
                        ),
                        caller=caller,
                        call=self.call_word,
                        total=total,
                        bonus=bonus,
                    )
                )
            else:
                scores[caller] = total + penalty
                notes.append(why_caller_failed(self, play))
                notes.append(failed_call_note(caller, total, penalty, scores[caller]))
            winners = caller_or_lowest_others(play, succeeded)
        notes.append(note(gettext_noop("The others score their hand totals.")))
        return Outcome({p: scores[p] for p in play.order}, winners, succeeded, notes)
