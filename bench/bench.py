"""`make bench`, `make probe` (--probe): docs/performance.md's budgets against deploy/stack.sh (a
SQLite file, or --postgres URL: a database made and dropped), each with PASS or FAIL (the probe
exits 1 on a FAIL). A phone: a requests session (Locust's user) from an address of its own."""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import random
import re
import socket
import subprocess
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urljoin

import gevent
import locust  # before requests: it patches the standard library for gevent
import psutil
import psycopg
import requests

NAMES = ["Léa", "Marc", "Nina", "Omar", "Paul", "Zoé", "Inès", "Hugo", "Jade", "Karl", "Lou", "Max"]
DATABASE, GAMES, PHONES, FAILED = f"tamalou_bench_{os.getpid()}", [], iter(range(9999)), []
NGINX = re.compile(r'^nginx \S+ "(\w+) (/[gs]/[^/ ]+/(?:live/)?) [^"]*" (\d+) \d+ ([\d.]+)s', re.M)


def phone(address: str, session: requests.Session | None = None) -> requests.Session:
    adapter, session = requests.adapters.HTTPAdapter(), session or requests.Session()
    adapter.init_poolmanager(10, 10, source_address=(address, 0))  # each phone its address
    return session.mount("http://", adapter) or session


def field(name: str, page: str) -> str:
    return re.search(rf'name="{name}"(?: value="([^"]*)")?', page)[1] or ""


def imported(base: str, address: str, data: dict) -> str:  # its edit key, or its table's
    at, files = phone(address), {"file": ("f.json", json.dumps(data))}
    form = {"csrfmiddlewaretoken": field("csrfmiddlewaretoken", at.get(f"{base}/import/").text)}
    answer = at.post(f"{base}/import/", form, files=files, allow_redirects=False)
    assert answer.status_code == 302, answer.text[-3000:]
    return answer.headers["Location"].split("/")[-2]


def game(players: list[str], rounds: int, seed: int | None = None) -> dict:
    """A game file: ``rounds`` rounds of 4 cards a hand, or (``seed``) typed totals, 30 rounds."""
    rng, deck = random.Random(seed), [r + s for r in [*"A23456789JQK", "10"] for s in "SHDC"]
    dealt = [rng.sample(deck, 4 * len(players)) for _ in range(rounds)]
    hands = [{p: cards[4 * i : 4 * i + 4] if seed is None else rng.randint(0, 30)
              for i, p in enumerate(players)} for cards in dealt]  # fmt: skip
    played = [{"hands": hand, "caller": players[n % 5]} for n, hand in enumerate(hands)]
    return {"format": "tamalou-ref.game/1", "variant": "tamalou", "players": players,
            "rounds": played} | ({} if seed is None else {"settings": {"rounds": 30}})  # fmt: skip


def table(games: int) -> dict:
    """A table file: 12 players, ``games`` games of 30 rounds (5 to 8 players each) over a year."""
    rng, now = random.Random(3), datetime.now(UTC)
    players = [rng.sample(NAMES, rng.randint(5, 8)) for _ in range(games)]
    started = [now - timedelta(days=365 * (games - n) / games) for n in range(games)]
    return {"format": "tamalou-ref.table/1", "name": "Banc", "players": NAMES, "rules": None,
            "games": [game(p, 30, n) for n, p in enumerate(players)],
            "started": [when.isoformat() for when in started]}  # fmt: skip


def budget(label: str, figure: float, limit: float, more: str = "", unit: str = "ms") -> None:
    FAILED.extend([label] if figure > limit else [])
    verdict = "PASS" if figure <= limit else "FAIL"
    print(f"  {label:<38} {figure:6.1f} {unit} ≤ {limit:g} {unit}  {verdict}  {more}")


def p95(times: list[float]) -> float:
    return sorted(times)[int(0.95 * (len(times) - 1))] if times else 0


