"""The referee at its edges: every limit from both sides, who deals, and the numbers in the
notes and refusals. Written against docs/rules.md and docs/game-format.md so that the mutation run
(``make mutate``) finds every changed comparison, constant and message. Pure Python."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from scoring.referee import engine, gamefile
from scoring.referee.cards import (
    Card,
    format_points,
    full_deck,
    json_number,
    parse_card,
    points,
)
from scoring.referee.engine import GameEntry, GameError, Penalty, RoundEntry, deals, score_game
from scoring.referee.gamefile import (
    dumps,
    game_to_json,
    parse_json,
    read_game,
    round_to_json,
    sheet_to_json,
)
from scoring.referee.house import CALL_THRESHOLD, DECKS, ROUNDS, HouseSetting, SettingError
from scoring.referee.notes import Note, Plural, Term, english_plural, names, note, plural_noop
from scoring.referee.variants import VARIANTS
from scoring.referee.variants.base import CardValues, Play, RedBlack, Variant, why_caller_failed
from tests.helpers import F, last, play, rnd

pytestmark = pytest.mark.no_database


def refusal(variant: str, players: str, *rounds: RoundEntry, **settings) -> GameError:
    with pytest.raises(GameError) as error:
        play(variant, players, *rounds, **settings)
    return error.value


def file_refusal(data) -> GameError:
    text = data if isinstance(data, str | bytes) else json.dumps(data)
    with pytest.raises(GameError) as error:
        score_game(read_game(text))
    return error.value


def where(error: GameError) -> tuple:
    return (str(error), error.round, error.player, error.field)


def texts(result) -> list[str]:
    return [str(n) for n in result.notes]


# --- cards ---------------------------------------------------------------------------


def test_cards_read_as_players_say_them():
    assert str(parse_card("10H")) == "10♥"
    assert str(parse_card("KS")) == "K♠"
    assert str(Card("JOKER")) == "joker"
    assert parse_card("qd").code == "QD" and Card("JOKER").code == "JOKER"
    assert parse_card("KD").is_red and not parse_card("KC").is_red


def test_points_are_written_whole_or_as_an_exact_half():
    assert format_points(F(-20)) == "-20"
    assert format_points(F("4.5")) == "4.5"
    assert format_points(F("4.5"), ",") == "4,5"
    assert format_points(F(12), ",") == "12"
    assert json_number(F(3)) == 3 and type(json_number(F(3))) is int
    assert json_number(F("-1.5")) == -1.5 and type(json_number(F("-1.5"))) is float
    assert points("6.5") == Fraction(13, 2) and points(2) == 2


def test_a_full_deck_is_every_rank_in_every_suit_then_the_jokers():
    deck = full_deck(("A", "K"), jokers=2)
    codes = ["AS", "AH", "AD", "AC", "KS", "KH", "KD", "KC", "JOKER", "JOKER"]
    assert [card.code for card in deck] == codes
    assert len(full_deck()) == 52


# --- notes -----------------------------------------------------------------------------


def test_english_plural_is_singular_only_for_one():
    assert english_plural("card", "cards", 1) == "card"
    assert english_plural("card", "cards", 0) == "cards"
    assert english_plural("card", "cards", 2) == "cards"


def test_a_plural_note_chooses_its_form_by_count():
    template = plural_noop("{count} card", "{count} cards")
    assert isinstance(template, Plural) and template == "{count} card"
    assert template.plural == "{count} cards"
    assert str(note(template, count=1)) == "1 card"
    assert str(note(template, count=3)) == "3 cards"


def test_a_note_shows_points_words_and_other_values_its_own_way():
    shown = note("{a} {b} {c} {d}", a=F("4.5"), b=Term("word"), c=7, d="Léa")
    assert str(shown) == "4.5 word 7 Léa"
    translated = shown.render(
        translate=lambda text: text.replace("word", "WORD"), number=lambda value: f"<{value}>"
    )
    assert translated == "<9/2> WORD 7 Léa"
    assert shown.params == (("a", F("4.5")), ("b", "word"), ("c", 7), ("d", "Léa"))
    assert isinstance(shown, Note) and names(["Léa", "Marc"]) == "Léa, Marc"


# --- house settings ---------------------------------------------------------------------


def setting_refusal(variant: str, **settings) -> tuple:
    error = refusal(variant, "Léa Marc", **settings)
    return str(error), error.field


ROUNDS_RANGE = "“Number of rounds” must be a whole number from 1 to 999."
THRESHOLD_RANGE = "“A call is allowed with at most” must be a number from 0 to 100."
JOKER_RANGE = "“Joker value” must be a number from -100 to 100."
INF, NAN = float("inf"), float("nan")


@pytest.mark.parametrize(
    ("variant", "name", "accepted", "refused", "message"),
    [
        ("tamalou", "rounds", [1, 999], [0, 1000, -1], ROUNDS_RANGE),
        ("tamalou", "rounds", [], [True, False, 2.0, "3"], ROUNDS_RANGE),
        ("tamalou", "call_threshold", [0, 100, 5.0], [-1, 101], THRESHOLD_RANGE),
        ("tamalou", "call_threshold", [], [True, "5", None, INF, NAN], THRESHOLD_RANGE),
        ("tamalou", "joker_value", [-100, 100], [-101, 101], JOKER_RANGE),
        ("tamoul", "call_threshold", [0.5, 100], [-0.5, 100.5], THRESHOLD_RANGE),
        ("tamalou", "decks", [1, 2], [0, 3, True, "1", None], "“Decks” must be one of: 1, 2."),
        (
            "fontenaysien",
            "half_game",
            [True, False],
            [1, 0, "yes", None],
            "“Half game (ends at 50 and -25)” must be true or false.",
        ),
    ],
)
def test_each_house_setting_accepts_its_bounds_and_refuses_past_them(
    variant, name, accepted, refused, message
):
    for value in accepted:
        sheet = play(variant, "Léa Marc", **{name: value})
        assert sheet.rounds == [] and not sheet.finished
        assert VARIANTS[variant](**{name: value}).settings[name] == value
    for value in refused:
        assert setting_refusal(variant, **{name: value}) == (message, f"settings.{name}"), value


def test_a_rounds_setting_may_be_left_empty_for_an_open_ended_game():
    assert VARIANTS["tamalou"](rounds=None).rounds is None
    assert VARIANTS["koubo"](rounds=None).rounds is None


def test_whole_settings_are_kept_as_whole_numbers():
    assert type(VARIANTS["tamalou"](call_threshold=5.0).threshold) is int
    assert VARIANTS["tamoul"](call_threshold=6.5).threshold == Fraction(13, 2)


def test_half_points_in_a_setting_only_where_the_variant_has_them():
    assert setting_refusal("tamalou", call_threshold=5.5) == (
        "“A call is allowed with at most” is 5.5: only whole points in this variant.",
        "settings.call_threshold",
    )
    assert setting_refusal("tamoul", call_threshold=6.25) == (
        "“A call is allowed with at most” is 6.25: only whole or half points.",
        "settings.call_threshold",
    )


def test_a_house_setting_error_keeps_its_template_and_values():
    with pytest.raises(SettingError) as error:
        ROUNDS.check(0, halves=False)
    assert error.value.message == "“{name}” must be a whole number from {low} to {high}."
    assert error.value.params == {"name": "Number of rounds", "low": 1, "high": 999}
    assert isinstance(error.value.params["name"], Term) and error.value.setting == "rounds"
    assert str(error.value) == error.value.message


def test_a_setting_changed_for_one_variant_keeps_everything_else():
    seven = CALL_THRESHOLD.but(default=7)
    assert (seven.name, seven.default, seven.low, seven.high) == ("call_threshold", 7, 0, 100)
    assert CALL_THRESHOLD.default == 5
    assert isinstance(seven, HouseSetting) and DECKS.default == 1


def test_unknown_settings_and_variants_are_named():
    error = refusal("tamalou", "Léa Marc", half_game=True)
    assert where(error) == (
        "tamalou takes no setting 'half_game' (it takes: rounds, call_threshold, joker_value, "
        "decks, deck, jokers, card_values, call_bonus, call_penalty, limit, reset).",
        None,
        None,
        "settings.half_game",
    )
    error = refusal("belote", "Léa Marc")
    assert str(error) == (
        "unknown variant 'belote'; one of: tamalou, gabo, koubo, dutch, tamoul, fontenaysien, "
        "cabo_bruxellois, dutch_toulousain, tambouille."
    )
    assert error.field == "variant"
    with pytest.raises(TypeError, match="tamalou takes no setting"):
        VARIANTS["tamalou"](half_game=True)


def test_a_variant_declares_its_defaults_from_its_house_settings():
    assert VARIANTS["tamalou"].defaults == {
        "rounds": None,
        "call_threshold": 5,
        "joker_value": 0,
        "decks": 1,
        "deck": "52",
        "jokers": 2,
        "card_values": {},
        "call_bonus": 0,
        "call_penalty": 0,
        "limit": None,
        "reset": None,
    }
    assert VARIANTS["koubo"].defaults == {
        "rounds": 10,
        "decks": 1,
        "deck": "32",
        "jokers": 2,
        "card_values": {},
        "call_bonus": -3,
        "call_penalty": 20,
        "limit": None,
        "reset": None,
    }
    assert VARIANTS["fontenaysien"].defaults["half_game"] is False

    class Tiny(Variant):
        key = "tiny"
        house_settings = (ROUNDS.but(default=3),)

    assert Tiny.defaults == {"rounds": 3}
    assert Tiny().rounds == 3 and Tiny(rounds=4).settings == {"rounds": 4}


# --- default call thresholds ----------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "threshold"),
    [
        ("tamalou", 5),
        ("gabo", 7),
        ("fontenaysien", 5),
        ("cabo_bruxellois", 5),
        ("tamoul", F("6.5")),
    ],
)
def test_default_call_thresholds(variant, threshold):
    assert VARIANTS[variant]().threshold == threshold


def test_fontenaysien_call_at_exactly_5_succeeds_and_at_6_fails():
    at_5 = last(play("fontenaysien", "Léa Marc", rnd({"Léa": 5, "Marc": 9}, "Léa")))
    assert at_5.caller_succeeded is True and at_5.scores == {"Léa": 5, "Marc": 10}
    at_6 = last(play("fontenaysien", "Léa Marc", rnd({"Léa": 6, "Marc": 9}, "Léa")))
    assert at_6.caller_succeeded is False and at_6.scores == {"Léa": 10, "Marc": 10}
    raised = play("fontenaysien", "Léa Marc", rnd({"Léa": 6, "Marc": 9}, "Léa"), call_threshold=6)
    assert last(raised).caller_succeeded is True
    tied = last(play("fontenaysien", "Léa Marc", rnd({"Léa": 3, "Marc": 3}, "Léa")))
    assert tied.caller_succeeded is False
    assert texts(at_5) == [
        "Scale: 0 or less scores -5, 1 to 5 scores 5, 6 to 10 scores 10, 11 to 15 scores 15, "
        "over 15 scores 30.",
        "No bonus or penalty for the caller.",
    ]


def test_cabo_call_at_exactly_5_is_scored_and_at_6_is_a_missed_cabo():
    at_5 = last(play("cabo_bruxellois", "Léa Marc", rnd({"Léa": 5, "Marc": 9}, "Léa")))
    assert at_5.scores == {"Léa": 5, "Marc": 9} and at_5.caller_succeeded is True
    assert at_5.winners == ["Léa"]
    at_6 = last(play("cabo_bruxellois", "Léa Marc", rnd({"Léa": 6, "Marc": 9}, "Léa")))
    assert at_6.scores == {"Léa": 10, "Marc": 0} and at_6.caller_succeeded is False
    assert at_6.winners == ["Marc"]
    assert texts(at_6) == [
        "Missed Cabo: Léa called with 6, over 5. Léa scores 10, everyone else 0."
    ]
    raised = last(
        play("cabo_bruxellois", "Léa Marc", rnd({"Léa": 6, "Marc": 9}, "Léa"), call_threshold=6)
    )
    assert raised.scores == {"Léa": 6, "Marc": 9}


def test_gabo_call_at_exactly_7_succeeds_and_at_8_fails():
    at_7 = last(play("gabo", "Léa Marc", rnd({"Léa": 7, "Marc": 9}, "Léa")))
    assert at_7.caller_succeeded is True
    assert texts(at_7) == [
        "Léa called Gabo with 7 and was strictly lowest: 0 points; the others score their "
        "hand totals."
    ]
    at_8 = last(play("gabo", "Léa Marc", rnd({"Léa": 8, "Marc": 9}, "Léa")))
    assert at_8.caller_succeeded is False and at_8.scores == {"Léa": 8, "Marc": 9}
    assert texts(at_8)[0] == "Léa called Gabo with 8, above the call threshold of 7."


def test_tamoul_call_at_exactly_6_5_succeeds_and_at_7_fails():
    at_limit = last(play("tamoul", "Léa Marc", rnd({"Léa": 6.5, "Marc": 9}, "Léa")))
    assert at_limit.scores == {"Léa": -20, "Marc": 9}
    over = last(play("tamoul", "Léa Marc", rnd({"Léa": 7, "Marc": 9}, "Léa")))
    assert over.scores == {"Léa": 27, "Marc": 9}
    assert texts(over) == [
        "Léa called Tamoul with 7, above the call threshold of 6.5.",
        "The call fails: Léa scores 7 + 20 = 27.",
        "The others score their hand totals.",
    ]


# --- players and names ------------------------------------------------------------------


def game(players, *rounds, variant="tamalou", **settings):
    return score_game(GameEntry(variant, tuple(players), tuple(rounds), settings))


def game_refusal(players, *rounds, variant="tamalou", **settings) -> GameError:
    with pytest.raises(GameError) as error:
        game(players, *rounds, variant=variant, **settings)
    return error.value


@pytest.mark.parametrize("count", [2, 8])
def test_two_and_eight_players_may_play(count):
    names_ = [f"P{i}" for i in range(count)]
    sheet = game(names_, rnd(dict.fromkeys(names_, 3)))
    assert sheet.players == tuple(names_) and len(last(sheet).scores) == count


@pytest.mark.parametrize("count", [0, 1, 9])
def test_fewer_than_two_or_more_than_eight_players_are_refused(count):
    error = game_refusal([f"P{i}" for i in range(count)])
    assert where(error) == (f"a game needs 2 to 8 players, not {count}.", None, None, "players")


def test_a_name_has_at_most_40_characters_after_trimming():
    longest = "L" * 40
    assert game([f"  {longest} ", "Marc"]).players == (longest, "Marc")
    error = game_refusal(["Marc", "L" * 41])
    assert where(error) == (
        "player 2: a name has at most 40 characters.",
        None,
        None,
        "players",
    )


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Léa", 7], "player 2: a name must be text."),
        (["Léa", " \t "], "player 2: the name is blank."),
        (["Lé\ta", "Marc"], "player 1: the name has an invisible control character."),
        (["Léa", "Marc", "lÉA"], "player 3: 'lÉA' is the same name as 'Léa'."),
    ],
)
def test_bad_names_are_refused_with_their_position(players, message):
    assert where(game_refusal(players)) == (message, None, None, "players")


EMOJI_NAMES = (
    "Chef 👩\u200d🍳",  # a joined emoji (ZWJ)
    "👨\u200d👩\u200d👧",  # a family: two joiners
    "Zoé 🇫🇷",  # a flag: two regional indicators
    "👍🏽 Marc",  # a skin tone
    "❤\ufe0f Léa",  # VS16
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Ewan",  # Scotland's flag
    "👩🏽\u200d🚀",  # a skin tone, then a joiner
    "🏳\ufe0f\u200d🌈",  # VS16, then a joiner
)


def test_names_with_emoji_sequences_are_kept_as_typed():
    assert game([*EMOJI_NAMES[:4], "Nina"]).players == (*EMOJI_NAMES[:4], "Nina")
    assert game([*EMOJI_NAMES[4:], "Nina"]).players == (*EMOJI_NAMES[4:], "Nina")


@pytest.mark.parametrize(
    "name",
    [
        "Lé\u200da",  # a joiner between letters
        "👩\u200d",  # a joiner joining nothing
        "\u200d🍳",
        "Léa\u200b",  # zero width space
        "\u202eaéL",  # right-to-left override
        "Léa\U000e0067\U000e007f",  # tags without their flag
        "🏴\U000e0067",  # a flag's tags without their end
        "Léa\ue000",  # private use
        "Léa\u0378",  # unassigned
        "Léa\x00",
    ],
)
def test_invisible_characters_outside_emoji_are_refused(name):
    assert where(game_refusal(["Marc", name])) == (
        "player 2: the name has an invisible control character.",
        None,
        None,
        "players",
    )


def test_names_are_trimmed_and_normalised_before_use():
    assert engine.clean_name("  Le\u0301a ") == "Léa"
    assert engine.clean_name(7) == "" and engine.clean_name(None) == ""
    assert game([" Le\u0301a", "Marc "]).players == ("Léa", "Marc")


# --- where a refusal says it is ------------------------------------------------------------


def test_a_refusal_says_round_and_player_when_it_knows_them():
    assert str(GameError("bad.", round=3, player="Léa")) == "Round 3, Léa: bad."
    assert str(GameError("bad.", round=3)) == "Round 3: bad."
    assert str(GameError("bad.", player="Léa")) == "Léa: bad."
    assert str(GameError("bad {what}.", what="card")) == "bad card."
    error = GameError("{count} bad.", round=2, player="Léa", field="hands", count=F("1.5"))
    assert (error.detail, error.field) == ("1.5 bad.", "hands")
    french = {
        "Round {round}, {player}: {detail}": "Manche {round}, {player} : {detail}",
        "Round {round}: {detail}": "Manche {round} : {detail}",
        "{player}: {detail}": "{player} : {detail}",
        "{count} bad.": "{count} mauvais.",
    }
    translate = lambda text: french.get(text, text)  # noqa: E731
    comma = lambda value: format_points(value, ",")  # noqa: E731
    assert error.render(translate, comma) == "Manche 2, Léa : 1,5 mauvais."
    assert GameError("x.", round=2).render(translate) == "Manche 2 : x."
    assert GameError("x.", player="Léa").render(translate) == "Léa : x."
    assert GameError("x.").render(translate) == "x."


# --- hand totals -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "settings", "lowest", "highest"),
    [
        ("tamalou", {}, 0, 330),
        ("tamalou", {"decks": 2}, 0, 660),
        ("tamalou", {"joker_value": 20}, 0, 370),
        ("tamalou", {"joker_value": -5}, -10, 330),
        ("tamalou", {"joker_value": -5, "decks": 2}, -20, 660),
        ("gabo", {}, 0, 330),
        ("koubo", {}, -2, 182),
        ("koubo", {"decks": 2}, -4, 364),
        ("dutch", {}, 0, 352),
        ("tamoul", {}, 0, 343),
        ("fontenaysien", {}, 0, 330),
        ("cabo_bruxellois", {}, -4, 338),
        ("cabo_bruxellois", {"decks": 2}, -8, 676),
        ("dutch_toulousain", {}, 0, 338),
    ],
)
def test_a_typed_hand_total_goes_from_all_negative_cards_to_all_positive_cards(
    variant, settings, lowest, highest
):
    sheet = play(variant, "Léa Marc", rnd({"Léa": lowest, "Marc": highest}), **settings)
    assert sheet.rounds[0].hand_totals == {"Léa": lowest, "Marc": highest}
    name = VARIANTS[variant].name
    under = refusal(variant, "Léa Marc", rnd({"Léa": lowest - 1, "Marc": 1}), **settings)
    if lowest == 0:
        message = (
            f"Round 1, Léa: a hand total of -1 is impossible: no card is worth less than 0 in "
            f"{name}."
        )
    else:
        message = (
            f"Round 1, Léa: a hand total of {lowest - 1} is impossible: the lowest possible in "
            f"{name} is {lowest}."
        )
    assert where(under) == (message, 1, "Léa", "hands")
    over = refusal(variant, "Léa Marc", rnd({"Léa": 1, "Marc": highest + 1}), **settings)
    assert where(over) == (
        f"Round 1, Marc: a hand total of {highest + 1} is impossible: all the cards together "
        f"make {highest}.",
        1,
        "Marc",
        "hands",
    )


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("12", "the hand total must be a number."),
        (True, "the hand total must be a number."),
        (float("inf"), "the hand total must be a finite number."),
        (float("nan"), "the hand total must be a finite number."),
        (2.5, "the hand total is 2.5: there are no half points in Tamalou (classic)."),
    ],
)
def test_a_typed_hand_total_must_be_a_whole_finite_number(hand, message):
    entry = RoundEntry(hands={"Léa": hand, "Marc": 3})
    assert where(game_refusal(["Léa", "Marc"], entry)) == (
        f"Round 1, Léa: {message}",
        1,
        "Léa",
        "hands",
    )


def test_tamoul_takes_half_points_but_no_quarter():
    assert last(play("tamoul", "Léa Marc", rnd({"Léa": 2.5, "Marc": 3}))).scores["Léa"] == F("2.5")
    error = refusal("tamoul", "Léa Marc", rnd({"Léa": 3, "Marc": 2.25}))
    assert where(error) == (
        "Round 1, Marc: the hand total is 2.25: only whole or half points.",
        1,
        "Marc",
        "hands",
    )


def test_a_card_outside_the_deck_is_named():
    error = refusal("koubo", "Léa Marc", rnd({"Léa": "7S", "Marc": "AS 6D"}))
    assert where(error) == (
        "Round 1, Marc: there is no 6♦ in the Koubo charentais deck.",
        1,
        "Marc",
        "hands",
    )
    assert VARIANTS["tamalou"]().in_deck(Card("JOKER")) and not VARIANTS["dutch"]().in_deck(
        Card("JOKER")
    )
    assert VARIANTS["koubo"]().in_deck(parse_card("7S")) and not VARIANTS["koubo"]().in_deck(
        parse_card("6S")
    )


# --- one card, one place ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "code"),
    [
        ("tamalou", "5H"),
        ("gabo", "5H"),
        ("koubo", "7H"),
        ("dutch", "5H"),
        ("tamoul", "5H"),
        ("fontenaysien", "5H"),
        ("cabo_bruxellois", "5H"),
        ("dutch_toulousain", "5H"),
    ],
)
def test_one_deck_holds_each_card_once_two_decks_twice(variant, code):
    hands = {"Léa": code, "Marc": code}
    error = refusal(variant, "Léa Marc", rnd(hands))
    card = str(parse_card(code))
    assert where(error) == (
        f"Round 1, Marc: the {card} 2 times in one round (Léa, Marc), but there are only 1 with "
        "one deck.",
        1,
        "Marc",
        "hands",
    )
    assert last(play(variant, "Léa Marc", rnd(hands), decks=2)).hand_totals["Marc"] == (
        VARIANTS[variant]().value(parse_card(code))
    )
    error = refusal(variant, "Léa Marc Nina", rnd({**hands, "Nina": code}), decks=2)
    assert str(error) == (
        f"Round 1, Nina: the {card} 3 times in one round (Léa, Marc, Nina), but there are only "
        "2 with two decks."
    )


def test_a_card_twice_in_one_hand_names_that_player_once():
    error = refusal("tamalou", "Léa Marc", rnd({"Léa": "5H 5H", "Marc": 3}))
    assert str(error) == (
        "Round 1, Léa: the 5♥ 2 times in one round (Léa), but there are only 1 with one deck."
    )


def test_two_jokers_per_deck_and_no_more():
    assert last(play("tamalou", "Léa Marc", rnd({"Léa": "JOKER", "Marc": "JOKER"}))).scores
    error = refusal("tamalou", "Léa Marc", rnd({"Léa": "JOKER JOKER", "Marc": "JOKER"}))
    assert where(error) == (
        "Round 1, Marc: 3 jokers in one round (Léa, Marc), but there are only 2 with one deck.",
        1,
        "Marc",
        "hands",
    )
    four = rnd({"Léa": "JOKER JOKER", "Marc": "JOKER JOKER"})
    assert last(play("tamalou", "Léa Marc", four, decks=2)).hand_totals == {"Léa": 0, "Marc": 0}
    error = refusal(
        "gabo", "Léa Marc", rnd({"Léa": "JOKER JOKER", "Marc": "JOKER JOKER JOKER"}), decks=2
    )
    assert str(error) == (
        "Round 1, Marc: 5 jokers in one round (Léa, Marc), but there are only 4 with two decks."
    )


def test_a_penalty_card_already_in_a_hand_is_refused():
    error = refusal(
        "dutch_toulousain",
        "Léa Marc",
        rnd({"Léa": "6C", "Marc": "4D"}, "Léa", penalty_cards="4D"),
    )
    assert where(error) == (
        "Round 1, Léa: the 4♦ 2 times in one round (Marc, Léa), but there are only 1 with one "
        "deck.",
        1,
        "Léa",
        "hands",
    )
    error = refusal(
        "dutch_toulousain", "Léa Marc", rnd({"Léa": "6C", "Marc": "4D"}, penalty_cards="2C 2C")
    )
    assert where(error) == (
        "Round 1: the 2♣ 2 times in one round (?), but there are only 1 with one deck.",
        1,
        None,
        "hands",
    )


# --- who is named in a round --------------------------------------------------------------

OUT_LÉA = rnd({"Léa": 100, "Marc": 1, "Nina": 1})  # dutch: Léa is out after round 1


@pytest.mark.parametrize(
    ("variant", "entry", "expected"),
    [
        (
            "tamalou",
            rnd({"Léa": 1, "Marc": 2, "Zoé": 3}),
            ("Round 1: 'Zoé' is not a player of this game.", 1, None, "hands"),
        ),
        ("tamalou", rnd({"Léa": 1}), ("Round 1, Marc: no hand for Marc.", 1, "Marc", "hands")),
        (
            "tamalou",
            rnd({"Léa": 1, "Marc": 2}, "Zoé"),
            ("Round 1: the caller 'Zoé' is not a player of this game.", 1, None, "caller"),
        ),
        (
            "tamalou",
            rnd({"Léa": 1, "Marc": 2}, "Léa", "Marc"),
            ("Round 1: there is no counter-call in Tamalou (classic).", 1, None, "counter_caller"),
        ),
        (
            "tamoul",
            rnd({"Léa": 1, "Marc": 2}, "Léa", "Zoé"),
            (
                "Round 1: the counter-caller 'Zoé' is not a player of this game.",
                1,
                None,
                "counter_caller",
            ),
        ),
        (
            "tamoul",
            rnd({"Léa": 1, "Marc": 2}, counter="Marc"),
            ("Round 1, Marc: a counter-call needs a caller.", 1, "Marc", "counter_caller"),
        ),
        (
            "tamoul",
            rnd({"Léa": 1, "Marc": 2}, "Léa", "Léa"),
            ("Round 1, Léa: the caller cannot counter their own call.", 1, "Léa", "counter_caller"),
        ),
        (
            "tamalou",
            rnd({"Léa": 0, "Marc": 2}, emptied=["Zoé"]),
            (
                "Round 1: the player who emptied their hand 'Zoé' is not a player of this game.",
                1,
                None,
                "emptied",
            ),
        ),
        (
            "tamalou",
            rnd({"Léa": 2, "Marc": 2}, emptied=["Léa"]),
            (
                "Round 1, Léa: got rid of all cards, so the hand must be empty (or 0).",
                1,
                "Léa",
                "emptied",
            ),
        ),
        (
            "tamalou",
            rnd({"Léa": "KH", "Marc": 2}, emptied=["Léa"]),
            (
                "Round 1, Léa: got rid of all cards, so the hand must be empty (or 0).",
                1,
                "Léa",
                "emptied",
            ),
        ),
        (
            "tamalou",
            rnd({"Léa": 0, "Marc": 2}, emptied=["Léa", "Léa"]),
            ("Round 1: a player is listed twice as emptied.", 1, None, "emptied"),
        ),
        (
            "tamalou",
            rnd({"Léa": 0, "Marc": 2}, penalties=[("Zoé", 2)]),
            (
                "Round 1: the player given penalty points 'Zoé' is not a player of this game.",
                1,
                None,
                "penalties",
            ),
        ),
    ],
)
def test_a_name_in_a_round_must_be_a_player_of_that_round(variant, entry, expected):
    assert where(refusal(variant, "Léa Marc", entry)) == expected


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            rnd({"Léa": 2, "Marc": 1, "Nina": 1}),
            ("Round 2, Léa: Léa is out of the game and has no hand.", 2, "Léa", "hands"),
        ),
        (
            rnd({"Marc": 1, "Nina": 1}, "Léa"),
            ("Round 2, Léa: the caller Léa is out of the game.", 2, "Léa", "caller"),
        ),
        (
            rnd({"Marc": 1, "Nina": 1}, penalties=[("Léa", 2)]),
            (
                "Round 2, Léa: the player given penalty points Léa is out of the game.",
                2,
                "Léa",
                "penalties",
            ),
        ),
    ],
)
def test_a_player_out_of_the_game_is_named_in_no_later_round(entry, expected):
    assert where(refusal("dutch", "Léa Marc Nina", OUT_LÉA, entry)) == expected


def test_an_emptied_hand_may_be_typed_as_0_or_given_as_no_cards():
    for hand in (0, ""):
        r = last(play("tamalou", "Léa Marc", rnd({"Léa": hand, "Marc": 4}, "Léa", emptied=["Léa"])))
        assert r.scores == {"Léa": 0, "Marc": 4} and r.caller_succeeded is True


# --- penalty points ---------------------------------------------------------------------


@pytest.mark.parametrize("points_", [999, -999, 1, -1])
def test_penalty_points_go_up_to_999_either_way(points_):
    entry = rnd({"Léa": 3, "Marc": 4}, penalties=[("Marc", points_)])
    r = last(play("tamalou", "Léa Marc", entry))
    assert r.scores == {"Léa": 3, "Marc": 4 + points_}
    assert texts(r)[-1] == f"Marc: {points_} penalty points."


@pytest.mark.parametrize(
    ("points_", "message"),
    [
        (1000, "penalty points go up to 999."),
        (-1000, "penalty points go up to 999."),
        (0, "penalty points cannot be 0."),
        (True, "penalty points must be a number."),
        ("2", "penalty points must be a number."),
        (float("inf"), "penalty points must be a finite number."),
        (0.5, "penalty points is 0.5: there are no half points in Dutch."),
    ],
)
def test_bad_penalty_points_are_refused(points_, message):
    error = refusal("dutch", "Léa Marc", rnd({"Léa": 3, "Marc": 4}, penalties=[("Marc", points_)]))
    assert where(error) == (f"Round 1, Marc: {message}", 1, "Marc", "penalties")


def test_tamoul_penalty_points_may_be_halves():
    r = last(play("tamoul", "Léa Marc", rnd({"Léa": 3, "Marc": 4}, penalties=[("Marc", 0.5)])))
    assert r.scores["Marc"] == F("4.5") and texts(r)[-1] == "Marc: 0.5 penalty points."
    error = refusal("tamoul", "Léa Marc", rnd({"Léa": 3, "Marc": 4}, penalties=[("Marc", 0.25)]))
    assert str(error) == "Round 1, Marc: penalty points is 0.25: only whole or half points."


def test_several_penalties_add_up_with_their_reasons():
    r = last(
        play(
            "cabo_bruxellois",
            "Léa Marc",
            rnd(
                {"Léa": 1, "Marc": 4},
                penalties=[("Marc", 2, "wrong quick discard"), ("Marc", 2), ("Léa", -3, "bonus")],
            ),
        )
    )
    assert r.scores == {"Léa": -2, "Marc": 8} and r.winners == ["Léa"]
    assert texts(r)[-3:] == [
        "Marc: 2 penalty points (wrong quick discard).",
        "Marc: 2 penalty points.",
        "Léa: -3 penalty points (bonus).",
    ]


# --- dutch toulousain's penalty cards -------------------------------------------------------


def test_penalty_cards_are_only_for_dutch_toulousain():
    error = refusal("dutch", "Léa Marc", rnd({"Léa": 3, "Marc": 1}, "Léa", penalty_cards="2C"))
    assert where(error) == (
        "Round 1: there are no penalty cards in Dutch.",
        1,
        None,
        "penalty_cards",
    )


@pytest.mark.parametrize(
    ("hands", "cards", "message"),
    [
        (
            {"Léa": 6, "Marc": 3, "Nina": 9},
            "",
            "1 player had fewer points than the caller, who draws 1 penalty card, not 0.",
        ),
        (
            {"Léa": 6, "Marc": 3, "Nina": 2},
            "4D",
            "2 players had fewer points than the caller, who draws 2 penalty cards, not 1.",
        ),
        (
            {"Léa": 3, "Marc": 3, "Nina": 9},
            "4D",
            "0 players had fewer points than the caller, who draws 0 penalty cards, not 1.",
        ),
    ],
)
def test_the_dutcher_draws_one_penalty_card_per_player_strictly_under_him(hands, cards, message):
    error = refusal("dutch_toulousain", "Léa Marc Nina", rnd(hands, "Léa", penalty_cards=cards))
    assert where(error) == (f"Round 1, Léa: {message}", 1, "Léa", "penalty_cards")


def test_a_joker_drawn_as_a_penalty_card_is_refused():
    # Dutch toulousain has every card but the joker, so the joker is the only card a dutcher
    # cannot draw; the refusal names the round, the dutcher and the joker.
    error = refusal(
        "dutch_toulousain", "Léa Marc", rnd({"Léa": 6, "Marc": 3}, "Léa", penalty_cards="JOKER")
    )
    assert (error.round, error.player) == (1, "Léa") and "joker" in str(error)


def test_dutch_capote_notes_count_the_cards_drawn():
    one = last(
        play(
            "dutch_toulousain",
            "Léa Marc Nina",
            rnd({"Léa": 6, "Marc": 3, "Nina": 9}, "Léa", penalty_cards="4D"),
        )
    )
    assert one.scores == {"Léa": 10, "Marc": 3, "Nina": 9} and one.penalty_cards_due == 1
    assert one.hand_totals["Léa"] == 10 and one.caller_succeeded is False
    assert texts(one) == [
        "Dutch capoté: 1 player had fewer points than Léa, who drew 4♦; it counts in the "
        "dutcher's hand: 10.",
        "Everyone scores their hand total.",
    ]
    two = last(
        play(
            "dutch_toulousain",
            "Léa Marc Nina",
            rnd({"Léa": 6, "Marc": 3, "Nina": 2}, "Léa", penalty_cards="4D QC"),
        )
    )
    assert texts(two)[0] == (
        "Dutch capoté: 2 players had fewer points than Léa, who drew 4♦, Q♣; they count in the "
        "dutcher's hand: 22."
    )
    assert two.winners == ["Nina"]


def test_dutch_toulousain_dutcher_nobody_beat_and_a_round_without_dutcher():
    r = last(play("dutch_toulousain", "Léa Marc", rnd({"Léa": 3, "Marc": 3}, "Marc")))
    assert r.caller_succeeded is True and r.winners == ["Marc"] and r.penalty_cards_due == 0
    assert texts(r) == [
        "Marc called Dutch with 3 and nobody had fewer: no penalty card.",
        "Everyone scores their hand total.",
    ]
    r = last(play("dutch_toulousain", "Léa Marc", rnd({"Léa": 3, "Marc": 3})))
    assert r.caller_succeeded is None and texts(r) == ["Everyone scores their hand total."]


@pytest.mark.parametrize(
    ("hands", "caller", "cards", "winner"),
    [
        # No dutcher: the first tied player in turn order, the first player included.
        ({"Léa": 2, "Marc": 5, "Nina": 2, "Omar": 7}, None, "", "Léa"),
        ({"Léa": 5, "Marc": 2, "Nina": 2, "Omar": 7}, None, "", "Marc"),
        ({"Léa": 5, "Marc": 6, "Nina": 2, "Omar": 2}, None, "", "Nina"),
        # A dutcher: the first tied player after him.
        ({"Léa": 9, "Marc": 2, "Nina": 2, "Omar": 9}, "Léa", "2C 3C", "Marc"),
        ({"Léa": 2, "Marc": 9, "Nina": 9, "Omar": 2}, "Marc", "2C 3C", "Omar"),
        ({"Léa": 2, "Marc": 9, "Nina": 2, "Omar": 9}, "Marc", "2C 3C", "Nina"),
        ({"Léa": 2, "Marc": 2, "Nina": 9, "Omar": 9}, "Omar", "2C 3C", "Léa"),
        # A tie with the dutcher goes to the dutcher.
        ({"Léa": 2, "Marc": 9, "Nina": 2, "Omar": 7}, "Nina", "", "Nina"),
    ],
)
def test_dutch_toulousain_round_winner_ties(hands, caller, cards, winner):
    r = last(
        play("dutch_toulousain", "Léa Marc Nina Omar", rnd(hands, caller, penalty_cards=cards))
    )
    assert r.winners == [winner]


# --- the notes of each variant, with their numbers ------------------------------------------


def test_tamalou_notes_say_why_the_call_failed_and_who_scores_0():
    r = last(
        play(
            "tamalou", "Léa Marc Nina Omar", rnd({"Léa": 4, "Marc": 3, "Nina": 4, "Omar": 9}, "Léa")
        )
    )
    assert r.scores == {"Léa": 4, "Marc": 0, "Nina": 0, "Omar": 9}
    assert texts(r) == [
        "Léa called Tamalou with 4 but Marc, Nina had as few or fewer.",
        "The call fails: Léa scores the hand total, 4.",
        "Marc, Nina: as few points as the caller or fewer, so 0 points.",
        "The others score their hand totals.",
    ]
    r = last(play("tamalou", "Léa Marc", rnd({"Léa": 6, "Marc": 9}, "Léa")))
    assert texts(r) == [
        "Léa called Tamalou with 6, above the call threshold of 5.",
        "The call fails: Léa scores the hand total, 6.",
        "The others score their hand totals.",
    ]
    r = last(play("tamalou", "Léa Marc", rnd({"Léa": 3, "Marc": 9}, "Léa")))
    assert texts(r) == [
        "Léa called Tamalou with 3 and was strictly lowest: 0 points; the others score their "
        "hand totals."
    ]
    r = last(play("tamalou", "Léa Marc", rnd({"Léa": 3, "Marc": 9})))
    assert texts(r) == ["Nobody called: everyone scores their hand total."]


def test_tamalou_failed_caller_over_the_threshold_and_also_beaten():
    r = last(play("tamalou", "Léa Marc Nina", rnd({"Léa": 8, "Marc": 8, "Nina": 12}, "Léa")))
    assert r.scores == {"Léa": 8, "Marc": 0, "Nina": 12} and r.winners == ["Marc"]
    assert texts(r)[0] == "Léa called Tamalou with 8, above the call threshold of 5."


def test_koubo_notes_give_the_caller_score():
    r = last(play("koubo", "Léa Marc", rnd({"Léa": 19, "Marc": 21}, "Léa")))
    assert r.scores == {"Léa": -3, "Marc": 21} and r.winners == ["Léa"]
    assert texts(r) == [
        "Léa called Koubo with 19 and was strictly lowest: -3 in place of the hand total.",
        "The others score their hand totals.",
    ]
    r = last(play("koubo", "Léa Marc", rnd({"Léa": 8, "Marc": 3}, "Léa")))
    assert r.scores == {"Léa": 28, "Marc": 3} and r.winners == ["Marc"]
    assert r.caller_succeeded is False
    assert texts(r)[0] == "Léa called Koubo with 8 but was not strictly lowest: 8 + 20 = 28."
    r = last(play("koubo", "Léa Marc", rnd({"Léa": 8, "Marc": 3})))
    assert r.caller_succeeded is None and r.scores == {"Léa": 8, "Marc": 3}


def test_koubo_tied_caller_shares_the_round_win_as_the_worked_example_says():
    """The project's worked Koubo game (tests/examples/koubo.scoresheet.json, round 2) names
    a failed caller tied for the lowest hand among the round's winners; the rules page says so."""
    r = last(play("koubo", "Léa Marc Nina", rnd({"Léa": 3, "Marc": 3, "Nina": 8}, "Léa")))
    assert r.winners == ["Léa", "Marc"] and r.caller_succeeded is False


