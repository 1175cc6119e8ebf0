"""`make probe`: the phones' answers while strangers attack `make serve`'s server (issue #34).

    .venv/bin/python bench/probe.py                     # a SQLite file in a temporary folder
    .venv/bin/python bench/probe.py --postgres URL      # a fresh database on that server

The server is started as `make serve` starts it (bench/servers.py: its command line read from
the Makefile, DEBUG=0, on loopback). At each of ``--tables`` tables (8) a phone
(bench/evening.py's Browser: its cookies, htmx's headers, a keep-alive connection), from the
table's own address (127.0.1.1, …), plays a game of its own for ``--seconds``: it reads the
sheet, saves a round, reads the live part, waits ``--pause`` seconds (2; a real table plays a
round in a minute or more), and again. First alone (quiet), then under each attack in turn,
each from one process of asyncio sockets (its own CPU is measured: it shares the machine's
cores with the server and the phones), from addresses of its own (127.0.0.2, …):

- slowloris: 240 connections sending a request head a byte a second;
- stalled bodies: 200 posts promising 2 MB and sending 10 bytes, sent again when answered;
- oversized heads: a 1 MB header line, then 100,000 headers, again and again (4 at once);
- amplification: 4 clients posting the round form with `penalty-99999-points` and asking for
  pages with NULs and huge counts in their queries, in a loop;
- exports: 6 clients downloading a 300-round, 8-player game's file and CSV in a loop;
- streams: 300 live streams from 30 addresses, each closed after 2–8 s and opened again.

Then a fuzz: ``--fuzz`` requests, malformed or hostile (methods, NULs, bad percent-encodings
and UTF-8, huge fields, wrong CSRF tokens, keys that are not keys, broken multipart), over
every kind of URL the app has. A table follows: per attack, the phones' p95 quiet and under
attack (budget: at most 2×), the 5xx answers (none but a deliberate 503 allowed), the
server's workers before and after (none may die), their memory (resident, all workers) before,
at most and after, the server's and the attacker's CPU. Exits 1 when a budget is over. A
measure run by hand, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.capacity import cpu_seconds, percentile, process_tree, resident_mb  # noqa: E402
from bench.evening import PLAYERS, Browser  # noqa: E402
from bench.load import fresh_database, prepare, server_env  # noqa: E402
from bench.servers import children_of, served  # noqa: E402

KINDS = ("sheet", "save", "live")
TABLES = 8  # each with a phone that plays
PAUSE = 2.0  # seconds between a phone's rounds (a real table: a minute or more)
RATIO = 2.0  # the phone's p95 under attack, at most this many times its quiet p95
CSRF = "probe" * 6 + "xx"  # 32 characters: a CSRF cookie and token any client may make up
ATTACKS = ("slowloris", "stalled", "heads", "amplify", "export", "streams")


# --- the phone ----------------------------------------------------------------------------------


def play(base: str, key: str, seconds: float, seed: int, address: str, pause: float) -> dict:
    """A phone on game ``key`` for ``seconds``: sheet, save, live part, ``pause`` seconds,
    again. Each request's time (s) by kind, and what was not the expected answer."""
    host, port = base.removeprefix("http://").split(":")
    phone = Browser(host, int(port), key, address)
    rng = random.Random(seed)
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    errors: Counter = Counter()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            sheet = phone.open_sheet()
            if sheet.status != 200:
                errors[f"sheet {sheet.status}"] += 1
                time.sleep(0.1)
                continue
            times["sheet"].append(sheet.seconds)
            totals = [str(rng.randint(0, 9)) for _ in PLAYERS]
            saved = phone.save(totals, rng.choice(PLAYERS))
            if saved.status != 200 or "HX-Retarget" in saved.headers:
                errors[f"save {saved.status}"] += 1
            else:
                times["save"].append(saved.seconds)
                phone.read_page(saved.text)
            live = phone.live()
            if live.status in (200, 304):
                times["live"].append(live.seconds)
            else:
                errors[f"live {live.status}"] += 1
        except OSError as error:  # no answer: the phone's connection was cut
            errors[type(error).__name__] += 1
            phone.connection = None
        time.sleep(pause)
    return {"times": times, "errors": errors}


