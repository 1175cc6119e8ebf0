"""Rate limits on the writes that create things, per client (django-ratelimit).

A new game, an import, a round sent by a phone that was offline and a saved set of house rules
each create rows; without a limit one client created 2,000 games in 5 seconds (and 100 copies
of a shared set in 3). Each is counted per client address in a
fixed window, and past its rate answered 429 with the app's page (``errors.too_many_requests``)
before anything is stored. The rates (``RATE_LIMITS`` in the settings) are far above
what a table does in an evening, so a real table never meets them.

The counts live in the database (``CACHES["ratelimit"]``, ``scoring/guards/ratecache.py``, in the
table of migration 0010): the one database that every gunicorn worker and every app server
already shares, so a client cannot spread its requests over processes to pass the limit.
Each count is one atomic statement, so requests arriving at the same moment each count.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.decorators import ratelimit

NEW_GAME, IMPORT, SYNC, RULE_SET, TABLE = "new-game", "import", "sync", "rule-set", "table"


def client_ip(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or behind a proxy the header it sets
    (``RATELIMIT_CLIENT_HEADER``, e.g. HTTP_X_FORWARDED_FOR: its last address is the one the
    proxy saw). Anything that is not an address counts as REMOTE_ADDR."""
    header = getattr(settings, "RATELIMIT_CLIENT_HEADER", "")
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
    """The client as the rate limits count it (django-ratelimit's ``key="ip"``): by its
    address, an IPv6 one by its network (``RATELIMIT_IPV6_MASK``, a /64: a single phone may
    use every address of one)."""
    return group_of(client_ip(request))


def group_of(address: str) -> str:
    """``address``, or an IPv6 address's network, as ``client_group`` counts clients."""
    if ":" in address:
        mask = getattr(settings, "RATELIMIT_IPV6_MASK", 64)
    else:
        mask = getattr(settings, "RATELIMIT_IPV4_MASK", 32)
    return str(ipaddress.ip_network(f"{address}/{mask}", strict=False).network_address)


def rate(group: str, request: HttpRequest) -> str | None:
    """The rate of ``group`` (read when each request comes, so tests can change it); the new
    game form's buttons that add or move a player row, step a number or score a sample round
    create nothing and are not counted (saving house rules under a name is), nor are a saved
    set's steps and deck redrawn on its page (its Save is: a phone a set was shared with saves
    a copy each time)."""
    action, stepped = request.POST.get("action", ""), "step" in request.POST
    if group == NEW_GAME:  # as new_game_variant and house_views.builder_action branch
        saves = action == "save_rules" or (action in ("", "create") and not stepped)
    elif group == RULE_SET:  # as house_views.edit_rule_set branches
        saves = not (stepped or action == "refresh")
    else:
        saves = True
    return settings.RATE_LIMITS[group] if saves else None


def limited(group: str):
    """The view answers 429 once this client has posted ``group`` past its rate."""
    return ratelimit(group=group, key="ip", rate=rate, method="POST")
