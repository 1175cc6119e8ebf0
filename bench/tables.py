"""A table's page against a served server (bench/run.py): a table of 12 players with 200
games of 30 rounds (5 to 8 of its players each, hand totals typed, a caller each round, the
games spread over a year), its page fetched one request at a time by a phone that holds the
table's edit link, as it opens it (everything), looks at this year, and compares two players.
The page reads the games' stored summaries: what it costs grows with the games, not the
rounds. Budget: p95 100 ms."""

from __future__ import annotations

import random
import statistics
from datetime import timedelta

from django.utils import timezone

from bench.capacity import cpu_seconds, percentile, process_tree
from bench.evening import Browser
from scoring.games.models import Game, Table
from scoring.referee import gamefile
from scoring.referee.engine import GameEntry

PLAYERS = [
    "Léa",
    "Marc",
    "Nina",
    "Omar",
    "Paul",
    "Zoé",
    "Inès",
    "Hugo",
    "Jade",
    "Karl",
    "Lou",
    "Max",
]
BUDGET = 100  # ms, p95
NAME = "Banc d'essai"


def big_table(games: int = 200, rounds: int = 30, seed: int = 3) -> Table:
    """The table, its games stored as the app stores game files (summary and sheet kept)."""
    rng = random.Random(seed)
    table = Table.objects.create(name=NAME, players=PLAYERS)
    now = timezone.now()
    for number in range(games):
        players = rng.sample(PLAYERS, rng.randint(5, 8))
        entries = []
        for n in range(1, rounds + 1):
            hands = {p: rng.randint(0, 30) for p in players}
            data = {"hands": hands, "caller": min(players, key=hands.__getitem__)}
            entries.append(gamefile.round_from_json(data, n))
        entry = GameEntry("tamalou", tuple(players), tuple(entries), {"rounds": rounds})
        when = now - timedelta(days=365 * (games - number) / games)
        Game.objects.store(entry, table=table, created_at=when, updated_at=when)
    Table.objects.filter(pk=table.pk).update(variant="tamalou", settings={"rounds": rounds})
    return table


def measure_table(base: str, master: int, key: str, samples: int = 60) -> dict:
    """The page's wait, as the phone sees it, over ``samples`` requests of each kind, and the
    server's CPU per request (its processes' user + system time over them: what the wait
    would be on an idle machine, less the network and the waits between processes). Each
    sample is a player of its own, from an address of its own, opening the three views:
    one phone asking for 180 pages back to back would wait for its share of the server's
    time (scoring/guards/shares.py), which is not what a player opening the page waits."""
    host, port = base.removeprefix("http://").split(":")
    phone = Browser(host, int(port), key)
    paths = {
        "everything": f"/t/{key}/",
        "this year": f"/t/{key}/?period=year",
        "face to face": f"/t/{key}/?period=all&a=L%C3%A9a&b=Marc",
    }
    phone.request("GET", paths["everything"], {"Accept": "text/html"})  # its first visit
    waits: dict[str, list[float]] = {kind: [] for kind in paths}
    before = cpu_seconds(process_tree(master))
    for sample in range(samples):
        if phone.connection is not None:
            phone.connection.close()
        phone.address, phone.connection = f"127.0.2.{1 + sample % 250}", None
        for kind, path in paths.items():
            answer = phone.request("GET", path, {"Accept": "text/html"})
            assert answer.status == 200, (answer.status, path)
            waits[kind].append(answer.seconds * 1000)
    every = [wait for spent in waits.values() for wait in spent]
    cpu = (cpu_seconds(process_tree(master)) - before) * 1000 / len(every)
    return {
        "cpu": cpu,
        "kinds": {
            kind: (statistics.median(spent), percentile(spent, 0.95))
            for kind, spent in waits.items()
        },
        "p95": percentile(every, 0.95),
        "median": statistics.median(every),
        "requests": len(every),
    }