def test_dutch_notes_and_the_knock_out_note():
    sheet = play("dutch", "Léa Marc Nina", rnd({"Léa": 100, "Marc": 3, "Nina": 9}, "Marc"))
    r = last(sheet)
    assert r.caller_succeeded is True and r.winners == ["Marc"]
    assert texts(r) == [
        "Marc called Dutch with 3: everyone, caller included, scores their hand total.",
        "Léa has 100, reaches 100 and is out of the game.",
    ]
    sheet = play("dutch", "Léa Marc Nina", rnd({"Léa": 99, "Marc": 3, "Nina": 9}))
    assert sheet.eliminated == [] and sheet.in_game == ("Léa", "Marc", "Nina")


def test_dutch_players_going_out_together_are_listed_in_turn_order():
    sheet = play(
        "dutch", "Léa Marc Nina Omar", rnd({"Léa": 3, "Marc": 120, "Nina": 5, "Omar": 100})
    )
    assert sheet.eliminated == ["Marc", "Omar"] and not sheet.finished
    assert last(sheet).knocked_out == ["Marc", "Omar"]


def test_a_variant_without_knock_outs_still_has_a_plain_out_note():
    shown = VARIANTS["tamalou"]().knocked_out_note("Léa", F(120))
    assert str(shown) == "Léa has 120 and is out of the game."


