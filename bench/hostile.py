"""The production probe's key bomb, timed through gunicorn (issue 22, item 1).

    .venv/bin/python bench/hostile.py                   # a SQLite file in a temporary folder
    .venv/bin/python bench/hostile.py --postgres URL    # a fresh database on that server

Production settings (DEBUG=0, hashed static files), gunicorn with 3 workers, loopback only,
as `make load` starts it. The file `{"k0":0,…,"k149999":0}` (1.7 MB) is posted to /import/
nine times one after the other (the median and the slowest are printed), then three at once
while /healthz is timed: each must be answered 4xx within a second, and /healthz at once.
Fails (exit 1) past those budgets. Thirteen imports from one address: under the rate limit.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import WORKERS, fresh_database, prepare, server_env  # noqa: E402
from bench.phone import Phone  # noqa: E402
from bench.servers import gunicorn_master  # noqa: E402

BOMB = ("{" + ",".join(f'"k{i}":0' for i in range(150_000)) + "}").encode()
BOUNDARY = "hostile0boundary"
BUDGET = 1.0  # seconds


def post_bomb(phone: Phone) -> tuple[int, float]:
    body = b"\r\n".join(
        [
            b"--" + BOUNDARY.encode(),
            b'Content-Disposition: form-data; name="csrfmiddlewaretoken"',
            b"",
            phone.token.encode(),
            b"--" + BOUNDARY.encode(),
            b'Content-Disposition: form-data; name="file"; filename="bomb.json"',
            b"Content-Type: application/json",
            b"",
            BOMB,
            b"--" + BOUNDARY.encode() + b"--",
            b"",
        ]
    )
    request = urllib.request.Request(
        phone.base + "/import/",
        body,
        {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"},
    )
    started = time.perf_counter()
    try:
        with phone.opener.open(request, timeout=60) as response:
            status = response.status
            response.read()
    except urllib.error.HTTPError as error:
        status = error.code
        error.read()
    return status, time.perf_counter() - started


def run(database: str, work: Path) -> bool:
    env = server_env(database, work)
    prepare(env)
    with gunicorn_master(env, WORKERS) as (base, _):
        phone = Phone(base)
        phone.get("/import/")
        alone = [post_bomb(phone) for _ in range(9)]
        times = [seconds for _, seconds in alone]
        statuses = sorted({status for status, _ in alone})
        print(f"key bomb ({len(BOMB):,} bytes) alone, 9 times: statuses {statuses}")
        print(f"  median {statistics.median(times):.3f} s, slowest {max(times):.3f} s")

        together: list[tuple[int, float]] = []
        threads = [
            threading.Thread(target=lambda: together.append(post_bomb(phone))) for _ in range(3)
        ]
        for thread in threads:
            thread.start()
        started = time.perf_counter()
        with phone.opener.open(base + "/healthz", timeout=60) as response:
            response.read()
        healthz = time.perf_counter() - started
        for thread in threads:
            thread.join()
        print(
            f"three at once: statuses {sorted(s for s, _ in together)}, slowest "
            f"{max(t for _, t in together):.3f} s; /healthz meanwhile {healthz:.3f} s"
        )
    statuses = [status for status, _ in alone + together]
    return (
        all(400 <= status < 500 for status in statuses)
        and statistics.median(times) <= BUDGET
        and healthz <= BUDGET
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", help="a PostgreSQL URL: run on a fresh database there")
    arguments = parser.parse_args()
    with (
        tempfile.TemporaryDirectory(prefix="tamalou-hostile-") as work,
        fresh_database(Path(work), arguments.postgres) as database,
    ):
        good = run(database, Path(work))
    print("within budget" if good else "OVER BUDGET")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
