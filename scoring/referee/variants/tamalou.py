"""Tamalou classique.

The rules as players read them: /rules/tamalou/ (rules_variant.html).
"""

from __future__ import annotations

from scoring.referee.house import CALL_THRESHOLD, JOKER_VALUE
from scoring.referee.notes import gettext_noop, names, note, plural_noop
from scoring.referee.variants.base import (
    CALL_SETTINGS,
    END_SETTINGS,
    MISUSED_POWER,
    QUICK_DISCARD,
    TAMALOU_POWERS,
    TURN,
    CardValues,
    Outcome,
    Play,
    RedBlack,
    Variant,
    call_succeeds,
    caller_or_lowest_others,
    failed_call_note,
    house_settings,
    no_caller,
    why_caller_failed,
)


class Tamalou(Variant):
    key = "tamalou"
    name = gettext_noop("Tamalou (classic)")
    summary = gettext_noop(
        "Call with {threshold} or less; if you are not strictly lowest you score your hand "
        "and everyone at or under you scores 0."
    )
    call_word = "Tamalou"
    values = CardValues(numbers=range(2, 11), A=1, J=10, Q=10, K=RedBlack(red=0, black=15), JOKER=0)
    house_settings = house_settings(
        CALL_THRESHOLD, JOKER_VALUE, then=(*CALL_SETTINGS, *END_SETTINGS), jokers=2
    )
    rules = {
        "setup": gettext_noop(
            "52 cards and 2 jokers, 2 to 8 players. The dealer gives each player 4 cards face "
            "down, laid out in a square that never changes. Each player looks once at the two "
            "cards nearest to them, then puts them back face down. The rest is the draw pile; "
            "its top card, turned over, starts the discard pile. The player after the dealer "
            "starts."
        ),
        "turn": TURN,
        "quick_discard": QUICK_DISCARD,
        "call": gettext_noop(
            "When you think your hand is worth {threshold} or less, call “{call}” at the start "
            "of your turn instead of playing. Every other player plays one last turn, then "
            "everyone shows their cards. A player who got rid of all their cards must call at "
            "their next turn."
        ),
        "scoring": gettext_noop(
            "A caller with {threshold} or less and strictly fewer points than everyone else "
            "scores {bonus}, and the others score their hand. Otherwise the call fails: the caller "
            "scores their hand, every player with as many points as the caller or fewer "
            "scores 0, and the rest score their hand. A tie is never a success for the caller."
        ),
        "end": gettext_noop(
            "The table agrees on a number of rounds before playing, or plays until it decides "
            "to stop. The lowest total wins; tied players share the win."
        ),
    }
    powers = TAMALOU_POWERS
    power_rules = (MISUSED_POWER,)
    settled = (
        gettext_noop(
            "The texts disagree on jokers: played here with 2 jokers worth 0 (one text counts "
            "them 20; the joker value is a house setting)."
        ),
        gettext_noop(
            "A caller tied with another player always loses; every player with as many points "
            "as the caller or fewer scores 0."
        ),
    )
    example = {
        "players": ["Léa", "Marc", "Nina"],
        "round": {
            "hands": {"Léa": ["KD", "3C"], "Marc": ["10H", "QS", "2D"], "Nina": ["4S", "AH"]},
            "caller": "Léa",
        },
    }

    def score(self, play: Play) -> Outcome:
        if play.caller is None:
            return no_caller(play)
        caller, total = play.caller, play.t(play.caller)
        if call_succeeds(self, play):
            scores = {p: (self.call_bonus if p == caller else play.t(p)) for p in play.order}
            notes = [
                note(
                    plural_noop(
                        "{caller} called {call} with {total} and was strictly lowest: "
                        "{bonus} point; the others score their hand totals.",
                        "{caller} called {call} with {total} and was strictly lowest: "
                        "{bonus} points; the others score their hand totals.",
                    ),
                    caller=caller,
                    call=self.call_word,
                    total=total,
                    bonus=self.call_bonus,
                    count=abs(int(self.call_bonus)),
                )
            ]
            return Outcome(scores, [caller], True, notes)

        at_or_under = play.beaten_by(caller, strictly=False)
        scores = {p: (0 if p in at_or_under else play.t(p)) for p in play.order if p != caller}
        scores[caller] = total + self.call_penalty
        notes = [
            why_caller_failed(self, play),
            failed_call_note(caller, total, self.call_penalty, scores[caller]),
        ]
        if at_or_under:
            notes.append(
                note(
                    gettext_noop("{players}: as few points as the caller or fewer, so 0 points."),
                    players=names(at_or_under),
                )
            )
        notes.append(note(gettext_noop("The others score their hand totals.")))
        ordered = {p: scores[p] for p in play.order}
        return Outcome(ordered, caller_or_lowest_others(play, False), False, notes)
