"""Games for the benchmarks: a full evening, 30 rounds of 8 players entered as cards."""

from __future__ import annotations

import random

from scoring.games.models import Game, Round
from scoring.referee.variants import VARIANTS

PLAYERS = ["Léa", "Marc", "Nina", "Omar", "Paul", "Zoé", "Inès", "Hugo"]


def evening_game(rounds: int = 30, seed: int = 7) -> Game:
    """A tamalou game of ``rounds`` rounds, 8 players, 4 cards each, a caller every round."""
    rng = random.Random(seed)
    deck = list(VARIANTS["tamalou"]().deck())
    game = Game.objects.create(variant="tamalou", players=PLAYERS)
    entries = []
    for position in range(1, rounds + 1):
        cards = rng.sample(deck, len(PLAYERS) * 4)
        hands = {p: [c.code for c in cards[i * 4 : i * 4 + 4]] for i, p in enumerate(PLAYERS)}
        entries.append(
            Round(
                game=game, position=position, data={"hands": hands, "caller": rng.choice(PLAYERS)}
            )
        )
    Round.objects.bulk_create(entries)
    game.save_summary()  # as every write through the app keeps it
    return game
