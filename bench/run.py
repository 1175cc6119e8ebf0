"""`make bench`: what a table and an operator feel, against the budgets of issue #31.

The server is started as `make serve` starts it (its command line is read from the Makefile
with `make -n serve`: DEBUG=0, static files collected, gunicorn with uvicorn workers, its
WEB_CONCURRENCY), on a SQLite file of its own in a temporary folder, or on DATABASE_URL when
that is set. The load comes from this process, on loopback. Then the same again with the WSGI
application under gthread workers (same worker count, 4 threads each), for comparison.

1. An evening (bench/evening.py): ``--tables`` tables of 5 phones, each playing ``--rounds``
   rounds, one every ``--pace`` seconds. A round: one phone saves it with htmx (the answer
   is the sheet it returns to, redrawn in place); the four others, following the game's live
   push stream as the page does, fetch the live part with their ETag when the stream tells
   them of the new version (a 200; a phone without a stream polls). Figures: the server's CPU per
   round (user + system of gunicorn's master and workers over the rounds, from /proc,
   divided by the rounds played; budget 40 ms) and each kind of request's median and p95
   as the phone waits for it (budget: p95 100 ms).
2. Long games: a save (htmx) and the whole sheet fetched after it (as a phone without
   JavaScript does after its save, or one coming back to the game), at round 500 against 30
   (games of 8 players, cards entered, a caller each round), one request at a time: the
   phone's wait (median) and the server's CPU per request; budget: 500 rounds cost at most
   twice 30.
3. First load: the sheet's HTML, CSS, JS and icons, compressed, as a first visit fetches
   them (budget 40 KB).
4. A table's page (bench/tables.py): a table of 12 players with 200 games of 30 rounds, its
   page one request at a time (everything, this year, two players face to face); budget:
   p95 100 ms.

    .venv/bin/python bench/run.py                  # all of it, both servers
    .venv/bin/python bench/run.py --servers asgi   # make serve's server only
    .venv/bin/python bench/run.py --profile        # the evening under py-spy (ASGI): where
                                                   # the CPU goes, by function and module
    .venv/bin/python bench/run.py --only table     # one part: evening, long, first-load, table

It prints the figures with their budgets and exits 0: it is a measure, not a test.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.capacity import cpu_seconds, percentile, process_tree  # noqa: E402
from bench.load import server_env  # noqa: E402

WORK = Path(tempfile.mkdtemp(prefix="tamalou-bench-"))
ENV = server_env(
    os.environ.get("DATABASE_URL") or f"sqlite:///{WORK / 'bench.sqlite3'}",
    WORK,
)
os.environ.update(ENV)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tamalou_ref.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from bench import evening  # noqa: E402
from bench.fixtures import evening_game  # noqa: E402
from bench.servers import served  # noqa: E402
from bench.tables import BUDGET as TABLE_P95  # noqa: E402
from bench.tables import NAME as BIG_TABLE  # noqa: E402
from bench.tables import big_table, measure_table  # noqa: E402
from scoring.games.models import Game, Round, Table  # noqa: E402

CPU_PER_ROUND = 40  # ms, budget
P95 = 100  # ms, budget for every kind of request of the evening
LONG_RATIO = 2.0  # a long game's save and sheet against an evening's, at most
FIRST_LOAD = 40  # KB compressed


def server_cpu(master: int) -> float:
    """Seconds of CPU (user + system) used so far by gunicorn's master and its workers."""
    return cpu_seconds(process_tree(master))


def settle(master: int) -> None:
    """Wait until the server is idle: every worker has loaded the application."""
    deadline, before = time.monotonic() + 60, server_cpu(master)
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = server_cpu(master)
        if now - before < 0.02:
            return
        before = now


# --- 1. an evening ----------------------------------------------------------------------------


