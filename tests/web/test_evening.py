"""A table's evening: the share link follows the table from game to rematch, a rematch is made
once, an ended game reopens, a game leaves this phone's list, a game file imported twice is one
game, and a long game stays a short page. Through the client, in English and French."""

from __future__ import annotations

import json
import re
import threading

import pytest
from django.utils import translation
from django.utils.html import escape

from scoring.store.models import Game, Round
from scoring.web.display import say
from tests.helpers import EXAMPLES, NOBODY_CALLED, evening_game, exported_as
from tests.servers import Phone

pytestmark = pytest.mark.django_db

WORDS = {
    "en": {
        "next": "The next game has started",
        "go": "Go to the next game",
        "reopen": "Reopen the game",
        "own rules": "This game ended by its own rules: it cannot be reopened.",
        "remove": "Remove from this phone",
        "removed": "The game was removed from this phone. Its links still open it.",
        "over": "Game over",
        "earlier": "Show rounds 1 to 15",
        "imported before": "This phone imported this game before: here is that copy.",
    },
    "fr": {
        "next": "La partie suivante a commencé",
        "go": "Aller à la partie suivante",
        "reopen": "Rouvrir la partie",
        "own rules": "Cette partie s’est terminée selon ses propres règles\u202f: "
        "elle ne peut pas être rouverte.",
        "remove": "Retirer de ce téléphone",
        "removed": "La partie a été retirée de ce téléphone. Ses liens l’ouvrent toujours.",
        "over": "Partie terminée",
        "earlier": "Afficher les manches 1 à 15",
        "imported before": "Ce téléphone a déjà importé cette partie\u202f: en voici la copie.",
    },
}


@pytest.fixture(params=["en", "fr"])
def language(request, client) -> str:
    client.cookies["django_language"] = request.param
    return request.param


def page(response) -> str:
    return response.content.decode()


def text(response) -> str:
    return re.sub(r"[ \t\n]+", " ", re.sub(r"<[^>]+>", " ", page(response)))


def typed_round(client, game: Game, number: int, totals: list[int]):
    """A round of typed hand totals that nobody called."""
    data = {"number": number, "save": "1", **NOBODY_CALLED}
    data |= {f"total_{seat}": str(total) for seat, total in enumerate(totals)}
    return client.post(f"/g/{game.edit_key}/", data)


def ended_game(client) -> Game:
    """An open-ended Tamalou game of one round that the table ended."""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina"])
    assert typed_round(client, game, 1, [3, 9, 8]).status_code == 302
    client.post(f"/g/{game.edit_key}/end/")
    game.refresh_from_db()
    assert game.ended and game.score().finished
    return game


def import_file(client, data: bytes | str, name: str = "game.json", follow: bool = False):
    from django.core.files.uploadedfile import SimpleUploadedFile

    if isinstance(data, str):
        data = data.encode()
    return client.post("/import/", {"file": SimpleUploadedFile(name, data)}, follow=follow)


# --- a rematch, once -----------------------------------------------------------------------


def test_a_second_rematch_tap_opens_the_rematch_already_made(client, language):
    game = ended_game(client)
    first = client.post(f"/g/{game.edit_key}/rematch/")
    second = client.post(f"/g/{game.edit_key}/rematch/")
    rematch = Game.objects.exclude(pk=game.pk).get()  # one game, however often it is tapped
    assert first["Location"] == second["Location"] == f"/g/{rematch.edit_key}/"
    game.refresh_from_db()
    assert game.next_game == rematch and rematch.first_dealer == 1
    # The finished game offered the rematch once: now it leads to it.
    sheet = client.get(f"/g/{game.edit_key}/")
    assert f'href="/g/{rematch.edit_key}/"' in page(sheet)
    assert WORDS[language]["go"] in text(sheet)
    assert f"/g/{game.edit_key}/rematch/" not in page(sheet)
    # A rematch of the rematch is a game of its own.
    client.post(f"/g/{rematch.edit_key}/rematch/")
    rematch.refresh_from_db()
    assert Game.objects.count() == 3 and rematch.next_game.first_dealer == 2


