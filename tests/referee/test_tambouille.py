"""Tambouille's match sheet, as docs/rules.md ("Tambouille") and docs/game-format.md
("Tambouille match files") settle it: the referee's rules and the files, without Django."""

from __future__ import annotations

import json

import pytest

from scoring.referee.cards import parse_card
from scoring.referee.engine import GameEntry, GameError, Penalty, RoundEntry, score_game
from scoring.referee.gamefile import dumps, game_to_json, read_game, sheet_to_json
from scoring.referee.house import MAX_ROUNDS
from scoring.referee.tambouille import Tambouille

pytestmark = pytest.mark.no_database


def match(*counts: dict, players=("Ana", "Ben", "Chloé"), blocked=False, **settings):
    rounds = tuple(RoundEntry(hands=c) for c in counts)
    return GameEntry(
        "tambouille",
        tuple(players),
        rounds,
        settings,
        blocked_after=len(rounds) if blocked else None,
    )


def refusal(game: GameEntry) -> GameError:
    with pytest.raises(GameError) as caught:
        score_game(game)
    return caught.value


@pytest.mark.parametrize(
    ("players", "short", "each"),
    [(2, False, 60), (3, False, 40), (4, False, 30), (2, True, 30), (3, True, 20), (4, True, 15)],
)
def test_120_cards_are_dealt_evenly_and_the_short_version_deals_half(players, short, each):
    assert Tambouille(short=short).dealt(players) == each


def test_before_any_turn_round_everyone_holds_what_was_dealt():
    sheet = score_game(match(players=("Ana", "Ben"), short=True))
    assert sheet.totals == {"Ana": 30, "Ben": 30}
    assert not sheet.finished and sheet.winners == []


def test_a_turn_round_is_won_by_the_fewest_cards_and_ties_share_it():
    sheet = score_game(match({"Ana": 30, "Ben": 25, "Chloé": 25}))
    result = sheet.rounds[0]
    assert result.winners == ["Ben", "Chloé"]
    assert (
        result.hand_totals == result.scores == result.totals == {"Ana": 30, "Ben": 25, "Chloé": 25}
    )
    assert result.caller_succeeded is None
    assert [str(n) for n in result.notes] == ["Fewest cards left: Ben, Chloé (25)."]
    # Totals are the cards left, not a sum over the turn rounds.
    sheet = score_game(
        match({"Ana": 30, "Ben": 25, "Chloé": 25}, {"Ana": 20, "Ben": 21, "Chloé": 22})
    )
    assert sheet.totals == {"Ana": 20, "Ben": 21, "Chloé": 22}
    assert not sheet.finished


def test_the_match_ends_after_the_first_turn_round_with_an_empty_hand_and_a_draw_is_possible():
    sheet = score_game(match({"Ana": 10, "Ben": 8, "Chloé": 9}, {"Ana": 0, "Ben": 3, "Chloé": 0}))
    assert sheet.finished
    assert sheet.winners == ["Ana", "Chloé"]
    assert sheet.losers == [] and sheet.eliminated == []
    assert "Ana, Chloé emptied their hand: the match is over." in map(str, sheet.rounds[1].notes)


def test_a_turn_round_after_the_end_is_refused():
    error = refusal(match({"Ana": 0, "Ben": 3, "Chloé": 5}, {"Ana": 0, "Ben": 1, "Chloé": 2}))
    assert str(error) == "Round 2: the match ended after turn round 1; no more can be added."


def test_a_blocked_match_is_won_by_the_fewest_cards_and_ties_share():
    sheet = score_game(match({"Ana": 10, "Ben": 8, "Chloé": 8}, blocked=True))
    assert sheet.finished and sheet.winners == ["Ben", "Chloé"]
    assert "The table declared the match blocked: the fewest cards win." in map(
        str, sheet.rounds[0].notes
    )


def test_a_match_is_blocked_only_after_a_turn_round():
    error = refusal(match(blocked=True))
    assert str(error) == "a match can be declared blocked only after a turn round."
    assert error.field == "blocked"


def test_a_turn_round_after_the_match_was_blocked_is_refused():
    game = GameEntry(
        "tambouille",
        ("Ana", "Ben"),
        (RoundEntry({"Ana": 5, "Ben": 6}), RoundEntry({"Ana": 4, "Ben": 6})),
        blocked_after=1,
    )
    assert str(refusal(game)).startswith("Round 2: the match ended after turn round 1")


@pytest.mark.parametrize(
    ("count", "message"),
    [
        (124, "Round 1, Ben: the cards left must be a whole number from 0 to 123."),
        (-1, "Round 1, Ben: the cards left must be a whole number from 0 to 123."),
        (2.5, "Round 1, Ben: the cards left must be a whole number from 0 to 123."),
        (True, "Round 1, Ben: the cards left must be a number."),
        (float("nan"), "Round 1, Ben: the cards left must be a finite number."),
        ((), "Round 1, Ben: enter the number of cards left, not the cards."),
    ],
)
def test_a_count_outside_0_to_123_is_refused_naming_round_and_player(count, message):
    error = refusal(match({"Ana": 3, "Ben": count, "Chloé": 4}))
    assert str(error) == message
    assert (error.round, error.player, error.field) == (1, "Ben", "hands")


def test_123_and_0_are_counts():
    sheet = score_game(match({"Ana": 123, "Ben": 0, "Chloé": 4}))
    assert sheet.totals["Ana"] == 123 and sheet.winners == ["Ben"]


