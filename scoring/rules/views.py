"""The rules pages: every variant's rules with the values of its cards, a card looked up
("what does a 9 do here?", from a sheet with its house settings), and Tambouille's."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from scoring.referee.tambouille import Tambouille
from scoring.referee.variants import VARIANTS
from scoring.rules.context import rules_context, tambouille_context
from scoring.web.http import HtmxHttpRequest


@require_safe
def rules_index(request: HtmxHttpRequest) -> HttpResponse:
    context = {"variants": VARIANTS.values(), "tambouille": Tambouille}
    return render(request, "rules_index.html", context)


@require_safe
def rules_variant(request: HtmxHttpRequest, variant: str) -> HttpResponse:
    if variant not in VARIANTS:
        raise Http404
    context = rules_context(VARIANTS[variant], request)
    if request.htmx and context["lookup"] is not None:
        return render(request, "rules_variant.html#card_panel", context)
    return render(request, "rules_variant.html", context)


@require_safe
def rules_tambouille(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "rules_tambouille.html", tambouille_context(request))
