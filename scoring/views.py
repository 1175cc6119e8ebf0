"""Pages of the score sheet. Each view looks up, validates with a form, asks the engine,
and renders or redirects; htmx requests get the named partial of the same template."""

from __future__ import annotations

import hashlib
import re
from contextlib import contextmanager
from functools import lru_cache, wraps

import segno
from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db import transaction
from django.db.models import Max
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseForbidden,
    HttpResponseNotModified,
)
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, retarget

from scoring.device import device_games, remember
from scoring.display import say
from scoring.forms import PICKER_TARGET_PENALTY, NewGameForm, RoundForm, cards_of
from scoring.models import Game, Round
from scoring.precompressed import PrecompressedPage
from scoring.referee import engine, gamefile
from scoring.referee.variants import VARIANTS


def game_for(key: str) -> Game:
    return get_object_or_404(Game.objects, edit_key=key)


# --- home, new game, import ------------------------------------------------------------


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers (and the trivial view the benchmark compares the sheet with)."""
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    keys = device_games(request)
    games = Game.objects.filter(edit_key__in=keys)
    summaries = []
    for game in games:
        sheet = game.score()
        leader = min(sheet.in_game or sheet.players, key=lambda p: sheet.totals[p])
        summaries.append(
            {
                "game": game,
                "sheet": sheet,
                "variant": VARIANTS[game.variant],
                "leader": leader,
                "leader_total": sheet.totals[leader],
            }
        )
    summaries.sort(key=lambda s: (s["sheet"].finished, -s["game"].updated_at.timestamp()))
    return render(request, "home.html", {"summaries": summaries, "variants": VARIANTS.values()})


@require_GET
def new_game(request: HttpRequest) -> HttpResponse:
    return render(request, "new_game.html", {"variants": VARIANTS.values()})


def _apply_row_action(data, rows: int, action: str) -> int:
    """Add, remove or move up a player row; returns the new number of rows."""
    names = [data.get(f"name_{row}", "") for row in range(rows)]
    dealer = int(data.get("dealer") or 0) if str(data.get("dealer") or "0").isdigit() else 0
    verb, _, index = action.partition("-")
    i = int(index) if index.isdigit() else -1
    if verb == "add" and rows < engine.MAX_PLAYERS:
        names.append("")
    elif verb == "remove" and 0 <= i < rows and rows > engine.MIN_PLAYERS:
        names.pop(i)
        dealer = dealer - 1 if dealer > i else (0 if dealer == i else dealer)
    elif verb == "up" and 0 < i < rows:
        names[i - 1], names[i] = names[i], names[i - 1]
        dealer = {i: i - 1, i - 1: i}.get(dealer, dealer)
    elif verb == "deal" and 0 <= i < rows:
        dealer = i
    for row in range(max(rows, len(names)) + 1):
        data.pop(f"name_{row}", None)
    for row, name in enumerate(names):
        data[f"name_{row}"] = name
    data["dealer"] = str(dealer)
    return len(names)


@require_http_methods(["GET", "POST"])
def new_game_variant(request: HttpRequest, variant: str) -> HttpResponse:
    if variant not in VARIANTS:
        raise Http404
    if request.method == "GET":
        form = NewGameForm(variant=variant, rows=4)
        return render(
            request, "new_game_variant.html", {"form": form, "variant": VARIANTS[variant]}
        )

    data = request.POST.copy()
    rows = sum(1 for key in data if key.startswith("name_"))
    rows = min(max(rows, engine.MIN_PLAYERS), engine.MAX_PLAYERS)
    action = data.get("action", "")
    if action and action != "create":
        rows = _apply_row_action(data, rows, action)
        form = NewGameForm(variant=variant, rows=rows, initial=data.dict())
        context = {"form": form, "variant": VARIANTS[variant]}
        template = "new_game_variant.html#players" if request.htmx else "new_game_variant.html"
        return render(request, template, context)

    form = NewGameForm(data, variant=variant, rows=rows)
    if not form.is_valid():
        return render(
            request, "new_game_variant.html", {"form": form, "variant": VARIANTS[variant]}
        )
    game = Game.objects.create(
        variant=variant,
        players=list(form.players),
        settings=form.settings,
        first_dealer=form.first_dealer,
    )
    remember(request, game.edit_key)
    return redirect("game", key=game.edit_key)


@require_http_methods(["GET", "POST"])
def import_game(request: HttpRequest) -> HttpResponse:
    error = None
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is None:
            error = _("Choose a game file to import.")
        else:
            try:
                game = store_game_file(upload.read(gamefile.MAX_FILE_BYTES + 1))
            except engine.GameError as problem:
                error = say(problem)
            else:
                remember(request, game.edit_key)
                return redirect("game", key=game.edit_key)
    return render(request, "import_game.html", {"error": error}, status=400 if error else 200)


def store_game_file(data: bytes | str) -> Game:
    """Check a game file with the engine and store it whole, or refuse it whole."""
    parsed = gamefile.read_game(data)
    engine.score_game(parsed)
    return Game.objects.store(parsed)


# --- the sheet and its rounds ------------------------------------------------------------


def players_in_round(game: Game, sheet: engine.ScoreSheet, number: int) -> list[str]:
    """Who plays round ``number``: everyone not knocked out in an earlier round."""
    out = {p for result in sheet.rounds[: number - 1] for p in result.knocked_out}
    return [p for p in game.players if p not in out]


def game_etag(game: Game, read_only: bool) -> str:
    """Changes with every saved change to the game and with the language it is shown in."""
    seed = f"{game.version}|{get_language()}|{read_only}"
    return '"' + hashlib.sha256(seed.encode()).hexdigest()[:20] + '"'


def sheet_context(
    request: HttpRequest,
    game: Game,
    sheet: engine.ScoreSheet,
    form: RoundForm | None = None,
    read_only: bool = False,
) -> dict:
    deals = engine.deals(sheet, game.first_dealer)
    standings = sorted(
        game.players,
        key=lambda p: (p not in sheet.in_game, sheet.totals[p], game.players.index(p)),
    )
    low = min((sheet.totals[p] for p in sheet.in_game), default=None)

    def history() -> list[dict]:
        """Each round for the history, newest first; only built when the cached history
        fragment of this version is missing."""
        rows = []
        for entry, engine_round, result, deal in zip(
            game.live_rounds(), game.engine_rounds(), sheet.rounds, deals, strict=False
        ):
            shown = f"{entry.pk}|{entry.updated_at}|{entry.edits}|{deal[0]}|{result!r}"
            rows.append(
                {
                    # Everything this round's entry shows: its cache key. Adding a round
                    # leaves the others' keys as they were; correcting one changes the
                    # totals, so the keys of the rounds after it too.
                    "key": hashlib.sha256(shown.encode()).hexdigest()[:32],
                    "entry": entry,
                    "result": result,
                    "round": engine_round,
                    "dealer": deal[0],
                    "rows": [
                        {
                            "name": p,
                            "cards": list(engine_round.hands[p])
                            if isinstance(engine_round.hands[p], tuple)
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

    variant = VARIANTS[game.variant](**game.effective_settings())
    undo = None if read_only else request.session.get("undo")
    key = game.share_key if read_only else game.edit_key
    prefix = "shared" if read_only else "game"
    share_url = request.build_absolute_uri(reverse("shared", args=[game.share_key]))
    return {
        "read_only": read_only,
        "undo": undo if undo and undo.get("game") == game.edit_key else None,
        "game": game,
        "sheet": sheet,
        "variant": variant,
        "form": None if read_only else form,
        "etag": game_etag(game, read_only),
        "live_url": reverse(f"{prefix}_live", args=[key]),
        "export_url": reverse(f"{prefix}_export", args=[key]),
        "share_url": share_url,
        "share_qr": None if read_only else qr_svg(share_url),
        "standings": [
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
                "reset": any(p in r.adjusted for r in sheet.rounds),
            }
            for p in standings
        ],
        "history": history,
        "next_deal": deals[len(sheet.rounds)] if not sheet.finished else None,
        "rounds_to_play": (variant.rounds - len(sheet.rounds)) if variant.rounds else None,
        "open_ended": not sheet.finished and variant.rounds is None,
    }


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """The share link as an inline SVG QR code, drawn on the server (no image, no script)."""
    code = segno.make(url, error="m")
    return mark_safe(code.svg_inline(dark="#1c2430", light="#ffffff", border=2, omitsize=True))


def new_round_form(game: Game, sheet: engine.ScoreSheet, data=None, draft=None):
    """The form for the next round: empty, bound to posted ``data``, or showing a ``draft``
    (the values after a picker tap, without validation messages)."""
    if sheet.finished:
        return None
    number = len(sheet.rounds) + 1
    initial = {"number": number}
    if draft is not None:
        initial = {**draft.dict(), "emptied": draft.getlist("emptied")}
    return RoundForm(
        data,
        game=game,
        players_in_round=players_in_round(game, sheet, number),
        number=number,
        initial=initial,
    )


def apply_picker_action(data) -> bool:
    """A tap in the card picker: add a card, remove one, or choose whose hand to fill.
    Returns whether the request was such a tap (and not a save)."""
    if "pick" in data:
        target, _, code = data["pick"].partition(":")
        field = "penalty_cards" if target == PICKER_TARGET_PENALTY else f"hand_{target}"
        codes = [card.code for card in cards_of(data.get(field, ""))]
        data[field] = " ".join([*codes, code])
        data["target"] = target
        return True
    if "unpick" in data:
        target, _, index = data["unpick"].partition(":")
        field = "penalty_cards" if target == PICKER_TARGET_PENALTY else f"hand_{target}"
        codes = [card.code for card in cards_of(data.get(field, ""))]
        if index.isdigit() and int(index) < len(codes):
            codes.pop(int(index))
        data[field] = " ".join(codes)
        data["target"] = target
        return True
    if "choose" in data:
        data["target"] = data["choose"]
        return True
    if "add_penalty" in data:
        rows = sum(1 for key in data if key.startswith("penalty_player_"))
        data[f"penalty_player_{rows}"] = ""
        return True
    return False


# --- every write to a game goes through here -----------------------------------------------


class Conflict(Exception):
    """The game changed since the page was drawn: another phone saved first."""


@contextmanager
def locked(game: Game):
    """A transaction holding the game's row lock: writes to one game happen one at a time
    (PostgreSQL: SELECT … FOR UPDATE; SQLite: its write lock, taken at BEGIN IMMEDIATE).
    Yields the rounds as stored now, which the change is checked against."""
    with transaction.atomic():
        Game.objects.select_for_update().filter(pk=game.pk).first()
        game.refresh_from_db()
        yield list(Round.objects.filter(game=game).live().order_by("position"))
        game.changed()


def check_whole_game(
    game: Game,
    rounds: list[Round],
    extra: engine.RoundEntry | None = None,
    replacing: Round | None = None,
):
    """Score the game as it would be stored: ``rounds`` with ``extra`` in place of
    ``replacing``, or after them. A GameError refuses the change."""
    entries = [extra if r == replacing else r.as_engine_round(n) for n, r in enumerate(rounds, 1)]
    if extra is not None and replacing is None:
        entries.append(extra)
    return engine.score_game(game.as_engine_game(entries))


def unchanged(seen: list[Round], now: list[Round]) -> bool:
    """Whether the rounds read under the lock are those the form was checked against."""
    return [(r.pk, r.updated_at) for r in seen] == [(r.pk, r.updated_at) for r in now]


def save_new_round(game: Game, form: RoundForm) -> None:
    checked = game.live_rounds()  # what the form scored the new round with
    with locked(game) as rounds:
        if len(rounds) != form.round_number - 1:
            raise Conflict
        if not unchanged(checked, rounds):
            check_whole_game(game, rounds, form.round)
        last = Round.objects.filter(game=game).aggregate(last=Max("position"))["last"] or 0
        Round.objects.create(game=game, position=last + 1, data=gamefile.round_to_json(form.round))


# --- the sheet -----------------------------------------------------------------------------


# Stands for the CSRF token in a page rendered once and served to everyone.
CSRF_PLACEHOLDER = "csrf-token-of-this-request-4f1c9a"
INDENTATION = re.compile(r"\s*\n\s*")  # no <pre> or <textarea> on the sheet


def sheet_page(request: HttpRequest, link: str, key: str) -> HttpResponse:
    """The whole sheet page, rendered once per version of the game (and language, host and
    link), then given each request's own CSRF token. A request with something of its own to
    show (a message, an undo banner) is rendered in full. While the page is cached, only the
    game's keys and state are read (the hot path of every phone at the table)."""
    found = Game.objects.state_of(link, key)
    if found is None:
        raise Http404
    pk, edit_key, state = found
    read_only = link == "share"
    if not read_only:
        remember(request, edit_key)

    def context() -> dict:
        full = Game.objects.get(pk=pk)
        sheet = full.score()
        form = None if read_only else new_round_form(full, sheet)
        return sheet_context(request, full, sheet, form, read_only=read_only)

    undo = None
    if settings.SESSION_COOKIE_NAME in request.COOKIES:  # only a deletion leaves a session
        undo = request.session.get("undo")
    personal = len(messages.get_messages(request)) or (
        not read_only and undo and undo.get("game") == edit_key
    )
    if personal:
        return render(request, "game.html", context())
    version = Game.version_of(edit_key, state)
    key = f"page:{version}:{get_language()}:{read_only}:{request.get_host()}:{request.path}"
    page = cache.get(key)
    if page is None:
        html = render_to_string("game.html", {**context(), "csrf_token": CSRF_PLACEHOLDER}, request)
        page = PrecompressedPage.make(
            INDENTATION.sub("\n", html).encode(), CSRF_PLACEHOLDER.encode()
        )
        cache.set(key, page, 86400)
    token = get_token(request).encode()
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(page.gzip(token))
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(page.plain(token))
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