def test_tamoul_notes_with_and_without_a_counter_call():
    right = last(
        play("tamoul", "Léa Marc Nina", rnd({"Léa": 4.5, "Marc": 3, "Nina": 20}, "Léa", "Marc"))
    )
    assert texts(right) == [
        "Marc said contre-Tamoul with 3, fewer than Léa's 4.5: -20 for Marc; Léa scores the "
        "hand total, 4.5.",
        "The others score their hand totals.",
    ]
    wrong = last(
        play("tamoul", "Léa Marc Nina", rnd({"Léa": 3, "Marc": 5, "Nina": 20}, "Léa", "Marc"))
    )
    assert texts(wrong) == [
        "Marc said contre-Tamoul with 5, not fewer than Léa's 3: 5 + 20 = 25.",
        "Léa called Tamoul with 3 and was strictly lowest: -20.",
        "The others score their hand totals.",
    ]
    beaten = last(
        play("tamoul", "Léa Marc Nina", rnd({"Léa": 5, "Marc": 8, "Nina": 2}, "Léa", "Marc"))
    )
    assert beaten.scores == {"Léa": 25, "Marc": 28, "Nina": 2} and beaten.winners == ["Nina"]
    assert texts(beaten)[1:3] == [
        "Léa called Tamoul with 5 but Nina had as few or fewer.",
        "The call fails: Léa scores 5 + 20 = 25.",
    ]
    none = last(play("tamoul", "Léa Marc", rnd({"Léa": 5, "Marc": 8})))
    assert none.caller_succeeded is None and none.scores == {"Léa": 5, "Marc": 8}


