"""Rate limits on the writes that create things, per client.

A new game, an import, a round sent by a phone that was offline, a table and a saved set of
house rules each create rows; without a limit one client could fill the database in minutes.
Each is counted per client address in a bucket of the database (``RateBucket``), the one
store every process and app server already shares, and past its rate answered 429 with the
app's page before anything is stored. The rates (``RATE_LIMITS`` in the settings) are far
above what a table does in an evening. The proxy in front limits every request per address
too (deploy/nginx.conf); these count what each kind of write creates.
"""

from __future__ import annotations

import ipaddress
import re
from functools import wraps

from django.conf import settings
from django.http import HttpRequest

from scoring.guards.errors import too_many_requests
from scoring.guards.models import RateBucket

NEW_GAME, IMPORT, SYNC, RULE_SET, TABLE = "new-game", "import", "sync", "rule-set", "table"
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def client_ip(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or behind a proxy the header it sets
    (``RATELIMIT_CLIENT_HEADER``, e.g. HTTP_X_REAL_IP; of a list, its last address is the one
    the proxy saw). Anything that is not an address counts as REMOTE_ADDR."""
    header = settings.RATELIMIT_CLIENT_HEADER
    given = request.META.get(header, "") if header else ""
    return address_of(given, request.META.get("REMOTE_ADDR", ""))


def address_of(given: str, remote: str) -> str:
    """The client's address from the proxy's header (``given``, its last address) or else
    the connection's (``remote``)."""
    for text in (given.rsplit(",", 1)[-1].strip(), remote):
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        # An IPv4 phone reaching a dual-stack socket comes as ::ffff:a.b.c.d: its own address,
        # not one of a /64 that every IPv4 phone would share.
        return str(getattr(address, "ipv4_mapped", None) or address)
    return "0.0.0.0"  # no address at all (a Unix socket): every such client shares one count


def client_group(request: HttpRequest) -> str:
    """The client as the rate limits count it: its address, an IPv6 one by its /64 (a single
    phone may use every address of one)."""
    address = client_ip(request)
    mask = 64 if ":" in address else 32
    return str(ipaddress.ip_network(f"{address}/{mask}", strict=False).network_address)


def parse_rate(rate: str) -> tuple[int, int]:
    """``"30/10m"`` → (30 requests, 600 seconds); the unit alone is one of it (``"5/s"``)."""
    found = re.fullmatch(r"(\d+)/(\d*)([smhd])", rate)
    if found is None:
        raise ValueError(f"a rate is COUNT/[N]UNIT (s, m, h or d), not {rate!r}")
    count, times, unit = found.groups()
    return int(count), int(times or 1) * UNITS[unit]


def limited(group: str):
    """The view answers 429 once this client has posted ``group`` past its rate (read at each
    request, so that tests can change it). Every POST to the view counts: a button that
    creates nothing has an address of its own, not limited."""

    def decorator(view):
        @wraps(view)
        def checked(request: HttpRequest, *args, **kwargs):
            if request.method == "POST":
                capacity, seconds = parse_rate(settings.RATE_LIMITS[group])
                if not RateBucket.take(f"{group}:{client_group(request)}", capacity, seconds):
                    return too_many_requests(request)
            return view(request, *args, **kwargs)

        return checked

    return decorator