def tables(base: str, keys: list[str], seconds: float, pause: float) -> dict:
    """A phone at each of several tables (``keys``: their games), each from an address of its
    own (127.0.1.1, …), all at once: every request's time (s) by kind, and the errors."""
    found: list[dict] = []

    def phone(n: int, key: str) -> None:
        time.sleep(pause * n / len(keys))  # the tables' rounds do not end at the same moment
        found.append(play(base, key, seconds, n, f"127.0.1.{n + 1}", pause))

    phones = [threading.Thread(target=phone, args=(n, key)) for n, key in enumerate(keys)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join()
    times = {kind: [t for played in found for t in played["times"][kind]] for kind in KINDS}
    return {"times": times, "errors": sum((played["errors"] for played in found), Counter())}


def p95(times: dict[str, list[float]]) -> dict[str, float]:
    """The p95 (ms) of each kind of request, and of all of them ("all")."""
    every = [t for spent in times.values() for t in spent]
    found = {kind: percentile(spent, 0.95) * 1000 for kind, spent in times.items() if spent}
    return {**found, "all": percentile(every, 0.95) * 1000 if every else float("nan")}


# --- the attacker: one process of asyncio sockets -----------------------------------------------


class Attacker:
    def __init__(self, host: str, port: int, keys: dict, seconds: float, rate: float = 0.0) -> None:
        self.host, self.port, self.keys, self.seconds = host, port, keys, seconds
        self.rate = rate  # requests a second per client in the loops (0: as fast as it can)
        self.statuses: Counter = Counter()  # what the server answered, "-" for nothing
        self.samples: list[str] = []  # requests answered 5xx (not 503), for the report
        self.end = 0.0

    def source(self, n: int) -> str:
        return f"127.0.0.{2 + n % 200}"

    async def connect(self, n: int):
        return await asyncio.open_connection(self.host, self.port, local_addr=(self.source(n), 0))

    async def answer(self, reader, timeout: float = 30) -> str:
        """The status of the answer waiting on ``reader`` ("-" when none came)."""
        try:
            line = await asyncio.wait_for(reader.readline(), timeout)
        except (OSError, TimeoutError, asyncio.IncompleteReadError):
            return "-"
        parts = line.split()
        return parts[1].decode() if len(parts) > 1 and line.startswith(b"HTTP/") else "-"

    async def exchange(self, n: int, request: bytes, timeout: float = 30) -> str:
        """One request on a connection of its own, read to its end; the status."""
        try:
            reader, writer = await self.connect(n)
        except OSError:
            return "refused"
        try:
            writer.write(request)
            await writer.drain()
        except OSError:
            pass  # the server may have answered and closed already
        status = await self.answer(reader, timeout)
        with contextlib.suppress(OSError, TimeoutError):
            await asyncio.wait_for(reader.read(), timeout)
        writer.close()
        self.statuses[status] += 1
        if status.startswith("5") and status != "503" and len(self.samples) < 8:
            self.samples.append(f"{status}: {request[:200]!r}")
        return status

    async def paced(self, n: int, request: bytes, timeout: float = 30) -> None:
        """``exchange``, then a pause that holds the client to ``rate`` requests a second (as
        a proxy's limit per address, nginx's ``limit_req``, would delay it)."""
        started = time.monotonic()
        await self.exchange(n, request, timeout)
        if self.rate:
            await asyncio.sleep(max(0.0, 1 / self.rate - (time.monotonic() - started)))

    def head(self, method: str, path: str, headers: str = "") -> bytes:
        return (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{headers}\r\n"
        ).encode()

    def running(self) -> bool:
        return time.monotonic() < self.end

    # (a) a request head a byte a second, on each of many connections
    async def slowloris(self, n: int) -> None:
        while self.running():
            try:
                reader, writer = await self.connect(n)
                writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                while self.running() and not reader.at_eof():
                    await asyncio.sleep(1 + random.random() * 0.2)
                    writer.write(b"a")
                    await writer.drain()
                if reader.at_eof():
                    self.statuses[await self.answer(reader, 1)] += 1
                writer.close()
            except OSError:
                self.statuses["cut"] += 1
                await asyncio.sleep(1)

    # (b) a body promised and not sent
    async def stalled(self, n: int) -> None:
        edit = self.keys["attack"]
        head = (
            f"POST /g/{edit}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: csrftoken={CSRF}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 2000000\r\n\r\n"
        )
        while self.running():
            try:
                reader, writer = await self.connect(n)
                writer.write(head.encode() + b"number=1&")
                await writer.drain()
                status = await self.answer(reader, max(0.1, self.end - time.monotonic()))
                if status != "-" or reader.at_eof():
                    self.statuses[status] += 1
                writer.close()
            except OSError:
                self.statuses["cut"] += 1
                await asyncio.sleep(1)

    # (c) oversized heads: a 1 MB header line, then 100,000 headers
    async def heads(self, n: int) -> None:
        big = b"X-Big: " + b"a" * 1_000_000 + b"\r\n\r\n"
        many = b"".join(b"X-%d: a\r\n" % i for i in range(100_000)) + b"\r\n"
        start = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        while self.running():
            await self.paced(n, start + (big if n % 2 else many), timeout=10)

    # (d) cheap to send, costly to answer
    async def amplify(self, n: int) -> None:
        edit = self.keys["attack"]
        form = {f"total_{seat}": "1" for seat in range(len(PLAYERS))}
        form |= {"number": "1", "caller": PLAYERS[0], "save": "1", "csrfmiddlewaretoken": CSRF}
        form |= {"penalty-99999-points": "1", "penalty-TOTAL_FORMS": "99999"}
        body = urlencode(form).encode()
        post = self.head(
            "POST",
            f"/g/{edit}/",
            f"Cookie: csrftoken={CSRF}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n",
        )
        gets = [
            "/new/tamalou/?rules=%00",
            "/new/tamalou/?" + "&".join(f"name_{i}=%00" for i in range(900)),
            "/new/?" + "&".join(f"name_{i}=x" for i in range(900)),
            "/rules/tamalou/?limit=99999999999999999999&deck=%00&jokers=99999",
            f"/g/{edit}/rounds/?open=" + "9" * 4000,
        ]
        while self.running():
            await self.paced(n, post + body)
            await self.paced(n, self.head("GET", random.choice(gets)))

    # (e) a heavy game's file and CSV, again and again
    async def export(self, n: int) -> None:
        heavy = self.keys["heavy"]
        while self.running():
            for path in (f"/g/{heavy}/export/", f"/g/{heavy}/sheet.csv"):
                await self.paced(n, self.head("GET", path, "Accept-Encoding: gzip\r\n"))

    # (f) live streams, each held 2-8 s, then opened again
    async def streams(self, n: int) -> None:
        share = self.keys["share"]
        await asyncio.sleep(random.random() * 2)  # a ramp, not a SYN flood
        while self.running():
            try:
                reader, writer = await self.connect(n % 30)
                writer.write(
                    self.head("GET", f"/s/{share}/stream/", "Accept: text/event-stream\r\n")
                )
                self.statuses[await self.answer(reader, 10)] += 1
                held = time.monotonic() + random.uniform(2, 8)
                while self.running() and time.monotonic() < held:
                    try:
                        if not await asyncio.wait_for(reader.read(4096), 1):
                            break
                    except TimeoutError:
                        pass
                writer.close()
            except OSError:
                self.statuses["cut"] += 1
                await asyncio.sleep(1)

    # the fuzz: malformed and hostile requests over every kind of URL
    async def fuzz(self, count: int, concurrency: int = 8) -> None:
        rng = random.Random(34)
        requests = [fuzzed(rng, self.keys) for _ in range(count)]
        queue = iter(enumerate(requests))

        async def worker() -> None:
            for n, request in queue:
                await self.exchange(n, request, timeout=20)

        await asyncio.gather(*(worker() for _ in range(concurrency)))

    async def run(self, attack: str, clients: int) -> None:
        self.end = time.monotonic() + self.seconds
        action = getattr(self, attack)
        await asyncio.gather(*(action(n) for n in range(clients)))


CLIENTS = {"slowloris": 240, "stalled": 200, "heads": 4, "amplify": 4, "export": 6, "streams": 300}


def fuzzed(rng: random.Random, keys: dict) -> bytes:
    """One malformed or hostile request (with Connection: close)."""
    edit, share, heavy = keys["attack"], keys["share"], keys["heavy"]
    bad_keys = ["%00", "a" * 300, "..%2f..", "%ff%fe", "%c0%af", "ABC", "0" * 22, "é"]
    key = rng.choice([edit, edit, share, *bad_keys])
    paths = [
        "/",
        "/healthz",
        "/new/",
        "/new/tamalou/",
        "/new/%00/",
        "/import/",
        "/stats/",
        "/rules/",
        "/rules/koubo/",
        "/t/new/",
        f"/g/{key}/",
        f"/g/{key}/live/",
        f"/g/{key}/stream/",
        f"/g/{key}/export/",
        f"/g/{key}/sheet.csv",
        f"/g/{key}/rematch/",
        f"/g/{key}/end/",
        f"/g/{key}/resume/",
        f"/g/{key}/forget/",
        f"/g/{key}/clock/",
        f"/g/{key}/rounds/",
        f"/g/{key}/rounds/sync/",
        f"/g/{key}/rounds/{rng.choice(['1', '99999999999999999', '0'])}/edit/",
        f"/g/{key}/rounds/1/delete/",
        f"/g/{key}/table/",
        f"/s/{key}/",
        f"/s/{key}/live/",
        f"/s/{share}/export/",
        f"/h/{key}/",
        f"/t/{key}/",
        f"/t/r/{key}/table.json",
        f"/g/{heavy}/export/",
        "/followed/%00/remove/",
    ]
    path = rng.choice(paths)
    queries = ["", "?rules=%00", "?open=%ff", "?table=%00", "?" + "x=1&" * 2000, "?a=%", "?%zz"]
    path += rng.choice(queries)
    method = rng.choice(["GET", "GET", "POST", "POST", "POST", "HEAD", "PUT", "DELETE", "OPTIONS"])
    if rng.random() < 0.03:
        method = rng.choice(["G\x00T", "FOO", "get", "P OST"])
    fields = {
        "number": rng.choice(["1", "-1", "99999999999999999999", "%00", "1e9", "", "½"]),
        "total_0": rng.choice(["3", "\x00", "9" * 40, "-0", "NaN", "∞"]),
        "total_1": rng.choice(["4", "", "1/0"]),
        "caller": rng.choice([PLAYERS[0], "\x00", "x" * 1000]),
        "save": "1",
        "edits": rng.choice(["0", "-5", "x"]),
        "name_0": rng.choice(["Léa", "\x00", "x" * 5000]),
        "name_1": "Marc",
        "action": rng.choice(["create", "rename", ""]),
        "csrfmiddlewaretoken": rng.choice([CSRF, "wrong" * 6 + "xx", "", "\x00" * 32]),
        f"penalty-{rng.randint(0, 99999)}-points": "1",
        "cards_0": rng.choice(["AS KD", "ZZ", "\x00" * 10, "10H " * 500]),
        "penalty_cards": "x" * rng.choice([10, 400, 5000]),
    }
    headers = ""
    if rng.random() < 0.8:
        headers += f"Cookie: csrftoken={rng.choice([CSRF, '%00', 'x' * 4000])}\r\n"
    kind = rng.random()
    if kind < 0.5:
        body = urlencode(fields).encode()
        charset = rng.choice(["", "; charset=latin-1", "; charset=utf-16", "; charset=%00"])
        headers += f"Content-Type: application/x-www-form-urlencoded{charset}\r\n"
        if rng.random() < 0.2:
            body = body.replace(b"L%C3%A9a", b"L%E9a").replace(b"save=1", b"save=%ff%fe")
    elif kind < 0.65:
        body = b"x=" + b"a" * rng.choice([250_000, 2_300_000])  # past a field's and a body's limit
        headers += "Content-Type: application/x-www-form-urlencoded\r\n"
    elif kind < 0.8:
        boundary = "fuzz"
        body = (
            f'--{boundary}\r\nContent-Disposition: form-data; name=file; filename="a.json"\r\n'
            f'\r\n{{"k": {rng.choice(["[" * 50, "1e999999", chr(0), "{}"])}}}\r\n'
        ).encode() + rng.choice([b"", f"--{boundary}--\r\n".encode()])
        headers += f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
    else:
        body = bytes(rng.randrange(256) for _ in range(rng.choice([0, 10, 500])))
        headers += rng.choice(["Content-Type: application/json\r\n", ""])
    headers += rng.choice(
        [
            "",
            "HX-Request: true\r\n",
            f"If-None-Match: {quote(chr(0))}\r\n",
            "Accept-Language: %00\r\n",
        ]
    )
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{headers}"
    return (
        head.encode("utf-8", "surrogateescape") + b"Content-Length: %d\r\n\r\n" % len(body) + body
    )


def attack_process(host, port, keys, seconds, attack, clients, rate, results) -> None:
    attacker = Attacker(host, port, keys, seconds, rate)
    if attack == "fuzz":
        asyncio.run(attacker.fuzz(clients))
    else:
        asyncio.run(attacker.run(attack, clients))
    results.put(
        {
            "statuses": dict(attacker.statuses),
            "samples": attacker.samples,
            "cpu": time.process_time(),
        }
    )


# --- the run ------------------------------------------------------------------------------------


def make_games(env: dict, tables: int) -> dict:
    """The games of the run, made in the database: the phone's (one per phase, fresh), the
    attackers' own, and a heavy one (300 rounds of 8 players' cards) for the exports."""
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tamalou_ref.settings")
    import django

    django.setup()
    from django.db import connections

    from bench.fixtures import evening_game
    from scoring.games.models import Game

    phones = [
        [Game.objects.create(variant="tamalou", players=PLAYERS) for _ in range(tables)]
        for _ in (*ATTACKS, "", "warm-up")
    ]
    attack = Game.objects.create(variant="tamalou", players=PLAYERS)
    heavy = evening_game(300, seed=34)
    connections.close_all()  # the attackers are forked from this process
    return {
        "phones": [[g.edit_key for g in games] for games in phones[:-1]],
        "warm-up": [g.edit_key for g in phones[-1]],
        "attack": attack.edit_key,
        "share": attack.share_key,
        "heavy": heavy.edit_key,
    }


def machine_busy() -> tuple[float, float]:
    """(busy, all) CPU seconds of the whole machine so far, every core (/proc/stat)."""
    fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields) - idle) / os.sysconf("SC_CLK_TCK"), sum(fields) / os.sysconf("SC_CLK_TCK")


