"""An evening of tables against a served server, as the phones' browsers send it (bench/run.py).

A table is 5 phones on one game by its edit link. A round: one phone saves it (the round form
as the page's form posts it with htmx: every field of the form, the hand totals typed, a
caller chosen, the Save button, and htmx's headers), and the server's answer is the sheet it
returns to (the next round's form, the totals, the history and the chart, swapped in place:
the phone reads its next form and its live part's ETag from it). The four others follow the
game as static/js/stream.js does: each holds the game's live push stream open and, told a new
ETag, fetches the live part with the ETag it shows (a 200: the round is new to it). A phone
whose stream the server does not serve (a WSGI server answers 204) polls the live part every
3 s instead (mostly 304s). The saving phone changes each round. (A phone without JavaScript
gets a redirect and fetches the whole sheet instead: bench/run.py measures that save and sheet
one request at a time.) Each phone is a browser with one keep-alive connection (and one more
for its stream), its cookies, gzip accepted, French asked first.
"""

from __future__ import annotations

import gzip
import http.client
import json
import random
import re
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlencode

PLAYERS = ["Léa", "Marc", "Nina", "Omar", "Paul"]
PHONES = 5  # a table
KINDS = ("save", "live 200", "live 304")  # 304s: a phone without a stream polls


class FormFields(HTMLParser):
    """The fields a browser sends for the form ``form_id`` of a page: inputs (checkboxes and
    radios only when checked), selects (the selected option, else the first), textareas;
    buttons only as the submitter, which the caller adds."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id, self.inside = form_id, False
        self.fields: list[tuple[str, str]] = []
        self.select: str | None = None
        self.options: list[tuple[str, bool]] = []
        self.textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside or "disabled" in a:
            return
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind not in ("submit", "button", "image", "reset", "file"):
                self.fields.append((a["name"], a.get("value") or ""))
        elif tag == "select" and a.get("name"):
            self.select, self.options = a["name"], []
        elif tag == "option" and self.select is not None:
            self.options.append((a.get("value") or "", "selected" in a))
        elif tag == "textarea" and a.get("name"):
            self.textarea = a["name"]
            self.fields.append((a["name"], ""))

    def handle_data(self, data):
        if self.textarea is not None:
            self.fields[-1] = (self.textarea, self.fields[-1][1] + data)

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select" and self.select is not None:
            chosen = [v for v, selected in self.options if selected] or [
                v for v, _ in self.options[:1]
            ]
            self.fields += [(self.select, v) for v in chosen]
            self.select = None
        elif tag == "textarea":
            self.textarea = None


def form_fields(page: str, form_id: str = "round-form") -> list[tuple[str, str]]:
    parser = FormFields(form_id)
    parser.feed(page)
    return parser.fields


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage  # names in any case (uvicorn sends them in lower case)
    text: str
    seconds: float


class Browser:
    """A phone's browser on the sheet: one keep-alive connection (opened again when it sat
    idle longer than the server keeps it), its cookies, the CSRF token and the live part's
    ETag and next round number it last saw, and the fields of its round form."""

    IDLE = 1.5  # seconds; gunicorn's gthread workers keep an idle connection 2 s

    def __init__(self, host: str, port: int, key: str, address: str = "127.0.0.1") -> None:
        self.host, self.port, self.key = host, port, key
        self.address = address  # where its requests come from: a table's own
        self.connection: http.client.HTTPConnection | None = None
        self.used = 0.0
        self.cookies: dict[str, str] = {}
        self.token = self.etag = ""
        self.next = 1
        self.form: list[tuple[str, str]] = []
        self.busy = threading.Lock()  # its page and connection, one request at a time

    def request(self, method: str, path: str, headers: dict, body: bytes = b"") -> Answer:
        headers = {
            "User-Agent": "Mozilla/5.0 (Linux; Android 14) Chrome/126 Mobile (tamalou bench)",
            "Accept-Encoding": "gzip, deflate, br",
            "Accept-Language": "fr-FR,fr;q=0.9,en;q=0.8",
            **({"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}),
            **headers,
        }
        if self.connection is None or time.monotonic() - self.used > self.IDLE:
            if self.connection is not None:
                self.connection.close()
            self.connection = self.connect(timeout=60)
        start = time.perf_counter()
        self.connection.request(method, path, body or None, headers)
        response = self.connection.getresponse()
        data = response.read()
        seconds = time.perf_counter() - start
        self.used = time.monotonic()
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        if response.getheader("Content-Encoding") == "gzip":
            data = gzip.decompress(data)
        answer = Answer(response.status, response.headers, data.decode(), seconds)
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
            self.connection = None
        return answer

    def connect(self, timeout: float) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(
            self.host, self.port, timeout=timeout, source_address=(self.address, 0)
        )

    def htmx(self, target: str) -> dict:
        """The headers htmx 2 sends for a request of element ``target`` (its id), with the
        page's hx-headers (the CSRF token)."""
        return {
            "HX-Request": "true",
            "HX-Trigger": target,
            "HX-Target": target,
            "HX-Current-URL": f"http://{self.host}:{self.port}/g/{self.key}/",
            "X-CSRFToken": self.token,
        }

    def open_sheet(self) -> Answer:
        """A GET of the edit page, as after a save or on the first visit; keeps what it shows."""
        answer = self.request("GET", f"/g/{self.key}/", {"Accept": "text/html"})
        if answer.status == 200:
            self.read_page(answer.text)
        return answer

    def read_page(self, page: str) -> None:
        """A sheet, or the part of it a save answers with (its CSRF token is the page's)."""
        found = re.search(r"hx-headers='(\{[^']*\})'", page)
        if found:
            self.token = json.loads(found.group(1))["X-CSRFToken"]
        self.form = form_fields(page)
        self.read_live(page)

    def read_live(self, part: str) -> None:
        found = re.search(r'<div id="live-top"[^>]*data-etag="([^"]*)" data-next="(\d+)"', part)
        if found:
            self.etag = found.group(1).replace("&quot;", '"')
            self.next = int(found.group(2))

    def live(self) -> Answer:
        """The live part, with the ETag the page shows (static/js/live.js)."""
        headers = {**self.htmx("live-top"), "Accept": "*/*", "If-None-Match": self.etag}
        answer = self.request("GET", f"/g/{self.key}/live/", headers)
        if answer.status == 200:
            self.read_live(answer.text)
        return answer

    def save(self, totals: list[str], caller: str) -> Answer:
        """The round form as htmx posts it: its fields as they stand, the round number the
        live part proposes (static/js/round.js), the totals typed, a caller, and Save."""
        typed = {f"total_{seat}": total for seat, total in enumerate(totals)}
        fields = [
            (name, typed.get(name, str(self.next) if name == "number" else value))
            for name, value in self.form
            if name != "caller"
        ]
        fields += [("caller", caller), ("save", "1")]
        headers = {
            **self.htmx("round-form"),
            "Accept": "*/*",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        return self.request("POST", f"/g/{self.key}/", headers, urlencode(fields).encode())


@dataclass
class Evening:
    """What the tables saw: each request's time (s) by kind, and what went wrong."""

    times: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    rounds: int = 0
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, kind: str, answer: Answer, expected: int) -> None:
        with self.lock:
            if answer.status != expected:
                self.errors.append(f"{kind}: {answer.status} (expected {expected})")
            else:
                self.times[kind].append(answer.seconds)


