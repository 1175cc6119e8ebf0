"""Every rule of the rules pages (/rules/<variant>/) with a worked hand; no Django."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.referee.cards import Card, parse_card
from scoring.referee.engine import GameError
from scoring.referee.variants import VARIANTS
from tests.helpers import F, last, play, rnd

pytestmark = pytest.mark.no_database

# --- cards and values --------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "code", "value"),
    [
        ("tamalou", "AS", 1),
        ("tamalou", "7H", 7),
        ("tamalou", "10C", 10),
        ("tamalou", "JD", 10),
        ("tamalou", "QS", 10),
        ("tamalou", "KH", 0),
        ("tamalou", "KD", 0),
        ("tamalou", "KS", 15),
        ("tamalou", "KC", 15),
        ("tamalou", "JOKER", 0),
        ("gabo", "KS", 15),
        ("koubo", "AS", 1),
        ("koubo", "7D", 7),
        ("koubo", "JH", 2),
        ("koubo", "QC", 3),
        ("koubo", "KH", 0),
        ("koubo", "KS", 11),
        ("koubo", "JOKER", -1),
        ("dutch", "JS", 11),
        ("dutch", "QH", 12),
        ("dutch", "KD", 0),
        ("dutch", "KC", 20),
        ("tamoul", "JH", 15),
        ("tamoul", "QS", 15),
        ("tamoul", "QC", 15),
        ("tamoul", "QH", 1),
        ("tamoul", "QD", 1),
        ("tamoul", "KS", 15),
        ("tamoul", "KH", Fraction(1, 2)),
        ("fontenaysien", "KS", 15),
        ("fontenaysien", "JOKER", 0),
        ("cabo_bruxellois", "JC", 11),
        ("cabo_bruxellois", "QD", 12),
        ("cabo_bruxellois", "KS", 13),
        ("cabo_bruxellois", "KH", -2),
        ("dutch_toulousain", "JC", 11),
        ("dutch_toulousain", "QD", 12),
        ("dutch_toulousain", "KS", 13),
        ("dutch_toulousain", "KD", 0),
    ],
)
def test_card_values_per_variant(variant, code, value):
    assert VARIANTS[variant]().value(parse_card(code)) == value
    sheet = play(variant, "Léa Marc", rnd({"Léa": code, "Marc": "8C"}))
    assert last(sheet).hand_totals["Léa"] == value


def test_card_codes_accept_lower_case_and_suit_symbols():
    assert parse_card("10h") == parse_card("10♥") == Card("10", "H")
    assert parse_card(" ks ") == parse_card("K♠") == Card("K", "S")
    assert parse_card("joker") == Card("JOKER")


@pytest.mark.parametrize("code", ["2S", "3H", "4D", "5C", "6S"])
def test_koubo_deck_has_no_2_to_6(code):
    with pytest.raises(GameError, match=rf"there is no {parse_card(code)} in"):
        play("koubo", "Léa Marc", rnd({"Léa": code, "Marc": "7S"}))


@pytest.mark.parametrize("variant", ["dutch", "tamoul", "cabo_bruxellois", "dutch_toulousain"])
def test_variants_without_jokers_refuse_a_joker(variant):
    with pytest.raises(GameError, match="there is no joker in") as error:
        play(variant, "Léa Marc", rnd({"Léa": "JOKER", "Marc": "7S"}))
    assert (error.value.round, error.value.player) == (1, "Léa")


def test_decks_have_the_cards_the_rules_list():
    assert len(VARIANTS["tamalou"]().deck()) == 52 + 1  # the joker listed once
    assert len(VARIANTS["koubo"]().deck()) == 32 + 1
    assert len(VARIANTS["dutch"]().deck()) == 52
    assert VARIANTS["tamalou"]().jokers == 2 and VARIANTS["dutch"]().jokers == 0


def test_joker_value_setting_changes_the_joker():
    sheet = play("tamalou", "Léa Marc", rnd({"Léa": "JOKER", "Marc": "2S"}), joker_value=20)
    assert last(sheet).hand_totals["Léa"] == 20


def test_same_card_twice_in_one_round_is_refused():
    with pytest.raises(GameError, match=r"the 5♥ 2 times in one round \(Léa, Marc\)") as error:
        play("tamalou", "Léa Marc", rnd({"Léa": "5H", "Marc": "5h 2C"}))
    assert error.value.round == 1 and error.value.player == "Marc"


def test_same_card_in_a_hand_and_the_penalty_cards_is_refused():
    with pytest.raises(GameError, match="the 4♦ 2 times"):
        play(
            "dutch_toulousain",
            "Léa Marc",
            rnd({"Léa": "6C", "Marc": "4D"}, caller="Léa", penalty_cards="4D"),
        )


def test_two_decks_allow_a_card_twice_but_not_three_times():
    sheet = play("tamalou", "Léa Marc", rnd({"Léa": "5H", "Marc": "5H"}), decks=2)
    assert last(sheet).hand_totals == {"Léa": 5, "Marc": 5}
    with pytest.raises(GameError, match="only 2 with two decks"):
        play("tamalou", "Léa Marc Nina", rnd({"Léa": "5H", "Marc": "5H", "Nina": "5H"}), decks=2)


def test_two_jokers_per_deck():
    with pytest.raises(GameError, match="3 jokers in one round"):
        play("tamalou", "Léa Marc", rnd({"Léa": "JOKER JOKER", "Marc": "JOKER"}))
    sheet = play("tamalou", "Léa Marc", rnd({"Léa": "JOKER JOKER", "Marc": "JOKER"}), decks=2)
    assert last(sheet).hand_totals == {"Léa": 0, "Marc": 0}


def test_a_hand_can_hold_any_number_of_cards():
    sheet = play("tamalou", "Léa Marc", rnd({"Léa": "", "Marc": "AS 2S 3S 4S 5S 6S"}))
    assert last(sheet).hand_totals == {"Léa": 0, "Marc": 21}


# --- tamalou -------------------------------------------------------------------


def test_tamalou_caller_within_threshold_and_strictly_lowest_scores_0():
    r = last(play("tamalou", "Léa Marc Nina", rnd({"Léa": 3, "Marc": 22, "Nina": 4}, "Léa")))
    assert r.scores == {"Léa": 0, "Marc": 22, "Nina": 4}
    assert r.caller_succeeded is True and r.winners == ["Léa"]


def test_tamalou_caller_tied_with_another_player_loses():
    r = last(play("tamalou", "Léa Marc Nina", rnd({"Léa": 3, "Marc": 3, "Nina": 9}, "Léa")))
    assert r.scores == {"Léa": 3, "Marc": 0, "Nina": 9}
    assert r.caller_succeeded is False and r.winners == ["Marc"]


def test_tamalou_failed_caller_players_at_or_under_him_score_0():
    r = last(
        play(
            "tamalou", "Léa Marc Nina Omar", rnd({"Léa": 4, "Marc": 3, "Nina": 4, "Omar": 5}, "Léa")
        )
    )
    assert r.scores == {"Léa": 4, "Marc": 0, "Nina": 0, "Omar": 5}
    assert r.winners == ["Marc"]


def test_tamalou_failed_caller_winners_are_the_lowest_other_players_all_tied():
    r = last(play("tamalou", "Léa Marc Nina", rnd({"Léa": 5, "Marc": 2, "Nina": 2}, "Léa")))
    assert r.winners == ["Marc", "Nina"]


def test_tamalou_caller_over_the_threshold_fails_even_when_lowest():
    r = last(play("tamalou", "Léa Marc", rnd({"Léa": 6, "Marc": 9}, "Léa")))
    assert r.scores == {"Léa": 6, "Marc": 9}
    assert r.caller_succeeded is False and r.winners == ["Marc"]


def test_tamalou_caller_exactly_at_the_threshold_succeeds():
    r = last(play("tamalou", "Léa Marc", rnd({"Léa": 5, "Marc": 6}, "Léa")))
    assert r.scores == {"Léa": 0, "Marc": 6} and r.caller_succeeded is True


def test_call_threshold_setting():
    r = last(play("tamalou", "Léa Marc", rnd({"Léa": 4, "Marc": 9}, "Léa"), call_threshold=3))
    assert r.caller_succeeded is False and r.scores["Léa"] == 4


def test_tamalou_without_a_caller_everyone_scores_his_hand_and_the_lowest_win():
    r = last(play("tamalou", "Léa Marc Nina", rnd({"Léa": 7, "Marc": 2, "Nina": 2})))
    assert r.scores == {"Léa": 7, "Marc": 2, "Nina": 2}
    assert r.caller_succeeded is None and r.winners == ["Marc", "Nina"]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variants_round_ends_with_a_call_unless_an_emptied_hand_ends_it(variant):
    """A round ends when a player calls (it may still have no caller: the pile ran out); in
    Fontenaysien a player who discards all their cards ends it at once, without a call."""
    rules = VARIANTS[variant]()
    assert rules.ends_with_a_call(())
    assert rules.ends_with_a_call(("Léa",)) is (variant != "fontenaysien")


def test_tamalou_emptied_hand_counts_0():
    r = last(play("tamalou", "Léa Marc", rnd({"Léa": "", "Marc": "2S"}, "Léa", emptied=["Léa"])))
    assert r.hand_totals["Léa"] == 0 and r.scores == {"Léa": 0, "Marc": 2}


def test_tamalou_game_ends_after_the_agreed_rounds_lowest_total_wins():
    sheet = play(
        "tamalou",
        "Léa Marc",
        rnd({"Léa": 3, "Marc": 9}, "Léa"),
        rnd({"Léa": 8, "Marc": 2}, "Marc"),
        rounds=2,
    )
    assert sheet.totals == {"Léa": 8, "Marc": 9}
    assert sheet.finished and sheet.winners == ["Léa"]


def test_game_winners_tied_share_the_win():
    sheet = play("tamalou", "Léa Marc Nina", rnd({"Léa": 4, "Marc": 4, "Nina": 9}), rounds=1)
    assert sheet.winners == ["Léa", "Marc"]


def test_tamalou_without_a_number_of_rounds_is_open_ended():
    rounds = [rnd({"Léa": 30, "Marc": 40}) for _ in range(12)]
    sheet = play("tamalou", "Léa Marc", *rounds)
    assert not sheet.finished and sheet.winners == [] and sheet.totals["Marc"] == 480


def test_no_round_after_the_game_has_ended():
    with pytest.raises(GameError, match="the game ended after round 1") as error:
        play(
            "tamalou", "Léa Marc", rnd({"Léa": 1, "Marc": 2}), rnd({"Léa": 1, "Marc": 2}), rounds=1
        )
    assert error.value.round == 2


# --- gabo ----------------------------------------------------------------------


def test_gabo_caller_may_call_with_7():
    assert last(play("gabo", "Léa Marc", rnd({"Léa": 7, "Marc": 8}, "Léa"))).scores == {
        "Léa": 0,
        "Marc": 8,
    }
    assert last(play("tamalou", "Léa Marc", rnd({"Léa": 7, "Marc": 8}, "Léa"))).scores == {
        "Léa": 7,
        "Marc": 8,
    }


# --- koubo ---------------------------------------------------------------------


def test_koubo_caller_strictly_lowest_scores_minus_3_whatever_his_hand():
    r = last(play("koubo", "Léa Marc", rnd({"Léa": "9S 10S", "Marc": "KS 10C"}, "Léa")))
    assert r.scores == {"Léa": -3, "Marc": 21} and r.caller_succeeded is True


def test_koubo_caller_tied_scores_his_hand_plus_20():
    r = last(play("koubo", "Léa Marc Nina", rnd({"Léa": 3, "Marc": 3, "Nina": 8}, "Léa")))
    assert r.scores == {"Léa": 23, "Marc": 3, "Nina": 8}
    assert r.caller_succeeded is False and r.winners == ["Léa", "Marc"]


def test_koubo_has_no_threshold():
    r = last(play("koubo", "Léa Marc", rnd({"Léa": 30, "Marc": 31}, "Léa")))
    assert r.scores["Léa"] == -3


def test_koubo_ends_after_10_rounds():
    rounds = [rnd({"Léa": 1, "Marc": 2}) for _ in range(10)]
    sheet = play("koubo", "Léa Marc", *rounds)
    assert sheet.finished and sheet.winners == ["Léa"]
    with pytest.raises(GameError, match="ended after round 10"):
        play("koubo", "Léa Marc", *rounds, rnd({"Léa": 1, "Marc": 2}))


def test_koubo_negative_hand_with_jokers():
    r = last(play("koubo", "Léa Marc", rnd({"Léa": "JOKER JOKER KH", "Marc": -2})))
    assert r.hand_totals == {"Léa": -2, "Marc": -2}


# --- dutch ---------------------------------------------------------------------


def test_dutch_everyone_scores_his_hand_caller_included():
    r = last(play("dutch", "Léa Marc Nina", rnd({"Léa": 6, "Marc": 3, "Nina": 9}, "Léa")))
    assert r.scores == {"Léa": 6, "Marc": 3, "Nina": 9}
    assert r.caller_succeeded is False and r.winners == ["Marc"]


def test_dutch_player_reaching_exactly_100_is_out():
    sheet = play("dutch", "Léa Marc Nina", rnd({"Léa": 100, "Marc": 99, "Nina": 3}))
    assert sheet.eliminated == ["Léa"] and sheet.in_game == ("Marc", "Nina")
    assert not sheet.finished
    assert last(sheet).knocked_out == ["Léa"]


def test_dutch_knocked_out_player_has_no_hand_in_later_rounds():
    first = rnd({"Léa": 100, "Marc": 9, "Nina": 3})
    with pytest.raises(GameError, match="Léa is out of the game and has no hand") as error:
        play("dutch", "Léa Marc Nina", first, rnd({"Léa": 1, "Marc": 2, "Nina": 3}))
    assert (error.value.round, error.value.player) == (2, "Léa")
    sheet = play("dutch", "Léa Marc Nina", first, rnd({"Marc": 2, "Nina": 3}))
    assert sheet.totals == {"Léa": 100, "Marc": 11, "Nina": 6}


def test_dutch_caller_who_is_out_is_refused():
    with pytest.raises(GameError, match="the caller Léa is out of the game"):
        play(
            "dutch",
            "Léa Marc Nina",
            rnd({"Léa": 100, "Marc": 9, "Nina": 3}),
            rnd({"Marc": 2, "Nina": 3}, caller="Léa"),
        )


def test_dutch_last_player_in_wins():
    sheet = play("dutch", "Léa Marc Nina", rnd({"Léa": 100, "Marc": 120, "Nina": 3}))
    assert sheet.finished and sheet.winners == ["Nina"]
    assert sheet.eliminated == ["Léa", "Marc"]


def test_dutch_everyone_out_together_closest_to_100_wins():
    sheet = play(
        "dutch",
        "Léa Marc Nina",
        rnd({"Léa": 50, "Marc": 50, "Nina": 20}),
        rnd({"Léa": 60, "Marc": 52, "Nina": 90}),
    )
    assert sheet.totals == {"Léa": 110, "Marc": 102, "Nina": 110}
    assert sheet.finished and sheet.winners == ["Marc"]


def test_dutch_everyone_out_together_tied_share_the_win():
    sheet = play("dutch", "Léa Marc", rnd({"Léa": 105, "Marc": 105}))
    assert sheet.winners == ["Léa", "Marc"]


def test_dutch_players_out_earlier_do_not_win_when_everyone_left_goes_out():
    sheet = play(
        "dutch",
        "Léa Marc Nina",
        rnd({"Léa": 100, "Marc": 50, "Nina": 50}),
        rnd({"Marc": 70, "Nina": 60}),
    )
    assert sheet.eliminated == ["Léa", "Marc", "Nina"] and sheet.winners == ["Nina"]


# --- tamoul ----------------------------------------------------------------------


def test_tamoul_caller_strictly_lowest_within_6_5_scores_minus_20():
    r = last(play("tamoul", "Léa Marc", rnd({"Léa": "KH QD 5S", "Marc": "2C 9S"}, "Léa")))
    assert r.hand_totals == {"Léa": F("6.5"), "Marc": 11}
    assert r.scores == {"Léa": -20, "Marc": 11} and r.caller_succeeded is True


def test_tamoul_caller_over_6_5_scores_his_hand_plus_20():
    r = last(play("tamoul", "Léa Marc", rnd({"Léa": 7, "Marc": 11}, "Léa")))
    assert r.scores == {"Léa": 27, "Marc": 11} and r.winners == ["Marc"]


def test_tamoul_caller_tied_scores_his_hand_plus_20():
    r = last(play("tamoul", "Léa Marc", rnd({"Léa": 2.5, "Marc": 2.5}, "Léa")))
    assert r.scores == {"Léa": F("22.5"), "Marc": F("2.5")}


def test_tamoul_half_points_are_exact():
    hands = {"Léa": "KH KD AS", "Marc": "QH QD 2S"}
    r = last(play("tamoul", "Léa Marc", rnd(hands)))
    assert r.hand_totals == {"Léa": 2, "Marc": 4}
    r = last(play("tamoul", "Léa Marc", *[rnd({"Léa": 0.5, "Marc": 1})] * 3))
    assert r.totals == {"Léa": F("1.5"), "Marc": 3}


def test_tamoul_counter_caller_right_scores_minus_20_and_caller_scores_his_hand():
    r = last(
        play("tamoul", "Léa Marc Nina", rnd({"Léa": 4.5, "Marc": 3, "Nina": 20}, "Léa", "Marc"))
    )
    assert r.scores == {"Léa": F("4.5"), "Marc": -20, "Nina": 20}
    assert r.winners == ["Marc"] and r.caller_succeeded is False


def test_tamoul_counter_caller_wrong_scores_plus_20_and_caller_scored_as_usual():
    r = last(play("tamoul", "Léa Marc Nina", rnd({"Léa": 3, "Marc": 5, "Nina": 20}, "Léa", "Marc")))
    assert r.scores == {"Léa": -20, "Marc": 25, "Nina": 20} and r.caller_succeeded is True


def test_tamoul_counter_caller_tied_with_the_caller_is_wrong():
    r = last(play("tamoul", "Léa Marc", rnd({"Léa": 3, "Marc": 3}, "Léa", "Marc")))
    # Marc is wrong (+20); Léa is scored as without the counter-call: tied, so she fails.
    assert r.scores == {"Léa": 23, "Marc": 23} and r.caller_succeeded is False


def test_tamoul_counter_caller_wrong_and_caller_failing():
    r = last(play("tamoul", "Léa Marc Nina", rnd({"Léa": 6, "Marc": 8, "Nina": 2}, "Léa", "Marc")))
    assert r.scores == {"Léa": 26, "Marc": 28, "Nina": 2} and r.winners == ["Nina"]


def test_tamoul_counter_call_needs_a_caller_and_another_player():
    with pytest.raises(GameError, match="a counter-call needs a caller"):
        play("tamoul", "Léa Marc", rnd({"Léa": 1, "Marc": 2}, counter="Marc"))
    with pytest.raises(GameError, match="cannot counter their own call"):
        play("tamoul", "Léa Marc", rnd({"Léa": 1, "Marc": 2}, "Léa", "Léa"))


def test_counter_call_only_in_tamoul():
    with pytest.raises(GameError, match=r"no counter-call in Tamalou \(classic\)"):
        play("tamalou", "Léa Marc", rnd({"Léa": 1, "Marc": 2}, "Léa", "Marc"))


def test_tamoul_total_of_exactly_100_falls_back_to_50():
    sheet = play("tamoul", "Léa Marc", rnd({"Léa": 60, "Marc": 1}), rnd({"Léa": 40, "Marc": 1}))
    assert sheet.totals == {"Léa": 50, "Marc": 2}
    assert last(sheet).adjusted == ["Léa"] and not sheet.finished
    assert "falls back to 50" in " ".join(map(str, last(sheet).notes))


def test_tamoul_game_ends_when_a_total_goes_over_100():
    sheet = play("tamoul", "Léa Marc", rnd({"Léa": 60, "Marc": 1}), rnd({"Léa": 40.5, "Marc": 1}))
    assert sheet.totals == {"Léa": F("100.5"), "Marc": 2}
    assert sheet.finished and sheet.winners == ["Marc"]


def test_half_points_outside_tamoul_are_refused():
    with pytest.raises(GameError, match="there are no half points in Tamalou") as error:
        play("tamalou", "Léa Marc", rnd({"Léa": 2.5, "Marc": 2}))
    assert (error.value.round, error.value.player) == (1, "Léa")
    with pytest.raises(GameError, match="there are no half points in Dutch"):
        play("dutch", "Léa Marc", rnd({"Léa": 2, "Marc": 2}, penalties=[("Marc", 0.5)]))


def test_tamoul_refuses_quarter_points():
    with pytest.raises(GameError, match="only whole or half points"):
        play("tamoul", "Léa Marc", rnd({"Léa": 2.25, "Marc": 2}))


# --- fontenaysien ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "score"),
    [(0, -5), (1, 5), (5, 5), (6, 10), (10, 10), (11, 15), (15, 15), (16, 30), (60, 30)],
)
def test_fontenaysien_scale(total, score):
    r = last(play("fontenaysien", "Léa Marc", rnd({"Léa": total, "Marc": 3})))
    assert r.scores["Léa"] == score


def test_fontenaysien_emptied_hand_scores_minus_10():
    r = last(play("fontenaysien", "Léa Marc", rnd({"Léa": "", "Marc": "KH"}, emptied=["Léa"])))
    assert r.scores == {"Léa": -10, "Marc": -5} and r.winners == ["Léa"]


def test_fontenaysien_has_no_caller_bonus_or_penalty():
    r = last(play("fontenaysien", "Léa Marc", rnd({"Léa": 12, "Marc": 3}, "Léa")))
    assert r.scores == {"Léa": 15, "Marc": 5} and r.caller_succeeded is False


def test_fontenaysien_reaching_100_ends_the_game_and_loses():
    rounds = [rnd({"Léa": 20, "Marc": 3, "Nina": 8})] * 4  # 30, 5, 10 a round
    sheet = play("fontenaysien", "Léa Marc Nina", *rounds)
    assert sheet.totals == {"Léa": 120, "Marc": 20, "Nina": 40}
    assert sheet.finished and sheet.losers == ["Léa"] and sheet.winners == ["Marc"]
    assert not play("fontenaysien", "Léa Marc Nina", *rounds[:3]).finished


def test_fontenaysien_half_game_ends_at_50():
    rounds = [rnd({"Léa": 20, "Marc": 3})] * 2
    sheet = play("fontenaysien", "Léa Marc", *rounds, half_game=True)
    assert sheet.totals["Léa"] == 60 and sheet.finished and sheet.losers == ["Léa"]


def test_fontenaysien_minus_50_is_the_grand_winner():
    rounds = [rnd({"Léa": "", "Marc": 3}, emptied=["Léa"])] * 5
    sheet = play("fontenaysien", "Léa Marc", *rounds)
    assert sheet.totals == {"Léa": -50, "Marc": 25}
    assert sheet.finished and sheet.winners == ["Léa"] and sheet.losers == []
    half = play("fontenaysien", "Léa Marc", *rounds[:3], half_game=True)
    assert half.totals["Léa"] == -30 and half.finished


# --- cabo bruxellois --------------------------------------------------------------


def test_cabo_caller_over_5_scores_10_alone():
    r = last(play("cabo_bruxellois", "Léa Marc Nina", rnd({"Léa": 9, "Marc": 4, "Nina": 1}, "Léa")))
    assert r.scores == {"Léa": 10, "Marc": 0, "Nina": 0}
    assert r.caller_succeeded is False and r.winners == ["Nina"]


def test_cabo_negative_caller_scores_0_and_gives_his_points_to_the_others():
    r = last(play("cabo_bruxellois", "Léa Marc", rnd({"Léa": "KH KD AS", "Marc": "5S"}, "Léa")))
    assert r.hand_totals == {"Léa": -3, "Marc": 5}
    assert r.scores == {"Léa": 0, "Marc": 8} and r.caller_succeeded is True


def test_cabo_negative_total_of_another_player_counts_as_0():
    r = last(play("cabo_bruxellois", "Léa Marc", rnd({"Léa": 3, "Marc": "KH"})))
    assert r.scores == {"Léa": 3, "Marc": 0}


def test_cabo_caller_beaten_pays_the_difference_with_the_lowest():
    r = last(play("cabo_bruxellois", "Léa Marc Nina", rnd({"Léa": 4, "Marc": 2, "Nina": 3}, "Léa")))
    assert r.scores == {"Léa": 6, "Marc": 2, "Nina": 3} and r.winners == ["Marc"]


def test_cabo_caller_tied_scores_his_hand_but_does_not_succeed():
    r = last(play("cabo_bruxellois", "Léa Marc", rnd({"Léa": 4, "Marc": 4}, "Léa")))
    assert r.scores == {"Léa": 4, "Marc": 4}
    assert r.caller_succeeded is False and r.winners == ["Marc"]


def test_cabo_wrong_quick_discard_costs_2_penalty_points():
    r = last(
        play(
            "cabo_bruxellois",
            "Léa Marc",
            rnd({"Léa": 1, "Marc": 4}, "Léa", penalties=[("Marc", 2, "wrong quick discard")]),
        )
    )
    assert r.scores == {"Léa": 1, "Marc": 6}
    assert "Marc: 2 penalty points (wrong quick discard)." in map(str, r.notes)


def test_cabo_game_ends_after_the_agreed_rounds():
    sheet = play("cabo_bruxellois", "Léa Marc", rnd({"Léa": 1, "Marc": 4}), rounds=1)
    assert sheet.finished and sheet.winners == ["Léa"]


# --- dutch toulousain --------------------------------------------------------------


def test_dutch_toulousain_dutcher_draws_a_card_per_player_under_him():
    r = last(
        play(
            "dutch_toulousain",
            "Léa Marc Nina Omar",
            rnd(
                {"Léa": "6C", "Marc": "3H", "Nina": "KH 2S", "Omar": "10S"},
                "Léa",
                penalty_cards="4D QC",
            ),
        )
    )
    assert r.penalty_cards_due == 2
    assert r.hand_totals["Léa"] == 6 + 4 + 12 and r.scores["Léa"] == 22
    assert r.caller_succeeded is False and r.winners == ["Nina"]


def test_dutch_toulousain_wrong_number_of_penalty_cards_is_refused():
    hands = {"Léa": "6C", "Marc": "3H", "Nina": "9S"}
    with pytest.raises(GameError, match="draws 1 penalty card") as error:
        play("dutch_toulousain", "Léa Marc Nina", rnd(hands, "Léa"))
    assert (error.value.player, error.value.field) == ("Léa", "penalty_cards")
    with pytest.raises(GameError, match="not 2"):
        play("dutch_toulousain", "Léa Marc Nina", rnd(hands, "Léa", penalty_cards="2D 3D"))


def test_dutch_toulousain_no_penalty_card_when_nobody_beat_the_dutcher():
    r = last(play("dutch_toulousain", "Léa Marc", rnd({"Léa": "3C", "Marc": "3H"}, "Léa")))
    assert r.penalty_cards_due == 0 and r.caller_succeeded is True


def test_dutch_toulousain_tie_including_the_dutcher_goes_to_the_dutcher():
    r = last(
        play("dutch_toulousain", "Léa Marc Nina", rnd({"Léa": 3, "Marc": 5, "Nina": 3}, "Nina"))
    )
    assert r.winners == ["Nina"]


def test_dutch_toulousain_other_tie_goes_to_the_first_after_the_dutcher():
    r = last(
        play(
            "dutch_toulousain",
            "Léa Marc Nina Omar",
            rnd({"Léa": 1, "Marc": 1, "Nina": 5, "Omar": 1}, "Nina", penalty_cards="2C 3C 7H"),
        )
    )
    assert r.hand_totals["Nina"] == 17 and r.winners == ["Omar"]
    r = last(
        play(
            "dutch_toulousain",
            "Léa Marc Nina Omar",
            rnd({"Léa": 1, "Marc": 1, "Nina": 9, "Omar": 6}, "Omar", penalty_cards="2C 3C"),
        )
    )
    assert r.winners == ["Léa"]  # after Omar comes Léa, turn order wraps around


def test_penalty_cards_only_in_dutch_toulousain():
    with pytest.raises(GameError, match="no penalty cards in Dutch"):
        play("dutch", "Léa Marc", rnd({"Léa": 3, "Marc": 1}, "Léa", penalty_cards="2C"))


def test_dutch_toulousain_ends_when_a_total_goes_over_100():
    sheet = play("dutch_toulousain", "Léa Marc", rnd({"Léa": 100, "Marc": 1}))
    assert not sheet.finished
    sheet = play("dutch_toulousain", "Léa Marc", rnd({"Léa": 101, "Marc": 1}))
    assert sheet.finished and sheet.winners == ["Marc"]


# --- every variant -------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_penalty_points_are_added_after_the_variant_scoring(variant):
    without = last(play(variant, "Léa Marc", rnd({"Léa": 3, "Marc": 9}, "Léa")))
    with_penalty = last(
        play(variant, "Léa Marc", rnd({"Léa": 3, "Marc": 9}, "Léa", penalties=[("Léa", 2)]))
    )
    assert with_penalty.scores["Léa"] == without.scores["Léa"] + 2
    assert with_penalty.winners == without.winners


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_score_comes_with_an_explanation(variant):
    r = last(play(variant, "Léa Marc", rnd({"Léa": 3, "Marc": 9}, "Léa")))
    text = " ".join(map(str, r.notes))
    assert r.notes and "{" not in text


def test_rounds_setting_is_taken_by_every_variant():
    for variant in VARIANTS:
        sheet = play(variant, "Léa Marc", rnd({"Léa": 1, "Marc": 9}), rounds=1)
        assert sheet.finished and sheet.winners == ["Léa"], variant
