"""Tambouille: a word game with 123 letter cards and no points (docs/rules.md, Tambouille).

The companion keeps a match sheet, not a score sheet: after each turn round (every player
has played once) the table notes how many cards each player still holds. The match ends
after the first turn round in which somebody holds none (everyone at 0 wins, a draw is
possible), or when the table declares it blocked (the fewest cards left win, ties share).

The rules as players read them: /rules/tambouille/ (rules_tambouille.html).
"""

from __future__ import annotations

from collections.abc import Mapping

from scoring.referee.house import HouseRules, HouseSetting
from scoring.referee.notes import gettext_noop

CARDS = 123  # letter cards in the box
DEALT = 120  # dealt evenly; the other 3 are set aside face up
SHORT = HouseSetting(
    "short",
    "flag",
    default=False,
    label=gettext_noop("Short version"),
    help=gettext_noop("Half the cards are dealt."),
)
TURN_SECONDS = 120  # the thinking time of a turn, unless the table sets another
TURN_CHOICES = (30, 60, 90, 120, 180, 300)  # the times a table may set


class Tambouille(HouseRules):
    """A Tambouille match with its house settings applied."""

    key = "tambouille"
    name = "Tambouille"
    summary = gettext_noop("A word game with letter cards: a different game, without points.")
    house_settings = (SHORT,)
    min_players = 2
    max_players = 4
    # What the match sheet decided, shown on the rules page.
    decisions = (
        gettext_noop(
            "120 of the 123 cards are dealt evenly: 60 each with 2 players, 40 with 3, 30 "
            "with 4; the short version deals half (30, 20, 15)."
        ),
        gettext_noop(
            "The dealer's neighbour plays first, and the turns go round in the order of the "
            "players; each turn has 2 minutes of thinking time (the table may choose another)."
        ),
        gettext_noop(
            "After each turn round, the table notes how many cards each player still holds "
            "(hand and pile): a whole number from 0 to 123."
        ),
        gettext_noop(
            "The match ends after the first turn round in which somebody holds no card: "
            "everyone at 0 wins together."
        ),
        gettext_noop(
            "When nobody can play any more, the table declares the match blocked: the fewest "
            "cards left win, and players tied share the win."
        ),
    )

    def dealt(self, players: int) -> int:
        """The cards each player is dealt."""
        each = DEALT // players
        return each // 2 if self.settings["short"] else each

    @staticmethod
    def fewest(counts: Mapping[str, int]) -> list[str]:
        """The players holding the fewest cards (several when tied), in turn order."""
        low = min(counts.values())
        return [p for p, count in counts.items() if count == low]

    @staticmethod
    def emptied(counts: Mapping[str, int]) -> list[str]:
        """The players who hold no card: the match ends with them as winners."""
        return [p for p, count in counts.items() if count == 0]
