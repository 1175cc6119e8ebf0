"""A game's pages: its sheet by the edit link and the share link, the live part the open
sheets poll, a round saved, corrected, deleted or restored, a round kept offline synced, the
match clock, the game ended, resumed, replayed (rematch), kept as a table, forgotten, and its
files (import, export, CSV). Each view looks up, binds a form and calls its ``save()``
(which calls the ``Game`` method), then renders or redirects; htmx requests get the named
partial of the same template. HTTP caching is ``scoring.web.http``'s decorators."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from scoring.game.downloads import csv_download, game_file_download
from scoring.game.forms.changes import (
    DeleteRoundForm,
    EndGameForm,
    ImportForm,
    RematchForm,
    RestoreRoundForm,
    ResumeGameForm,
)
from scoring.game.forms.rounds import RoundForm
from scoring.game.forms.sync import SyncForm
from scoring.game.match import ClockForm, find_match
from scoring.game.new_game import rule_set_key
from scoring.game.sheet import (
    conflict_context,
    corrected_round_url,
    find_game,
    find_round,
    misplaced_round,
    new_round_form,
    next_game_url,
    page_template,
    round_summary,
    saved_context,
    sheet_context,
)
from scoring.guards.limits import IMPORT, NEW_GAME, SYNC, TABLE, limited
from scoring.store.models import Conflict, Game, Table
from scoring.tables.context import game_table
from scoring.tables.forms import KeepTableForm
from scoring.web.device import (
    follow,
    follow_table,
    forget,
    remember,
    remember_table,
    unfollow,
)
from scoring.web.fields import error_texts
from scoring.web.http import HtmxHttpRequest, live_part, private


@require_http_methods(["GET", "HEAD", "POST"])
@limited(IMPORT)
def import_game(request: HtmxHttpRequest) -> HttpResponse:
    form = ImportForm.bind(request)
    # Imported from a table's page (``?table=``, its edit key): the game joins the table.
    table_key = rule_set_key(request.GET.get("table", ""))
    table = Table.objects.filter(edit_key=table_key).first() if table_key else None
    if form.is_bound and form.save():
        if form.table is not None:  # a table file: a new table, its games this phone's
            for game in reversed(form.games):
                remember(request, game.edit_key)
            remember_table(request, form.table.edit_key)
            return redirect("table", key=form.table.edit_key)
        if table is not None and form.game.table_id is None:
            table.attach(form.game)
        if form.beside_an_earlier_copy:
            messages.info(
                request,
                _(
                    "This phone imported this game before, with other rounds: this file is a "
                    "new game, beside the earlier copy."
                ),
            )
        elif form.earlier_copy_opened:
            messages.info(request, _("This phone imported this game before: here is that copy."))
        remember(request, form.game.edit_key)
        return redirect("edit", key=form.game.edit_key)
    context = {"error": form.error, "table": table}
    return render(request, "import_game.html", context, status=400 if form.error else 200)


# --- the sheet and its rounds ------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@private
def edit_sheet(request: HtmxHttpRequest, key: str) -> HttpResponse:
    if request.method == "POST":
        return save_round(request, key)
    game = find_game("edit", key)
    remember(request, game.edit_key)  # first in this phone's list
    context = sheet_context(request, game, new_round_form(game))
    return render(request, page_template(game), context | game_table(request, game, "edit"))


def live_part_of(request: HtmxHttpRequest, link: str, key: str) -> HttpResponse:
    """The parts of the sheet that other phones change, reached by ``link``; once the game
    has a rematch, a viewer's page moves on to it by itself, by its read-only link (without
    JavaScript, the page links to it)."""
    game = find_game(link, key)
    if link == "share" and game.next_game_id is not None and request.htmx:
        return HttpResponseClientRedirect(next_game_url(game, link))
    return HttpResponse(live_html(request, game, link))


def live_html(request: HtmxHttpRequest, game: Game, link: str) -> str:
    """The live part of the game by ``link``: what other phones change on the sheet."""
    context = sheet_context(request, game, link=link)
    return render_to_string(f"{page_template(game)}#live", context, request)


def conflict_page(request: HtmxHttpRequest, game: Game, posted: RoundForm) -> HttpResponse:
    """Another phone saved this round first: say which, and keep this phone's hands as the
    next round (save again) or to discard them."""
    context = conflict_context(request, game, posted.data)
    page = page_template(game)
    if request.htmx:
        return retarget(render(request, f"{page}#game_body", context), "#game-body")
    return render(request, page, context, status=409)


def save_round(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """The next round, as the game's round form reads it."""
    game = find_game("edit", key)
    remember(request, game.edit_key)
    form = new_round_form(game, request.POST.copy())
    if form is None:
        messages.error(request, str(RoundForm.for_game(game).game_over_text))
        url = reverse("edit", args=[key])
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    try:
        saved = form.save()
    except Conflict:
        return conflict_page(request, game, form)
    if not saved:
        context = sheet_context(request, game, form)
        if request.htmx:
            return render(request, form.form_partial, context)
        return render(request, form.page, context, status=400)
    if form.sent_again:
        messages.info(request, form.sent_again_text())
    cleared_undo = request.session.pop("undo", None) is not None
    finished = game.stored_summary().finished
    if request.htmx:
        response = render(request, form.saved_partial, saved_context(request, game, cleared_undo))
        return reswap(response, f"outerHTML show:{form.shown_after_save(finished)}:top")
    return redirect(reverse("edit", args=[key]) + form.anchor_after_save(finished))


