"""Generated games for the property tests (hypothesis): any variant, optionally with house
settings, and the settings the tests run them under."""

from __future__ import annotations

import os
from fractions import Fraction

from hypothesis import settings
from hypothesis import strategies as st

from scoring.referee.cards import JOKER
from scoring.referee.engine import GameEntry, Penalty, RoundEntry, score_game
from scoring.referee.variants import VARIANTS
from scoring.referee.variants.base import DECK_RANKS

NAMES = ["Léa", "Marc", "Nina", "Omar", "Paul", "Zoé"]


# `make mutate` runs these once per mutant: fewer examples there, and the same ones each time
# (PROPERTY_EXAMPLES set), so that a mutant's verdict does not depend on luck.
_MUTATION_RUN = "PROPERTY_EXAMPLES" in os.environ


PROPERTY_SETTINGS = settings(
    **({"max_examples": int(os.environ["PROPERTY_EXAMPLES"])} if _MUTATION_RUN else {}),
    derandomize=_MUTATION_RUN,
    database=None if _MUTATION_RUN else settings.default.database,
)


def hand_value(variant, hand) -> Fraction:
    if isinstance(hand, tuple):
        return sum((variant.value(card) for card in hand), Fraction(0))
    return Fraction(hand)


@st.composite
def games(draw, variant_keys=tuple(VARIANTS), house=None) -> GameEntry:
    """A valid game: each round is built for the players still in, until the game ends.
    ``house`` draws the house settings of a variant (none by default)."""
    key = draw(st.sampled_from(variant_keys))
    settings = draw(house(key)) if house else {}
    variant = VARIANTS[key](**settings)
    rng = draw(st.randoms(use_true_random=False))
    players = tuple(rng.sample(NAMES, draw(st.integers(2, 5))))
    rounds: list[RoundEntry] = []
    for _ in range(draw(st.integers(0, 6))):
        sheet = score_game(GameEntry(key, players, tuple(rounds), settings))
        if sheet.finished:
            break
        in_game = sheet.in_game
        deck = rng.sample(variant.deck(), len(variant.deck()))
        hands: dict[str, object] = {}
        for player in in_game:
            if draw(st.booleans()):
                size = draw(st.integers(0, 4))
                hands[player], deck = tuple(deck[:size]), deck[size:]
            else:
                step = Fraction(1, 2) if variant.half_points else 1
                low = max(variant.lowest_possible_hand / step, -60)
                high = min(variant.highest_possible_hand / step, 60)
                hands[player] = draw(st.integers(int(low), int(high))) * step
        caller = draw(st.none() | st.sampled_from(in_game))
        counter = None
        if variant.counter_call and caller and draw(st.booleans()):
            counter = draw(st.sampled_from([p for p in in_game if p != caller]))
        emptied = tuple(p for p in in_game if hands[p] in ((), 0))
        penalties = tuple(
            Penalty(p, draw(st.integers(1, 5)), "wrong quick discard")
            for p in in_game
            if draw(st.integers(0, 4)) == 0
        )
        penalty_cards: tuple = ()
        if variant.penalty_cards and caller:
            mine = hand_value(variant, hands[caller])
            due = sum(1 for p in in_game if hand_value(variant, hands[p]) < mine)
            penalty_cards, deck = tuple(deck[:due]), deck[due:]
        rounds.append(RoundEntry(hands, caller, counter, emptied, penalties, penalty_cards))
    return GameEntry(key, players, tuple(rounds), settings)


@st.composite
def draw_settings(draw, key: str) -> dict:
    """Some of the settings ``key`` takes, each with a legal value (card values for cards of
    the chosen deck, resets often low enough to be reached)."""
    rules = VARIANTS[key]
    taken = set(rules.defaults)
    settings: dict = {}

    def maybe(name: str, strategy) -> None:
        if name in taken and draw(st.booleans()):
            settings[name] = draw(strategy)

    maybe("deck", st.sampled_from(["52", "32"]))
    maybe("jokers", st.integers(0, 2))
    maybe("decks", st.integers(1, 2))
    maybe("call_bonus", st.integers(-100, 100))
    maybe("call_penalty", st.integers(0, 100))
    maybe("limit", st.none() | st.integers(10, 120))
    maybe("rounds", st.none() | st.integers(1, 8))
    reset = st.tuples(st.integers(1, 60), st.integers(-60, 60)).filter(lambda r: r[0] != r[1])
    maybe("reset", st.none() | reset.map(lambda r: {"at": r[0], "to": r[1]}))
    if "card_values" in taken and draw(st.booleans()):
        ranks = DECK_RANKS[settings.get("deck", rules.defaults["deck"])]
        jokers = settings.get("jokers", rules.defaults["jokers"])
        keys = [*ranks, *(r + suit for r in ranks for suit in "SHDC")]
        if jokers:
            keys.append(JOKER)
        step = Fraction(1, 2) if rules.half_points else 1
        worth = st.integers(-50 // step, 50 // step).map(lambda n: n * step)
        settings["card_values"] = draw(st.dictionaries(st.sampled_from(keys), worth, max_size=6))
    return settings


def house_games():
    return games(house=draw_settings)
