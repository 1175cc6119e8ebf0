"""`make bench`: the performance budget, measured on this machine. Prints medians.

- the sheet page of a 30-round, 8-player game: database queries and server-side time;
- saving a round: one request, scoring included;
- throughput of the sheet page under gunicorn, against a trivial view served the same way;
- the weight of a first load of the sheet page: HTML, CSS, JS and the icons it links, compressed;
- long games (`--long` measures only these): the cold sheet and the end screen of a
  500-round, 8-player game, a save at 500 rounds, a correction of its last and of its first
  round, /stats/ and the home page of a phone holding 60 games of 30 rounds.

`--sheet` measures only the 30-round sheet's lines (to compare two versions, run by turns on
a machine whose speed drifts), `--weight` only the first load's weight.

The load comes from wrk on loopback, as a phone that visited once: it accepts gzip and
sends back its cookies. The trivial view (/healthz) is measured the same way in the same run.

It runs in production mode (DEBUG off, hashed static files) on a SQLite file of its own in a
temporary folder, or on DATABASE_URL when that is set.
"""

from __future__ import annotations

import gzip
import os
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = Path(tempfile.mkdtemp(prefix="tamalou-bench-"))
ENV = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "127.0.0.1,testserver",
    "HTTPS": "0",
    "STATIC_ROOT": str(WORK / "static"),
}
if not os.environ.get("DATABASE_URL"):
    ENV["DATABASE_URL"] = f"sqlite:///{WORK / 'bench.sqlite3'}"
os.environ.update(ENV)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tamalou_ref.settings")
sys.path.insert(0, str(ROOT))

import django  # noqa: E402

django.setup()

from django.core.cache import caches  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.fixtures import PLAYERS, evening_game  # noqa: E402
from bench.servers import gunicorn  # noqa: E402
from scoring.games.models import Game  # noqa: E402


def median_ms(action, times: int) -> float:
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def queries(action) -> int:
    with CaptureQueriesContext(connection) as captured:
        action()
    return len(captured)


def sheet_page(client: Client, game: Game):
    return lambda: client.get(f"/g/{game.edit_key}/", HTTP_HOST="127.0.0.1")


def measure_sheet() -> dict:
    client = Client()
    client.cookies["django_language"] = "fr"
    long_game, short_game = evening_game(30), evening_game(3, seed=3)
    results = {}
    for name, game in (("30 rounds", long_game), ("3 rounds", short_game)):
        page = sheet_page(client, game)
        page()
        forget_everything()
        results[f"queries, cold cache, {name}"] = queries(page)
        results[f"queries, warm, {name}"] = queries(page)
    cold = cold_page(client, f"/g/{long_game.edit_key}/")
    results["sheet 30×8, warm (ms)"] = median_ms(sheet_page(client, long_game), 300)
    results["sheet 30×8, nothing cached: server just started (ms)"] = median_ms(cold, 40)
    results["sheet 30×8, after a save: drawn anew, the earlier rounds kept (ms)"] = (
        measure_after_save()
    )
    return results


def measure_after_save(count: int = 40) -> float:
    """The sheet of a game of 8 players as every phone asks for it after round 30 is saved:
    its page is drawn anew (the state changed); what the earlier rounds look like is kept."""
    client = Client()
    client.cookies["django_language"] = "fr"
    games = [evening_game(29, seed=300 + n) for n in range(count)]
    hands = {f"total_{i}": str(i + 1) for i in range(len(PLAYERS))}
    pending = iter(games)
    timed: list[float] = []

    def sheet_after_save():
        game = next(pending)
        url = f"/g/{game.edit_key}/"
        client.get(url, HTTP_HOST="127.0.0.1")
        saved = {"number": 30, "save": "1", "caller": PLAYERS[0], **hands}
        assert client.post(url, saved, HTTP_HOST="127.0.0.1").status_code == 302
        start = time.perf_counter()
        response = client.get(url, HTTP_HOST="127.0.0.1")
        timed.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.status_code

    for _ in games:
        sheet_after_save()
    return statistics.median(timed)