def test_a_game_in_progress_offers_the_rematch_once_too(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    assert "/rematch/" in page(client.get(f"/g/{game.edit_key}/"))
    client.post(f"/g/{game.edit_key}/rematch/")
    client.post(f"/g/{game.edit_key}/rematch/")
    assert Game.objects.count() == 2
    sheet = client.get(f"/g/{game.edit_key}/")
    assert "/rematch/" not in page(sheet)
    assert page(sheet).count(f'href="/g/{Game.objects.get(pk=game.pk).next_game.edit_key}/"') == 2


@pytest.mark.django_db(transaction=True)
def test_phones_tapping_rematch_at_once_make_one_game(live_server):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    phones = [Phone(live_server.url) for _ in range(5)]
    for phone in phones:
        phone.get(f"/g/{game.edit_key}/")
    barrier = threading.Barrier(len(phones))
    statuses: list[int] = []

    def tap(phone: Phone) -> None:
        barrier.wait()
        statuses.append(phone.post(f"/g/{game.edit_key}/rematch/", {})[0])

    threads = [threading.Thread(target=tap, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert statuses == [302] * len(phones)
    assert Game.objects.count() == 2
    game.refresh_from_db()
    assert game.next_game is not None


# --- the share link follows the table ------------------------------------------------------


def test_the_viewers_live_view_moves_on_to_the_rematch(client, language):
    game = ended_game(client)
    share_live = f"/s/{game.share_key}/live/"
    assert client.get(share_live, HTTP_HX_REQUEST="true").status_code == 200
    client.post(f"/g/{game.edit_key}/rematch/")
    rematch = Game.objects.exclude(pk=game.pk).get()
    moved = client.get(share_live, HTTP_HX_REQUEST="true")
    assert moved["HX-Redirect"] == f"/s/{rematch.share_key}/"
    assert client.get(share_live).status_code == 200  # without htmx: the link on the page
    # Without JavaScript: a link on the page. The read-only key leads only to read-only pages.
    viewer = client.get(f"/s/{game.share_key}/")
    assert WORDS[language]["next"] in text(viewer)
    assert f'href="/s/{rematch.share_key}/"' in page(viewer)
    for answer in (moved, viewer, client.get(f"/s/{rematch.share_key}/")):
        assert rematch.edit_key not in page(answer) + str(answer.headers)
        assert game.edit_key not in page(answer)
    # The edit link's live view shows the way to the rematch (by its edit link).
    edit_live = client.get(f"/g/{game.edit_key}/live/", HTTP_HX_REQUEST="true")
    assert f'href="/g/{rematch.edit_key}/"' in page(edit_live)
    assert WORDS[language]["go"] in text(edit_live)


def test_the_share_page_is_rendered_again_once_the_rematch_is_made(client):
    game = ended_game(client)
    before = client.get(f"/s/{game.share_key}/")  # cached for this state of the game
    assert 'class="next-game"' not in page(before)
    client.post(f"/g/{game.edit_key}/rematch/")
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert f'href="/s/{rematch.share_key}/"' in page(client.get(f"/s/{game.share_key}/"))


# --- reopen ----------------------------------------------------------------------------------


def test_an_ended_game_reopens_after_its_confirmation(client, language):
    game = ended_game(client)
    sheet = client.get(f"/g/{game.edit_key}/")
    assert WORDS[language]["reopen"] in text(sheet)
    assert re.search(
        rf'<details class="confirm">\s*<summary class="button">{WORDS[language]["reopen"]}'
        rf'</summary>\s*<form method="post" action="/g/{game.edit_key}/resume/">',
        page(sheet),
    )
    assert client.post(f"/g/{game.edit_key}/resume/")["Location"] == f"/g/{game.edit_key}/"
    game = Game.objects.get(pk=game.pk)
    assert not game.ended and not game.score().finished
    sheet = client.get(f"/g/{game.edit_key}/")
    assert WORDS[language]["over"] not in text(sheet) and 'name="number" value="2"' in page(sheet)
    assert typed_round(client, game, 2, [1, 2, 3]).status_code == 302
    assert Round.objects.filter(game=game).count() == 2


def test_a_game_its_own_rules_ended_is_not_reopened(client, language):
    game = Game.objects.create(variant="koubo", players=["Léa", "Marc"], settings={"rounds": 1})
    typed_round(client, game, 1, [3, 9])
    game.refresh_from_db()
    state = game.state
    sheet = client.get(f"/g/{game.edit_key}/")
    assert WORDS[language]["over"] in text(sheet)
    assert "/resume/" not in page(sheet) and WORDS[language]["reopen"] not in text(sheet)
    refused = client.post(f"/g/{game.edit_key}/resume/", follow=True)
    assert WORDS[language]["own rules"] in text(refused)
    game.refresh_from_db()
    assert game.state == state and game.score().finished  # nothing changed


def test_a_game_with_a_rematch_is_not_reopened(client):
    game = ended_game(client)
    client.post(f"/g/{game.edit_key}/rematch/")
    assert "/resume/" not in page(client.get(f"/g/{game.edit_key}/"))
    refused = client.post(f"/g/{game.edit_key}/resume/", follow=True)
    assert "A rematch was made from this game: it cannot be reopened." in text(refused)
    assert Game.objects.get(pk=game.pk).ended


# --- remove from this phone ------------------------------------------------------------------


def test_remove_from_this_phone_keeps_the_game_and_its_links(client, language):
    kept = ended_game(client)
    removed = ended_game(client)
    home = client.get("/")
    for game in (kept, removed):
        assert f'action="/g/{game.edit_key}/forget/"' in page(home)
    assert text(home).count(WORDS[language]["remove"]) == 2
    assert client.get("/stats/").context["games"] == 2
    sheet = client.get(f"/g/{removed.edit_key}/")
    assert f'action="/g/{removed.edit_key}/forget/"' in page(sheet)

    answer = client.post(f"/g/{removed.edit_key}/forget/", follow=True)
    assert answer.redirect_chain == [("/", 302)]
    assert WORDS[language]["removed"] in text(answer)
    assert f"/g/{removed.edit_key}/" not in page(answer)
    assert f"/g/{kept.edit_key}/" in page(answer)
    assert client.get("/stats/").context["games"] == 1  # its statistics went with it
    assert Game.objects.filter(pk=removed.pk).exists()
    assert client.get(f"/s/{removed.share_key}/").status_code == 200
    assert client.get(f"/g/{removed.edit_key}/").status_code == 200  # opening it lists it again
    assert f"/g/{removed.edit_key}/" in page(client.get("/"))


def test_remove_needs_a_post_and_a_known_game(client):
    game = ended_game(client)
    assert client.get(f"/g/{game.edit_key}/forget/").status_code == 405
    assert client.post("/g/unknownkey/forget/").status_code == 404
    assert f"/g/{game.edit_key}/" in page(client.get("/"))


# --- game ids in files -----------------------------------------------------------------------


def test_a_file_imported_twice_is_one_game(client, language):
    data = (EXAMPLES / "koubo.game.json").read_text()
    marked = json.dumps({**json.loads(data), "id": "table-7_evening"})
    first = import_file(client, marked, follow=True)
    second = import_file(client, marked, follow=True)
    game = Game.objects.get()
    assert first.redirect_chain == second.redirect_chain == [(f"/g/{game.edit_key}/", 302)]
    assert WORDS[language]["imported before"] not in text(first)
    assert WORDS[language]["imported before"] in text(second)  # the same game, with a word
    assert (game.uid, game.imported) == ("table-7_evening", True)
    assert client.get("/stats/").context["games"] == 1
    assert text(client.get("/")).count(WORDS[language]["remove"]) == 1
    # A file without an id is a new game every time.
    import_file(client, data)
    import_file(client, data)
    assert Game.objects.count() == 3


def test_a_file_with_the_id_of_an_earlier_import_and_other_rounds_is_a_new_game(client):
    """Such a file opened the earlier copy, without its new rounds and with no word."""
    data = json.loads((EXAMPLES / "koubo.game.json").read_text())
    earlier = {**data, "id": "table-7_evening", "rounds": data["rounds"][:1]}
    first = import_file(client, json.dumps(earlier))
    later = import_file(client, json.dumps({**data, "id": "table-7_evening"}), follow=True)
    assert later.redirect_chain[0][0] != first["Location"]
    assert "beside the earlier copy" in text(later)
    copy = Game.objects.get(edit_key=later.redirect_chain[0][0][3:-1])
    assert copy.live_count() == len(data["rounds"]) and copy.uid == "table-7_evening"
    # Each file imported again opens its own copy, with no word of a new game.
    again = import_file(client, json.dumps({**data, "id": "table-7_evening"}), follow=True)
    assert again.redirect_chain[0][0] == later.redirect_chain[0][0]
    assert "beside the earlier copy" not in text(again)
    assert import_file(client, json.dumps(earlier))["Location"] == first["Location"]
    assert Game.objects.count() == 2


def test_another_phone_importing_the_file_makes_its_own_copy(client):
    from django.test import Client

    exported = page(client.get(f"/g/{ended_game(client).edit_key}/export/"))
    mine = import_file(client, exported)
    other = Client()
    theirs = import_file(other, exported)
    assert mine["Location"] != theirs["Location"]
    assert import_file(other, exported)["Location"] == theirs["Location"]
    assert Game.objects.count() == 3


def test_an_id_never_opens_a_game_this_phone_did_not_import(client):
    original = ended_game(client)  # on this phone's list, made here, not imported
    own_export = page(client.get(f"/g/{original.edit_key}/export/"))
    copy = import_file(client, own_export)
    assert copy["Location"] != f"/g/{original.edit_key}/"
    # Someone else's game, exported by its share link: a new copy, never the original.
    from django.test import Client

    host = Client()
    theirs = ended_game(host)
    shared = page(client.get(f"/s/{theirs.share_key}/export/"))
    assert json.loads(shared)["id"] == theirs.uid
    opened = import_file(client, shared)
    assert opened["Location"] not in (f"/g/{theirs.edit_key}/", f"/g/{original.edit_key}/")
    assert theirs.edit_key not in page(client.get(opened["Location"]))
    assert Game.objects.count() == 4


def test_who_dealt_first_and_an_ended_game_round_trip(client):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc", "Nina"], first_dealer=2)
    typed_round(client, game, 1, [3, 9, 8])
    client.post(f"/g/{game.edit_key}/end/")
    exported = json.loads(page(client.get(f"/g/{game.edit_key}/export/")))
    assert (exported["first_dealer"], exported["ended"]) == ("Nina", True)
    from django.test import Client

    other = Client()
    copy = Game.objects.get(edit_key=import_file(other, json.dumps(exported))["Location"][3:-1])
    assert (copy.first_dealer, copy.ended, copy.uid) == (2, True, game.uid)
    assert copy.score().winners == ["Léa"] and copy.score().finished
    assert exported_as(page(other.get(f"/g/{copy.edit_key}/export/")), game) == {
        k: v for k, v in exported.items() if k != "id"
    }
    # The first player deals first by default: the file need not say so.
    assert "first_dealer" not in json.loads(
        page(client.get(f"/g/{ended_game(client).edit_key}/export/"))
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"id": "no spaces allowed"}, "the id must be 1 to 64 letters, digits, '_' or '-'."),
        ({"id": "x" * 65}, "the id must be 1 to 64 letters, digits, '_' or '-'."),
        ({"id": 7}, "the id must be 1 to 64 letters, digits, '_' or '-'."),
        ({"first_dealer": "Zoé"}, "the first dealer 'Zoé' is not one of the players."),
        ({"ended": "yes"}, "ended must be true or false."),
        ({"ended": True, "rounds": []}, "a game can be ended only after its first round."),
    ],
)
def test_a_bad_id_dealer_or_end_is_refused_and_nothing_stored(client, change, message):
    data = {**json.loads((EXAMPLES / "koubo.game.json").read_text()), **change}
    answer = import_file(client, json.dumps(data))
    assert answer.status_code == 400
    assert message[:1].upper() + message[1:] in text(answer).replace("&#x27;", "'")
    assert Game.objects.count() == 0


