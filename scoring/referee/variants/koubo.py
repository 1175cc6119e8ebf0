"""Koubo charentais: a 32-card deck, −3 for a right call, +20 for a wrong one.

The rules as players read them: /rules/koubo/ (rules_variant.html).
"""

from __future__ import annotations

from scoring.referee.notes import gettext_noop, note
from scoring.referee.variants.base import (
    CALL_SETTINGS,
    END_SETTINGS,
    QUICK_DISCARD,
    TURN,
    CardValues,
    Outcome,
    Play,
    Power,
    RedBlack,
    Variant,
    house_settings,
    no_caller,
)


class Koubo(Variant):
    key = "koubo"
    name = gettext_noop("Koubo charentais")
    summary = gettext_noop(
        "{deck} cards and jokers, {rounds} rounds; a right Koubo scores {bonus}, a wrong one "
        "+{penalty}."
    )
    call_word = "Koubo"
    values = CardValues(numbers=range(7, 11), A=1, J=2, Q=3, K=RedBlack(red=0, black=11), JOKER=-1)
    house_settings = house_settings(
        then=(*CALL_SETTINGS, *END_SETTINGS),
        rounds=10,
        deck="32",
        jokers=2,
        call_bonus=-3,
        call_penalty=20,
    )
    settled = (
        gettext_noop(
            "A caller who has as few points as someone else (a tie) is not right: hand + 20."
        ),
    )
    rules = {
        "setup": gettext_noop(
            "32 cards (ace, 7 to king) and 2 jokers. Each player gets 4 cards face down and "
            "looks at two of them; the other two stay unknown."
        ),
        "turn": TURN,
        "quick_discard": QUICK_DISCARD,
        "call": gettext_noop(
            "Saying “{call}” announces the last turn of the round: you think you have fewer "
            "points than everyone else. There is no threshold."
        ),
        "scoring": gettext_noop(
            "A caller with strictly fewer points than everyone else scores {bonus} instead of "
            "their hand. If someone has as few or fewer, the caller scores their hand + "
            "{penalty}. The others score their hand."
        ),
        "end": gettext_noop("The lowest total wins."),
    }
    powers = (
        Power(("9",), gettext_noop("Look at one of your own cards.")),
        Power(("10",), gettext_noop("Look at one card of an opponent.")),
        Power(("J",), gettext_noop("Swap one of your cards with an opponent's, blind.")),
        Power(
            ("Q",),
            gettext_noop(
                "Look at an opponent's card and swap it with one of yours if you like, "
                "showing them to that opponent."
            ),
        ),
    )
    example = {
        "players": ["Léa", "Marc", "Nina"],
        "round": {
            "hands": {"Léa": ["JOKER", "KH", "AS"], "Marc": ["QS", "JC"], "Nina": ["7D", "8D"]},
            "caller": "Léa",
        },
    }
    decisions = (
        gettext_noop("Saying Koubo announces the last turn of the round, not of the game."),
        gettext_noop("The round is won by the lowest hand, a failed caller included."),
        gettext_noop(
            "Played with 52 cards, Koubo keeps its values for jacks, queens, kings and jokers; "
            "the 2 to 6 count their face value."
        ),
    )

    def score(self, play: Play) -> Outcome:
        if play.caller is None:
            return no_caller(play)
        caller, total = play.caller, play.t(play.caller)
        scores = dict(play.totals)
        succeeded = play.strictly_lowest(caller)
        if succeeded:
            scores[caller] = self.call_bonus
            template = gettext_noop(
                "{caller} called {call} with {total} and was strictly lowest: "
                "{bonus} in place of the hand total."
            )
        else:
            scores[caller] = total + self.call_penalty
            template = gettext_noop(
                "{caller} called {call} with {total} but was not strictly lowest: "
                "{total} + {penalty} = {score}."
            )
        notes = [
            note(
                template,
                caller=caller,
                call=self.call_word,
                total=total,
                bonus=self.call_bonus,
                penalty=self.call_penalty,
                score=scores[caller],
            ),
            note(gettext_noop("The others score their hand totals.")),
        ]
        # The round is won by the lowest hands, the caller included
        # (docs/rules.md, Koubo charentais).
        return Outcome({p: scores[p] for p in play.order}, play.lowest(), succeeded, notes)
