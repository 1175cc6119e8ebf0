"""Gabo: Tamalou with a call threshold of 7.

The rules as players read them: /rules/gabo/ (rules_variant.html).
"""

from __future__ import annotations

from scoring.referee.house import CALL_THRESHOLD, DECKS, JOKER_VALUE, ROUNDS
from scoring.referee.notes import gettext_noop
from scoring.referee.variants.tamalou import Tamalou


class Gabo(Tamalou):
    key = "gabo"
    name = gettext_noop("Gabo")
    summary = gettext_noop("Tamalou's scoring, but you may call Gabo with 7 or less.")
    call_word = "Gabo"
    house_settings = (ROUNDS, CALL_THRESHOLD.but(default=7), JOKER_VALUE, DECKS)
    settled = (
        gettext_noop(
            "Gabo is played with Tamalou's deck and values, jokers included; only the call "
            "threshold differs (7)."
        ),
    )
    example = {
        "players": ["Léa", "Marc"],
        "round": {"hands": {"Léa": ["6S", "AD"], "Marc": ["8C"]}, "caller": "Léa"},
    }
