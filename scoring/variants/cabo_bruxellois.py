"""Cabo bruxellois, "Tamalou belge" (seed 000): red kings are −2, a missed Cabo costs 10."""

from __future__ import annotations

from fractions import Fraction

from scoring.notes import Note, gettext_noop, note
from scoring.variants.base import (
    ZERO,
    CardValues,
    Outcome,
    Play,
    RedBlack,
    Variant,
    caller_or_lowest_others,
)

MISSED_CABO = Fraction(10)


class CaboBruxellois(Variant):
    key = "cabo_bruxellois"
    name = gettext_noop("Cabo bruxellois (Belgian Tamalou)")
    summary = gettext_noop(
        "Red kings are worth −2; a Cabo over 5 costs the caller 10 alone; "
        "a beaten caller pays the difference."
    )
    call_word = "Cabo"
    values = CardValues(numbers=range(2, 11), A=1, J=11, Q=12, K=RedBlack(red=-2, black=13))
    defaults = {"rounds": None, "call_threshold": 5, "decks": 1}
    decisions = (
        gettext_noop(
            "A caller tied with another player pays no difference but the Cabo is not a success."
        ),
        gettext_noop("The caller's round score never goes under 0."),
        gettext_noop("Without a caller, everyone scores their hand total, a negative one as 0."),
    )

    def score(self, play: Play) -> Outcome:
        caller = play.caller
        if caller is not None and play.t(caller) > self.threshold:
            return self.missed_cabo(play)

        # 1. Everyone scores his hand total, a negative total counting as 0.
        scores = {p: max(play.t(p), ZERO) for p in play.order}
        notes: list[Note] = [
            note(gettext_noop("Everyone scores their hand total; a negative total counts as 0."))
        ]
        if caller is None:
            return Outcome(scores, play.lowest(), None, notes)

        total = play.t(caller)
        # 2. A negative caller gives his points to everybody else.
        if total < 0:
            for p in play.others(caller):
                scores[p] += -total
            notes.append(
                note(
                    gettext_noop(
                        "{caller} called {call} with {total}: 0 points, and every other "
                        "player gets {gift} more."
                    ),
                    caller=caller,
                    call=self.call_word,
                    total=total,
                    gift=-total,
                )
            )
        # 3. Beaten by someone: the caller pays the difference with the lowest hand.
        beaten_by = play.beaten_by(caller, strictly=True)
        if beaten_by:
            lowest = min(play.t(p) for p in beaten_by)
            scores[caller] = max(total + (total - lowest), ZERO)
            notes.append(
                note(
                    gettext_noop(
                        "{caller} called {call} with {total} but someone had {lowest}: "
                        "{total} + ({total} - {lowest}) = {score}."
                    ),
                    caller=caller,
                    call=self.call_word,
                    total=total,
                    lowest=lowest,
                    score=scores[caller],
                )
            )
        succeeded = play.strictly_lowest(caller)
        return Outcome(scores, caller_or_lowest_others(play, succeeded), succeeded, notes)

    def missed_cabo(self, play: Play) -> Outcome:
        caller = play.caller
        scores = {p: (MISSED_CABO if p == caller else ZERO) for p in play.order}
        notes = [
            note(
                gettext_noop(
                    "Missed Cabo: {caller} called with {total}, over {threshold}. "
                    "{caller} scores 10, everyone else 0."
                ),
                caller=caller,
                total=play.t(caller),
                threshold=self.threshold,
            )
        ]
        return Outcome(scores, caller_or_lowest_others(play, False), False, notes)
