"""The live push's delay: from a save's answer to the change on a viewer's phone.

    .venv/bin/python bench/push_delay.py --saves 200                   # one server, SQLite
    .venv/bin/python bench/push_delay.py --saves 200 --postgres URL    # two servers, PostgreSQL

Production settings, gunicorn with one uvicorn worker per server (``make serve``'s kind),
loopback only. A phone without JavaScript saves rounds one after the other on server A; a
viewer holds the share link's stream (``/s/KEY/stream/``) on server B (on SQLite, whose channel
is in-process, B is A) and, at each event, fetches the live part with the ETag it shows, as
static/js/stream.js does. For each save: the time from the save's answer (302) to the moment
the viewer has the live part showing that round. A negative delay is a viewer served before
the saving phone got its answer. Prints p50, p95 and the worst, in milliseconds.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import fresh_database, prepare, server_env  # noqa: E402
from bench.phone import Phone  # noqa: E402
from bench.servers import gunicorn  # noqa: E402

ROUNDS_PER_GAME = 50  # a new game then, so that every sheet stays of an evening's size
SHOWN = re.compile(r"Manche (\d+)</h3>")


def new_game(base: str) -> tuple[str, str]:
    """(edit key, share key) of a new Tamalou game for two players."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    with opener.open(f"{base}/new/tamalou/", timeout=30) as response:
        form = response.read().decode()
    token = form.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    body = {"name_0": "Léa", "name_1": "Marc", "action": "create", "csrfmiddlewaretoken": token}
    with opener.open(f"{base}/new/tamalou/", urllib.parse.urlencode(body).encode()) as response:
        sheet = response.read().decode()
    edit = sheet.split('action="/g/')[1].split("/")[0]
    share = re.search(r"/s/([^/]+)/", sheet).group(1)
    return edit, share


class Viewer(threading.Thread):
    """A phone following one game: its stream, then the live part fetched with its ETag."""

    def __init__(self, base: str, share: str) -> None:
        super().__init__(daemon=True)
        self.base, self.share = base, share
        self.seen: dict[int, float] = {}  # round number → when the viewer had it
        self.changed = threading.Condition()
        self.ready = threading.Event()
        self.stop = False

    def run(self) -> None:
        shown = ""
        stream = urllib.request.urlopen(f"{self.base}/s/{self.share}/stream/", timeout=60)
        while not self.stop:
            line = stream.readline().decode()
            if not line.startswith("data: "):
                continue
            told = line[6:].strip()
            self.ready.set()
            if told == shown:
                continue
            request = urllib.request.Request(
                f"{self.base}/s/{self.share}/live/", headers={"If-None-Match": shown}
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    page, shown = response.read().decode(), response.headers["ETag"]
            except urllib.error.HTTPError:  # 304: nothing new after all
                continue
            now = time.perf_counter()
            with self.changed:
                for number in map(int, SHOWN.findall(page)):
                    self.seen.setdefault(number, now)
                self.changed.notify_all()
        stream.close()

    def wait_for(self, number: int, seconds: float = 10) -> float | None:
        with self.changed:
            self.changed.wait_for(lambda: number in self.seen, seconds)
            return self.seen.get(number)


def measure(saver_base: str, viewer_base: str, saves: int) -> list[float]:
    delays: list[float] = []
    while len(delays) < saves:
        edit, share = new_game(saver_base)
        viewer = Viewer(viewer_base, share)
        viewer.start()
        viewer.ready.wait(10)
        phone = Phone(saver_base)
        for number in range(1, min(ROUNDS_PER_GAME, saves - len(delays)) + 1):
            phone.get(f"/g/{edit}/")
            # Nobody called: the form would ask first, the table's answer goes with the round.
            form = {"number": number, "save": "1", "nobody_called": "1"}
            form |= {"total_0": "3", "total_1": "9"}
            status, _ = phone.post(f"/g/{edit}/", form)
            answered = time.perf_counter()
            assert status == 302, f"save {number} answered {status}"
            shown = viewer.wait_for(number)
            assert shown is not None, f"round {number} never reached the viewer"
            delays.append((shown - answered) * 1000)
        viewer.stop = True
    return delays


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=200)
    parser.add_argument("--postgres", help="a PostgreSQL server's URL: two servers on it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        with fresh_database(work, args.postgres) as database:
            # Its phone saves rounds back to back, faster than any table, from the viewer's
            # address: paced by each client's share (scoring/guards/shares.py), the viewer
            # would wait for the saver's turn. This measures the push.
            env = {**server_env(database, work), "CLIENT_SHARE": "0"}
            prepare(env)
            with gunicorn(env, asgi=True) as a:
                if args.postgres:
                    with gunicorn(env, asgi=True) as b:
                        delays = measure(a, b, args.saves)
                else:
                    delays = measure(a, a, args.saves)
    delays.sort()
    where = "two servers, PostgreSQL" if args.postgres else "one server, SQLite"
    p95 = delays[max(0, round(len(delays) * 0.95) - 1)]
    print(
        f"push delay ({where}), {len(delays)} saves: p50 {statistics.median(delays):.1f} ms, "
        f"p95 {p95:.1f} ms, worst {delays[-1]:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
