"""Fontenaysien: hands scored on a scale; 100 loses, −50 wins outright.

The rules as players read them: /rules/fontenaysien/ (rules_variant.html).
"""

from __future__ import annotations

from fractions import Fraction

from scoring.referee.house import CALL_THRESHOLD, JOKER_VALUE, HouseSetting
from scoring.referee.notes import gettext_noop, names, note
from scoring.referee.variants.base import (
    TAMALOU_POWERS,
    Landmark,
    Outcome,
    Play,
    Standing,
    Variant,
    call_succeeds,
    house_settings,
)
from scoring.referee.variants.tamalou import Tamalou

# (highest hand total, round score), read top-down; anything higher scores 30.
SCALE = ((0, -5), (5, 5), (10, 10), (15, 15))
OVER_SCALE = 30
EMPTIED = Fraction(-10)
LIMIT, HALF_GAME_LIMIT = Fraction(100), Fraction(50)
HALF_GAME = HouseSetting(
    "half_game",
    "flag",
    default=False,
    label=gettext_noop("Half game (ends at 50 and -25)"),
)


def on_scale(total: Fraction) -> Fraction:
    for highest, score in SCALE:
        if total <= highest:
            return Fraction(score)
    return Fraction(OVER_SCALE)


class Fontenaysien(Variant):
    key = "fontenaysien"
    name = gettext_noop("Fontenaysien")
    summary = gettext_noop(
        "Hands are scored on a scale (-5 to 30); 100 loses (50 in a half game), -50 wins."
    )
    call_word = "Tamalou"
    values = Tamalou.values
    emptying_ends_the_round = True  # a player who discards all their cards ends it at once
    house_settings = house_settings(CALL_THRESHOLD, JOKER_VALUE, HALF_GAME, jokers=2)
    decisions = (
        gettext_noop("The round is won by the lowest round score."),
        gettext_noop(
            "A hand total under 0 (possible only with a negative joker value) scores -5, as 0 does."
        ),
        gettext_noop(
            "The call is marked a success when the caller has 5 or less and strictly the "
            "lowest hand; no points depend on it."
        ),
    )
    rules = {
        **Tamalou.rules,
        "call": gettext_noop(
            "Call “{call}” with {threshold} or less; the others then play until it is the "
            "caller's turn again."
        ),
        "scoring": gettext_noop(
            "Each hand is scored on a scale: 0 scores -5, 1 to 5 scores 5, 6 to 10 scores 10, "
            "11 to 15 scores 15, over 15 scores 30. A player who discards all their cards "
            "scores -10 and the round ends at once. No bonus or penalty for the caller."
        ),
        "end": gettext_noop(
            "The first to reach 100 (50 in a half game) loses and the game ends. A player who "
            "reaches -50 (-25 in a half game) is the grand winner. The lowest total wins."
        ),
    }
    powers = TAMALOU_POWERS
    power_rules = Tamalou.power_rules
    settled = (
        gettext_noop(
            "Deck, card values and the call threshold (5) are Tamalou's; the game ends after the "
            "round in which a total reaches the limit, and those players lose."
        ),
    )
    example = {
        "players": ["Léa", "Marc", "Nina"],
        "round": {
            "hands": {"Léa": [], "Marc": ["KS", "9D"], "Nina": ["3H", "2H"]},
            "emptied": ["Léa"],
        },
    }

    @property
    def lose_at(self) -> Fraction:
        """100 (50 in a half game): a total this high loses and ends the game."""
        return HALF_GAME_LIMIT if self.settings["half_game"] else LIMIT

    @property
    def grand_win(self) -> Fraction:
        """-50 (-25 in a half game): a total this low wins outright."""
        return -self.lose_at / 2

    def landmarks(self) -> tuple[Landmark, ...]:
        return (
            Landmark(self.lose_at, note(gettext_noop("{total}: lost"), total=self.lose_at)),
            Landmark(self.grand_win, note(gettext_noop("{total}: won"), total=self.grand_win)),
        )

    def score(self, play: Play) -> Outcome:
        scores = {p: (EMPTIED if p in play.emptied else on_scale(play.t(p))) for p in play.order}
        notes = [
            note(
                gettext_noop(
                    "Scale: 0 or less scores -5, 1 to 5 scores 5, 6 to 10 scores 10, "
                    "11 to 15 scores 15, over 15 scores 30."
                )
            )
        ]
        emptied = [p for p in play.order if p in play.emptied]
        if emptied:
            notes.append(
                note(
                    gettext_noop("{players} got rid of all their cards: -10."),
                    players=names(emptied),
                )
            )
        succeeded = None if play.caller is None else call_succeeds(self, play)
        if play.caller is not None:
            notes.append(note(gettext_noop("No bonus or penalty for the caller.")))
        low = min(scores.values())
        winners = [p for p in play.order if scores[p] == low]
        return Outcome(scores, winners, succeeded, notes)

    def game_over(self, standing: Standing) -> bool:
        return any(
            standing.totals[p] >= self.lose_at or standing.totals[p] <= self.grand_win
            for p in standing.order
        )

    def game_losers(self, standing: Standing) -> list[str]:
        return [p for p in standing.order if standing.totals[p] >= self.lose_at]