def test_a_bad_id_is_refused_in_french(client):
    client.cookies["django_language"] = "fr"
    data = {**json.loads((EXAMPLES / "koubo.game.json").read_text()), "first_dealer": "Zoé"}
    answer = import_file(client, json.dumps(data))
    assert "Le premier donneur «\u202fZoé\u202f» n’est pas l’un des joueurs." in text(answer)


# --- a long game -----------------------------------------------------------------------------


def test_a_long_game_folds_its_older_rounds_under_their_edit_button(client, language):
    game = evening_game(30, seed=11)
    sheet = page(client.get(f"/g/{game.edit_key}/"))
    history = sheet[sheet.index('id="history"') :]
    assert history.count("<details hx-get") == 29  # round 30, the one just saved, stays open
    assert "{#" not in sheet and "#}" not in sheet
    assert history.count("<table>") == 1  # the folded rounds' hands come when opened
    # Every round is one tap from its edit: 30 edit links, one on each folded round's line.
    for stored in Round.objects.filter(game=game):
        assert history.count(f'href="/g/{game.edit_key}/rounds/{stored.pk}/edit/"') == 1
    folded = re.findall(r"<summary>(.*?)</summary>", history, re.S)
    assert len(folded) == 29 and not any("<a" in line for line in folded)  # axe: no link inside
    # Each folded line says every player's points in that round.
    sheet_of = Game.objects.get(pk=game.pk).score()
    for line, result in zip(folded, sheet_of.rounds[-2::-1], strict=False):
        scores = re.findall(r'<span class="round-scores">(.*?)</span></span>', line, re.S)[0]
        for player, score in result.scores.items():
            shown = f"{score}" if score <= 0 else f"+{score}"
            assert f"<span>{player} {shown.replace('-', '−')}" in scores, (player, score)
    assert len(re.findall(r"</details>\s*<a class=\"button\" href=\"[^\"]+/edit/\"", history)) == 29
    # Opening one fetches (or, without JavaScript, goes to) the sheet with every round whole.
    rounds = f"/g/{game.edit_key}/rounds/"
    assert f'href="{rounds}#round-5"' in history
    assert f'hx-get="{rounds}"' in history and 'hx-select="#round-5 .round-body"' in history
    whole = page(client.get(rounds))
    assert whole.count("<details hx-get") == 0 and whole.count("<table>") == 30
    assert re.search(r'id="round-5">\s*<header>', whole)
    assert re.search(r'id="round-5">.*?<div class="round-body">\s*<p class="call">', whole, re.S)
    # The chart comes right under the standings, before the round form.
    assert sheet.index('id="chart"') < sheet.index('class="round-form')
    viewer = page(client.get(f"/s/{game.share_key}/"))
    assert viewer.count("<details hx-get") == 29 and "/edit/" not in viewer
    assert f'hx-get="/s/{game.share_key}/rounds/"' in viewer
    assert page(client.get(f"/s/{game.share_key}/rounds/")).count("<table>") == 30


