"""The score sheet page: what it shows of a game, and the page kept ready for every phone.

``sheet_context`` gathers what the page shows (standings, the history of rounds, whose
deal it is, the round form). ``sheet_page`` serves the page: rendered once per state of
the game and per kind of request (see ``page_key``), then given each request's own CSRF
token, which is all that differs between two phones looking at the same sheet.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlencode

import segno
from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import CSRF_TOKEN_LENGTH, get_token
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, ngettext

from scoring.caching import cache_key
from scoring.chart import score_chart
from scoring.device import remember
from scoring.display import points
from scoring.forms import RoundForm
from scoring.match import CountsForm, clock_of, match_context
from scoring.models import Game
from scoring.precompressed import PrecompressedPage
from scoring.referee import engine, story

# Stands for the CSRF token in a page rendered once and served to everyone.
CSRF_PLACEHOLDER = "csrf-token-of-this-request-4f1c9a"
INDENTATION = re.compile(r"\s*\n\s*")  # no <pre> or <textarea> on the sheet
# The newest rounds the history shows open; older ones are folded to their header line
# (their Edit button on it), so that a long game stays a short page.
OPEN_ROUNDS = 3


def game_etag(game: Game, link: str) -> str:
    """Changes with every saved change to the game, and with how it is shown."""
    return '"' + cache_key("etag", game.version, get_language(), link)[5:25] + '"'


def page_template(game: Game) -> str:
    """A Tamalou game's score sheet, or a Tambouille match sheet."""
    return "match.html" if game.is_match else "game.html"


def round_form_class(game: Game) -> type[RoundForm | CountsForm]:
    """The form of a Tamalou round, or of a Tambouille turn round (the counts of cards)."""
    return CountsForm if game.is_match else RoundForm


def new_round_form(game: Game, data=None) -> RoundForm | CountsForm | None:
    """The form for the next round (bound to posted ``data``), or None once the game is over."""
    sheet = game.score()
    if sheet.finished:
        return None
    return round_form_class(game)(data, game=game, number=len(sheet.rounds) + 1)


def history(
    game: Game, sheet: engine.ScoreSheet, only_last: bool = False, fold: bool = True
) -> list[dict]:
    """Each round for the history, newest first (or only the newest). With ``fold``, all but
    the newest ``OPEN_ROUNDS`` are ``folded``: the page carries only their header line, and
    a tap on it fetches the rest (the page with ``?rounds=all``), so that a long game's first
    load stays light."""
    deals = engine.deals(sheet, game.first_dealer)
    rows = []
    rounds = game.live_rounds()
    first = len(rounds) - 1 if only_last else 0
    stored = zip(
        rounds[first:],
        game.entries(rounds[first:], first + 1),
        sheet.rounds[first:],
        deals[first:],
        strict=False,
    )
    for entry, played, result, deal in stored:
        rows.append(
            {
                "entry": entry,
                "result": result,
                "round": played,
                "dealer": deal[0],
                "folded": fold and result.number <= len(rounds) - OPEN_ROUNDS,
                "rows": [
                    {
                        "name": p,
                        "cards": list(played.hands[p])
                        if isinstance(played.hands[p], tuple)
                        else None,
                        "total": result.hand_totals[p],
                        "score": result.scores[p],
                        "after": result.totals[p],
                    }
                    for p in result.scores
                ],
            }
        )
    return rows[::-1]


def round_summary(request: HttpRequest, game: Game, sheet: engine.ScoreSheet, number: int) -> str:
    """Stored round ``number`` drawn as the sheet's history draws it, without its buttons (to
    set beside a round entered offline for the same number)."""
    found = next(h for h in history(game, sheet, fold=False) if h["result"].number == number)
    context = {"h": found, "game": game, "variant": game.rules(), "read_only": True}
    return render_to_string("game.html#round_entry", context, request)


def standings(game: Game, sheet: engine.ScoreSheet) -> list[dict]:
    """The players by running total, with what to say of each."""
    low = min((sheet.totals[p] for p in sheet.in_game), default=None)
    last = sheet.rounds[-1] if sheet.rounds else None
    order = sorted(
        game.players,
        key=lambda p: (p not in sheet.in_game, sheet.totals[p], game.players.index(p)),
    )
    return [
        {
            "rank": 1 + sum(1 for q in game.players if sheet.totals[q] < sheet.totals[p]),
            "name": p,
            "total": sheet.totals[p],
            "out": p in sheet.eliminated,
            "leader": bool(sheet.rounds)
            and not sheet.finished
            and p in sheet.in_game
            and sheet.totals[p] == low,
            "winner": p in sheet.winners,
            "loser": p in sheet.losers,
            "adjusted": last is not None and p in last.adjusted,
        }
        for p in order
    ]


def chart_summary(sheet: engine.ScoreSheet) -> str:
    """What the chart shows, said in words for a screen reader: each player's last total."""
    return ", ".join(f"{p} {points(sheet.totals[p])}" for p in sheet.players)


def description(game: Game, sheet: engine.ScoreSheet, rows: list[dict]) -> str:
    """What a link to the sheet says of the game in a chat app's preview and to search
    engines: the variant, the players, how far it went and who leads (or won)."""
    said = [gettext(game.rules().name), ", ".join(game.players)]
    n = len(sheet.rounds)
    if sheet.finished:
        names = ", ".join(sheet.winners)
        won = ngettext("Winner: %(names)s", "Winners: %(names)s", len(sheet.winners))
        said += [gettext("Match over") if game.is_match else gettext("Game over")]
        said += [won % {"names": names}]
    elif n:
        if game.is_match:
            played = ngettext("%(n)s turn round played", "%(n)s turn rounds played", n)
        else:
            played = ngettext("%(n)s round played", "%(n)s rounds played", n)
        leaders = [row for row in rows if row["leader"]]
        lead = ngettext(
            "Leader: %(names)s (%(total)s)", "Leaders: %(names)s (%(total)s)", len(leaders)
        )
        names = ", ".join(row["name"] for row in leaders)
        said += [played % {"n": n}, lead % {"names": names, "total": points(leaders[0]["total"])}]
    else:
        said += [gettext("No turn round yet") if game.is_match else gettext("No round yet")]
    return " · ".join(said)


