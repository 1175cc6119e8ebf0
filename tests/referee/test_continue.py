"""Continuing a score sheet from a stored standing scores exactly as scoring the whole game
again: the referee's entry point for work proportional to the change."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.referee.engine import (
    GameEntry,
    GameError,
    RoundEntry,
    continue_game,
    extend_sheet,
    progress_after,
    progress_of,
    score_game,
)
from tests.strategies import PROPERTY_SETTINGS, games, house_games

pytestmark = pytest.mark.no_database


def check_every_split(game: GameEntry, split: int) -> None:
    whole = score_game(game)
    split = min(split, len(game.rounds))
    before = score_game(replace(game, rounds=game.rounds[:split]))
    assert extend_sheet(before, game, game.rounds[split:]) == whole
    results, after = continue_game(game, progress_of(before), game.rounds[split:])
    assert results == whole.rounds[split:]
    assert after == progress_of(whole)
    # One round at a time, as the app saves them.
    sheet = score_game(replace(game, rounds=()))
    for entry in game.rounds:
        sheet = extend_sheet(sheet, game, [entry])
    assert sheet == whole


def check_standing_read_back(game: GameEntry, split: int) -> None:
    """The standing after any round, read from the whole sheet's results, is the standing of
    the game scored up to that round: a correction is scored on from it."""
    whole = score_game(game)
    split = min(split, len(game.rounds))
    before = score_game(replace(game, rounds=game.rounds[:split]))
    assert progress_after(whole, split) == progress_of(before)
    # A correction of round split + 1, scored on from there, is the game scored again.
    results, after = continue_game(game, progress_after(whole, split), game.rounds[split:])
    assert whole.rounds[:split] + results == whole.rounds and after == progress_of(whole)


@PROPERTY_SETTINGS
@given(games(), st.integers(0, 40))
def test_the_standing_after_a_round_reads_back_from_the_sheet(game, split):
    check_standing_read_back(game, split)


@PROPERTY_SETTINGS
@given(house_games(), st.integers(0, 40))
def test_the_standing_after_a_round_reads_back_with_house_settings(game, split):
    check_standing_read_back(game, split)


@PROPERTY_SETTINGS
@given(games(), st.integers(0, 40))
def test_continuing_a_variant_equals_scoring_it_again(game, split):
    check_every_split(game, split)


@PROPERTY_SETTINGS
@given(house_games(), st.integers(0, 40))
def test_continuing_with_house_settings_equals_scoring_again(game, split):
    """Resets, limits, eliminations, agreed rounds, card values, calls."""
    check_every_split(game, split)


@given(
    st.lists(
        st.tuples(st.integers(1, 40), st.integers(1, 40), st.integers(1, 40)),
        max_size=8,
    ),
    st.integers(0, 8),
    st.booleans(),
)
@PROPERTY_SETTINGS
def test_continuing_a_tambouille_match_equals_scoring_it_again(counts, split, blocked):
    players = ("Ana", "Ben", "Chloé")
    rounds = tuple(RoundEntry(hands=dict(zip(players, c, strict=True))) for c in counts)
    game = GameEntry("tambouille", players, rounds, blocked_after=len(rounds) if blocked else None)
    if blocked and not rounds:
        return
    check_every_split(game, split)


def test_a_round_after_the_stored_end_is_refused_when_continuing():
    players = ("Ana", "Ben")
    first = RoundEntry(hands={"Ana": 5, "Ben": 7}, caller="Ana")
    game = GameEntry("tamalou", players, (first,), settings={"rounds": 1})
    sheet = score_game(game)
    with pytest.raises(GameError, match="ended after round 1"):
        extend_sheet(sheet, game, [first])


def test_continuing_checks_the_new_round_and_numbers_it_on():
    players = ("Ana", "Ben")
    game = GameEntry("tamalou", players, (RoundEntry(hands={"Ana": 5, "Ben": 7}),))
    sheet = score_game(game)
    with pytest.raises(GameError) as refused:
        extend_sheet(sheet, game, [RoundEntry(hands={"Ana": 5})])
    assert refused.value.round == 2 and refused.value.player == "Ben"
