"""The referee's reading of what people type and of text in files: one number parser, one
check of storable text, card names in each language. Pure Python: no Django."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from scoring.referee.cards import Card
from scoring.referee.engine import GameError, unstorable
from scoring.referee.gamefile import check_text, read_game
from scoring.referee.notes import Plural, card_name, english_plural, note, plural_noop
from scoring.referee.numbers import NotANumber, parse_number

pytestmark = pytest.mark.no_database


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("7", 7),
        (" 12 ", 12),
        ("+3", 3),
        ("-2", -2),
        ("−2", -2),
        ("4,5", Fraction(9, 2)),
        ("4.5", Fraction(9, 2)),
        ("0", 0),
        ("999999999999", 999999999999),
        ("1.123456", Fraction(1123456, 1000000)),
    ],
)
def test_numbers_as_people_type_them(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "²",
        "١٢",
        "１２",
        "12a",
        "1e3",
        "--3",
        "+-3",
        "4,",
        ",5",
        "1.1234567",
        "9" * 13,
        "x",
    ],
)
def test_anything_else_is_not_a_number(text):
    with pytest.raises(NotANumber):
        parse_number(text)


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\t", "\n", "\x85", "\ud800", "\udfff"])
def test_control_characters_and_half_surrogates_cannot_be_stored(char):
    assert unstorable(f"ab{char}cd") == char


@pytest.mark.parametrize("text", ["", "Léa", "wrong quick discard ♥", "🂠 emoji 🎉", "עברית"])
def test_ordinary_text_can_be_stored(text):
    assert unstorable(text) is None


def test_every_text_of_a_file_is_checked_keys_included_saying_where():
    check_text({"players": ["Léa"], "rounds": [{"hands": {"Léa": 3}}]}, "")
    with pytest.raises(GameError) as error:
        check_text({"rounds": [{"penalties": [{"reason": "a\x00b"}]}]}, "")
    assert str(error.value) == (
        "rounds[0].penalties[0].reason holds a control character or broken text (U+0000)."
    )
    with pytest.raises(GameError) as error:
        check_text({"hands": {"L\ud800": 3}}, "")
    assert (
        str(error.value)
        == "hands.L\\ud800 (a key) holds a control character or broken text (U+D800)."
    )
    with pytest.raises(GameError, match=r"^\[1\] holds"):
        check_text(["ok", "\x07"], "")


def test_card_names_follow_the_language_and_keep_number_ranks():
    french = {"A": "A", "J": "V", "Q": "D", "K": "R", "joker": "joker"}.get
    assert card_name(Card("K", "H")) == "K♥"
    assert card_name(Card("K", "H"), lambda text: french(text, text)) == "R♥"
    assert card_name(Card("10", "S"), lambda text: "X") == "10♠"  # numbers are not translated
    assert card_name(Card("JOKER")) == "joker"
    assert card_name(Card("Q", "C"), lambda text: french(text, text)) == "D♣"


def test_plural_notes_choose_their_form_by_count():
    template = plural_noop("{count} card", "{count} cards")
    assert isinstance(template, Plural)
    assert str(note(template, count=1)) == "1 card"
    assert str(note(template, count=0)) == "0 cards"
    assert str(note(template, count=2)) == "2 cards"
    assert english_plural("one", "many", 1) == "one" and english_plural("one", "many", 5) == "many"
    french = note(template, count=1).render(plural=lambda s, p, n: p if n > 1 else s)
    assert french == "1 card"


def test_notes_show_cards_in_the_readers_language():
    shown = note("{card} and {cards}", card=Card("K", "H"), cards=(Card("Q", "S"), Card("2", "D")))
    assert str(shown) == "K♥ and Q♠, 2♦"
    assert shown.render(lambda text: {"K": "R", "Q": "D"}.get(text, text)) == "R♥ and D♠, 2♦"


def test_a_file_that_is_not_json_says_at_which_line_and_column():
    with pytest.raises(GameError) as error:
        read_game('{\n  "format": "tamalou-ref.game/1",\n  "variant" "tamalou"\n}')
    assert str(error.value) == "the file is not valid JSON (line 3, column 13)."
    with pytest.raises(GameError, match=r"^the file is not valid JSON \(line 1, column 2\)\.$"):
        read_game(b"{,}")


def test_reading_a_file_checks_its_text_and_says_where_with_its_own_letters():
    data = {"format": "tamalou-ref.game/1", "variant": "tamalou", "players": ["Léa", "Marc"]}
    data["rounds"] = [{"hands": {"Léa": 3, "Marc": 4}, "penalties": []}]
    data["rounds"][0]["penalties"] = [{"player": "Léa", "points": 2, "reason": "é\\u0007"}]
    text = json.dumps(data).replace("\\\\u0007", "\\u0007")
    with pytest.raises(GameError) as error:
        read_game(text)
    assert str(error.value) == (
        "rounds[0].penalties[0].reason holds a control character or broken text (U+0007)."
    )
    with pytest.raises(GameError) as error:
        check_text({"hands": {"Zoé\x00": 1}}, "")
    assert str(error.value).startswith("hands.Zoé\\x00 (a key) holds")
