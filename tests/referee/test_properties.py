"""Invariants of the referee, checked on many generated games (hypothesis)."""

from __future__ import annotations

import contextlib
import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.referee.engine import GameEntry, GameError, RoundEntry, score_game
from scoring.referee.gamefile import dumps, game_to_json, read_game, sheet_to_json
from tests.strategies import PROPERTY_SETTINGS, games

pytestmark = pytest.mark.no_database


@PROPERTY_SETTINGS
@given(games())
def test_totals_are_the_sums_of_the_round_scores(game):
    sheet = score_game(game)
    running = dict.fromkeys(game.players, Fraction(0))
    for result in sheet.rounds:
        for player, score in result.scores.items():
            running[player] += score
            if game.variant == "tamoul" and running[player] == 100:
                running[player] = Fraction(50)  # the one rule that changes a sum
                assert player in result.adjusted
        assert result.totals == running
    assert sheet.totals == running


@PROPERTY_SETTINGS
@given(games(), st.randoms())
def test_the_order_of_cards_in_a_hand_never_matters(game, random):
    def shuffled(hand):
        return tuple(random.sample(hand, len(hand))) if isinstance(hand, tuple) else hand

    reordered = GameEntry(
        game.variant,
        game.players,
        tuple(
            RoundEntry(
                {p: shuffled(h) for p, h in entry.hands.items()},
                entry.caller,
                entry.counter_caller,
                entry.emptied,
                entry.penalties,
                shuffled(entry.penalty_cards),
            )
            for entry in game.rounds
        ),
    )
    # Only the notes may differ: they list penalty cards in the order they were drawn.
    assert without_notes(score_game(reordered)) == without_notes(score_game(game))


def without_notes(sheet) -> dict:
    data = sheet_to_json(sheet)
    for result in data["rounds"]:
        result.pop("notes")
    return data


@PROPERTY_SETTINGS
@given(games())
def test_every_round_has_winners_and_explanations(game):
    for result in score_game(game).rounds:
        assert result.winners and set(result.winners) <= set(result.scores)
        assert result.notes and all("{" not in str(n) for n in result.notes)


@PROPERTY_SETTINGS
@given(games())
def test_export_then_import_gives_the_same_file_and_sheet(game):
    text = dumps(game_to_json(game))
    again = read_game(text)
    assert dumps(game_to_json(again)) == text
    assert sheet_to_json(score_game(again)) == sheet_to_json(score_game(game))


@PROPERTY_SETTINGS
@given(games())
def test_a_finished_game_names_its_winners(game):
    sheet = score_game(game)
    assert bool(sheet.winners) == sheet.finished
    assert set(sheet.losers) <= set(game.players)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["KH", "10S", "JOKER", "Léa", "Marc", "tamoul"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.text(max_size=6) | st.sampled_from(["hands", "caller"]), children, max_size=4
        )
    ),
    max_leaves=12,
)


def mutate(data, path_choices, replacement):
    """Replace one node of a JSON document, chosen by the path indexes drawn."""
    if not path_choices or not isinstance(data, dict | list) or not data:
        return replacement
    keys = list(data) if isinstance(data, dict) else list(range(len(data)))
    key = keys[path_choices[0] % len(keys)]
    copy = dict(data) if isinstance(data, dict) else list(data)
    copy[key] = mutate(data[key], path_choices[1:], replacement)
    return copy


@PROPERTY_SETTINGS
@given(games(), st.lists(st.integers(0, 50), max_size=6), JSON)
def test_a_damaged_game_file_raises_nothing_but_the_referees_error(game, path, replacement):
    damaged = mutate(game_to_json(game), path, replacement)
    try:
        score_game(read_game(json.dumps(damaged)))
    except GameError as error:
        assert "\n" not in str(error) and str(error)


@PROPERTY_SETTINGS
@given(JSON)
def test_any_json_raises_nothing_but_the_referees_error(data):
    with contextlib.suppress(GameError):
        score_game(read_game(json.dumps(data)))
