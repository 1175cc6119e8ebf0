"""Dutch toulousain: a beaten dutcher draws one penalty card per player under him.

The rules as players read them: /rules/dutch_toulousain/ (rules_variant.html).
"""

from __future__ import annotations

from scoring.referee.notes import gettext_noop, note, plural_noop
from scoring.referee.variants.base import (
    END_SETTINGS,
    CardValues,
    Outcome,
    Play,
    Power,
    RedBlack,
    Variant,
    hand_totals_scored,
    house_settings,
)


class DutchToulousain(Variant):
    key = "dutch_toulousain"
    name = gettext_noop("Dutch toulousain")
    summary = gettext_noop(
        "A beaten dutcher draws a penalty card for each player under him; over {limit} ends "
        "the game."
    )
    call_word = "Dutch"
    values = CardValues(numbers=range(2, 11), A=1, J=11, Q=12, K=RedBlack(red=0, black=13))
    house_settings = house_settings(then=END_SETTINGS, limit=100)
    penalty_cards = True
    settled = (
        gettext_noop(
            "The dutcher's penalty cards count in the dutcher's hand for the round's scores and "
            "for its winner."
        ),
    )
    decisions = (
        gettext_noop(
            "Without a dutcher, a tie goes to the tied player who comes first in turn order."
        ),
        gettext_noop("The dutcher succeeds when nobody had fewer points: no penalty card."),
        gettext_noop(
            "Penalty cards are entered as cards, even when the hands are typed as totals."
        ),
    )
    rules = {
        "setup": gettext_noop(
            "Usually 3 to 6 players (2 works). 52 cards, no joker. Each player gets 4 cards "
            "face down and looks at two of them. The rest is the pile."
        ),
        "turn": gettext_noop(
            "Draw a card from the pile and look at it: discard it at once or swap it with one "
            "of your cards. A card with an effect applies it."
        ),
        "quick_discard": gettext_noop(
            "At any time a player may discard one or more cards of the same value as the card "
            "just discarded. A wrong card: take a card from the pile as a penalty. A card you "
            "know in another player's hand may be discarded for them; you then give them one "
            "of your cards."
        ),
        "call": gettext_noop(
            "Say “{call}” at the end of your turn: your hand is frozen (no discards, no "
            "attacks on you) and the others play one last turn."
        ),
        "scoring": gettext_noop(
            "Dutch capoté: for each player with strictly fewer points than the dutcher, the "
            "dutcher draws a penalty card, which counts in their hand. Everyone scores their "
            "hand. The round is won by the lowest hand; a tie with the dutcher goes to the "
            "dutcher, any other tie to the first tied player after the dutcher in turn order. "
            "The dutcher deals the next round and the round winner plays first."
        ),
        "end": gettext_noop("The lowest total wins."),
    }
    powers = (
        Power(
            ("J",),
            gettext_noop(
                "You must swap 2 cards: between two other players, or between you and another "
                "player."
            ),
        ),
        Power(("Q",), gettext_noop("Look at one card of any player, yourself included.")),
        Power(
            ("K",),
            gettext_noop("You must give the top card of the pile to the player of your choice."),
            colour="red",
        ),
        Power(("K",), gettext_noop("No effect."), colour="black"),
    )
    example = {
        "players": ["Léa", "Marc", "Nina", "Omar"],
        "round": {
            "hands": {"Léa": ["6C"], "Marc": ["3H"], "Nina": ["KH", "2S"], "Omar": ["10S", "JS"]},
            "caller": "Léa",
            "penalty_cards": ["4D", "QC"],
        },
    }

    def penalty_cards_due(self, play: Play) -> int:
        """Dutch capoté: one card for each player strictly under the dutcher's hand."""
        if play.caller is None:
            return 0
        return len(play.beaten_by(play.caller, strictly=True))

    def score(self, play: Play) -> Outcome:
        notes = []
        succeeded = None
        if play.caller is not None:
            succeeded = not play.penalty_cards
            if play.penalty_cards:
                notes.append(
                    note(
                        plural_noop(
                            "Dutch capoté: {count} player had fewer points than {caller}, "
                            "who drew {cards}; it counts in the dutcher's hand: {total}.",
                            "Dutch capoté: {count} players had fewer points than {caller}, "
                            "who drew {cards}; they count in the dutcher's hand: {total}.",
                        ),
                        count=len(play.penalty_cards),
                        caller=play.caller,
                        cards=tuple(play.penalty_cards),
                        total=play.t(play.caller),
                    )
                )
            else:
                notes.append(
                    note(
                        gettext_noop(
                            "{caller} called {call} with {total} and nobody had fewer: "
                            "no penalty card."
                        ),
                        caller=play.caller,
                        call=self.call_word,
                        total=play.t(play.caller),
                    )
                )
        notes.append(note(gettext_noop("Everyone scores their hand total.")))
        return Outcome(hand_totals_scored(play), [self.round_winner(play)], succeeded, notes)

    def round_winner(self, play: Play) -> str:
        """Lowest hand; a tie goes to the dutcher, else to the first tied after him."""
        tied = play.lowest()
        if play.caller in tied:
            return play.caller
        start = play.order.index(play.caller) + 1 if play.caller else 0
        turn = play.order[start:] + play.order[:start]
        return next(p for p in turn if p in tied)

    def next_deal(self, rotation: tuple[str, str], caller: str | None, winners: list[str]):
        """The dutcher deals the next round and the round winner plays first."""
        return (caller, winners[0]) if caller else rotation