def test_tamoul_exactly_100_falls_back_to_50_with_a_note_and_99_or_101_do_not():
    sheet = play("tamoul", "Léa Marc", rnd({"Léa": 60, "Marc": 1}), rnd({"Léa": 40, "Marc": 1}))
    assert texts(last(sheet))[-1] == "Léa reached exactly 100 and falls back to 50."
    assert last(sheet).adjusted == ["Léa"]
    near = play("tamoul", "Léa Marc", rnd({"Léa": 60, "Marc": 1}), rnd({"Léa": 39, "Marc": 1}))
    assert near.totals["Léa"] == 99 and last(near).adjusted == [] and not near.finished
    over = play("tamoul", "Léa Marc", rnd({"Léa": 60, "Marc": 1}), rnd({"Léa": 41, "Marc": 1}))
    assert over.totals["Léa"] == 101 and over.finished and over.winners == ["Marc"]
    assert VARIANTS["tamoul"]().adjust_total("Léa", F(101)) == (101, None)


def test_cabo_notes_show_the_gift_and_the_difference_with_their_signs():
    gift = last(
        play(
            "cabo_bruxellois",
            "Léa Marc Nina",
            rnd({"Léa": "KH KD AS", "Marc": 5, "Nina": "KS"}, "Léa"),
        )
    )
    assert gift.scores == {"Léa": 0, "Marc": 8, "Nina": 16}
    assert texts(gift) == [
        "Everyone scores their hand total; a negative total counts as 0.",
        "Léa called Cabo with -3: 0 points, and every other player gets 3 more.",
    ]
    paid = last(
        play("cabo_bruxellois", "Léa Marc Nina", rnd({"Léa": 4, "Marc": 3, "Nina": 1}, "Léa"))
    )
    assert paid.scores == {"Léa": 7, "Marc": 3, "Nina": 1} and paid.winners == ["Nina"]
    assert texts(paid)[1] == "Léa called Cabo with 4 but someone had 1: 4 + 3 = 7."


