"""Invariants of house rules, checked on random settings × random games (hypothesis)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.referee.engine import score_game
from scoring.referee.gamefile import dumps, game_to_json, read_game, sheet_to_json
from scoring.referee.variants import VARIANTS
from tests.strategies import PROPERTY_SETTINGS, house_games

pytestmark = pytest.mark.no_database


@PROPERTY_SETTINGS
@given(house_games(), st.randoms(use_true_random=False))
def test_card_values_equal_to_the_defaults_change_nothing(game, random):
    rules = VARIANTS[game.variant](**game.settings)
    plain = {k: v for k, v in game.settings.items() if k != "card_values"}
    defaults = VARIANTS[game.variant](**plain)
    if rules.settings["card_values"]:
        return  # the game's own values: nothing to compare with
    cards = random.sample(defaults.deck(), min(6, len(defaults.deck())))
    spelled = {**plain, "card_values": {c.code: defaults.value(c) for c in cards}}
    assert score_game(replace(game, settings=spelled)) == score_game(game)


@PROPERTY_SETTINGS
@given(house_games())
def test_no_player_who_played_a_round_is_left_on_exactly_the_reset(game):
    reset = VARIANTS[game.variant](**game.settings).reset
    for result in score_game(game).rounds:
        for player in result.scores:
            assert reset is None or result.totals[player] != reset[0]


@PROPERTY_SETTINGS
@given(house_games())
def test_totals_are_the_sums_of_scores_with_the_reset_once(game):
    rules = VARIANTS[game.variant](**game.settings)
    running = dict.fromkeys(game.players, Fraction(0))
    for result in score_game(game).rounds:
        for player, score in result.scores.items():
            running[player] += score
            if rules.reset and running[player] == rules.reset[0]:
                running[player] = rules.reset[1]
        assert result.totals == running


@PROPERTY_SETTINGS
@given(house_games())
def test_default_settings_written_out_score_identically(game):
    spelled = {**VARIANTS[game.variant].defaults, **game.settings}
    if "JOKER" in spelled.get("card_values", {}) and "joker_value" not in game.settings:
        spelled.pop("joker_value", None)  # "JOKER" beside joker_value is refused, default or not
    assert score_game(replace(game, settings=spelled)) == score_game(game)


@PROPERTY_SETTINGS
@given(house_games(), st.from_regex(r"[A-Za-zéèà'-][A-Za-zéèà' -]{0,38}[A-Za-zé]", fullmatch=True))
def test_export_then_import_keeps_every_setting_and_the_rules_name(game, name):
    named = replace(game, rules_name=name)
    first = dumps(game_to_json(named))
    again = read_game(first)
    assert again.settings == named.settings and again.rules_name == named.rules_name
    assert dumps(game_to_json(again)) == first
    assert sheet_to_json(score_game(again)) == sheet_to_json(score_game(named))


@PROPERTY_SETTINGS
@given(house_games())
def test_negative_typed_totals_exist_exactly_when_a_card_is_negative(game):
    rules = VARIANTS[game.variant](**game.settings)
    negative = any(rules.value(card) < 0 for card in rules.deck())
    assert (rules.lowest_possible_hand < 0) == negative
