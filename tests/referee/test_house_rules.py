"""House rules (docs/rules.md, "House settings"): every setting scored in every variant that takes
it, hand-computed, and the refusals of bad settings. Pure Python: no Django."""

from __future__ import annotations

import json

import pytest

from scoring.referee.cards import Card, parse_card
from scoring.referee.engine import GameEntry, GameError, check_settings, score_game
from scoring.referee.gamefile import dumps, game_to_json, read_game
from scoring.referee.house import CARD_VALUES, RESET, SettingError, card_value_key
from scoring.referee.variants import VARIANTS
from tests.helpers import EXAMPLES, F, last, play, rnd

pytestmark = pytest.mark.no_database


def notes(result) -> list[str]:
    return [str(n) for n in result.notes]


def refusal(variant: str, **settings) -> GameError:
    with pytest.raises(GameError) as error:
        play(variant, "Léa Marc", **settings)
    return error.value


# --- the table of defaults -----------------------------------------------------------


def test_every_variant_takes_the_settings_of_rules_md_table_with_its_defaults():
    none = object()
    table = {
        #                  rounds decks deck jokers threshold joker half bonus penalty limit reset
        "tamalou": (None, 1, "52", 2, 5, 0, none, 0, 0, None, None),
        "gabo": (None, 1, "52", 2, 7, 0, none, 0, 0, None, None),
        "koubo": (10, 1, "32", 2, none, none, none, -3, 20, None, None),
        "dutch": (None, 1, "52", 0, none, none, none, none, none, 100, None),
        "tamoul": (None, 1, "52", 0, F("6.5"), none, none, -20, 20, 100, {"at": 100, "to": 50}),
        "fontenaysien": (None, 1, "52", 2, 5, 0, False, none, none, none, none),
        "cabo_bruxellois": (None, 1, "52", 0, 5, none, none, none, 10, None, None),
        "dutch_toulousain": (None, 1, "52", 0, none, none, none, none, none, 100, None),
    }
    names = [
        "rounds",
        "decks",
        "deck",
        "jokers",
        "call_threshold",
        "joker_value",
        "half_game",
        "call_bonus",
        "call_penalty",
        "limit",
        "reset",
    ]
    for key, row in table.items():
        expected = {
            name: value for name, value in zip(names, row, strict=True) if value is not none
        }
        expected["card_values"] = {}
        assert dict(VARIANTS[key].defaults) == expected, key


def test_default_settings_written_out_score_like_no_settings():
    game = read_game((EXAMPLES / "tamoul.game.json").read_text())
    spelled = GameEntry(game.variant, game.players, game.rounds, dict(VARIANTS["tamoul"].defaults))
    assert score_game(spelled) == score_game(game)


# --- card values -----------------------------------------------------------------------


def test_a_card_value_wins_over_its_rank_and_the_rank_over_the_variant():
    rules = VARIANTS["tamalou"](card_values={"K": 13, "KH": -1, "Q": 12})
    assert rules.value(parse_card("KH")) == -1 and rules.value(parse_card("KD")) == 13
    assert rules.value(parse_card("KS")) == 13 and rules.value(parse_card("QC")) == 12
    assert rules.value(parse_card("JC")) == 10  # untouched
    sheet = play(
        "tamalou", "Léa Marc", rnd({"Léa": "KH QC", "Marc": "KD"}), card_values={"KH": -1, "Q": 12}
    )
    assert last(sheet).hand_totals == {"Léa": 11, "Marc": 0}


def test_card_values_count_in_dutch_toulousain_penalty_cards():
    sheet = play(
        "dutch_toulousain",
        "Léa Marc",
        rnd({"Léa": 6, "Marc": 3}, "Léa", penalty_cards="QC"),
        card_values={"Q": 0},
    )
    assert last(sheet).hand_totals == {"Léa": 6, "Marc": 3}
    assert last(sheet).scores == {"Léa": 6, "Marc": 3}


def test_a_negative_joker_makes_negative_typed_totals_legal_down_to_every_negative_card():
    sheet = play(
        "dutch", "Léa Marc", rnd({"Léa": -10, "Marc": 3}), jokers=2, card_values={"JOKER": -5}
    )
    assert last(sheet).hand_totals["Léa"] == -10
    with pytest.raises(GameError, match="the lowest possible in Dutch is -10"):
        play("dutch", "Léa Marc", rnd({"Léa": -11, "Marc": 3}), jokers=2, card_values={"JOKER": -5})
    # Two decks: twice the jokers.
    sheet = play(
        "dutch",
        "Léa Marc",
        rnd({"Léa": -20, "Marc": 3}),
        jokers=2,
        decks=2,
        card_values={"JOKER": -5},
    )
    assert last(sheet).hand_totals["Léa"] == -20


