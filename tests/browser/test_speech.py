"""Saying the round: the round form carries what the phone needs to read a round said
aloud (static/js/speech.js, unit-tested by node on 40 spoken rounds), and on a touch phone with
speech recognition a tap on the microphone fills the form from what the table said, marked as
heard, saved only by a tap on Save, kept as a draft across a reload. The recognizer here is a
stand-in that "hears" given transcripts, as Chrome's would give them."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from scoring.store.models import Game, Round
from tests.browser.helpers import STAND_IN, assert_fits_the_phone, shoot

# --- in a browser -----------------------------------------------------------------------------

NO_RECOGNITION = "delete window.SpeechRecognition; delete window.webkitSpeechRecognition;"

TEXT = {
    "en": {
        "mic": "Say the round",
        "save": "Save round 1",
        "next": "Round 2",
        "said": [
            ["Lea twelve, Bob six", "Léa douze"],
            ["Marc seven, Nina minus two"],
            ["Omar zero, Zoe three calls, Marc penalty five"],
        ],
        "heard": "Heard: Léa 12, Marc 7, Nina −2, Omar 0, Zoé 3, Zoé called, penalty 5 for Marc.",
        "unknown": "Not understood: Bob.",
    },
    "fr": {
        "mic": "Dire la manche",
        "save": "Enregistrer la manche 1",
        "next": "Manche 2",
        "said": [
            ["Léa douze, Bob six"],
            ["Marc sept Nina moins deux"],
            ["Omar zéro Zoé trois annonce, Marc pénalité cinq"],
        ],
        "heard": "Entendu\u202f: Léa 12, Marc 7, Nina −2, Omar 0, Zoé 3, Zoé annonce,"
        " pénalité de 5 pour Marc.",
        "unknown": "Pas compris\u202f: Bob.",
    },
}


def speak(page: Page, live_server, language: str) -> None:
    host = urlsplit(live_server.url).hostname
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "domain": host, "path": "/"}]
    )


def drafted(page: Page, text: str) -> bool:
    return page.evaluate(
        """async (text) => {
          for (let tries = 0; tries < 250; tries += 1) {
            if (Object.keys(localStorage).some((k) => k.startsWith('tamalou-ref:draft:')
                && localStorage.getItem(k).includes(text))) return true;
            await new Promise((tick) => setTimeout(tick, 20));
          }
          return false;
        }""",
        text,
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_round_said_aloud_fills_the_form_and_is_saved_by_one_tap(phone: Page, live_server):
    language = "fr"
    page = phone
    text = TEXT[language]
    speak(page, live_server, language)
    page.add_init_script(STAND_IN)
    loaded = []
    page.on("request", lambda request: loaded.append(urlsplit(request.url).path))
    game = Game.objects.create(
        variant="cabo_bruxellois", players=["Léa", "Marc", "Nina", "Omar", "Zoé"]
    )
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    page.evaluate("(said) => window.toSay.push(said)", text["said"])
    mic = page.get_by_role("button", name=text["mic"])
    expect(mic).to_be_visible()
    assert not [path for path in loaded if re.search(r"/(say|speech)\.", path)]  # not at first

    mic.tap()  # tap 1
    said = page.locator(".round-form .said[role=status]")
    expect(said).to_contain_text(text["heard"])
    expect(said).to_contain_text(text["unknown"])
    assert page.evaluate("window.listenedIn")[0].startswith(language)
    assert [path for path in loaded if re.search(r"/say\.", path)]
    for seat, value in enumerate(["12", "7", "-2", "0", "3"]):
        expect(page.locator(f"#id_total_{seat}")).to_have_value(value)
        expect(page.locator(f"#id_total_{seat}")).to_have_class(re.compile(r"\bheard\b"))
    expect(page.locator('.hand[data-seat="2"] .total')).to_have_text("−2")
    expect(page.locator('input[name=caller][value="Zoé"]')).to_be_checked()
    expect(page.locator("details.extras")).to_have_attribute("open", "")
    expect(page.locator("#id_penalty-0-player")).to_have_value("Marc")
    expect(page.locator("#id_penalty-0-points")).to_have_value("5")
    expect(mic).to_have_attribute("aria-pressed", "false")  # it stopped by itself
    assert_fits_the_phone(page)
    page.locator(".round-form").scroll_into_view_if_needed()
    shoot(page, f"40-said-{page.viewport_size['width']}-{language}")
    assert not Round.objects.exists()  # nothing saved before Save

    assert drafted(page, '"total_3","0"')
    page.reload()  # the draft keeps what was heard
    for seat, value in enumerate(["12", "7", "-2", "0", "3"]):
        expect(page.locator(f"#id_total_{seat}")).to_have_value(value)
    expect(page.locator('input[name=caller][value="Zoé"]')).to_be_checked()
    expect(page.locator("#id_penalty-0-points")).to_have_value("5")
    assert not Round.objects.exists()

    page.get_by_role("button", name=text["save"]).tap()  # tap 2
    expect(page.locator(".round-form h2")).to_have_text(text["next"])
    stored = Round.objects.get(game=game).data
    assert stored["hands"] == {"Léa": 12, "Marc": 7, "Nina": -2, "Omar": 0, "Zoé": 3}
    assert stored["caller"] == "Zoé"
    assert stored["penalties"] == [{"player": "Marc", "points": 5}]
    expect(page.get_by_role("button", name=text["mic"])).to_be_visible()  # on the new form too


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_what_is_not_heard_is_left_as_it_was_and_named(phone: Page, live_server):
    """A name said without a number, a half where the game has none: those fields stay empty
    and the line names them (the half with its number); a second go fills only what it hears, a
    hand of cards picked before gives way to the total said. A microphone refused, or no
    connection, is said, and changes nothing."""
    page = phone
    page.add_init_script(STAND_IN)
    game = Game.objects.create(variant="tamalou", players=["Maxime", "Jean-Pierre", "Chloé"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    page.locator('.picker button[value="KS"]').tap()  # Maxime's king, before anything is said
    page.evaluate(
        "window.toSay.push([['Max four, Jean-Pierre six and a half, Chloe calls']],"
        " [['Jean-Pierre nine']])"
    )
    mic = page.get_by_role("button", name="Say the round")
    mic.tap()
    said = page.locator(".round-form .said")
    expect(said).to_contain_text("Heard: Maxime 4, Chloé called.")
    expect(said.locator(".missed")).to_have_text(
        ["Not a possible hand total in this game: Jean-Pierre 6.5.", "No number for Chloé."]
    )
    expect(page.locator("#id_total_0")).to_have_value("4")
    expect(page.locator("#id_cards_0")).to_have_value("")  # the total said replaces the king
    expect(page.locator('.hand[data-seat="0"] .chips .chip')).to_have_count(0)
    expect(page.locator("#id_total_1")).to_have_value("")
    expect(page.locator("#id_total_2")).to_have_value("")
    expect(mic).to_have_attribute("aria-pressed", "false")
    shoot(page, f"41-said-missed-{page.viewport_size['width']}")

    page.get_by_role("button", name="Say the round").tap()
    expect(said).to_contain_text("Heard: Jean-Pierre 9.")
    expect(said.locator(".missed")).to_have_text("No number for Chloé.")  # not Maxime's 4
    expect(page.locator("#id_total_1")).to_have_value("9")
    expect(page.locator("#id_total_0")).to_have_value("4")  # kept from the first go
    expect(page.locator("#id_total_0")).not_to_have_class(re.compile(r"\bheard\b"))
    expect(page.locator('input[name=caller][value="Chloé"]')).to_be_checked()
    page.locator("#id_total_1").tap()
    page.keyboard.type("0")
    expect(page.locator("#id_total_1")).not_to_have_class(re.compile(r"\bheard\b"))  # typed over

    page.evaluate("window.toSay.push([['well thank you']], [])")
    page.get_by_role("button", name="Say the round").tap()  # words, but nothing of the round
    expect(said).to_have_text("Nothing heard: tap the microphone and say the round again.")
    page.get_by_role("button", name="Say the round").tap()  # silence
    expect(said).to_have_text("Nothing heard: tap the microphone and say the round again.")
    expect(page.locator("#id_total_1")).to_have_value("0")  # as typed, left alone

    # The microphone refused, then no connection: said, and nothing in the form changes.
    page.evaluate("window.toSay.push('not-allowed', 'network')")
    mic.tap()
    expect(page.locator(".round-form .said[role=status]")).to_have_text(
        "The microphone is not allowed here: type the round instead."
    )
    expect(mic).to_have_attribute("aria-pressed", "false")
    mic.tap()
    expect(said).to_have_text("Listening needs a connection: type the round instead.")
    expect(page.locator("#id_total_0")).to_have_value("4")
    expect(page.locator("#id_total_1")).to_have_value("0")
    assert not Round.objects.exists()


# Sentences a table said that once answered "Nothing heard", or skipped a player silently
# (Cabo bruxellois: a hand from −4 to 338), and what the line under the heading says of each.
BEYOND = {
    "en": {
        "said": [
            "Lea 340, Marc 9",
            "Omar 340",
            "Omar one hundred fifty",
            "two penalty points for Nina",
        ],
        "lines": [
            [
                "Heard: Marc 9.",
                "Out of range for a hand (from −4 to 338): Léa 340.",
                "No number for Nina, Omar, Zoé.",
                "Check, then save.",
            ],
            [
                "Out of range for a hand (from −4 to 338): Omar 340.",
                "No number for Léa, Nina, Zoé.",
            ],
            ["Heard: Omar 150.", "No number for Léa, Nina, Zoé.", "Check, then save."],
            ["Heard: penalty 2 for Nina.", "No number for Léa, Nina, Zoé.", "Check, then save."],
        ],
    },
    "fr": {
        "said": [
            "Léa 340, Marc 9",
            "Omar 340",
            "Omar cent cinquante",
            "deux points de pénalité pour Nina",
        ],
        "lines": [
            [
                "Entendu\u202f: Marc 9.",
                "Hors limites pour une main (de −4 à 338)\u202f: Léa 340.",
                "Pas de nombre pour Nina, Omar, Zoé.",
                "Vérifiez, puis enregistrez.",
            ],
            [
                "Hors limites pour une main (de −4 à 338)\u202f: Omar 340.",
                "Pas de nombre pour Léa, Nina, Zoé.",
            ],
            [
                "Entendu\u202f: Omar 150.",
                "Pas de nombre pour Léa, Nina, Zoé.",
                "Vérifiez, puis enregistrez.",
            ],
            [
                "Entendu\u202f: pénalité de 2 pour Nina.",
                "Pas de nombre pour Léa, Nina, Zoé.",
                "Vérifiez, puis enregistrez.",
            ],
        ],
    },
}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_number_said_is_placed_or_named_with_its_player(page: Page, live_server):
    """Léa's 12, typed before, is emptied when the table says 340 for her (no hand of the game
    reaches it): the line names her with that number, never "Nothing heard" and never her old
    12 kept as if heard. 150 said in words is placed; penalty points said before their words
    and "for" go to the player named after."""
    language = "en"
    page.add_init_script(STAND_IN)
    speak(page, live_server, language)
    text = BEYOND[language]
    game = Game.objects.create(
        variant="cabo_bruxellois", players=["Léa", "Marc", "Nina", "Omar", "Zoé"]
    )
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    page.locator("#id_total_0").fill("12")
    page.evaluate("(said) => { for (const one of said) window.toSay.push([[one]]); }", text["said"])
    mic = page.locator("button[data-say]")
    lines = page.locator(".round-form .said p")

    mic.tap()  # Léa 340, Marc 9
    expect(lines).to_have_text(text["lines"][0])
    expect(page.locator("#id_total_0")).to_have_value("")  # not her old 12
    expect(page.locator("#id_total_0")).not_to_have_class(re.compile(r"\bheard\b"))
    expect(page.locator('.hand[data-seat="0"] .total')).to_have_text("–")
    expect(page.locator("#id_total_1")).to_have_value("9")
    expect(mic).to_have_attribute("aria-pressed", "false")

    mic.tap()  # Omar 340
    expect(lines).to_have_text(text["lines"][1])
    expect(page.locator("#id_total_3")).to_have_value("")
    expect(mic).to_have_attribute("aria-pressed", "false")

    mic.tap()  # Omar 150, in words
    expect(lines).to_have_text(text["lines"][2])
    expect(page.locator("#id_total_3")).to_have_value("150")
    expect(mic).to_have_attribute("aria-pressed", "false")

    mic.tap()  # two penalty points for Nina
    expect(lines).to_have_text(text["lines"][3])
    expect(page.locator("#id_penalty-0-player")).to_have_value("Nina")
    expect(page.locator("#id_penalty-0-points")).to_have_value("2")
    expect(page.locator("#id_total_1")).to_have_value("9")  # kept from the first go
    assert not Round.objects.exists()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_without_speech_recognition_the_form_has_no_microphone(page: Page, live_server):
    page.add_init_script(NO_RECOGNITION)
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    page.goto(f"{live_server.url}/g/{game.edit_key}/")
    expect(page.locator(".picker legend")).to_have_text("Add cards to Léa")  # round.js ran
    expect(page.locator("button[data-say]")).to_be_hidden()
