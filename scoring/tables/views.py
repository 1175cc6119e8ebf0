"""The pages of a table: its page by its edit link and by its read-only link, a player
renamed or two names merged, its file, taken off this phone. (A table is made from the home
page, ``scoring.phone.views.new_table``, or kept from a game,
``scoring.game.views.keep_table``.) Each looks up, binds a form, calls its save, and renders
or redirects, as ``scoring.game.views`` does."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring.store import tablefile
from scoring.store.models import Table
from scoring.tables.context import find_table, table_context, table_names
from scoring.tables.forms import RenameForm
from scoring.web.device import (
    follow_table,
    forget_table,
    remember_table,
)
from scoring.web.http import HtmxHttpRequest, private


@require_safe
@private  # reached by its key; lists this phone's games by their edit links
def table(request: HtmxHttpRequest, key: str) -> HttpResponse:
    found = find_table("edit", key)
    remember_table(request, found.edit_key)  # in this phone's list
    return render(request, "table.html", table_context(request, found, "edit"))


@require_safe
@private  # reached by its key
def table_read(request: HtmxHttpRequest, key: str) -> HttpResponse:
    found = find_table("read", key)
    follow_table(request, found.read_key)  # in this phone's list, read-only
    return render(request, "table.html", table_context(request, found, "read"))


@require_http_methods(["GET", "HEAD", "POST"])
@private
def rename_player(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """Rename a player of the table, or merge two names, in the table and all its games:
    asked, then done once confirmed."""
    found = find_table("edit", key)
    names = table_names(found, found.games.values_list("players", flat=True))
    data = request.POST if request.method == "POST" else None
    initial = {"old": request.GET.get("old", "")}
    form = RenameForm(data, table=found, names=names, initial=initial)
    context = {"table": found, "form": form, "names": names}
    if request.method != "POST":
        return render(request, "table_rename.html", context)
    if not form.is_valid():
        return render(request, "table_rename.html", context, status=400)
    if not form.cleaned_data["confirm"]:
        confirming = RenameForm(
            table=found, names=names, initial=form.cleaned_data | {"confirm": True}
        )
        context |= {
            "asking": True,
            "confirming": confirming,
            "count": form.games_with(),
            "merging": form.merging,
        }
        return render(request, "table_rename.html", context)
    if not form.save():
        return render(request, "table_rename.html", context, status=400)
    done = {"old": form.cleaned_data["old"], "new": form.cleaned_data["new"]}
    messages.success(request, _("%(old)s is now %(new)s in the table and its games.") % done)
    return redirect("table", key=found.edit_key)


@require_POST
def forget_table_view(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """Take a table off this phone's list (by its edit link); the table stays."""
    forget_table(request, find_table("edit", key))
    messages.success(request, _("The table was removed from this phone. Its links still open it."))
    return redirect("home")


@require_POST
def unfollow_table(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """Take a table this phone follows by its read-only link off its list; the table stays."""
    forget_table(request, find_table("read", key))
    messages.success(request, _("The table was removed from this phone. Its links still open it."))
    return redirect("home")


@require_safe
@private  # the table's games, whole
def table_export(request: HtmxHttpRequest, key: str) -> HttpResponse:
    return table_file_download(find_table("edit", key))


@require_safe
@private
def table_read_export(request: HtmxHttpRequest, key: str) -> HttpResponse:
    return table_file_download(find_table("read", key))


def table_file_download(table: Table) -> HttpResponse:
    """The table's file (``scoring.store.tablefile``): its players, rules and games. No key
    is in it: a game's id names it, it opens nothing."""
    text = tablefile.dumps(tablefile.table_file(table))
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="tamalou-table-{stamp}.json"'
    return response
