"""What a rules page and the variant picker say of a game's house settings (docs/rules.md,
"House settings"), and a setting written into a rules page's address and read back from it.
Pure Python: no Django."""

from __future__ import annotations

import pytest

from scoring.referee.house import (
    CALL_BONUS,
    CALL_THRESHOLD,
    CARD_VALUES,
    DECK,
    DECKS,
    RESET,
    ROUNDS,
    SettingError,
)
from scoring.referee.tambouille import Tambouille
from scoring.referee.variants import VARIANTS
from tests.helpers import F

pytestmark = pytest.mark.no_database


def texts(variant: str, section: str, **settings) -> list[str]:
    """What the house settings add to one section of the variant's rules page."""
    return [str(n) for n in VARIANTS[variant](**settings).house_texts(section)]


def page(variant: str, **settings) -> dict[str, str]:
    """The rules page: each section's title and its text, in English."""
    return {title: str(text) for title, text in VARIANTS[variant](**settings).rule_texts()}


def summary(variant: str, **settings) -> str:
    return str(VARIANTS[variant](**settings).summary_text)


# --- what the settings add to the rules page -----------------------------------------------


def test_every_end_setting_is_said_in_the_end_section_in_order():
    """rules.md: `rounds` ends the game after that round, `reset` makes exactly A fall back to
    B, `limit` ends it after a round in which a total goes over it."""
    assert texts("tamalou", "end", rounds=8, reset={"at": 100, "to": 50}, limit=150) == [
        "The game ends after 8 rounds.",
        "After each round a total of exactly 100 falls back to 50.",
        "The game ends after a round in which a total goes over 150.",
    ]
    assert texts("gabo", "end", limit=60) == [
        "The game ends after a round in which a total goes over 60."
    ]
    assert texts("gabo", "end", reset={"at": 40, "to": -10}) == [
        "After each round a total of exactly 40 falls back to -10."
    ]
    assert texts("gabo", "end", rounds=1) == ["The game ends after 1 rounds."]
    assert texts("gabo", "end") == []


def test_the_variants_own_end_numbers_are_said_too():
    """Koubo plays 10 rounds, Tamoul falls back from 100 to 50 and ends over 100 (rules.md's
    table of defaults); Dutch's limit knocks a player out instead of ending the game."""
    assert texts("koubo", "end") == ["The game ends after 10 rounds."]
    assert texts("tamoul", "end") == [
        "After each round a total of exactly 100 falls back to 50.",
        "The game ends after a round in which a total goes over 100.",
    ]
    assert texts("tamoul", "end", reset=None, limit=None) == []
    assert texts("dutch", "end", limit=80, rounds=3) == [
        "The game ends after 3 rounds.",
        "A player whose total reaches 80 is out and plays no more rounds.",
    ]


def test_a_failed_calls_penalty_is_said_where_the_variant_has_none():
    """rules.md: `call_penalty` is added to a failed caller's hand total. Koubo, Tamoul and
    Cabo bruxellois already say theirs in their own scoring text."""
    assert texts("tamalou", "scoring", call_penalty=10) == [
        "A failed caller adds 10 to their hand."
    ]
    assert texts("gabo", "scoring", call_penalty=1) == ["A failed caller adds 1 to their hand."]
    assert texts("tamalou", "scoring", call_penalty=0) == []
    assert texts("tamalou", "scoring") == []
    assert texts("koubo", "scoring", call_penalty=30) == []
    assert texts("cabo_bruxellois", "scoring", call_penalty=12) == []


def test_other_sections_get_nothing_from_the_settings():
    settings = {"call_penalty": 10, "rounds": 8, "reset": {"at": 100, "to": 50}, "limit": 150}
    for section in ("setup", "turn", "quick_discard", "call"):
        assert texts("tamalou", section, **settings) == []
    # The end's texts are said in the end section only, the penalty in the scoring only.
    assert texts("tamalou", "scoring", rounds=8, limit=150) == []
    assert texts("tamalou", "end", call_penalty=10) == []