def test_a_game_longer_than_an_evening_lists_its_newest_30_rounds_and_links_the_rest(
    client, language
):
    """Round 45: the sheet lists rounds 16 to 45 (reading only those), and one button leads
    to the page of every round, which htmx puts in their place."""
    game = evening_game(45, seed=12)
    for link, key in (("g", game.edit_key), ("s", game.share_key)):
        sheet = page(client.get(f"/{link}/{key}/"))
        history = sheet[sheet.index('id="history"') :]
        listed = [int(n) for n in re.findall(r'<article class="round" id="round-(\d+)"', history)]
        assert listed == list(range(45, 15, -1))
        assert history.count("<table>") == 1 and history.count("<details hx-get") == 29
        rounds = f"/{link}/{key}/rounds/"
        earlier = re.search(r'<p class="earlier"><a ([^>]*)>([^<]*)</a>', history)
        assert earlier.group(2) == WORDS[language]["earlier"]
        assert f'href="{rounds}#round-15"' in earlier.group(1)
        assert f'hx-get="{rounds}" hx-select="#history-rounds"' in earlier.group(1)
        assert 'hx-target="#history-rounds" hx-swap="outerHTML"' in earlier.group(1)
        whole = page(client.get(rounds))
        everything = whole[whole.index('id="history-rounds"') :]
        listed = [int(n) for n in re.findall(r'<article class="round" id="round-(\d+)"', whole)]
        assert listed == list(range(45, 0, -1)) and everything.count("<table>") == 45
        assert 'class="earlier"' not in whole


