"""The new-game page: a variant chosen, the players (a table's seats when started from its
page), the house rules builder with this phone's saved sets, and Start the game. Its other
buttons post the form to addresses of their own (save the rules as a named set, pick a saved
set, redraw the card grid for another deck, score a sample round, choose another variant).
The steppers and the player rows are the phone's (house.js, new-game.js): no post."""

from __future__ import annotations

import re
from functools import wraps

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring.game.forms.new_game import NewGameForm, player_rows, typed_players
from scoring.guards.limits import NEW_GAME, RULE_SET, limited
from scoring.house_rules.context import phone_rule_sets, sample_round
from scoring.referee import engine
from scoring.referee.variants import VARIANTS
from scoring.rules.context import differences
from scoring.store.models import KEY_PATTERN, RuleSet, Table
from scoring.web.device import known_names, owns_rule_set, remember, remember_rule_set
from scoring.web.http import HtmxHttpRequest, private


@require_safe
@private  # it lists this phone's house rules, by their keys
def new_game(request: HtmxHttpRequest) -> HttpResponse:
    """Which variant: each of them, and the house rules this phone keeps. The players typed
    on a new-game page before ("Other variant") come in the query, and go on in every link."""
    players = typed_players(request.GET, player_rows(request.GET))
    typed = [players[key].strip() for key in players if key.startswith("name_")]
    context = {
        "variants": engine.GAMES.values(),
        "rule_sets": phone_rule_sets(request),
        "players": urlencode(players),
        "names": [name for name in typed if name],
    }
    return render(request, "new_game.html", context)


def new_game_page(request, form: NewGameForm, status: int = 200, **shown) -> HttpResponse:
    """The new-game page: the players, and the house rules builder with this phone's sets.
    The builder opens folded, its settings said in one line (``house_line``) above Start the
    game (a table's next game starts in one tap); unfolded when a value in it is refused, or
    (``unfolded``) for a tap inside it answered without JavaScript (the card grid redrawn, the
    sample round), or with the banner of a saved set just picked or saved."""
    table = rule_set_key(str(form["table"].value() or ""))
    rules = form.shown_rules()
    settings, name = rules or ({}, "")
    context = {
        "form": form,
        "variant": form.variant,
        "rule_sets": phone_rule_sets(request),
        "known_names": known_names(request),
        "table": Table.objects.filter(edit_key=table).first() if table else None,
        "house_line": {"name": name, "changes": differences(form.variant.key, settings)},
        "unfolded": rules is None,
    }
    return render(request, "new_game_variant.html", context | shown, status=status)


def new_game_url(variant: str, players: dict, rules: str = "", saved: str = "") -> str:
    """The new-game page of ``variant`` showing ``players`` (``typed_players``) and a saved
    set: ``rules`` to fill the builder with, or ``saved``, the set just saved (scrolled to)."""
    query = {"rules": rules} if rules else {"saved": saved} if saved else {}
    url = reverse("new_game_variant", args=[variant])
    url += f"?{urlencode(query | players)}" if query or players else ""
    return url + ("#builder" if saved else "")


def rule_set_key(text: str) -> str:
    """A saved set's key as a query or a button sends it, or "" when it is no key at all (a
    NUL, say, which PostgreSQL refuses to be asked about: a 500)."""
    return text if re.fullmatch(KEY_PATTERN, text) else ""


def new_game_start(request: HtmxHttpRequest, variant: str) -> HttpResponse:
    """The new-game page as it opens: the variant's own rules, or a saved set's (``?rules=``,
    "Start a game with these rules"; ``?saved=``, the set this phone just saved), with the
    players a tap on another page carried in the query (``typed_players``)."""
    query = request.GET.copy()
    table_key = rule_set_key(query.get("table", ""))
    table = Table.objects.filter(edit_key=table_key).first() if table_key else None
    if table is not None and not any(key.startswith("name_") for key in query):
        query.update(table_seats(table, engine.GAMES[variant].max_players))
    rows = player_rows(query, min(4, engine.GAMES[variant].max_players))
    players = typed_players(query, rows)
    key = rule_set_key(query.get("saved") or query.get("rules", ""))
    picked = RuleSet.objects.filter(key=key, variant=variant).first() if key else None
    if picked is None:
        if table is not None and table.variant == variant and "rules" not in query:
            players |= NewGameForm.initial_of(table.settings, table.rules_name)
        return new_game_page(request, NewGameForm(variant=variant, rows=rows, initial=players))
    form = NewGameForm.showing(picked, players, rows=rows)
    if "saved" in request.GET and owns_rule_set(request, picked.key):
        return new_game_page(request, form, saved=picked)
    return new_game_page(request, form, picked=picked)