def test_negative_typed_totals_are_refused_when_no_card_of_the_deck_is_negative():
    with pytest.raises(GameError, match="no card is worth less than 0"):
        play("cabo_bruxellois", "Léa Marc", rnd({"Léa": -1, "Marc": 3}), card_values={"K": 13})
    sheet = play("tamalou", "Léa Marc", rnd({"Léa": -1, "Marc": 3}), card_values={"KH": -1})
    assert last(sheet).hand_totals["Léa"] == -1
    with pytest.raises(GameError, match=r"the lowest possible in Tamalou \(classic\) is -1"):
        play("tamalou", "Léa Marc", rnd({"Léa": -2, "Marc": 3}), card_values={"KH": -1})


def test_half_points_in_card_values_only_in_tamoul():
    rules = VARIANTS["tamoul"](card_values={"J": 7.5})
    assert rules.value(parse_card("JS")) == F("7.5")
    error = refusal("tamalou", card_values={"J": 7.5})
    assert str(error) == "“Card values”, J: 7.5 is not a whole number of points."


def test_fontenaysien_card_values_feed_its_scale():
    sheet = play(
        "fontenaysien", "Léa Marc", rnd({"Léa": "JOKER", "Marc": "2S"}), card_values={"JOKER": -5}
    )
    assert last(sheet).hand_totals == {"Léa": -5, "Marc": 2}
    assert last(sheet).scores == {"Léa": -5, "Marc": 5}


# --- deck and jokers ---------------------------------------------------------------------


def test_a_32_card_deck_has_no_2_to_6_and_a_52_card_koubo_has_them():
    with pytest.raises(GameError, match=r"there is no 2♠ in the Tamalou \(classic\) deck"):
        play("tamalou", "Léa Marc", rnd({"Léa": "2S", "Marc": "7S"}), deck="32")
    sheet = play("koubo", "Léa Marc", rnd({"Léa": "2S 6H", "Marc": "7S"}), deck="52")
    assert last(sheet).hand_totals == {"Léa": 8, "Marc": 7}
    assert len(VARIANTS["koubo"](deck="52").deck()) == 52 + 1
    assert len(VARIANTS["tamalou"](deck="32", jokers=0).deck()) == 32


def test_jokers_per_deck_and_twice_as_many_with_two_decks():
    with pytest.raises(
        GameError, match=r"2 jokers in one round \(Léa, Marc\), but there are only 1"
    ):
        play("tamalou", "Léa Marc", rnd({"Léa": "JOKER", "Marc": "JOKER"}), jokers=1)
    sheet = play("tamalou", "Léa Marc", rnd({"Léa": "JOKER", "Marc": "JOKER"}), jokers=1, decks=2)
    assert last(sheet).hand_totals == {"Léa": 0, "Marc": 0}
    # A joker in a variant that has none by default is worth 0 unless card_values says so.
    sheet = play("dutch", "Léa Marc", rnd({"Léa": "JOKER 3S", "Marc": "2S"}), jokers=1)
    assert last(sheet).hand_totals == {"Léa": 3, "Marc": 2}
    with pytest.raises(GameError, match=r"there is no joker in the Tamalou \(classic\) deck"):
        play("tamalou", "Léa Marc", rnd({"Léa": "JOKER", "Marc": "2S"}), jokers=0)


# --- the call's bonus and penalty ---------------------------------------------------------


def test_tamalou_call_bonus_and_penalty():
    won = play("tamalou", "Léa Marc", rnd({"Léa": 2, "Marc": 8}, "Léa"), call_bonus=-5)
    assert last(won).scores == {"Léa": -5, "Marc": 8}
    assert notes(last(won))[0] == (
        "Léa called Tamalou with 2 and was strictly lowest: -5 points; the others score their "
        "hand totals."
    )
    lost = play(
        "gabo", "Léa Marc Nina", rnd({"Léa": 5, "Marc": 3, "Nina": 9}, "Léa"), call_penalty=10
    )
    assert last(lost).scores == {"Léa": 15, "Marc": 0, "Nina": 9}
    assert "The call fails: Léa scores 5 + 10 = 15." in notes(last(lost))
    assert last(lost).winners == ["Marc"]