def test_cabo_negative_caller_beaten_by_a_lower_negative_hand():
    # Léa -1 (K♥ A♠), Marc -4 (two red kings): Marc gets 0 + 1; Léa pays -1 + (-1 - -4) = 2.
    r = last(
        play(
            "cabo_bruxellois",
            "Léa Marc Nina",
            rnd({"Léa": "KH AS", "Marc": "KD KD", "Nina": 7}, "Léa"),
            decks=2,
        )
    )
    assert r.scores == {"Léa": 2, "Marc": 1, "Nina": 8}
    assert r.caller_succeeded is False and r.winners == ["Marc"]
    assert texts(r)[2] == "Léa called Cabo with -1 but someone had -4: -1 + 3 = 2."
    # Never under 0: Léa -2, Marc -3: -2 + (-2 - -3) = -1, scored 0.
    r = last(play("cabo_bruxellois", "Léa Marc", rnd({"Léa": -2, "Marc": -3}, "Léa")))
    assert r.scores == {"Léa": 0, "Marc": 2}


def test_cabo_without_a_caller_counts_negative_hands_as_0():
    r = last(play("cabo_bruxellois", "Léa Marc", rnd({"Léa": -2, "Marc": 4})))
    assert r.scores == {"Léa": 0, "Marc": 4} and r.caller_succeeded is None
    assert r.winners == ["Léa"]
    assert texts(r) == ["Everyone scores their hand total; a negative total counts as 0."]