def test_the_rules_page_says_the_penalty_after_the_scoring_and_the_end_before_its_own_text():
    sections = page("tamalou", call_penalty=10, rounds=8, limit=150)
    plain = page("tamalou")
    assert sections["Scoring a round"] == (
        plain["Scoring a round"] + " A failed caller adds 10 to their hand."
    )
    assert sections["End of the game"] == (
        "The game ends after 8 rounds. The game ends after a round in which a total goes "
        "over 150. " + plain["End of the game"]
    )
    assert plain["End of the game"] == (
        "The table agrees on a number of rounds before playing, or plays until it decides to "
        "stop. The lowest total wins; tied players share the win."
    )
    # The other sections are the variant's own texts.
    for title in ("Set-up", "A turn", "Quick discard", "Calling the end"):
        assert sections[title] == plain[title]


def test_the_rules_page_fills_in_the_games_numbers():
    """A rules text names the call word, the threshold, the bonus and the penalty of this
    game's settings (Cabo bruxellois: a Cabo over the threshold costs the penalty)."""
    call = page("tamalou", call_threshold=3)["Calling the end"]
    assert call.startswith("When you think your hand is worth 3 or less, call “Tamalou” ")
    scoring = page("tamoul", call_threshold=4.5, call_bonus=-10, call_penalty=15)["Scoring a round"]
    assert "4.5" in scoring and "-10" in scoring and "15" in scoring
    assert "6.5" not in scoring and "-20" not in scoring and "20" not in scoring.replace("-20", "")


# --- the variant picker's one line -----------------------------------------------------------


def test_the_summary_names_this_games_numbers():
    assert summary("koubo", deck="52", rounds=6, call_bonus=-5, call_penalty=25) == (
        "52 cards and jokers, 6 rounds; a right Koubo scores -5, a wrong one +25."
    )
    assert summary("tamoul", call_threshold=4.5, call_bonus=-10, reset={"at": 80, "to": 40}) == (
        "Half points; call with 4.5 or less for -10, risk a contre-Tamoul; exactly 80 falls "
        "back to 40."
    )
    assert summary("dutch", limit=80) == (
        "Everyone scores their hand; reaching 80 knocks you out; the last player in wins."
    )
    assert summary("dutch_toulousain", limit=150).endswith("over 150 ends the game.")
    assert summary("cabo_bruxellois", call_threshold=3, call_penalty=12) == (
        "Red kings are worth −2; a Cabo over 3 costs the caller 12 alone; a beaten caller pays "
        "the difference."
    )


def test_the_summary_falls_back_to_the_variants_own_when_a_number_it_names_is_off():
    """A Koubo without an agreed number of rounds, a Tamoul without its reset: the picker's
    line is the variant's own, not a sentence with a hole in it."""
    assert (
        summary("koubo", rounds=None)
        == summary("koubo")
        == ("32 cards and jokers, 10 rounds; a right Koubo scores -3, a wrong one +20.")
    )
    assert (
        summary("tamoul", reset=None)
        == summary("tamoul")
        == (
            "Half points; call with 6.5 or less for -20, risk a contre-Tamoul; exactly 100 falls "
            "back to 50."
        )
    )
    assert summary("dutch", limit=None) == summary("dutch")


# --- a setting in a rules page's address -------------------------------------------------


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_every_setting_written_as_text_reads_back_the_same(key):
    """The rules page opened from a sheet carries the game's settings in its address: each
    one, written and read back, is the same value."""
    variant = VARIANTS[key]
    for setting in variant.house_settings:
        value = variant.defaults[setting.name]
        assert setting.from_text(setting.text(value), halves=variant.half_points) == value


@pytest.mark.parametrize(
    ("setting", "value", "text"),
    [
        (ROUNDS, None, ""),
        (ROUNDS, 12, "12"),
        (CALL_THRESHOLD, F("6.5"), "6.5"),
        (CALL_THRESHOLD, 5, "5"),
        (CALL_BONUS, -3, "-3"),
        (DECKS, 2, "2"),
        (DECK, "32", "32"),
        (CARD_VALUES, {}, ""),
        (CARD_VALUES, {"Q": 0, "JOKER": -5, "KH": F("0.5")}, "JOKER:-5,KH:0.5,Q:0"),
        (RESET, None, ""),
        (RESET, {"at": 100, "to": -50}, "100:-50"),
    ],
)
def test_settings_are_written_as_one_short_text_and_read_back(setting, value, text):
    assert setting.text(value) == text
    assert setting.from_text(text, halves=True) == value


