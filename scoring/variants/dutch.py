"""Dutch (seed 000): everyone scores their hand; 100 knocks you out; last one in wins."""

from __future__ import annotations

from fractions import Fraction

from scoring.notes import gettext_noop, note
from scoring.variants.base import (
    CardValues,
    Outcome,
    Play,
    RedBlack,
    Standing,
    Variant,
    hand_totals_scored,
    no_caller,
)

KNOCKOUT = Fraction(100)


class Dutch(Variant):
    key = "dutch"
    name = gettext_noop("Dutch")
    summary = gettext_noop(
        "Everyone scores their hand; reaching 100 knocks you out; the last player in wins."
    )
    call_word = "Dutch"
    values = CardValues(numbers=range(2, 11), A=1, J=11, Q=12, K=RedBlack(red=0, black=20))
    defaults = {"rounds": None, "decks": 1}
    decisions = (
        gettext_noop("Players who go out in the same round are listed in turn order."),
        gettext_noop("The call succeeds when the caller has strictly the lowest hand."),
    )

    def score(self, play: Play) -> Outcome:
        if play.caller is None:
            return no_caller(play)
        caller = play.caller
        notes = [
            note(
                gettext_noop(
                    "{caller} called {call} with {total}: everyone, caller included, "
                    "scores their hand total."
                ),
                caller=caller,
                call=self.call_word,
                total=play.t(caller),
            )
        ]
        return Outcome(hand_totals_scored(play), play.lowest(), play.strictly_lowest(caller), notes)

    def knocked_out(self, standing: Standing) -> list[str]:
        return [p for p in standing.in_game if standing.totals[p] >= KNOCKOUT]

    def game_over(self, standing: Standing) -> bool:
        return len(standing.in_game) < 2

    def game_winners(self, standing: Standing) -> list[str]:
        if standing.in_game:
            return super().game_winners(standing)
        # Everybody left went out together: the closest to 100 wins.
        last_out = standing.knocked_out_last_round
        low = min(standing.totals[p] for p in last_out)
        return [p for p in last_out if standing.totals[p] == low]