@require_http_methods(["GET", "POST"])
def game_sheet(request: HttpRequest, key: str) -> HttpResponse:
    if request.method == "GET":
        return sheet_page(request, "edit", key)
    game = game_for(key)
    remember(request, game.edit_key)
    sheet = game.score()

    if sheet.finished:
        messages.error(request, _("The game is over: no more rounds can be added."))
        return redirect("game", key=key)
    data = request.POST.copy()
    if apply_picker_action(data):
        context = sheet_context(request, game, sheet, new_round_form(game, sheet, draft=data))
        template = "game.html#round_form" if request.htmx else "game.html"
        return render(request, template, context)

    form = new_round_form(game, sheet, data)
    conflict = form.is_valid() and form.cleaned_data["number"] != form.round_number
    if form.is_valid() and not conflict:
        try:
            save_new_round(game, form)
        except Conflict:
            conflict = True
        except engine.GameError as error:
            form.add_engine_error(error)
    if conflict:
        game = game_for(key)
        context = sheet_context(request, game, game.score(), conflict_form(game, data))
        if request.htmx:
            return retarget(render(request, "game.html#game_body", context), "#game-body")
        return render(request, "game.html", context, status=409)
    if not form.is_valid():
        context = sheet_context(request, game, sheet, form)
        if request.htmx:
            return render(request, "game.html#round_form", context)
        return render(request, "game.html", context, status=400)
    request.session.pop("undo", None)
    if request.htmx:
        game = game_for(key)
        sheet = game.score()
        context = sheet_context(request, game, sheet, new_round_form(game, sheet))
        return retarget(render(request, "game.html#game_body", context), "#game-body")
    return redirect("game", key=key)


