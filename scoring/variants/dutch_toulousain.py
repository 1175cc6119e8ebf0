"""Dutch toulousain (seed 000): a beaten dutcher draws one penalty card per player under him."""

from __future__ import annotations

from fractions import Fraction

from scoring.notes import gettext_noop, names, note
from scoring.variants.base import (
    CardValues,
    Outcome,
    Play,
    RedBlack,
    Standing,
    Variant,
    hand_totals_scored,
)

END_OVER = Fraction(100)


class DutchToulousain(Variant):
    key = "dutch_toulousain"
    name = gettext_noop("Dutch toulousain")
    summary = gettext_noop(
        "A beaten dutcher draws a penalty card for each player under him; over 100 ends the game."
    )
    call_word = "Dutch"
    values = CardValues(numbers=range(2, 11), A=1, J=11, Q=12, K=RedBlack(red=0, black=13))
    defaults = {"rounds": None, "decks": 1}
    penalty_cards = True
    decisions = (
        gettext_noop(
            "Without a dutcher, a tie goes to the tied player who comes first in turn order."
        ),
        gettext_noop("The dutcher succeeds when nobody had fewer points: no penalty card."),
        gettext_noop(
            "Penalty cards are entered as cards, even when the hands are typed as totals."
        ),
    )

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
                        gettext_noop(
                            "Dutch capoté: {count} player(s) had fewer points than {caller}, "
                            "who drew {cards}; they count in the dutcher's hand: {total}."
                        ),
                        count=len(play.penalty_cards),
                        caller=play.caller,
                        cards=names(str(card) for card in play.penalty_cards),
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

    def game_over(self, standing: Standing) -> bool:
        return any(standing.totals[p] > END_OVER for p in standing.order)
