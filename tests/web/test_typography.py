"""French typography: a narrow no-break space (U+202F) before ; : ! ? and inside « » in every
French translation, put there by ``scripts/french_typography.py`` (run by ``make messages``),
never by hand."""

from __future__ import annotations

import importlib.util
import re
from html import unescape

import pytest
from django.test import Client

from scoring.store.models import Game
from scoring.web.display import typeset
from tests.helpers import NOBODY_CALLED, ROOT

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


# --- the minus sign --------------------------------------------------------------------------

MINUS = "\u2212"


def visible(response) -> str:
    """The page's words, tags removed, every kind of space one space."""
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def client_in(language: str) -> Client:
    client = Client()
    client.cookies["django_language"] = language
    return client


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("-50 wins", "−50 wins"),
        ("(-4 gives +4 to each)", "(−4 gives +4 to each)"),
        ("(their hand - the lowest hand)", "(their hand − the lowest hand)"),
        ("Mi-partie (fin à 50 et à -25)", "Mi-partie (fin à 50 et à −25)"),
        ("0 scores -5, 1 to 5 scores 5", "0 scores −5, 1 to 5 scores 5"),
        ("2026-11-23, contre-Tamoul, x-2, 0:30–5:00", "2026-11-23, contre-Tamoul, x-2, 0:30–5:00"),
    ],
)
def test_negative_numbers_and_subtractions_in_texts_get_a_minus_sign(before, after):
    assert typeset(before) == after


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "said"),
    [
        # The difference is said as its result (docs/rules.md, Cabo bruxellois: true
        # arithmetic, issue 19).
        ("en", "Léa called Cabo with 5 but someone had −4: 5 + 9 = 14."),
        ("fr", "Léa a annoncé Cabo avec 5 mais quelqu’un avait −4 : 5 + 9 = 14."),
    ],
)
def test_a_subtraction_in_a_note_is_written_with_minus_signs(language, said):
    client = client_in(language)
    game = Game.objects.create(variant="cabo_bruxellois", players=["Léa", "Marc"])
    url = f"/g/{game.edit_key}/"
    data = {"number": 1, "save": "1", "total_0": "5", "total_1": "-4", "caller": "Léa"}
    assert client.post(url, data).status_code == 302
    assert said in visible(client.get(url))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", ["−50 wins", "(−5 to 30)", "scores −10", "Half game (ends at 50 and −25)"]),
        ("fr", ["−50 gagne", "(−5 à 30)", "marque −10", "Mi-partie (fin à 50 et à −25)"]),
    ],
)
def test_rules_and_settings_write_negative_numbers_with_a_minus_sign(language, shown):
    client = client_in(language)
    rules = visible(client.get("/rules/fontenaysien/"))
    settings = visible(client.get("/new/fontenaysien/"))
    home = visible(client.get("/"))
    for words in shown:
        assert words in rules + settings + home
    assert not re.search(r"(?<![\w-])-[0-9]", rules + settings + home)


@pytest.mark.django_db
def test_machine_read_numbers_stay_ascii():
    """Game files and score_game's JSON keep JSON numbers and plain English."""
    game = Game.objects.create(variant="cabo_bruxellois", players=["Léa", "Marc"])
    client = client_in("fr")
    data = {"number": 1, "save": "1", "total_0": "5", "total_1": "-4", "caller": "Léa"}
    client.post(f"/g/{game.edit_key}/", data)
    exported = client.get(f"/g/{game.edit_key}/export/").content.decode()
    assert MINUS not in exported and '"Marc": -4' in exported


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_import_page_and_the_rules_speak_the_players_words(language):
    client = client_in(language)
    page = visible(client.get("/import/"))
    assert "tamalou-ref.game" not in page
    assert {"en": "Export the game file", "fr": "Exporter le fichier de partie"}[language] in page
    rules = visible(client.get("/rules/cabo_bruxellois/"))
    assert "seed" not in rules and "Tamalou" in rules
    if language == "en":
        assert "The original rules give Cabo bruxellois no card powers of its own" in rules