def conflict_form(game: Game, data) -> RoundForm | None:
    """Another phone saved this round first: say which, and offer this phone's hands as the
    next round (save again) or to discard them."""
    sheet = game.score()
    posted = data.get("number", "")
    known = posted.isdigit() and 0 < int(posted) <= len(sheet.rounds)
    saved = sheet.rounds[int(posted) - 1] if known else None
    draft = data.copy()
    draft["number"] = str(len(sheet.rounds) + 1)
    form = new_round_form(game, sheet, draft=draft)
    if form is None:
        return None
    form.conflict = {
        "number": posted,
        "next": len(sheet.rounds) + 1,
        "scores": saved.scores if saved else {},
    }
    return form


@require_GET
def game_live(request: HttpRequest, key: str) -> HttpResponse:
    return live(request, game_for(key), read_only=False)


def live(request: HttpRequest, game: Game, read_only: bool) -> HttpResponse:
    """The parts of the sheet that other phones change; 304 while nothing changed."""
    etag = game_etag(game, read_only)
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        context = sheet_context(request, game, game.score(), read_only=read_only)
        response = render(request, "game.html#live", context)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache, private"
    patch_vary_headers(response, ("Cookie",))
    return response


# --- the share link: reading only ------------------------------------------------------------


def read_only(view):
    """A share-link view: it can only be read; any write request is refused with 403."""

    @wraps(view)
    def guarded(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            return HttpResponseForbidden(_("This link only shows the game: it cannot change it."))
        return view(request, *args, **kwargs)

    return guarded


def shared_game(key: str) -> Game:
    return get_object_or_404(Game.objects, share_key=key)


@read_only
def shared_sheet(request: HttpRequest, key: str) -> HttpResponse:
    return sheet_page(request, "share", key)


@read_only
def shared_live(request: HttpRequest, key: str) -> HttpResponse:
    return live(request, shared_game(key), read_only=True)


@read_only
def shared_export(request: HttpRequest, key: str) -> HttpResponse:
    return export(shared_game(key))


@read_only
def shared_other(request: HttpRequest, key: str, rest: str) -> HttpResponse:
    raise Http404


# --- corrections -----------------------------------------------------------------------------


def round_for(game: Game, round_id: int) -> tuple[Round, int]:
    rounds = game.live_rounds()
    for number, entry in enumerate(rounds, 1):
        if entry.pk == round_id:
            return entry, number
    raise Http404


@require_http_methods(["GET", "POST"])
def round_edit(request: HttpRequest, key: str, round_id: int) -> HttpResponse:
    game = game_for(key)
    entry, number = round_for(game, round_id)
    sheet = game.score()
    players = players_in_round(game, sheet, number)

    def edit_form(data=None, initial=None) -> RoundForm:
        return RoundForm(
            data, game=game, players_in_round=players, number=number, editing=entry, initial=initial
        )

    def show(form: RoundForm, status: int = 200) -> HttpResponse:
        context = {"game": game, "form": form, "number": number}
        if request.htmx:
            return render(request, "round_edit.html#round_form", context)
        return render(request, "round_edit.html", context, status=status)

    if request.method == "GET":
        return show(edit_form(initial=initial_from_round(game, entry, number)))
    data = request.POST.copy()
    if apply_picker_action(data):
        return show(edit_form(initial={**data.dict(), "emptied": data.getlist("emptied")}))

    form = edit_form(data)
    if form.is_valid():
        try:
            with locked(game) as rounds:
                current = next((r for r in rounds if r.pk == entry.pk), None)
                if current is None or current.edits != form.cleaned_data.get("edits"):
                    raise Conflict
                check_whole_game(game, rounds, form.round, replacing=current)
                Round.objects.filter(pk=entry.pk).update(
                    data=gamefile.round_to_json(form.round),
                    edits=current.edits + 1,
                    updated_at=timezone.now(),
                )
        except Conflict:
            entry.refresh_from_db()
            fresh = edit_form(initial=initial_from_round(game, entry, number))
            fresh.notice = _(
                "This round was changed from another phone meanwhile; here it is as saved now."
            )
            return show(fresh, status=409)
        except engine.GameError as error:
            form.add_engine_error(error)
        else:
            request.session.pop("undo", None)
            messages.success(request, _("Round %(number)s corrected.") % {"number": number})
            url = reverse("game", args=[key]) + f"#round-{number}"
            return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    return show(form, status=400)


def initial_from_round(game: Game, entry: Round, number: int) -> dict:
    data = entry.data
    initial: dict = {"number": number, "edits": entry.edits}
    for name, hand in data["hands"].items():
        seat = game.players.index(name)
        initial[f"hand_{seat}"] = " ".join(hand) if isinstance(hand, list) else str(hand)
    initial["caller"] = data.get("caller") or ""
    initial["counter_caller"] = data.get("counter_caller") or ""
    initial["emptied"] = data.get("emptied", [])
    for row, penalty in enumerate(data.get("penalties", [])):
        initial[f"penalty_player_{row}"] = penalty["player"]
        initial[f"penalty_points_{row}"] = str(penalty["points"])
        initial[f"penalty_reason_{row}"] = penalty.get("reason", "")
    initial["penalty_cards"] = " ".join(data.get("penalty_cards", []))
    return initial


@require_http_methods(["GET", "POST"])
def round_delete(request: HttpRequest, key: str, round_id: int) -> HttpResponse:
    game = game_for(key)
    entry, number = round_for(game, round_id)
    error = None
    if request.method == "POST":
        try:
            with locked(game) as rounds:
                if entry.pk not in [r.pk for r in rounds]:
                    raise Conflict
                check_whole_game(game, [r for r in rounds if r.pk != entry.pk])
                Round.objects.filter(pk=entry.pk).update(deleted_at=timezone.now())
        except Conflict:
            messages.error(request, _("This round was already deleted from another phone."))
            return redirect("game", key=key)
        except engine.GameError as problem:
            error = _("Round %(number)s cannot be deleted: %(error)s") % {
                "number": number,
                "error": say(problem),
            }
        else:
            request.session["undo"] = {"game": game.edit_key, "round": entry.pk, "number": number}
            return redirect("game", key=key)
    return render(
        request,
        "round_delete.html",
        {"game": game, "entry": entry, "number": number, "error": error},
        status=400 if error else 200,
    )


@require_POST
def round_restore(request: HttpRequest, key: str, round_id: int) -> HttpResponse:
    game = game_for(key)
    entry = get_object_or_404(Round, pk=round_id, game=game, deleted_at__isnull=False)
    try:
        with locked(game) as rounds:
            restored = sorted([*rounds, entry], key=lambda r: r.position)
            check_whole_game(game, restored)
            Round.objects.filter(pk=entry.pk).update(deleted_at=None, updated_at=timezone.now())
    except engine.GameError as problem:
        messages.error(
            request, _("The round cannot be put back: %(error)s") % {"error": say(problem)}
        )
    else:
        messages.success(request, _("The round is back."))
    request.session.pop("undo", None)
    return redirect("game", key=key)


@require_POST
def game_end(request: HttpRequest, key: str) -> HttpResponse:
    game = game_for(key)
    sheet = game.score()
    if sheet.finished or not sheet.rounds:
        messages.error(request, _("Only a game in progress with at least one round can be ended."))
    else:
        with locked(game):
            Game.objects.filter(pk=game.pk).update(ended=True)
    return redirect("game", key=key)


@require_GET
def game_export(request: HttpRequest, key: str) -> HttpResponse:
    return export(game_for(key))


def export(game: Game) -> HttpResponse:
    response = HttpResponse(
        gamefile.dumps(game.game_file()), content_type="application/json; charset=utf-8"
    )
    stamp = game.created_at.strftime("%Y-%m-%d")
    response["Content-Disposition"] = f'attachment; filename="tamalou-{game.variant}-{stamp}.json"'
    return response


@require_POST
def game_rematch(request: HttpRequest, key: str) -> HttpResponse:
    """The same players and settings again; the deal moves on by one seat."""
    game = game_for(key)
    rematch = Game.objects.create(
        variant=game.variant,
        players=game.players,
        settings=game.settings,
        first_dealer=(game.first_dealer + 1) % len(game.players),
    )
    remember(request, rematch.edit_key)
    return redirect("game", key=rematch.edit_key)
