"""Games for the benchmarks: a full evening, 30 rounds of 8 players entered as cards."""

from __future__ import annotations

import random

from scoring.games.models import Game
from scoring.referee import gamefile
from scoring.referee.engine import GameEntry
from scoring.referee.variants import VARIANTS

PLAYERS = ["Léa", "Marc", "Nina", "Omar", "Paul", "Zoé", "Inès", "Hugo"]


def evening_game(rounds: int = 30, seed: int = 7) -> Game:
    """A tamalou game of ``rounds`` rounds, 8 players, 4 cards each, a caller every round."""
    rng = random.Random(seed)
    deck = list(VARIANTS["tamalou"]().deck())
    entries = []
    for number in range(1, rounds + 1):
        cards = rng.sample(deck, len(PLAYERS) * 4)
        hands = {p: [c.code for c in cards[i * 4 : i * 4 + 4]] for i, p in enumerate(PLAYERS)}
        data = {"hands": hands, "caller": rng.choice(PLAYERS)}
        entries.append(gamefile.round_from_json(data, number))
    # Stored as the app stores a game file: its summary and score sheet kept with it.
    return Game.objects.store(GameEntry("tamalou", tuple(PLAYERS), tuple(entries)))
