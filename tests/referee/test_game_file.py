"""The game-level keys of a game file (docs/game-format.md, "The game"): `id`, `ended`,
`first_dealer`, `rules_name`, and a Tambouille match's turn rounds, read strictly, refused
saying which key is at fault, and written back as export writes them. Pure Python: no
Django."""

from __future__ import annotations

import json

import pytest

from scoring.referee.engine import GameEntry, GameError, check_rules_name, score_game
from scoring.referee.gamefile import (
    check_file_bytes,
    dumps,
    game_to_json,
    read_game,
    rename_in_round,
)

pytestmark = pytest.mark.no_database

GOOD = {
    "format": "tamalou-ref.game/1",
    "variant": "tamalou",
    "players": ["Léa", "Marc", "Nina"],
    "rounds": [{"hands": {"Léa": 4, "Marc": 12, "Nina": 7}, "caller": "Léa"}],
}
MATCH = {
    "format": "tamalou-ref.game/1",
    "variant": "tambouille",
    "players": ["Léa", "Marc"],
    "rounds": [{"hands": {"Léa": 10, "Marc": 8}}],
}


def read(**keys):
    return read_game(json.dumps({**GOOD, **keys}))


def refusal(data: dict) -> tuple:
    """What a refused file is told: the message, and the field a form marks."""
    with pytest.raises(GameError) as error:
        score_game(read_game(json.dumps(data)))
    return str(error.value), error.value.field


def round_trip(game) -> dict:
    """The file export writes, read back: the same game."""
    written = game_to_json(game)
    assert read_game(dumps(written)) == game
    return written


# --- id -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game_id", ["a", "3f1c9a2e-7b4d-4e0a-9c11-5d2b8e6f4a10", "A_b-9" * 12 + "1234"]
)
def test_an_id_of_1_to_64_letters_digits_underscores_and_dashes_is_kept(game_id):
    game = read(id=game_id)
    assert game.game_id == game_id
    assert round_trip(game)["id"] == game_id


def test_a_null_id_is_no_id():
    game = read(id=None)
    assert game.game_id is None and "id" not in round_trip(game)


@pytest.mark.parametrize("game_id", ["", "a b", "x" * 65, "é", "a/b", 7, ["a"], True])
def test_any_other_id_is_refused(game_id):
    assert refusal({**GOOD, "id": game_id}) == (
        "the id must be 1 to 64 letters, digits, '_' or '-'.",
        "id",
    )


# --- ended ----------------------------------------------------------------------------------


def test_ended_true_is_kept_and_ends_the_game_after_its_last_round():
    """game-format.md: `ended`: the game is finished after its last round and the lowest
    running totals win."""
    game = read(ended=True)
    assert game.ended is True
    assert round_trip(game)["ended"] is True
    sheet = score_game(game)
    assert sheet.finished and sheet.winners == ["Léa"]


def test_ended_false_is_the_same_as_no_key():
    game = read(ended=False)
    assert game == read()
    assert game.ended is False and "ended" not in round_trip(game)
    assert not score_game(game).finished


@pytest.mark.parametrize("ended", ["yes", 1, 0, None, []])
def test_ended_must_be_true_or_false(ended):
    assert refusal({**GOOD, "ended": ended}) == ("ended must be true or false.", "ended")


def test_a_file_ended_without_a_round_is_refused():
    """game-format.md: a file with `ended` or `blocked` needs at least one round."""
    assert refusal({**GOOD, "ended": True, "rounds": []}) == (
        "a game can be ended only after its first round.",
        "ended",
    )
    assert refusal({**MATCH, "ended": True, "rounds": []}) == (
        "a game can be ended only after its first round.",
        "ended",
    )


# --- first_dealer ---------------------------------------------------------------------------


def test_the_first_dealer_is_one_of_the_players_trimmed():
    game = read(first_dealer=" Marc ")
    assert game.first_dealer == "Marc"
    assert round_trip(game)["first_dealer"] == "Marc"
    # Names are compared trimmed and normalised on both sides.
    assert read(players=[" Léa", "Marc "], first_dealer="Marc").first_dealer == "Marc"
    assert read(first_dealer="Le\u0301a").first_dealer == "Léa"


def test_no_first_dealer_is_the_first_player():
    for game in (read(), read(first_dealer=None)):
        assert game.first_dealer is None and "first_dealer" not in round_trip(game)


@pytest.mark.parametrize(
    ("first_dealer", "expected"),
    [
        ("Zoé", "the first dealer 'Zoé' is not one of the players."),
        (" Zoé ", "the first dealer 'Zoé' is not one of the players."),
        ("", "the first dealer '' is not one of the players."),
        (3, "the first dealer must be text."),
        (["Léa"], "the first dealer must be text."),
    ],
)
def test_a_first_dealer_who_is_not_a_player_is_refused(first_dealer, expected):
    assert refusal({**GOOD, "first_dealer": first_dealer}) == (expected, "first_dealer")