class Follower(threading.Thread):
    """A phone following the game as static/js/stream.js does: its live push stream open
    (a connection of its own), and each ETag the stream tells that the page does not show
    fetched with the ETag it shows; without a stream, a poll every ``POLL`` seconds."""

    POLL = 3.0  # seconds: the live part's hx-trigger (templates/game.html)

    def __init__(self, phone: Browser, evening: Evening) -> None:
        super().__init__(daemon=True)
        self.phone, self.evening = phone, evening
        self.caught_up = threading.Condition()
        self.stream: http.client.HTTPConnection | None = None
        self.stopped = False

    def fetch(self, told: str | None = None) -> None:
        """The live part, unless the page shows ``told`` already (its own save's answer)."""
        with self.phone.busy:
            if told == self.phone.etag:
                return
            answer = self.phone.live()
        self.evening.note(f"live {answer.status}", answer, answer.status)
        with self.caught_up:
            self.caught_up.notify_all()

    def run(self) -> None:
        phone = self.phone
        self.stream = phone.connect(timeout=600)
        cookies = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
        self.stream.request(
            "GET",
            f"/g/{phone.key}/stream/",
            headers={"Accept": "text/event-stream", "Cookie": cookies},
        )
        response = self.stream.getresponse()
        if response.status != 200:
            response.read()
            while not self.stopped:  # no stream: the page polls
                time.sleep(self.POLL)
                try:
                    if not self.stopped:
                        self.fetch()
                except (OSError, http.client.HTTPException):
                    return  # its connection shut at the end of the evening
            return
        try:
            for line in iter(response.readline, b""):
                if line.startswith(b"data: "):
                    self.fetch(line.decode().removeprefix("data: ").strip())
        except (OSError, ValueError, http.client.HTTPException):
            pass  # shut at the end of the evening
        finally:
            self.stream.close()

    def wait_for(self, etag: str, seconds: float) -> bool:
        """Wait until the phone shows ``etag``; False if it did not within ``seconds``."""
        with self.caught_up:
            return self.caught_up.wait_for(lambda: self.phone.etag == etag, seconds)

    def stop(self) -> None:
        self.stopped = True
        if self.stream is not None and self.stream.sock is not None:
            self.stream.sock.shutdown(socket.SHUT_RDWR)  # its thread reads the end and closes it


