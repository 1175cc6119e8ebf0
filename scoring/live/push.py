"""Live push: every change of a game's state told at once to the phones that follow it.

A phone showing a sheet opens one Server-Sent Events stream on its link (``…/stream/``). Each
event is the ETag that the sheet's live part (``…/live/``) has now; the phone fetches that part
with the ETag it shows (``If-None-Match``), exactly as its 3-second polling did, so a stream
lost and opened again catches up from the phone's own ETag: nothing missed, nothing doubled.

How a change reaches the streams:

- every write to a game (``Game._store``) calls ``announce(game id, new state)`` inside its
  transaction. On PostgreSQL that is ``pg_notify``, which the database delivers at commit to
  every process listening: each server process holds ONE listening connection (``Listener``,
  opened with its first stream) and fans each notification out to its own streams. On SQLite
  it is an in-process call after the commit, and for the writes of other processes sharing
  the file (``make serve``'s workers), a ``Poller`` per process reads the states of the games
  its streams follow once a second.
- ``Hub`` keeps, per game, the streams of this process; a stream keeps only the latest state
  (a phone needs the newest sheet, not every step).

Streams need an ASGI server (``tamalou_ref.asgi``: uvicorn, or gunicorn's uvicorn workers). A
WSGI server cannot hold one (Django would read the endless stream into memory before sending
it): there the stream answers 204, which tells the browser to stop, and the phone keeps
polling. Each process admits at most ``LIVE_STREAMS_PER_CLIENT`` streams per client (429
beyond) and ``LIVE_STREAMS_PER_PROCESS`` in all (503 beyond); the phone polls meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from django.conf import settings
from django.db import close_old_connections, connection, connections, transaction

CHANNEL = "tamalou_live"
PING_SECONDS = 25  # a comment line now and then keeps proxies from closing an idle stream

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Watch:
    """One stream's view of its game: the newest state told, and a wake-up."""

    game_id: int
    loop: asyncio.AbstractEventLoop
    state: str | None = None
    recheck: bool = False  # the listener was down: read the state from the database again
    woken: asyncio.Event = field(default_factory=asyncio.Event)

    def tell(self, state: str | None) -> None:
        """From any thread: a new state (None: look it up again)."""

        def wake() -> None:
            if state is None:
                self.recheck = True
            else:
                self.state = state
            self.woken.set()

        self.loop.call_soon_threadsafe(wake)

    async def next(self, timeout: float) -> bool:
        """Wait for news; False when ``timeout`` passed without any."""
        try:
            await asyncio.wait_for(self.woken.wait(), timeout)
        except TimeoutError:
            return False
        self.woken.clear()
        return True


class Hub:
    """This process's streams, by game; and its count of streams per client."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watches: dict[int, set[Watch]] = {}
        self._clients: dict[str, int] = {}

    def admit(self, client: str) -> bool:
        """Count a new stream of ``client``; False if it already has LIVE_STREAMS_PER_CLIENT
        or the process LIVE_STREAMS_PER_PROCESS (``full``)."""
        with self._lock:
            if self.full() or self._clients.get(client, 0) >= settings.LIVE_STREAMS_PER_CLIENT:
                return False
            self._clients[client] = self._clients.get(client, 0) + 1
            return True

    def full(self) -> bool:
        return sum(self._clients.values()) >= settings.LIVE_STREAMS_PER_PROCESS

    def release(self, client: str) -> None:
        with self._lock:
            left = self._clients.get(client, 0) - 1
            if left > 0:
                self._clients[client] = left
            else:
                self._clients.pop(client, None)

    def watch(self, game_id: int) -> Watch:
        found = Watch(game_id, asyncio.get_running_loop())
        with self._lock:
            self._watches.setdefault(game_id, set()).add(found)
        return found

    def unwatch(self, found: Watch) -> None:
        with self._lock:
            watches = self._watches.get(found.game_id, set())
            watches.discard(found)
            if not watches:
                self._watches.pop(found.game_id, None)

    def publish(self, game_id: int, state: str) -> None:
        with self._lock:
            watches = list(self._watches.get(game_id, ()))
        for found in watches:
            found.tell(state)

    def recheck_all(self) -> None:
        with self._lock:
            watches = [w for ws in self._watches.values() for w in ws]
        for found in watches:
            found.tell(None)

    def game_ids(self) -> list[int]:
        with self._lock:
            return list(self._watches)

    def streams(self) -> int:
        with self._lock:
            return sum(len(ws) for ws in self._watches.values())


hub = Hub()


def announce(game_id: int, state: str) -> None:
    """Inside a write's transaction: tell every stream on the game its new state once the
    transaction commits (a rolled back write tells nothing)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{game_id} {state}"])
    else:
        transaction.on_commit(lambda: hub.publish(game_id, state))


