"""Generated odd and hostile requests for the fuzz tests (hypothesis): field values, encodings
and bodies written by hand, and a snapshot of every stored row to prove that nothing changed."""

from __future__ import annotations

from urllib.parse import quote_from_bytes

from django.test import Client
from hypothesis import settings
from hypothesis import strategies as st

from scoring.referee.cards import full_deck
from scoring.store.models import Game, Round
from tests.web.helpers import HTMX

FUZZ = settings()  # the profile's (tests/conftest.py)


# Valid names that are odd to show: markup, quotes, emoji, digits of other scripts, 40 letters.
NAMES = ["Léa", "Marc", "Nina", "<b>Omar</b>", "Zoé 😀", "O'Brien", 'Ana "A"', "١٢", "L" * 40]


CARDS = [card.code for card in full_deck(jokers=1)]


HOSTILE = [
    "",
    " ",
    "\t\r\n",
    "\x00",
    "a\x00b",
    "KH\x00",
    "\x01\x1f\x7f\x85",
    "\ud800",
    "x\udfffy",
    "²",
    "١٢",
    "１２",
    "+",
    "-",
    "−",
    "+-3",
    "--3",
    "1e3",
    "nan",
    "NaN",
    "inf",
    "-Infinity",
    "-0",
    "0",
    "00",
    "0.5",
    "4,5",
    "-3.25",
    "1.0000001",
    "9" * 20,
    "-999999999999",
    str(10**9),
    str(2**63),
    "-1",
    "<b>x</b>",
    "<script>alert(1)</script>",
    "\"'><&",
    "{{ form }}",
    "%s %(x)s {0}",
    "😀",
    "\u200f",
    "\u202e",
    "\ufeff",
    "\u0301",
    "a" * 300,
    "x" * 5000,
    " Léa ",
    "LÉA",
    "Le\u0301a",
    "0:",
    ":",
    "pc:",
    "pc:²",
    "pc:KH",
    "0:KH",
    "0:²",
    "²:KH",
    "-1:KH",
    "99:KH",
    "0:-1",
    "0:99999999999999999999",
    "pc:0",
    "remove--1",
    "remove-²",
    "up-0",
    "up-١",
    "deal-99",
    "remove-99999999999999999999",
    "True",
    "true",
    "on",
    "null",
]


HOW = st.sampled_from(
    ["multipart", "urlencoded", "utf-7", "latin-1", "utf-16-le", "urlencoded-latin-1", "raw"]
)


BOUNDARY = "fuzzboundary7e3a"


RAW_TYPES = [
    "application/x-www-form-urlencoded",
    "multipart/form-data",
    f"multipart/form-data; boundary={BOUNDARY}",
    "application/json",
    "text/plain; charset=nonsense",
    "",
]


CLIENTS = iter(range(1, 65536))


def texts(*plausible: str) -> st.SearchStrategy[str]:
    """Plausible values of a field mixed with hostile ones."""
    choices = [*plausible, *NAMES, *CARDS[:8]]
    return st.one_of(
        st.sampled_from(choices),
        st.sampled_from(HOSTILE),
        st.text(max_size=12),
        st.integers(-(10**13), 10**13).map(str),
        st.lists(st.sampled_from([*CARDS, *HOSTILE[:12]]), max_size=8).map(" ".join),
    )


def sending() -> st.SearchStrategy[dict]:
    """How a request is sent: encoding, htmx or not, and a raw body for ``raw``."""
    return st.fixed_dictionaries(
        {
            "how": HOW,
            "htmx": st.booleans(),
            "raw_body": st.one_of(
                st.binary(max_size=64),
                st.sampled_from([b"\xff\xfe=\xc0\x80", b"total_0=%ff%fe&cards_0=%ed%a0%80"]),
            ),
            "content_type": st.sampled_from(RAW_TYPES),
        }
    )


def encode(text: str, codec: str) -> bytes:
    return text.encode(codec, "surrogatepass" if codec.startswith("utf") else "replace")


def multipart(
    pairs: list[tuple[str, str]], files: list[tuple[str, str, bytes]] = (), codec: str = "utf-8"
) -> bytes:
    """A multipart body written by hand: names and values may hold what UTF-8 cannot encode
    (as invalid UTF-8), or be in another charset (UTF-7 encodes lone surrogates)."""
    lines = []
    for key, value in pairs:
        lines += [b"--" + BOUNDARY.encode()]
        disposition = b'Content-Disposition: form-data; name="' + encode(key, "utf-8") + b'"'
        lines += [disposition, b"", encode(value, codec)]
    for key, filename, content in files:
        lines += [b"--" + BOUNDARY.encode()]
        disposition = f'Content-Disposition: form-data; name="{key}"; filename="{filename}"'
        lines += [encode(disposition, "utf-8"), b"Content-Type: application/json", b"", content]
    lines += [b"--" + BOUNDARY.encode() + b"--", b""]
    return b"\r\n".join(lines)


def send(client: Client, url: str, pairs, how: str, raw_body: bytes = b"", **extra):
    """Post ``pairs`` as ``how``: multipart (in UTF-8 or the charset named), urlencoded (in
    UTF-8, or Latin-1, which Django refuses), or ``raw_body`` under an odd content type."""
    method = extra.pop("method", "POST")
    raw_type = extra.pop("content_type", RAW_TYPES[0])
    if how.startswith("urlencoded"):
        codec = how.partition("-")[2] or "utf-8"
        body = "&".join(
            f"{quote_from_bytes(encode(k, codec))}={quote_from_bytes(encode(v, codec))}"
            for k, v in pairs
        ).encode()
        content_type = "application/x-www-form-urlencoded"
        if codec != "utf-8":
            content_type += f"; charset={codec}"
    elif how == "raw":
        body, content_type = raw_body, raw_type
    else:
        codec = "utf-8" if how == "multipart" else how
        body = multipart(pairs, codec=codec)
        content_type = f"multipart/form-data; boundary={BOUNDARY}"
        if codec != "utf-8":
            content_type += f"; charset={codec}"
    return client.generic(method, url, body, content_type=content_type, **extra)


def post(client: Client, url: str, pairs, how: dict, method: str = "POST"):
    extra = {"method": method, "content_type": how["content_type"]}
    if how["htmx"]:
        extra |= HTMX
    return send(client, url, pairs, how["how"], how["raw_body"], **extra)


def query_string(pairs) -> str:
    return "&".join(
        f"{quote_from_bytes(encode(k, 'utf-8'))}={quote_from_bytes(encode(v, 'utf-8'))}"
        for k, v in pairs
    )


def snapshot() -> tuple[list, list]:
    """Every Game and Round row, every field."""
    games = [
        [getattr(g, f.attname) for f in Game._meta.fields] for g in Game.objects.order_by("pk")
    ]
    rounds = [
        [getattr(r, f.attname) for f in Round._meta.fields] for r in Round.objects.order_by("pk")
    ]
    return games, rounds


def fresh_client() -> Client:
    """A new phone, from an address of its own (the rate limits count per address)."""
    client = Client(raise_request_exception=False, REMOTE_ADDR=f"2001:db8:{next(CLIENTS):x}::1")
    client.cookies["django_language"] = "en"
    return client
