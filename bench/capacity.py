"""`make capacity`: how many tables one server follows live, pushing and polling.

    .venv/bin/python bench/capacity.py --postgres URL      # PostgreSQL (production)
    .venv/bin/python bench/capacity.py                      # SQLite

``make serve``'s server (gunicorn, uvicorn workers, DEBUG off) on loopback, with tables of
5 phones: one saves a round every 20 s (a phone without JavaScript: its answer is a 302),
the five follow the sheet by its share link as static/js/stream.js does, holding the stream
(``/s/KEY/stream/``) and fetching the live part with their ETag at each event. The tables
rise step by step until the delay's p95 passes 0.5 s (or a round never shows); each step
holds its tables for ``--seconds``. Then the same with the 3-second polling the phones
fell back to before (the live part fetched with its ETag, a 304 while nothing changed),
until its p95 passes 3.5 s (its own 3 s, and the same 0.5 s); a step where more than 1% of
the views never came ends a ramp too.

For each step: the delay from a save's answer to the moment a viewer has the live part that
shows it (p50, p95, over every viewer of every save; clocks: CLOCK_MONOTONIC, one for every
process of the machine), rounds never seen, the server's CPU (cores busy, from /proc) and
its memory (resident, all processes) with the phones connected, and the memory per viewer
(over the same server before the step's phones came).

The load comes from ``--generators`` processes of asyncio sockets, each from a loopback
address of its own (127.0.0.2, …), so that neither a process's open files nor an address's
ports run out. They share the server's 2 cores: the figures are a floor.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import re
import statistics
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PHONES = 5  # viewers per table
SAVE_EVERY = 20.0  # seconds between two saves of a table
POLL_EVERY = 3.0  # the phones' polling, before the push
PLAYERS = ["Léa", "Marc", "Nina", "Omar", "Paul"]
ROUND = re.compile(rb"(?:Manche|Round) (\d+)</h3>")
# The delay a step may not pass at p95 (ms): pushed, 0.5 s; polled, the polling's own 3 s
# (a change waits for the next poll) and the same 0.5 s.
LIMIT = {"push": 500, "poll": POLL_EVERY * 1000 + 500}
STEPS = (100, 250, 500, 750, 1000, 1500, 2000, 3000, 5000)


# --- a minimal HTTP/1.1 client on asyncio streams --------------------------------------------


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    return status, headers


async def read_chunk(reader: asyncio.StreamReader) -> bytes:
    size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
    data = await reader.readexactly(size + 2)
    return data[:-2]


async def read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    if headers.get("transfer-encoding") == "chunked":
        body = b""
        while chunk := await read_chunk(reader):
            body += chunk
        return body
    return await reader.read()


async def fetch(where, method: str, path: str, headers: str = "", body: bytes = b""):
    """One request on a connection of its own: (status, headers, body)."""
    host, port, source = where
    reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
    try:
        extra = f"Content-Length: {len(body)}\r\n" if body else ""
        writer.write(
            f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{headers}{extra}"
            "\r\n".encode()
            + body
        )
        status, answer = await read_head(reader)
        return status, answer, await read_body(reader, answer)
    finally:
        writer.close()


# --- the phones of one generator process ------------------------------------------------------


class Generator:
    def __init__(self, where, tables: list[tuple[str, str]], mode: str, seconds: float) -> None:
        self.where, self.tables, self.mode, self.seconds = where, tables, mode, seconds
        self.saves: list[tuple[int, int, float]] = []  # (table, round, answered at)
        self.seen: list[tuple[int, int, float]] = []  # (table, round, shown at), per viewer
        self.failures = 0
        self.fetches: list[float] = []  # how long each fetch of the live part took (ms)
        self.connected = 0
        self.measuring = False  # the saves have begun
        self.saving = True
        self.running = True

    async def csrf(self) -> tuple[str, str]:
        status, headers, page = await fetch(self.where, "GET", "/new/tamalou/")
        assert status == 200, status
        cookie = headers["set-cookie"].split(";")[0]
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        return cookie, token.decode()

    async def live(self, share: str, shown: str, table: int, newest: int) -> tuple[str, int]:
        """Fetch the live part with the ETag shown; note the rounds it shows first."""
        started = time.monotonic()
        status, headers, body = await fetch(
            self.where, "GET", f"/s/{share}/live/", f"If-None-Match: {shown}\r\n"
        )
        now = time.monotonic()
        if self.measuring:
            self.fetches.append((now - started) * 1000)
        if status == 304:
            return shown, newest
        if status != 200:
            self.failures += 1
            return shown, newest
        numbers = [int(n) for n in ROUND.findall(body)]
        top = max(numbers, default=0)
        for number in range(newest + 1, top + 1):
            self.seen.append((table, number, now))
        return headers.get("etag", shown), max(top, newest)

    async def stream_viewer(self, table: int, share: str, opened: asyncio.Event) -> None:
        host, port, source = self.where
        reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
        writer.write(
            f"GET /s/{share}/stream/ HTTP/1.1\r\nHost: {host}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        status, _headers = await read_head(reader)
        if status != 200:
            self.failures += 1
            writer.close()
            return
        shown, newest, pending, following = "", 0, b"", False
        try:
            while self.running:
                chunk = await read_chunk(reader)
                if not chunk:
                    break
                pending += chunk
                while b"\n\n" in pending:
                    event, pending = pending.split(b"\n\n", 1)
                    for line in event.split(b"\n"):
                        if line.startswith(b"data: ") and line[6:].decode() != shown:
                            shown, newest = await self.live(share, shown, table, newest)
                            if not following:  # the phone shows the sheet: it follows now
                                following = True
                                self.connected += 1
                                if self.connected == len(self.tables) * PHONES:
                                    opened.set()
        finally:
            writer.close()

    async def polling_viewer(self, table: int, share: str, opened: asyncio.Event) -> None:
        self.connected += 1
        if self.connected == len(self.tables) * PHONES:
            opened.set()
        await asyncio.sleep(random.uniform(0, POLL_EVERY))
        shown, newest = "", 0
        while self.running:
            started = time.monotonic()
            shown, newest = await self.live(share, shown, table, newest)
            await asyncio.sleep(max(0.0, POLL_EVERY - (time.monotonic() - started)))

    async def saver(self, table: int, edit: str, first: int, cookie: str, token: str) -> None:
        await asyncio.sleep(random.uniform(0, SAVE_EVERY))
        number = first
        form = {f"total_{seat}": str(seat + 2) for seat in range(len(PLAYERS))}
        form["nobody_called"] = "1"  # the form would ask first: the table's answer, with the round
        while self.saving:
            started = time.monotonic()
            body = urllib.parse.urlencode(
                {**form, "number": number, "save": "1", "csrfmiddlewaretoken": token}
            ).encode()
            headers = f"Cookie: {cookie}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            try:
                status, _, _ = await fetch(self.where, "POST", f"/g/{edit}/", headers, body)
            except OSError:
                status = 0
            if status == 302:
                self.saves.append((table, number, time.monotonic()))
                number += 1
            else:
                self.failures += 1
            await asyncio.sleep(max(0.0, SAVE_EVERY - (time.monotonic() - started)))

    async def run(self, ready, go, first_rounds: dict[int, int]) -> None:
        cookie, token = await self.csrf()
        opened = asyncio.Event()
        viewer = self.stream_viewer if self.mode == "push" else self.polling_viewer
        tasks = []
        for index, (table, share, _) in enumerate(self.tables):
            for _ in range(PHONES):
                tasks.append(asyncio.create_task(viewer(table, share, opened)))
            if index % 50 == 49:
                await asyncio.sleep(0.05)  # a steady ramp, not a SYN flood
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(opened.wait(), 300)
        ready.set()  # the orchestrator reads the server's memory now
        while not go.is_set():
            await asyncio.sleep(0.05)
        self.measuring = True
        for table, _, edit in self.tables:
            tasks.append(
                asyncio.create_task(
                    self.saver(table, edit, first_rounds.get(table, 1), cookie, token)
                )
            )
        await asyncio.sleep(self.seconds)
        self.saving = False
        await asyncio.sleep(POLL_EVERY + 3)  # the last saves reach the phones
        self.running = False
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def generate(where, tables, mode, seconds, first_rounds, ready, go, results) -> None:
    generator = Generator(where, tables, mode, seconds)
    asyncio.run(generator.run(ready, go, first_rounds))
    results.put(
        {
            "saves": generator.saves,
            "seen": generator.seen,
            "failures": generator.failures,
            "fetches": generator.fetches,
            "connected": generator.connected,
        }
    )


# --- the server and the orchestrator ----------------------------------------------------------


def process_tree(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def resident_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def make_tables(env: dict, count: int) -> list[tuple[int, str, str]]:
    """(id, share key, edit key) of ``count`` new games of 5 players, made in the database."""
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tamalou_ref.settings")
    import django

    django.setup()
    from scoring.games.models import Game

    games = Game.objects.bulk_create(Game(variant="tamalou", players=PLAYERS) for _ in range(count))
    return [(g.pk, g.share_key, g.edit_key) for g in games]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(len(ordered) * share) - 1)]


def step(
    master: int, port: int, tables, mode: str, seconds: float, generators: int, rounds: dict
) -> dict:
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    go = context.Event()
    slices = [tables[i::generators] for i in range(generators)]
    readies, processes = [], []
    before = resident_mb(process_tree(master))
    for index, part in enumerate(slices):
        ready = context.Event()
        where = ("127.0.0.1", port, f"127.0.0.{2 + index}")
        part = [(pk, share, edit) for pk, share, edit in part]
        process = context.Process(
            target=generate, args=(where, part, mode, seconds, rounds, ready, go, results)
        )
        process.start()
        readies.append(ready)
        processes.append(process)
    for ready in readies:
        ready.wait(400)
    connected = resident_mb(process_tree(master))
    cpu_before, started = cpu_seconds(process_tree(master)), time.monotonic()
    go.set()
    gathered = [results.get(timeout=seconds + 120) for _ in processes]
    cpu = (cpu_seconds(process_tree(master)) - cpu_before) / (time.monotonic() - started)
    for process in processes:
        process.join(30)
    saves = [s for g in gathered for s in g["saves"]]
    seen: dict[tuple[int, int], list[float]] = {}
    for table, number, at in (s for g in gathered for s in g["seen"]):
        seen.setdefault((table, number), []).append(at)
    delays, missed = [], 0
    for table, number, answered in saves:
        shown = seen.get((table, number), [])
        delays += [(at - answered) * 1000 for at in shown]
        missed += PHONES - len(shown)
        rounds[table] = max(rounds.get(table, 1), number + 1)
    viewers = len(tables) * PHONES
    fetches = [f for g in gathered for f in g["fetches"]]
    return {
        "fetch p50": statistics.median(fetches) if fetches else float("nan"),
        "fetch p95": percentile(fetches, 0.95) if fetches else float("nan"),
        "p99": percentile(delays, 0.99) if delays else float("nan"),
        "mode": mode,
        "tables": len(tables),
        "viewers": viewers,
        "connected": sum(g["connected"] for g in gathered),
        "saves": len(saves),
        "p50": statistics.median(delays) if delays else float("nan"),
        "p95": percentile(delays, 0.95) if delays else float("nan"),
        "missed": missed,
        "failures": sum(g["failures"] for g in gathered),
        "cpu": cpu,
        "rss": connected,
        "kb_per_viewer": (connected - before) * 1024 / viewers,
    }


def show(row: dict) -> None:
    print(
        f"  {row['mode']:<5} {row['tables']:>5} tables {row['viewers']:>6} viewers"
        f" ({row['connected']} connected): {row['saves']} saves, delay p50 {row['p50']:.0f} ms"
        f" p95 {row['p95']:.0f} ms (p99 {row['p99']:.0f}; a fetch of the live part: p50"
        f" {row['fetch p50']:.0f} p95 {row['fetch p95']:.0f} ms), {row['missed']} views missed,"
        f" {row['failures']} failures;"
        f" server {row['cpu']:.2f} cores, {row['rss']:.0f} MB,"
        f" {row['kb_per_viewer']:.1f} KB per viewer",
        flush=True,
    )


def main() -> int:
    from bench.load import fresh_database, prepare, server_env
    from bench.servers import gunicorn_master

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", help="a PostgreSQL server's URL (else SQLite)")
    parser.add_argument("--seconds", type=float, default=40.0, help="each step's length")
    parser.add_argument("--workers", type=int, default=2, help="the server's workers")
    parser.add_argument("--generators", type=int, default=4)
    parser.add_argument("--steps", default=",".join(map(str, STEPS)))
    parser.add_argument("--modes", default="push,poll")
    args = parser.parse_args()
    steps = [int(n) for n in args.steps.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        with fresh_database(work, args.postgres) as database:
            env = {
                **server_env(database, work),
                "LIVE_STREAMS_PER_CLIENT": "100000",  # the phones come from a few addresses
                "CLIENT_SHARE": "0",  # each address here is hundreds of tables, not one client
            }
            prepare(env)
            tables = make_tables(env, max(steps))
            print(
                f"Capacity ({os.cpu_count()} cores, {args.workers} workers,"
                f" {'PostgreSQL' if args.postgres else 'SQLite'}, {PHONES} phones a table,"
                f" a save every {SAVE_EVERY:.0f} s a table, {args.seconds:.0f} s a step):",
                flush=True,
            )
            rounds: dict[int, int] = {}
            for mode in args.modes.split(","):
                with gunicorn_master(env, workers=args.workers, asgi=True) as (url, server):
                    port = int(url.rsplit(":", 1)[1])
                    for count in steps:
                        row = step(
                            server.pid,
                            port,
                            tables[:count],
                            mode,
                            args.seconds,
                            args.generators,
                            rounds,
                        )
                        show(row)
                        if row["p95"] > LIMIT[mode] or row["missed"] > row["saves"] * PHONES / 100:
                            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
