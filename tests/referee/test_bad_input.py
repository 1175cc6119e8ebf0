"""Every bad input the rules pages name, and malformed game files: refused, saying where."""

from __future__ import annotations

import copy
import json
import os
import time

import pytest

from scoring.referee.engine import GameError, score_game
from scoring.referee.gamefile import parse_json, read_game
from tests.helpers import play, rnd

pytestmark = pytest.mark.no_database

GOOD = {
    "format": "tamalou-ref.game/1",
    "variant": "tamalou",
    "players": ["Léa", "Marc"],
    "rounds": [{"hands": {"Léa": ["KH", "3C"], "Marc": 12}, "caller": "Léa"}],
}


def refuse(data, match: str) -> GameError:
    text = data if isinstance(data, str | bytes) else json.dumps(data)
    with pytest.raises(GameError, match=match) as error:
        score_game(read_game(text))
    return error.value


def changed(**changes):
    data = copy.deepcopy(GOOD)
    for path, value in changes.items():
        *parents, key = path.split("__")
        target = data
        for parent in parents:
            target = target[int(parent)] if parent.isdigit() else target[parent]
        if value is KeyError:
            del target[key]
        else:
            target[key] = value
    return data


def test_the_good_file_scores():
    assert score_game(read_game(json.dumps(GOOD))).totals == {"Léa": 0, "Marc": 12}


# --- the bad input the rules pages list --------------------------------------------


def test_unknown_card_code_names_round_player_and_card():
    error = refuse(changed(rounds__0__hands={"Léa": ["KH", "ZZ"], "Marc": 3}), "unknown card 'ZZ'")
    assert str(error).startswith("Round 1, Léa: ")


def test_card_not_in_the_variant_deck():
    data = changed(variant="koubo", rounds__0__hands={"Léa": ["5S"], "Marc": 3})
    error = refuse(data, "there is no 5♠ in")
    assert (error.round, error.player, error.field) == (1, "Léa", "hands")


def test_same_card_twice_in_one_round():
    refuse(changed(rounds__0__hands={"Léa": ["KH"], "Marc": ["KH"]}), "the K♥ 2 times")


def test_caller_who_is_not_in_the_game():
    refuse(changed(rounds__0__caller="Zoé"), "the caller 'Zoé' is not a player of this game")


def test_hand_for_a_player_not_in_the_game():
    refuse(changed(rounds__0__hands={"Léa": 1, "Marc": 2, "Zoé": 3}), "'Zoé' is not a player")


def test_missing_hand():
    error = refuse(changed(rounds__0__hands={"Léa": 1}), "no hand for Marc")
    assert error.player == "Marc"


def test_hand_for_an_eliminated_player():
    with pytest.raises(GameError, match="Round 2, Léa: Léa is out of the game"):
        play(
            "dutch",
            "Léa Marc Nina",
            rnd({"Léa": 100, "Marc": 1, "Nina": 1}),
            rnd({"Léa": 2, "Marc": 1, "Nina": 1}),
        )


def test_round_after_the_game_has_ended():
    data = changed(settings={"rounds": 1})
    data["rounds"].append(copy.deepcopy(data["rounds"][0]))
    refuse(data, "Round 2: the game ended after round 1")


def test_half_point_outside_tamoul():
    refuse(changed(rounds__0__hands={"Léa": 1.5, "Marc": 2}), "there are no half points in Tamalou")


def test_negative_total_where_no_card_is_negative():
    error = refuse(changed(rounds__0__hands={"Léa": -1, "Marc": 2}), "no card is worth less than 0")
    assert error.player == "Léa"


def test_negative_total_below_the_lowest_possible_hand():
    refuse(
        changed(variant="koubo", rounds__0__hands={"Léa": -3, "Marc": 2}),
        "the lowest possible in Koubo charentais is -2",
    )
    data = changed(variant="cabo_bruxellois", rounds__0__hands={"Léa": -4, "Marc": 2})
    assert score_game(read_game(json.dumps(data))).rounds[0].hand_totals["Léa"] == -4


@pytest.mark.parametrize("players", [[], ["Léa"], [f"P{i}" for i in range(9)]])
def test_player_count_must_be_2_to_8(players):
    refuse(changed(players=players, rounds=[]), "a game needs 2 to 8 players")