def measure_evening(
    base: str, master: int, tables: int, rounds: int, pace: float, also=lambda: None
) -> dict:
    """``also``: what to do as the rounds begin (a profiler to attach)."""
    keys = [
        Game.objects.create(variant="tamalou", players=evening.PLAYERS).edit_key
        for _ in range(tables)
    ]
    cpu_at_start = []
    played = evening.play_evening(
        base, keys, rounds, pace, on_start=lambda: (also(), cpu_at_start.append(server_cpu(master)))
    )
    cpu = server_cpu(master) - cpu_at_start[0]
    stored = Round.objects.filter(game__edit_key__in=keys, deleted_at=None).count()
    if stored != tables * rounds:
        played.errors.append(f"{stored} rounds stored, not {tables * rounds}")
    return {
        "rounds": played.rounds,
        "errors": played.errors,
        "cpu per round (ms)": cpu * 1000 / played.rounds,
        "times": {
            kind: (
                len(spent),
                statistics.median(spent) * 1000,
                percentile(spent, 0.95) * 1000,
            )
            for kind, spent in played.times.items()
            if spent
        },
    }


# --- 2. long games ----------------------------------------------------------------------------


def measure_long(base: str, master: int, samples: int = 8) -> dict:
    """A save and the sheet after it, at round 30 and at round 500 (a game of 29, of 499
    rounds each time), interleaved so that both see the same machine. Each from a phone of its
    own address: one phone asking back to back would wait for its share of the server's time
    (scoring/guards/shares.py), which a table playing a round a minute does not."""
    host, port = base.removeprefix("http://").split(":")
    waits = {(n, kind): [] for n in (30, 500) for kind in ("save", "sheet")}
    cpu = {key: 0.0 for key in waits}
    for sample in range(samples):
        for number in (30, 500):
            game = evening_game(number - 1, seed=1000 + sample)
            address = f"127.0.3.{1 + 2 * sample + (number == 500)}"
            phone = evening.Browser(host, int(port), game.edit_key, address)
            phone.open_sheet()
            totals = [str((sample + seat) % 30) for seat in range(len(game.players))]
            before = server_cpu(master)
            saved = phone.save(totals, game.players[sample % len(game.players)])
            between = server_cpu(master)
            sheet = phone.open_sheet()
            after = server_cpu(master)
            assert saved.status == 200 and "HX-Retarget" not in saved.headers, saved.status
            assert sheet.status == 200, sheet.status
            waits[number, "save"].append(saved.seconds * 1000)
            waits[number, "sheet"].append(sheet.seconds * 1000)
            cpu[number, "save"] += (between - before) * 1000 / samples
            cpu[number, "sheet"] += (after - between) * 1000 / samples
    return {key: (statistics.median(waits[key]), cpu[key]) for key in waits}


# --- 3. the first load ------------------------------------------------------------------------

# What a module imports at once (`import … from "./x.js";`, `import "./x.js";`): loaded with it.
# An `import("./x.js")` waits for the moment it is needed, so it is not part of the first load.
STATIC_IMPORT = re.compile(
    rb"""(?:^|[;\n])\s*(?:import|export)\b[^;("']*?['"](\.{1,2}/[^'"]+)['"]\s*;"""
)


def page_weight(base: str, sheet: str) -> dict:
    """A first visit: the HTML (compressed as a proxy would), every script and stylesheet
    it links and every module those scripts import, as whitenoise serves them to a browser that
    accepts gzip. KB (1000 bytes) by kind, and the total."""
    import urllib.request
    from urllib.parse import urljoin

    def fetch(url: str) -> tuple[bytes, dict]:
        request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.read(), response.headers  # names in any case

    html, headers = fetch(sheet)
    sizes = {"HTML": len(html)}
    if headers.get("Content-Encoding") == "gzip":
        html = gzip.decompress(html)
    else:
        sizes["HTML"] = len(gzip.compress(html))
    paths = [path.decode() for path in re.findall(rb'(?:src|href)="(/static/[^"]+)"', html)]
    seen = set()
    while paths:
        path = paths.pop(0)
        if path in seen:
            continue
        seen.add(path)
        body, headers = fetch(base + path)
        compressed = headers.get("Content-Encoding") == "gzip"
        name = {".js": "JS", ".css": "CSS"}.get(path[path.rfind(".") :], "icons")
        sizes[name] = sizes.get(name, 0) + len(body if compressed else gzip.compress(body))
        if name == "JS":
            text = gzip.decompress(body) if compressed else body
            paths += [urljoin(path, found.decode()) for found in STATIC_IMPORT.findall(text)]
    return {**{k: v / 1000 for k, v in sizes.items()}, "total": sum(sizes.values()) / 1000}