def test_a_card_on_a_page_is_drawn_in_the_language_of_the_page():
    from django.utils import translation

    from scoring.referee.cards import Card
    from scoring.templatetags.tamalou import card

    for language, king in (("fr", "R♥"), ("en", "K♥"), ("fr", "R♥")):  # each kept apart
        with translation.override(language):
            assert card(Card("K", "H")) == f'<span class="card red">{king}</span>'
            assert card(Card("10", "S")) == '<span class="card">10♠</span>'


@pytest.mark.django_db
def test_the_words_beside_a_name_fit_everyone_in_french():
    """A tag beside a player's name, or a landmark's label, names what happened, not a
    person: the app does not know who is a woman (Zoé won, Nina is out)."""
    from django.test import Client

    from scoring.store.models import Game

    french = Client()
    french.cookies["django_language"] = "fr"
    game = Game.objects.create(variant="dutch", players=["Zoé", "Nina"])
    posted = {"number": "1", "save": "1", "total_0": "3", "total_1": "101", **NOBODY_CALLED}
    french.post(
        f"/g/{game.edit_key}/", posted | {"penalty-TOTAL_FORMS": "0", "penalty-INITIAL_FORMS": "0"}
    )
    sheet = french.get(f"/g/{game.edit_key}/").text
    assert '<span class="tag win">victoire</span>' in sheet
    assert "100\u202f: hors jeu" in sheet  # the chart's landmark
    for gendered in ("gagnant", "perdant", "éliminé", "éliminée"):
        assert gendered not in sheet, gendered


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "rounds_free", "threshold"),
    [
        ("en", "no set number of rounds", "above the call threshold of 5"),
        ("fr", "nombre de manches libre", "au-dessus du seuil d’annonce de 5"),
    ],
)
def test_one_word_for_the_number_of_rounds_one_for_the_limit_one_for_the_call(
    language, rounds_free, threshold
):
    """A game with no agreed number of rounds says so in those words, not "open-ended" or
    "sans limite" (a Dutch game has a limit: 100 knocks a player out); the caller's
    threshold is not called a limit."""
    from django.test import Client

    from scoring.store.models import Game

    phone = Client()
    phone.cookies["django_language"] = language
    dutch = Game.objects.create(variant="dutch", players=["Léa", "Marc"])
    assert rounds_free in phone.get(f"/g/{dutch.edit_key}/").text
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    posted = {"number": "1", "save": "1", "total_0": "6", "total_1": "9", "caller": "Léa"}
    posted |= {"penalty-TOTAL_FORMS": "0", "penalty-INITIAL_FORMS": "0"}
    phone.post(f"/g/{game.edit_key}/", posted)
    sheet = phone.get(f"/g/{game.edit_key}/").text
    assert threshold in sheet
    for word in ("open-ended", "sans limite", "over the limit", "de la limite de"):
        assert word not in sheet, word


# --- one imperative form ---------------------------------------------------------------------

# English verbs that open an instruction to the player (a sentence of a msgid in the imperative).
ENGLISH_IMPERATIVES = {
    "Add",
    "Call",
    "Change",
    "Check",
    "Choose",
    "Clear",
    "Click",
    "Copy",
    "Correct",
    "Deal",
    "Delete",
    "Discard",
    "Draw",
    "Edit",
    "End",
    "Enter",
    "Export",
    "Give",
    "Go",
    "Import",
    "Keep",
    "Lay",
    "Leave",
    "Look",
    "Make",
    "Move",
    "Open",
    "Pick",
    "Press",
    "Reload",
    "Remove",
    "Rename",
    "Reopen",
    "Replace",
    "Save",
    "Say",
    "Scan",
    "See",
    "Set",
    "Share",
    "Show",
    "Shuffle",
    "Start",
    "Stop",
    "Swap",
    "Take",
    "Tap",
    "Tell",
    "Touch",
    "Try",
    "Type",
    "Undo",
    "Use",
    "Wait",
}
# French instruction verbs in the infinitive, as a French sentence would open with them.
FRENCH_INFINITIVES = {
    "Afficher",
    "Ajouter",
    "Annoncer",
    "Appuyer",
    "Attendre",
    "Changer",
    "Choisir",
    "Cliquer",
    "Cocher",
    "Copier",
    "Corriger",
    "Défausser",
    "Dire",
    "Distribuer",
    "Donner",
    "Échanger",
    "Effacer",
    "Enregistrer",
    "Entrer",
    "Garder",
    "Indiquer",
    "Laisser",
    "Mélanger",
    "Modifier",
    "Montrer",
    "Ouvrir",
    "Partager",
    "Piocher",
    "Poser",
    "Prendre",
    "Recharger",
    "Regarder",
    "Remplacer",
    "Renommer",
    "Retirer",
    "Revenir",
    "Réessayer",
    "Saisir",
    "Scanner",
    "Supprimer",
    "Taper",
    "Toucher",
    "Utiliser",
    "Vérifier",
    "Voir",
}
SENTENCE = re.compile(r"(?<=[.!?])\s+")  # where a sentence ends and the next begins


