"""When a game ends (docs/rules.md, "Every variant"; docs/game-format.md, `ended`): the table
taps "End the game now", the agreed rounds run out, and what a round after the end is told.
Pure Python: no Django."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.referee.engine import GameEntry, GameError, extend_sheet, progress_of, score_game
from tests.helpers import rnd

pytestmark = pytest.mark.no_database

ROUNDS = (
    rnd({"Léa": 4, "Marc": 12, "Nina": 7}),
    rnd({"Léa": 9, "Marc": 1, "Nina": 3}),
    rnd({"Léa": 8, "Marc": 8, "Nina": 2}),
)


def game(variant="tamalou", entries=ROUNDS, players=("Léa", "Marc", "Nina"), **settings):
    return GameEntry(variant, players, tuple(entries), settings)


def ended(entry: GameEntry) -> GameEntry:
    return replace(entry, ended=True)


def refusal(entry: GameEntry) -> GameError:
    with pytest.raises(GameError) as error:
        score_game(entry)
    return error.value


def test_a_game_the_table_ended_is_over_after_its_last_round_and_the_lowest_total_wins():
    sheet = score_game(ended(game()))
    assert sheet.finished
    assert sheet.totals == {"Léa": 21, "Marc": 21, "Nina": 12}
    assert sheet.winners == ["Nina"]
    # Not ended, the same rounds leave the game open.
    assert not score_game(game()).finished


def test_ending_a_game_changes_no_score():
    assert score_game(ended(game())).rounds == score_game(game()).rounds


def test_tied_lowest_totals_share_the_win_of_an_ended_game():
    sheet = score_game(ended(game(entries=(rnd({"Léa": 3, "Marc": 5, "Nina": 3}),))))
    assert sheet.finished and sheet.winners == ["Léa", "Nina"]


def test_a_game_ended_before_its_agreed_rounds_ends_there():
    """`ended` ends a game early: a game of 10 agreed rounds ended after 3 is over."""
    sheet = score_game(ended(game(rounds=10)))
    assert sheet.finished and len(sheet.rounds) == 3 and sheet.winners == ["Nina"]


def test_a_game_ended_as_its_agreed_rounds_run_out_is_over_all_the_same():
    assert score_game(ended(game(rounds=3))) == score_game(game(rounds=3))


def test_a_game_ended_without_a_round_is_refused():
    for entry in (game(entries=()), game("tambouille", (), ("Léa", "Marc"))):
        error = refusal(ended(entry))
        assert str(error) == "a game can be ended only after its first round."
        assert error.field == "ended"


def test_a_match_the_table_ended_is_blocked_after_its_last_turn_round():
    """game-format.md: in a Tambouille file, `ended` means `blocked`: the fewest cards win."""
    match = game(
        "tambouille",
        (rnd({"Léa": 20, "Marc": 18}), rnd({"Léa": 9, "Marc": 11})),
        ("Léa", "Marc"),
    )
    sheet = score_game(ended(match))
    assert sheet.finished and sheet.winners == ["Léa"]
    assert str(sheet.rounds[-1].notes[-1]) == (
        "The table declared the match blocked: the fewest cards win."
    )
    assert score_game(ended(match)) == score_game(replace(match, blocked_after=2))
    assert not score_game(match).finished


def test_an_ended_dutch_game_is_won_by_the_lowest_player_still_in():
    entry = game(
        "dutch",
        (rnd({"Léa": 100, "Marc": 12, "Nina": 30}), rnd({"Marc": 20, "Nina": 1})),
    )
    sheet = score_game(ended(entry))
    assert sheet.finished and sheet.eliminated == ["Léa"] and sheet.winners == ["Nina"]


def test_rounds_added_to_an_ended_game_are_scored_and_it_ends_after_them():
    """The app saves rounds one at a time; a game the table ends is over after the rounds it
    has, however they were added."""
    first = score_game(game(entries=ROUNDS[:1]))
    sheet = extend_sheet(first, ended(game()), ROUNDS[1:])
    assert sheet == score_game(ended(game()))
    assert sheet.finished and len(sheet.rounds) == 3


def test_a_round_after_an_ended_game_says_the_game_ended():
    """A game ended after round 2, then a third round: refused at round 3."""
    over = score_game(ended(game(entries=ROUNDS[:2])))
    with pytest.raises(GameError) as error:
        extend_sheet(over, ended(game()), ROUNDS[2:])
    assert str(error.value).startswith("Round 3: the game ended after round 2")


def test_a_round_after_everybody_went_out_at_once_says_only_that_the_game_ended():
    """Dutch: both players reach exactly 100 in one round; nobody is left in, nobody went
    past the limit."""
    entry = game(
        "dutch", (rnd({"Léa": 100, "Marc": 100}), rnd({"Léa": 1, "Marc": 1})), ("Léa", "Marc")
    )
    error = refusal(entry)
    assert str(error) == "Round 2: the game ended after round 1; no more rounds can be added."
    assert error.field == "rounds"


def test_a_round_after_the_agreed_rounds_says_so_even_when_someone_went_out():
    entry = game(
        "dutch",
        (
            rnd({"Léa": 100, "Marc": 1, "Nina": 2}),
            rnd({"Marc": 1, "Nina": 1}),
            rnd({"Marc": 1, "Nina": 1}),
        ),
        rounds=2,
    )
    assert str(refusal(entry)) == (
        "Round 3: the game ended after round 2, the last of the 2 agreed; no more rounds can "
        "be added."
    )


def test_the_winner_of_a_dutch_game_everybody_left_at_once_is_placed_first():
    """Léa goes out first with 101; Marc (115) and Nina (120) go out together: Marc, the
    closest to 100, wins and is first though Léa has fewer points; the others by total."""
    entries = (rnd({"Léa": 101, "Marc": 50, "Nina": 60}), rnd({"Marc": 65, "Nina": 60}))
    sheet = score_game(game("dutch", entries))
    assert sheet.finished and sheet.winners == ["Marc"]
    assert progress_of(sheet).places() == {"Marc": 1, "Léa": 2, "Nina": 3}


def test_players_still_in_are_placed_before_those_out_and_ties_share_a_place():
    entries = (rnd({"Léa": 100, "Marc": 30, "Nina": 30}),)
    sheet = score_game(game("dutch", entries))
    assert not sheet.finished
    assert progress_of(sheet).places() == {"Marc": 1, "Nina": 1, "Léa": 3}
