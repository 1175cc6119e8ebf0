"""The words a round is said with, as the round form gives them to speech.js (the node tests
read the spoken rounds with the same words), and no microphone without JavaScript."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.test import Client

from scoring.store.models import Game
from tests.helpers import ROOT


def say_words(client: Client, game: Game) -> dict:
    html = client.get(f"/g/{game.edit_key}/").content.decode()
    found = re.search(r'<script id="say-words" type="application/json">(.*?)</script>', html)
    return json.loads(unescape(found[1]))


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_round_form_gives_the_parser_the_words_it_was_tested_with(language):
    """The words the node tests read the 40 spoken rounds with are those the pages give."""
    client = Client()
    client.cookies["django_language"] = language
    cabo = Game.objects.create(variant="cabo_bruxellois", players=["Léa", "Marc"])
    tamoul = Game.objects.create(variant="tamoul", players=["Léa", "Marc"])
    words = say_words(client, tamoul)
    assert words["words"] == WORDS[language]
    assert words["calls"] == WORDS["calls"]
    assert (words["halves"], words["negatives"]) == (True, False)
    cabo_words = say_words(client, cabo)
    assert "counter" not in cabo_words["words"]  # no counter-call in Cabo
    assert (cabo_words["halves"], cabo_words["negatives"]) == (False, True)
    # a hand holds at most every card of the deck; Cabo's red kings are worth −2 each
    rules = cabo.rules()
    assert (cabo_words["lowest"], cabo_words["highest"]) == (-4, rules.highest_possible_hand)
    heard = {"en": "Heard: {list}.", "fr": "Entendu\u202f: {list}."}[language]
    assert words["texts"]["heard"] == heard


@pytest.mark.django_db
def test_without_javascript_the_microphone_button_is_never_shown():
    client = Client()
    client.cookies["django_language"] = "en"
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    html = client.get(f"/g/{game.edit_key}/").content.decode()
    button = re.search(r"<button [^>]*data-say[^>]*>", html)[0]
    assert " hidden" in button and 'type="button"' in button  # never a submit


WORDS = json.loads((ROOT / "tests" / "js" / "speech-words.json").read_text())
