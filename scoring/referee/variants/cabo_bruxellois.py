"""Cabo bruxellois, "Tamalou belge": red kings are −2, a missed Cabo costs 10.

The rules as players read them: /rules/cabo_bruxellois/ (rules_variant.html).
"""

from __future__ import annotations

from scoring.referee.house import CALL_PENALTY, CALL_THRESHOLD
from scoring.referee.notes import Note, gettext_noop, note
from scoring.referee.variants.base import (
    END_SETTINGS,
    TAMALOU_POWERS,
    ZERO,
    CardValues,
    Outcome,
    Play,
    RedBlack,
    Variant,
    caller_or_lowest_others,
    house_settings,
)


class CaboBruxellois(Variant):
    key = "cabo_bruxellois"
    name = gettext_noop("Cabo bruxellois (Belgian Tamalou)")
    summary = gettext_noop(
        "Red kings are worth −2; a Cabo over {threshold} costs the caller {penalty} alone; "
        "a beaten caller pays the difference."
    )
    call_word = "Cabo"
    values = CardValues(numbers=range(2, 11), A=1, J=11, Q=12, K=RedBlack(red=-2, black=13))
    house_settings = house_settings(
        CALL_THRESHOLD, then=(CALL_PENALTY.but(default=10), *END_SETTINGS)
    )
    decisions = (
        gettext_noop(
            "A caller tied with another player pays no difference but the Cabo is not a success."
        ),
        gettext_noop("The caller's round score never goes under 0."),
        gettext_noop(
            "The original rules give Cabo bruxellois no card powers of its own: this app shows "
            "Tamalou's."
        ),
        gettext_noop("Without a caller, everyone scores their hand total, a negative one as 0."),
    )
    rules = {
        "setup": gettext_noop(
            "52 cards, no joker; 4 cards face down for each player. At the start the players "
            "may look at their first two cards until they first draw."
        ),
        "turn": gettext_noop(
            "Draw from the pile, or take the discard, but only if nobody made a quick discard "
            "on it. Using a card's power is never compulsory."
        ),
        "quick_discard": gettext_noop(
            "A quick discard can only be a pair (the same rank); the fastest lays it. A player "
            "who throws a wrong card gets 2 penalty points but draws no card, and may not try "
            "another card."
        ),
        "call": gettext_noop(
            "To call “{call}” you do not draw: lay your cards sideways; nobody may take them. "
            "The others play until it is your turn again. Call with {threshold} or less."
        ),
        "scoring": gettext_noop(
            "Missed Cabo (caller over {threshold}): the caller scores {penalty}, everyone else "
            "0, and a new round starts. Otherwise everyone scores their hand, a negative hand "
            "counting as 0. A negative caller scores 0 and gives their points to every other "
            "player (-4 gives +4 to each). A caller beaten by someone pays the difference: "
            "their hand + (their hand - the lowest hand)."
        ),
        "end": gettext_noop(
            "As agreed before the game: a number of rounds, or until the table stops. The "
            "lowest total wins."
        ),
    }
    powers = TAMALOU_POWERS
    settled = (
        gettext_noop(
            "A missed Cabo costs the caller 10 and everyone else scores 0 for that round."
        ),
        gettext_noop(
            "A negative caller scores 0 and every other player adds the caller's negative "
            "points to their own hand."
        ),
    )
    example = {
        "players": ["Léa", "Marc", "Nina"],
        "round": {
            "hands": {"Léa": ["3D", "2D"], "Marc": ["KD", "KH"], "Nina": ["8C"]},
            "caller": "Léa",
        },
    }

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
        # 3. Beaten by someone: the caller pays the difference with the lowest hand; a
        # result below 0 counts as 0 (docs/rules.md, Cabo bruxellois), said with true arithmetic.
        beaten_by = play.beaten_by(caller, strictly=True)
        if beaten_by:
            lowest = min(play.t(p) for p in beaten_by)
            difference = total - lowest
            result = total + difference
            scores[caller] = max(result, ZERO)
            if result < 0:
                template = gettext_noop(
                    "{caller} called {call} with {total} but someone had {lowest}: "
                    "{total} + {difference} = {result}, counted as 0."
                )
            else:
                template = gettext_noop(
                    "{caller} called {call} with {total} but someone had {lowest}: "
                    "{total} + {difference} = {result}."
                )
            notes.append(
                note(
                    template,
                    caller=caller,
                    call=self.call_word,
                    total=total,
                    lowest=lowest,
                    difference=difference,
                    result=result,
                )
            )
        succeeded = play.strictly_lowest(caller)
        return Outcome(scores, caller_or_lowest_others(play, succeeded), succeeded, notes)

    def missed_cabo(self, play: Play) -> Outcome:
        caller = play.caller
        missed = self.call_penalty
        scores = {p: (missed if p == caller else ZERO) for p in play.order}
        notes = [
            note(
                gettext_noop(
                    "Missed Cabo: {caller} called with {total}, over {threshold}. "
                    "{caller} scores {penalty}, everyone else 0."
                ),
                caller=caller,
                total=play.t(caller),
                threshold=self.threshold,
                penalty=missed,
            )
        ]
        return Outcome(scores, caller_or_lowest_others(play, False), False, notes)