def test_duplicate_names_ignoring_case():
    refuse(changed(players=["Léa", "LÉA"], rounds=[]), "'LÉA' is the same name as 'Léa'")


def test_blank_name():
    refuse(changed(players=["Léa", "   "], rounds=[]), "player 2: the name is blank")


def test_names_are_trimmed_and_normalised():
    data = changed(players=["  Léa ", "Marc"], rounds=[{"hands": {"Le\u0301a": 1, "Marc": 2}}])
    assert score_game(read_game(json.dumps(data))).players == ("Léa", "Marc")


def test_name_longer_than_40_characters():
    refuse(changed(players=["L" * 41, "Marc"], rounds=[]), "at most 40 characters")


# --- other malformed files ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("[1, 2]", "a game file must be an object"),
        ('{"format": NaN}', "NaN is not a number JSON allows"),
        (b"\xff\xfe", "not UTF-8"),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
        ('{"a": 1, "a": 2}', "the key 'a' is given twice"),
        ('{"a": 1, "b": 2, "b": 3, "a": 4}', "the key 'b' is given twice"),
        ("{" + ",".join(f'"k{i}": 0' for i in range(150_000)) + "}", "more than 64 keys"),
        ("[" + ",".join(["0"] * 10_001) + "]", "more than 10000 items"),
        ('{"a": [[[[[[[[1]]]]]]]]}', "nested more than 8 levels deep"),
        ('{"a": ' + "1" * 4301 + "}", "a number longer than 30 digits"),
        ('{"a": -' + "1" * 31 + "}", "a number longer than 30 digits"),
        ('{"a": 1.' + "0" * 5000 + "1}", "a number longer than 30 digits"),
        ('{"a": 1e' + "9" * 50 + "}", "a number longer than 30 digits"),
    ],
)
def test_not_a_json_game_file(text, match):
    refuse(text, match)


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (changed(format="tamalou-ref.game/2"), "the format must be"),
        (changed(format=KeyError), "has no 'format'"),
        (changed(players=KeyError), "has no 'players'"),
        (changed(rounds=KeyError), "has no 'rounds'"),
        (changed(rounds__0__hands=KeyError), "Round 1: the round has no 'hands'"),
        (changed(extra=1), "unknown key 'extra'"),
        (changed(rounds__0__calller="Léa"), "unknown key 'calller'"),
        (changed(variant="belote"), "unknown variant 'belote'"),
        (changed(variant=3), "the variant must be text"),
        (changed(players="Léa, Marc"), "the players must be a list"),
        (changed(players=["Léa", 7]), "player 2: a name must be text"),
        (changed(rounds={"1": {}}), "the rounds must be a list"),
        (changed(rounds=[[]]), "a round must be an object"),
        (changed(rounds__0__hands={"Léa": "KH", "Marc": 1}), "a list of card codes or a number"),
        (changed(rounds__0__hands={"Léa": True, "Marc": 1}), "a list of card codes or a number"),
        (changed(rounds__0__hands={"Léa": [5], "Marc": 1}), "a card must be a card code"),
        (changed(rounds__0__hands={"Léa": 10**400, "Marc": 1}), "longer than 30 digits"),
        (changed(rounds__0__hands={"Léa": 10**29, "Marc": 1}), "impossible"),
        (changed(rounds__0__hands={"Léa": 1e308, "Marc": 1}), "impossible"),
        (changed(rounds__0__hands={"Léa": 331, "Marc": 1}), "all the cards together make 330"),
        (changed(rounds__0__caller=["Léa"]), "the caller must be text"),
        (changed(rounds__0__emptied="Léa"), "emptied must be a list"),
        (changed(rounds__0__emptied=["Marc"]), "Marc: got rid of all cards, so the hand must"),
        (changed(rounds__0__penalties=[{"player": "Marc"}]), "a penalty has no 'points'"),
        (changed(rounds__0__penalties=[{"player": "Marc", "points": 0}]), "cannot be 0"),
        (changed(rounds__0__penalties=[{"player": "Marc", "points": "2"}]), "must be a number"),
        (changed(rounds__0__penalties=[{"player": "Marc", "points": 10**9}]), "go up to 999"),
        (changed(rounds__0__penalties=[{"player": "Zoé", "points": 2}]), "'Zoé' is not a player"),
        (changed(settings={"half_game": True}), "tamalou takes no setting 'half_game'"),
        (changed(settings={"rounds": 0}), "“Number of rounds” must be a whole number from 1"),
        (changed(settings={"rounds": True}), "“Number of rounds” must be a whole number from 1"),
        (changed(settings={"rounds": 10**100}), "a number longer than 30 digits"),
        (changed(settings={"rounds": 10**29}), "“Number of rounds” must be a whole number from 1"),
        (changed(settings={"decks": 3}), "“Decks” must be one of: 1, 2"),
        (
            changed(settings={"call_threshold": "5"}),
            "“A call is allowed with at most” must be a number",
        ),
        (changed(settings={"call_threshold": 5.5}), "only whole points in this variant"),
        (changed(settings={"joker_value": 1e9}), "must be a number from -100 to 100"),
        (changed(settings=[]), "the settings must be an object"),
    ],
)
def test_malformed_game_file_is_refused(data, match):
    refuse(data, match)


