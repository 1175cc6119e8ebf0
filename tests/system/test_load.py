"""Eight phones on one game through gunicorn, one of them correcting round 1, and a gunicorn
worker killed midway: nothing acknowledged is lost, nothing is stored twice, and the totals
shown are the referee's over the rounds as stored. A system test, part of every run.

Runs on a SQLite file of its own, or, in `make test`'s PostgreSQL pass, on a fresh database of
the same server (created and dropped here; the test database is not touched).

Production settings (DEBUG=0, hashed static files), gunicorn with 3 workers, loopback only.
Each phone is a browser without JavaScript (tests/servers.py). Seven phones read the sheet and
save the next round, as fast as they can, until the game has ``rounds`` rounds; a 409 means
another phone saved that number first, so the phone reads the sheet again and saves the next
one. The eighth keeps correcting round 1, reading its edit page for the current edit count each
time. Every payload (the typed totals) is unique to its phone and attempt, so each stored round
says which attempt it came from. After ``kill_after`` saved rounds one worker gets SIGKILL;
the master starts another. A request that dies with the worker (no answer) is sent once more,
the same form, after reading the page again, as a person taps Save again: a round whose POST
was answered 302 must be stored exactly once; one that got no answer may be stored, never twice.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import secrets
import signal
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import pytest
from django.db import connection

from scoring.referee import engine, gamefile
from scoring.store.models import Game
from tests.helpers import NOBODY_CALLED
from tests.servers import ROOT, Phone, children_of, gunicorn_master

pytestmark = pytest.mark.load

PLAYERS = ["Ana", "Ben", "Cal", "Dee"]
WORKERS = 3
# Set for a test process, never for the server.
NOT_FOR_THE_SERVER = ("DJANGO_ALLOW_ASYNC_UNSAFE", "DEBUG", "SECRET_KEY", "DATABASE_URL")
NO_ANSWER = (OSError, http.client.HTTPException)  # reset, refused, cut short, timed out


@dataclass
class Attempt:
    """One form a phone sent (and sent again once if it got no answer)."""

    phone: int
    kind: str  # "add" a round, or "fix" round 1
    number: int
    payload: tuple[int, ...]
    outcome: str = ""  # "saved" (302), "refused" (409 the first time), "unknown", "error"
    tries: int = 0
    detail: str = ""


@dataclass
class Report:
    database: str
    target: int
    phones: int
    attempts: list[Attempt] = field(default_factory=list)
    requests: int = 0
    cut: list[str] = field(default_factory=list)  # requests that got no answer
    killed: int = 0
    killed_after: int = 0
    respawned_in: float | None = None
    stored: int = 0
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    totals: dict[str, Fraction] = field(default_factory=dict)
    recomputed: dict[str, Fraction] = field(default_factory=dict)
    edits: int = 0
    unknown_stored: int = 0  # unanswered attempts that the database holds
    seconds: float = 0.0
    times: dict[str, list[float]] = field(default_factory=dict)  # seconds, by request kind

    @property
    def ok(self) -> bool:
        return not (self.lost or self.duplicated or self.failures)

    def count(self, kind: str, outcome: str) -> int:
        return sum(1 for a in self.attempts if a.kind == kind and a.outcome == outcome)

    def lines(self) -> list[str]:
        fixes = [a for a in self.attempts if a.kind == "fix"]
        unknown_adds = self.count("add", "unknown")
        respawn = (
            f"a new worker answered {self.respawned_in:.1f} s later"
            if self.respawned_in is not None
            else "no new worker answered"
        )
        return [
            f"{self.database}: {self.stored} rounds stored (target {self.target}), "
            f"{self.phones} phones, {self.requests} requests in {self.seconds:.1f} s",
            f"  rounds added: {self.count('add', 'saved')} acknowledged (302), "
            f"{self.count('add', 'refused')} refused as taken (409), "
            f"{unknown_adds} unanswered even when sent again "
            f"({self.unknown_stored} of them stored)",
            f"  round 1 corrected: {self.count('fix', 'saved')} of {len(fixes)} acknowledged, "
            f"{self.count('fix', 'unknown')} unanswered; stored edit count {self.edits}",
            "  median answer: "
            + ", ".join(
                f"{kind} {statistics.median(spent) * 1000:.0f} ms ({len(spent)})"
                for kind, spent in sorted(self.times.items())
            ),
            f"  worker {self.killed} killed (SIGKILL) after {self.killed_after} saved rounds; "
            f"requests cut: {len(self.cut)} {self.cut}; {respawn}",
            f"  lost {len(self.lost)}, duplicated {len(self.duplicated)}; totals "
            + ", ".join(f"{p} {t}" for p, t in self.totals.items())
            + (
                " = the recomputation from the stored rounds"
                if self.totals == self.recomputed
                else f" but recomputed {self.recomputed}"
            ),
            *(f"  LOST: {line}" for line in self.lost),
            *(f"  DUPLICATED: {line}" for line in self.duplicated),
            *(f"  FAILED: {line}" for line in self.failures),
            "OK" if self.ok else "FAILED",
        ]


# --- the database of the run ------------------------------------------------------------------


@contextmanager
def fresh_database(work: Path, postgres: str | None = None) -> Iterator[str]:
    """A DATABASE_URL nobody else uses: a SQLite file in ``work``, or a database created on the
    PostgreSQL server of ``postgres`` (its own database is never touched), dropped after."""
    if postgres is None:
        yield f"sqlite:///{work / 'load.sqlite3'}"
        return
    import psycopg

    server = postgres.rsplit("/", 1)[0]
    name = f"tamalou_load_{os.getpid()}"
    with psycopg.connect(f"{server}/postgres", autocommit=True, connect_timeout=5) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{server}/{name}"
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True, connect_timeout=5) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def stored_game(url: str, key: str) -> tuple[dict, list[dict]]:
    """The game's row and its rounds' rows, read straight from the database (not the app)."""
    game_sql = "SELECT id, variant, players, settings, ended FROM scoring_game WHERE edit_key = %s"
    rounds_sql = (
        "SELECT id, position, data, edits, deleted_at FROM scoring_round"
        " WHERE game_id = %s ORDER BY position"
    )
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
            db.row_factory = sqlite3.Row
            game = dict(db.execute(game_sql.replace("%s", "?"), [key]).fetchone())
            rows = db.execute(rounds_sql.replace("%s", "?"), [game["id"]]).fetchall()
            rows = [dict(row) for row in rows]
        for column in ("players", "settings"):
            game[column] = json.loads(game[column])
        for row in rows:
            row["data"] = json.loads(row["data"])
        return game, rows
    import psycopg
    from psycopg.rows import dict_row

    with psycopg.connect(url, row_factory=dict_row) as db:
        game = db.execute(game_sql, [key]).fetchone()
        rows = db.execute(rounds_sql, [game["id"]]).fetchall()
    return game, rows


# --- the phones -------------------------------------------------------------------------------


class Run:
    """The shared state of one run: what every phone sent and got, and when to stop."""

    def __init__(self, base: str, key: str, target: int, deadline: float) -> None:
        self.base, self.key, self.target, self.deadline = base, key, target, deadline
        self.lock = threading.Condition()
        self.attempts: list[Attempt] = []
        self.saved_adds = 0
        self.requests = 0
        self.cut: list[str] = []  # what each request that got no answer was
        self.adding_done = threading.Event()
        self.errors: list[str] = []
        self.times: dict[str, list[float]] = {}

    def note(self, *, cut: str = "", kind: str = "", since: float = 0.0) -> None:
        with self.lock:
            self.requests += 1
            if cut:
                self.cut.append(cut)
            if kind:
                self.times.setdefault(kind, []).append(time.monotonic() - since)

    def read(self, phone: Phone, path: str) -> str | None:
        """A page, read again while requests die with the worker; None when time is up."""
        while time.monotonic() < self.deadline:
            sent = time.monotonic()
            try:
                page = phone.get(path)
            except urllib.error.HTTPError as error:
                self.note()
                self.errors.append(f"GET {path} answered {error.code}")
                return None
            except NO_ANSWER:
                self.note(cut="GET edit page" if "edit" in path else "GET sheet")
                continue
            self.note(kind="GET", since=sent)
            return page
        return None

    def send(self, phone: Phone, path: str, form: dict, attempt: Attempt) -> str | None:
        """Post a form; with no answer, read the page again (a fresh token) and post it once
        more. Records the outcome in ``attempt``; returns the page of a 409 (the sheet as it
        is now, which offers the next number)."""
        with self.lock:
            self.attempts.append(attempt)
        for try_ in (1, 2):
            attempt.tries = try_
            sent = time.monotonic()
            try:
                status, body = phone.post(path, form)
            except NO_ANSWER as error:
                self.note(cut=f"POST {attempt.kind} (try {try_})")
                attempt.outcome, attempt.detail = "unknown", type(error).__name__
                if try_ == 1 and self.read(phone, path) is None:
                    return None
                continue
            self.note(kind=f"POST {status}", since=sent)
            if status == 302:
                attempt.outcome = "saved"
                if attempt.kind == "add":
                    with self.lock:
                        self.saved_adds += 1
                        self.lock.notify_all()
            elif status == 409:
                # The first time: the change was refused whole. After a lost answer it may
                # be that the first try was stored: unknown.
                attempt.outcome = "refused" if try_ == 1 else "unknown"
                return body
            else:
                attempt.outcome, attempt.detail = "error", f"{status}: {body[:300]}"
                self.errors.append(f"{attempt}")
            return None
        return None

    def phone(self, action, index: int) -> threading.Thread:
        """A thread for one phone; whatever breaks in it is a failure of the run."""

        def body() -> None:
            try:
                action(index, Phone(self.base))
            except Exception as error:
                self.errors.append(f"phone {index} stopped: {error!r}")

        return threading.Thread(target=body, name=f"phone-{index}")

    def add_rounds(self, index: int, phone: Phone) -> None:
        sheet = f"/g/{self.key}/"
        counter = 0
        page = None
        while time.monotonic() < self.deadline:
            # The sheet; after a 409, the page that says so is the sheet as it is now.
            found = page and re.search(r'name="number" value="(\d+)"', page)
            if not found:
                page = self.read(phone, sheet)
                if page is None:
                    return
                found = re.search(r'name="number" value="(\d+)"', page)
            number = int(found.group(1))
            if number > self.target:
                return
            counter += 1
            payload = unique_payload(index, counter)
            # Nobody called: the form would ask first, the table's answer goes with the round.
            form = {"number": number, "save": 1, "nobody_called": 1, **totals_form(payload)}
            page = self.send(phone, sheet, form, Attempt(index, "add", number, payload))

    def correct_round_1(self, index: int, phone: Phone) -> None:
        sheet = f"/g/{self.key}/"
        found = None
        while found is None and not self.adding_done.is_set():
            page = self.read(phone, sheet)
            if page is None:
                return
            found = re.search(r'id="round-1".*?/rounds/(\d+)/edit/', page, re.DOTALL)
        if found is None:
            return
        edit = f"/g/{self.key}/rounds/{found.group(1)}/edit/"
        counter = 0
        while not self.adding_done.is_set() and time.monotonic() < self.deadline:
            page = self.read(phone, edit)
            if page is None:
                return
            edits = int(re.search(r'name="edits" value="(\d+)"', page).group(1))
            counter += 1
            payload = unique_payload(index, counter)
            form = {"number": 1, "edits": edits, "save": 1, **totals_form(payload)}
            self.send(phone, edit, form, Attempt(index, "fix", 1, payload))


def unique_payload(phone: int, counter: int) -> tuple[int, ...]:
    """Typed hand totals that name the phone and its attempt, each a possible hand."""
    assert counter < 100, "a phone makes at most one attempt per round number"
    return (phone, counter % 10, counter // 10, 1)


def totals_form(payload: tuple[int, ...]) -> dict:
    return {f"total_{seat}": str(total) for seat, total in enumerate(payload)}


def payload_of(data: dict) -> tuple[int, ...]:
    return tuple(int(data["hands"][player]) for player in PLAYERS)


def shown_totals(page: str) -> dict[str, Fraction]:
    """The running totals as the sheet page shows them."""
    found = re.findall(
        r'<span class="name">(\w+).*?<span class="total">([^<]+)</span>', page, re.DOTALL
    )
    return {name: Fraction(text.replace("−", "-").replace(",", ".")) for name, text in found}


# --- one run ----------------------------------------------------------------------------------


def server_env(database: str, work: Path) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in NOT_FOR_THE_SERVER}
    return {
        **clean,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "HTTPS": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "STATIC_ROOT": str(work / "static"),
        "DATABASE_URL": database,
    }


def prepare(env: dict) -> None:
    """Migrate and collect the static files, at once (they do not share anything)."""
    manage = [sys.executable, "manage.py"]
    steps = [["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]]
    running = [subprocess.Popen([*manage, *step], cwd=ROOT, env=env) for step in steps]
    for step, process in zip(steps, running, strict=True):
        assert process.wait(120) == 0, f"manage.py {step[0]} failed"


def busy_worker(pids: set[int], port: int) -> int:
    """A worker with a request in hand (a connection open on the server's port), else any."""
    open_on_port = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if fields[3] == "01" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    open_on_port.add(f"socket:[{fields[9]}]")
    for pid in sorted(pids):
        with contextlib.suppress(OSError):
            if any(os.readlink(fd) in open_on_port for fd in Path(f"/proc/{pid}/fd").iterdir()):
                return pid
    return min(pids)


def wait_for_new_worker(base: str, master: int, killed: int, deadline: float) -> bool:
    """True once the master has a full set of workers again and the server answers."""
    probe = Phone(base)
    while time.monotonic() < deadline:
        pids = children_of(master)
        if len(pids) == WORKERS and killed not in pids:
            try:
                with probe.opener.open(f"{base}/healthz", timeout=5) as response:
                    if response.status == 200:
                        return True
            except NO_ANSWER:
                pass
        time.sleep(0.05)
    return False


def run(
    database: str,
    work: Path,
    *,
    phones: int = 8,
    rounds: int = 40,
    kill_after: int = 10,
    seconds: float = 60,
) -> Report:
    """The whole run against ``database`` (a DATABASE_URL): serve, load, kill, check."""
    label = "SQLite" if database.startswith("sqlite:") else "PostgreSQL"
    report = Report(label, rounds, phones)
    env = server_env(database, work)
    prepare(env)
    with gunicorn_master(env, WORKERS) as (base, master):
        owner = Phone(base)
        owner.get("/new/tamalou/")
        names = {f"name_{seat}": name for seat, name in enumerate(PLAYERS)}
        status, _ = owner.post("/new/tamalou/", {**names, "dealer": 0})
        assert status == 302, f"creating the game answered {status}"
        key = re.search(r'href="/g/([\w-]+)/"', owner.get("/")).group(1)

        start = time.monotonic()
        state = Run(base, key, rounds, start + seconds)
        adders = [state.phone(state.add_rounds, i) for i in range(phones - 1)]
        fixer = state.phone(state.correct_round_1, phones - 1)
        for thread in [*adders, fixer]:
            thread.start()

        with state.lock:
            state.lock.wait_for(
                lambda: state.saved_adds >= kill_after or time.monotonic() > state.deadline,
                timeout=seconds,
            )
            report.killed_after = state.saved_adds
        pids = children_of(master.pid)
        report.killed = busy_worker(pids, int(base.rsplit(":", 1)[1])) if pids else 0
        if report.killed:
            os.kill(report.killed, signal.SIGKILL)
            killed_at = time.monotonic()
            if wait_for_new_worker(base, master.pid, report.killed, state.deadline):
                report.respawned_in = time.monotonic() - killed_at
        else:
            report.failures.append(f"gunicorn {master.pid} has no workers to kill")

        for thread in adders:
            thread.join(max(state.deadline - time.monotonic(), 0) + 10)
        state.adding_done.set()
        fixer.join(10)
        report.seconds = time.monotonic() - start
        if any(thread.is_alive() for thread in [*adders, fixer]):
            report.failures.append("a phone was still waiting for an answer at the end")

        page = Phone(base).get(f"/g/{key}/")
        report.totals = shown_totals(page)
        shown_rounds = int(re.search(r'name="number" value="(\d+)"', page).group(1)) - 1

    report.attempts, report.requests, report.cut = state.attempts, state.requests, state.cut
    report.times = state.times
    report.failures += state.errors
    check(report, *stored_game(database, key), shown_rounds)
    return report


def check(report: Report, game: dict, rows: list[dict], shown_rounds: int) -> None:
    """Everything acknowledged is stored once, nothing is stored twice or out of place, and
    the totals are the referee's over the stored rounds."""
    live = [row for row in rows if row["deleted_at"] is None]
    report.stored = len(live)
    if len(live) != len(rows):
        report.failures.append(f"{len(rows) - len(live)} rounds deleted; nobody deleted any")
    positions = [row["position"] for row in live]
    if positions != list(range(1, len(live) + 1)):
        report.failures.append(f"positions not 1..{len(live)}: {positions}")
    if report.stored != report.target:
        report.failures.append(f"{report.stored} rounds stored, not {report.target}")
    if shown_rounds != report.stored:
        report.failures.append(f"the sheet shows {shown_rounds} rounds, {report.stored} stored")

    stored = {row["position"]: payload_of(row["data"]) for row in live}
    first = live[0] if live else None
    report.edits = first["edits"] if first else 0
    adds = [a for a in report.attempts if a.kind == "add"]
    fixes = [a for a in report.attempts if a.kind == "fix"]

    # Each stored payload once, each from an attempt at that number that may have stored it.
    for payload, times in Counter(stored.values()).items():
        if times > 1:
            where = [n for n, p in stored.items() if p == payload]
            report.duplicated.append(f"payload {payload} stored as rounds {where}")
    for number, payload in stored.items():
        sent = [a for a in report.attempts if a.payload == payload]
        if not any(a.outcome in ("saved", "unknown") for a in sent):
            report.failures.append(f"round {number} {payload} was never sent, or was refused")
        elif not any(a.number == number for a in sent):
            report.failures.append(f"round {number} {payload} was sent as another number")

    report.unknown_stored = sum(
        1 for a in adds if a.outcome == "unknown" and stored.get(a.number) == a.payload
    )

    # Every acknowledged round is there, at its number (round 1 as corrected, below).
    for attempt in adds:
        if attempt.outcome != "saved" or (attempt.number == 1 and report.edits):
            continue
        if stored.get(attempt.number) != attempt.payload:
            report.lost.append(f"{attempt} (stored there: {stored.get(attempt.number)})")
    saved_numbers = Counter(a.number for a in adds if a.outcome == "saved")
    for number, times in saved_numbers.items():
        if times > 1:
            report.duplicated.append(f"round {number} acknowledged {times} times")

    # Round 1 holds the last acknowledged correction, or one sent after it with no answer.
    acknowledged = [i for i, a in enumerate(fixes) if a.outcome == "saved"]
    if acknowledged:
        last = acknowledged[-1]
        allowed = [fixes[last].payload]
        allowed += [a.payload for a in fixes[last + 1 :] if a.outcome == "unknown"]
        if stored.get(1) not in allowed:
            report.lost.append(f"correction {fixes[last]} (round 1 holds {stored.get(1)})")
    unknown_fixes = sum(1 for a in fixes if a.outcome == "unknown")
    if not len(acknowledged) <= report.edits <= len(acknowledged) + unknown_fixes:
        report.failures.append(
            f"round 1 edited {report.edits} times; {len(acknowledged)} corrections "
            f"acknowledged, {unknown_fixes} unanswered"
        )

    # The totals the app shows are the referee's over the rounds as stored.
    entry = engine.GameEntry(
        variant=game["variant"],
        players=tuple(game["players"]),
        rounds=tuple(gamefile.round_from_json(row["data"], n) for n, row in enumerate(live, 1)),
        settings=game["settings"],
    )
    report.recomputed = dict(engine.score_game(entry).totals)
    if report.totals != report.recomputed:
        report.failures.append(f"shown totals {report.totals} != {report.recomputed}")


# --- the tests -----------------------------------------------------------------------------


def postgres_server() -> str | None:
    """The suite's PostgreSQL server, when the suite runs on one."""
    if connection.vendor != "postgresql":
        return None
    params = connection.settings_dict
    user = urllib.parse.quote(params["USER"] or "")
    if params["PASSWORD"]:
        user += ":" + urllib.parse.quote(params["PASSWORD"])
    return f"postgresql://{user}@{params['HOST'] or 'localhost'}:{params['PORT'] or 5432}/postgres"


def test_phones_a_correction_and_a_killed_worker_lose_and_duplicate_nothing(tmp_path):
    with fresh_database(tmp_path, postgres_server()) as database:
        # The time limit only bounds a broken run; a sound one ends when 12 rounds are saved.
        report = run(database, tmp_path, phones=8, rounds=12, kill_after=4, seconds=90)
    print("\n".join(report.lines()))
    assert report.lost == []
    assert report.duplicated == []
    assert report.totals == report.recomputed and len(report.totals) == 4
    assert report.failures == []
    assert report.stored == 12
    assert report.killed and report.respawned_in is not None
    assert report.count("add", "saved") + report.unknown_stored == 12


@pytest.mark.django_db
def test_a_round_sent_again_after_its_answer_was_lost_is_not_offered_as_a_new_round(client):
    """A worker killed after the commit, before the answer: the phone saves the same form
    again. Once another phone has saved the next round, the app says round 1 'was saved from
    another phone' and offers this phone's hands as round 3: one tap stores them twice.
    (Sent again while still the last round it is recognised: the double-tap case.)"""
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    url = f"/g/{game.edit_key}/"
    first = {"number": 1, "save": "1", "total_0": "3", "total_1": "9", **NOBODY_CALLED}
    assert client.post(url, first).status_code == 302  # stored; the answer never arrives
    other = client.__class__()
    assert other.post(url, {**first, "number": 2, "total_0": "4"}).status_code == 302
    response = client.post(url, first)  # Save again
    if response.status_code == 409:
        page = response.content.decode()
        assert "was saved from another phone" not in page  # it is this phone's own round
        assert 'name="number" value="3"' not in page  # not offered again as a new round
    else:
        assert response.status_code == 302
    assert len(game.rounds.all()) == 2