def play_table(
    base: str, key: str, rounds: int, pace: float, evening: Evening, seed: int, start
) -> None:
    """One table's ``rounds`` rounds, one every ``pace`` seconds, once every table's phones
    have opened their sheet (``start``, a barrier)."""
    host, port = base.removeprefix("http://").split(":")
    # The phones of a table share an address (a home's), each table its own (127.0.0.2, …).
    address = f"127.0.0.{2 + seed % 250}"
    phones = [Browser(host, int(port), key, address) for _ in range(PHONES)]
    rng = random.Random(seed)
    with ThreadPoolExecutor(PHONES) as pool:
        list(pool.map(lambda phone: phone.open_sheet(), phones))  # the first visits
    followers = {phone: Follower(phone, evening) for phone in phones}
    for follower in followers.values():
        follower.start()
    start.wait()
    time.sleep(rng.uniform(0, pace))  # the tables do not start together
    for number in range(1, rounds + 1):
        began = time.monotonic()
        saver = phones[number % PHONES]
        totals = [str(rng.randint(0, 40)) for _ in PLAYERS]
        with saver.busy:  # its page shows the round once the answer is read
            saved = saver.save(totals, rng.choice(PLAYERS))
            if "HX-Retarget" in saved.headers:  # a conflict: not a saved round
                saved.status = 409
            evening.note("save", saved, 200)
            saver.read_page(saved.text)
        for phone in phones:
            if not followers[phone].wait_for(saver.etag, 10):
                with evening.lock:
                    evening.errors.append("a phone did not see the new round within 10 s")
        with evening.lock:
            evening.rounds += 1
        time.sleep(max(0.0, began + pace - time.monotonic()))
    for follower in followers.values():
        follower.stop()
    for phone in phones:
        if phone.connection is not None:
            phone.connection.close()


def play_evening(base: str, keys: list[str], rounds: int, pace: float, on_start) -> Evening:
    """Every table at once, each on its game (``keys``: their edit keys). ``on_start`` is
    called once every phone has opened its sheet, as the rounds begin."""
    evening = Evening()
    start = threading.Barrier(len(keys), action=on_start)
    tables = [
        threading.Thread(target=play_table, args=(base, key, rounds, pace, evening, n, start))
        for n, key in enumerate(keys)
    ]
    for table in tables:
        table.start()
    for table in tables:
        table.join()
    return evening