class Phone(locust.HttpUser):
    """A phone at a table (every fifth its scorer), its sheet polling its live part every 2 s."""

    def wait_time(self) -> float:  # every 2 s on the phone's own schedule: a real phone's
        self.next = max(self.next + 2, time.monotonic())  # lateness is its own, but here a poll
        return self.next - time.monotonic()  # the busy tool starts late must not delay the next

    def on_start(self) -> None:
        n = next(PHONES)
        phone(f"127.1.{n // 250}.{1 + n % 250}", self.client)
        self.scorer, self.link = n % 5 == 0, f"/g/{GAMES[n // 5 % len(GAMES)]}/"
        if n % 5 > 2:  # two viewers by the share link, which the sheet shows
            self.link = re.search(r"/s/[\w-]+/", self.client.get(self.link, name="sheet").text)[0]
        self.etag = etag(page := self.client.get(self.link, name="sheet").text)
        self.number, self.token = 1, field("csrfmiddlewaretoken", page)
        self.due, self.next = (time.monotonic() + random.uniform(0, s) for s in (30, 2))

    @locust.task
    def poll(self) -> None:
        htmx = {"HX-Request": "true"}
        if self.scorer and time.monotonic() > self.due:  # a round every 30 s, as htmx posts it
            self.due += 30
            form = {"csrfmiddlewaretoken": self.token, "number": self.number, "save": 1}
            form |= {f"total_{seat}": random.randint(0, 40) for seat in range(5)}
            with self.client.post(self.link, form | {"caller": "Léa"}, headers=htmx, name="save",
                                  catch_response=True) as saved:  # fmt: skip
                if "HX-Reswap" in saved.headers:  # saved: the sheet's parts for the next round
                    self.etag, self.number = etag(saved.text), self.number + 1
                else:
                    saved.failure("not saved")
        headers = htmx | {"If-None-Match": self.etag}
        with self.client.get(f"{self.link}live/", headers=headers, catch_response=True) as live:
            live.request_meta["name"] = {200: "live part", 304: "poll"}.get(live.status_code, "?")
            self.etag = etag(live.text) if live.status_code == 200 else self.etag


def etag(page: str) -> str:
    return re.search(r'id="live-top"[^>]*data-etag="([^"]*)"', page)[1].replace("&quot;", '"')


def many_tables(base: str, work: str, tables: int, seconds: float) -> None:
    def cpu(seen: dict) -> dict:  # CPU seconds by (kind, pid): an ended process keeps its last
        found = [("database", p) for p in psutil.process_iter(["cmdline"])
                 if f" {DATABASE} " in " ".join(p.info["cmdline"] or [])]  # fmt: skip
        found.append(("load tool", psutil.Process()))  # Locust, on the same cores
        for kind in ("gunicorn", "nginx"):
            master = psutil.Process(int(Path(f"{work}/s/{kind}.pid").read_text()))
            found += [(kind, p) for p in [master, *master.children(recursive=True)]]
        for kind, process in found:
            with contextlib.suppress(psutil.Error):
                seen[kind, process.pid] = sum(process.cpu_times()[:2])
        return seen

    GAMES.extend(imported(base, f"127.1.{n // 50}.{5 * n % 250 + 1}", game(NAMES[:5], 0))
                 for n in range(tables))  # each game imported by its scorer  # fmt: skip
    runner = locust.env.Environment(user_classes=[Phone], host=base).create_local_runner()
    runner.start(5 * tables, spawn_rate=15 * tables / seconds)  # in the first third of the warm-up
    gevent.sleep(seconds / 3)
    runner.stats.reset_all()
    seen, logged = dict(first := cpu({})), len((log := Path(f"{work}/log")).read_bytes())
    for _ in range(int(seconds)):
        gevent.sleep(1)
        cpu(seen)
    runner.quit()
    rounds = (save := runner.stats.get("save", "POST")).num_requests - save.num_failures
    print(f"{tables} tables of 5 phones, {seconds:g} s after {seconds / 3:g} s of warm-up: "
          f"{rounds} rounds, {runner.stats.total.num_failures} failures")  # fmt: skip
    took: dict = {"save": [], "live part": [], "poll": []}  # nginx's request_time, in ms
    for method, path, code, s in NGINX.findall(log.read_bytes()[logged:].decode(errors="replace")):
        live = {"200": "live part", "304": "poll"}.get(code) if path.endswith("live/") else None
        took.setdefault("save" if method == "POST" else live, []).append(float(s) * 1000)
    for kind, method in (("save", "POST"), ("live part", "GET"), ("poll", "GET")):
        entry = runner.stats.get(kind, method)
        more = f"({entry.num_requests}; as nginx timed them: {p95(took[kind]):.0f} ms)"
        budget(kind, entry.get_response_time_percentile(0.95), 150, more)
    spent = dict.fromkeys(("gunicorn", "nginx", "database", "load tool"), 0.0)
    for (kind, pid), seconds in seen.items():
        spent[kind] += (seconds - first.get((kind, pid), 0)) * 1000 / max(rounds, 1)
    tool, each = spent.pop("load tool"), ", ".join(f"{k} {ms:.0f}" for k, ms in spent.items())
    print(f"  server CPU per round, polls included: {sum(spent.values()):.0f} ms ({each}); "
          f"the load tool's: {tool:.0f} ms")  # fmt: skip