# --- rules_name -------------------------------------------------------------------------------


def test_a_null_rules_name_is_no_name():
    game = read(rules_name=None)
    assert game.rules_name is None and "rules_name" not in round_trip(game)


def test_a_rules_name_of_40_characters_is_kept_and_41_refused():
    assert read(rules_name=" " + "n" * 40 + " ").rules_name == "n" * 40
    assert refusal({**GOOD, "rules_name": "n" * 41}) == (
        "the name of the house rules must be 1 to 40 characters.",
        "rules_name",
    )


@pytest.mark.parametrize("name", ["Chez\x85Mamie", "Chez\x7fMamie", "Chez\nMamie"])
def test_a_rules_name_with_a_control_character_is_refused(name):
    """From a file, as every text of it (docs/game-format.md, "Reading a file"); from the
    app's own game (the new-game form), by the rules name's check."""
    code = f"{ord(name[4]):04X}"
    assert refusal({**GOOD, "rules_name": name}) == (
        f"rules_name holds a control character or broken text (U+{code}).",
        None,
    )
    game = GameEntry("tamalou", ("Léa", "Marc"), rules_name=name)
    with pytest.raises(GameError) as error:
        score_game(game)
    assert (str(error.value), error.value.field) == (
        "the name of the house rules has an invisible control character.",
        "rules_name",
    )
    assert check_rules_name(" Chez Mamie ") == "Chez Mamie"


# --- a Tambouille match's turn rounds --------------------------------------------------------


def test_a_match_file_reads_and_scores_its_turn_rounds():
    game = read_game(json.dumps(MATCH))
    assert game.variant == "tambouille" and game.rounds[0].hands == {"Léa": 10, "Marc": 8}
    assert score_game(game).totals == {"Léa": 10, "Marc": 8}


@pytest.mark.parametrize("key", ["caller", "emptied", "penalties", "counter_caller"])
def test_a_turn_round_holds_only_the_hands(key):
    rounds = [MATCH["rounds"][0], {"hands": {"Léa": 9, "Marc": 8}, key: []}]
    with pytest.raises(GameError) as error:
        read_game(json.dumps({**MATCH, "rounds": rounds}))
    assert str(error.value) == (f"Round 2: the round has an unknown key '{key}' (allowed: hands).")
    assert error.value.round == 2


def test_a_turn_round_must_be_an_object():
    with pytest.raises(GameError) as error:
        read_game(json.dumps({**MATCH, "rounds": [MATCH["rounds"][0], [9, 8]]}))
    assert str(error.value) == "Round 2: a round must be an object."


def test_a_tamalou_round_may_name_a_caller_where_a_match_may_not():
    assert read().rounds[0].caller == "Léa"


# --- the file's size ------------------------------------------------------------------------


def test_a_change_that_makes_the_file_larger_than_2_mb_is_refused():
    """game-format.md: a file holds at most 2,000,000 bytes; what the app stores, its files
    carry back."""
    check_file_bytes(2_000_000)
    with pytest.raises(GameError) as error:
        check_file_bytes(2_000_001)
    assert str(error.value) == (
        "this would make the game's file larger than 2 MB, the most a game file may hold; "
        "nothing was saved (shorter penalty reasons take less room)."
    )


# --- reading limits and where a bad text is ---------------------------------------------------


def test_an_object_of_64_keys_is_read_and_65_refused():
    """game-format.md: at most 64 keys in an object."""
    with pytest.raises(GameError, match="unknown key 'k0'"):  # read, then refused as a game
        read_game(json.dumps({f"k{i}": 0 for i in range(64)}))
    with pytest.raises(GameError) as error:
        read_game(json.dumps({f"k{i}": 0 for i in range(65)}))
    assert str(error.value) == "an object of the file has more than 64 keys."


def test_a_control_character_in_a_top_level_list_is_placed_by_its_index():
    with pytest.raises(GameError) as error:
        read_game(json.dumps(["a\x01"]))
    assert str(error.value) == "[0] holds a control character or broken text (U+0001)."


# --- renaming a player in a stored round ------------------------------------------------------


def test_renaming_one_player_leaves_the_others_names_alone():
    stored = {
        "hands": {"Léa": 1, "Marc": 2},
        "caller": "Marc",
        "emptied": ["Léa"],
        "penalties": [{"player": "Léa", "points": 2}, {"player": "Marc", "points": 1}],
    }
    assert rename_in_round(stored, {"Léa": "Lea"}) == {
        "hands": {"Lea": 1, "Marc": 2},
        "caller": "Marc",
        "emptied": ["Lea"],
        "penalties": [{"player": "Lea", "points": 2}, {"player": "Marc", "points": 1}],
    }
