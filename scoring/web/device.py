"""What this device keeps in its session (a signed cookie), newest first: the edit keys of its
games and tables, the share keys of the games and the read keys of the tables it follows by
their read-only link, the keys of its saved house rules, and the names it has typed.

Earlier versions kept the list in a plain cookie (``tamalou_games``), which anybody able to
set a cookie for the site could fill with keys of their choice: it is no longer read.
"""

from __future__ import annotations

from django.http import HttpRequest

from scoring.store.models import Game, Table

# How many keys each list keeps, newest first. The session is a signed cookie, which a browser
# keeps only up to 4,096 bytes: with every list full it is some 3.6 KB (tests/web/test_home.py).
MAX_GAMES = 50
MAX_FOLLOWED = 30
MAX_RULE_SETS = 20
MAX_TABLES = 10


def device_games(request: HttpRequest) -> list[str]:
    return list(request.session.get("games", []))


def known_names(request: HttpRequest, most: int = 40) -> list[str]:
    """The names of the players of this device's tables and games, offered as a new game's
    names are typed: its tables' first, then its most recently changed games', each name
    once."""
    games = Game.objects.filter(edit_key__in=device_games(request)).order_by("-updated_at")
    tables = Table.objects.filter(edit_key__in=device_tables(request))
    names: dict[str, None] = {}
    for players in [
        *tables.values_list("players", flat=True),
        *games.values_list("players", flat=True),
    ]:
        names.update(dict.fromkeys(players))
    return list(names)[:most]


def put_first(request: HttpRequest, name: str, kept: list[str], key: str, most: int) -> None:
    """Put ``key`` first in the device's list ``name`` (now ``kept``), if it is not already."""
    if kept[:1] != [key]:
        request.session[name] = [key, *(k for k in kept if k != key)][:most]


def remember(request: HttpRequest, edit_key: str) -> None:
    """Put the game first in this device's list, if it is not already."""
    put_first(request, "games", device_games(request), edit_key, MAX_GAMES)


def device_rule_sets(request: HttpRequest) -> list[str]:
    return list(request.session.get("rule_sets", []))


def remember_rule_set(request: HttpRequest, key: str, *, own: bool = False) -> None:
    """Put the house rules first in this device's list, if they are not already; ``own``: this
    phone saved them, and only it may change them (a shared link only reads them)."""
    put_first(request, "rule_sets", device_rule_sets(request), key, MAX_RULE_SETS)
    if own:
        owned = list(request.session.get("own_rule_sets", []))
        put_first(request, "own_rule_sets", owned, key, MAX_RULE_SETS)


def owns_rule_set(request: HttpRequest, key: str) -> bool:
    return key in request.session.get("own_rule_sets", [])


def forget(request: HttpRequest, edit_key: str) -> None:
    """Take the game off this device's list (and so its statistics); the game stays."""
    request.session["games"] = [k for k in device_games(request) if k != edit_key]


def followed_games(request: HttpRequest) -> list[str]:
    """The share keys of the games this device opened by their read-only link."""
    return list(request.session.get("followed", []))


def follow(request: HttpRequest, share_key: str) -> None:
    """Put the game this device opened by its read-only link first in its followed list."""
    put_first(request, "followed", followed_games(request), share_key, MAX_FOLLOWED)


def unfollow(request: HttpRequest, share_key: str) -> None:
    request.session["followed"] = [k for k in followed_games(request) if k != share_key]


# --- statistics ------------------------------------------------------------------------------


# --- tables ---------------------------------------------------------------------------------


def device_tables(request: HttpRequest) -> list[str]:
    """The edit keys of the tables this device opened by their edit link."""
    return list(request.session.get("tables", []))


def followed_tables(request: HttpRequest) -> list[str]:
    """The read keys of the tables this device opened by their read-only link."""
    return list(request.session.get("followed_tables", []))


def remember_table(request: HttpRequest, edit_key: str) -> None:
    put_first(request, "tables", device_tables(request), edit_key, MAX_TABLES)


def follow_table(request: HttpRequest, read_key: str) -> None:
    put_first(request, "followed_tables", followed_tables(request), read_key, MAX_TABLES)


def forget_table(request: HttpRequest, table: Table) -> None:
    """Take the table off this device's lists (both links); the table stays."""
    request.session["tables"] = [k for k in device_tables(request) if k != table.edit_key]
    request.session["followed_tables"] = [
        k for k in followed_tables(request) if k != table.read_key
    ]


def phone_tables(request: HttpRequest) -> tuple[list[Table], list[Table]]:
    """This device's tables by their edit link, and those it follows by their read-only link
    only, most recently changed first."""
    own = list(Table.objects.filter(edit_key__in=device_tables(request)))
    read = Table.objects.filter(read_key__in=followed_tables(request))
    return own, list(read.exclude(pk__in=[table.pk for table in own]))