def catalogue_pairs() -> list[tuple[str, str]]:
    """Every (English msgid, French msgstr) of the catalogue, plural forms included."""
    pairs, english = [], ""
    for line in CATALOGUE.read_text(encoding="utf-8").split("\n"):
        key, _, text = line.partition(" ")
        if key in ("msgid", "msgid_plural"):
            english = text[1:-1]
        elif key.startswith("msgstr") and text[1:-1] and english:
            pairs.append((english, text[1:-1]))
    return pairs


def first_word(sentence: str) -> str:
    return re.match(r"[\w’']*", sentence.lstrip('«\u202f “"(')).group().rstrip("’'")


def instruction_forms(english: str, french: str) -> list[str]:
    """The French sentences of one entry that give an English imperative sentence as an
    infinitive (sentences paired in order; the whole entry when their counts differ)."""
    said, written = SENTENCE.split(english), SENTENCE.split(french)
    if len(said) != len(written):
        said = (
            [english] * len(written)
            if any(first_word(s) in ENGLISH_IMPERATIVES for s in said)
            else [""] * len(written)
        )
    return [
        sentence
        for source, sentence in zip(said, written, strict=True)
        if first_word(source) in ENGLISH_IMPERATIVES
        and first_word(sentence) in FRENCH_INFINITIVES
        and sentence.endswith(".")
    ]


def test_the_french_catalogue_uses_one_imperative_form():
    """The catalogue speaks to the player as « vous »: a sentence telling the player what to
    do (an English imperative sentence, ended by a period) is a « vous » imperative in French
    (« Laissez vide pour… », « Regardez une de vos cartes. »), never an infinitive
    (« Laisser vide… », « Regarder une de ses cartes. »). Controls are the one place for
    infinitives, as French interfaces write them, and the catalogue writes every one so:
    button and link labels (« Enregistrer la manche 3 », « Annuler ») and the confirmation
    questions beside them (« Supprimer la manche 3 ? ») are not sentences a period ends, and
    no control is a « vous » imperative. An infinitive that is the subject of a sentence
    (« Utiliser le pouvoir d’une carte n’est jamais obligatoire. », from "Using…") is no
    instruction."""
    pairs = catalogue_pairs()
    assert len(pairs) > 700
    infinitives = [f for e, f in pairs for f in instruction_forms(e, f)]
    assert infinitives == [], "a « vous » imperative, as the catalogue's other instructions"
    controls = [
        french
        for english, french in pairs
        if first_word(english) in ENGLISH_IMPERATIVES
        and not re.search(r"[.!]$", french)
        and re.fullmatch(r"[A-ZÀ-Ý]\w*ez", first_word(french))
    ]
    assert controls == [], "a control's label is an infinitive, as the catalogue's others"


@pytest.mark.parametrize(
    ("english", "french", "flagged"),
    [
        ("Leave empty for none.", "Laisser vide pour aucune.", True),
        ("Leave empty for none.", "Laissez vide pour aucune.", False),
        (
            "The game ends. Leave empty for none.",
            "La partie finit. Laisser vide pour aucune.",
            True,
        ),
        ("Look at one of your own cards.", "Regarder une de ses propres cartes.", True),
        ("Delete round %(n)s?", "Supprimer la manche %(n)s\u202f?", False),  # a confirmation
        ("Save round %(n)s", "Enregistrer la manche %(n)s", False),  # a button
        ("Draw. Using a power is free.", "Piochez. Utiliser un pouvoir est libre.", False),
    ],
)
def test_an_instruction_in_the_infinitive_is_found(english, french, flagged):
    assert bool(instruction_forms(english, french)) is flagged