class Watch:
    """The server's workers and their memory, sampled every half second while a phase runs."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.workers = children_of(master)
        self.rss = resident_mb(list(self.workers))
        self.peak = self.rss
        self.cpu = cpu_seconds(process_tree(master))
        self.machine = machine_busy()
        self.started = time.monotonic()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self) -> None:
        while not self.done.wait(0.5):
            self.peak = max(self.peak, resident_mb(list(children_of(self.master))))

    def stop(self) -> dict:
        self.done.set()
        self.thread.join()
        after = children_of(self.master)
        busy, every = (now - then for now, then in zip(machine_busy(), self.machine, strict=True))
        return {
            "machine": busy / every * (os.cpu_count() or 1),
            "workers": (len(self.workers), len(after)),
            "killed": len(self.workers - after),
            "rss": (self.rss, self.peak, resident_mb(list(after))),
            "server cpu": (cpu_seconds(process_tree(self.master)) - self.cpu)
            / (time.monotonic() - self.started),
        }


def phase(
    base: str,
    master: int,
    phones: list[str],
    keys: dict,
    attack: str | None,
    seconds: float,
    rate: float,
    clients: dict | None = None,
    pause: float = PAUSE,
):
    host, port = base.removeprefix("http://").split(":")
    watch = Watch(master)
    attacker, results = None, None
    if attack:
        context = multiprocessing.get_context("fork")
        results = context.Queue()
        attacker = context.Process(
            target=attack_process,
            args=(host, int(port), keys, seconds + 3, attack, clients[attack], rate, results),
        )
        attacker.start()
        time.sleep(3)  # the attack is under way before the phone starts
    played = tables(base, phones, seconds, pause)
    row = {"attack": attack or "quiet", "p95": p95(played["times"]), "errors": played["errors"]}
    row["requests"] = sum(len(spent) for spent in played["times"].values())
    if attacker is not None:
        got = results.get(timeout=120)
        attacker.join(30)
        row |= {"statuses": got["statuses"], "samples": got["samples"]}
        row["attacker cpu"] = got["cpu"] / (seconds + 3)
    row |= watch.stop()
    row["load"] = os.getloadavg()
    return row


def fuzz(base: str, master: int, keys: dict, count: int) -> dict:
    host, port = base.removeprefix("http://").split(":")
    watch = Watch(master)
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    started = time.monotonic()
    process = context.Process(
        target=attack_process, args=(host, int(port), keys, 0, "fuzz", count, 0, results)
    )
    process.start()
    got = results.get(timeout=900)
    process.join(30)
    seconds = time.monotonic() - started
    return {
        **watch.stop(),
        "statuses": got["statuses"],
        "samples": got["samples"],
        "seconds": seconds,
        "attacker cpu": got["cpu"] / seconds,
        "load": os.getloadavg(),
    }


def server_errors(statuses: dict) -> int:
    return sum(n for status, n in statuses.items() if status.startswith("5") and status != "503")


def judge(quiet: dict, row: dict) -> list[str]:
    """What is over budget in ``row``."""
    over = []
    ratio = row["p95"]["all"] / quiet["p95"]["all"]
    row["ratio"] = ratio
    if ratio > RATIO:
        over.append(f"p95 ×{ratio:.2f}")
    if row["errors"]:
        over.append(f"the phone got {dict(row['errors'])}")
    if server_errors(row.get("statuses", {})):
        over.append(f"{server_errors(row['statuses'])} × 5xx")
    if row["killed"]:
        over.append(f"{row['killed']} workers died")
    return over


def show(
    label: str, quiet: dict, rows: list[dict], fuzzed_row: dict, seconds: float, rate: float
) -> bool:
    print(f"\n{label}: the phone's p95 (ms) quiet and under each attack, {seconds:.0f} s each")
    if rate:
        print(f"  (each client of heads, amplify and export held to {rate:g} requests a second)")
    print(
        f"  {'attack':<10} {'quiet':>6} {'attack':>7} {'ratio':>6} {'5xx':>4} {'workers':>8}"
        f" {'workers MB before/peak/after':>29} {'server':>7} {'attacker':>9} {'machine':>8}"
        f" {'load':>5}"
        "  answers to the attacker"
    )
    print(
        f"  (CPU in % of one core, {os.cpu_count()} here; machine: every process, the server's,"
        " the attacker's, the phone's, the database's and any other)"
    )
    good = True
    for row in [quiet, *rows]:
        over = judge(quiet, row) if row is not quiet else []
        good &= not over
        before, peak, after = row["rss"]
        statuses = ", ".join(f"{s}×{n}" for s, n in sorted(row.get("statuses", {}).items()))
        attacker = f"{row['attacker cpu'] * 100:.0f} %" if "attacker cpu" in row else "-"
        print(
            f"  {row['attack']:<10} {quiet['p95']['all']:6.1f} {row['p95']['all']:7.1f}"
            f" {row.get('ratio', 1):6.2f} {server_errors(row.get('statuses', {})):>4}"
            f" {row['workers'][0]:>3} → {row['workers'][1]:<2}"
            f" {before:>9.0f} / {peak:>5.0f} / {after:>5.0f}"
            f" {row['server cpu'] * 100:>5.0f} % {attacker:>9} {row['machine'] * 100:>6.0f} %"
            f" {row['load'][0]:>5.2f}  {statuses}"
        )
        kinds = ", ".join(f"{k} {v:.1f}" for k, v in row["p95"].items() if k != "all")
        print(f"  {'':<10} by kind: {kinds} ({row['requests']} requests)")
        for line in over:
            print(f"  {'':<10} OVER: {line}")
        for sample in row.get("samples", []):
            print(f"  {'':<10} {sample}")
    errors = server_errors(fuzzed_row["statuses"])
    statuses = ", ".join(f"{s}×{n}" for s, n in sorted(fuzzed_row["statuses"].items()))
    print(
        f"  fuzz: {sum(fuzzed_row['statuses'].values())} requests in"
        f" {fuzzed_row['seconds']:.0f} s: {statuses}; 5xx (not 503): {errors};"
        f" workers {fuzzed_row['workers'][0]} → {fuzzed_row['workers'][1]},"
        f" {fuzzed_row['rss'][0]:.0f} / {fuzzed_row['rss'][1]:.0f} / {fuzzed_row['rss'][2]:.0f} MB;"
        f" load {fuzzed_row['load'][0]:.2f}"
    )
    for sample in fuzzed_row["samples"]:
        print(f"    {sample}")
    good &= not errors and not fuzzed_row["killed"]
    return good


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", help="a PostgreSQL URL: the run uses a fresh database")
    parser.add_argument("--seconds", type=float, default=15.0, help="each phase's length")
    parser.add_argument("--attacks", default=",".join(ATTACKS))
    parser.add_argument("--fuzz", type=int, default=3000, help="the fuzz's requests")
    parser.add_argument(
        "--tables", type=int, default=TABLES, help="the tables, each with a phone playing"
    )
    parser.add_argument(
        "--pause", type=float, default=PAUSE, help="each phone's pause after its round (s)"
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="hold each client of the looping attacks (heads, amplify, export) to this many"
        " requests a second, as a proxy limiting each address would (default: no limit)",
    )
    parser.add_argument(
        "--clients",
        type=int,
        default=0,
        help="the clients of each looping attack (heads, amplify, export); default: "
        + ", ".join(f"{attack} {CLIENTS[attack]}" for attack in ("heads", "amplify", "export")),
    )
    args = parser.parse_args()
    clients = CLIENTS | (
        {attack: args.clients for attack in ("heads", "amplify", "export")} if args.clients else {}
    )
    label = "PostgreSQL" if args.postgres else "SQLite"
    with (
        tempfile.TemporaryDirectory(prefix="tamalou-probe-") as work,
        fresh_database(Path(work), args.postgres) as database,
    ):
        env = server_env(database, Path(work))
        prepare(env)
        keys = make_games(env, args.tables)
        log = Path(work) / "server.log"
        with served(env, log) as (base, master):
            print(f"{label}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}", flush=True)
            phones = iter(keys["phones"])
            tables(base, keys["warm-up"], 5, args.pause)  # every worker's first requests
            quiet = phase(
                base, master, next(phones), keys, None, args.seconds, args.rate, clients, args.pause
            )
            rows = []
            for attack in args.attacks.split(","):
                rows.append(
                    phase(
                        base,
                        master,
                        next(phones),
                        keys,
                        attack,
                        args.seconds,
                        args.rate,
                        clients,
                        args.pause,
                    )
                )
                print(f"  {attack} done, load {os.getloadavg()[0]:.2f}", flush=True)
            fuzzed_row = fuzz(base, master, keys, args.fuzz)
        good = show(label, quiet, rows, fuzzed_row, args.seconds, args.rate)
        tracebacks = log.read_text(errors="replace").count("Traceback")
        print(f"  the server's error log: {tracebacks} tracebacks")
    print("within budget" if good else "OVER BUDGET")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
