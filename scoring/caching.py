"""The one way this app names what it caches.

A cache entry is a promise that two requests want the same bytes, so every key is
built here, from everything its output depends on and the version of the code
that made it: a deploy never serves what the old code rendered, even from a cache
shared by several servers.

What is cached here: the whole sheet page of each state of a game as each kind of
request sees it (see ``scoring.pages.sheet``). The referee's score sheet of each
state is kept in the database, under a key of its own (``Game.sheet_key``).
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = ("scoring", "tamalou_ref", "templates", "static", "locale")
CODE_SUFFIXES = {".py", ".html", ".css", ".js", ".po"}


@cache
def code_version() -> str:
    """A digest of the code, templates, static files and translations this server runs."""
    digest = hashlib.sha256()
    for folder in CODE:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in CODE_SUFFIXES and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_key(kind: str, *parts: object) -> str:
    """The key of a cached ``kind`` of output given everything it depends on."""
    seed = "\x1f".join(str(part) for part in (code_version(), *parts))
    return f"{kind}:{hashlib.sha256(seed.encode()).hexdigest()}"