def play(base: str, key: str, address: str, n: int = 0) -> list[float]:
    """A phone without JavaScript: the sheet, a save (a new round, or for an odd ``n`` a fix)."""
    page = (at := phone(address)).get(sheet := f"{base}/g/{key}/")
    path = sheet + re.findall(r"rounds/\d+/edit/", page.text)[n % 5] if n % 2 else sheet
    form = at.get(path).text if n % 2 else page.text
    typed = {f"total_{seat}": seat + n for seat in range(8)} | {"save": 1, "caller": "Léa"}
    typed |= {name: field(name, form) for name in ("csrfmiddlewaretoken", "number", "edits")}
    saved = at.post(path, typed, allow_redirects=False)
    assert page.status_code == 200 and saved.status_code == 302, saved.text[-2000:]
    return [page.elapsed.total_seconds() * 1000, saved.elapsed.total_seconds() * 1000]


def one_at_a_time(base: str, long: str, kept: str) -> None:
    played = [play(base, long, f"127.2.0.{n + 1}", n) for n in range(30)]
    budget("150 rounds of 8: sheet p95", p95([sheet for sheet, _ in played]), 200, "(30)")
    budget("150 rounds of 8: new round or fix, p95", p95([save for _, save in played]), 200)
    views = ["", "?period=year", "?period=all&a=L%C3%A9a&b=Marc"] * 60  # each of 60 players
    seen = [phone(f"127.3.{n}.1").get(f"{base}/t/{kept}/{v}") for n, v in enumerate(views)]
    times = [answer.elapsed.total_seconds() * 1000 if answer.ok else 1e9 for answer in seen]
    budget("a table's page, 200 games, p95", p95(times), 150, "(all, this year, face to face)")


def first_load(base: str, key: str) -> None:  # the sheet and what it loads at once, as sent
    sizes, queue = {}, [f"/g/{key}/"]
    for path in queue:  # as it grows
        answer = requests.get(base + path, headers={"Accept-Encoding": "gzip"}, stream=True)
        body = answer.raw.read()  # as sent
        kind = path.rsplit(".", 1)[-1] if path.startswith("/static/") else "html"
        sizes[kind] = sizes.get(kind, 0) + len(body) / 1000
        text = (gzip.decompress(body) if answer.headers.get("Content-Encoding") else body).decode()
        found = re.findall(r'(?:src|href)="(/static/[^"]+\.(?:js|css|svg))"', text)  # not iOS's png
        found += re.findall(r"""(?:from|import)\s*["'](\.\.?/[^"']+)["']""", text)
        queue += [url for url in (urljoin(path, linked) for linked in found) if url not in queue]
    each = ", ".join(f"{kind} {size:.1f}" for kind, size in sizes.items())
    budget("first load of a sheet, gzip", sum(sizes.values()), 45, f"({each})", "KB")


