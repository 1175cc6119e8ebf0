"""Gabo: Tamalou with a call threshold of 7.

The rules as players read them: /rules/gabo/ (rules_variant.html).
"""

from __future__ import annotations

from scoring.referee.house import CALL_THRESHOLD, JOKER_VALUE
from scoring.referee.notes import gettext_noop
from scoring.referee.variants.base import CALL_SETTINGS, END_SETTINGS, house_settings
from scoring.referee.variants.tamalou import Tamalou


class Gabo(Tamalou):
    key = "gabo"
    name = gettext_noop("Gabo")
    summary = gettext_noop("Tamalou's scoring, but you may call Gabo with {threshold} or less.")
    call_word = "Gabo"
    house_settings = house_settings(
        CALL_THRESHOLD,
        JOKER_VALUE,
        then=(*CALL_SETTINGS, *END_SETTINGS),
        jokers=2,
        call_threshold=7,
    )
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