# --- the whole run ----------------------------------------------------------------------------


def measure(wsgi: bool, args) -> dict:
    parts = set(args.only.split(",")) if args.only else {"evening", "long", "first-load", "table"}
    with served(ENV, WORK / "server.log", wsgi=wsgi) as (base, master):
        settle(master)
        results = {"workers": len(process_tree(master)) - 1}
        if "evening" in parts:
            results["evening"] = measure_evening(base, master, args.tables, args.rounds, args.pace)
        if "long" in parts:
            results["long"] = measure_long(base, master)
        if "first-load" in parts:
            game = evening_game(30, seed=11)
            results["first load"] = page_weight(base, f"{base}/g/{game.edit_key}/")
        if "table" in parts:
            # Made once for both servers.
            table = Table.objects.filter(name=BIG_TABLE).first() or big_table()
            results["table"] = measure_table(base, master, table.edit_key)
    return results


def verdict(ok: bool) -> str:
    return "ok" if ok else "OVER BUDGET"


def show(name: str, results: dict, args) -> None:
    database = "PostgreSQL" if ENV["DATABASE_URL"].startswith("postgres") else "SQLite"
    print(f"\n{name}, {results['workers']} workers, {database}")
    if "evening" in results:
        show_evening(results["evening"], args)
    if "long" in results:
        show_long(results["long"])
    if "first load" in results:
        show_first_load(results["first load"])
    if "table" in results:
        page = results["table"]
        print(
            f"  A table's page (12 players, 200 games of 30 rounds), one request at a time:"
            f" {page['requests']} requests"
        )
        for kind, (median, p95) in page["kinds"].items():
            print(f"    {kind:<12} median {median:6.1f} ms  p95 {p95:6.1f} ms")
        print(
            f"    all          median {page['median']:6.1f} ms  p95 {page['p95']:6.1f} ms"
            f"    budget p95 ≤ {TABLE_P95} ms  {verdict(page['p95'] <= TABLE_P95)}"
        )
        print(f"    server CPU per request {page['cpu']:5.1f} ms")


def show_evening(played: dict, args) -> None:
    print(
        f"  Evening: {args.tables} tables of 5 phones, {args.rounds} rounds each, a round every"
        f" {args.pace:g} s a table: {played['rounds']} rounds, {len(played['errors'])} errors"
    )
    for error, times in Counter(played["errors"]).most_common(5):
        print(f"    error ×{times}: {error}")
    cpu = played["cpu per round (ms)"]
    print(
        f"    server CPU per round  {cpu:6.1f} ms    budget ≤ {CPU_PER_ROUND} ms"
        f"  {verdict(cpu <= CPU_PER_ROUND)}"
    )
    for kind, (count, median, p95) in played["times"].items():
        print(
            f"    {kind:<9} median {median:6.1f} ms  p95 {p95:6.1f} ms    budget p95 ≤ {P95} ms"
            f"  {verdict(p95 <= P95)}  ({count} requests)"
        )


def show_long(long: dict) -> None:
    print("  Long games (8 players), one request at a time: wait median / server CPU")
    for kind in ("save", "sheet"):
        (wait30, cpu30), (wait500, cpu500) = long[30, kind], long[500, kind]
        ratio = max(wait500 / wait30, cpu500 / cpu30) if cpu30 else wait500 / wait30
        print(
            f"    {kind:<5} at 30 rounds {wait30:6.1f} / {cpu30:5.1f} ms, at 500 {wait500:6.1f} /"
            f" {cpu500:5.1f} ms: ×{wait500 / wait30:.2f} wait,"
            f" ×{cpu500 / cpu30 if cpu30 else 0:.2f} CPU    budget ≤ ×{LONG_RATIO:g}"
            f"  {verdict(ratio <= LONG_RATIO)}"
        )