def probe(base: str, seconds: float) -> None:
    def held(address: str, data: bytes) -> tuple[float, bytes]:  # until the proxy closes it
        started, answer = time.monotonic(), b""
        connection = socket.create_connection(("127.0.0.1", port), 30, (address, 0))
        with connection, contextlib.suppress(OSError):
            connection.sendall(data)
            while chunk := connection.recv(65536):
                answer += chunk
        return time.monotonic() - started, answer

    port, (played, also, heavy) = int(base.rsplit(":", 1)[1]), (
        imported(base, "127.0.0.3", game(NAMES[:8], n)) for n in (10, 10, 150))  # fmt: skip
    post = f"POST /g/{played}/ HTTP/1.1\r\nHost: a\r\nContent-Length: 2000000\r\n\r\nx".encode()
    heads = [gevent.spawn(held, f"127.5.{n}.1", b"GET / HTTP/1.1\r\nHost: a") for n in range(200)]
    bodies = [gevent.spawn(held, f"127.6.{n}.1", post) for n in range(30)]
    gevent.joinall(heads + bodies)
    budget("200 half-sent heads, closed within", max(g.value[0] for g in heads), 25, "", "s")
    budget("30 stalled bodies, closed within", max(g.value[0] for g in bodies), 25, "", "s")
    big = b"POST /import/ HTTP/1.1\r\nHost: a\r\nContent-Length: 3000000\r\n\r\n" + b"x" * 3000000
    answer = held("127.0.0.4", big)[1][:12].decode()
    budget("a 3 MB body refused 413", answer != "HTTP/1.1 413", 0, answer, "")

    def phase(key: str) -> list[float]:  # a phone playing a game from round 10, at its pace
        times, end = [], time.monotonic() + seconds  # within nginx's 3 pages a second
        while time.monotonic() < end and not time.sleep(1):
            times += play(base, key, "127.0.0.5", len(times) // 2)
        return times

    quiet, urls = p95(phase(played)), [f"{base}/g/{heavy}/{p}" for p in ("export/", "sheet.csv")]
    curl = ["curl", "--no-progress-meter", "-Z", "--parallel-max", "4", "--interface", "127.0.0.6"]
    curl += ["-w", "%{stderr}%{http_code}\n", *[*urls, f"{base}/g/{heavy}/"] * 9999]  # one address
    hammer = subprocess.Popen(curl, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    loud = p95(phase(also))
    hammer.kill()
    codes = hammer.communicate()[1].decode().split()
    got = f"(quiet {quiet:.1f} ms; hammer: {codes.count('200')} × 200, {codes.count('429')} × 429)"
    budget("another address's p95, hammered", loud, 2 * quiet, got)
    url, form, made = f"{base}/new/tamalou/", {f"name_{n}": p for n, p in enumerate(NAMES[:4])}, []
    for at in [phone("127.0.0.7")] * 4 + [phone("127.0.0.8")]:  # RATE_LIMIT_NEW_GAMES=3/10m
        form["csrfmiddlewaretoken"] = field("csrfmiddlewaretoken", at.get(url).text)
        made.append(at.post(url, form, allow_redirects=False).status_code)
    budget(f"rate limits: {made[:4]}, then {made[4:]}", made != [302, 302, 302, 429, 302], 0)


@contextlib.contextmanager
def stack(work: str, postgres: str | None):  # deploy/stack.sh, with a database of its own
    def admin(sql: str) -> None:
        if postgres:  # on the server's own database
            with psycopg.connect(f"{postgres.rsplit('/', 1)[0]}/postgres", autocommit=True) as db:
                db.execute(sql)

    with socket.socket() as one, socket.socket() as two:
        port, app = (s.bind(("127.0.0.1", 0)) or s.getsockname()[1] for s in (one, two))
    database = f"{postgres.rsplit('/', 1)[0]}/{DATABASE}" if postgres else f"sqlite:///{work}/db"
    env = {k: v for k, v in os.environ.items() if "DJANGO" not in k and "MAKE" not in k} | {
        "DATABASE_URL": database, "SECRET_KEY": os.urandom(32).hex(), "STACK_DIR": f"{work}/s",
        "PORT": str(port), "STACK_APP_PORT": str(app), "STATIC_ROOT": f"{work}/static",
        "RATE_LIMIT_NEW_GAMES": "3/10m",
    }  # fmt: skip
    admin(f'CREATE DATABASE "{DATABASE}"')
    with open(f"{work}/log", "ab") as log:  # nginx's access log, gunicorn's, ...
        stack = subprocess.Popen(["bash", "deploy/stack.sh"], env=env, stdout=log, stderr=log,
                                 start_new_session=True)  # fmt: skip
    try:
        while "stack: nginx on" not in Path(f"{work}/log").read_text() and not time.sleep(0.3):
            assert stack.poll() is None, Path(f"{work}/log").read_text()[-3000:]
        time.sleep(1)  # nginx listening
        yield f"http://127.0.0.1:{port}"
    finally:
        stack.terminate() or stack.wait(60)
        admin(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", help="a PostgreSQL URL: a fresh database on its server")
    parser.add_argument("--probe", action="store_true", help="the door's budgets, not the load")
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=180, help="measured, after a third more")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work, stack(work, args.postgres) as base:
        if args.probe:
            probe(base, args.seconds / 3)
        else:
            long = imported(base, "127.0.0.3", game(NAMES[:8], 150))
            kept = imported(base, "127.0.0.4", table(200))
            many_tables(base, work, args.tables, args.seconds)
            one_at_a_time(base, long, kept)
            first_load(base, long)
        log = Path(f"{work}/log").read_text(errors="replace").splitlines()
        errors = [line for line in log if re.match(r'nginx \S+ ".*" 5\d\d ', line)]
        budget("5xx answers (nginx's log)", len(errors), 0, "\n    ".join(errors[:5]), "")
    print(f"{'PostgreSQL' if args.postgres else 'SQLite'}, 5-min load {os.getloadavg()[1]:.1f}")
    raise SystemExit(1 if FAILED and args.probe else 0)


if __name__ == "__main__":
    main()