def test_every_limit_of_a_file_is_checked_in_time_linear_in_its_size():
    """The probe's key bomb (1.7 MB, 150,000 keys in one object) held a worker 30 s; each
    limit now refuses it as soon as it is passed. (Under `make mutate`'s first run, which
    records every call of a referee function, each of the bomb's 150,000 numbers costs a
    recorded call: the budget there is wider, still far below quadratic time.)"""
    budget = 10 if os.environ.get("MUTANT_UNDER_TEST") == "stats" else 1
    bomb = "{" + ",".join(f'"k{i}": 0' for i in range(150_000)) + "}"
    duplicated = "{" + ",".join(f'"k{i}": 0' for i in range(60)) + ', "k0": 1}'
    wide = "[" + ",".join(["[0]"] * 9_999) + "]"
    for text in (bomb, duplicated, wide, "[" * 500_000):
        started = time.process_time()
        with pytest.raises(GameError):
            read_game(text)
        assert time.process_time() - started < budget


def test_a_file_larger_than_2_mb_is_refused():
    refuse(" " * 2_000_001, "larger than 2 MB")


def test_an_ended_game_with_rounds_past_its_agreed_rounds_is_refused_at_the_first_of_them():
    """`ended` ends a game early; it never stretches the rounds the table agreed on."""
    data = {
        **GOOD,
        "settings": {"rounds": 3},
        "ended": True,
        "rounds": [{"hands": {"Léa": n, "Marc": n + 1}} for n in range(5)],
    }
    error = refuse(data, "Round 4")
    assert "the last of the 3 agreed" in str(error)
    shorter = {**data, "rounds": data["rounds"][:2]}
    assert score_game(read_game(json.dumps(shorter))).finished


def test_a_file_nested_8_levels_deep_is_read_and_9_refused():
    """game-format.md: at most 8 levels of nesting (lists, objects, and the value inside)."""
    assert parse_json("[" * 8 + "]" * 8) == [[[[[[[[]]]]]]]]
    assert parse_json("[" * 7 + "0" + "]" * 7) == [[[[[[[0]]]]]]]
    for text in ("[" * 9 + "]" * 9, "[" * 8 + "0" + "]" * 8):
        with pytest.raises(GameError) as error:
            parse_json(text)
        assert str(error.value) == "the file is nested more than 8 levels deep."


@pytest.mark.parametrize(
    "number", ["1" * 30, "-" + "9" * 30, "-1." + "2" * 28 + "e+5", "-1." + "2" * 28 + "E-5"]
)
def test_a_number_of_30_digits_is_read_whatever_its_sign_point_and_exponent(number):
    """game-format.md: at most 30 digits in a number (its sign, point and exponent's letter
    and sign are not digits)."""
    assert parse_json(f"[{number}]") == [json.loads(number)]


@pytest.mark.parametrize("number", ["1" * 31, "-" + "9" * 31, "1." + "2" * 30, "1" * 29 + "e10"])
def test_a_number_of_31_digits_is_refused(number):
    with pytest.raises(GameError) as error:
        parse_json(f"[{number}]")
    assert str(error.value) == "the file holds a number longer than 30 digits."