def test_koubo_bonus_penalty_and_round_winners_with_the_caller():
    won = play("koubo", "Léa Marc", rnd({"Léa": 1, "Marc": 7}, "Léa"), call_bonus=-10)
    assert last(won).scores == {"Léa": -10, "Marc": 7}
    assert notes(last(won))[0] == (
        "Léa called Koubo with 1 and was strictly lowest: -10 in place of the hand total."
    )
    tied = play("koubo", "Léa Marc", rnd({"Léa": 7, "Marc": 7}, "Léa"), call_penalty=5)
    assert last(tied).scores == {"Léa": 12, "Marc": 7}
    assert last(tied).winners == ["Léa", "Marc"] and last(tied).caller_succeeded is False
    assert notes(last(tied))[0] == (
        "Léa called Koubo with 7 but was not strictly lowest: 7 + 5 = 12."
    )


def test_tamoul_bonus_and_penalty_reach_the_counter_caller_too():
    right = play(
        "tamoul",
        "Léa Marc Nina",
        rnd({"Léa": 4, "Marc": 2, "Nina": 9}, "Léa", "Marc"),
        call_bonus=-10,
        call_penalty=5,
    )
    assert last(right).scores == {"Léa": 4, "Marc": -10, "Nina": 9}
    wrong = play(
        "tamoul",
        "Léa Marc Nina",
        rnd({"Léa": 2, "Marc": 4, "Nina": 9}, "Léa", "Marc"),
        call_bonus=-10,
        call_penalty=5,
    )
    assert last(wrong).scores == {"Léa": -10, "Marc": 9, "Nina": 9}
    assert notes(last(wrong))[0] == (
        "Marc said contre-Tamoul with 4, not fewer than Léa's 2: 4 + 5 = 9."
    )


def test_cabo_missed_call_scores_the_call_penalty():
    sheet = play("cabo_bruxellois", "Léa Marc", rnd({"Léa": 9, "Marc": 2}, "Léa"), call_penalty=15)
    assert last(sheet).scores == {"Léa": 15, "Marc": 0}
    assert notes(last(sheet)) == [
        "Missed Cabo: Léa called with 9, over 5. Léa scores 15, everyone else 0."
    ]


def test_cabo_step_3_below_0_counts_as_0_with_true_arithmetic():
    sheet = play("cabo_bruxellois", "Léa Marc", rnd({"Léa": "KH", "Marc": -3}, "Léa"))
    result = last(sheet)
    assert result.scores == {"Léa": 0, "Marc": 2}
    assert notes(result)[-1] == (
        "Léa called Cabo with -2 but someone had -3: -2 + 1 = -1, counted as 0."
    )


# --- limit, rounds and reset -----------------------------------------------------------------


def test_dutch_limit_knocks_out_at_reaching_it_and_none_means_never():
    sheet = play("dutch", "Léa Marc Nina", rnd({"Léa": 50, "Marc": 49, "Nina": 1}), limit=50)
    assert sheet.eliminated == ["Léa"] and not sheet.finished
    assert notes(last(sheet))[-1] == "Léa has 50, reaches 50 and is out of the game."
    sheet = play("dutch", "Léa Marc", rnd({"Léa": 150, "Marc": 1}), limit=None)
    assert sheet.eliminated == [] and not sheet.finished


def test_the_other_variants_end_over_the_limit_or_at_the_rounds_whichever_first():
    at_limit = play("tamalou", "Léa Marc", rnd({"Léa": 60, "Marc": 1}), limit=60)
    assert not at_limit.finished
    over = play("tamalou", "Léa Marc", rnd({"Léa": 61, "Marc": 1}), limit=60)
    assert over.finished and over.winners == ["Marc"]
    rounds_first = play("koubo", "Léa Marc", rnd({"Léa": 1, "Marc": 2}), rounds=1, limit=100)
    assert rounds_first.finished
    sheet = play("tamoul", "Léa Marc", rnd({"Léa": 120, "Marc": 1}), limit=150)
    assert not sheet.finished