def test_fontenaysien_notes_and_round_winners_by_round_score():
    r = last(
        play(
            "fontenaysien",
            "Léa Marc Nina",
            rnd({"Léa": "", "Marc": "", "Nina": 3}, emptied=["Marc", "Léa"]),
        )
    )
    assert r.scores == {"Léa": -10, "Marc": -10, "Nina": 5} and r.winners == ["Léa", "Marc"]
    assert texts(r)[1] == "Léa, Marc got rid of all their cards: -10."
    assert r.caller_succeeded is None and len(texts(r)) == 2
    r = last(play("fontenaysien", "Léa Marc Nina", rnd({"Léa": 2, "Marc": 4, "Nina": 12})))
    assert r.winners == ["Léa", "Marc"]  # 2 and 4 both score 5


def test_fontenaysien_negative_hand_scores_as_0():
    r = last(play("fontenaysien", "Léa Marc", rnd({"Léa": "JOKER", "Marc": 0}), joker_value=-1))
    assert r.hand_totals == {"Léa": -1, "Marc": 0} and r.scores == {"Léa": -5, "Marc": -5}


@pytest.mark.parametrize(
    ("rounds", "half", "finished", "losers"),
    [
        ([20, 20, 20, 3], False, False, []),  # 30 + 30 + 30 + 5 = 95
        ([20, 20, 20, 6], False, True, ["Léa"]),  # 30 + 30 + 30 + 10 = 100
        ([20, 3, 3], True, False, []),  # 30 + 5 + 5 = 40 < 50
        ([20, 6, 6], True, True, ["Léa"]),  # 30 + 10 + 10 = 50
    ],
)
def test_fontenaysien_limit_is_reached_at_exactly_100_or_50(rounds, half, finished, losers):
    sheet = play(
        "fontenaysien", "Léa Marc", *[rnd({"Léa": t, "Marc": 12}) for t in rounds], half_game=half
    )
    assert sheet.finished is finished and sheet.losers == losers
    assert sheet.winners == (["Marc"] if finished else [])


@pytest.mark.parametrize(
    ("emptied", "zeros", "half", "finished"),
    [
        (4, 1, False, False),  # -45
        (5, 0, False, True),  # -50
        (2, 0, True, False),  # -20
        (2, 1, True, True),  # -25
    ],
)
def test_fontenaysien_grand_winner_at_exactly_minus_50_or_minus_25(emptied, zeros, half, finished):
    rounds = [rnd({"Léa": "", "Marc": 3}, emptied=["Léa"])] * emptied
    rounds += [rnd({"Léa": 0, "Marc": 3})] * zeros
    sheet = play("fontenaysien", "Léa Marc", *rounds, half_game=half)
    assert sheet.finished is finished
    assert sheet.winners == (["Léa"] if finished else []) and sheet.losers == []


def test_dutch_toulousain_ends_only_over_100():
    sheet = play(
        "dutch_toulousain", "Léa Marc", rnd({"Léa": 60, "Marc": 1}), rnd({"Léa": 40, "Marc": 1})
    )
    assert sheet.totals["Léa"] == 100 and not sheet.finished
    sheet = play(
        "dutch_toulousain", "Léa Marc", rnd({"Léa": 60, "Marc": 1}), rnd({"Léa": 41, "Marc": 1})
    )
    assert sheet.finished and sheet.winners == ["Marc"] and sheet.losers == []


# --- the whole game ----------------------------------------------------------------------


def test_the_agreed_number_of_rounds_ends_the_game_at_that_round():
    one = rnd({"Léa": 3, "Marc": 5})
    assert not play("tamalou", "Léa Marc", one, rounds=2).finished
    sheet = play("tamalou", "Léa Marc", one, one, rounds=2)
    assert sheet.finished and sheet.winners == ["Léa"] and sheet.losers == []
    error = refusal("tamalou", "Léa Marc", one, one, one, rounds=2)
    assert where(error) == (
        "Round 3: the game ended after round 2, the last of the 2 agreed; "
        "no more rounds can be added.",
        3,
        None,
        "rounds",
    )


def test_a_round_after_the_end_is_refused_with_why_the_game_ended():
    """A correction that would leave a round after the game's end says why it ended."""
    one = rnd({"Léa": 3, "Marc": 5, "Omar": 99})
    over = refusal("tamoul", "Léa Marc Omar", rnd({"Léa": 3, "Marc": 5, "Omar": 104}), one)
    assert str(over) == (
        "Round 2: the game ended after round 1: Omar went past 100; no more rounds can be added."
    )
    out = rnd({"Léa": 3, "Marc": 101})
    alone = refusal("dutch", "Léa Marc", out, rnd({"Léa": 3, "Marc": 5}))
    assert str(alone) == (
        "Round 2: the game ended after round 1: only Léa is still in; no more rounds can be added."
    )


def test_a_capped_dutch_game_is_won_by_the_lowest_total_still_in():
    sheet = play("dutch", "Léa Marc Nina", rnd({"Léa": 100, "Marc": 9, "Nina": 3}), rounds=1)
    assert sheet.finished and sheet.winners == ["Nina"] and sheet.eliminated == ["Léa"]


def test_a_game_has_at_most_999_rounds():
    many = [rnd({"Léa": 0, "Marc": 0})] * 999
    sheet = play("tamalou", "Léa Marc", *many)
    assert len(sheet.rounds) == 999 and sheet.rounds[-1].number == 999
    error = refusal("tamalou", "Léa Marc", *many, rnd({"Léa": 0, "Marc": 0}))
    assert where(error) == ("a game has at most 999 rounds.", None, None, "rounds")


def test_round_results_carry_running_totals_round_by_round():
    sheet = play(
        "tamalou",
        "Léa Marc",
        rnd({"Léa": 3, "Marc": 9}, "Léa"),
        rnd({"Léa": 8, "Marc": 2}, "Marc", penalties=[("Léa", 1)]),
    )
    assert [r.number for r in sheet.rounds] == [1, 2]
    assert [r.totals for r in sheet.rounds] == [{"Léa": 0, "Marc": 9}, {"Léa": 9, "Marc": 9}]
    assert [r.caller for r in sheet.rounds] == ["Léa", "Marc"]
    assert sheet.totals == {"Léa": 9, "Marc": 9} and sheet.in_game == ("Léa", "Marc")
    assert not sheet.finished and sheet.winners == [] and sheet.losers == []
    empty = play("tamalou", "Léa Marc")
    assert empty.rounds == [] and empty.totals == {"Léa": 0, "Marc": 0} and not empty.finished


# --- who deals and who plays first -------------------------------------------------------------


def test_the_deal_passes_to_the_left_and_the_next_player_starts():
    rounds = [rnd({"Léa": 3, "Marc": 5, "Nina": 7})] * 3
    sheet = play("tamalou", "Léa Marc Nina", *rounds)
    assert deals(sheet) == [("Léa", "Marc"), ("Marc", "Nina"), ("Nina", "Léa"), ("Léa", "Marc")]
    assert deals(sheet, 1) == [("Marc", "Nina"), ("Nina", "Léa"), ("Léa", "Marc"), ("Marc", "Nina")]
    assert deals(sheet, 5)[0] == ("Nina", "Léa")
    assert deals(play("tamalou", "Léa Marc")) == [("Léa", "Marc")]


def test_the_deal_skips_players_who_are_out():
    sheet = play(
        "dutch",
        "Léa Marc Nina Omar",
        rnd({"Léa": 3, "Marc": 100, "Nina": 5, "Omar": 7}),  # Marc goes out
        rnd({"Léa": 3, "Nina": 5, "Omar": 7}),
        rnd({"Léa": 3, "Nina": 5, "Omar": 100}),  # Omar, the dealer, goes out
        rnd({"Léa": 3, "Nina": 5}),
    )
    assert deals(sheet) == [
        ("Léa", "Marc"),
        ("Nina", "Omar"),
        ("Omar", "Léa"),
        ("Léa", "Nina"),
        ("Nina", "Léa"),
    ]


def test_no_next_deal_when_everybody_went_out():
    sheet = play("dutch", "Léa Marc", rnd({"Léa": 100, "Marc": 105}))
    assert sheet.finished and deals(sheet) == [("Léa", "Marc")]


def test_dutch_toulousain_the_dutcher_deals_and_the_round_winner_starts():
    sheet = play(
        "dutch_toulousain",
        "Léa Marc Nina",
        rnd({"Léa": 3, "Marc": 5, "Nina": 7}, "Marc", penalty_cards="2C"),  # Léa wins
        rnd({"Léa": 3, "Marc": 5, "Nina": 1}),  # no dutcher: the usual rotation
        rnd({"Léa": 9, "Marc": 5, "Nina": 1}, "Nina"),
    )
    assert [r.winners for r in sheet.rounds] == [["Léa"], ["Nina"], ["Nina"]]
    assert deals(sheet) == [("Léa", "Marc"), ("Marc", "Léa"), ("Nina", "Léa"), ("Nina", "Nina")]


# --- the game file ---------------------------------------------------------------------------

GOOD = {
    "format": "tamalou-ref.game/1",
    "variant": "tamalou",
    "players": ["Léa", "Marc"],
    "rounds": [{"hands": {"Léa": ["KH", "3C"], "Marc": 12}, "caller": "Léa"}],
}


