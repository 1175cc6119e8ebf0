"""Several phones at once: real concurrent requests from threads against a live server.

Runs on SQLite (the default) and, in `make test`'s second pass, on PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest
from django.db import connection, connections, transaction

from scoring.store.models import Game, Round, Table
from tests.helpers import NOBODY_CALLED
from tests.servers import Phone

pytestmark = pytest.mark.django_db(transaction=True)
PHONES = 6


def all_at_once(actions) -> list:
    """Run the actions in threads released together; their results in order."""
    barrier = threading.Barrier(len(actions))
    results = [None] * len(actions)

    def run(index, action):
        barrier.wait()
        results[index] = action()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def hands(lea: int, marc: int) -> dict:
    return {"total_0": str(lea), "total_1": str(marc)}


def test_phones_saving_the_same_round_at_once_store_exactly_one(live_server):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    phones = [Phone(live_server.url) for _ in range(PHONES)]
    for phone in phones:
        phone.get(f"/g/{game.edit_key}/")
    results = all_at_once(
        [
            (
                lambda p=p, i=i: p.post(
                    f"/g/{game.edit_key}/", {"number": 1, "save": 1, **hands(i, 9), **NOBODY_CALLED}
                )
            )
            for i, p in enumerate(phones)
        ]
    )
    statuses = sorted(status for status, _ in results)
    assert statuses == [302] + [409] * (PHONES - 1)
    assert Round.objects.filter(game=game).count() == 1
    for status, page in results:
        if status == 409:
            # In French, the default: the round saved first, and this phone's hands kept.
            assert "La manche 1 a été enregistrée depuis un autre téléphone entre-temps." in page
            assert "comme manche 2" in page


def test_phones_correcting_the_same_round_at_once_lose_no_update(live_server):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    entry = Round.objects.create(game=game, position=1, data={"hands": {"Léa": 3, "Marc": 9}})
    url = f"/g/{game.edit_key}/rounds/{entry.pk}/edit/"
    phones = [Phone(live_server.url) for _ in range(PHONES)]
    for phone in phones:
        phone.get(url)
    results = all_at_once(
        [
            (lambda p=p, i=i: p.post(url, {"number": 1, "edits": 0, "save": 1, **hands(i, 20 + i)}))
            for i, p in enumerate(phones)
        ]
    )
    winners = [i for i, (status, _) in enumerate(results) if status == 302]
    assert len(winners) == 1
    assert all(status == 409 for i, (status, _) in enumerate(results) if i not in winners)
    entry.refresh_from_db()
    assert entry.edits == 1 and entry.data["hands"] == {"Léa": winners[0], "Marc": 20 + winners[0]}
    refused = next(page for i, (status, page) in enumerate(results) if i not in winners)
    assert (
        "modifiée depuis un autre téléphone entre-temps\u202f; la voici telle qu’enregistrée"
        in refused
    )
    assert f'value="{20 + winners[0]}"' in refused  # the current version is shown


def test_deleting_and_adding_at_once_leaves_no_gap_or_duplicate(live_server):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    for position in (1, 2, 3):
        Round.objects.create(
            game=game, position=position, data={"hands": {"Léa": position, "Marc": 9}}
        )
    second = Round.objects.get(game=game, position=2)
    deleting, adding = Phone(live_server.url), Phone(live_server.url)
    deleting.get(f"/g/{game.edit_key}/rounds/{second.pk}/delete/")
    adding.get(f"/g/{game.edit_key}/")
    (deleted, _), (added, _) = all_at_once(
        [
            lambda: deleting.post(f"/g/{game.edit_key}/rounds/{second.pk}/delete/", {}),
            lambda: adding.post(
                f"/g/{game.edit_key}/", {"number": 4, "save": 1, **hands(4, 9), **NOBODY_CALLED}
            ),
        ]
    )
    assert deleted == 302
    live = list(Round.objects.filter(game=game).live().order_by("position"))
    positions = [r.position for r in Round.objects.filter(game=game)]
    assert len(positions) == len(set(positions))
    if added == 302:  # the new round went in first, as round 4, then round 2 went
        assert [r.data["hands"]["Léa"] for r in live] == [1, 3, 4]
    else:  # round 2 went first: the phone's round 4 is refused, it would now be round 3
        assert added == 409 and [r.data["hands"]["Léa"] for r in live] == [1, 3]
    assert len(Game.objects.get(pk=game.pk).score().rounds) == len(live)


def renaming_waits() -> None:
    """Until another transaction waits for a lock this one holds (on PostgreSQL, a backend
    this one blocks: the rename, holding the table's lock, waits for the game's). SQLite
    shows no such wait (the rename waits for the database's write lock): a second then."""
    if connection.vendor != "postgresql":
        time.sleep(1)
        return
    deadline = time.monotonic() + 20
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT pg_stat_clear_snapshot()")  # read afresh in this transaction
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.02)
    raise AssertionError("the rename never waited for the game's lock")