def test_a_reset_comes_after_penalties_and_before_elimination_once():
    sheet = play(
        "dutch",
        "Léa Marc Nina",
        rnd({"Léa": 98, "Marc": 3, "Nina": 5}, penalties=[("Léa", 2)]),
        reset={"at": 100, "to": 50},
    )
    assert last(sheet).totals["Léa"] == 50 and sheet.eliminated == []
    assert last(sheet).adjusted == ["Léa"]
    assert notes(last(sheet))[-1] == "Léa reached exactly 100 and falls back to 50."
    # Once: falling back onto another reset point does not chain.
    sheet = play("tamalou", "Léa Marc", rnd({"Léa": 20, "Marc": 3}), reset={"at": 20, "to": 40})
    assert last(sheet).totals == {"Léa": 40, "Marc": 3}


def test_tamoul_without_its_reset_keeps_100():
    sheet = play("tamoul", "Léa Marc", rnd({"Léa": 100, "Marc": 1}), reset=None)
    assert last(sheet).totals["Léa"] == 100 and last(sheet).adjusted == []


def test_landmarks_follow_the_settings():
    def marks(key, **settings):
        return [(m.total, str(m.label)) for m in VARIANTS[key](**settings).landmarks()]

    assert marks("tamalou") == []
    assert marks("tamalou", limit=60, reset={"at": 40, "to": 0}) == [
        (40, "40 → 0"),
        (60, "over 60: the end"),
    ]
    assert marks("dutch", limit=80) == [(80, "80: out")]
    assert marks("tamoul") == [(100, "100 → 50; over: the end")]
    assert VARIANTS["koubo"](reset={"at": 100, "to": 50}).adjustment_label == "100 → 50"


# --- bad settings -------------------------------------------------------------------------


def test_every_bad_setting_is_named_in_words_all_at_once():
    error = refusal(
        "tamalou",
        call_bonus=200,
        limit=5,
        card_values={"5H": 99, "Z": 1},
        reset={"at": 10, "to": 10},
    )
    assert str(error) == (
        "“Card values”, 5H: a number from -50 to 50. "
        "“Successful call scores” must be a whole number from -100 to 100. "
        "“Game limit” must be a whole number from 10 to 1000. "
        "“Fall back”: 10 cannot fall back to itself."
    )
    assert [p.field for p in error.problems] == [
        "settings.card_values",
        "settings.call_bonus",
        "settings.limit",
        "settings.reset",
    ]


def test_a_card_not_in_the_deck_and_the_joker_set_twice_are_refused():
    error = refusal("koubo", card_values={"5": 1, "3H": 2})
    assert str(error) == (
        "“Card values”: there is no 5 in this deck. “Card values”: there is no 3H in this deck."
    )
    assert str(refusal("dutch", card_values={"JOKER": 1})) == (
        "“Card values”: there is no joker in this deck."
    )
    assert str(refusal("tamalou", joker_value=3, card_values={"JOKER": 1})) == (
        "“Card values”: the joker's value is set twice, here and in “Joker value”."
    )
    # The joker through card_values alone is fine, in a variant with joker_value too.
    assert VARIANTS["tamalou"](card_values={"JOKER": -5}).value(Card("JOKER")) == -5


RESET_BOUNDS = (
    "“Fall back”: a total of exactly 1 to 1000 falls back to a whole number from -1000 to 1000."
)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"deck": 52}, "“Deck” must be one of: 52, 32."),
        ({"jokers": 3}, "“Jokers per deck” must be one of: 0, 1, 2."),
        ({"jokers": 1.0}, "“Jokers per deck” must be one of: 0, 1, 2."),
        ({"call_penalty": -1}, "“Failed call costs” must be a whole number from 0 to 100."),
        ({"call_bonus": 1.5}, "“Successful call scores” must be a whole number from -100 to 100."),
        ({"limit": 1001}, "“Game limit” must be a whole number from 10 to 1000."),
        (
            {"card_values": []},
            "“Card values” must map cards (a rank, a card such as KH, or JOKER) to points.",
        ),
        ({"card_values": {"Q": "1"}}, "“Card values”, Q: a number from -50 to 50."),
        ({"card_values": {"q": 1, "Q": 2}}, "“Card values”: Q is given twice."),
        (
            {"card_values": {"ZZ": 1}},
            "“Card values”: 'ZZ' is not a rank, a card (such as KH) or JOKER.",
        ),
        (
            {"reset": {"at": 0, "to": 5}},
            RESET_BOUNDS,
        ),
        (
            {"reset": {"at": 50, "to": 1.5}},
            RESET_BOUNDS,
        ),
        (
            {"reset": {"at": 50}},
            "“Fall back” must be off, or a total “at” that falls back “to” another.",
        ),
        ({"reset": 50}, "“Fall back” must be off, or a total “at” that falls back “to” another."),
    ],
)
def test_a_bad_setting_says_what_is_allowed(settings, message):
    error = refusal("tamalou", **settings)
    assert str(error) == message
    assert error.field == f"settings.{next(iter(settings))}"