def sheet_context(
    request: HttpRequest, game: Game, form: RoundForm | None = None, link: str = "edit"
) -> dict:
    """What the sheet shows, reached by its edit ``link`` or its (read-only) share link."""
    read_only = link == "share"
    sheet = game.score()
    variant = game.rules()
    undo = None if read_only else request.session.get("undo")
    key = game.share_key if read_only else game.edit_key
    share_url = request.build_absolute_uri(reverse("share", args=[game.share_key]))
    rows = standings(game, sheet)
    shown = {
        "read_only": read_only,
        "undo": undo if undo and undo.get("game") == game.edit_key else None,
        "game": game,
        "sheet": sheet,
        "variant": variant,
        "form": None if read_only else form,
        "etag": game_etag(game, link),
        "live_url": reverse(f"{link}_live", args=[key]),
        "export_url": reverse(f"{link}_export", args=[key]),
        "rules_url": rules_url(game, link),
        "share_url": share_url,
        "share_qr": None if read_only else qr_svg(share_url),
        "standings": rows,
        "description": description(game, sheet, rows),
        "next_game_url": next_game_url(game, link),
    }
    if game.is_match:
        return shown | match_context(request, game, form, link, clock_of(game))
    deals = engine.deals(sheet, game.first_dealer)
    return shown | {
        "history": lambda: history(game, sheet, fold=request.GET.get("rounds") != "all"),
        "next_deal": deals[len(sheet.rounds)] if not sheet.finished else None,
        "rounds_to_play": (variant.rounds - len(sheet.rounds)) if variant.rounds else None,
        "open_ended": not sheet.finished and variant.rounds is None,
        "chart": score_chart(sheet, variant.landmarks()) if sheet.rounds else None,
        "chart_summary": chart_summary(sheet),
        "moments": story.moments(sheet, game.entries()) if sheet.finished else None,
        "csv_url": reverse(f"{link}_csv", args=[key]),
    }


def next_game_url(game: Game, link: str) -> str | None:
    """The rematch made from this game, by the same kind of link (a share key leads only to
    the rematch's read-only page), or None."""
    if game.next_game_id is None:
        return None
    following = game.next_game
    return reverse(link, args=[following.edit_key if link == "edit" else following.share_key])


def rules_url(game: Game, link: str) -> str:
    """The variant's rules page with this game's house settings (card values change), and a
    way back to the sheet by the link it was reached with."""
    back = reverse(link, args=[game.edit_key if link == "edit" else game.share_key])
    query = urlencode([*sorted(game.settings.items()), ("back", back)])
    if game.is_match:
        return reverse("rules_tambouille") + f"?{query}"
    return reverse("rules_variant", args=[game.variant]) + f"?{query}"


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """The share link as an inline SVG QR code, drawn on the server (no image, no script)."""
    code = segno.make(url, error="m")
    return mark_safe(code.svg_inline(dark="#1c2430", light="#ffffff", border=2, omitsize=True))


def page_key(request: HttpRequest, version: str, link: str) -> str:
    """Everything a cached sheet page depends on besides the CSRF token: the game as stored,
    the link it was reached by, the language, the scheme and host (the share link is
    absolute) and the full path (the language switch comes back to it)."""
    where = (request.scheme, request.get_host(), request.get_full_path())
    return cache_key("page", version, link, get_language(), *where)


def sheet_page(request: HttpRequest, link: str, key: str) -> HttpResponse:
    """The whole sheet page. A request with something of its own to show (a message, an undo
    banner) is rendered in full; others get the page of this state of the game, which costs
    one read of the game's version while it is cached."""
    found = Game.objects.version_by_key(link, key)
    if found is None:
        raise Http404
    pk, edit_key, state = found
    read_only = link == "share"
    if not read_only:
        remember(request, edit_key)
    undo = None
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        undo = request.session.get("undo")
    personal = len(messages.get_messages(request)) or (
        not read_only and undo and undo.get("game") == edit_key
    )

    def context() -> dict:
        game = Game.objects.get(pk=pk)
        form = None if read_only else new_round_form(game)
        return sheet_context(request, game, form, link)

    if personal:
        shown = context()
        return render(request, page_template(shown["game"]), shown)
    cached = page_key(request, Game.version_of(edit_key, state), link)
    page = cache.get(cached)
    if page is None:
        shown = context()
        html = render_to_string(
            page_template(shown["game"]), {**shown, "csrf_token": CSRF_PLACEHOLDER}, request
        )
        page = PrecompressedPage.make(
            INDENTATION.sub("\n", html).encode(), CSRF_PLACEHOLDER.encode(), CSRF_TOKEN_LENGTH
        )
        cache.set(cached, page, 86400)
    token = get_token(request).encode()
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(page.gzip(token))
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(page.plain(token))
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def find_game(link: str, key: str) -> Game:
    """The game reached by an edit (``link="edit"``) or share key."""
    column = {"edit": "edit_key", "share": "share_key"}[link]
    return get_object_or_404(Game, **{column: key})
