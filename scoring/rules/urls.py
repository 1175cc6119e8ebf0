from __future__ import annotations

from django.urls import path

from scoring.rules import views

urlpatterns = [
    path("rules/", views.rules_index, name="rules"),
    path("rules/tambouille/", views.rules_tambouille, name="rules_tambouille"),
    path("rules/<slug:variant>/", views.rules_variant, name="rules_variant"),
]
