"""Short ways to write worked hands in tests: ``hand("KH QD 3S")`` or a typed total."""

from __future__ import annotations

import asyncio
import json
import random
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

from scoring.referee.cards import parse_card
from scoring.referee.engine import GameEntry, Penalty, RoundEntry, ScoreSheet, score_game

ROOT = Path(__file__).resolve().parent.parent  # the repository
EXAMPLES = ROOT / "tests" / "examples"  # worked games and their expected score sheets

# The table's answer when the round form asks whether nobody called a round (a variant whose
# rounds end with a call, saved with nobody as the caller: HandsForm.caller_forgotten). Posted
# with a round that nobody called, as the button under the question posts it.
NOBODY_CALLED = {"nobody_called": "1"}


def hand(spec: str | int | float | Fraction):
    if isinstance(spec, str):
        return tuple(parse_card(code) for code in spec.split())
    return spec


def rnd(hands: dict, caller=None, counter=None, emptied=(), penalties=(), penalty_cards=""):
    return RoundEntry(
        hands={player: hand(spec) for player, spec in hands.items()},
        caller=caller,
        counter_caller=counter,
        emptied=tuple(emptied),
        penalties=tuple(Penalty(*p) for p in penalties),
        penalty_cards=hand(penalty_cards) if penalty_cards else (),
    )


def play(variant: str, players: str, *rounds: RoundEntry, **settings) -> ScoreSheet:
    """Score a game; ``players`` is a space-separated list of names."""
    return score_game(GameEntry(variant, tuple(players.split()), tuple(rounds), settings))


def last(sheet: ScoreSheet):
    return sheet.rounds[-1]


def F(value) -> Fraction:
    return Fraction(value)


def exported_as(exported: str | bytes, game) -> dict:
    """An exported game file without its ``id``, which must be the game's own."""
    data = json.loads(exported)
    assert data.pop("id") == game.uid
    return data


def off_the_loop(call):
    """``call()`` in a thread of its own: a browser test earlier in this process may have left
    Playwright's event loop running in the test thread, where asyncio.run and async_to_sync
    refuse to run."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call).result()


def run_async(coroutine):
    """``asyncio.run(coroutine)``, off the test thread's loop (``off_the_loop``)."""
    return off_the_loop(lambda: asyncio.run(coroutine))


# The players of ``evening_game``.
PLAYERS = ["Léa", "Marc", "Nina", "Omar", "Paul", "Zoé", "Inès", "Hugo"]


def evening_game(rounds: int = 30, seed: int = 7):
    """A tamalou game of ``rounds`` rounds, 8 players, 4 cards each, a caller every round,
    stored as the app stores a game file."""
    from scoring.referee import gamefile
    from scoring.referee.variants import VARIANTS
    from scoring.store.models import Game

    rng = random.Random(seed)
    deck = list(VARIANTS["tamalou"]().deck())
    entries = []
    for number in range(1, rounds + 1):
        cards = rng.sample(deck, len(PLAYERS) * 4)
        hands = {p: [c.code for c in cards[i * 4 : i * 4 + 4]] for i, p in enumerate(PLAYERS)}
        data = {"hands": hands, "caller": rng.choice(PLAYERS)}
        entries.append(gamefile.round_from_json(data, number))
    return Game.objects.store(GameEntry("tamalou", tuple(PLAYERS), tuple(entries)))