@require_POST
def clock(request: HtmxHttpRequest, key: str, action: str) -> HttpResponse:
    """A tap on a match's thinking timer: ``action`` is start, pause, next player or time of a
    turn, each posted to its own address."""
    game = find_match(key)
    form = ClockForm(request.POST, action=action)
    if form.save(game):
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


@require_POST
@limited(SYNC)
def sync_round(request: HtmxHttpRequest, key: str) -> JsonResponse:
    """A round entered while the phone was offline (static/js/offline.js), sent with the round
    form's own fields once the connection is back, or after the table chose what to do with
    it. Answers in JSON: saved; a conflict (another phone saved this round first: its round
    as the sheet shows it, and how to replace it); or the refusals, nothing saved."""
    game = find_game("edit", key)
    remember(request, game.edit_key)
    choice = SyncForm(request.POST, game=game)
    if not choice.is_valid():
        return JsonResponse({"errors": error_texts(choice)}, status=400)
    number = choice.cleaned_data["number"]
    if choice.misplaced:
        return JsonResponse(misplaced_round(request, game, number), status=409)
    form = choice.round_form()
    try:
        saved = form.save()
    except Conflict:
        return JsonResponse(misplaced_round(request, game, number), status=409)
    if not saved:
        return JsonResponse({"errors": error_texts(form)}, status=400)
    request.session.pop("undo", None)
    return JsonResponse({"saved": number})


