"""French typography: a narrow no-break space (U+202F) before ; : ! ? and inside « » in every
French translation, put there by ``scripts/french_typography.py`` (run by ``make messages``),
never by hand."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from django.test import Client

from scoring.models import Game

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "locale/fr/LC_MESSAGES/django.po"
NNBSP = "\u202f"


def load_script():
    spec = importlib.util.spec_from_file_location(
        "french_typography", ROOT / "scripts/french_typography.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def translations() -> list[str]:
    """Every French msgstr of the catalogue (``make messages`` writes each on one line)."""
    found = []
    for line in CATALOGUE.read_text(encoding="utf-8").split("\n"):
        if line.startswith("msgstr"):
            text = line.partition(" ")[2]
            assert text.startswith('"') and text.endswith('"'), line
            found.append(text[1:-1])
    return [text for text in found if text]


def test_every_french_translation_has_narrow_no_break_spaces_where_french_puts_them():
    texts = translations()
    assert len(texts) > 400
    wrong = [
        text
        for text in texts
        if re.search(r"[ \u00a0][;:!?»]|«[ \u00a0]|[^\u202f]»|«[^\u202f]", text)
        or re.search(r"[^\s\u202f\"][;:!?](?= |$)", text)
    ]
    assert wrong == [], "run `make messages` (scripts/french_typography.py) on the catalogue"
    assert sum(NNBSP in text for text in texts) > 170


def test_the_script_changes_nothing_more_in_the_catalogue():
    source = CATALOGUE.read_text(encoding="utf-8")
    assert load_script().fix_catalogue(source) == source


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("joueur {position} : le nom", "joueur {position}\u202f: le nom"),
        (
            "variante « {key} » ; au choix : {keys}.",
            "variante «\u202f{key}\u202f»\u202f; au choix\u202f: {keys}.",
        ),
        ("Temps écoulé\u00a0!", "Temps écoulé\u202f!"),
        ("Qui a annoncé?", "Qui a annoncé\u202f?"),
        ("«mot»", "«\u202fmot\u202f»"),
        ("de 0:30 à 5:00, https://x.org/?card=KH", "de 0:30 à 5:00, https://x.org/?card=KH"),
        ("Par défaut\u202f: 20.", "Par défaut\u202f: 20."),
    ],
)
def test_the_script_puts_the_spaces_and_leaves_times_and_addresses(before, after):
    assert load_script().typeset(before) == after


@pytest.mark.django_db
def test_a_french_page_shows_narrow_no_break_spaces_and_the_english_one_none():
    game = Game.objects.create(variant="tamoul", players=["Léa", "Marc"])
    french = Client()
    french.cookies["django_language"] = "fr"
    page = french.get(f"/g/{game.edit_key}/").content.decode()
    assert f"Qui a annoncé{NNBSP}?" in page
    english = Client()
    english.cookies["django_language"] = "en"
    assert NNBSP not in english.get(f"/g/{game.edit_key}/").content.decode()