def measure_save(htmx: bool, number: int = 30, count: int = 40) -> float:
    """One request saving round ``number``; with htmx it also returns the updated sheet."""
    client = Client()
    games = [evening_game(number - 1, seed=n) for n in range(count)]
    for game in games:
        client.get(f"/g/{game.edit_key}/", HTTP_HOST="127.0.0.1")
    hands = {f"total_{i}": str(i + 1) for i in range(len(PLAYERS))}
    pending = iter(games)

    def save():
        game = next(pending)
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = client.post(
            f"/g/{game.edit_key}/",
            {"number": number, "save": "1", "caller": PLAYERS[0], **hands},
            HTTP_HOST="127.0.0.1",
            **extra,
        )
        assert response.status_code == (200 if htmx else 302), response.status_code

    return median_ms(save, len(games))


def measure_correction(number: int, count: int = 9) -> float:
    """One request correcting round ``number`` of a 500-round game of 8 players: the later
    rounds scored again, the earlier ones read from the stored sheet."""
    client = Client()
    games = [evening_game(500, seed=200 + n) for n in range(count)]
    hands = {f"total_{i}": str(i + 1) for i in range(len(PLAYERS))}
    pending = iter(games)

    def correct():
        game = next(pending)
        stored = game.rounds.get(position=number)
        response = client.post(
            f"/g/{game.edit_key}/rounds/{stored.pk}/edit/",
            {"number": number, "edits": 0, "save": "1", "caller": PLAYERS[0], **hands},
            HTTP_HOST="127.0.0.1",
        )
        assert response.status_code == 302, response.status_code

    return median_ms(correct, count)


def forget_everything() -> None:
    """Empty the caches of this process: its pages and its drawn rounds."""
    for alias in ("default", "template_fragments"):
        caches[alias].clear()


def cold_page(client: Client, url: str):
    """A GET of ``url`` with nothing cached (as on a server just started)."""

    def action():
        forget_everything()
        response = client.get(url, HTTP_HOST="127.0.0.1")
        assert response.status_code == 200, response.status_code

    return action


def measure_long() -> dict:
    """The cost of a long game, and of a phone that holds as many games as it may."""
    client = Client()
    client.cookies["django_language"] = "fr"
    results = {}
    long_game = evening_game(500, seed=5)
    results["sheet 500×8, nothing cached (ms)"] = median_ms(
        cold_page(client, f"/g/{long_game.edit_key}/"), 9
    )
    ended = evening_game(500, seed=6)
    ended.end()
    results["end screen 500×8, nothing cached (ms)"] = median_ms(
        cold_page(client, f"/g/{ended.edit_key}/"), 9
    )
    results["save round 500 of 8 players, no JS: redirect (ms)"] = measure_save(
        htmx=False, number=500, count=9
    )
    for number in (500, 1):
        results[f"correct round {number} of 500, no JS: redirect (ms)"] = measure_correction(number)
    phone = Client()
    phone.cookies["django_language"] = "fr"
    for seed in range(60):
        game = evening_game(30, seed=100 + seed)
        if seed % 2:
            game.end()
        phone.get(f"/g/{game.edit_key}/", HTTP_HOST="127.0.0.1")
    results["/stats/ with 60 games of 30×8, nothing cached (ms)"] = median_ms(
        cold_page(phone, "/stats/"), 9
    )
    results["home with 60 games of 30×8, nothing cached (ms)"] = median_ms(cold_page(phone, "/"), 9)
    return results


