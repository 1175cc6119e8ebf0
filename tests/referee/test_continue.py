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


DUTCH_OUTS = GameEntry(
    "dutch",
    ("Ana", "Ben", "Chloé", "Dan"),
    (
        RoundEntry(hands={"Ana": 40, "Ben": 10, "Chloé": 3, "Dan": 60}),
        RoundEntry(hands={"Ana": 70, "Ben": 10, "Chloé": 3, "Dan": 2}),  # Ana out (110)
        RoundEntry(hands={"Ben": 5, "Chloé": 1, "Dan": 50}),  # Dan out (112)
        RoundEntry(hands={"Ben": 4, "Chloé": 2}),
    ),
)


@pytest.mark.parametrize("split", range(len(DUTCH_OUTS.rounds) + 1))
def test_a_correction_after_players_went_out_is_scored_from_who_was_still_in(split):
    """Dutch (docs/rules.md): a player whose total reaches 100 is out and plays no more
    rounds; correcting any round scores on with the players still in before it."""
    sheet = score_game(DUTCH_OUTS)
    assert sheet.eliminated == ["Ana", "Dan"] and not sheet.finished
    check_standing_read_back(DUTCH_OUTS, split)
    standing = progress_after(sheet, split)
    out = {0: (), 1: (), 2: ("Ana",), 3: ("Ana", "Dan"), 4: ("Ana", "Dan")}[split]
    assert standing.eliminated == out
    assert standing.in_game == tuple(p for p in DUTCH_OUTS.players if p not in out)
    assert standing.knocked_out_last_round == {2: ("Ana",), 3: ("Dan",)}.get(split, ())
    assert standing.number == split
    assert standing.totals == (
        dict(sheet.rounds[split - 1].totals) if split else dict.fromkeys(DUTCH_OUTS.players, 0)
    )


def test_a_correction_of_the_last_round_of_a_finished_game_starts_from_the_round_before():
    game = GameEntry(
        "dutch",
        ("Ana", "Ben"),
        (
            RoundEntry(hands={"Ana": 40, "Ben": 10}),
            RoundEntry(hands={"Ana": 70, "Ben": 10}),  # Ana out: Ben wins
        ),
    )
    sheet = score_game(game)
    assert sheet.finished and sheet.winners == ["Ben"]
    standing = progress_after(sheet, 1)
    assert not standing.finished and standing.winners == () and standing.in_game == ("Ana", "Ben")
    assert progress_after(sheet, 2) == progress_of(sheet)
    assert progress_after(sheet, 5) == progress_of(sheet)