def test_a_round_saved_past_an_evening_sends_the_list_as_a_reload_shows_it(client, language):
    """Saving round 31 with htmx: the phone's list becomes rounds 2 to 31 and the button for
    round 1, as a reload would show them (round 1 had stayed, with no button)."""
    game = evening_game(30, seed=13)
    hands = {f"total_{seat}": str(seat + 1) for seat in range(len(game.players))}
    saved = {"number": "31", "save": "1", "caller": game.players[0], **hands}
    answer = page(client.post(f"/g/{game.edit_key}/", saved, HTTP_HX_REQUEST="true"))
    history = answer[answer.index('<section id="history" class="history" hx-swap-oob="true">') :]
    listed = [int(n) for n in re.findall(r'<article class="round" id="round-(\d+)"', history)]
    assert listed == list(range(31, 1, -1)) and history.count("<table>") == 1
    earlier = re.search(r'<p class="earlier"><a [^>]*>([^<]*)</a>', history).group(1)
    assert earlier == {"en": "Show round 1", "fr": "Afficher la manche 1"}[language]
    reloaded = page(client.get(f"/g/{game.edit_key}/"))
    assert re.findall(r'<article class="round" id="round-(\d+)"', reloaded) == [
        str(n) for n in listed
    ]


def test_the_listed_rounds_meet_their_results_when_another_phone_changes_the_last_round():
    """The sheet read, then another phone adds a round, or deletes the last one, before the
    history's rounds are read: each result is still drawn with its own round (its hands, its
    Edit and Delete links)."""
    from scoring.game.sheet import history
    from scoring.referee import engine

    game = evening_game(35, seed=4)
    for change in ("add", "delete"):
        loaded = Game.objects.get(pk=game.pk)
        sheet = loaded.score()
        other = Game.objects.get(pk=game.pk)
        count = len(sheet.rounds)
        if change == "add":
            other.add_round(count + 1, engine.RoundEntry(hands={p: 5 for p in other.players}))
        else:
            other.delete_round(other.live_rounds()[-1].pk)
        rows = history(loaded, sheet)
        assert [row["result"].number for row in rows][-1] == count - 29
        for row in rows:
            assert row["entry"].position == row["result"].number
        game.refresh_from_db()