def wrk(url: str, cookie: str, seconds: int = 10) -> float:
    """Requests per second, from a phone's browser that came before: gzip, and its cookies."""
    headers = ["-H", "Accept-Encoding: gzip", "-H", f"Cookie: {cookie}"]
    done = subprocess.run(
        ["wrk", "-t2", "-c16", f"-d{seconds}s", *headers, url],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(re.search(r"Requests/sec:\s+([\d.]+)", done.stdout).group(1))


def measure_throughput(game: Game) -> dict:
    with gunicorn({**os.environ}, workers=2) as base:
        sheet = f"{base}/g/{game.edit_key}/"
        cookie = first_visit_cookies(sheet)
        wrk(sheet, cookie, 2)  # warm both workers' caches
        trivial, page = [], []
        for _ in range(3):  # interleaved, so that both see the same machine
            trivial.append(wrk(f"{base}/healthz", cookie, 6))
            page.append(wrk(sheet, cookie, 6))
        weight = page_weight(base, sheet)
    ratios = sorted(p / t for p, t in zip(page, trivial, strict=True))
    return {
        "trivial view (req/s)": statistics.median(trivial),
        "sheet 30×8 (req/s)": statistics.median(page),
        "ratio sheet/trivial, median of 3 pairs": statistics.median(ratios),
        "ratio, lowest of 3 pairs": ratios[0],
        **weight,
    }


def first_visit_cookies(url: str) -> str:
    """The cookies a phone keeps after its first visit of the sheet (session, CSRF)."""
    import urllib.request
    from http.cookiejar import CookieJar

    jar = CookieJar()
    urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar)).open(url).read()
    return "; ".join(f"{cookie.name}={cookie.value}" for cookie in jar)


# What a module imports at once (`import … from "./x.js";`, `import "./x.js";`): loaded with it.
# An `import("./x.js")` waits for the moment it is needed, so it is not part of the first load.
STATIC_IMPORT = re.compile(
    rb"""(?:^|[;\n])\s*(?:import|export)\b[^;("']*?['"](\.{1,2}/[^'"]+)['"]\s*;"""
)


def page_weight(base: str, sheet: str) -> dict:
    """A first visit: the HTML (compressed as a proxy would), every script and stylesheet
    it links and every module those scripts import, as whitenoise serves them to a browser that
    accepts gzip."""
    import urllib.request
    from urllib.parse import urljoin

    def fetch(url: str) -> tuple[bytes, dict]:
        request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.read(), dict(response.headers)

    html, headers = fetch(sheet)
    sizes = {"HTML": len(html)}
    if headers.get("Content-Encoding") == "gzip":
        html = gzip.decompress(html)
    else:
        sizes["HTML"] = len(gzip.compress(html))
    cache_headers = set()
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
        cache_headers.add(headers.get("Cache-Control", ""))
        if name == "JS":
            text = gzip.decompress(body) if compressed else body
            paths += [urljoin(path, found.decode()) for found in STATIC_IMPORT.findall(text)]
    return {
        **{f"first load, {k} (KB gz)": v / 1000 for k, v in sizes.items()},
        "first load, total (KB gz)": sum(sizes.values()) / 1000,
        "static Cache-Control": " | ".join(sorted(cache_headers)),
        "images or fonts": bool(re.search(rb"<img|@font-face|\.woff", html)),
    }


def measure_weight() -> dict:
    """Only the first load's weight (`python bench/run.py --weight`): no load generated."""
    game = evening_game(30, seed=11)
    with gunicorn({**os.environ}) as base:
        return page_weight(base, f"{base}/g/{game.edit_key}/")


def main() -> None:
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    if "--weight" in sys.argv:
        for name, value in measure_weight().items():
            print(f"  {name}  {value:.2f}" if isinstance(value, float) else f"  {name}  {value}")
        shutil.rmtree(WORK, ignore_errors=True)
        return
    if "--sheet" in sys.argv:  # the 30×8 sheet's lines alone (to compare two versions by turns)
        show(measure_sheet())
        shutil.rmtree(WORK, ignore_errors=True)
        return
    if "--long" in sys.argv:
        show(measure_long())
        shutil.rmtree(WORK, ignore_errors=True)
        return
    results = measure_sheet()
    results["save round 30 of 8 players, no JS: redirect (ms)"] = measure_save(htmx=False)
    results["save round 30 of 8 players, htmx: + new sheet (ms)"] = measure_save(htmx=True)
    results.update(measure_long())
    results.update(measure_throughput(evening_game(30, seed=11)))
    show(results)
    shutil.rmtree(WORK, ignore_errors=True)


def show(results: dict) -> None:
    width = max(len(name) for name in results)
    load = os.getloadavg()[0]
    print(f"\nTamalou Ref benchmark ({os.cpu_count()} cores, load average {load:.1f}), medians:")
    for name, value in results.items():
        shown = f"{value:.2f}" if isinstance(value, float) else str(value)
        print(f"  {name:<{width}}  {shown}")


if __name__ == "__main__":
    main()