def with_round(**keys):
    return {**GOOD, "rounds": [{"hands": {"Léa": 1, "Marc": 2}, **keys}]}


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ([1], ("a game file must be an object.", None, None, None)),
        (
            {**GOOD, "extra": 1},
            (
                "the game file has an unknown key 'extra' (allowed: blocked, ended, first_dealer, "
                "format, id, players, rounds, rules_name, settings, variant).",
                None,
                None,
                None,
            ),
        ),
        ({"variant": "tamalou"}, ("the game file has no 'format'.", None, None, None)),
        (
            {**GOOD, "format": "x"},
            ("the format must be 'tamalou-ref.game/1', not 'x'.", None, None, None),
        ),
        ({**GOOD, "variant": 3}, ("the variant must be text.", None, None, "variant")),
        ({**GOOD, "settings": []}, ("the settings must be an object.", None, None, "settings")),
        ({**GOOD, "players": "Léa"}, ("the players must be a list.", None, None, "players")),
        ({**GOOD, "rounds": {}}, ("the rounds must be a list.", None, None, "rounds")),
        (
            {**GOOD, "rounds": [GOOD["rounds"][0], 3]},
            ("Round 2: a round must be an object.", 2, None, None),
        ),
        ({**GOOD, "rounds": [{}]}, ("Round 1: the round has no 'hands'.", 1, None, None)),
        (
            with_round(x=1),
            (
                "Round 1: the round has an unknown key 'x' (allowed: caller, counter_caller, "
                "emptied, hands, penalties, penalty_cards).",
                1,
                None,
                None,
            ),
        ),
        (
            {**GOOD, "rounds": [{"hands": []}]},
            ("Round 1: hands must be an object.", 1, None, "hands"),
        ),
        (
            {**GOOD, "rounds": [{"hands": {"Léa": 1, " Léa ": 2}}]},
            ("Round 1, Léa: this player has two hands.", 1, "Léa", "hands"),
        ),
        (
            {**GOOD, "rounds": [{"hands": {"Léa": None, "Marc": 2}}]},
            ("Round 1, Léa: a hand must be a list of card codes or a number.", 1, "Léa", "hands"),
        ),
        (
            {**GOOD, "rounds": [{"hands": {"Léa": 1, "Marc": ["AS", None]}}]},
            (
                "Round 1, Marc: a card must be a card code such as 10H, KS, AD or JOKER.",
                1,
                "Marc",
                "hands",
            ),
        ),
        (
            {**GOOD, "rounds": [{"hands": {"Léa": 1, "Marc": ["1S"]}}]},
            (
                "Round 1, Marc: unknown card '1S' (card codes look like 10H, KS, AD or JOKER).",
                1,
                "Marc",
                "hands",
            ),
        ),
        (with_round(caller=1), ("Round 1: the caller must be text.", 1, None, "caller")),
        (
            with_round(counter_caller=1),
            ("Round 1: the counter_caller must be text.", 1, None, "counter_caller"),
        ),
        (with_round(emptied="Léa"), ("Round 1: emptied must be a list.", 1, None, "emptied")),
        (with_round(emptied=[1]), ("Round 1: each of emptied must be text.", 1, None, "emptied")),
        (with_round(penalties={}), ("Round 1: penalties must be a list.", 1, None, "penalties")),
        (
            with_round(penalties=[1]),
            ("Round 1: a penalty must be an object.", 1, None, "penalties"),
        ),
        (
            with_round(penalties=[{"player": "Léa", "points": 1, "why": ""}]),
            (
                "Round 1: a penalty has an unknown key 'why' (allowed: player, points, reason).",
                1,
                None,
                "penalties",
            ),
        ),
        (
            with_round(penalties=[{"points": 1}]),
            ("Round 1: a penalty has no 'player'.", 1, None, "penalties"),
        ),
        (
            with_round(penalties=[{"player": "Léa", "points": 1, "reason": 5}]),
            ("Round 1: a penalty's reason must be text.", 1, None, "penalties"),
        ),
        (
            with_round(penalties=[{"player": "Léa", "points": 1, "reason": "r" * 201}]),
            ("Round 1: a penalty's reason has at most 200 characters.", 1, None, "penalties"),
        ),
        (
            with_round(penalties=[{"player": 5, "points": 1}]),
            ("Round 1: a penalty's player must be text.", 1, None, "penalties"),
        ),
        (
            with_round(penalty_cards="2C"),
            ("Round 1: penalty_cards must be a list.", 1, None, "penalty_cards"),
        ),
        (
            with_round(caller="Léa", penalty_cards=["ZZ"]),
            (
                "Round 1, Léa: unknown card 'ZZ' (card codes look like 10H, KS, AD or JOKER).",
                1,
                "Léa",
                "penalty_cards",
            ),
        ),
    ],
)
def test_a_malformed_game_file_says_where(data, expected):
    assert where(file_refusal(data)) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the file is not valid JSON (line 1, column 1)."),
        ('{"a": NaN}', "the file is not valid JSON: NaN is not a number JSON allows."),
        ('{"a": -Infinity}', "the file is not valid JSON: -Infinity is not a number JSON allows."),
        (b"\xff", "the file is not UTF-8 text."),
        ("[" * 100_000, "the file is not valid JSON: it is nested too deeply."),
        ('{"a": 1, "b": 2, "a": 3}', "the key 'a' is given twice in one object."),
        (" " * 2_000_001, "the file is larger than 2 MB."),
    ],
)
def test_a_file_that_is_not_json_says_why(text, message):
    assert str(file_refusal(text)) == message


def test_a_file_of_exactly_2_mb_and_a_byte_order_mark_are_read():
    text = json.dumps(GOOD)
    assert parse_json(text + " " * (2_000_000 - len(text))) == GOOD
    assert parse_json(("\ufeff" + text).encode()) == GOOD


def test_a_reason_of_200_characters_is_kept_trimmed():
    reason = "r" * 200
    entry = read_game(
        json.dumps(
            with_round(penalties=[{"player": " Léa ", "points": 2, "reason": f" {reason} "}])
        )
    ).rounds[0]
    assert entry.penalties == (Penalty("Léa", 2, reason),)


def test_reading_a_game_file_keeps_every_field():
    data = {
        "format": "tamalou-ref.game/1",
        "variant": "dutch_toulousain",
        "settings": {"rounds": 3},
        "players": [" Léa", "Marc"],
        "rounds": [
            {
                "hands": {"Léa": ["6c"], " Marc": 3.0},
                "caller": "Léa ",
                "emptied": [],
                "penalties": [{"player": "Marc", "points": 2}],
                "penalty_cards": ["4d"],
            },
            {"hands": {"Léa": 1, "Marc": 2}, "caller": None},
        ],
    }
    game_ = read_game(json.dumps(data))
    assert game_.variant == "dutch_toulousain" and game_.settings == {"rounds": 3}
    assert game_.players == (" Léa", "Marc")
    first, second = game_.rounds
    assert first.hands == {"Léa": (parse_card("6C"),), "Marc": 3.0}
    assert (first.caller, first.counter_caller, first.emptied) == ("Léa", None, ())
    assert first.penalties == (Penalty("Marc", 2, ""),)
    assert first.penalty_cards == (parse_card("4D"),)
    assert second == RoundEntry(hands={"Léa": 1, "Marc": 2})
    assert read_game(json.dumps({k: v for k, v in GOOD.items()})).settings == {}


def test_writing_a_game_file_gives_only_what_was_entered():
    entry = RoundEntry(
        hands={"Léa": (parse_card("KH"), parse_card("10d")), "Marc": F("4.5"), "Nina": 2.0},
        caller="Léa",
        counter_caller="Marc",
        emptied=("Nina",),
        penalties=(Penalty("Marc", F(2), "late"), Penalty("Nina", 1.0)),
        penalty_cards=(parse_card("2C"),),
    )
    assert round_to_json(entry) == {
        "hands": {"Léa": ["KH", "10D"], "Marc": 4.5, "Nina": 2},
        "caller": "Léa",
        "counter_caller": "Marc",
        "emptied": ["Nina"],
        "penalties": [
            {"player": "Marc", "points": 2, "reason": "late"},
            {"player": "Nina", "points": 1},
        ],
        "penalty_cards": ["2C"],
    }
    assert round_to_json(RoundEntry(hands={"Léa": 3})) == {"hands": {"Léa": 3}}
    written = game_to_json(
        GameEntry("fontenaysien", ("Léa", "Marc"), (), {"half_game": True, "call_threshold": 6.0})
    )
    assert written == {
        "format": "tamalou-ref.game/1",
        "variant": "fontenaysien",
        "settings": {"half_game": True, "call_threshold": 6},
        "players": ["Léa", "Marc"],
        "rounds": [],
    }
    assert type(written["settings"]["call_threshold"]) is int
    assert "settings" not in game_to_json(GameEntry("tamalou", ("Léa", "Marc")))


