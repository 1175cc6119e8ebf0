"""Pages of the score sheet. Each view looks up, validates with a form, calls the model, and
renders or redirects; htmx requests get the named partial of the same template."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_http_methods,
    require_POST,
    require_safe,
)
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from scoring import offline
from scoring.device import device_games, forget, remember
from scoring.display import say
from scoring.forms import (
    NewGameForm,
    RoundForm,
    SyncForm,
    apply_picker_action,
    apply_row_action,
    error_texts,
)
from scoring.match import ClockForm, CountsForm
from scoring.models import Conflict, Game
from scoring.referee import engine, gamefile, story
from scoring.referee.tambouille import Tambouille
from scoring.referee.variants import VARIANTS
from scoring.rules_page import rules_context, tambouille_context
from scoring.sheet import (
    find_game,
    game_etag,
    history,
    new_round_form,
    page_template,
    round_form_class,
    round_summary,
    sheet_context,
    sheet_page,
)
from scoring.spreadsheet import file_name as csv_file_name
from scoring.spreadsheet import sheet_csv

MAX_ROWS = 64  # player rows a posted new-game form may have (more than 8 is refused)


@require_safe
def healthz(request) -> HttpResponse:
    """For load balancers (and the trivial view the benchmark compares the sheet with)."""
    return HttpResponse("ok", content_type="text/plain")


@require_safe
def manifest(request) -> HttpResponse:
    """The web app manifest, in the phone's language."""
    response = JsonResponse(offline.manifest(), json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


@require_safe
def service_worker(request) -> HttpResponse:
    """The service worker, from the site's root so that it serves every page; never cached
    long, so that the phone sees a deploy at once."""
    response = render(
        request,
        "sw.js",
        {"config": offline.worker_config()},
        content_type="text/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def home(request) -> HttpResponse:
    games = Game.objects.filter(edit_key__in=device_games(request))
    summaries = []
    for game in games:
        sheet = game.score()
        leader = min(sheet.in_game or sheet.players, key=lambda p: sheet.totals[p])
        summaries.append(
            {
                "game": game,
                "sheet": sheet,
                "variant": engine.GAMES[game.variant],
                "leader": leader,
                "leader_total": sheet.totals[leader],
            }
        )
    summaries.sort(key=lambda s: (s["sheet"].finished, -s["game"].updated_at.timestamp()))
    context = {"summaries": summaries, "variants": VARIANTS.values(), "tambouille": Tambouille}
    return render(request, "home.html", context)


@require_safe
def stats(request) -> HttpResponse:
    """Statistics of the games this phone knows (its own list: nothing across phones)."""
    records = [
        story.GameRecord(game.variant, game.score(), game.created_at, game)
        for game in Game.objects.filter(edit_key__in=device_games(request)).exclude(
            variant=Tambouille.key  # no points, no calls: a match sheet has no such numbers
        )
    ]
    by_variant = story.player_stats(records)
    context = {
        "games": len(records),
        "finished": sum(record.sheet.finished for record in records),
        "variants": [
            (VARIANTS[key], rows) for key in VARIANTS if (rows := by_variant.get(key)) is not None
        ],
        "tables": story.same_tables(records),
    }
    return render(request, "stats.html", context)


@require_safe
def new_game(request) -> HttpResponse:
    return render(request, "new_game.html", {"variants": engine.GAMES.values()})


@require_http_methods(["GET", "POST"])
def new_game_variant(request, variant: str) -> HttpResponse:
    if variant not in engine.GAMES:
        raise Http404
    page = "new_game_variant.html"
    rules = engine.GAMES[variant]
    if request.method == "GET":
        form = NewGameForm(variant=variant, rows=min(4, rules.max_players))
        return render(request, page, {"form": form, "variant": rules})
    data = request.POST.copy()
    rows = min(max(sum(1 for key in data if key.startswith("name_")), 2), MAX_ROWS)
    action = data.get("action", "")
    if action and action != "create":
        rows = apply_row_action(data, rows, action, rules.max_players)
        form = NewGameForm(variant=variant, rows=rows, initial=data.dict())
        template = f"{page}#players" if request.htmx else page
        return render(request, template, {"form": form, "variant": rules})
    form = NewGameForm(data, variant=variant, rows=rows)
    if not form.is_valid():
        return render(request, page, {"form": form, "variant": rules}, status=400)
    game = Game.objects.create(
        variant=variant,
        players=list(form.players),
        settings=form.settings,
        first_dealer=form.first_dealer,
    )
    remember(request, game.edit_key)
    return redirect("edit", key=game.edit_key)


@require_http_methods(["GET", "POST"])
def import_game(request) -> HttpResponse:
    error = None
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is None:
            error = _("Choose a game file to import.")
        else:
            try:
                game = Game.objects.import_file(
                    upload.read(gamefile.MAX_FILE_BYTES + 1), mine=device_games(request)
                )
            except engine.GameError as problem:
                error = say(problem)
            else:
                remember(request, game.edit_key)
                return redirect("edit", key=game.edit_key)
    return render(request, "import_game.html", {"error": error}, status=400 if error else 200)


# --- the rules ------------------------------------------------------------------------------


@require_safe
def rules_index(request) -> HttpResponse:
    context = {"variants": VARIANTS.values(), "tambouille": Tambouille}
    return render(request, "rules_index.html", context)


@require_safe
def rules_variant(request, variant: str) -> HttpResponse:
    if variant not in VARIANTS:
        raise Http404
    context = rules_context(VARIANTS[variant], request.GET)
    if request.htmx and context["lookup"] is not None:
        return render(request, "rules_variant.html#card_panel", context)
    return render(request, "rules_variant.html", context)


@require_safe
def rules_tambouille(request) -> HttpResponse:
    return render(request, "rules_tambouille.html", tambouille_context(request.GET))


# --- the sheet and its rounds ------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def edit_sheet(request, key: str) -> HttpResponse:
    if request.method == "GET":
        return sheet_page(request, "edit", key)
    game = find_game("edit", key)
    remember(request, game.edit_key)
    form = new_round_form(game, request.POST.copy())
    if form is None:
        if game.is_match:
            messages.error(request, _("The match is over: no more turn rounds can be added."))
        else:
            messages.error(request, _("The game is over: no more rounds can be added."))
        url = reverse("edit", args=[key])
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    if game.is_match:
        return save_turn_round(request, game, form)
    seats = list(form.seats.values())
    if apply_picker_action(form.data, game.rules().hand_size, seats):
        context = sheet_context(request, game, form.quiet())
        return render(request, "game.html#round_form" if request.htmx else "game.html", context)

    if form.is_valid() and not form.has_any_error():
        try:
            game.add_round(form.cleaned_data["number"], form.round)
        except Conflict:
            return conflict(request, game, form)
        except engine.GameError as error:
            form.add_referee_error(error)
    if form.has_any_error():
        context = sheet_context(request, game, form)
        if request.htmx:
            return render(request, "game.html#round_form", context)
        return render(request, "game.html", context, status=400)
    cleared_undo = request.session.pop("undo", None) is not None
    if request.htmx:
        context = sheet_context(request, game, new_round_form(game))
        context |= {"history": history(game, game.score(), only_last=True)}
        context["cleared_undo"] = cleared_undo
        response = render(request, "game.html#saved", context)
        return reswap(response, "outerHTML show:#totals:top")
    return redirect(reverse("edit", args=[key]) + "#totals")


def save_turn_round(request, game: Game, form: CountsForm) -> HttpResponse:
    """A Tambouille turn round: the cards each player still holds."""
    if form.is_valid():
        try:
            game.add_round(form.cleaned_data["number"], form.round)
        except Conflict:
            return conflict(request, game, form)
        except engine.GameError as error:
            form.add_referee_error(error)
    if form.errors:
        context = sheet_context(request, game, form)
        if request.htmx:
            return render(request, "match.html#game_body", context)
        return render(request, "match.html", context, status=400)
    if request.htmx:
        context = sheet_context(request, game, new_round_form(game))
        # The next turn round: the standings. The last one: the winners, above them.
        shown = "#live-top" if game.score().finished else "#totals"
        return reswap(
            render(request, "match.html#game_body", context), f"outerHTML show:{shown}:top"
        )
    anchor = "" if game.score().finished else "#totals"
    return redirect(reverse("edit", args=[game.edit_key]) + anchor)


@require_POST
def clock(request, key: str) -> HttpResponse:
    """A tap on a match's thinking timer (start, pause, next player, time of a turn)."""
    game = find_game("edit", key)
    if not game.is_match:
        raise Http404
    form = ClockForm(request.POST)
    if form.is_valid() and not game.score().finished:
        data = form.cleaned_data
        game.set_clock(data["action"], data["turn"], data.get("seconds"))
        if request.htmx:
            return render(request, "match.html#clock", sheet_context(request, game))
        return redirect(reverse("edit", args=[key]) + "#clock")
    if game.score().finished:
        messages.error(request, _("The match is over: the timer has stopped."))
        return redirect("edit", key=key)
    context = sheet_context(request, game, new_round_form(game))
    context["time_form"] = form
    template = "match.html#clock" if request.htmx else "match.html"
    return render(request, template, context, status=200 if request.htmx else 400)


def conflict(request, game: Game, posted: RoundForm | CountsForm) -> HttpResponse:
    """Another phone saved this round first: say which, and keep this phone's hands as the
    next round (save again) or to discard them."""
    game.refresh_from_db()
    sheet = game.score()
    number = posted.data.get("number", "")
    known = number.isascii() and number.isdigit() and 0 < int(number) <= len(sheet.rounds)
    data = posted.data.copy()
    data["number"] = str(len(sheet.rounds) + 1)
    form = new_round_form(game, data)
    if form is not None:
        form.quiet().conflict = {
            "number": number,
            "next": len(sheet.rounds) + 1,
            "scores": sheet.rounds[int(number) - 1].scores if known else {},
        }
    context = sheet_context(request, game, form)
    page = page_template(game)
    if request.htmx:
        return retarget(render(request, f"{page}#game_body", context), "#game-body")
    return render(request, page, context, status=409)


@require_POST
def sync_round(request, key: str) -> JsonResponse:
    """A round entered while the phone was offline (static/js/offline.js), sent with the round
    form's own fields once the connection is back, or after the table chose what to do with
    it. Answers in JSON: saved; a conflict (another phone saved this round first: its round
    as the sheet shows it, and how to replace it); or the refusals, nothing saved."""
    game = find_game("edit", key)
    remember(request, game.edit_key)
    choice = SyncForm(request.POST)
    if not choice.is_valid():
        return JsonResponse({"errors": error_texts(choice)}, status=400)
    number, replace = choice.cleaned_data["number"], choice.cleaned_data["replace"]
    rounds = game.live_rounds()
    if number > len(rounds) + 1 or (replace and number > len(rounds)):
        return sync_conflict(request, game, number)
    if not replace and number == len(rounds) + 1 and game.score().finished:
        error = _("The game is over: no more rounds can be added.")
        return JsonResponse({"errors": [error]}, status=400)
    editing = rounds[number - 1] if replace else None
    form_class = round_form_class(game)
    form = form_class(request.POST.copy(), game=game, number=number, editing=editing)
    if form.is_valid() and not form.has_any_error():
        try:
            if editing is None:
                game.add_round(number, form.round)
            else:
                game.replace_round(editing.pk, form.cleaned_data.get("edits"), form.round)
        except Conflict:
            return sync_conflict(request, game, number)
        except engine.GameError as error:
            form.add_referee_error(error)
    if form.has_any_error():
        return JsonResponse({"errors": error_texts(form)}, status=400)
    request.session.pop("undo", None)
    return JsonResponse({"saved": number})


def sync_conflict(request, game: Game, number: int) -> JsonResponse:
    """Round ``number`` is not where the phone expected it: the round stored there, if any,
    and the number this phone's round would take as the next one."""
    game.refresh_from_db()
    rounds = game.live_rounds()
    sheet = game.score()
    answer = {
        "conflict": number,
        "next": None if sheet.finished else len(rounds) + 1,
        "theirs": None,
        "edits": None,
    }
    if number <= len(rounds):
        answer["theirs"] = round_summary(request, game, sheet, number)
        answer["edits"] = rounds[number - 1].edits
    return JsonResponse(answer, status=409)


def live(request, game: Game, link: str) -> HttpResponse:
    """The parts of the sheet that other phones change; 304 while nothing changed. A viewer
    of a game that has a rematch moves on to the rematch's read-only page."""
    if link == "share" and game.next_game_id is not None:
        url = reverse("share", args=[game.next_game.share_key])
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    etag = game_etag(game, link)
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponse(status=304)
    else:
        context = sheet_context(request, game, link=link)
        response = render(request, f"{page_template(game)}#live", context)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache, private"
    patch_vary_headers(response, ("Cookie",))
    return response


@require_safe
def edit_live(request, key: str) -> HttpResponse:
    return live(request, find_game("edit", key), "edit")


def export(game: Game) -> HttpResponse:
    response = HttpResponse(
        gamefile.dumps(game.game_file()), content_type="application/json; charset=utf-8"
    )
    stamp = timezone.localdate(game.created_at).isoformat()
    response["Content-Disposition"] = f'attachment; filename="tamalou-{game.variant}-{stamp}.json"'
    return response


@require_safe
def edit_export(request, key: str) -> HttpResponse:
    return export(find_game("edit", key))


def export_csv(game: Game) -> HttpResponse:
    """The sheet as CSV (see ``scoring.spreadsheet``), with a byte order mark so that
    spreadsheets opening it with a double tap read its accents as UTF-8."""
    sheet = game.score()
    response = HttpResponse("\ufeff" + sheet_csv(sheet), content_type="text/csv; charset=utf-8")
    name = csv_file_name(sheet, timezone.localdate(game.created_at))
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_safe
def edit_csv(request, key: str) -> HttpResponse:
    return export_csv(find_game("edit", key))


# --- the share link: reading only (any other method: 405) ---------------------------------


@require_safe
def share_sheet(request, key: str) -> HttpResponse:
    return sheet_page(request, "share", key)


@require_safe
def share_live(request, key: str) -> HttpResponse:
    return live(request, find_game("share", key), "share")


@require_safe
def share_export(request, key: str) -> HttpResponse:
    return export(find_game("share", key))


@require_safe
def share_csv(request, key: str) -> HttpResponse:
    return export_csv(find_game("share", key))


# --- corrections -----------------------------------------------------------------------------


def round_of(game: Game, round_id: int):
    found = game.round_numbered(round_id)
    if found is None:
        raise Http404
    return found


@require_http_methods(["GET", "POST"])
def round_edit(request, key: str, round_id: int) -> HttpResponse:
    game = find_game("edit", key)
    entry, number = round_of(game, round_id)
    form_class = round_form_class(game)

    def show(form: RoundForm | CountsForm, status: int = 200) -> HttpResponse:
        context = {"game": game, "form": form, "number": number}
        if request.htmx:
            return render(request, "round_edit.html#round_form", context)
        return render(request, "round_edit.html", context, status=status)

    def as_stored() -> RoundForm | CountsForm:
        initial = form_class.initial_for(game, entry.as_entry(number), entry.edits)
        return form_class(game=game, number=number, editing=entry, initial=initial)

    if request.method == "GET":
        return show(as_stored())
    form = form_class(request.POST.copy(), game=game, number=number, editing=entry)
    if not game.is_match and apply_picker_action(
        form.data, game.rules().hand_size, list(form.seats.values())
    ):
        return show(form.quiet())
    if form.is_valid() and not form.has_any_error():
        try:
            game.replace_round(entry.pk, form.cleaned_data.get("edits"), form.round)
        except Conflict:
            entry.refresh_from_db()
            fresh = as_stored()
            fresh.notice = _(
                "This round was changed from another phone meanwhile; here it is as saved now."
            )
            return show(fresh, status=409)
        except engine.GameError as error:
            form.add_referee_error(error)
        else:
            request.session.pop("undo", None)
            if game.is_match:
                messages.success(request, _("Turn round %(n)s corrected.") % {"n": number})
            else:
                messages.success(request, _("Round %(number)s corrected.") % {"number": number})
            url = reverse("edit", args=[key]) + f"#round-{number}"
            return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    return show(form, status=400)


@require_http_methods(["GET", "POST"])
def round_delete(request, key: str, round_id: int) -> HttpResponse:
    game = find_game("edit", key)
    entry, number = round_of(game, round_id)
    error = None
    if request.method == "POST":
        try:
            game.delete_round(entry.pk)
        except Conflict:
            messages.error(request, _("This round was already deleted from another phone."))
            return redirect("edit", key=key)
        except engine.GameError as problem:
            error = _("Round %(number)s cannot be deleted: %(error)s") % {
                "number": number,
                "error": say(problem),
            }
        else:
            request.session["undo"] = {"game": game.edit_key, "round": entry.pk, "number": number}
            return redirect("edit", key=key)
    context = {"game": game, "entry": entry, "number": number, "error": error}
    return render(request, "round_delete.html", context, status=400 if error else 200)


@require_POST
def round_restore(request, key: str, round_id: int) -> HttpResponse:
    game = find_game("edit", key)
    try:
        game.restore_round(round_id)
    except Conflict:
        messages.error(request, _("This round is no longer there to put back."))
    except engine.GameError as problem:
        messages.error(
            request, _("The round cannot be put back: %(error)s") % {"error": say(problem)}
        )
    else:
        messages.success(request, _("The round is back."))
    request.session.pop("undo", None)
    return redirect("edit", key=key)


@require_POST
def end_game(request, key: str) -> HttpResponse:
    game = find_game("edit", key)
    sheet = game.score()
    if sheet.finished or not sheet.rounds:
        messages.error(request, _("Only a game in progress with at least one round can be ended."))
    else:
        game.end()
    return redirect("edit", key=key)


@require_POST
def resume_game(request, key: str) -> HttpResponse:
    """The table ended the game (or declared the match blocked) by mistake: it goes on. A game
    its own rules ended is not reopened."""
    game = find_game("edit", key)
    if not game.ended:
        messages.error(request, _("This game ended by its own rules: it cannot be reopened."))
    elif game.next_game_id is not None:
        messages.error(request, _("A rematch was made from this game: it cannot be reopened."))
    else:
        try:
            game.resume()
        except engine.GameError as problem:
            messages.error(request, say(problem))
    return redirect("edit", key=key)


@require_POST
def forget_game(request, key: str) -> HttpResponse:
    """Take a game off this phone's list and statistics; the game and its links stay."""
    game = find_game("edit", key)
    forget(request, game.edit_key)
    messages.success(request, _("The game was removed from this phone. Its links still open it."))
    return redirect("home")


@require_POST
def rematch(request, key: str) -> HttpResponse:
    rematch = find_game("edit", key).rematch()
    remember(request, rematch.edit_key)
    return redirect("edit", key=rematch.edit_key)