def test_every_player_has_a_count_and_nobody_else():
    assert str(refusal(match({"Ana": 3, "Ben": 4}))) == (
        "Round 1, Chloé: the number of cards left is missing."
    )
    error = refusal(match({"Ana": 3, "Ben": 4, "Chloé": 5, "Zoé": 1}))
    assert str(error) == "Round 1: 'Zoé' is not a player of this game."


@pytest.mark.parametrize("players", [("Ana",), ("Ana", "Ben", "Chloé", "Dan", "Eve")])
def test_a_match_has_2_to_4_players(players):
    error = refusal(match(players=players))
    assert str(error) == f"a game needs 2 to 4 players, not {len(players)}."


def test_a_turn_round_has_no_caller():
    game = GameEntry(
        "tambouille", ("Ana", "Ben"), (RoundEntry({"Ana": 1, "Ben": 2}, caller="Ana"),)
    )
    assert str(refusal(game)) == (
        "Round 1: a turn round of Tambouille has only the cards each player holds."
    )


def test_settings_a_match_does_not_take_are_refused():
    assert "tambouille takes no setting 'rounds'" in str(refusal(match(rounds=3)))
    assert str(refusal(match(short="yes"))) == "“Short version” must be true or false."


def test_only_a_match_can_be_blocked():
    game = GameEntry("tamalou", ("Ana", "Ben"), (), blocked_after=0)
    error = refusal(game)
    assert str(error) == "only a Tambouille match can be blocked."
    assert error.field == "blocked"


# --- files ---------------------------------------------------------------------------------


def match_file(**changes) -> str:
    data = {
        "format": "tamalou-ref.game/1",
        "variant": "tambouille",
        "players": ["Ana", "Ben"],
        "rounds": [{"hands": {"Ana": 12, "Ben": 13}}],
    }
    return json.dumps({**data, **changes})


def test_a_blocked_match_file_reads_scores_and_writes_back_the_same():
    text = match_file(settings={"short": True}, blocked=True)
    game = read_game(text)
    assert game.blocked_after == 1
    sheet = sheet_to_json(score_game(game))
    assert sheet["finished"] and sheet["winners"] == ["Ana"]
    assert json.loads(dumps(game_to_json(game))) == json.loads(text)


def test_blocked_false_is_the_same_as_no_key():
    game = read_game(match_file(blocked=False))
    assert game.blocked_after is None
    assert "blocked" not in game_to_json(game)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"blocked": "yes"}, "blocked must be true or false."),
        (
            {"rounds": [{"hands": {"Ana": 1, "Ben": 2}, "caller": None}]},
            "Round 1: the round has an unknown key 'caller' (allowed: hands).",
        ),
        (
            {"rounds": [{"hands": {"Ana": 1, "Ben": 2}, "penalties": []}]},
            "Round 1: the round has an unknown key 'penalties' (allowed: hands).",
        ),
        ({"rounds": [{}]}, "Round 1: the round has no 'hands'."),
        ({"rounds": [3]}, "Round 1: a round must be an object."),
    ],
)
def test_a_match_file_with_anything_but_counts_is_refused(changes, message):
    with pytest.raises(GameError) as caught:
        score_game(read_game(match_file(**changes)))
    assert str(caught.value) == message


def test_blocked_in_a_tamalou_game_file_is_refused():
    text = json.dumps(
        {
            "format": "tamalou-ref.game/1",
            "variant": "tamalou",
            "blocked": True,
            "players": ["Ana", "Ben"],
            "rounds": [{"hands": {"Ana": 1, "Ben": 2}}],
        }
    )
    with pytest.raises(GameError, match="only a Tambouille match can be blocked"):
        score_game(read_game(text))


@pytest.mark.parametrize(
    "extra",
    [
        {"caller": "Ana"},
        {"counter_caller": "Ben"},
        {"emptied": ("Ana",)},
        {"penalties": (Penalty("Ana", 5),)},
        {"penalty_cards": (parse_card("KS"),)},
    ],
    ids=["caller", "counter_caller", "emptied", "penalties", "penalty_cards"],
)
def test_a_turn_round_has_nothing_but_the_counts(extra):
    game = GameEntry("tambouille", ("Ana", "Ben"), (RoundEntry({"Ana": 1, "Ben": 2}, **extra),))
    error = refusal(game)
    assert str(error) == "Round 1: a turn round of Tambouille has only the cards each player holds."
    assert error.field == "rounds"


def test_where_each_refusal_points():
    after_end = refusal(match({"Ana": 0, "Ben": 3, "Chloé": 5}, {"Ana": 0, "Ben": 1, "Chloé": 2}))
    assert (after_end.round, after_end.field) == (2, "rounds")
    stranger = refusal(match({"Ana": 3, "Ben": 4, "Chloé": 5, "Zoé": 1}))
    assert (stranger.round, stranger.field) == (1, "hands")
    too_long = refusal(match(*[{"Ana": 9, "Ben": 9, "Chloé": 9}] * (MAX_ROUNDS + 1)))
    assert str(too_long) == f"a game has at most {MAX_ROUNDS} rounds."
    assert too_long.field == "rounds"
    with pytest.raises(GameError) as caught:
        read_game(match_file(blocked=1))
    assert caught.value.field == "blocked"


def test_a_turn_round_result_has_no_one_out_and_no_penalty_card():
    sheet = score_game(match({"Ana": 30, "Ben": 25, "Chloé": 25}))
    result = sheet.rounds[0]
    assert sheet.finished is False
    assert result.knocked_out == [] and result.adjusted == [] and result.penalty_cards_due == 0
    assert result.caller is None and sheet.eliminated == [] and sheet.in_game == sheet.players
