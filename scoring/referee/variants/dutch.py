"""Dutch: everyone scores their hand; 100 knocks you out; last one in wins.

The rules as players read them: /rules/dutch/ (rules_variant.html).
"""

from __future__ import annotations

from fractions import Fraction

from scoring.referee.notes import Note, gettext_noop, note
from scoring.referee.variants.base import (
    END_SETTINGS,
    SETUP_52,
    TURN,
    CardValues,
    Outcome,
    Play,
    Power,
    RedBlack,
    Standing,
    Variant,
    hand_totals_scored,
    house_settings,
    no_caller,
)


class Dutch(Variant):
    key = "dutch"
    name = gettext_noop("Dutch")
    summary = gettext_noop(
        "Everyone scores their hand; reaching {limit} knocks you out; the last player in wins."
    )
    call_word = "Dutch"
    values = CardValues(numbers=range(2, 11), A=1, J=11, Q=12, K=RedBlack(red=0, black=20))
    house_settings = house_settings(then=END_SETTINGS, limit=100)
    settled = (
        gettext_noop(
            "Reaching 100 exactly already knocks a player out. If the last players all reach "
            "100 in the same round, the one closest to 100 (the lowest total) wins; ties share."
        ),
    )
    decisions = (
        gettext_noop("Players who go out in the same round are listed in turn order."),
        gettext_noop(
            "Places: the winners first, then the players still in, then those out, each by "
            "total (among those out, one out earlier with fewer points is placed above one out "
            "later)."
        ),
        gettext_noop("The call succeeds when the caller has strictly the lowest hand."),
        gettext_noop(
            "House rules without a limit knock nobody out: the game ends after the agreed "
            "rounds or when the table ends it."
        ),
    )
    rules = {
        "setup": SETUP_52,
        "turn": TURN,
        "quick_discard": gettext_noop(
            "On your turn you may also lay a card from your square on the discard when it has "
            "the same value as the visible card (a 5 on a 5)."
        ),
        "call": gettext_noop("Any player may say “{call}” on their turn: the round stops at once."),
        "scoring": gettext_noop("Everyone scores their hand total, the caller included."),
        "end": gettext_noop(
            "The last player still in wins. If the last players all go out in the same round, "
            "the one with the lowest total wins."
        ),
    }
    powers = (
        Power(("7",), gettext_noop("Swap one of your cards with another player's.")),
        Power(("J",), gettext_noop("Look at one of your own cards.")),
        Power(("Q",), gettext_noop("Look at one card of an opponent.")),
    )
    example = {
        "players": ["Léa", "Marc", "Nina"],
        "round": {
            "hands": {"Léa": ["KS"], "Marc": ["QD", "JD"], "Nina": ["AH"]},
            "caller": "Nina",
        },
    }

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

    def limit_text(self, limit: Fraction) -> Note:
        return note(
            gettext_noop("A player whose total reaches {limit} is out and plays no more rounds."),
            limit=limit,
        )

    def limit_label(self, limit: Fraction) -> Note:
        return note(gettext_noop("{total}: out"), total=limit)

    def knocked_out(self, standing: Standing) -> list[str]:
        """Every player still in whose running total reached the limit (T ≥ limit)."""
        limit = self.limit
        if limit is None:
            return []
        return [p for p in standing.in_game if standing.totals[p] >= limit]

    def knocked_out_note(self, player: str, total: Fraction) -> Note:
        return note(
            gettext_noop("{player} has {total}, reaches {limit} and is out of the game."),
            player=player,
            total=total,
            limit=self.limit,
        )

    def game_over(self, standing: Standing) -> bool:
        return len(standing.in_game) < 2

    def game_winners(self, standing: Standing) -> list[str]:
        if standing.in_game:
            return super().game_winners(standing)
        # Everybody left went out together: the closest to 100 wins.
        last_out = standing.knocked_out_last_round
        low = min(standing.totals[p] for p in last_out)
        return [p for p in last_out if standing.totals[p] == low]