def show_first_load(weight: dict) -> None:
    parts = ", ".join(f"{k} {v:.1f}" for k, v in weight.items() if k != "total")
    print(
        f"  First load of a sheet: {weight['total']:.1f} KB gz ({parts})"
        f"    budget ≤ {FIRST_LOAD} KB  {verdict(weight['total'] <= FIRST_LOAD)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between two rounds")
    parser.add_argument("--servers", default="asgi,wsgi")
    parser.add_argument("--profile", action="store_true", help="the ASGI evening under py-spy")
    parser.add_argument(
        "--only", default="", help="some parts: evening, long, first-load, table (commas)"
    )
    args = parser.parse_args()
    call_command("migrate", verbosity=0)  # as `make serve`'s `install`, then collectstatic
    call_command("collectstatic", interactive=False, verbosity=0)
    print(f"Tamalou Ref benchmark: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    try:
        if args.profile:
            profile(args)
            return
        names = {
            "asgi": "ASGI, as make serve (uvicorn workers)",
            "wsgi": "WSGI (gthread workers, 4 threads)",
        }
        for server in args.servers.split(","):
            show(names[server], measure(server == "wsgi", args), args)
    finally:
        shutil.rmtree(WORK, ignore_errors=True)


# --- where the CPU goes -----------------------------------------------------------------------


def profile(args) -> None:
    """The evening against make serve's server, its rounds sampled by py-spy (attached to
    gunicorn's master and its workers once every phone has opened its sheet, 100 samples a
    second of the thread holding each process's GIL, so that a thread waiting, for the CPU
    or a lock, is not counted as running): the share of the samples by function (its own time), by
    module (own time), and by function including what it calls."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    folded = WORK / "profile.txt"
    spying = []

    def attach(master: int) -> None:
        command = [spy, "record", "--pid", str(master), "--subprocesses", "--rate", "100", "--gil"]
        command += ["--format", "raw", "-o", str(folded)]
        spying.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))
        time.sleep(1)  # attached to every process

    with served(ENV, WORK / "server.log") as (base, master):
        settle(master)
        played = measure_evening(
            base, master, args.tables, args.rounds, args.pace, also=lambda: attach(master)
        )
        spying[0].send_signal(signal.SIGINT)  # stops sampling, writes the samples
        spying[0].wait(60)
    print(f"  evening under py-spy: {played['rounds']} rounds, {len(played['errors'])} errors")
    stacks = Counter()
    for line in folded.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        stacks[stack] += int(count)
    summarize(stacks)
    keep = os.environ.get("BENCH_PROFILE_OUT")
    if keep:
        shutil.copy(folded, keep)


def frame_parts(frame: str) -> tuple[str, str]:
    """(function, module) of a py-spy frame, ``function (path/to/module.py:line)``."""
    found = re.match(r"(.*) \((.*?)(?::\d+)?\)$", frame)
    if not found:
        return frame, frame
    function, path = found.groups()
    path = re.sub(r".*/(site-packages|python3\.\d+)/", "", path)
    path = path.removeprefix(str(ROOT) + "/")
    return function, path


def summarize(stacks: Counter, top: int = 25) -> None:
    total = sum(stacks.values())
    own_function, own_module, inclusive = Counter(), Counter(), Counter()
    for stack, count in stacks.items():
        frames = [frame_parts(f) for f in stack.split(";") if f and not f.startswith("process ")]
        frames = [f for f in frames if not f[0].startswith("thread ")]
        if not frames:
            continue
        function, module = frames[-1]
        own_function[f"{function} ({module})"] += count
        own_module[module] += count
        for seen in {f"{f} ({m})" for f, m in frames}:
            inclusive[seen] += count

    def table(title: str, counts: Counter, where=lambda name: True) -> None:
        print(f"  {title}:")
        for name, count in [(n, c) for n, c in counts.most_common() if where(n)][:top]:
            print(f"    {100 * count / total:5.1f} %  {name}")

    print(f"  {total} samples")
    table("own time, by function", own_function)
    table("own time, by module", own_module)
    packages = Counter()
    for module, count in own_module.items():
        parts = module.split("/")
        packages[
            "/".join(parts[:2])
            if parts[0] in ("django", "scoring") and len(parts) > 2
            else parts[0]
        ] += count
    table("own time, by package", packages)
    table(
        "including what they call, the app's functions",
        inclusive,
        lambda n: "(scoring/" in n or "(tamalou_ref/" in n,
    )
    table("including what they call, everything", inclusive)


if __name__ == "__main__":
    main()
