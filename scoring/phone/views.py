"""The phone's own pages: home (its tables, games and house rules, and the form that makes a
table), its statistics, and what makes the app installable and usable offline (the manifest
and the service worker); a health check for the proxy."""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_POST, require_safe

from scoring.guards.limits import TABLE, limited
from scoring.house_rules.context import phone_rule_sets
from scoring.phone import webapp
from scoring.phone.summaries import followed_summaries, game_records, game_summaries, stats_context
from scoring.referee.tambouille import Tambouille
from scoring.referee.variants import VARIANTS
from scoring.tables.context import new_game_url as new_table_game_url
from scoring.tables.forms import NewTableForm
from scoring.web.device import known_names, phone_tables, remember_table
from scoring.web.http import HtmxHttpRequest, private


@require_safe
def healthz(request: HtmxHttpRequest) -> HttpResponse:
    """For load balancers (and the trivial view the benchmark compares the sheet with)."""
    return HttpResponse("ok", content_type="text/plain")


@require_safe
def manifest(request: HtmxHttpRequest) -> HttpResponse:
    """The web app manifest, in the phone's language."""
    response = JsonResponse(webapp.manifest(), json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


@require_safe
def service_worker(request: HtmxHttpRequest) -> HttpResponse:
    """The service worker, from the site's root so that it serves every page; never cached
    long, so that the phone sees a deploy at once."""
    context = {"config": webapp.worker_config()}
    response = render(request, "sw.js", context, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
@private  # the phone's games, by their edit links
def home(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "home.html", home_context(request, NewTableForm()))


def home_context(request: HtmxHttpRequest, table_form: NewTableForm) -> dict:
    """The home page: this phone's tables, games and house rules, and the form that makes a
    table (``table_form``, with its refusals when it was sent wrong)."""
    tables, followed_tables = phone_tables(request)
    return {
        "summaries": game_summaries(request),
        "followed": followed_summaries(request),
        "variants": VARIANTS.values(),
        "tambouille": Tambouille,
        "rule_sets": phone_rule_sets(request),
        "tables": [(table, new_table_game_url(table)) for table in tables],
        "followed_tables": followed_tables,
        "table_form": table_form,
        "known_names": known_names(request),
    }


@require_safe
@private  # this phone's games
def stats(request: HtmxHttpRequest) -> HttpResponse:
    """Statistics of the games this phone knows (its own list: nothing across phones)."""
    return render(request, "stats.html", stats_context(game_records(request)))


@require_POST
@limited(TABLE)
def new_table(request: HtmxHttpRequest) -> HttpResponse:
    """A table made from the home page: its name and players."""
    form = NewTableForm(request.POST)
    if not form.is_valid():
        return render(request, "home.html", home_context(request, form), status=400)
    table = form.save()
    remember_table(request, table.edit_key)
    return redirect("table", key=table.edit_key)