def test_a_rematch_while_the_table_renames_its_players_is_saved_and_renamed_too():
    """A rematch holds its game's lock and adds a game that refers to the table; a rename
    holds the table's lock and waits for that game's. On PostgreSQL a FOR UPDATE lock on the
    table made the rematch's insert wait for the rename: a deadlock, the rematch refused.
    And the rematch, made after the rename listed the table's games, is renamed as well."""
    table = Table.objects.create(name="Jeudis", players=["Léa", "Marc"])
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    table.attach(game)
    failures: list[BaseException] = []
    held = threading.Event()

    def rematch():
        try:
            with transaction.atomic():
                locked = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
                held.set()
                renaming_waits()  # the rename takes the table's lock meanwhile
                locked.rematch()
        except BaseException as error:
            failures.append(error)
        finally:
            connections.close_all()

    def rename():
        held.wait(30)
        try:
            Table.objects.get(pk=table.pk).rename("Marc", "Marco")
        except BaseException as error:
            failures.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=rematch), threading.Thread(target=rename)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not failures
    # Both games renamed: the rematch too, made while the rename waited for its game.
    players = Game.objects.filter(table=table).order_by("pk").values_list("players", flat=True)
    assert list(players) == [["Léa", "Marco"], ["Léa", "Marco"]]


def test_a_table_renamed_while_a_phone_plays_answers_every_request_without_a_500(live_server):
    """One phone reads the sheet and saves rounds of the table's game while two
    phones rename and merge back its players and a fourth starts rematches: every answer is
    a page or a clear refusal, every saved round is kept, with its players' names as renamed."""
    client = Phone(live_server.url)
    table = Table.objects.create(name="Jeudis", players=["Bo", "Léa"])
    game = Game.objects.create(variant="dutch", players=["Bo", "Léa"])
    table.attach(game)
    sheet = f"/g/{game.edit_key}/"
    rename = f"/t/{table.edit_key}/rename/"
    statuses: list[int] = []
    saved = []
    stop = threading.Event()

    def player() -> None:
        for number in range(1, 31):
            try:
                page = client.get(sheet)
            except Exception as error:  # an HTTP error status: counted, as the phone saw it
                statuses.append(getattr(error, "code", 0))
                continue
            statuses.append(200)
            posted = {"number": len(saved) + 1, "save": 1, **hands(1, 2), **NOBODY_CALLED}
            status, _ = client.post(sheet, posted)
            statuses.append(status)
            if status == 302:
                saved.append(number)
            assert "Round" in page or "Manche" in page
        stop.set()

    def renamer(old: str, new: str) -> None:
        phone = Phone(live_server.url)
        phone.get(rename)
        while not stop.is_set():
            for a, b in ((old, new), (new, old)):
                status, _ = phone.post(rename, {"old": a, "new": b, "confirm": "True"})
                statuses.append(status)

    def rematcher() -> None:
        phone = Phone(live_server.url)
        phone.get(sheet)
        while not stop.is_set():
            status, _ = phone.post(f"/g/{game.edit_key}/rematch/", {})
            statuses.append(status)
            time.sleep(0.2)

    threads = [
        threading.Thread(target=player),
        threading.Thread(target=renamer, args=("Bo", "Bob")),
        threading.Thread(target=renamer, args=("Léa", "Lea")),
        threading.Thread(target=rematcher),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not [s for s in statuses if s >= 500 or s == 0], sorted(set(statuses))
    game.refresh_from_db()
    rounds = list(game.rounds.live().order_by("position"))
    assert len(rounds) == len(saved) > 0, (len(rounds), saved, Counter(statuses))
    for stored in rounds:
        assert set(stored.data["hands"]) == set(game.players)
    table.refresh_from_db()
    assert len({name.casefold() for name in table.players}) == len(table.players) == 2
