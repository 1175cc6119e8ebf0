"""The worked games of the project score exactly as their expected score sheets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.referee.engine import score_game
from scoring.referee.gamefile import dumps, game_to_json, read_game, sheet_to_json
from tests.helpers import EXAMPLES

pytestmark = pytest.mark.no_database

GAMES = sorted(EXAMPLES.glob("*.game.json"))


def expected_sheet(game_path: Path) -> dict:
    return json.loads(
        game_path.with_name(game_path.name.replace(".game.", ".scoresheet.")).read_text()
    )


def test_there_is_an_example_for_every_variant_and_tambouille():
    from scoring.referee.engine import GAMES as ALL_GAMES

    assert {json.loads(path.read_text())["variant"] for path in GAMES} == set(ALL_GAMES)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name.split(".")[0])
def test_example_scores_as_its_score_sheet(path):
    sheet = sheet_to_json(score_game(read_game(path.read_bytes())))
    expected = expected_sheet(path)
    # The expected sheets leave the notes out: everything else must match exactly.
    for result in sheet["rounds"]:
        assert result.pop("notes"), "every round explains its scores"
    assert sheet == expected


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name.split(".")[0])
def test_example_round_trips_through_the_game_file(path):
    first = dumps(game_to_json(read_game(path.read_bytes())))
    assert json.loads(first) == json.loads(path.read_text())
    assert dumps(game_to_json(read_game(first))) == first