def table_seats(table: Table, most: int) -> dict[str, str]:
    """A new game's players from ``table`` (its first ``most`` seats), the deal moved on by
    one seat from its last game's first dealer, as a new-game form's query writes them."""
    names = table.players[:most]
    dealer = 0
    last = table.games.order_by("-created_at").only("players", "first_dealer").first()
    if last is not None and names and last.first_dealer < len(last.players):
        dealt = last.players[last.first_dealer].casefold()
        seats = [name.casefold() for name in names]
        dealer = (seats.index(dealt) + 1) % len(names) if dealt in seats else 0
    query = {f"name_{row}": name for row, name in enumerate(names)}
    return query | {"dealer": str(dealer)} if names else {}


def new_game_post(view):
    """A POST of the new-game form of a variant (404 for no variant): ``view`` gets the form's
    data and its number of player rows."""

    @wraps(view)
    def posted(request: HtmxHttpRequest, variant: str) -> HttpResponse:
        if variant not in engine.GAMES:
            raise Http404
        data = request.POST.copy()
        return view(request, variant, data, player_rows(data))

    return require_POST(private(posted))


@limited(RULE_SET)
@new_game_post
def save_rules(request, variant: str, data, rows: int) -> HttpResponse:
    """Save as…: the house rules kept under their name on this phone, then the new-game page
    again (by a redirect, the players in its query: Back and a reload send nothing again)."""
    if variant not in VARIANTS:  # Tambouille has no house rules to save
        raise Http404
    form = NewGameForm(data, variant=variant, rows=rows, only_rules=True, naming=True)
    if not form.is_valid():
        return new_game_page(request, form, status=400)
    saved = form.save_rules()
    remember_rule_set(request, saved.key, own=True)
    return redirect(new_game_url(variant, typed_players(data, rows), saved=saved.key))


@new_game_post
def preview(request, variant: str, data, rows: int) -> HttpResponse:
    """A sample round scored under the house rules as the builder sets them (htmx: only the
    sample; without JavaScript the page again, the builder open)."""
    if variant not in VARIANTS:
        raise Http404
    form = NewGameForm(data, variant=variant, rows=rows, only_rules=True)
    shown = {"preview": sample_round(form), "preview_refused": not form.is_valid()}
    if request.htmx:
        context = {"variant": engine.GAMES[variant], **shown}
        return render(request, "new_game_variant.html#preview", context)
    return new_game_page(request, form, unfolded=True, **shown)


@new_game_post
def cards(request, variant: str, data, rows: int) -> HttpResponse:
    """The page again with the card grid of the deck chosen (htmx takes only the grid), the
    rest as typed."""
    form = NewGameForm(variant=variant, rows=rows, initial=data.dict())
    return new_game_page(request, form, unfolded=True)


@new_game_post
def rule_set(request, variant: str, data, rows: int) -> HttpResponse:
    """A saved set picked (``rules``, its key; of this variant or another): its new-game page,
    the players typed kept."""
    picked = get_object_or_404(RuleSet, key=rule_set_key(data.get("rules", "")))
    return redirect(new_game_url(picked.variant, typed_players(data, rows), rules=picked.key))


@new_game_post
def other_variant(request, variant: str, data, rows: int) -> HttpResponse:
    """Other variant: the list of variants, the players typed kept."""
    players = urlencode(typed_players(data, rows))
    return redirect(reverse("new_game") + (f"?{players}" if players else ""))


@require_http_methods(["GET", "HEAD", "POST"])
@limited(NEW_GAME)
@private  # it lists this phone's house rules, by their keys
def new_game_variant(request: HtmxHttpRequest, variant: str) -> HttpResponse:
    if variant not in engine.GAMES:
        raise Http404
    if request.method != "POST":  # GET, or HEAD (its answer without the body)
        return new_game_start(request, variant)
    # Start the game; the page's other buttons post to addresses of their own (below).
    form = NewGameForm(request.POST, variant=variant, rows=player_rows(request.POST))
    if not form.is_valid():
        return new_game_page(request, form, status=400)
    game = form.save()
    remember(request, game.edit_key)
    return redirect("edit", key=game.edit_key)