def test_the_score_sheet_as_json():
    sheet = play(
        "tamoul",
        "Léa Marc",
        rnd({"Léa": "KH AS", "Marc": 9}, "Léa"),
        rnd({"Léa": 1, "Marc": 95}),
    )
    assert sheet_to_json(sheet) == {
        "format": "tamalou-ref.scoresheet/1",
        "variant": "tamoul",
        "players": ["Léa", "Marc"],
        "rounds": [
            {
                "number": 1,
                "hand_totals": {"Léa": 1.5, "Marc": 9},
                "scores": {"Léa": -20, "Marc": 9},
                "totals": {"Léa": -20, "Marc": 9},
                "winners": ["Léa"],
                "caller_succeeded": True,
                "notes": [
                    "Léa called Tamoul with 1.5 and was strictly lowest: -20.",
                    "The others score their hand totals.",
                ],
            },
            {
                "number": 2,
                "hand_totals": {"Léa": 1, "Marc": 95},
                "scores": {"Léa": 1, "Marc": 95},
                "totals": {"Léa": -19, "Marc": 104},
                "winners": ["Léa"],
                "caller_succeeded": None,
                "notes": ["Nobody called: everyone scores their hand total."],
            },
        ],
        "totals": {"Léa": -19, "Marc": 104},
        "finished": True,
        "winners": ["Léa"],
        "losers": [],
        "eliminated": [],
    }
    dutch = sheet_to_json(play("dutch", "Léa Marc Nina", rnd({"Léa": 100, "Marc": 1, "Nina": 2})))
    assert dutch["eliminated"] == ["Léa"] and dutch["finished"] is False and dutch["winners"] == []
    fontenaysien = sheet_to_json(
        play("fontenaysien", "Léa Marc", *[rnd({"Léa": 20, "Marc": 1})] * 4)
    )
    assert fontenaysien["losers"] == ["Léa"]


def test_dumps_writes_readable_utf8_json_with_a_final_newline():
    assert dumps({"name": "Léa", "n": [1]}) == '{\n  "name": "Léa",\n  "n": [\n    1\n  ]\n}\n'


# --- what every variant shares ----------------------------------------------------------------


def test_card_values_keep_their_numbers_and_named_ranks():
    values = CardValues(numbers=range(7, 9), A=1, K=RedBlack(red=0, black=11), JOKER=-1)
    assert values.numbers == range(7, 9)
    assert values.named == {"A": 1, "K": RedBlack(red=0, black=11), "JOKER": -1}
    assert values.ranks == ("A", "7", "8", "K") and values.jokers == 2
    assert CardValues(numbers=range(2, 4)).jokers == 0
    assert values.value(parse_card("8D")) == 8 and values.value(parse_card("KS")) == 11
    assert values.value(parse_card("KH")) == 0 and values.value(Card("JOKER")) == -1
    assert values.value(Card("JOKER"), joker_value=F(20)) == 20
    assert values.value(parse_card("AS"), joker_value=F(20)) == 1


def test_card_powers_by_rank_and_colour():
    tamalou = VARIANTS["tamalou"]()
    assert tamalou.power_of(parse_card("7H")).text == "Look at one of your own cards."
    assert tamalou.power_of(parse_card("10S")).text == "Look at one card of an opponent."
    assert tamalou.power_of(parse_card("KS")).colour == "black"
    assert tamalou.power_of(parse_card("KH")) is None
    assert tamalou.power_of(parse_card("5H")) is None
    toulousain = VARIANTS["dutch_toulousain"]()
    assert toulousain.power_of(parse_card("KD")).text.startswith("You must give the top card")
    assert toulousain.power_of(parse_card("KC")).text == "No effect."


def test_rule_texts_fill_in_the_call_word_and_threshold():
    sections = VARIANTS["gabo"]().rule_texts()
    assert [title for title, _ in sections] == [
        "Set-up",
        "A turn",
        "Quick discard",
        "Calling the end",
        "Scoring a round",
        "End of the game",
    ]
    call = str(dict(sections)["Calling the end"])
    assert call.startswith("When you think your hand is worth 7 or less, call “Gabo” ")
    assert len(VARIANTS["koubo"]().rule_texts()) == 6


def test_a_play_knows_lowest_and_who_beats_whom():
    p = Play(order=("Léa", "Marc", "Nina"), totals={"Léa": F(3), "Marc": F(3), "Nina": F(1)})
    assert p.lowest() == ["Nina"] and p.lowest(["Léa", "Marc"]) == ["Léa", "Marc"]
    assert p.lowest([]) == []
    assert p.beaten_by("Léa", strictly=True) == ["Nina"]
    assert p.beaten_by("Léa", strictly=False) == ["Marc", "Nina"]
    assert p.others("Marc") == ("Léa", "Nina") and p.others(None) == p.order
    assert p.strictly_lowest("Nina") and not p.strictly_lowest("Léa")
    assert str(why_caller_failed(VARIANTS["koubo"](), Play(p.order, p.totals, "Léa"))) == (
        "Léa called Koubo with 3 but Marc, Nina had as few or fewer."
    )


# --- what the mutation run found untested -------------------------------------------------------


def test_a_refusal_in_the_plural_is_shown_in_the_language_s_own_plural():
    error = refusal("dutch_toulousain", "Léa Marc", rnd({"Léa": 6, "Marc": 3}, "Léa"))
    assert str(error).endswith("who draws 1 penalty card, not 0.")
    always_plural = error.render(plural=lambda singular, plural, count: plural)
    assert always_plural.endswith("who draws 1 penalty cards, not 0.")


def test_hand_totals_and_penalties_are_exact_points_even_when_empty_or_typed_as_floats():
    r = last(play("tamalou", "Léa Marc", rnd({"Léa": "", "Marc": 4.0}, penalties=[("Marc", 2.0)])))
    assert type(r.hand_totals["Léa"]) is Fraction and type(r.scores["Marc"]) is Fraction
    assert r.scores == {"Léa": 0, "Marc": 6} and texts(r)[-1] == "Marc: 2 penalty points."
    assert sheet_to_json(play("tamalou", "Léa Marc", rnd({"Léa": "", "Marc": 4.0})))["rounds"][0][
        "hand_totals"
    ] == {"Léa": 0, "Marc": 4}


def test_a_variant_with_penalty_cards_refuses_one_its_deck_does_not_have():
    # Dutch toulousain with 32 cards (no 2s): the deck check of penalty cards is reached.
    variant = VARIANTS["dutch_toulousain"](deck="32")
    entry = rnd({"Léa": 6, "Marc": 3}, "Léa", penalty_cards="2C")
    with pytest.raises(GameError) as error:
        engine.score_round(
            variant, entry, number=4, everyone=("Léa", "Marc"), in_game=("Léa", "Marc")
        )
    assert where(error.value) == (
        "Round 4, Léa: there is no 2♣ in the Dutch toulousain deck.",
        4,
        "Léa",
        "penalty_cards",
    )
    entry = rnd({"Léa": 6, "Marc": 3}, "Léa", penalty_cards="7C")
    alone = engine.score_round(
        variant, entry, number=4, everyone=("Léa", "Marc"), in_game=("Léa", "Marc")
    )
    # A round alone: running totals, knock-outs and adjustments come with the whole game.
    assert (alone.number, alone.scores, alone.totals) == (4, {"Léa": 13, "Marc": 3}, {})
    assert (alone.knocked_out, alone.adjusted, alone.caller) == ([], [], "Léa")


def test_writing_settings_keeps_true_false_and_empty_as_they_are():
    written = game_to_json(
        GameEntry("fontenaysien", ("Léa", "Marc"), (), {"half_game": True, "rounds": None})
    )
    assert written["settings"] == {"half_game": True, "rounds": None}
    assert written["settings"]["half_game"] is True


def test_a_caller_at_the_threshold_but_tied_fails_for_the_tie_not_the_limit():
    r = last(play("tamalou", "Léa Marc", rnd({"Léa": 5, "Marc": 5}, "Léa")))
    assert r.scores == {"Léa": 5, "Marc": 0} and r.caller_succeeded is False
    assert texts(r)[0] == "Léa called Tamalou with 5 but Marc had as few or fewer."


def test_cabo_tied_caller_pays_no_difference_and_a_caller_at_0_gives_nothing():
    tied = last(play("cabo_bruxellois", "Léa Marc", rnd({"Léa": 4, "Marc": 4}, "Léa")))
    assert tied.scores == {"Léa": 4, "Marc": 4}
    assert texts(tied) == ["Everyone scores their hand total; a negative total counts as 0."]
    zero = last(play("cabo_bruxellois", "Léa Marc", rnd({"Léa": "KH 2S", "Marc": 4}, "Léa")))
    assert zero.hand_totals["Léa"] == 0 and zero.scores == {"Léa": 0, "Marc": 4}
    assert texts(zero) == ["Everyone scores their hand total; a negative total counts as 0."]


def test_a_round_renamed_renames_every_mention_at_once_and_nothing_else():
    data = {
        "hands": {"Bo": 3, "Léa": ["KD", "3C"], "Zoé": 0},
        "caller": "Bo",
        "counter_caller": "Léa",
        "emptied": ["Zoé"],
        "penalties": [{"player": "Léa", "points": 2, "reason": "Bo peeked"}],
    }
    swapped = gamefile.rename_in_round(data, {"Bo": "Léa", "Léa": "Bo", "Zoé": "Zoe"})
    assert swapped == {
        "hands": {"Léa": 3, "Bo": ["KD", "3C"], "Zoe": 0},
        "caller": "Léa",
        "counter_caller": "Bo",
        "emptied": ["Zoe"],
        "penalties": [{"player": "Bo", "points": 2, "reason": "Bo peeked"}],
    }
    assert data["caller"] == "Bo"  # the round given is left as it was
    assert gamefile.rename_in_round({"hands": {"Bo": 1}}, {"Bo": "Bob"}) == {"hands": {"Bob": 1}}
