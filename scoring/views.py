from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring.variants import VARIANTS


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"variants": VARIANTS.values()})
