"""A saved set of house rules: its page (its whole rules in the table's numbers, to share
and to start a game with), kept by another phone, and changed by the phone that saved it.
Each view looks up, binds a form, calls its save, and renders or redirects, as
``scoring.game.views`` does. The steppers are the phone's (house.js): no post."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring.guards.limits import RULE_SET, limited
from scoring.house_rules.context import rule_set_context
from scoring.house_rules.forms import HouseRulesForm
from scoring.store.models import RuleSet
from scoring.web.device import owns_rule_set, remember_rule_set
from scoring.web.http import HtmxHttpRequest, private


@require_safe
@private  # reached by its key
def rule_set(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """A saved set's page: its whole rules in the table's numbers, to share and to start with."""
    found = get_object_or_404(RuleSet, key=key)
    context = rule_set_context(request, found)
    if request.htmx and context["lookup"] is not None:
        return render(request, "rules_variant.html#card_panel", context)
    return render(request, "rule_set.html", context)


@require_POST
def keep_rule_set(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """Another phone keeps a set it was sent in its own list."""
    found = get_object_or_404(RuleSet, key=key)
    remember_rule_set(request, found.key)
    kept = _("“%(name)s” is in this phone's house rules.") % {"name": found.name}
    messages.success(request, kept)
    return redirect("rule_set", key=found.key)


@require_http_methods(["GET", "HEAD", "POST"])
@limited(RULE_SET)
@private  # reached by its key
def edit_rule_set(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """Change a saved set (the games already started with it keep their own copy). Only the
    phone that saved it changes it; a phone it was shared with saves its own copy."""
    found = get_object_or_404(RuleSet, key=key)
    page, own = "rule_set_edit.html", owns_rule_set(request, found.key)
    context = {"rule_set": found, "own": own}
    if request.method != "POST":  # GET, or HEAD (its answer without the body)
        initial = HouseRulesForm.initial_of(found.settings, found.name)
        form = HouseRulesForm(variant=found.variant, naming=True, initial=initial)
        return render(request, page, {"form": form, **context})
    form = HouseRulesForm(request.POST, variant=found.variant, naming=True)
    if not form.is_valid():
        return render(request, page, {"form": form, **context}, status=400)
    saved = form.save_rules(found if own else None)
    remember_rule_set(request, saved.key, own=True)
    messages.success(
        request,
        _("The house rules are saved.") if own else _("Saved as this phone's own copy."),
    )
    return redirect("rule_set", key=saved.key)


@require_POST
@private  # reached by its key
def edit_rule_set_cards(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """A saved set's page again with the card grid of the deck chosen (htmx takes only the
    grid), the rest as typed; nothing saved."""
    found = get_object_or_404(RuleSet, key=key)
    form = HouseRulesForm(variant=found.variant, naming=True, initial=request.POST.dict())
    context = {"rule_set": found, "own": owns_rule_set(request, found.key), "form": form}
    return render(request, "rule_set_edit.html", context)