def test_a_setting_the_variant_does_not_take_is_an_error():
    with pytest.raises(GameError, match="fontenaysien takes no setting 'limit'"):
        check_settings("fontenaysien", {"limit": 100})
    with pytest.raises(GameError, match="dutch takes no setting 'call_bonus'"):
        check_settings("dutch", {"call_bonus": 1})


def test_card_value_keys_are_read_in_their_canonical_form():
    assert [card_value_key(k) for k in ("q", " KH ", "joker", "10♥", "1", 5)] == [
        "Q",
        "KH",
        "JOKER",
        "10H",
        None,
        None,
    ]
    assert VARIANTS["tamalou"](card_values={"kh": -1}).settings["card_values"] == {"KH": -1}


def test_settings_written_as_text_read_back():
    assert CARD_VALUES.text({"JOKER": -5, "KH": F("0.5")}) == "JOKER:-5,KH:0.5"
    assert CARD_VALUES.from_text("JOKER:-5,KH:0.5", halves=True) == {"JOKER": -5, "KH": F("0.5")}
    assert RESET.text({"at": 100, "to": 50}) == "100:50" and RESET.text(None) == ""
    assert RESET.from_text("100:50", halves=False) == {"at": 100, "to": 50}
    assert RESET.from_text("", halves=False) is None
    with pytest.raises(SettingError):
        RESET.from_text("100:x", halves=False)


def test_the_builder_gets_the_chosen_deck_with_each_cards_default():
    rows = VARIANTS["koubo"](deck="52", jokers=1, card_values={"KH": 5}).card_value_rows()
    assert [row["key"] for row in rows] == [
        *["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"],
        "JOKER",
    ]
    king = rows[-2]
    assert king["default"] is None  # red 0, black 11
    assert [(c["key"], c["default"], c["value"]) for c in king["cards"]] == [
        ("KS", 11, 11),
        ("KH", 0, 5),
        ("KD", 0, 0),
        ("KC", 11, 11),
    ]
    assert rows[-1]["default"] == -1 and rows[1]["default"] == 2


# --- files -----------------------------------------------------------------------------------


def test_rules_name_is_read_trimmed_and_written_back():
    data = json.loads((EXAMPLES / "house_cabo_chez_mamie.game.json").read_text())
    data["rules_name"] = "  Chez Mamie "
    game = read_game(json.dumps(data))
    assert game.rules_name == "Chez Mamie"
    written = game_to_json(game)
    assert written["rules_name"] == "Chez Mamie" and written["settings"] == data["settings"]
    assert read_game(dumps(written)) == game


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, 7])
def test_a_bad_rules_name_is_refused(name):
    data = json.loads((EXAMPLES / "house_cabo_chez_mamie.game.json").read_text())
    data["rules_name"] = name
    with pytest.raises(GameError, match="the name of the house rules must be 1 to 40 characters"):
        read_game(json.dumps(data))


@pytest.mark.parametrize(("bonus", "said"), [(-1, "-1 point"), (1, "1 point"), (-2, "-2 points")])
def test_a_successful_calls_bonus_of_one_point_is_said_in_the_singular(bonus, said):
    result = last(play("tamalou", "Léa Marc", rnd({"Léa": 2, "Marc": 9}, "Léa"), call_bonus=bonus))
    assert result.scores == {"Léa": bonus, "Marc": 9}
    assert notes(result) == [
        f"Léa called Tamalou with 2 and was strictly lowest: {said}; the others score their "
        "hand totals."
    ]


def test_several_bad_settings_mark_the_first_field_the_form_shows():
    with pytest.raises(GameError) as error:
        check_settings("tamalou", {"decks": 3, "call_threshold": 200})
    assert error.value.field == "settings.call_threshold"
    assert [problem.field for problem in error.value.problems] == [
        "settings.call_threshold",
        "settings.decks",
    ]


def test_the_builder_gives_each_card_of_a_row():
    rows = VARIANTS["tamalou"]().card_value_rows()
    assert [c["card"] for c in rows[0]["cards"]] == [
        parse_card(code) for code in ["AS", "AH", "AD", "AC"]
    ]