def background(work) -> asyncio.Task:
    """A task of the process, not of the request that happened to start it (whose context,
    thread executor included, ends with it)."""
    return asyncio.get_running_loop().create_task(work, context=contextvars.Context())


class Listener:
    """One PostgreSQL connection per process, LISTENing on ``CHANNEL`` for as long as the
    process serves streams; when it breaks, it connects again and has every stream read its
    state again (what was notified meanwhile is not lost)."""

    def __init__(self) -> None:
        self._task: asyncio.Task | None = None
        self.ready = asyncio.Event()

    def start(self) -> None:
        if self._task is None or self._task.done():
            self.ready = asyncio.Event()
            self._task = background(self._run())

    async def _run(self) -> None:
        import psycopg

        params = connections["default"].settings_dict
        conninfo = psycopg.conninfo.make_conninfo(
            **{
                name: str(value)
                for name, value in (
                    ("dbname", params.get("NAME")),
                    ("user", params.get("USER")),
                    ("password", params.get("PASSWORD")),
                    ("host", params.get("HOST")),
                    ("port", params.get("PORT")),
                )
                if value
            }
        )
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    conninfo, autocommit=True
                ) as listening:
                    await listening.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    if not first:
                        hub.recheck_all()
                    first = False
                    async for note in listening.notifies():
                        game_id, _, state = note.payload.partition(" ")
                        with contextlib.suppress(ValueError):
                            hub.publish(int(game_id), state)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("live: the PostgreSQL listener broke; connecting again")
                first = False
                await asyncio.sleep(1)


class Poller:
    """SQLite has no NOTIFY, and several server processes may share its file (``make serve``
    with workers): each process reads the states of the games its streams follow once a second
    (one query for them all) and tells the changes a write in another process made."""

    def __init__(self) -> None:
        self._task: asyncio.Task | None = None
        self.ready = asyncio.Event()
        self.ready.set()

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = background(self._run())

    async def _run(self) -> None:
        known: dict[int, str] = {}
        while True:
            await asyncio.sleep(POLL_SECONDS)
            ids = hub.game_ids()
            if not ids:
                known.clear()
                continue
            try:
                states = await read_database(states_of, ids)
            except Exception:
                log.exception("live: reading the games' states failed")
                continue
            for game_id, state in states:
                if known.get(game_id) != state:
                    known[game_id] = state
                    hub.publish(game_id, state)


POLL_SECONDS = 1.0


def states_of(ids: list[int]) -> list[tuple[int, str]]:
    from django.apps import apps

    game = apps.get_model("scoring", "Game")
    return list(game.objects.filter(pk__in=ids).values_list("pk", "state"))


# The few threads the live side reads the database on (a stream when it opens, the poller
# once a second): no stream holds a thread or a connection of its own.
DATABASE_THREADS = 4
DATABASE = ThreadPoolExecutor(max_workers=DATABASE_THREADS, thread_name_prefix="live-db")


async def read_database(read, *args):
    """``read(*args)`` on one of those threads. Each thread keeps its connection as a request's
    thread does (``CONN_MAX_AGE``, checked before reuse; with 0, closed after each read, back to
    the pool on PostgreSQL): closed after every read, each stream opened on PostgreSQL made two
    connections, a backend started and ended each time (`make probe`: 300 streams, each held
    2-8 s, cost the server's CPU that a phone's saves waited for)."""

    def kept():
        close_old_connections()  # one past its age, or broken, is not used again
        try:
            return read(*args)
        finally:
            close_old_connections()

    return await asyncio.get_running_loop().run_in_executor(DATABASE, kept)


follower: Listener | Poller | None = None


async def listening() -> None:
    """Make sure this process follows the writes of the others (PostgreSQL: it listens, and
    this waits until it does, so that a stream's first event is never older than the
    notifications it will hear; SQLite: it polls the states)."""
    global follower
    if follower is None:
        follower = Listener() if connection.vendor == "postgresql" else Poller()
    follower.start()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(follower.ready.wait(), 5)


def event(etag: str) -> bytes:
    return f"event: state\ndata: {etag}\n\n".encode()


async def events(
    found: Watch, etag_of_state, state_now, client: str, first: str
) -> AsyncIterator[bytes]:
    """The stream: the ETag now, then each new one; a comment every ``PING_SECONDS``.
    ``etag_of_state(state)`` gives the ETag; ``state_now()`` reads the state again."""
    try:
        yield b"retry: 3000\n" + event(etag_of_state(first))
        told = first
        while True:
            if not await found.next(PING_SECONDS):
                yield b": ping\n\n"
                continue
            if found.recheck:
                found.recheck = False
                found.state = await state_now() or found.state
            if found.state is not None and found.state != told:
                told = found.state
                yield event(etag_of_state(told))
    finally:
        hub.unwatch(found)
        hub.release(client)
