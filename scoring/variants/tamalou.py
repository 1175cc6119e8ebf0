"""Tamalou classique (seeds 000, 001, 003)."""

from __future__ import annotations

from scoring.notes import gettext_noop, names, note
from scoring.variants.base import (
    CardValues,
    Outcome,
    Play,
    RedBlack,
    Variant,
    call_succeeds,
    caller_or_lowest_others,
    no_caller,
    why_caller_failed,
)


class Tamalou(Variant):
    key = "tamalou"
    name = gettext_noop("Tamalou (classic)")
    summary = gettext_noop(
        "Call with 5 or less; if you are not strictly lowest you score your hand "
        "and everyone at or under you scores 0."
    )
    call_word = "Tamalou"
    values = CardValues(numbers=range(2, 11), A=1, J=10, Q=10, K=RedBlack(red=0, black=15), JOKER=0)
    defaults = {"rounds": None, "call_threshold": 5, "joker_value": 0, "decks": 1}

    def score(self, play: Play) -> Outcome:
        if play.caller is None:
            return no_caller(play)
        caller, total = play.caller, play.t(play.caller)
        if call_succeeds(self, play):
            scores = {p: (0 if p == caller else play.t(p)) for p in play.order}
            notes = [
                note(
                    gettext_noop(
                        "{caller} called {call} with {total} and was strictly lowest: "
                        "0 points; the others score their hand totals."
                    ),
                    caller=caller,
                    call=self.call_word,
                    total=total,
                )
            ]
            return Outcome(scores, [caller], True, notes)

        at_or_under = play.beaten_by(caller, strictly=False)
        scores = {p: (0 if p in at_or_under else play.t(p)) for p in play.order if p != caller}
        scores[caller] = total
        notes = [
            why_caller_failed(self, play),
            note(
                gettext_noop("The call fails: {caller} scores the hand total, {total}."),
                caller=caller,
                total=total,
            ),
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