def test_the_referee_scores_a_file_the_table_ended():
    from scoring.referee import engine, gamefile

    data = {
        "format": "tamalou-ref.game/1",
        "variant": "dutch",
        "ended": True,
        "first_dealer": "Marc",
        "players": ["Léa", "Marc", "Nina"],
        "rounds": [{"hands": {"Léa": 12, "Marc": 4, "Nina": 30}}],
    }
    parsed = gamefile.read_game(json.dumps(data))
    sheet = engine.score_game(parsed)
    assert sheet.finished and sheet.winners == ["Marc"]
    assert gamefile.game_to_json(parsed) == data
    assert not engine.score_game(gamefile.read_game(json.dumps({**data, "ended": False}))).finished


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_each_existing_game_its_own_id():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate([("scoring", "0003_turn_clock")])
    old = executor.loader.project_state([("scoring", "0003_turn_clock")]).apps
    for key in ("a", "b", "c"):
        old.get_model("scoring", "Game").objects.create(
            edit_key=key, share_key=key.upper(), variant="tamalou", players=["Léa", "Marc"]
        )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    uids = list(Game.objects.values_list("uid", flat=True))
    assert len(uids) == len(set(uids)) == 3


@pytest.mark.parametrize("name", ["tamoul", "dutch", "house_cabo_chez_mamie", "hostile"])
def test_the_chart_shows_each_player_and_the_variants_landmarks(client, language, name):
    """The chart as the page writes it, in either language: a line, a marker and a legend
    entry per player (a name the page must escape included), the variant's landmarks with
    their labels, and coordinates written for SVG (a dot, never French's decimal comma)."""
    if name == "hostile":
        players = ["Léa", '<b>"Zoé" & Cie</b>']
        hands = [{"Léa": 5, players[1]: 12}, {"Léa": 30, players[1]: 2}]
        rounds = [{"hands": h} for h in hands]
        played = {"format": "tamalou-ref.game/1", "variant": "dutch", "players": players}
        played["rounds"] = rounds
        game = Game.objects.import_file(json.dumps(played))
    else:
        game = Game.objects.import_file((EXAMPLES / f"{name}.game.json").read_bytes())
    shown = page(client.get(f"/s/{game.share_key}/"))
    svg = re.search(r'<figure class="chart" id="chart">.*?</figure>', shown, re.S).group(0)
    assert svg.count("<polyline") == svg.count("<marker ") == len(game.players)
    legend = re.findall(r"</svg>([^<]*)</li>", svg)
    assert legend == [escape(player) for player in game.players]
    if name == "hostile":  # escaped once: as text, not markup, and not "&amp;lt;"
        assert "<b>" not in svg and "&lt;b&gt;&quot;Zoé&quot; &amp; Cie&lt;/b&gt;" in svg
    landmarks = game.rules().landmarks()
    with translation.override(language):
        labels = [escape(say(landmark.label)) for landmark in landmarks]
    assert landmarks and re.findall(r'<text class="lm" [^>]*>([^<]*)</text>', svg) == labels
    number = r"-?\d+(\.\d)?"
    for attribute in ("x", "y", "x1", "x2", "y1", "y2"):
        for value in re.findall(rf' {attribute}="([^"]*)"', svg):
            assert re.fullmatch(number, value), (attribute, value)
    for points in re.findall(r' points="([^"]*)"', svg):
        assert re.fullmatch(rf"{number},{number}( {number},{number})*", points), points