@require_safe
@live_part("edit")
def edit_live(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """The parts of the sheet that other phones change; 304 while nothing changed."""
    return live_part_of(request, "edit", key)


@require_safe
@private
def edit_export(request: HtmxHttpRequest, key: str) -> HttpResponse:
    return game_file_download(find_game("edit", key))


@require_safe
@private
def edit_csv(request: HtmxHttpRequest, key: str) -> HttpResponse:
    return csv_download(find_game("edit", key))


# --- the share link: reading only (any other method: 405) ---------------------------------


@require_safe
@private  # a game's whole content
def share_sheet(request: HtmxHttpRequest, key: str) -> HttpResponse:
    game = find_game("share", key)
    follow(request, game.share_key)  # listed on this phone's home page, read-only
    if game.table_id is not None:  # and its table, read-only too
        follow_table(request, game.table.read_key)
    context = sheet_context(request, game, link="share") | game_table(request, game, "share")
    return render(request, page_template(game), context)


@require_safe
@live_part("share")
def share_live(request: HtmxHttpRequest, key: str) -> HttpResponse:
    return live_part_of(request, "share", key)


@require_safe
@private
def share_export(request: HtmxHttpRequest, key: str) -> HttpResponse:
    return game_file_download(find_game("share", key))


@require_safe
@private
def share_csv(request: HtmxHttpRequest, key: str) -> HttpResponse:
    return csv_download(find_game("share", key))


# --- corrections -----------------------------------------------------------------------------


def show_correction(request: HtmxHttpRequest, form: RoundForm, status: int = 200) -> HttpResponse:
    context = {"game": form.game, "form": form, "number": form.round_number}
    if request.htmx:
        return render(request, "round_edit.html#round_form", context)
    return render(request, "round_edit.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@private
def round_edit(request: HtmxHttpRequest, key: str, round_id: int) -> HttpResponse:
    game = find_game("edit", key)
    stored, number = find_round(game, round_id)
    form_class = RoundForm.for_game(game)
    if request.method != "POST":  # GET, or HEAD (its answer without the body)
        return show_correction(request, form_class.as_stored(game, stored, number))
    form = form_class(request.POST.copy(), game=game, number=number, editing=stored)
    try:
        saved = form.save()
    except Conflict:
        stored.refresh_from_db()
        fresh = form_class.as_stored(game, stored, number)
        fresh.notice = _(
            "This round was changed from another phone meanwhile; here it is as saved now."
        )
        return show_correction(request, fresh, status=409)
    if not saved:
        return show_correction(request, form, status=400)
    request.session.pop("undo", None)
    messages.success(request, form.corrected_text())
    url = corrected_round_url(game, number)
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@require_http_methods(["GET", "HEAD", "POST"])
@private
def round_delete(request: HtmxHttpRequest, key: str, round_id: int) -> HttpResponse:
    game = find_game("edit", key)
    stored, number = find_round(game, round_id)
    data = request.POST if request.method == "POST" else None
    form = DeleteRoundForm(data, game=game, stored=stored, number=number)
    try:
        deleted = request.method == "POST" and form.save()
    except Conflict:
        messages.error(request, _("This round was already deleted from another phone."))
        return redirect("edit", key=key)
    if deleted:
        request.session["undo"] = {"game": game.edit_key, "round": stored.pk, "number": number}
        return redirect("edit", key=key)
    # The round as the sheet shows it, so that the table sees which one it is deleting.
    shown = None if game.is_match else round_summary(request, game, game.score(), number)
    context = {"game": game, "number": number, "error": form.error, "shown": shown}
    return render(request, "round_delete.html", context, status=400 if form.error else 200)


@require_POST
def round_restore(request: HtmxHttpRequest, key: str, round_id: int) -> HttpResponse:
    form = RestoreRoundForm(request.POST, game=find_game("edit", key), round_id=round_id)
    try:
        if form.save():
            messages.success(request, _("The round is back."))
        else:
            messages.error(request, form.error)
    except Conflict:
        messages.error(request, _("This round is no longer there to put back."))
    request.session.pop("undo", None)
    return redirect("edit", key=key)


@require_POST
def end_game(request: HtmxHttpRequest, key: str) -> HttpResponse:
    form = EndGameForm(request.POST, game=find_game("edit", key))
    if not form.save():
        messages.error(request, form.error)
    return redirect("edit", key=key)


@require_POST
def resume_game(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """The table ended the game (or declared the match blocked) by mistake: it goes on."""
    form = ResumeGameForm(request.POST, game=find_game("edit", key))
    if not form.save():
        messages.error(request, form.error)
    return redirect("edit", key=key)


@require_POST
@limited(NEW_GAME)
def rematch(request: HtmxHttpRequest, key: str) -> HttpResponse:
    form = RematchForm(request.POST, game=find_game("edit", key))
    form.save()
    remember(request, form.created.edit_key)
    return redirect("edit", key=form.created.edit_key)


@require_POST
def forget_game(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """Take a game off this phone's list and statistics; the game and its links stay."""
    game = find_game("edit", key)
    forget(request, game.edit_key)
    messages.success(request, _("The game was removed from this phone. Its links still open it."))
    return redirect("home")


@require_POST
def unfollow_game(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """Take a game this phone follows by its read-only link off its list; the game stays."""
    game = find_game("share", key)
    unfollow(request, game.share_key)
    messages.success(request, _("The game was removed from this phone. Its links still open it."))
    return redirect("home")


@require_POST
@limited(TABLE)
def keep_table(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """ "Keep this table" on a game's sheet: a table of its players and rules, the game in it."""
    game = find_game("edit", key)
    form = KeepTableForm(request.POST)
    if game.table_id is None and not form.is_valid():
        context = sheet_context(request, game, new_round_form(game)) | game_table(
            request, game, "edit"
        )
        context |= {"keep_form": form, "keep_open": True}
        return render(request, page_template(game), context, status=400)
    table = None if game.table_id is not None else form.save(game)
    if table is None:  # a table's already, or another tap kept it meanwhile
        messages.error(request, _("This game is already a table's."))
        return redirect("edit", key=game.edit_key)
    remember(request, game.edit_key)
    remember_table(request, table.edit_key)
    messages.success(request, _("The table is kept: its next game starts with these players."))
    return redirect("table", key=table.edit_key)