def test_a_flag_reads_true_only_from_true():
    half_game = VARIANTS["fontenaysien"]().setting("half_game")
    assert half_game.text(True) == "True" and half_game.text(False) == "False"
    assert half_game.from_text("True", halves=False) is True
    assert half_game.from_text("False", halves=False) is False
    assert half_game.from_text("", halves=False) is False
    short = Tambouille().setting("short")
    assert short.from_text("True", halves=False) is True


def test_a_choice_keeps_its_type():
    """``decks`` is the number 1 or 2, ``deck`` the text "52" or "32" (a game file holds
    them so)."""
    assert DECKS.from_text("1", halves=False) == 1
    assert isinstance(DECKS.from_text("2", halves=False), int)
    assert DECK.from_text("52", halves=False) == "52"


def refused(setting, text: str, *, halves: bool = False) -> str:
    with pytest.raises(SettingError) as error:
        setting.from_text(text, halves=halves)
    assert error.value.setting == setting.name  # the form marks that field
    return str(error.value.note)


@pytest.mark.parametrize(
    ("setting", "text", "halves", "message"),
    [
        (DECKS, "3", False, "“Decks” must be one of: 1, 2."),
        (DECK, "36", False, "“Deck” must be one of: 52, 32."),
        (ROUNDS, "0", False, "“Number of rounds” must be a whole number from 1 to 999."),
        (ROUNDS, "many", False, "“Number of rounds” must be a whole number from 1 to 999."),
        (ROUNDS, "2.5", False, "“Number of rounds” must be a whole number from 1 to 999."),
        (
            CALL_BONUS,
            "",
            False,
            "“Successful call scores” must be a whole number from -100 to 100.",
        ),
        (
            CALL_THRESHOLD,
            "6.5",
            False,
            "“A call is allowed with at most” is 6.5: only whole points in this variant.",
        ),
        (
            CALL_THRESHOLD,
            "6.25",
            True,
            "“A call is allowed with at most” is 6.25: only whole or half points.",
        ),
        (
            CALL_THRESHOLD,
            "x",
            True,
            "“A call is allowed with at most” must be a number from 0 to 100.",
        ),
        (CARD_VALUES, "KH:x", False, "“Card values” must be a number from -50 to 50."),
        (CARD_VALUES, "KH:0.5", False, "“Card values”, KH: 0.5 is not a whole number of points."),
        (CARD_VALUES, "KH:51", False, "“Card values”, KH: a number from -50 to 50."),
        (
            CARD_VALUES,
            "ZZ:1",
            False,
            "“Card values”: 'ZZ' is not a rank, a card (such as KH) or JOKER.",
        ),
        (RESET, "100:100", False, "“Fall back”: 100 cannot fall back to itself."),
    ],
)
def test_a_bad_setting_in_an_address_is_refused_saying_what_is_allowed(
    setting, text, halves, message
):
    assert refused(setting, text, halves=halves) == message


@pytest.mark.parametrize("text", ["100:x", "100", ":50"])
def test_a_reset_that_is_not_two_numbers_is_refused(text):
    assert refused(RESET, text).startswith("“Fall back” must be a number")


def test_a_card_value_that_is_not_one_number_is_refused():
    assert refused(CARD_VALUES, "KH:1:2") == "“Card values” must be a number from -50 to 50."


def test_a_card_value_in_quarters_is_refused_even_where_halves_are_allowed():
    assert refused(CARD_VALUES, "KH:0.25", halves=True) == (
        "“Card values”, KH: 0.25 is not a whole or half point."
    )


def test_a_reset_may_fall_back_from_1_and_to_1000():
    """rules.md: A from 1 to 1000, B from −1000 to 1000."""
    assert RESET.from_text("1:1000", halves=False) == {"at": 1, "to": 1000}
    assert RESET.from_text("1000:-1000", halves=False) == {"at": 1000, "to": -1000}
    for text in ("0:5", "1001:5", "5:1001", "5:-1001"):
        assert refused(RESET, text) == (
            "“Fall back”: a total of exactly 1 to 1000 falls back to a whole number from -1000 "
            "to 1000."
        )
